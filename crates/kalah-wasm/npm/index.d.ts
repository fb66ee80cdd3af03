// Types of the package kalah (index.js), written by hand: the objects are the JSON of the crate
// kalah-wasm and of `kalah serve`'s JSON API, whose field names (snake_case) they keep.

/** A side of the board. */
export type Side = 'South' | 'North';

/** What `init` takes: nothing (the module beside the package's index.js), the module's bytes,
 * its URL (a string is a URL in a browser, relative to the page, and a URL or a file's path in
 * Node), a fetch Response (or its promise) or a compiled module. */
export type ModuleSource =
  | undefined
  | ArrayBuffer
  | ArrayBufferView
  | URL
  | string
  | Response
  | Promise<Response>
  | WebAssembly.Module;

/** An error the module gives for a call it refuses, with the HTTP status `kalah serve` would
 * answer: 400 bad input, 404 or 405 for a route, 409 for a game that changed or an engine
 * stopped, 500 for a worker that failed. */
export class KalahError extends Error {
  constructor(message: string, status?: number, code?: string | null, args?: Record<string, string | number> | null);
  readonly name: 'KalahError';
  status: number;
  /** The message a person reads, by its name in the catalogs of kalah's pages (e.g.
   * `error-over`), as `kalah serve`'s errors name it; null for an error of a program's input. */
  code: string | null;
  /** The message's arguments. */
  args: Record<string, string | number> | null;
}

/** Loads the module, once; resolves to the compiled module. */
export function init(source?: ModuleSource): Promise<WebAssembly.Module>;

/** Loads the module at once from its bytes or a compiled module; returns the compiled module. */
export function initSync(source: ArrayBuffer | ArrayBufferView | WebAssembly.Module): WebAssembly.Module;

/** What `search` found. */
export interface SearchReport {
  /** The position searched, in the position notation. */
  position: string;
  /** The side to move. */
  side: Side;
  /** The best move, a house number from 1; null when the game is over. */
  best: number | null;
  /** The value for the side to move, in seeds (its final store difference), exact or estimated. */
  value: number;
  /** Whether the value is proven. */
  exact: boolean;
  /** The deepest completed iteration, in sowings (0 when the game is over). */
  depth: number;
  /** The principal variation, as house numbers. */
  pv: number[];
  /** Nodes searched. */
  nodes: number;
  /** Milliseconds the search took. */
  millis: number;
}

/** What `solve` proved. */
export interface SolveReport {
  /** The rules, as the records write them. */
  rules: string;
  /** The position solved, in the position notation. */
  position: string;
  /** The side to move. */
  side: Side;
  /** The exact value for the side to move: its final store difference with perfect play. */
  value: number;
  /** A best move, a house number from 1; null when the game is over. */
  best: number | null;
  /** A perfect line, as house numbers. */
  line: number[];
  /** Nodes searched. */
  nodes: number;
  /** Seconds the solve took. */
  seconds: number;
}

/** The rule words a preset sets. */
export interface RuleFields {
  capture: string;
  end: string;
  leftover: string;
  direction: string;
  sowing: string;
  majority_ends: boolean;
}

/** What a new-game form offers. */
export interface Variants {
  /** The fewest and the most houses a side. */
  houses: [number, number];
  /** The fewest and the most seeds a house at the start. */
  seeds: [number, number];
  presets: { name: string; about: string; fields: RuleFields }[];
  capture: string[];
  end: string[];
  leftover: string[];
  direction: string[];
  sowing: string[];
  levels: { level: number; about: string }[];
}

/** One position of the benchmark. */
export interface BenchPosition {
  rules: string;
  position: string;
  nodes: number;
  best: number | null;
  millis: number;
}

/** `kalah bench`'s positions searched to a depth on one thread. */
export interface BenchReport {
  depth: number;
  positions: BenchPosition[];
  /** Nodes of all positions: at depth 13 the search's signature. */
  nodes: number;
  /** The node total a native build gives at depth 13. */
  signature: number;
  millis: number;
  /** Nodes a second. */
  nps: number;
}

/** One of the AI course's searches. */
export type CourseSearch = 'minimax' | 'alphabeta' | 'ordered';

/** What to draw: the search (default `alphabeta`), the depth (1 to 6, default 3), the evaluation. */
export interface SearchesOptions {
  search?: CourseSearch;
  depth?: number;
  eval?: 'tuned' | 'store';
}

/** The Max and Min calls of a search (an average over several positions may be fractional). */
export interface Calls {
  /** `Minimax`, `AlphaBeta` or `Ordered`. */
  search: 'Minimax' | 'AlphaBeta' | 'Ordered';
  max_calls: number;
  min_calls: number;
  total: number;
}

/** One call of Max or Min in a drawn search. Values are hundredths of a seed for the root player. */
export interface TraceNode {
  /** Its place in the visit order; the root is 0. */
  id: number;
  parent: number | null;
  /** The house sown to reach it from its parent. */
  house: number | null;
  /** Max (the root player to move) or Min. */
  max: boolean;
  /** Sowings left below it. */
  depth: number;
  /** Alpha and beta on entry (null for minimax; ±1000000 for no bound yet). */
  alpha: number | null;
  beta: number | null;
  value: number;
  end: 'inner' | 'evaluated' | 'finished';
  /** Its children, in the order searched. */
  children: number[];
  /** The children not searched: the bound that cut them, alpha and beta then, their houses. */
  cut: { bound: 'alpha' | 'beta'; alpha: number; beta: number; houses: number[] } | null;
}

/** A drawn search. */
export interface Trace {
  search: 'Minimax' | 'AlphaBeta' | 'Ordered';
  depth: number;
  value: number;
  best: number | null;
  counts: { max_calls: number; min_calls: number };
  /** Every call in the order made. */
  nodes: TraceNode[];
}

/** The AI course's searches drawn on a position. */
export interface Searches {
  rules: string;
  position: string;
  eval: 'tuned' | 'store';
  depth: number;
  /** The drawn search's tree; null when it makes more than 5000 calls (`untraced` says so). */
  tree: Trace | null;
  untraced: string | null;
  /** The three searches on the position, in the order minimax, alpha-beta, ordered. */
  searches: Calls[];
  /** Their averages over the positions of the game so far. */
  game: { positions: number; searches: Calls[] };
}

/** A route of `kalah serve`'s JSON API. */
export type RouteName =
  | 'variants' | 'create' | 'show' | 'delete' | 'move' | 'engine' | 'undo' | 'redo' | 'goto' | 'shown'
  | 'hint' | 'analysis' | 'solve' | 'explore' | 'searches' | 'record' | 'resign' | 'takeback' | 'rematch' | 'live'
  | 'archive';

/** Searches `position` (the position notation, or `start`) under `rules` to `depth` sowings
 * (1 to 120) on one thread, from an empty 16 MiB table. */
export function search(rules: string, position: string, depth: number): SearchReport;

/** Draws the AI course's searches on `position` under `rules` (depth 1 to 6, at most 5000 calls). */
export function searches(rules: string, position: string, options?: SearchesOptions): Searches;

/** Solves `position` under `rules` exactly, on one thread, with no database. */
export function solve(rules: string, position: string): SolveReport;

/** The sizes, presets, rule words and engine levels a new-game form offers. */
export function variants(): Variants;

/** `kalah bench`'s positions to `depth` (default 13) on one thread. */
export function bench(depth?: number): BenchReport;

/** The route of `method` and `path` that a page with no server answers; throws a KalahError
 * (404, 405) for any other. */
export function route(method: string, path: string): { route: RouteName; id: string | null };

/** A player: `human`, `engine` (level 3) or `engine:LEVEL` (1 to 5). */
export type PlayerName = 'human' | 'engine' | `engine:${1 | 2 | 3 | 4 | 5}`;

/** What a new game is (the body of `POST /api/games`); every field is optional. */
export interface GameOptions {
  /** The rules' text, e.g. `kalah(6,4) standard pie`; default `kalah(6,6) standard`. */
  rules?: string;
  /** A start position in the position notation. */
  position?: string;
  /** A whole game record to take up (its own rules and start; not with rules or position). */
  record?: string;
  /** The first player; default a person. */
  south?: PlayerName;
  /** The second player; default the engine at level 3. */
  north?: PlayerName;
  /** A clock for each player: seconds for the game (1 to 86400), added after each action (0 to 3600). */
  clock?: { seconds: number; increment?: number };
}

/** The houses and stores. */
export interface Board {
  /** South's houses from its house 1. */
  south: number[];
  /** North's houses from its house 1. */
  north: number[];
  south_store: number;
  north_store: number;
}

/** What a sowing did. */
export interface Sowed {
  extra_move: boolean;
  captured: number;
  relays: number;
  ended: boolean;
}

/** One step of a sowing: cells counter-clockwise, South's houses 0..m-1, South's store m,
 * North's houses m+1..2m, North's store 2m+1. */
export interface PathStep {
  kind: 'lift' | 'drop';
  cell: number;
}

/** An action of the whole line. */
export interface MoveEntry {
  ply: number;
  side: Side;
  action: string;
  sowed: Sowed | null;
  /** False for an action taken back. */
  played: boolean;
}

/** The end of a game. */
export interface Finish {
  south: number;
  north: number;
  /** Null for a draw. */
  winner: Side | null;
  lost_on_time: Side | null;
  resigned: Side | null;
}

/** A game's state, as `kalah serve` answers `GET /api/games/{id}`. */
export interface GameState {
  id: string;
  /** Counts the changes. */
  version: number;
  rules: string;
  houses: number;
  seeds: number;
  /** The position in the position notation. */
  position: string;
  /** The start in the position notation. */
  start: string;
  board: Board;
  phase: 'handicap' | 'pie' | 'play' | 'over';
  /** The side that decides; null at the end. */
  to_move: Side | null;
  engine_to_move: boolean;
  /** An engine move is under way (Game.engineTurn until Game.playEngine). */
  thinking: boolean;
  /** Who holds each side now. */
  players: { south: string; north: string };
  /** The first and the second player. */
  seats: [string, string];
  swapped: boolean;
  /** Every action allowed now, as Game.move takes them. */
  legal: string[];
  /** Actions up to the position shown. */
  ply: number;
  moves: MoveEntry[];
  last: { side: Side; action: string; before: Board; sowed: Sowed | null; path: PathStep[] } | null;
  result: Finish | null;
  aborted: Side | null;
  clock: { south_ms: number; north_ms: number; running: Side | null; increment_ms: number } | null;
  /** The line a page shows, e.g. `South to move`. */
  status: string;
  /** What loading a record warned of (only when it did). */
  warnings?: string[];
  friends: boolean;
  takeback: Side | null;
  seq: number;
  rematch_offer: Side | null;
  rematch: string | null;
}

/** The game as an engine rebuilds it. */
export interface Snapshot {
  rules: string;
  /** The start in the position notation. */
  start: string;
  /** The actions played, as records write them. */
  actions: string[];
}

/** The engine's turn (Game.engineTurn), for Engine.decide. */
export interface MoveTask {
  version: number;
  game: Snapshot;
  /** The level of the engine's seat, 1 to 5. */
  level: number;
  /** The engine's clock in a timed game. */
  clock: { remaining_ms: number; increment_ms: number } | null;
  /** The most time for the move (1 to 60000 ms); 1000 when left out. */
  time_ms?: number;
}

/** A question about the position shown (Game.question), for Engine.hint, analyse and solve. */
export interface Question {
  version: number;
  game: Snapshot;
  /** The time for the search (1 to 60000 ms); 1000 when left out. */
  time_ms?: number;
}

/** The engine's move. */
export interface EngineMove {
  version: number;
  /** The action, as Game.playEngine takes it. */
  action: string;
  /** What it is worth to the engine, in seeds. */
  value: number;
  exact: boolean;
  depth: number;
  nodes: number;
  millis: number;
}

/** What the engine would do for the player to decide. */
export interface Hint {
  version: number;
  /** The side that decides, as it will be after the action (South after a swap). */
  side: Side;
  action: string;
  /** The final store difference that side can expect, in seeds. */
  value: number;
  exact: boolean;
  depth: number;
}

/** The value of the position shown. */
export interface Analysis {
  version: number;
  /** For South, in seeds. */
  value: number;
  exact: boolean;
  depth: number;
  /** The side that decides. */
  side: Side;
  /** Its best house, when the best action is a sowing. */
  best: number | null;
  /** Its best action. */
  action: string | null;
  line: number[];
  nodes: number;
  millis: number;
}

/** What a solve within a time found. */
export interface Solved {
  version: number;
  /** The solve finished: `value` is exact. */
  solved: boolean;
  /** South's final store difference with perfect play, if solved. */
  value: number | null;
  /** The least and the most South can get, as proven. */
  bounds: [number, number];
  side: Side;
  /** A best house of the side to move, if solved and the game goes on. */
  best: number | null;
  line: number[];
  nodes: number;
  millis: number;
}

/** One legal move in the explorer; values are final store differences for the side to move. */
export interface ExploredMove {
  /** The house sown. */
  move: number;
  /** The move gives the mover another turn. */
  again: boolean;
  /** The move's exact value, when proven. */
  value: number | null;
  /** The proven bounds on its value (equal when proven). */
  lower: number;
  upper: number;
  /** For the side to move, when the bounds decide it. */
  result: 'win' | 'draw' | 'loss' | null;
  /** The move is proven best. */
  best: boolean;
  /** What the move is proven to throw away. */
  throws_away: 'win' | 'draw' | null;
}

/** The perfect-play explorer's answer (Engine.explore; `GET /api/games/{id}/explore`). */
export interface Explored {
  version: number;
  rules: string;
  position: string;
  /** The side to move, whose values these are. */
  side: Side;
  /** The position's value is proven. */
  exact: boolean;
  /** Every move is settled. */
  complete: boolean;
  value: number | null;
  lower: number;
  upper: number;
  /** The legal moves in house order (none when the game is over). */
  moves: ExploredMove[];
  /** A perfect line from the position, when proven. */
  line: number[];
  nodes: number;
  millis: number;
  source: 'book' | 'solver';
}

/** A change that Game.request takes. */
export type Change = 'move' | 'undo' | 'redo' | 'goto' | 'shown';

/** A game, held as `kalah serve` holds one; every change returns the new state. */
export class Game {
  /** Starts the game `options` asks for; `id` names it in its state and record. */
  constructor(options?: GameOptions, id?: string);
  /** Takes up a game that `save` kept. */
  static restore(kept: string): Game;
  state(): GameState;
  /** The number of changes so far. */
  readonly version: number;
  /** A change with the body `kalah serve`'s API takes for it. */
  request(route: Change, body?: object): GameState;
  /** Plays an action: a house number, `swap`, `keep` or a handicap opening such as `S3>N2`. */
  move(action: number | string): GameState;
  undo(plies?: number): GameState;
  redo(plies?: number): GameState;
  goto(ply: number): GameState;
  /** The player's screen has shown `version`: the player's clock starts now. */
  shown(version: number): GameState;
  /** Starts the engine's turn: the task for Engine.decide. */
  engineTurn(): MoveTask;
  /** Plays the engine's action for `version`. */
  playEngine(version: number, action: string): GameState;
  /** Ends the engine's turn for `version` without a move. */
  stopThinking(version: number): void;
  snapshot(): Snapshot;
  /** A question about the position shown (default 1000 ms). */
  question(timeMs?: number): Question & { time_ms: number };
  /** The AI course's searches drawn on the position shown, with their averages over the game. */
  searches(options?: SearchesOptions | string): Searches;
  /** The analysis kept for the game as it is now, or null. */
  analysis(): Analysis | null;
  /** Keeps an Engine.analyse answer for the version it is of (refused, 409, for a version left). */
  keepAnalysis(analysis: Analysis): void;
  /** Ends the game if a clock ran out; tells whether it changed. */
  checkTime(): boolean;
  /** The game record up to the ply shown, dated `date` (default now). */
  record(date?: Date): string;
  /** The game kept whole, for Game.restore. */
  save(): string;
  /** Frees the game's memory now. */
  free(): void;
}

/** The engine, on the caller's thread, with one 16 MiB table kept between calls. */
export class Engine {
  constructor();
  decide(task: MoveTask): EngineMove;
  hint(question: Question): Hint;
  analyse(question: Question): Analysis;
  solve(task: Question): Solved;
  /** Every legal move of the position shown with its exact value, within the time. */
  explore(task: Question): Explored;
  /** Adds an opening book (the text of a file `kalah solve book` wrote); returns its rules. */
  addBook(text: string): string;
  /** Frees the engine's table now. */
  free(): void;
}

/** The engine in a worker (a Web Worker in a browser, a worker thread in Node). */
export class EngineWorker {
  /** Starts from `module` (default: the one `init` loaded; else the worker loads its own). */
  constructor(module?: WebAssembly.Module | null);
  decide(task: MoveTask): Promise<EngineMove>;
  hint(question: Question): Promise<Hint>;
  analyse(question: Question): Promise<Analysis>;
  solve(task: Question): Promise<Solved>;
  explore(task: Question): Promise<Explored>;
  addBook(text: string): Promise<string>;
  bench(depth?: number): Promise<BenchReport>;
  /** A call is under way or waiting. */
  busy(): boolean;
  /** Ends the worker if it has work, refusing its calls with status 409 and `message`. */
  stop(message?: string): void;
  /** Ends the worker now, refusing its calls with status 409. */
  terminate(): void;
}
