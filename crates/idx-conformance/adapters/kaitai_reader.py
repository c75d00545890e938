"""The parser generated from spec/idx.ksy by the Kaitai Struct compiler
(kaitai/idx.py, regenerated and checked by CI), run with the kaitaistruct
Python runtime. A file is rejected when the generated parser raises (a
`valid` constraint, or the end of the stream inside the declared data).

The content is built straight from the parsed fields (no numpy), so that
the row measures the schema and the runtime, not numpy's limits."""
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "kaitai"))

import _protocol  # noqa: E402
from idx import Idx  # noqa: E402  (generated)

NAMES = {8: "u8", 9: "i8", 11: "i16", 12: "i32", 13: "f32", 14: "f64"}


def read(path):
    with open(path, "rb") as f:
        parsed = Idx.from_io(f)
    name = NAMES[int(parsed.element_type)]
    if name == "f32":
        data = ["0x" + struct.pack(">f", x).hex() for x in parsed.data]
    elif name == "f64":
        data = ["0x" + struct.pack(">d", x).hex() for x in parsed.data]
    else:
        data = list(parsed.data)
    return {"dtype": name, "shape": list(parsed.dims), "data": data}


if __name__ == "__main__":
    # read() already returns the content encoding.
    _protocol.content = lambda doc: doc
    _protocol.serve_reader(read)
