"""MXNet's MNIST iterator (PyPI `mxnet` 1.9.1: `mx.io.MNISTIter`), a C++
IDX reader (src/io/iter_mnist.cc, compiled into the wheel's libmxnet.so),
driven through MXNet's Python binding.

MNISTIter(image=..., label=...) reads an image file and a label file
together, in C++: four big-endian 32-bit words of the images (the first,
the magic number, is skipped unread: it checks no header field), then
count x rows x cols bytes, each checked present (a short payload is
refused), scaled by 1/256 into float32; then two words of the labels and
count bytes likewise. Bytes after either are ignored. The counts are C
`int`s. It hands out batches of `batch_size` items, whole ones only.

Quirks the adapter handles:
- It needs a pair. A file of rank 1 (byte 3) is passed as the labels, with
  a companion image file of as many 1 x 1 zero images as the file's second
  header word declares, capped at the bytes after its 8-byte header (more
  labels than that are refused as truncated whatever the images, so the cap
  changes no outcome and keeps a hostile count from making the adapter
  write a huge file); any other file is passed as the images, with a
  companion label file of as many labels as its second header word
  declares, capped at the file's size (images are loaded first: beyond
  that they are refused as truncated before the labels are read).
  Companions are written to a temporary folder.
- The batch size is that count (one batch holds the whole file), or 1 when
  it is not a positive `int`. MNISTIter makes no batch of 0 items, and the
  binding cannot make an iterator that has none (its constructor reads the
  first batch): a file of 0 items is reported as refused, with that reason.
- Images come back as float32 [n, 1, rows, cols] scaled by 1/256: reported
  as u8 [n, rows, cols] multiplied back by 256 (exact for every byte);
  labels as float32 [n]: reported as u8 [n].
- No shuffling (its default shuffles), no log output (`silent`).
"""
import os
import struct
import tempfile

import mxnet as mx
import numpy as np

from _protocol import serve_reader

TMP = tempfile.mkdtemp(prefix="mxnet-adapter-")
IMAGES = os.path.join(TMP, "images")
LABELS = os.path.join(TMP, "labels")


class NoBatch(Exception):
    """MNISTIter made no batch: the binding cannot stand for 0 items."""


def batch_size(count):
    return count if 1 <= count < 2**31 else 1


def first_batch(image, label, count):
    try:
        it = mx.io.MNISTIter(
            image=image, label=label, batch_size=batch_size(count), shuffle=False, flat=False, silent=True
        )
    except StopIteration:
        raise NoBatch("MNISTIter made no batch (0 items): the binding's constructor raised StopIteration")
    try:
        return it.next()
    finally:
        del it


def read(path):
    size = os.path.getsize(path)
    with open(path, "rb") as f:
        head = f.read(8)
    count = struct.unpack(">I", head[4:8])[0] if len(head) == 8 else 0
    if len(head) >= 4 and head[3] == 1:
        n = min(count, max(size - 8, 0))
        with open(IMAGES, "wb") as f:
            f.write(struct.pack(">IIII", 2051, n, 1, 1) + bytes(n))
        batch = first_batch(IMAGES, path, count)
        return batch.label[0].asnumpy().astype(np.uint8)
    n = min(count, size)
    with open(LABELS, "wb") as f:
        f.write(struct.pack(">II", 2049, n) + bytes(n))
    batch = first_batch(path, LABELS, count)
    images = batch.data[0].asnumpy()
    return np.rint(images[:, 0] * 256.0).astype(np.uint8)


if __name__ == "__main__":
    serve_reader(read)
