"""The real MNIST files, gzipped and plain, with the published checksums."""

import gzip
import hashlib

import numpy as np
import pytest

import idxkit
from conftest import mnist

# testdata/mnist/README.md: the decompressed files' sha256 (MNIST's test set).
FILES = {
    "t10k-images-idx3-ubyte": ((10000, 28, 28), "0fa7898d509279e482958e8ce81c8e77db3f2f8254e26661ceb7762c4d494ce7"),
    "t10k-labels-idx1-ubyte": ((10000,), "ff7bcfd416de33731a308c3f266cc351222c34898ecbeaf847f06e48f7ec33f2"),
}

# The class counts of MNIST's test set, as published.
TEST_COUNTS = [980, 1135, 1032, 1010, 982, 892, 958, 1028, 974, 1009]


@pytest.mark.parametrize("name", sorted(FILES))
def test_mnist_loads_gzipped_and_plain_with_the_published_checksum(name, tmp_path):
    shape, sha = FILES[name]
    gz = mnist(name + ".gz")
    a = idxkit.load(gz)
    assert a.shape == shape and a.dtype == np.uint8
    # Writing it back gives the original file, byte for byte.
    assert hashlib.sha256(idxkit.save(None, a)).hexdigest() == sha
    plain = tmp_path / name
    plain.write_bytes(gzip.decompress(gz.read_bytes()))
    b = idxkit.load(plain)
    assert np.array_equal(a, b)
    with open(plain, "rb") as f:
        assert np.array_equal(idxkit.load(f), a)
    report = idxkit.validate(gz)
    assert report.ok and report.findings == [] and report.compression == "gzip"
    assert report.shape == shape and report.dtype == np.uint8


def test_mnist_label_counts_and_pairs():
    x, t = idxkit.load_pair(mnist("t10k-images-idx3-ubyte.gz"), mnist("t10k-labels-idx1-ubyte.gz"), classes=10)
    assert np.bincount(t).tolist() == TEST_COUNTS
    assert x.shape == (10000, 28, 28)
    # MNIST has labels 0..9: with fewer classes the library's IDX803 fires
    with pytest.raises(idxkit.DatasetError) as info:
        idxkit.load_pair(mnist("t10k-images-idx3-ubyte.gz"), mnist("t10k-labels-idx1-ubyte.gz"), classes=9)
    assert info.value.findings[0].rule == "IDX803"
