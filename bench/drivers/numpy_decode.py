"""numpy baseline: read the file, np.frombuffer big-endian, astype native.
Prints the seconds of read + decode."""
import sys
import time

import numpy as np

CODES = {0x08: "u1", 0x09: "i1", 0x0B: ">i2", 0x0C: ">i4", 0x0D: ">f4", 0x0E: ">f8"}
path = sys.argv[1]
t = time.perf_counter()
with open(path, "rb") as f:
    buf = f.read()
rank = buf[3]
shape = [int.from_bytes(buf[4 + 4 * k : 8 + 4 * k], "big") for k in range(rank)]
arr = np.frombuffer(buf, CODES[buf[2]], offset=4 + 4 * rank).reshape(shape)
arr = arr.astype(arr.dtype.newbyteorder("="))
print("%.6f" % (time.perf_counter() - t))
