#!/usr/bin/env bash
# The mxnet row of corpus/MATRIX.md, outside CI (the mxnet wheel is 49 MB,
# about 200 MB installed, and needs numpy < 1.24).
#
#   scripts/mxnet-matrix.sh [ENVS]
#
# Installs mxnet and numpy (pinned in crates/idx-conformance/adapters/
# mxnet.toml) into a virtual environment in ENVS (default
# target/conformance-envs), runs MXNet's MNISTIter over the corpus through
# the adapter (one process per case: MNISTIter corrupts the heap on some
# inputs), writes its JSON results, with the corpus fingerprint, to
# crates/idx-conformance/adapters/results/, its expected failures and its
# report (corpus/reports/mxnet.md); then regenerates corpus/MATRIX.md with
# every CI implementation run and every saved result merged. Commit the
# results, expected failures, report and MATRIX.md. The matrix flags saved
# results STALE when the corpus changes: rerun this then.
set -euo pipefail
cd "$(dirname "$0")/.."
envs=()
if [ $# -gt 0 ]; then
  mkdir -p "$1"
  envs=(--envs "$(cd "$1" && pwd)")
fi
cargo build -q -p idx-cli -p idx-conformance
target/debug/idx-conformance matrix --install "${envs[@]}" --only mxnet \
  --write-expected --results crates/idx-conformance/adapters/results --reports corpus/reports
target/debug/idx-conformance matrix --install --out corpus/MATRIX.md
