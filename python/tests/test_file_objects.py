"""load() from a binary file object: a seekable one holding one uncompressed
IDX file from its position on is read straight into the array (readinto,
then converted to native order in place); anything else is read whole and
loaded as bytes. Both give what bytes give, errors included."""

import gzip
import io
import os
import subprocess
import sys

import numpy as np
import pytest

import idxkit

MIB = 1 << 20
DTYPES = ["u1", "i1", "i2", "i4", "f4", "f8"]


def sample(dtype, n, shape=None):
    """n elements of random bits (NaN payloads, -0.0, subnormals included)."""
    size = np.dtype(dtype).itemsize
    raw = np.random.default_rng(n).integers(0, 256, n * size, dtype=np.uint8)
    a = raw.view(np.dtype(dtype).newbyteorder("="))
    return a.reshape(shape if shape is not None else (n,))


def same_bits(a, b):
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(), (0,), (3, 0, 2), (5,), (7, 3, 2)])
def test_a_file_object_loads_what_bytes_load(tmp_path, dtype, shape):
    a = sample(dtype, int(np.prod(shape)), shape)
    data = idxkit.save(None, a)
    p = tmp_path / "a.idx"
    p.write_bytes(data)
    with open(p, "rb") as f:
        got = idxkit.load(f)
        assert f.tell() == len(data)
    assert same_bits(got, a) and got.dtype.isnative and got.flags.writeable and got.flags.owndata
    assert same_bits(idxkit.load(io.BytesIO(data)), a)


@pytest.mark.parametrize("dtype", DTYPES)
def test_a_payload_of_several_parts_from_a_file_object(tmp_path, dtype):
    # 9 MiB and a bit: converted in place in parallel parts (at least 4 MiB
    # each), parts meeting inside no element
    n = (9 * MIB + 12) // np.dtype(dtype).itemsize
    a = sample(dtype, n, (n, 1))
    p = tmp_path / "big.idx"
    idxkit.save(p, a)
    with open(p, "rb") as f:
        assert same_bits(idxkit.load(f), a)
    with open(p, "rb", buffering=0) as f:  # a raw FileIO
        assert same_bits(idxkit.load(f), a)


@pytest.mark.parametrize("mode", ["rb", "r+b"])
def test_a_large_payload_after_a_prefix_loads_from_the_position(tmp_path, mode):
    # 13 MiB of f8 after 1001 bytes: swapped in place in parallel parts,
    # which meet inside no element; the position ends after the file
    n = (13 * MIB + 6) // 8
    a = sample("f8", n, (n,))
    prefix = b"x" * 1001
    p = tmp_path / "prefixed"
    p.write_bytes(prefix + idxkit.save(None, a))
    with open(p, mode) as f:
        f.read(len(prefix))
        assert same_bits(idxkit.load(f), a)
        assert f.tell() == p.stat().st_size and f.read() == b""


def test_a_file_object_is_read_from_its_position(tmp_path):
    a = sample("i2", 6, (2, 3))
    data = idxkit.save(None, a)
    p = tmp_path / "prefixed"
    p.write_bytes(b"some container header" + data)
    with open(p, "rb") as f:
        f.seek(len(b"some container header"))
        assert same_bits(idxkit.load(f), a)
        assert f.read() == b""


@pytest.mark.parametrize(
    "cut, rule, offset",
    [
        # trailing bytes: the error bytes give (the whole rest is read)
        (lambda d: d + b"\x00", "IDX203", None),
        # a truncated payload, at its first missing byte
        (lambda d: d[:-3], "IDX202", None),
        # a truncated header
        (lambda d: d[:6], None, None),
    ],
)
def test_a_file_object_that_is_not_one_idx_file_fails_as_bytes_do(cut, rule, offset):
    bad = cut(idxkit.save(None, sample("f4", 12, (3, 4))))
    with pytest.raises(idxkit.InvalidFileError) as from_bytes:
        idxkit.load(bad)
    f = io.BytesIO(bad)
    with pytest.raises(idxkit.InvalidFileError) as from_file:
        idxkit.load(f)
    assert from_file.value.findings == from_bytes.value.findings
    if rule is not None:
        assert from_file.value.findings[0].rule == rule
    assert f.tell() == len(bad)


def test_gzip_and_unseekable_file_objects_are_read_whole():
    a = sample("i4", 10, (2, 5))
    data = idxkit.save(None, a)
    # gzip bytes in a seekable file object
    assert same_bits(idxkit.load(io.BytesIO(gzip.compress(data))), a)
    with pytest.raises(idxkit.InvalidFileError) as info:
        idxkit.load(io.BytesIO(gzip.compress(data)), decompress=False)
    assert info.value.findings[0].rule == "IDX402"
    # a GzipFile (seekable, but not from its end)
    assert same_bits(idxkit.load(gzip.GzipFile(fileobj=io.BytesIO(gzip.compress(data)))), a)

    class Stream:
        """read() only: no position, no readinto."""

        def __init__(self, data):
            self.f = io.BytesIO(data)

        def read(self, n=-1):
            return self.f.read(n)

    assert same_bits(idxkit.load(Stream(data)), a)


def test_a_pipe_is_read_whole(tmp_path):
    a = sample("f8", 9, (3, 3))
    r, w = os.pipe()
    with open(r, "rb") as rf, open(w, "wb") as wf:
        wf.write(idxkit.save(None, a))
        wf.close()
        assert same_bits(idxkit.load(rf), a)


def test_a_text_file_object_is_refused(tmp_path):
    p = tmp_path / "a.idx"
    idxkit.save(p, sample("u1", 4))
    with open(p, "r", encoding="latin-1") as f:
        with pytest.raises(TypeError, match="binary mode"):
            idxkit.load(f)


PEAK = r"""
import sys
import idxkit
def vm(key):
    for line in open('/proc/self/status'):
        if line.startswith(key):
            return int(line.split()[1]) * 1024
with open(sys.argv[1], 'rb') as f:
    before = vm('VmRSS')
    a = idxkit.load(f)
print((vm('VmHWM') - before) / a.nbytes)
"""


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="needs Linux's /proc")
def test_a_file_object_loads_in_the_memory_of_its_array(tmp_path):
    # not the file's bytes and then the array: the array alone (64 MiB),
    # and a little more
    p = tmp_path / "f4.idx"
    n = 64 * MIB // 4
    with open(p, "wb") as f:
        f.write(b"\x00\x00\x0d\x01" + n.to_bytes(4, "big"))
        f.truncate(8 + 4 * n)
    out = subprocess.run([sys.executable, "-c", PEAK, str(p)], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert float(out.stdout) < 1.1, out.stdout


# A file object from open() over a regular file is loaded by its name: read
# at offsets in parallel parts, as load(path) reads, from its position on.


@pytest.mark.parametrize(
    "cut,rule",
    [
        (lambda d: d + b"\x00", "IDX203"),
        (lambda d: d[:-1], "IDX202"),
        (lambda d: b"\x01" + d[1:], "IDX101"),
        (lambda d: gzip.compress(d)[:-9], "IDX701"),
    ],
)
def test_a_file_object_opened_by_path_fails_as_its_bytes_do_from_its_position(tmp_path, cut, rule):
    bad = cut(idxkit.save(None, sample("f4", 12, (3, 4))))
    p = tmp_path / "bad.idx"
    p.write_bytes(b"prefix" + bad)
    with pytest.raises(idxkit.InvalidFileError) as from_bytes:
        idxkit.load(bad)
    with open(p, "rb") as f:
        f.seek(6)
        with pytest.raises(idxkit.InvalidFileError) as from_file:
            idxkit.load(f)
        assert f.tell() == 6 + len(bad)  # as reading it whole leaves it
    assert from_file.value.findings == from_bytes.value.findings
    assert from_file.value.findings[0].rule == rule


def test_a_file_object_opened_by_path_is_loaded_by_that_path(tmp_path, monkeypatch):
    a = sample("f4", 12, (3, 4))
    p = tmp_path / "a.idx"
    p.write_bytes(b"xy" + idxkit.save(None, a))
    calls = []
    real = idxkit._native.load_file_at

    def spy(*args, **kwargs):
        calls.append(args[:2])
        return real(*args, **kwargs)

    monkeypatch.setattr(idxkit._native, "load_file_at", spy)
    with open(p, "rb") as f:
        f.seek(2)
        assert same_bits(idxkit.load(f), a)
    assert calls == [(str(p), 2)]
    # a gzip file by path too, decompressed as from a path
    g = tmp_path / "a.idx.gz"
    g.write_bytes(gzip.compress(idxkit.save(None, a)))
    with open(g, "rb") as f:
        assert same_bits(idxkit.load(f), a)
        assert f.tell() == g.stat().st_size
    assert len(calls) == 2
    # not by path: a GzipFile's name and descriptor are its compressed file's
    with open(g, "rb") as raw:
        assert same_bits(idxkit.load(gzip.GzipFile(fileobj=raw)), a)
    assert len(calls) == 2


def test_a_file_whose_name_now_names_another_file_is_read_through_the_object(tmp_path):
    a = sample("i2", 6, (2, 3))
    other = sample("i2", 6, (3, 2))
    p = tmp_path / "a.idx"
    q = tmp_path / "b.idx"
    p.write_bytes(idxkit.save(None, a))
    q.write_bytes(idxkit.save(None, other))
    with open(p, "rb") as f:
        os.replace(q, p)  # the name now names the other file
        assert same_bits(idxkit.load(f), a)
        assert f.tell() == len(idxkit.save(None, a))


def test_writes_still_in_the_objects_buffer_are_loaded(tmp_path):
    a = sample("f8", 5, (5,))
    p = tmp_path / "a.idx"
    p.write_bytes(b"")
    with open(p, "r+b") as f:
        f.write(idxkit.save(None, a))  # buffered, not flushed
        f.seek(0)
        assert same_bits(idxkit.load(f), a)


def test_only_what_open_returns_is_loaded_by_name(tmp_path, monkeypatch):
    a = sample("i4", 4, (4,))
    p = tmp_path / "a.idx"
    p.write_bytes(idxkit.save(None, a))
    calls = []
    real = idxkit._native.load_file_at
    monkeypatch.setattr(idxkit._native, "load_file_at", lambda *args: calls.append(1) or real(*args))

    class Reader(io.BufferedReader):
        """A subclass whose bytes are not the file's: read through it."""

    with Reader(io.FileIO(p, "rb")) as f:
        assert same_bits(idxkit.load(f), a)
    # a buffer over a raw stream that is not a FileIO
    with io.BufferedReader(io.BytesIO(p.read_bytes())) as f:
        assert same_bits(idxkit.load(f), a)
    assert calls == []
    with open(p, "rb", buffering=0) as f:  # FileIO itself: by name
        assert same_bits(idxkit.load(f), a)
    assert calls == [1]


def test_a_write_only_file_object_is_not_read_by_name(tmp_path):
    p = tmp_path / "a.idx"
    p.write_bytes(idxkit.save(None, sample("u1", 3)))
    for buffering in (0, -1):
        with open(p, "ab", buffering=buffering) as f:
            with pytest.raises(io.UnsupportedOperation):
                idxkit.load(f)
