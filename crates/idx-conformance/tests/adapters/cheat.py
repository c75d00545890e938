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
        index_above=BOOL"
"""
import json
import os
import sys


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
    seen = "name=%s beside=%s index_above=%s" % (os.path.basename(path), beside, index_above(path) is not None)
    return {"error": {"message": seen}}


def main():
    how = {"manifest": manifest, "look": look}[sys.argv[1]]
    if sys.argv[2] == "--persistent":
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
