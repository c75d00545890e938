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
