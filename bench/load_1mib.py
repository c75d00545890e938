"""idxkit.load(bytes) of 1 MiB of f32 against numpy's frombuffer+astype, in
one process: the fixed cost of a load (the byte-order verdict's share
shows here). Run it alternately with two installed wheels to compare
builds in one session (BENCHMARKS.md, "after the byte-order test's loop
rewrite"):

    /tmp/venv-before/bin/python bench/load_1mib.py before
    .venv-test/bin/python bench/load_1mib.py after

Prints the best of 3 x 7 x 300 calls of each, and their ratio. With
`--loop numpy|load N` it makes N calls of one kind and prints nothing (for
CPU time under `perf stat`: bench/load_1mib_cpu.sh).
"""
import timeit, numpy as np, idxkit, struct, sys
rng = np.random.default_rng(1)
a = rng.standard_normal(262144).astype('>f4')
data = struct.pack('>BBBBI', 0, 0, 0x0d, 1, 262144) + a.tobytes()
payload = data[8:]
def npf(): return np.frombuffer(payload, dtype='>f4').astype('<f4')
def ld(): return idxkit.load(data)
if sys.argv[1:2] == ["--loop"]:
    f = {"numpy": npf, "load": ld}[sys.argv[2]]
    for _ in range(int(sys.argv[3])):
        f()
    sys.exit(0)
res = {}
for name, f in [("numpy", npf), ("load", ld)] * 3:
    t = min(timeit.repeat(f, number=300, repeat=7)) / 300
    res[name] = min(res.get(name, 1), t)
label = sys.argv[1] if len(sys.argv) > 1 else "idxkit"
print(f"{label:8s} numpy {res['numpy']*1e3:.4f} ms  load(bytes) {res['load']*1e3:.4f} ms  ratio {res['load']/res['numpy']:.2f}x")
