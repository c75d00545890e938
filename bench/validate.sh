#!/usr/bin/env bash
# Full validation (every payload lint) of page-cached 1 GiB files of every
# element type, with realistic (smooth) and random payloads, against
# `cat FILE > /dev/null`, run alternately in the same session. Prints one
# row per file: median cat time, median validate time, their ratio, the
# validation throughput and idx-validate's peak memory (max RSS).
#
#   bench/validate.sh [MIB] [RUNS] [TYPE...]   (defaults: 1024 MiB, 7 runs, all six types)
set -euo pipefail
cd "$(dirname "$0")/.."
mib="${1:-1024}"
runs="${2:-7}"
shift $(( $# > 2 ? 2 : $# ))
types=("$@")
[ ${#types[@]} -gt 0 ] || types=(u8 i8 i16 i32 f32 f64)
out="bench/out"
mkdir -p "$out"
cargo build -q --release -p idx-validate
bin=target/release/idx-validate

now() { date +%s.%N; }
calc() { awk "BEGIN { print $1 }"; }
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

echo "machine: $(nproc) CPUs ($(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo)), load average $(cut -d' ' -f1-3 /proc/loadavg); $(date -u +%Y-%m-%dT%H:%MZ)"
printf '%-22s %9s %9s %7s %10s %9s\n' "file ($mib MiB, $runs runs)" "cat s" "idx s" "ratio" "GB/s" "peak"
for t in "${types[@]}"; do
  for kind in real random; do
    file="$out/$t-$kind-${mib}m.idx"
    [ -f "$file" ] || python3 bench/make_payload.py "$file" "$t" "$kind" "$mib"
    cat "$file" > /dev/null # warm the page cache
    "$bin" -q "$file" > /dev/null || { echo "error: $file does not validate" >&2; exit 1; }
    cat_t=(); val_t=()
    for _ in $(seq "$runs"); do
      t0=$(now); cat "$file" > /dev/null; t1=$(now)
      "$bin" -q "$file" > /dev/null; t2=$(now)
      cat_t+=("$(calc "$t1 - $t0")")
      val_t+=("$(calc "$t2 - $t1")")
    done
    mc=$(median "${cat_t[@]}"); mv=$(median "${val_t[@]}")
    peak="n/a"
    if [ -x /usr/bin/time ]; then
      peak=$( { /usr/bin/time -f '%M' "$bin" -q "$file" > /dev/null; } 2>&1 | tail -n 1 )
      peak="$((peak / 1024)) MiB"
    fi
    printf '%-22s %9.3f %9.3f %7.2f %10.2f %9s\n' "$t $kind" "$mc" "$mv" "$(calc "$mv / $mc")" \
      "$(calc "$(stat -c %s "$file") / 1e9 / $mv")" "$peak"
  done
done
