"""A plain numpy IDX reader, written the way most people read IDX files:
struct for the header, np.frombuffer for the payload, reshape."""
import struct
import sys

import numpy as np

from _protocol import BIG, CODES, crash, print_content, reject


def read(path):
    with open(path, "rb") as f:
        data = f.read()
    _zero, code, ndim = struct.unpack(">HBB", data[:4])
    shape = struct.unpack(">" + "I" * ndim, data[4 : 4 + 4 * ndim])
    arr = np.frombuffer(data, dtype=BIG[CODES[code]], offset=4 + 4 * ndim)
    return arr.reshape(shape)


if __name__ == "__main__":
    try:
        arr = read(sys.argv[1])
    except MemoryError as e:
        crash(e)
    except Exception as e:  # the reader raised: it rejected the file
        reject(e)
    print_content(arr)
