//! Per-run variants: each case's bytes drawn anew from the run's seed
//! where its rule allows, with the same verdict and the same findings, so
//! that the committed corpus (its SHA-256s in `index.json`) says nothing of
//! what an input is (its size still may).
//!
//! What varies, after an IDX header the runner can read (magic, rank,
//! dimensions): a valid case's payload (random bytes; floats random finite
//! normal values, so a reader is never asked about NaNs it was not asked
//! about before), and an invalid case's payload. What does not: lengths
//! and what follows a payload (a random cut, count or value of trailing
//! bytes changed the results of honest lenient readers, `ubyte` among
//! them: where a cut falls in an element decides whether it notices, and
//! it reads the bytes after a payload as dimensions), headers and what follows a header the runner does not read (a
//! lenient reader reads dimensions there), implementation-defined and gzip
//! cases, cases that need validator options, and the `valid-edge-*` cases
//! (their values are the test). A variant is kept only
//! when the validator finds in it the case's rules, in order, with the
//! case's verdict; otherwise the case runs as committed.

use crate::cases::{Case, Verdict};
use crate::content::{Content, Values};
use crate::differential::rng::Rng;
use idx::ElementType;

/// Cases whose values are what they test: never varied.
const FIXED: [&str; 1] = ["valid-edge-"];

/// The most payload bytes drawn for a case (larger cases run as committed).
const MAX_PAYLOAD: u64 = 1 << 20;

/// How many draws before a case runs as committed.
const TRIES: usize = 16;

/// `case` as this run gives it: its variant under `seed` (the same seed,
/// the same bytes), or the case itself when its rule leaves nothing to
/// vary. The returned case's description says what was drawn.
pub fn vary(case: &Case, seed: u64) -> Case {
    let mut rng = Rng::for_input(seed, stream(&case.id));
    for _ in 0..TRIES {
        if let Some(v) = draw(case, &mut rng) {
            if same_findings(case, &v) {
                return v;
            }
        }
    }
    case.clone()
}

/// A stream number from a case ID (FNV-1a), so a case's variant does not
/// depend on which other cases run.
fn stream(id: &str) -> u64 {
    id.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The header's length, element type, shape and declared payload length,
/// when the bytes start with a readable IDX header.
fn header(b: &[u8]) -> Option<(usize, ElementType, Vec<u32>, u64)> {
    if b.len() < 4 || b[0] != 0 || b[1] != 0 {
        return None;
    }
    let t = ElementType::from_code(b[2])?;
    let rank = usize::from(b[3]);
    let len = 4 + 4 * rank;
    let dims: Vec<u32> = b
        .get(4..len)?
        .chunks(4)
        .map(|d| u32::from_be_bytes([d[0], d[1], d[2], d[3]]))
        .collect();
    let mut n: u64 = t.size() as u64;
    for &d in &dims {
        n = n.checked_mul(u64::from(d))?;
    }
    Some((len, t, dims, n))
}

fn random_bytes(n: usize, rng: &mut Rng) -> Vec<u8> {
    (0..n).map(|_| rng.bits() as u8).collect()
}

/// `n` random payload bytes of type `t` for a valid case: floats finite
/// and normal, or zero.
fn payload(t: ElementType, n: usize, rng: &mut Rng) -> Vec<u8> {
    match t {
        ElementType::F32 => (0..n / 4)
            .flat_map(|_| {
                let mut b = rng.bits() as u32;
                let e = (b >> 23) & 0xff;
                if e == 0 || e == 0xff {
                    b = (b & !(0xff << 23)) | (0x7f << 23);
                }
                b.to_be_bytes()
            })
            .collect(),
        ElementType::F64 => (0..n / 8)
            .flat_map(|_| {
                let mut b = rng.bits();
                let e = (b >> 52) & 0x7ff;
                if e == 0 || e == 0x7ff {
                    b = (b & !(0x7ff << 52)) | (0x3ff << 52);
                }
                b.to_be_bytes()
            })
            .collect(),
        _ => random_bytes(n, rng),
    }
}

/// The content of a payload of type `t`, big-endian.
fn content(t: ElementType, shape: &[u32], p: &[u8]) -> Content {
    let values = match t {
        ElementType::U8 => Values::Int(p.iter().map(|&x| i64::from(x)).collect()),
        ElementType::I8 => Values::Int(p.iter().map(|&x| i64::from(x as i8)).collect()),
        ElementType::I16 => Values::Int(
            p.chunks(2)
                .map(|c| i64::from(i16::from_be_bytes([c[0], c[1]])))
                .collect(),
        ),
        ElementType::I32 => Values::Int(
            p.chunks(4)
                .map(|c| i64::from(i32::from_be_bytes([c[0], c[1], c[2], c[3]])))
                .collect(),
        ),
        ElementType::F32 => Values::F32(
            p.chunks(4)
                .map(|c| u32::from_be_bytes([c[0], c[1], c[2], c[3]]))
                .collect(),
        ),
        ElementType::F64 => Values::F64(
            p.chunks(8)
                .map(|c| {
                    let mut b = [0; 8];
                    b.copy_from_slice(c);
                    u64::from_be_bytes(b)
                })
                .collect(),
        ),
    };
    Content {
        dtype: t,
        shape: shape.to_vec(),
        values,
    }
}

/// One draw of a variant of `case`, or `None` when nothing of it varies.
fn draw(case: &Case, rng: &mut Rng) -> Option<Case> {
    if case.verdict == Verdict::ImplementationDefined
        || case.compression().is_some()
        || !case.options.is_empty()
        || FIXED.iter().any(|p| case.id.starts_with(p))
    {
        return None;
    }
    let (h, t, shape, declared) = header(&case.bytes)?;
    if declared > MAX_PAYLOAD {
        return None;
    }
    // invariant: at most MAX_PAYLOAD
    let declared = usize::try_from(declared).ok()?;
    let present = case.bytes.len() - h;
    let mut v = case.clone();
    let head = &case.bytes[..h];
    let (bytes, what) = match case.verdict {
        Verdict::Valid if present == declared && declared > 0 => {
            let p = payload(t, declared, rng);
            v.content = Some(content(t, &shape, &p));
            ([head, &p].concat(), "random payload".to_string())
        }
        // the length kept, and what follows the payload: lenient readers'
        // results depend on both (where a cut falls in an element; `ubyte`
        // reads the bytes after a payload as dimensions)
        Verdict::Invalid if present.min(declared) > 0 => {
            let n = present.min(declared);
            let rest = &case.bytes[h + n..];
            (
                [head, &random_bytes(n, rng), rest].concat(),
                if present < declared {
                    format!("random payload cut at {present} of {declared} bytes")
                } else if present > declared {
                    "random payload before the committed bytes after it".to_string()
                } else {
                    "random payload".to_string()
                },
            )
        }
        _ => return None,
    };
    v.bytes = bytes;
    v.description = what;
    Some(v)
}

/// Whether the validator finds in `v` the rules of `case`, in order, and
/// the same verdict.
fn same_findings(case: &Case, v: &Case) -> bool {
    let opts = crate::corpus::options(case);
    let r = idx::validate_with(&v.bytes, &opts);
    let rules: Vec<&str> = r.findings.iter().map(|f| f.rule.code()).collect();
    let want: Vec<&str> = case.findings.iter().map(|f| f.0).collect();
    rules == want
        && match case.verdict {
            Verdict::Invalid => r.has_errors(),
            _ => r.is_well_formed(),
        }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_variant_keeps_the_verdict_and_the_rules_and_a_seed_gives_the_same_bytes() {
        let cases = crate::cases::all();
        let mut varied = 0;
        for c in &cases {
            let a = vary(c, 1);
            assert!(same_findings(c, &a), "{}", c.id);
            assert_eq!(vary(c, 1).bytes, a.bytes, "{}", c.id);
            if a.bytes != c.bytes {
                varied += 1;
                assert_ne!(vary(c, 2).bytes, a.bytes, "{}", c.id);
                if c.verdict == Verdict::Valid {
                    // the content is the new bytes' as the spec reads them
                    let got = idx::parse(&a.bytes).map(|_| ()); // ok: unit test
                    assert!(got.is_ok(), "{}", c.id);
                    let ct = a.content.as_ref().unwrap(); // ok: unit test
                    assert_eq!(ct.golden_bytes(), a.bytes, "{}", c.id);
                }
            }
        }
        assert!(varied > 60, "{varied}");
    }
}
