"""The binding adds no logic of its own: rule selection, every source and
the decompression limit behave exactly as in the `idx-validate` command
(run here on the same files) and the library."""

import json
import math
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

import idxkit
from conftest import CORPUS

BIN = Path(sys.executable).parent
CLI = str(BIN / "idx-validate")
# findings of several families: IDX202 (error), IDX5xx/IDX3xx warnings
MIXED = CORPUS / "invalid" / "invalid-truncated-payload.idx"


def cli_rules(path, *args):
    """The rules `idx-validate` reports for `path`, or its error message."""
    p = subprocess.run(
        [CLI, "--isolated", "--format", "json", "--max-findings", "0", *args, str(path)],
        capture_output=True,
        text=True,
    )
    if p.returncode == 2:
        return None, p.stderr
    files = json.loads(p.stdout)["files"]
    return [(f["rule"], f["offset"]) for f in files[0]["findings"]], p.stderr


def py_rules(source, **kw):
    try:
        r = idxkit.validate(source, **kw)
    except ValueError as e:
        return None, str(e)
    return [(f.rule, f.offset) for f in r.findings], ""


def a_file_with_many_findings(tmp_path):
    """An i16 file whose payload looks little-endian (an IDX5 lint), with
    trailing bytes (IDX203), under an MNIST-style name."""
    payload = b"".join(int(v).to_bytes(2, "little") for v in range(1, 200))
    data = b"\x00\x00\x0b\x01" + (199).to_bytes(4, "big") + payload + b"xyz"
    p = tmp_path / "t10k-images-idx1-float"
    p.write_bytes(data)
    return p


ENTRIES = [
    "IDX2", "idx2", "IDX", "idx", "IDX20", "IDX203", "idx203", "trailing-bytes",
    "TRAILING-BYTES", "Trailing-Bytes", "IDX5", "IDX501", "IDX9", "IDX999", "ID",
    "nonsense", "", "IDX2,IDX5", "203",
]


@pytest.mark.parametrize("entry", ENTRIES)
def test_select_and_ignore_accept_and_match_what_the_command_does(entry, tmp_path):
    path = a_file_with_many_findings(tmp_path)
    everything, _ = cli_rules(path)
    assert len({r for r, _ in everything}) >= 2, everything
    for option in ("select", "ignore"):
        want, err = cli_rules(path, f"--{option}={entry}")
        entries = entry.split(",")
        got, msg = py_rules(path, **{option: entries})
        assert got == want, (option, entry, msg, err)
        if want is None:
            # the same message as the command's
            assert msg and msg in err, (msg, err)
        # the same from memory (the command's standard-input path)
        got_bytes, _ = py_rules(path.read_bytes(), **{option: entries})
        want_stdin = subprocess.run(
            [CLI, "--isolated", "--format", "json", "--max-findings", "0", f"--{option}={entry}", "-"],
            input=path.read_bytes(),
            capture_output=True,
        )
        if want is None:
            assert got_bytes is None and want_stdin.returncode == 2
        else:
            stdin_rules = [(f["rule"], f["offset"]) for f in json.loads(want_stdin.stdout)["files"][0]["findings"]]
            assert got_bytes == stdin_rules


def bomb(n, chunk=1 << 20):
    """A gzip file of an u8 [n] IDX file of zeros, compressed in pieces (no
    n-byte buffer here)."""
    c = zlib.compressobj(9, zlib.DEFLATED, 31)
    parts = [c.compress(b"\x00\x00\x08\x01" + n.to_bytes(4, "big"))]
    zeros = bytes(chunk)
    left = n
    while left:
        k = min(left, chunk)
        parts.append(c.compress(zeros[:k]))
        left -= k
    parts.append(c.flush())
    return b"".join(parts)


def test_a_gzip_bomb_raises_at_the_limit_in_load_validate_and_fix(tmp_path):
    data = bomb(64 << 20)
    assert len(data) < 200_000
    path = tmp_path / "bomb.idx.gz"
    path.write_bytes(data)
    for source in (path, data):
        with pytest.raises(idxkit.InvalidFileError) as info:
            idxkit.load(source, max_decompressed=1 << 20)
        f = info.value.findings[0]
        assert (f.rule, f.offset) == ("IDX702", 1 << 20)
        # sizes as the command writes them
        with pytest.raises(idxkit.InvalidFileError):
            idxkit.load(source, max_decompressed="1MiB")
        r = idxkit.validate(source, max_decompressed="1MiB")
        assert [(f.rule, f.offset) for f in r.findings] == [("IDX702", 1 << 20)]
        assert [(f.rule, f.offset) for f in r.findings] == cli_rules(path, "--max-decompressed=1MiB")[0]
        # within the limit, and with no limit (0), it loads
        assert idxkit.load(source, max_decompressed=(64 << 20) + 8).shape == (64 << 20,)
        assert idxkit.load(source, max_decompressed=0).shape == (64 << 20,)
        assert idxkit.validate(source, max_decompressed=0).ok
    # fix: the limit stops the repair (as --fix --max-decompressed does),
    # nothing is written and the input is untouched
    with pytest.raises(OSError, match="IDX702"):
        idxkit.fix(path, tmp_path / "out.idx", max_decompressed=1 << 20)
    assert not (tmp_path / "out.idx").exists() and path.read_bytes() == data
    assert idxkit.fix(path, tmp_path / "out.idx", max_decompressed=0).after == []
    with pytest.raises(ValueError, match="max_decompressed"):
        idxkit.load(path, max_decompressed="12 parsecs")


# VmHWM (peak resident memory of this process image; getrusage's maxrss
# survives exec and would count the forking pytest)
BOMB_RSS = """
import re, sys, idxkit
data = open(sys.argv[1], "rb").read()
try:
    idxkit.load(data if sys.argv[2] == "bytes" else sys.argv[1], max_decompressed=8 << 20)
except idxkit.InvalidFileError as e:
    hwm = re.search(r"VmHWM:\\s+(\\d+) kB", open("/proc/self/status").read()).group(1)
    print(e.findings[0].rule, hwm)
"""


@pytest.mark.parametrize("kind", ["path", "bytes"])
def test_a_gzip_bomb_costs_the_limit_not_its_expansion(kind, tmp_path):
    # 512 MiB of zeros in about 500 KB: loading it with an 8 MiB limit stays
    # far below the expansion (a fresh interpreter, peak resident memory)
    path = tmp_path / "bomb.idx.gz"
    path.write_bytes(bomb(512 << 20))
    out = subprocess.run(
        [sys.executable, "-c", BOMB_RSS, str(path), kind], capture_output=True, text=True, check=True
    ).stdout.split()
    assert out[0] == "IDX702"
    assert int(out[1]) < 200 * 1024, f"peak RSS {out[1]} KiB"


def test_the_byte_order_warning_and_severity_are_the_commands(tmp_path):
    """One verdict per file: load's ByteOrderWarning carries the message of
    the command's JSON finding (the score rounded the same way, and
    Finding.byte_order the JSON's numbers), and
    severity= is --severity: IDX501 an error, the run failed."""
    import warnings

    import numpy as np

    path = tmp_path / "writer.idx"
    path.write_bytes(b"\x00\x00\x0d\x01" + (24).to_bytes(4, "big") + np.arange(24, dtype="<f4").tobytes())
    for args, severity in (((), None), (("--severity", "IDX501=error"), {"IDX501": "error"})):
        p = subprocess.run(
            [CLI, "--isolated", "--format", "json", "--max-findings", "0", *args, str(path)],
            capture_output=True,
            text=True,
        )
        cli = json.loads(p.stdout)["files"][0]["findings"]
        r = idxkit.validate(path, severity=severity)
        assert [(f.rule, f.severity, f.message) for f in r.findings] == [
            (f["rule"], f["severity"], f["message"]) for f in cli
        ]
        assert r.ok == (p.returncode == 0), (args, p.returncode)
        assert "score" in cli[0]["message"]
        # the score's numbers are the JSON's, as the message shows them
        assert [f.byte_order for f in r.findings] == [f.get("byte_order") for f in cli]
        assert f"score {cli[0]['byte_order']['score_bits']} bits" in cli[0]["message"]
        if severity is None:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                idxkit.load(path)
            assert [str(w.message) for w in caught] == [f"warning[IDX501]: {cli[0]['message']} (at offset 0x8, byte 8)"]
        else:
            with pytest.raises(idxkit.InvalidFileError, match="IDX501"):
                idxkit.load(path, severity=severity)
    # an override the command refuses, refused with its message
    p = subprocess.run([CLI, "--isolated", "--severity", "IDX203=warning", str(path)], capture_output=True, text=True)
    assert p.returncode == 2
    with pytest.raises(ValueError) as e:
        idxkit.validate(path, severity="IDX203=warning")
    assert str(e.value).removeprefix("severity: ") in p.stderr


@pytest.mark.parametrize(
    "kw, flag, value",
    [
        # a pair, a string and a mapping: each checked by the command's own
        # parser, so refused with the command's sentence
        ("expect_range", "--expect-range", (5, 1)),
        ("expect_range", "--expect-range", "5..1"),
        ("expect_range", "--expect-range", "a..b"),
        ("severity", "--severity", {"IDX999": "error"}),
        ("severity", "--severity", {"IDX501": "fatal"}),
        ("severity", "--severity", {"IDX203": "warning"}),
        ("severity", "--severity", "IDX501"),
        ("max_decompressed", "--max-decompressed", "12 parsecs"),
    ],
)
def test_a_refused_keyword_argument_says_what_the_command_says(kw, flag, value):
    arg = value
    if isinstance(value, tuple):
        arg = f"{value[0]}..{value[1]}"
    elif isinstance(value, dict):
        arg = ",".join(f"{k}={v}" for k, v in value.items())
    _, stderr = cli_rules(MIXED, f"{flag}={arg}")
    with pytest.raises(ValueError) as e:
        idxkit.validate(MIXED, **{kw: value})
    message = str(e.value)
    assert message.startswith(f"{kw}: "), message
    # clap: "error: invalid value '...' for '--flag <NAME>': <the parser's sentence>"
    assert message[len(kw) + 2 :] in stderr, (message, stderr)


def test_the_native_expect_dtype_is_refused_as_the_command_refuses_it():
    # idxkit passes IDX names from numpy dtypes; the native function checks
    # the name with the command's parser
    _, stderr = cli_rules(MIXED, "--expect-dtype=u16")
    with pytest.raises(ValueError) as e:
        idxkit._native.validate(str(MIXED), expect_dtype="u16")
    assert str(e.value).startswith("expect_dtype: ")
    assert str(e.value)[len("expect_dtype: ") :] in stderr, (str(e.value), stderr)


def test_str_of_a_finding_is_the_line_the_idx_command_prints():
    # one text form per finding: the library's Display, which the `idx`
    # command prints after the input's name (then its detail lines)
    p = subprocess.run([str(BIN / "idx"), "dump", str(MIXED)], capture_output=True, text=True)
    assert p.returncode == 1
    printed = [line[len(f"{MIXED}: ") :] for line in p.stderr.splitlines() if line.startswith(f"{MIXED}: ")]
    errors = idxkit.validate(MIXED).errors
    assert printed and printed == [str(f) for f in errors]
    assert str(errors[0]) == f"error[{errors[0].rule}]: {errors[0].message} (at offset {errors[0].offset:#x}, byte {errors[0].offset})"


def test_fix_with_a_stated_byte_order_reports_what_the_command_reports(tmp_path):
    """A big-endian payload stated little-endian: the swap is declined in
    both, and the warning that the statement contradicts the payload
    remains in both (it was missing from idxkit's ``after``)."""
    values = [round(3000 * math.sin(i / 50)) for i in range(4000)]
    data = b"\x00\x00\x0b\x01" + (4000).to_bytes(4, "big") + b"".join(v.to_bytes(2, "big", signed=True) for v in values)
    path = tmp_path / "be.idx"
    path.write_bytes(data)
    out = tmp_path / "out.idx"
    p = subprocess.run(
        [CLI, "--isolated", "--fix", "--assume-byte-order", "little", "--output", str(out), str(path)],
        capture_output=True,
        text=True,
    )
    assert p.returncode == 0, p.stderr
    r = idxkit.fix(data, assume_byte_order="little")
    assert r.applied == [] and r.data == out.read_bytes() == data
    remaining = cli_rules(out, "--assume-byte-order", "little")[0]
    assert remaining == [("IDX501", 8)]
    assert [(f.rule, f.offset) for f in r.after] == remaining
