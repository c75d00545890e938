"""The idx2numpy package's writer (idx2numpy.convert_to_string)."""
import sys

import idx2numpy

from _protocol import crash, read_content, reject

if __name__ == "__main__":
    try:
        _name, arr = read_content()
        # Users hand idx2numpy native-order arrays; it refuses explicit '>' ones.
        arr = arr.astype(arr.dtype.newbyteorder("="))
        out = idx2numpy.convert_to_string(arr)
    except MemoryError as e:
        crash(e)
    except Exception as e:
        reject(e)
    sys.stdout.buffer.write(out)
