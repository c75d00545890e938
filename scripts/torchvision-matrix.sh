#!/usr/bin/env bash
# The torchvision rows of corpus/MATRIX.md, outside CI (torch is several GB).
#
#   scripts/torchvision-matrix.sh [ENVS]
#
# 1. installs torch and torchvision, pinned in
#    crates/idx-conformance/adapters/torchvision*.toml, into a virtual
#    environment outside the repository (ENVS/torchvision, default
#    ${TMPDIR:-/tmp}/idx-torchvision-envs; torchvision-mnist shares it);
# 2. runs both torchvision readers (read_sn3_pascalvincent_tensor, and the
#    MNIST dataset path read_label_file/read_image_file) over the corpus,
#    persistent, and writes their JSON results, with the corpus fingerprint,
#    to crates/idx-conformance/adapters/results/ and their expected failures;
# 3. regenerates corpus/MATRIX.md with every CI implementation run and these
#    results merged.
# Commit the results, expected failures and MATRIX.md. CI's matrix step
# merges the saved results and flags them STALE when they are of another
# corpus than the current one (other cases or other bytes: the results carry
# the corpus fingerprint): rerun this script then.
set -euo pipefail
cd "$(dirname "$0")/.."
envs="${1:-${TMPDIR:-/tmp}/idx-torchvision-envs}"
mkdir -p "$envs"
envs="$(cd "$envs" && pwd)"
if [ ! -e "$envs/torchvision-mnist" ]; then
  mkdir -p "$envs/torchvision"
  ln -s "$envs/torchvision" "$envs/torchvision-mnist"
fi
cargo build -q -p idx-cli -p idx-conformance
target/debug/idx-conformance matrix --install --envs "$envs" \
  --only torchvision --only torchvision-mnist \
  --write-expected --results crates/idx-conformance/adapters/results
target/debug/idx-conformance matrix --install --out corpus/MATRIX.md
