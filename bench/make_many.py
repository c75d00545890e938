"""Writes COUNT small IDX files into DIR for the many-files benchmark:
alternately 10 MNIST-sized u8 images (28x28) and 100 f32 vectors of 16,
as small datasets are. python3 bench/make_many.py DIR [COUNT]"""
import os
import struct
import sys

out, count = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 10000
os.makedirs(out, exist_ok=True)
u8 = bytes([0, 0, 0x08, 3]) + struct.pack(">III", 10, 28, 28) + bytes((i * 7) % 256 for i in range(10 * 28 * 28))
f32 = bytes([0, 0, 0x0D, 2]) + struct.pack(">II", 100, 16) + b"".join(struct.pack(">f", i / 3.0) for i in range(1600))
for i in range(count):
    with open(os.path.join(out, "f%05d.idx" % i), "wb") as f:
        f.write(u8 if i % 2 == 0 else f32)
