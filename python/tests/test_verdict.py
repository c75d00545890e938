"""One verdict per file (spec 6.1): a payload the byte-order test reads as
little-endian is an IDX501 warning of validate (a statistical test, not a
proof), and load from every source decodes it as IDX says with that
finding as an idxkit.ByteOrderWarning; severity={"IDX501": "error"} makes
it an error of validate and a refusal of every load; assume_byte_order
says how it is stored; and the test calls no correct big-endian file
little-endian, not even with the missing-value markers and saturation
real data has."""

import io
import struct
import warnings

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


def test_validate_warns_on_the_writers_file_and_fails_it_only_when_asked():
    r = idxkit.validate(writer_file())
    assert r.ok
    assert [(f.rule, f.severity) for f in r.findings] == [("IDX501", "warning")]
    assert "score" in r.findings[0].message and "a statistical test, not a proof" in r.findings[0].message
    for severity in ({"IDX501": "error"}, "IDX501=error", {"likely-little-endian": "ERROR"}):
        strict = idxkit.validate(writer_file(), severity=severity)
        assert not strict.ok, severity
        assert [(f.rule, f.severity) for f in strict.findings] == [("IDX501", "error")], severity
        assert strict.findings[0].message == r.findings[0].message, severity
    assert idxkit.validate(writer_file(), assume_byte_order="big").findings == []
    assert idxkit.validate(writer_file(), severity={"IDX501": "error"}, assume_byte_order="big").ok


def test_every_load_decodes_the_writers_file_as_idx_says_with_validates_warning(tmp_path):
    expected = idxkit.validate(writer_file()).findings[0]
    as_is = np.frombuffer(writer_file()[16:], dtype=">f4").reshape(2, 3, 4)
    for name, load in sources(tmp_path, writer_file()):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            got = load()
        assert [w.category for w in caught] == [idxkit.ByteOrderWarning], name
        text = str(caught[0].message)
        # one text form: the warning says what str() of validate's finding says
        assert text == str(expected), (name, text)
        assert text.startswith("warning[IDX501]: " + expected.message), (name, text)
        assert f"byte {expected.offset}" in text, name
        # reported where load was called, not inside idxkit
        assert caught[0].filename == __file__, (name, caught[0].filename)
        assert np.asarray(got).astype(np.float32).view(np.uint32).tolist() == as_is.astype(np.float32).view(
            np.uint32
        ).tolist(), name


def test_the_warning_is_a_user_warning_a_filter_makes_an_exception(tmp_path):
    assert issubclass(idxkit.ByteOrderWarning, UserWarning)
    assert "ByteOrderWarning" in idxkit.__all__
    for name, load in sources(tmp_path, writer_file()):
        with warnings.catch_warnings():
            warnings.simplefilter("error", idxkit.ByteOrderWarning)
            with pytest.raises(idxkit.ByteOrderWarning, match=r"warning\[IDX501\]: .*score"):
                load()
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # any other warning would raise
            warnings.filterwarnings("ignore", category=idxkit.ByteOrderWarning)
            assert load().shape == (2, 3, 4), name


def test_every_load_refuses_the_writers_file_when_idx501_is_an_error(tmp_path):
    expected = idxkit.validate(writer_file(), severity={"IDX501": "error"}).findings[0]
    for name, load in sources(tmp_path, writer_file()):
        for severity in ({"IDX501": "error"}, "IDX501=error"):
            with pytest.raises(idxkit.InvalidFileError) as e:
                load(severity=severity)
            f = e.value.findings[0]
            assert (f.rule, f.severity, f.offset, f.message) == (
                expected.rule,
                "error",
                expected.offset,
                expected.message,
            ), name
        # a warning made a warning, or a note: loaded
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", idxkit.ByteOrderWarning)
            assert load(severity={"IDX501": "warning"}).shape == (2, 3, 4), name


@pytest.mark.parametrize(
    "severity, message",
    [
        ({"IDX203": "warning"}, "IDX203 is an error"),
        ("IDX203=warning", "IDX203 is an error"),
        ({"IDX999": "error"}, "IDX999"),
        ({"IDX501": "fatal"}, "not a severity"),
        ("IDX501", "CODE=SEVERITY"),
        ({"IDX501": 3}, "str"),
        (3, "mapping"),
    ],
)
def test_an_invalid_severity_is_a_value_error_with_the_librarys_message(severity, message):
    for call in (
        lambda: idxkit.load(writer_file(), severity=severity),
        lambda: idxkit.validate(writer_file(), severity=severity),
        lambda: idxkit.fix(writer_file(), severity=severity),
    ):
        with pytest.raises(ValueError, match=message):
            call()


def test_a_stated_byte_order_is_how_every_load_reads_it(tmp_path):
    want = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    as_is = np.frombuffer(writer_file()[16:], dtype=">f4").reshape(2, 3, 4)
    for name, load in sources(tmp_path, writer_file()):
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # no warning: the order is stated
            got = load(assume_byte_order="little")
            assert got.shape == (2, 3, 4) and np.array_equal(got, want), name
            got = load(assume_byte_order="big", severity={"IDX501": "error"})
        native = got.astype(np.float32)  # (mmap gives a view in the stored order)
        assert native.view(np.uint32).tolist() == as_is.astype(np.float32).view(np.uint32).tolist(), name


def test_a_contradicted_statement_is_warned_of_and_refused_when_asked(tmp_path):
    rng = np.random.default_rng(3)
    values = rng.normal(size=1000).astype(np.float32)
    good = idxkit.save(None, values)
    assert idxkit.validate(good).ok
    for name, load in sources(tmp_path, good):
        with pytest.warns(idxkit.ByteOrderWarning, match="stated little-endian"):
            got = load(assume_byte_order="little")
        # read as stated (bit patterns: a swapped float may be a NaN)
        assert got.astype(np.float32).view(np.uint32).tolist() == values.byteswap().view(np.uint32).tolist(), name
        with pytest.raises(idxkit.InvalidFileError) as e:
            load(assume_byte_order="little", severity="IDX501=error")
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
def test_a_little_endian_file_cut_short_or_longer_is_refused_as_validate_says_everywhere(tmp_path, variant):
    # validate orders its findings by offset: the byte-order finding (at the
    # payload's start, a warning) comes before the truncation or the
    # trailing bytes; every load refuses the file with validate's first
    # error: the byte-order finding when IDX501 is made an error, else the
    # damage itself
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
    report = idxkit.validate(data)
    assert (report.findings[0].rule, report.findings[0].severity, report.findings[0].offset) == ("IDX501", "warning", 16)
    damage = [f for f in report.findings if f.severity == "error"][0]
    strict = [f for f in idxkit.validate(data, severity={"IDX501": "error"}).findings if f.severity == "error"][0]
    assert (strict.rule, strict.offset) == ("IDX501", 16)
    for name, load in sources(tmp_path, data):
        if name == "mmap" and variant.startswith("gzip"):
            continue  # a memory map is of raw files only
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", idxkit.ByteOrderWarning)
            with pytest.raises(idxkit.InvalidFileError) as e:
                load()
        got = e.value.findings[0]
        assert (got.rule, got.offset) == (damage.rule, damage.offset), name
        with pytest.raises(idxkit.InvalidFileError) as e:
            load(severity={"IDX501": "error"})
        got = e.value.findings[0]
        assert (got.rule, got.offset, got.message) == (strict.rule, strict.offset, strict.message), name


def test_a_refusal_says_what_str_of_its_first_finding_says():
    with pytest.raises(idxkit.InvalidFileError) as e:
        idxkit.load(writer_file()[:-1])
    assert str(e.value) == str(e.value.findings[0])
    assert str(e.value).startswith("error[IDX202]: ")


def test_i16_values_under_an_i32_header_warn_of_the_element_width():
    """10000 i16 counts written natively under an i32 header of [5000]: the
    warning load gives names the element-width mismatch (the i32 reading
    alone looks little-endian; a byte swap would garble the counts), the
    message validate gives."""
    rng = np.random.default_rng(3)
    i = np.arange(10000)
    counts = (400 + 300 * np.sin(i / 500) + rng.integers(-50, 51, i.size)).astype("<i2")
    data = bytes([0, 0, 0x0C, 1]) + struct.pack(">I", 5000) + counts.tobytes()
    f = next(f for f in idxkit.validate(data).findings if f.rule == "IDX501")
    assert "probably an element-width mismatch, not an i32 byte order" in f.message, f.message
    with pytest.warns(idxkit.ByteOrderWarning) as caught:
        idxkit.load(data)
    assert [f.message in str(w.message) for w in caught] == [True]
