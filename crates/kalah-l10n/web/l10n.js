// The page's words in the player's language: every text the pages show comes from one Fluent
// catalog per language (l10n/LANG.ftl beside this script; l10n/index.json lists them), formatted by
// Mozilla's @fluent/bundle, which does the plurals and numbers. The language is the one the
// player chose on the page (kept in this browser), else the first of the browser's languages
// that has a catalog, else English. A message missing from a catalog is taken from English.
//
// Scripts import `t` and format with it; the HTML names its texts with `data-l10n-id` (and
// `data-l10n-args`, a JSON object), which `translate` fills in: the message's value becomes the
// element's text and its attributes (`title`, `aria-label`, `placeholder`, …) the element's.
// Classic scripts (the board) find the same `t` as `globalThis.kalahL10n.t`.
import { FluentBundle, FluentResource } from './fluent/index.js';

const KEY = 'kalah-language';
const FALLBACK = 'en';
const folder = new URL('l10n/', import.meta.url);

async function fetchText(name) {
  const response = await fetch(new URL(name, folder));
  if (!response.ok) throw new Error(`${name}: ${response.status} ${response.statusText}`);
  return response.text();
}

/** The languages the pages speak: `[{ code, name }]`, each name in its own language. */
export const languages = JSON.parse(await fetchText('index.json'));

function stored() {
  try {
    return localStorage.getItem(KEY);
  } catch {
    return null;
  }
}

function pick() {
  const codes = languages.map((l) => l.code);
  const chosen = stored();
  if (chosen && codes.includes(chosen)) return chosen;
  for (const tag of navigator.languages || [navigator.language || '']) {
    const lower = String(tag).toLowerCase();
    const exact = codes.find((code) => code.toLowerCase() === lower);
    if (exact) return exact;
    const primary = codes.find((code) => code.toLowerCase() === lower.split('-')[0]);
    if (primary) return primary;
  }
  return FALLBACK;
}

/** The language the page speaks, e.g. `de`. */
export const language = pick();

async function bundle(code) {
  const made = new FluentBundle(code);
  const errors = made.addResource(new FluentResource(await fetchText(`${code}.ftl`)));
  for (const error of errors) console.warn(`l10n/${code}.ftl: ${error}`);
  return made;
}

// The chosen language's catalog first, English after it for what the chosen one lacks.
const bundles = await Promise.all([...new Set([language, FALLBACK])].map(bundle));

/** Returns message `id` formatted with `args` (numbers and plurals by the language's rules). */
export function t(id, args) {
  for (const b of bundles) {
    const message = b.getMessage(id);
    if (message && message.value) return format(b, message.value, args);
  }
  console.warn(`no message ${id}`);
  return id;
}

/** Returns attribute `name` of message `id`, formatted with `args`. */
export function attribute(id, name, args) {
  for (const b of bundles) {
    const message = b.getMessage(id);
    if (message && message.attributes[name]) return format(b, message.attributes[name], args);
  }
  console.warn(`no message ${id}.${name}`);
  return id;
}

function format(b, pattern, args) {
  const errors = [];
  const text = b.formatPattern(pattern, args, errors);
  for (const error of errors) console.warn(`${error}`);
  // Fluent isolates each placeable with bidirectional marks, which only right-to-left text needs.
  return text.replace(/[\u2068\u2069]/g, '');
}

/** Formats `value` as a number of the page's language (`{ maximumFractionDigits: 1 }`, …). */
export function number(value, options) {
  return new Intl.NumberFormat(language, options).format(value);
}

/** Names `element`'s text message `id` (with `args`) and fills it in. */
export function name(element, id, args) {
  element.setAttribute('data-l10n-id', id);
  if (args) element.setAttribute('data-l10n-args', JSON.stringify(args));
  else element.removeAttribute('data-l10n-args');
  fill(element);
  return element;
}

function fill(element) {
  const id = element.getAttribute('data-l10n-id');
  const raw = element.getAttribute('data-l10n-args');
  const args = raw ? JSON.parse(raw) : undefined;
  for (const b of bundles) {
    const message = b.getMessage(id);
    if (!message) continue;
    if (message.value) element.textContent = format(b, message.value, args);
    for (const [attr, pattern] of Object.entries(message.attributes)) {
      element.setAttribute(attr, format(b, pattern, args));
    }
    return;
  }
  console.warn(`no message ${id}`);
}

/** Fills in every element under `root` (and `root` itself) that names a message. */
export function translate(root = document.documentElement) {
  if (root.hasAttribute && root.hasAttribute('data-l10n-id')) fill(root);
  for (const element of root.querySelectorAll('[data-l10n-id]')) fill(element);
}

/** Makes `code` the page's language in this browser, and shows the page again in it. */
export function choose(code) {
  try {
    localStorage.setItem(KEY, code);
  } catch {
    // A browser that keeps nothing: the language holds for this page only.
  }
  location.reload();
}

/** Fills `select` with the languages, the page's selected; choosing one shows the page in it. */
export function switcher(select) {
  select.replaceChildren(...languages.map((l) => new Option(l.name, l.code, false, l.code === language)));
  select.addEventListener('change', () => choose(select.value));
}

document.documentElement.lang = language;
translate();
globalThis.kalahL10n = { t, attribute, number, language };
