"""The idx2numpy package's reader (idx2numpy.convert_from_file)."""
import idx2numpy

from _protocol import serve_reader

if __name__ == "__main__":
    serve_reader(idx2numpy.convert_from_file)
