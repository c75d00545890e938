# Sourced by the wasm scripts: picks how to build for a wasm target ($1),
# and defines `wasm_cargo ARGS...` (cargo for that target, in
# target/wasm/<route>, with the flags of the array WASM_RUSTFLAGS if set)
# and WASM_ROUTE.
#
# - rustup with the target installed (`rustup target add wasm32-unknown-unknown
#   wasm32-wasip1`): the toolchain's own standard library.
# - otherwise Debian's Rust (`apt-get install rustc-web cargo-web rust-web-src
#   lld-22 llvm-22 wasi-libc`, installed here when missing and running as
#   root): its standard library's source, built for the target
#   (`-Zbuild-std`, enabled on this stable compiler by RUSTC_BOOTSTRAP=1).
#   wasm32-wasip1 then links against Debian's wasi-libc with the stubs of
#   scripts/wasm/pthread-stubs.ll.

wasm_target=$1
[ -n "${WASM_RUSTFLAGS+x}" ] || WASM_RUSTFLAGS=()
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

if command -v rustup >/dev/null && rustup target list --installed 2>/dev/null | grep -qx "$wasm_target"; then
  WASM_ROUTE=rustup
  wasm_cargo() {
    local flags=("${WASM_RUSTFLAGS[@]}")
    CARGO_TARGET_DIR="$repo/target/wasm/rustup" \
      CARGO_ENCODED_RUSTFLAGS="$(IFS=$'\x1f'; echo "${flags[*]}")" \
      cargo "$@" --target "$wasm_target"
  }
else
  WASM_ROUTE=debian
  debian_packages=(rustc-web cargo-web rust-web-src lld-22 llvm-22)
  [ "$wasm_target" = wasm32-wasip1 ] && debian_packages+=(wasi-libc)
  missing=()
  for p in "${debian_packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ "${#missing[@]}" -gt 0 ]; then
    if [ "$(id -u)" != 0 ]; then
      echo "no rustup target $wasm_target; install it, or as root: apt-get install ${missing[*]}" >&2
      exit 1
    fi
    echo "installing Debian's ${missing[*]} (no rustup target $wasm_target here)" >&2
    DEBIAN_FRONTEND=noninteractive apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
  wasm_rustflags=()
  if [ "$wasm_target" = wasm32-wasip1 ]; then
    mkdir -p "$repo/target/wasm/debian"
    llc-22 -filetype=obj "$repo/scripts/wasm/pthread-stubs.ll" -o "$repo/target/wasm/debian/pthread-stubs.o"
    wasm_rustflags=(-C link-self-contained=no -L /usr/lib/wasm32-wasi
      -C link-arg=/usr/lib/wasm32-wasi/crt1-command.o
      -C "link-arg=$repo/target/wasm/debian/pthread-stubs.o")
  fi
  wasm_cargo() {
    local flags=("${wasm_rustflags[@]}" "${WASM_RUSTFLAGS[@]}")
    PATH="/usr/bin:$PATH" RUSTC=/usr/bin/rustc RUSTDOC=/usr/bin/rustdoc RUSTC_BOOTSTRAP=1 \
      CARGO_TARGET_DIR="$repo/target/wasm/debian" \
      CARGO_ENCODED_RUSTFLAGS="$(IFS=$'\x1f'; echo "${flags[*]}")" \
      /usr/bin/cargo "$@" --target "$wasm_target" -Zbuild-std=std,panic_abort
  }
fi
