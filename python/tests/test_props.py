"""hypothesis properties: save/load identity, no crash on any bytes, and
validate(b) finds an error exactly when load(b) fails, and load(b) issues
an idxkit.ByteOrderWarning exactly when validate(b) reports IDX501 (a
warning: one verdict per file)."""

import gzip
import warnings

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import idxkit
from conftest import bits

DTYPES = [np.dtype(t).newbyteorder(o) for t in ["u1", "i1", "i2", "i4", "f4", "f8"] for o in "<>"]

arrays = st.sampled_from(DTYPES).flatmap(
    lambda dt: hnp.arrays(
        dt,
        hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=5),
        # any bit pattern: floats from raw integers, so NaN payloads and -0.0 occur
        elements=None,
    )
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(arrays, st.booleans())
def test_save_then_load_is_identity_bit_for_bit(a, compress):
    data = idxkit.save(None, a, compress=compress)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        b = idxkit.load(data)
    assert all(w.category is idxkit.ByteOrderWarning for w in caught)
    assert b.shape == a.shape
    assert b.dtype == a.dtype.newbyteorder("=")
    assert bits(b) == bits(a)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["u1", "i1", "i2", "i4", "f4", "f8"]), st.binary(max_size=64))
def test_floats_and_integers_keep_every_bit_pattern(t, raw):
    width = np.dtype(t).itemsize
    raw = raw[: len(raw) // width * width]
    a = np.frombuffer(raw, dtype=np.dtype(t).newbyteorder(">"))
    out = idxkit.save(None, a)
    assert out[8:] == raw  # the payload is the big-endian elements themselves
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", idxkit.ByteOrderWarning)
        assert bits(idxkit.load(out)) == raw


def _readable(b):
    """validate's verdict on whether load reads ``b`` (no error: IDX501 is
    a warning, spec 6.1), and whether it reports the byte-order finding."""
    findings = idxkit.validate(b).findings
    readable = not any(f.severity == "error" for f in findings)
    return readable, readable and any(f.rule == "IDX501" for f in findings)


def _loads(b):
    """Whether load reads ``b``, and whether it warned of its byte order
    (an idxkit.ByteOrderWarning, the only warning load issues)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            idxkit.load(b)
            loaded = True
        except idxkit.InvalidFileError as e:
            assert e.findings and e.findings[0].severity == "error"
            loaded = False
    assert all(w.category is idxkit.ByteOrderWarning for w in caught)
    assert len(caught) <= 1
    return loaded, bool(caught)


@settings(max_examples=500, deadline=None)
@given(st.binary(max_size=300))
def test_arbitrary_bytes_never_crash_and_readable_iff_load_succeeds(b):
    assert _readable(b) == _loads(b)


@st.composite
def mutated_files(draw):
    """Valid encodings, then truncated, extended or with bytes replaced (sometimes gzipped)."""
    a = draw(arrays)
    data = bytearray(idxkit.save(None, a))
    op = draw(st.sampled_from(["none", "truncate", "extend", "replace"]))
    if op == "truncate":
        del data[draw(st.integers(0, len(data))) :]
    elif op == "extend":
        data += draw(st.binary(min_size=1, max_size=16))
    elif op == "replace" and data:
        i = draw(st.integers(0, len(data) - 1))
        data[i] = draw(st.integers(0, 255))
    data = bytes(data)
    if draw(st.booleans()):
        data = gzip.compress(data)
    return data


@settings(max_examples=500, deadline=None)
@given(mutated_files())
def test_mutated_files_readable_iff_load_succeeds(b):
    assert _readable(b) == _loads(b)


def test_a_signalling_nan_survives_save_and_load():
    snan = np.array([0x7F800001, 0xFFA00000], dtype=np.uint32).view(np.float32)
    out = idxkit.save(None, snan)
    assert out[8:] == bytes.fromhex("7f800001ffa00000")
    assert idxkit.load(out).view(np.uint32).tolist() == [0x7F800001, 0xFFA00000]
