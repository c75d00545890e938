"""Shared helpers for the Python adapters: the corpus' JSON content encoding.

Readers print {"dtype", "shape", "data"} with integers as numbers and floats
as bit-pattern strings ("0x7fc00001"); writers read the same on stdin.
"""
import json
import sys

import numpy as np

CODES = {0x08: "u8", 0x09: "i8", 0x0B: "i16", 0x0C: "i32", 0x0D: "f32", 0x0E: "f64"}
BIG = {"u8": ">u1", "i8": ">i1", "i16": ">i2", "i32": ">i4", "f32": ">f4", "f64": ">f8"}
BITS = {"f32": ">u4", "f64": ">u8"}


def dtype_name(arr):
    kind = {("u", 1): "u8", ("i", 1): "i8", ("i", 2): "i16", ("i", 4): "i32", ("f", 4): "f32", ("f", 8): "f64"}
    return kind[(arr.dtype.kind, arr.dtype.itemsize)]


def print_content(arr):
    name = dtype_name(arr)
    flat = arr.reshape(-1)
    if name in BITS:
        digits = 8 if name == "f32" else 16
        bits = flat.astype(BIG[name]).view(BITS[name])
        data = ["0x%0*x" % (digits, int(b)) for b in bits]
    else:
        data = [int(x) for x in flat]
    json.dump({"dtype": name, "shape": [int(d) for d in arr.shape], "data": data}, sys.stdout)
    sys.stdout.write("\n")


def read_content():
    c = json.load(sys.stdin)
    name = c["dtype"]
    if name in BITS:
        bits = np.array([int(x, 16) for x in c["data"]], dtype=BITS[name])
        arr = bits.view(BIG[name])
    else:
        arr = np.array(c["data"], dtype=BIG[name])
    return name, arr.reshape(c["shape"])


def reject(e):
    """Exit 1: the implementation refused the input (raised an exception)."""
    json.dump({"error": {"message": "%s: %s" % (type(e).__name__, e)}}, sys.stdout)
    sys.stdout.write("\n")
    sys.exit(1)


def crash(e):
    """Exit 3: the implementation ran out of memory or similar."""
    sys.stderr.write("crash: %s: %s\n" % (type(e).__name__, e))
    sys.exit(3)
