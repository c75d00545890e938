"""The `mnists` package's reader (PyPI `mnists`, mnists.utils.read_idx_file).

read_idx_file(path) checks the two zero bytes and the type code, reads the
dimensions with struct, the payload with np.frombuffer, compares the element
count with the product of the dimensions and reshapes. It opens the file
with gzip when its name ends in `.gz`, as the package's datasets do.
"""
from mnists.utils import read_idx_file

from _protocol import serve_reader

if __name__ == "__main__":
    serve_reader(read_idx_file)
