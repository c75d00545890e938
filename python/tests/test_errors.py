"""Errors Python code catches the usual way: I/O errors are the standard
OSError subclasses with errno and filename, as open() raises them;
idxkit.__version__; a swapped images/labels pair is called swapped."""

import errno
import importlib.metadata
import os

import numpy as np
import pytest

import idxkit
from conftest import CORPUS

LABELS = CORPUS / "valid" / "valid-mnist-labels-u8-10.idx"


def opened(path, mode="rb"):
    """The error open() raises for `path` (given as a str, as numpy.load does)."""
    with pytest.raises(OSError) as info:
        open(str(path), mode)
    return info.value


def assert_like_open(got, want, path):
    assert type(got) is type(want), (got, want)
    assert got.errno == want.errno and got.filename == str(path)
    assert str(path) in str(got)
    assert str(got) == str(want)


def as_str(p):
    return str(p)


@pytest.mark.parametrize("kind", [as_str, lambda p: p], ids=["str", "pathlike"])
def test_a_missing_file_is_file_not_found_as_open_says(tmp_path, kind):
    p = tmp_path / "nope.idx"
    want = opened(p)
    assert isinstance(want, FileNotFoundError)
    for call in (
        lambda: idxkit.load(kind(p)),
        lambda: idxkit.load(kind(p), mmap=True),
        lambda: idxkit.validate(kind(p)),
        lambda: idxkit.fix(kind(p)),
        lambda: idxkit.load_pair(kind(p), LABELS),
    ):
        with pytest.raises(FileNotFoundError) as info:
            call()
        assert_like_open(info.value, want, p)
        assert info.value.errno == errno.ENOENT


def test_a_directory_is_is_a_directory_error(tmp_path):
    d = tmp_path / "adir"
    d.mkdir()
    for call in (lambda: idxkit.load(d), lambda: idxkit.validate(d), lambda: idxkit.fix(d)):
        with pytest.raises(IsADirectoryError) as info:
            call()
        e = info.value
        assert e.errno == errno.EISDIR and e.filename == str(d) and str(d) in str(e)


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root reads any file")
def test_an_unreadable_file_is_a_permission_error(tmp_path):
    p = tmp_path / "secret.idx"
    p.write_bytes(LABELS.read_bytes())
    p.chmod(0)
    want = opened(p)
    for call in (lambda: idxkit.load(p), lambda: idxkit.validate(p), lambda: idxkit.fix(p)):
        with pytest.raises(PermissionError) as info:
            call()
        assert_like_open(info.value, want, p)


def test_saving_into_a_missing_directory_is_file_not_found(tmp_path):
    p = tmp_path / "missing-dir" / "out.idx"
    with pytest.raises(FileNotFoundError) as info:
        idxkit.save(p, np.zeros(3, np.uint8))
    e = info.value
    assert e.errno == errno.ENOENT and e.filename == str(p) and str(p) in str(e)
    assert not (tmp_path / "missing-dir").exists()


def test_saving_onto_a_directory_is_is_a_directory_error(tmp_path):
    d = tmp_path / "adir"
    d.mkdir()
    with pytest.raises(IsADirectoryError) as info:
        idxkit.save(d, np.zeros(3, np.uint8))
    e = info.value
    assert e.errno == errno.EISDIR and e.filename == str(d)
    assert "nothing was written" in str(e) and list(d.iterdir()) == []


def broken_copy(tmp_path):
    """A file fix() repairs (trailing bytes, an unsafe fix), and its bytes."""
    p = tmp_path / "in.idx"
    data = LABELS.read_bytes() + b"junk"
    p.write_bytes(data)
    return p, data


@pytest.mark.parametrize("kind", [as_str, lambda p: p], ids=["str", "pathlike"])
def test_fixing_into_a_missing_directory_is_file_not_found(tmp_path, kind):
    src, data = broken_copy(tmp_path)
    dest = tmp_path / "missing-dir" / "out.idx"
    with pytest.raises(FileNotFoundError) as info:
        idxkit.fix(kind(src), kind(dest), unsafe=True)
    e = info.value
    assert e.errno == errno.ENOENT and e.filename == str(dest) and str(dest) in str(e)
    assert "cannot create a temporary file beside it" in str(e)
    assert src.read_bytes() == data and not (tmp_path / "missing-dir").exists()


def test_fixing_onto_a_directory_is_is_a_directory_error(tmp_path):
    src, data = broken_copy(tmp_path)
    d = tmp_path / "adir"
    d.mkdir()
    with pytest.raises(IsADirectoryError) as info:
        idxkit.fix(src, d, unsafe=True)
    e = info.value
    assert e.errno == errno.EISDIR and e.filename == str(d)
    assert "nothing was written" in str(e) and list(d.iterdir()) == []
    assert src.read_bytes() == data


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root writes anywhere")
def test_fixing_in_a_read_only_directory_is_a_permission_error(tmp_path):
    src, data = broken_copy(tmp_path)
    ro = tmp_path / "ro"
    ro.mkdir()
    inside = ro / "in.idx"
    inside.write_bytes(data)
    ro.chmod(0o555)
    try:
        for call, dest in (
            (lambda: idxkit.fix(src, ro / "out.idx", unsafe=True), ro / "out.idx"),
            (lambda: idxkit.fix(inside, unsafe=True), inside),  # in place
        ):
            with pytest.raises(PermissionError) as info:
                call()
            e = info.value
            assert e.errno == errno.EACCES and e.filename == str(dest)
    finally:
        ro.chmod(0o755)
    assert inside.read_bytes() == data and src.read_bytes() == data


def test_a_file_name_in_an_error_is_escaped(tmp_path):
    p = tmp_path / "bad\x1b[31mname.idx"
    with pytest.raises(FileNotFoundError) as info:
        idxkit.load(p)
    assert "\x1b" not in str(info.value) and info.value.filename == str(p)


def test_version_is_the_package_version():
    assert idxkit.__version__ == importlib.metadata.version("idxkit")
    assert idxkit.__version__ == idxkit._native.__version__


def test_load_pair_with_images_and_labels_swapped_says_so(tmp_path):
    idxkit.save(tmp_path / "train-images-idx3-ubyte", np.zeros((3, 2, 2), np.uint8))
    idxkit.save(tmp_path / "train-labels-idx1-ubyte", np.array([0, 1, 2], np.uint8))
    images, labels = tmp_path / "train-images-idx3-ubyte", tmp_path / "train-labels-idx1-ubyte"
    with pytest.raises(idxkit.DatasetError) as info:
        idxkit.load_pair(labels, images)
    msg = str(info.value)
    assert "look swapped" in msg and "IDX802" in msg
    assert [f.rule for f in info.value.findings] == ["IDX802"]
    # from bytes too, and with classes= (the pixel values are the "labels")
    with pytest.raises(idxkit.DatasetError, match="look swapped"):
        idxkit.load_pair(labels.read_bytes(), images.read_bytes(), classes=10)
    # the right order loads
    x, y = idxkit.load_pair(images, labels, classes=10)
    assert x.shape == (3, 2, 2) and y.tolist() == [0, 1, 2]


def test_a_pair_that_fails_either_way_is_not_called_swapped(tmp_path):
    idxkit.save(tmp_path / "images", np.zeros((3, 2, 2), np.uint8))
    idxkit.save(tmp_path / "labels", np.array([0, 1], np.uint8))
    for pair in ((tmp_path / "images", tmp_path / "labels"), (tmp_path / "labels", tmp_path / "images")):
        with pytest.raises(idxkit.DatasetError) as info:
            idxkit.load_pair(*pair)
        assert "swapped" not in str(info.value)


def _gzip_cases():
    """(file, rule, offset) of every corpus case whose first finding is
    damaged gzip (IDX701) or the decompression limit (IDX702): `load`
    stops at the first error, so a case with an earlier one (a bad header
    decoded before the damage) raises that one."""
    import json

    out = []
    for m in sorted((CORPUS / "invalid").glob("*.json")):
        doc = json.loads(m.read_text())
        first = (doc.get("findings") or [{}])[0]
        if first.get("rule") in ("IDX701", "IDX702"):
            out.append((CORPUS / "invalid" / doc["file"], first["rule"], first["offset"]))
    return out


@pytest.mark.parametrize("source", ["path", "bytes", "file object"])
def test_gzip_damage_and_the_limit_are_located_findings_from_every_source(source):
    cases = _gzip_cases()
    assert len(cases) >= 6
    for path, rule, offset in cases:
        # IDX702 cases are checked under the limit their offset is
        limit = offset if rule == "IDX702" else 0
        with pytest.raises(idxkit.InvalidFileError) as e:
            if source == "path":
                idxkit.load(path, max_decompressed=limit)
            elif source == "bytes":
                idxkit.load(path.read_bytes(), max_decompressed=limit)
            else:
                with open(path, "rb") as f:
                    idxkit.load(f, max_decompressed=limit)
        found = [(f.rule, f.offset) for f in e.value.findings if f.rule in ("IDX701", "IDX702")]
        assert found[:1] == [(rule, offset)], (path.name, e.value.findings)
