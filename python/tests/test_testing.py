"""idxkit.testing: Hypothesis strategies for IDX arrays and files, and
property-based checks that find planted bugs with a shrunk reproducer."""

import re
import time

import numpy as np
import pytest
from hypothesis import find, given, settings

import idxkit
from idxkit import testing
from idxkit.testing import arrays, files, reference
from conftest import ROOT, bits, numpy_max_rank

# Deterministic runs for the checks below (the defaults draw at random).
FIXED = settings(max_examples=100, deadline=None, database=None, derandomize=True)
SEARCH = settings(max_examples=2000, deadline=None, database=None, derandomize=True)

CODES = {"u1": 0x08, "i1": 0x09, "i2": 0x0B, "i4": 0x0C, "f4": 0x0D, "f8": 0x0E}


def native_order_writer(a):
    """The IDX technical report's writer: magic and dimensions big-endian,
    the elements in native (little-endian on x86) order."""
    header = bytes([0, 0, CODES[a.dtype.str[1:]], a.ndim])
    return header + b"".join(d.to_bytes(4, "big") for d in a.shape) + a.tobytes()


def lenient_reader(data):
    """A careful reader, except that it ignores bytes after the payload."""
    if len(data) < 4 or data[0] or data[1]:
        raise ValueError("bad magic")
    dtype = {v: k for k, v in CODES.items()}.get(data[2])
    if dtype is None:
        raise ValueError("bad type")
    rank = data[3]
    if len(data) < 4 + 4 * rank:
        raise ValueError("truncated header")
    dims = tuple(int.from_bytes(data[4 + 4 * k : 8 + 4 * k], "big") for k in range(rank))
    count = int(np.prod(dims, dtype=object)) if dims else 1
    size = np.dtype(dtype).itemsize
    end = 4 + 4 * rank + count * size
    if len(data) < end:
        raise ValueError("truncated payload")
    # (no check that the file ends here)
    return np.frombuffer(data, dtype=">" + dtype, count=count, offset=4 + 4 * rank).reshape(dims)


# --- the array strategy ------------------------------------------------------


@FIXED
@given(arrays())
def test_arrays_are_small_and_idx_holdable(a):
    assert a.dtype in testing.DTYPES
    assert 0 <= a.ndim <= numpy_max_rank()
    assert a.size <= 16
    assert bits(idxkit.load(idxkit.save(None, a))) == bits(a)


@pytest.mark.parametrize(
    "what, predicate",
    [
        ("a rank above numpy 1's limit", lambda a: a.ndim > 32 or a.ndim == numpy_max_rank()),
        ("rank 0", lambda a: a.ndim == 0),
        ("a zero-length dimension", lambda a: a.ndim > 1 and 0 in a.shape),
        ("a float32 NaN with a payload", lambda a: a.dtype == np.float32 and (a.view(np.uint32) == 0x7FC005A5).any()),
        ("a float64 signalling NaN", lambda a: a.dtype == np.float64 and (a.view(np.uint64) == 0x7FF0000000000001).any()),
        ("-0.0", lambda a: a.dtype.kind == "f" and (np.signbit(a) & (a == 0)).any()),
        ("a float32 subnormal", lambda a: a.dtype == np.float32 and ((a != 0) & (abs(a) < np.finfo(np.float32).tiny)).any()),
        ("the smallest int32", lambda a: a.dtype == np.int32 and (a == np.iinfo(np.int32).min).any()),
        ("the largest int16", lambda a: a.dtype == np.int16 and (a == np.iinfo(np.int16).max).any()),
        ("uint8 255", lambda a: a.dtype == np.uint8 and (a == 255).any()),
        ("int8 -128", lambda a: a.dtype == np.int8 and (a == -128).any()),
    ],
)
def test_arrays_reach(what, predicate):
    find(arrays(), predicate, settings=SEARCH)


def test_arrays_take_a_dtype_and_byte_orders():
    a = find(arrays(np.dtype(">i2"), byte_orders=">"), lambda a: a.size > 0, settings=SEARCH)
    assert a.dtype == np.dtype(">i2")
    top = find(arrays(min_rank=numpy_max_rank()), lambda a: True, settings=SEARCH)
    assert top.ndim == numpy_max_rank() and top.size <= 16
    with pytest.raises(ValueError, match="not an IDX element type"):
        arrays(np.int64)
    with pytest.raises(ValueError, match="running numpy's limit"):
        arrays(max_rank=numpy_max_rank() + 1)


# --- the file strategy -------------------------------------------------------


@FIXED
@given(files(gzip=True))
def test_files_carry_the_reference_verdict(f):
    report = idxkit.validate(f.data)
    assert f.rules == tuple(x.rule for x in report.findings)
    if f.verdict == "invalid":
        with pytest.raises(idxkit.InvalidFileError) as e:
            idxkit.load(f.data)
        assert e.value.findings[0].rule == f.rule
        assert f.array is None
    else:
        assert bits(idxkit.load(f.data)) == bits(f.array)
        assert f.rule is None
        plain = report.compression is None and {x.severity for x in report.findings} <= {"info"}
        assert (f.verdict == "valid") == plain


@pytest.mark.parametrize(
    "rule", ["IDX101", "IDX102", "IDX103", "IDX104", "IDX201", "IDX202", "IDX203", "IDX401"]
)
def test_files_reach_each_header_and_size_error(rule):
    f = find(files(), lambda f: f.rule == rule, settings=SEARCH)
    assert f.verdict == "invalid" and f.mutations


def test_files_reach_valid_and_implementation_defined():
    assert find(files(), lambda f: f.verdict == "valid" and f.array.size > 1, settings=SEARCH).rules == ()
    assert "IDX304" in find(files(), lambda f: "IDX304" in f.rules and f.verdict != "invalid", settings=SEARCH).rules
    assert find(files(gzip=True), lambda f: "gzip" in f.mutations and f.verdict == "implementation-defined", settings=SEARCH)


def test_reference_judges_plain_bytes():
    good = idxkit.save(None, np.array([1, 2], dtype=np.int16))
    assert reference(good).verdict == "valid"
    assert reference(good[:-1]).rule == "IDX202"
    assert reference(good + b"\0").rule == "IDX203"
    assert reference(idxkit.save(None, np.array(3, dtype=np.uint8))).verdict == "implementation-defined"


# --- the checks find planted bugs, shrunk --------------------------------------


def test_check_writer_finds_the_native_order_writer_with_a_shrunk_reproducer():
    report = idxkit.check_writer(native_order_writer, strategy=arrays(), settings=FIXED)
    assert not report.ok
    (failure,) = report.failures
    assert failure.status == "wrong-bytes"
    assert failure.rule == "§2"
    assert "little-endian" in failure.detail
    # shrunk: the smallest array with a multi-byte element whose bytes differ
    a = failure.example
    assert (a.dtype, a.shape, a.tolist()) == (np.dtype(np.int16), (), 1)
    assert failure.reproducer == "numpy.frombuffer(bytes.fromhex('0001'), dtype='>i2').reshape(()).astype('int16')"
    rebuilt = eval(failure.reproducer, {"numpy": np})
    assert bits(rebuilt) == bits(a) and rebuilt.dtype == a.dtype
    assert native_order_writer(rebuilt) != idxkit.save(None, rebuilt)
    with pytest.raises(AssertionError, match=re.escape("wrong-bytes (§2)")):
        report.assert_ok()


def test_a_writer_whose_bytes_break_a_rule_is_told_the_references_finding_in_its_words():
    def short_writer(a):
        return idxkit.save(None, a)[:-1]  # drops the last payload byte

    report = idxkit.check_writer(short_writer, strategy=arrays(), settings=FIXED)
    # an empty array loses a dimension byte, the others a payload byte
    assert sorted((f.status, f.rule) for f in report.failures) == [("wrong-bytes", "IDX104"), ("wrong-bytes", "IDX202")]
    for failure in report.failures:
        got = short_writer(failure.example)
        first = next(f for f in idxkit.validate(got).findings if f.severity == "error")
        # the finding's one text form, as str() and every front end give it
        assert failure.detail.startswith(str(first) + "; "), failure.detail


def test_check_reader_finds_the_reader_that_ignores_trailing_bytes_with_a_shrunk_reproducer():
    report = idxkit.check_reader(lenient_reader, strategy=files(), pass_as="bytes", settings=FIXED)
    assert not report.ok
    (failure,) = report.failures
    assert failure.status == "accepted-invalid"
    assert failure.rule == "IDX203"
    f = failure.example
    # shrunk: a rank-0 uint8 file and one appended byte
    assert f.data == bytes.fromhex("000008000000")
    assert f.rule == "IDX203" and f.verdict == "invalid" and f.mutations == ("append",)
    assert failure.reproducer == "bytes.fromhex('000008000000')"


def test_corpus_and_property_checks_report_in_one_shape():
    """Both modes return a report with .mode, .ok, .assert_ok() and
    .failures (each with .status and .detail), .ok being not .failures."""
    corpus = idxkit.check_reader(lenient_reader, pass_as="bytes", run=["invalid-trailing-*", "valid-u8-rank1"])
    prop = idxkit.check_reader(lenient_reader, strategy=files(), pass_as="bytes", settings=FIXED)
    for report in (corpus, prop):
        assert report.mode == "reader"
        assert not report.ok and report.ok == (not report.failures)
        assert {f.status for f in report.failures} == {"accepted-invalid"}
        assert all(f.detail for f in report.failures)
        with pytest.raises(AssertionError):
            report.assert_ok()
    assert {f.id for f in corpus.failures} == {c for c, s in corpus.statuses if s == "accepted-invalid"}
    # an expected failure is no failure
    expected = idxkit.check_reader(lenient_reader, pass_as="bytes", run=["invalid-trailing-*"], expected_failures=["*"])
    assert expected.ok and expected.failures == []
    writer = idxkit.check_writer(native_order_writer, run=["valid-f32-rank1"])
    assert [(f.id, f.status) for f in writer.failures] == [("valid-f32-rank1", "wrong-bytes")]


def test_a_correct_writer_and_reader_pass():
    assert idxkit.check_writer(lambda a: idxkit.save(None, a), strategy=arrays(byte_orders="=<>"), settings=FIXED).ok
    for pass_as in ["path", "bytes", "file"]:
        assert idxkit.check_reader(idxkit.load, strategy=files(gzip=True), pass_as=pass_as, settings=FIXED).ok


def test_writers_by_path_and_file_object():
    def by_path(path, a):
        with open(path, "wb") as f:
            f.write(native_order_writer(a))

    def by_file(f, a):
        f.write(idxkit.save(None, a))

    assert idxkit.check_writer(by_path, strategy=arrays(), pass_as="path", settings=FIXED).failures[0].rule == "§2"
    assert idxkit.check_writer(by_file, strategy=arrays(), pass_as="file", settings=FIXED).ok


def test_several_kinds_of_failure_are_each_shrunk():
    def reader(data):
        a = lenient_reader(data)
        return a.astype(a.dtype.newbyteorder("<")).view(a.dtype.newbyteorder(">"))  # byte-swapped

    report = idxkit.check_reader(reader, strategy=files(), pass_as="bytes", settings=FIXED)
    kinds = {(f.status, f.rule) for f in report.failures}
    assert kinds == {("accepted-invalid", "IDX203"), ("wrong-content", "§2")}


def test_a_refusing_writer_and_a_reader_rejecting_valid_files():
    def refuses(a):
        raise RuntimeError("no")

    w = idxkit.check_writer(refuses, strategy=arrays(), settings=FIXED)
    assert [(f.status, f.rule) for f in w.failures] == [("rejected-valid", "§1")]
    assert w.failures[0].example.dtype == np.uint8 and w.failures[0].example.ndim == 0

    def rejects_rank_2(data):
        a = lenient_reader(data)
        if a.ndim == 2 or len(data) > 4 + 4 * a.ndim + a.nbytes:
            raise ValueError("no")
        return a

    r = idxkit.check_reader(rejects_rank_2, strategy=files(), pass_as="bytes", settings=FIXED)
    assert [(f.status, f.rule) for f in r.failures] == [("rejected-valid", "§1")]
    assert r.failures[0].example.array.shape == (1, 1)


def test_strategy_does_not_mix_with_corpus_selection():
    with pytest.raises(TypeError, match="not with strategy="):
        idxkit.check_writer(native_order_writer, strategy=arrays(), run=["valid-*"])


# --- the idxkit guide's example (docs/guide/idxkit.md; it was the README's) ---


def readme_example():
    text = (ROOT / "docs" / "guide" / "idxkit.md").read_text()
    start = text.index("<!-- the property-based example: run by python/tests/test_testing.py -->")
    return re.search(r"```python\n(.*?)```", text[start:], re.S).group(1)


def test_the_readme_example_finds_the_native_order_writer_in_under_a_second():
    code = readme_example()
    assert len(code.strip().splitlines()) <= 10
    namespace = {}
    exec(compile(code, "docs/guide/idxkit.md", "exec"), namespace)
    tests = [v for k, v in namespace.items() if k.startswith("test_")]
    assert len(tests) == 1
    # CPU time, which the machine's other work does not inflate as it does
    # the wall clock (0.3 to 0.5 s on the project machine)
    start = time.process_time()
    with pytest.raises(AssertionError) as e:
        tests[0]()
    elapsed = time.process_time() - start
    assert "wrong-bytes (§2)" in str(e.value)
    assert "dtype='>i2').reshape(()).astype('int16')" in str(e.value)
    assert elapsed < 1.0, f"{elapsed:.2f} s"


def test_idxkit_needs_no_hypothesis_and_testing_says_it_does():
    import subprocess
    import sys

    code = (
        "import sys; sys.modules['hypothesis'] = None\n"
        "import idxkit, numpy\n"
        "assert idxkit.load(idxkit.save(None, numpy.arange(3, dtype=numpy.uint8))).tolist() == [0, 1, 2]\n"
        "try:\n"
        "    import idxkit.testing\n"
        "except ImportError as e:\n"
        "    print(e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "idxkit.testing needs hypothesis (pip install 'idxkit[testing]')" in out


def test_the_testing_extra_holds_the_hypothesis_the_tests_run_with():
    # pyproject's `testing` extra (pip install idxkit[testing]) and the
    # pinned test requirements name compatible versions of hypothesis
    import hypothesis

    pyproject = (ROOT / "pyproject.toml").read_text()
    extra = re.search(r'^testing = \["hypothesis>=([\d.]+),<(\d+)"\]$', pyproject, re.M)
    assert extra, "pyproject.toml: testing = [\"hypothesis>=X,<Y\"]"
    pinned = re.search(r"^hypothesis==([\d.]+)$", (ROOT / "python" / "requirements-test.txt").read_text(), re.M)
    assert pinned

    def version(v):
        return tuple(int(x) for x in v.split("."))

    low, high = version(extra.group(1)), int(extra.group(2))
    for v in (pinned.group(1), hypothesis.__version__):
        assert low <= version(v) and version(v)[0] < high, v


def test_check_reader_accounts_for_every_corpus_case():
    """Every case of the corpus is run or skipped with its reason, as the
    runner does: the cases no numpy array can hold (rank 65 and 255, a
    shape past numpy's size limit) are skipped and say why, not left out."""
    import json
    from pathlib import Path

    index = json.loads((Path(__file__).parents[2] / "corpus" / "index.json").read_text())
    ids = {c["id"] for c in index["cases"]}
    report = idxkit.check_reader(idxkit.load, pass_as="bytes")
    ran = {r.id for r in report.results}
    skipped = dict(report.skipped)
    assert not ran & skipped.keys()
    assert ran | skipped.keys() == ids, sorted(ids - ran - skipped.keys())
    assert "dimensions" in skipped["impl-rank65-u8"], skipped
    assert "size limit" in skipped["impl-zero-dim-after-overflowing-prefix-i32"], skipped
