"""The API around the corpus: sources, errors, options, reports, pairs,
conformance checks and the console scripts."""

import gzip
import io
import json
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

import idxkit
from conftest import CORPUS

TRUNCATED = CORPUS / "invalid" / "invalid-truncated-payload.idx"
LABELS = CORPUS / "valid" / "valid-mnist-labels-u8-10.idx"


def test_every_source_kind_loads_the_same():
    raw = LABELS.read_bytes()
    want = idxkit.load(LABELS)
    for src in (str(LABELS), raw, bytearray(raw), memoryview(raw), io.BytesIO(raw), gzip.compress(raw)):
        assert np.array_equal(idxkit.load(src), want)
    with pytest.raises(TypeError):
        idxkit.load(12)


def test_errors_are_value_errors_with_located_findings():
    with pytest.raises(ValueError) as info:
        idxkit.load(TRUNCATED)
    e = info.value
    assert isinstance(e, idxkit.InvalidFileError) and isinstance(e, idxkit.IdxError)
    f = e.findings[0]
    assert (f.rule, f.name, f.severity, f.offset, f.length) == ("IDX202", "truncated-payload", "error", 10, 0)
    assert "IDX202" in str(e) and "offset 0xa" in str(e)
    assert f.expected is None or isinstance(f.expected, str)
    assert issubclass(idxkit.DatasetError, ValueError) and issubclass(idxkit.UnsupportedDtypeError, ValueError)


def test_decompress_false_rejects_gzip_as_idx402():
    with pytest.raises(idxkit.InvalidFileError) as info:
        idxkit.load(gzip.compress(LABELS.read_bytes()), decompress=False)
    assert info.value.findings[0].rule == "IDX402"


def test_missing_files_raise_os_errors(tmp_path):
    with pytest.raises(OSError):
        idxkit.load(tmp_path / "nope.idx")
    with pytest.raises(OSError):
        idxkit.validate(tmp_path / "nope.idx")


@pytest.mark.parametrize(
    "dtype, advice",
    [
        (np.int64, "int32"),
        (np.uint16, "int32"),
        (np.bool_, "uint8"),
        (np.float16, "float32"),
        (np.complex64, "no complex type"),
        (object, "numbers only"),
    ],
)
def test_save_refuses_dtypes_idx_cannot_hold_and_says_what_to_cast_to(dtype, advice):
    with pytest.raises(idxkit.UnsupportedDtypeError, match=advice):
        idxkit.save(None, np.zeros(3, dtype=dtype))


def test_save_to_a_path_a_file_and_gzip(tmp_path):
    a = np.arange(24, dtype=np.int16).reshape(2, 3, 4)[:, ::-1]  # not contiguous
    idxkit.save(tmp_path / "a.idx", a)
    assert np.array_equal(idxkit.load(tmp_path / "a.idx"), a)
    buf = io.BytesIO()
    idxkit.save(buf, a, compress=True)
    assert buf.getvalue()[:2] == b"\x1f\x8b"
    assert gzip.decompress(buf.getvalue()) == (tmp_path / "a.idx").read_bytes()
    assert np.array_equal(idxkit.load(buf.getvalue()), a)
    # a dimension over 2^32-1 cannot be encoded (a zero-size array keeps it cheap)
    with pytest.raises(idxkit.IdxError, match="32-bit"):
        idxkit.save(None, np.zeros((0, 1 << 32), dtype=np.uint8))


def test_validate_options_and_rendering():
    r = idxkit.validate(LABELS, expect_dtype="float32", expect_shape=(None, 28, 28))
    assert not r.ok
    assert [f.rule for f in r.findings] == ["IDX601", "IDX602"]
    assert idxkit.validate(LABELS, expect_dtype=np.uint8, expect_shape="*").ok
    assert [f.rule for f in idxkit.validate(LABELS, expect_dtype=np.float32, ignore=["IDX6"]).findings] == []
    assert [f.rule for f in idxkit.validate(LABELS, expect_dtype="f4", expect_shape="5", select=["unexpected-shape"]).findings] == ["IDX602"]
    with pytest.raises(ValueError):
        idxkit.validate(LABELS, select=["IDX999"])
    with pytest.raises(ValueError):
        idxkit.validate(LABELS, expect_dtype=np.int64)
    t = idxkit.validate(TRUNCATED)
    assert t.path == str(TRUNCATED) and t.dtype == np.uint8 and t.errors == t.findings
    assert json.loads(t.to_json())["files"][0]["findings"][0]["rule"] == "IDX202"
    b = idxkit.validate(TRUNCATED.read_bytes())
    assert b.path is None and b.findings == t.findings


def test_str_of_a_report_is_the_commands_human_output():
    exe = shutil.which("idx-validate", path=str(Path(sys.executable).parent))
    assert exe, "the wheel's idx-validate console script is not installed"
    for path in (TRUNCATED, LABELS, CORPUS / "invalid" / "invalid-unknown-type-07.idx"):
        cli = subprocess.run([exe, "--color", "never", str(path)], capture_output=True, text=True)
        assert str(idxkit.validate(str(path))) == cli.stdout


def test_console_scripts_are_the_commands():
    bindir = Path(sys.executable).parent
    v = str(bindir / "idx-validate")
    assert subprocess.run([v, str(LABELS)], capture_output=True).returncode == 0
    assert subprocess.run([v, str(TRUNCATED)], capture_output=True).returncode == 1
    assert subprocess.run([v, "--no-such-option"], capture_output=True).returncode == 2
    out = subprocess.run([str(bindir / "idx"), "dump", str(LABELS)], capture_output=True, text=True)
    assert out.returncode == 0 and json.loads(out.stdout)["shape"] == [10]


def test_console_scripts_keep_the_stream_promises(tmp_path):
    """The wheel's commands are the binaries: `-` as an output is standard
    output, a file redirected to standard input is an input no output
    replaces, `idx write` prints nothing on stdout for bad content, and a
    Fortran-order .npy converts."""
    bindir = Path(sys.executable).parent
    v, idx = str(bindir / "idx-validate"), str(bindir / "idx")
    x = tmp_path / "x.idx"
    x.write_bytes(LABELS.read_bytes())
    with open(x, "rb") as stdin:
        p = subprocess.run([v, "--output-file", str(x), "-"], stdin=stdin, capture_output=True, text=True)
    assert p.returncode == 2 and "is one of the inputs" in p.stderr, p.stderr
    assert x.read_bytes() == LABELS.read_bytes()
    le = tmp_path / "le.idx"  # u8 [2] with its header little-endian: IDX401, a safe fix
    le.write_bytes(bytes([1, 8, 0, 0, 2, 0, 0, 0, 7, 9]))
    p = subprocess.run([v, "--fix", "--output", "-", str(le)], capture_output=True, cwd=tmp_path)
    assert p.returncode == 0 and p.stdout == bytes([0, 0, 8, 1, 0, 0, 0, 2, 7, 9]), p.stderr
    assert not (tmp_path / "-").exists()
    p = subprocess.run([idx, "show", "--png", "-", str(LABELS)], capture_output=True, cwd=tmp_path)
    assert p.returncode == 0 and p.stdout.startswith(b"\x89PNG\r\n\x1a\n"), p.stderr
    assert not (tmp_path / "-").exists()
    p = subprocess.run([idx, "write"], input=b'{"dtype": "u8", "shape": [3], "data": [1, 2]}', capture_output=True)
    assert p.returncode == 1 and p.stdout == b"" and b"bad content JSON" in p.stderr
    fortran = tmp_path / "f.npy"
    a = np.arange(24, dtype="<i2").reshape(2, 3, 4)
    np.save(fortran, np.asfortranarray(a))
    p = subprocess.run([idx, "convert", "--from", "npy", str(fortran), "-o", "-"], capture_output=True)
    assert p.returncode == 0 and p.stdout == idxkit.save(None, a), p.stderr


def test_load_pair_checks_the_counts(tmp_path):
    idxkit.save(tmp_path / "x-images-idx3-ubyte", np.zeros((3, 2, 2), np.uint8))
    idxkit.save(tmp_path / "x-labels-idx1-ubyte", np.array([0, 1, 2], np.uint8))
    idxkit.save(tmp_path / "y-labels-idx1-ubyte", np.array([0, 1], np.uint8))
    x, y = idxkit.load_pair(tmp_path / "x-images-idx3-ubyte", tmp_path / "x-labels-idx1-ubyte")
    assert x.shape == (3, 2, 2) and y.tolist() == [0, 1, 2]
    with pytest.raises(idxkit.DatasetError) as info:
        idxkit.load_pair(tmp_path / "x-images-idx3-ubyte", tmp_path / "y-labels-idx1-ubyte")
    assert isinstance(info.value, ValueError)
    # the library's dataset rule, located on the labels file's dimension 0
    f = info.value.findings[0]
    assert (f.rule, f.severity, f.offset, f.length) == ("IDX801", "error", 4, 4)
    assert info.value.files == [1] and str(info.value) == str(f)  # one text form
    # bytes and file objects too
    with open(tmp_path / "y-labels-idx1-ubyte", "rb") as labels:
        with pytest.raises(idxkit.DatasetError) as info:
            idxkit.load_pair((tmp_path / "x-images-idx3-ubyte").read_bytes(), labels)
    assert [g.rule for g in info.value.findings] == ["IDX801"]


def test_load_pair_checks_the_classes(tmp_path):
    idxkit.save(tmp_path / "images", np.zeros((3, 2, 2), np.uint8))
    idxkit.save(tmp_path / "labels", np.array([0, 9, 2], np.uint8))
    x, y = idxkit.load_pair(tmp_path / "images", tmp_path / "labels", classes=10)
    assert y.tolist() == [0, 9, 2]
    with pytest.raises(idxkit.DatasetError) as info:
        idxkit.load_pair(tmp_path / "images", tmp_path / "labels", classes=5)
    f = info.value.findings[0]
    assert (f.rule, f.offset, f.found) == ("IDX803", 8 + 1, "9")
    # float labels are not classes (IDX802), whatever the counts
    idxkit.save(tmp_path / "float-labels", np.array([0.0, 1.0, 2.0], np.float32))
    with pytest.raises(idxkit.DatasetError) as info:
        idxkit.load_pair(tmp_path / "images", (tmp_path / "float-labels").read_bytes())
    assert "IDX802" in [g.rule for g in info.value.findings]


def test_load_pair_reads_the_labels_once_multi_byte_and_mmap_included(tmp_path):
    # QMNIST-style i32 [N, 2] labels (column 0 the class), loaded as a copy
    # and as a big-endian mmap view: the values checked are those loaded
    idxkit.save(tmp_path / "images", np.zeros((3, 2, 2), np.uint8))
    idxkit.save(tmp_path / "labels", np.array([[0, 70000], [9, -1], [2, 5]], np.int32))
    for mmap in (False, True):
        with pytest.raises(idxkit.DatasetError) as info:
            idxkit.load_pair(tmp_path / "images", tmp_path / "labels", classes=5, mmap=mmap)
        f = info.value.findings[0]
        assert (f.rule, f.offset, f.found) == ("IDX803", 12 + 8, "9")


def test_load_pair_takes_max_decompressed(tmp_path):
    idxkit.save(tmp_path / "images", np.zeros((3, 2, 2), np.uint8))
    idxkit.save(tmp_path / "labels.gz", np.array([0, 1, 2], np.uint8), compress=True)
    x, y = idxkit.load_pair(tmp_path / "images", tmp_path / "labels.gz", max_decompressed="1KiB")
    assert y.tolist() == [0, 1, 2]
    with pytest.raises(idxkit.InvalidFileError) as info:
        idxkit.load_pair(tmp_path / "images", tmp_path / "labels.gz", max_decompressed=5)
    assert info.value.findings[0].rule == "IDX702"


def test_a_writable_buffer_is_read_as_it_was_when_passed():
    # bytearray sources are copied before the GIL is released, so the data
    # the native code reads cannot change under it
    data = bytearray(bytes([0, 0, 8, 1, 0, 0, 0, 3, 1, 2, 3]))
    assert idxkit.load(data).tolist() == [1, 2, 3]
    assert idxkit.validate(data).ok


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_load_pair_reads_a_labels_fifo_once(tmp_path):
    # a second read of the labels (the old scan) waited forever on a FIFO
    # whose writer had finished
    idxkit.save(tmp_path / "x-images-idx3-ubyte", np.zeros((2, 1, 1), np.uint8))
    fifo = tmp_path / "x-labels-idx1-ubyte"
    os.mkfifo(fifo)

    def write():
        with open(fifo, "wb") as f:
            f.write(bytes([0, 0, 8, 1, 0, 0, 0, 2, 3, 4]))

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    outcome = []

    def pair():
        try:
            idxkit.load_pair(tmp_path / "x-images-idx3-ubyte", fifo, classes=4)
        except idxkit.DatasetError as e:
            outcome.append(e.findings[0].rule)

    reader = threading.Thread(target=pair, daemon=True)
    reader.start()
    reader.join(30)
    assert not reader.is_alive(), "load_pair read the labels FIFO twice and hung"
    assert outcome == ["IDX803"]


def test_check_writer_passes_the_reference_and_fails_a_little_endian_writer():
    report = idxkit.check_writer(lambda a: idxkit.save(None, a))
    report.assert_ok()
    assert report.mode == "writer" and len(report.results) > 40
    assert {r.status for r in report.results} <= {"pass", "accepted"}

    def little_endian(a):
        header = idxkit.save(None, a)[: 4 + 4 * a.ndim]
        return header + a.astype(a.dtype.newbyteorder("<")).tobytes()

    bad = idxkit.check_writer(little_endian)
    statuses = dict(bad.statuses)
    assert statuses["valid-f32-rank1"] == "wrong-bytes"
    assert statuses["valid-u8-rank1"] == "pass"
    with pytest.raises(AssertionError, match="wrong-bytes"):
        idxkit.assert_conforms(bad)
    # listed as expected, the same failures pass
    idxkit.check_writer(little_endian, expected_failures=["valid-*"]).assert_ok()


def test_check_writer_pass_as_path_and_file():
    idxkit.check_writer(lambda path, a: idxkit.save(path, a), pass_as="path").assert_ok()
    idxkit.check_writer(lambda f, a: idxkit.save(f, a), pass_as="file").assert_ok()

    def refuses(a):
        raise RuntimeError("no")

    r = idxkit.check_writer(refuses, run=["valid-u8-*"])
    assert {s for _, s in r.statuses} == {"rejected-valid"}
    assert not r.ok


def test_check_reader_passes_load_and_fails_a_lenient_reader():
    for pass_as in ("path", "bytes", "file"):
        # (the impl-little-endian-* cases load with a ByteOrderWarning)
        with pytest.warns(idxkit.ByteOrderWarning):
            idxkit.check_reader(idxkit.load, pass_as=pass_as).assert_ok()

    def lenient(data):  # numpy's frombuffer, trusting the header and ignoring the rest
        rank = data[3]
        dims = [int.from_bytes(data[4 + 4 * i : 8 + 4 * i], "big") for i in range(rank)]
        n = int(np.prod(dims))
        return np.frombuffer(data, dtype=">u1", count=n, offset=4 + 4 * rank).reshape(dims)

    r = idxkit.check_reader(lenient, pass_as="bytes", run=["invalid-trailing-*", "valid-u8-rank1"])
    statuses = dict(r.statuses)
    assert statuses["valid-u8-rank1"] == "pass"
    assert statuses["invalid-trailing-byte"] == "accepted-invalid"
    assert "accepted-invalid" in str(r)


def test_check_reader_gives_a_path_that_names_nothing_of_the_case():
    # It wrote every case as <case id>.idx into one folder: a reader could
    # reject `invalid-*` by its name.
    seen = []

    def look(path):
        folder = os.path.dirname(path)
        seen.append((os.path.basename(path), sorted(os.listdir(folder))))
        return idxkit.load(path)

    r = idxkit.check_reader(look, run=["valid-u8-rank1", "invalid-trailing-byte", "impl-gzip-u8-4x5"])
    assert seen == [
        ("input.idx", ["input.idx"]),
        ("input.idx.gz", ["input.idx.gz"]),
        ("input.idx", ["input.idx"]),
    ]
    assert dict(r.statuses)["invalid-trailing-byte"] == "pass"


def test_a_keyboard_interrupt_in_the_callable_propagates():
    def interrupt(a):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        idxkit.check_writer(interrupt)


def test_an_images_name_on_rank_1_data_is_a_file_name_mismatch(tmp_path):
    """spec 6.3: `images` before `idx<R>` claims at least rank 2, as idx3 claims 3."""
    for name in ("train-images-idx1-ubyte", "train-images-idx3-ubyte"):
        p = tmp_path / name
        p.write_bytes(bytes([0, 0, 8, 1, 0, 0, 0, 2, 7, 9]))
        assert [(f.rule, f.offset) for f in idxkit.validate(p).findings] == [("IDX503", 3)], name
