"""The Python layer only normalises arguments: how a source is read (a path,
bytes, a file object, a mapping) is decided by the native module, in one
native call per function; the messages of the sources it refuses are as
they were when Python decided."""

import ast
import inspect
import io
import mmap

import numpy as np
import pytest

import idxkit

DATA = idxkit.save(None, np.arange(6, dtype=np.int16).reshape(2, 3))
LABELS = idxkit.save(None, np.array([0, 1], dtype=np.uint8))


def _code_of(module):
    """The module's imports, and the names and attributes its code uses
    (docstrings left out)."""
    imported, used = set(), set()
    for node in ast.walk(ast.parse(inspect.getsource(module))):
        if isinstance(node, ast.Name):
            used.add(node.id)
        elif isinstance(node, ast.Attribute):
            used.add(node.attr)
        elif isinstance(node, ast.Import):
            imported.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            imported.add(node.module or "")
    return imported, used


def test_the_python_layer_decides_nothing_about_reading():
    imported, used = _code_of(idxkit)
    assert imported & {"io", "mmap", "stat", "os.path"} == set()
    decisions = {
        "fstat", "stat", "samestat", "S_ISREG", "fileno", "readinto", "tell", "seek",
        "frombuffer", "hasattr", "fspath", "load_file_at", "ACCESS_READ",
    }
    assert used & decisions == set()


@pytest.fixture
def native_calls(monkeypatch):
    """The names of the native functions called, in order (those `load`
    calls itself through the module included)."""
    calls = []
    for name in dir(idxkit._native):
        f = getattr(idxkit._native, name)
        if callable(f) and not isinstance(f, type) and not name.startswith("_"):

            def spy(*args, __f=f, __name=name, **kwargs):
                calls.append(__name)
                return __f(*args, **kwargs)

            monkeypatch.setattr(idxkit._native, name, spy)
    return calls


def test_load_is_one_native_call_for_every_kind_of_source(tmp_path, native_calls):
    p = tmp_path / "a.idx"
    p.write_bytes(DATA)
    want = np.arange(6, dtype=np.int16).reshape(2, 3)
    sources = [
        ("path", lambda: idxkit.load(p)),
        ("str", lambda: idxkit.load(str(p))),
        ("bytes", lambda: idxkit.load(DATA)),
        ("bytearray", lambda: idxkit.load(bytearray(DATA))),
        ("BytesIO", lambda: idxkit.load(io.BytesIO(DATA))),
        ("mmap", lambda: idxkit.load(p, mmap=True)),
    ]
    for what, call in sources:
        native_calls.clear()
        assert np.array_equal(call(), want), what
        assert native_calls == ["load"], what
    # a file object from open(): the native load reads it by its name
    with open(p, "rb") as f:
        native_calls.clear()
        assert np.array_equal(idxkit.load(f), want)
    assert native_calls == ["load", "load_file_at"]


def test_validate_fix_save_and_load_pair_are_one_native_call_each(tmp_path, native_calls):
    p = tmp_path / "a.idx"
    for call, name in [
        (lambda: idxkit.save(p, np.zeros(3, np.uint8)), "save"),
        (lambda: idxkit.save(None, np.zeros(3, np.uint8)), "save"),
        (lambda: idxkit.validate(io.BytesIO(DATA)), "validate"),
        (lambda: idxkit.validate(p), "validate"),
        (lambda: idxkit.fix(DATA + b"x", unsafe=True), "fix"),
        (lambda: idxkit.fix(p), "fix"),
        (lambda: idxkit.load_pair(io.BytesIO(DATA), LABELS), "load_pair"),
    ]:
        native_calls.clear()
        call()
        assert native_calls == [name]


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: idxkit.load(12), "source must be a path, a bytes-like object or a binary file, not int"),
        (lambda: idxkit.validate(12.5), "source must be a path, a bytes-like object or a binary file, not float"),
        (lambda: idxkit.fix(None), "source must be a path, a bytes-like object or a binary file, not NoneType"),
        (lambda: idxkit.load(DATA, mmap=True), "mmap=True needs a path or a file object with a file descriptor"),
        (lambda: idxkit.fix(DATA, "out.idx"), "dest is for a path source; for bytes, the repaired bytes"),
        (lambda: idxkit.save(12, np.zeros(2, np.uint8)), "dest must be a path, a binary file or None, not int"),
        (lambda: idxkit.load(io.StringIO("text")), "the file object must be opened in binary mode"),
    ],
)
def test_a_source_of_no_kind_is_a_type_error_saying_which_kinds(call, message):
    with pytest.raises(TypeError) as info:
        call()
    assert str(info.value).startswith(message)


def test_bytes_like_sources_of_any_format_load_as_their_bytes():
    want = idxkit.load(DATA)
    words = np.frombuffer(DATA[:8], dtype=np.uint16)  # a memoryview of format "H"
    assert idxkit.load(memoryview(DATA[:8] + DATA[8:])).tolist() == want.tolist()
    assert idxkit.load(np.frombuffer(DATA, np.uint8).copy()).tolist() == want.tolist()
    every_other = np.frombuffer(bytes(x for b in DATA for x in (b, 0)), np.uint8)[::2]
    assert not memoryview(every_other).contiguous
    assert idxkit.load(memoryview(every_other)).tolist() == want.tolist()
    assert idxkit.load(memoryview(words.tobytes() + DATA[8:]).cast("H")).tolist() == want.tolist()


def test_a_mapped_file_object_is_viewed_over_its_own_mapping(tmp_path):
    p = tmp_path / "a.idx"
    p.write_bytes(DATA)
    with open(p, "rb") as f:
        m = idxkit.load(f, mmap=True)
    assert m.dtype == np.dtype(">i2") and not m.flags.writeable
    base = m
    while base is not None and not isinstance(base, mmap.mmap):
        base = base.base if not isinstance(base, memoryview) else base.obj
    assert isinstance(base, mmap.mmap)
