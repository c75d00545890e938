"""mmap=True: a read-only, big-endian view over the mapped payload, no copy."""

import gzip
import mmap

import numpy as np
import pytest

import idxkit
from conftest import CORPUS, mnist


def _base_chain(a):
    """The array, its bases, and the object under a memoryview base."""
    while a is not None:
        yield a
        a = a.obj if isinstance(a, memoryview) else getattr(a, "base", None)


@pytest.mark.parametrize(
    "name", ["valid-f32-rank3.idx", "valid-mnist-labels-u8-10.idx", "valid-i16-rank2.idx"]
)
def test_mmap_is_a_read_only_big_endian_view_equal_to_the_copy(name):
    path = CORPUS / "valid" / name
    if not path.exists():
        pytest.fail(f"corpus case {name} is missing")
    m = idxkit.load(path, mmap=True)
    c = idxkit.load(path)
    assert not m.flags.owndata and not m.flags.writeable
    assert any(isinstance(b, mmap.mmap) for b in _base_chain(m))
    if m.dtype.itemsize > 1:
        assert m.dtype.byteorder == ">"
    assert m.shape == c.shape
    assert np.array_equal(m, c, equal_nan=m.dtype.kind == "f")


def test_mmap_of_mnist_shares_the_mapping(tmp_path):
    plain = tmp_path / "t10k-images-idx3-ubyte"
    plain.write_bytes(gzip.decompress(mnist("t10k-images-idx3-ubyte.gz").read_bytes()))
    m = idxkit.load(plain, mmap=True)
    assert m.shape == (10000, 28, 28)
    assert any(isinstance(b, mmap.mmap) for b in _base_chain(m))
    assert np.array_equal(m, idxkit.load(plain))
    with pytest.raises(ValueError):
        m[0, 0, 0] = 1  # read-only


def test_mmap_of_an_invalid_file_raises_with_the_finding():
    with pytest.raises(idxkit.InvalidFileError) as info:
        idxkit.load(CORPUS / "invalid" / "invalid-trailing-byte.idx", mmap=True)
    assert info.value.findings[0].rule == "IDX203"


def test_mmap_of_gzip_says_to_load_without_mmap():
    with pytest.raises(idxkit.IdxError, match="uncompressed"):
        idxkit.load(CORPUS / "implementation-defined" / "impl-gzip-u8-4x5.idx.gz", mmap=True)


def test_mmap_of_an_empty_file_is_truncated_magic(tmp_path):
    p = tmp_path / "empty.idx"
    p.write_bytes(b"")
    with pytest.raises(idxkit.InvalidFileError) as info:
        idxkit.load(p, mmap=True)
    assert info.value.findings[0].rule == "IDX103"


def test_mmap_of_a_payload_that_reads_little_endian_warns_and_is_still_a_view():
    """The byte-order test runs on the mapping itself (nothing copied): the
    finding validate reports, as an idxkit.ByteOrderWarning, and the view
    over the stored bytes; IDX501=error refuses it."""
    path = CORPUS / "implementation-defined" / "impl-little-endian-f32-arange.idx"
    expected = [f for f in idxkit.validate(path).findings if f.rule == "IDX501"][0]
    with pytest.warns(idxkit.ByteOrderWarning) as caught:
        m = idxkit.load(path, mmap=True)
    assert [str(w.message) for w in caught] == [
        f"warning[IDX501]: {expected.message} (at offset {expected.offset:#x}, byte {expected.offset})"
    ]
    assert not m.flags.owndata and any(isinstance(b, mmap.mmap) for b in _base_chain(m))
    assert m.dtype == np.dtype(">f4")
    with pytest.raises(idxkit.InvalidFileError) as e:
        idxkit.load(path, mmap=True, severity={"IDX501": "error"})
    assert (e.value.findings[0].rule, e.value.findings[0].message) == ("IDX501", expected.message)
