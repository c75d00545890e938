"""The idx2numpy package's writer (idx2numpy.convert_to_string)."""
import idx2numpy

from _protocol import serve_writer


def write(_name, arr):
    # Users hand idx2numpy native-order arrays; it refuses explicit '>' ones.
    return idx2numpy.convert_to_string(arr.astype(arr.dtype.newbyteorder("=")))


if __name__ == "__main__":
    serve_writer(write)
