// The engine's Web Worker: the engine compiled to WebAssembly (kalah-wasm's Engine), one table
// kept from one request to the next. The page sends the compiled module first, then requests
// `{ id, kind, task }`; each reply is `{ id, ok, reply }` or `{ id, ok: false, error }`.
import { initSync, Engine, bench } from './pkg/kalah_wasm.js';

let engine = null;
const queue = [];

function run({ id, kind, task }) {
  try {
    let reply;
    if (kind === 'bench') reply = bench(task.depth);
    else if (kind === 'decide') reply = engine.decide(JSON.stringify(task));
    else if (kind === 'hint') reply = engine.hint(JSON.stringify(task));
    else if (kind === 'analyse') reply = engine.analyse(JSON.stringify(task));
    else if (kind === 'solve') reply = engine.solve(JSON.stringify(task));
    else throw new Error(`unknown request ${kind}`);
    postMessage({ id, ok: true, reply: JSON.parse(reply) });
  } catch (error) {
    postMessage({ id, ok: false, error: error.message || String(error) });
  }
}

onmessage = (event) => {
  if (event.data.module) {
    initSync({ module: event.data.module });
    engine = new Engine();
    for (const request of queue.splice(0)) run(request);
  } else if (engine) {
    run(event.data);
  } else {
    queue.push(event.data);
  }
};
