#!/usr/bin/env bash
# Writes the static site of the Kalah page into a folder (default target/site): index.html, the
# page's scripts and style, the engine compiled to WebAssembly with its wasm-bindgen glue (pkg/),
# the engine's Web Worker, the web app manifest and the service worker. Any static file server
# serves the folder; nothing runs behind it. Usage: bash scripts/site.sh [FOLDER]
#
# Needs rustup (adds the wasm32-unknown-unknown target) and wasm-bindgen-cli at exactly the
# version of the wasm-bindgen crate in Cargo.lock, which it installs from crates.io when
# `wasm-bindgen --version` differs. A folder that exists is replaced only if this script wrote it.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-$root/target/site}"
marker=.kalah-site
if [ -e "$out" ] && [ ! -f "$out/$marker" ]; then
    echo "scripts/site.sh: $out exists and is not a site this script wrote; give a new folder" >&2
    exit 1
fi
cd "$root"

if command -v rustup >/dev/null; then
    rustup target list --installed | grep -qx wasm32-unknown-unknown || rustup target add wasm32-unknown-unknown
fi
version=$(sed -n '/^name = "wasm-bindgen"$/{n;s/^version = "\(.*\)"$/\1/p;}' Cargo.lock)
if [ -z "$version" ]; then
    echo "scripts/site.sh: no wasm-bindgen in Cargo.lock" >&2
    exit 1
fi
if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $version" ]; then
    # With its own lock file first; a registry that lacks one of the versions locked there gets
    # the same CLI version with the newest compatible dependencies.
    cargo install wasm-bindgen-cli --version "$version" --locked || cargo install wasm-bindgen-cli --version "$version"
fi

cargo build --release --target wasm32-unknown-unknown --no-default-features -p kalah-wasm
module="${CARGO_TARGET_DIR:-$root/target}/wasm32-unknown-unknown/release/kalah_wasm.wasm"

# Written beside the folder, then put in its place, so a failed build leaves the old site whole.
new="$out.new.$$"
trap 'rm -rf "$new"' EXIT
mkdir -p "$new"
wasm-bindgen --target web --no-typescript --out-dir "$new/pkg" "$module"
web=crates/kalah-web/web
cp "$web"/index.html "$web"/bench.html "$web"/style.css "$web"/*.js "$web"/manifest.webmanifest "$web"/icon.svg "$new"/
# The board's script and style, shared with kalah kgp serve's page.
cp crates/kalah-board/web/board.js crates/kalah-board/web/board.css "$new"/
# The site's version names the service worker's cache: a new site replaces the files kept.
sum=$(cd "$new" && find . -type f ! -name sw.js -print0 | sort -z | xargs -0 cat | sha256sum | cut -c1-16)
sed -i "s/^const VERSION = 'dev';$/const VERSION = '$sum';/" "$new/sw.js"
grep -q "^const VERSION = '$sum';$" "$new/sw.js"
echo "$sum" >"$new/$marker"
rm -rf "$out"
mv "$new" "$out"
trap - EXIT
echo "site $sum written to $out ($(du -sk "$out" | cut -f1) KiB; serve it with any static server, e.g. python3 -m http.server --directory $out)"
