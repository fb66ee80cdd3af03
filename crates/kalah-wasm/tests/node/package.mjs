// The npm package kalah against the native engine: `.ci/wasm` packs the package, installs the
// tarball into an empty folder, copies this file there and runs it, so that it imports `kalah` by
// its name as a user's script does. It runs a fixed search, a fixed solve and the benchmark at a
// small depth through the package and with the native `kalah` binary (one thread, the same
// table, no endgame database), and fails unless the values, the moves, the lines and the node
// counts are the same; then it plays a whole game of the package's Game against its Engine, and
// asks the engine in a worker thread (EngineWorker), stopping one search under way.
//
// Usage: node package.mjs KALAH   (KALAH: the native binary)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { init, initSync, search, solve, bench, variants, route, searches, Game, Engine, EngineWorker, KalahError } from 'kalah';

const [binary] = process.argv.slice(2);
if (!binary) {
  console.error('usage: node package.mjs KALAH');
  process.exit(2);
}
const kalah = path.resolve(binary);
// The package's table: kalah_wasm::TABLE_BYTES, 16 MiB.
const engineFlags = ['--hash', '16', '--threads', '1', '--no-egdb', '--json'];
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'kalah-npm-check-'));

function native(args) {
  return JSON.parse(execFileSync(kalah, [...args, ...engineFlags], { encoding: 'utf8', cwd: scratch }));
}

let failures = 0;
function check(ok, said) {
  console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${said}`);
  failures += ok ? 0 : 1;
}

function compare(what, fromWasm, fromNative, keys, seconds) {
  console.log(what);
  for (const key of keys) {
    const a = JSON.stringify(fromWasm[key]);
    const b = JSON.stringify(fromNative[key]);
    const same = a === b;
    failures += same ? 0 : 1;
    console.log(`  ${key.padEnd(6)} wasm ${a.padEnd(24)} native ${b.padEnd(24)} ${same ? 'same' : 'DIFFERENT'}`);
  }
  if (!Number.isNaN(seconds[0]) && !Number.isNaN(seconds[1])) console.log(`  time   wasm ${seconds[0].toFixed(3)} s, native ${seconds[1].toFixed(3)} s`);
}

// Throws unless `f` throws a KalahError of `status`; returns its message.
function refused(f, status) {
  try {
    f();
  } catch (error) {
    check(error instanceof KalahError && error.status === status, `refused with ${status}: ${error.message}`);
    return error.message;
  }
  check(false, `not refused (${status} expected)`);
  return '';
}

// Loading: from the package's folder, once; an earlier call's module is every later call's.
let started = Date.now();
const module = await init();
console.log(`init: ${Date.now() - started} ms`);
check(module instanceof WebAssembly.Module && (await init()) === module && initSync(new Uint8Array(0)) === module,
  'init loads the module once');

// The other sources init takes, each in a Node of its own (a module loads once a process): a
// path, a file URL and the bytes.
const here = path.dirname(fileURLToPath(import.meta.url));
const file = path.join(here, 'node_modules', 'kalah', 'wasm', 'kalah_wasm_bg.wasm');
for (const [what, source] of [
  ['a path', JSON.stringify(file)],
  ['a file URL', `new URL(${JSON.stringify(`file://${file}`)})`],
  ['the bytes', `(await import('node:fs')).readFileSync(${JSON.stringify(file)})`],
]) {
  const code = `import { init, variants } from 'kalah'; await init(${source}); console.log(variants().levels.length);`;
  const said = execFileSync(process.execPath, ['--input-type=module', '-e', code], { cwd: here, encoding: 'utf8' });
  check(said.trim() === '5', `init from ${what}`);
}

// A search of Kalah(6,4) from the start to a fixed depth.
const position = '4,4,4,4,4,4:0/4,4,4,4,4,4:0/S';
const depth = 16;
const searched = search('kalah(6,4)', position, depth);
const analysed = native(['analyze', position, '--size', '6,4', '--depth', String(depth)]);
compare(`search: Kalah(6,4) from the start, depth ${depth}`, searched, analysed,
  ['best', 'value', 'exact', 'depth', 'pv', 'nodes'], [searched.millis / 1000, analysed.millis / 1000]);

// An exact solve of Kalah(6,3) from the start.
const solved = solve('kalah(6,3)', 'start');
const proven = native(['solve', '--size', '6,3', '--checkpoint', path.join(scratch, 'solve.ckpt')]);
compare('solve: Kalah(6,3) from the start', solved, proven, ['value', 'best', 'line', 'nodes'],
  [solved.seconds, proven.seconds]);

// The benchmark's positions to a small depth: the node total of `kalah bench --depth 9`.
const benched = bench(9);
const nativeBench = execFileSync(kalah, ['bench', '--depth', '9'], { encoding: 'utf8', cwd: scratch });
const nativeNodes = Number((nativeBench.match(/^(\d+) nodes/m) || [])[1]);
compare('bench: kalah bench\'s positions, depth 9', benched, { nodes: nativeNodes }, ['nodes'],
  [benched.millis / 1000, NaN]);

// The AI course's searches drawn: the three searches' counts those of `kalah compare --position`.
const course = '4,4,4,0,5,5:1/4,4,4,4,4,4:0/N';
const drawn = searches('kalah(6,6)', course, { search: 'alphabeta', depth: 3 });
const counted = JSON.parse(execFileSync(kalah, ['compare', '--position', course, '--from', '3', '--to', '3', '--json'],
  { encoding: 'utf8', cwd: scratch }));
const calls = (rows) => rows.map((r) => `${r.max_calls}/${r.min_calls}`).join(' ');
compare('searches: Kalah(6,6), the three searches at depth 3', { calls: calls(drawn.searches) },
  { calls: calls(counted.rows) }, ['calls'], [NaN, NaN]);
check(drawn.tree && drawn.tree.nodes.length === drawn.tree.counts.max_calls + drawn.tree.counts.min_calls,
  `the drawn tree has a node for each of its ${drawn.tree.nodes.length} calls`);

console.log('the API');
// The clock ran (web-time reads performance.now() here).
check(solved.seconds > 0, `the module's clock runs (the solve took ${solved.seconds} s)`);
check(refused(() => search('kalah(6,4)', 'start', 0), 400) === 'depth 0 is out of range: 1 to 120 sowings',
  'a bad depth says so');
refused(() => solve('kalah(13,4)', 'start'), 400);
check(refused(() => searches('kalah(6,6)', 'start', { depth: 7 }), 400).includes('1 to 6'), 'a drawn search too deep says so');
const known = variants();
check(known.levels.length === 5 && known.houses[1] === 12, 'variants: five levels, up to 12 houses');
const found = route('POST', '/api/games/g1/move');
check(found.route === 'move' && found.id === 'g1', `route: ${JSON.stringify(found)}`);
refused(() => route('PUT', '/api/games/g1/move'), 405);

// A whole game of Kalah(4,3) through the package: a person's first legal move each turn against
// the engine at level 2, with an undo, a redo and the game kept and taken up again on the way.
console.log('a game: Kalah(4,3), a person against the engine at level 2');
started = Date.now();
let game = new Game({ rules: 'kalah(4,3)', south: 'human', north: 'engine:2' }, 'node');
const engine = new Engine();
let state = game.state();
let turns = 0;
for (; state.result === null && turns < 200; turns++) {
  if (state.engine_to_move) {
    const turn = game.engineTurn();
    const move = engine.decide({ ...turn, time_ms: 200 });
    state = game.playEngine(turn.version, move.action);
  } else {
    state = game.move(state.legal[0]);
  }
  if (turns === 4) {
    const ply = state.ply;
    check(game.undo().ply < ply && game.redo().ply === ply, 'undo and redo');
    const kept = game.save();
    game.free();
    game = Game.restore(kept);
    check(game.state().position === state.position, 'saved and taken up again');
  }
}
// The explorer: every move of the start of Kalah(4,3) as `kalah solve explore` gives it, and
// the start of a book's rules from the book.
const moveFacts = (m) => [m.move, m.again, m.value, m.lower, m.upper, m.result, m.best, m.throws_away];
const opening = new Game({ rules: 'kalah(4,3)', south: 'human', north: 'human' });
const explored = engine.explore(opening.question(20000));
const nativeExplored = native(['solve', 'explore', '--size', '4,3']);
check(explored.exact && explored.source === 'solver'
  && JSON.stringify(explored.moves.map(moveFacts)) === JSON.stringify(nativeExplored.moves.map(moveFacts)),
  `explore: ${explored.moves.map((m) => `${m.move}: ${m.value}`).join(', ')}, as kalah solve explore`);
execFileSync(kalah, ['solve', 'book', '--size', '4,3', '--plies', '1', '--out', 'k43.book', '--no-egdb'],
  { cwd: scratch, stdio: 'ignore' });
const bookText = fs.readFileSync(path.join(scratch, 'k43.book'), 'utf8');
check(engine.addBook(bookText) === 'kalah(4,3) standard', 'a book is added');
check(engine.explore(opening.question()).source === 'book', 'the explorer answers from the book');
opening.free();
const record = game.record(new Date(Date.UTC(2026, 0, 2)));
const end = engine.solve(game.question());
check(state.result !== null && end.solved && end.value === state.result.south - state.result.north,
  `${state.status} (${turns} turns, ${Date.now() - started} ms); the solve of the end agrees`);
check(/^\[Date "2026\.01\.02"\]$/m.test(record) && record.includes('[Result '), 'the record is dated and has a result');
// A refusal names the message a person reads in the pages' catalogs, as kalah serve's do.
const over = (() => { try { game.move(1); } catch (error) { return error; } return null; })();
check(over instanceof KalahError && over.status === 400 && over.code === 'error-over'
  && over.args === null && !over.message.includes('\n'), `a refusal names its message: ${over && over.code}`);
refused(() => engine.hint(game.question()), 400);
const replayed = new Game({ record, south: 'human', north: 'human' });
check(replayed.state().position === state.position, 'the record loads as the same game');

// The engine in a worker thread: the benchmark gives the native nodes, a move is legal, and a
// search stopped under way is refused with 409 while the next call gets a new worker.
console.log('the engine in a worker thread');
started = Date.now();
const worker = new EngineWorker();
const benchedThere = await worker.bench(9);
check(benchedThere.nodes === nativeNodes, `bench in the worker: ${benchedThere.nodes} nodes (${Date.now() - started} ms)`);
const fresh = new Game({ rules: 'kalah(6,4)', south: 'engine:3', north: 'human' });
const move = await worker.decide({ ...fresh.engineTurn(), time_ms: 100 });
check(fresh.state().legal.includes(move.action), `decide in the worker: ${move.action}`);
const long = worker.solve({ ...new Game({ rules: 'kalah(6,6)' }).question(60000) });
await new Promise((resolve) => setTimeout(resolve, 200));
check(worker.busy(), 'a solve of Kalah(6,6) is under way');
worker.stop('the game changed');
const stopped = await long.then(() => null, (error) => error);
check(stopped instanceof KalahError && stopped.status === 409 && stopped.message === 'the game changed',
  `stopped: ${stopped && stopped.message}`);
const after = await worker.analyse(fresh.question(100));
check(after.version === fresh.version && typeof after.value === 'number', `a new worker answers (value ${after.value})`);
// The game keeps the analysis of its version, as a server's table does, and forgets it when it
// changes; an analysis of a version it has left is refused.
check(fresh.analysis() === null, 'no analysis kept before one is given');
fresh.keepAnalysis(after);
check(JSON.stringify(fresh.analysis()) === JSON.stringify(after), 'the analysis is kept for its version');
fresh.playEngine(fresh.version, move.action);
check(fresh.analysis() === null, 'a move forgets it');
refused(() => fresh.keepAnalysis(after), 409);
const bad = await worker.hint({ version: 0, game: { rules: 'kalah(6,x)', start: 'start', actions: [] } }).catch((e) => e);
check(bad instanceof KalahError && bad.status === 400, `a bad question in the worker: ${bad.message}`);

fs.rmSync(scratch, { recursive: true, force: true });
if (failures > 0) {
  console.error(`npm package check: ${failures} failure(s)`);
  process.exit(1);
}
// Nothing is left running: the worker waits unreferenced, so Node ends here by itself.
console.log('npm package check: the package gives the native values and node counts, and plays a game');
