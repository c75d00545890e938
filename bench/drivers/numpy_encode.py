"""numpy baseline for writing: decode (untimed), then time header + big-endian
tobytes() into memory. Prints the seconds."""
import struct
import sys
import time

import numpy as np

CODES = {0x08: "u1", 0x09: "i1", 0x0B: ">i2", 0x0C: ">i4", 0x0D: ">f4", 0x0E: ">f8"}
buf = open(sys.argv[1], "rb").read()
rank = buf[3]
shape = [int.from_bytes(buf[4 + 4 * k : 8 + 4 * k], "big") for k in range(rank)]
big = CODES[buf[2]]
arr = np.frombuffer(buf, big, offset=4 + 4 * rank).reshape(shape)
arr = arr.astype(arr.dtype.newbyteorder("="))
t = time.perf_counter()
out = struct.pack(">HBB", 0, buf[2], rank) + struct.pack(">" + "I" * rank, *shape) + arr.astype(big).tobytes()
print("%.6f" % (time.perf_counter() - t))
assert out == buf
