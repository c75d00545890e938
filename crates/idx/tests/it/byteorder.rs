//! The byte-order test (IDX501, spec §10.1) on generated payloads: a small
//! slice of its benchmark runs in every `cargo test`, so its numbers cannot
//! silently regress; the whole benchmark writes `bench/byteorder.md`:
//!
//! ```sh
//! cargo test --release -p idx --test it byteorder:: -- --ignored --nocapture
//! ```

use idx::lint::byteorder::{score, Verdict};
use idx::ElementType;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// splitmix64: a deterministic generator, the same on every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    fn normal(&mut self) -> f64 {
        let (u, v) = (self.unit().max(1e-300), self.unit());
        (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// The kinds of data people store in IDX files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    /// 8-bit pictures scaled to [0, 1] (integers: 0..=255), blobs on black.
    Image,
    /// Pictures standardised to mean 0, deviation 1 (integers: x 1000).
    Standardised,
    /// `arange(n) * 0.5 + 1` (integers: `arange(n)`).
    Ramp,
    /// Normal values, deviation 1 (integers: deviation 100).
    Normal,
    /// Uniform values in [0, 1) (integers: 0..10000).
    Uniform,
    /// Class labels 0..=9.
    Labels,
    /// Counts: small non-negative integers, geometrically distributed.
    Counts,
    /// 95 % zeros, the rest normal values (integers: labels 1..=9).
    Sparse,
    /// One value repeated (0.5, integers 7).
    Constant,
    /// Random bit patterns.
    Bits,
}

const KINDS: [Kind; 10] = [
    Kind::Image,
    Kind::Standardised,
    Kind::Ramp,
    Kind::Normal,
    Kind::Uniform,
    Kind::Labels,
    Kind::Counts,
    Kind::Sparse,
    Kind::Constant,
    Kind::Bits,
];

const TYPES: [ElementType; 4] = [
    ElementType::I16,
    ElementType::I32,
    ElementType::F32,
    ElementType::F64,
];

/// `n` values of `kind`, as f64 (integers for the integer types).
fn values(kind: Kind, t: ElementType, n: usize, rng: &mut Rng) -> Vec<f64> {
    let int = !t.is_float();
    let pixel = |i: usize, rng: &mut Rng| -> f64 {
        // 28-wide rows, a bright blob in the middle of each 28x28 picture
        let (x, y) = ((i % 28) as f64 - 13.5, ((i / 28) % 28) as f64 - 13.5);
        let r = (x * x + y * y).sqrt();
        if r > 9.0 {
            0.0
        } else {
            ((255.0 * (1.0 - r / 9.0)) + 40.0 * rng.normal())
                .clamp(0.0, 255.0)
                .round()
        }
    };
    (0..n)
        .map(|i| match kind {
            Kind::Image => {
                let p = pixel(i, rng);
                if int {
                    p
                } else {
                    p / 255.0
                }
            }
            Kind::Standardised => {
                let z = (pixel(i, rng) - 33.3) / 78.6;
                if int {
                    (z * 1000.0).round()
                } else {
                    z
                }
            }
            Kind::Ramp => {
                if int {
                    i as f64
                } else {
                    i as f64 * 0.5 + 1.0
                }
            }
            Kind::Normal => {
                if int {
                    (rng.normal() * 100.0).round()
                } else {
                    rng.normal()
                }
            }
            Kind::Uniform => {
                if int {
                    rng.below(10000) as f64
                } else {
                    rng.unit()
                }
            }
            Kind::Labels => rng.below(10) as f64,
            Kind::Counts => (-(rng.unit().max(1e-12)).ln() * 20.0).floor(),
            Kind::Sparse => {
                if rng.below(20) != 0 {
                    0.0
                } else if int {
                    (1 + rng.below(9)) as f64
                } else {
                    rng.normal()
                }
            }
            Kind::Constant => {
                if int {
                    7.0
                } else {
                    0.5
                }
            }
            Kind::Bits => f64::NAN, // replaced by raw bytes in `payload`
        })
        .collect()
}

/// The payload of `values` in `t`, big-endian (`little` false) or as a
/// little-endian writer writes it.
fn payload(kind: Kind, t: ElementType, vals: &[f64], little: bool, rng: &mut Rng) -> Vec<u8> {
    let mut out = Vec::with_capacity(vals.len() * t.size());
    for &v in vals {
        let be: Vec<u8> = if kind == Kind::Bits {
            rng.next().to_be_bytes()[..t.size()].to_vec()
        } else {
            match t {
                ElementType::I16 => (v as i16).to_be_bytes().to_vec(),
                ElementType::I32 => (v as i32).to_be_bytes().to_vec(),
                ElementType::F32 => (v as f32).to_be_bytes().to_vec(),
                _ => v.to_be_bytes().to_vec(),
            }
        };
        if little {
            out.extend(be.iter().rev());
        } else {
            out.extend(&be);
        }
    }
    out
}

/// Outcome counts of one cell of the benchmark.
#[derive(Default, Clone, Copy)]
struct Cell {
    files: u32,
    /// little-endian payloads reported at least as likely
    detected: u32,
    /// little-endian payloads reported as certain
    certain: u32,
    /// big-endian payloads reported at all (false positives)
    false_positives: u32,
    /// little-endian payloads with at least 8 (16) non-zero elements
    files8: u32,
    files16: u32,
    detected8: u32,
    certain16: u32,
    /// smallest score of a little-endian payload, largest of a big-endian one
    min_le: f64,
    max_be: f64,
}

fn measure(t: ElementType, kind: Kind, n: usize, seeds: u64) -> Cell {
    let mut c = Cell {
        min_le: f64::INFINITY,
        max_be: f64::NEG_INFINITY,
        ..Cell::default()
    };
    for seed in 0..seeds {
        let mut rng = Rng(seed * 7919 + n as u64 * 31 + t.code() as u64);
        let vals = values(kind, t, n, &mut rng);
        for little in [false, true] {
            let mut r2 = Rng(seed);
            let p = payload(kind, t, &vals, little, &mut r2);
            let s = score(t, &p).expect("multi-byte type");
            let v = s.verdict();
            let nz = vals.iter().filter(|&&v| v != 0.0).count();
            if little {
                if nz >= 8 || kind == Kind::Bits {
                    c.files8 += 1;
                    c.detected8 += u32::from(v != Verdict::None);
                }
                if nz >= 16 || kind == Kind::Bits {
                    c.files16 += 1;
                    c.certain16 += u32::from(v == Verdict::Certain);
                }
                c.files += 1;
                c.detected += u32::from(v != Verdict::None);
                c.certain += u32::from(v == Verdict::Certain);
                c.min_le = c.min_le.min(s.bits);
            } else {
                c.false_positives += u32::from(v != Verdict::None);
                c.max_be = c.max_be.max(s.bits);
            }
        }
    }
    c
}

/// Payloads whose two byte orders the test cannot tell apart, and why.
fn indistinguishable(t: ElementType, kind: Kind, n: usize) -> Option<&'static str> {
    match (t, kind) {
        (_, Kind::Bits) => Some("random bit patterns read equally (im)plausibly both ways"),
        (ElementType::I16, Kind::Uniform) if n < 100 => Some(
            "i16 values spread over 0..10000 read almost like random bytes both ways: only the self-normalised statistic (z >= 5) tells them apart, from about 100 elements",
        ),
        _ => None,
    }
}

#[test]
fn the_issue_examples_are_detected_and_their_big_endian_forms_are_not() {
    // one 28x28 picture scaled to [0, 1], f32, written little-endian
    let mut rng = Rng(1);
    let img = values(Kind::Image, ElementType::F32, 784, &mut rng);
    let arange: Vec<f64> = (0..256).map(|i| f64::from(i) * 0.5 + 1.0).collect();
    let ramp: Vec<f64> = (0..24).map(f64::from).collect();
    let labels: Vec<f64> = (0..10).map(f64::from).collect();
    let mut sparse = vec![0.0; 100_000];
    for (k, i) in [5usize, 977, 4000, 12_345, 40_000, 70_001, 80_000, 99_999]
        .iter()
        .enumerate()
    {
        sparse[*i] = 0.25 * (k + 1) as f64;
    }
    let cases: [(&str, ElementType, &[f64]); 5] = [
        ("one picture", ElementType::F32, &img),
        ("arange * 0.5 + 1", ElementType::F32, &arange),
        ("f64 ramp of 24", ElementType::F64, &ramp),
        ("ten i16 labels", ElementType::I16, &labels),
        (
            "sparse f32, 8 non-zero of 100000",
            ElementType::F32,
            &sparse,
        ),
    ];
    for (name, t, vals) in cases {
        let le = score(t, &payload(Kind::Normal, t, vals, true, &mut Rng(0))).unwrap();
        let be = score(t, &payload(Kind::Normal, t, vals, false, &mut Rng(0))).unwrap();
        assert_ne!(
            le.verdict(),
            Verdict::None,
            "{name}: little-endian missed: {le:?}"
        );
        assert_eq!(
            be.verdict(),
            Verdict::None,
            "{name}: big-endian flagged: {be:?}"
        );
    }
}

/// The CI slice: every kind and type at a few sizes, two seeds.
#[test]
fn benchmark_slice_meets_the_targets() {
    let mut failures = Vec::new();
    for t in TYPES {
        for kind in KINDS {
            for n in [8usize, 16, 100, 1000] {
                let c = measure(t, kind, n, 2);
                if c.false_positives > 0 {
                    failures.push(format!(
                        "{t:?} {kind:?} n={n}: false positive (max {:.1})",
                        c.max_be
                    ));
                }
                if indistinguishable(t, kind, n).is_none() {
                    if c.detected8 < c.files8 {
                        failures.push(format!(
                            "{t:?} {kind:?} n={n}: missed (min {:.1})",
                            c.min_le
                        ));
                    } else if c.certain16 < c.files16 {
                        failures.push(format!(
                            "{t:?} {kind:?} n={n}: not certain (min {:.1})",
                            c.min_le
                        ));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The whole benchmark: writes `bench/byteorder.md`.
#[test]
#[ignore = "the benchmark: run with --ignored --release"]
fn benchmark_report() {
    let sizes: Vec<usize> = std::env::var("BYTEORDER_SIZES").map_or_else(
        |_| vec![1, 2, 4, 8, 16, 32, 100, 1000, 10_000, 100_000, 1_000_000],
        |v| v.split(',').map(|x| x.parse().unwrap()).collect(),
    );
    let mut rows: BTreeMap<(String, Kind), Vec<Cell>> = BTreeMap::new();
    for t in TYPES {
        for kind in KINDS {
            for &n in &sizes {
                let seeds = if n <= 1000 {
                    20
                } else if n <= 100_000 {
                    4
                } else {
                    1
                };
                rows.entry((t.name().to_string(), kind))
                    .or_default()
                    .push(measure(t, kind, n, seeds));
            }
        }
    }
    let mut md = String::new();
    let _ = writeln!(md, "# The byte-order test (IDX501) on generated payloads\n");
    let _ = writeln!(md, "Written by `cargo test --release -p idx --test it byteorder:: -- --ignored`. Each cell: little-endian payloads detected (likely or certain) / certain / files, and false positives on the same values written big-endian.\n");
    let _ = write!(md, "| type | kind |");
    for n in &sizes {
        let _ = write!(md, " {n} |");
    }
    let _ = write!(md, "\n|---|---|");
    for _ in &sizes {
        let _ = write!(md, "---|");
    }
    md.push('\n');
    for ((t, kind), cells) in &rows {
        let _ = write!(md, "| {t} | {kind:?} |");
        for c in cells {
            let _ = write!(
                md,
                " {}/{}/{} fp {} ({:.0}, {:.0}) |",
                c.detected, c.certain, c.files, c.false_positives, c.min_le, c.max_be
            );
        }
        md.push('\n');
    }
    let all: Vec<(Kind, Cell)> = rows
        .iter()
        .flat_map(|((_, k), cells)| cells.iter().map(move |c| (*k, *c)))
        .collect();
    let sum = |f: &dyn Fn(&Cell) -> u32, pick: &dyn Fn(Kind) -> bool| -> u32 {
        all.iter()
            .filter(|(k, _)| pick(*k))
            .map(|(_, c)| f(c))
            .sum()
    };
    let data = |k: Kind| k != Kind::Bits;
    let any = |_: Kind| true;
    let _ = writeln!(
        md,
        "\n**Summary.** Little-endian payloads with at least 8 non-zero elements detected: {} of {}; with at least 16, certain: {} of {}. False positives on big-endian payloads: {} of {} (random bits included). Random-bit payloads reported: {} of {}.\n",
        sum(&|c| c.detected8, &data),
        sum(&|c| c.files8, &data),
        sum(&|c| c.certain16, &data),
        sum(&|c| c.files16, &data),
        sum(&|c| c.false_positives, &any),
        sum(&|c| c.files, &any),
        sum(&|c| c.detected, &|k| k == Kind::Bits),
        sum(&|c| c.files, &|k| k == Kind::Bits),
    );
    let _ = writeln!(md, "Below the targets, by design:\n");
    for t in TYPES {
        for kind in KINDS {
            for &n in &sizes {
                if let Some(why) = indistinguishable(t, kind, n) {
                    if n == sizes[0] || indistinguishable(t, kind, sizes[0]).is_none() {
                        let _ = writeln!(md, "- {} {kind:?}: {why}", t.name());
                    }
                    break;
                }
            }
        }
    }
    md.push_str(&real_data_section());
    let out = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../bench/byteorder.md");
    std::fs::write(&out, &md).expect("write bench/byteorder.md");
    println!("{md}");
}

/// The real MNIST and Fashion-MNIST files (when present beside the
/// checkout, or installed by Debian's `dataset-fashion-mnist`), each
/// converted to every multi-byte type and written both ways.
fn real_data_section() -> String {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files: Vec<(String, std::path::PathBuf)> = Vec::new();
    for name in [
        "train-images-idx3-ubyte.gz",
        "train-labels-idx1-ubyte.gz",
        "t10k-images-idx3-ubyte.gz",
        "t10k-labels-idx1-ubyte.gz",
    ] {
        files.push((
            format!("MNIST {name}"),
            root.join("../shared/data/mnist").join(name),
        ));
    }
    for dir in ["/usr/share/datasets/fashion-mnist"] {
        if let Ok(rd) = std::fs::read_dir(dir) {
            let mut names: Vec<_> = rd.flatten().map(|e| e.path()).collect();
            names.sort();
            for p in names {
                let n = p.file_name().unwrap().to_string_lossy().to_string();
                if n.contains("ubyte") {
                    files.push((format!("Fashion-MNIST {n}"), p));
                }
            }
        }
    }
    let mut md = String::from(
        "\nEvery valid corpus file is checked for its exact findings (none is IDX501) by `crates/idx-conformance/tests/it/corpus.rs`.\n\n## Real data\n\nEach file's values converted to each type (images: /255 for floats), scored whole, big-endian and little-endian. Verdicts: `none`, `likely`, `certain`; score in bits.\n\n| file | type | big-endian | little-endian |\n|---|---|---|---|\n",
    );
    let mut missing = Vec::new();
    for (label, path) in files {
        let Ok(f) = std::fs::File::open(&path) else {
            missing.push(label);
            continue;
        };
        let a = idx::read_input(
            &mut std::io::BufReader::new(f),
            &idx::Options::default().with_decompress(true),
        )
        .expect("a valid dataset file");
        let bytes: Vec<u8> = match a.data() {
            idx::Data::U8(v) => v.clone(),
            _ => panic!("{label}: expected u8"),
        };
        let images = a.dims().len() > 1;
        for t in TYPES {
            let vals: Vec<f64> = bytes
                .iter()
                .map(|&b| {
                    if images && t.is_float() {
                        f64::from(b) / 255.0
                    } else {
                        f64::from(b)
                    }
                })
                .collect();
            let be = score(t, &payload(Kind::Normal, t, &vals, false, &mut Rng(0))).unwrap();
            let le = score(t, &payload(Kind::Normal, t, &vals, true, &mut Rng(0))).unwrap();
            let _ = writeln!(
                md,
                "| {label} | {} | {:?} ({:.0}) | {:?} ({:.0}) |",
                t.name(),
                be.verdict(),
                be.bits,
                le.verdict(),
                le.bits
            );
        }
    }
    if !missing.is_empty() {
        let _ = writeln!(md, "\nNot found on this machine: {}.", missing.join(", "));
    }
    md
}

/// A column of 128 (mid-grey) is the byte-swapped twin of a column of the
/// type's minimum: neither reading may be called certain, either way.
#[test]
fn constant_128_and_the_type_minimum_say_nothing() {
    for t in [ElementType::I16, ElementType::I32] {
        for v in [
            128.0,
            -129.0,
            if t == ElementType::I16 {
                -32768.0
            } else {
                -2147483648.0
            },
        ] {
            for little in [false, true] {
                let vals = vec![v; 1000];
                let s = score(t, &payload(Kind::Normal, t, &vals, little, &mut Rng(0))).unwrap();
                assert_eq!(
                    s.verdict(),
                    Verdict::None,
                    "{t:?} {v} little={little}: {s:?}"
                );
            }
        }
    }
}
