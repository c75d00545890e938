#!/usr/bin/env bash
# idx convert's outputs read by independent readers: Python lmdb + protobuf
# (datum.proto from caffe.proto) for the Caffe LMDB, numpy for .npy/.npz.
# Usage: ci.sh PYTHON (a venv's python; requirements.txt is installed into it).
set -euo pipefail
cd "$(dirname "$0")/../../../.."
PY=${1:-.venv/bin/python}
PY="$(cd "$(dirname "$PY")" && pwd)/$(basename "$PY")"
H=crates/idx-convert/tests/python
M=testdata/mnist   # MNIST's test set, carried by the repository
"$PY" -m pip install -q --disable-pip-version-check -r "$H/requirements.txt"
cargo build -q -p idx-cli
IDX=${CARGO_TARGET_DIR:-target}/debug/idx
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
"$PY" -m grpc_tools.protoc -I "$H" --python_out="$T" "$H/datum.proto"

echo "-- MNIST's test set to a Caffe LMDB, read with python lmdb + protobuf"
"$IDX" convert --to caffe-lmdb "$M/t10k-images-idx3-ubyte.gz" "$M/t10k-labels-idx1-ubyte.gz" -o "$T/t10k_lmdb"
PYTHONPATH="$T" "$PY" "$H/check.py" lmdb "$T/t10k_lmdb" "$M/t10k-images-idx3-ubyte.gz" "$M/t10k-labels-idx1-ubyte.gz"

echo "-- .npy and .npz read with numpy"
"$IDX" convert --to npy "$M/t10k-images-idx3-ubyte.gz" -o "$T/t10k.npy"
"$PY" "$H/check.py" npy "$T/t10k.npy" "$M/t10k-images-idx3-ubyte.gz"
for t in i8 i16 i32 f32 f64; do
  "$IDX" convert --to npy "corpus/valid/valid-edge-$t.idx" -o "$T/$t.npy"
  "$PY" "$H/check.py" npy "$T/$t.npy" "corpus/valid/valid-edge-$t.idx"
done
"$IDX" convert --to npz "$M/t10k-images-idx3-ubyte.gz" "$M/t10k-labels-idx1-ubyte.gz" -o "$T/t10k.npz"
"$PY" "$H/check.py" npz "$T/t10k.npz" "$M/t10k-images-idx3-ubyte.gz" "$M/t10k-labels-idx1-ubyte.gz"

echo "-- numpy's own .npy files (both byte orders; C order, Fortran order, a transpose) to IDX"
for dt in '<i2' '>i2' '<f4' '>f8' '|u1' '<i4'; do
  for order in C F T; do
    "$PY" "$H/check.py" make-npy "$T/in.npy" "$dt" "$order"
    "$IDX" convert --from npy "$T/in.npy" -o "$T/out.idx" --force
    "$PY" "$H/check.py" idx-of-npy "$T/out.idx" "$T/in.npy"
  done
done
