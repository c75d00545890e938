"""Smoke test of an installed idxkit wheel, as a user without Rust has it.

Run by scripts/wheel-test.sh with the fresh venv's python, from outside the
checkout (so ``import idxkit`` is the installed package, not python/idxkit)
and on a PATH with no cargo or rustc:

    python wheel_smoke.py --corpus CORPUS_DIR [--mnist MNIST_DIR]

It checks that no Rust toolchain is reachable, that the package and its
native module come from the venv, loads and validates the MNIST test set
(gzipped) when --mnist is given, round-trips an array, and runs the two
console scripts the wheel installs (idx-validate, idx) on good and bad
files. Exits 1 on the first failed check, naming it.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import numpy as np

import idxkit

checks = 0


def check(condition: bool, what: str) -> None:
    global checks
    if not condition:
        sys.exit(f"wheel smoke test failed: {what}")
    checks += 1


def run(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, capture_output=True, encoding="utf-8", errors="replace", check=False)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--corpus", type=Path, required=True)
    parser.add_argument("--mnist", type=Path)
    args = parser.parse_args()
    corpus = args.corpus.resolve()

    # No Rust anywhere on PATH: nothing below could have compiled anything.
    for tool in ("cargo", "rustc"):
        check(shutil.which(tool) is None, f"{tool} is on PATH: {shutil.which(tool)}")

    # The installed package (and its compiled module) from this venv.
    prefix = Path(sys.prefix).resolve()
    native = Path(idxkit._native.__file__).resolve()
    check(prefix in native.parents, f"idxkit._native is {native}, not under {prefix}")
    tags = [line for line in metadata.distribution("idxkit").read_text("WHEEL").splitlines() if line.startswith("Tag: ")]
    check(tags != [] and all(t.startswith("Tag: cp39-abi3-") for t in tags), f"the wheel's tags: {tags}")

    # The console scripts are the venv's.
    bin_dir = Path(sys.executable).parent
    for script in ("idx-validate", "idx"):
        found = shutil.which(script)
        check(
            found is not None and os.path.samefile(Path(found).parent, bin_dir),
            f"{script} on PATH is {found}, not the wheel's in {bin_dir}",
        )

    good = corpus / "valid" / "valid-mnist-labels-u8-10.idx"
    bad = corpus / "invalid" / "invalid-truncated-payload.idx"

    # The library: load, validate, save.
    labels = idxkit.load(str(good))
    check(labels.shape == (10,) and labels.dtype == np.uint8, f"load: {labels.dtype} {labels.shape}")
    check(idxkit.validate(str(good)).ok, "validate: a valid corpus file is not ok")
    report = idxkit.validate(str(bad))
    check(not report.ok and report.findings[0].rule == "IDX202", f"validate: {report}")
    try:
        idxkit.load(str(bad))
        check(False, "load accepted a truncated file")
    except idxkit.InvalidFileError as e:
        check(e.findings[0].rule == "IDX202", f"load's error: {e}")
    x = np.arange(-6, 6, dtype=np.float32).reshape(3, 4)
    check(np.array_equal(idxkit.load(idxkit.save(None, x)), x), "save then load is not the identity")

    # MNIST, gzipped, as downloaded.
    if args.mnist is not None:
        images_gz = args.mnist / "t10k-images-idx3-ubyte.gz"
        labels_gz = args.mnist / "t10k-labels-idx1-ubyte.gz"
        images, labels = idxkit.load_pair(str(images_gz), str(labels_gz), classes=10)
        check(images.shape == (10000, 28, 28) and images.dtype == np.uint8, f"MNIST images: {images.shape}")
        check(labels.shape == (10000,) and int(labels.max()) == 9, f"MNIST labels: {labels.shape}")
        for path in (images_gz, labels_gz):
            check(idxkit.validate(str(path)).ok, f"validate({path}) is not ok")
        out = run("idx-validate", str(images_gz), str(labels_gz))
        check(
            out.returncode == 0 and "OK u8 [10000, 28, 28]" in out.stdout,
            f"idx-validate on MNIST: exit {out.returncode}\n{out.stdout}{out.stderr}",
        )
        out = run("idx", "info", str(labels_gz))
        check(out.returncode == 0 and "dimension 0 = 10000" in out.stdout, f"idx info: {out.stdout}{out.stderr}")

    # The console scripts: a pass, a located error (exit 1), JSON content.
    out = run("idx-validate", str(good))
    check(out.returncode == 0 and "OK u8 [10]" in out.stdout, f"idx-validate: {out.stdout}{out.stderr}")
    out = run("idx-validate", str(bad))
    check(out.returncode == 1 and "IDX202" in out.stdout + out.stderr, f"idx-validate on a bad file: {out}")
    out = run("idx", "dump", str(good))
    check(out.returncode == 0 and '"shape"' in out.stdout, f"idx dump: {out.stdout}{out.stderr}")
    out = run("idx", "--version")
    check(out.returncode == 0 and out.stdout.startswith("idx "), f"idx --version: {out.stdout}{out.stderr}")

    print(f"wheel smoke test: {checks} checks ok (idxkit from {os.path.dirname(idxkit.__file__)})")


if __name__ == "__main__":
    main()
