"""Round trips over the whole conformance corpus, against its manifests."""

import hashlib
import warnings

import numpy as np
import pytest

import idxkit
from conftest import NUMPY_DTYPES, bits, content_array, manifests, numpy_max_rank, severities

CASES = manifests()
SEVERITY = severities()
FILE_CASES = [m for m in CASES if "options" not in m]


def numpy_holds(content):
    """numpy arrays have at most numpy's limit of dimensions (numpy 2: 64,
    refusing the rank-65 and rank-255 cases), and the product of the
    non-zero dimensions must fit (huge dimensions beside a 0)."""
    size = np.dtype(NUMPY_DTYPES[content["dtype"]]).itemsize
    for d in content["shape"]:
        size *= d or 1
    return len(content["shape"]) <= numpy_max_rank() and size < 2**63


def ids(m):
    return m["id"]


def test_the_corpus_and_the_rule_table_are_there():
    assert len(CASES) >= 80
    assert len(SEVERITY) >= 20


@pytest.mark.parametrize("m", [m for m in FILE_CASES if m["verdict"] != "invalid"], ids=ids)
def test_valid_cases_load_to_the_manifest_content_bit_for_bit(m):
    content = m["content"]
    if not numpy_holds(content):
        with pytest.raises(idxkit.IdxError, match="but numpy"):
            idxkit.load(m["path"])
        return
    byte_order = [f for f in idxkit.validate(m["path"]).findings if f.rule == "IDX501"]
    if byte_order:
        # read as little-endian by the byte-order test (IDX501, a warning):
        # loaded as IDX says, with the warning; refused only when asked
        assert [f.severity for f in byte_order] == ["warning"]
        with pytest.warns(idxkit.ByteOrderWarning, match=r"warning\[IDX501\]: ") as caught:
            a = idxkit.load(m["path"])
        assert [str(w.message) for w in caught if w.category is idxkit.ByteOrderWarning][0].startswith(
            "warning[IDX501]: " + byte_order[0].message
        )
        with pytest.raises(idxkit.InvalidFileError) as info:
            idxkit.load(m["path"], severity={"IDX501": "error"})
        assert info.value.findings[0].rule == "IDX501"
        assert np.array_equal(bits(idxkit.load(m["path"], assume_byte_order="big")), bits(a))
    else:
        with warnings.catch_warnings():
            warnings.simplefilter("error", idxkit.ByteOrderWarning)
            a = idxkit.load(m["path"])
    assert a.dtype == np.dtype(NUMPY_DTYPES[content["dtype"]])
    assert a.dtype.isnative
    assert a.shape == tuple(content["shape"])
    if "data" in content:
        assert bits(a) == bits(content_array(content))
    else:
        assert hashlib.sha256(bits(a)).hexdigest() == content["data_sha256"]


@pytest.mark.parametrize("m", [m for m in FILE_CASES if m["verdict"] == "invalid"], ids=ids)
def test_invalid_cases_raise_the_first_error_of_the_manifest(m):
    errors = [f for f in m["findings"] if SEVERITY[f["rule"]] == "error"]
    with pytest.raises(idxkit.InvalidFileError) as info:
        idxkit.load(m["path"])
    got = info.value.findings[0]
    assert (got.rule, got.offset) == (errors[0]["rule"], errors[0]["offset"])
    assert isinstance(info.value, ValueError)
    # The same from memory.
    with pytest.raises(idxkit.InvalidFileError) as info:
        idxkit.load(m["path"].read_bytes())
    assert info.value.findings[0].rule == errors[0]["rule"]


NUMPY_SIZED = [m for m in FILE_CASES if m["verdict"] != "invalid" and numpy_holds(m["content"])]


@pytest.mark.parametrize("m", NUMPY_SIZED, ids=ids)
def test_save_of_each_valid_content_reproduces_its_bytes(m):
    content = m["content"]
    raw = m["path"].read_bytes()
    if m["compression"]:
        import gzip

        raw = gzip.decompress(raw)
    # Large contents are given as a digest: their array is the loaded one.
    a = content_array(content) if "data" in content else idxkit.load(m["path"])
    assert idxkit.save(None, a) == raw
    # Big-endian input writes the same bytes.
    assert idxkit.save(None, a.astype(a.dtype.newbyteorder(">"))) == raw


@pytest.mark.parametrize("m", CASES, ids=ids)
def test_validate_reports_exactly_the_manifest_findings(m):
    opts = m.get("options", {})
    want = [(f["rule"], f["offset"], f["length"]) for f in m["findings"]]
    # the manifest names the element type as IDX does ("f32"); Python takes
    # numpy's names
    expect_dtype = opts.get("expect_dtype")
    if expect_dtype is not None:
        expect_dtype = NUMPY_DTYPES[expect_dtype]
    # a path (the command's file path) and the same bytes in memory (the
    # command's standard-input path) give the same findings
    for source in (m["path"], m["path"].read_bytes()):
        report = idxkit.validate(
            source,
            expect_dtype=expect_dtype,
            expect_shape=opts.get("expect_shape"),
            max_decompressed=opts.get("max_decompressed"),
        )
        got = [(f.rule, f.offset, f.length) for f in report.findings]
        assert got == want
        # a little-endian payload is implementation-defined: a warning
        # (ok), an error only when a severity override asks (spec 6.1)
        little = any(f.rule == "IDX501" for f in report.findings)
        assert not any(f.rule == "IDX501" and f.severity == "error" for f in report.findings)
        assert report.ok == (m["verdict"] != "invalid")
        if little:
            assert m["verdict"] == "implementation-defined"
            strict = idxkit.validate(source, severity={"IDX501": "error"})
            assert not strict.ok
            assert [(f.rule, f.offset, f.length) for f in strict.findings] == want
        assert report.compression == m["compression"]


LIMITED = [m for m in CASES if "max_decompressed" in m.get("options", {})]


@pytest.mark.parametrize("m", LIMITED, ids=ids)
def test_load_with_the_cases_decompression_limit_raises_its_first_error(m):
    errors = [f for f in m["findings"] if SEVERITY[f["rule"]] == "error"]
    limit = m["options"]["max_decompressed"]
    for source in (m["path"], m["path"].read_bytes()):
        with pytest.raises(idxkit.InvalidFileError) as info:
            idxkit.load(source, max_decompressed=limit)
        got = info.value.findings[0]
        assert (got.rule, got.offset) == (errors[0]["rule"], errors[0]["offset"])
