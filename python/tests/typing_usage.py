"""Typed use of idxkit, checked by `mypy --strict` (scripts/test): the
package's annotations and stubs must let strictly typed code use every
public function without casts or ignores. Not a pytest module (no tests);
running it does real work on a temporary folder."""

from __future__ import annotations

import io
import os
import tempfile
import warnings
from typing import List, Optional, Tuple

import numpy as np
import numpy.typing as npt

import idxkit
from idxkit.testing import IdxFile, PropertyFailure, PropertyReport, arrays, files, reference


def round_trip(folder: str) -> Tuple[int, ...]:
    a: npt.NDArray[np.float32] = np.zeros((2, 3), dtype=np.float32)
    path = os.path.join(folder, "a.idx")
    idxkit.save(path, a)
    data: Optional[bytes] = idxkit.save(None, a, compress=True)
    assert data is not None
    b: np.ndarray = idxkit.load(path)
    c: np.ndarray = idxkit.load(data, max_decompressed="1MiB")
    d: np.ndarray = idxkit.load(io.BytesIO(idxkit.save(None, a) or b""), mmap=False)
    assert b.shape == c.shape == d.shape
    m: np.ndarray = idxkit.load(path, mmap=True)
    return tuple(int(x) for x in m.shape)


def inspect(source: bytes) -> List[str]:
    report: idxkit.Report = idxkit.validate(source, expect_dtype=np.uint8, expect_shape=(None, 2))
    ok: bool = report.ok
    dtype: Optional[np.dtype] = report.dtype
    shape: Optional[Tuple[int, ...]] = report.shape
    rules: List[str] = [f.rule for f in report.findings]
    offsets: List[int] = [f.offset for f in report.errors]
    text: str = str(report) + report.to_json()
    assert isinstance(ok, bool) and (dtype is None or shape is not None) and offsets is not None and text
    return rules


def byte_order(source: bytes) -> bool:
    with warnings.catch_warnings():
        warnings.simplefilter("error", idxkit.ByteOrderWarning)
        try:
            idxkit.load(source, severity={"IDX501": "warning"})
        except idxkit.ByteOrderWarning as w:
            assert isinstance(w, UserWarning)
            return True
    strict: idxkit.Report = idxkit.validate(source, severity="IDX501=error")
    idxkit.fix(source, severity={"IDX501": "error"})
    idxkit.load_pair(source, source, severity=None)
    return not strict.ok


def repair(source: bytes) -> bytes:
    fixed: idxkit.FixReport = idxkit.fix(source, unsafe=True, assume_byte_order="little")
    names: List[Optional[str]] = [a.rule for a in fixed.applied]
    assert names is not None and fixed.dropped_bytes >= 0
    return fixed.data or b""


def errors(folder: str) -> str:
    try:
        idxkit.load(os.path.join(folder, "missing.idx"))
    except FileNotFoundError as e:
        return str(e.filename)
    except idxkit.InvalidFileError as e:
        first: idxkit.Finding = e.findings[0]
        return first.rule
    return ""


def pair(images: str, labels: str) -> Tuple[np.ndarray, np.ndarray]:
    try:
        return idxkit.load_pair(images, labels, classes=10)
    except idxkit.DatasetError as e:
        files_: List[int] = e.files
        raise RuntimeError(f"{files_}: {e.findings[0].rule}") from e


def conformance() -> bool:
    def writer(a: np.ndarray) -> bytes:
        return idxkit.save(None, a) or b""

    corpus: idxkit.ConformanceReport = idxkit.check_writer(writer, run=["valid-u8-*"])
    cases: List[idxkit.CaseResult] = corpus.results
    readers: idxkit.ConformanceReport = idxkit.check_reader(idxkit.load, pass_as="bytes", run=["valid-u8-*"])
    idxkit.assert_conforms(readers)
    return corpus.ok and all(not c.failed for c in cases)


def properties() -> List[str]:
    def writer(a: np.ndarray) -> bytes:
        return idxkit.save(None, a) or b""

    w: PropertyReport = idxkit.check_writer(writer, strategy=arrays(max_rank=3))
    r: PropertyReport = idxkit.check_reader(idxkit.load, strategy=files(), pass_as="bytes")
    failures: Tuple[PropertyFailure, ...] = w.failures + r.failures
    f: IdxFile = reference(b"\0\0\x08\x01\0\0\0\x01\x07")
    return [x.rule for x in failures] + [f.verdict, idxkit.__version__]


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as tmp:
        print(round_trip(tmp), errors(tmp))
    print(inspect(b"\0\0\x08\x01\0\0\0\x01\x07"), len(repair(b"\0\0\x08\x01\0\0\0\x01\x07junk")))
    print(conformance(), properties())
