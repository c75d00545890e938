"""The python-mnist package's writer (mnist.packer: label_packer and
img_packer).

It has two packers only: u8 labels (rank 1) and u8 images (rank 3, written
with the rows and cols given). Other content is refused, with the reason, as
the library offers no way to write it. Each packer writes a file; the
adapter reads the file back.
"""
import os
import tempfile

from mnist import packer

from _protocol import serve_writer

TMP = tempfile.mkdtemp(prefix="python-mnist-writer-")


def write(name, arr):
    out = os.path.join(TMP, "out")
    if name == "u8" and arr.ndim == 1:
        packer.label_packer(TMP, "out", [int(x) for x in arr])
    elif name == "u8" and arr.ndim == 3:
        count, rows, cols = arr.shape
        imgs = [[int(x) for x in im.reshape(-1)] for im in arr]
        packer.img_packer(TMP, "out", imgs, rows=rows, cols=cols)
    else:
        raise ValueError("python-mnist writes only u8 labels (rank 1) and u8 images (rank 3)")
    with open(out, "rb") as f:
        return f.read()


if __name__ == "__main__":
    serve_writer(write)
