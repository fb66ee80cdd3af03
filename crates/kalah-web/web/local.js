// The game in this browser, with no server: the rules from the npm package kalah in pkg/ (its
// Game, on the page's thread: each call takes microseconds) and the engine in the package's Web
// Worker (EngineWorker). It answers the paths of `kalah serve`'s JSON API (docs/web.md) with the
// same JSON and the same refusals, so the page plays alike with either.
import { init, Game, EngineWorker, route, variants } from './pkg/index.js';
import { t } from './l10n.js';

// The longest a solve may take before the page shows the bounds proven so far.
const SOLVE_MS = 10000;
// The time the explorer has for every move of a position together (small boards settle in it;
// on larger ones the moves left open show their bounds).
const EXPLORE_MS = 5000;
// The opening books the site carries (scripts/site.sh copies the repository's books/): the
// explorer answers their positions at once.
const BOOKS = ['books/kalah-6-4-standard.book', 'books/kalah-6-5-standard.book'];
// Where each game is kept in this browser (its id after the prefix), so that a reload, another
// tab, a closed browser or a visit offline takes it up again; and which game was shown last.
const KEPT = 'kalah-kept-';
const LAST = 'kalah-last-game';
// Where the one game of an earlier version of this page was kept: taken up once, then kept as
// the others are.
const EARLIER = 'kalah-saved-game';
// A kept game that cannot be taken up is set aside under this prefix, never deleted.
const ASIDE = 'kalah-set-aside-';
// What a search stopped by a change of its game is refused with (409), as a server says it.
const CHANGED = t('page-changed');

// An Error with the status `kalah serve` would answer, as backend.js makes them.
function refused(message, status) {
  return Object.assign(new Error(message), { status });
}

// The package refuses with a KalahError, which has its status (kalah-table's, as `kalah serve`
// answers them); anything else is a bad request.
function thrown(error) {
  if (typeof error?.status !== 'number') return refused(error?.message || String(error), 400);
  // A refusal that names its message in the catalogs (`code`, with its `args`), as the server's
  // do, is said in the page's language.
  if (typeof error.code === 'string') {
    const said = t(error.code, error.args || undefined);
    if (said !== error.code) error.message = said;
    if (error.code === 'error-bad' && error.args) error.detail = String(error.args.detail || '');
  }
  return error;
}

export async function start(engineTime) {
  // The worker starts from the module the page compiled.
  const engine = new EngineWorker(await init());
  const games = new Map();
  const known = variants();

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
          throw refused(t('page-kept-unreadable', { error: thrown(error).message }), 404);
        }
        games.set(id, game);
      }
    }
    if (!game) throw refused(t('page-not-in-browser', { id }), 404);
    return game;
  };

  // The state the page draws.
  const state = (game) => {
    game.checkTime();
    return game.state();
  };

  const wrap = (f) => {
    try { return f(); } catch (error) { throw thrown(error); }
  };

  // A change of the game: the engine's work for the game as it was is stopped.
  const change = (id, f) => {
    const game = find(id);
    const version = game.version;
    try {
      wrap(() => f(game));
    } finally {
      keep(id, game);
    }
    if (game.version !== version) engine.stop(CHANGED);
    return state(game);
  };

  const question = (game) => ({ version: game.version, game: game.snapshot() });

  // Refuses an answer for a game that changed while it was searched.
  const still = (id, game, version) => {
    if (games.get(id) !== game || game.version !== version) {
      throw refused(CHANGED, 409);
    }
  };

  async function engineMove(id) {
    const game = find(id);
    game.checkTime();
    const turn = wrap(() => game.engineTurn());
    let move;
    try {
      move = await engine.decide({ ...turn, time_ms: engineTime });
    } catch (error) {
      game.stopThinking(turn.version);
      throw error;
    }
    still(id, game, turn.version);
    game.checkTime();
    wrap(() => game.playEngine(turn.version, move.action));
    keep(id, game);
    return state(game);
  }

  // The books' texts, fetched once; a book that cannot be fetched is left out.
  let books = null;
  async function bookTexts() {
    if (!books) {
      const fetched = await Promise.all(BOOKS.map((name) =>
        fetch(name).then((r) => (r.ok ? r.text() : null), () => null)));
      books = fetched.filter((text) => text !== null);
    }
    return books;
  }

  async function ask(id, kind, time) {
    const game = find(id);
    const asked = question(game);
    const reply = await engine[kind]({ ...asked, time_ms: time });
    still(id, game, asked.version);
    return reply;
  }

  async function api(method, path, body) {
    // The routes are kalah-table's, as `kalah serve` builds its router from; a query (the
    // drawn searches') is the route's to read.
    const at = path.indexOf('?');
    const query = at < 0 ? '' : path.slice(at + 1);
    const { route: what, id } = wrap(() => route(method, at < 0 ? path : path.slice(0, at)));
    switch (what) {
      case 'variants':
        return known;
      case 'create': {
        const id = `b${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
        const game = wrap(() => new Game(body, id));
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
          engine.stop(CHANGED);
        }
        localStorage.removeItem(`${KEPT}${id}`);
        return null;
      case 'move':
      case 'undo':
      case 'redo':
      case 'goto':
      case 'shown':
        return change(id, (game) => game.request(what, body));
      case 'engine':
        return engineMove(id);
      case 'hint':
        return ask(id, 'hint', engineTime);
      case 'analysis': {
        // The table keeps the analysis of the game as it is now, as at a server.
        const game = find(id);
        const kept = wrap(() => game.analysis());
        if (kept) return kept;
        const reply = await ask(id, 'analyse', engineTime);
        wrap(() => game.keepAnalysis(reply));
        return reply;
      }
      case 'solve':
        return ask(id, 'solve', SOLVE_MS);
      case 'explore':
        // The worker is started afresh when a search is stopped: it is given the books each time.
        for (const text of await bookTexts()) await engine.addBook(text);
        return ask(id, 'explore', EXPLORE_MS);
      case 'searches':
        // The course's searches are bounded (depth 6, 5000 calls drawn): answered on this thread.
        return wrap(() => find(id).searches(query));
      case 'record':
        return find(id).record(new Date());
      default:
        throw refused(t('page-no-request', { method, path }), 404);
    }
  }

  // The game this browser showed last, to take up when the page opens with no game of its tab;
  // `showing` notes the game the page shows (a game only asked for, to be listed, is not shown).
  const last = () => localStorage.getItem(LAST);
  const showing = (id) => store(LAST, id);

  return { kind: 'browser', api, engine, last, showing };
}
