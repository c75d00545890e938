"""idx2numpy: convert_to_string of the decoded array. Prints the seconds."""
import sys
import time

import idx2numpy

arr = idx2numpy.convert_from_file(sys.argv[1])
arr = arr.astype(arr.dtype.newbyteorder("="))  # it refuses explicit big-endian arrays
t = time.perf_counter()
out = idx2numpy.convert_to_string(arr)
print("%.6f" % (time.perf_counter() - t))
