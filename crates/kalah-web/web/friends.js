// Games against a friend, which only a `kalah serve` hosts: the invitation and watch links, the
// seat's token (kept in this browser, never in a watch link; backend.js sends it), the live
// channel (Server-Sent Events), takebacks, resigning and rematches. app.js calls the functions
// exported here; this module uses app.js's (the game shown, how to ask, show and note).
import { api, change, game, note, show } from './app.js';

const key = (id) => `kalah-seat-${id}`;
let live = null;       // the EventSource of the game followed
let liveId = null;
let presence = null;   // {south, north}: which players follow the game live now

// The token this browser holds for game `id`, if any.
function token(id) {
  return localStorage.getItem(key(id));
}

// The game id an API path names, for its token.
export function seatFor(path) {
  const match = /^\/api\/games\/([0-9a-f]+)/.exec(path);
  return match ? token(match[1]) : null;
}

function el(tag, attrs, text) {
  const node = document.createElement(tag);
  Object.assign(node, attrs || {});
  if (text) node.textContent = text;
  return node;
}

// The panel under the status: who this browser plays, the links, and the friends' buttons.
function panel() {
  let node = document.getElementById('friends');
  if (!node) {
    node = el('div', { id: 'friends', className: 'friends', hidden: true });
    document.getElementById('note').after(node);
  }
  return node;
}

// Which side this browser holds in `state`, or null when it watches.
function mySide(state) {
  const held = token(state.id);
  if (!held || !state.friends) return null;
  const first = localStorage.getItem(`${key(state.id)}-first`) === '1';
  // The first player is South unless the sides were swapped under the pie rule.
  return (first !== state.swapped) ? 'South' : 'North';
}

function linkRow(label, url, id) {
  const row = el('p', { className: 'friends-link' });
  const input = el('input', { id, readOnly: true, value: url });
  input.addEventListener('focus', () => input.select());
  const copy = el('button', { type: 'button' }, 'Copy');
  copy.addEventListener('click', () => {
    input.select();
    if (navigator.clipboard) navigator.clipboard.writeText(url).then(() => note(`${label} copied.`), () => {});
  });
  row.append(el('span', {}, `${label}: `), input, copy);
  return row;
}

async function post(state, what, body) {
  try {
    await change('POST', `/api/games/${state.id}/${what}`, body, false);
  } catch (error) {
    note(error.message, true);
  }
}

function draw(state) {
  const node = panel();
  node.hidden = !state.friends;
  if (!state.friends) return;
  node.replaceChildren();
  const side = mySide(state);
  node.append(el('p', { id: 'friends-who' }, side ? `You play ${side}.` : 'You are watching this game.'));
  node.append(el('p', { id: 'presence', className: 'presence' }, presenceText(side)));
  const invite = localStorage.getItem(`${key(state.id)}-invite`);
  if (invite && !state.result) {
    node.append(linkRow('Invitation for your friend', `${location.origin}/?game=${state.id}#seat=${invite}`, 'invite-link'));
  }
  node.append(linkRow('Watch link', `${location.origin}/?game=${state.id}`, 'watch-link'));
  if (!side) return;
  const buttons = el('p', { className: 'friends-buttons' });
  const button = (id, text, action) => {
    const b = el('button', { id, type: 'button' }, text);
    b.addEventListener('click', action);
    buttons.append(b);
  };
  if (state.takeback && state.takeback !== side && !state.result) {
    buttons.append(el('span', { id: 'takeback-asked' }, 'Your opponent asks to take back their last move. '));
    button('takeback-accept', 'Accept', () => post(state, 'takeback', { answer: 'accept' }));
    button('takeback-refuse', 'Refuse', () => post(state, 'takeback', { answer: 'refuse' }));
  } else if (state.takeback === side) {
    buttons.append(el('span', {}, 'You asked to take back your last move; waiting for the answer.'));
  }
  if (!state.result) {
    button('resign', 'Resign', () => { if (confirm('Resign this game?')) post(state, 'resign'); });
  } else if (state.rematch) {
    button('rematch-open', 'Play the rematch', () => openRematch(state));
  } else if (state.rematch_offer === side) {
    buttons.append(el('span', {}, 'Rematch offered; waiting for your opponent.'));
  } else {
    button('rematch', state.rematch_offer ? 'Accept the rematch' : 'Rematch (sides swapped)', () => post(state, 'rematch'));
  }
  node.append(buttons);
}

// Says who is here: the opponent for a player ("North is away"), both players for a spectator.
function presenceText(side) {
  if (!presence) return '';
  const sides = side ? [side === 'South' ? 'North' : 'South'] : ['South', 'North'];
  return sides.map((s) => `${s} is ${presence[s.toLowerCase()] ? 'here' : 'away'}`).join(' · ') + '.';
}

// The rematch: the same token holds the other seat there.
function openRematch(state) {
  const held = token(state.id);
  if (held) {
    localStorage.setItem(key(state.rematch), held);
    const first = localStorage.getItem(`${key(state.id)}-first`) === '1';
    localStorage.setItem(`${key(state.rematch)}-first`, first ? '0' : '1');
  }
  location.assign(`/?game=${state.rematch}`);
}

// Follows game `state.id` live: every change the server stores comes as a `state` event; a
// dropped channel reconnects by itself and gets what it missed (Last-Event-ID).
function follow(state) {
  if (!state.friends) {
    if (live) live.close();
    live = null;
    liveId = null;
    return;
  }
  if (liveId === state.id) return;
  if (live) live.close();
  liveId = state.id;
  presence = null;
  // A player's channel carries its token, so that the opponent sees the player is here.
  const held = token(state.id);
  live = new EventSource(`/api/games/${state.id}/live${held ? `?seat=${held}` : ''}`);
  live.addEventListener('presence', (event) => {
    presence = JSON.parse(event.data);
    const line = document.getElementById('presence');
    if (line && game && game.id === state.id) line.textContent = presenceText(mySide(game));
  });
  // The channel is down (the server restarts): nothing is known until it is back.
  live.addEventListener('error', () => {
    presence = null;
    const line = document.getElementById('presence');
    if (line) line.textContent = '';
  });
  live.addEventListener('state', (event) => {
    const next = JSON.parse(event.data);
    if (!game || game.id !== next.id || next.seq <= (game.seq || 0)) return;
    const moved = next.version !== game.version && next.ply === game.ply + 1;
    show(next, moved);
  });
}

// The side this browser plays in `state`, or null when it watches (or the game is not between friends).
export function sideOf(state) {
  return mySide(state);
}

// A page that goes away closes its live channel at once, so that the opponent sees the player
// away now rather than once the server notices the connection is gone; a page brought back
// from the browser's back-forward cache follows the game again.
window.addEventListener('pagehide', () => {
  if (live) live.close();
  live = null;
  liveId = null;
});
window.addEventListener('pageshow', (event) => {
  if (event.persisted && game) follow(game);
});

// The status a player of a game between friends reads while it goes on, from their own seat:
// "Your move", "Your friend's move" (the server's status names the sides, "South to move", for
// everyone, spectators too); null where the server's words stand (a spectator, the end).
export function status(state) {
  const side = mySide(state);
  if (!side || state.result || !state.to_move) return null;
  const me = state.to_move === side;
  if (state.phase === 'handicap') {
    return me ? 'You decide the handicap: keep the board, or move one seed' : 'Your friend decides the handicap';
  }
  if (state.phase === 'pie') return me ? 'Your move: sow a house, or swap sides' : "Your friend's move (they may swap sides)";
  return me ? 'Your move' : "Your friend's move";
}

// Tells whether this browser holds the side to decide in `state`.
export function mine(state) {
  return mySide(state) === state.to_move;
}

// A game against a friend was created here: keep the seat's token and the invitation.
export function created(state) {
  if (!state.token) return;
  localStorage.setItem(key(state.id), state.token);
  localStorage.setItem(`${key(state.id)}-invite`, state.invite);
  // The page creates games against a friend with the creator as the first player (South).
  localStorage.setItem(`${key(state.id)}-first`, '1');
}

// A state is on the screen: follow its game live if it is between friends, and draw the panel.
export function shown(state) {
  follow(state);
  draw(state);
}

// Opens `/?game=ID`, with `#seat=TOKEN` for a player: the token is kept here and taken out of
// the address, so that the address bar holds a watch link only.
export async function open(id) {
  const seat = new URLSearchParams(location.hash.slice(1)).get('seat');
  if (seat && /^[0-9a-f]{32}$/.test(seat)) {
    // The invitation holds the second seat (the creator took the first).
    localStorage.setItem(key(id), seat);
    localStorage.setItem(`${key(id)}-first`, '0');
    localStorage.removeItem(`${key(id)}-invite`);
  }
  history.replaceState(null, '', `/?game=${id}`);
  await show(await api('GET', `/api/games/${id}`), false);
}

// Asks the opponent to take back this player's last move (the undo button in such a game).
export function takeback() {
  if (game) post(game, 'takeback');
}
