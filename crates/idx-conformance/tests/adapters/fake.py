"""A synthetic adapter for the runner's tests (standard library only).

    fake.py BEHAVIOUR FILE             one-shot
    fake.py BEHAVIOUR --persistent     persistent (protocol 3; it says
                                       protocol 2 when BEHAVIOUR starts
                                       with "v2:", which the runner refuses)

It reads IDX correctly (a strict little reader below) and then misbehaves as
BEHAVIOUR says (BEHAVIOUR@CASE: on that case only), except on valid-u8-rank1,
the runner's preflight case, which it answers correctly unless BEHAVIOUR is
"broken" or names that case (BEHAVIOUR@valid-u8-rank1).

The runner names every input input.idx (input.idx.gz) in a folder of its
own, so the fake knows which case it reads by the file's SHA-256 in the
committed corpus/index.json: a test fixture may look the answer up, a
reader under test cannot (tests/adapters/cheat.py tries).
"""
import hashlib
import json
import os
import signal
import struct
import subprocess
import sys
import time

FMT = {0x08: "B", 0x09: "b", 0x0B: "h", 0x0C: "i", 0x0D: "I", 0x0E: "Q"}
NAME = {0x08: "u8", 0x09: "i8", 0x0B: "i16", 0x0C: "i32", 0x0D: "f32", 0x0E: "f64"}


class Reject(Exception):
    pass


def read(path, endian=">", ignore_trailing=False):
    """The file's answer; with `ignore_trailing` (lenient.py), bytes after
    the declared payload are ignored instead of refused."""
    return read_data(open(path, "rb").read(), endian, ignore_trailing)


def read_data(data, endian=">", ignore_trailing=False):
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
    if ignore_trailing and len(data) < end:
        raise Reject("truncated payload")
    if not ignore_trailing and len(data) != end:
        raise Reject("size mismatch")
    vals = struct.unpack(endian + FMT[code] * n, data[4 + 4 * rank : end])
    if code == 0x0D:
        vals = ["0x%08x" % v for v in vals]
    elif code == 0x0E:
        vals = ["0x%016x" % v for v in vals]
    else:
        vals = list(vals)
    return {"dtype": NAME[code], "shape": shape, "data": vals}


INDEX = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "..", "corpus", "index.json")
IDS = None


def case_id(path):
    """The corpus case whose file has these bytes ("" for none)."""
    global IDS
    if IDS is None:
        with open(INDEX) as f:
            IDS = {c["sha256"]: c["id"] for c in json.load(f)["cases"]}
    with open(path, "rb") as f:
        return IDS.get(hashlib.sha256(f.read()).hexdigest(), "")


def applies(behaviour, path):
    """Whether BEHAVIOUR[@CASE] misbehaves on this file."""
    cid = case_id(path)
    if cid == "valid-u8-rank1" and behaviour != "broken" and not behaviour.endswith("@valid-u8-rank1"):
        return False
    if "@" in behaviour:  # BEHAVIOUR@CASE: misbehave on that case only
        return cid == behaviour.split("@")[1]
    return True


def answer(behaviour, path, persistent):
    """The answer document, after misbehaving as asked."""
    if not applies(behaviour, path):
        return read(path)
    behaviour = behaviour.split("@")[0]
    if behaviour in ("broken", "traceback"):
        raise ValueError("this reader has a bug")  # uncaught
    if behaviour == "reject":
        raise Reject("this reader rejects it")
    if behaviour == "reject-naming-it":
        raise Reject("cannot read %s (in %s)" % (path, os.path.dirname(path)))
    if behaviour == "reject-once":
        # rejects a file the first time it sees it, reads it after that
        marker = path + ".seen"
        if not os.path.exists(marker):
            open(marker, "w").close()
            raise Reject("this reader rejects it the first time")
    if behaviour == "garbage":
        return "not the content encoding"
    if behaviour in ("trailing-even", "trailing-odd"):
        # ignores the bytes after the payload when the payload's first byte
        # is even (odd) (a stand-in for any reader whose result depends on
        # the values): how it does depends on the variant; the committed
        # invalid-trailing-byte's is 42, so trailing-even fails its
        # committed bytes and trailing-odd passes them
        data = open(path, "rb").read()
        try:
            return read_data(data)
        except Reject:
            if len(data) < 4 or data[2] not in FMT:
                raise
            rank = data[3]
            shape = struct.unpack(">" + "I" * rank, data[4 : 4 + 4 * rank])
            n = struct.calcsize(FMT[data[2]])
            for d in shape:
                n *= d
            extra = len(data) - 4 - 4 * rank - n
            odd = behaviour == "trailing-odd"
            if extra > 0 and data[4 + 4 * rank] % 2 == odd:
                return read_data(data[: len(data) - extra])
            raise
    if behaviour == "sleep-background":
        # A child that keeps our stdout and stderr open after we exit.
        subprocess.Popen(["sleep", "30"])
        return read(path)
    if behaviour == "segv":
        os.kill(os.getpid(), signal.SIGSEGV)
    if behaviour == "memory":
        bytearray(8 << 30)
    if behaviour == "panic":
        sys.stderr.write("thread 'main' panicked at src/main.rs:7:5:\nindex out of bounds\n")
        sys.stderr.write("".join("  %d: frame\n" % i for i in range(40)))
        sys.stderr.write("note: run with `RUST_BACKTRACE=1` for a backtrace\n")
        sys.stderr.flush()
        os._exit(101)
    if behaviour == "hang":
        # never answers: only the runner's deadline ends it
        time.sleep(3600)
    if behaviour == "die-child":
        # Dies with a traceback while a child of it holds our stdout and
        # stderr for 30 s: stdout stays open after the adapter is gone.
        subprocess.Popen(["sleep", "30"])
        raise ValueError("this reader died")  # uncaught
    if behaviour == "hang-child":
        # A child that holds our stdout and stderr while we wait for it:
        # killing only this process leaves the pipes open for an hour.
        subprocess.run(["sleep", "3600"])
    if behaviour == "slow-once":
        # No answer the first time it sees this file (the runner's deadline
        # ends it, as a loaded machine might), quick when run again: which
        # try answers is decided by counting, not by the clock.
        marker = path + ".seen"
        if not os.path.exists(marker):
            open(marker, "w").close()
            time.sleep(3600)
    if behaviour == "hard-28x28":
        # reads u8 images as n x 28 x 28 whatever the header's row and
        # column counts say (n from the byte count), as a loader seen in use
        c = read(path)
        if c["dtype"] == "u8" and len(c["shape"]) == 3 and len(c["data"]) % 784 == 0:
            c["shape"] = [len(c["data"]) // 784, 28, 28]
        return c
    if behaviour == "little-endian":
        return read(path, "<")
    if behaviour == "accept-all":
        try:
            return read(path)
        except Reject:
            raw = open(path, "rb").read()
            return {"dtype": "u8", "shape": [len(raw)], "data": list(raw)}
    if behaviour == "off-by-one":
        c = read(path)
        if c["data"]:
            i = min(3, len(c["data"]) - 1)
            v = c["data"][i]
            c["data"][i] = ("0x%0*x" % (len(v) - 2, int(v, 16) ^ 1)) if isinstance(v, str) else (v ^ 1)
        return c
    if behaviour == "exit1-silent":
        os._exit(1)
    if behaviour == "error-without-message":
        return {"error": {}}
    return read(path)


def one_shot(behaviour, path):
    try:
        doc = answer(behaviour, path, False)
    except Reject as e:
        print(json.dumps({"error": {"message": str(e)}}))
        sys.exit(1)
    if isinstance(doc, str):
        print(doc)
    else:
        print(json.dumps(doc))
        if "error" in doc:
            sys.exit(1)


def persistent(behaviour):
    protocol = 3
    if behaviour.startswith("v2:"):
        protocol, behaviour = 2, behaviour[3:]
    if behaviour == "slow-start":
        time.sleep(2.4)
    if behaviour == "die-at-start":
        # exits at once, while a child of it holds stdout for 30 s
        subprocess.Popen(["sleep", "30"])
        raise ValueError("this adapter cannot start")  # uncaught
    if behaviour == "never-ready":
        time.sleep(30)
    print(json.dumps({"protocol": protocol}), flush=True)
    previous = None
    for line in sys.stdin:
        req = json.loads(line)
        path = req["file"]
        try:
            doc = answer(behaviour, path, True)
        except Reject as e:
            doc = {"error": {"message": str(e)}}
        if isinstance(doc, dict) and protocol >= 3 and not behaviour.startswith("no-id"):
            doc = dict(doc, id=req["id"])
        out = (doc if isinstance(doc, str) else json.dumps(doc)) + "\n"
        kind = behaviour.split("@")[0]
        if kind == "double" and applies(behaviour, path):
            # every answer twice, in one write
            out = out + out
        elif kind == "lag":
            # each request answered with the previous request's answer
            # (the first with its own): one line behind from the second on
            out, previous = previous or out, out
        elif kind == "lag-stamped" and isinstance(doc, dict):
            # the same, with this request's id stamped on the previous
            # answer: in step by the ids, one behind by the content
            answered = dict(previous or doc, id=req["id"])
            out, previous = json.dumps(answered) + "\n", {k: v for k, v in doc.items() if k != "id"}
        sys.stdout.write(out)
        sys.stdout.flush()


if __name__ == "__main__":
    if sys.argv[2] == "--persistent":
        persistent(sys.argv[1])
    else:
        if sys.argv[1] == "slow-start":
            time.sleep(2.4)
        one_shot(sys.argv[1], sys.argv[2])
