#!/usr/bin/env bash
# The C library and the C++ wrapper as C and C++ programs use them
# (crates/idx-capi; docs/guide/c-cpp.md):
#  1. scripts/install-capi.sh into a temporary prefix: the shared library
#     is libidxc.so.VERSION with the SONAME libidxc.so.ABI (build.rs's
#     ABI), libidxc.so.ABI and libidxc.so links to it; the C example built
#     with `gcc $(pkg-config --cflags --libs idxc)` (the shared library),
#     the C++ example and the IdxUbyte<N> migration example with g++
#     -std=c++20, all with -Wall -Wextra -Werror; each needs libidxc.so.ABI
#     and loads it from the prefix;
#  2. both examples on every corpus file, each finding printed as its
#     `text` (the library's one text form): the verdict and the findings
#     (rule, offset, severity, message) are idx-validate --format json's, and each
#     read is refused exactly when the file is invalid, with one of its
#     errors (scripts/compare-c.py);
#  3. the same programs built with -fsanitize=address,undefined against
#     the static library, on the whole corpus: the same output, no report;
#  4. both examples under valgrind (memcheck, --leak-check=full, one
#     suppression: crates/idx-capi/valgrind.supp): no error.
# Installs gcc, g++, pkg-config, valgrind and binutils (readelf) with apt
# when missing (as root).
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
need=()
for tool in gcc g++ pkg-config valgrind python3 readelf; do
  command -v "$tool" >/dev/null || need+=("${tool/readelf/binutils}")
done
if [ ${#need[@]} -gt 0 ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi
target=${CARGO_TARGET_DIR:-target}
cargo build -q --release -p idx-validate -p idx-cli
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix=$(scripts/install-capi.sh "$work/prefix")
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
ex=crates/idx-capi/examples
warn=(-Wall -Wextra -Werror)

echo "-- build against the installed library (pkg-config idxc)"
# shellcheck disable=SC2046
gcc -std=c11 "${warn[@]}" -O1 "$ex/validate.c" $(pkg-config --cflags --libs idxc) \
  -Wl,-rpath,"$prefix/lib" -o "$work/validate-c"
# shellcheck disable=SC2046
g++ -std=c++20 "${warn[@]}" -O1 "$ex/validate.cpp" $(pkg-config --cflags --libs idxc) \
  -Wl,-rpath,"$prefix/lib" -o "$work/validate-cpp"
# shellcheck disable=SC2046
g++ -std=c++20 "${warn[@]}" -O1 -I"$ex" "$ex/migrate.cpp" $(pkg-config --cflags --libs idxc) \
  -Wl,-rpath,"$prefix/lib" -o "$work/migrate"
# the sanitized builds link the static library
read -r -a private <<<"$(sed -n 's/^Libs.private: //p' "$prefix/lib/pkgconfig/idxc.pc")"
san=(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all -g -O1)
gcc -std=c11 "${warn[@]}" "${san[@]}" "$ex/validate.c" -I"$prefix/include" \
  "$prefix/lib/libidxc.a" "${private[@]}" -o "$work/validate-c-san"
g++ -std=c++20 "${warn[@]}" "${san[@]}" "$ex/validate.cpp" -I"$prefix/include" \
  "$prefix/lib/libidxc.a" "${private[@]}" -o "$work/validate-cpp-san"
g++ -std=c++20 "${warn[@]}" "${san[@]}" -I"$ex" "$ex/migrate.cpp" -I"$prefix/include" \
  "$prefix/lib/libidxc.a" "${private[@]}" -o "$work/migrate-san"
echo "(built: ${SECONDS}s)"

echo "-- the shared library's SONAME and links, and the examples load it from the prefix"
abi=$(sed -n 's/^const ABI: u32 = \([0-9][0-9]*\);$/\1/p' crates/idx-capi/build.rs)
version=$(pkg-config --modversion idxc)
lib="$prefix/lib"
soname() { readelf -d "$1" | sed -n 's/.*(SONAME).*\[\(.*\)\]$/\1/p'; }
[ -n "$abi" ] && [ -f "$lib/libidxc.so.$version" ] && [ ! -L "$lib/libidxc.so.$version" ] \
  || { echo "no $lib/libidxc.so.$version (ABI '$abi')" >&2; ls -l "$lib" >&2; exit 1; }
[ "$(soname "$lib/libidxc.so.$version")" = "libidxc.so.$abi" ] \
  || { echo "SONAME '$(soname "$lib/libidxc.so.$version")', not libidxc.so.$abi" >&2; exit 1; }
[ "$(readlink "$lib/libidxc.so.$abi")" = "libidxc.so.$version" ] \
  && [ "$(readlink "$lib/libidxc.so")" = "libidxc.so.$abi" ] \
  || { echo "the links are not libidxc.so -> libidxc.so.$abi -> libidxc.so.$version" >&2; ls -l "$lib" >&2; exit 1; }
for bin in validate-c validate-cpp migrate; do
  # (whole outputs first: `grep -q` stops reading, and pipefail would see
  # the writer's SIGPIPE)
  dynamic=$(readelf -d "$work/$bin")
  loads=$(ldd "$work/$bin")
  grep -q "(NEEDED).*\[libidxc.so.$abi\]" <<<"$dynamic" \
    || { echo "$bin does not need libidxc.so.$abi" >&2; echo "$dynamic" >&2; exit 1; }
  grep -qF "libidxc.so.$abi => $lib/libidxc.so.$abi " <<<"$loads" \
    || { echo "$bin does not load $lib/libidxc.so.$abi" >&2; echo "$loads" >&2; exit 1; }
done
echo "libidxc.so.$version: SONAME libidxc.so.$abi; validate-c, validate-cpp and migrate load $lib/libidxc.so.$abi"

files=()
for dir in valid invalid implementation-defined; do
  for f in corpus/"$dir"/*; do
    case "$f" in *.json) ;; *) files+=("$f") ;; esac
  done
done

echo "-- idx-validate --format json on ${#files[@]} corpus files"
mkdir -p "$work/json"
for f in "${files[@]}"; do
  # one file at a time, so that no dataset rule pairs two of them
  "$target/release/idx-validate" --format json --max-findings 0 "$f" > "$work/json/$(basename "$f").json" || true
done

# exit status 0 (all valid) or 1 (some invalid) is expected; 2 or a
# signal is a failure
run() {
  local out=$1; shift
  local rc=0
  "$@" > "$out" || rc=$?
  if [ "$rc" -gt 1 ]; then
    echo "$* exited $rc" >&2
    exit 1
  fi
}
echo "-- the examples, plain and under AddressSanitizer and UndefinedBehaviorSanitizer"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
run "$work/c.txt" "$work/validate-c" "${files[@]}"
run "$work/cpp.txt" "$work/validate-cpp" "${files[@]}"
run "$work/c-san.txt" "$work/validate-c-san" "${files[@]}"
run "$work/cpp-san.txt" "$work/validate-cpp-san" "${files[@]}"
python3 scripts/compare-c.py "$work/json" "$work/c.txt" "$work/cpp.txt" "$work/c-san.txt" "$work/cpp-san.txt"

echo "-- the IdxUbyte<N> migration example: a valid pair, and a truncated file refused with its finding (as idx dump prints it)"
images=corpus/valid/valid-u8-rank3.idx
labels=corpus/valid/valid-u8-rank1.idx
for bin in migrate migrate-san; do
  "$work/$bin" "$images" "$labels" "$work/labels-$bin.idx" > "$work/$bin.txt"
  cmp "$work/labels-$bin.idx" "$labels"
  if "$work/$bin" "$images" corpus/invalid/invalid-truncated-payload-mnist-labels.idx "$work/x.idx" 2> "$work/$bin.err" >/dev/null; then
    echo "$bin read a truncated file" >&2; exit 1
  fi
  grep -q 'IDX202' "$work/$bin.err" || { echo "$bin: no IDX202 in: $(cat "$work/$bin.err")" >&2; exit 1; }
  # the C++ wrapper's `<<` prints the finding's `text`, the library's one
  # text form: idx dump's line
  want=$("$target/release/idx" dump corpus/invalid/invalid-truncated-payload-mnist-labels.idx 2>&1 >/dev/null | head -1 || true)
  [ "$(head -1 "$work/$bin.err")" = "$want" ] \
    || { echo "$bin: '$(head -1 "$work/$bin.err")' is not idx dump's '$want'" >&2; exit 1; }
done
echo "(examples: ${SECONDS}s)"

echo "-- valgrind (memcheck, --leak-check=full)"
# (the one suppression: Rust's handle of the main thread, allocated once)
vg=(valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect,possible
  --suppressions=crates/idx-capi/valgrind.supp)
run "$work/c-vg.txt" "${vg[@]}" "$work/validate-c" "${files[@]}"
run "$work/cpp-vg.txt" "${vg[@]}" "$work/validate-cpp" "${files[@]}"
"${vg[@]}" "$work/migrate" "$images" "$labels" "$work/labels-vg.idx" >/dev/null
cmp "$work/c-vg.txt" "$work/c.txt"
cmp "$work/cpp-vg.txt" "$work/cpp.txt"
echo "(C and C++: ${SECONDS}s)"
