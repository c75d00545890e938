#!/usr/bin/env bash
# The MNIST round trip through a Caffe LMDB (IDX -> LMDB -> IDX) against
# `zcat` of the same gzipped pair, run alternately in the same session;
# prints the input sizes and the median times and ratios, and the peak
# memory of each direction.
#
#   bench/convert.sh [RUNS]      (default 5; MNIST from $MNIST_DIR)
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-5}"
mnist=${MNIST_DIR:?set MNIST_DIR to a folder holding MNIST's four *-ubyte.gz files: the repository carries only the test set (testdata/mnist)}
cargo build -q --release -p idx-cli
bin=target/release/idx
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
now() { date +%s.%N; }
median() { sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
peak() { /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -n 1; }
for set in t10k train; do
  img="$mnist/$set-images-idx3-ubyte.gz"
  lab="$mnist/$set-labels-idx1-ubyte.gz"
  cat "$img" "$lab" > /dev/null # warm the page cache
  raw=$(( $(zcat "$img" | wc -c) + $(zcat "$lab" | wc -c) ))
  gz=$(( $(stat -c %s "$img") + $(stat -c %s "$lab") ))
  : > "$tmp/to"; : > "$tmp/from"; : > "$tmp/zcat"
  for _ in $(seq "$runs"); do
    rm -rf "$tmp/db" "$tmp/i" "$tmp/l"
    a=$(now); zcat "$img" "$lab" > /dev/null; b=$(now)
    "$bin" convert --to caffe-lmdb "$img" "$lab" -o "$tmp/db" > /dev/null; c=$(now)
    "$bin" convert --from caffe-lmdb "$tmp/db" -o "$tmp/i" "$tmp/l" > /dev/null; d=$(now)
    awk "BEGIN { print $b - $a }" >> "$tmp/zcat"
    awk "BEGIN { print $c - $b }" >> "$tmp/to"
    awk "BEGIN { print $d - $c }" >> "$tmp/from"
  done
  z=$(median < "$tmp/zcat"); t=$(median < "$tmp/to"); f=$(median < "$tmp/from")
  db=$(du -sb "$tmp/db" | cut -f1)
  rm -rf "$tmp/db2"
  mem_to=$(peak "$bin" convert --to caffe-lmdb "$img" "$lab" -o "$tmp/db2")
  mem_from=$(peak "$bin" convert --from caffe-lmdb "$tmp/db2" -o "$tmp/i" "$tmp/l" --force)
  printf '%s: %d bytes IDX (%d gzipped), LMDB %d bytes\n' "$set" "$raw" "$gz" "$db"
  printf '  zcat %.3fs | to caffe-lmdb %.3fs (%.1fx zcat, %.0f MB/s of IDX, peak %s KiB) | back to IDX %.3fs (%.1fx zcat, peak %s KiB)\n' \
    "$z" "$t" "$(awk "BEGIN { print $t / $z }")" "$(awk "BEGIN { print $raw / $t / 1e6 }")" "$mem_to" \
    "$f" "$(awk "BEGIN { print $f / $z }")" "$mem_from"
done
