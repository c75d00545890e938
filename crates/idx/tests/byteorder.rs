//! The byte-order test (IDX501, spec §10.1) on generated payloads: a small
//! slice of its benchmark runs in every `cargo test`, so its numbers cannot
//! silently regress; the whole benchmark writes `bench/byteorder.md`:
//!
//! ```sh
//! cargo test --release -p idx --test byteorder -- --ignored --nocapture
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

fn run(t: ElementType, kind: Kind, n: usize, seeds: u64) -> Cell {
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

/// Kinds whose two byte orders the test cannot tell apart, and why.
fn indistinguishable(kind: Kind) -> Option<&'static str> {
    match kind {
        Kind::Bits => Some("random bit patterns read equally (im)plausibly both ways"),
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
                let c = run(t, kind, n, 2);
                if c.false_positives > 0 {
                    failures.push(format!(
                        "{t:?} {kind:?} n={n}: false positive (max {:.1})",
                        c.max_be
                    ));
                }
                if indistinguishable(kind).is_none() {
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
                    .push(run(t, kind, n, seeds));
            }
        }
    }
    let mut md = String::new();
    let _ = writeln!(md, "# The byte-order test (IDX501) on generated payloads\n");
    let _ = writeln!(md, "Written by `cargo test --release -p idx --test byteorder -- --ignored`. Each cell: little-endian payloads detected (likely or certain) / certain / files, and false positives on the same values written big-endian.\n");
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
    println!("{md}");
}
