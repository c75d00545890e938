#!/usr/bin/env bash
# Installs the idxkit wheel from a folder into a fresh venv as a user without
# Rust would, and runs scripts/wheel_smoke.py with it:
#  - PATH is the venv's scripts folder, then this PATH less every folder that
#    holds cargo or rustc; the CARGO_* and RUSTUP_* variables are unset; the
#    script fails unless `command -v cargo` and `command -v rustc` fail;
#  - pip takes binaries only (--only-binary :all:), idxkit from the folder
#    alone (--no-index), numpy from the index;
#  - the smoke test runs from a temporary folder, not the checkout.
# Used by scripts/wheel-test.sh (.ci/run) and .github/workflows/release.yml.
#
# usage: [PYTHON=python3] scripts/wheel-smoke.sh [--mnist DIR] [--numpy SPEC] WHEEL_DIR
#   PYTHON        the interpreter the venv is made from (default: python3)
#   --mnist DIR   also load and validate the gzipped MNIST test set in DIR
#   --numpy SPEC  the numpy to install (default: numpy)
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
mnist=()
numpy=numpy
while [ $# -gt 1 ]; do
  case "$1" in
    --mnist) mnist=(--mnist "$(cd "$2" && pwd)"); shift 2 ;;
    --numpy) numpy="$2"; shift 2 ;;
    *) break ;;
  esac
done
[ $# -eq 1 ] || { echo "usage: $0 [--mnist DIR] [--numpy SPEC] WHEEL_DIR" >&2; exit 2; }
wheels="$(cd "$1" && pwd)"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"${PYTHON:-python3}" -m venv "$work/venv"
bin="$work/venv/bin"
[ -d "$bin" ] || bin="$work/venv/Scripts"

# A folder that holds cargo or rustc (Debian's /usr/bin, with the
# rustc-web toolchain the 32-bit tests install) is replaced by a folder of
# links to everything else in it, so the shell's own tools stay.
norust="$bin"
shadow="$work/no-rust-bin"
IFS=: read -ra dirs <<< "$PATH"
for d in "${dirs[@]}"; do
  rust=false
  for tool in cargo rustc cargo.exe rustc.exe; do
    [ -e "$d/$tool" ] && rust=true
  done
  if ! $rust; then
    norust="$norust:$d"
    continue
  fi
  if [ ! -d "$shadow" ]; then
    mkdir "$shadow"
    norust="$norust:$shadow"
  fi
  # (an earlier folder's tool wins, as on PATH: ln leaves an existing link)
  find "$d" -maxdepth 1 \( -type f -o -type l \) \
    ! -name 'cargo*' ! -name 'rustc*' ! -name 'rustup*' ! -name 'rustdoc*' \
    -exec ln -s {} "$shadow/" \; 2>/dev/null || true
done
export PATH="$norust"
# shellcheck disable=SC2046
unset $(compgen -v | grep -E '^(CARGO|RUSTUP)_' || true)
if command -v cargo || command -v rustc; then
  echo "a Rust toolchain is still on PATH" >&2
  exit 1
fi
echo "no cargo or rustc on PATH"

python -m pip install -q --disable-pip-version-check --only-binary :all: "$numpy"
# idxkit from this folder only (not from a PIP_FIND_LINKS folder either)
env -u PIP_FIND_LINKS python -m pip install -q --disable-pip-version-check --only-binary :all: --no-index --find-links "$wheels" idxkit
python -m pip list --disable-pip-version-check 2>/dev/null | grep -i '^idxkit '
cd "$work"
python "$repo/scripts/wheel_smoke.py" --corpus "$repo/corpus" ${mnist[@]+"${mnist[@]}"}
