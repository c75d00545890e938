#!/usr/bin/env bash
# Builds the C library (crates/idx-capi, release) and installs it under
# PREFIX (default /usr/local): lib/libidxc.a, lib/libidxc.so,
# include/idxc.h, include/idxc.hpp and lib/pkgconfig/idxc.pc. Needs only
# cargo and a C toolchain; then
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
install -m 755 "$target/release/libidxc.so" "$prefix/lib/"
install -m 644 crates/idx-capi/include/idxc.h crates/idx-capi/include/idxc.hpp "$prefix/include/"
sed -e "s|@PREFIX@|$prefix|" -e "s|@VERSION@|$version|" -e "s|@NATIVE_LIBS@|$native|" \
  crates/idx-capi/idxc.pc.in > "$prefix/lib/pkgconfig/idxc.pc"
echo "$prefix"
