"""Type stubs of idxkit._native, the Rust extension (crates/idx-python)."""

import os
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np
from typing import final

__all__ = [
    "__version__",
    "NUMPY_MAX_RANK",
    "NUMPY_DTYPES",
    "IdxError",
    "InvalidFileError",
    "UnsupportedDtypeError",
    "DatasetError",
    "ByteOrderWarning",
    "Finding",
    "Report",
    "CaseResult",
    "ConformanceReport",
    "AppliedFix",
    "FixReport",
    "load",
    "load_file_at",
    "load_pair",
    "save",
    "validate",
    "check_reader",
    "check_writer",
    "fix",
    "run_idx_validate",
    "run_idx",
]

__version__: str
"""The package version (the Rust workspace's)."""

NUMPY_MAX_RANK: int
"""The most dimensions the running numpy gives an array (asked of numpy at import)."""

NUMPY_DTYPES: Dict[str, str]
"""Each IDX element type's name (``"u8"``, ..., ``"f64"``, in type-code order) and
its numpy type string as IDX stores it (``"|u1"``, ``">i2"``, ...): the Rust
library's one table (``ElementType::numpy_dtype``)."""

class IdxError(ValueError):
    """Base class of idxkit's errors; a ValueError."""

class InvalidFileError(IdxError):
    """The data breaks a rule of the IDX spec."""

    findings: List["Finding"]

class UnsupportedDtypeError(IdxError):
    """The array's dtype cannot be stored in IDX."""

class DatasetError(IdxError):
    """Files that are each valid do not form a dataset."""

    findings: List["Finding"]
    files: List[int]

class ByteOrderWarning(UserWarning):
    """The byte-order test (IDX501) reads a payload as little-endian: a
    statistical test, not a proof; the file is decoded as IDX says."""

@final
class Finding:
    """One finding of the idx library."""

    @property
    def rule(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def severity(self) -> str: ...
    @property
    def offset(self) -> int: ...
    @property
    def length(self) -> int: ...
    @property
    def message(self) -> str: ...
    @property
    def expected(self) -> Optional[str]: ...
    @property
    def found(self) -> Optional[str]: ...
    @property
    def hint(self) -> Optional[str]: ...
    @property
    def byte_order(self) -> Optional[Dict[str, Union[float, int]]]:
        """IDX501's byte-order test (spec 6.1): score_bits, z, big_endian_bits,
        little_endian_bits, elements, likely_bits, certain_bits; else None."""
        ...
    def __eq__(self, other: object, /) -> bool: ...

@final
class Report:
    """The result of validating one input, as idx-validate sees it."""

    @property
    def ok(self) -> bool: ...
    @property
    def findings(self) -> List[Finding]: ...
    @property
    def errors(self) -> List[Finding]: ...
    @property
    def path(self) -> Optional[str]: ...
    @property
    def dtype(self) -> Optional[np.dtype[Any]]:
        """The numpy dtype load() gives (native byte order), when the header could be read."""
    @property
    def shape(self) -> Optional[Tuple[int, ...]]: ...
    @property
    def compression(self) -> Optional[str]: ...
    def to_json(self) -> str: ...

@final
class AppliedFix:
    """One fix that fix() applied."""

    @property
    def rule(self) -> Optional[str]: ...
    @property
    def name(self) -> Optional[str]: ...
    @property
    def applicability(self) -> str: ...
    @property
    def description(self) -> str: ...
    @property
    def offset(self) -> int: ...
    @property
    def message(self) -> str: ...

@final
class FixReport:
    """What fix() did to one input."""

    @property
    def before(self) -> List[Finding]: ...
    @property
    def applied(self) -> List[AppliedFix]: ...
    @property
    def after(self) -> List[Finding]: ...
    @property
    def dropped_bytes(self) -> int: ...
    @property
    def compressed_output(self) -> bool: ...
    @property
    def changed(self) -> bool: ...
    @property
    def ok(self) -> bool: ...
    @property
    def path(self) -> Optional[str]: ...
    @property
    def data(self) -> Optional[bytes]: ...

@final
class CaseResult:
    """One case of a conformance run."""

    @property
    def id(self) -> str: ...
    @property
    def verdict(self) -> str: ...
    @property
    def status(self) -> str: ...
    @property
    def detail(self) -> str: ...
    @property
    def failed(self) -> bool: ...
    @property
    def expected_failure(self) -> bool: ...

@final
class ConformanceReport:
    """The runner's report of check_reader or check_writer."""

    @property
    def mode(self) -> str: ...
    @property
    def results(self) -> List[CaseResult]: ...
    @property
    def failures(self) -> List[CaseResult]: ...
    @property
    def statuses(self) -> List[Tuple[str, str]]: ...
    @property
    def skipped(self) -> List[Tuple[str, str]]: ...
    @property
    def unexpected_failures(self) -> int: ...
    @property
    def ok(self) -> bool: ...
    def assert_ok(self) -> None: ...
    def to_json(self) -> str: ...

# A source: a path (str, os.PathLike), a bytes-like object or a binary file
# object; each function decides by its kind how it is read.
_Source = Any
# severity overrides: {"IDX501": "error"} or "IDX501=error"
_Severities = Union[Mapping[str, str], str, None]
# a value range: (lo, hi) or "LO..HI"
_ExpectRange = Union[Tuple[int, int], str, None]

def load(
    source: _Source,
    mmap: bool = False,
    decompress: bool = True,
    max_decompressed: Union[int, str, None] = None,
    assume_byte_order: Optional[str] = None,
    severity: _Severities = None,
) -> np.ndarray: ...
def load_file_at(
    path: Union[str, os.PathLike[str]],
    start: int,
    identity: Optional[Tuple[int, int]],
    decompress: bool = True,
    max_decompressed: Union[int, str, None] = None,
    assume_byte_order: Optional[str] = None,
    severity: _Severities = None,
) -> np.ndarray: ...
def load_pair(
    images: _Source,
    labels: _Source,
    classes: Optional[int] = None,
    mmap: bool = False,
    decompress: bool = True,
    max_decompressed: Union[int, str, None] = None,
    severity: _Severities = None,
) -> Tuple[np.ndarray, np.ndarray]: ...
def save(dest: _Source, array: np.ndarray, compress: bool = False) -> Optional[bytes]: ...
def validate(
    source: _Source,
    expect_dtype: Optional[str] = None,  # an IDX name ("u8"): idxkit.validate takes numpy's
    expect_shape: Union[str, Sequence[Optional[int]], None] = None,
    select: Optional[List[str]] = None,
    ignore: Optional[List[str]] = None,
    max_decompressed: Union[int, str, None] = None,
    assume_byte_order: Optional[str] = None,
    severity: _Severities = None,
    expect_range: _ExpectRange = None,
) -> Report: ...
def check_reader(
    func: Callable[[Any], Any],
    pass_as: str = "path",
    expected_failures: List[str] = ...,
    run: List[str] = ...,
    skip: List[str] = ...,
) -> ConformanceReport: ...
def check_writer(
    func: Callable[..., Any],
    pass_as: str = "bytes",
    expected_failures: List[str] = ...,
    run: List[str] = ...,
    skip: List[str] = ...,
) -> ConformanceReport: ...
def fix(
    source: _Source,
    dest: Optional[Union[str, os.PathLike[str]]] = None,
    unsafe_fixes: bool = False,
    assume_byte_order: Optional[str] = None,
    max_decompressed: Union[int, str, None] = None,
    severity: _Severities = None,
    expect_range: _ExpectRange = None,
) -> FixReport: ...
def run_idx_validate(argv: List[str]) -> int: ...
def run_idx(argv: List[str]) -> int: ...
