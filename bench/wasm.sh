#!/usr/bin/env bash
# The WebAssembly build against the native binary on the same page-cached
# file (default: the 1 GiB smooth f32 file of bench/validate.sh), full
# validation with every payload lint, one thread each:
#   native   target/release/idx-validate -q FILE
#   npm      node .../bin/idx-validate.js FILE   (the npm command: Node's
#            start and the module's compilation included)
#   in-process  the module's checkSource alone, timed inside Node
# Medians of RUNS alternating runs, wall and CPU seconds, and the .wasm's
# size (raw and gzip -9). Needs scripts/build-web.sh and scripts/test-web.sh
# to have run (the package installed in target/npm/install).
#
#   bench/wasm.sh [MIB] [RUNS]   (defaults: 1024 MiB, 5 runs)
set -euo pipefail
cd "$(dirname "$0")/.."
mib="${1:-1024}"
runs="${2:-5}"
file="bench/out/f32-real-${mib}m.idx"
mkdir -p bench/out
[ -f "$file" ] || python3 bench/make_payload.py "$file" f32 real "$mib"
[ -n "${BIN:-}" ] || cargo build -q --release -p idx-validate
bin="${BIN:-target/release/idx-validate}"
pkg=target/npm/install/node_modules/idx-validate
[ -f "$pkg/node.js" ] || { echo "run scripts/build-web.sh and scripts/test-web.sh first" >&2; exit 1; }
cat "$file" >/dev/null

tf=$(mktemp); trap 'rm -f "$tf"' EXIT
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
timed() { /usr/bin/time -f '%e %U %S' -o "$tf" "$@" >/dev/null || true; awk '{printf "%s %s", $1, $2 + $3}' "$tf"; }
inproc() {
  node --input-type=module -e '
    import { openSync, fstatSync } from "node:fs";
    const pkg = process.argv[1], file = process.argv[2];
    const { fdReader } = await import(pkg + "/node.js");
    const { Checker } = await import(pkg + "/idx_wasm.js");
    const fd = openSync(file, "r"), size = fstatSync(fd).size;
    const c = new Checker("{}");
    const t = process.hrtime.bigint(), u = process.cpuUsage();
    c.checkSource(file, size, fdReader(fd));
    const w = Number(process.hrtime.bigint() - t) / 1e9, cu = process.cpuUsage(u);
    if (c.exitStatus() !== 0) throw new Error("not valid");
    console.log(`${w} ${(cu.user + cu.system) / 1e6}`);
  ' "$(realpath "$pkg")" "$file"
}

nw=(); nc=(); cw=(); cc=(); iw=(); ic=()
for _ in $(seq "$runs"); do
  read -r w c <<<"$(timed "$bin" -q "$file")"; nw+=("$w"); nc+=("$c")
  read -r w c <<<"$(timed node "$pkg/bin/idx-validate.js" "$file")"; cw+=("$w"); cc+=("$c")
  read -r w c <<<"$(inproc)"; iw+=("$w"); ic+=("$c")
done
echo "machine: $(nproc) CPUs ($(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo)), load average $(cut -d' ' -f1-3 /proc/loadavg); $(date -u +%Y-%m-%dT%H:%MZ); node $(node --version)"
echo "$file: medians of $runs alternating runs (wall s, CPU s; GB/s of wall)"
gbs() { awk "BEGIN { printf \"%.2f\", $mib * 1048576 / $1 / 1e9 }"; }
n=$(median "${nw[@]}"); c=$(median "${cw[@]}"); i=$(median "${iw[@]}")
printf '%-34s %7s %7s %7s\n' "" wall cpu GB/s
printf '%-34s %7.2f %7.2f %7s\n' "native idx-validate" "$n" "$(median "${nc[@]}")" "$(gbs "$n")"
printf '%-34s %7.2f %7.2f %7s\n' "npm idx-validate (wasm, in node)" "$c" "$(median "${cc[@]}")" "$(gbs "$c")"
printf '%-34s %7.2f %7.2f %7s\n' "wasm checkSource in-process" "$i" "$(median "${ic[@]}")" "$(gbs "$i")"
awk "BEGIN { printf \"wasm / native: %.2f of native speed (npm command), %.2f (in-process)\n\", $n / $c, $n / $i }"
wasm=$pkg/idx_wasm_bg.wasm
echo "idx_wasm_bg.wasm: $(stat -c %s "$wasm") bytes, $(gzip -9 -c "$wasm" | wc -c) gzipped"
