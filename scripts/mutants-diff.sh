#!/usr/bin/env bash
# Mutation testing of the newest changes to crates/idx: cargo-mutants
# `--in-diff` over `git diff BASE -- crates/idx/src`, with the settings of
# .cargo/mutants.toml (idx's unit and integration tests, `mutants` profile).
# Fails on a missed mutant: a line of the change that no test notices.
#
#   scripts/mutants-diff.sh [BASE]    BASE: a commit, default HEAD~3
#                                     (or $MUTANTS_BASE)
#   MUTANTS_CAP=4        most mutants tested in one run; a diff with more is
#                        split into ceil(count/CAP) round-robin shards and the
#                        one numbered (HEAD's commit id mod shards) is tested,
#                        so a run stays a few minutes and is the same for the
#                        same commit
#   MUTANTS_TIMEOUT=90   seconds a mutant's tests may run
#
# Exit 0: every tested mutant caught (a mutant whose tests time out counts as
# caught: they did not pass; it is listed). Exit 1: a mutant missed, or
# cargo-mutants could not test (the unmutated tests fail, a bad diff).
# Results: target/mutants-diff/mutants.out (missed.txt, outcomes.json, log/);
# builds in target/mutants-diff/target.
# Installs the pinned cargo-mutants with `cargo install --locked` if the one
# on PATH is another version or missing.
set -euo pipefail
cd "$(dirname "$0")/.."

version=27.1.0
base=${1:-${MUTANTS_BASE:-HEAD~3}}
cap=${MUTANTS_CAP:-4}
timeout=${MUTANTS_TIMEOUT:-90}
out=target/mutants-diff

if ! cargo mutants --version 2>/dev/null | grep -qx "cargo-mutants $version"; then
  echo "== cargo-mutants $version (cargo install --locked)"
  cargo install --locked --quiet "cargo-mutants@$version"
fi

# A history shorter than BASE (a shallow clone): everything is new.
if ! git rev-parse --verify -q "$base^{commit}" > /dev/null; then
  echo "no commit $base: diffing against the empty tree"
  base=$(git hash-object -t tree /dev/null)
fi

mkdir -p "$out"
diff="$out/changes.diff"
# against the work tree, which cargo-mutants copies and mutates
git diff "$base" -- 'crates/idx/src/*.rs' > "$diff"
if [ ! -s "$diff" ]; then
  echo "no change to crates/idx/src since $base: no mutant to test"
  exit 0
fi

# cargo-mutants builds in a copy of the tree: an absolute target directory
# keeps the compiled dependencies from one run to the next. Its own: cargo
# names a workspace member's build by its path inside the workspace, so a
# copy sharing the tree's target directory would overwrite the tree's `idx`
# with a mutant (and another cargo run there would race the mutants').
target=${CARGO_TARGET_DIR:-target}
case "$target" in /*) ;; *) target="$PWD/$target" ;; esac
export CARGO_TARGET_DIR="$target/mutants-diff/target"

count=$(cargo mutants -p idx --in-diff "$diff" --list | wc -l)
echo "== $count mutants in crates/idx/src changed since $base"
if [ "$count" -eq 0 ]; then
  exit 0
fi
shard=()
if [ "$count" -gt "$cap" ]; then
  shards=$(( (count + cap - 1) / cap ))
  k=$(( 16#$(git rev-parse --short=7 HEAD) % shards ))
  shard=(--shard "$k/$shards" --sharding round-robin)
  echo "more than $cap: testing shard $k/$shards (round-robin; the shard follows HEAD's id)"
fi

set +e
cargo mutants -p idx --in-diff "$diff" "${shard[@]}" --timeout "$timeout" \
  -o "$out" --colors never
status=$?
set -e

results="$out/mutants.out"
# exit 3 (a timeout) hides exit 2 (a miss): read the lists themselves
if [ -s "$results/timeout.txt" ]; then
  echo "timed out (counted as caught: the tests did not pass):"
  sed 's/^/  /' "$results/timeout.txt"
fi
if [ -s "$results/missed.txt" ]; then
  echo "MISSED: no test of idx fails with these changes to the code:"
  sed 's/^/  /' "$results/missed.txt"
  echo "add a test named for the behaviour, or argue the mutant equivalent in"
  echo ".cargo/mutants.toml (exclude_re); rerun: scripts/mutants-diff.sh $base"
  exit 1
fi
case "$status" in
  0 | 2 | 3) echo "no mutant missed" ;;
  *)
    echo "cargo-mutants could not test (exit $status): see $results/debug.log"
    exit 1
    ;;
esac
