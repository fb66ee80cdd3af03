// The AI course's searches, drawn (docs/assignment.md): on the position shown, minimax, alpha-beta
// or alpha-beta with move ordering to a depth, as the route GET /api/games/{id}/searches answers
// it (kalah serve, or this browser's module): the tree of every call of Max and Min as a nested,
// foldable list, a step through the calls in the order made, and the three searches' Max and Min
// calls side by side, on the position and averaged over the game so far. It owns its panel
// (#searches) and nothing else; app.js tells it which game is shown.
import { number, t } from './l10n.js';

const $ = (id) => document.getElementById(id);

// The API's names of the searches, the query's and the ones said.
const NAMES = {
  Minimax: ['minimax', t('searches-name', { search: 'minimax' })],
  AlphaBeta: ['alphabeta', t('searches-name', { search: 'alphabeta' })],
  Ordered: ['ordered', t('searches-name', { search: 'ordered' })],
};
// No bound yet: kalah-course's INFINITY (hundredths of a seed).
const INFINITY = 1000000;

let api = null;
let current = () => null;   // the game's state shown
let drawn = null;           // the last answer, and the game and version it is of
let drawnOf = '';
let drawnQuery = null;      // the query the answer drawn is of
let at = 0;                 // the call highlighted in the step-through
let asking = null;          // the request under way (a newer one cancels it)
let elements = [];          // the tree's element of each call

// Hundredths of a seed as seeds, signed; ±∞ for no bound.
function seeds(v) {
  if (v >= INFINITY) return '+∞';
  if (v <= -INFINITY) return '−∞';
  const s = number(Math.abs(v) / 100, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return v > 0 ? `+${s}` : v < 0 ? `−${s}` : s;
}

// What a call is: Max or Min, the house that led to it, alpha and beta on entry, its value, how
// it ended, and the cut of its remaining children with the bound that cut them.
function describe(node) {
  const parts = [node.max ? 'Max' : 'Min', node.house === null ? t('searches-root') : t('searches-house', { house: node.house })];
  if (node.alpha !== null) parts.push(`α ${seeds(node.alpha)} β ${seeds(node.beta)}`);
  parts.push(t('searches-value', { value: seeds(node.value), end: node.end || 'searched' }));
  if (node.cut) parts.push(cutText(node.cut));
  return parts.join(' · ');
}

function cutText(cut) {
  const houses = t('searches-cut-houses', { count: cut.houses.length, houses: cut.houses.join(', ') });
  const args = { alpha: seeds(cut.alpha), beta: seeds(cut.beta), houses };
  return cut.bound === 'beta' ? t('searches-cut-beta', args) : t('searches-cut-alpha', args);
}

// The path of houses from the root to a call.
function path(node) {
  const houses = [];
  for (let n = node; n && n.house !== null; n = drawn.tree.nodes[n.parent]) houses.unshift(n.house);
  return houses.length ? t('searches-path', { houses: houses.join(' › ') }) : t('searches-path-root');
}

// One call's item in the list: a foldable `details` with its children, or a line for a leaf.
function item(node, depth) {
  const li = document.createElement('li');
  li.dataset.node = node.id;
  li.className = node.max ? 'max' : 'min';
  const line = document.createElement('span');
  line.className = 'node';
  line.textContent = describe(node);
  elements[node.id] = li;
  if (!node.children.length) {
    li.append(line);
    return li;
  }
  const details = document.createElement('details');
  // The root and its children open; deeper calls fold, and open as the step reaches them.
  details.open = node.depth >= depth - 1;
  const summary = document.createElement('summary');
  summary.append(line);
  const list = document.createElement('ul');
  for (const c of node.children) list.append(item(drawn.tree.nodes[c], depth));
  if (node.cut) {
    const cut = document.createElement('li');
    cut.className = 'cut';
    cut.textContent = `✂ ${cutText(node.cut)}`;
    list.append(cut);
  }
  details.append(summary, list);
  li.append(details);
  return li;
}

// A count as the page's language writes it, with no grouping of thousands (a count is read as
// a number: kalah compare prints it so).
const count = (value, digits) => number(value, { minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: false });

// The counts of the three searches in a table's body: one row each, named by data-search.
function counts(body, rows, digits) {
  body.replaceChildren();
  for (const row of rows) {
    const tr = document.createElement('tr');
    const [name, said] = NAMES[row.search];
    tr.dataset.search = name;
    const th = document.createElement('th');
    th.scope = 'row';
    th.textContent = said;
    tr.append(th);
    for (const [key, cls] of [['max_calls', 'max'], ['min_calls', 'min'], ['total', 'total']]) {
      const td = document.createElement('td');
      td.className = cls;
      td.textContent = count(row[key], digits);
      tr.append(td);
    }
    body.append(tr);
  }
}

// Highlights call `i` of the visit order, opening the calls above it.
function step(i) {
  if (!drawn || !drawn.tree) return;
  const nodes = drawn.tree.nodes;
  at = Math.max(0, Math.min(nodes.length - 1, i));
  for (const el of $('searches-tree').querySelectorAll('[aria-current]')) el.removeAttribute('aria-current');
  const node = nodes[at];
  for (let n = nodes[node.parent]; n; n = nodes[n.parent]) {
    elements[n.id].querySelector(':scope > details').open = true;
  }
  const li = elements[at];
  li.setAttribute('aria-current', 'step');
  li.querySelector('.node').scrollIntoView({ block: 'nearest' });
  $('searches-at').textContent = t('searches-at', { call: count(at + 1, 0), calls: count(nodes.length, 0) });
  $('searches-call').textContent = t('searches-call', { call: describe(node), path: path(node), depth: node.depth });
  $('searches-back').disabled = at === 0;
  $('searches-first').disabled = at === 0;
  $('searches-next').disabled = at === nodes.length - 1;
  $('searches-last').disabled = at === nodes.length - 1;
}

function say(text, isError) {
  const note = $('searches-note');
  note.textContent = text;
  note.classList.toggle('error', !!isError);
}

function render() {
  const d = drawn;
  const [, said] = NAMES[d.tree ? d.tree.search : 'AlphaBeta'];
  $('searches-result').hidden = false;
  counts($('searches-here'), d.searches, 0);
  $('searches-here-caption').textContent = t('searches-here-caption', { depth: d.depth });
  counts($('searches-game'), d.game.searches, 1);
  $('searches-game-caption').textContent = t('searches-game-caption', { positions: d.game.positions, depth: d.depth });
  const list = $('searches-tree');
  list.replaceChildren();
  elements = [];
  $('searches-walk').hidden = !d.tree;
  if (!d.tree) {
    // The server's reason is in English: the other languages say it from the query.
    const search = t('searches-name', { search: drawnQuery.search });
    say(t('searches-untraced', { reason: d.untraced, search, depth: d.depth, limit: 5000 }), true);
    return;
  }
  list.append(item(d.tree.nodes[0], d.depth));
  const best = d.tree.best === null ? t('searches-best-none') : t('searches-house', { house: d.tree.best });
  say(t('searches-drawn', {
    search: said, depth: d.depth, count: d.tree.nodes.length, calls: count(d.tree.nodes.length, 0), value: seeds(d.tree.value), best,
  }));
  step(0);
}

// Draws the searches on the position shown, as the form asks.
async function draw() {
  const state = current();
  if (!state || !$('searches').open) return;
  const query = new URLSearchParams({ search: $('searches-search').value, depth: $('searches-depth').value });
  if (asking) asking.abort();
  const mine = new AbortController();
  asking = mine;
  say(t('searches-searching'));
  try {
    // A server whose searches are all busy (the evaluation, the explorer) answers 503 with
    // Retry-After: asked again then, as the explorer does, until this drawing is replaced.
    for (let tries = 1; ; tries++) {
      try {
        const answer = await api('GET', `/api/games/${state.id}/searches?${query}`, undefined, mine.signal);
        if (asking !== mine) return;
        drawn = answer;
        drawnQuery = { search: query.get('search') };
        drawnOf = `${state.id}:${state.version}`;
        render();
        return;
      } catch (error) {
        if (error.name === 'AbortError' || asking !== mine) return;
        if (error.status === 503 && tries < 30) {
          say(t('page-explorer-waiting'));
          await new Promise((resolve) => setTimeout(resolve, Math.max(1, error.retryAfter || 1) * 1000));
          if (asking !== mine) return;
          say(t('searches-searching'));
          continue;
        }
        $('searches-result').hidden = true;
        say(error.message, true);
        return;
      }
    }
  } finally {
    if (asking === mine) asking = null;
  }
}

// The whole tree opened or folded.
function foldAll(open) {
  for (const d of $('searches-tree').querySelectorAll('details')) d.open = open;
  if (!open && drawn && drawn.tree) step(at);
}

// Sets the panel up: `options.api` asks the backend, `options.current` returns the state shown.
export function setUp(options) {
  api = options.api;
  current = options.current;
  $('searches-form').addEventListener('submit', (event) => {
    event.preventDefault();
    draw();
  });
  $('searches').addEventListener('toggle', () => {
    const state = current();
    if ($('searches').open && state && drawnOf !== `${state.id}:${state.version}`) draw();
  });
  $('searches-first').addEventListener('click', () => step(0));
  $('searches-back').addEventListener('click', () => step(at - 1));
  $('searches-next').addEventListener('click', () => step(at + 1));
  $('searches-last').addEventListener('click', () => step(Infinity));
  $('searches-open').addEventListener('click', () => foldAll(true));
  $('searches-fold').addEventListener('click', () => foldAll(false));
  // Within the panel the arrow keys step through the calls (the page's keys step through the
  // moves), and the house keys do not sow.
  $('searches').addEventListener('keydown', (event) => {
    if (['INPUT', 'SELECT', 'TEXTAREA'].includes(event.target.tagName)) return;
    if (event.key === 'ArrowLeft' || event.key === 'ArrowRight') {
      step(at + (event.key === 'ArrowLeft' ? -1 : 1));
      event.preventDefault();
    }
    event.stopPropagation();
  });
}

// The page shows `state`: a drawn search of another position is drawn again while the panel is open.
export function shown(state) {
  if ($('searches').open && drawnOf !== `${state.id}:${state.version}`) draw();
}
