// The service worker of the static site: keeps the site's files on install, so that after the
// first visit the page opens and plays offline. Online it asks the network first (a new version
// of the site shows at once) and keeps what it gets; offline it answers from what it kept.
// scripts/site.sh writes the site's version below, so a new site replaces the old files.
const VERSION = 'dev';
const CACHE = `kalah-${VERSION}`;
const FILES = [
  './', 'index.html', 'board.css', 'style.css', 'board.js', 'app.js', 'backend.js', 'local.js', 'friends.js', 'lobby.js', 'searches.js', 'words.js',
  'manifest.webmanifest', 'icon.svg',
  // The pages' words: the script, @fluent/bundle, the index of languages and their catalogs.
  'l10n.js', 'fluent/index.js', 'fluent/bundle.js', 'fluent/builtins.js', 'fluent/memoizer.js',
  'fluent/resolver.js', 'fluent/resource.js', 'fluent/scope.js', 'fluent/types.js', 'l10n/index.json',
  // The catalogs (scripts/site.sh lists them).
  // The explorer's opening books (scripts/site.sh copies books/).
  'books/kalah-6-4-standard.book', 'books/kalah-6-5-standard.book',
  // The npm package kalah: its wrapper, its engine's worker, wasm-bindgen's glue and the module.
  'pkg/index.js', 'pkg/worker.js', 'pkg/wasm/kalah_wasm.js', 'pkg/wasm/kalah_wasm_bg.wasm',
];

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names.filter((n) => n.startsWith('kalah-') && n !== CACHE).map((n) => caches.delete(n))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET' || new URL(request.url).origin !== location.origin) return;
  event.respondWith(
    fetch(request)
      .then((response) => {
        if (response.ok) {
          const copy = response.clone();
          caches.open(CACHE).then((cache) => cache.put(request, copy));
        }
        return response;
      })
      .catch(() => caches.match(request, { ignoreSearch: true }).then((kept) => kept || Response.error())),
  );
});
