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

// Which side this browser holds in `state`, or null when it watches.
function mySide(state) {
  const held = token(state.id);
  if (!held || !state.friends) return null;
  const first = localStorage.getItem(`${key(state.id)}-first`) === '1';
  // The first player is South unless the sides were swapped under the pie rule.
  return (first !== state.swapped) ? 'South' : 'North';
}

const other = (side) => (side === 'South' ? 'North' : 'South');

// Tells whether the friend has come to the game: seen here once by this browser, or has acted
// (the second player's first action is always North's, a swap included).
function joined(state) {
  return localStorage.getItem(`${key(state.id)}-joined`) === '1' || state.moves.some((mv) => mv.side === 'North');
}

function linkRow(label, url, id) {
  const row = el('p', { className: 'friends-link' });
  const input = el('input', { id, readOnly: true, value: url });
  input.setAttribute('aria-label', label);
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

function button(parent, id, text, action) {
  const b = el('button', { id, type: 'button' }, text);
  b.addEventListener('click', action);
  parent.append(b);
  return b;
}

// Draws what a game between friends adds to the page, each part where it moves nothing a player
// touches (a phone's screen holds the board and the buttons under it with no scrolling):
// - under the board, one line of a fixed height (style.css): who this browser plays and who is
//   here, and the player's buttons (Resign, or the answer to a takeback in its place); at the
//   end the end panel holds the rematch;
// - the takeback asked, or waited for, in the note above the board, which keeps its room;
// - under the main buttons, the links: the invitation in full until the friend has come (the
//   one thing the creator needs then), afterwards folded with the watch link into one line.
function draw(state) {
  const node = document.getElementById('friends');
  const links = document.getElementById('friends-links');
  node.hidden = links.hidden = !state.friends;
  const side = state.friends ? mySide(state) : null;
  drawButtons(state, side);
  if (!state.friends) return;
  document.getElementById('friends-who').textContent = side ? `You play ${side}.` : 'You are watching this game.';
  document.getElementById('presence').textContent = presenceText(side);
  drawLinks(state, side);
  const shown = document.getElementById('note').textContent;
  if (!side || state.result) return;
  // Said in the note, in place of the last move (app.js wrote it just before).
  if (state.takeback && state.takeback !== side) note('Your friend asks to take back their last move.');
  else if (state.takeback === side) note('You asked to take back your last move; waiting for your friend.');
  else if (invitation(state) && !state.last) note(SEND);
  // The friend came meanwhile (a presence, not a state, drew this).
  else if (shown === SEND) note('');
}

const SEND = 'Send your friend the invitation link (under the buttons).';

// The player's buttons: Resign, or the answer to a takeback in its place, while the game goes on;
// the rematch in the end panel after. Made again only when they change, so that a button keeps
// the keyboard's focus through the opponent's moves.
let buttonsShape = '';
function drawButtons(state, side) {
  const buttons = document.getElementById('friends-buttons');
  const end = document.getElementById('end-friends');
  const asked = !!state.takeback && state.takeback !== side;
  const shape = side
    ? JSON.stringify([state.id, side, !!state.result, asked, state.rematch, state.rematch_offer])
    : '';
  if (shape === buttonsShape) return;
  buttonsShape = shape;
  buttons.replaceChildren();
  end.replaceChildren();
  if (!side) return;
  if (state.result) {
    if (state.rematch) {
      button(end, 'rematch-open', 'Play the rematch', () => openRematch(state));
    } else if (state.rematch_offer === side) {
      end.append(el('span', { id: 'rematch-offered' }, 'Rematch offered; waiting for your friend.'));
    } else {
      const text = state.rematch_offer ? 'Accept the rematch' : 'Rematch (sides swapped)';
      button(end, 'rematch', text, () => post(state, 'rematch'));
    }
  } else if (asked) {
    button(buttons, 'takeback-accept', 'Accept takeback', () => post(state, 'takeback', { answer: 'accept' }));
    button(buttons, 'takeback-refuse', 'Refuse', () => post(state, 'takeback', { answer: 'refuse' }));
  } else {
    button(buttons, 'resign', 'Resign', () => { if (confirm('Resign this game?')) post(state, 'resign'); });
  }
}

// The invitation this browser holds for the friend, while it is still needed: the game goes on
// and the friend has not come yet.
function invitation(state) {
  const invite = localStorage.getItem(`${key(state.id)}-invite`);
  return invite && !state.result && !joined(state) ? invite : null;
}

function drawLinks(state, side) {
  const links = document.getElementById('friends-links');
  const invite = localStorage.getItem(`${key(state.id)}-invite`);
  const watch = `${location.origin}/?game=${state.id}`;
  const waiting = invitation(state);
  // Drawn again only when what it shows changes, so that a folded list opened stays open.
  const shape = JSON.stringify([state.id, invite, !!state.result, !!waiting, side]);
  if (links.dataset.shape === shape) return;
  links.dataset.shape = shape;
  links.replaceChildren();
  const rows = [];
  if (invite && !state.result) rows.push(linkRow('Invitation for your friend', `${watch}#seat=${invite}`, 'invite-link'));
  rows.push(linkRow('Watch link', watch, 'watch-link'));
  if (waiting) {
    links.append(...rows);
    return;
  }
  const folded = el('details');
  folded.append(el('summary', {}, rows.length > 1 ? 'Invitation and watch links' : 'Watch link'), ...rows);
  links.append(folded);
}

// Says who is here: the opponent for a player ("North is away"), both players for a spectator.
function presenceText(side) {
  if (!presence) return '';
  const sides = side ? [other(side)] : ['South', 'North'];
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
    if (!game || game.id !== state.id) return;
    // The friend has come: the invitation is no longer needed in full (draw folds it).
    const side = mySide(game);
    if (side && presence[other(side).toLowerCase()]) localStorage.setItem(`${key(state.id)}-joined`, '1');
    draw(game);
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
  // Every game's creator holds a token; only a game against a friend has an invitation.
  if (state.invite) localStorage.setItem(`${key(state.id)}-invite`, state.invite);
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
