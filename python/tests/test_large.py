"""Large arrays: decoded in parallel parts (idx::read_array_at) into numpy's
allocation, from a path, bytes and a file object; and a failed allocation."""

import os
import subprocess
import sys

import numpy as np
import pytest

import idxkit

MIB = 1 << 20


@pytest.mark.parametrize("dtype", ["u1", "i2", ">i4", "f4", ">f8"])
def test_a_payload_of_several_chunks_loads_bit_for_bit(tmp_path, dtype):
    # 9 MiB and a bit: more than one read buffer (256 KiB)
    n = (9 * MIB + 12) // np.dtype(dtype).itemsize
    rng = np.random.default_rng(7)
    raw = rng.integers(0, 256, n * np.dtype(dtype).itemsize, dtype=np.uint8)
    a = raw.view(np.dtype(dtype).newbyteorder(">")).reshape(n, 1)
    p = tmp_path / "big.idx"
    idxkit.save(p, a.astype(a.dtype.newbyteorder("=")))
    data = p.read_bytes()
    for got in (idxkit.load(p), idxkit.load(data)):
        assert got.shape == (n, 1) and got.dtype.isnative
        # bit for bit, NaN payloads included
        assert got.tobytes() == a.astype(a.dtype.newbyteorder("=")).tobytes()
    # a truncated copy still fails at its first missing byte (read by the
    # library's streaming reader: the source is shorter than the header says)
    with pytest.raises(idxkit.InvalidFileError) as info:
        idxkit.load(data[: len(data) - 5])
    f = info.value.findings[0]
    assert (f.rule, f.offset) == ("IDX202", len(data) - 5)


def test_a_large_array_loads_as_numpy_decodes_it_from_every_source(tmp_path):
    # 129 MiB of i2 (beyond what idxkit once decoded into numpy's own
    # allocation, now the only one): a mark every 100,003 elements (and the
    # last), wherever the parallel parts meet, compared with numpy's decoding
    # of the same bytes, from a path, from bytes and from a file object
    n = 129 * MIB // 2
    p = tmp_path / "i2.idx"
    marks = {i: i % 32749 + 1 for i in [*range(0, n, 100_003), n - 1]}
    with open(p, "wb") as f:
        f.write(b"\x00\x00\x0b\x01" + n.to_bytes(4, "big"))
        f.truncate(8 + 2 * n)
        for i, v in marks.items():
            f.seek(8 + 2 * i)
            f.write(v.to_bytes(2, "big"))
    data = p.read_bytes()
    expected = np.frombuffer(data, ">i2", offset=8).astype(np.int16)
    assert {i: int(expected[i]) for i in marks} == marks
    with open(p, "rb") as f:
        for a in (idxkit.load(p), idxkit.load(data), idxkit.load(f)):
            assert a.shape == (n,) and a.dtype == np.int16 and a.flags.writeable
            assert np.array_equal(a, expected)
            del a


def _overcommit_refuses(nbytes):
    try:
        mode = int(open("/proc/sys/vm/overcommit_memory").read())
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (OSError, ValueError):
        return False
    return mode in (0, 2) and nbytes > 4 * total


def test_an_allocation_that_fails_is_a_memory_error(tmp_path):
    # a sparse file that really is 1 TiB long, so the header is believed
    n = 1 << 40
    if not _overcommit_refuses(n):
        pytest.skip("this system would try to allocate 1 TiB")
    p = tmp_path / "sparse.idx"
    with open(p, "wb") as f:
        f.write(b"\x00\x00\x08\x02" + (1 << 20).to_bytes(4, "big") * 2)
        try:
            f.truncate(8 + 4 + n)
        except OSError:
            pytest.skip("the file system holds no 1 TiB sparse file")
    with pytest.raises(MemoryError):
        idxkit.load(p)


NUMPY_REFUSES = r"""
import resource, sys
import idxkit
path = sys.argv[1]
def vm(key):
    for line in open('/proc/self/status'):
        if line.startswith(key):
            return int(line.split()[1]) * 1024
# room for everything but the 100 MiB array
limit = vm('VmSize') + (40 << 20)
resource.setrlimit(resource.RLIMIT_AS, (limit, resource.getrlimit(resource.RLIMIT_AS)[1]))
try:
    idxkit.load(path)
except MemoryError as e:
    print('MemoryError', e)
else:
    print('loaded')
"""


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="needs Linux's /proc")
def test_numpy_refusing_the_allocation_is_a_memory_error(tmp_path):
    # numpy's own MemoryError from its allocation, not a panic of the
    # native module
    n = 100 * MIB
    p = tmp_path / "u8.idx"
    with open(p, "wb") as f:
        f.write(b"\x00\x00\x08\x01" + n.to_bytes(4, "big"))
        f.truncate(8 + n)
    out = subprocess.run(
        [sys.executable, "-c", NUMPY_REFUSES, str(p)], capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("MemoryError Unable to allocate 100. MiB"), out.stdout + out.stderr


VALIDATE_BOUNDED = """
import resource, sys
import idxkit
def vm(key):
    for line in open('/proc/self/status'):
        if line.startswith(key):
            return int(line.split()[1]) * 1024
# what the interpreter and the module already map, and 64 MiB more
limit = vm('VmSize') + (64 << 20)
resource.setrlimit(resource.RLIMIT_AS, (limit, resource.getrlimit(resource.RLIMIT_AS)[1]))
r = idxkit.validate(sys.argv[1])
print(r.ok, r.shape)
"""


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="needs Linux's /proc")
def test_validate_checks_a_2_gib_file_in_bounded_memory(tmp_path):
    # a sparse 2 GiB u8 file, validated with 64 MiB of address space to spare
    n = (1 << 31) - 8
    p = tmp_path / "labels.idx"
    with open(p, "wb") as f:
        f.write(b"\x00\x00\x08\x01" + n.to_bytes(4, "big"))
        f.truncate(8 + n)
    out = subprocess.run(
        [sys.executable, "-c", VALIDATE_BOUNDED, str(p)], capture_output=True, text=True, timeout=300
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.split()[0] == "True", out.stdout
