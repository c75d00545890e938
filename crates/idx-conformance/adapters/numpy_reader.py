"""A plain numpy IDX reader, written the way most people read IDX files:
struct for the header, np.frombuffer for the payload, reshape."""
import struct

import numpy as np

from _protocol import BIG, CODES, serve_reader


def read(path):
    with open(path, "rb") as f:
        data = f.read()
    _zero, code, ndim = struct.unpack(">HBB", data[:4])
    shape = struct.unpack(">" + "I" * ndim, data[4 : 4 + 4 * ndim])
    arr = np.frombuffer(data, dtype=BIG[CODES[code]], offset=4 + 4 * ndim)
    return arr.reshape(shape)


if __name__ == "__main__":
    serve_reader(read)
