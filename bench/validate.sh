#!/usr/bin/env bash
# Full validation (every payload lint) of page-cached 1 GiB files of every
# element type, with realistic (smooth) and random payloads, against
# `cat FILE > /dev/null`, run alternately in the same session. Prints one
# row per file: median cat time, median validate time and their ratio, both
# in wall-clock seconds and in CPU seconds (user + system: steadier when
# the machine is shared), the validation throughput and idx-validate's peak
# memory (max RSS). Needs GNU time (/usr/bin/time).
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
[ -n "${BIN:-}" ] || cargo build -q --release -p idx-validate
bin="${BIN:-target/release/idx-validate}"

calc() { awk "BEGIN { print $1 }"; }
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# timed VAR CMD...: wall seconds into VAR_w, CPU seconds (user + system) into VAR_c
tf=$(mktemp); trap 'rm -f "$tf"' EXIT
timed() {
  local v="$1"; shift
  /usr/bin/time -f '%e %U %S' -o "$tf" "$@" > /dev/null
  printf -v "${v}_w" '%s' "$(awk '{print $1}' "$tf")"
  printf -v "${v}_c" '%s' "$(awk '{print $2 + $3}' "$tf")"
}

echo "machine: $(nproc) CPUs ($(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo)), load average $(cut -d' ' -f1-3 /proc/loadavg); $(date -u +%Y-%m-%dT%H:%MZ)"
echo "wall and CPU (user + system) seconds, medians of $runs alternating runs; ratios are idx-validate / cat"
printf '%-12s %7s %7s %6s   %7s %7s %6s   %8s %8s\n' "$mib MiB" "cat" "idx" "ratio" "cat cpu" "idx cpu" "ratio" "GB/s" "peak"
for t in "${types[@]}"; do
  for kind in real random; do
    file="$out/$t-$kind-${mib}m.idx"
    [ -f "$file" ] || python3 bench/make_payload.py "$file" "$t" "$kind" "$mib"
    cat "$file" > /dev/null # warm the page cache
    "$bin" -q "$file" > /dev/null || { echo "error: $file does not validate" >&2; exit 1; }
    cw=(); cc=(); iw=(); ic=(); peak=0
    for _ in $(seq "$runs"); do
      timed a cat "$file"; cw+=("$a_w"); cc+=("$a_c")
      /usr/bin/time -f '%e %U %S %M' -o "$tf" "$bin" -q "$file" > /dev/null
      read -r w u s m < "$tf"
      iw+=("$w"); ic+=("$(calc "$u + $s")"); peak=$(( m > peak ? m : peak ))
    done
    mcw=$(median "${cw[@]}"); mcc=$(median "${cc[@]}"); miw=$(median "${iw[@]}"); mic=$(median "${ic[@]}")
    printf '%-12s %7.2f %7.2f %6.2f   %7.2f %7.2f %6s   %8.2f %4d MiB\n' "$t $kind" "$mcw" "$miw" "$(calc "$miw / $mcw")" \
      "$mcc" "$mic" "$(awk "BEGIN { if ($mcc > 0) printf \"%.2f\", $mic / $mcc; else print \"-\" }")" \
      "$(calc "$(stat -L -c %s "$file") / 1e9 / $miw")" "$((peak / 1024))"
  done
done
