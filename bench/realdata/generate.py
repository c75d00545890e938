#!/usr/bin/env python3
"""Real arrays for the byte-order test's benchmark (IDX501, spec 6.1).

Reads real data that installs offline from the registries (Debian's tzdata,
alsa-utils, sound-theme-freedesktop, desktop-base, dataset-fashion-mnist; the
PyPI wheels pinned in requirements.txt: scikit-learn, scikit-image, astropy,
matplotlib, statsmodels) and MNIST (MNIST_DIR, else the test set in testdata/mnist), stores each
array in the ways people store it (integers, fixed point, scaled, clipped,
packed pixels, samples shifted into wider types, missing-value markers), big-
endian, and writes them with a manifest:

    OUT/manifest.json   {"seed", "sizes", "sources": [...], "missing": [...],
                         "payloads": [{"kind", "way", "source", "dtype",
                                       "file", "offset", "count"}, ...]}
    OUT/NNNNN.be        one array, big-endian: its first HEAD elements, then
                        its slices one after the other

A payload is `count` elements of `file` from element `offset`: the array's
first HEAD elements (the whole array when it is no longer: "whole" is true),
and slices of SIZES elements at SLICES offsets of the whole array drawn with
a fixed seed. The little-endian twin of a payload is every element byte-reversed;
the scorer (crates/idx/benches/byteorder.rs) makes it. Everything is
deterministic: sorted file lists, a fixed seed, no clock.

    bench/out/venv/bin/python bench/realdata/generate.py bench/out/realdata

A source that is not found is listed under "missing" with the reason, and
printed; nothing is skipped silently.
"""

import glob
import gzip
import hashlib
import io
import json
import os
import struct
import sys
import zlib

import numpy as np

SEED = 20261127
SIZES = (16, 64, 256, 1024, 4096)
SLICES = 3
HEAD = 1 << 14
REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))

DT = {"i16": ">i2", "i32": ">i4", "f32": ">f4", "f64": ">f8"}
LIM = {"i16": (-(1 << 15), (1 << 15) - 1), "i32": (-(1 << 31), (1 << 31) - 1)}


class Out:
    def __init__(self, root):
        self.root = root
        os.makedirs(root, exist_ok=True)
        for f in glob.glob(os.path.join(root, "*.be")):
            os.remove(f)
        self.payloads = []
        self.sources = []
        self.missing = []
        self.files = 0

    def miss(self, what, why):
        print(f"MISSING {what}: {why}", file=sys.stderr)
        self.missing.append({"source": what, "why": str(why)})

    def add(self, kind, way, source, dtype, values):
        """Stores `values` (any numeric array, already in range) as `dtype`."""
        a = np.asarray(values).ravel()
        if a.size == 0:
            return
        if dtype in LIM:
            lo, hi = LIM[dtype]
            a = np.asarray(a, dtype=np.int64)
            assert a.min() >= lo and a.max() <= hi, (kind, way, source)
        n = a.size
        self.files += 1
        name = f"{self.files:05d}.be"
        entry = dict(kind=kind, way=way, source=source, dtype=dtype, file=name)
        # the file holds the array's first HEAD elements (the whole array
        # when it is that small), then the slices, each stored on its own
        parts = [a[:HEAD]]
        self.payloads.append(dict(entry, offset=0, count=min(n, HEAD), whole=n <= HEAD))
        at = min(n, HEAD)
        # the slices' offsets depend on the source and size only, so every
        # way of one array is cut at the same places
        rng = np.random.default_rng([SEED, zlib.crc32(source.encode())])
        for s in SIZES:
            if s >= n:
                continue
            for off in sorted(rng.integers(0, n - s + 1, SLICES).tolist()):
                parts.append(a[off : off + s])
                self.payloads.append(dict(entry, offset=at, count=s, whole=False))
                at += s
        with open(os.path.join(self.root, name), "wb") as f:
            f.write(np.concatenate(parts).astype(DT[dtype]).tobytes())

    def write(self):
        m = dict(
            seed=SEED,
            sizes=list(SIZES),
            slices=SLICES,
            head=HEAD,
            sources=self.sources,
            missing=self.missing,
            payloads=self.payloads,
        )
        with open(os.path.join(self.root, "manifest.json"), "w") as f:
            json.dump(m, f, indent=0)
        print(
            f"{len(self.payloads)} payloads from {self.files} arrays of "
            f"{len(self.sources)} sources in {self.root}; {len(self.missing)} missing"
        )


def rng_for(*names):
    return np.random.default_rng([SEED] + [zlib.crc32(n.encode()) for n in names])


def sprinkle(a, marker, share, name):
    """`a` (int64 or float64 copy) with `share` of its elements set to `marker`."""
    a = np.array(a, copy=True)
    flat = a.reshape(-1)
    k = max(1, int(round(share * flat.size)))
    idx = rng_for(name, "markers").choice(flat.size, size=k, replace=False)
    flat[idx] = marker
    return a


def clip(a, dtype):
    lo, hi = LIM[dtype]
    return np.clip(np.asarray(a, dtype=np.int64), lo, hi)


# ---------------------------------------------------------------- the ways


def ways_ints(o, kind, src, v, bits):
    """An integer array of values needing `bits` bits (unsigned or signed)."""
    v = np.asarray(v, dtype=np.int64).ravel()
    lo, hi = (int(v.min()), int(v.max())) if v.size else (0, 0)
    if lo >= -(1 << 15) and hi < (1 << 15):
        o.add(kind, "integers i16", src, "i16", v)
        o.add(kind, "MIN marker i16", src, "i16", sprinkle(v, -(1 << 15), 0.02, src))
        o.add(kind, "-1 marker i16", src, "i16", sprinkle(v, -1, 0.02, src))
    o.add(kind, "integers i32", src, "i32", v)
    o.add(kind, "-9999 marker i32", src, "i32", sprinkle(v, -9999, 0.02, src))
    o.add(kind, "MIN marker i32", src, "i32", sprinkle(v, -(1 << 31), 0.02, src))
    o.add(kind, "MAX marker i32", src, "i32", sprinkle(v, (1 << 31) - 1, 0.02, src))
    o.add(kind, "integers f32", src, "f32", v.astype(np.float64))
    o.add(kind, "integers f64", src, "f64", v.astype(np.float64))
    o.add(kind, "NaN marker f64", src, "f64", sprinkle(v.astype(np.float64), np.nan, 0.02, src))
    # clipped: to the 5th..95th percentile (a sensor's or a writer's range)
    p5, p95 = np.percentile(v, [5, 95])
    c = np.clip(v, int(p5), int(p95))
    o.add(kind, "clipped i32", src, "i32", c)
    # fixed point of integers (x * 2^8) and scaled (x * 10)
    if bits + 8 <= 31:
        o.add(kind, "fixed point 2^8 i32", src, "i32", v << 8)
    o.add(kind, "scaled x10 i32", src, "i32", clip(v * 10, "i32"))
    # samples shifted into wider types (left-justified)
    if 0 <= lo and bits <= 15:
        ways_unsigned_samples(o, kind, src, v, bits)


def ways_unsigned_samples(o, kind, src, v, bits, named=False):
    """Unsigned b-bit samples (pixels, ADC codes): left-justified in i16 and
    i32 (as unsigned bit patterns)."""
    v = np.asarray(v, dtype=np.int64).ravel()
    w16 = f"{bits}-bit << {16 - bits} i16" if named else "left-justified i16"
    w32 = f"{bits}-bit << {32 - bits} i32" if named else "left-justified i32"
    if bits < 16:
        o.add(kind, w16, src, "i16", ((v << (16 - bits)) ^ 0x8000) - 0x8000)
    o.add(kind, w32, src, "i32", ((v << (32 - bits)) ^ (1 << 31)) - (1 << 31))


def ways_floats(o, kind, src, x, decimals):
    """Real-valued measurements (`decimals`: the precision they were taken at)."""
    x = np.asarray(x, dtype=np.float64).ravel()
    x = x[np.isfinite(x)]
    if x.size == 0:
        return
    o.add(kind, "floats f64", src, "f64", x)
    o.add(kind, "floats f32", src, "f32", x)
    o.add(kind, "NaN marker f32", src, "f32", sprinkle(x, np.nan, 0.02, src))
    o.add(kind, "-9999 marker f64", src, "f64", sprinkle(x, -9999.0, 0.02, src))
    m = float(np.max(np.abs(x))) or 1.0
    # fixed point: the largest k with |x| * 2^k within the type, capped
    for dt, cap in (("i16", 12), ("i32", 16)):
        lim = LIM[dt][1]
        k = min(cap, int(np.floor(np.log2(lim / m)))) if m < lim else -1
        if k >= 0:
            o.add(kind, f"fixed point {dt}", src, dt, np.round(x * 2.0**k).astype(np.int64))
    # scaled by 10^decimals (the precision as recorded); i16 clipped
    s = np.round(x * 10.0**decimals).astype(np.int64)
    if np.abs(s).max() < (1 << 31):
        o.add(kind, "scaled 10^d i32", src, "i32", s)
        o.add(kind, "scaled 10^d -9999 i32", src, "i32", sprinkle(s, -9999, 0.02, src))
    o.add(kind, "scaled 10^d clipped i16", src, "i16", clip(s, "i16").clip(-32768, 32767))
    # clipped to the 5th..95th percentile
    p5, p95 = np.percentile(x, [5, 95])
    o.add(kind, "clipped f32", src, "f32", np.clip(x, p5, p95))


def ways_gray(o, kind, src, g):
    """An 8-bit grey image (or one channel)."""
    g = np.asarray(g, dtype=np.int64).ravel()
    o.add(kind, "8-bit i16", src, "i16", g)
    o.add(kind, "8-bit i32", src, "i32", g)
    o.add(kind, "8-bit /255 f32", src, "f32", g / 255.0)
    o.add(kind, "8-bit /255 f64", src, "f64", g / 255.0)
    o.add(kind, "8-bit x128 i16", src, "i16", g * 128)
    o.add(kind, "8-bit -1 marker i16", src, "i16", sprinkle(g, -1, 0.02, src))
    o.add(kind, "8-bit clipped 16..235 i16", src, "i16", np.clip(g, 16, 235))
    ways_unsigned_samples(o, kind, src, g, 8, named=True)
    for b in (9, 10, 12):
        s = np.round(g * ((1 << b) - 1) / 255.0).astype(np.int64)
        o.add(kind, f"{b}-bit << {16 - b} i16", src, "i16", ((s << (16 - b)) ^ 0x8000) - 0x8000)
        o.add(kind, f"{b}-bit i16", src, "i16", s)
    o.add(kind, "grey packed 0x00GGGGGG i32", src, "i32", g * 0x010101)


def ways_rgb(o, kind, src, rgb):
    rgb = np.asarray(rgb, dtype=np.int64)
    rgb = rgb.reshape(-1, rgb.shape[-1])[:, :3]
    r, g, b = rgb[:, 0], rgb[:, 1], rgb[:, 2]
    o.add(kind, "RGB channels i16", src, "i16", rgb)
    o.add(kind, "RGB channels /255 f32", src, "f32", rgb / 255.0)
    o.add(kind, "packed 0x00RRGGBB i32", src, "i32", (r << 16) | (g << 8) | b)
    o.add(kind, "packed 0xFFRRGGBB i32", src, "i32", ((0xFF << 24) | (r << 16) | (g << 8) | b) - (1 << 32))
    o.add(kind, "packed 0xRRGGBBFF i32", src, "i32", (((r << 24) | (g << 16) | (b << 8) | 0xFF) ^ (1 << 31)) - (1 << 31))
    o.add(kind, "packed 0xFFBBGGRR i32", src, "i32", ((0xFF << 24) | (b << 16) | (g << 8) | r) - (1 << 32))
    o.add(kind, "packed RGB565 i16", src, "i16", ((((r >> 3) << 11) | ((g >> 2) << 5) | (b >> 3)) ^ 0x8000) - 0x8000)


# ---------------------------------------------------------------- sources


def tz(o):
    root = "/usr/share/zoneinfo"
    if not os.path.isdir(root):
        return o.miss("tzdata /usr/share/zoneinfo", "not installed")
    seen = set()
    zones = []
    for dp, dns, fns in os.walk(root):
        dns[:] = sorted(d for d in dns if d not in ("posix", "right"))
        for fn in sorted(fns):
            p = os.path.join(dp, fn)
            with open(p, "rb") as f:
                d = f.read()
            if d[:4] != b"TZif":
                continue
            h = hashlib.sha256(d).hexdigest()
            if h in seen:
                continue
            seen.add(h)
            zones.append((os.path.relpath(p, root), d))
    zones.sort()
    o.sources.append(f"tzdata: {len(zones)} distinct TZif files of /usr/share/zoneinfo (posix/, right/ and links left out)")
    for name, d in zones:
        src = f"tz:{name}"
        isut, isstd, leap, timecnt, typecnt, charcnt = struct.unpack(">6l", d[20:44])
        at = 44
        t32 = np.frombuffer(d, ">i4", timecnt, at).astype(np.int64)
        at += 4 * timecnt
        idx = np.frombuffer(d, "u1", timecnt, at).astype(np.int64)
        at += timecnt
        tt = [struct.unpack(">lBB", d[at + 6 * i : at + 6 * i + 6]) for i in range(typecnt)]
        off = np.array([tt[i][0] for i in idx], dtype=np.int64) if timecnt else np.zeros(0, np.int64)
        if timecnt == 0:
            continue
        o.add("tz", "transitions i32 (as in TZif)", src, "i32", t32)
        o.add("tz", "transitions f64", src, "f64", t32.astype(np.float64))
        o.add("tz", "transitions days i32", src, "i32", t32 // 86400)
        o.add("tz", "transitions + offset i32", src, "i32", clip(t32 + off, "i32"))
        o.add("tz", "UTC offsets i32", src, "i32", off)
        o.add("tz", "UTC offsets minutes i16", src, "i16", off // 60)
        o.add("tz", "intervals i32", src, "i32", clip(np.diff(t32), "i32"))
        # the whole file (header, tables of bytes and structs, names) read as
        # i32: not an array, the raw bytes of a big-endian format put under an
        # IDX header; kept apart from the arrays as the worst case
        n4 = len(d) // 4
        o.add("tz", "whole TZif file as i32 (not an array)", src, "i32", np.frombuffer(d, ">i4", n4).astype(np.int64))


def audio(o):
    import soundfile

    files = sorted(glob.glob("/usr/share/sounds/alsa/*.wav"))
    if not files:
        o.miss("alsa-utils /usr/share/sounds/alsa/*.wav", "not installed")
    oga = sorted(glob.glob("/usr/share/sounds/freedesktop/stereo/*.oga"))
    if not oga:
        o.miss("sound-theme-freedesktop /usr/share/sounds/freedesktop/stereo/*.oga", "not installed")
    o.sources.append(f"audio: {len(files)} WAV of alsa-utils, {len(oga)} Ogg Vorbis of sound-theme-freedesktop (decoded to 16 bits by soundfile)")
    for p in files + oga:
        src = "audio:" + os.path.basename(p)
        x, sr = soundfile.read(p, dtype="int16", always_2d=True)
        v = x.astype(np.int64).ravel()  # interleaved, as stored
        o.add("audio", "16-bit i16", src, "i16", v)
        o.add("audio", "16-bit i32", src, "i32", v)
        o.add("audio", "16-bit << 16 i32", src, "i32", v << 16)
        d = rng_for(src, "dither").integers(0, 256, v.size)
        o.add("audio", "24-bit << 8 i32", src, "i32", ((v << 8) | d) << 8)
        o.add("audio", "24-bit i32", src, "i32", (v << 8) | d)
        o.add("audio", "/32768 f32", src, "f32", v / 32768.0)
        o.add("audio", "/32768 f64", src, "f64", v / 32768.0)
        o.add("audio", "x4 clipped i16", src, "i16", clip(v * 4, "i16"))
        for b in (8, 10, 12):
            o.add("audio", f"{b}-bit << {16 - b} i16", src, "i16", (v >> (16 - b)) << (16 - b))
            o.add("audio", f"{b}-bit i16", src, "i16", v >> (16 - b))


def pictures(o):
    from PIL import Image

    import skimage

    sk = os.path.join(os.path.dirname(skimage.__file__), "data")
    import matplotlib

    mpl = os.path.join(matplotlib.get_data_path(), "sample_data")
    files = sorted(glob.glob(os.path.join(sk, "*.png")) + glob.glob(os.path.join(sk, "*.jpg")))
    files += [os.path.join(mpl, f) for f in ("grace_hopper.jpg", "Minduka_Present_Blue_Pack.png", "logo2.png")]
    deb = sorted(
        p
        for p in glob.glob("/usr/share/desktop-base/**/*", recursive=True)
        if p.endswith((".png", ".jpg")) and os.path.isfile(p) and not os.path.islink(p)
    )
    if not deb:
        o.miss("desktop-base /usr/share/desktop-base", "not installed")
    files += deb
    o.sources.append(
        f"pictures: {len(files) - len(deb)} PNG/JPEG bundled in scikit-image and matplotlib, {len(deb)} of Debian's desktop-base"
    )
    seen = set()
    for p in files:
        if not os.path.exists(p):
            o.miss(p, "not found")
            continue
        im = Image.open(p)
        im.load()
        if im.mode not in ("RGB", "RGBA", "L", "P", "LA", "1"):
            im = im.convert("RGB")
        if im.mode in ("P", "LA", "1"):
            im = im.convert("RGBA" if "transparency" in im.info or im.mode == "LA" else "RGB")
        # a wallpaper's 2 MPixel at most: the scorer looks at the first values anyway
        a = np.asarray(im)
        h = hashlib.sha256(a.tobytes()).hexdigest()
        if h in seen:
            continue
        seen.add(h)
        src = "pic:" + os.path.relpath(p, "/") if p.startswith("/usr") else "pic:" + os.path.basename(p)
        if a.ndim == 2:
            ways_gray(o, "pictures", src, a)
        else:
            ways_rgb(o, "pictures", src, a)
            gray = np.round(a[..., :3] @ np.array([0.299, 0.587, 0.114])).astype(np.int64)
            ways_gray(o, "pictures", src, gray)


def mnist(o):
    import gzip as gz

    # MNIST_DIR, else the repository's testdata/mnist, else the shared data
    # folder beside the checkout
    here = [os.environ.get("MNIST_DIR", ""), os.path.join(REPO, "testdata", "mnist")]
    mnist_dir = next((d for d in here if d and os.path.isdir(d)), here[-1])
    sets = [
        ("mnist", mnist_dir),
        ("fashion-mnist", "/usr/share/datasets/fashion-mnist"),
    ]
    for label, d in sets:
        for f in ("train-images-idx3-ubyte.gz", "t10k-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz", "t10k-labels-idx1-ubyte.gz"):
            p = os.path.join(d, f)
            if not os.path.exists(p):
                o.miss(f"{label} {p}", "not found")
                continue
            o.sources.append(f"{label}: {os.path.abspath(p)}")
            raw = gz.open(p).read()
            nd = raw[3]
            dims = struct.unpack(f">{nd}l", raw[4 : 4 + 4 * nd])
            v = np.frombuffer(raw, "u1", int(np.prod(dims)), 4 + 4 * nd).astype(np.int64)
            src = f"{label}:{f}"
            if nd > 1:
                ways_gray(o, "MNIST", src, v)
            else:
                o.add("MNIST", "labels i16", src, "i16", v)
                o.add("MNIST", "labels i32", src, "i32", v)
                o.add("MNIST", "labels f32", src, "f32", v)
                o.add("MNIST", "labels f64", src, "f64", v)
                o.add("MNIST", "labels -1 marker i32", src, "i32", sprinkle(v, -1, 0.02, src))


def tabular(o):
    import sklearn.datasets as skd

    loaders = [
        ("iris", lambda: skd.load_iris().data, 1),
        ("diabetes", lambda: skd.load_diabetes().data, 6),
        ("diabetes raw", lambda: skd.load_diabetes(scaled=False).data, 2),
        ("wine", lambda: skd.load_wine().data, 2),
        ("breast_cancer", lambda: skd.load_breast_cancer().data, 4),
        ("linnerud", lambda: np.hstack([skd.load_linnerud().data, skd.load_linnerud().target]), 0),
    ]
    import statsmodels.api as sm

    smd = [
        n
        for n in sorted(dir(sm.datasets))
        if not n.startswith("_") and hasattr(getattr(sm.datasets, n), "load_pandas")
    ]
    for n in smd:
        loaders.append(("statsmodels " + n, lambda n=n: getattr(sm.datasets, n).load_pandas().data, None))
    o.sources.append(
        f"tabular: scikit-learn's bundled iris, diabetes (scaled and raw), wine, breast_cancer, linnerud; statsmodels' {len(smd)} bundled datasets"
    )
    for name, load, dec in loaders:
        src = "tab:" + name
        try:
            t = load()
        except Exception as e:  # a loader that needs a download
            o.miss(src, e)
            continue
        if hasattr(t, "select_dtypes"):
            t = t.select_dtypes(include=[np.number]).to_numpy(dtype=np.float64)
        t = np.asarray(t, dtype=np.float64)
        if t.ndim == 1:
            t = t[:, None]
        # row-major (a table as rows) and column-major (as columns)
        for order, x in (("rows", t.ravel()), ("columns", t.T.ravel())):
            x = x[np.isfinite(x)]
            if x.size == 0:
                continue
            s = f"{src} ({order})"
            if np.all(x == np.round(x)) and np.abs(x).max() < (1 << 30):
                bits = int(np.abs(x).max()).bit_length()
                ways_ints(o, "tabular", s, x.astype(np.int64), bits)
            else:
                d = dec
                if d is None:  # the precision the table was written at
                    d = 0
                    while d < 6 and not np.allclose(x * 10.0**d, np.round(x * 10.0**d), rtol=0, atol=1e-6):
                        d += 1
                ways_floats(o, "tabular", s, x, d)
    digits = skd.load_digits().images.astype(np.int64)  # 0..16, 8x8
    ways_ints(o, "tabular", "tab:digits (images 0..16)", digits, 5)


def frames(o):
    import astropy
    from astropy.io import fits

    d = os.path.join(os.path.dirname(astropy.__file__), "io", "fits", "tests", "data")
    files = sorted(glob.glob(os.path.join(d, "*.fits")))
    import matplotlib
    import skimage

    mpl = os.path.join(matplotlib.get_data_path(), "sample_data")
    n = 0
    for p in files:
        try:
            with fits.open(p, memmap=False) as hl:
                for i, hdu in enumerate(hl):
                    if not hdu.is_image or hdu.data is None or hdu.data.size < 16:
                        continue
                    a = np.asarray(hdu.data)
                    if a.dtype.kind not in "iuf":
                        continue
                    n += 1
                    frame(o, f"fits:{os.path.basename(p)}[{i}]", a)
        except Exception as e:
            o.miss(f"astropy test FITS {os.path.basename(p)}", e)
    o.sources.append(f"frames: {n} image HDUs of astropy's test FITS files; matplotlib's s1045.ima.gz (MRI), jacksboro_fault_dem.npz, topobathy.npz; scikit-image's hubble_deep_field, lfw_subset.npy, motorcycle_disp.npz")
    with gzip.open(os.path.join(mpl, "s1045.ima.gz")) as f:
        frame(o, "mri:s1045.ima", np.frombuffer(f.read(), "<u2"))
    frame(o, "dem:jacksboro_fault_dem", np.load(os.path.join(mpl, "jacksboro_fault_dem.npz"))["elevation"])
    frame(o, "dem:topobathy", np.load(os.path.join(mpl, "topobathy.npz"))["topo"])
    sk = os.path.join(os.path.dirname(skimage.__file__), "data")
    frame(o, "faces:lfw_subset", np.load(os.path.join(sk, "lfw_subset.npy")))
    frame(o, "disparity:motorcycle_disp", np.load(os.path.join(sk, "motorcycle_disp.npz"))["arr_0"])


def frame(o, src, a):
    a = np.asarray(a)
    if a.dtype.kind in "iu":
        v = a.astype(np.int64).ravel()
        bits = int(max(abs(int(v.min())), abs(int(v.max())))).bit_length()
        if v.min() >= -(1 << 15) and v.max() < (1 << 15):
            o.add("frames", "counts i16", src, "i16", v)
            o.add("frames", "BLANK -32768 i16", src, "i16", sprinkle(v, -32768, 0.02, src))
            if v.min() >= 0 and bits <= 12:
                o.add("frames", "left-justified i16", src, "i16", ((v << (16 - bits)) ^ 0x8000) - 0x8000)
        o.add("frames", "counts i32", src, "i32", v)
        o.add("frames", "counts f32", src, "f32", v)
        o.add("frames", "counts f64", src, "f64", v)
        o.add("frames", "NaN blank f32", src, "f32", sprinkle(v.astype(np.float64), np.nan, 0.02, src))
        p1, p99 = np.percentile(v, [1, 99])
        o.add("frames", "clipped 1..99 % i32", src, "i32", np.clip(v, int(p1), int(p99)))
        if 0 <= v.min() and v.max() < (1 << 16):
            o.add("frames", "16-bit << 16 i32", src, "i32", ((v << 16) ^ (1 << 31)) - (1 << 31))
    else:
        x = a.astype(np.float64).ravel()
        x = x[np.isfinite(x)]
        if x.size < 16:
            return
        o.add("frames", "floats f32", src, "f32", x)
        o.add("frames", "floats f64", src, "f64", x)
        o.add("frames", "NaN blank f32", src, "f32", sprinkle(x, np.nan, 0.02, src))
        m = float(np.max(np.abs(x))) or 1.0
        k = min(16, int(np.floor(np.log2(LIM["i32"][1] / m))))
        o.add("frames", "fixed point i32", src, "i32", np.round(x * 2.0**k).astype(np.int64))
        # BSCALE-style: 16-bit codes of the range
        lo, hi = float(x.min()), float(x.max())
        q = np.round((x - lo) / ((hi - lo) or 1.0) * 65535 - 32768).astype(np.int64)
        o.add("frames", "BSCALE/BZERO codes i16", src, "i16", q)
        p1, p99 = np.percentile(x, [1, 99])
        o.add("frames", "clipped 1..99 % f32", src, "f32", np.clip(x, p1, p99))


def series(o):
    import matplotlib

    mpl = os.path.join(matplotlib.get_data_path(), "sample_data")
    o.sources.append("series: matplotlib's goog.npz (prices, volumes, dates), Stocks.csv, msft.csv, eeg.dat, membrane.dat, data_x_x2_x3.csv")
    r = np.load(os.path.join(mpl, "goog.npz"))["price_data"]
    for c in ("open", "high", "low", "close", "adj_close"):
        ways_floats(o, "series", f"goog:{c}", r[c], 2)
    ways_ints(o, "series", "goog:volume", r["volume"].astype(np.int64), 24)
    days = r["date"].astype("datetime64[D]").astype(np.int64)
    ways_ints(o, "series", "goog:date (days)", days, 15)
    o.add("series", "dates seconds i32", "goog:date", "i32", days * 86400)
    o.add("series", "dates seconds f64", "goog:date", "f64", days * 86400.0)
    import pandas as pd

    s = pd.read_csv(os.path.join(mpl, "Stocks.csv"), comment="#")
    for c in s.columns[1:]:
        ways_floats(o, "series", f"stocks:{c}", s[c].to_numpy(), 2)
    m = pd.read_csv(os.path.join(mpl, "msft.csv"))
    for c in m.columns[1:]:
        x = m[c].to_numpy(dtype=np.float64)
        if np.all(x == np.round(x)):
            ways_ints(o, "series", f"msft:{c}", x.astype(np.int64), int(np.abs(x).max()).bit_length())
        else:
            ways_floats(o, "series", f"msft:{c}", x, 2)
    eeg = np.fromfile(os.path.join(mpl, "eeg.dat"), "<f8")
    ways_floats(o, "series", "eeg.dat", eeg, 3)
    mem = np.fromfile(os.path.join(mpl, "membrane.dat"), "<f4")
    ways_floats(o, "series", "membrane.dat", mem, 3)
    x = np.loadtxt(os.path.join(mpl, "data_x_x2_x3.csv"))
    ways_floats(o, "series", "data_x_x2_x3.csv", x, 3)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(REPO, "bench", "out", "realdata")
    o = Out(out)
    for f in (tz, audio, pictures, mnist, tabular, frames, series):
        try:
            f(o)
        except ImportError as e:
            o.miss(f.__name__, f"a package is missing: {e}")
    o.write()


if __name__ == "__main__":
    main()
