// The engine in WebAssembly against the native one: runs a fixed search and a fixed solve through
// the kalah-wasm module under Node, the same search and solve with the native `kalah` binary
// (one thread, the same table, no endgame database), prints both, and fails unless the values,
// the moves, the lines and the node counts are the same; then the benchmark's node total at a small
// depth, and a whole game of the page's Game against the worker's Engine.
//
// Usage: node check.js PKG_DIR KALAH
//   PKG_DIR  wasm-bindgen's output for Node (`--target nodejs`): kalah_wasm.js and its .wasm
//   KALAH    the native binary
// `.ci/wasm` builds both and runs this.
'use strict';

const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const [pkg, binary] = process.argv.slice(2);
if (!pkg || !binary) {
  console.error('usage: node check.js PKG_DIR KALAH');
  process.exit(2);
}
const wasm = require(path.resolve(pkg, 'kalah_wasm.js'));
const kalah = path.resolve(binary);
// The module's table: kalah_wasm::TABLE_BYTES, 16 MiB.
const engine = ['--hash', '16', '--threads', '1', '--no-egdb', '--json'];
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'kalah-wasm-check-'));

function native(args) {
  return JSON.parse(execFileSync(kalah, [...args, ...engine], { encoding: 'utf8', cwd: scratch }));
}

let failures = 0;
function compare(what, fromWasm, fromNative, keys, seconds) {
  console.log(`${what}`);
  for (const key of keys) {
    const a = JSON.stringify(fromWasm[key]);
    const b = JSON.stringify(fromNative[key]);
    const same = a === b;
    failures += same ? 0 : 1;
    console.log(`  ${key.padEnd(6)} wasm ${a.padEnd(24)} native ${b.padEnd(24)} ${same ? 'same' : 'DIFFERENT'}`);
  }
  if (!Number.isNaN(seconds[1])) console.log(`  time   wasm ${seconds[0].toFixed(3)} s, native ${seconds[1].toFixed(3)} s`);
}

// A search of Kalah(6,4) from the start to a fixed depth.
const position = '4,4,4,4,4,4:0/4,4,4,4,4,4:0/S';
const depth = 16;
const searched = JSON.parse(wasm.search('kalah(6,4)', position, depth));
const analysed = native(['analyze', position, '--size', '6,4', '--depth', String(depth)]);
compare(`search: Kalah(6,4) from the start, depth ${depth}`, searched, analysed,
  ['best', 'value', 'exact', 'depth', 'pv', 'nodes'], [searched.millis / 1000, analysed.millis / 1000]);

// An exact solve of Kalah(6,3) from the start.
const solved = JSON.parse(wasm.solve('kalah(6,3)', 'start'));
const proven = native(['solve', '--size', '6,3', '--checkpoint', path.join(scratch, 'solve.ckpt')]);
compare('solve: Kalah(6,3) from the start', solved, proven, ['value', 'best', 'line', 'nodes'],
  [solved.seconds, proven.seconds]);

// The clock ran (web-time reads performance.now() here), and bad input is an Error with a message.
if (!(solved.seconds > 0)) {
  console.log(`the solve took ${solved.seconds} s by the module's clock: the clock does not run`);
  failures += 1;
}
try {
  wasm.search('kalah(6,4)', 'start', 0);
  console.log('depth 0 was taken');
  failures += 1;
} catch (e) {
  console.log(`bad input: ${e.message}`);
  failures += e.message === 'depth 0 is out of range: 1 to 120 sowings' ? 0 : 1;
}

// The benchmark's positions to a small depth: the node total of `kalah bench --depth 9`.
const benched = JSON.parse(wasm.bench(9));
const nativeBench = execFileSync(kalah, ['bench', '--depth', '9'], { encoding: 'utf8', cwd: scratch });
const nativeNodes = Number((nativeBench.match(/^(\d+) nodes/m) || [])[1]);
compare('bench: kalah bench\'s positions, depth 9', benched, { nodes: nativeNodes }, ['nodes'],
  [benched.millis / 1000, NaN]);

// The page's game against the page's engine (what the static site's Web Worker runs): a whole
// Kalah(3,2) game, a person's first legal move each turn against the engine at level 1, then a
// hint and a solve of a finished game.
const game = new wasm.Game('node', JSON.stringify({ rules: 'kalah(3,2)', south: 'human', north: 'engine:1' }));
const worker = new wasm.Engine();
let turns = 0;
for (let state = JSON.parse(game.state()); state.result === null && turns < 100; turns++) {
  if (state.engine_to_move) {
    const turn = JSON.parse(game.engine_turn());
    const move = JSON.parse(worker.decide(JSON.stringify({ ...turn, time_ms: 1000 })));
    game.play_engine(turn.version, move.action);
  } else {
    game.request('move', JSON.stringify({ action: state.legal[0] }));
  }
  state = JSON.parse(game.state());
}
const ended = JSON.parse(game.state());
const question = JSON.stringify({ version: game.version(), game: JSON.parse(game.snapshot()), time_ms: 1000 });
const end = JSON.parse(worker.solve(question));
const settled = ended.result !== null && end.solved && end.value === ended.result.south - ended.result.north;
console.log(`game: Kalah(3,2) against the engine at level 1: ${ended.status} (${turns} turns)`);
failures += settled ? 0 : 1;
try {
  worker.hint(question);
  console.log('a hint was given for a finished game');
  failures += 1;
} catch (e) {
  console.log(`hint after the end: ${e.message}`);
}

fs.rmSync(scratch, { recursive: true, force: true });
if (failures > 0) {
  console.error(`wasm check: ${failures} difference(s) between the WebAssembly module and the native binary`);
  process.exit(1);
}
console.log('wasm check: the WebAssembly module gives the native values and node counts');
