"""Shared helpers for the Python adapters: protocol 3 of the conformance
runner (corpus/README.md), one-shot and persistent.

Readers print {"dtype", "shape", "data"} with integers as numbers and floats
as bit-pattern strings ("0x7fc00001"); writers read the same on stdin.
A rejection is an error document, {"error": {"message": "..."}}, on stdout
with exit status 1 (one-shot) or as the answer line (persistent). Anything
else is a crash: MemoryError exits 3 with the reason on stderr.

Persistent mode (`--persistent`): print {"protocol": 3} once ready, then
read one JSON request per line on stdin ({"id": N, "file": PATH} for
readers, {"id": N, "content": {...}} for writers) and answer one line each,
with the request's "id": the content or {"idx": HEX} (writers), or the
error document.
"""
import json
import sys

import numpy as np

PROTOCOL = 3
CODES = {0x08: "u8", 0x09: "i8", 0x0B: "i16", 0x0C: "i32", 0x0D: "f32", 0x0E: "f64"}
BIG = {"u8": ">u1", "i8": ">i1", "i16": ">i2", "i32": ">i4", "f32": ">f4", "f64": ">f8"}
BITS = {"f32": ">u4", "f64": ">u8"}


def dtype_name(arr):
    kind = {("u", 1): "u8", ("i", 1): "i8", ("i", 2): "i16", ("i", 4): "i32", ("f", 4): "f32", ("f", 8): "f64"}
    try:
        return kind[(arr.dtype.kind, arr.dtype.itemsize)]
    except KeyError:
        raise TypeError("the reader returned dtype %s, which IDX cannot hold" % arr.dtype)


def content(arr):
    """The content encoding of a numpy array, as a dict."""
    name = dtype_name(arr)
    flat = arr.reshape(-1)
    if name in BITS:
        digits = 8 if name == "f32" else 16
        bits = flat.astype(BIG[name]).view(BITS[name])
        data = ["0x%0*x" % (digits, int(b)) for b in bits]
    else:
        data = [int(x) for x in flat]
    return {"dtype": name, "shape": [int(d) for d in arr.shape], "data": data}


def parse_content(c):
    """(dtype name, big-endian numpy array) from the content encoding."""
    name = c["dtype"]
    if name in BITS:
        bits = np.array([int(x, 16) for x in c["data"]], dtype=BITS[name])
        arr = bits.view(BIG[name])
    else:
        arr = np.array(c["data"], dtype=BIG[name])
    return name, arr.reshape(c["shape"])


def error_document(e):
    return {"error": {"message": "%s: %s" % (type(e).__name__, e)}}


def _answer(doc):
    sys.stdout.write(json.dumps(doc) + "\n")
    sys.stdout.flush()


def _crash(e):
    sys.stderr.write("crash: %s: %s\n" % (type(e).__name__, e))
    sys.stderr.flush()
    sys.exit(3)


def _persistent(handle):
    _answer({"protocol": PROTOCOL})
    for line in sys.stdin:
        req = json.loads(line)
        try:
            doc = handle(req)
        except MemoryError as e:
            _crash(e)
        except Exception as e:  # the implementation raised: it rejected the input
            doc = error_document(e)
        _answer(dict(doc, id=req["id"]))


def serve_reader(read):
    """Runs `read(path) -> numpy array` under the protocol."""
    if sys.argv[1:] == ["--persistent"]:
        _persistent(lambda req: content(read(req["file"])))
        return
    try:
        doc = content(read(sys.argv[1]))
    except MemoryError as e:
        _crash(e)
    except Exception as e:
        _answer(error_document(e))
        sys.exit(1)
    _answer(doc)


def serve_writer(write):
    """Runs `write(name, big-endian array) -> bytes` under the protocol."""
    if sys.argv[1:] == ["--persistent"]:
        _persistent(lambda req: {"idx": write(*parse_content(req["content"])).hex()})
        return
    try:
        out = write(*parse_content(json.load(sys.stdin)))
    except MemoryError as e:
        _crash(e)
    except Exception as e:
        _answer(error_document(e))
        sys.exit(1)
    sys.stdout.buffer.write(out)
