// Where the page's game lives: in this browser (local.js: the rules and the engine compiled to
// WebAssembly, the engine in a Web Worker), or on a `kalah serve` behind the page (its JSON API,
// docs/web.md). Both answer the same requests with the same JSON, so the rest of the page does
// not ask which it talks to.
import { seatFor } from './friends.js';
import { secretFor } from './lobby.js';
import { t } from './l10n.js';

// Asks `kalah serve`'s JSON API; a refusal becomes an Error with the status and the message. A
// body goes as JSON (the server takes no other); a seat in a game against a friend is held by
// its token (friends.js keeps it), sent as `Authorization: Bearer`.
// A request made with `signal` (an AbortController's) is cancelled when the page no longer wants
// it. A server that does not answer at all is an Error with status 0 that says so.
async function serverApi(method, path, body, signal) {
  const init = { method, headers: {} };
  // A game's seat, else the player's name for the lobby's requests (lobby.js).
  const seat = seatFor(path) || secretFor(path);
  if (seat) init.headers.Authorization = `Bearer ${seat}`;
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers['Content-Type'] = 'application/json';
  }
  if (signal) init.signal = signal;
  let response;
  try {
    response = await fetch(path, init);
  } catch (error) {
    // A request this page gave up on (a newer one replaced it) stays an AbortError.
    if (error.name === 'AbortError') throw error;
    // The browser's own words ("Failed to fetch") say nothing to a player.
    const down = new Error(t('page-server-down'));
    down.status = 0;
    throw down;
  }
  const text = await response.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch (_) { data = text; }
  if (!response.ok) {
    // A refusal that names its message (`code`, a message of the catalogs' "Errors the API
    // returns", with its `args`) is said in the page's language; else the API's English words,
    // which may quote code between backticks: a person reads quotes.
    const coded = data && typeof data === 'object' && typeof data.code === 'string' ? t(data.code, data.args || undefined) : null;
    const said = coded && coded !== data.code ? coded
      : ((data && data.error) || `${response.status} ${response.statusText}`).replace(/`([^`]*)`/g, '“$1”');
    const error = new Error(said);
    if (coded) error.code = data.code;
    // A request that cannot be done as written says why in the API's English words (`detail`):
    // a page in another language says it briefly and may show them folded (app.js's form).
    if (coded && data.code === 'error-bad' && data.args) error.detail = String(data.args.detail || '');
    error.status = response.status;
    error.retryAfter = Number(response.headers.get('Retry-After')) || 0;
    throw error;
  }
  return data;
}

// What the page says once about `?engine-time=` in its address, if anything ('' when all is well).
let timeSaid = '';

// The engine's time for a move, a hint or an analysis in this browser, in milliseconds:
// `?engine-time=MS` (1 to 60000) sets it for this tab, as `kalah serve --engine-time` does for a
// server; 1000 by default, as there. A value out of range is said, with the time used instead.
function engineTime() {
  const asked = new URLSearchParams(location.search).get('engine-time');
  let good = true;
  if (asked !== null) {
    const ms = Number(asked);
    good = asked.trim() !== '' && Number.isInteger(ms) && ms >= 1 && ms <= 60000;
    if (good) sessionStorage.setItem('kalah-engine-time', String(ms));
  }
  const used = Number(sessionStorage.getItem('kalah-engine-time')) || 1000;
  if (!good) timeSaid = t('page-engine-time-range', { asked, used: String(used) });
  return used;
}

// What to say about `?engine-time=` in the address, once, when the page opens: a value out of
// range (the engine in this browser), or any value where the server's engine runs (its time is
// the server's `--engine-time`).
export function engineTimeSaid(kind) {
  if (kind === 'server' && new URLSearchParams(location.search).has('engine-time')) {
    return t('page-engine-time-server');
  }
  return timeSaid;
}

// Returns the backend: `{ kind: 'browser' | 'server', api(method, path, body) }`. The page uses
// the engine in this browser whenever the site has it (the static site always does); the page
// `kalah serve` builds in has no WebAssembly module, so it asks the server: that page says so
// (`<meta name="kalah-backend" content="server">`), and the module is not looked for.
export async function connect() {
  if (document.querySelector('meta[name="kalah-backend"][content="server"]')) {
    return { kind: 'server', api: serverApi };
  }
  try {
    const local = await import('./local.js');
    return await local.start(engineTime());
  } catch (error) {
    if (location.protocol === 'file:') throw error;
    return { kind: 'server', api: serverApi };
  }
}
