"""A synthetic reader for the differential tests (standard library only):
strict, except that it ignores bytes after the declared payload, as many
real readers do.

    lenient.py FILE            one-shot
    lenient.py --persistent    persistent (protocol 3)
"""
import json
import struct
import sys

FMT = {0x08: "B", 0x09: "b", 0x0B: "h", 0x0C: "i", 0x0D: "I", 0x0E: "Q"}
NAME = {0x08: "u8", 0x09: "i8", 0x0B: "i16", 0x0C: "i32", 0x0D: "f32", 0x0E: "f64"}


class Reject(Exception):
    pass


def read(path):
    data = open(path, "rb").read()
    if len(data) < 4 or data[0] or data[1] or data[2] not in FMT:
        raise Reject("bad magic")
    code, rank = data[2], data[3]
    if len(data) < 4 + 4 * rank:
        raise Reject("truncated dimensions")
    shape = list(struct.unpack(">" + "I" * rank, data[4 : 4 + 4 * rank]))
    n = 1
    for d in shape:
        n *= d
    end = 4 + 4 * rank + n * struct.calcsize(FMT[code])
    if len(data) < end:
        raise Reject("truncated payload")
    vals = struct.unpack(">" + FMT[code] * n, data[4 + 4 * rank : end])  # trailing bytes ignored
    if code == 0x0D:
        vals = ["0x%08x" % v for v in vals]
    elif code == 0x0E:
        vals = ["0x%016x" % v for v in vals]
    return {"dtype": NAME[code], "shape": shape, "data": list(vals)}


def answer(path):
    try:
        return read(path), 0
    except Reject as e:
        return {"error": {"message": str(e)}}, 1


if __name__ == "__main__":
    if sys.argv[1] == "--persistent":
        print(json.dumps({"protocol": 3}), flush=True)
        for line in sys.stdin:
            req = json.loads(line)
            doc, _ = answer(req["file"])
            print(json.dumps(dict(doc, id=req["id"])), flush=True)
    else:
        doc, code = answer(sys.argv[1])
        print(json.dumps(doc))
        sys.exit(code)
