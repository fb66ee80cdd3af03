// The benchmark page (bench.html): `kalah bench`'s positions searched in the Web Worker of the
// npm package kalah (pkg/), the nodes (at depth 13 the search's signature, as natively) and the
// nodes a second.
import { EngineWorker } from './pkg/index.js';
import { t } from './l10n.js';

async function run() {
  const asked = Number(new URLSearchParams(location.search).get('depth') || 13);
  // The page never loads the module itself: the worker fetches and compiles it.
  const engine = new EngineWorker();
  const report = await engine.bench(asked);
  const status = document.getElementById('bench-status');
  const same = report.depth !== 13 || report.nodes === report.signature;
  // The counts as strings: the page's words are translated, its figures stay as measured.
  const figures = { depth: report.depth, nodes: String(report.nodes), millis: String(report.millis), nps: String(report.nps) };
  status.removeAttribute('data-l10n-id');
  status.textContent = t('page-bench-result', figures)
    + (report.depth === 13 ? (same ? t('page-bench-right') : t('page-bench-wrong', { signature: String(report.signature) })) : '');
  document.getElementById('result').textContent = JSON.stringify(report, null, 1);
  document.body.dataset.done = same ? 'ok' : 'wrong';
}

run().catch((error) => {
  document.getElementById('bench-status').textContent = t('page-bench-failed', { error: error.message });
  document.body.dataset.done = 'failed';
});
