"""idxkit.load against numpy's own equivalent and idx2numpy, from bytes, from a
path and from a file object, at 1 MiB (f32), 47 MB (MNIST training images,
u8) and 1 GiB (f32): times as ratios to numpy in the same run, and peak
memory per byte of output. Prints Markdown tables.

    scripts/test                                  # builds and installs the wheel into .venv-test
    .venv-test/bin/pip install idx2numpy==1.2.3   # once
    .venv-test/bin/python bench/python.py [RUNS] [MIB]

RUNS (default 7) alternating runs of every row, medians; MIB (default 1024)
the size of the large f32 file. The files (MNIST gunzipped from
$MNIST_DIR (a folder with MNIST's *-ubyte.gz files; required), the f32 files made by bench/make_f32.py) are made in a
temporary directory ($IDXKIT_BENCH_DIR, default the system's) and deleted at
the end; they are read once before timing, so every row reads them from the
page cache.

The numpy baselines, each the fair equivalent of one source:
- bytes: `numpy.frombuffer(b, '>f4', offset=H).reshape(shape).astype('<f4')`.
- path: `numpy.fromfile(path, '>f4', offset=H).reshape(shape).astype('<f4')`
  (numpy has no one-step decode of a file: two arrays, hence 2x memory).
- file object: `numpy.empty(shape, '<f4')`, `f.readinto(...)` after the
  header, then `byteswap(inplace=True)`: the same work and memory as
  idxkit's (the array and the header), so the strictest baseline. The
  common idiom `numpy.frombuffer(f.read(), ...).astype(...)` (a copy of the
  whole file, then the array) is a row of its own, for information.
idx2numpy 1.2.3 (`convert_from_string`, `convert_from_file`) returns a
read-only big-endian view over the bytes it read, converting nothing.

Timing: each row is one call (1 GiB), 5 calls (MNIST) or 100 calls (1 MiB)
in a row, per call; all rows run alternately RUNS times; the table gives
the median and, as a second ratio, the fastest run of each against
numpy's fastest (the least disturbed by other processes and by the kernel
finding huge pages). Peak memory: a
fresh process per (file, source, loader) reads the bytes first for the
bytes rows, resets its peak (/proc/self/clear_refs), loads, and reports
(VmHWM - VmRSS before the load) / output bytes.
"""

import gzip
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import idxkit

try:
    import idx2numpy
except ImportError:  # its rows are then left out, and the output says so
    idx2numpy = None

ROOT = Path(__file__).resolve().parents[1]
RUNS = 7
MIB = 1024
# The training set is not in the repository (only the test set is, in
# testdata/mnist): MNIST_DIR names a folder that holds it.
if not os.environ.get("MNIST_DIR"):
    sys.exit("bench/python.py: set MNIST_DIR to a folder holding MNIST's train-images-idx3-ubyte.gz")
MNIST_GZ = Path(os.environ["MNIST_DIR"]) / "train-images-idx3-ubyte.gz"


def header(data):
    """(header length, big-endian dtype, shape) of IDX bytes."""
    rank = data[3]
    dtype = {0x08: "u1", 0x09: "i1", 0x0B: ">i2", 0x0C: ">i4", 0x0D: ">f4", 0x0E: ">f8"}[data[2]]
    shape = tuple(int.from_bytes(data[4 + 4 * i : 8 + 4 * i], "big") for i in range(rank))
    return 4 + 4 * rank, np.dtype(dtype), shape


def loaders(path, data):
    """(source, loader, callable) rows for one file; numpy's baseline first
    in each source."""
    hl, dt, shape = header(data)
    native = dt.newbyteorder("=")

    def np_bytes():
        return np.frombuffer(data, dt, offset=hl).reshape(shape).astype(native)

    def np_path():
        return np.fromfile(path, dt, offset=hl).reshape(shape).astype(native)

    def np_readinto():
        a = np.empty(shape, native)
        with open(path, "rb") as f:
            f.seek(hl)
            f.readinto(a.reshape(-1).view(np.uint8))
        if dt.byteorder == ">" and sys.byteorder == "little":
            a.byteswap(inplace=True)
        return a

    def np_read():
        with open(path, "rb") as f:
            return np.frombuffer(f.read(), dt, offset=hl).reshape(shape).astype(native)

    def ik_file():
        with open(path, "rb") as f:
            return idxkit.load(f)

    rows = [
        ("bytes", "numpy frombuffer+astype", np_bytes),
        ("bytes", "idxkit.load(bytes)", lambda: idxkit.load(data)),
        ("path", "numpy fromfile+astype", np_path),
        ("path", "idxkit.load(path)", lambda: idxkit.load(path)),
        ("file", "numpy readinto+byteswap", np_readinto),
        ("file", "numpy frombuffer(f.read())+astype", np_read),
        ("file", "idxkit.load(f)", ik_file),
    ]
    if idx2numpy is not None:

        def i2n_file():
            with open(path, "rb") as f:
                return idx2numpy.convert_from_file(f)

        rows += [
            ("bytes", "idx2numpy.convert_from_string", lambda: idx2numpy.convert_from_string(data)),
            ("path", "idx2numpy.convert_from_file(path)", lambda: idx2numpy.convert_from_file(str(path))),
            ("file", "idx2numpy.convert_from_file(f)", i2n_file),
        ]
    return rows


BASELINE = {"bytes": "numpy frombuffer+astype", "path": "numpy fromfile+astype", "file": "numpy readinto+byteswap"}


def race(rows, inner):
    """(median, fastest) seconds per call of each row, the rows run
    alternately."""
    times = {name: [] for _, name, _ in rows}
    for _ in range(RUNS):
        for _, name, fn in rows:
            t = time.perf_counter()
            for _ in range(inner):
                a = fn()
                del a
            times[name].append((time.perf_counter() - t) / inner)
    return {name: (statistics.median(v), min(v)) for name, v in times.items()}


PEAK = r"""
import sys
import numpy as np
import idxkit
sys.path.insert(0, sys.argv[4])
import python as bench
path, source, loader = sys.argv[1], sys.argv[2], sys.argv[3]
def vm(key):
    for line in open('/proc/self/status'):
        if line.startswith(key):
            return int(line.split()[1]) * 1024
data = open(path, 'rb').read() if source == 'bytes' else open(path, 'rb').read(1024)
fn = {name: f for s, name, f in bench.loaders(path, data) if s == source}[loader]
with open('/proc/self/clear_refs', 'w') as f:
    f.write('5')  # resets VmHWM to the current RSS
before = vm('VmRSS')
a = fn()
print((vm('VmHWM') - before) / a.nbytes)
"""


def peak(path, source, loader):
    out = subprocess.run(
        [sys.executable, "-c", PEAK, str(path), source, loader, str(ROOT / "bench")],
        capture_output=True,
        text=True,
    )
    if out.returncode != 0:
        return f"failed: {out.stderr.strip().splitlines()[-1]}"
    return f"{float(out.stdout):.2f}x"


def loadavg():
    return " ".join(open("/proc/loadavg").read().split()[:3])


def table(label, path, inner):
    data = Path(path).read_bytes()
    rows = loaders(path, data)
    res = race(rows, inner)
    nbytes = len(data) - header(data)[0]
    print(f"\n### {label}: {nbytes / 2**20:.2f} MiB of payload, {RUNS} runs, medians of {inner} call(s) each\n")
    print("| source | loader | time per call (median) | / numpy (same source) | fastest / numpy's fastest | peak memory / output |")
    print("|---|---|---|---|---|---|")
    for source, name, _ in rows:
        (t, fast), (base, base_fast) = res[name], res[BASELINE[source]]
        ratio = f"**{t / base:.2f}x**" if name.startswith("idxkit") else f"{t / base:.2f}x"
        print(
            f"| {source} | {name} | {t * 1e3:.3f} ms | {ratio} | {fast / base_fast:.2f}x | {peak(path, source, name)} |"
        )
    return res


def main():
    global RUNS, MIB
    RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else RUNS
    MIB = int(sys.argv[2]) if len(sys.argv) > 2 else MIB
    print(
        f"machine: {os.cpu_count()} CPUs; python {sys.version.split()[0]}, numpy {np.__version__}, "
        f"idx2numpy {getattr(idx2numpy, '__version__', 'absent (pip install idx2numpy==1.2.3)')}; "
        f"load average {loadavg()} at the start; {time.strftime('%Y-%m-%dT%H:%MZ', time.gmtime())}; "
        f"command: {' '.join([Path(sys.executable).name, *sys.argv])}"
    )
    out = Path(tempfile.mkdtemp(prefix="idxkit-bench-", dir=os.environ.get("IDXKIT_BENCH_DIR")))
    try:
        small, big, mnist = out / "f32-1m.idx", out / f"f32-{MIB}m.idx", out / "train-images-idx3-ubyte"
        for p, mib in ((small, 1), (big, MIB)):
            subprocess.run([sys.executable, str(ROOT / "bench" / "make_f32.py"), str(p), str(mib)], check=True)
        mnist.write_bytes(gzip.decompress(MNIST_GZ.read_bytes()))
        for p in (small, mnist, big):
            p.read_bytes()  # into the page cache
        table("1 MiB f32", small, 100)
        table("MNIST training images (u8, 60000x28x28)", mnist, 5)
        table(f"{MIB} MiB f32", big, 1)
    finally:
        shutil.rmtree(out, ignore_errors=True)
    print(f"\nload average at the end: {loadavg()}")


if __name__ == "__main__":
    main()
