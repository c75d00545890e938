#!/usr/bin/env python3
"""Compares the C and C++ examples' output (crates/idx-capi/examples,
run by scripts/test-c.sh) with idx-validate --format json, file by file.

Usage: compare-c.py JSON_DIR OUTPUT...

JSON_DIR holds `<file name>.json`, idx-validate's report of each corpus
file; each OUTPUT is one example's output on all of them, every finding
in the library's one text form (`severity[RULE]: message (at offset 0x..,
byte ..)`, the finding's `text`). For every file: the verdict and the
findings (rule, offset, severity, in order, and the message of each) must
be idx-validate's; the read must succeed exactly when the
verdict is valid, and a refused read must name one of the file's errors
(rule and offset); a read that succeeds must hand over as its warnings
exactly idx-validate's IDX501 findings (the byte-order test's: the same
verdict on every path), and some corpus files must have one (the
little-endian ones), so that the check cannot pass by printing none. Every OUTPUT must also be the first one byte for byte
(the C and C++ examples print the same; a sanitized build prints what the
plain one does)."""

import json
import os
import re
import sys

# the text: severity, rule, message, offset in hex and in decimal
TEXT = r"(error|warning|info)\[(IDX\d+)\]: (.*) \(at offset 0x([0-9a-f]+), byte (\d+)\)"
VERDICT = re.compile(r"^(.*): (valid|invalid)$")
READ = re.compile(r"^(.*): read (u8|i8|i16|i32|f32|f64) \[.*\]$")
REFUSED = re.compile(r"^(.*?): read refused: " + TEXT + "$")
WARNS = re.compile(r"^(.*?): read warns: " + TEXT + "$")
FINDING = re.compile(r"^(.*?): " + TEXT + "$")


def finding(m, line):
    """(rule, offset, severity, message) of a text matched at m[2:]."""
    assert int(m[5], 16) == int(m[6]), line
    return (m[3], int(m[6]), m[2], m[4])


def parse(path):
    files = {}
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        # (the read's lines first: a finding's line would match them too)
        if m := REFUSED.match(line):
            files.setdefault(m[1], {"findings": []})["read"] = finding(m, line)[:3]
        elif m := WARNS.match(line):
            f = files.setdefault(m[1], {"findings": []})
            assert f.get("read") == "ok", f"{path}: warnings of a read that did not succeed: {line!r}"
            f.setdefault("read_warnings", []).append(finding(m, line)[:3])
        elif m := READ.match(line):
            files.setdefault(m[1], {"findings": []})["read"] = "ok"
        elif m := VERDICT.match(line):
            files.setdefault(m[1], {"findings": []})["verdict"] = m[2]
        elif m := FINDING.match(line):
            files.setdefault(m[1], {"findings": []})["findings"].append(finding(m, line))
        else:
            raise SystemExit(f"{path}: unexpected line: {line!r}")
    return files


def main():
    json_dir, outputs = sys.argv[1], sys.argv[2:]
    first = open(outputs[0], "rb").read()
    for other in outputs[1:]:
        if open(other, "rb").read() != first:
            raise SystemExit(f"{other} differs from {outputs[0]}")
    got = parse(outputs[0])
    problems = []
    names = sorted(os.listdir(json_dir))
    warned = 0
    for name in names:
        report = json.load(open(os.path.join(json_dir, name), encoding="utf-8"))["files"][0]
        path = report["path"]
        want = [(f["rule"], f["offset"], f["severity"], f["message"]) for f in report["findings"]]
        assert not report["suppressed"], f"{path}: findings capped"
        g = got.pop(path, None)
        if g is None:
            problems.append(f"{path}: not in the examples' output")
            continue
        if g.get("verdict") != report["verdict"]:
            problems.append(f"{path}: verdict {g.get('verdict')}, idx-validate {report['verdict']}")
        if g["findings"] != want:
            problems.append(f"{path}: findings {g['findings']}, idx-validate {want}")
        errors = [w[:3] for w in want if w[2] == "error"]
        read = g.get("read")
        if report["verdict"] == "valid" and read != "ok":
            problems.append(f"{path}: valid, but the read gave {read}")
        if report["verdict"] == "invalid" and read not in errors:
            problems.append(f"{path}: invalid, but the read gave {read}, not one of {errors}")
        if read == "ok":
            byte_order = [w[:3] for w in want if w[0] == "IDX501"]
            if g.get("read_warnings", []) != byte_order:
                problems.append(f"{path}: the read warned {g.get('read_warnings', [])}, idx-validate {byte_order}")
            warned += bool(byte_order)
    problems += [f"{p}: not checked by idx-validate" for p in got]
    if warned == 0:
        problems.append("no read handed over a byte-order warning (IDX501): the corpus's little-endian files are missing")
    if problems:
        raise SystemExit("\n".join(problems))
    print(
        f"{len(names)} files: {len(outputs)} outputs give idx-validate's verdict and findings, and read as it says"
        f" ({warned} reads warn IDX501 as validation does)"
    )


main()
