"""Dtypes mean what numpy says they mean: taken as numpy takes them,
returned as numpy.dtype objects; IDX's short names (u8, i8, ...), which
numpy reads differently or not at all, are refused with the type meant."""

import numpy as np
import pytest

import idxkit
import idxkit.testing
from idxkit import _native
from conftest import CORPUS, NUMPY_DTYPES

LABELS = CORPUS / "valid" / "valid-mnist-labels-u8-10.idx"  # u8
F32 = CORPUS / "valid" / "valid-f32-rank3.idx"
I16 = CORPUS / "valid" / "valid-i16-rank2.idx"


@pytest.mark.parametrize(
    "spelling",
    [np.uint8, "uint8", "u1", "B", np.dtype("u1"), np.dtype("|u1")],
)
def test_expect_dtype_takes_what_numpy_takes_for_uint8(spelling):
    assert idxkit.validate(LABELS, expect_dtype=spelling).ok


@pytest.mark.parametrize(
    "spelling",
    [np.int16, "int16", "i2", ">i2", "<i2", np.dtype(">i2"), np.dtype("<i2"), "h"],
)
def test_expect_dtype_takes_either_byte_order(spelling):
    # the file stores big-endian; the element type is what is checked
    assert idxkit.validate(I16, expect_dtype=spelling).ok
    r = idxkit.validate(LABELS, expect_dtype=spelling)
    assert [f.rule for f in r.findings] == ["IDX601"]


@pytest.mark.parametrize("spelling", [float, "float64", "d", np.float64, ">f8"])
def test_expect_dtype_has_numpys_meaning_for_float(spelling):
    r = idxkit.validate(F32, expect_dtype=spelling)
    assert [f.rule for f in r.findings] == ["IDX601"]


@pytest.mark.parametrize(
    "name, numpy_reads, meant",
    [
        ("u8", "uint64", "uint8"),
        ("i8", "int64", "int8"),
        ("i16", None, "int16"),
        ("i32", None, "int32"),
        ("f32", None, "float32"),
        ("f64", None, "float64"),
    ],
)
def test_idx_short_names_are_refused_naming_the_type_meant(name, numpy_reads, meant):
    with pytest.raises(ValueError) as info:
        idxkit.validate(LABELS, expect_dtype=name)
    msg = str(info.value)
    assert f"numpy.{meant}" in msg and f"'{meant}'" in msg
    if numpy_reads:
        assert f"numpy reads {name!r} as {numpy_reads}" in msg


@pytest.mark.parametrize("spelling", [np.int64, "int64", "uint64", np.float16, "U8", complex])
def test_dtypes_idx_cannot_hold_are_refused(spelling):
    with pytest.raises(ValueError, match="not an IDX element type"):
        idxkit.validate(LABELS, expect_dtype=spelling)


def test_a_non_dtype_is_refused():
    with pytest.raises(ValueError, match="expect_dtype"):
        idxkit.validate(LABELS, expect_dtype="no-such-type")


@pytest.mark.parametrize("path", [LABELS, F32, I16])
def test_report_dtype_is_the_numpy_dtype_load_returns(path):
    d = idxkit.validate(path).dtype
    assert isinstance(d, np.dtype)
    assert d == idxkit.load(path).dtype and d.isnative
    assert idxkit.validate(path.read_bytes()).dtype == d


def test_report_dtype_compares_as_numpy_types_do():
    assert idxkit.validate(LABELS).dtype == np.uint8
    assert idxkit.validate(F32).dtype == np.float32
    assert idxkit.validate(I16).dtype == "int16"
    # no header, no dtype
    assert idxkit.validate(b"\x00\x00").dtype is None


@pytest.mark.parametrize(
    "dtype, advice",
    [
        (np.int64, "cast to int32"),
        (np.uint16, "cast to int32"),
        (np.bool_, "cast to uint8"),
        (np.float16, "cast to float32"),
    ],
)
def test_unsupported_dtype_messages_use_numpy_names(dtype, advice):
    with pytest.raises(idxkit.UnsupportedDtypeError) as info:
        idxkit.save(None, np.zeros(3, dtype=dtype))
    msg = str(info.value)
    assert advice in msg
    assert "uint8, int8, int16, int32, float32, float64" in msg
    # no IDX short name that numpy reads as another type
    for short in ("u8", "i8", "i16", "i32", "f32", "f64"):
        assert f" {short}" not in msg and f"{short}," not in msg


def test_the_native_table_is_the_idx_types_in_code_order():
    # the Rust library's one table (ElementType::numpy_dtype), against this
    # test's own: the six names in type-code order, each stored big-endian
    assert list(_native.NUMPY_DTYPES) == list(NUMPY_DTYPES)
    for name, stored in _native.NUMPY_DTYPES.items():
        assert np.dtype(stored) == np.dtype(NUMPY_DTYPES[name]).newbyteorder(">")
    assert idxkit.testing.DTYPES == tuple(np.dtype(t) for t in NUMPY_DTYPES.values())


@pytest.mark.filterwarnings("ignore::idxkit.ByteOrderWarning")  # a 4-value payload barely distinguishes the orders
@pytest.mark.parametrize("order", ["big", "little"])
@pytest.mark.parametrize("name", list(NUMPY_DTYPES))
def test_every_dtype_idxkit_gives_agrees_with_the_rust_table(name, order, tmp_path):
    # each element type in each byte order: the dtype load gives (native),
    # the stored one mmap=True views, Report.dtype, and expect_dtype all
    # say what numpy says the type is
    native = np.dtype(NUMPY_DTYPES[name])
    stored = native.newbyteorder(">" if order == "big" else "<")
    values = np.array([1, 2, 3, 100], dtype=native)
    head = idxkit.save(None, values)[:8]
    path = tmp_path / "a.idx"
    path.write_bytes(head + values.astype(stored).tobytes())
    a = idxkit.load(path, assume_byte_order=order)
    assert a.dtype == native and a.dtype.isnative and a.tolist() == [1, 2, 3, 100]
    m = idxkit.load(path, mmap=True, assume_byte_order=order)
    assert m.dtype == stored and m.tolist() == [1, 2, 3, 100]
    r = idxkit.validate(path, assume_byte_order=order, expect_dtype=stored)
    assert r.dtype == native and [f.rule for f in r.errors] == []
