#!/usr/bin/env bash
# Peak resident memory (max RSS, /usr/bin/time -v) of each front-end
# command on MNIST's training images and on 2 GiB sparse inputs, for two
# builds side by side (e.g. main before and after a change):
#
#   bench/frontends-memory.sh OLD_BIN_DIR NEW_BIN_DIR
#
# Each BIN_DIR holds `idx` and `idx-validate`. Commands that cannot finish
# under the old build (killed) show the exit status instead.
set -uo pipefail
old="$1"; new="$2"
cd "$(dirname "$0")/.."
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mnist=${MNIST_DIR:?set MNIST_DIR to a folder holding MNIST's four *-ubyte.gz files: the repository carries only the test set (testdata/mnist)}/train-images-idx3-ubyte.gz
gunzip -c "$mnist" > "$tmp/mnist-images"
# 2 GiB sparse inputs: u8 labels [2147483640], u8 images [2739000, 28, 28]
# and a rank-2 image [1, 2147483647]
python3 - "$tmp" <<'PY'
import os, struct, sys
d = sys.argv[1]
def sparse(name, dims):
    with open(os.path.join(d, name), "wb") as f:
        f.write(bytes([0, 0, 8, len(dims)]) + b"".join(struct.pack(">I", x) for x in dims))
        n = 1
        for x in dims: n *= x
        f.truncate(4 + 4 * len(dims) + n)
sparse("labels-2g", [2147483640])
sparse("images-2g", [2739 * 1000, 28, 28])
sparse("wide-2g", [1, 2147483648 - 1])
PY
"$new/idx" dump "$tmp/mnist-images" > "$tmp/mnist.json"
n=0
peak() { # BIN ARGS... -> "max RSS in MiB (exit status)"; @OUT@ is a new path
  n=$((n + 1))
  local args=("${@//@OUT@/$tmp/out-$n}")
  # at most 8 GiB of address space, so a runaway build fails instead of
  # meeting the OOM killer
  ( ulimit -v 8388608; /usr/bin/time -v -o "$tmp/t" "${args[@]}" > /dev/null 2> "$tmp/err" < "${STDIN:-/dev/null}" )
  local rc=$?
  local kb; kb=$(awk -F: '/Maximum resident/ {gsub(/ /,"",$2); print $2}' "$tmp/t")
  rm -rf "$tmp/out-$n"*
  printf '%s MiB (exit %s)' "$((kb / 1024))" "$rc"
}
row() { # LABEL CMD ARGS...
  local label="$1"; shift
  local cmd="$1"; shift
  printf '| %s | %s | %s |\n' "$label" "$(peak "$old/$cmd" "$@")" "$(peak "$new/$cmd" "$@")"
}
echo "| command | before | after |"
echo "|---|---|---|"
row "idx-validate MNIST train images" idx-validate "$tmp/mnist-images"
row "idx-validate 2 GiB labels" idx-validate "$tmp/labels-2g"
row "idx show MNIST (terminal)" idx show "$tmp/mnist-images"
row "idx show --png MNIST" idx show --items 64 --png @OUT@.png "$tmp/mnist-images"
row "idx show 2 GiB labels (histogram)" idx show "$tmp/labels-2g"
row "idx show 2 GiB rank-2 image (refused)" idx show "$tmp/wide-2g"
row "idx show 2 GiB images (16 items)" idx show "$tmp/images-2g"
row "idx info MNIST" idx info "$tmp/mnist-images"
row "idx info 2 GiB labels" idx info "$tmp/labels-2g"
row "idx dump MNIST" idx dump "$tmp/mnist-images"
STDIN="$tmp/mnist.json" row "idx write MNIST (109 MB JSON)" idx write
row "idx convert --to npy MNIST" idx convert --to npy "$tmp/mnist-images" -o @OUT@.npy
row "idx convert --to npy 2 GiB images" idx convert --to npy "$tmp/images-2g" -o @OUT@.npy
