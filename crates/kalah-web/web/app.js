// The Kalah page: draws the board the backend sends, animates sowings, and sends the player's
// actions to it (README, "Playing in the browser"): the engine in this browser (local.js) or a
// `kalah serve` (its JSON API), as backend.js finds. Plain JavaScript modules, no build step.
import { connect, engineTimeSaid } from './backend.js';
import * as friends from './friends.js';
import * as lobby from './lobby.js';
import * as searches from './searches.js';
import { t, attribute, number, switcher } from './l10n.js';
import { known, ruleWord, rulesText, side } from './words.js';

const $ = (id) => document.getElementById(id);

// ---- the page's words (l10n.js: the catalogs in crates/kalah-l10n/l10n/) ----

// An action as the move list and a hint show it: a house's number, `swap`, `keep`, `S3>N2`.
function actionText(action) {
  if (action === 'swap') return t('page-action-swap');
  if (action === 'keep') return t('page-action-keep');
  return action;
}

// A value with two decimals and its sign, as the page's language writes it: "+1.25", "-0.50".
function signedDecimal(x) {
  return number(Number(x), { minimumFractionDigits: 2, maximumFractionDigits: 2, signDisplay: 'exceptZero' });
}

let variants = null;  // GET /api/variants
export let game = null;  // the last GameState
let shown = 0;        // counts renders, so a stale animation or answer stops
let pending = 0;      // requests that change the game, under way
let animating = false;
let handicapFrom = null;  // the house a handicap seed is taken from, e.g. "S3"
let hintCell = null;
let analysed = -1;    // the version whose analysis was asked for
let thinking = false;  // the engine's move is being asked for
let paused = false;    // opened from a link: the engine waits for "Engine, move"

// ---- the API ----

// The backend (backend.js): this browser's engine, or the server's API; both answer alike.
let backend = null;

export function api(method, path, body, signal) {
  return backend.api(method, path, body, signal);
}

// A request that changes the game: the page is busy until it is answered and shown.
export async function change(method, path, body, animate) {
  pending++;
  updateBusy();
  try {
    let state;
    // The game changes: an analysis of the position before would be answered for nobody.
    stopAnalysis();
    for (;;) {
      try {
        state = await api(method, path, body);
        break;
      } catch (error) {
        // A busy server says when to ask again: the page waits and asks again by itself.
        if (error.status !== 503 || !error.retryAfter) throw error;
        note(t('page-busy-retrying'));
        await sleep(1000 * Math.min(error.retryAfter, 10));
      }
    }
    await show(state, animate);
  } catch (error) {
    if (error.status === 403) {
      note(friends.refusal(error), true);
    } else if (error.status === 409 || error.status === 404) {
      note(error.message);
      await sleep(200);
      await refresh();
    } else {
      note(error.message, true);
    }
  } finally {
    pending--;
    updateBusy();
  }
  maybeEngine();
}

async function refresh() {
  if (!game) return;
  try {
    await show(await api('GET', `/api/games/${game.id}`), false);
  } catch (error) {
    note(error.message, true);
  }
}

function updateBusy() {
  const busy = pending > 0 || animating;
  document.body.dataset.busy = busy ? '1' : '0';
  document.body.dataset.phase = game ? game.phase : '';
  // The number of changes the server stored of the game shown (a game against a friend's pages
  // and the browser tests compare it).
  document.body.dataset.seq = game && game.seq !== undefined ? String(game.seq) : '';
}

export function note(text, isError) {
  const el = $('note');
  el.textContent = text || '';
  el.classList.toggle('error', !!isError);
  fitLines(el);
}

// The status and the note above the board keep the room of two lines (style.css), so that a
// text that wraps never moves the board; a text longer than two lines is set smaller until it
// fits them (and only grows the box if even the smallest size does not fit).
function fitLines(el) {
  el.classList.remove('tight', 'tighter');
  const room = parseFloat(getComputedStyle(el).minHeight) + 1;
  if (el.getBoundingClientRect().height <= room) return;
  el.classList.add('tight');
  if (el.getBoundingClientRect().height <= room) return;
  el.classList.replace('tight', 'tighter');
}

function setStatus(text) {
  const el = $('status');
  el.textContent = text;
  fitLines(el);
}

// ---- clocks ----

// The clocks of a timed game, shown in each store and counted down here between the server's
// answers; the server keeps the time and ends the game when a clock runs out.
let clockAt = 0;  // when the shown state's clock was read (performance.now())
let clockAsked = false;

function clockText(ms) {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  const m = Math.floor(seconds / 60);
  return `${m}:${String(seconds % 60).padStart(2, '0')}`;
}

function drawClocks() {
  if (!game) return;
  const m = game.houses;
  for (const [side, cell] of [['South', m], ['North', 2 * m + 1]]) {
    const el = $('board').querySelector(`.pit[data-cell="${cell}"] .clock`);
    if (!el) continue;
    el.hidden = !game.clock;
    if (!game.clock) continue;
    const running = game.clock.running === side;
    const left = game.clock[`${side.toLowerCase()}_ms`] - (running ? performance.now() - clockAt : 0);
    el.textContent = clockText(left);
    el.classList.toggle('running', running);
    el.classList.toggle('low', left < 10000);
    // Out of time here: ask the server, which ends the game.
    if (running && left <= 0 && !clockAsked) {
      clockAsked = true;
      refresh().finally(() => { clockAsked = false; });
    }
  }
}

setInterval(drawClocks, 200);

// ---- sound and theme ----

// Short tones made on the spot (Web Audio): no sound files, nothing from the network. Off by
// default; the choice is kept in this browser.
const sound = (() => {
  let context = null;
  const tone = (frequency, seconds, volume) => {
    if (!$('sound-on').checked) return;
    context = context || new AudioContext();
    const oscillator = context.createOscillator();
    const gain = context.createGain();
    oscillator.frequency.value = frequency;
    gain.gain.setValueAtTime(volume, context.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.0001, context.currentTime + seconds);
    oscillator.connect(gain).connect(context.destination);
    oscillator.start();
    oscillator.stop(context.currentTime + seconds);
  };
  return {
    drop: () => tone(660, 0.06, 0.08),
    capture: () => { tone(330, 0.25, 0.15); setTimeout(() => tone(247, 0.3, 0.15), 120); },
    extra: () => { tone(784, 0.12, 0.1); setTimeout(() => tone(988, 0.15, 0.1), 100); },
  };
})();

// The theme: as the system (prefers-color-scheme), or light or dark as chosen, kept in this browser.
function setTheme(choice) {
  if (choice === 'light' || choice === 'dark') document.documentElement.dataset.theme = choice;
  else delete document.documentElement.dataset.theme;
  localStorage.setItem('kalah-theme', choice);
}

// ---- the board ----

// Cells as the API numbers them: South's houses 0..m-1, South's store m, North's houses
// m+1..2m, North's store 2m+1.
function cellsOf(board) {
  return [...board.south, board.south_store, ...board.north, board.north_store];
}

// The board itself (its pits, layout, stones and labels) is the project's, shared with
// kalah kgp serve's page: board.js, which defines KalahBoard.
function cellName(cell, m) {
  return KalahBoard.cellName(cell, m);
}

function handicapName(cell, m) {
  return cell < m ? `S${cell + 1}` : `N${cell - m}`;
}

function buildBoard(m) {
  const board = $('board');
  KalahBoard.build(board, m, clickCell);
  // Each store holds its side's clock, shown in a timed game.
  for (const cell of [2 * m + 1, m]) {
    const clock = document.createElement('span');
    clock.className = 'clock';
    clock.hidden = true;
    clock.setAttribute('role', 'timer');
    clock.setAttribute('aria-label', attribute('page-clock', 'aria-label', { side: cell === m ? 'South' : 'North' }));
    pitOf(cell).append(clock);
  }
}

// Lays the board out for the screen's width; a board down the screen (many houses on a phone)
// takes the height the page leaves it, so that it and the main buttons (New game, Undo, Hint)
// share one screen.
function placeCells() {
  const board = $('board');
  KalahBoard.layout(board);
  const top = board.getBoundingClientRect().top + window.scrollY;
  const below = document.querySelector('.side .buttons').getBoundingClientRect().bottom
    - board.getBoundingClientRect().bottom;
  KalahBoard.fit(board, window.innerHeight - top - below - 8);
}

// A board fitted to the height is fitted again whenever something above it or between it and
// the main buttons changes height (a decision's buttons, the friends' lines, the end panel, a
// status set smaller): the sizes, not the places, of those parts are watched, so fitting the
// board (which moves them) does not call itself. At most once a frame.
function refitOnChanges() {
  if (!('ResizeObserver' in window)) return;
  let asked = false;
  const watcher = new ResizeObserver(() => {
    if (asked) return;
    asked = true;
    requestAnimationFrame(() => {
      asked = false;
      if (game) placeCells();
    });
  });
  const play = document.querySelector('.play');
  const parts = [document.querySelector('header'), ...[...play.children].filter((el) => el.id !== 'board'),
    document.querySelector('.side .buttons')];
  for (const el of parts) watcher.observe(el);
}

function drawCells(cells) {
  KalahBoard.draw($('board'), cells);
}

function pitOf(cell) {
  return KalahBoard.pit($('board'), cell);
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function speed() {
  return Number($('speed').value);
}

// Plays the last sowing seed by seed from the board before it.
async function animateLast(state, render) {
  const last = state.last;
  const delay = speed();
  if (!last || !last.path.length || delay <= 0) return;
  animating = true;
  updateBusy();
  try {
    const cells = cellsOf(last.before);
    drawCells(cells);
    clearMarks();
    for (const step of last.path) {
      if (render !== shown) return;
      const el = pitOf(step.cell);
      if (step.kind === 'lift') {
        cells[step.cell] = 0;
        el.classList.add('from');
      } else {
        cells[step.cell] += 1;
        el.classList.add('sown');
        sound.drop();
      }
      drawCells(cells);
      await sleep(step.kind === 'lift' ? delay * 1.5 : delay);
      el.classList.remove('sown');
    }
    const sowed = last.sowed || {};
    if (sowed.captured) sound.capture();
    else if (sowed.extra_move && !sowed.ended) sound.extra();
    await sleep(delay);
  } finally {
    animating = false;
    updateBusy();
  }
}

function clearMarks() {
  for (const el of $('board').querySelectorAll('.pit')) {
    el.classList.remove('from', 'last', 'sown', 'captured', 'extra', 'hint', 'picked', 'gain', 'turn-south', 'turn-north');
  }
}

// ---- showing a state ----

export async function show(state, animate) {
  // A state older than the one shown (a move's answer that comes after the live channel told
  // of the engine's answer to it) is passed by.
  if (game && state.id === game.id && state.seq < game.seq) return;
  const render = ++shown;
  const newBoard = !game || game.id !== state.id || game.houses !== state.houses;
  const another = !game || game.id !== state.id;
  game = state;
  clockAt = performance.now();
  handicapFrom = null;
  hintCell = null;
  sessionStorage.setItem('kalah-game', state.id);
  if (backend && backend.showing) backend.showing(state.id);
  nameInAddress(state.id);
  $('start-new').hidden = true;
  if (newBoard) buildBoard(state.houses);
  KalahBoard.flip($('board'), viewerSide(state) === 'North');
  if (animate) await animateLast(state, render);
  if (render !== shown) return;
  draw();
  updateBusy();
  friends.shown(state);
  lobby.shown(state);
  searches.shown(state);
  // The board is fitted to the screen once everything above and below it is drawn, for every
  // state: what surrounds it may have changed height (the end panel); refitOnChanges catches
  // what changes between states. Fitted here, it is in place when the page says it is idle.
  placeCells();
  // Another game (a new one, a game the lobby paired, one opened from a list) is shown from its
  // status down: a page scrolled to the button that started it (a phone's lobby) comes back up.
  if (another && $('status').getBoundingClientRect().top < 0) $('status').scrollIntoView({ block: 'start' });
  // A timed game: a person's clock starts once the move before is on the screen.
  if (state.clock && state.to_move && !state.engine_to_move) {
    api('POST', `/api/games/${state.id}/shown`, { version: state.version }).then((s) => {
      if (game && game.id === s.id && game.version === s.version) {
        game.clock = s.clock;
        clockAt = performance.now();
      }
    }, () => {});
  }
  analyse();
  explore();
  if (!pending) maybeEngine();
}

// Draws the state shown again (the note back to the last move, after something said there).
export function redraw() {
  if (!game) return;
  draw();
  friends.shown(game);
}

// The address bar names the game shown (`?game=ID`), so that a reload opens it, whatever link
// opened the page and whatever games were started since (the static site keeps each of its games
// in the browser under its id, so its addresses name them too).
function nameInAddress(id) {
  if (!backend) return;
  if (new URLSearchParams(location.search).get('game') === id && !location.hash) return;
  history.replaceState(null, '', `${location.pathname}?game=${id}`);
}

function draw() {
  const m = game.houses;
  drawCells(cellsOf(game.board));
  clearMarks();
  const board = $('board');
  board.classList.toggle('south-to-move', game.to_move === 'South');
  board.classList.toggle('north-to-move', game.to_move === 'North');
  board.classList.toggle('over', !!game.result);
  // In a game against a friend, only the side this browser holds (friends.js says which).
  const mine = !game.friends || friends.mine(game);
  const person = game.to_move && !game.engine_to_move && mine;
  const handicap = person && game.phase === 'handicap';
  for (const el of board.querySelectorAll('.pit.house')) {
    const cell = Number(el.dataset.cell);
    const side = cell < m ? 'South' : 'North';
    const house = cell < m ? cell + 1 : cell - m;
    const playable = person && (handicap
      ? game.board[side.toLowerCase()][house - 1] > 0
      : side === game.to_move && game.legal.includes(String(house)));
    el.classList.toggle('playable', playable);
    // Not `disabled`: a house played with Enter keeps the keyboard's focus (a disabled button
    // loses it to the page). Houses that cannot be played now are out of the Tab order.
    el.setAttribute('aria-disabled', String(!playable));
    el.tabIndex = playable ? 0 : -1;
  }
  keepFocus();
  markTurns();
  markLast();
  drawClocks();
  const status = $('status');
  const waiting = engineWaits();
  status.classList.toggle('over', !!game.result);
  // An engine move stopped by an undo is still being wound up: the position shown is not its.
  // A player of a game between friends reads it from their seat ("Your move"), friends.js says.
  const said = (game.friends && friends.status(game)) || personStatus(game) || gameStatus(game);
  setStatus(thinking && game.engine_to_move ? t('page-thinking', { status: said })
    : waiting ? t('page-waiting', { status: said, why: waiting }) : said);
  $('engine-go').hidden = !(paused && engineMovesNow(true));
  // A player of a game between friends reads the seats as "you" and "your friend".
  const seat = game.friends ? friends.sideOf(game) : null;
  const friend = (side) => (game.names ? game.names[side.toLowerCase()] : t('page-your-friend'));
  const named = (side) => (seat ? (seat === side ? t('page-you') : friend(side))
    : game.names ? game.names[side.toLowerCase()] : playerName(game.players[side.toLowerCase()]));
  $('rules-line').textContent = t('page-rules-line', { rules: rulesText(game.rules), south: named('South'), north: named('North') });
  $('swap').hidden = !(person && game.legal.includes('swap'));
  $('keep').hidden = !handicap;
  // A decision to take takes the legend's place (style.css), so the buttons below stay put.
  const deciding = ['swap', 'keep', 'engine-go'].some((id) => !$(id).hidden);
  $('under-board').classList.toggle('deciding', deciding);
  const unplayed = game.moves.some((mv) => !mv.played);
  // Between friends an undo is a takeback the opponent answers (friends.js), and says so.
  $('undo-label').textContent = t(game.friends ? 'page-take-back' : 'page-undo');
  $('undo').disabled = game.ply === 0;
  $('redo').disabled = !unplayed;
  // A game lost on time or by resigning keeps its board as it ended (the server refuses undo).
  const decided = !!game.result && !!(game.result.lost_on_time || game.result.resigned);
  if (decided) $('undo').disabled = $('redo').disabled = true;
  // Between friends there is no redo (a takeback is answered, not redone), no takeback once
  // the game is over, and a page holding no seat (a spectator) has neither.
  if (game.friends) {
    $('redo').disabled = true;
    if (game.result || friends.spectator(game)) $('undo').disabled = true;
  }
  // A spectator of a game between friends has no takeback or redo at all: not shown.
  const watching = !!game.friends && friends.spectator(game);
  $('undo').hidden = watching;
  $('redo').hidden = watching;
  // A rated game is played as it goes: no undo, redo or takeback (the server refuses them).
  if (game.rated) $('undo').disabled = $('redo').disabled = true;
  $('hint').disabled = !game.to_move || !evaluationAllowed();
  renderMoves();
  // A game between friends that goes on has no evaluation to show, and its room goes to the
  // friends' lines (a phone keeps the board and the buttons on one screen).
  $('eval').hidden = !evaluationAllowed();
  if (!evaluationAllowed()) {
    $('eval-text').textContent = t(game.rated ? 'page-no-eval-rated' : 'page-no-eval-friends');
    setBar(0);
  } else if (!$('eval-on').checked) {
    $('eval-text').textContent = t('page-eval-off');
    setBar(0);
  }
  drawEnd();
}

// The end of a game: the result in a panel under the board with the ways on: the same game again
// (a game between friends offers its rematch there instead: friends.js) or another.
function drawEnd() {
  // A game stepped back from its end is not over where it is shown; one lost on time or by
  // resigning is over where it stopped, moves taken back before it (a takeback) or not.
  const r = game.result;
  const decided = !!r && !!(r.lost_on_time || r.resigned);
  const over = !!r && (decided || !game.moves.some((mv) => !mv.played));
  $('game-end').hidden = !over;
  if (!over) return;
  const mine = game.friends ? friends.sideOf(game) : null;
  // A game the lobby paired names its players: the winner, and the opponent a player lost to.
  const player = (name) => (game.names ? game.names[name.toLowerCase()] : playerName(game.players[name.toLowerCase()]));
  const winner = r.winner && t('page-end-winner', { side: side(r.winner), player: player(r.winner) });
  const opponent = friends.opponentName(game);
  const them = (id) => (opponent ? t(`${id}-name`, { name: opponent }) : t(id));
  let text;
  // A game decided by resigning or on time says how: its stores are not its score.
  if (r.resigned) {
    if (mine) text = r.resigned === mine ? t('page-end-you-resigned') : them('page-end-friend-resigned');
    else text = t('page-end-resigned', { side: side(r.resigned), winner });
  } else if (r.lost_on_time) {
    if (mine) text = r.lost_on_time === mine ? t('page-end-you-lost-on-time') : them('page-end-friend-out-of-time');
    else text = t('page-end-out-of-time', { side: side(r.lost_on_time), winner });
  } else if (!r.winner) text = t('page-end-draw', { south: r.south, north: r.north });
  else if (mine) {
    // The player's own score first, as people say it: "You won 37–35."
    const [own, theirs] = mine === 'South' ? [r.south, r.north] : [r.north, r.south];
    text = t(r.winner === mine ? 'page-end-you-won' : 'page-end-you-lost', { own, theirs });
  }
  else text = t('page-end-won', { winner, south: r.south, north: r.north });
  $('game-end-text').textContent = text;
  $('play-again').hidden = game.friends;
}

// The status a person who plays the engine reads on their turn: "Your move" (the server's
// status names the side, "South to move", as for two people at one screen); null otherwise.
function personStatus(state) {
  if (state.friends || !state.to_move || state.engine_to_move || state.result) return null;
  const engine = (player) => player.startsWith('engine');
  const [south, north] = [state.players.south, state.players.north];
  if (engine(south) === engine(north)) return null;
  if (state.phase === 'handicap') return t('page-your-handicap');
  if (state.phase === 'pie') return t('page-your-move-pie');
  return t('page-your-move');
}

// The status line of the game (whose turn it is, or how the game ended), in the page's
// language: the server's `status` (kalah-table's `status_of`) said again from the state's fields.
function gameStatus(state) {
  const who = (name) => {
    const level = /^engine:(\d+)$/.exec(state.players[name.toLowerCase()] || '');
    return level ? t('page-side-engine', { side: side(name), level: level[1] }) : side(name);
  };
  const other = (name) => (name === 'South' ? 'North' : 'South');
  const r = state.result;
  if (state.aborted) return t('page-status-aborted', { side: side(state.aborted) });
  if (r && r.lost_on_time) return t('page-status-lost-on-time', { loser: who(r.lost_on_time), winner: who(other(r.lost_on_time)) });
  if (r && r.resigned) return t('page-status-resigned', { loser: who(r.resigned), winner: who(other(r.resigned)) });
  if (r) {
    const margin = r.south - r.north;
    if (margin === 0) return t('page-status-draw', { south: r.south, north: r.north });
    return t('page-status-won', { south: r.south, north: r.north, winner: who(margin > 0 ? 'South' : 'North'), margin: Math.abs(margin) });
  }
  const mover = state.to_move || 'South';
  if (state.phase === 'handicap') return t('page-status-handicap', { who: who(mover) });
  if (state.phase === 'pie') return t('page-status-pie', { who: who(mover) });
  if (state.phase === 'over') return state.status;
  return t('page-status-to-move', { who: who(mover) });
}

// A player as people say it: "engine level 3", "a person".
// The side whose houses this browser shows along the bottom: the side it holds in a game
// between friends, North where a person plays North against the engine, else South (a spectator,
// two people at one screen, the engine against itself).
function viewerSide(state) {
  if (state.friends) return friends.sideOf(state) || 'South';
  const person = (player) => player === 'human';
  return person(state.players.north) && !person(state.players.south) ? 'North' : 'South';
}

function playerName(player) {
  const level = /^engine:(\d+)$/.exec(player);
  if (level) return t('page-engine-level', { level: level[1] });
  return player === 'human' ? t('page-a-person') : player;
}

function playAgain() {
  if (!game) return;
  newGame({
    rules: game.rules,
    position: game.start,
    south: game.seats ? game.seats[0] : game.players.south,
    north: game.seats ? game.seats[1] : game.players.north,
  })
    .catch((error) => note(error.message, true));
}

// Marks on the board the houses each player sowed from in its last turn played.
function markTurns() {
  const m = game.houses;
  const played = game.moves.filter((mv) => mv.played);
  const turns = turnsOf(played);
  for (const side of ['South', 'North']) {
    const turn = [...turns].reverse().find((t) => t.side === side && /^\d+$/.test(t.moves[0].action));
    if (!turn) continue;
    for (const mv of turn.moves) {
      const house = Number(mv.action);
      pitOf(side === 'South' ? house - 1 : m + house).classList.add(`turn-${side.toLowerCase()}`);
    }
  }
}

// A note about the game shown that stays until the game changes (its first drawing would
// otherwise clear it): {id, version, text, error}.
let standing = null;

// Says `text` about the game shown until it changes.
function sayUntilChanged(text, isError) {
  standing = game ? { id: game.id, version: game.version, text, error: !!isError } : null;
  note(text, isError);
}

function markLast() {
  const last = game.last;
  const m = game.houses;
  if (!last) {
    const stands = standing && standing.id === game.id && standing.version === game.version;
    if (stands) note(standing.text, standing.error);
    else note('');
    return;
  }
  const mover = last.side;
  const store = mover === 'South' ? m : 2 * m + 1;
  let text;
  if (last.path.length) {
    const from = last.path[0].cell;
    const drops = last.path.filter((s) => s.kind === 'drop');
    const end = drops.length ? drops[drops.length - 1].cell : from;
    pitOf(from).classList.add('from');
    pitOf(end).classList.add('last');
    text = t('page-last-sowed', { side: side(mover), house: last.action });
    const sowed = last.sowed || {};
    if (sowed.relays) text += t('page-last-relays', { count: sowed.relays });
    if (sowed.captured) {
      pitOf(end).classList.add('captured');
      if (end !== store) pitOf(2 * m - end).classList.add('captured');
      pitOf(store).classList.add('gain');
      text += t('page-last-captured', { count: sowed.captured });
    }
    if (sowed.extra_move && !sowed.ended) {
      pitOf(store).classList.add('extra');
      text += t('page-last-extra', { side: side(mover) });
    }
    if (sowed.ended) text += t('page-last-ended');
  } else if (last.action === 'swap') {
    text = t('page-last-swapped', { side: side(mover) });
  } else if (last.action === 'keep') {
    text = t('page-last-kept');
  } else {
    const [from, to] = last.action.split('>');
    for (const name of [from, to]) {
      const cell = name[0] === 'S' ? Number(name.slice(1)) - 1 : m + Number(name.slice(1));
      pitOf(cell).classList.add(name === from ? 'from' : 'last');
    }
    text = t('page-last-handicap', { from, to });
  }
  note(t('page-sentence', { text }));
}

// The game's turns (a player's sowings until the other moves; a swap or handicap decision is a
// turn of its own), each a list of moves, as records count them.
function turnsOf(moves) {
  const turns = [];
  let goesOn = false;
  for (const mv of moves) {
    const last = turns[turns.length - 1];
    const sow = /^\d+$/.test(mv.action);
    if (last && goesOn && sow && last.side === mv.side) last.moves.push(mv);
    else turns.push({ side: mv.side, moves: [mv] });
    const s = mv.sowed || {};
    goesOn = sow && !!s.extra_move && !s.ended;
  }
  return turns;
}

// The move list: numbered rows of South's turn and North's, as records write them; every move
// is a button that shows the position after it.
function renderMoves() {
  const list = $('moves');
  list.innerHTML = '';
  const button = (ply, text, label, played) => {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = text;
    b.setAttribute('aria-label', label);
    b.className = played ? 'played' : 'undone';
    if (ply === game.ply) b.setAttribute('aria-current', 'step');
    b.addEventListener('click', () => change('POST', `/api/games/${game.id}/goto`, { ply }, false));
    return b;
  };
  const start = document.createElement('li');
  start.className = 'start';
  start.append(button(0, t('page-moves-start'), t('page-moves-start-label'), true));
  list.append(start);
  let row = null;
  let number = 0;
  for (const turn of turnsOf(game.moves)) {
    const column = turn.side === 'South' ? 0 : 1;
    if (!row || column === 0 || row.cells[1].childElementCount || row.cells[0].childElementCount === 0 && row.used) {
      number++;
      const li = document.createElement('li');
      li.className = 'turn';
      const n = document.createElement('span');
      n.className = 'number';
      n.textContent = `${number}.`;
      const cells = [document.createElement('span'), document.createElement('span')];
      cells.forEach((c, i) => { c.className = i === 0 ? 'south' : 'north'; });
      li.append(n, ...cells);
      list.append(li);
      row = { cells, used: false };
    }
    row.used = true;
    for (const mv of turn.moves) {
      const s = mv.sowed || {};
      const marks = (s.captured ? ` ×${s.captured}` : '') + (s.extra_move && !s.ended ? ' +' : '');
      const what = (s.captured ? t('page-move-captures', { count: s.captured }) : '') + (s.extra_move && !s.ended ? t('page-move-extra') : '');
      const action = actionText(mv.action);
      const label = t('page-move-label', { number, side: side(mv.side), action }) + what;
      row.cells[column].append(button(mv.ply, `${action}${marks}`, label, mv.played));
    }
  }
  // Scroll the list, never the page (a phone would jump away from the board at every move).
  const current = list.querySelector('[aria-current]');
  if (current) {
    const item = current.closest('li');
    if (item.offsetTop < list.scrollTop || item.offsetTop + item.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = item.offsetTop - 4;
    }
  }
}

// ---- actions ----

// A house played from the keyboard keeps the focus on the board: on the same house while it
// stays playable, else on the nearest house that is (the engine answered, the turn came back),
// else on the same house, out of the Tab order until it is playable again.
function keepFocus() {
  const focused = document.activeElement;
  if (!focused || !focused.classList.contains('house') || !$('board').contains(focused)) return;
  if (focused.classList.contains('playable')) return;
  const m = game.houses;
  const place = (el) => {
    const cell = Number(el.dataset.cell);
    return cell < m ? cell : cell - m - 1;
  };
  const at = place(focused);
  const playable = [...$('board').querySelectorAll('.pit.house.playable')];
  playable.sort((x, y) => Math.abs(place(x) - at) - Math.abs(place(y) - at));
  if (playable.length) playable[0].focus();
}

function clickCell(cell) {
  if (!game || !game.to_move || game.engine_to_move || pending || animating) return;
  // Only a house lit for this page (a handicap seed's destination once its house is chosen).
  if (handicapFrom === null && !pitOf(cell).classList.contains('playable')) return;
  const m = game.houses;
  if (game.phase === 'handicap') {
    const name = handicapName(cell, m);
    if (handicapFrom === null) {
      if (!game.legal.some((a) => a.startsWith(`${name}>`))) return;
      handicapFrom = name;
      pitOf(cell).classList.add('picked');
      note(t('page-handicap-picked', { house: name }));
      for (const el of $('board').querySelectorAll('.pit.house')) {
        el.setAttribute('aria-disabled', 'false');
        el.tabIndex = 0;
      }
      return;
    }
    const action = `${handicapFrom}>${name}`;
    handicapFrom = null;
    if (!game.legal.includes(action)) {
      draw();
      return;
    }
    act(action);
    return;
  }
  const side = cell < m ? 'South' : 'North';
  const house = cell < m ? cell + 1 : cell - m;
  if (side === game.to_move && game.legal.includes(String(house))) act(String(house));
}

function act(action) {
  // The person plays on: the engine answers from now on, as in any game against it.
  if (paused) setPaused(false);
  change('POST', `/api/games/${game.id}/move`, { action }, true);
}

function playHouse(house) {
  if (!game || !game.to_move) return;
  const m = game.houses;
  if (house > m) return;
  clickCell(game.to_move === 'South' ? house - 1 : m + house);
}

// Pauses the engine (a game opened from a link), for this tab's reloads too.
function setPaused(on) {
  paused = on;
  if (on) sessionStorage.setItem('kalah-paused', '1');
  else sessionStorage.removeItem('kalah-paused');
}

// The engine is to move at the end of the line, so the page asks it (unless paused).
function engineMovesNow(evenIfPaused) {
  const state = game;
  if (!state || !state.engine_to_move || state.result || state.moves.some((mv) => !mv.played)) return false;
  // In a rated game the server plays the engine's moves itself (it comes on the live channel).
  if (state.rated) return false;
  return evenIfPaused || !paused;
}

// Why the engine, to move in the position shown, is not thinking; '' if it is not to move.
function engineWaits() {
  if (!game || !game.engine_to_move || game.result) return '';
  if (game.moves.some((mv) => !mv.played)) return t('page-waiting-earlier');
  return paused ? t('page-waiting-paused') : '';
}

async function maybeEngine() {
  if (!engineMovesNow(false) || pending || animating) return;
  const state = game;
  thinking = true;
  draw();
  try {
    await change('POST', `/api/games/${state.id}/engine`, undefined, true);
  } finally {
    thinking = false;
    if (game) draw();
  }
}

async function hint() {
  if (!game || !game.to_move) return;
  const state = game;
  note(t('page-hint-thinking'));
  try {
    const h = await api('GET', `/api/games/${state.id}/hint`);
    if (game !== state) return;
    const value = h.exact ? t('page-hint-exact', { value: signed(h.value) }) : signedDecimal(h.value);
    const what = /^\d+$/.test(h.action) ? t('page-house', { house: h.action }) : actionText(h.action);
    note(t('page-hint-said', { side: side(h.side), what, value, depth: h.depth }));
    if (/^\d+$/.test(h.action)) {
      const m = game.houses;
      const house = Number(h.action);
      hintCell = h.side === 'South' ? house - 1 : m + house;
      pitOf(hintCell).classList.add('hint');
    }
  } catch (error) {
    note(error.message, error.status !== 409);
  }
}

function signed(x) {
  const n = Number(x);
  return n > 0 ? `+${x}` : `${x}`;
}

function setBar(value) {
  // South's share of the bar: even at 0, nearly all South at +10 seeds and more.
  const share = 50 + 50 * Math.tanh(value / 8);
  $('eval-fill').style.width = `${share}%`;
}

// The analysis asked for and not yet answered: a newer position cancels it, so that the server
// is not asked for an answer nobody reads (nor answers that the game changed under it).
let analysing = null;

function stopAnalysis() {
  if (!analysing) return;
  analysing.abort();
  analysing = null;
  analysed = -1;
}

// A game between friends that goes on gets no evaluation and no hint: a person is at stake (the
// server refuses them too).
function evaluationAllowed() {
  // A person is at stake between friends, and a rating in a rated game (the server refuses).
  return !!game && !((game.friends || game.rated) && !game.result);
}

// A person plays the engine in the game shown.
function againstEngine() {
  return !!game && [game.players.south, game.players.north].some((p) => p.startsWith('engine'));
}

async function analyse() {
  if (!evaluationAllowed()) {
    stopAnalysis();
    return;
  }
  if (!$('eval-on').checked || !game || analysed === game.version + game.id) return;
  stopAnalysis();
  // The engine's move would change the game under the analysis: analyse the position it leaves.
  if (engineMovesNow(false)) return;
  const state = game;
  analysed = state.version + state.id;
  $('eval-text').textContent = t('page-evaluating');
  const asked = new AbortController();
  analysing = asked;
  try {
    const a = await api('GET', `/api/games/${state.id}/analysis`, undefined, asked.signal);
    if (analysing === asked) analysing = null;
    if (game.id !== state.id || game.version !== a.version) return;
    setBar(a.value);
    const leader = side(a.value > 0 ? 'South' : 'North');
    const lead = Math.abs(a.value);
    let text;
    if (a.exact) {
      const outcome = lead === 0 ? t('page-eval-draw') : t('page-eval-wins', { side: leader, lead });
      text = t(a.depth === 0 ? 'page-eval-final' : 'page-eval-solved', { outcome });
    } else {
      const who = a.value === 0 ? t('page-eval-even') : t('page-eval-lead', { side: leader, lead });
      // Against the engine the best move would be a hint on every turn: Hint gives it when asked.
      const what = a.action === null || againstEngine() ? '' : /^\d+$/.test(a.action) ? t('page-house', { house: a.action }) : actionText(a.action);
      text = what ? t('page-eval-depth-best', { who, depth: a.depth, side: side(a.side), what }) : t('page-eval-depth', { who, depth: a.depth });
    }
    $('eval-text').textContent = text;
    $('eval').classList.toggle('solved', a.exact);
  } catch (error) {
    if (error.name === 'AbortError') return;
    if (analysing === asked) analysing = null;
    if (error.status === 503) $('eval-text').textContent = t('page-eval-paused');
    else if (error.status !== 409) $('eval-text').textContent = error.message;
    analysed = -1;
  }
}

// The explorer's request not yet answered, and the version + id it was for (a newer position
// cancels it, as an analysis is).
let exploring = null;
let explored = '';

// Fills the explorer panel, when open, with every legal move of the position shown and its
// exact value for the side to move (GET /api/games/{id}/explore): the best marked, the moves
// that throw away a win or a draw marked, the moves not settled in the time with their bounds.
async function explore() {
  const panel = $('explorer');
  if (!panel.open || !game) return;
  if (!evaluationAllowed()) {
    $('explorer-table').hidden = true;
    $('explorer-line').textContent = '';
    $('explorer-text').textContent = t('page-explorer-not-now');
    return;
  }
  const key = `${game.version}${game.id}`;
  if (explored === key) return;
  if (exploring) exploring.abort();
  explored = key;
  const state = game;
  const asked = new AbortController();
  exploring = asked;
  // The last position's table goes at once: no table is shown under another position.
  $('explorer-table').hidden = true;
  $('explorer-line').textContent = '';
  $('explorer-text').textContent = t('page-explorer-solving');
  // A server whose searches are all busy (the page's own evaluation takes one) answers 503 with
  // Retry-After: the explorer asks again then, while the position is still the one shown.
  for (let tries = 1; ; tries++) {
    try {
      const e = await api('GET', `/api/games/${state.id}/explore`, undefined, asked.signal);
      if (exploring === asked) exploring = null;
      if (!game || game.id !== state.id || game.version !== e.version) return;
      showExplored(e);
      return;
    } catch (error) {
      if (error.name === 'AbortError' || exploring !== asked) return;
      if (error.status === 503 && tries < 30) {
        $('explorer-text').textContent = t('page-explorer-waiting');
        await sleep(Math.max(1, error.retryAfter || 1) * 1000);
        if (exploring !== asked || explored !== key || !$('explorer').open) return;
        $('explorer-text').textContent = t('page-explorer-solving');
        continue;
      }
      exploring = null;
      explored = '';
      $('explorer-text').textContent = error.status === 503 ? t('page-explorer-busy') : error.message;
      return;
    }
  }
}

// Writes a value for the side to move: "win by 3", "draw", "loss by 2".
function verdictText(value) {
  return value > 0 ? t('page-verdict-win', { value }) : value < 0 ? t('page-verdict-loss', { value: -value }) : t('page-verdict-draw');
}

function showExplored(e) {
  const rows = $('explorer-moves');
  rows.innerHTML = '';
  for (const m of e.moves) {
    const row = document.createElement('tr');
    const cells = [`${m.move}`, '', '', ''];
    const notes = [];
    if (m.value !== null) {
      cells[1] = signed(m.value);
      cells[2] = verdictText(m.value);
    } else {
      cells[1] = t('page-explorer-range', { lower: signed(m.lower), upper: signed(m.upper) });
      cells[2] = m.result === null ? t('page-explorer-unknown') : t('page-explorer-unsettled', { result: m.result });
      row.classList.add('unknown');
    }
    if (m.best) {
      notes.push(t('page-explorer-best'));
      row.classList.add('best');
    }
    if (m.throws_away) {
      notes.push(t('page-explorer-throws', { what: m.throws_away }));
      row.classList.add('throws');
    }
    if (m.again) notes.push(t('page-explorer-again'));
    cells[3] = notes.join('; ');
    cells.forEach((text, i) => {
      const cell = document.createElement(i === 0 ? 'th' : 'td');
      if (i === 0) cell.scope = 'row';
      if (i === 1) cell.className = 'value';
      if (i === 3) cell.className = 'note';
      cell.textContent = text;
      row.append(cell);
    });
    row.dataset.move = m.move;
    rows.append(row);
  }
  $('explorer-caption').textContent = t('page-explorer-caption', { side: side(e.side) });
  $('explorer-table').dataset.version = String(e.version);
  $('explorer-table').hidden = e.moves.length === 0;
  // A fair start the form offers is a proven draw: what the time left open is bounded by it.
  const from = e.source === 'book' ? t('page-explorer-book')
    : e.source === 'fair' ? t('page-explorer-fair', { seconds: e.millis / 1000 })
      : t('page-explorer-millis', { seconds: e.millis / 1000 });
  const who = side(e.side);
  let text;
  if (e.moves.length === 0) text = t('page-explorer-over', { verdict: verdictText(e.value), side: who });
  else if (e.exact) text = t('page-explorer-exact', { verdict: verdictText(e.value), side: who, from });
  else text = t('page-explorer-open', { side: who, lower: signed(e.lower), upper: signed(e.upper), from });
  $('explorer-text').textContent = text;
  $('explorer-line').textContent = e.line.length ? t('page-explorer-line', { line: e.line.map(actionText).join(' ') }) : '';
}

// Tells whether both players have made a first action in `state`: a rated game then counts,
// and is never deleted (before, it is aborted with no result).
function begun(state) {
  return new Set(state.moves.filter((mv) => mv.played).map((mv) => mv.side)).size === 2;
}

// Asks what becomes of the rated game shown, which goes on, before another is started:
// 'resign' (a loss, rated), 'keep' (it stays in progress under the games in progress, its clock
// running) or 'cancel' (no new game).
function leaveRated() {
  const dialog = $('leave-dialog');
  return new Promise((resolve) => {
    const done = (choice) => {
      dialog.onclose = null;
      dialog.close();
      resolve(choice);
    };
    $('leave-resign').onclick = () => done('resign');
    $('leave-keep').onclick = () => done('keep');
    $('leave-cancel').onclick = () => done('cancel');
    // Escape closes the dialog: no new game.
    dialog.onclose = () => resolve('cancel');
    dialog.showModal();
    $('leave-keep').focus();
  });
}

// Starts the game `request` asks for and shows it; returns its state, or null when the player
// chose not to leave the rated game shown.
async function newGame(request, fromLink) {
  const old = game;
  const rated = !!old && !!old.rated && !old.result && friends.holds(old) && begun(old);
  if (rated) {
    const choice = await leaveRated();
    if (choice === 'cancel') return null;
    if (choice === 'resign') await api('POST', `/api/games/${old.id}/resign`);
  }
  pending++;
  updateBusy();
  let state;
  try {
    state = await api('POST', '/api/games', request);
  } finally {
    pending--;
    // A refused game leaves the page as it was, not busy.
    updateBusy();
  }
  // A game refused leaves the engine as it was (paused or not) for the game kept.
  setPaused(!!fromLink);
  if (state.token) friends.created(state);
  // A game against a friend, or a finished one (the archive keeps it), stays on the server.
  // The static site keeps a game with moves in progress when another is started (it is listed
  // with the games in progress; another tab may show it): only an untouched one goes.
  const kept = backend.kind === 'browser' && old && old.moves.length > 0;
  // A rated game that has begun is never deleted: it was resigned, or stays in progress.
  if (old && old.id !== state.id && !old.friends && !old.result && !kept && !(old.rated && begun(old))) {
    // The old game is replaced: closing it stops its searches and frees its memory.
    api('DELETE', `/api/games/${old.id}`).catch(() => {});
    friends.forget(old.id);
  }
  analysed = -1;
  await show(state, false);
  return state;
}

function stepTo(ply) {
  if (!game || ply < 0 || ply > game.moves.length || ply === game.ply) return;
  change('POST', `/api/games/${game.id}/goto`, { ply }, false);
}

// ---- the new-game form ----

function fillSelect(select, words) {
  select.innerHTML = '';
  for (const [value, text] of words) {
    const option = document.createElement('option');
    option.value = value;
    option.textContent = text;
    select.append(option);
  }
}

function setUpForm() {
  const pairs = (words) => words.map((w) => [w, ruleWord(w)]);
  fillSelect($('preset'), [['', t('page-form-as-chosen')],
    ...variants.presets.map((p) => [p.name, `${ruleWord(p.name)}: ${known(`page-preset-${p.name}`, undefined, p.about)}`])]);
  for (const field of ['capture', 'end', 'leftover', 'direction', 'sowing']) fillSelect($(field), pairs(variants[field]));
  const players = [['human', t('page-a-person')],
    ...variants.levels.map((l) => [`engine:${l.level}`, t('page-engine-level', { level: known(`page-level-${l.level}`, undefined, l.about) })])];
  for (const select of document.querySelectorAll('select.player')) fillSelect(select, players);
  // North may be a friend on another device: friends.js gives the invitation link. Only a
  // server can host that game: the engine in this browser cannot.
  if (backend.kind === 'server') $('north').append(new Option(t('page-form-friend'), 'friend'));
  $('south').value = 'human';
  $('north').value = 'engine:3';
  $('preset').value = 'standard';
  applyPreset();
  $('preset').addEventListener('change', applyPreset);
  for (const field of ['capture', 'end', 'leftover', 'direction', 'sowing', 'majority-ends']) {
    $(field).addEventListener('change', () => { $('preset').value = ''; });
  }
  setUpFairStarts();
}

// The fair starts (`kalah solve fair`): choosing one sets the board, the rules and the start
// position; changing any of those by hand afterwards leaves the choice.
function setUpFairStarts() {
  const select = $('fair');
  select.replaceChildren(new Option(t('page-form-none'), ''));
  (variants.fair_starts || []).forEach((list, i) => {
    const group = document.createElement('optgroup');
    group.label = t('page-form-fair-group', { rules: rulesText(list.rules), count: list.starts.length });
    // The shifts name a store as `S-store`, `N-store`: the word in the page's language.
    const store = t('page-fair-store');
    list.starts.forEach((start, j) => group.append(new Option(`${start.shifts.replace(/-store\b/g, `-${store}`)}  (${start.position})`, `${i}:${j}`)));
    select.append(group);
  });
  select.addEventListener('change', () => {
    if (!select.value) return;
    const [i, j] = select.value.split(':').map(Number);
    const list = variants.fair_starts[i];
    [$('size-m').value, $('size-n').value] = list.size;
    const preset = variants.presets.find((p) => ['capture', 'end', 'leftover', 'direction', 'sowing', 'majority_ends']
      .every((field) => p.fields[field] === list.fields[field]));
    $('preset').value = preset ? preset.name : '';
    for (const field of ['capture', 'end', 'leftover', 'direction', 'sowing']) $(field).value = list.fields[field];
    $('majority-ends').checked = list.fields.majority_ends;
    $('pie').checked = false;
    $('handicap').checked = false;
    $('start').value = list.starts[j].position;
  });
  const leave = () => { select.value = ''; };
  for (const id of ['size-m', 'size-n', 'preset', 'capture', 'end', 'leftover', 'direction', 'sowing', 'majority-ends', 'pie', 'handicap']) {
    $(id).addEventListener('change', leave);
  }
  $('start').addEventListener('input', leave);
}

function applyPreset() {
  const preset = variants.presets.find((p) => p.name === $('preset').value);
  if (!preset) return;
  for (const field of ['capture', 'end', 'leftover', 'direction', 'sowing']) $(field).value = preset.fields[field];
  $('majority-ends').checked = preset.fields.majority_ends;
}

function formRules() {
  let text = `kalah(${$('size-m').value},${$('size-n').value})`;
  for (const field of ['capture', 'end', 'leftover', 'direction', 'sowing']) text += ` ${field}=${$(field).value}`;
  if ($('majority-ends').checked) text += ' majority-ends';
  if ($('pie').checked) text += ' pie';
  if ($('handicap').checked) text += ' handicap';
  return text;
}

// The form's number fields checked as the server checks them, so that a size out of range is
// said in one line like the server's refusals, with what is accepted; null when they are right.
function formProblem() {
  const fields = [['size-m', t('page-form-houses'), variants.houses], ['size-n', t('page-form-seeds'), variants.seeds]];
  for (const [id, what, [min, max]] of fields) {
    const field = $(id);
    const text = field.value.trim();
    const n = Number(text);
    if (!field.validity.badInput && text !== '' && Number.isInteger(n) && n >= min && n <= max) continue;
    const wrong = field.validity.badInput ? t('page-form-not-number')
      : text === '' ? t('page-form-empty')
        : t(Number.isInteger(n) ? 'page-form-out-of-range' : 'page-form-not-whole', { text });
    return { field, message: t('page-form-problem', { what, wrong, min, max }) };
  }
  return null;
}

// Says in the form why the game did not start: one line, the dialog left open with its entries.
function formError(message, field, detail) {
  const text = message.trim();
  $('new-error').textContent = text && text.charAt(0).toUpperCase() + text.slice(1) + (/[.!?…]$/.test(text) ? '' : '.');
  // The server's own words, in English, folded under the page's short message when it is in
  // another language.
  const more = !!detail && detail.trim() !== text;
  $('new-error-detail').hidden = !more;
  $('new-error-detail').open = false;
  $('new-error-detail-text').textContent = more ? detail : '';
  for (const input of $('new-form').querySelectorAll('[aria-invalid]')) input.removeAttribute('aria-invalid');
  if (field) {
    field.setAttribute('aria-invalid', 'true');
    field.focus();
    // Kept in sight above the error, which is kept at the form's bottom (style.css).
    field.scrollIntoView({ block: 'center' });
  }
}

async function submitForm(event) {
  event.preventDefault();
  formError('');
  const problem = formProblem();
  if (problem) {
    formError(problem.message, problem.field);
    return;
  }
  const request = { rules: formRules(), south: $('south').value, north: $('north').value };
  if (request.north === 'friend') {
    delete request.south;
    delete request.north;
    request.friend = true;
  }
  if ($('clock').value) {
    const [seconds, increment] = $('clock').value.split('+').map(Number);
    request.clock = { seconds, increment };
  }
  const start = $('start').value.trim();
  if (start) request.position = start;
  try {
    if (await newGame(request) === null) return;
    formError('');
    $('new-dialog').close();
    note('');
  } catch (error) {
    // The server's refusal is one line saying what is wrong and what it accepts: shown as it is.
    formError(error.message, /position/.test(error.detail || error.message) ? $('start') : null, error.detail);
  }
}

// ---- save, load, link ----

async function save() {
  if (!game) return;
  try {
    const record = await api('GET', `/api/games/${game.id}/record`);
    const blob = new Blob([record], { type: 'text/plain' });
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = `kalah-${new Date().toISOString().slice(0, 10)}.kalah`;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  } catch (error) {
    note(t('page-cannot-save', { error: error.message }), true);
  }
}

async function load(file) {
  try {
    const record = await file.text();
    // The record names its players ([South], [North]); the server seats them.
    const state = await newGame({ record });
    if (!state) return;
    const warnings = state.warnings || [];
    note(warnings.length ? t('page-loaded-warning', { file: file.name, warnings: warnings.join(' ') }) : t('page-loaded', { file: file.name }));
  } catch (error) {
    note(t('page-cannot-load', { file: file.name, error: error.message }), true);
  }
}

function link() {
  if (!game) return;
  const params = new URLSearchParams({
    rules: game.rules, position: game.position, south: game.players.south, north: game.players.north,
  });
  const url = `${friends.pageAddress()}?${params}`;
  const input = $('link-text');
  input.hidden = false;
  input.value = url;
  friends.copyText(input, t('page-link-copied'));
}

// ---- keys and start ----

const HOUSE_KEYS = { '1': 1, '2': 2, '3': 3, '4': 4, '5': 5, '6': 6, '7': 7, '8': 8, '9': 9, '0': 10, '-': 11, '=': 12 };

function onKey(event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if ($('new-dialog').open || ['INPUT', 'SELECT', 'TEXTAREA'].includes(event.target.tagName)) return;
  const key = event.key;
  if (key in HOUSE_KEYS) playHouse(HOUSE_KEYS[key]);
  else if (key === 'u') $('undo').click();
  else if (key === 'r') $('redo').click();
  else if (key === 'h') hint();
  else if (key === 's' && !$('solve').hidden) solve();
  else if (key === 'n') openForm();
  else if (key === 'w' && !$('swap').hidden) act('swap');
  else if (key === 'k' && !$('keep').hidden) act('keep');
  else if (key === 'e' && !$('engine-go').hidden) $('engine-go').click();
  else if (key === 'ArrowLeft' && game) stepTo(game.ply - 1);
  else if (key === 'ArrowRight' && game) stepTo(game.ply + 1);
  else return;
  event.preventDefault();
}

function openForm() {
  formError('');
  $('new-dialog').showModal();
  $('size-m').focus();
}

// Solves the position shown exactly, within the backend's budget (the engine in this browser).
async function solve() {
  if (!game) return;
  const state = game;
  note(t('page-solving'));
  try {
    const s = await api('GET', `/api/games/${state.id}/solve`);
    if (game !== state) return;
    if (s.solved) {
      const outcome = s.value === 0 ? t('page-solve-draw') : t('page-solve-wins', { side: side(s.value > 0 ? 'South' : 'North'), margin: Math.abs(s.value) });
      const best = s.best === null ? '' : t('page-solve-best', { side: side(s.side), house: s.best });
      note(t('page-solved', { value: signed(s.value), outcome, best }));
    } else {
      note(t('page-not-solved', { lower: signed(s.bounds[0]), upper: signed(s.bounds[1]) }));
    }
  } catch (error) {
    note(error.message, error.status !== 409);
  }
}

// Lets the page work offline and be installed as an app: a service worker (sw.js) keeps the
// site's files, when the site carries the engine (a static site; a server's page needs the server).
function offline() {
  if (backend.kind !== 'browser' || !('serviceWorker' in navigator)) return;
  navigator.serviceWorker.register('sw.js').then(
    (registration) => { document.body.dataset.offline = registration.active ? 'ready' : 'installing'; },
    () => {},
  );
  navigator.serviceWorker.ready.then(() => { document.body.dataset.offline = 'ready'; });
}

async function start() {
  switcher($('language'));
  backend = await connect();
  document.body.dataset.engine = backend.kind;
  // Read before the address bar is made to name the game.
  const time = engineTimeSaid(backend.kind);
  $('solve').hidden = backend.kind !== 'browser';
  offline();
  await persist(async () => { variants = await api('GET', '/api/variants'); });
  setUpForm();
  $('new').addEventListener('click', openForm);
  $('new-cancel').addEventListener('click', () => $('new-dialog').close());
  $('new-form').addEventListener('submit', submitForm);
  $('undo').addEventListener('click', () => {
    if (game && game.friends) friends.takeback();
    else if (game) change('POST', `/api/games/${game.id}/undo`, undefined, false);
  });
  $('redo').addEventListener('click', () => game && change('POST', `/api/games/${game.id}/redo`, undefined, false));
  $('hint').addEventListener('click', hint);
  $('play-again').addEventListener('click', playAgain);
  $('start-new').addEventListener('click', () => {
    newGame({ rules: 'kalah(6,6) standard', south: 'human', north: 'engine:3' })
      .then(() => note(''), (error) => note(error.message, true));
  });
  $('end-new').addEventListener('click', openForm);
  $('solve').addEventListener('click', solve);
  $('swap').addEventListener('click', () => act('swap'));
  $('keep').addEventListener('click', () => act('keep'));
  $('save').addEventListener('click', save);
  $('load').addEventListener('click', () => $('load-file').click());
  $('load-file').addEventListener('change', (e) => { if (e.target.files[0]) load(e.target.files[0]); e.target.value = ''; });
  $('link').addEventListener('click', link);
  searches.setUp({ api, current: () => game });
  // The lobby: names, challenges, ratings (a server's page only).
  if (backend.kind === 'server') lobby.setUp().catch((error) => note(t('page-lobby-cannot-open', { error: error.message }), true));
  $('engine-go').addEventListener('click', () => { setPaused(false); draw(); maybeEngine(); });
  $('explorer').addEventListener('toggle', () => explore());
  $('eval-on').addEventListener('change', () => { analysed = -1; draw(); analyse(); });
  document.addEventListener('keydown', onKey);
  // A seat link (or an invitation) opened in a tab that shows its game changes only the
  // address's #: it is taken as if the page opened with it.
  window.addEventListener('hashchange', () => {
    const id = new URLSearchParams(location.search).get('game');
    if (!id || backend.kind !== 'server' || !new URLSearchParams(location.hash.slice(1)).has('seat')) return;
    friends.open(id).catch((error) => note(error.message, true));
  });
  // A new width may wrap the status or the note otherwise: they are fitted to it again too.
  window.addEventListener('resize', () => {
    fitLines($('status'));
    fitLines($('note'));
    placeCells();
  });
  refitOnChanges();
  $('theme').value = localStorage.getItem('kalah-theme') || 'auto';
  setTheme($('theme').value);
  $('theme').addEventListener('change', () => setTheme($('theme').value));
  $('sound-on').checked = localStorage.getItem('kalah-sound') === 'on';
  $('sound-on').addEventListener('change', () => localStorage.setItem('kalah-sound', $('sound-on').checked ? 'on' : 'off'));

  // Sowing seed by seed is motion: a person who asks for less motion gets none unless chosen.
  if (matchMedia('(prefers-reduced-motion: reduce)').matches) $('speed').value = '0';

  const params = new URLSearchParams(location.search);
  if (params.has('game')) {
    // A game named in the address (a reload, a link to watch it, #seat=TOKEN to play it; at the
    // static site a game kept in this browser): friends.js opens it.
    try {
      await persist(() => openGame(params.get('game')));
    } finally {
      updateBusy();
    }
    return;
  }
  const asked = ['rules', 'position', 'south', 'north'].filter((k) => params.has(k));
  try {
    await persist(() => firstGame(params, asked));
  } finally {
    updateBusy();
  }
  // Said once, when the page opens, unless something more pressing is said already.
  if (time && !$('note').textContent) note(time);
  // The games this browser holds a seat of, offered when the page opens with no game named.
  if (!asked.length) friends.listGames(true);
}

// Opens the game `id` the address names. One the server does not have is said in plain words,
// with a new game offered; the games in progress are listed too.
async function openGame(id) {
  if (id === sessionStorage.getItem('kalah-game')) paused = sessionStorage.getItem('kalah-paused') === '1';
  try {
    await friends.open(id);
  } catch (error) {
    if (error.status !== 404 && error.status !== 400) throw error;
    history.replaceState(null, '', location.pathname);
    // The tab's own game, gone (deleted): a new one, said to be (firstGame).
    if (id === sessionStorage.getItem('kalah-game')) {
      await firstGame(new URLSearchParams(), []);
      return;
    }
    setStatus(t('page-no-such-game'));
    if (backend.kind === 'browser') note(t('page-link-not-here', { error: sentence(error.message) }), true);
    else note(t('page-link-no-game'), true);
    $('start-new').hidden = false;
    friends.listGames(true);
  }
}

// Opens the game the page starts with: the link's, else the one this tab showed before a reload
// (kept on the server through its restarts), else a new Kalah(6,6) game against the engine. A
// server that cannot be reached or is busy fails this, and it is tried again: a game is never
// replaced because the server was away.
async function firstGame(params, asked) {
  if (asked.length) {
    const request = {};
    for (const k of asked) request[k] = params.get(k);
    if (params.has('south')) $('south').value = params.get('south');
    if (params.has('north')) $('north').value = params.get('north');
    try {
      // The link's position may have the engine to move: show it as shared until asked.
      await newGame(request, true);
    } catch (error) {
      if (error.status === 0 || error.status >= 500 || error.status === 429) throw error;
      // A link the server refuses (bad rules or position): say so, and keep the game the tab
      // showed (else play the usual game).
      const kept = await lastGame();
      if (!kept) await newGame({ rules: 'kalah(6,6) standard', south: 'human', north: 'engine:3' });
      note(t('page-link-refused', { error: sentence(error.message), kept: kept ? 'yes' : 'no' }), true);
    }
    // A reload keeps this game rather than starting the link's game again (the address names it).
    return;
  }
  if (await lastGame()) return;
  await newGame({ rules: 'kalah(6,6) standard', south: 'human', north: 'engine:3' });
  if (lastGone && backend.kind === 'browser') {
    sayUntilChanged(t('page-last-gone', { error: sentence(lastGone) }), true);
  } else if (lastGone) {
    sayUntilChanged(t('page-last-deleted'), true);
  }
}

// Why the game `lastGame` looked for is gone, if it is.
let lastGone = null;

// Shows the game this tab showed last (else, at the static site, the game this browser showed
// last), if its host still has it; tells whether it did.
async function lastGame() {
  const id = sessionStorage.getItem('kalah-game') || (backend.last ? backend.last() : null);
  if (!id) return false;
  const wasPaused = sessionStorage.getItem('kalah-paused') === '1';
  try {
    const state = await api('GET', `/api/games/${id}`);
    setPaused(wasPaused);
    await show(state, false);
    return true;
  } catch (error) {
    if (error.status !== 404) throw error;
    lastGone = error.message;
    return false;
  }
}

// A server's message as a part of a sentence: no capital to begin, no stop to end, and no
// quotes or backticks of the API's words.
function sentence(text) {
  return text.replace(/`/g, '').replace(/[.]$/, '');
}

// Runs `attempt` until it succeeds. While it fails the status says why, and "Try again" asks at
// once; a busy or unreachable server is asked again by itself, later each time (as its
// Retry-After says, else 2, 4, 8… seconds, at most 30).
async function persist(attempt) {
  for (let tries = 0; ; tries++) {
    try {
      await attempt();
      return;
    } catch (error) {
      const wait = error.retryAfter ? Math.min(error.retryAfter, 60) : Math.min(2 ** (tries + 1), 30);
      await retryIn(error.message, wait);
    }
  }
}

function seconds(n) {
  return t('page-seconds', { count: n });
}

// Says why the page cannot go on and counts down to the next try; resolves when it is time, or
// at once on "Try again".
function retryIn(message, wait) {
  return new Promise((resolve) => {
    const button = $('retry');
    let left = wait;
    const tell = () => {
      setStatus(t('page-cannot-start-retry', { error: message.replace(/\.$/, ''), wait: seconds(left) }));
    };
    const done = () => {
      clearInterval(timer);
      button.hidden = true;
      button.onclick = null;
      setStatus(t('page-loading'));
      resolve();
    };
    const timer = setInterval(() => {
      left--;
      if (left <= 0) done();
      else tell();
    }, 1000);
    document.body.dataset.retry = '1';
    button.hidden = false;
    button.onclick = done;
    tell();
  }).finally(() => { delete document.body.dataset.retry; });
}

start().catch((error) => note(t('page-cannot-start', { error: error.message }), true));
