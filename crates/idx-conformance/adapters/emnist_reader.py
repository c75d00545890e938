"""The `emnist` package's reader (PyPI `emnist`, emnist.parse_idx(data)).

parse_idx takes the file's bytes (the package passes it each member of its
zip archive, gunzipped): it checks the two zero bytes, the type code and a
rank above 0, reads the dimensions with np.frombuffer and reshapes the rest
of the bytes. The adapter gives it the file's bytes as they are (a gzip
file is not decompressed: parse_idx never does that itself). The package's
extract_data swaps the two image axes of its own rank-3 files after
parse_idx; that is a fix-up of the EMNIST data, not part of reading IDX,
and the adapter leaves it out.
"""
import emnist

from _protocol import serve_reader


def read(path):
    with open(path, "rb") as f:
        return emnist.parse_idx(f.read())


if __name__ == "__main__":
    serve_reader(read)
