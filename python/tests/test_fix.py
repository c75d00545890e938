"""idxkit.fix: the library's repairs (spec "Fixes") from Python, with
idx-validate --fix's atomic file handling."""

import os
import stat

import numpy as np
import pytest

import idxkit
from conftest import CORPUS

TYPE_CODES = {"u1": 0x08, "i1": 0x09, "i2": 0x0B, "i4": 0x0C, "f4": 0x0D, "f8": 0x0E}


def report_writer(path, arr):
    """The IDX technical report's writer: the magic and the dimensions
    big-endian, then the elements in little-endian (x86 native) order."""
    with open(path, "wb") as f:
        f.write(bytes([0, 0, TYPE_CODES[arr.dtype.str[1:]], arr.ndim]))
        for d in arr.shape:
            f.write(d.to_bytes(4, "big"))
        arr.astype("<" + arr.dtype.str[1:]).tofile(f)


def sample(dtype):
    rng = np.random.default_rng(18)
    if dtype.startswith("f"):
        return rng.normal(0.0, 1.0, size=(50, 7, 3)).astype(dtype)
    return rng.integers(-1000, 1000, size=(50, 7, 3)).astype(dtype)


def test_unsafe_fix_of_the_technical_report_writer_is_byte_identical_to_save(tmp_path):
    arr = sample("f4")
    p = tmp_path / "x.idx"
    report_writer(p, arr)
    assert p.read_bytes() != idxkit.save(None, arr)
    safe_only = idxkit.fix(p)
    assert not safe_only.changed and any(f.rule == "IDX501" for f in safe_only.after)
    r = idxkit.fix(p, unsafe=True)
    assert p.read_bytes() == idxkit.save(None, arr)
    assert [(a.rule, a.applicability) for a in r.applied] == [("IDX501", "unsafe")]
    assert r.changed and r.ok and r.after == [] and r.path == str(p.resolve())
    assert "IDX501" in [f.rule for f in r.before]


@pytest.mark.parametrize("dtype", ["i2", "i4", "f4", "f8"])
def test_assume_little_byte_order_is_exact_and_safe(tmp_path, dtype):
    arr = sample(dtype)
    p = tmp_path / "x.idx"
    report_writer(p, arr)
    written = p.read_bytes()
    out = tmp_path / "fixed.idx"
    r = idxkit.fix(p, out, assume_byte_order="little")
    assert out.read_bytes() == idxkit.save(None, arr)
    assert p.read_bytes() == written  # dest given: the input is never touched
    assert [a.applicability for a in r.applied] == ["safe"] and r.after == []
    with pytest.raises(ValueError):
        idxkit.fix(p, out, assume_byte_order="middle")


def test_fixing_a_fixed_file_changes_nothing(tmp_path):
    arr = sample("f4")
    p = tmp_path / "x.idx"
    report_writer(p, arr)
    idxkit.fix(p, unsafe=True)
    fixed = p.read_bytes()
    again = idxkit.fix(p, unsafe=True)
    assert not again.changed and again.applied == [] and again.dropped_bytes == 0
    assert p.read_bytes() == fixed
    data = idxkit.fix(fixed, unsafe=True)
    assert data.applied == [] and data.data == fixed


def test_trailing_bytes_are_dropped_only_when_unsafe(tmp_path):
    canonical = idxkit.save(None, np.arange(24, dtype=np.int16).reshape(4, 6))
    p = tmp_path / "x.idx"
    p.write_bytes(canonical + b"\x01" * 7)
    kept = idxkit.fix(p)
    assert kept.applied == [] and kept.dropped_bytes == 0 and kept.path is None
    assert "IDX203" in [f.rule for f in kept.after]
    assert p.read_bytes() == canonical + b"\x01" * 7
    r = idxkit.fix(p, unsafe=True)
    assert r.dropped_bytes == 7 and [a.rule for a in r.applied] == ["IDX203"]
    assert "7 bytes" in r.applied[0].description
    assert p.read_bytes() == canonical and r.after == []


def test_in_place_repair_keeps_the_mode_bits_and_the_symlink(tmp_path):
    arr = sample("i4")
    target = tmp_path / "x.idx"
    report_writer(target, arr)
    os.chmod(target, 0o640)
    link = tmp_path / "link.idx"
    link.symlink_to(target)
    before = os.stat(target).st_ino
    r = idxkit.fix(link, assume_byte_order="little")
    assert r.changed and r.path == str(target.resolve())
    assert link.is_symlink() and target.read_bytes() == idxkit.save(None, arr)
    assert stat.S_IMODE(os.stat(target).st_mode) == 0o640
    assert os.stat(target).st_ino != before  # replaced by a rename, not rewritten
    assert sorted(os.listdir(tmp_path)) == ["link.idx", "x.idx"]  # no temporary file left


def test_bytes_source_returns_the_repaired_bytes(tmp_path):
    arr = sample("f8")
    p = tmp_path / "x.idx"
    report_writer(p, arr)
    raw = p.read_bytes()
    with open(p, "rb") as f:
        for src in (raw, bytearray(raw), memoryview(raw), f):
            r = idxkit.fix(src, assume_byte_order="little")
            assert r.data == idxkit.save(None, arr) and r.path is None
    assert p.read_bytes() == raw
    with pytest.raises(TypeError):
        idxkit.fix(raw, tmp_path / "out.idx")
    assert isinstance(idxkit.fix(p).data, type(None))


def test_fix_of_a_valid_file_applies_nothing_and_writes_nothing(tmp_path):
    p = tmp_path / "labels.idx"
    p.write_bytes((CORPUS / "valid" / "valid-mnist-labels-u8-10.idx").read_bytes())
    st = os.stat(p)
    r = idxkit.fix(p, unsafe=True, assume_byte_order="little")
    assert not r.changed and r.applied == [] and r.after == [] and r.ok and r.path is None
    after = os.stat(p)
    assert (after.st_ino, after.st_mtime_ns) == (st.st_ino, st.st_mtime_ns)
    assert repr(r).startswith("FixReport(")


# --- gzip input and failure paths, against the command on the same files ---

import gzip  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

CLI = str(Path(sys.executable).parent / "idx-validate")
CANONICAL = idxkit.save(None, np.arange(24, dtype=np.int16).reshape(4, 6))


def cli_fix(path, *args):
    return subprocess.run([CLI, "--isolated", "--fix", *args, str(path)], capture_output=True, text=True)


def gz_with_trailing(path):
    path.write_bytes(gzip.compress(CANONICAL + b"\x01" * 7))
    return path.read_bytes()


def test_gzip_input_repaired_in_place_stays_gzip_as_the_command_does(tmp_path):
    p, q = tmp_path / "x.idx.gz", tmp_path / "q" / "x.idx.gz"
    q.parent.mkdir()
    gz_with_trailing(p)
    gz_with_trailing(q)
    r = idxkit.fix(p, unsafe=True)
    assert [a.rule for a in r.applied] == ["IDX203"] and r.dropped_bytes == 7
    assert r.compressed_output and r.path == str(p) and r.ok
    assert p.read_bytes()[:2] == b"\x1f\x8b" and gzip.decompress(p.read_bytes()) == CANONICAL
    assert cli_fix(q, "--unsafe-fixes").returncode == 0
    assert gzip.decompress(q.read_bytes()) == gzip.decompress(p.read_bytes())


@pytest.mark.parametrize("out, compressed", [("out.idx", False), ("out.idx.gz", True)])
def test_gzip_input_to_a_destination_is_gzip_exactly_when_its_name_ends_in_gz(tmp_path, out, compressed):
    p = tmp_path / "x.idx.gz"
    original = gz_with_trailing(p)
    r = idxkit.fix(p, tmp_path / out, unsafe=True)
    assert r.compressed_output == compressed and r.path == str(tmp_path / out)
    written = (tmp_path / out).read_bytes()
    assert (written[:2] == b"\x1f\x8b") == compressed
    assert (gzip.decompress(written) if compressed else written) == CANONICAL
    assert p.read_bytes() == original  # the input is untouched
    # the command writes the same array
    cli_out = tmp_path / ("cli-" + out)
    assert cli_fix(p, "--unsafe-fixes", "--output", str(cli_out)).returncode == 0
    c = cli_out.read_bytes()
    assert (gzip.decompress(c) if compressed else c) == CANONICAL


def test_gzip_bytes_are_repaired_to_gzip_bytes(tmp_path):
    data = bytearray(gzip.compress(CANONICAL + b"\x01" * 7))
    original = bytes(data)
    r = idxkit.fix(data, unsafe=True)
    assert r.compressed_output and r.data[:2] == b"\x1f\x8b"
    assert gzip.decompress(r.data) == CANONICAL and data == original


def test_an_unwritable_destination_raises_and_leaves_the_input_alone(tmp_path):
    p = tmp_path / "x.idx.gz"
    original = gz_with_trailing(p)
    with pytest.raises(FileNotFoundError, match="x.idx.gz was left unchanged") as info:
        idxkit.fix(p, tmp_path / "missing-dir" / "out.idx", unsafe=True)
    assert "cannot create a temporary file beside" in str(info.value)
    # a directory in the way: refused before anything is written
    (tmp_path / "adir").mkdir()
    with pytest.raises(IsADirectoryError, match="Is a directory; nothing was written"):
        idxkit.fix(p, tmp_path / "adir", unsafe=True)
    assert p.read_bytes() == original
    assert sorted(x.name for x in tmp_path.iterdir()) == ["adir", "x.idx.gz"]
    assert list((tmp_path / "adir").iterdir()) == []
    # the command fails too, leaving the input
    c = cli_fix(p, "--unsafe-fixes", "--output", str(tmp_path / "missing-dir" / "out.idx"))
    assert c.returncode != 0 and "left unchanged" in c.stderr + c.stdout
    assert p.read_bytes() == original


def test_invalid_input_with_no_fix_is_reported_not_changed(tmp_path):
    # an unknown element type (IDX102): nothing can be fixed
    p = tmp_path / "bad.idx"
    bad = b"\x00\x00\x07\x01\x00\x00\x00\x01\x05"
    p.write_bytes(bad)
    r = idxkit.fix(p, unsafe=True)
    assert r.applied == [] and not r.changed and not r.ok and r.path is None
    assert [f.rule for f in r.after] == ["IDX102"]
    assert p.read_bytes() == bad and sorted(x.name for x in tmp_path.iterdir()) == ["bad.idx"]
    # a PNG: not IDX at all, nothing written
    png = tmp_path / "img.idx"
    png.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(30))
    r = idxkit.fix(png, unsafe=True)
    assert [f.rule for f in r.after] == ["IDX410"] and r.applied == [] and r.path is None
    assert png.read_bytes() == b"\x89PNG\r\n\x1a\n" + bytes(30)
    # from bytes: the same bytes back
    r = idxkit.fix(bad, unsafe=True)
    assert r.data == bad and [f.rule for f in r.after] == ["IDX102"]


def test_a_destination_that_exists_is_replaced_atomically_as_the_command_does(tmp_path):
    p = tmp_path / "x.idx"
    p.write_bytes(CANONICAL + b"\x01" * 7)
    dest = tmp_path / "out.idx"
    dest.write_bytes(b"old contents")
    os.chmod(p, 0o640)
    os.chmod(dest, 0o604)
    r = idxkit.fix(p, dest, unsafe=True)
    assert r.path == str(dest) and dest.read_bytes() == CANONICAL
    # the output policy: a replaced file keeps its own mode bits
    assert stat.S_IMODE(os.stat(dest).st_mode) == 0o604
    assert p.read_bytes() == CANONICAL + b"\x01" * 7
    cli_dest = tmp_path / "cli-out.idx"
    cli_dest.write_bytes(b"old contents")
    assert cli_fix(p, "--unsafe-fixes", "--output", str(cli_dest)).returncode == 0
    assert cli_dest.read_bytes() == dest.read_bytes()
    assert sorted(x.name for x in tmp_path.iterdir()) == ["cli-out.idx", "out.idx", "x.idx"]


def test_the_byte_order_verdict_carries_its_score(tmp_path):
    """IDX501 is graded by the byte-order test (spec 6.1): a warning however
    strong the evidence (an error only when asked), and the finding carries
    the score the CLI's JSON carries, rounded in its message as there."""
    p = tmp_path / "x.idx"
    report_writer(p, sample("f4"))
    r = idxkit.validate(p)
    f = next(f for f in r.findings if f.rule == "IDX501")
    assert f.severity == "warning" and r.ok
    assert "strong evidence" in f.message and "a statistical test, not a proof" in f.message
    strict = idxkit.validate(p, severity={"IDX501": "error"})
    g = next(g for g in strict.findings if g.rule == "IDX501")
    assert g.severity == "error" and not strict.ok and g.byte_order == f.byte_order
    s = f.byte_order
    assert s["score_bits"] >= s["certain_bits"] == 48.0 and s["likely_bits"] == 20.0
    assert s["elements"] > 0 and s["z"] > 0
    assert all(g.byte_order is None for g in r.findings if g.rule != "IDX501")
    # a file written big-endian has no IDX501
    q = tmp_path / "y.idx"
    idxkit.save(q, sample("f4"))
    assert all(g.rule != "IDX501" for g in idxkit.validate(q).findings)


def test_a_stated_value_range_proves_the_byte_order_and_makes_the_swap_safe(tmp_path):
    """expect_range= is --expect-range: 10-bit values written little-endian
    read as big-endian values far outside 0..1023, so the range proves the
    order (an IDX501 error naming the first element out of range), and the
    byte swap is a safe fix; the command says the same."""
    import subprocess
    import sys
    from pathlib import Path

    values = (np.arange(1, 201) * 5).astype("i2")
    p = tmp_path / "x.idx"
    report_writer(p, values)
    for stated in ((0, 1023), "0..1023"):
        r = idxkit.validate(p, expect_range=stated)
        f = next(f for f in r.findings if f.rule == "IDX501")
        assert f.severity == "error" and not r.ok, stated
        cli = subprocess.run(
            [str(Path(sys.executable).parent / "idx-validate"), "--isolated", "--format", "json", "--expect-range", "0..1023", str(p)],
            capture_output=True,
            text=True,
        )
        import json

        cli_f = [g for g in json.loads(cli.stdout)["files"][0]["findings"] if g["rule"] == "IDX501"][0]
        assert (cli_f["severity"], cli_f["message"]) == ("error", f.message)
    out = tmp_path / "fixed.idx"
    fixed = idxkit.fix(p, out, expect_range=(0, 1023))
    assert [(a.rule, a.applicability) for a in fixed.applied] == [("IDX501", "safe")]
    assert out.read_bytes() == idxkit.save(None, values) and fixed.after == []
    # a big-endian file within the range: nothing to prove
    assert idxkit.validate(idxkit.save(None, values), expect_range=(0, 1023)).findings == []
    # longer than the first 1024 bytes (a repair that read the header alone
    # never saw the range's proof), from bytes and from a path
    labels = (np.arange(10000) * 7 % 10).astype("i4")
    q = tmp_path / "labels.idx"
    report_writer(q, labels)
    fixed = idxkit.fix(q.read_bytes(), expect_range=(0, 9))
    assert [(a.rule, a.applicability) for a in fixed.applied] == [("IDX501", "safe")]
    assert fixed.data == idxkit.save(None, labels)
    fixed = idxkit.fix(q, tmp_path / "labels-fixed.idx", expect_range=(0, 9))
    assert [(a.rule, a.applicability) for a in fixed.applied] == [("IDX501", "safe")]
    assert (tmp_path / "labels-fixed.idx").read_bytes() == idxkit.save(None, labels)
    for bad in ((5, 1), "5..1", "a..b", (1, 2, 3)):
        with pytest.raises(ValueError, match="expect_range"):
            idxkit.validate(p, expect_range=bad)
