"""Shared paths and helpers for the idxkit tests.

The corpus manifests (corpus/) and the site's rules index are the
expectations: they are written independently of the code under test.
"""

import json
import os
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import settings

# Property tests are deterministic: each hypothesis test draws from a seed
# fixed by its own source (derandomize), in CI and locally alike; set
# IDX_TEST_SEED=N to run them all from seed N instead (to explore, or to
# re-run what another seed found). The header of every run says which.
_SEED = os.environ.get("IDX_TEST_SEED")
settings.register_profile("fixed-seed", derandomize=True, database=None, print_blob=True)
settings.register_profile("given-seed", derandomize=False, database=None, print_blob=True)
settings.load_profile("given-seed" if _SEED else "fixed-seed")


def pytest_configure(config):
    if _SEED:
        from hypothesis import core

        core.global_force_seed = int(_SEED)


def pytest_report_header(config):
    if _SEED:
        return f"hypothesis: every property test from seed {int(_SEED)} (IDX_TEST_SEED)"
    return "hypothesis: each property test from the seed its source fixes (derandomize); IDX_TEST_SEED=N to use seed N"

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "corpus"
# MNIST's test set, carried by the repository (testdata/mnist/README.md).
MNIST = ROOT / "testdata" / "mnist"

NUMPY_DTYPES = {"u8": "u1", "i8": "i1", "i16": "i2", "i32": "i4", "f32": "f4", "f64": "f8"}


def numpy_max_rank():
    """The running numpy's most dimensions, from numpy's own constant
    (``NPY_MAXDIMS``, exposed privately by numpy 1 and 2)."""
    try:
        from numpy._core import multiarray  # numpy 2
    except ImportError:
        from numpy.core import multiarray  # numpy 1
    return int(multiarray.MAXDIMS)


def manifests():
    index = json.loads((CORPUS / "index.json").read_text())
    out = []
    for case in index["cases"]:
        m = json.loads((CORPUS / case["manifest"]).read_text())
        m["path"] = CORPUS / case["path"]
        out.append(m)
    return out


def severities():
    """Rule code -> severity, from the site's rules index (docs/rules/index.md)."""
    text = (ROOT / "docs" / "rules" / "index.md").read_text()
    return {
        code: sev
        for code, sev in re.findall(
            r"^\| \[(IDX\d{3})\]\(IDX\d{3}\.md\) \| [a-z0-9-]+ \| (error|warning|info) \|", text, re.M
        )
    }


def content_array(content):
    """The manifest's content as a native-endian numpy array (floats from bit patterns)."""
    dtype = content["dtype"]
    data = content["data"]
    if dtype == "f32":
        flat = np.array([int(x, 16) for x in data], dtype=np.uint32).view(np.float32)
    elif dtype == "f64":
        flat = np.array([int(x, 16) for x in data], dtype=np.uint64).view(np.float64)
    else:
        flat = np.array(data, dtype=NUMPY_DTYPES[dtype])
    return flat.reshape(tuple(content["shape"]))


def bits(a):
    """Big-endian bytes of an array: equality by bit pattern."""
    a = np.asarray(a)
    return np.ascontiguousarray(a, dtype=a.dtype.newbyteorder(">")).tobytes()


def mnist(name):
    path = MNIST / name
    if not path.exists():
        pytest.fail(f"{path} is missing: the repository carries MNIST's test set in testdata/mnist")
    return path
