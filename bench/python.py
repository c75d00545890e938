"""idxkit against numpy and idx2numpy, every row of the Python package's
"Speed and memory" list, as ratios to a baseline measured in the same run.

    .venv-test/bin/pip install idx2numpy==1.2.3     # once (optional row)
    cargo build --release -p idx-validate           # the CLI row's binary
    .venv-test/bin/python bench/python.py [RUNS] [MIB]   # after scripts/test

RUNS (default 5) runs of each, alternating, medians; MIB (default 1024) the
size of the f32 file (f32-<MIB>m.idx, made by bench/make_f32.py). The files
are made in $IDXKIT_BENCH_DIR (default /dev/shm/idxkit-bench: memory, not
the disk) and deleted at the end. Each load table has `cat FILE >
/dev/null` (a process: its start-up, about a millisecond, is in its time)
as a row. Peak memory is measured in a fresh process per loader: its
high-water RSS (VmHWM) less its RSS before the call, divided by the output
array's size. The validate table times the `idx-validate` process (wall,
start-up included), the same binary's start-up alone (`--version`), and
`idxkit.validate(path)` in this process (no start-up): the ratio to the
process and to the process less its start-up are both printed.
"""

import gzip
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

import idxkit

try:
    import idx2numpy
except ImportError:  # the row is then left out, and says so
    idx2numpy = None

ROOT = Path(__file__).resolve().parents[1]
OUT = Path(os.environ.get("IDXKIT_BENCH_DIR", "/dev/shm/idxkit-bench"))
RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 5
MIB = int(sys.argv[2]) if len(sys.argv) > 2 else 1024


def timed(fn):
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def race(named):
    """Median seconds of each callable, run alternately RUNS times."""
    times = {name: [] for name, _ in named}
    for _ in range(RUNS):
        for name, fn in named:
            times[name].append(timed(fn))
    return {name: statistics.median(v) for name, v in times.items()}


def header_len(data):
    return 4 + 4 * data[3]


def numpy_load(data, dtype, shape):
    """The baseline: numpy.frombuffer(...).astype(native) on the same bytes."""
    a = np.frombuffer(data, dtype=dtype, offset=header_len(data)).reshape(shape)
    return a.astype(a.dtype.newbyteorder("="))


def report(title, rows, base):
    print(f"\n{title}")
    b = rows[base]
    for name, t in rows.items():
        print(f"  {name:<46} {t:9.4f} s   {t / b:6.2f}x {base}")


PEAK = r"""
import sys, numpy as np, idxkit
def vm(key):
    for line in open('/proc/self/status'):
        if line.startswith(key):
            return int(line.split()[1]) * 1024
how, path = sys.argv[1], sys.argv[2]
if how == 'idx2numpy':
    import idx2numpy
before = vm('VmRSS')
if how == 'idxkit':
    a = idxkit.load(path)
elif how == 'numpy':
    data = open(path, 'rb').read()
    a = np.frombuffer(data, dtype='>f4' if data[2] == 0x0d else 'u1', offset=4 + 4 * data[3])
    a = a.astype(a.dtype.newbyteorder('='))
else:
    a = idx2numpy.convert_from_file(path)
print((vm('VmHWM') - before) / a.nbytes)
"""


def peak(how, path):
    out = subprocess.run([sys.executable, "-c", PEAK, how, str(path)], capture_output=True, text=True, check=True)
    return float(out.stdout)


def load_rows(label, path, gz):
    raw = Path(path).read_bytes()
    data = gzip.decompress(raw) if gz else raw
    dtype = {0x08: "u1", 0x0D: ">f4"}[data[2]]
    shape = tuple(int.from_bytes(data[4 + 4 * i : 8 + 4 * i], "big") for i in range(data[3]))
    rows = [
        ("cat FILE > /dev/null (a process)", lambda: subprocess.run(["cat", str(path)], stdout=subprocess.DEVNULL, check=True)),
        ("numpy frombuffer+astype (bytes in memory)", lambda: numpy_load(data, dtype, shape)),
        ("idxkit.load(bytes in memory)", lambda: idxkit.load(data)),
        (
            "numpy: read file, frombuffer+astype",
            lambda: numpy_load(gzip.open(path).read() if gz else open(path, "rb").read(), dtype, shape),
        ),
        ("idxkit.load(path)", lambda: idxkit.load(path)),
    ]
    if idx2numpy is not None:
        rows.append(
            ("idx2numpy.convert_from_file", lambda: idx2numpy.convert_from_file(gzip.open(path) if gz else str(path)))
        )
    res = race(rows)
    report(f"load: {label} ({len(data) / 2**20:.1f} MiB decoded), {RUNS} runs, medians", res, "numpy frombuffer+astype (bytes in memory)")
    b = res["numpy: read file, frombuffer+astype"]
    print(f"  ratios to numpy reading the file: idxkit.load(path) {res['idxkit.load(path)'] / b:.2f}x" + (
        f", idx2numpy {res['idx2numpy.convert_from_file'] / b:.2f}x; idxkit.load(path) / idx2numpy "
        f"{res['idxkit.load(path)'] / res['idx2numpy.convert_from_file']:.2f}x" if idx2numpy else ""
    ) + f"; idxkit.load(path) / cat {res['idxkit.load(path)'] / res['cat FILE > /dev/null (a process)']:.2f}x")
    if idx2numpy is None:
        print("  (idx2numpy is not installed: its row is missing)")
    return res


def loadavg():
    return open("/proc/loadavg").read().split()[:3]


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    print(
        f"machine: {os.cpu_count()} CPUs; python {sys.version.split()[0]}, numpy {np.__version__}, "
        f"idx2numpy {getattr(idx2numpy, '__version__', 'absent')}; the machine is shared (other builds run); "
        f"load average {' '.join(loadavg())}; {time.strftime('%Y-%m-%dT%H:%MZ', time.gmtime())}"
    )
    try:
        run(OUT)
    finally:
        # only the files made here
        for name in ("train-images-idx3-ubyte", f"f32-{MIB}m.idx", "small.idx", "save-target.idx"):
            (OUT / name).unlink(missing_ok=True)
        try:
            OUT.rmdir()
        except OSError:
            pass
    print(f"\nload average at the end: {' '.join(loadavg())}")


def run(OUT):
    mnist_gz = ROOT.parent / "shared" / "data" / "mnist" / "train-images-idx3-ubyte.gz"
    mnist = OUT / "train-images-idx3-ubyte"
    if not mnist.exists():
        mnist.write_bytes(gzip.decompress(mnist_gz.read_bytes()))
    f32 = OUT / f"f32-{MIB}m.idx"
    if not f32.exists():
        subprocess.run([sys.executable, str(ROOT / "bench" / "make_f32.py"), str(f32), str(MIB)], check=True)
    for p in (mnist, f32):
        with open(p, "rb") as f:
            while f.read(1 << 24):
                pass

    load_rows("MNIST training images, plain", mnist, gz=False)
    load_rows("MNIST training images, gzipped", mnist_gz, gz=True)
    load_rows(f"{MIB} MiB f32", f32, gz=False)

    print(f"\npeak memory of a load, beyond the process before it, per byte of output ({f32.name})")
    for how in ["idxkit", "numpy"] + (["idx2numpy"] if idx2numpy else []):
        print(f"  {how:<12} {peak(how, f32):5.2f}x the output array")

    small = OUT / "small.idx"
    idxkit.save(small, np.zeros((2, 2), np.float32))
    res = race(
        [
            (f"idxkit.load(mmap=True) of {MIB} MiB", lambda: idxkit.load(f32, mmap=True)),
            ("idxkit.load(mmap=True) of a 16-byte payload", lambda: idxkit.load(small, mmap=True)),
            (f"idxkit.load of {MIB} MiB (copying)", lambda: idxkit.load(f32)),
        ]
    )
    report("mmap: O(header)", res, "idxkit.load(mmap=True) of a 16-byte payload")

    arr = idxkit.load(f32)
    target = OUT / "save-target.idx"

    def numpy_save():
        with open(target, "wb") as f:
            arr.astype(">f4").tofile(f)

    res = race([("numpy astype('>f4').tofile", numpy_save), ("idxkit.save(path, array)", lambda: idxkit.save(target, arr))])
    report(f"save {MIB} MiB f32", res, "numpy astype('>f4').tofile")
    del arr
    target.unlink()

    # The native binary if built (cargo build --release -p idx-validate), else
    # the wheel's console script (which adds the interpreter's start-up).
    cli = ROOT / "target" / "release" / "idx-validate"
    if not cli.exists():
        cli = Path(sys.executable).parent / "idx-validate"
    name = f"{cli.relative_to(ROOT) if cli.is_relative_to(ROOT) else cli}"
    res = race(
        [
            (f"{name} FILE (a process)", lambda: subprocess.run([str(cli), "-q", str(f32)], check=True)),
            (f"{name} --version (its start-up alone)", lambda: subprocess.run([str(cli), "--version"], stdout=subprocess.DEVNULL, check=True)),
            ("idxkit.validate(path) (in this process)", lambda: idxkit.validate(f32)),
            ("cat FILE > /dev/null (a process)", lambda: subprocess.run(["cat", str(f32)], stdout=subprocess.DEVNULL, check=True)),
        ]
    )
    report(f"validate {MIB} MiB f32 (full, every lint)", res, next(iter(res)))
    proc, start, py = res[f"{name} FILE (a process)"], res[f"{name} --version (its start-up alone)"], res["idxkit.validate(path) (in this process)"]
    print(f"  idxkit.validate / the process: {py / proc:.3f}x; / the process less its start-up: {py / (proc - start):.3f}x")


if __name__ == "__main__":
    main()
