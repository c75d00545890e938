"""Property-based checks of anyone's IDX reader or writer, with Hypothesis.

Strategies:

- :func:`arrays`: numpy arrays IDX holds: every element type, rank 0 up to
  the running numpy's limit, zero-length dimensions, every float bit
  pattern (NaN payloads, signalling NaNs, -0.0, subnormals, infinities) and
  the extreme integers; small by default (at most 16 elements).
- :func:`files`: :class:`IdxFile` objects, IDX bytes with the verdict and
  rule codes the reference (:func:`idxkit.validate`) gives them: valid
  encodings of :func:`arrays`, and invalid ones made by the differential
  fuzzer's mutations (truncate, append bytes, change the magic, the type
  code, the rank or a dimension, a shape too large for 64 bits, replace a
  byte, a little-endian header).
- :func:`reference`: the verdict of any bytes, as :func:`files` gives it.

Checks: ``idxkit.check_writer(fn, strategy=arrays())`` and
``idxkit.check_reader(fn, strategy=files())`` (or :func:`check_writer` and
:func:`check_reader` here) run a strategy through Hypothesis and return a
:class:`PropertyReport`; each failure carries the minimal (shrunk) example,
the rule it breaks and a Python expression that reproduces it.

Needs ``hypothesis`` (``pip install 'idxkit[testing]'``); ``import idxkit`` does not.

>>> import numpy, idxkit
>>> from idxkit.testing import arrays
>>> def native_order(a):  # the IDX technical report's writer: elements in native order
...     codes = {"u1": 8, "i1": 9, "i2": 11, "i4": 12, "f4": 13, "f8": 14}
...     head = bytes([0, 0, codes[a.dtype.str[1:]], a.ndim])
...     return head + b"".join(d.to_bytes(4, "big") for d in a.shape) + a.tobytes()
>>> report = idxkit.check_writer(native_order, strategy=arrays())
>>> report.ok
False
>>> print(report.failures[0].reproducer)
numpy.frombuffer(bytes.fromhex('0001'), dtype='>i2').reshape(()).astype('int16')
"""

from __future__ import annotations

import dataclasses
import io
import os
import sys
import tempfile
import warnings
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Type, Union

import numpy as np

try:
    from hypothesis import HealthCheck, given
    from hypothesis import settings as Settings
    from hypothesis import strategies as st
except ImportError as e:  # pragma: no cover (the tests have hypothesis)
    raise ImportError(
        "idxkit.testing needs hypothesis (pip install 'idxkit[testing]'); the rest of idxkit does not"
    ) from e

import idxkit

from ._native import NUMPY_DTYPES, NUMPY_MAX_RANK

__all__ = [
    "DTYPES",
    "MUTATIONS",
    "arrays",
    "files",
    "reference",
    "check_reader",
    "check_writer",
    "IdxFile",
    "PropertyFailure",
    "PropertyReport",
]

#: The numpy dtypes of the IDX element types (native byte order).
DTYPES: Tuple[np.dtype, ...] = tuple(np.dtype(t).newbyteorder("=") for t in NUMPY_DTYPES.values())

#: The mutations :func:`files` applies, as the differential fuzzer's.
MUTATIONS: Tuple[str, ...] = (
    "truncate",
    "append",
    "magic",
    "type",
    "rank",
    "dimension",
    "size-overflow",
    "byte",
    "little-endian-header",
)


# ---------------------------------------------------------------------------
# Arrays


def _float_specials(width: int) -> List[int]:
    """Bit patterns every float check should meet: zeros, subnormals,
    extremes, infinities, quiet and signalling NaNs with payloads."""
    if width == 32:
        exp_bits, mant_bits = 8, 23
    else:
        exp_bits, mant_bits = 11, 52
    sign = 1 << (width - 1)
    exp_all = ((1 << exp_bits) - 1) << mant_bits
    quiet = 1 << (mant_bits - 1)
    one = ((1 << (exp_bits - 1)) - 1) << mant_bits
    return [
        0,  # +0.0
        sign,  # -0.0
        one,  # 1.0
        1,  # the smallest subnormal
        (1 << mant_bits) - 1,  # the largest subnormal
        sign | 1,  # the smallest negative subnormal
        1 << mant_bits,  # the smallest normal
        exp_all - 1,  # the largest finite
        exp_all,  # +inf
        sign | exp_all,  # -inf
        exp_all | quiet,  # the usual quiet NaN
        sign | exp_all | quiet,  # negative quiet NaN
        exp_all | 1,  # a signalling NaN
        exp_all | quiet | 0x5A5,  # a quiet NaN with a payload
        sign | exp_all | (1 << mant_bits) - 1,  # every mantissa bit set
    ]


def _bits(dtype: np.dtype) -> st.SearchStrategy[int]:
    """Elements of ``dtype`` as their bit patterns (unsigned integers of
    the element's width): biased to the special values, then any pattern.
    Every type draws the same kinds of choices, so that Hypothesis can
    shrink an example from one type to a simpler one."""
    width = dtype.itemsize * 8
    mask = (1 << width) - 1
    if dtype.kind == "f":
        special = _float_specials(width)
    else:
        info = np.iinfo(dtype)
        values = [0, 1, -1, 2, int(info.min), int(info.max), int(info.min) + 1, int(info.max) - 1, 0x7F, 0x80, 0xFF]
        special = [v & mask for v in values if info.min <= v <= info.max]
    return st.one_of(st.sampled_from(list(dict.fromkeys(special))), st.integers(0, mask))


@st.composite
def _shapes(draw: Any, min_rank: int, max_rank: int, max_side: int, max_size: int) -> Tuple[int, ...]:
    # small ranks most of the time, any rank up to the limit sometimes
    rank = draw(st.one_of(st.integers(min_rank, min(max_rank, max(min_rank, 4))), st.integers(min_rank, max_rank)))
    dims = []
    size = 1
    for _ in range(rank):
        d = draw(st.integers(1, max(1, min(max_side, max_size // size))))
        size *= d
        dims.append(d)
    if rank and draw(st.integers(0, 7)) == 7:  # a zero-length dimension
        dims[draw(st.integers(0, rank - 1))] = 0
    return tuple(dims)


def arrays(
    dtype: Any = None,
    *,
    min_rank: int = 0,
    max_rank: Optional[int] = None,
    max_side: int = 4,
    max_size: int = 16,
    byte_orders: str = "=",
) -> st.SearchStrategy[np.ndarray]:
    """A Hypothesis strategy of numpy arrays that IDX holds.

    ``dtype``: one numpy dtype (with numpy's meaning: ``numpy.int16``,
    ``">f4"``) or None for every IDX element type (uint8, int8, int16,
    int32, float32, float64). Ranks from ``min_rank`` to ``max_rank``
    (default: the running numpy's limit, ``idxkit._native.NUMPY_MAX_RANK``;
    ranks up to 4 are drawn more often), dimensions up to ``max_side``,
    sometimes one of length 0, at most ``max_size`` elements in all. Floats
    are any bit pattern, biased to -0.0, subnormals, infinities and NaNs
    with payloads (signalling ones included); integers are biased to their
    extremes. ``byte_orders``: the byte orders to draw, among ``"="``
    (native), ``"<"`` and ``">"``. Shrinks towards rank 0, uint8 and 0.

    >>> from hypothesis import given
    >>> @given(arrays(max_rank=2))
    ... def test(a):
    ...     assert a.ndim <= 2 and a.size <= 16
    >>> test()
    """
    limit = NUMPY_MAX_RANK if max_rank is None else max_rank
    if not 0 <= min_rank <= limit <= NUMPY_MAX_RANK:
        raise ValueError(f"need 0 <= min_rank <= max_rank <= {NUMPY_MAX_RANK} (the running numpy's limit)")
    if dtype is None:
        dts = st.sampled_from(DTYPES)
    else:
        d = np.dtype(dtype)
        if d.newbyteorder("=") not in DTYPES:
            raise ValueError(f"{d} is not an IDX element type (IDX holds {', '.join(str(t) for t in DTYPES)})")
        dts = st.just(d.newbyteorder("="))
    if not byte_orders or set(byte_orders) - set("=<>"):
        raise ValueError("byte_orders takes '=', '<' and '>'")

    @st.composite
    def make(draw: Any) -> np.ndarray:
        dt = draw(dts)
        shape = draw(_shapes(min_rank, limit, max_side, max_size))
        count = int(np.prod(shape, dtype=np.int64))
        raw = draw(st.lists(_bits(dt), min_size=count, max_size=count))
        a: np.ndarray = np.array(raw, dtype=f"u{dt.itemsize}").view(dt).reshape(shape)
        order = draw(st.sampled_from(byte_orders))
        if order != "=":
            a = a.astype(dt.newbyteorder(order))
        return a

    return make()


_all_arrays = arrays  # (files() has an argument of that name)


# ---------------------------------------------------------------------------
# Files


@dataclasses.dataclass(frozen=True)
class IdxFile:
    """IDX bytes (possibly invalid) and the reference's verdict on them.

    ``verdict`` is ``"valid"`` (a reader MUST accept it with ``array`` as
    its content), ``"invalid"`` (a reader MUST reject it; ``rule`` is the
    code of the first error, as ``idxkit.validate`` finds it) or
    ``"implementation-defined"`` (valid but warned about: rank 0, a zero or
    huge dimension, a high rank, a little-endian payload (IDX501), or gzip;
    any answer is allowed). ``rules`` are the codes of every finding,
    ``mutations`` what was done to a valid encoding to make the bytes.
    """

    data: bytes
    verdict: str
    rule: Optional[str]
    rules: Tuple[str, ...]
    array: Optional[np.ndarray] = dataclasses.field(compare=False)
    mutations: Tuple[str, ...] = ()

    def __repr__(self) -> str:
        return (
            f"IdxFile(verdict={self.verdict!r}, rule={self.rule!r}, rules={self.rules!r}, "
            f"mutations={self.mutations!r}, data=bytes.fromhex({self.data.hex()!r}))"
        )


def reference(data: bytes) -> IdxFile:
    """The reference's verdict on ``data``, as the differential fuzzer gives it.

    >>> import numpy, idxkit
    >>> good = idxkit.save(None, numpy.array([1, 2], dtype=numpy.int16))
    >>> reference(good).verdict, reference(good + b"x").rule
    ('valid', 'IDX203')
    """
    data = bytes(data)
    report = idxkit.validate(data)
    rules = tuple(f.rule for f in report.findings)
    # (the byte-order test's IDX501 is a warning: a file it reads as
    # little-endian is implementation-defined, its content as IDX says)
    first = next((f for f in report.findings if f.severity == "error"), None)
    if first is not None:
        return IdxFile(data, "invalid", first.rule, rules, None)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", idxkit.ByteOrderWarning)  # in `rules` already
            array: Optional[np.ndarray] = idxkit.load(data)
    except idxkit.IdxError:  # a rank above the running numpy's limit (warned: IDX304)
        array = None
    warned = report.compression is not None or any(f.severity == "warning" for f in report.findings)
    return IdxFile(data, "implementation-defined" if warned else "valid", None, rules, array)


def _header_len(data: Union[bytes, bytearray]) -> int:
    return 4 + 4 * data[3] if len(data) >= 4 else len(data)


def _mutate(draw: Any, data: bytearray, op: str) -> bytearray:
    n = len(data)
    if op == "truncate" and n:
        cut = draw(st.one_of(st.just(min(_header_len(data), n - 1)), st.integers(0, n - 1)))
        return bytearray(data[:cut])
    if op == "append":
        extra = draw(
            st.one_of(
                st.binary(min_size=1, max_size=8),
                st.integers(1, 8).map(lambda k: bytes(k)),
                st.just(bytes(data)),
            )
        )
        return bytearray(data + extra)
    if op == "magic" and n >= 2:
        data[draw(st.integers(0, 1))] = draw(st.integers(1, 255))
    elif op == "type" and n >= 3:
        data[2] = draw(st.sampled_from([0x08, 0x09, 0x0B, 0x0C, 0x0D, 0x0E, 0x00, 0x0A, 0x0F, 0x1E, 0xFF]))
    elif op == "rank" and n >= 4:
        rank = data[3]
        how = draw(st.sampled_from(["add", "drop", "byte"]))
        if how == "add" and rank < 255:
            at = 4 + 4 * draw(st.integers(0, rank))
            d = draw(st.sampled_from([1, 2, 0, 3]))
            data[3] = rank + 1
            data[at:at] = d.to_bytes(4, "big")
        elif how == "drop" and rank > 0 and n >= 4 + 4 * rank:
            at = 4 + 4 * draw(st.integers(0, rank - 1))
            data[3] = rank - 1
            del data[at : at + 4]
        else:
            data[3] = draw(st.integers(0, 255))
    elif op == "dimension" and n >= 8 and data[3] > 0:
        k = draw(st.integers(0, min(data[3], (n - 4) // 4) - 1))
        at = 4 + 4 * k
        old = int.from_bytes(data[at : at + 4], "big")
        new = draw(
            st.sampled_from(
                [0, 1, 2, 2**31 - 1, 2**31, 2**31 + 1, 2**32 - 2, 2**32 - 1, 10_000, (old - 1) % 2**32, (old + 1) % 2**32]
            )
        )
        data[at : at + 4] = new.to_bytes(4, "big")
    elif op == "size-overflow" and n >= 4:
        # a shape whose byte count does not fit in 64 bits (IDX201), the
        # payload kept
        rank = draw(st.integers(3, 4))
        data[3:_header_len(data)] = bytes([rank]) + b"\xff\xff\xff\xff" * rank
    elif op == "byte" and n:
        # biased to the header
        i = draw(st.one_of(st.integers(0, min(n, _header_len(data)) - 1), st.integers(0, n - 1)))
        data[i] = draw(st.integers(0, 255))
    elif op == "little-endian-header" and n >= 4:
        h = min(n, _header_len(data))
        data[0:4] = bytes(reversed(data[0:4]))
        for at in range(4, h - 3, 4):
            data[at : at + 4] = bytes(reversed(data[at : at + 4]))
    return data


def files(
    arrays: Optional[st.SearchStrategy[np.ndarray]] = None,
    *,
    max_mutations: int = 2,
    mutations: Sequence[str] = MUTATIONS,
    verdicts: Sequence[str] = ("valid", "invalid", "implementation-defined"),
    gzip: bool = False,
) -> st.SearchStrategy[IdxFile]:
    """A Hypothesis strategy of :class:`IdxFile`: IDX bytes and the reference's verdict.

    Each is the canonical encoding of an array from ``arrays`` (default
    :func:`arrays` with its defaults), then 0 to ``max_mutations`` of
    ``mutations`` (see :data:`MUTATIONS`), then, with ``gzip=True``,
    sometimes gzip-compressed (valid inside gzip is implementation-defined).
    Only files whose verdict is in ``verdicts`` are kept. A mutated
    dimension may declare up to 2^32 - 1 elements: a reader under test must
    not allocate what a header declares before checking the file holds it.

    >>> from hypothesis import given
    >>> @given(files(verdicts=["invalid"]))
    ... def test(f):
    ...     assert f.rule is not None and f.rule.startswith("IDX")
    >>> test()
    """
    unknown = set(mutations) - set(MUTATIONS)
    if unknown:
        raise ValueError(f"unknown mutations {sorted(unknown)}: the mutations are {', '.join(MUTATIONS)}")
    source = _all_arrays() if arrays is None else arrays
    ops = st.sampled_from(list(mutations)) if mutations else st.nothing()

    @st.composite
    def make(draw: Any) -> IdxFile:
        a = draw(source)
        data = bytearray(idxkit.save(None, a) or b"")
        done: List[str] = []
        for _ in range(draw(st.integers(0, max_mutations if mutations else 0))):
            op = draw(ops)
            data = _mutate(draw, data, op)
            done.append(op)
        out = bytes(data)
        if gzip and draw(st.booleans()):
            import gzip as gz

            out = gz.compress(out, mtime=0)
            done.append("gzip")
        f = reference(out)
        return dataclasses.replace(f, mutations=tuple(done))

    return make().filter(lambda f: f.verdict in verdicts)


# ---------------------------------------------------------------------------
# Reports


def _hex(b: bytes, limit: int = 48) -> str:
    text = b[:limit].hex(" ")
    return text + (f" ... ({len(b)} bytes)" if len(b) > limit else "")


def _array_expr(a: np.ndarray) -> str:
    """A Python expression that rebuilds ``a`` bit for bit (dtype and byte order included)."""
    big = a.astype(a.dtype.newbyteorder(">"))
    expr = f"numpy.frombuffer(bytes.fromhex({big.tobytes().hex()!r}), dtype={big.dtype.str!r}).reshape({a.shape!r})"
    if a.dtype.itemsize > 1 and a.dtype.isnative:
        expr += f".astype({a.dtype.name!r})"
    return expr


@dataclasses.dataclass(frozen=True)
class PropertyFailure:
    """One failure a property-based check found, on its shrunk example.

    ``status`` is the conformance runner's (``wrong-bytes``,
    ``rejected-valid``, ``accepted-invalid``, ``wrong-content``); ``rule``
    the rule broken: an IDX rule code (``IDX203``, the reference's first
    error on the bytes) or, where no code applies, the spec's clause
    (``§2`` elements are big-endian, ``§2.2`` float bits are kept, ``§1``
    a valid file is read, ``§3`` the encoding is canonical). ``example`` is
    the minimal array (writers) or :class:`IdxFile` (readers) Hypothesis
    shrank the failure to, ``reproducer`` a Python expression that rebuilds
    it, ``detail`` what differed.
    """

    status: str
    rule: str
    detail: str
    example: Any
    reproducer: str

    def __str__(self) -> str:
        return f"{self.status} ({self.rule}): {self.detail}\n  minimal example: {self.reproducer}"


@dataclasses.dataclass(frozen=True)
class PropertyReport:
    """The result of :func:`check_writer` or :func:`check_reader` with a strategy.

    ``failures`` holds one :class:`PropertyFailure` per distinct kind of
    failure (status and rule), each on its shrunk example.
    """

    mode: str
    failures: Tuple[PropertyFailure, ...]

    @property
    def ok(self) -> bool:
        """No failure found."""
        return not self.failures

    def assert_ok(self) -> None:
        """Raise ``AssertionError`` with the failures (the shrunk examples) unless ok."""
        if self.failures:
            raise AssertionError(str(self))

    def __str__(self) -> str:
        if not self.failures:
            return f"{self.mode}: no failure found"
        lines = [f"{self.mode}: {len(self.failures)} kind(s) of failure, each on its minimal example"]
        lines += [f"- {f}" for f in self.failures]
        return "\n".join(lines)


class _Failed(AssertionError):
    failure: PropertyFailure


_FAILURE_TYPES: Dict[Tuple[str, str], Type[_Failed]] = {}


def _fail(failure: PropertyFailure) -> _Failed:
    """An exception whose type is the failure's kind: Hypothesis shrinks
    (and reports) each kind of failure on its own."""
    key = (failure.status, failure.rule)
    cls = _FAILURE_TYPES.get(key)
    if cls is None:
        cls = type(f"Failed[{failure.status} {failure.rule}]", (_Failed,), {})
        _FAILURE_TYPES[key] = cls
    e = cls(str(failure))
    e.failure = failure
    return e


def _run(
    mode: str, strategy: st.SearchStrategy[Any], judge: Callable[[Any], None], settings: Optional[Settings]
) -> PropertyReport:
    if settings is None:
        settings = Settings(
            max_examples=200,
            deadline=None,
            database=None,
            report_multiple_bugs=True,
            suppress_health_check=[
                HealthCheck.too_slow,
                HealthCheck.data_too_large,
                HealthCheck.filter_too_much,
                HealthCheck.large_base_example,
            ],
        )
    test = settings(given(strategy)(judge))
    try:
        test()
    except _Failed as e:
        return PropertyReport(mode, (e.failure,))
    except BaseException as e:  # an exception group of several kinds
        found = _flatten(e)
        if not found or len(found) != len(getattr(e, "exceptions", ())):
            raise
        return PropertyReport(mode, tuple(sorted(found, key=lambda f: (f.status, f.rule))))
    return PropertyReport(mode, ())


def _flatten(e: BaseException) -> List[PropertyFailure]:
    if isinstance(e, _Failed):
        return [e.failure]
    out: List[PropertyFailure] = []
    for inner in getattr(e, "exceptions", ()):
        out += _flatten(inner)
    return out


def _payload_rule(a: np.ndarray, expected: bytes, got: bytes, header_len: int) -> Tuple[str, str]:
    """The clause a payload with the right length but other bytes breaks."""
    size = a.dtype.itemsize
    exp = np.frombuffer(expected[header_len:], dtype=np.uint8).reshape(-1, size)
    out = np.frombuffer(got[header_len:], dtype=np.uint8).reshape(-1, size)
    if size > 1 and np.array_equal(exp[:, ::-1], out):
        return "§2", "the elements are written little-endian (native order): IDX elements are big-endian"
    if a.dtype.kind == "f":
        return "§2.2", "float bit patterns are changed (NaN payloads, -0.0 ...): a writer MUST write the bits it was given"
    return "§3", "the payload differs from the canonical encoding"


def _first_difference(expected: bytes, got: bytes, header_len: int) -> str:
    n = min(len(expected), len(got))
    i = next((i for i in range(n) if expected[i] != got[i]), n)
    where = "header" if i < header_len else "payload"
    return f"first difference at byte {i} ({where})"


def check_writer(
    func: Callable[..., Any],
    strategy: Optional[st.SearchStrategy[np.ndarray]] = None,
    *,
    pass_as: str = "bytes",
    settings: Optional[Settings] = None,
) -> PropertyReport:
    """Check a writer on every array of ``strategy`` (default :func:`arrays`).

    ``func`` gets each array and must produce the canonical encoding
    (``idxkit.save``'s bytes), as in :func:`idxkit.check_writer`: returned
    (``pass_as="bytes"``), written to a path (``"path"``: ``func(path,
    array)``) or to a binary file object (``"file"``). Raising is a
    refusal (``rejected-valid``). ``settings`` are Hypothesis settings
    (default: 200 examples, no deadline, no example database).

    >>> import idxkit
    >>> check_writer(lambda a: idxkit.save(None, a)).ok
    True
    """
    if pass_as not in ("bytes", "path", "file"):
        raise ValueError(f"pass_as must be 'bytes', 'path' or 'file', not {pass_as!r}")
    strategy = arrays() if strategy is None else strategy

    def judge(a: Any) -> None:
        if not isinstance(a, np.ndarray):
            raise TypeError(f"a writer's strategy must give numpy arrays, not {type(a).__name__}")
        expected = idxkit.save(None, a) or b""
        header_len = 4 + 4 * a.ndim
        expr = _array_expr(a)
        try:
            got = _write(func, a.copy(), pass_as)
        except Exception as e:
            raise _fail(
                PropertyFailure("rejected-valid", "§1", f"the writer raised {type(e).__name__}: {e}", a, expr)
            ) from None
        if got == expected:
            return
        report = idxkit.validate(got)
        first = next((f for f in report.findings if f.severity == "error"), None)
        if len(got) == len(expected) and got[:header_len] == expected[:header_len]:
            rule, why = _payload_rule(a, expected, got, header_len)
            lint = next((f for f in report.findings if f.rule == "IDX501"), None)
            if lint is not None:
                why += f" (the reference's {lint.severity} IDX501 says so too)"
        elif first is not None:
            rule, why = first.rule, str(first)
        else:
            rule, why = "§3", "the bytes differ from the canonical encoding"
        detail = (
            f"{why}; {_first_difference(expected, got, header_len)}: "
            f"wrote {_hex(got)} instead of {_hex(expected)}"
        )
        raise _fail(PropertyFailure("wrong-bytes", rule, detail, a, expr))

    return _run("writer", strategy, judge, settings)


def _write(func: Callable[..., Any], a: np.ndarray, pass_as: str) -> bytes:
    if pass_as == "bytes":
        out = func(a)
        if not isinstance(out, (bytes, bytearray, memoryview)):
            raise TypeError(f"the writer returned {type(out).__name__}, not bytes")
        return bytes(out)
    if pass_as == "file":
        buf = io.BytesIO()
        func(buf, a)
        return buf.getvalue()
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "case.idx")
        func(path, a)
        with open(path, "rb") as f:
            return f.read()


def _read(func: Callable[[Any], Any], data: bytes, pass_as: str) -> Any:
    if pass_as == "bytes":
        return func(data)
    if pass_as == "file":
        return func(io.BytesIO(data))
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "case.idx")
        with open(path, "wb") as f:
            f.write(data)
        return func(path)


def _content_problem(expected: np.ndarray, got: Any) -> Optional[Tuple[str, str]]:
    """(rule, detail) when a reader's result is not the expected content."""
    try:
        g = np.asarray(got)
    except Exception as e:
        return "§1", f"the result is not an array ({type(e).__name__}: {e})"
    if g.dtype.kind not in "uif" or g.dtype.newbyteorder("=") != expected.dtype.newbyteorder("="):
        return "§2", f"dtype {g.dtype} instead of {expected.dtype}"
    if g.shape != expected.shape:
        return "§1", f"shape {g.shape} instead of {expected.shape}"
    want = np.ascontiguousarray(expected, dtype=expected.dtype.newbyteorder(">")).view(np.uint8)
    have = np.ascontiguousarray(g, dtype=g.dtype.newbyteorder(">")).view(np.uint8)
    if np.array_equal(want, have):
        return None
    size = expected.dtype.itemsize
    w, h = want.reshape(-1, size), have.reshape(-1, size)
    if size > 1 and np.array_equal(w[:, ::-1], h):
        return "§2", "reads multi-byte elements little-endian: every element is byte-swapped"
    i = int(np.nonzero((w != h).any(axis=1))[0][0])
    rule = "§2.2" if expected.dtype.kind == "f" else "§1"
    return rule, f"element {i} has bits {h[i].tobytes().hex()} instead of {w[i].tobytes().hex()}"


def check_reader(
    func: Callable[[Any], Any],
    strategy: Optional[st.SearchStrategy[Any]] = None,
    *,
    pass_as: str = "path",
    settings: Optional[Settings] = None,
) -> PropertyReport:
    """Check a reader on every file of ``strategy`` (default :func:`files`).

    ``func`` gets each file as a path (``pass_as="path"``), ``bytes`` or a
    binary file object (``"file"``), as in :func:`idxkit.check_reader`,
    and returns the array (anything ``numpy.asarray`` takes) or raises an
    ``Exception`` to reject the file. The strategy gives :class:`IdxFile`
    objects or plain bytes (judged by :func:`reference`). A valid file
    must be read with its content (dtype, shape and bits; else
    ``rejected-valid`` or ``wrong-content``), an invalid one rejected (else
    ``accepted-invalid``, with the first error's rule);
    implementation-defined files may go either way. ``settings`` as for
    :func:`check_writer`.

    >>> import idxkit
    >>> check_reader(idxkit.load, pass_as="bytes").ok
    True
    """
    if pass_as not in ("bytes", "path", "file"):
        raise ValueError(f"pass_as must be 'bytes', 'path' or 'file', not {pass_as!r}")
    strategy = files() if strategy is None else strategy

    def judge(example: Any) -> None:
        f = example if isinstance(example, IdxFile) else reference(bytes(example))
        expr = f"bytes.fromhex({f.data.hex()!r})"
        try:
            got = _read(func, f.data, pass_as)
        except Exception as e:
            if f.verdict == "valid":
                raise _fail(
                    PropertyFailure(
                        "rejected-valid", "§1", f"the reader raised {type(e).__name__}: {e} on a valid file", f, expr
                    )
                ) from None
            return
        if f.verdict == "invalid":
            shown = _shown(got)
            raise _fail(
                PropertyFailure(
                    "accepted-invalid",
                    f.rule or "invalid",
                    f"accepted a file the reference rejects ({f.rule}; findings {', '.join(f.rules)}) and returned {shown}",
                    f,
                    expr,
                )
            )
        if f.verdict == "valid" and f.array is not None:
            problem = _content_problem(f.array, got)
            if problem is not None:
                raise _fail(PropertyFailure("wrong-content", problem[0], problem[1], f, expr))

    return _run("reader", strategy, judge, settings)


def _shown(got: Any) -> str:
    try:
        g = np.asarray(got)
        return f"{g.dtype} {g.shape}"
    except Exception:
        return type(got).__name__
