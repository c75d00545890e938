"""The idx2numpy package's reader (idx2numpy.convert_from_file)."""
import sys

import idx2numpy

from _protocol import crash, print_content, reject

if __name__ == "__main__":
    try:
        arr = idx2numpy.convert_from_file(sys.argv[1])
    except MemoryError as e:
        crash(e)
    except Exception as e:
        reject(e)
    print_content(arr)
