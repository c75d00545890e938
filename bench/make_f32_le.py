"""Writes an f32 IDX file of N MiB of payload (a smooth signal) the way the
IDX technical report's writer does: magic and dimension big-endian, then the
elements in native little-endian order (numpy's `tofile` on x86). For the
repair benchmark: python3 bench/make_f32_le.py OUT [MIB]."""
import array
import math
import struct
import sys

out, mib = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 1024
n = mib * (1 << 20) // 4
chunk = 1 << 18
a = array.array("f", [math.sin(i / 100.0) * 3.0 for i in range(chunk)])
if sys.byteorder == "big":
    a.byteswap()
block = a.tobytes()
with open(out, "wb") as f:
    f.write(bytes([0, 0, 0x0D, 1]) + struct.pack(">I", n))
    for _ in range(n // chunk):
        f.write(block)
