"""idx2numpy: convert_from_file. Prints the seconds."""
import sys
import time

import idx2numpy

t = time.perf_counter()
arr = idx2numpy.convert_from_file(sys.argv[1])
print("%.6f" % (time.perf_counter() - t))
