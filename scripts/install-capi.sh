#!/usr/bin/env bash
# Builds the C library (crates/idx-capi, release) and installs it under
# PREFIX (default /usr/local): lib/libidxc.a, the shared library as
# lib/libidxc.so.VERSION with the links lib/libidxc.so.ABI (its SONAME,
# set by crates/idx-capi/build.rs: what programs load) and lib/libidxc.so
# (what -lidxc finds), include/idxc.h, include/idxc.hpp and
# lib/pkgconfig/idxc.pc. Needs only cargo and a C toolchain (readelf, from
# binutils, reads the SONAME); then
#   cc prog.c $(pkg-config --cflags --libs idxc)
# (PKG_CONFIG_PATH=PREFIX/lib/pkgconfig for a prefix pkg-config does not
# search). Prints the prefix.
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=${1:-/usr/local}
target=${CARGO_TARGET_DIR:-target}
cargo build -q --release -p idx-capi
# the system libraries a Rust static library needs, as rustc states them
native=$(cargo rustc -q --release -p idx-capi --crate-type staticlib -- --print native-static-libs 2>&1 \
  | sed -n 's/.*native-static-libs: //p' | tail -n1)
[ -n "$native" ] || native="-lgcc_s -lutil -lrt -lpthread -lm -ldl -lc"
version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n1)
mkdir -p "$prefix/lib/pkgconfig" "$prefix/include"
install -m 644 "$target/release/libidxc.a" "$prefix/lib/"
so="$target/release/libidxc.so"
soname=$(readelf -d "$so" | sed -n 's/.*(SONAME).*\[\(.*\)\]$/\1/p')
case "$soname" in
  libidxc.so.[0-9]*) ;;
  *) echo "install-capi.sh: $so has no SONAME libidxc.so.ABI (found: '$soname')" >&2; exit 1 ;;
esac
install -m 755 "$so" "$prefix/lib/libidxc.so.$version"
ln -sfn "libidxc.so.$version" "$prefix/lib/$soname"
ln -sfn "$soname" "$prefix/lib/libidxc.so"
install -m 644 crates/idx-capi/include/idxc.h crates/idx-capi/include/idxc.hpp "$prefix/include/"
sed -e "s|@PREFIX@|$prefix|" -e "s|@VERSION@|$version|" -e "s|@NATIVE_LIBS@|$native|" \
  crates/idx-capi/idxc.pc.in > "$prefix/lib/pkgconfig/idxc.pc"
echo "$prefix"
