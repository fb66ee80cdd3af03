// Games against a friend, which only a `kalah serve` hosts: the invitation and watch links, the
// seat's token (kept in this browser, never in a watch link; backend.js sends it), the live
// channel (Server-Sent Events), takebacks, resigning and rematches. app.js calls the functions
// exported here; this module uses app.js's (the game shown, how to ask, show and note).
// Every game this browser holds a seat of (a token), between friends or not, is listed under
// "Your games in progress" while it goes on, and its seat link moves the seat to another device.
import { api, change, game, note, redraw, show } from './app.js';
import { t } from './l10n.js';
import { rulesName } from './words.js';

const key = (id) => `kalah-seat-${id}`;
let live = null;       // the live channel (a Channel) of the game followed
let liveId = null;
let liveSeat = null;   // the token it was opened with
let presence = null;   // {south, north, pages}: which players follow the game live now
let down = false;      // the live channel is down (the server does not answer)
let seen = null;       // the last state shown, to tell what changed between two states
// What the note says about the state shown until it changes (a takeback answered, one's own
// invitation opened here): {id, at, text}.
let told = null;

const DOWN = t('friends-down');
const ALSO = t('friends-also');

// The page's address that links are built on: the server's public address (`kalah serve
// --public-url`, given as the page's canonical link) when it has one, which a friend can open
// even when this page was opened at an address only this machine knows; else this page's own.
export function pageAddress() {
  const canonical = document.querySelector('link[rel="canonical"]');
  return canonical ? canonical.href : `${location.origin}${location.pathname}`;
}

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

// Which change of its game a state is: its version counts the moves' changes, its seq every
// change stored (a takeback asked or answered too).
const at = (state) => `${state.version}/${state.seq}`;

const other = (side) => (side === 'South' ? 'North' : 'South');

// The opponent's name in a game the lobby paired, as the player of `state` here reads it, or
// null (a game between friends by invitation, a spectator).
export function opponentName(state) {
  const side = mySide(state);
  return state.names && side ? state.names[other(side).toLowerCase()] : null;
}

// Message `id` said to a player of `state`: its `-name` form, naming the opponent, in a game the
// lobby paired ("alice asks to take back…"), else "your friend" (an invitation's game).
function toOpponent(state, id, args) {
  const name = opponentName(state);
  return name ? t(`${id}-name`, { ...args, name }) : t(id, args);
}

// The side the person plays in a game against the engine.
function personSide(state) {
  return state.players.south === 'human' ? 'South' : 'North';
}

// Tells whether this browser holds a seat of game `state` (a token, or the lobby name's secret).
export function holds(state) {
  return !!token(state.id);
}

// Tells whether this page holds no token of game `state` between friends: it only watches.
export function spectator(state) {
  return !!state.friends && !token(state.id);
}

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
  const copy = el('button', { type: 'button' }, t('friends-copy'));
  copy.addEventListener('click', () => copyText(input, t('friends-link-copied', { label })));
  row.append(el('span', {}, `${t('friends-link-label', { label })} `), input, copy);
  return row;
}

// Copies the text of `input`, or, where the browser gives the page no clipboard (a page served
// over plain HTTP from another machine) or refuses it, selects it and says how to copy it.
export function copyText(input, done) {
  input.focus();
  input.select();
  const select = () => {
    input.focus();
    input.select();
    note(t('friends-selected'));
  };
  if (!navigator.clipboard || !navigator.clipboard.writeText) {
    select();
    return;
  }
  navigator.clipboard.writeText(input.value).then(() => note(done), select);
}

// A refusal as a person reads it: the server's words are for programs.
export function refusal(error) {
  if (error.status === 403) return t('friends-refused-watching');
  if (error.status === 409) return t('friends-refused-changed');
  return error.message;
}

async function post(state, what, body) {
  try {
    await change('POST', `/api/games/${state.id}/${what}`, body, false);
  } catch (error) {
    note(refusal(error), true);
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
  const held = token(state.id);
  // A rated game against the engine (the lobby's) is its player's to resign from the same line.
  const ratedEngine = !state.friends && !!state.rated && !!held;
  node.hidden = !state.friends && !ratedEngine;
  // Any game this browser holds a seat of has its seat link; a game between friends its
  // invitation and watch links too.
  links.hidden = !state.friends && !held;
  const side = state.friends ? mySide(state) : ratedEngine ? personSide(state) : null;
  drawButtons(state, side);
  if (!state.friends && !held) return;
  drawLinks(state, side);
  if (!state.friends) {
    if (ratedEngine) {
      document.getElementById('friends-who').textContent = t('friends-you-play', { side });
      document.getElementById('presence').textContent = '';
    }
    return;
  }
  document.getElementById('friends-who').textContent = side ? t('friends-you-play', { side }) : t('friends-watching');
  document.getElementById('presence').textContent = presenceText(side);
  const shown = document.getElementById('note').textContent;
  const mine = told && told.id === state.id && told.at === at(state) ? told.text : null;
  // Said in the note, in place of the last move (app.js wrote it just before).
  if (down) note(DOWN, true);
  else if (side && !state.result && state.takeback && state.takeback !== side) note(toOpponent(state, 'friends-takeback-asked'));
  else if (side && !state.result && state.takeback === side) note(toOpponent(state, 'friends-takeback-waiting'));
  else if (mine && told.first) note(mine);
  else if (side && presence && presence.pages && presence.pages[side.toLowerCase()] > 1) note(ALSO);
  else if (mine) note(mine);
  else if (side && invitation(state) && !state.last) note(SEND);
  // The friend came meanwhile, or the other page went (a presence, not a state, drew this).
  else if (shown === SEND || shown === ALSO || shown === DOWN) redraw();
}

// What changed between the state shown before and `state` that no field says: a takeback
// answered (the request gone, the ply lower: accepted; the same ply: refused), said to both
// players and the spectators until the game changes again.
function compare(state) {
  const before = seen;
  seen = { id: state.id, at: at(state), ply: state.ply, takeback: state.takeback, rematch: state.rematch };
  if (!before || before.id !== state.id || before.at === at(state)) return before;
  if (before.takeback && !state.takeback && !state.result && state.ply <= before.ply) {
    const side = mySide(state);
    const accepted = state.ply < before.ply;
    let text;
    if (side === before.takeback) text = toOpponent(state, accepted ? 'friends-takeback-yours-accepted' : 'friends-takeback-yours-refused');
    else if (side) text = accepted ? toOpponent(state, 'friends-takeback-you-accepted') : t('friends-takeback-you-refused');
    else text = t('friends-takeback-answered', { side: before.takeback, answer: accepted ? 'accepted' : 'refused' });
    told = { id: state.id, at: at(state), text };
  }
  return before;
}

const SEND = t('friends-send');

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
    // A game against the engine has no rematch to offer: New game plays another.
    if (!state.friends) return;
    if (state.rematch) {
      button(end, 'rematch-open', t('friends-rematch-open'), () => openRematch(state));
    } else if (state.rematch_offer === side) {
      end.append(el('span', { id: 'rematch-offered' }, toOpponent(state, 'friends-rematch-offered')));
    } else {
      const text = t(state.rematch_offer ? 'friends-rematch-accept' : 'friends-rematch');
      button(end, 'rematch', text, () => post(state, 'rematch'));
    }
  } else if (asked) {
    button(buttons, 'takeback-accept', t('friends-takeback-accept'), () => post(state, 'takeback', { answer: 'accept' }));
    button(buttons, 'takeback-refuse', t('friends-takeback-refuse'), () => post(state, 'takeback', { answer: 'refuse' }));
  } else {
    button(buttons, 'resign', t('friends-resign'), () => { if (confirm(t('friends-resign-confirm'))) post(state, 'resign'); });
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
  const invite = state.friends ? localStorage.getItem(`${key(state.id)}-invite`) : null;
  const held = token(state.id);
  const watch = `${pageAddress()}?game=${state.id}`;
  const waiting = state.friends ? invitation(state) : null;
  // Drawn again only when what it shows changes, so that a folded list opened stays open.
  const shape = JSON.stringify([state.id, invite, held, !!state.result, !!waiting, side]);
  if (links.dataset.shape === shape) return;
  links.dataset.shape = shape;
  links.replaceChildren();
  const rows = [];
  if (invite && !state.result) rows.push(linkRow(t('friends-invitation-link'), `${watch}#seat=${invite}`, 'invite-link'));
  if (state.friends) rows.push(linkRow(t('friends-watch-link'), watch, 'watch-link'));
  if (waiting) {
    links.append(...rows);
  } else if (rows.length) {
    const folded = el('details');
    folded.append(el('summary', {}, t(rows.length > 1 ? 'friends-links' : 'friends-watch-link')), ...rows);
    links.append(folded);
  }
  // One's own seat, to go on playing on another device: folded, with a plain warning. A game
  // the lobby paired is held by the player's name, which its own link carries (lobby.js).
  if (held && !state.result && !state.names) {
    const seat = el('details', { id: 'seat-details' });
    const player = state.friends ? `&player=${first(state.id) ? 'first' : 'second'}` : '';
    seat.append(
      el('summary', {}, t('friends-seat-elsewhere')),
      el('p', { className: 'warning' }, t('friends-seat-warning')),
      linkRow(t('friends-seat-link'), `${watch}#seat=${held}${player}`, 'seat-link'),
    );
    links.append(seat);
  }
}

// Tells whether this browser's seat of game `id` is the first player's.
function first(id) {
  return localStorage.getItem(`${key(id)}-first`) === '1';
}

// Says who is here: the opponent for a player ("North is away"), both players for a spectator.
function presenceText(side) {
  if (!presence) return '';
  const sides = side ? [other(side)] : ['South', 'North'];
  const each = sides.map((s) => t('friends-presence', { side: s, here: presence[s.toLowerCase()] ? 'yes' : 'no' }));
  return t(each.length > 1 ? 'friends-presence-both' : 'friends-presence-one', { south: each[0], north: each[1], side: each[0] });
}

// The rematch: the same token holds the other seat there. Opened in this page, as soon as both
// players want it (players and spectators alike: the state names it).
async function openRematch(state) {
  const held = token(state.id);
  if (held && !token(state.rematch)) {
    localStorage.setItem(key(state.rematch), held);
    localStorage.setItem(`${key(state.rematch)}-first`, first(state.id) ? '0' : '1');
  }
  try {
    await open(state.rematch);
  } catch (error) {
    note(t('friends-rematch-failed', { error: error.message }), true);
  }
}

// Follows game `state.id` live: every change the server stores comes as a `state` event; a
// dropped channel reconnects by itself and gets what it missed (Last-Event-ID).
function follow(state) {
  // A game the lobby paired is followed too: against the engine the server plays its moves.
  if (!state.friends && !state.names) {
    if (live) live.close();
    live = null;
    liveId = null;
    down = false;
    return;
  }
  // A page that took a seat (a seat link opened on a page that watched) follows as the player.
  const held = token(state.id);
  if (liveId === state.id && liveSeat === held) return;
  if (live) live.close();
  liveId = state.id;
  liveSeat = held;
  presence = null;
  down = false;
  // A player's channel carries its token, so that the opponent sees the player is here.
  live = new Channel(`/api/games/${state.id}/live`, state.friends ? held : null);
  live.addEventListener('presence', (event) => {
    presence = JSON.parse(event.data);
    if (!game || game.id !== state.id) return;
    // The friend has come: the invitation is no longer needed in full (draw folds it).
    const side = mySide(game);
    if (side && presence[other(side).toLowerCase()]) localStorage.setItem(`${key(state.id)}-joined`, '1');
    draw(game);
  });
  // The channel is down (the server restarts, the network is gone): said at once, and nothing
  // is known of who is here until it is back.
  const channel = live;
  live.addEventListener('error', () => {
    if (live !== channel) return;
    presence = null;
    down = true;
    if (game && game.id === state.id) draw(game);
  });
  // Back: what was said while it was down (a request that found no server too) goes.
  live.addEventListener('open', () => {
    if (live !== channel) return;
    const said = document.getElementById('note').textContent;
    const stale = down || said === DOWN || said === t('page-server-down');
    down = false;
    if (stale && game && game.id === state.id) redraw();
  });
  live.addEventListener('state', (event) => {
    const next = JSON.parse(event.data);
    if (!game || game.id !== next.id || next.seq <= (game.seq || 0)) return;
    const moved = next.version !== game.version && next.ply === game.ply + 1;
    show(next, moved);
  });
}

// A live channel: Server-Sent Events read from a fetch, which (unlike EventSource) sends the
// seat's token as an Authorization header rather than in the address, where proxies log it.
// It fires what EventSource fires (`open`, `error`, and each named event with its `data`) and
// reconnects as EventSource does, with `Last-Event-ID` so that no change is missed.
export class Channel extends EventTarget {
  constructor(url, token) {
    super();
    this.url = url;
    this.token = token;
    this.last = null;
    this.stopped = new AbortController();
    this.run();
  }

  close() {
    this.stopped.abort();
  }

  async run() {
    let wait = 1000;
    while (!this.stopped.signal.aborted) {
      try {
        const headers = { Accept: 'text/event-stream' };
        if (this.token) headers.Authorization = `Bearer ${this.token}`;
        if (this.last !== null) headers['Last-Event-ID'] = this.last;
        const response = await fetch(this.url, { headers, cache: 'no-store', signal: this.stopped.signal });
        // A refusal (a seat's token no longer valid, a game deleted) is not asked again soon.
        if (!response.ok || !response.body) throw new Error(`${response.status}`);
        this.dispatchEvent(new Event('open'));
        wait = 1000;
        await this.read(response.body.getReader());
      } catch (e) {
        if (this.stopped.signal.aborted) return;
      }
      if (this.stopped.signal.aborted) return;
      this.dispatchEvent(new Event('error'));
      await new Promise((resolve) => setTimeout(resolve, wait));
      wait = Math.min(wait * 2, 10000);
    }
  }

  // Reads events (blank-line separated `event:`, `data:`, `id:` fields) until the stream ends.
  async read(reader) {
    const decoder = new TextDecoder();
    let text = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      text += decoder.decode(value, { stream: true }).replace(/\r\n?/g, '\n');
      let end;
      while ((end = text.indexOf('\n\n')) >= 0) {
        const block = text.slice(0, end);
        text = text.slice(end + 2);
        let name = 'message';
        const data = [];
        for (const line of block.split('\n')) {
          const colon = line.indexOf(':');
          if (colon === 0) continue; // a comment: the server's keep-alive
          const field = colon < 0 ? line : line.slice(0, colon);
          const content = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
          if (field === 'event') name = content;
          else if (field === 'data') data.push(content);
          else if (field === 'id') this.last = content;
        }
        if (data.length) this.dispatchEvent(new MessageEvent(name, { data: data.join('\n') }));
      }
    }
  }
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
  // A game the lobby paired names the opponent.
  const name = state.names ? state.names[other(side).toLowerCase()] : null;
  const them = (key) => (name ? t(`${key}-name`, { name }) : t(`${key}-friend`));
  if (state.phase === 'handicap') return me ? t('friends-status-handicap') : them('friends-status-handicap');
  if (state.phase === 'pie') return me ? t('friends-status-pie') : them('friends-status-pie');
  return me ? t('friends-status-move') : them('friends-status-move');
}

// Tells whether this browser holds the side to decide in `state`.
export function mine(state) {
  return mySide(state) === state.to_move;
}

// A game was created here: keep the seat's token (any game's, whoever else plays) and the
// invitation (a game between friends).
export function created(state) {
  if (!state.token) return;
  localStorage.setItem(key(state.id), state.token);
  // Every game's creator holds a token; only a game against a friend has an invitation.
  if (state.invite) localStorage.setItem(`${key(state.id)}-invite`, state.invite);
  // The page creates games against a friend with the creator as the first player (South).
  localStorage.setItem(`${key(state.id)}-first`, '1');
}

// A state is on the screen: follow its game live if it is between friends, and draw the panel;
// the rematch both players wanted is opened at once; another game shown lists the games in
// progress again.
export function shown(state) {
  const before = compare(state);
  follow(state);
  draw(state);
  if (state.rematch && before && before.id === state.id && !before.rematch) openRematch(state);
  if (!before || before.id !== state.id) listGames(false);
}

// Opens `/?game=ID`, with `#seat=TOKEN` for a player (`&player=first` in a seat link of the
// first player's; an invitation holds the second seat): the token is kept here and taken out of
// the address, so that the address bar holds a watch link only. A browser that holds the other
// seat of the game keeps its own (its own invitation, opened here by mistake) and says so.
export async function open(id) {
  const hash = new URLSearchParams(location.hash.slice(1));
  const seat = hash.get('seat');
  let said = null;
  if (seat && /^[0-9A-Za-z_-]{16,}$/.test(seat)) {
    const held = token(id);
    if (!held) {
      localStorage.setItem(key(id), seat);
      localStorage.setItem(`${key(id)}-first`, hash.get('player') === 'first' ? '1' : '0');
    } else if (held !== seat) {
      said = localStorage.getItem(`${key(id)}-invite`) === seat
        ? t('friends-own-invitation')
        : t('friends-other-seat');
    }
  }
  history.replaceState(null, '', `${location.pathname}?game=${id}`);
  const state = await api('GET', `/api/games/${id}`);
  // Said before the game being open twice (the invitation opened in a second tab is both).
  if (said) told = { id, at: at(state), text: said, first: true };
  await show(state, false);
}

// ---- the games in progress ----

// The games this browser holds a seat of: its seat keys.
function heldGames() {
  const ids = [];
  for (let i = 0; i < localStorage.length; i++) {
    // A seat of a server's game; or a game the static site keeps in this browser (local.js).
    const match = /^kalah-(?:seat|kept)-([0-9a-z]+)$/.exec(localStorage.key(i) || '');
    if (match) ids.push(match[1]);
  }
  return ids.sort();
}

// Forgets game `id`: the server no longer has it (or the page deleted it).
export function forget(id) {
  for (const what of ['', '-first', '-invite', '-joined']) localStorage.removeItem(`${key(id)}${what}`);
}

// One game in progress as a player reads it in the list.
function entryText(state) {
  const side = mySide(state);
  const people = state.players.south === 'human' && state.players.north === 'human';
  const alone = people ? 'friends-entry-people' : 'friends-entry-engine';
  const who = state.friends ? (side ? 'friends-entry-player' : 'friends-entry-friends') : alone;
  // The side to move said in the page's language (the server's status is in English).
  const turn = status(state) || (state.to_move ? t('friends-entry-to-move', { side: state.to_move }) : state.status);
  const against = who === 'friends-entry-player' ? toOpponent(state, who, { side }) : t(who, { side });
  return t('friends-entry', { rules: rulesName(state.rules), who: against, turn });
}

// Lists under "Your games in progress" the games this browser holds a seat of that are not over
// (each asked of the server; one it no longer has is forgotten), each opened with one click;
// `unfold` opens the list (the page opened with no game link).
let listing = 0;
export async function listGames(unfold) {
  const asked = ++listing;
  const answers = await Promise.all(heldGames().map((id) => api('GET', `/api/games/${id}`).then(
    (state) => state,
    (error) => {
      if (error.status === 404) forget(id);
      return null;
    },
  )));
  if (asked !== listing) return;
  // The game shown is not listed: the list is of the others.
  const going = answers.filter((state) => state && !state.result && !(game && game.id === state.id));
  const section = document.getElementById('games');
  document.getElementById('games-summary').textContent = t('friends-games', { count: going.length });
  document.getElementById('games-list').replaceChildren(...going.map((state) => {
    const item = el('li');
    item.append(el('a', { href: `${location.pathname}?game=${state.id}` }, entryText(state)));
    return item;
  }));
  section.hidden = going.length === 0;
  if (unfold && going.length) {
    section.open = true;
    if (!document.getElementById('note').textContent) note(t('friends-games-listed'));
  }
}

// Asks the opponent to take back this player's last move (the undo button in such a game).
export function takeback() {
  if (game) post(game, 'takeback');
}
