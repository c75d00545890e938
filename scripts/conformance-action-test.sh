#!/usr/bin/env bash
# conformance/action.yml, the action another project's CI uses to run its
# own IDX reader or writer against the corpus: its structure, then the
# scripts of its "Test reader" and "Test writer" steps run with an
# installed idx-conformance (first argument: the folder holding it) against
# the test adapter, which passes only when nothing changed from the
# expected-failures file:
#   a listed failure that still fails: pass; a new failure: fail;
#   a listed case that now passes: fail (the file must be updated).
set -euo pipefail
bin="$1"
repo="$(cd "$(dirname "$0")/.." && pwd)"
py="${PYTHON:-python3}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$repo"
fake="$repo/crates/idx-conformance/tests/adapters/fake.py"

step() { # step NAME EXPECTED-STATUS INPUT=VALUE...
  local name="$1" want="$2"
  shift 2
  local script status
  script="$("$py" scripts/check_conformance_action.py "$name" results-dir="$work/results" "$@")"
  set +e
  (cd "$work" && PATH="$bin:$PATH" bash -c "$script") > "$work/step.log" 2>&1
  status=$?
  set -e
  if [ "$status" -ne "$want" ]; then
    cat "$work/step.log"; echo "conformance action, $name with $*: exit $status, expected $want"; exit 1
  fi
}

printf 'invalid-trailing-byte  # accepts one trailing byte\n' > "$work/xf.txt"
: > "$work/none.txt"
# the reader fails invalid-trailing-byte only
# (persistent adapters, and writers on a dozen cases, keep it to seconds;
# --no-variants: fake.py knows a case by its committed bytes)
step "Test reader" 0 reader="python3 $fake accept-all@invalid-trailing-byte --persistent" \
  reader-expected-failures="$work/xf.txt" args="--persistent --no-variants"
grep -q '"unexpected_failures": 0' "$work/results/reader.json"
step "Test reader" 1 reader="python3 $fake accept-all@invalid-trailing-byte --persistent" \
  reader-expected-failures="$work/none.txt" args="--persistent --no-variants"
grep -q "FAIL  invalid-trailing-byte" "$work/step.log"
step "Test reader" 1 reader="python3 $fake correct --persistent" \
  reader-expected-failures="$work/xf.txt" args="--persistent --no-variants"
grep -q "XPASS invalid-trailing-byte" "$work/step.log"
grep -q "passed (XPASS above): remove them from the file" "$work/step.log"
step "Test reader" 0 reader="python3 $fake correct --persistent" args="--persistent --no-variants"

# a writer: plain big-endian IDX from the content JSON
cat > "$work/writer.py" <<'PY'
import json, struct, sys
c = json.load(sys.stdin)
t = {"u8": (8, "B"), "i8": (9, "b"), "i16": (11, "h"), "i32": (12, "i"), "f32": (13, "I"), "f64": (14, "Q")}
code, fmt = t[c["dtype"]]
v = [int(x, 16) if isinstance(x, str) else x for x in c["data"]]
if "--off-by-one" in sys.argv and c["dtype"] == "u8" and v:
    v[0] ^= 1
s = c["shape"]
sys.stdout.buffer.write(bytes([0, 0, code, len(s)]) + struct.pack(">%dI" % len(s), *s) + struct.pack(">%d%s" % (len(v), fmt), *v))
PY
few="--run 'valid-*-rank[12]'"
step "Test writer" 0 writer="python3 $work/writer.py" args="$few"
grep -q '"mode": "writer"' "$work/results/writer.json"
step "Test writer" 1 writer="python3 $work/writer.py --off-by-one" args="$few"
"$bin/idx-conformance" test-writer --run 'valid-*-rank[12]' --write-expected "$work/wxf.txt" -- python3 "$work/writer.py" --off-by-one > /dev/null || true
grep -q "^valid-u8-rank1 " "$work/wxf.txt"
step "Test writer" 0 writer="python3 $work/writer.py --off-by-one" args="$few" \
  writer-expected-failures="$work/wxf.txt"
echo "conformance action: ok (a change either way fails, no change passes)"
