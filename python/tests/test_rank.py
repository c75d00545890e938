"""Ranks up to the running numpy's limit (numpy 1: 32, numpy 2: 64) load,
save and validate alike; a rank above it is refused with the limit stated."""

import gzip

import numpy as np
import pytest

import idxkit
from conftest import CORPUS, numpy_max_rank

LIMIT = numpy_max_rank()


def idx_bytes(rank, payload=b"\x07"):
    """A valid u8 file of `rank` dimensions of 1 (one element)."""
    return bytes([0, 0, 8, rank]) + (1).to_bytes(4, "big") * rank + payload


def test_the_limit_is_the_running_numpys():
    # asked of numpy itself when the module is imported, not assumed
    assert idxkit._native.NUMPY_MAX_RANK == LIMIT
    if np.lib.NumpyVersion(np.__version__) >= "2.0.0":
        assert LIMIT == 64


def test_a_file_of_numpys_largest_rank_loads_from_every_source(tmp_path):
    data = idx_bytes(LIMIT)
    p = tmp_path / "top.idx"
    p.write_bytes(data)
    for source, mmap in ((p, False), (data, False), (gzip.compress(data), False), (p, True)):
        a = idxkit.load(source, mmap=mmap)
        assert a.shape == (1,) * LIMIT and a.reshape(-1).tolist() == [7]
    assert idxkit.validate(data).ok


def test_a_rank_above_numpys_limit_is_refused_saying_the_limit(tmp_path):
    data = idx_bytes(LIMIT + 1)
    p = tmp_path / "over.idx"
    p.write_bytes(data)
    # valid IDX: validate says so, load says why numpy cannot hold it
    assert idxkit.validate(data).ok
    for source, mmap in ((p, False), (data, False), (gzip.compress(data), False), (p, True)):
        with pytest.raises(idxkit.IdxError) as info:
            idxkit.load(source, mmap=mmap)
        msg = str(info.value)
        assert f"rank {LIMIT + 1}" in msg
        assert f"numpy arrays hold at most {LIMIT} dimensions (numpy {np.__version__})" in msg


@pytest.mark.parametrize("dtype", ["u1", "i1", "i2", "i4", "f4", "f8"])
def test_save_then_load_at_numpys_largest_rank(tmp_path, dtype):
    a = np.arange(6, dtype=dtype).reshape((1,) * (LIMIT - 2) + (2, 3))
    data = idxkit.save(None, a)
    assert data[3] == LIMIT
    back = idxkit.load(data)
    assert back.shape == a.shape and back.dtype == a.dtype and np.array_equal(back, a)
    idxkit.save(tmp_path / "a.idx", a)
    assert np.array_equal(idxkit.load(tmp_path / "a.idx"), a)


@pytest.mark.skipif(LIMIT < 33, reason="numpy 1 holds 32 dimensions")
def test_the_rank_33_case_loads_under_numpy_2():
    a = idxkit.load(CORPUS / "implementation-defined" / "impl-rank33-u8.idx")
    assert a.ndim == 33
    # the conformance checks run it too (a rank-65 case, which no numpy array
    # holds, is not run)
    r = idxkit.check_reader(idxkit.load, run=["impl-rank33-*", "impl-rank65-*"])
    assert dict(r.statuses) == {"impl-rank33-u8": "accepted"}
