#!/usr/bin/env bash
# Decode and encode speed and memory of idx against numpy and idx2numpy, on
# the real MNIST training images and on a 1 GiB f32 file, in one run; then
# the whole-process rows of bench/rows.sh (read_array against cat, gzip
# validation against gzip -dc, 10,000 small files against cat).
#
#   bench/compare.sh [RUNS] [MIB]     (defaults: 5 runs, 1024 MiB)
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-5}"
mib="${2:-1024}"
out=bench/out
mkdir -p "$out"
if [ ! -x .venv/bin/python ]; then python3 -m venv .venv; fi
.venv/bin/pip install -q --disable-pip-version-check -r crates/idx-conformance/adapters/requirements.txt
cargo build -q --release -p idx --examples
files=()
mnist=${MNIST_DIR:?set MNIST_DIR to a folder holding MNIST's four *-ubyte.gz files: the repository carries only the test set (testdata/mnist)}/train-images-idx3-ubyte.gz
if [ -f "$mnist" ]; then
  [ -f "$out/train-images-idx3-ubyte" ] || gunzip -c "$mnist" > "$out/train-images-idx3-ubyte"
  files+=("$out/train-images-idx3-ubyte")
else
  echo "note: $mnist is absent; MNIST skipped"
fi
f32="$out/f32-${mib}m.idx"
[ -f "$f32" ] || python3 bench/make_f32.py "$f32" "$mib"
files+=("$f32")
for f in "${files[@]}"; do cat "$f" > /dev/null; done
echo "machine: $(nproc) CPUs, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo); $(rustc --version); $(.venv/bin/python -c 'import numpy, sys; print("numpy", numpy.__version__, "python", sys.version.split()[0])')"
.venv/bin/python bench/compare.py .venv/bin/python "$runs" "${files[@]}"
echo
bench/rows.sh "$runs" "$mib"
