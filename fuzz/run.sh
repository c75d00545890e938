#!/usr/bin/env bash
# Fuzz every target for about SECONDS each (default $FUZZ_SECONDS or 60;
# weighted per target, below), seeded from the conformance corpus, with debug assertions on and a memory limit.
# Exits non-zero on any crash, leak, timeout or OOM, and says where the
# reproducer is.
#
#   fuzz/run.sh [SECONDS] [TARGET...]
#
# Deterministic by default: libFuzzer's random seed is $FUZZ_SEED (default
# 1) and each target runs a fixed number of inputs (its measured rate times
# its SECONDS, with SECONDS x 3 as a time cap), so a run that passed in a
# checkout passes again there (another checkout path builds a slightly
# different binary: docs/contributing/fuzzing.md). FUZZ_SEED=random explores
# instead: a new seed each target (printed) and SECONDS of wall time, no
# input budget.
set -uo pipefail
cd "$(dirname "$0")"
seconds="${1:-${FUZZ_SECONDS:-60}}"
shift || true
all=(parse validate_stream read_array roundtrip_bytes roundtrip_array gzip file_name fix inflate_diff c_abi)
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=("${all[@]}")
fi
for t in "${targets[@]}"; do
  case " ${all[*]} " in
    *" $t "*) ;;
    *) echo "fuzz/run.sh: no target '$t' (targets: ${all[*]})" >&2; exit 2 ;;
  esac
done
case "$seconds" in
  '' | *[!0-9]*) echo "fuzz/run.sh: SECONDS must be a whole number, not '$seconds'" >&2; exit 2 ;;
esac

# validate_stream and read_array take inputs up to 1 MiB, so they cross the
# 256 KiB read buffer and the lints' 65,536-element sample blocks with real
# payloads; they get twice the time, the other targets 70 %, so the whole
# run costs about what ten targets at SECONDS each did (2 x 2 + 8 x 0.7 =
# 9.6 SECONDS-units).
max_len_of() {
  case "$1" in
    validate_stream | read_array) echo 1048576 ;;
    *) echo 65536 ;;
  esac
}
seconds_of() {
  case "$1" in
    validate_stream | read_array) echo $((seconds * 2)) ;;
    *) echo $(((seconds * 7 + 9) / 10)) ;;
  esac
}

# inputs per second of each target on the 2-core CI machine, about 80 % of
# what .ci/run's timed fuzzing at 25 s executed (stop 37's log); a slower
# day takes longer, up to the time cap
rate_of() {
  case "$1" in
    parse) echo 3500 ;;
    validate_stream) echo 300 ;;
    read_array) echo 1600 ;;
    roundtrip_bytes) echo 9000 ;;
    roundtrip_array) echo 4500 ;;
    gzip) echo 4800 ;;
    file_name) echo 4800 ;;
    fix) echo 850 ;;
    inflate_diff) echo 650 ;;
    c_abi) echo 1000 ;; # not yet measured in CI: the default
    *) echo 1000 ;;
  esac
}
seed="${FUZZ_SEED:-1}"
# (libFuzzer takes 0 or a non-number as "pick a seed at random")
case "$seed" in
  random) ;;
  '' | 0* | *[!0-9]*) echo "fuzz/run.sh: FUZZ_SEED must be a positive whole number or 'random', not '$seed'" >&2; exit 2 ;;
esac
# Reproducible only without address randomisation (libFuzzer's comparison
# tracing sees pointer values) and without reloading the corpus folder on a
# timer (-reload=0): measured, two runs of parse at seed 1 then end with the
# same coverage, corpus and features; with either left on they do not.
pin=()
if [ "$seed" != random ]; then
  if setarch "$(uname -m)" -R true 2>/dev/null; then
    pin=(setarch "$(uname -m)" -R)
  else
    echo "note: setarch -R is not available here (no util-linux, or refused by a sandbox): runs at seed $seed are not reproducible" >&2
  fi
fi

if ! command -v cargo-fuzz >/dev/null 2>&1; then
  echo "installing cargo-fuzz"
  cargo install --locked cargo-fuzz || exit 1
fi

failed=()
log=""
trap 'rm -f "$log"' EXIT
for t in "${targets[@]}"; do
  # a fixed seed starts from the seeds alone, at a fixed path (a corpus
  # grown by earlier runs would make the run depend on them); exploring
  # keeps growing fuzz/corpus/
  if [ "$seed" = random ]; then
    dir="corpus/$t"
  else
    dir="target/seeded-corpus/$t"
    rm -rf "$dir"
  fi
  mkdir -p "$dir"
  # seeds: every corpus file (validate_stream reads a chunk-size count first)
  for f in ../corpus/valid/* ../corpus/invalid/* ../corpus/implementation-defined/*; do
    case "$f" in *.json) continue ;; esac
    name="seed-$(basename "$f")"
    if [ "$t" = validate_stream ] || [ "$t" = read_array ]; then
      { printf '\002\001\007'; cat "$f"; } > "$dir/$name"
    elif [ "$t" = fix ]; then
      # the first byte picks the repair options: unsafe fixes on; and
      # with little-endian stated to the repair and the validation
      { printf '\001'; cat "$f"; } > "$dir/$name"
      { printf '\023'; cat "$f"; } > "$dir/stated-$name"
    else
      cp "$f" "$dir/$name"
    fi
  done
  cp regressions/"$t"/* "$dir/" 2>/dev/null || true
  max_len="$(max_len_of "$t")"
  t_seconds="$(seconds_of "$t")"
  if [ "$max_len" -gt 65536 ]; then
    # one seed past the read buffer and the lint blocks: f32 [70000]
    # (280,000 payload bytes), behind the chunk-size prefix
    { printf '\002\001\007\000\000\015\001\000\001\021\160'; yes 'idx?' | head -c 280000; } > "$dir/seed-large-f32-70000"
  fi
  if [ "$seed" = random ]; then
    t_seed=$(( (RANDOM << 15 | RANDOM) + 1 ))
    budget=(-seed="$t_seed" -max_total_time="$t_seconds")
    echo "== fuzz $t for ${t_seconds}s (max_len $max_len, seed $t_seed: FUZZ_SEED=random)"
  else
    t_seed="$seed"
    runs=$(( $(rate_of "$t") * t_seconds ))
    budget=(-seed="$t_seed" -runs="$runs" -reload=0 -max_total_time=$((t_seconds * 3)))
    echo "== fuzz $t: $runs inputs, seed $t_seed (max_len $max_len, at most $((t_seconds * 3))s)"
  fi
  log="$(mktemp)"
  ${pin[@]+"${pin[@]}"} cargo +nightly fuzz run -O -a "$t" "$dir" -- \
    "${budget[@]}" -rss_limit_mb=2048 -timeout=10 -max_len="$max_len" -print_final_stats=1 \
    >"$log" 2>&1
  status=$?
  grep -E '^(#[0-9]+.*(DONE|pulse)|stat::number_of_executed_units|stat::peak_rss_mb)' "$log" | tail -n 3
  grep -E 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -n 1
  executed="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)"
  if [ "$seed" != random ] && [ $status -eq 0 ] && [ "${executed:-0}" -lt "$runs" ]; then
    echo "note: $t stopped at its time cap after ${executed:-0} of $runs inputs: this run is not the reproducible one (a slow machine?)"
  fi
  if [ $status -ne 0 ]; then
    tail -n 60 "$log"
    echo "!! $t failed (exit $status, seed $t_seed); the reproducer is under fuzz/artifacts/$t/"
    echo "   minimise: cargo +nightly fuzz tmin -O -a $t fuzz/artifacts/$t/<file>"
    echo "   then copy it to fuzz/regressions/$t/ and fix the bug"
    failed+=("$t")
  fi
  rm -f "$log"
done

if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzzing found problems in: ${failed[*]}"
  exit 1
fi
if [ "$seed" = random ]; then
  echo "fuzzing: ${#targets[@]} targets, ${seconds}s each weighted (2x for validate_stream and read_array, 0.7x for the others), random seeds, no crash"
else
  echo "fuzzing: ${#targets[@]} targets, seed $seed, inputs for ${seconds}s each weighted (2x for validate_stream and read_array, 0.7x for the others), no crash"
fi
