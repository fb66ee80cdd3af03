// The game in this browser, with no server: the rules from the WebAssembly module (kalah-wasm's
// Game, on the page's thread: each call takes microseconds) and the engine in a Web Worker
// (engine.js). It answers the paths of `kalah serve`'s JSON API (docs/web.md) with the same
// JSON and the same refusals, so the page plays alike with either.
import init, { Game, variants } from './pkg/kalah_wasm.js';
import { EngineWorker } from './engine.js';

// The longest a solve may take before the page shows the bounds proven so far.
const SOLVE_MS = 10000;
// Where the game is kept in this browser, so that a reload or a visit offline takes it up again.
const SAVED = 'kalah-saved-game';

function refused(message, status) {
  return Object.assign(new Error(message), { status });
}

export async function start(engineTime) {
  const url = new URL('./pkg/kalah_wasm_bg.wasm', import.meta.url);
  const module = await WebAssembly.compileStreaming(fetch(url));
  await init({ module_or_path: module });
  const engine = new EngineWorker(module);
  const games = new Map();
  const known = JSON.parse(variants());
  let analysis = null;  // the last analysis, for the game and version it is of

  // Keeps the game in this browser's storage.
  const keep = (id, game) => {
    try { localStorage.setItem(SAVED, game.save()); } catch (_) { /* storage full or off: play on */ }
    return game;
  };

  const find = (id) => {
    let game = games.get(id);
    if (!game) {
      const saved = localStorage.getItem(SAVED);
      if (saved && JSON.parse(saved).id === id) {
        game = Game.restore(saved);
        games.set(id, game);
      }
    }
    if (!game) throw refused(`there is no game ${id} in this browser: start a new one`, 404);
    return game;
  };

  // The state the page draws; the clock of the player to decide runs from now.
  const state = (game) => {
    game.check_time();
    game.shown();
    return JSON.parse(game.state());
  };

  const wrap = (f) => {
    try { return f(); } catch (error) { throw refused(error.message || String(error), 400); }
  };

  // A change of the game: the engine's work for the game as it was is stopped.
  const change = (id, f) => {
    const game = find(id);
    wrap(() => f(game));
    engine.stop();
    keep(id, game);
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
    const move = await engine.ask('decide', { ...turn, time_ms: engineTime });
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
    const parts = path.split('/').filter(Boolean);  // ['api', 'games', id, what]
    const [, what, id, action] = parts;
    const route = `${method} ${what}${id === undefined ? '' : '/ID'}${action === undefined ? '' : `/${action}`}`;
    switch (route) {
      case 'GET variants':
        return known;
      case 'POST games': {
        const id = `b${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
        const game = wrap(() => new Game(id, JSON.stringify(body || {})));
        games.set(id, game);
        keep(id, game);
        return state(game);
      }
      case 'GET games/ID':
        return state(find(id));
      case 'DELETE games/ID':
        if (games.has(id)) {
          games.get(id).free();
          games.delete(id);
          engine.stop();
        }
        return null;
      case 'POST games/ID/move':
        return change(id, (game) => game.act(String(body && body.action)));
      case 'POST games/ID/undo':
        return change(id, (game) => game.undo(body && body.plies));
      case 'POST games/ID/redo':
        return change(id, (game) => game.redo(body && body.plies));
      case 'POST games/ID/goto':
        return change(id, (game) => game.goto(Number(body && body.ply)));
      case 'POST games/ID/engine':
        return engineMove(id);
      case 'POST games/ID/shown':
        // The page has shown the position: state() starts the clock of the player to decide.
        return state(find(id));
      case 'GET games/ID/hint':
        return ask(id, 'hint', engineTime);
      case 'GET games/ID/analysis': {
        const game = find(id);
        const key = `${id}:${game.version()}`;
        if (analysis && analysis.key === key) return analysis.reply;
        const reply = await ask(id, 'analyse', engineTime);
        analysis = { key, reply };
        return reply;
      }
      case 'GET games/ID/solve':
        return ask(id, 'solve', SOLVE_MS);
      case 'GET games/ID/record':
        return find(id).record(Date.now() / 1000);
      default:
        throw refused(`no such request in this browser: ${method} ${path}`, 404);
    }
  }

  return { kind: 'browser', api, engine };
}
