"""Strict, fast IDX (MNIST-format) loading, saving and validation.

Every check is made by the ``idx`` Rust library of the IDX toolkit (the same
code as the ``idx-validate`` command): a file either loads exactly as the
spec says or raises :class:`InvalidFileError` naming the rule broken and the
byte offset. Parsing, decoding, encoding and validation release the GIL.

>>> import numpy, idxkit
>>> data = idxkit.save(None, numpy.arange(6, dtype=numpy.uint8).reshape(2, 3))
>>> idxkit.load(data).shape
(2, 3)
>>> idxkit.validate(data[:-1]).findings[0].rule
'IDX202'
>>> idxkit.fix(data + b"junk", unsafe=True).data == data
True
"""

from __future__ import annotations

import io
import mmap as _mmap
import os
import stat
from typing import TYPE_CHECKING, Any, BinaryIO, Callable, Dict, Iterable, List, Optional, Sequence, Tuple, Union, cast, overload

import numpy as np
import numpy.typing as npt

from . import _native

if TYPE_CHECKING:  # hypothesis is needed only by idxkit.testing
    import hypothesis
    from typing_extensions import TypeGuard
    from hypothesis.strategies import SearchStrategy

    from .testing import PropertyReport
from ._native import (
    __version__,
    AppliedFix,
    CaseResult,
    ConformanceReport,
    DatasetError,
    Finding,
    FixReport,
    IdxError,
    InvalidFileError,
    Report,
    UnsupportedDtypeError,
)

__all__ = [
    "__version__",
    "load",
    "save",
    "validate",
    "load_pair",
    "fix",
    "check_reader",
    "check_writer",
    "assert_conforms",
    "IdxError",
    "InvalidFileError",
    "UnsupportedDtypeError",
    "DatasetError",
    "Finding",
    "Report",
    "ConformanceReport",
    "CaseResult",
    "FixReport",
    "AppliedFix",
]

Source = Union[str, "os.PathLike[str]", bytes, bytearray, memoryview, BinaryIO]


# IDX element type names and numpy dtypes (big-endian, as in the file).
_BIG_ENDIAN: Dict[str, "np.dtype[Any]"] = {
    "u8": np.dtype("u1"),
    "i8": np.dtype("i1"),
    "i16": np.dtype(">i2"),
    "i32": np.dtype(">i4"),
    "f32": np.dtype(">f4"),
    "f64": np.dtype(">f8"),
}


def _is_path(source: object) -> "TypeGuard[Union[str, os.PathLike[str]]]":
    return isinstance(source, (str, os.PathLike))


def _u8(data: object) -> np.ndarray:
    """A read-only uint8 view of any bytes-like object: no copy of an
    immutable contiguous buffer (``bytes``, a read-only view). A writable one
    (``bytearray``, a numpy array) is copied first, because the native code
    reads it with the GIL released and another thread could change it
    meanwhile."""
    if type(data) is bytes:
        return np.frombuffer(data, dtype=np.uint8)
    view = memoryview(data)  # type: ignore[arg-type]
    if not view.contiguous or not view.readonly:
        view = memoryview(view.tobytes())
    if view.format != "B" or view.ndim != 1:
        view = view.cast("B")
    return np.frombuffer(view, dtype=np.uint8)


def _bytes_of(source: object) -> np.ndarray:
    """In-memory bytes of a bytes-like object or a binary file object."""
    if hasattr(source, "read"):
        data = source.read()
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise TypeError("the file object must be opened in binary mode")
        return _u8(data)
    try:
        return _u8(source)
    except TypeError:
        raise TypeError(
            f"source must be a path, a bytes-like object or a binary file, not {type(source).__name__}"
        ) from None


MaxDecompressed = Union[int, str, None]


def load(
    source: Source,
    *,
    mmap: bool = False,
    decompress: bool = True,
    max_decompressed: MaxDecompressed = None,
    assume_byte_order: Optional[str] = None,
) -> np.ndarray:
    """Load an IDX file into a numpy array, strictly.

    ``source`` is a path (``str`` or ``os.PathLike``), a bytes-like object or
    a binary file object. gzip data is recognised by its magic and
    decompressed (``decompress=False`` rejects it as IDX402), at most
    ``max_decompressed`` bytes of it (as ``idx-validate --max-decompressed``:
    None for its default of 64 GiB, 0 for no limit, an int of bytes or a size
    such as ``"1GiB"``); a stream that expands further (a decompression bomb)
    raises IDX702 after decoding no more than the limit. The result has
    the file's element type in native byte order and the file's shape (rank 0
    included). The payload is decoded with the GIL released straight into
    the array (numpy's own allocation): from a path in one streaming pass,
    from a file object that ``open`` returned in binary mode by the name of
    its file (from its position on, as a path), from another seekable
    binary file object (holding one uncompressed IDX file from its position
    on) with ``readinto``, so memory is the output array; any other file
    object is read whole first. A file object is left at its end. A large
    uncompressed payload is decoded by up to four threads at once (one per
    core, at least 4 MiB each).

    With ``mmap=True`` (a path to an uncompressed file), the result is a
    read-only array over the memory-mapped payload with the big-endian dtype
    of the file (``>f4``...): nothing is copied or decoded, and the time is
    that of parsing the header.

    A multi-byte payload that the byte-order test calls little-endian
    beyond reasonable doubt (IDX501, an error of :func:`validate`) is
    refused like any other invalid file, unless ``assume_byte_order`` says
    how it is stored: ``"little"`` decodes it as little-endian (numpy
    ``tofile`` on x86; refused only when it reads big-endian beyond
    reasonable doubt), ``"big"`` decodes the bytes as IDX says, untested.

    Raises :class:`InvalidFileError` (a ``ValueError``) for any error finding,
    with ``.findings[0]`` the violation (rule, offset, ...), and, when the
    file cannot be read, the ``OSError`` subclass ``open`` raises
    (``FileNotFoundError``, ``PermissionError``, ``IsADirectoryError``, ...)
    with ``errno`` and ``filename`` set. A rank above the running numpy's
    limit (``NPY_MAXDIMS``: 64 in numpy 2, 32 in numpy 1) raises
    :class:`IdxError` stating the limit.

    >>> import numpy, idxkit
    >>> data = idxkit.save(None, numpy.array([[1.5, -0.0]], dtype=numpy.float32))
    >>> idxkit.load(data)
    array([[ 1.5, -0. ]], dtype=float32)
    >>> idxkit.load(data[:-1])
    Traceback (most recent call last):
    ...
    idxkit.InvalidFileError: IDX202: ...
    """
    order = assume_byte_order
    if mmap:
        return _load_mapped(source, decompress, order)
    if _is_path(source):
        return _native.load_path(os.fspath(source), decompress, max_decompressed, order)
    if hasattr(source, "read"):
        loaded = _load_by_name(source, decompress, max_decompressed, order)  # type: ignore[arg-type]
        if loaded is not None:
            return loaded
        loaded = _load_into(source, decompress, order)  # type: ignore[arg-type]
        if loaded is not None:
            return loaded
    return _native.load_buffer(_bytes_of(source), decompress, max_decompressed, order)


_LONGEST_HEADER = 4 + 4 * 255
_U64 = (1 << 64) - 1


def _load_by_name(
    f: BinaryIO, decompress: bool, max_decompressed: Union[int, str, None], order: Optional[str]
) -> Optional[np.ndarray]:
    """A binary file object from ``open`` (``rb``, ``r+b``...) over a
    regular file that its ``name`` still names: loaded from its position on
    by that path, read at offsets in parallel parts straight into the
    array as ``load(path)`` reads (errors as for the same bytes in memory),
    and left at the end of the file, as reading it whole leaves it. None,
    with the position unchanged, when the object has no such name, or the
    name now names another file: the caller reads through the object."""
    # Exactly what open() returns in binary mode (not a subclass, not a
    # buffer over another raw stream), so the file's bytes are the object's.
    kind = type(f)
    if kind is not io.FileIO and not (
        kind in (io.BufferedReader, io.BufferedRandom) and type(getattr(f, "raw", None)) is io.FileIO
    ):
        return None
    try:
        if not f.readable():
            return None  # reading it raises, as it always did
        name = f.name
        fd = f.fileno()
        if not isinstance(name, (str, bytes)):
            return None
        seen = os.fstat(fd)
        if not stat.S_ISREG(seen.st_mode) or not os.path.samestat(seen, os.stat(name)):
            return None
        start = f.tell()  # a buffered object's pending writes reach the file on any seek
    except (AttributeError, OSError, ValueError):
        return None
    # The native side checks it opened the same file (device, inode) on
    # POSIX; st_dev can be negative (macOS) and st_ino wider than 64 bits
    # (Windows ReFS), hence the masks and no identity elsewhere.
    identity = (seen.st_dev & _U64, seen.st_ino & _U64) if os.name == "posix" else None
    try:
        out = _native.load_file_at(os.fsdecode(name), start, identity, decompress, max_decompressed, order)
    except (OSError, OverflowError):
        # replaced since it was checked, or not readable by name: read
        # through the object, which reports a real read error itself
        f.seek(start)
        return None
    except BaseException:
        f.seek(0, os.SEEK_END)
        raise
    f.seek(0, os.SEEK_END)
    return out


def _load_into(f: BinaryIO, decompress: bool, order: Optional[str]) -> Optional[np.ndarray]:
    """A seekable binary file object holding exactly one uncompressed IDX
    file from its position on, read with ``readinto`` straight into the
    array and converted to native order in place (memory: the array and
    the header). None, with the position where it was, for anything else
    (not seekable, gzip, invalid, missing or trailing bytes): the caller
    then reads it whole, and the library reports what is wrong."""
    try:
        start = f.tell()
        end = f.seek(0, os.SEEK_END)
        f.seek(start)
        readinto: Callable[[memoryview], Optional[int]] = getattr(f, "readinto")
    except (AttributeError, OSError, ValueError):
        # no position or no readinto (io.UnsupportedOperation is both an
        # OSError and a ValueError); a closed file fails again, and is
        # reported, when it is read whole
        return None
    remaining = end - start
    head = f.read(min(max(remaining, 0), _LONGEST_HEADER))
    if remaining < 0 or not isinstance(head, bytes):
        f.seek(start)
        return None
    plan = _native.stream_plan(_u8(head), remaining, decompress, order)
    if plan is None:
        f.seek(start)
        return None
    out, header_len = plan
    f.seek(start + header_len)
    flat: Any = out.reshape(-1).view(np.uint8)
    view = memoryview(flat)
    filled = 0
    while filled < len(view):
        n = readinto(view[filled:])
        if not n:
            break
        filled += n
    if filled < len(view) or f.read(1):
        # the file changed while it was read: read it whole again
        f.seek(start)
        return None
    _native.to_native(out, order)
    return out


def _load_mapped(source: Source, decompress: bool, order: Optional[str]) -> np.ndarray:
    if _is_path(source):
        with open(os.fspath(source), "rb") as f:
            return _map(f, decompress, order)
    if hasattr(source, "fileno"):
        return _map(source, decompress, order)  # type: ignore[arg-type]
    raise TypeError("mmap=True needs a path or a file object with a file descriptor")


def _map(f: BinaryIO, decompress: bool, order: Optional[str]) -> np.ndarray:
    if os.fstat(f.fileno()).st_size == 0:
        # Nothing to map: the library reports the empty file (IDX103).
        return _native.load_buffer(_u8(b""), decompress)
    mapped = _mmap.mmap(f.fileno(), 0, access=_mmap.ACCESS_READ)
    try:
        dtype, dims, header_len = _native.parse_header(np.frombuffer(mapped, dtype=np.uint8), order)
    except InvalidFileError as e:
        # the library recognises gzip (IDX402, at the magic)
        if decompress and e.findings[0].rule == "IDX402":
            raise IdxError(
                "mmap=True needs an uncompressed file and this one is gzip: "
                "load it without mmap, or decompress it first"
            ) from None
        raise
    count = 1
    for d in dims:
        count *= d
    stored = np.dtype(_BIG_ENDIAN[dtype])
    if order == "little":
        stored = stored.newbyteorder("<")
    flat = np.frombuffer(mapped, dtype=stored, count=count, offset=header_len)
    return flat.reshape(tuple(dims))


def save(dest: Union[str, "os.PathLike[str]", BinaryIO, None], array: object, *, compress: bool = False) -> Optional[bytes]:
    """Save an array in the canonical IDX encoding (spec §3).

    ``dest`` is a path, a binary file object, or ``None`` to return the bytes.
    The array's dtype must be one IDX holds (uint8, int8, int16, int32,
    float32, float64, either byte order); others raise
    :class:`UnsupportedDtypeError` saying which type to cast to. Floats are
    written bit for bit (NaN payloads, signalling NaNs and -0.0 included).
    ``compress=True`` writes gzip. A path is written atomically (a complete
    file or none); when it cannot be, the ``OSError`` subclass of the
    system's error (``FileNotFoundError`` for a missing directory,
    ``IsADirectoryError``, ``PermissionError``, ...) with ``errno`` and
    ``filename`` set.

    >>> import numpy, idxkit
    >>> idxkit.save(None, numpy.array([1, 258], dtype=numpy.int16)).hex(" ")
    '00 00 0b 01 00 00 00 02 00 01 01 02'
    >>> idxkit.save(None, numpy.zeros(2, dtype=numpy.int64))
    Traceback (most recent call last):
    ...
    idxkit.UnsupportedDtypeError: ...
    """
    a = np.asarray(array)
    if not a.dtype.isnative:
        a = a.astype(a.dtype.newbyteorder("="))
    if not a.flags.c_contiguous:
        a = a.copy(order="C")  # (numpy.ascontiguousarray would make rank 0 rank 1)
    if dest is None:
        return _native.encode(a, compress)
    if _is_path(dest):
        _native.save_path(os.fspath(dest), a, compress)
        return None
    if hasattr(dest, "write"):
        dest.write(_native.encode(a, compress))
        return None
    raise TypeError(f"dest must be a path, a binary file or None, not {type(dest).__name__}")


# numpy dtypes (native byte order) and the IDX element type names the
# native module takes.
_IDX_NAMES: Dict["np.dtype[Any]", str] = {
    np.dtype("u1"): "u8",
    np.dtype("i1"): "i8",
    np.dtype("i2"): "i16",
    np.dtype("i4"): "i32",
    np.dtype("f4"): "f32",
    np.dtype("f8"): "f64",
}

_IDX_TYPES = "uint8, int8, int16, int32, float32, float64"


def _idx_type(dtype: object, what: str) -> str:
    """The IDX element type name of anything ``numpy.dtype`` takes, with
    numpy's meaning (either byte order). IDX's short names are refused:
    numpy reads ``"u8"`` and ``"i8"`` as uint64 and int64, and not the
    others at all, so the message says which type was probably meant."""
    if isinstance(dtype, str) and dtype in _BIG_ENDIAN:
        meant = _BIG_ENDIAN[dtype].newbyteorder("=")
        try:
            numpy_reads = f"numpy reads {dtype!r} as {np.dtype(dtype)}"
        except TypeError:
            numpy_reads = f"numpy does not read {dtype!r}"
        raise ValueError(
            f"{what} {dtype!r} is IDX's name for {meant}, but {numpy_reads}: "
            f"pass numpy.{meant} or {str(meant)!r}"
        )
    try:
        d = np.dtype(dtype)  # type: ignore[call-overload]
    except (TypeError, ValueError):
        raise ValueError(f"{what} {dtype!r} is not a numpy dtype (IDX holds {_IDX_TYPES})") from None
    name = _IDX_NAMES.get(d.newbyteorder("="))
    if name is None:
        raise ValueError(f"{what} {d} is not an IDX element type (IDX holds {_IDX_TYPES})")
    return name


def validate(
    source: Source,
    *,
    expect_dtype: Optional[npt.DTypeLike] = None,
    expect_shape: Union[str, Sequence[Optional[int]], None] = None,
    select: Optional[Iterable[str]] = None,
    ignore: Optional[Iterable[str]] = None,
    max_decompressed: MaxDecompressed = None,
    assume_byte_order: Optional[str] = None,
) -> Report:
    """Validate IDX data and return every finding, as ``idx-validate`` does.

    ``source`` as for :func:`load` (gzip is decompressed; offsets are then in
    the decompressed stream). ``expect_dtype`` (anything ``numpy.dtype``
    takes, with numpy's meaning: ``numpy.uint8``, ``"uint8"``, ``">i2"``;
    either byte order) and ``expect_shape`` (``(None, 28, 28)`` or
    ``"*,28,28"``) add IDX601 and IDX602. IDX's short type names
    (``"u8"``, ``"i8"``, ``"f32"``, ...) raise ``ValueError`` naming the
    numpy type meant: numpy reads ``"u8"`` as uint64 and ``"i8"`` as int64. ``select`` keeps only the given rules and ``ignore`` drops rules
    (codes such as ``"IDX503"``, names such as ``"file-name-mismatch"``, or
    code prefixes such as ``"IDX5"``), exactly as ``idx-validate --select``
    and ``--ignore`` accept them (an unknown entry raises ``ValueError`` with
    the command's message). ``max_decompressed`` is the decompression limit
    as for :func:`load` (beyond it: IDX702). ``assume_byte_order`` is the
    one verdict :func:`load` gives: ``"big"`` vouches for the bytes (IDX501
    is not reported), ``"little"`` judges the payload as written (IDX501
    only when it reads big-endian beyond doubt), as ``idx-validate
    --assume-byte-order`` does.

    The :class:`Report` has ``.ok`` (no error), ``.findings`` (rule,
    severity, offset, length, message, expected, found, hint), ``.dtype``
    (the ``numpy.dtype`` :func:`load` gives: native byte order), ``.shape``,
    and ``str(report)`` is the command's human output. Raises
    ``OSError`` (the subclass ``open`` raises, with ``errno`` and
    ``filename``) only when the file cannot be read: everything wrong with the
    data is a finding.

    >>> import numpy, idxkit
    >>> data = idxkit.save(None, numpy.zeros((3, 2), dtype=numpy.uint8))
    >>> report = idxkit.validate(data + b"x", expect_dtype=numpy.uint8)
    >>> report.ok, [f.rule for f in report.findings], report.shape
    (False, ['IDX203'], (3, 2))
    >>> idxkit.validate(data, expect_shape="*,3").findings[0].rule
    'IDX602'
    """
    dtype = None if expect_dtype is None else _idx_type(expect_dtype, "expect_dtype")
    rules = None if select is None else list(select)
    dropped = None if ignore is None else list(ignore)
    if _is_path(source):
        return _native.validate(
            path=os.fspath(source),
            expect_dtype=dtype,
            expect_shape=expect_shape,
            select=rules,
            ignore=dropped,
            max_decompressed=max_decompressed,
            assume_byte_order=assume_byte_order,
        )
    return _native.validate(
        data=_bytes_of(source),
        expect_dtype=dtype,
        expect_shape=expect_shape,
        select=rules,
        ignore=dropped,
        max_decompressed=max_decompressed,
        assume_byte_order=assume_byte_order,
    )


def load_pair(
    images: Source,
    labels: Source,
    *,
    classes: Optional[int] = None,
    mmap: bool = False,
    decompress: bool = True,
    max_decompressed: MaxDecompressed = None,
) -> Tuple[np.ndarray, np.ndarray]:
    """Load an image file and its label file (MNIST style) as a pair.

    Each file is loaded as by :func:`load` (``mmap``, ``decompress`` and
    ``max_decompressed`` as there); then the library's dataset rules
    (spec §11, as ``idx-validate --pair IMAGES LABELS``) check the pair: the
    item counts must be equal (IDX801), the labels rank-1 (or QMNIST-style
    rank-2) integers (IDX802) and, with ``classes=N``, in ``0..N-1``
    (IDX803). Raises :class:`DatasetError` (a ``ValueError``) when a dataset
    rule finds an error, with ``.findings`` the dataset findings (warnings
    such as IDX804 included) and ``.files`` the index of the file each is
    about (0 images, 1 labels); when the pair passes the rules the other way
    round, the message says the images and labels look swapped.

    >>> import numpy, idxkit
    >>> images = idxkit.save(None, numpy.zeros((3, 2, 2), dtype=numpy.uint8))
    >>> labels = idxkit.save(None, numpy.array([0, 1, 1], dtype=numpy.uint8))
    >>> x, y = idxkit.load_pair(images, labels)
    >>> x.shape, y.tolist()
    ((3, 2, 2), [0, 1, 1])
    >>> idxkit.load_pair(images, idxkit.save(None, numpy.array([0, 1], dtype=numpy.uint8)))
    Traceback (most recent call last):
    ...
    idxkit.DatasetError: IDX801: ...
    """
    # a file object is read once, into bytes (a uint8 array: bytes-like)
    if hasattr(images, "read"):
        images = cast(Source, _bytes_of(images))
    if hasattr(labels, "read"):
        labels = cast(Source, _bytes_of(labels))
    x = load(images, mmap=mmap, decompress=decompress, max_decompressed=max_decompressed)
    y = load(labels, mmap=mmap, decompress=decompress, max_decompressed=max_decompressed)
    # the label values are those just loaded, as the file stores them
    # (big-endian): the labels file is read once
    found = _check_pair(images, x, labels, y, classes)
    if any(f.severity == "error" for _, f in found):
        first = next(f for _, f in found if f.severity == "error")
        message = f"{first.rule}: {first.message}"
        swapped = _check_pair(labels, y, images, x, classes)
        if not any(f.severity == "error" for _, f in swapped):
            message += (
                "; the images and labels look swapped (they form a dataset the other way round): "
                "load_pair(images, labels) takes the images first"
            )
        err = DatasetError(message)
        err.findings = [f for _, f in found]
        err.files = [i for i, _ in found]
        raise err
    return x, y


def _check_pair(
    images: Source, x: np.ndarray, labels: Source, y: np.ndarray, classes: Optional[int]
) -> List[Tuple[int, Finding]]:
    """The library's dataset findings for the loaded pair (x, y)."""
    payload = np.ascontiguousarray(y, dtype=y.dtype.newbyteorder(">")).reshape(-1).view(np.uint8)
    return _native.check_pair(
        _pair_name(images, "images"),
        _header_of(x),
        _pair_name(labels, "labels"),
        _header_of(y),
        payload,
        classes=classes,
    )


def _pair_name(source: object, role: str) -> str:
    return os.fspath(source) if _is_path(source) else f"<{role} bytes>"


def _header_of(a: np.ndarray) -> Tuple[str, List[int]]:
    """The IDX header of a loaded array: its element type name and shape."""
    return _IDX_NAMES[a.dtype.newbyteorder("=")], [int(d) for d in a.shape]


def fix(
    source: Union[str, "os.PathLike[str]", bytes, bytearray, memoryview, BinaryIO],
    dest: Union[str, "os.PathLike[str]", None] = None,
    *,
    unsafe: bool = False,
    assume_byte_order: Optional[str] = None,
    max_decompressed: MaxDecompressed = None,
) -> FixReport:
    """Repair IDX data with the library's fixes, as ``idx-validate --fix``.

    Safe fixes (the intended array is certain) are always applied;
    ``unsafe=True`` also applies unsafe ones (the payload byte order guessed
    from the little-endian lint IDX501, trailing bytes dropped, a truncated
    last item dropped, non-zero reserved bytes cleared).
    ``assume_byte_order="little"`` states that the writer stored the
    elements little-endian (``numpy.tofile`` on x86, as the IDX technical
    report's writer does), making the byte swap exact and safe; ``"big"``
    never swaps.

    ``source`` is a path or bytes (a bytes-like or binary file object). A
    path is repaired in place when ``dest`` is None (a temporary file in
    the same directory, synced and renamed over the input, its mode bits
    kept; a symlink's target is repaired; nothing is written when no fix
    applies), else the repaired copy is written to ``dest`` the same way
    (gzip when ``dest`` ends in ``.gz``) and the input is never touched.
    For bytes, ``dest`` must be None and the repaired bytes are the report's
    ``.data``. gzip input stays gzip. ``max_decompressed`` is the
    decompression limit as for :func:`load`.

    Returns a :class:`FixReport`: ``.applied`` (:class:`AppliedFix`: rule,
    applicability, description), ``.after`` (the :class:`Finding` objects
    that remain), ``.before``, ``.dropped_bytes``, ``.compressed_output``,
    ``.changed``, ``.ok``. Raises ``OSError`` when the file cannot be read
    (the subclass ``open`` raises, with ``errno`` and ``filename``, when the
    input is missing, unreadable or a directory) or the copy cannot be
    written (the input is then unchanged; ``filename`` is the destination).

    >>> import numpy, idxkit
    >>> data = idxkit.save(None, numpy.arange(4, dtype=numpy.uint8))
    >>> report = idxkit.fix(data + b"junk", unsafe=True)
    >>> [a.rule for a in report.applied], report.dropped_bytes, report.data == data
    (['IDX203'], 4, True)
    """
    if _is_path(source):
        dest_path = None if dest is None else os.fspath(dest)
        return _native.fix_path(os.fspath(source), dest_path, unsafe, assume_byte_order, max_decompressed)
    if dest is not None:
        raise TypeError("dest is for a path source; for bytes, the repaired bytes are the report's .data")
    return _native.fix_buffer(_bytes_of(source), unsafe, assume_byte_order, max_decompressed)


@overload
def check_reader(
    func: Callable[[Any], Any],
    *,
    strategy: None = None,
    pass_as: str = "path",
    expected_failures: Sequence[str] = (),
    run: Sequence[str] = (),
    skip: Sequence[str] = (),
    settings: None = None,
) -> ConformanceReport: ...
@overload
def check_reader(
    func: Callable[[Any], Any],
    *,
    strategy: "SearchStrategy[Any]",
    pass_as: str = "path",
    settings: Optional["hypothesis.settings"] = None,
) -> "PropertyReport": ...
def check_reader(
    func: Callable[[Any], Any],
    *,
    strategy: Optional["SearchStrategy[Any]"] = None,
    pass_as: str = "path",
    expected_failures: Sequence[str] = (),
    run: Sequence[str] = (),
    skip: Sequence[str] = (),
    settings: Optional["hypothesis.settings"] = None,
) -> Union[ConformanceReport, "PropertyReport"]:
    """Run the IDX conformance corpus (shipped in this package) against a reader.

    ``func`` receives each case file as a path (``pass_as="path"``: a
    ``pathlib.Path`` of a file named ``input.idx``, or ``input.idx.gz``, alone
    in a fresh temporary folder, so that nothing in the path says the case), as ``bytes``
    (``"bytes"``) or as a binary file object (``"file"``); it returns the array (anything
    ``numpy.asarray`` accepts) or raises an ``Exception`` to reject the file.
    Each case gets the conformance runner's status: ``pass``,
    ``accepted-invalid``, ``rejected-valid``, ``wrong-content``, and
    ``accepted``/``rejected`` for implementation-defined cases (never
    failures). ``expected_failures``, ``run`` and ``skip`` are case-ID globs.
    Call ``.assert_ok()`` on the result (or :func:`assert_conforms`) in a test.

    With ``strategy=`` (a Hypothesis strategy of files, such as
    ``idxkit.testing.files()``; needs ``hypothesis``), the files are drawn
    from it instead and judged by the reference's verdict; the result is an
    ``idxkit.testing.PropertyReport`` whose failures carry the shrunk file
    and the rule it breaks (see :func:`idxkit.testing.check_reader`;
    ``settings=`` are Hypothesis settings).

    >>> import idxkit
    >>> idxkit.check_reader(idxkit.load, run=["valid-*"]).ok
    True
    """
    if strategy is not None:
        if expected_failures or run or skip:
            raise TypeError("expected_failures, run and skip select corpus cases: not with strategy=")
        from . import testing

        return testing.check_reader(func, strategy, pass_as=pass_as, settings=settings)
    return _native.check_reader(
        func, pass_as, list(expected_failures), list(run), list(skip)
    )


@overload
def check_writer(
    func: Callable[..., Any],
    *,
    strategy: None = None,
    pass_as: str = "bytes",
    expected_failures: Sequence[str] = (),
    run: Sequence[str] = (),
    skip: Sequence[str] = (),
    settings: None = None,
) -> ConformanceReport: ...
@overload
def check_writer(
    func: Callable[..., Any],
    *,
    strategy: "SearchStrategy[np.ndarray]",
    pass_as: str = "bytes",
    settings: Optional["hypothesis.settings"] = None,
) -> "PropertyReport": ...
def check_writer(
    func: Callable[..., Any],
    *,
    strategy: Optional["SearchStrategy[np.ndarray]"] = None,
    pass_as: str = "bytes",
    expected_failures: Sequence[str] = (),
    run: Sequence[str] = (),
    skip: Sequence[str] = (),
    settings: Optional["hypothesis.settings"] = None,
) -> Union[ConformanceReport, "PropertyReport"]:
    """Run the IDX conformance corpus (shipped in this package) against a writer.

    For each case with content, ``func`` gets a native-endian numpy array
    with the case's dtype and shape and must produce the IDX bytes: returned
    (``pass_as="bytes"``: ``func(array) -> bytes``), written to a path
    (``"path"``: ``func(path, array)``) or to a binary file object
    (``"file"``: ``func(file, array)``). The bytes must equal the golden file
    (``pass``, else ``wrong-bytes``); raising an ``Exception`` is a refusal
    (``rejected-valid``). Returns a :class:`ConformanceReport`.

    With ``strategy=`` (a Hypothesis strategy of arrays, such as
    ``idxkit.testing.arrays()``; needs ``hypothesis``), the arrays are drawn
    from it instead and the bytes must be :func:`save`'s; the result is an
    ``idxkit.testing.PropertyReport`` whose failures carry the shrunk array
    and the rule it breaks (see :func:`idxkit.testing.check_writer`;
    ``settings=`` are Hypothesis settings).

    >>> import idxkit
    >>> idxkit.check_writer(lambda a: idxkit.save(None, a), run=["valid-*"]).ok
    True
    """
    if strategy is not None:
        if expected_failures or run or skip:
            raise TypeError("expected_failures, run and skip select corpus cases: not with strategy=")
        from . import testing

        return testing.check_writer(func, strategy, pass_as=pass_as, settings=settings)
    return _native.check_writer(
        func, pass_as, list(expected_failures), list(run), list(skip)
    )


def assert_conforms(report: ConformanceReport) -> None:
    """Raise ``AssertionError`` with the runner's report unless no case failed unexpectedly.

    >>> import idxkit
    >>> idxkit.assert_conforms(idxkit.check_reader(idxkit.load, run=["valid-u8-rank1"]))
    """
    report.assert_ok()
