"""A plain numpy IDX writer: struct for the header, tobytes() of the
big-endian array for the payload."""
import struct

from _protocol import BIG, CODES, serve_writer

NAMES = {v: k for k, v in CODES.items()}


def write(name, arr):
    out = struct.pack(">HBB", 0, NAMES[name], arr.ndim)
    out += struct.pack(">" + "I" * arr.ndim, *arr.shape)
    return out + arr.astype(BIG[name]).tobytes()


if __name__ == "__main__":
    serve_writer(write)
