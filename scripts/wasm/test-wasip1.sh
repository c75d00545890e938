#!/usr/bin/env bash
# The `idx` crate's own tests on a 32-bit target: wasm32-wasip1, run under
# Node's WASI (scripts/wasm/wasi-run.mjs), with the standard library from
# rustup's target or Debian's packages (scripts/wasm/toolchain.sh). Release
# mode: the tests decode tens of MiB, slow in an unoptimised wasm.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/wasm/toolchain.sh wasm32-wasip1
echo "(toolchain: $WASM_ROUTE)"
export CARGO_TARGET_WASM32_WASIP1_RUNNER="$PWD/scripts/wasm/wasi-run.sh"
wasm_cargo test -p idx --release --lib --tests "$@"
