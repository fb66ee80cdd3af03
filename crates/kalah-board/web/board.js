// The Kalah board, drawn in the page: pits laid out across the screen (North above, South below,
// the stores at the ends) or, where a row does not fit, down it; each pit shows its count, its
// stones (a sunflower spiral) and a label a screen reader reads. Cells are numbered as the
// project's JSON numbers them: South's houses 0..m-1, South's store m, North's houses m+1..2m,
// North's store 2m+1. Used by kalah serve's page and kalah kgp serve's.
(function () {
  'use strict';

  // The smallest house a finger can hit, in CSS pixels.
  const MIN_HOUSE = 44;
  // Smaller houses, still a finger's target, where a board of many houses must fit a phone: a
  // stacked row's houses (Kalah(8,n) at 390 pixels), and the rows of a board down the screen
  // fitted to the screen's height (Kalah(12,n) on a 390 x 844 phone), whose houses then become
  // pills half the board wide showing counts, not stones.
  const MIN_STACKED = 36;
  const MIN_ROW = 32;
  const MAX_ROW = 58;
  // A finished game's board is only read, not tapped: its rows may be smaller still, so that the
  // end's panel and the buttons under it share the screen with twelve houses a side.
  const MIN_READ_ROW = 24;
  const STONE_COLORS = ['#c8553d', '#e0a458', '#588b8b', '#8e6c8a', '#b5838d', '#6d9f71'];

  // The board's words in the page's language: the catalogs' messages, which the page's
  // l10n.js (an ES module, loaded before the board is drawn) offers as globalThis.kalahL10n;
  // English where a page has no catalogs.
  function say(id, args, english) {
    const l10n = globalThis.kalahL10n;
    return l10n ? l10n.t(id, args) : english;
  }

  function cellName(cell, m) {
    if (cell === m) return say('board-store-south', undefined, "South's store");
    if (cell === 2 * m + 1) return say('board-store-north', undefined, "North's store");
    return cell < m ? say('board-house-south', { house: cell + 1 }, `South house ${cell + 1}`)
      : say('board-house-north', { house: cell - m }, `North house ${cell - m}`);
  }

  // Lays the cells out across where a row of m houses and two stores fits with houses of
  // MIN_HOUSE pixels; else, where a row of m houses of MIN_STACKED pixels fits (a phone's
  // Kalah(6,n) to Kalah(8,n)), stacked:
  // North's store across the top, North's houses, South's houses, South's store across the
  // bottom; else down the screen (North's store at the top, South's houses down the left,
  // South's store at the bottom, North's houses up the right). Sowing still goes
  // counter-clockwise, and every board fits a phone. A board turned for North's player
  // (`flip`) is the same turned half a circle: each pit takes the place of the pit across it
  // (cell c that of c + m + 1), so North's houses run along the bottom from left to right.
  function layout(board) {
    const m = Number(board.dataset.houses);
    if (!m) return;
    const turned = board.classList.contains('flipped');
    const room = board.parentElement ? board.parentElement.clientWidth : 0;
    const wide = room === 0 || room >= (m + 2) * (MIN_HOUSE + 8) + 24;
    const stacked = !wide && room >= m * (MIN_STACKED + 6) + 24;
    const vertical = !wide && !stacked;
    board.classList.toggle('vertical', vertical);
    board.classList.toggle('stacked', stacked);
    // Only a board down the screen is fitted to the height (fit).
    if (!vertical) {
      board.style.removeProperty('--row');
      board.classList.remove('counts');
    }
    for (const el of board.querySelectorAll('.pit')) {
      const cell = turned ? (Number(el.dataset.cell) + m + 1) % (2 * m + 2) : Number(el.dataset.cell);
      let column, row;
      if (stacked) {
        if (cell === 2 * m + 1) [column, row] = [`1 / span ${m}`, '1'];
        else if (cell === m) [column, row] = [`1 / span ${m}`, '4'];
        else if (cell < m) [column, row] = [`${cell + 1}`, '3'];
        else [column, row] = [`${2 * m - cell + 1}`, '2'];
      } else if (cell === 2 * m + 1) [column, row] = vertical ? ['1 / span 2', '1'] : ['1', '1 / span 2'];
      else if (cell === m) [column, row] = vertical ? ['1 / span 2', `${m + 2}`] : [`${m + 2}`, '1 / span 2'];
      else if (cell < m) [column, row] = vertical ? ['1', `${cell + 2}`] : [`${cell + 2}`, '2'];
      else [column, row] = vertical ? ['2', `${2 * m + 2 - cell}`] : [`${2 * m - cell + 2}`, '1'];
      el.style.gridColumn = column;
      el.style.gridRow = row;
    }
  }

  // Fits a board laid down the screen into `height` pixels (the page says how many it can give):
  // each of its m + 2 rows (a store, or a house of each side) gets the height left by the gaps and
  // the padding, from MIN_ROW (MIN_READ_ROW on a board marked `over`) to MAX_ROW pixels; rows
  // under MIN_HOUSE show counts, not stones. Other layouts are left as they are (their height
  // follows the width).
  function fit(board, height) {
    const m = Number(board.dataset.houses);
    const vertical = board.classList.contains('vertical');
    if (!m || !vertical || !(height > 0)) {
      board.style.removeProperty('--row');
      board.classList.remove('counts');
      return;
    }
    const house = board.querySelector('.pit.house');
    const rows = m + 2;
    const rest = board.getBoundingClientRect().height - rows * house.getBoundingClientRect().height;
    const least = board.classList.contains('over') ? MIN_READ_ROW : MIN_ROW;
    const row = Math.max(least, Math.min(MAX_ROW, Math.floor((height - rest) / rows)));
    board.style.setProperty('--row', `${row}px`);
    board.classList.toggle('counts', row < MIN_HOUSE);
  }

  // Turns the board so that North's side is nearest the player (North's player's view, as
  // game sites show each player their own houses along the bottom), or back.
  function flip(board, north) {
    if (board.classList.contains('flipped') === !!north) return;
    board.classList.toggle('flipped', !!north);
    layout(board);
  }

  // Builds the pits of a board of m houses a side inside `board`.
  function build(board, m, onHouse) {
    board.innerHTML = '';
    board.classList.add('board');
    board.style.setProperty('--houses', m);
    const add = (cell, isStore) => {
      const el = document.createElement(isStore || !onHouse ? 'div' : 'button');
      el.className = isStore ? 'pit store' : cell > m ? 'pit house north' : 'pit house';
      el.dataset.cell = cell;
      // A store is no control: a group named with its count ("South's store, 12 seeds"), so
      // that a screen reader reads it (a name on a plain div is not read).
      if (isStore || !onHouse) el.setAttribute('role', 'group');
      if (!isStore && onHouse) {
        el.type = 'button';
        el.addEventListener('click', () => onHouse(cell));
      }
      const label = document.createElement('span');
      label.className = 'label';
      label.textContent = isStore ? (cell === m ? say('board-south', undefined, 'South') : say('board-north', undefined, 'North'))
        : (cell < m ? `${cell + 1}` : `${cell - m}`);
      const stones = document.createElement('span');
      stones.className = 'stones';
      stones.setAttribute('aria-hidden', 'true');
      const count = document.createElement('span');
      count.className = 'count';
      el.append(stones, count, label);
      board.append(el);
    };
    add(2 * m + 1, true);
    for (let k = 1; k <= m; k++) add(m + k, false);
    for (let k = 1; k <= m; k++) add(k - 1, false);
    add(m, true);
    board.dataset.houses = m;
    layout(board);
  }

  function drawStones(container, count, isStore) {
    const cap = isStore ? 48 : 24;
    const drawn = Math.min(count, cap);
    if (container.childElementCount === drawn) return;
    container.innerHTML = '';
    for (let i = 0; i < drawn; i++) {
      // A sunflower spiral spreads the stones evenly over the pit.
      const r = 34 * Math.sqrt((i + 0.5) / Math.max(drawn, 8));
      const a = i * 2.39996;
      const stone = document.createElement('i');
      stone.style.left = `${50 + r * Math.cos(a)}%`;
      stone.style.top = `${(isStore ? 50 : 44) + r * Math.sin(a) * (isStore ? 1.4 : 1)}%`;
      stone.style.background = STONE_COLORS[i % STONE_COLORS.length];
      container.append(stone);
    }
  }

  // Shows the seeds of `cells` (South's houses, South's store, North's houses, North's store).
  function draw(board, cells) {
    const m = (cells.length - 2) / 2;
    for (const el of board.querySelectorAll('.pit')) {
      const cell = Number(el.dataset.cell);
      const count = cells[cell];
      el.querySelector('.count').textContent = count;
      drawStones(el.querySelector('.stones'), count, el.classList.contains('store'));
      const name = cellName(cell, m);
      el.setAttribute('aria-label', say('board-pit', { name, count }, `${name}, ${count} seed${count === 1 ? '' : 's'}`));
    }
  }

  function pit(board, cell) {
    return board.querySelector(`.pit[data-cell="${cell}"]`);
  }

  globalThis.KalahBoard = { build, draw, layout, fit, flip, pit, cellName };
})();
