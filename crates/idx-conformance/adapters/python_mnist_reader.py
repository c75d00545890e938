"""The python-mnist package's reader (module `mnist`, class MNIST).

MNIST.load(path_img, path_lbl) reads an image file and a label file
together; it checks the magic numbers (2049 labels, 2051 images) and
nothing else. Quirk: it needs an image/label pair, so this adapter pairs the
file under test with an empty companion written to a temporary folder: a
file whose first four bytes are 2049 (u8, rank 1) is passed as the labels
with an image file of 0 images; anything else is passed as the images with
a label file of 0 labels. It returns lists; the adapter turns the labels
into a u8 array of their count and the images into a u8 array of
[count, rows, cols] (or, when its images are ragged because the payload was
short, one flat array of every byte it returned).
"""
import os
import struct
import tempfile

import numpy as np
from mnist import MNIST

from _protocol import serve_reader

TMP = tempfile.mkdtemp(prefix="python-mnist-adapter-")
EMPTY_IMAGES = os.path.join(TMP, "empty-images")
EMPTY_LABELS = os.path.join(TMP, "empty-labels")
with open(EMPTY_IMAGES, "wb") as f:
    f.write(struct.pack(">IIII", 2051, 0, 0, 0))
with open(EMPTY_LABELS, "wb") as f:
    f.write(struct.pack(">II", 2049, 0))


def read(path):
    with open(path, "rb") as f:
        head = f.read(4)
    loader = MNIST(TMP)
    if head == struct.pack(">I", 2049):
        _images, labels = loader.load(EMPTY_IMAGES, path)
        return np.array(list(labels), dtype=np.uint8)
    images, _labels = loader.load(path, EMPTY_LABELS)
    with open(path, "rb") as f:
        _magic, count, rows, cols = struct.unpack(">IIII", f.read(16))
    if all(len(im) == rows * cols for im in images):
        return np.array([list(im) for im in images], dtype=np.uint8).reshape(len(images), rows, cols)
    return np.array([b for im in images for b in im], dtype=np.uint8)


if __name__ == "__main__":
    serve_reader(read)
