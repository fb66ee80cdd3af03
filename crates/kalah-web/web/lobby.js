// The lobby, which only a `kalah serve` hosts (docs/web.md, "The lobby"): a name picked with
// no password (its secret is kept in this browser, and a link carries it to another device),
// or a guest's; open challenges to accept or offer; quick pairing by rating; the games being
// played, to watch; the leaderboard and the players' pages. The lobby's live channel tells
// this page each challenge made and gone and each game paired: a game of this player's opens
// at once, its seat held by the player's secret.
import { api, game, note, show } from './app.js';
import { Channel, pageAddress, copyText } from './friends.js';
import { t } from './l10n.js';
import { rulesName } from './words.js';

const $ = (id) => document.getElementById(id);
const KEPT = 'kalah-player';  // {name, secret, guest} of this browser's player

let channel = null;
let challenges = new Map();  // id → challenge
let playing = new Map();     // game id → paired game
let me = null;               // GET /api/me

// This browser's player, if it has one: {name, secret, guest}.
export function player() {
  try {
    return JSON.parse(localStorage.getItem(KEPT) || 'null');
  } catch (_) {
    return null;
  }
}

// The secret a request to `path` carries, if it is the player's: their own page, their
// challenges and quick pairing.
export function secretFor(path) {
  const p = player();
  if (!p) return null;
  return /^\/api\/(me|lobby\/challenges|lobby\/quick|lobby\/engine)/.test(path) ? p.secret : null;
}

function el(tag, attrs, text) {
  const node = document.createElement(tag);
  Object.assign(node, attrs || {});
  if (text !== undefined && text !== null) node.textContent = text;
  return node;
}

const sameName = (a, b) => !!a && !!b && a.toLowerCase() === b.toLowerCase();

function clockText(clock) {
  if (!clock) return t('lobby-clock-none');
  const [seconds, increment] = clock;
  const minutes = seconds % 60 === 0 ? t('lobby-clock-minutes', { minutes: seconds / 60 }) : t('lobby-clock-seconds', { seconds });
  return increment ? t('lobby-clock-increment', { base: minutes, increment }) : minutes;
}

function familyName(family) {
  return family === 'other' ? t('lobby-family-other') : family.replace('kalah', 'Kalah');
}

// Sets up the lobby panel (app.js calls it at a server's page only).
export async function setUp() {
  $('lobby').hidden = false;
  $('lobby-pick').addEventListener('submit', (event) => { event.preventDefault(); pick({ name: $('lobby-name').value.trim() }); });
  $('lobby-guest').addEventListener('click', () => pick({ guest: true }));
  $('lobby-sign-in').addEventListener('submit', (event) => { event.preventDefault(); signIn(); });
  $('lobby-password-form').addEventListener('submit', (event) => { event.preventDefault(); setPassword(); });
  $('lobby-forget').addEventListener('click', forgetPlayer);
  $('lobby-offer-form').addEventListener('submit', (event) => { event.preventDefault(); offer('/api/lobby/challenges'); });
  $('lobby-quick').addEventListener('click', () => offer('/api/lobby/quick'));
  $('lobby-engine').addEventListener('click', againstEngine);
  $('lobby-clock').addEventListener('change', drawRated);
  $('leaderboard-family').addEventListener('change', leaderboard);
  $('leaderboard').addEventListener('toggle', () => { if ($('leaderboard').open) leaderboard(); });
  $('player-close').addEventListener('click', () => $('player-dialog').close());
  // The archive by player: a name's page lists its games, finished and going on.
  $('player-find').addEventListener('submit', (event) => {
    event.preventDefault();
    const name = $('player-find-name').value.trim();
    if (name) openPlayer(name);
  });
  $('lobby-carry-copy').addEventListener('click', () => copyText($('lobby-carry'), t('lobby-carry-copied')));
  await carried();
  await drawMe();
  // The lobby is followed live once its panel is opened (a page that never looks at it holds no
  // connection for it), and from then on while the page is shown: a challenge made here hears
  // of its acceptance even with the panel folded. The panel opens as it was in this tab.
  $('lobby').addEventListener('toggle', () => {
    sessionStorage.setItem('kalah-lobby-open', $('lobby').open ? '1' : '0');
    if ($('lobby').open && !channel) follow();
  });
  if (sessionStorage.getItem('kalah-lobby-open') === '1') $('lobby').open = true;
}

// A page that goes away closes its channel at once (a browser holds few connections to a
// server, and a page kept for the back button would hold one); brought back, it follows again.
window.addEventListener('pagehide', () => {
  if (channel) channel.close();
  channel = null;
});
window.addEventListener('pageshow', (event) => {
  if (event.persisted && $('lobby').open) follow();
});

// A link that carries a name (`#player=SECRET`) opened here: the secret is checked, kept, and
// taken out of the address.
async function carried() {
  const hash = new URLSearchParams(location.hash.slice(1));
  const secret = hash.get('player');
  if (!secret) return;
  history.replaceState(null, '', `${location.pathname}${location.search}`);
  try {
    const response = await fetch('/api/me', { headers: { Authorization: `Bearer ${secret}` } });
    const answer = await response.json();
    if (!response.ok) throw new Error(answer.error);
    localStorage.setItem(KEPT, JSON.stringify({ name: answer.name, secret, guest: answer.guest }));
    note(t('lobby-carried', { name: answer.name }));
  } catch (error) {
    note(t('lobby-carried-none', { error: error.message }), true);
  }
}

async function pick(body) {
  $('lobby-error').textContent = '';
  try {
    const made = await api('POST', '/api/players', body);
    localStorage.setItem(KEPT, JSON.stringify({ name: made.name, secret: made.secret, guest: made.guest }));
    await drawMe();
    drawChallenges();
  } catch (error) {
    $('lobby-error').textContent = error.message;
  }
}

// Signs in with a name and its password: the server gives back the name's secret.
async function signIn() {
  $('lobby-error').textContent = '';
  try {
    const body = { name: $('lobby-sign-in-name').value.trim(), password: $('lobby-sign-in-password').value };
    const made = await api('POST', '/api/sign-in', body);
    $('lobby-sign-in-password').value = '';
    localStorage.setItem(KEPT, JSON.stringify({ name: made.name, secret: made.secret, guest: false }));
    await drawMe();
    drawChallenges();
  } catch (error) {
    $('lobby-error').textContent = error.message;
  }
}

async function setPassword() {
  $('lobby-error').textContent = '';
  try {
    await api('POST', '/api/me/password', { password: $('lobby-password').value });
    $('lobby-password').value = '';
    note(t('lobby-password-done'));
  } catch (error) {
    $('lobby-error').textContent = error.message;
  }
}

function forgetPlayer() {
  if (!confirm(t('lobby-forget-confirm'))) return;
  localStorage.removeItem(KEPT);
  me = null;
  drawMe();
  drawChallenges();
}

// Draws who this browser plays as (or the form to pick a name), with its ratings.
async function drawMe() {
  const p = player();
  $('lobby-who').hidden = !p;
  $('lobby-pick').hidden = !!p;
  $('lobby-sign-in-details').hidden = !!p;
  $('lobby-password-form').hidden = !p || !!p.guest;
  $('lobby-offer-form').hidden = !p;
  if (!p) return;
  try {
    me = await api('GET', '/api/me');
  } catch (error) {
    if (error.status === 401) {
      // The name was removed, or this server never knew it.
      localStorage.removeItem(KEPT);
      me = null;
      note(t('lobby-name-unknown', { name: p.name }), true);
      drawMe();
    }
    return;
  }
  $('lobby-me').replaceChildren(nameLink(me.name), document.createTextNode(me.guest ? ` ${t('lobby-guest-only')}` : ''));
  const rated = me.ratings.filter((r) => r.games > 0);
  $('lobby-ratings').textContent = me.guest ? '' : (rated.length
    ? rated.map((r) => `${familyName(r.family)} ${r.shown}`).join(' · ')
    : t('lobby-rating-first'));
  drawRated();
  $('lobby-carry').value = `${pageAddress()}#player=${p.secret}`;
  // The games this player has going on: their seats held here too (a name carried here).
  for (const paired of me.playing) hold(paired.id, paired.names);
}

// A rated game needs a name (not a guest's) and a clock, as the server says (as on lichess,
// where an unlimited game is casual): the rated box and the engine's rated game follow both.
let ratedWanted = true;
function drawRated() {
  const box = $('lobby-rated');
  const timed = $('lobby-clock').value !== '';
  const allowed = !!me && !me.guest && timed;
  if (!box.disabled) ratedWanted = box.checked;
  box.disabled = !allowed;
  box.checked = allowed && ratedWanted;
  $('lobby-engine').disabled = !allowed;
  $('lobby-engine').title = me && !me.guest && !timed ? t('lobby-rated-needs-clock') : '';
}

// Keeps the player's secret as the seat of game `id` between `names` (first, second), so that
// the game's page plays it (friends.js).
function hold(id, names) {
  const p = player();
  if (!p) return false;
  const seat = names.findIndex((n) => sameName(n, p.name));
  if (seat < 0) return false;
  localStorage.setItem(`kalah-seat-${id}`, p.secret);
  localStorage.setItem(`kalah-seat-${id}-first`, seat === 0 ? '1' : '0');
  localStorage.setItem(`kalah-seat-${id}-joined`, '1');
  return true;
}

function nameLink(name) {
  if (name === 'removed') return el('span', {}, name);
  const link = el('a', { href: '#', className: 'player-name' }, name);
  link.addEventListener('click', (event) => { event.preventDefault(); openPlayer(name); });
  return link;
}

async function offer(path) {
  $('lobby-error').textContent = '';
  const body = { rules: $('lobby-rules').value, rated: $('lobby-rated').checked, colour: $('lobby-colour').value };
  const clock = $('lobby-clock').value;
  if (clock) {
    const [seconds, increment] = clock.split('+').map(Number);
    body.clock = { seconds, increment };
  }
  try {
    const answer = await api('POST', path, body);
    if (answer.game) await openPaired(answer.game, answer.names);
    else note(t('lobby-challenge-open', { minutes: 10 }));
  } catch (error) {
    $('lobby-error').textContent = error.message;
  }
}

// A rated game against the engine at the level chosen, on the board, clock and side chosen.
async function againstEngine() {
  $('lobby-error').textContent = '';
  const body = { level: Number($('lobby-level').value), rules: $('lobby-rules').value, colour: $('lobby-colour').value };
  const clock = $('lobby-clock').value;
  if (clock) {
    const [seconds, increment] = clock.split('+').map(Number);
    body.clock = { seconds, increment };
  }
  try {
    const answer = await api('POST', '/api/lobby/engine', body);
    await openPaired(answer.game, answer.names);
  } catch (error) {
    $('lobby-error').textContent = error.message;
  }
}

async function accept(id) {
  $('lobby-error').textContent = '';
  try {
    const answer = await api('POST', `/api/lobby/challenges/${id}/accept`);
    await openPaired(answer.game, answer.names);
  } catch (error) {
    $('lobby-error').textContent = error.message;
  }
}

async function withdraw(id) {
  try {
    await api('DELETE', `/api/lobby/challenges/${id}`);
  } catch (error) {
    $('lobby-error').textContent = error.message;
  }
}

// Opens the game paired for this player: their seat is held by their secret.
async function openPaired(id, names) {
  hold(id, names);
  const p = player();
  const opponent = names.find((n) => !sameName(n, p && p.name));
  history.replaceState(null, '', `${location.pathname}?game=${id}`);
  const state = await api('GET', `/api/games/${id}`);
  await show(state, false);
  note(opponent ? t('lobby-game-begins', { name: opponent }) : t('lobby-game-begins-opponent'));
}

// Follows the lobby live.
function follow() {
  if (channel) channel.close();
  channel = new Channel('/api/lobby/live', null);
  const read = (event) => JSON.parse(event.data);
  channel.addEventListener('lobby', (event) => {
    const lobby = read(event);
    challenges = new Map(lobby.challenges.map((c) => [c.id, c]));
    playing = new Map(lobby.playing.map((g) => [g.id, g]));
    drawChallenges();
    drawPlaying();
  });
  channel.addEventListener('challenge', (event) => {
    const c = read(event);
    challenges.set(c.id, c);
    drawChallenges();
  });
  channel.addEventListener('gone', (event) => {
    challenges.delete(read(event).id);
    drawChallenges();
  });
  channel.addEventListener('paired', (event) => {
    const paired = read(event);
    challenges.delete(paired.challenge);
    playing.set(paired.game, { id: paired.game, names: paired.names, rules: paired.rules, rated: paired.rated });
    drawChallenges();
    drawPlaying();
    // This player's challenge was accepted: the game opens here (unless this page made it).
    const p = player();
    if (p && paired.names.some((n) => sameName(n, p.name)) && !(game && game.id === paired.game)) {
      openPaired(paired.game, paired.names).catch((error) => note(error.message, true));
    }
  });
  channel.addEventListener('ended', (event) => {
    const ended = read(event);
    const paired = playing.get(ended.game);
    playing.delete(ended.game);
    drawPlaying();
    if (ended.ratings && paired) sayRatings(ended.game, paired.names, ended.ratings);
    const p = player();
    if (p && paired && paired.names.some((n) => sameName(n, p.name))) drawMe();
  });
}

// Says the players' new ratings under the board when the game shown is the one that ended.
function sayRatings(id, names, ratings) {
  if (!game || game.id !== id) return;
  const text = t('lobby-new-ratings', { first: names[0], firstRating: ratings[0].shown, second: names[1], secondRating: ratings[1].shown });
  const line = $('rating-change');
  line.textContent = text;
  line.hidden = false;
  line.dataset.game = id;
}

// Hides the ratings line once another game is shown (app.js calls it with each state shown).
export function shown(state) {
  const line = $('rating-change');
  if (line.dataset.game && line.dataset.game !== state.id) {
    line.hidden = true;
    line.textContent = '';
    delete line.dataset.game;
  }
}

function drawChallenges() {
  const p = player();
  const list = $('lobby-challenges');
  const open = [...challenges.values()];
  list.replaceChildren(...open.map((c) => {
    const item = el('li', { className: 'challenge' });
    item.dataset.id = c.id;
    const wants = c.colour === 'random' ? '' : ` · ${t('lobby-wants', { name: c.by, side: c.colour })}`;
    item.append(nameLink(c.by), document.createTextNode(` ${c.rated ? `(${c.shown}) ` : ''}· ${rulesName(c.rules)} · ${clockText(c.clock)} · ${ratedText(c.rated)}${wants} `));
    if (p && sameName(c.by, p.name)) {
      const b = el('button', { type: 'button', className: 'withdraw' }, t('lobby-withdraw'));
      b.addEventListener('click', () => withdraw(c.id));
      item.append(b);
    } else if (p) {
      const b = el('button', { type: 'button', className: 'accept' }, t('lobby-accept'));
      b.disabled = c.rated && !!p.guest;
      b.addEventListener('click', () => accept(c.id));
      item.append(b);
    }
    return item;
  }));
  $('lobby-none').hidden = open.length > 0;
}

function drawPlaying() {
  const list = $('lobby-playing');
  const games = [...playing.values()];
  list.replaceChildren(...games.map((g) => {
    const item = el('li');
    item.dataset.game = g.id;
    item.append(
      el('a', { href: `${location.pathname}?game=${g.id}`, className: 'watch' }, `${g.names[0]} – ${g.names[1]}`),
      document.createTextNode(` · ${rulesName(g.rules)} · ${ratedText(g.rated)}`),
    );
    return item;
  }));
  $('lobby-playing-none').hidden = games.length > 0;
}

async function leaderboard() {
  const family = $('leaderboard-family').value;
  try {
    const board = await api('GET', `/api/leaderboard?family=${encodeURIComponent(family)}`);
    $('leaderboard-list').replaceChildren(...board.leaders.map((l) => {
      const item = el('li');
      item.append(nameLink(l.name), document.createTextNode(` ${l.rating.shown} ${t('lobby-leader-games', { count: l.rating.games })}`));
      return item;
    }));
    $('leaderboard-none').hidden = board.leaders.length > 0;
  } catch (error) {
    note(error.message, true);
  }
}

const outcomeFor = (g, name) => {
  if (!g.outcome) return t('lobby-outcome', { outcome: 'playing' });
  if (g.outcome === 'aborted' || g.outcome === 'draw') return t('lobby-outcome', { outcome: g.outcome });
  const first = sameName(g.names[0], name);
  return t('lobby-outcome', { outcome: (g.outcome === 'first') === first ? 'won' : 'lost' });
};

// A game's kind as a person reads it: rated, or casual.
const ratedText = (rated) => t(rated ? 'lobby-rated' : 'lobby-casual');

// The rating after each rated game drawn as a line for each family (SVG, drawn with the
// page's colours by style.css), the oldest game on the left; nothing with fewer than two games.
function chart(history) {
  if (history.length < 2) return [];
  const ns = 'http://www.w3.org/2000/svg';
  const [width, height, pad] = [320, 120, 8];
  const ratings = history.map((h) => h.rating);
  const [low, high] = [Math.min(...ratings) - 10, Math.max(...ratings) + 10];
  const x = (i) => pad + (i * (width - 2 * pad)) / (history.length - 1);
  const y = (r) => height - pad - ((r - low) * (height - 2 * pad)) / (high - low);
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
  svg.setAttribute('role', 'img');
  // Ratings as the server shows them, with no grouping of thousands.
  const from = String(Math.round(ratings[0]));
  const to = String(Math.round(ratings[ratings.length - 1]));
  svg.setAttribute('aria-label', t('lobby-chart', { from, to }));
  for (const family of [...new Set(history.map((h) => h.family))]) {
    const points = history.map((h, i) => [i, h]).filter(([, h]) => h.family === family)
      .map(([i, h]) => `${x(i).toFixed(1)},${y(h.rating).toFixed(1)}`);
    const line = document.createElementNS(ns, points.length > 1 ? 'polyline' : 'circle');
    if (points.length > 1) {
      line.setAttribute('points', points.join(' '));
    } else {
      const [cx, cy] = points[0].split(',');
      line.setAttribute('cx', cx);
      line.setAttribute('cy', cy);
      line.setAttribute('r', '3');
    }
    line.setAttribute('class', `rating-line ${family === 'kalah(6,6)' ? 'six' : family === 'other' ? 'other' : 'four'}`);
    svg.append(line);
  }
  return [svg];
}

// A player's page: ratings, the rating after each rated game, and the games.
async function openPlayer(name) {
  let page;
  try {
    page = await api('GET', `/api/players/${encodeURIComponent(name)}`);
  } catch (error) {
    note(error.message, true);
    return;
  }
  $('player-title').textContent = page.guest ? t('lobby-player-guest', { name: page.name }) : page.name;
  $('player-ratings').replaceChildren(...page.ratings.map((r) => el('li', {}, t(r.games ? 'lobby-player-rating-games' : 'lobby-player-rating', {
    family: familyName(r.family), rating: r.shown, count: r.games,
  }))));
  $('player-history').textContent = page.history.length
    ? t('lobby-player-history', { ratings: page.history.map((h) => `${Math.round(h.rating)} (${familyName(h.family)})`).join(', ') })
    : t('lobby-player-history-none');
  $('player-chart').replaceChildren(...chart(page.history));
  $('player-games').replaceChildren(...page.games.map((g) => {
    const item = el('li');
    const opponent = sameName(g.names[0], page.name) ? g.names[1] : g.names[0];
    item.append(
      el('a', { href: `${location.pathname}?game=${g.id}` }, t('lobby-player-against', { name: opponent })),
      document.createTextNode(` · ${rulesName(g.rules)} · ${ratedText(g.rated)} · ${outcomeFor(g, page.name)}`),
    );
    return item;
  }));
  $('player-dialog').showModal();
}
