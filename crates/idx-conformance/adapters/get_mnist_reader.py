"""The get-mnist package's readers (PyPI `get-mnist`, module `mnist`:
mnist.mnist.read_labels and read_images, which its mnist() and
fashion_mnist() apply to the gunzipped downloads).

Both take the file's bytes. read_labels asserts the magic number 2049,
unpacks as many bytes as the header declares (struct, which raises when
fewer are present) and returns every byte after the header as int32;
read_images asserts 2051 and reshapes every byte after the header to the
declared (count, rows, cols) as float32. Quirks the adapter handles: the
user picks the function by file, so the adapter calls read_labels when the
rank byte (offset 3) is 1 and read_images otherwise; it turns the int32
labels and float32 pixels back into u8, which is exact, since both are
byte values.
"""
import numpy as np
from mnist.mnist import read_images, read_labels

from _protocol import serve_reader


def read(path):
    with open(path, "rb") as f:
        data = f.read()
    if len(data) >= 4 and data[3] == 1:
        return read_labels(data).astype(np.uint8)
    return read_images(data).astype(np.uint8)


if __name__ == "__main__":
    serve_reader(read)
