#!/usr/bin/env bash
# The libtorch row of corpus/MATRIX.md, outside CI (Debian's libtorch-dev
# is 130 MB of packages; installed with apt when missing, so run as root).
#
#   scripts/libtorch-matrix.sh [ENVS]
#
# Installs libtorch-dev (pinned in crates/idx-conformance/adapters/
# libtorch.toml) and builds its adapter into ENVS (default
# target/conformance-envs), runs it over the corpus, writes its JSON
# results, with the corpus fingerprint, to
# crates/idx-conformance/adapters/results/, its expected failures and its
# report (corpus/reports/libtorch.md); then regenerates corpus/MATRIX.md
# with every CI implementation run and every saved result merged. Commit
# the results, expected failures, report and MATRIX.md. The matrix flags
# saved results STALE when the corpus changes: rerun this then.
set -euo pipefail
cd "$(dirname "$0")/.."
envs=()
if [ $# -gt 0 ]; then
  mkdir -p "$1"
  envs=(--envs "$(cd "$1" && pwd)")
fi
cargo build -q -p idx-cli -p idx-conformance
target/debug/idx-conformance matrix --install "${envs[@]}" --only libtorch \
  --write-expected --results crates/idx-conformance/adapters/results --reports corpus/reports
target/debug/idx-conformance matrix --install --out corpus/MATRIX.md
