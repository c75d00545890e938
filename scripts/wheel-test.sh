#!/usr/bin/env bash
# The idxkit distribution a user without Rust installs (run by .ci/run):
#  1. the release workflow (.github/workflows/release.yml, which builds the
#     same wheel in the manylinux2014 container and runs the same smoke test
#     on Linux, macOS and Windows): GitHub's workflow schema, zizmor's audit,
#     and the maturin it pins is the one pinned here;
#  2. the sdist (maturin sdist) into target/python-dist/;
#  3. the wheel built FROM that sdist, unpacked in a temporary folder:
#     abi3 (CPython 3.9+), manylinux2014 through maturin --zig (zig's glibc
#     2.17 stubs, so the wheel runs on any glibc 2.17+ Linux whatever glibc
#     builds it), --locked, with maturin's manylinux compliance check;
#  4. its file name carries exactly the cp39-abi3-manylinux2014 tags,
#     `auditwheel show` agrees it is manylinux_2_17, and the README's
#     install line names it;
#  5. scripts/wheel-smoke.sh: installed into a fresh venv on a PATH with no
#     cargo or rustc, and the smoke test (MNIST's test set from testdata/mnist,
#     validate, the idx-validate and idx commands).
# Pinned tools: scripts/requirements-wheel.txt.
#
# usage: scripts/wheel-test.sh   (leaves the sdist and wheel in target/python-dist/)
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
cd "$repo"
dist="$repo/target/python-dist"
tools="$repo/target/wheel-tools"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# The wheel's release build (target/x86_64-unknown-linux-gnu/release with
# zig as the linker: nothing is shared with scripts/test's build) is kept
# between runs.
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$repo/target}"

echo "-- pinned tools (maturin, zig, auditwheel)"
if [ ! -x "$tools/bin/python" ]; then
  python3 -m venv "$tools"
fi
"$tools/bin/pip" install -q --disable-pip-version-check -r scripts/requirements-wheel.txt
# maturin finds zig as `python -m ziglang` on PATH.
export PATH="$tools/bin:$PATH"

echo "-- the release workflow"
check-jsonschema -q --builtin-schema vendor.github-workflows .github/workflows/release.yml
zizmor -q --offline .github/workflows/release.yml
maturin_pin="$(grep -m1 '^maturin==' scripts/requirements-wheel.txt | cut -d= -f3)"
for f in python/requirements-test.txt scripts/requirements-ecosystem.txt; do
  grep -qx "maturin==$maturin_pin" "$f" || { echo "$f does not pin maturin==$maturin_pin"; exit 1; }
done
grep -q "^  MATURIN_VERSION: v$maturin_pin\$" .github/workflows/release.yml || {
  echo "release.yml's MATURIN_VERSION is not v$maturin_pin (scripts/requirements-wheel.txt)"; exit 1; }
echo "release.yml: schema, zizmor and maturin $maturin_pin: ok"

echo "-- sdist"
rm -rf "$dist"
maturin sdist -o "$dist" >/dev/null
version="$(grep -m1 '^version = ' Cargo.toml | cut -d'"' -f2)"
sdist="$dist/idxkit-$version.tar.gz"
[ -f "$sdist" ] || { ls "$dist"; echo "no $sdist"; exit 1; }

echo "-- the manylinux2014 abi3 wheel, built from the sdist"
SECONDS=0
tar -xzf "$sdist" -C "$work"
(cd "$work/idxkit-$version" && maturin build -q --release --locked --zig \
  --compatibility manylinux2014 --auditwheel check -o "$dist")
echo "(wheel built from the sdist in ${SECONDS}s)"

echo "-- platform tag"
arch="$(uname -m)"
wheel="$dist/idxkit-$version-cp39-abi3-manylinux2014_$arch.manylinux_2_17_$arch.whl"
if [ ! -f "$wheel" ] || [ "$(find "$dist" -maxdepth 1 -name "*.whl" | wc -l)" -ne 1 ]; then
  ls "$dist"; echo "expected exactly $(basename "$wheel")"; exit 1
fi
auditwheel show "$wheel" > "$work/auditwheel.log"
if ! tr -s ' \n' ' ' < "$work/auditwheel.log" | grep -q "is consistent with the following platform tag: \"manylinux_2_17_$arch\""; then
  cat "$work/auditwheel.log"; echo "auditwheel does not call the wheel manylinux_2_17"; exit 1
fi
echo "$(basename "$wheel"): auditwheel: manylinux_2_17_$arch"
# The README's install line names the wheel a release publishes.
[ "$arch" != x86_64 ] || grep -qxE "pip install $(basename "$wheel")( .*)?" README.md || {
  echo "README.md does not show: pip install $(basename "$wheel")"; exit 1; }

echo "-- installed without Rust: the smoke test"
# MNIST's test set, carried by the repository (testdata/mnist/README.md)
mnist_args=(--mnist "$repo/testdata/mnist")
numpy="$(grep -m1 '^numpy==' python/requirements-test.txt)"
scripts/wheel-smoke.sh ${mnist_args[@]+"${mnist_args[@]}"} --numpy "$numpy" "$dist"
echo "wheel and sdist: ok"
