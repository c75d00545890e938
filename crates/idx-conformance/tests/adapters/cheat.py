"""A reader that never parses IDX, for the runner's tests (standard library
only): it answers from what the path says, as a reader under test must not
be able to.

    cheat.py manifest FILE | --persistent
        the manifest <id>.json beside FILE, or index.json in a folder above
        it (its case's manifest); failing those, the file name (a name
        starting "invalid-" is rejected); failing that too, the bytes as u8
        of rank 1
    cheat.py look FILE | --persistent
        rejects every file with what it sees: "name=NAME beside=[...]
        index_above=BOOL mode=OCTAL"

and the cheating adapters the runner must defeat, each answering from the committed corpus's
manifests (valid: the content; invalid: a rejection) when it finds its
case, and failing that accepting the bytes as u8 of rank 1, as a reader
that accepts everything does:

    cheat.py count FILE | --persistent
        the case from how many inputs it was given before (the preflight
        case first, then the corpus in its index's order; one-shot, the
        count kept in $TMPDIR/cheat-count)
    cheat.py copy FILE | --persistent
        the case whose file has the same bytes in a corpus copy of the
        runner's: $TMPDIR/idx-corpus-*/, or the --corpus folder of its
        parent's command line, or the parent's working directory's corpus/
    cheat.py memorise FILE | --persistent
        the case whose SHA-256 the committed corpus/index.json gives
    cheat.py size FILE | --persistent
        the case whose committed file (listed in corpus/index.json) has the
        input's size, the first of them in the index's order: the size
        alone tells most invalid cases apart
    cheat.py accept FILE | --persistent
        none: the bytes as u8 of rank 1, what the others fall back to (the
        score they must not beat)
"""
import glob
import hashlib
import json
import os
import sys
import tempfile

CORPUS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "..", "corpus")


def stem(path):
    name = os.path.basename(path)
    for ext in (".gz", ".idx"):
        if name.endswith(ext):
            name = name[: -len(ext)]
    return name


def index_above(path):
    """The corpus root holding an index.json above PATH, or None."""
    d = os.path.dirname(os.path.abspath(path))
    for _ in range(3):
        if os.path.isfile(os.path.join(d, "index.json")):
            return d
        d = os.path.dirname(d)
    return None


def from_manifest(m):
    if m["verdict"] == "invalid" or "content" not in m or "data" not in m["content"]:
        return {"error": {"message": "the manifest says " + m["verdict"]}}
    c = m["content"]
    return {"dtype": c["dtype"], "shape": c["shape"], "data": c["data"]}


def manifest(path):
    beside = os.path.join(os.path.dirname(path), stem(path) + ".json")
    if os.path.isfile(beside):
        with open(beside) as f:
            return from_manifest(json.load(f))
    root = index_above(path)
    if root:
        with open(os.path.join(root, "index.json")) as f:
            index = json.load(f)
        rel = os.path.relpath(os.path.abspath(path), root)
        for c in index["cases"]:
            if c["path"] == rel:
                with open(os.path.join(root, c["manifest"])) as f:
                    return from_manifest(json.load(f))
    if os.path.basename(path).startswith("invalid-"):
        return {"error": {"message": "the name says invalid"}}
    with open(path, "rb") as f:
        raw = f.read()
    return {"dtype": "u8", "shape": [len(raw)], "data": list(raw)}


def look(path):
    d = os.path.dirname(os.path.abspath(path))
    beside = sorted(n for n in os.listdir(d) if n != os.path.basename(path))
    seen = "name=%s beside=%s index_above=%s mode=%o" % (
        os.path.basename(path), beside, index_above(path) is not None, os.stat(d).st_mode & 0o777)
    return {"error": {"message": seen}}


def index():
    with open(os.path.join(CORPUS, "index.json")) as f:
        return json.load(f)["cases"]


def from_case(c, root=CORPUS):
    with open(os.path.join(root, c["manifest"])) as f:
        return from_manifest(json.load(f))


def accept(path):
    with open(path, "rb") as f:
        raw = f.read()
    return {"dtype": "u8", "shape": [len(raw)], "data": list(raw)}


COUNT = [0]


def count(path):
    if PERSISTENT[0]:
        n = COUNT[0]
        COUNT[0] += 1
    else:
        state = os.path.join(tempfile.gettempdir(), "cheat-count")
        n = int(open(state).read()) if os.path.exists(state) else 0
        with open(state, "w") as f:
            f.write(str(n + 1))
    order = []
    for c in index():
        with open(os.path.join(CORPUS, c["manifest"])) as f:
            if "options" in json.load(f):
                continue
        if c["id"] == "valid-u8-rank1":
            order.insert(0, c)
        else:
            order.append(c)
    return from_case(order[n]) if n < len(order) else accept(path)


def roots():
    """Corpus copies a runner may have left where its adapter can look."""
    found = glob.glob(os.path.join(tempfile.gettempdir(), "idx-corpus-*"))
    ppid = os.getppid()
    try:
        with open("/proc/%d/cmdline" % ppid, "rb") as f:
            args = f.read().decode().split("\0")
        cwd = os.readlink("/proc/%d/cwd" % ppid)
        if "--corpus" in args:
            found.append(os.path.join(cwd, args[args.index("--corpus") + 1]))
        found.append(os.path.join(cwd, "corpus"))
    except (OSError, IndexError):
        pass
    return found


def copy(path):
    with open(path, "rb") as f:
        raw = f.read()
    for root in roots():
        for verdict in ("valid", "invalid", "implementation-defined"):
            for other in glob.glob(os.path.join(root, verdict, "*")):
                if other.endswith(".json"):
                    continue
                with open(other, "rb") as f:
                    if f.read() != raw:
                        continue
                beside = os.path.join(os.path.dirname(other), stem(other) + ".json")
                if os.path.isfile(beside):
                    with open(beside) as f:
                        return from_manifest(json.load(f))
                if verdict == "invalid":
                    return {"error": {"message": "the folder says invalid"}}
    return accept(path)


def memorise(path):
    with open(path, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    for c in index():
        if c["sha256"] == digest:
            return from_case(c)
    return accept(path)


def size(path):
    n = os.path.getsize(path)
    for c in index():
        if os.path.getsize(os.path.join(CORPUS, c["path"])) == n:
            return from_case(c)
    return accept(path)


PERSISTENT = [False]


def main():
    how = {"manifest": manifest, "look": look, "count": count, "copy": copy, "memorise": memorise,
           "size": size, "accept": accept}[sys.argv[1]]
    if sys.argv[2] == "--persistent":
        PERSISTENT[0] = True
        print(json.dumps({"protocol": 3}), flush=True)
        for line in sys.stdin:
            req = json.loads(line)
            print(json.dumps(dict(how(req["file"]), id=req["id"])), flush=True)
        return
    doc = how(sys.argv[2])
    print(json.dumps(doc))
    sys.exit(1 if "error" in doc else 0)


if __name__ == "__main__":
    main()
