#!/usr/bin/env bash
# CPU time per call of idxkit.load(bytes) and of numpy's
# frombuffer(b, '>f4').astype('<f4') on the 1 MiB of normal f32 of
# bench/load_1mib.py, steadier than wall time on a shared machine:
# `perf stat -e task-clock` of a process making N calls of one kind, less
# the same process making none. Alternates the Pythons given (one per
# installed wheel) ROUNDS times (BENCHMARKS.md, "the byte-order test
# settles at checkpoints"):
#
#     bench/load_1mib_cpu.sh 4 /tmp/venv-before/bin/python .venv-test/bin/python
set -euo pipefail
rounds=$1; shift
n=20000
here=$(dirname "$0")
cpu_ms() { perf stat -x, -e task-clock "$@" 2>&1 >/dev/null | awk -F, '/task-clock/ {print $1}'; }
for _ in $(seq "$rounds"); do
  for py in "$@"; do
    line="$py"
    for kind in numpy load; do
      t0=$(cpu_ms "$py" "$here/load_1mib.py" --loop "$kind" 0)
      t1=$(cpu_ms "$py" "$here/load_1mib.py" --loop "$kind" "$n")
      us=$(awk -v a="$t0" -v b="$t1" -v n="$n" 'BEGIN {printf "%.1f", (b - a) * 1000 / n}')
      line="$line  $kind ${us} us"
      eval "us_$kind=$us"
    done
    echo "$line  ratio $(awk -v a="$us_numpy" -v b="$us_load" 'BEGIN {printf "%.2f", b / a}')x"
  done
done
