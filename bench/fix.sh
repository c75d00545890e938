#!/usr/bin/env bash
# Repair of a little-endian f32 file (the IDX technical report's writer:
# big-endian header, native little-endian elements), page-cached, against
# `cp` of the same file, run alternately in the same session; prints the
# median times, the ratios, and the repair's peak memory.
#
#   bench/fix.sh [MIB] [RUNS]      (defaults: 1024 MiB, 5 runs)
#
# The repair is `idx-validate --fix --assume-byte-order little --output OUT
# IN`: it validates IN (one read), then reads IN again, byte-swaps, writes a
# temporary file beside OUT, fsyncs it and renames it to OUT. `cp` does not
# fsync, so `cp` followed by `sync OUT` is measured too.
set -euo pipefail
cd "$(dirname "$0")/.."
mib="${1:-1024}"
runs="${2:-5}"
out="bench/out"
mkdir -p "$out"
file="$out/f32le-${mib}m.idx"
copy="$out/f32le-${mib}m.copy.idx"
[ -f "$file" ] || python3 bench/make_f32_le.py "$file" "$mib"
cargo build -q --release -p idx-validate
bin=target/release/idx-validate
cat "$file" > /dev/null # warm the page cache

now() { date +%s.%N; }
calc() { awk "BEGIN { print $1 }"; }
cp_t=(); cps_t=(); fix_t=()
for _ in $(seq "$runs"); do
  rm -f "$copy"; sync
  t0=$(now); cp "$file" "$copy"; t1=$(now)
  rm -f "$copy"; sync
  t2=$(now); cp "$file" "$copy"; sync "$copy"; t3=$(now)
  rm -f "$copy"; sync
  t4=$(now); "$bin" -q --isolated --fix --assume-byte-order little --output "$copy" "$file" > /dev/null; t5=$(now)
  cp_t+=("$(calc "$t1 - $t0")")
  cps_t+=("$(calc "$t3 - $t2")")
  fix_t+=("$(calc "$t5 - $t4")")
done
"$bin" -q --isolated "$copy" > /dev/null || { echo "the repaired copy does not validate"; exit 1; }
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
mc=$(median "${cp_t[@]}"); ms=$(median "${cps_t[@]}"); mf=$(median "${fix_t[@]}")
rm -f "$copy"; sync
peak=$( { /usr/bin/time -f '%M' "$bin" -q --isolated --fix --assume-byte-order little --output "$copy" "$file" > /dev/null; } 2>&1 | tail -n 1 )
rm -f "$copy"
printf 'file: %s (%s MiB of little-endian f32 payload), %s runs, medians\n' "$file" "$mib" "$runs"
printf 'cp IN OUT                    %8.3f s\n' "$mc"
printf 'cp IN OUT; sync OUT          %8.3f s\n' "$ms"
printf 'idx-validate --fix --output  %8.3f s   ratio to cp: %.2f   to cp+sync: %.2f\n' "$mf" "$(calc "$mf / $mc")" "$(calc "$mf / $ms")"
printf 'idx-validate --fix peak memory: %s MiB\n' "$((peak / 1024))"
