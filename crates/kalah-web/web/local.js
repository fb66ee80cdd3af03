// The game in this browser, with no server: the rules from the WebAssembly module (kalah-wasm's
// Game, on the page's thread: each call takes microseconds) and the engine in a Web Worker
// (engine.js). It answers the paths of `kalah serve`'s JSON API (docs/web.md) with the same
// JSON and the same refusals, so the page plays alike with either.
import init, { Game, route, variants } from './pkg/kalah_wasm.js';
import { EngineWorker } from './engine.js';

// The longest a solve may take before the page shows the bounds proven so far.
const SOLVE_MS = 10000;
// Where each game is kept in this browser (its id after the prefix), so that a reload, another
// tab, a closed browser or a visit offline takes it up again; and which game was shown last.
const KEPT = 'kalah-kept-';
const LAST = 'kalah-last-game';
// Where the one game of an earlier version of this page was kept: taken up once, then kept as
// the others are.
const EARLIER = 'kalah-saved-game';
// A kept game that cannot be taken up is set aside under this prefix, never deleted.
const ASIDE = 'kalah-set-aside-';

// A refusal of the module's table comes as "STATUS message" (kalah-table's statuses, as
// `kalah serve` answers them): an Error with the status, as backend.js makes them.
function refused(message, status) {
  return Object.assign(new Error(message), { status });
}

function thrown(error) {
  const text = error.message || String(error);
  const match = /^(\d{3}) (.*)$/s.exec(text);
  return match ? refused(match[2], Number(match[1])) : refused(text, 400);
}

export async function start(engineTime) {
  const url = new URL('./pkg/kalah_wasm_bg.wasm', import.meta.url);
  const module = await WebAssembly.compileStreaming(fetch(url));
  await init({ module_or_path: module });
  const engine = new EngineWorker(module);
  const games = new Map();
  const known = JSON.parse(variants());
  let analysis = null;  // the last analysis, for the game and version it is of

  const store = (key, value) => {
    try { localStorage.setItem(key, value); } catch (_) { /* storage full or off: play on */ }
  };

  // Keeps the game in this browser's storage, under its own id.
  const keep = (id, game) => {
    store(`${KEPT}${id}`, game.save());
    store(LAST, id);
    return game;
  };

  // The game of an earlier version of this page, kept under its id like the others.
  const earlier = localStorage.getItem(EARLIER);
  if (earlier) {
    try {
      const id = JSON.parse(earlier).id;
      if (id && !localStorage.getItem(`${KEPT}${id}`)) store(`${KEPT}${id}`, earlier);
      if (id && !localStorage.getItem(LAST)) store(LAST, id);
      localStorage.removeItem(EARLIER);
    } catch (_) {
      store(`${ASIDE}earlier`, earlier);
      localStorage.removeItem(EARLIER);
    }
  }

  const find = (id) => {
    let game = games.get(id);
    if (!game) {
      const kept = localStorage.getItem(`${KEPT}${id}`);
      if (kept) {
        try {
          game = Game.restore(kept);
        } catch (error) {
          // Said once; the data is set aside (never deleted) and the page plays on.
          store(`${ASIDE}${id}`, kept);
          localStorage.removeItem(`${KEPT}${id}`);
          if (localStorage.getItem(LAST) === id) localStorage.removeItem(LAST);
          throw refused(`its kept data cannot be read (${thrown(error).message}); it was set aside`, 404);
        }
        games.set(id, game);
      }
    }
    if (!game) throw refused(`there is no game ${id} in this browser: start a new one`, 404);
    return game;
  };

  // The state the page draws.
  const state = (game) => {
    game.check_time();
    return JSON.parse(game.state());
  };

  const wrap = (f) => {
    try { return f(); } catch (error) { throw thrown(error); }
  };

  // A change of the game: the engine's work for the game as it was is stopped.
  const change = (id, f) => {
    const game = find(id);
    const version = game.version();
    try {
      wrap(() => f(game));
    } finally {
      keep(id, game);
    }
    if (game.version() !== version) engine.stop();
    return state(game);
  };

  const question = (game) => ({ version: game.version(), game: JSON.parse(game.snapshot()) });

  // Refuses an answer for a game that changed while it was searched.
  const still = (id, game, version) => {
    if (games.get(id) !== game || game.version() !== version) {
      throw refused('the game changed while the engine was thinking', 409);
    }
  };

  async function engineMove(id) {
    const game = find(id);
    game.check_time();
    const turn = wrap(() => JSON.parse(game.engine_turn()));
    let move;
    try {
      move = await engine.ask('decide', { ...turn, time_ms: engineTime });
    } catch (error) {
      game.stop_thinking(turn.version);
      throw error;
    }
    still(id, game, turn.version);
    game.check_time();
    wrap(() => game.play_engine(turn.version, move.action));
    keep(id, game);
    return state(game);
  }

  async function ask(id, kind, time) {
    const game = find(id);
    const asked = question(game);
    const reply = await engine.ask(kind, { ...asked, time_ms: time });
    still(id, game, asked.version);
    return reply;
  }

  async function api(method, path, body) {
    // The routes are kalah-table's, as `kalah serve` builds its router from.
    const { route: what, id } = JSON.parse(wrap(() => route(method, path)));
    const text = body === undefined || body === null ? '' : JSON.stringify(body);
    switch (what) {
      case 'variants':
        return known;
      case 'create': {
        const id = `b${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
        const game = wrap(() => new Game(id, text));
        games.set(id, game);
        keep(id, game);
        return state(game);
      }
      case 'show':
        return state(find(id));
      case 'delete':
        if (games.has(id)) {
          games.get(id).free();
          games.delete(id);
          engine.stop();
        }
        localStorage.removeItem(`${KEPT}${id}`);
        return null;
      case 'move':
      case 'undo':
      case 'redo':
      case 'goto':
      case 'shown':
        return change(id, (game) => game.request(what, text));
      case 'engine':
        return engineMove(id);
      case 'hint':
        return ask(id, 'hint', engineTime);
      case 'analysis': {
        const game = find(id);
        const key = `${id}:${game.version()}`;
        if (analysis && analysis.key === key) return analysis.reply;
        const reply = await ask(id, 'analyse', engineTime);
        analysis = { key, reply };
        return reply;
      }
      case 'solve':
        return ask(id, 'solve', SOLVE_MS);
      case 'record':
        return find(id).record(Date.now() / 1000);
      default:
        throw refused(`no such request in this browser: ${method} ${path}`, 404);
    }
  }

  // The game this browser showed last, to take up when the page opens with no game of its tab;
  // `showing` notes the game the page shows (a game only asked for, to be listed, is not shown).
  const last = () => localStorage.getItem(LAST);
  const showing = (id) => store(LAST, id);

  return { kind: 'browser', api, engine, last, showing };
}
