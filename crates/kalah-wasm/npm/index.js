// kalah: the rules and the engine of Kalah compiled to WebAssembly (the crate kalah-wasm), for
// Node and browsers. A thin layer over wasm-bindgen's glue (`--target web`, in wasm/): the glue
// passes JSON text both ways, and this layer parses it, so callers get objects; it reads the
// module from the package's folder in Node and fetches it beside this file in a browser; it
// turns the module's errors into KalahError with an HTTP-like status; and it runs the engine in
// a worker (EngineWorker) when a caller must not wait for a search.
import initGlue, * as glue from './wasm/kalah_wasm.js';

// The module beside this file: the glue's own default, named here for Node's file system.
const WASM = new URL('./wasm/kalah_wasm_bg.wasm', import.meta.url);
// The time an engine takes for a task that names none: `kalah serve --engine-time`'s default.
const TIME_MS = 1000;

// The compiled module once `init` or `initSync` has run, and the `init` under way.
let compiled = null;
let starting = null;

/** An error the module gives for a call it refuses: `status` is the HTTP status `kalah serve`
 * would answer (400 bad input, 404 and 405 for routes, 409 for a game that changed or an engine
 * already thinking, 500 for a worker that failed). */
export class KalahError extends Error {
  // `code` and `args` name the message a person reads in the catalogs of kalah's pages
  // (kalah-l10n), as `kalah serve`'s errors do; null for an error of a program's input.
  constructor(message, status = 400, code = null, args = null) {
    super(message);
    this.name = 'KalahError';
    this.status = status;
    this.code = code;
    this.args = args;
  }
}

// A refusal of the module comes as `STATUS message` (kalah-table's statuses) and, on a line of
// its own, `{"code": …, "args": …}`; any other error of its input as the message alone (a 400).
// Anything else, such as a WebAssembly trap, is passed on as it is: the module cannot be trusted
// after it.
function refusal(error) {
  if (!(error instanceof Error) || error instanceof WebAssembly.RuntimeError || error instanceof KalahError) {
    return error;
  }
  const match = /^(\d{3}) ([^\n]*)(?:\n(\{.*\}))?$/s.exec(error.message);
  if (!match) return new KalahError(error.message);
  const named = match[3] ? JSON.parse(match[3]) : {};
  return new KalahError(match[2], Number(match[1]), named.code ?? null, named.args ?? null);
}

// Calls the glue: its JSON answer as an object, its error as a KalahError.
function call(f) {
  ready();
  let text;
  try {
    text = f();
  } catch (error) {
    throw refusal(error);
  }
  return typeof text === 'string' ? JSON.parse(text) : text;
}

function ready() {
  if (!compiled) throw new Error('kalah: the module is not loaded yet: call `await init()` first');
}

// Whether this runs in Node, where the module's file is read from the disk (Node's fetch takes
// no file URLs).
const inNode = typeof process === 'object' && process !== null && typeof process.versions?.node === 'string';

async function readFile(url) {
  // Named through a variable so that a bundler for the browser does not try to resolve it.
  const fs = 'node:fs/promises';
  const { readFile: read } = await import(/* webpackIgnore: true */ /* @vite-ignore */ fs);
  return read(url);
}

// Compiles a fetched response, streaming when the server says application/wasm.
async function compileResponse(response) {
  const reply = await response;
  if (!reply.ok) throw new Error(`kalah: cannot fetch the module ${reply.url}: ${reply.status} ${reply.statusText}`);
  if (typeof WebAssembly.compileStreaming === 'function') {
    const copy = reply.clone();
    try {
      return await WebAssembly.compileStreaming(reply);
    } catch (error) {
      // A server that sends another Content-Type: compile the bytes instead.
      if (!(error instanceof TypeError)) throw error;
      return WebAssembly.compile(await copy.arrayBuffer());
    }
  }
  return WebAssembly.compile(await reply.arrayBuffer());
}

// Turns what `init` was given into a compiled module.
async function compile(source) {
  if (source instanceof WebAssembly.Module) return source;
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) return WebAssembly.compile(source);
  // Node reads a path as its file system does (from the working folder); a browser takes a
  // relative address as fetch does (from the page).
  if (typeof source === 'string' && inNode && !/^[a-z][a-z0-9+.-]*:/i.test(source)) {
    return WebAssembly.compile(await readFile(source));
  }
  if (source === undefined || typeof source === 'string' || source instanceof URL) {
    const url = source === undefined ? WASM : new URL(source, globalThis.location?.href);
    if (url.protocol === 'file:' && inNode) return WebAssembly.compile(await readFile(url));
    return compileResponse(fetch(url));
  }
  if (typeof Response === 'function' && (source instanceof Response || source instanceof Promise)) {
    return compileResponse(source);
  }
  throw new TypeError('kalah: init takes nothing, bytes, a URL, a Response or a WebAssembly.Module');
}

/** Loads the module, once: from the package's folder in Node, from beside this file in a browser,
 * or from `source` (bytes, a URL, a path in Node, a fetch Response or a compiled
 * WebAssembly.Module). Resolves to the compiled module, which an EngineWorker can take. Later
 * calls resolve to the same module. */
export function init(source) {
  if (compiled) return Promise.resolve(compiled);
  if (!starting) {
    starting = (async () => {
      const module = await compile(source);
      await initGlue({ module_or_path: module });
      compiled = module;
      return module;
    })();
    // A failed load may be tried again (another source, the network back).
    starting.catch(() => {
      starting = null;
    });
  }
  return starting;
}

/** Loads the module at once from bytes or a compiled WebAssembly.Module (a browser compiles
 * bytes this way only in a worker, or when they are small). Returns the compiled module. */
export function initSync(source) {
  if (compiled) return compiled;
  const module = source instanceof WebAssembly.Module ? source : new WebAssembly.Module(source);
  glue.initSync({ module });
  compiled = module;
  return module;
}

/** Searches `position` (the position notation, or `start`) under `rules` (`kalah(6,4)` and
 * its words) to `depth` sowings, on one thread from an empty 16 MiB table: the same call gives
 * the same nodes anywhere, as the native `kalah analyze --hash 16 --threads 1 --no-egdb`. */
export function search(rules, position, depth) {
  return call(() => glue.search(rules, position, depth));
}

/** Solves `position` under `rules` exactly, on one thread from empty tables, with no database. */
export function solve(rules, position) {
  return call(() => glue.solve(rules, position));
}

// The query of the drawn searches from `{ search, depth, eval }` (each may be left out).
function searchQuery(options = {}) {
  const query = new URLSearchParams();
  for (const key of ['search', 'depth', 'eval']) {
    if (options[key] !== undefined) query.set(key, String(options[key]));
  }
  return query.toString();
}

/** Draws the AI course's searches on `position` under `rules`: `options.search` (`minimax`,
 * `alphabeta` (the default) or `ordered`) to `options.depth` sowings (1 to 6, 3 by default) with
 * the `tuned` (default) or `store` evaluation: every call of Max and Min in order, and the three
 * searches' Max and Min calls side by side, as `kalah compare --position` counts them. */
export function searches(rules, position, options) {
  return call(() => glue.searches(rules, position, searchQuery(options)));
}

/** Returns the sizes, presets, rule words and engine levels a new-game form offers. */
export function variants() {
  return call(() => glue.variants());
}

/** Runs `kalah bench`'s positions to `depth` (13 by default: its node total is then the search's
 * signature, `signature`) on one thread. */
export function bench(depth = 13) {
  return call(() => glue.bench(depth));
}

/** Finds the route of `method` and `path` of `kalah serve`'s JSON API that a page with no
 * server answers: `{ route, id }`; throws a KalahError with status 404 or 405. */
export function route(method, path) {
  return call(() => glue.route(method, path));
}

// What Game.restore passes its constructor: no caller outside this module can.
const ADOPT = Symbol('adopt');

// A request's body as the API takes it: none (an empty body, which takes the defaults) or JSON.
function body(content) {
  return content === undefined || content === null ? '' : JSON.stringify(content);
}

// The task with the default time when it names none.
function timed(task) {
  return task && task.time_ms === undefined ? { ...task, time_ms: TIME_MS } : task;
}

/** A game: the rules, the history with undo, redo and goto, who holds each seat, the clocks,
 * records in and out, as `kalah serve` holds a game. Every change returns the new state. */
export class Game {
  #raw;

  /** Starts the game `options` asks for (the body of `POST /api/games`: rules, position,
   * record, south, north, clock); `id` names it in its state and its record. */
  constructor(options, id = 'game') {
    ready();
    // Game.restore hands over a game the glue has taken up already.
    this.#raw = options === ADOPT ? id : Game.#wrap(() => new glue.Game(id, body(options)));
  }

  static #wrap(f) {
    try {
      return f();
    } catch (error) {
      throw refusal(error);
    }
  }

  /** Takes up a game that `save` kept. */
  static restore(kept) {
    ready();
    return new Game(ADOPT, Game.#wrap(() => glue.Game.restore(kept)));
  }

  /** The state: the board, the legal actions, the moves, the players, the result. */
  state() {
    return JSON.parse(this.#raw.state());
  }

  /** The number of changes so far: a question or an engine move is for one version. */
  get version() {
    return this.#raw.version();
  }

  /** Answers a change of `kalah serve`'s JSON API: `route` is move, undo, redo, goto or shown,
   * `content` its body (none: a request with no body). Returns the new state. */
  request(route, content) {
    Game.#wrap(() => this.#raw.request(route, body(content)));
    return this.state();
  }

  /** Plays `action` for the person to move: a house number, `swap`, `keep`, or a handicap
   * opening such as `S3>N2`. */
  move(action) {
    return this.request('move', { action });
  }

  /** Takes back `plies` actions, or everything since and with the last person's action. */
  undo(plies) {
    return this.request('undo', plies === undefined ? undefined : { plies });
  }

  /** Replays `plies` actions taken back, or up to the next point where a person decides. */
  redo(plies) {
    return this.request('redo', plies === undefined ? undefined : { plies });
  }

  /** Shows the position after `ply` actions of the whole line. */
  goto(ply) {
    return this.request('goto', { ply });
  }

  /** Says the player's screen has shown `version`: the player's clock starts now. */
  shown(version) {
    return this.request('shown', { version });
  }

  /** Starts the engine's turn (the state says `engine_to_move`): the task for Engine.decide. */
  engineTurn() {
    return call(() => this.#raw.engine_turn());
  }

  /** Plays the action an engine decided for `version`. Returns the new state. */
  playEngine(version, action) {
    Game.#wrap(() => this.#raw.play_engine(version, action));
    return this.state();
  }

  /** Ends the engine's turn for `version` without a move (its search failed). */
  stopThinking(version) {
    this.#raw.stop_thinking(version);
  }

  /** The game as an engine rebuilds it: rules, start and actions. */
  snapshot() {
    return JSON.parse(this.#raw.snapshot());
  }

  /** A question about the position shown, for Engine.hint, analyse and solve. */
  question(timeMs = TIME_MS) {
    return { version: this.version, game: this.snapshot(), time_ms: timeMs };
  }

  /** Draws the AI course's searches on the position shown (`options` as for `searches`), with
   * the three searches' averages over the game so far. */
  searches(options) {
    return call(() => this.#raw.searches(typeof options === 'string' ? options : searchQuery(options)));
  }

  /** The analysis kept for the game as it is now (one `keepAnalysis` was given for its
   * version), or null: a page asks the engine only when there is none. */
  analysis() {
    const kept = this.#raw.analysis();
    return kept === undefined ? null : JSON.parse(kept);
  }

  /** Keeps `analysis` (an `Engine.analyse` answer) for the version it is of; one of a version
   * the game has left is refused (409). */
  keepAnalysis(analysis) {
    Game.#wrap(() => this.#raw.keep_analysis(JSON.stringify(analysis)));
  }

  /** Ends the game if a clock ran out; tells whether it changed. */
  checkTime() {
    return this.#raw.check_time();
  }

  /** The game record up to the ply shown, dated `date`. */
  record(date = new Date()) {
    return this.#raw.record(date.getTime() / 1000);
  }

  /** The game kept whole as text, for `Game.restore`. */
  save() {
    return this.#raw.save();
  }

  /** Gives the game's memory back to the module now rather than when it is collected. */
  free() {
    this.#raw.free();
  }
}

/** The engine: moves at levels 1-5, hints, the evaluation and a solve within a time, with one
 * 16 MiB table kept from one call to the next (renewed for a game under other rules). Each call
 * runs on the caller's thread until it is done: use EngineWorker to keep a page or a server
 * answering. A task or question without `time_ms` gets 1000 ms. */
export class Engine {
  #raw;

  constructor() {
    ready();
    this.#raw = new glue.Engine();
  }

  /** The engine's move for a task of Game.engineTurn, at the task's level. */
  decide(task) {
    return call(() => this.#raw.decide(JSON.stringify(timed(task))));
  }

  /** What the engine would do for the player to decide (Game.question). */
  hint(question) {
    return call(() => this.#raw.hint(JSON.stringify(timed(question))));
  }

  /** The value of the position for South and the best action (Game.question). */
  analyse(question) {
    return call(() => this.#raw.analyse(JSON.stringify(timed(question))));
  }

  /** Solves the position exactly within the time: the value, or the bounds proven by then. */
  solve(task) {
    return call(() => this.#raw.solve(JSON.stringify(timed(task))));
  }

  /** The perfect-play explorer: every legal move of the position shown with its exact value
   * for the side to move, within the time (moves not settled by then with their bounds), from
   * an opening book given to addBook when one holds the position. */
  explore(task) {
    return call(() => this.#raw.explore(JSON.stringify(timed(task))));
  }

  /** Adds an opening book (the text of a file `kalah solve book` wrote) for explore; returns
   * its rules. */
  addBook(text) {
    return call(() => this.#raw.addBook(text));
  }

  /** Gives the engine's table back to the module now rather than when it is collected. */
  free() {
    this.#raw.free();
  }
}

// The worker_threads module, loaded once when Node starts its first worker.
let threads = null;

// Starts the worker script beside this file: a module Web Worker in a browser, a worker thread
// in Node. Resolves to `{ post, terminate, hold }`; `hold(false)` lets Node exit while the
// worker waits for work.
async function spawn(onMessage, onFailure) {
  const script = new URL('./worker.js', import.meta.url);
  if (typeof Worker === 'function') {
    const worker = new Worker(script, { type: 'module' });
    worker.onmessage = (event) => onMessage(event.data);
    worker.onerror = (event) => {
      event.preventDefault();
      onFailure(event.message || 'an error in its worker');
    };
    return { post: (message) => worker.postMessage(message), terminate: () => worker.terminate(), hold() {} };
  }
  if (!inNode) throw new KalahError('no workers here: use Engine', 500);
  const named = 'node:worker_threads';
  threads ??= import(/* webpackIgnore: true */ /* @vite-ignore */ named);
  const worker = new (await threads).Worker(script);
  worker.on('message', onMessage);
  worker.on('error', (error) => onFailure(error.message));
  worker.on('exit', (code) => onFailure(`its worker exited (${code})`));
  return {
    post: (message) => worker.postMessage(message),
    terminate: () => {
      worker.removeAllListeners();
      worker.terminate();
    },
    hold: (held) => (held ? worker.ref() : worker.unref()),
  };
}

/** The engine in a worker (a module Web Worker in a browser, a worker thread in Node): the
 * methods of Engine, each a promise, answered one at a time in order. A search in WebAssembly
 * cannot be interrupted, so `stop` ends the worker; the next call starts a new one from the
 * module already compiled, in milliseconds. */
export class EngineWorker {
  #module;
  #worker = null;
  #waiting = new Map();
  #next = 1;

  /** `module`: the compiled module to start from (by default the one `init` loaded, else the
   * worker loads its own). */
  constructor(module = compiled) {
    this.#module = module;
  }

  // Starts a worker unless one runs; resolves to it.
  #ensure() {
    if (this.#worker) return this.#worker;
    const worker = spawn(
      (message) => this.#answer(message),
      (message) => this.#fail(worker, `the engine stopped: ${message}`, 500),
    ).then((started) => {
      started.post({ module: this.#module ?? null });
      return started;
    });
    // A worker that cannot start fails every call waiting for it.
    worker.catch((error) => this.#fail(worker, error.message, error.status ?? 500));
    this.#worker = worker;
    return worker;
  }

  #answer({ id, ok, reply, error, status }) {
    const request = this.#waiting.get(id);
    if (id === 0) {
      // The worker could not load the module: nothing it is asked can be answered.
      this.#fail(this.#worker, `the engine cannot start: ${error}`, 500);
      return;
    }
    if (!request) return;
    this.#waiting.delete(id);
    if (this.#waiting.size === 0) this.#worker?.then((w) => w.hold(false), () => {});
    if (ok) request.resolve(reply);
    else request.reject(new KalahError(error, status));
  }

  async #ask(kind, task) {
    const id = this.#next++;
    const answer = new Promise((resolve, reject) => this.#waiting.set(id, { resolve, reject }));
    const worker = await this.#ensure().catch(() => null);
    // Stopped (or failed) while the worker started: the call is already refused.
    if (worker && this.#waiting.has(id)) {
      worker.hold(true);
      worker.post({ id, kind, task });
    }
    return answer;
  }

  /** Engine.decide in the worker. */
  decide(task) {
    return this.#ask('decide', timed(task));
  }

  /** Engine.hint in the worker. */
  hint(question) {
    return this.#ask('hint', timed(question));
  }

  /** Engine.analyse in the worker. */
  analyse(question) {
    return this.#ask('analyse', timed(question));
  }

  /** Engine.solve in the worker. */
  solve(task) {
    return this.#ask('solve', timed(task));
  }

  /** Engine.explore in the worker. */
  explore(task) {
    return this.#ask('explore', timed(task));
  }

  /** Engine.addBook in the worker. */
  addBook(text) {
    return this.#ask('book', text);
  }

  /** bench in the worker. */
  bench(depth = 13) {
    return this.#ask('bench', { depth });
  }

  /** Tells whether a call is under way or waiting. */
  busy() {
    return this.#waiting.size > 0;
  }

  /** Ends the worker if it has work: every call under way or waiting is refused with a
   * KalahError of status 409 saying `message`. The next call starts a new worker. */
  stop(message = 'the engine was stopped') {
    if (this.busy()) this.#fail(this.#worker, message, 409);
  }

  /** Ends the worker now, refusing every call under way or waiting (status 409). */
  terminate() {
    this.#fail(this.#worker, 'the engine was stopped', 409);
  }

  // Ends `worker` (if it is still this one's) and refuses every call waiting.
  #fail(worker, message, status) {
    if (worker && worker !== this.#worker) return;
    const ending = this.#worker;
    this.#worker = null;
    ending?.then((w) => w.terminate(), () => {});
    const waiting = [...this.#waiting.values()];
    this.#waiting.clear();
    for (const request of waiting) request.reject(new KalahError(message, status));
  }
}
