// @ts-check
// The game's own terms in the page's language (l10n.js: the catalogs in
// crates/kalah-l10n/l10n/): a side, a rule's words, a board's rules as a list names them. The
// API writes them as the records do (`South`, `kalah(6,4) empty-capture`); every place the page
// shows them says them here, so the lobby's lists and the board menu use the same words.
import { t } from './l10n.js';

/**
 * A side as the page's language names it ("South" is the API's word for it).
 * @param {string} name
 * @returns {string}
 */
export function side(name) {
  return name === 'South' ? t('page-south') : name === 'North' ? t('page-north') : name;
}

/**
 * Message `id` where the catalog has it, else `fallback` (a word the server knows and the
 * catalogs do not yet: a new preset, a new level).
 * @param {string} id
 * @param {Record<string, unknown> | undefined} args
 * @param {string} fallback
 * @returns {string}
 */
export function known(id, args, fallback) {
  const said = t(id, args);
  return said === id ? fallback : said;
}

/**
 * A word of the rules (`standard`, `empty-capture`, `capture=empty`, `pie`…) in the page's language.
 * @param {string} word
 * @returns {string}
 */
export function ruleWord(word) {
  const at = word.indexOf('=');
  if (at < 0) return known(`page-rule-${word}`, undefined, word);
  return `${ruleWord(word.slice(0, at))}=${ruleWord(word.slice(at + 1))}`;
}

/**
 * The rules as the game's own line shows them: `kalah(6,4) empty-capture`, its words in the
 * page's language (the form the records use, which a player may copy into the form).
 * @param {string} rules
 * @returns {string}
 */
export function rulesText(rules) {
  const [size, ...words] = rules.split(' ');
  return [size, ...words.map(ruleWord)].join(' ');
}

// A rule's name in a list where it differs from the rule's word (`empty-capture`).
/** @type {Record<string, string>} */
const NAMES = { 'empty-capture': 'page-rule-name-empty-capture', pie: 'page-rule-name-pie' };

/**
 * The rules as a list of games names them, as the lobby's board menu does: `Kalah(6,4),
 * empty capture`, `Kalah(6,6), pie rule`, `Kalah(4,3)` (standard goes without saying).
 * @param {string} rules
 * @returns {string}
 */
export function rulesName(rules) {
  const [size, ...words] = rules.split(' ');
  const board = size.replace(/^kalah/, 'Kalah');
  const named = words.filter((w) => w !== 'standard').map((w) => NAMES[w] ? t(NAMES[w]) : ruleWord(w));
  return [board, ...named].join(', ');
}
