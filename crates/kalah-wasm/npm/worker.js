// The engine's worker (EngineWorker in index.js starts it: a module Web Worker in a browser, a
// worker thread in Node): one Engine, its table kept from one request to the next. The first
// message is `{ module }`, the compiled module to start from (or null: the worker loads its own);
// then requests `{ id, kind, task }`, each answered `{ id, ok: true, reply }` or
// `{ id, ok: false, error, status }`. A module that cannot load is answered with id 0.
import { init, Engine, bench } from './index.js';

let engine = null;
const queue = [];
let post = null;

function run({ id, kind, task }) {
  try {
    let reply;
    if (kind === 'bench') reply = bench(task.depth);
    else if (kind === 'decide') reply = engine.decide(task);
    else if (kind === 'hint') reply = engine.hint(task);
    else if (kind === 'analyse') reply = engine.analyse(task);
    else if (kind === 'solve') reply = engine.solve(task);
    else if (kind === 'explore') reply = engine.explore(task);
    else if (kind === 'book') reply = engine.addBook(task);
    else throw new Error(`unknown request ${kind}`);
    post({ id, ok: true, reply });
  } catch (error) {
    post({ id, ok: false, error: error.message || String(error), status: error.status ?? 500 });
  }
}

function receive(message) {
  if (message && 'module' in message) {
    init(message.module ?? undefined).then(
      () => {
        engine = new Engine();
        for (const request of queue.splice(0)) run(request);
      },
      (error) => post({ id: 0, ok: false, error: error.message || String(error), status: 500 }),
    );
  } else if (engine) {
    run(message);
  } else {
    queue.push(message);
  }
}

// A browser's worker has its global scope; Node's worker thread its parentPort, which keeps the
// messages that come before it is listened to.
if (typeof WorkerGlobalScope === 'function' && self instanceof WorkerGlobalScope) {
  post = (message) => self.postMessage(message);
  self.onmessage = (event) => receive(event.data);
} else {
  const named = 'node:worker_threads';
  import(/* webpackIgnore: true */ /* @vite-ignore */ named).then(({ parentPort }) => {
    post = (message) => parentPort.postMessage(message);
    parentPort.on('message', receive);
  });
}
