"""Independent checks of `idx convert`'s outputs, with Python's `lmdb`
(LMDB 0.9, the library Caffe uses), `protobuf` decoding a datum.proto
written from caffe.proto, and numpy. Every IDX input is parsed here with
numpy alone (offset and dtype from the magic), not with the toolkit.

    check.py lmdb DB IMAGES LABELS      DB holds exactly convert_mnist_data's records
    check.py npy FILE.npy IDX           the .npy loads with IDX's dtype, shape, values
    check.py npz FILE.npz IMAGES LABELS images and labels in one archive
    check.py make-npy OUT.npy DTYPE [C|F|T]  writes a numpy array, C order, Fortran
                                        order or a transpose (for --from npy)
    check.py idx-of-npy IDX NPY         IDX holds the .npy's array, big-endian

Prints one line per check; exits 1 on the first failure.
"""
import gzip
import struct
import sys

import numpy as np

TYPES = {0x08: ">u1", 0x09: ">i1", 0x0B: ">i2", 0x0C: ">i4", 0x0D: ">f4", 0x0E: ">f8"}


def read_idx(path):
    raw = open(path, "rb").read()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    assert raw[0] == 0 and raw[1] == 0, path
    dtype, rank = TYPES[raw[2]], raw[3]
    dims = struct.unpack(">%dI" % rank, raw[4 : 4 + 4 * rank])
    return np.frombuffer(raw, dtype=dtype, offset=4 + 4 * rank).reshape(dims)


def ok(cond, what):
    if not cond:
        print("FAIL:", what)
        sys.exit(1)
    print("ok:", what)


def check_lmdb(db, images, labels):
    import lmdb

    import datum_pb2  # generated from datum.proto by protoc (on PYTHONPATH)

    imgs, labs = read_idx(images), read_idx(labels)
    n, rows, cols = imgs.shape
    ok(lmdb.version()[:2] == (0, 9), "python lmdb uses LMDB %d.%d.%d" % lmdb.version())
    env = lmdb.open(db, readonly=True, lock=False, subdir=True)
    ok(env.stat()["entries"] == n, "%d records" % n)
    sums = np.zeros(n, dtype=np.int64)
    with env.begin() as txn:
        for i, (key, value) in enumerate(txn.cursor()):
            if key != b"%08d" % i:
                ok(False, "key %r at position %d" % (key, i))
            d = datum_pb2.Datum()
            d.ParseFromString(value)
            if (d.channels, d.height, d.width) != (1, rows, cols) or d.encoded:
                ok(False, "shape of record %r" % key)
            if d.label != int(labs[i]) or not d.HasField("label"):
                ok(False, "label of record %r" % key)
            if len(d.data) != rows * cols or len(d.float_data) != 0:
                ok(False, "data of record %r" % key)
            # Byte-exact too: what Caffe's C++ SerializeToString writes.
            if d.SerializeToString() != value:
                ok(False, "canonical encoding of record %r" % key)
            sums[i] = np.frombuffer(d.data, dtype=np.uint8).sum(dtype=np.int64)
    ok(i == n - 1, "keys %08d..%08d in order" % (0, n - 1))
    ok(True, "channels 1, height %d, width %d, not encoded, in every record" % (rows, cols))
    ok(True, "every label equals the IDX label")
    ok(np.array_equal(sums, imgs.reshape(n, -1).sum(axis=1, dtype=np.int64)),
       "pixel sums of all %d records equal the IDX images' (total %d)" % (n, sums.sum()))


def check_npy(npy, idx):
    want = read_idx(idx)
    got = np.load(npy)
    ok(got.dtype == want.dtype.newbyteorder("=") or got.dtype == want.dtype,
       "%s: dtype %s" % (npy, got.dtype))
    ok(got.dtype.byteorder in "=|<", "%s: native (little-endian) byte order" % npy)
    ok(got.shape == want.shape, "%s: shape %s" % (npy, got.shape))
    ok(np.array_equal(got.view(np.uint8) if got.dtype.kind == "f" else got,
                      want.astype(got.dtype).view(np.uint8) if got.dtype.kind == "f" else want),
       "%s: values (bit-exact)" % npy)


def check_npz(npz, images, labels):
    z = np.load(npz)
    ok(sorted(z.files) == ["images", "labels"], "%s: arrays images and labels" % npz)
    for name, idx in (("images", images), ("labels", labels)):
        want = read_idx(idx)
        ok(z[name].shape == want.shape and np.array_equal(z[name], want),
           "%s[%s]: shape %s, values" % (npz, name, z[name].shape))


def make_npy(out, dtype, order="C"):
    """order C: np.save(a); F: np.asfortranarray(a); T: a transpose (a
    Fortran-order view), saved as numpy saves them."""
    rng = np.random.default_rng(16)
    a = (rng.standard_normal((5, 3, 4)) * 1000).astype(dtype)
    a = {"C": a, "F": np.asfortranarray(a), "T": a.T}[order]
    np.save(out, a)
    with open(out, "rb") as f:
        np.lib.format.read_magic(f)
        _, fortran, _ = np.lib.format.read_array_header_1_0(f)
    ok(fortran == (order != "C"), "%s: fortran_order %s" % (out, fortran))
    print("wrote", out, a.dtype, a.shape, "order", order)


def check_idx_of_npy(idx, npy):
    a = np.load(npy)
    got = read_idx(idx)
    ok(got.dtype.str[1:] == a.dtype.str[1:] and got.shape == a.shape,
       "%s: %s %s from %s" % (idx, got.dtype, got.shape, a.dtype))
    raw = open(idx, "rb").read()
    ok(raw[4 + 4 * a.ndim:] == a.astype(a.dtype.newbyteorder(">")).tobytes(),
       "%s: payload is the array, big-endian" % idx)


if __name__ == "__main__":
    cmd, args = sys.argv[1], sys.argv[2:]
    {"lmdb": check_lmdb, "npy": check_npy, "npz": check_npz, "make-npy": make_npy,
     "idx-of-npy": check_idx_of_npy}[cmd](*args)
