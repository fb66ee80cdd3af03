// The npm package's types (index.d.ts) as a TypeScript user in Node sees them: `.ci/wasm` copies
// this file beside the installed package and runs `tsc --noEmit --strict` on it. Every export is
// used once the way its documentation says, and each `@ts-expect-error` line is a misuse the
// types must refuse. Nothing here runs.
import {
  init, initSync, search, solve, variants, bench, route, searches, Game, Engine, EngineWorker, KalahError,
  type GameState, type SearchReport, type SolveReport, type MoveTask, type Solved, type Searches, type TraceNode,
  type Explored, type Analysis,
} from 'kalah';

export async function typed(bytes: Uint8Array): Promise<number> {
  const module: WebAssembly.Module = await init();
  await init(new URL('https://example.org/kalah.wasm'));
  initSync(bytes);
  initSync(module);
  const found: SearchReport = search('kalah(6,4)', 'start', 12);
  const proven: SolveReport = solve('kalah(4,3)', 'start');
  const best: number | null = found.best ?? proven.best;
  const levels: number = variants().levels.length;
  const nodes: number = bench(9).nodes + bench().signature;
  const { route: name, id } = route('GET', '/api/games/g1');
  const named: string = `${name} ${id ?? ''}`;
  const drawn: Searches = searches('kalah(6,6)', 'start', { search: 'ordered', depth: 3, eval: 'store' });
  const root: TraceNode | undefined = drawn.tree?.nodes[0];
  const cutBy: string = root?.cut?.bound ?? drawn.untraced ?? drawn.searches[0].search;

  const game = new Game({ rules: 'kalah(6,4)', south: 'human', north: 'engine:3', clock: { seconds: 300 } });
  let state: GameState = game.move(3);
  state = game.undo();
  state = game.redo(1);
  state = game.goto(0);
  state = game.shown(game.version);
  state = game.request('move', { action: state.legal[0] });
  const turn: MoveTask = game.engineTurn();
  const engine = new Engine();
  const move = engine.decide({ ...turn, time_ms: 100 });
  state = game.playEngine(turn.version, move.action);
  const hint: string = engine.hint(game.question()).action;
  const analysis: Analysis = engine.analyse(game.question(200));
  const south: number = analysis.value;
  game.keepAnalysis(analysis);
  const kept: Analysis | null = game.analysis();
  const solved: Solved = engine.solve(game.question(1000));
  const explored: Explored = engine.explore(game.question(1000));
  const thrown: 'win' | 'draw' | null = explored.moves[0].throws_away;
  const rulesOfBook: string = engine.addBook('kalah-book 1');
  const again = Game.restore(game.save());
  const record: string = again.record(new Date());
  const average: number = again.searches({ depth: 2 }).game.searches[0].total;
  again.checkTime();
  game.stopThinking(game.version);
  game.free();
  engine.free();

  const worker = new EngineWorker(module);
  const moved = await worker.decide(turn);
  const bounds: [number, number] = (await worker.solve(again.question())).bounds;
  const lower: number = (await worker.explore(again.question())).lower + (thrown === null ? 0 : 1);
  await worker.addBook(rulesOfBook);
  const depth: number = (await worker.bench(5)).depth + (await worker.hint(again.question())).depth;
  await worker.analyse(again.question());
  if (worker.busy()) worker.stop('changed');
  worker.terminate();

  try {
    search('kalah(6,4)', 'start', 0);
  } catch (error) {
    if (error instanceof KalahError) return error.status;
  }
  // @ts-expect-error: a depth is a number
  search('kalah(6,4)', 'start', '12');
  // @ts-expect-error: no such player
  new Game({ south: 'robot' });
  // @ts-expect-error: no such change
  game.request('resign');
  // @ts-expect-error: a worker's answers are promises
  const sync: number = worker.decide(turn).value;
  // @ts-expect-error: the state has no such field
  state.winner;
  // @ts-expect-error: no such search
  searches('kalah(6,6)', 'start', { search: 'negamax' });
  return [best, levels, nodes, named, hint, south, solved, record, moved, bounds, depth, sync, cutBy, average, lower].length;
}
