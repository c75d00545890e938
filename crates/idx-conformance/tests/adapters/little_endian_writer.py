"""A writer for the runner's tests (standard library only) that writes the
header big-endian, as the format requires, and the payload in the machine's
little-endian order, as a writer that dumps its native array does.

    little_endian_writer.py < CONTENT_JSON > IDX
"""
import json
import struct
import sys

CODE = {"u8": (0x08, "B"), "i8": (0x09, "b"), "i16": (0x0B, "h"), "i32": (0x0C, "i"), "f32": (0x0D, "I"), "f64": (0x0E, "Q")}


def main():
    doc = json.load(sys.stdin)
    code, fmt = CODE[doc["dtype"]]
    shape = doc["shape"]
    data = [int(v, 16) if isinstance(v, str) else v for v in doc["data"]]
    out = struct.pack(">HBB", 0, code, len(shape)) + struct.pack(">" + "I" * len(shape), *shape)
    out += struct.pack("<" + fmt * len(data), *data)
    sys.stdout.buffer.write(out)


if __name__ == "__main__":
    main()
