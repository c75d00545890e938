//! The recipes of the corpus. Every case states its expected findings by
//! hand; nothing here asks the `idx` library what to expect.

use crate::content::{Content, Values};
use idx::ElementType::{self, F32, F64, I16, I32, I8, U8};
use std::io::Write;

/// What a conforming reader must do with a case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Verdict {
    /// Accept, with exactly the manifest's content.
    Valid,
    /// Reject.
    Invalid,
    /// Valid per the spec but non-portable (its warnings) or a container a
    /// reader MAY open: recorded, never failed.
    ImplementationDefined,
}

impl Verdict {
    /// `valid`, `invalid`, `implementation-defined`: also the folder name.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Valid => "valid",
            Verdict::Invalid => "invalid",
            Verdict::ImplementationDefined => "implementation-defined",
        }
    }
}

/// Validator options a case needs (beyond gzip decompression, always on).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CaseOptions {
    /// `max_decompressed`.
    pub max_decompressed: Option<u64>,
    /// `expect_dtype`.
    pub expect_dtype: Option<ElementType>,
    /// `expect_shape` (`None` = wildcard).
    pub expect_shape: Option<Vec<Option<u32>>>,
}

impl CaseOptions {
    /// True when no option is set: the case is about the file alone.
    pub fn is_empty(&self) -> bool {
        *self == CaseOptions::default()
    }
}

/// One corpus case.
#[derive(Debug, Clone)]
pub struct Case {
    /// Stable ID, never renamed once published; also the file stem.
    pub id: String,
    /// The verdict.
    pub verdict: Verdict,
    /// One sentence.
    pub description: String,
    /// The file's bytes.
    pub bytes: Vec<u8>,
    /// Exact expected findings: `(rule code, offset, length)`, ordered by
    /// offset then code, offsets in the decompressed stream for gzip.
    pub findings: Vec<(&'static str, u64, u64)>,
    /// The logical content, for valid and implementation-defined cases.
    pub content: Option<Content>,
    /// Validator options the findings assume.
    pub options: CaseOptions,
    /// Too large to commit: neither file nor manifest is in `corpus/`; both
    /// are generated on demand (see [`ON_DEMAND`]).
    pub on_demand: bool,
}

impl Case {
    /// The file name: `<id>.idx`, or `<id>.idx.gz` for gzip bytes.
    pub fn file_name(&self) -> String {
        let ext = if self.compression().is_some() {
            "idx.gz"
        } else {
            "idx"
        };
        format!("{}.{ext}", self.id)
    }
    /// The rule codes this case exercises (those of its findings).
    pub fn rules(&self) -> Vec<&'static str> {
        let mut r: Vec<_> = self.findings.iter().map(|f| f.0).collect();
        r.sort();
        r.dedup();
        r
    }
    /// `gzip` when the file is gzip-compressed.
    pub fn compression(&self) -> Option<&'static str> {
        self.bytes.starts_with(&[0x1f, 0x8b]).then_some("gzip")
    }
}

/// The one constructor; the file extension follows from the bytes.
fn case(
    verdict: Verdict,
    id: &str,
    description: &str,
    bytes: Vec<u8>,
    findings: &[(&'static str, u64, u64)],
    content: Option<Content>,
) -> Case {
    Case {
        id: id.into(),
        verdict,
        description: description.into(),
        bytes,
        findings: findings.to_vec(),
        content,
        options: CaseOptions::default(),
        on_demand: false,
    }
}

fn valid(
    id: &str,
    description: &str,
    content: Content,
    findings: &[(&'static str, u64, u64)],
) -> Case {
    case(
        Verdict::Valid,
        id,
        description,
        content.golden_bytes(),
        findings,
        Some(content),
    )
}

fn implementation_defined(
    id: &str,
    description: &str,
    content: Content,
    bytes: Vec<u8>,
    findings: &[(&'static str, u64, u64)],
) -> Case {
    case(
        Verdict::ImplementationDefined,
        id,
        description,
        bytes,
        findings,
        Some(content),
    )
}

fn invalid(
    id: &str,
    description: &str,
    bytes: Vec<u8>,
    findings: &[(&'static str, u64, u64)],
) -> Case {
    case(Verdict::Invalid, id, description, bytes, findings, None)
}

/// Spaced hex to bytes (recipes only; a typo is a bug in the corpus).
fn hx(s: &str) -> Vec<u8> {
    s.split_whitespace()
        .map(|b| u8::from_str_radix(b, 16).unwrap_or_else(|_| panic!("bad hex {b:?} in a recipe"))) // ok: recipes are our own constants
        .collect()
}

/// gzip with stored (uncompressed) blocks: stable bytes whatever the
/// deflate implementation's version.
pub fn gzip_stored(bytes: &[u8]) -> Vec<u8> {
    gzip_level(bytes, flate2::Compression::none())
}

fn gzip_level(bytes: &[u8], level: flate2::Compression) -> Vec<u8> {
    let mut e = flate2::GzBuilder::new().mtime(0).write(Vec::new(), level);
    // invariant: writing to a Vec cannot fail
    e.write_all(bytes).expect("write to Vec"); // invariant: a Vec never fails
    e.finish().expect("write to Vec") // invariant: a Vec never fails
}

/// Values that encode their own flat index, distinct per type, so that a
/// reader that transposes, drops or shifts elements is caught.
pub fn index_values(dtype: ElementType, n: usize) -> Values {
    match dtype {
        U8 => Values::Int((0..n).map(|i| (i % 251) as i64).collect()),
        I8 => Values::Int((0..n).map(|i| (i % 251) as i64 - 125).collect()),
        I16 => Values::Int(
            (0..n)
                .map(|i| (i as i64 * 7 - 1000).clamp(-32768, 32767))
                .collect(),
        ),
        I32 => Values::Int((0..n).map(|i| i as i64 * 100_003 - 5_000_000).collect()),
        F32 => Values::F32((0..n).map(|i| (i as f32 + 0.25).to_bits()).collect()),
        F64 => Values::F64((0..n).map(|i| (i as f64 * 0.5 - 3.0).to_bits()).collect()),
    }
}

fn indexed(dtype: ElementType, shape: &[u32]) -> Content {
    let n = shape.iter().map(|&d| d as usize).product();
    Content {
        dtype,
        shape: shape.to_vec(),
        values: index_values(dtype, n),
    }
}

fn ints(dtype: ElementType, shape: &[u32], v: &[i64]) -> Content {
    Content {
        dtype,
        shape: shape.to_vec(),
        values: Values::Int(v.to_vec()),
    }
}

/// `n` labels 0 to 9 in a fixed, irregular order.
fn mnist_labels(n: usize) -> Content {
    let v = (0..n)
        .map(|i| ((i * 7919 + i / 13) % 10) as i64)
        .collect::<Vec<_>>();
    ints(U8, &[n as u32], &v)
}

/// `n` 28 x 28 u8 images; every pixel depends on item, row and column.
fn mnist_images(n: usize) -> Content {
    let v = (0..n * 784)
        .map(|i| ((i / 784) * 31 + (i % 784) / 28 * 5 + (i % 28) * 3) as i64 % 256)
        .collect::<Vec<_>>();
    ints(U8, &[n as u32, 28, 28], &v)
}

/// `valid-u8-same-bytes-<shape>`: u8 of `shape`, each element encoding its
/// own index, whose payload is as long as that of `like`.
fn same_bytes(shape: &[u32], like: &str) -> Case {
    let dims: Vec<String> = shape.iter().map(u32::to_string).collect();
    valid(
        &format!("valid-u8-same-bytes-{}", dims.join("x")),
        &format!(
            "u8, shape {shape:?}, each element encoding its own index: the byte count of \
             {like} in another shape, which a reader that hard-codes that layout's dimensions \
             gets wrong"
        ),
        indexed(U8, shape),
        &[],
    )
}

/// Every committed case, in a stable order.
pub fn all() -> Vec<Case> {
    let mut out = Vec::new();
    valid_cases(&mut out);
    implementation_defined_cases(&mut out);
    invalid_cases(&mut out);
    spec_position_cases(&mut out);
    differential_cases(&mut out);
    out
}

/// The IDs of the on-demand cases: too large to commit (tens of MB, and
/// seconds to build in a debug build), so [`all`] leaves them out and only
/// `generate --large` and the runner's `--large` build them.
pub const ON_DEMAND: &[&str] = &[
    "valid-mnist-images-u8-10000x28x28",
    "invalid-trailing-mnist-images-10000",
    "invalid-truncated-payload-mnist-images-10000",
    "valid-u8-same-bytes-5000x28x56",
];

/// The on-demand cases (see [`ON_DEMAND`]), in that order.
pub fn on_demand() -> Vec<Case> {
    let images = mnist_images(10_000);
    let golden = images.golden_bytes();
    let mut valid_images = valid(
        ON_DEMAND[0],
        "an image file of t10k's size: 10,000 images of 28 x 28 (7.8 MB)",
        images,
        &[],
    );
    let mut trailing = golden.clone();
    trailing.extend(mnist_images(1).payload());
    let mut trailing = invalid(
        ON_DEMAND[1],
        "an image file declaring 10,000 images of 28 x 28 that holds 10,001",
        trailing,
        &[("IDX203", 16 + 10_000 * 784, 784)],
    );
    let mut truncated = invalid(
        ON_DEMAND[2],
        "an image file declaring 10,000 images of 28 x 28 whose last image lacks its last row",
        golden[..golden.len() - 28].to_vec(),
        &[("IDX202", 16 + 10_000 * 784 - 28, 0)],
    );
    let mut same_bytes = same_bytes(&[5000, 28, 56], "t10k's 10,000 images of 28 x 28");
    for c in [
        &mut valid_images,
        &mut trailing,
        &mut truncated,
        &mut same_bytes,
    ] {
        c.on_demand = true;
    }
    vec![valid_images, trailing, truncated, same_bytes]
}

/// [`all`] and then [`on_demand`].
pub fn with_on_demand() -> Vec<Case> {
    let mut v = all();
    v.extend(on_demand());
    v
}

/// Shape of rank `rank`, all ones but 2 first and 3 last.
fn high_rank_shape(rank: usize) -> Vec<u32> {
    let mut s = vec![1u32; rank];
    s[0] = 2;
    s[rank - 1] = 3;
    s
}

fn valid_cases(out: &mut Vec<Case>) {
    // rank 32: the highest every numpy supports (spec 7.27); 255 is
    // implementation-defined (IDX304)
    let rank32 = high_rank_shape(32);
    let shapes: [(&str, Vec<u32>); 6] = [
        ("rank1", vec![5]),
        ("rank2", vec![2, 3]),
        ("rank3", vec![2, 3, 4]),
        ("rank4", vec![2, 3, 1, 2]),
        ("rank8", vec![1, 2, 1, 3, 1, 1, 2, 1]),
        ("rank32", rank32),
    ];
    for t in ElementType::ALL {
        for (name, shape) in &shapes {
            out.push(valid(
                &format!("valid-{t}-{name}"),
                &format!(
                    "{t}, shape {shape:?}, each element encoding its own row-major index",
                    shape = if shape.len() > 8 {
                        format!("rank {}", shape.len())
                    } else {
                        format!("{shape:?}")
                    }
                ),
                indexed(t, shape),
                &[],
            ));
        }
    }
    // MNIST-shaped
    let labels = [7, 2, 1, 0, 4, 1, 4, 9, 5, 9];
    out.push(valid(
        "valid-mnist-labels-u8-10",
        "MNIST-shaped label file: 10 labels (the first ten of t10k)",
        ints(U8, &[10], &labels),
        &[],
    ));
    let images: Vec<i64> = (0..3 * 28 * 28)
        .map(|i| ((i / 784) * 80 + (i % 784) / 28 * 3 + (i % 28)) as i64 % 256)
        .collect();
    out.push(valid(
        "valid-mnist-images-u8-3x28x28",
        "MNIST-shaped image file: 3 images of 28 x 28, pixel = item*80 + row*3 + column",
        ints(U8, &[3, 28, 28], &images),
        &[],
    ));
    let big: Vec<i64> = (0..64 * 28 * 28).map(|i| ((i * 7) % 256) as i64).collect();
    out.push(valid(
        "valid-mnist-images-u8-64x28x28",
        "MNIST-shaped image file of 64 items (content given as a SHA-256)",
        ints(U8, &[64, 28, 28], &big),
        &[],
    ));
    // MNIST's own item counts: readers that accept only those (a published
    // Rust crate does) can then show what they do with the twins in
    // invalid/ (trailing bytes, truncation)
    out.push(valid(
        "valid-mnist-labels-u8-10000",
        "a label file of t10k's size: 10,000 labels",
        mnist_labels(10_000),
        &[],
    ));
    // The byte count of a common layout with another shape: a reader that
    // hard-codes a dimension (28 x 28 images, 10,000 or 60,000 items, one
    // channel) and takes the rest from the byte count gets another shape.
    for (shape, like) in [
        (
            &[2u32, 14, 56][..],
            "two 28 x 28 images (784 bytes per item)",
        ),
        (&[3, 56, 14], "three 28 x 28 images (784 bytes per item)"),
        (
            &[1, 2, 28, 28],
            "two 1-channel 28 x 28 images, channels first",
        ),
        (
            &[1, 28, 28, 2],
            "two 1-channel 28 x 28 images, channels last",
        ),
        (&[2, 5000], "t10k's 10,000 labels"),
        (&[2, 30000], "train's 60,000 labels"),
    ] {
        out.push(same_bytes(shape, like));
    }
    out.push(valid("valid-transpose-i16-2x7", "non-square i16 matrix whose values are 100*row + column: a transposing reader gets other values", ints(I16, &[2, 7], &(0..14).map(|i| (i / 7) * 100 + i % 7).collect::<Vec<_>>()), &[]));
    // edge values
    out.push(valid(
        "valid-edge-u8",
        "u8 extremes",
        ints(U8, &[6], &[0, 1, 127, 128, 254, 255]),
        &[],
    ));
    out.push(valid(
        "valid-edge-i8",
        "i8 extremes: a reader that reads i8 as u8 is caught",
        ints(I8, &[7], &[-128, -127, -1, 0, 1, 126, 127]),
        &[],
    ));
    out.push(valid(
        "valid-edge-i16",
        "i16 extremes and byte-order probes (255, 256)",
        ints(
            I16,
            &[9],
            &[-32768, -32767, -256, -1, 0, 1, 255, 256, 32767],
        ),
        &[],
    ));
    out.push(valid(
        "valid-edge-i32",
        "i32 extremes and byte-order probes",
        ints(
            I32,
            &[11],
            &[
                i32::MIN as i64,
                i32::MIN as i64 + 1,
                -65536,
                -1,
                0,
                1,
                255,
                256,
                65536,
                16_777_216,
                i32::MAX as i64,
            ],
        ),
        &[],
    ));
    let f32_bits: Vec<u32> = vec![
        0x0000_0000,
        0x8000_0000,
        0x3f80_0000,
        0xbf80_0000,
        0x0000_0001,
        0x007f_ffff,
        0x0080_0000,
        0x7f7f_ffff,
        0xff7f_ffff,
        0x7f80_0000,
        0xff80_0000,
        0x7fc0_0000,
        0x7fc0_0001,
        0xffc0_0000,
        0x7f80_0001,
        0x7fbf_ffff,
        0x4049_0fdb,
    ];
    out.push(valid(
        "valid-edge-f32",
        "f32 bit patterns: +-0, +-1, subnormals, largest finite, +-inf, quiet and signalling NaNs with payloads, pi; a reader that converts instead of reinterpreting bits is caught",
        Content { dtype: F32, shape: vec![17], values: Values::F32(f32_bits) },
        &[("IDX502", 8 + 9 * 4, 4)],
    ));
    let f64_bits: Vec<u64> = vec![
        0,
        0x8000_0000_0000_0000,
        0x3ff0_0000_0000_0000,
        0xbff0_0000_0000_0000,
        1,
        0x000f_ffff_ffff_ffff,
        0x0010_0000_0000_0000,
        0x7fef_ffff_ffff_ffff,
        0xffef_ffff_ffff_ffff,
        0x7ff0_0000_0000_0000,
        0xfff0_0000_0000_0000,
        0x7ff8_0000_0000_0000,
        0x7ff8_0000_0000_0001,
        0xfff8_0000_0000_0000,
        0x7ff0_0000_0000_0001,
        0x7ff7_ffff_ffff_ffff,
        0x4009_21fb_5444_2d18,
    ];
    out.push(valid(
        "valid-edge-f64",
        "f64 bit patterns: +-0, +-1, subnormals, largest finite, +-inf, quiet and signalling NaNs with payloads, pi",
        Content { dtype: F64, shape: vec![17], values: Values::F64(f64_bits) },
        &[("IDX502", 8 + 9 * 8, 8)],
    ));
}

fn implementation_defined_cases(out: &mut Vec<Case>) {
    // ranks above 32 (IDX304, spec 7.27): 33 fails numpy 1.x, 65 every numpy
    for t in ElementType::ALL {
        let c = indexed(t, &high_rank_shape(255));
        out.push(implementation_defined(
            &format!("impl-rank255-{t}"),
            &format!("{t}, rank 255 (the largest), shape [2, 1 x 253, 3]: every numpy-based reader rejects it"),
            c.clone(),
            c.golden_bytes(),
            &[("IDX304", 3, 1)],
        ));
    }
    for (rank, why) in [
        (33, "the lowest rank numpy before 2.0 rejects"),
        (65, "the lowest rank numpy 2 rejects"),
    ] {
        let c = indexed(U8, &high_rank_shape(rank));
        out.push(implementation_defined(
            &format!("impl-rank{rank}-u8"),
            &format!("u8, rank {rank}, shape [2, 1 x {}, 3]: {why}", rank - 2),
            c.clone(),
            c.golden_bytes(),
            &[("IDX304", 3, 1)],
        ));
    }
    let c = ints(U8, &[], &[42]);
    out.push(implementation_defined(
        "impl-rank0-u8",
        "rank 0: one u8 scalar (42)",
        c.clone(),
        c.golden_bytes(),
        &[("IDX301", 3, 1)],
    ));
    let c = Content {
        dtype: F64,
        shape: vec![],
        values: Values::F64(vec![std::f64::consts::PI.to_bits()]),
    };
    out.push(implementation_defined(
        "impl-rank0-f64",
        "rank 0: one f64 scalar (pi)",
        c.clone(),
        c.golden_bytes(),
        &[("IDX301", 3, 1)],
    ));
    let c = ints(U8, &[0], &[]);
    out.push(implementation_defined(
        "impl-zero-dim-u8-0",
        "rank 1 with dimension 0: no elements",
        c.clone(),
        c.golden_bytes(),
        &[("IDX302", 4, 4)],
    ));
    let c = ints(I32, &[3, 0], &[]);
    out.push(implementation_defined(
        "impl-zero-dim-i32-3x0",
        "shape [3, 0]: no elements",
        c.clone(),
        c.golden_bytes(),
        &[("IDX302", 8, 4)],
    ));
    let c = ints(U8, &[1 << 31, 0], &[]);
    out.push(implementation_defined(
        "impl-large-dim-u8-2147483648x0",
        "a dimension of 2^31 (paired with 0, so the file is empty): readers with signed 32-bit sizes break",
        c.clone(),
        c.golden_bytes(),
        &[("IDX303", 4, 4), ("IDX302", 8, 4)],
    ));
    let c = Content {
        dtype: F32,
        shape: vec![0, u32::MAX],
        values: Values::F32(vec![]),
    };
    out.push(implementation_defined(
        "impl-large-dim-f32-0x4294967295",
        "shape [0, 4294967295]: the largest dimension, no elements",
        c.clone(),
        c.golden_bytes(),
        &[("IDX302", 4, 4), ("IDX303", 8, 4)],
    ));
    let c = ints(I32, &[u32::MAX, u32::MAX, 0], &[]);
    out.push(implementation_defined(
        "impl-zero-dim-after-overflowing-prefix-i32",
        "i32 of shape [4294967295, 4294967295, 0]: the first two dimensions alone overflow 64 bits, but the exact size is 0",
        c.clone(),
        c.golden_bytes(),
        &[("IDX303", 4, 4), ("IDX303", 8, 4), ("IDX302", 12, 4)],
    ));
    // little-endian data: valid IDX whose content (read big-endian, as the
    // spec says) is almost certainly not what the writer meant
    let labels: Vec<i32> = (0..100).map(|i| (i * 7) % 10).collect();
    let mut bytes = vec![0, 0, 0x0c, 1, 0, 0, 0, 100];
    labels
        .iter()
        .for_each(|v| bytes.extend_from_slice(&v.to_le_bytes()));
    let c = Content {
        dtype: I32,
        shape: vec![100],
        values: Values::Int(
            labels
                .iter()
                .map(|v| i32::from_be_bytes(v.to_le_bytes()) as i64)
                .collect(),
        ),
    };
    out.push(implementation_defined(
        "impl-little-endian-i32-labels",
        "i32 labels 0..9 written little-endian (the header is big-endian)",
        c,
        bytes,
        &[("IDX501", 8, 400)],
    ));
    let wave: Vec<f32> = (0..64)
        .map(|i| (i as f32 / 8.0).sin() * 3.0 + 0.5)
        .collect();
    let mut bytes = vec![0, 0, 0x0d, 1, 0, 0, 0, 64];
    wave.iter()
        .for_each(|v| bytes.extend_from_slice(&v.to_le_bytes()));
    let c = Content {
        dtype: F32,
        shape: vec![64],
        values: Values::F32(
            wave.iter()
                .map(|v| u32::from_be_bytes(v.to_le_bytes()))
                .collect(),
        ),
    };
    out.push(implementation_defined(
        "impl-little-endian-f32-sine",
        "an f32 sine wave written little-endian (the header is big-endian)",
        c,
        bytes,
        &[("IDX501", 8, 256)],
    ));
    // the small and sparse payloads of the IDX technical report's own
    // writer (a big-endian header, then `array.tofile(f)` on x86)
    let picture: Vec<f64> = (0..784)
        .map(|i| {
            let (x, y) = ((i % 28) as f64 - 13.5, (i / 28) as f64 - 13.5);
            let r = (x * x + y * y).sqrt();
            if r > 9.0 {
                0.0
            } else {
                (255.0 * (1.0 - r / 9.0)).round() / 255.0
            }
        })
        .collect();
    let mut sparse = vec![0.0; 4096];
    for (k, i) in [3usize, 500, 1024, 1500, 2047, 3000, 3500, 4095]
        .into_iter()
        .enumerate()
    {
        sparse[i] = 0.125 * (k + 1) as f64;
    }
    for (id, desc, t, shape, values) in [
        (
            "impl-little-endian-f32-one-picture",
            "one 28x28 picture scaled to [0, 1], f32, written little-endian",
            F32,
            vec![28u32, 28],
            picture,
        ),
        (
            "impl-little-endian-f32-arange",
            "numpy.arange(256, dtype='<f4') * 0.5 + 1 written after a big-endian header",
            F32,
            vec![256],
            (0..256).map(|i| f64::from(i) * 0.5 + 1.0).collect(),
        ),
        (
            "impl-little-endian-f64-ramp",
            "an f64 ramp 0..23 written little-endian",
            F64,
            vec![24],
            (0..24).map(f64::from).collect(),
        ),
        (
            "impl-little-endian-i16-labels",
            "ten i16 labels 0..9 written little-endian",
            I16,
            vec![10],
            (0..10).map(f64::from).collect(),
        ),
        (
            "impl-little-endian-f32-sparse",
            "4096 f32 values, 8 of them non-zero, written little-endian",
            F32,
            vec![4096],
            sparse,
        ),
    ] {
        let (bytes, c) = little_endian(t, &shape, &values);
        let start = 4 + 4 * shape.len() as u64;
        let len = bytes.len() as u64 - start;
        // read big-endian, eight of the picture's values are NaN
        let nan: &[(&str, u64, u64)] = if t == F32 && shape.len() == 2 {
            &[("IDX502", 1072, 4)]
        } else {
            &[]
        };
        let findings: Vec<_> = [("IDX501", start, len)]
            .iter()
            .chain(nan)
            .copied()
            .collect();
        out.push(implementation_defined(id, desc, c, bytes, &findings));
    }
    let c = indexed(U8, &[4, 5]);
    let gz = gzip_stored(&c.golden_bytes());
    out.push(implementation_defined(
        "impl-gzip-u8-4x5",
        "a valid u8 file inside gzip: not IDX itself, but readers MAY decompress it",
        c,
        gz,
        &[],
    ));
    let c = ints(U8, &[1], &[42]);
    let mut padded = gzip_stored(&c.golden_bytes());
    padded.extend([0; 8]);
    out.push(implementation_defined(
        "impl-gzip-zero-padding",
        "a valid u8 file in gzip followed by 8 zero bytes: gzip(1) and Python accept the padding, strict readers do not (spec 7.18)",
        c,
        padded,
        &[("IDX703", 9, 0)],
    ));
}

fn invalid_cases(out: &mut Vec<Case>) {
    width_cases(out);
    out.push(invalid(
        "invalid-reserved-byte0",
        "byte 0 of the magic is 0x01",
        hx("01 00 08 01  00 00 00 01  2a"),
        &[("IDX101", 0, 1)],
    ));
    out.push(invalid(
        "invalid-reserved-byte1",
        "byte 1 of the magic is 0x80",
        hx("00 80 08 01  00 00 00 01  2a"),
        &[("IDX101", 1, 1)],
    ));
    out.push(invalid(
        "invalid-first-byte-lost",
        "a u8 file that lost its first byte: every magic field is shifted, so reserved bytes and type are both wrong: one not-IDX finding (spec 5.4) whose hint names the shift",
        hx("00 08 01 00 00 00 01 2a"),
        &[("IDX420", 0, 4)],
    ));
    out.push(invalid(
        "invalid-unknown-type-07",
        "type code 0x07",
        hx("00 00 07 01  00 00 00 02  0a 0b"),
        &[("IDX102", 2, 1)],
    ));
    out.push(invalid(
        "invalid-unknown-type-0a",
        "type code 0x0a, in the gap between i8 and i16",
        hx("00 00 0a 01  00 00 00 02  0a 0b"),
        &[("IDX102", 2, 1)],
    ));
    out.push(invalid(
        "invalid-empty",
        "an empty file",
        vec![],
        &[("IDX103", 0, 0)],
    ));
    out.push(invalid(
        "invalid-truncated-magic",
        "3 bytes: the magic is cut",
        hx("00 00 08"),
        &[("IDX103", 3, 0)],
    ));
    out.push(invalid(
        "invalid-truncated-dimensions",
        "rank 3, but the file ends inside dimension 1",
        hx("00 00 08 03  00 00 00 02  00 00"),
        &[("IDX104", 10, 0)],
    ));
    out.push(invalid(
        "invalid-size-overflow-f64",
        "f64 of shape [4294967295, 4294967295]: the payload size overflows 64 bits",
        hx("00 00 0e 02  ff ff ff ff  ff ff ff ff"),
        &[("IDX201", 4, 8), ("IDX303", 4, 4), ("IDX303", 8, 4)],
    ));
    out.push(invalid(
        "invalid-size-overflow-u8-rank3",
        "u8 of shape [4294967295, 4294967295, 2]: the payload size overflows 64 bits",
        hx("00 00 08 03  ff ff ff ff  ff ff ff ff  00 00 00 02"),
        &[("IDX201", 4, 12), ("IDX303", 4, 4), ("IDX303", 8, 4)],
    ));
    // sizes that wrap modulo 2^64 to exactly the payload present: a reader
    // that multiplies with wrapping arithmetic (numpy's prod, size_t) passes
    // its size check and fails later, or not at all
    let wraps: [(&str, ElementType, &[u32], u64, &str); 7] = [
        (
            "u8",
            U8,
            &[494_770, 769_546, 48_448_661],
            4,
            "2^64 + 4 elements",
        ),
        (
            "i16",
            I16,
            &[823_996_703, 1_066_043_567, 21],
            5,
            "2^64 + 5 elements",
        ),
        (
            "i32",
            I32,
            &[2_147_418_113, 1_718_039_348, 5],
            4,
            "2^64 + 4 elements",
        ),
        (
            "f32",
            F32,
            &[1_197_225_396, 10_827_767, 1423],
            20,
            "2^64 + 20 elements",
        ),
        (
            "f64",
            F64,
            &[823_996_703, 1_066_043_567, 21],
            5,
            "2^64 + 5 elements",
        ),
        (
            "bytes-f32",
            F32,
            &[2_147_418_113, 429_509_837, 5],
            1,
            "2^62 + 1 elements, 2^64 + 4 bytes",
        ),
        (
            "bytes-f64",
            F64,
            &[1_824_726_041, 1_263_665_316],
            4,
            "2^61 + 4 elements, 2^64 + 32 bytes",
        ),
    ];
    for (name, t, dims, elements, what) in wraps {
        let mut bytes = vec![0, 0, t.code(), dims.len() as u8];
        dims.iter()
            .for_each(|d| bytes.extend_from_slice(&d.to_be_bytes()));
        let n = elements * t.size() as u64;
        bytes.extend((1..=n).map(|b| b as u8));
        out.push(invalid(
            &format!("invalid-size-overflow-wraps-{name}"),
            &format!(
                "{t} of shape {dims:?} ({what}): the size overflows 64 bits and wraps to exactly the {n} payload bytes present"
            ),
            bytes,
            &[("IDX201", 4, 4 * dims.len() as u64)],
        ));
    }
    out.push(invalid(
        "invalid-truncated-payload",
        "u8 of 3 elements with 2 payload bytes",
        hx("00 00 08 01  00 00 00 03  0a 0b"),
        &[("IDX202", 10, 0)],
    ));
    out.push(invalid(
        "invalid-truncated-payload-mnist-labels",
        "a label file declaring 10 labels that holds 7",
        hx("00 00 08 01  00 00 00 0a  07 02 01 00 04 01 04"),
        &[("IDX202", 15, 0)],
    ));
    out.push(invalid(
        "invalid-truncated-payload-partial-element",
        "f32 of 2 elements with 6 payload bytes: the file ends inside an element",
        hx("00 00 0d 01  00 00 00 02  3f 80 00 00 40 00"),
        &[("IDX202", 14, 0)],
    ));
    let labels = mnist_labels(10_000).golden_bytes();
    out.push(invalid(
        "invalid-truncated-payload-mnist-labels-10000",
        "a label file declaring 10,000 labels that holds 9,999",
        labels[..labels.len() - 1].to_vec(),
        &[("IDX202", 10_007, 0)],
    ));
    out.push(invalid(
        "invalid-hostile-4gib-u8",
        "an 8-byte file declaring 4294967295 u8 elements: a reader that allocates by the header is attacked",
        hx("00 00 08 01  ff ff ff ff"),
        &[("IDX303", 4, 4), ("IDX202", 8, 0)],
    ));
    out.push(invalid(
        "invalid-hostile-2pib-f64",
        "a 16-byte file declaring 2^48 f64 elements (2 PiB)",
        hx("00 00 0e 03  00 01 00 00  00 01 00 00  00 01 00 00"),
        &[("IDX202", 16, 0)],
    ));
    out.push(invalid(
        "invalid-trailing-byte",
        "one byte after the payload",
        hx("00 00 08 01  00 00 00 01  2a  00"),
        &[("IDX203", 9, 1)],
    ));
    out.push(invalid(
        "invalid-zero-size-one-byte",
        "u8 of shape [4294967295 x 3, 0]: the exact size is 0, so the one payload byte is trailing",
        hx("00 00 08 04  ff ff ff ff  ff ff ff ff  ff ff ff ff  00 00 00 00  2a"),
        &[
            ("IDX303", 4, 4),
            ("IDX303", 8, 4),
            ("IDX303", 12, 4),
            ("IDX302", 16, 4),
            ("IDX203", 20, 1),
        ],
    ));
    let mut two = hx("00 00 08 01  00 00 00 02  0a 0b");
    two.extend(hx("00 00 08 01  00 00 00 01  0c"));
    out.push(invalid(
        "invalid-trailing-concatenated",
        "two u8 files concatenated",
        two,
        &[("IDX203", 10, 9)],
    ));
    out.push(invalid(
        "invalid-trailing-extra-items",
        "a label file declaring 5 labels that holds 7",
        hx("00 00 08 01  00 00 00 05  01 02 03 04 05 06 07"),
        &[("IDX203", 13, 2)],
    ));
    let mut labels = mnist_labels(10_000).golden_bytes();
    labels.extend_from_slice(&[3, 1, 4, 1, 5, 9, 2, 6]);
    out.push(invalid(
        "invalid-trailing-mnist-labels-10000",
        "a label file declaring 10,000 labels followed by 8 more bytes: a reader that checks only the count it knows drops them",
        labels,
        &[("IDX203", 10_008, 8)],
    ));
    out.push(invalid(
        "invalid-byte-swapped-header",
        "a u8 [2, 3] file whose header was written little-endian",
        hx("02 08 00 00  02 00 00 00  03 00 00 00  01 02 03 04 05 06"),
        &[("IDX401", 0, 4)],
    ));
    let inner = hx("00 00 08 01  00 00 00 03  0a 0b 0c");
    out.push(invalid(
        "invalid-gzip-in-gzip",
        "gzip inside gzip: only one layer is removed",
        gzip_stored(&gzip_stored(&inner)),
        &[("IDX402", 0, 2)],
    ));
    out.push(invalid(
        "invalid-gzip-of-truncated",
        "gzip of a truncated u8 file: offsets are in the decompressed stream",
        gzip_stored(&hx("00 00 08 01  00 00 00 03  0a 0b")),
        &[("IDX202", 10, 0)],
    ));
    let gz = gzip_stored(&inner);
    out.push(invalid(
        "invalid-gzip-damaged-cut",
        "a gzip stream whose 4-byte length trailer is cut off",
        gz[..gz.len() - 4].to_vec(),
        &[("IDX701", 11, 0)],
    ));
    let mut crc = gz.clone();
    let n = crc.len();
    crc[n - 8] ^= 0xff;
    out.push(invalid(
        "invalid-gzip-damaged-crc",
        "a gzip stream whose CRC-32 does not match",
        crc,
        &[("IDX701", 11, 0)],
    ));
    out.push(invalid(
        "invalid-gzip-distance-too-far-back",
        "a deflate back-reference reaching before the start of the output after 00 00 08 01 (zlib: invalid distance too far back); a decoder that copies zeros accepts it",
        hx("1f 8b 08 00 00 00 00 00 00 ff  63 60 e0 60 04 b2 98 1d 9d 9c 01  de 66 82 52 0b 00 00 00"),
        &[("IDX701", 4, 0)],
    ));
    out.push(invalid(
        "invalid-gzip-damaged-after-prefix",
        "29 bytes decode (01 07 00 00 ...) before an invalid distance code: the prefix's finding, then IDX701 at 29",
        hx("1f 8b 08 00 00 00 00 00 02 03  63 64 67 00 01 26 2e 6c 00 ed 8b 90 06 0a 00 00 00"),
        &[("IDX420", 0, 4), ("IDX701", 29, 0)],
    ));
    let mut raw = hx("00 00 08 01  00 00 00 01  2a");
    raw.extend([0x55; 20]);
    let mut lim = invalid(
        "invalid-gzip-limit-after-trailing",
        "u8 [1] and 20 trailing bytes, against a 12-byte decompression limit: the 3 trailing bytes seen are reported with IDX702 (spec 7.19)",
        gzip_stored(&raw),
        &[("IDX203", 9, 3), ("IDX702", 12, 0)],
    );
    lim.options.max_decompressed = Some(12);
    out.push(lim);
    let mut bomb_src = hx("00 00 08 01  00 40 00 00");
    bomb_src.resize(8 + (4 << 20), 0);
    let mut bomb = invalid(
        "invalid-gzip-bomb",
        "4 MiB of zeros in a small gzip file, against a 1 MiB decompression limit",
        gzip_level(&bomb_src, flate2::Compression::best()),
        &[("IDX702", 1 << 20, 0)],
    );
    bomb.options.max_decompressed = Some(1 << 20);
    out.push(bomb);
    out.push(invalid(
        "invalid-zip",
        "a zip archive",
        b"PK\x03\x04\x14\x00\x00\x00\x00\x00\x00\x00\x00\x00".to_vec(),
        &[("IDX403", 0, 4)],
    ));
    out.push(invalid(
        "invalid-xz",
        "an xz stream",
        hx("fd 37 7a 58 5a 00 00 04 e6 d6 b4 46"),
        &[("IDX403", 0, 6)],
    ));
    out.push(invalid(
        "invalid-zstd",
        "a zstd frame",
        hx("28 b5 2f fd 20 00 01 00 00"),
        &[("IDX403", 0, 4)],
    ));
    out.push(invalid(
        "invalid-bzip2",
        "a bzip2 stream",
        b"BZh91AY&SY".to_vec(),
        &[("IDX403", 0, 3)],
    ));
    let mut npy = b"\x93NUMPY\x01\x00".to_vec();
    let mut dict = "{'descr': '|u1', 'fortran_order': False, 'shape': (2, 3), }".to_string();
    while (10 + dict.len() + 1) % 64 != 0 {
        dict.push(' ');
    }
    dict.push('\n');
    npy.extend_from_slice(&(dict.len() as u16).to_le_bytes());
    npy.extend_from_slice(dict.as_bytes());
    npy.extend_from_slice(&[1, 2, 3, 4, 5, 6]);
    out.push(invalid(
        "invalid-npy",
        "a NumPy .npy file of u8 [2, 3]",
        npy,
        &[("IDX404", 0, 6)],
    ));
    // Not-IDX formats named by their magic (spec 5.3), each a real-looking start.
    type Format = (&'static str, &'static str, Vec<u8>, &'static str, u64, u64);
    let formats: &[Format] = &[
        ("invalid-png", "a PNG image (the start of a 1x1 greyscale PNG)",
            hx("89 50 4e 47 0d 0a 1a 0a  00 00 00 0d 49 48 44 52  00 00 00 01 00 00 00 01  08 00 00 00 00"),
            "IDX410", 0, 8),
        ("invalid-jpeg", "a JPEG image (JFIF start)",
            hx("ff d8 ff e0 00 10 4a 46  49 46 00 01 01 00 00 01"), "IDX410", 0, 3),
        ("invalid-gif", "a GIF image", hx("47 49 46 38 39 61 01 00  01 00 00 00 00"), "IDX410", 0, 6),
        ("invalid-bmp", "a BMP image (file header with zero reserved fields)",
            hx("42 4d 3a 00 00 00 00 00  00 00 36 00 00 00 28 00"), "IDX410", 0, 2),
        ("invalid-tiff", "a little-endian TIFF image", hx("49 49 2a 00 08 00 00 00  00 00"), "IDX410", 0, 4),
        ("invalid-webp", "a WebP image (RIFF container)",
            hx("52 49 46 46 24 00 00 00  57 45 42 50 56 50 38 20"), "IDX410", 0, 12),
        ("invalid-pdf", "a PDF document", b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n".to_vec(), "IDX411", 0, 5),
        ("invalid-pickle", "a protocol-4 Python pickle",
            hx("80 04 95 0b 00 00 00 00  00 00 00 7d 94 8c 01 61  94 4b 01 73 2e"), "IDX412", 0, 2),
        ("invalid-hdf5", "an HDF5 file (superblock signature)",
            hx("89 48 44 46 0d 0a 1a 0a  00 00 00 00 00 08 08 00"), "IDX413", 0, 8),
        ("invalid-tfrecord", "a TFRecord file: a record of length 3 whose length CRC is right",
            tfrecord(b"abc"), "IDX414", 0, 12),
        ("invalid-parquet", "a Parquet file", hx("50 41 52 31 15 04 15 10  15 14 4c 15"), "IDX415", 0, 4),
        ("invalid-elf", "an ELF executable (64-bit, little-endian)",
            hx("7f 45 4c 46 02 01 01 00  00 00 00 00 00 00 00 00  03 00 3e 00"), "IDX416", 0, 4),
        ("invalid-tar", "a POSIX tar archive holding train-images-idx3-ubyte", tar(), "IDX403", 257, 5),
        ("invalid-npz", "a NumPy .npz archive (a zip whose first member is a .npy)", npz(), "IDX403", 0, 4),
    ];
    for (id, what, bytes, rule, offset, length) in formats {
        out.push(invalid(
            id,
            what,
            bytes.clone(),
            &[(rule, *offset, *length)],
        ));
    }
    let html = b"<!DOCTYPE html>\n<html><head><title>404 Not Found</title></head>\n<body><h1>Not Found</h1><p>The requested URL was not found on this server.</p></body></html>\n".to_vec();
    let n = html.len() as u64;
    out.push(invalid(
        "invalid-html-error-page",
        "a saved HTML 404 page",
        html,
        &[("IDX405", 0, n)],
    ));
    let lfs = b"version https://git-lfs.github.com/spec/v1\noid sha256:ba891046e6505d7aadcbbe25680a0738ad16aec93bde7f9b65e87a2fc25776db\nsize 47040016\n".to_vec();
    let n = lfs.len() as u64;
    out.push(invalid(
        "invalid-git-lfs-pointer",
        "a Git LFS pointer in place of train-images-idx3-ubyte",
        lfs,
        &[("IDX405", 0, n)],
    ));
    let mut ad = hx("00 05 16 07  00 02 00 00");
    ad.extend_from_slice(b"Mac OS X        ");
    ad.extend(hx("00 02 00 00 00 09 00 00 00 32 00 00 0e b0"));
    out.push(invalid(
        "invalid-appledouble",
        "a macOS AppleDouble ._ file",
        ad,
        &[("IDX406", 0, 4)],
    ));
    out.push(invalid(
        "invalid-multi-reserved-trailing",
        "two independent violations: a reserved byte and trailing bytes",
        hx("00 01 08 01  00 00 00 02  0a 0b  ff"),
        &[("IDX101", 1, 1), ("IDX203", 10, 1)],
    ));
    out.push(invalid(
        "invalid-multi-reserved-type-zero-dim",
        "a reserved byte and an unknown type at once: not IDX, one finding (spec 5.4) instead of one per field",
        hx("00 01 ff 01  00 00 00 00"),
        &[("IDX420", 0, 4)],
    ));
    let mut e = invalid(
        "invalid-expect-dtype",
        "a valid u8 file checked against --expect-dtype f32",
        hx("00 00 08 01  00 00 00 01  2a"),
        &[("IDX601", 2, 1)],
    );
    e.options.expect_dtype = Some(F32);
    out.push(e);
    let mut bytes = hx("00 00 08 03  00 00 00 02  00 00 00 1c  00 00 00 1b");
    bytes.resize(16 + 2 * 28 * 27, 0x11);
    let mut e = invalid(
        "invalid-expect-shape",
        "a valid u8 [2, 28, 27] file checked against --expect-shape '*,28,28'",
        bytes,
        &[("IDX602", 12, 4)],
    );
    e.options.expect_shape = Some(vec![None, Some(28), Some(28)]);
    out.push(e);
}

/// Cases added because differential fuzzing (`corpus/DIFFERENTIAL.md`)
/// found a disagreement class that no case showed: each puts a reader in a
/// class (implementation x the first error x what it did) that only
/// mutated inputs reached. Called after [`invalid_cases`], whose files some
/// of them wrap in gzip.
fn differential_cases(out: &mut Vec<Case>) {
    // Readers that check no header field and allocate what bytes 4..8
    // declare (ubyte) run out of memory on these, whatever else is wrong.
    out.push(invalid(
        "invalid-reserved-byte1-declares-2g",
        "byte 1 of the magic is 0x01, and 2147483647 u8 elements are declared with none present: a reader that allocates before checking the magic runs out of memory",
        hx("00 01 08 01  7f ff ff ff"),
        &[("IDX101", 1, 1), ("IDX202", 8, 0)],
    ));
    out.push(invalid(
        "invalid-mp4",
        "the start of an MP4 video (an ISO base media ftyp box): its reserved bytes are 00 00, its type code is 0x00, and 'ftyp' read as a dimension is 1718909296",
        hx("00 00 00 20  66 74 79 70  69 73 6f 6d  00 00 02 00  69 73 6f 6d 69 73 6f 32 61 76 63 31 6d 70 34 31"),
        &[("IDX102", 2, 1), ("IDX104", 32, 0)],
    ));
    out.push(invalid(
        "invalid-truncated-dimensions-zero",
        "rank 2, and the file ends after dimension 0, which is 0: a reader that reads only the first dimension returns no elements",
        hx("00 00 08 02  00 00 00 00"),
        &[("IDX302", 4, 4), ("IDX104", 8, 0)],
    ));
    out.push(invalid(
        "invalid-truncated-dimensions-2g",
        "rank 2, and the file ends after dimension 0, which is 2147483647",
        hx("00 00 08 02  7f ff ff ff"),
        &[("IDX104", 8, 0)],
    ));
    out.push(invalid(
        "invalid-size-overflow-u8-rank4",
        "u8 of shape [1, 4294967295, 4294967295, 2]: the size overflows 64 bits; a reader that reads only the first dimension returns byte 8",
        hx("00 00 08 04  00 00 00 01  ff ff ff ff  ff ff ff ff  00 00 00 02"),
        &[("IDX201", 4, 16), ("IDX303", 8, 4), ("IDX303", 12, 4)],
    ));
    out.push(invalid(
        "invalid-trailing-after-scalar-f32",
        "an f32 scalar (rank 0, pi) followed by one byte: a reader that takes bytes 4..8 for a dimension reads 1078530011",
        hx("00 00 0d 00  40 49 0f db  00"),
        &[("IDX301", 3, 1), ("IDX203", 8, 1)],
    ));
    out.push(invalid(
        "invalid-byte-swapped-header-zero-dim",
        "a u8 [0, 3] file whose header was written little-endian",
        hx("02 08 00 00  00 00 00 00  03 00 00 00"),
        &[("IDX401", 0, 4)],
    ));
    let mut le = hx("01 08 00 00  40 00 00 00");
    le.extend(0..64u8);
    out.push(invalid(
        "invalid-byte-swapped-header-64",
        "a u8 [64] file whose header was written little-endian: the dimension read big-endian is 2^30",
        le,
        &[("IDX401", 0, 4)],
    ));
    let mut sqlite = b"SQLite format 3\0".to_vec();
    sqlite.extend(hx("10 00 01 01 00 40 20 20 00 00 00 02 00 00 00 01"));
    out.push(invalid(
        "invalid-sqlite",
        "the start of an SQLite database: not IDX, and 'ite ' read as a dimension is 1769235744",
        sqlite,
        &[("IDX420", 0, 4)],
    ));
    // ubyte's image loop runs once per declared item, even when the items
    // are empty: 2147483647 empty items take hours (a timeout, twice).
    out.push(invalid(
        "invalid-trailing-after-2g-empty-items",
        "f32 of shape [2147483647, 0, 5] (no elements) and 4 more bytes: a reader that loops over the 2147483647 empty items never answers",
        hx("00 00 0d 03  7f ff ff ff  00 00 00 00  00 00 00 05  01 02 03 04"),
        &[("IDX302", 8, 4), ("IDX203", 16, 4)],
    ));
    out.push(invalid(
        "invalid-reserved-byte1-2g-empty-items",
        "byte 1 of the magic is 0x04 on an f32 header declaring 2147483647 empty items (shape [2147483647, 0, 5]), and 4 more bytes: a reader that checks no header field loops over the items and never answers",
        hx("00 04 0d 03  7f ff ff ff  00 00 00 00  00 00 00 05  01 02 03 04"),
        &[("IDX101", 1, 1), ("IDX302", 8, 4), ("IDX203", 16, 4)],
    ));
    out.push(invalid(
        "invalid-damaged-magic-2g-empty-items",
        "a rank-3 header whose reserved and type bytes are damaged (00 04 ff), declaring 2147483647 empty items, and 4 more bytes: a reader that checks neither loops over the items and never answers",
        hx("00 04 ff 03  7f ff ff ff  00 00 00 00  00 2d 00 05  01 02 03 04"),
        &[("IDX420", 0, 4)],
    ));
    // a protocol-4 pickle of 16384 zero bytes, as pickle.dumps writes it:
    // its frame length (16402, little-endian) puts 0x40 in byte 4
    let mut frame = vec![b'B'];
    frame.extend_from_slice(&16_384u32.to_le_bytes());
    frame.resize(frame.len() + 16_384, 0);
    frame.extend([0x94, b'.']);
    let mut pickle = vec![0x80, 0x04, 0x95];
    pickle.extend_from_slice(&(frame.len() as u64).to_le_bytes());
    pickle.extend(frame);
    out.push(invalid(
        "invalid-pickle-16k",
        "a protocol-4 Python pickle of 16384 zero bytes: bytes 4..8 read as a dimension are 1073741824",
        pickle,
        &[("IDX412", 0, 2)],
    ));
    out.push(invalid(
        "invalid-gzip-header-cut",
        "the first 5 bytes of a gzip stream: read as IDX, 1f 8b 08 00 is a u8 scalar with reserved bytes 1f 8b, and 00 its value",
        hx("1f 8b 08 00 00"),
        &[("IDX701", 0, 0)],
    ));
    out.push(invalid(
        "invalid-elf-damaged-class",
        "the start of a 64-bit ELF executable whose class byte (4) is damaged to 0x66: still an ELF by its magic, and bytes 4..8 read as a dimension are 1711341824",
        hx("7f 45 4c 46  66 01 01 00  00 00 00 00 00 00 00 00  03 00 3e 00"),
        &[("IDX416", 0, 4)],
    ));
    // gzip(1) stores the file's mtime (little-endian) in bytes 4..8; with
    // a low byte of 0x40 a reader that does not look for gzip reads it as a
    // dimension of over 2^30
    let mut gz = gzip_stored(&hx("00 00 08 01  00 00 00 03  0a 0b 0c"));
    gz[4..8].copy_from_slice(&0x6592_0040u32.to_le_bytes());
    let n = gz.len();
    gz[n - 8] ^= 0xff;
    out.push(invalid(
        "invalid-gzip-damaged-crc-with-mtime",
        "a gzip stream with an mtime (2024-01-01 00:01:04 UTC) whose CRC-32 does not match",
        gz,
        &[("IDX701", 11, 0)],
    ));
    // python-mnist builds each image as [0] * rows * cols before it looks
    // at the payload: a row of 4294967295 runs out of memory at once.
    out.push(invalid(
        "invalid-hostile-rank3-4g-row",
        "one u8 image of 4294967295 x 2 declared with no payload: a reader that allocates a row of the declared length runs out of memory",
        hx("00 00 08 03  00 00 00 01  ff ff ff ff  00 00 00 02"),
        &[("IDX303", 8, 4), ("IDX202", 16, 0)],
    ));
    out.push(invalid(
        "invalid-hostile-rank3-4g-row-trailing",
        "one u8 image of 4294967295 x 0 (no payload) and one byte: a reader that allocates a row before multiplying by the 0 runs out of memory",
        hx("00 00 08 03  00 00 00 01  ff ff ff ff  00 00 00 00  2a"),
        &[("IDX303", 8, 4), ("IDX302", 12, 4), ("IDX203", 16, 1)],
    ));
    // Not-IDX formats inside gzip: the first error is the inner format's,
    // at offsets in the decompressed stream. A reader that does not look
    // for gzip reads the gzip header (mtime 0) as a count of 0 elements.
    out.push(invalid(
        "invalid-gzip-of-empty",
        "gzip of an empty file",
        gzip_stored(&[]),
        &[("IDX103", 0, 0)],
    ));
    let inner: &[(&str, &str, &'static str, u64)] = &[
        ("invalid-zstd", "zstd", "IDX403", 4),
        ("invalid-npy", "npy", "IDX404", 6),
        ("invalid-html-error-page", "html-error-page", "IDX405", 157),
        ("invalid-pdf", "pdf", "IDX411", 5),
        ("invalid-hdf5", "hdf5", "IDX413", 8),
        ("invalid-parquet", "parquet", "IDX415", 4),
        ("invalid-elf", "elf", "IDX416", 4),
        ("invalid-appledouble", "appledouble", "IDX406", 4),
    ];
    for (id, name, rule, length) in inner {
        let c = out
            .iter()
            .find(|c| c.id == *id)
            .unwrap_or_else(|| panic!("no case {id} to wrap in gzip")); // ok: recipes are our own constants
        let (bytes, what) = (gzip_stored(&c.bytes), c.description.clone());
        out.push(invalid(
            &format!("invalid-gzip-of-{name}"),
            &format!("gzip of {id} ({what})"),
            bytes,
            &[(rule, 0, *length)],
        ));
    }
}

/// A TFRecord holding one record: length (u64 LE), masked CRC-32C of the
/// length, data, masked CRC-32C of the data.
fn tfrecord(data: &[u8]) -> Vec<u8> {
    fn crc32c(d: &[u8]) -> u32 {
        let mut crc = !0u32;
        for &b in d {
            crc ^= u32::from(b);
            for _ in 0..8 {
                crc = if crc & 1 == 1 {
                    (crc >> 1) ^ 0x82f6_3b78
                } else {
                    crc >> 1
                };
            }
        }
        !crc
    }
    let mask = |c: u32| c.rotate_right(15).wrapping_add(0xa282_ead8);
    let len = (data.len() as u64).to_le_bytes();
    let mut b = len.to_vec();
    b.extend_from_slice(&mask(crc32c(&len)).to_le_bytes());
    b.extend_from_slice(data);
    b.extend_from_slice(&mask(crc32c(data)).to_le_bytes());
    b
}

/// The first 512-byte header block of a POSIX tar archive.
fn tar() -> Vec<u8> {
    let mut b = b"train-images-idx3-ubyte".to_vec();
    b.resize(100, 0);
    b.extend_from_slice(b"0000644\0");
    b.resize(257, 0);
    b.extend_from_slice(b"ustar\x0000");
    b.resize(512, 0);
    b
}

/// The start of a NumPy .npz: a zip local file header for `x.npy`.
fn npz() -> Vec<u8> {
    let mut b = hx("50 4b 03 04 14 00 00 00  00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00  00 00 05 00 00 00");
    b.extend_from_slice(b"x.npy\x93NUMPY");
    b
}

/// Files for the positions of spec section 7 (7.11-7.22) that are files:
/// each answer, with its exact findings.
fn spec_position_cases(out: &mut Vec<Case>) {
    out.push(invalid(
        "invalid-short-stream-unknown-type",
        "3 bytes whose type byte is unknown: the bytes present are checked, then the magic is cut (spec 7.11)",
        hx("00 00 07"),
        &[("IDX102", 2, 1), ("IDX103", 3, 0)],
    ));
    out.push(invalid(
        "invalid-short-stream-reserved",
        "2 bytes whose second reserved byte is non-zero: IDX101, then the magic is cut (spec 7.11)",
        hx("00 05"),
        &[("IDX101", 1, 1), ("IDX103", 2, 0)],
    ));
    for (id, text) in [
        ("invalid-text-1-byte", &b"7"[..]),
        ("invalid-text-2-bytes", b"OK"),
        ("invalid-text-3-bytes", b"404"),
    ] {
        out.push(invalid(
            id,
            &format!(
                "{} ({}): text, not a truncated magic (spec 7.12)",
                idx_text::plural::count(text.len() as u64, "printable byte"),
                String::from_utf8_lossy(text)
            ),
            text.to_vec(),
            &[("IDX405", 0, text.len() as u64)],
        ));
    }
    out.push(invalid(
        "invalid-byte-swapped-rank0",
        "00 08 00 00: the magic of a rank-0 u8 file written little-endian (spec 7.13)",
        hx("00 08 00 00"),
        &[("IDX401", 0, 4)],
    ));
    out.push(invalid(
        "invalid-truncated-dimensions-with-warnings",
        "rank 3 whose list ends inside dimension 2: the complete dimensions 0 and 4294967295 get their portability warnings, the partial one none, then IDX104 (spec 7.14)",
        hx("00 00 08 03  00 00 00 00  ff ff ff ff  00 00"),
        &[("IDX302", 4, 4), ("IDX303", 8, 4), ("IDX104", 14, 0)],
    ));
    out.push(invalid(
        "invalid-reserved-both",
        "both reserved bytes are 0x01 and the rest is a valid u8 file: one IDX101 of length 2 (spec 7.16)",
        hx("01 01 08 01  00 00 00 01  2a"),
        &[("IDX101", 0, 2)],
    ));
    let mut eocd = b"PK\x05\x06".to_vec();
    eocd.resize(22, 0);
    out.push(invalid(
        "invalid-zip-empty",
        "an empty zip archive (only its end-of-central-directory record, PK 05 06): other compression (spec 7.17)",
        eocd,
        &[("IDX403", 0, 4)],
    ));
    out.push(invalid(
        "invalid-bzip2-bare-signature",
        "the 3-byte bzip2 signature BZh and nothing more: other compression (spec 7.17)",
        b"BZh".to_vec(),
        &[("IDX403", 0, 3)],
    ));
    let mut utf16 = vec![0xff, 0xfe];
    for u in "hello\n".encode_utf16() {
        utf16.extend_from_slice(&u.to_le_bytes());
    }
    out.push(invalid(
        "invalid-text-utf16",
        "UTF-16LE text with a byte-order mark: not recognised as text (spec 7.17), so not IDX",
        utf16,
        &[("IDX420", 0, 4)],
    ));
    out.push(invalid(
        "invalid-text-latin1",
        "Latin-1 text (caf\\xe9 au lait): not recognised as text (spec 7.17), so not IDX",
        b"caf\xe9 au lait\n".to_vec(),
        &[("IDX420", 0, 4)],
    ));
    out.push(invalid(
        "invalid-truncated-payload-rank0",
        "an f32 scalar (rank 0) with 2 of its 4 payload bytes: IDX202 without an item count (spec 7.22)",
        hx("00 00 0d 00  40 49"),
        &[("IDX301", 3, 1), ("IDX202", 6, 0)],
    ));
}

/// An IDX file of `values` (as `t`) with a big-endian header and a
/// little-endian payload, and its content as the spec reads it.
fn little_endian(t: ElementType, shape: &[u32], values: &[f64]) -> (Vec<u8>, Content) {
    let mut bytes = vec![0, 0, t.code(), shape.len() as u8];
    shape
        .iter()
        .for_each(|d| bytes.extend_from_slice(&d.to_be_bytes()));
    let le: Vec<Vec<u8>> = values
        .iter()
        .map(|&v| match t {
            I16 => (v as i16).to_le_bytes().to_vec(),
            I32 => (v as i32).to_le_bytes().to_vec(),
            F32 => (v as f32).to_le_bytes().to_vec(),
            _ => v.to_le_bytes().to_vec(),
        })
        .collect();
    le.iter().for_each(|e| bytes.extend_from_slice(e));
    let values = match t {
        I16 => Values::Int(
            le.iter()
                .map(|e| i64::from(i16::from_be_bytes([e[0], e[1]])))
                .collect(),
        ),
        I32 => Values::Int(
            le.iter()
                .map(|e| i64::from(i32::from_be_bytes([e[0], e[1], e[2], e[3]])))
                .collect(),
        ),
        F32 => Values::F32(
            le.iter()
                .map(|e| u32::from_be_bytes([e[0], e[1], e[2], e[3]]))
                .collect(),
        ),
        _ => Values::F64(
            le.iter()
                .map(|e| u64::from_be_bytes(e[..8].try_into().unwrap_or([0; 8])))
                .collect(),
        ),
    };
    let c = Content {
        dtype: t,
        shape: shape.to_vec(),
        values,
    };
    (bytes, c)
}

/// Elements written at another width than the header declares: the payload
/// is an exact power-of-two multiple or fraction of the declared size, and
/// the finding's hint names the reading that makes it consistent.
fn width_cases(out: &mut Vec<Case>) {
    fn file(code: u8, dims: &[u32], payload: Vec<u8>) -> Vec<u8> {
        let mut b = vec![0, 0, code, dims.len() as u8];
        dims.iter()
            .for_each(|d| b.extend_from_slice(&d.to_be_bytes()));
        b.extend(payload);
        b
    }
    let wave =
        |n: usize| -> Vec<f64> { (0..n).map(|i| (i as f64 / 3.0).sin() * 2.0 + 3.0).collect() };
    // f64 under f32: 12 declared f32 elements, 12 f64 written
    let p: Vec<u8> = wave(12).iter().flat_map(|v| v.to_be_bytes()).collect();
    out.push(invalid(
        "invalid-width-f64-under-f32",
        "12 f64 values written under an f32 [12] header: the payload is twice the declared size",
        file(0x0d, &[12], p),
        &[("IDX203", 56, 48)],
    ));
    // f32 under f64: 12 declared f64 elements, 12 f32 written
    let p: Vec<u8> = wave(12)
        .iter()
        .flat_map(|&v| (v as f32).to_be_bytes())
        .collect();
    out.push(invalid(
        "invalid-width-f32-under-f64",
        "12 f32 values written under an f64 [12] header: the payload is half the declared size",
        file(0x0e, &[12], p),
        &[("IDX202", 56, 0)],
    ));
    // i32 under i16
    let p: Vec<u8> = (0..16i32)
        .flat_map(|v| (v * 37 - 200).to_be_bytes())
        .collect();
    out.push(invalid(
        "invalid-width-i32-under-i16",
        "16 i32 values written under an i16 [16] header: the payload is twice the declared size",
        file(0x0b, &[16], p),
        &[("IDX203", 40, 32)],
    ));
    // int64 labels (numpy's default integer, little-endian) under u8
    let p: Vec<u8> = (0..10i64)
        .map(|i| (i * 7) % 10)
        .flat_map(|v| v.to_le_bytes())
        .collect();
    out.push(invalid(
        "invalid-width-i64-labels-under-u8",
        "ten int64 labels (numpy's default, little-endian) written under a u8 [10] header: the payload is 8 times the declared size",
        file(0x08, &[10], p),
        &[("IDX203", 18, 70)],
    ));
    // u8 pixels under i16
    let p: Vec<u8> = (0..20u8).map(|i| i * 12).collect();
    out.push(invalid(
        "invalid-width-u8-under-i16",
        "20 u8 values written under an i16 [20] header: the payload is half the declared size",
        file(0x0b, &[20], p),
        &[("IDX202", 28, 0)],
    ));
}
