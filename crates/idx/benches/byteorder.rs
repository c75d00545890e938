//! The byte-order test's benchmark (IDX501, spec §6.1): every kind of data
//! of `test_support::payloads`, written correctly big-endian and as its
//! little-endian twin, at several sizes and seeds, then the real MNIST and
//! Fashion-MNIST files converted to each multi-byte type. False errors and
//! false warnings on the big-endian payloads come first; detection of the
//! twins second. Writes `bench/byteorder.md`:
//!
//! ```sh
//! cargo bench -p idx --bench byteorder
//! ```
//!
//! `BYTEORDER_SIZES=16,100` and `BYTEORDER_OUT=-` (standard output) for a
//! quick look.

use idx::lint::byteorder::{score, ByteOrderScore, Verdict};
use idx::ElementType;
use std::fmt::Write as _;
use test_support::payloads::{big_endian, little_endian_twin, Kind, Type};

fn element_type(t: Type) -> ElementType {
    // ok: the four codes are the spec's
    ElementType::from_code(t.code()).expect("a multi-byte type code")
}

/// Seeds per size: many for small payloads, fewer for large ones.
fn seeds(n: usize) -> u64 {
    match n {
        0..=1000 => 20,
        1001..=10_000 => 5,
        _ => 2,
    }
}

/// Distinct non-zero elements of a payload (what the test scores).
fn distinct_non_zero(t: Type, payload: &[u8]) -> usize {
    let mut seen: Vec<&[u8]> = payload
        .chunks_exact(t.size())
        .filter(|c| c.iter().any(|&b| b != 0))
        .collect();
    seen.sort_unstable();
    seen.dedup();
    seen.len()
}

#[derive(Default)]
struct Row {
    files: u32,
    false_errors: u32,
    false_warnings: u32,
    /// The largest score of a big-endian payload.
    max_big: f64,
    detected: u32,
    certain: u32,
    /// Twins with at least 16 distinct non-zero elements, and how many of
    /// those are certain.
    twins16: u32,
    certain16: u32,
}

fn verdict(s: &ByteOrderScore) -> Verdict {
    s.verdict()
}

fn main() {
    let sizes: Vec<usize> = std::env::var("BYTEORDER_SIZES").map_or_else(
        |_| vec![16, 100, 1000, 10_000, 100_000, 1_000_000],
        |v| {
            v.split(',')
                .map(|x| x.trim().parse().expect("a size"))
                .collect()
        },
    );
    let mut md = String::new();
    let _ = writeln!(
        md,
        "# The byte-order test (IDX501) on the data people store\n"
    );
    let _ = writeln!(
        md,
        "Written by `cargo bench -p idx --bench byteorder` (kinds: `crates/test-support/src/payloads.rs`; test: spec §6.1). \
         Each kind is generated as a correct big-endian payload at {} elements ({} seeds per size), and as its little-endian twin \
         (every element's bytes reversed, as a writer that forgot the byte order writes it). \
         A *false error* is a big-endian payload called certainly little-endian (IDX501 error), a *false warning* one called probably \
         little-endian. *Detected* counts twins reported at all, *certain* twins reported as errors; the last column restricts the twins \
         to those with at least 16 distinct non-zero elements (what the test scores: a repeated value counts once).\n",
        sizes.iter().map(|n| n.to_string()).collect::<Vec<_>>().join(", "),
        sizes.iter().map(|&n| seeds(n).to_string()).collect::<Vec<_>>().join("/"),
    );
    let _ = writeln!(
        md,
        "| kind | type | big-endian files | false errors | false warnings | max score (bits) | twins detected | twins certain | certain with >= 16 distinct |"
    );
    let _ = writeln!(md, "|---|---|---|---|---|---|---|---|---|");
    let mut total = Row::default();
    for &kind in Kind::ALL {
        for &t in kind.types() {
            let mut r = Row {
                max_big: f64::NEG_INFINITY,
                ..Row::default()
            };
            for &n in &sizes {
                for seed in 0..seeds(n) {
                    let be = big_endian(kind, t, n, seed);
                    let s = score(element_type(t), &be).expect("a multi-byte type");
                    r.files += 1;
                    r.max_big = r.max_big.max(s.bits);
                    match verdict(&s) {
                        Verdict::Certain => r.false_errors += 1,
                        Verdict::Likely => r.false_warnings += 1,
                        Verdict::None => {}
                    }
                    let le = little_endian_twin(t, &be);
                    let s = score(element_type(t), &le).expect("a multi-byte type");
                    let v = verdict(&s);
                    r.detected += u32::from(v != Verdict::None);
                    r.certain += u32::from(v == Verdict::Certain);
                    if distinct_non_zero(t, &le) >= 16 {
                        r.twins16 += 1;
                        r.certain16 += u32::from(v == Verdict::Certain);
                    }
                }
            }
            let _ = writeln!(
                md,
                "| {} | {} | {} | {} | {} | {:.1} | {} | {} | {} |",
                kind.label(),
                t.name(),
                r.files,
                r.false_errors,
                r.false_warnings,
                r.max_big,
                r.detected,
                r.certain,
                if r.twins16 == 0 {
                    "no such twin".to_string()
                } else {
                    format!("{} of {}", r.certain16, r.twins16)
                }
            );
            total.files += r.files;
            total.false_errors += r.false_errors;
            total.false_warnings += r.false_warnings;
            total.detected += r.detected;
            total.certain += r.certain;
            total.twins16 += r.twins16;
            total.certain16 += r.certain16;
        }
    }
    let _ = writeln!(
        md,
        "\n**In all**: {} big-endian payloads of {} kinds: {} false errors, {} false warnings. Little-endian twins: {} detected, {} certain; \
         of the {} twins with at least 16 distinct non-zero elements, {} certain.\n",
        total.files,
        Kind::ALL.len(),
        total.false_errors,
        total.false_warnings,
        total.detected,
        total.certain,
        total.twins16,
        total.certain16
    );
    md.push_str(
        "Twins that are not certain are, by kind: data with few distinct values (constants, runs, one-hot rows, labels, flags: \
         a repeated value counts once), payloads whose first elements are all zero or all the same (pictures' black borders at 16 \
         and 100 elements), and data that neither byte order explains (identifiers and hashes over the whole range: their twins \
         are random bytes either way; huge magnitudes and subnormal tails in f64). Each is a payload the test *cannot* call \
         certain without also calling some correct big-endian payload certain.\n",
    );
    md.push_str(&real_data_section());
    match std::env::var("BYTEORDER_OUT").as_deref() {
        Ok("-") => print!("{md}"),
        _ => {
            let out =
                std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../bench/byteorder.md");
            // ok: a benchmark's own report file
            std::fs::write(&out, &md).expect("write bench/byteorder.md");
            println!("wrote {}", out.display());
        }
    }
}

/// The real MNIST and Fashion-MNIST files (MNIST's training set from the
/// folder `$MNIST_DIR` names, its test set from the repository's
/// `testdata/mnist`, and Debian's `dataset-fashion-mnist` where installed),
/// each converted to every multi-byte type and written both ways.
fn real_data_section() -> String {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files: Vec<(String, std::path::PathBuf)> = Vec::new();
    match std::env::var_os("MNIST_DIR") {
        Some(dir) => {
            for name in ["train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz"] {
                files.push((format!("MNIST {name}"), std::path::Path::new(&dir).join(name)));
            }
        }
        None => eprintln!(
            "MNIST_DIR is not set: MNIST's training set is left out (the repository carries only the test set)"
        ),
    }
    for name in ["t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz"] {
        files.push((
            format!("MNIST {name}"),
            root.join("testdata/mnist").join(name),
        ));
    }
    if let Ok(rd) = std::fs::read_dir("/usr/share/datasets/fashion-mnist") {
        let mut names: Vec<_> = rd.flatten().map(|e| e.path()).collect();
        names.sort();
        for p in names {
            let n = p
                .file_name()
                .map(|n| n.to_string_lossy().to_string())
                .unwrap_or_default();
            if n.contains("ubyte") {
                files.push((format!("Fashion-MNIST {n}"), p));
            }
        }
    }
    let mut md = String::from(
        "\n## Real data\n\nEach file's values converted to each type (images: /255 for floats), scored whole, big-endian and \
         little-endian. Verdicts: `None`, `Likely`, `Certain`; score in bits.\n\n| file | type | big-endian | little-endian |\n|---|---|---|---|\n",
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
        let idx::Data::U8(bytes) = a.data() else {
            panic!("{label}: expected u8");
        };
        let images = a.dims().len() > 1;
        for t in Type::ALL {
            let mut be = Vec::with_capacity(bytes.len() * t.size());
            for &b in bytes {
                let x = if images && t.is_float() {
                    f64::from(b) / 255.0
                } else {
                    f64::from(b)
                };
                match t {
                    Type::I16 => be.extend_from_slice(&(x as i16).to_be_bytes()),
                    Type::I32 => be.extend_from_slice(&(x as i32).to_be_bytes()),
                    Type::F32 => be.extend_from_slice(&(x as f32).to_be_bytes()),
                    Type::F64 => be.extend_from_slice(&x.to_be_bytes()),
                }
            }
            let le = little_endian_twin(t, &be);
            let (b, l) = (
                score(element_type(t), &be).expect("multi-byte"),
                score(element_type(t), &le).expect("multi-byte"),
            );
            let _ = writeln!(
                md,
                "| {label} | {} | {:?} ({:.0}) | {:?} ({:.0}) |",
                t.name(),
                b.verdict(),
                b.bits,
                l.verdict(),
                l.bits
            );
        }
    }
    if !missing.is_empty() {
        let _ = writeln!(md, "\nNot found on this machine: {}.", missing.join(", "));
    }
    md
}
