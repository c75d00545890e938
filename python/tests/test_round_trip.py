"""Round trip (issue 40): every array idxkit.save writes is read back by
every loader (path, bytes, file objects, mmap) and by validate with no
error, bit for bit, with at most the byte-order test's warning (IDX501, a
statistical test: values that look byte-swapped, such as multiples of 256
in i16, make it warn, never refuse); and the concrete files that made it
refuse correct data: a time-zone file's transition times, left-justified
10- and 9-bit samples, packed 0x00RRGGBB pixels. The reader check
(check_reader) agrees with the runner on the little-endian cases.

Everything is built here: nothing is read outside the repository."""

import io
import math
import struct
import subprocess
import sys
import warnings
from datetime import datetime, timedelta, timezone
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import idxkit
from conftest import bits

TYPES = ["u1", "i1", "i2", "i4", "f4", "f8"]


@st.composite
def arrays(draw):
    """Arrays of every IDX dtype in either byte order, of any bit pattern,
    and of values that look byte-swapped to the byte-order test: small
    values stored swapped (multiples of 256 in i16, i32 with low bytes
    zero, floats whose low mantissa bytes are zero), ramps, constants."""
    t = np.dtype(draw(st.sampled_from(TYPES)))
    shape = draw(hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=9))
    n = math.prod(shape)
    style = draw(st.sampled_from(["bits", "swapped", "small", "ramp", "constant"]))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    if style == "bits":  # any bit pattern: NaN payloads, -0.0, extremes
        a = np.frombuffer(rng.bytes(n * t.itemsize), dtype=t).copy()
    elif style == "swapped":  # small values, byte-swapped: x << 8, x << 24...
        small = rng.integers(0, 256, size=n).astype(t if t.kind != "f" else np.dtype(f"i{t.itemsize}"))
        a = small.byteswap().view(t) if t.itemsize > 1 else small.astype(t)
    elif style == "small":
        a = rng.integers(-100, 100, size=n).astype(t)
    elif style == "ramp":
        a = (np.arange(n) * draw(st.sampled_from([1, 3, 256, 65536]))).astype(t)
    else:
        a = np.full(n, draw(st.sampled_from([0, 1, 256, 2**16, 2**24])), dtype=np.int64).astype(t)
    order = draw(st.sampled_from("<>="))
    return a.reshape(shape).astype(t.newbyteorder(order))


def loaders(tmp_path, data, gz):
    """Every way load reads the bytes ``data`` (written at a path too)."""
    p = tmp_path / ("a.idx.gz" if gz else "a.idx")
    p.write_bytes(data)
    yield "bytes", lambda: idxkit.load(data)
    yield "bytearray", lambda: idxkit.load(bytearray(data))
    yield "path", lambda: idxkit.load(p)
    yield "str path", lambda: idxkit.load(str(p))

    def by_name():
        with open(p, "rb") as f:
            return idxkit.load(f)

    yield "file object by name", by_name
    yield "seekable file object", lambda: idxkit.load(io.BytesIO(data))
    if not gz:
        yield "mmap", lambda: np.array(idxkit.load(p, mmap=True))


def load_quietly(load):
    """The array and the ByteOrderWarnings of one load; any other warning
    fails the test."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = load()
    assert all(w.category is idxkit.ByteOrderWarning for w in caught), [str(w.message) for w in caught]
    return out, [str(w.message) for w in caught]


def native(a):
    return np.asarray(a).astype(a.dtype.newbyteorder("="))


def check_round_trip(tmp_path, a, compress=False):
    """Saves ``a`` every way and loads it back every way: no error, the same
    bits, and the byte-order warning exactly when validate reports IDX501,
    with validate's message."""
    data = idxkit.save(None, a, compress=compress)
    buf = io.BytesIO()
    idxkit.save(buf, a, compress=compress)
    assert buf.getvalue() == data
    saved = tmp_path / "saved.idx"
    idxkit.save(saved, a, compress=compress)
    assert saved.read_bytes() == data
    report = idxkit.validate(data)
    assert report.ok and not report.errors, [(f.rule, f.message) for f in report.findings]
    assert idxkit.validate(saved).ok
    byte_order = [f for f in report.findings if f.rule == "IDX501"]
    assert [f.severity for f in byte_order] in ([], ["warning"])
    want = native(a)
    for name, load in loaders(tmp_path, data, compress):
        got, warned = load_quietly(load)
        assert got.shape == a.shape, name
        assert bits(native(got)) == bits(want), name
        assert warned == [f"warning[IDX501]: {f.message} (at offset {f.offset:#x}, byte {f.offset})" for f in byte_order], name
    return byte_order


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(arrays(), st.booleans())
def test_every_array_save_writes_loads_back_everywhere_with_at_most_the_warning(tmp_path, a, compress):
    check_round_trip(tmp_path, a, compress)


def test_the_property_meets_arrays_the_byte_order_test_warns_about(tmp_path):
    """The strategy is not vacuous: byte-swapped-looking values it draws
    (here, fixed) do make the test warn, and still load."""
    for a in (
        (np.arange(1, 300, dtype=np.int64) << 8).astype(">i2"),  # multiples of 256
        (np.arange(1, 300, dtype=np.int64) << 24).astype(">i4"),  # low bytes zero
        np.arange(1, 300, dtype="<i4").byteswap().view("<i4"),  # small values swapped
    ):
        assert check_round_trip(tmp_path, a), a[:4]


# -- the concrete files ------------------------------------------------------


def first_sunday(year, month):
    d = datetime(year, month, 1)
    return 1 + (6 - d.weekday()) % 7


def sydney_transitions():
    """What /usr/share/zoneinfo/Australia/Sydney holds (its transition
    times, i32 Unix seconds, sorted): the war-time changes of 1917 and
    1942-44, then daylight saving from the first Sunday of October (2:00
    standard time) to the first Sunday of April (3:00 daylight time) each
    year from 1971 to 2037. Built here, not read from the system."""
    aest, aedt = timezone(timedelta(hours=10)), timezone(timedelta(hours=11))
    t = [
        datetime(1917, 1, 1, 0, 1, tzinfo=aest),
        datetime(1917, 3, 25, 2, 0, tzinfo=aedt),
        datetime(1942, 1, 1, 2, 0, tzinfo=aest),
        datetime(1942, 3, 29, 2, 0, tzinfo=aedt),
        datetime(1942, 9, 27, 2, 0, tzinfo=aest),
        datetime(1943, 3, 28, 2, 0, tzinfo=aedt),
        datetime(1943, 10, 3, 2, 0, tzinfo=aest),
        datetime(1944, 3, 26, 2, 0, tzinfo=aedt),
    ]
    for year in range(1971, 2038):
        if year > 1971:
            t.append(datetime(year, 4, first_sunday(year, 4), 3, 0, tzinfo=aedt))
        t.append(datetime(year, 10, first_sunday(year, 10), 2, 0, tzinfo=aest))
    secs = [int(x.timestamp()) for x in t]
    assert secs == sorted(secs) and all(-(2**31) <= s < 2**31 for s in secs)
    return np.array(secs, dtype=">i4")


def left_justified(bits_, n=4096, seed=40):
    """Samples of ``bits_`` bits (a sine and noise) left-justified in i16,
    as 10-bit ADCs and 9-bit codecs store them: the low bits are zero."""
    rng = np.random.default_rng(seed)
    t = np.arange(n)
    peak = 2 ** (bits_ - 1) - 1
    x = np.round(peak * 0.9 * np.sin(2 * np.pi * t / 97.0) + rng.normal(0, 3, n)).astype(int)
    return (np.clip(x, -peak - 1, peak) << (16 - bits_)).astype(">i2")


def packed_pixels(h=64, w=96):
    """A smooth synthetic picture as 0x00RRGGBB pixels in i32."""
    y, x = np.mgrid[0:h, 0:w]
    r = (255 * x / (w - 1)).astype(np.int64)
    g = (255 * y / (h - 1)).astype(np.int64)
    b = (127 + 127 * np.sin(x / 9.0) * np.cos(y / 7.0)).astype(np.int64)
    return ((r << 16) | (g << 8) | b).astype(">i4")


CONCRETE = {
    "time-zone transitions": sydney_transitions,
    "10-bit samples": lambda: left_justified(10),
    "9-bit samples": lambda: left_justified(9),
    "0x00RRGGBB pixels": packed_pixels,
}


@pytest.mark.parametrize("name", list(CONCRETE))
@pytest.mark.parametrize("compress", [False, True])
def test_correct_files_that_look_swapped_load_with_at_most_the_warning(tmp_path, name, compress):
    a = CONCRETE[name]()
    byte_order = check_round_trip(tmp_path, a, compress)
    data = idxkit.save(None, a, compress=compress)
    # a warnings filter makes the warning an exception, only when there is one
    with warnings.catch_warnings():
        warnings.simplefilter("error", idxkit.ByteOrderWarning)
        if byte_order:
            with pytest.raises(idxkit.ByteOrderWarning, match=r"warning\[IDX501\]: .*score"):
                idxkit.load(data)
        else:
            assert bits(idxkit.load(data)) == bits(native(a))
    # and IDX501=error refuses the file exactly when the test warns
    if byte_order:
        with pytest.raises(idxkit.InvalidFileError) as e:
            idxkit.load(data, severity={"IDX501": "error"})
        assert e.value.findings[0].message == byte_order[0].message
    else:
        assert bits(idxkit.load(data, severity={"IDX501": "error"})) == bits(native(a))


def writer_file():
    """The IDX technical report's writer: arange(24) as f32 [2, 3, 4] in
    native (little-endian) order after a big-endian f32 header."""
    return bytes([0, 0, 0x0D, 3]) + b"".join(struct.pack(">I", d) for d in (2, 3, 4)) + np.arange(24, dtype="<f4").tobytes()


def test_the_technical_report_writers_file_loads_as_idx_says_with_the_warning_or_is_refused_when_asked(tmp_path):
    data = writer_file()
    p = tmp_path / "writer.idx"
    p.write_bytes(data)
    as_idx_says = np.frombuffer(data[16:], dtype=">f4").reshape(2, 3, 4)
    for source in (data, p):
        with pytest.raises(idxkit.InvalidFileError) as e:
            idxkit.load(source, severity={"IDX501": "error"})
        assert (e.value.findings[0].rule, e.value.findings[0].severity) == ("IDX501", "error")
        with pytest.warns(idxkit.ByteOrderWarning, match=r"warning\[IDX501\]: .*score [0-9.]+ bits.*a statistical test, not a proof"):
            got = idxkit.load(source)
        assert bits(got) == bits(native(as_idx_says))
        # the writer's intent, stated
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert np.array_equal(idxkit.load(source, assume_byte_order="little"), np.arange(24, dtype=np.float32).reshape(2, 3, 4))


def test_load_pair_warns_per_file_and_takes_severity():
    images = writer_file()
    labels = idxkit.save(None, np.array([0, 1], dtype=np.uint8))
    with pytest.warns(idxkit.ByteOrderWarning):
        x, y = idxkit.load_pair(images, labels)
    assert x.shape == (2, 3, 4) and y.tolist() == [0, 1]
    with pytest.raises(idxkit.InvalidFileError, match="IDX501"):
        idxkit.load_pair(images, labels, severity="IDX501=error")


# -- the reader check agrees with the runner ----------------------------------

_BIG = {0x08: "u1", 0x09: "i1", 0x0B: ">i2", 0x0C: ">i4", 0x0D: ">f4", 0x0E: ">f8"}


def strict_numpy_reader(path):
    """A correct strict reader in numpy alone: the values as IDX says."""
    data = Path(path).read_bytes()
    if len(data) < 4 or data[:2] != b"\0\0" or data[2] not in _BIG:
        raise ValueError("not IDX")
    rank = data[3]
    dims = struct.unpack(f">{rank}I", data[4 : 4 + 4 * rank])
    dt = np.dtype(_BIG[data[2]])
    n = math.prod(dims)
    payload = data[4 + 4 * rank :]
    if len(payload) != n * dt.itemsize:
        raise ValueError("payload length")
    return np.frombuffer(payload, dtype=dt).reshape(dims)


@pytest.mark.parametrize(
    "reader",
    [
        strict_numpy_reader,
        lambda p: idxkit.load(p, assume_byte_order="big"),
        idxkit.load,
    ],
    ids=["numpy", "load stating big", "load"],
)
def test_check_reader_calls_a_strict_reader_of_the_little_endian_cases_accepted(reader):
    """As `idx-conformance test-reader` does: the array a reader returns for
    an impl-little-endian-* case (the values as IDX says) is `accepted`,
    not a crash of the reader check."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", idxkit.ByteOrderWarning)
        r = idxkit.check_reader(reader, run=["impl-little-endian-*"])
    statuses = dict(r.statuses)
    assert len(statuses) >= 5
    assert set(statuses.values()) == {"accepted"}, statuses
    assert r.ok


# -- what the `idx` command writes -------------------------------------------

IDX = str(Path(sys.executable).parent / "idx")
CONTENT_TYPES = {"u1": "u8", "i1": "i8", "i2": "i16", "i4": "i32", "f4": "f32", "f8": "f64"}


def content_json(a):
    """The content JSON of ``a`` (``idx dump``'s, which ``idx write``
    reads): integers as numbers, floats as their bit patterns."""
    t = a.dtype.newbyteorder("=")
    flat = np.ascontiguousarray(a).astype(t).reshape(-1)
    if t.kind == "f":
        width = 2 * t.itemsize
        data = [f'"0x{int(v):0{width}x}"' for v in flat.view(f"u{t.itemsize}")]
    else:
        data = [str(int(v)) for v in flat]
    return '{"dtype": "%s", "shape": %s, "data": [%s]}' % (
        CONTENT_TYPES[t.str[1:]],
        list(a.shape),
        ", ".join(data),
    )


def check_loads_back(tmp_path, a, data, what):
    """``data``, an IDX file the ``idx`` command wrote for ``a``, passes
    ``idx-validate`` (exit 0) and ``idxkit.validate``, and every loader
    returns ``a`` bit for bit with at most the byte-order warning."""
    p = tmp_path / "written.idx"
    p.write_bytes(data)
    v = subprocess.run([str(Path(IDX).parent / "idx-validate"), "--isolated", str(p)], capture_output=True, text=True)
    assert v.returncode == 0, (what, v.stdout, v.stderr)
    report = idxkit.validate(data)
    assert report.ok and not report.errors, (what, [(f.rule, f.message) for f in report.findings])
    want = native(a)
    for name, load in loaders(tmp_path, data, False):
        got, _ = load_quietly(load)
        assert got.shape == a.shape, (what, name)
        assert bits(native(got)) == bits(want), (what, name)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(arrays())
def test_every_array_idx_write_and_convert_write_loads_back_everywhere(tmp_path, a):
    """Mirrors the property above for the ``idx`` command's writers: ``idx
    write`` (content JSON) and ``idx convert --from npy`` (either byte
    order)."""
    w = subprocess.run([IDX, "write"], input=content_json(a).encode(), capture_output=True)
    assert w.returncode == 0, w.stderr
    check_loads_back(tmp_path, a, w.stdout, "idx write")
    npy = tmp_path / "a.npy"
    np.save(npy, a)
    out = tmp_path / "c.idx"
    c = subprocess.run([IDX, "convert", "--from", "npy", str(npy), "-o", str(out), "--force"], capture_output=True, text=True)
    assert c.returncode == 0, c.stderr
    check_loads_back(tmp_path, a, out.read_bytes(), "idx convert --from npy")
