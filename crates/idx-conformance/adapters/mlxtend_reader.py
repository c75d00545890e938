"""mlxtend's MNIST reader (PyPI `mlxtend`, mlxtend.data.loadlocal_mnist).

loadlocal_mnist(images_path, labels_path) reads an image file and a label
file together: 8 header bytes of the labels, then every remaining byte as a
u8 label (np.fromfile); 16 header bytes of the images, then every remaining
byte reshaped to (number of labels, 784). It checks no header field (not
even the magic numbers) and never reads the image count, rows or columns.

Quirks the adapter handles:
- It needs a pair, and reshapes the images to as many rows as it found
  labels. A file of rank 1 (byte 3) is passed as the labels, with a
  companion image file of as many zero images as the file has bytes after
  its 8-byte header (the labels loadlocal_mnist will find); any other file
  is passed as the images, with a companion label file of as many labels as
  the file's second header word declares (the image count; at most the
  file's size, so that a hostile count cannot make the adapter itself
  allocate). Companions are written to a temporary folder.
- It returns images as (n, 784), the flattened 28 x 28 MNIST images its
  documentation describes: the adapter reshapes them to (n, 28, 28), as its
  users do, whatever the header's rows and columns.
"""
import os
import struct
import tempfile

import numpy as np
from mlxtend.data import loadlocal_mnist

from _protocol import serve_reader

TMP = tempfile.mkdtemp(prefix="mlxtend-adapter-")
IMAGES = os.path.join(TMP, "images")
LABELS = os.path.join(TMP, "labels")


def read(path):
    with open(path, "rb") as f:
        head = f.read(8)
    if len(head) >= 4 and head[3] == 1:
        count = max(os.path.getsize(path) - 8, 0)
        with open(IMAGES, "wb") as f:
            f.write(struct.pack(">IIII", 2051, count, 28, 28) + bytes(count * 784))
        _images, labels = loadlocal_mnist(IMAGES, path)
        return labels
    count = struct.unpack(">I", head[4:8])[0] if len(head) == 8 else 0
    count = min(count, os.path.getsize(path))
    with open(LABELS, "wb") as f:
        f.write(struct.pack(">II", 2049, count) + bytes(count))
    images, _labels = loadlocal_mnist(path, LABELS)
    return images.reshape(len(images), 28, 28)


if __name__ == "__main__":
    serve_reader(read)
