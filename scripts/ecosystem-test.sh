#!/usr/bin/env bash
# Proves the distribution channels work from this checkout:
#  1. cargo install --path crates/idx-validate, and crates/idx-conformance
#     (whose runner must work from another directory, without the corpus)
#  2. the idxkit wheel (pyproject.toml) installs into a fresh venv: the
#     idx-validate and idx commands and the Python package
#  3. pre-commit try-repo with a good and a bad file
#  4. action.yml's structure, and the command its Validate step runs
#  5. conformance/action.yml's structure, and its test steps' scripts run
#     against the test adapter (scripts/conformance-action-test.sh)
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$repo"
# Builds share the checkout's target directory, so what `scripts/test`
# already compiled in release (the wheel's dependencies) is not compiled
# again by cargo install and by pre-commit's pip build of this repository.
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$repo/target}"

echo "-- cargo install --path crates/idx-validate"
cargo install -q --locked --path crates/idx-validate --root "$work/cargo"
"$work/cargo/bin/idx-validate" --version

echo "-- cargo install --path crates/idx-conformance, run from another directory"
cargo install -q --locked --path crates/idx-conformance --root "$work/cargo"
mkdir "$work/elsewhere"
(cd "$work/elsewhere" && "$work/cargo/bin/idx-conformance" test-reader \
  -- python3 "$repo/crates/idx-conformance/tests/adapters/fake.py" correct) > "$work/conformance.log"
grep -q " 0 failed" "$work/conformance.log" || { cat "$work/conformance.log"; exit 1; }
[ -z "$(ls -A "$work/elsewhere")" ] || { echo "the runner wrote into its working directory"; exit 1; }
echo "installed runner: ok (corpus generated from its recipes)"

echo "-- the idxkit wheel (maturin, pyo3) into a fresh venv: the idx-validate and idx commands"
python3 -m venv "$work/tools"
"$work/tools/bin/pip" install -q --disable-pip-version-check -r scripts/requirements-ecosystem.txt
# scripts/test builds the wheel; CI passes its folder so it is built once.
wheels="${IDXKIT_WHEEL_DIR:-}"
if [ -z "$wheels" ] || ! ls "$wheels"/idxkit-*.whl >/dev/null 2>&1; then
  wheels="$work/wheels"
  "$work/tools/bin/maturin" build -q --release -o "$wheels" >/dev/null
fi
python3 -m venv "$work/fresh"
"$work/fresh/bin/pip" install -q --disable-pip-version-check "$wheels"/idxkit-*.whl
"$work/fresh/bin/idx-validate" corpus/valid/valid-mnist-labels-u8-10.idx | grep -q "OK u8 \[10\]"
if "$work/fresh/bin/idx-validate" corpus/invalid/invalid-truncated-payload.idx >/dev/null; then
  echo "the wheel's idx-validate accepted an invalid file"; exit 1
fi
"$work/fresh/bin/idx" dump corpus/valid/valid-mnist-labels-u8-10.idx | grep -q '"shape"'
"$work/fresh/bin/python" -c "import idxkit; assert idxkit.load('corpus/valid/valid-mnist-labels-u8-10.idx').shape == (10,)"
echo "wheel: ok"

echo "-- pre-commit try-repo"
proj="$work/proj"
mkdir -p "$proj/data"
git -C "$proj" init -q
cp corpus/valid/valid-mnist-labels-u8-10.idx "$proj/data/good-labels-idx1-ubyte"
cp corpus/invalid/invalid-truncated-payload-mnist-labels.idx "$proj/data/bad-labels-idx1-ubyte"
printf 'not idx\n' > "$proj/notes.txt" # not matched by the hook's pattern
git -C "$proj" add -A
git -C "$proj" -c user.name=t -c user.email=t@t commit -q -m files
export PRE_COMMIT_HOME="$work/pre-commit-home"
set +e
(cd "$proj" && "$work/tools/bin/pre-commit" try-repo "$repo" idx-validate --all-files) > "$work/bad.log" 2>&1
status=$?
set -e
if [ "$status" -eq 0 ] || ! grep -q "IDX202" "$work/bad.log" || grep -q "notes.txt" "$work/bad.log"; then
  cat "$work/bad.log"; echo "pre-commit did not fail on the bad file as expected"; exit 1
fi
git -C "$proj" rm -q data/bad-labels-idx1-ubyte
git -C "$proj" -c user.name=t -c user.email=t@t commit -q -m "drop bad"
(cd "$proj" && "$work/tools/bin/pre-commit" try-repo "$repo" idx-validate --all-files) > "$work/good.log" 2>&1 || {
  cat "$work/good.log"; echo "pre-commit failed on a good file"; exit 1
}
echo "pre-commit: ok"

echo "-- action.yml"
cmd="$("$work/tools/bin/python" scripts/check_action.py "corpus/invalid/invalid-trailing-byte.idx" "--deny-warnings")"
set +e
out="$(PATH="$work/cargo/bin:$PATH" bash -c "$cmd")"
status=$?
set -e
if [ "$status" -ne 1 ] || [[ "$out" != "::error file=corpus/invalid/invalid-trailing-byte.idx,title=IDX203::"* ]]; then
  echo "action's Validate step: status $status, output: $out"; exit 1
fi
echo "action.yml: ok"

echo "-- conformance/action.yml (another project's reader or writer in its CI)"
PYTHON="$work/tools/bin/python" scripts/conformance-action-test.sh "$work/cargo/bin"
echo "ecosystem: all channels ok"
