// The engine's Web Worker (worker.js), seen from the page: one request at a time in order, each a
// promise of the worker's reply. `stop()` ends every request under way or waiting (the game moved
// on): a search in WebAssembly cannot be interrupted from outside, so the worker is ended and a
// new one started from the module already compiled, which takes milliseconds.

export class EngineWorker {
  constructor(module) {
    this.module = module;
    this.worker = null;
    this.waiting = new Map();  // request id -> { resolve, reject }
    this.next = 1;
  }

  // Starts a worker unless one runs.
  ensure() {
    if (this.worker) return this.worker;
    const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
    worker.onmessage = (event) => {
      const { id, ok, reply, error } = event.data;
      const request = this.waiting.get(id);
      if (!request) return;
      this.waiting.delete(id);
      if (ok) request.resolve(reply);
      else request.reject(Object.assign(new Error(error), { status: 400 }));
    };
    worker.onerror = (event) => {
      event.preventDefault();
      this.fail(`the engine stopped: ${event.message || 'an error in its worker'}`, 500);
    };
    worker.postMessage({ module: this.module });
    this.worker = worker;
    return worker;
  }

  // Asks the worker: `kind` is decide, hint, analyse, solve or bench; the reply is its JSON.
  ask(kind, task) {
    const id = this.next++;
    const worker = this.ensure();
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.postMessage({ id, kind, task });
    });
  }

  // Tells whether a request is under way or waiting.
  busy() {
    return this.waiting.size > 0;
  }

  // Ends what the worker does: every request under way or waiting is refused with a 409, as a
  // server refuses the answer for a game that changed.
  stop() {
    if (!this.busy()) return;
    this.fail('the game changed while the engine was thinking', 409);
  }

  fail(message, status) {
    if (this.worker) this.worker.terminate();
    this.worker = null;
    const waiting = [...this.waiting.values()];
    this.waiting.clear();
    for (const request of waiting) request.reject(Object.assign(new Error(message), { status }));
  }
}
