"""A plain numpy IDX writer: struct for the header, tobytes() of the
big-endian array for the payload."""
import struct
import sys

from _protocol import BIG, CODES, crash, read_content, reject

NAMES = {v: k for k, v in CODES.items()}

if __name__ == "__main__":
    try:
        name, arr = read_content()
        out = struct.pack(">HBB", 0, NAMES[name], arr.ndim)
        out += struct.pack(">" + "I" * arr.ndim, *arr.shape)
        out += arr.astype(BIG[name]).tobytes()
    except MemoryError as e:
        crash(e)
    except Exception as e:
        reject(e)
    sys.stdout.buffer.write(out)
