"""The `ubyte` package's readers (decode_idx1_ubyte, decode_idx3_ubyte).

Quirks the adapter handles: ubyte has one function for label files and one
for image files and checks no header field itself (the user picks by file
name); the adapter picks decode_idx3_ubyte when the rank byte (offset 3) is
3 and decode_idx1_ubyte otherwise. Both print progress on standard output,
so the adapter sends their standard output to standard error. Both return
float64 arrays of byte values; the adapter converts them to u8, which is
exact, since ubyte reads every element as one unsigned byte.
"""
import contextlib
import sys

import numpy as np
import ubyte

from _protocol import serve_reader


def read(path):
    with open(path, "rb") as f:
        head = f.read(4)
    decode = ubyte.decode_idx3_ubyte if len(head) == 4 and head[3] == 3 else ubyte.decode_idx1_ubyte
    with contextlib.redirect_stdout(sys.stderr):
        arr = decode(path)
    return arr.astype(np.uint8)


if __name__ == "__main__":
    serve_reader(read)
