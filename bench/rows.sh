#!/usr/bin/env bash
# The whole-process rows, each against its baseline in the same
# run (alternating runs, medians):
#   read_array of a 1 GiB f32 file        vs  cat FILE > /dev/null
#                                              (and allocating + touching 1 GiB,
#                                              the floor for any decoder)
#   read_array_at into a fresh buffer,    vs  cat FILE > /dev/null
#     one thread, then one per core
#   read_array_into a reused buffer       vs  cat FILE > /dev/null
#   idx-validate of gzipped MNIST images  vs  gzip -dc FILE > /dev/null
#   idx-validate of 10,000 small files    vs  cat FILES > /dev/null
#
#   bench/rows.sh [RUNS] [MIB]     (defaults: 7 runs, 1024 MiB)
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-7}"
mib="${2:-1024}"
out=bench/out
mkdir -p "$out"
cargo build -q --release -p idx-validate
cargo build -q --release -p idx --examples
bin=target/release/idx-validate
ex=target/release/examples
f32="$out/f32-real-${mib}m.idx"
[ -f "$f32" ] || python3 bench/make_payload.py "$f32" f32 real "$mib"
many="$out/many"
[ -d "$many" ] || python3 bench/make_many.py "$many" 10000
gz=${MNIST_DIR:?set MNIST_DIR to a folder holding MNIST's four *-ubyte.gz files: the repository carries only the test set (testdata/mnist)}/train-images-idx3-ubyte.gz

now() { date +%s.%N; }
calc() { awk "BEGIN { print $1 }"; }
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
peak() { { /usr/bin/time -f '%M' "$@" > /dev/null; } 2>&1 | tail -n 1 | awk '{printf "%.0f MiB", $1 / 1024}'; }
# row NAME BASE_NAME "BASE CMD" "IDX CMD": alternating runs, medians, ratio
row() {
  local name="$1" bname="$2" base="$3" cmd="$4" bt=() it=()
  bash -c "$base" > /dev/null 2>&1; bash -c "$cmd" > /dev/null 2>&1 # warm
  for _ in $(seq "$runs"); do
    local t0 t1 t2
    t0=$(now); bash -c "$base" > /dev/null 2>&1; t1=$(now)
    bash -c "$cmd" > /dev/null 2>&1; t2=$(now)
    bt+=("$(calc "$t1 - $t0")"); it+=("$(calc "$t2 - $t1")")
  done
  local mb mi
  mb=$(median "${bt[@]}"); mi=$(median "${it[@]}")
  # shellcheck disable=SC2086
  printf '%-34s %8.3f s   %-26s %8.3f s   ratio %5.2f   peak %s\n' "$name" "$mi" "$bname" "$mb" \
    "$(calc "$mi / $mb")" "$(peak $cmd)"
}

echo "machine: $(nproc) CPUs ($(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo)), load average $(cut -d' ' -f1-3 /proc/loadavg); $(date -u +%Y-%m-%dT%H:%MZ); $runs runs, medians"
row "read_array $mib MiB f32" "cat FILE" "cat $f32" "$ex/decode $f32"
row "  (floor: allocate+touch $mib MiB)" "cat FILE" "cat $f32" "$ex/touch $(stat -L -c %s "$f32")"
row "read_array_at $mib MiB f32, 1 thr" "cat FILE" "cat $f32" "$ex/decode_at $f32 1"
row "read_array_at $mib MiB f32, $(nproc) thr" "cat FILE" "cat $f32" "$ex/decode_at $f32"
# read_array_into a caller-owned buffer that is reused, as a loader's batch
# loop does: in-process seconds of decodes 2..RUNS+1 (the first pays for the
# fresh pages), against whole-process cat runs alternated with them
ct=(); dt=()
for _ in $(seq "$runs"); do
  t0=$(now); cat "$f32" > /dev/null; t1=$(now)
  ct+=("$(calc "$t1 - $t0")")
  dt+=("$("$ex/decode_into" "$f32" 2 | tail -n 1 | cut -d' ' -f1)")
done
mc=$(median "${ct[@]}"); md=$(median "${dt[@]}")
printf '%-34s %8.3f s   %-26s %8.3f s   ratio %5.2f   (in process, buffer reused)\n' \
  "read_array_into $mib MiB f32" "$md" "cat FILE" "$mc" "$(calc "$md / $mc")"
if [ -f "$gz" ]; then
  row "idx-validate MNIST train images.gz" "gzip -dc FILE" "gzip -dc $gz" "$bin -q $gz"
else
  echo "note: $gz is absent; gzip row skipped"
fi
row "idx-validate 10,000 small files" "cat FILES" "cat $many/*" "$bin -q $many"
row "idx-validate -j1 10,000 small files" "cat FILES" "cat $many/*" "$bin -q -j1 $many"
