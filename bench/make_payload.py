"""Writes a big-endian IDX file of about MIB MiB of payload for benchmarks:

    python3 bench/make_payload.py OUT TYPE KIND [MIB]

TYPE is u8, i8, i16, i32, f32 or f64; KIND is `real` (a smooth signal, as
sensor or image data is) or `random` (uniformly random bytes: for floats
about 1 in 256 (f32) or 2048 (f64) elements is then NaN or infinite, the
worst case for the non-finite count). Rank 1, so any length is valid."""
import array
import math
import os
import struct
import sys

out, dtype, kind = sys.argv[1], sys.argv[2], sys.argv[3]
mib = int(sys.argv[4]) if len(sys.argv) > 4 else 1024
codes = {"u8": (0x08, "B", 1, 100.0, 128.0), "i8": (0x09, "b", 1, 100.0, 0.0),
         "i16": (0x0B, "h", 2, 3000.0, 0.0), "i32": (0x0C, "i", 4, 100000.0, 0.0),
         "f32": (0x0D, "f", 4, 3.0, 0.0), "f64": (0x0E, "d", 8, 3.0, 0.0)}
code, fmt, size, amp, off = codes[dtype]
n = mib * (1 << 20) // size
chunk_bytes = 1 << 20
with open(out, "wb") as f:
    f.write(bytes([0, 0, code, 1]) + struct.pack(">I", n))
    left = n * size
    if kind == "random":
        while left:
            k = min(left, chunk_bytes)
            f.write(os.urandom(k))
            left -= k
    elif kind == "real":
        per = chunk_bytes // size
        vals = [math.sin(i / 100.0) * amp + off for i in range(per)]
        if fmt not in "fd":
            vals = [int(v) for v in vals]
        a = array.array(fmt, vals)
        if sys.byteorder == "little":
            a.byteswap()
        block = a.tobytes()
        while left:
            k = min(left, len(block))
            f.write(block[:k])
            left -= k
    else:
        sys.exit("KIND must be real or random")
