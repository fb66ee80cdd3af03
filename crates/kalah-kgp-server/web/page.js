// The KGP server's page: results, games and a replay, read from the server's JSON (see
// crates/kalah-kgp-server/src/web.rs); the board is the project's (board.js). Its words come
// from the project's catalogs (l10n.js, kalah-l10n), in the language the page's switch chose.
import { name, switcher, t } from '/l10n.js';

const $ = (id) => document.getElementById(id);
let replay = null;
let ply = 0;

async function get(path) {
  const response = await fetch(path, { cache: 'no-store' });
  const body = await response.json();
  if (!response.ok) throw new Error(body.error || `${path}: ${response.status}`);
  return body;
}

function cell(row, text, cls) {
  const td = document.createElement('td');
  td.textContent = text;
  if (cls) td.className = cls;
  row.append(td);
  return td;
}

function whole(x, signed) {
  if (x === null || x === undefined) return t('kgp-infinite');
  const r = Math.round(x);
  return signed && r > 0 ? `+${r}` : `${r}`;
}

function elo(row) {
  // JSON has no infinity: null stands for it (the sign is the score's).
  const value = row.elo === null ? `${row.points * 2 > row.wins + row.draws + row.losses ? '+' : '-'}${whole(null)}` : whole(row.elo, true);
  return `${value} ± ${whole(row.margin, false)}`;
}

function result(game) {
  const stores = game.stores ? ` ${game.stores[0]}-${game.stores[1]}` : '';
  return `${t('kgp-state', { state: game.state })}${stores}`;
}

async function showStandings() {
  const scope = $('scope').value;
  const table = await get(`/api/standings${scope ? `?tournament=${scope}` : ''}`);
  const standings = document.createElement('table');
  standings.id = 'standings-table';
  const heads = document.createElement('tr');
  for (const [key, cls] of [['rank', 'number'], ['agent', ''], ['games', 'number'], ['points', 'number'], ['wins', 'number'],
    ['draws', 'number'], ['losses', 'number'], ['elo', 'number']]) {
    const th = document.createElement('th');
    if (cls) th.className = cls;
    th.textContent = t(`kgp-standings-${key}`);
    heads.append(th);
  }
  standings.createTHead().append(heads);
  const body = document.createElement('tbody');
  table.rows.forEach((row, i) => {
    const tr = document.createElement('tr');
    cell(tr, i + 1, 'number');
    cell(tr, row.name);
    cell(tr, row.wins + row.draws + row.losses, 'number');
    cell(tr, row.points, 'number');
    cell(tr, row.wins, 'number');
    cell(tr, row.draws, 'number');
    cell(tr, row.losses, 'number');
    cell(tr, elo(row), 'number');
    body.append(tr);
  });
  standings.append(body);
  $('standings').replaceChildren(table.rows.length ? standings : document.createTextNode(t('kgp-standings-none')));
  const cross = document.createElement('table');
  cross.id = 'cross-table';
  const head = document.createElement('tr');
  cell(head, '');
  table.rows.forEach((row, i) => cell(head, `${i + 1}`, 'number'));
  cross.append(head);
  table.rows.forEach((row, i) => {
    const tr = document.createElement('tr');
    cell(tr, `${i + 1} ${row.name}`);
    for (const other of table.rows) {
      const met = row.against[other.agent];
      cell(tr, other.agent !== row.agent && met ? `${met.wins}-${met.draws}-${met.losses}` : '–', 'number');
    }
    cross.append(tr);
  });
  $('cross').replaceChildren(table.rows.length ? cross : document.createTextNode(''));
}

async function showGames() {
  const agent = $('agent').value;
  const games = await get(`/api/games${agent ? `?agent=${encodeURIComponent(agent)}` : ''}`);
  const body = $('games').querySelector('tbody');
  body.replaceChildren();
  for (const game of games) {
    const tr = document.createElement('tr');
    tr.dataset.game = game.id;
    tr.tabIndex = 0;
    cell(tr, game.id, 'number');
    cell(tr, game.south);
    cell(tr, game.north);
    cell(tr, result(game));
    cell(tr, game.move_count, 'number');
    cell(tr, game.rules.replace(/^kalah\((\d+),(\d+)\).*$/, '$1,$2'));
    cell(tr, game.tournament ?? '');
    tr.addEventListener('click', () => openGame(game.id));
    tr.addEventListener('keydown', (e) => { if (e.key === 'Enter') openGame(game.id); });
    if (replay && replay.id === game.id) tr.setAttribute('aria-current', 'true');
    body.append(tr);
  }
  $('games-note').textContent = agent ? t('kgp-games-of', { count: games.length, agent }) : t('kgp-games-count', { count: games.length });
}

async function openGame(id) {
  replay = await get(`/api/games/${id}`);
  $('replay').hidden = false;
  name($('replay-title'), 'kgp-replay-title', { id: String(replay.id) });
  $('replay-players').textContent = t('kgp-replay-players', { south: replay.south, north: replay.north, rules: replay.rules });
  $('download').href = `/api/games/${replay.id}/record`;
  KalahBoard.build($('board'), replay.houses);
  $('ply').max = replay.moves.length;
  const list = $('moves');
  list.replaceChildren();
  for (const move of replay.moves) {
    const li = document.createElement('li');
    // The number in a box of its own, so that the layout (and the browser test) can place it.
    const number = document.createElement('span');
    number.className = 'ply';
    number.textContent = `${move.ply}.`;
    const what = document.createElement('span');
    const how = move.how === 'agent' || move.how === 'bot' || move.how === 'program' ? '' : ` (${t('kgp-how', { how: move.how })})`;
    what.textContent = `${t('kgp-side', { side: move.side })} ${move.house}${how}`;
    li.append(number, what);
    const took = t('kgp-millis', { millis: move.millis });
    li.title = move.comment ? `${took}: ${move.comment}` : took;
    li.addEventListener('click', () => step(move.ply));
    list.append(li);
  }
  for (const tr of $('games').querySelectorAll('tbody tr')) {
    tr.toggleAttribute('aria-current', Number(tr.dataset.game) === replay.id);
  }
  step(replay.moves.length);
  $('replay').scrollIntoView({ block: 'nearest' });
}

function step(to) {
  if (!replay) return;
  ply = Math.max(0, Math.min(replay.moves.length, to));
  const board = $('board');
  KalahBoard.draw(board, replay.positions[ply]);
  const mover = replay.movers[ply];
  board.classList.toggle('south-to-move', mover === 'south');
  board.classList.toggle('north-to-move', mover === 'north');
  for (const el of board.querySelectorAll('.pit')) el.classList.remove('from');
  if (ply > 0) {
    const move = replay.moves[ply - 1];
    const cellOf = move.side === 'south' ? move.house - 1 : replay.houses + move.house;
    KalahBoard.pit(board, cellOf).classList.add('from');
  }
  $('ply').value = ply;
  const last = ply === replay.moves.length;
  // The reason is the server's, in its words.
  const end = last && replay.state !== 'ongoing' ? `${result(replay)}${replay.reason ? ` (${replay.reason})` : ''}` : '';
  const after = t(mover ? 'kgp-replay-status-mover' : 'kgp-replay-status', { ply, moves: replay.moves.length, side: mover });
  $('replay-status').textContent = end ? t('kgp-replay-ended', { status: after, result: end }) : after;
  $('moves').querySelectorAll('li').forEach((li, i) => li.toggleAttribute('aria-current', i === ply - 1));
}

async function start() {
  const [tournaments, agents] = await Promise.all([get('/api/tournaments'), get('/api/agents')]);
  for (const tournament of tournaments) {
    const option = document.createElement('option');
    option.value = tournament.id;
    option.textContent = t(tournament.ended ? 'kgp-tournament' : 'kgp-tournament-playing', {
      id: String(tournament.id), boards: tournament.boards, games: tournament.games,
    });
    $('scope').append(option);
  }
  const names = [...new Set(agents.map((a) => a.name))].sort();
  for (const name of names) {
    const option = document.createElement('option');
    option.value = name;
    option.textContent = name;
    $('agent').append(option);
  }
  switcher($('language'));
  const asked = new URLSearchParams(location.search);
  if (asked.get('agent')) $('agent').value = asked.get('agent');
  if (asked.get('tournament')) $('scope').value = asked.get('tournament');
  $('scope').addEventListener('change', showStandings);
  $('agent').addEventListener('change', showGames);
  $('first').addEventListener('click', () => step(0));
  $('back').addEventListener('click', () => step(ply - 1));
  $('forward').addEventListener('click', () => step(ply + 1));
  $('last').addEventListener('click', () => step(Infinity));
  $('ply').addEventListener('input', () => step(Number($('ply').value)));
  window.addEventListener('resize', () => KalahBoard.layout($('board')));
  await Promise.all([showStandings(), showGames()]);
  if (asked.get('game')) await openGame(Number(asked.get('game')));
  document.body.dataset.ready = '1';
}

start().catch((error) => {
  $('games-note').textContent = t('kgp-unreadable', { error: error.message });
});
