#!/usr/bin/env bash
# Writes the npm package `kalah` (docs/npm.md) into a folder (default target/npm/kalah): the crate
# kalah-wasm built for wasm32-unknown-unknown without default features, wasm-bindgen's glue for
# `--target web` (wasm/, which serves Node and browsers alike), and the hand-written wrapper,
# types, worker, package.json and README of crates/kalah-wasm/npm. `npm pack` or `npm publish`
# in the folder makes the package; scripts/site.sh copies it into the static site.
# Usage: bash scripts/npm.sh [FOLDER]
#
# Needs rustup (adds the wasm32-unknown-unknown target) and wasm-bindgen-cli at exactly the
# version of the wasm-bindgen crate in Cargo.lock, which it installs from crates.io with the CLI's
# own lock file when `wasm-bindgen --version` differs. A folder that exists is replaced only if
# this script wrote it (a file .kalah-npm marks it); the new package is written beside it first,
# so a failed build leaves the old one whole.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-$root/target/npm/kalah}"
marker=.kalah-npm
if [ -e "$out" ] && [ ! -f "$out/$marker" ]; then
    echo "scripts/npm.sh: $out exists and is not a package this script wrote; give a new folder" >&2
    exit 1
fi
cd "$root"
sources=crates/kalah-wasm/npm

# The package's version is the workspace's: a release tags both.
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)
if ! grep -q "^  \"version\": \"$version\",$" "$sources/package.json"; then
    echo "scripts/npm.sh: $sources/package.json must have \"version\": \"$version\", the workspace's version" >&2
    exit 1
fi

if command -v rustup >/dev/null; then
    rustup target list --installed | grep -qx wasm32-unknown-unknown || rustup target add wasm32-unknown-unknown
fi
# The CLI must be the crate's version (its glue and the module's imports are made for each other)
# and install with its own lock file: crates/kalah-wasm/Cargo.toml pins a version whose lock file
# resolves on crates.io, since an unlocked install takes newer dependencies and a quarter of an
# hour. Without its default features it has no TLS (only its test runner downloads anything):
# the same glue and module, 149 crates instead of 160, about 12% less CPU to install.
bindgen=$(sed -n '/^name = "wasm-bindgen"$/{n;s/^version = "\(.*\)"$/\1/p;}' Cargo.lock)
if [ -z "$bindgen" ]; then
    echo "scripts/npm.sh: no wasm-bindgen in Cargo.lock" >&2
    exit 1
fi
if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $bindgen" ]; then
    if ! cargo install wasm-bindgen-cli --version "$bindgen" --locked --no-default-features; then
        echo "scripts/npm.sh: \`cargo install wasm-bindgen-cli --version $bindgen --locked --no-default-features\` failed (above): run it again once crates.io answers, or pin another wasm-bindgen in crates/kalah-wasm/Cargo.toml (docs/npm.md)" >&2
        exit 1
    fi
fi

cargo build --release --target wasm32-unknown-unknown --no-default-features -p kalah-wasm
module="${CARGO_TARGET_DIR:-$root/target}/wasm32-unknown-unknown/release/kalah_wasm.wasm"

new="$out.new.$$"
trap 'rm -rf "$new"' EXIT
mkdir -p "$new"
wasm-bindgen --target web --no-typescript --out-dir "$new/wasm" "$module"
cp "$sources"/package.json "$sources"/README.md "$sources"/index.js "$sources"/index.d.ts "$sources"/worker.js "$new"/
echo "kalah $version, wasm-bindgen $bindgen" >"$new/$marker"
rm -rf "$out"
mv "$new" "$out"
trap - EXIT
echo "package kalah $version written to $out ($(du -sk "$out" | cut -f1) KiB; the module $(wc -c <"$out/wasm/kalah_wasm_bg.wasm") bytes)"
