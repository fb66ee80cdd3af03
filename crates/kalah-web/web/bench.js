// The benchmark page (bench.html): `kalah bench`'s positions searched in the Web Worker of the
// npm package kalah (pkg/), the nodes (at depth 13 the search's signature, as natively) and the
// nodes a second.
import { EngineWorker } from './pkg/index.js';

async function run() {
  const asked = Number(new URLSearchParams(location.search).get('depth') || 13);
  // The page never loads the module itself: the worker fetches and compiles it.
  const engine = new EngineWorker();
  const report = await engine.bench(asked);
  const status = document.getElementById('bench-status');
  const same = report.depth !== 13 || report.nodes === report.signature;
  status.textContent = `depth ${report.depth}: ${report.nodes} nodes in ${report.millis} ms, ${report.nps} nodes/s`
    + (report.depth === 13 ? (same ? '; the signature is right' : `; WRONG: the signature is ${report.signature}`) : '');
  document.getElementById('result').textContent = JSON.stringify(report, null, 1);
  document.body.dataset.done = same ? 'ok' : 'wrong';
}

run().catch((error) => {
  document.getElementById('bench-status').textContent = `the benchmark failed: ${error.message}`;
  document.body.dataset.done = 'failed';
});
