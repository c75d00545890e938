#!/usr/bin/env bash
# The rows of corpus/MATRIX.md that CI does not run, from saved results:
#
#   crates/idx-conformance/adapters/results/reproduce.sh [ENVS]
#
# dlib (Debian libdlib-dev: 77 MB of packages, 164 MB installed, installed
# with apt when missing, so run as root) and idx-decoder (a crate whose
# nalgebra 0.19 takes about 35 s to build, and whose run waits out hostile
# headers for another 30 s): installs both into ENVS (default
# target/conformance-envs), runs them over the corpus, writes their JSON
# results, with the corpus fingerprint, beside this script and their
# expected failures, then regenerates corpus/MATRIX.md with every CI
# implementation run and every saved result merged. Commit the results,
# expected failures and MATRIX.md. The torchvision rows have their own
# script (scripts/torchvision-matrix.sh: torch is several GB). The matrix
# flags saved results STALE when the corpus changes: rerun this then.
set -euo pipefail
cd "$(dirname "$0")/../../../.."
envs=()
if [ $# -gt 0 ]; then
  mkdir -p "$1"
  envs=(--envs "$(cd "$1" && pwd)")
fi
cargo build -q -p idx-cli -p idx-conformance
target/debug/idx-conformance matrix --install "${envs[@]}" \
  --only dlib --only idx-decoder \
  --write-expected --results crates/idx-conformance/adapters/results
target/debug/idx-conformance matrix --install --out corpus/MATRIX.md
