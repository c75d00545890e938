#!/usr/bin/env bash
# Full validation (every payload lint) of a page-cached f32 file against
# `cat FILE > /dev/null`, run alternately in the same session; prints the
# median times, their ratio, and idx-validate's peak memory.
#
#   bench/validate.sh [MIB] [RUNS]      (defaults: 1024 MiB, 7 runs)
set -euo pipefail
cd "$(dirname "$0")/.."
mib="${1:-1024}"
runs="${2:-7}"
out="bench/out"
mkdir -p "$out"
file="$out/f32-${mib}m.idx"
[ -f "$file" ] || python3 bench/make_f32.py "$file" "$mib"
cargo build -q --release -p idx-validate
bin=target/release/idx-validate
cat "$file" > /dev/null # warm the page cache

now() { date +%s.%N; }
calc() { awk "BEGIN { print $1 }"; }
cat_t=(); val_t=(); so_t=()
for _ in $(seq "$runs"); do
  t0=$(now); cat "$file" > /dev/null; t1=$(now)
  "$bin" -q "$file" > /dev/null; t2=$(now)
  "$bin" -q --structure-only "$file" > /dev/null; t3=$(now)
  cat_t+=("$(calc "$t1 - $t0")")
  val_t+=("$(calc "$t2 - $t1")")
  so_t+=("$(calc "$t3 - $t2")")
done
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
mc=$(median "${cat_t[@]}"); mv=$(median "${val_t[@]}"); ms=$(median "${so_t[@]}")
peak="n/a"
if [ -x /usr/bin/time ]; then
  peak=$( { /usr/bin/time -f '%M' "$bin" -q "$file" > /dev/null; } 2>&1 | tail -n 1 )
  peak="$((peak / 1024)) MiB"
fi
printf 'file: %s (%s MiB of f32 payload), %s runs, medians\n' "$file" "$mib" "$runs"
printf 'cat FILE > /dev/null      %8.3f s\n' "$mc"
printf 'idx-validate FILE         %8.3f s   ratio to cat: %.2f   throughput: %.2f GB/s\n' "$mv" "$(calc "$mv / $mc")" "$(calc "$mib * 1.048576 / 1000 / $mv")"
printf 'idx-validate --structure-only %4.3f s\n' "$ms"
printf 'idx-validate peak memory: %s\n' "$peak"
