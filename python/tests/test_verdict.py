"""One verdict per file (spec 6.1): a payload the byte-order test calls
little-endian beyond reasonable doubt is an IDX501 error of validate and is
refused by load from every source, unless assume_byte_order says how it is
stored; and the test calls no correct big-endian file little-endian, not
even with the missing-value markers and saturation real data has."""

import io
import struct

import numpy as np
import pytest

import idxkit


def writer_file() -> bytes:
    """The README's technical-report writer: arange(24) as f32 [2, 3, 4],
    header big-endian, elements in native (little-endian) order."""
    a = np.arange(24, dtype="<f4")
    return bytes([0, 0, 0x0D, 3]) + b"".join(struct.pack(">I", d) for d in (2, 3, 4)) + a.tobytes()


def sources(tmp_path, data):
    p = tmp_path / "writer.idx"
    p.write_bytes(data)
    yield "bytes", lambda **kw: idxkit.load(data, **kw)
    yield "path", lambda **kw: idxkit.load(p, **kw)
    yield "mmap", lambda **kw: idxkit.load(p, mmap=True, **kw)

    def by_name(**kw):
        with open(p, "rb") as f:
            return idxkit.load(f, **kw)

    yield "file object by name", by_name
    yield "seekable file object", lambda **kw: idxkit.load(io.BytesIO(data), **kw)

    class Stream(io.RawIOBase):
        def __init__(self):
            self.inner = io.BytesIO(data)

        def readable(self):
            return True

        def readinto(self, b):
            return self.inner.readinto(b)

    yield "stream", lambda **kw: idxkit.load(Stream(), **kw)


def test_validate_calls_the_writers_file_invalid_unless_big_endian_is_stated():
    r = idxkit.validate(writer_file())
    assert not r.ok
    assert [(f.rule, f.severity) for f in r.findings] == [("IDX501", "error")]
    assert idxkit.validate(writer_file(), assume_byte_order="big").ok


def test_every_load_refuses_the_writers_file_with_validates_finding(tmp_path):
    expected = idxkit.validate(writer_file()).findings[0]
    for name, load in sources(tmp_path, writer_file()):
        with pytest.raises(idxkit.InvalidFileError) as e:
            load()
        f = e.value.findings[0]
        assert (f.rule, f.offset, f.message) == (expected.rule, expected.offset, expected.message), name


def test_a_stated_byte_order_is_how_every_load_reads_it(tmp_path):
    want = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    as_is = np.frombuffer(writer_file()[16:], dtype=">f4").reshape(2, 3, 4)
    for name, load in sources(tmp_path, writer_file()):
        got = load(assume_byte_order="little")
        assert got.shape == (2, 3, 4) and np.array_equal(got, want), name
        got = load(assume_byte_order="big")
        native = got.astype(np.float32)  # (mmap gives a view in the stored order)
        assert native.view(np.uint32).tolist() == as_is.astype(np.float32).view(np.uint32).tolist(), name


def test_a_contradicted_statement_is_refused(tmp_path):
    rng = np.random.default_rng(3)
    good = idxkit.save(None, rng.normal(size=1000).astype(np.float32))
    assert idxkit.validate(good).ok
    for name, load in sources(tmp_path, good):
        with pytest.raises(idxkit.InvalidFileError) as e:
            load(assume_byte_order="little")
        assert e.value.findings[0].rule == "IDX501", name
        assert "stated little-endian" in e.value.findings[0].message, name


def idx_file(code: int, a: np.ndarray) -> bytes:
    return bytes([0, 0, code, 1]) + struct.pack(">I", a.size) + a.tobytes()


def test_identifiers_with_missing_value_markers_are_big_endian_for_every_seed():
    """The recipe of the report that found the false errors: non-negative
    int32 ids written correctly big-endian, 30 % set to INT_MIN."""
    errors = warnings = 0
    for seed in range(100):
        rng = np.random.default_rng(seed)
        ids = rng.integers(0, 2**31, size=1000).astype(">i4")
        ids[rng.random(1000) < 0.3] = np.iinfo(np.int32).min
        sev = [f.severity for f in idxkit.validate(idx_file(0x0C, ids)).findings if f.rule == "IDX501"]
        errors += "error" in sev
        warnings += "warning" in sev
    assert errors == 0
    assert warnings <= 1


def test_saturation_and_markers_are_no_evidence():
    for seed in range(20):
        rng = np.random.default_rng(seed)
        x = rng.integers(-32768, 32768, size=1000).astype(">i2")
        x[rng.random(1000) < 0.3] = 32767
        assert idxkit.validate(idx_file(0x0B, x)).ok, seed
        y = rng.integers(-(2**31), 2**31, size=10000).astype(">i4")
        y[rng.random(10000) < 0.9] = 2**31 - 1
        assert idxkit.validate(idx_file(0x0C, y)).ok, seed
        z = rng.integers(0, 2**31, size=1000).astype(">i4")
        z[rng.random(1000) < 0.3] = -1
        assert idxkit.validate(idx_file(0x0C, z)).ok, seed


@pytest.mark.parametrize(
    "variant",
    ["cut 1", "cut 9", "3 bytes more", "gzip cut 9", "gzip 3 bytes more", "gzip damaged"],
)
def test_a_little_endian_file_cut_short_or_longer_is_refused_for_its_byte_order_everywhere(
    tmp_path, variant
):
    # validate orders its findings by offset: the byte-order finding (at the
    # payload's start) comes before the truncation or the trailing bytes, so
    # every load refuses the file with it, as validate's first error
    import gzip

    data = writer_file()
    if "cut 1" in variant:
        data = data[:-1]
    elif "cut 9" in variant:
        data = data[:-9]
    else:
        data = data + b"\x01\x02\x03"
    if variant.startswith("gzip"):
        data = gzip.compress(data, mtime=0)
        if variant == "gzip damaged":
            data = data[:-12]  # cut: its end lies in the payload or the bytes after it
    first = [f for f in idxkit.validate(data).findings if f.severity == "error"][0]
    assert (first.rule, first.offset) == ("IDX501", 16)
    for name, load in sources(tmp_path, data):
        if name == "mmap" and variant.startswith("gzip"):
            continue  # a memory map is of raw files only
        with pytest.raises(idxkit.InvalidFileError) as e:
            load()
        got = e.value.findings[0]
        assert (got.rule, got.offset, got.message) == (first.rule, first.offset, first.message), name
