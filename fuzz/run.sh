#!/usr/bin/env bash
# Fuzz every target for SECONDS each (default $FUZZ_SECONDS or 60), seeded
# from the conformance corpus, with debug assertions on and a memory limit.
# Exits non-zero on any crash, leak, timeout or OOM, and says where the
# reproducer is.
#
#   fuzz/run.sh [SECONDS] [TARGET...]
set -uo pipefail
cd "$(dirname "$0")"
seconds="${1:-${FUZZ_SECONDS:-60}}"
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(parse validate_stream read_array roundtrip_bytes roundtrip_array gzip file_name fix)
fi

if ! command -v cargo-fuzz >/dev/null 2>&1; then
  echo "installing cargo-fuzz"
  cargo install --locked cargo-fuzz || exit 1
fi

failed=()
for t in "${targets[@]}"; do
  dir="corpus/$t"
  mkdir -p "$dir"
  # seeds: every corpus file (validate_stream reads a chunk-size count first)
  for f in ../corpus/valid/* ../corpus/invalid/* ../corpus/implementation-defined/*; do
    case "$f" in *.json) continue ;; esac
    name="seed-$(basename "$f")"
    if [ "$t" = validate_stream ] || [ "$t" = read_array ]; then
      { printf '\002\001\007'; cat "$f"; } > "$dir/$name"
    elif [ "$t" = fix ]; then
      # the first byte picks the repair options: unsafe fixes on
      { printf '\001'; cat "$f"; } > "$dir/$name"
    else
      cp "$f" "$dir/$name"
    fi
  done
  cp regressions/"$t"/* "$dir/" 2>/dev/null || true
  echo "== fuzz $t for ${seconds}s"
  log="$(mktemp)"
  cargo +nightly fuzz run -O -a "$t" "$dir" -- \
    -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -max_len=65536 -print_final_stats=1 \
    >"$log" 2>&1
  status=$?
  grep -E '^(#[0-9]+.*(DONE|pulse)|stat::number_of_executed_units|stat::peak_rss_mb)' "$log" | tail -n 3
  grep -E 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -n 1
  if [ $status -ne 0 ]; then
    tail -n 60 "$log"
    echo "!! $t failed (exit $status); the reproducer is under fuzz/artifacts/$t/"
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
echo "fuzzing: ${#targets[@]} targets ran ${seconds}s each, no crash"
