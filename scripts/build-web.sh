#!/usr/bin/env bash
# Builds the validator for the browser and for npm from crates/idx-wasm, once:
#
#   target/web/              the static page (web/ plus the module): serve it
#                            from any static host, or open it from disk
#   target/npm/idx-validate-<version>.tgz
#                            the npm package (npm/ plus the same module)
#
# The wasm32-unknown-unknown standard library comes from rustup's target
# where installed (`rustup target add wasm32-unknown-unknown`), else from
# Debian's Rust packages (`apt-get install rustc-web cargo-web rust-web-src
# lld-22 llvm-22`, installed here when missing; see scripts/wasm/toolchain.sh).
# wasm-bindgen-cli, of the version crates/idx-wasm links, is installed with
# `cargo install --locked` into target/wasm/tools.
set -euo pipefail
cd "$(dirname "$0")/.."

bindgen_version=$(sed -n 's/^wasm-bindgen = "=\(.*\)"$/\1/p' Cargo.toml)
tools=target/wasm/tools
if ! "$tools/bin/wasm-bindgen" --version 2>/dev/null | grep -qx "wasm-bindgen $bindgen_version"; then
  echo "== wasm-bindgen-cli $bindgen_version into $tools"
  # the one binary, without the TLS stack its test runner downloads with
  cargo install --locked --quiet --no-default-features --bin wasm-bindgen \
    wasm-bindgen-cli --version "$bindgen_version" --root "$tools"
fi

# SIMD (every browser of the last years, Node 16.4+), one optimised unit
WASM_RUSTFLAGS=(-C target-feature=+simd128)
source scripts/wasm/toolchain.sh wasm32-unknown-unknown
echo "== idx-wasm for wasm32-unknown-unknown ($WASM_ROUTE toolchain)"
CARGO_PROFILE_RELEASE_LTO=true CARGO_PROFILE_RELEASE_CODEGEN_UNITS=1 \
  CARGO_PROFILE_RELEASE_PANIC=abort CARGO_PROFILE_RELEASE_OPT_LEVEL=3 \
  wasm_cargo build --quiet -p idx-wasm --lib --release
wasm="target/wasm/$WASM_ROUTE/wasm32-unknown-unknown/release/idx_wasm.wasm"

pkg=target/wasm/pkg
rm -rf "$pkg"
"$tools/bin/wasm-bindgen" --target web --no-typescript --out-dir "$pkg" "$wasm"

echo "== the page: target/web"
rm -rf target/web
mkdir -p target/web
cp -r web/. target/web/
rm -f target/web/README.md
cp "$pkg/idx_wasm.js" "$pkg/idx_wasm_bg.wasm" target/web/

echo "== the npm package: target/npm"
rm -rf target/npm
mkdir -p target/npm/package
cp -r npm/. target/npm/package/
cp "$pkg/idx_wasm.js" "$pkg/idx_wasm_bg.wasm" target/npm/package/
(cd target/npm && npm pack --silent ./package >/dev/null)
ls target/npm/*.tgz

size=$(stat -c %s target/web/idx_wasm_bg.wasm)
gz=$(gzip -9 -c target/web/idx_wasm_bg.wasm | wc -c)
echo "idx_wasm_bg.wasm: $size bytes, $gz gzipped"
