"""Runs the decode and encode drivers of each side alternately on the same
files, in one session, and prints median seconds, ratios to numpy and peak
memory (max RSS of each driver process, from wait4).

    python3 bench/compare.py PYTHON RUNS FILE...
"""
import os
import statistics
import subprocess
import sys

python, runs, files = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)
rust = os.path.join(root, "target", "release", "examples")
drivers = {
    "decode": [
        ("idx (read_array)", [os.path.join(rust, "decode")]),
        ("numpy frombuffer+astype", [python, os.path.join(here, "drivers", "numpy_decode.py")]),
        ("idx2numpy", [python, os.path.join(here, "drivers", "idx2numpy_decode.py")]),
    ],
    "encode": [
        ("idx (to_bytes)", [os.path.join(rust, "encode")]),
        ("numpy astype+tobytes", [python, os.path.join(here, "drivers", "numpy_encode.py")]),
        ("idx2numpy", [python, os.path.join(here, "drivers", "idx2numpy_encode.py")]),
    ],
}


def once(cmd, path):
    p = subprocess.Popen(cmd + [path], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out = p.stdout.read()
    p.stderr.read()
    _, status, usage = os.wait4(p.pid, 0)
    if status != 0 or not out.split():
        return None, usage.ru_maxrss / 1024.0
    return float(out.split()[0]), usage.ru_maxrss / 1024.0


for path in files:
    size = os.path.getsize(path)
    print("\n%s (%.1f MiB), %d runs each, alternating; median seconds" % (path, size / 2**20, runs))
    for task, sides in drivers.items():
        times = {name: [] for name, _ in sides}
        peak = {name: 0.0 for name, _ in sides}
        for _ in range(runs):
            for name, cmd in sides:
                if times[name] is None or sum(times[name]) > 20:
                    continue  # failed, or too slow to repeat: one run says enough
                t, rss = once(cmd, path)
                peak[name] = max(peak[name], rss)
                times[name] = None if t is None else times[name] + [t]
        base = statistics.median(times[sides[1][0]])
        for name, _ in sides:
            if times[name] is None:
                print("  %-7s %-26s   failed (non-zero exit; peak %.1f MiB)" % (task, name, peak[name]))
                continue
            m = statistics.median(times[name])
            print("  %-7s %-26s %8.4f s  %6.2f GB/s  %5.2fx numpy time  peak %7.1f MiB"
                  % (task, name, m, size / m / 1e9, m / base, peak[name]))
