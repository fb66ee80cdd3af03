#!/usr/bin/env bash
# Writes the static site of the Kalah page into a folder (default target/site): index.html, the
# page's scripts and style, the npm package kalah (pkg/: the engine compiled to WebAssembly, its
# wrapper and its Web Worker, as scripts/npm.sh builds it), the web app manifest and the service
# worker. Any static file server serves the folder; nothing runs behind it.
# Usage: bash scripts/site.sh [FOLDER]
#
# Needs what scripts/npm.sh needs: rustup (it adds the wasm32-unknown-unknown target) and
# wasm-bindgen-cli at exactly the version in Cargo.lock (it installs that version with its lock
# file when `wasm-bindgen --version` differs). A folder that exists is replaced only if this
# script wrote it.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-$root/target/site}"
marker=.kalah-site
if [ -e "$out" ] && [ ! -f "$out/$marker" ]; then
    echo "scripts/site.sh: $out exists and is not a site this script wrote; give a new folder" >&2
    exit 1
fi
cd "$root"

# Written beside the folder, then put in its place, so a failed build leaves the old site whole.
new="$out.new.$$"
trap 'rm -rf "$new"' EXIT
mkdir -p "$new"
# The page imports the package as a user's page would: its folder as it is, less the mark that
# scripts/npm.sh wrote it.
bash scripts/npm.sh "$new/pkg"
rm "$new/pkg/.kalah-npm"
web=crates/kalah-web/web
cp "$web"/index.html "$web"/bench.html "$web"/style.css "$web"/*.js "$web"/manifest.webmanifest "$web"/icon.svg "$new"/
# The board's script and style, shared with kalah kgp serve's page.
cp crates/kalah-board/web/board.js crates/kalah-board/web/board.css "$new"/
# The pages' words (kalah-l10n): its script, Mozilla's @fluent/bundle, one catalog a language
# and their index, English first, as the servers build it (crates/kalah-l10n/build.rs).
l10n=crates/kalah-l10n
cp "$l10n"/web/l10n.js "$new"/
mkdir "$new/fluent" "$new/l10n"
cp "$l10n"/web/fluent/*.js "$new/fluent/"
cp "$l10n"/l10n/*.ftl "$new/l10n/"
index="" catalogs=""
for file in "$l10n"/l10n/en.ftl $(ls "$l10n"/l10n/*.ftl | grep -v '/en\.ftl$'); do
    code=$(basename "$file" .ftl)
    name=$(sed -n 's/^language-name = *//p' "$file" | head -n1)
    [ -n "$name" ] || { echo "scripts/site.sh: $file has no language-name line" >&2; exit 1; }
    index="$index${index:+,}{\"code\":\"$code\",\"name\":\"$name\"}"
    catalogs="$catalogs 'l10n/$code.ftl',"
done
echo "[$index]" >"$new/l10n/index.json"
# The service worker keeps every catalog for offline play.
sed -i "s|^  // The catalogs (scripts/site.sh lists them).\$|  $catalogs|" "$new/sw.js"
grep -q "'l10n/en.ftl'" "$new/sw.js"
# The opening books the explorer answers from (kalah solve book; docs/solver.md).
mkdir "$new/books"
cp books/*.book "$new/books/"
# The site's version names the service worker's cache: a new site replaces the files kept.
sum=$(cd "$new" && find . -type f ! -name sw.js -print0 | sort -z | xargs -0 cat | sha256sum | cut -c1-16)
sed -i "s/^const VERSION = 'dev';$/const VERSION = '$sum';/" "$new/sw.js"
grep -q "^const VERSION = '$sum';$" "$new/sw.js"
echo "$sum" >"$new/$marker"
rm -rf "$out"
mv "$new" "$out"
trap - EXIT
echo "site $sum written to $out ($(du -sk "$out" | cut -f1) KiB; serve it with any static server, e.g. python3 -m http.server --directory $out)"
