"""torchvision's MNIST dataset path: torchvision.datasets.mnist.read_label_file
and read_image_file, which torchvision.datasets.MNIST uses to load
train-labels-idx1-ubyte and train-images-idx3-ubyte.

Both call read_sn3_pascalvincent_tensor(path, strict=False) and then demand
u8 data of rank 1 (labels) or rank 3 (images). Quirks the adapter handles:
the dataset picks the function by file name; the adapter picks
read_image_file when the rank byte (offset 3) is 3 and read_label_file
otherwise. read_label_file widens the labels to int64 (x.long()); the
adapter reports them as the u8 values it read (exact: they are checked to be
u8 first). The files are opened with open(), without gzip, although the
reader's docstring says compressed files are accepted.
"""
import numpy as np
from torchvision.datasets.mnist import read_image_file, read_label_file

from _protocol import serve_reader


def read(path):
    with open(path, "rb") as f:
        head = f.read(4)
    if len(head) == 4 and head[3] == 3:
        return read_image_file(path).numpy()
    labels = read_label_file(path).numpy()
    assert labels.dtype == np.int64 and ((labels >= 0) & (labels <= 255)).all()
    return labels.astype(np.uint8)


if __name__ == "__main__":
    serve_reader(read)
