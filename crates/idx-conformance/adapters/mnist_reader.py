"""The `mnist` package's reader (PyPI `mnist`, mnist.parse_idx(fd)): the
header via struct, the payload via array.array with native item sizes,
byteswap(), a check of the element count, numpy reshape."""
import mnist

from _protocol import serve_reader


def read(path):
    with open(path, "rb") as f:
        return mnist.parse_idx(f)


if __name__ == "__main__":
    serve_reader(read)
