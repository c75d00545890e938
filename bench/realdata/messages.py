"""What the warning says on the real controls the byte-order test warns on.

Reads a scores dump of the byte-order benchmark
(`BYTEORDER_DUMP=scores.tsv BYTEORDER_REALDATA=OUT cargo bench -p idx
--bench byteorder`), writes every warned control (a big-endian payload)
as an IDX file, validates them all with `idx-validate --format jsonl`, and
counts IDX501's wording: "from the sizes of its values alone" (the values
scored differ in one byte alone), "strong evidence", "weak evidence", an
element-width mismatch. Spec 6.1.2 gives the counts.

Usage: python messages.py SCORES.tsv OUT IDX_VALIDATE
(OUT: the generated real data; IDX_VALIDATE: the binary, e.g.
target/release/idx-validate.) Needs numpy (bench/out/venv has it).
"""

import collections
import csv
import json
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

CODES = {"i16": (0x0B, ">i2"), "i32": (0x0C, ">i4"), "f32": (0x0D, ">f4"), "f64": (0x0E, ">f8")}
WORDING = (
    ("sizes of its values alone", "sizes of its values alone"),
    ("element-width mismatch", "element-width mismatch"),
    ("strong evidence", "strong evidence"),
    ("weak evidence", "weak evidence"),
)


def main(scores: str, out: str, idx_validate: str) -> int:
    warned = [r for r in csv.DictReader(open(scores), delimiter="\t") if r["control_verdict"] != "None"]
    with tempfile.TemporaryDirectory() as tmp:
        arrays = {}
        for n, r in enumerate(warned):
            code, dt = CODES[r["dtype"]]
            key = (r["file"], dt)
            if key not in arrays:
                arrays = {key: np.fromfile(Path(out) / r["file"], dtype=dt)}
            start, count = int(r["offset"]), int(r["count"])
            p = arrays[key][start : start + count]
            head = bytes([0, 0, code, 1]) + struct.pack(">I", len(p))
            (Path(tmp) / f"{n:05d}.idx").write_bytes(head + p.astype(dt).tobytes())
        run = subprocess.run(
            [idx_validate, "--isolated", "--format", "jsonl", "--max-findings", "0", tmp],
            capture_output=True,
            text=True,
        )
    said = collections.Counter()
    for line in run.stdout.splitlines():
        f = json.loads(line)
        if f.get("rule") == "IDX501":
            said[next((name for key, name in WORDING if key in f["message"]), "other")] += 1
    print(f"{len(warned)} warned controls; IDX501 on {sum(said.values())}:")
    for name, n in said.most_common():
        print(f"  {name}: {n}")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
