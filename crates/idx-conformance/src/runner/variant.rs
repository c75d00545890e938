//! Per-run variants: each case's bytes drawn anew from the run's seed
//! where its rule allows, with the same verdict and the same findings, so
//! that the committed corpus says nothing of what an input is: neither its
//! SHA-256 (`index.json`) nor its size.
//!
//! What varies:
//! - a valid case's payload (random bytes; floats random finite normal
//!   values, so a reader is never asked about NaNs it was not asked about
//!   before); its header and length do not;
//! - an invalid case with an IDX header (its reserved bytes or type code
//!   may be what is wrong): its payload, its dimensions when the rule does
//!   not depend on them (a rank-1 to rank-4 shape drawn anew: up to
//!   48 elements for rank 1, up to 4 per dimension above), a random count of random bytes after the
//!   payload when it has bytes after it, a random cut when it is cut; a
//!   rank-0 payload's first four bytes stay (lenient readers read them as
//!   an item count);
//! - an invalid case without one (other formats, text, a header whose
//!   sizes overflow): a random count of random bytes (printable text for a
//!   text case) after its committed bytes;
//! - an invalid gzip case whose header has no optional field: a random file
//!   name in its header (FNAME), which no decompressor reads as data.
//!
//! A draw is kept only when the validator finds in it the case's rules, in
//! order, with the case's verdict; a draw that changes the length is also
//! redrawn when its length is a committed case's (a size looked up in the
//! corpus finds nothing). What does not vary: implementation-defined cases,
//! cases that need validator options, the `valid-edge-*` cases (their
//! values are the test), payloads over 1 MiB, and the cases for which no
//! draw keeps the rules (the empty file, files too short for a magic
//! number, where appending bytes makes one). Those run as committed.

use crate::cases::{Case, Verdict};
use crate::content::{Content, Values};
use crate::differential::rng::Rng;
use idx::ElementType;

/// Cases whose values are what they test: never varied.
const FIXED: [&str; 1] = ["valid-edge-"];

/// The most payload bytes drawn for a case (larger cases run as committed).
const MAX_PAYLOAD: u64 = 1 << 20;

/// How many draws before a case runs as committed.
const TRIES: usize = 32;

/// `case` as this run gives it: its variant under `seed` (the same seed,
/// the same bytes), or the case itself when its rule leaves nothing to
/// vary. The returned case's description says what was drawn.
pub fn vary(case: &Case, seed: u64) -> Case {
    let mut rng = Rng::for_input(seed, stream(&case.id));
    let mut fallback = None;
    for _ in 0..TRIES {
        if let Some(v) = draw(case, &mut rng) {
            if v.bytes != case.bytes && same_findings(case, &v) {
                // an invalid case's size is looked for among those the
                // committed files do not have
                if case.verdict != Verdict::Invalid || !committed_sizes().contains(&v.bytes.len()) {
                    return v;
                }
                fallback.get_or_insert(v);
            }
        }
    }
    fallback.unwrap_or_else(|| case.clone())
}

/// The sizes of the committed corpus's files.
fn committed_sizes() -> &'static std::collections::BTreeSet<usize> {
    static SIZES: std::sync::OnceLock<std::collections::BTreeSet<usize>> =
        std::sync::OnceLock::new();
    SIZES.get_or_init(|| crate::cases::all().iter().map(|c| c.bytes.len()).collect())
}

/// A stream number from a case ID (FNV-1a), so a case's variant does not
/// depend on which other cases run.
fn stream(id: &str) -> u64 {
    id.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// An IDX header as a reader that checks nothing reads it.
struct Header {
    /// Its length: 4 + 4 x rank.
    len: usize,
    /// The element type, when the code is one.
    known: Option<ElementType>,
    /// The element size (1 for an unknown code).
    size: usize,
    /// The dimensions.
    dims: Vec<u32>,
    /// The payload length they declare, `None` on overflow.
    declared: Option<u64>,
}

/// The header at the start of `b`: its type code is one, or its reserved
/// bytes are zero (an unknown code, read as one-byte elements); `None`
/// when neither, or when the dimensions are cut.
fn header(b: &[u8]) -> Option<Header> {
    if b.len() < 4 {
        return None;
    }
    let known = ElementType::from_code(b[2]);
    if known.is_none() && (b[0] != 0 || b[1] != 0) {
        return None;
    }
    let rank = usize::from(b[3]);
    let len = 4 + 4 * rank;
    let dims: Vec<u32> = b
        .get(4..len)?
        .chunks(4)
        .map(|d| u32::from_be_bytes([d[0], d[1], d[2], d[3]]))
        .collect();
    let size = known.map_or(1, |t| t.size());
    let declared = dims
        .iter()
        .try_fold(size as u64, |n, &d| n.checked_mul(u64::from(d)));
    Some(Header {
        len,
        known,
        size,
        dims,
        declared,
    })
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
        || !case.options.is_empty()
        || FIXED.iter().any(|p| case.id.starts_with(p))
    {
        return None;
    }
    let (bytes, what) = if case.compression().is_some() {
        if case.verdict != Verdict::Invalid {
            return None;
        }
        gzip_name(&case.bytes, rng).or_else(|| appended(&case.bytes, rng))?
    } else {
        match (case.verdict, header(&case.bytes)) {
            (Verdict::Valid, Some(h)) => valid(case, &h, rng)?,
            (Verdict::Invalid, Some(h)) if h.declared.is_some() => {
                invalid_idx(case, &h, rng).or_else(|| appended(&case.bytes, rng))?
            }
            (Verdict::Invalid, _) if rng.one_in(2) => {
                dims_cut(&case.bytes, rng).or_else(|| appended(&case.bytes, rng))?
            }
            (Verdict::Invalid, _) => appended(&case.bytes, rng)?,
            _ => return None,
        }
    };
    let mut v = case.clone();
    if case.verdict == Verdict::Valid {
        let h = header(&bytes)?;
        let t = h.known?;
        v.content = Some(content(t, &h.dims, &bytes[h.len..]));
    }
    v.bytes = bytes;
    v.description = what;
    Some(v)
}

/// A valid case's variant: a random payload under the same header.
fn valid(case: &Case, h: &Header, rng: &mut Rng) -> Option<(Vec<u8>, String)> {
    let t = h.known?;
    let declared = usize::try_from(h.declared?).ok()?;
    let present = case.bytes.len() - h.len;
    if present != declared || declared == 0 {
        return None;
    }
    let p = payload(t, declared, rng);
    Some((
        [&case.bytes[..h.len], &p].concat(),
        "random payload".to_string(),
    ))
}

/// Whether a case's dimensions may be drawn anew: its rule is about the
/// header's other bytes or about the length, not about sizes (no empty,
/// huge or MNIST-sized shape, no overflow).
fn free_dims(h: &Header) -> bool {
    let elements: u64 = h.dims.iter().map(|&d| u64::from(d)).product();
    !h.dims.is_empty() && h.dims.len() <= 4 && h.dims.iter().all(|&d| d > 0) && elements <= 64
}

/// An invalid case with a readable header: its payload, its dimensions
/// where free, how many bytes follow the payload or where it is cut.
fn invalid_idx(case: &Case, h: &Header, rng: &mut Rng) -> Option<(Vec<u8>, String)> {
    let declared = usize::try_from(h.declared?).ok()?;
    if declared as u64 > MAX_PAYLOAD {
        return None;
    }
    let present = case.bytes.len() - h.len;
    let mut head = case.bytes[..h.len].to_vec();
    let mut what = Vec::new();
    let mut want = declared;
    if free_dims(h) {
        let rank = h.dims.len();
        let mut n = 1;
        // rank 1: up to 48 elements; more: up to 4 per dimension
        let most = if rank == 1 { 48 } else { 4 };
        for (i, d) in (0..rank).map(|_| 1 + rng.below(most) as u32).enumerate() {
            head[4 + 4 * i..8 + 4 * i].copy_from_slice(&d.to_be_bytes());
            n *= d as usize;
        }
        want = n * h.size;
        let shape: Vec<String> = head[4..]
            .chunks(4)
            .map(|c| u32::from_be_bytes([c[0], c[1], c[2], c[3]]).to_string())
            .collect();
        what.push(format!("dimensions {}", shape.join(" x ")));
    }
    // a rank-0 payload's first bytes are where a reader that checks
    // nothing finds its item count: kept
    let keep = if h.dims.is_empty() {
        present.min(declared).min(4)
    } else {
        0
    };
    let kept = &case.bytes[h.len..h.len + keep];
    let (body, said) = if present > declared {
        let extra = 1 + rng.below((2 * (present - declared)).max(48));
        (
            [kept, &random_bytes(want - keep + extra, rng)].concat(),
            format!("random payload and {extra} random bytes after it"),
        )
    } else if present < declared {
        let cut = keep + rng.below(want - keep);
        (
            [kept, &random_bytes(cut - keep, rng)].concat(),
            format!("random payload cut at {cut} of {want} bytes"),
        )
    } else if want > keep {
        (
            [kept, &random_bytes(want - keep, rng)].concat(),
            "random payload".to_string(),
        )
    } else {
        return None;
    };
    what.push(said);
    Some(([&head[..], &body].concat(), what.join(", ")))
}

/// A header cut inside its dimensions: a larger rank, cut after a random
/// count of dimension bytes (the committed ones, then small dimensions).
fn dims_cut(b: &[u8], rng: &mut Rng) -> Option<(Vec<u8>, String)> {
    if b.len() < 4 || (b[0], b[1]) != (0, 0) || b.len() >= 4 + 4 * usize::from(b[3]) {
        return None;
    }
    let rank = usize::from(b[3]) + rng.below(24);
    let rank = u8::try_from(rank).ok()?;
    let len = 4 + 4 * usize::from(rank);
    let cut = b.len() + rng.below(len - b.len());
    let mut out = b.to_vec();
    out[3] = rank;
    while out.len() < cut {
        // small dimensions: no portability warning comes of them
        let d = (1 + rng.below(9) as u32).to_be_bytes();
        let at = (out.len() - 4) % 4;
        out.push(d[at]);
    }
    Some((
        out,
        format!("rank {rank}, its dimensions cut after {} bytes", cut - 4),
    ))
}

/// Printable text, as the text cases are.
fn is_text(b: &[u8]) -> bool {
    !b.is_empty()
        && b.iter()
            .all(|&c| c == b'\n' || c == b'\r' || c == b'\t' || (0x20..0x7f).contains(&c))
}

/// An invalid case without a readable header: a random count of random
/// bytes after its committed ones (printable text after text).
fn appended(b: &[u8], rng: &mut Rng) -> Option<(Vec<u8>, String)> {
    if b.is_empty() {
        return None;
    }
    let n = 1 + rng.below(48);
    let text = is_text(b);
    let extra: Vec<u8> = (0..n)
        .map(|_| {
            if text {
                b'a' + rng.below(26) as u8
            } else {
                rng.bits() as u8
            }
        })
        .collect();
    Some((
        [b, &extra].concat(),
        format!(
            "the committed bytes and {n} random {} after them",
            if text { "letters" } else { "bytes" }
        ),
    ))
}

/// A gzip member's header given a random file name (FNAME), when it has no
/// optional field yet: the same stream for every decompressor.
fn gzip_name(b: &[u8], rng: &mut Rng) -> Option<(Vec<u8>, String)> {
    if b.len() < 10 || b[..3] != [0x1f, 0x8b, 8] || b[3] != 0 {
        return None;
    }
    let n = 1 + rng.below(16);
    let name: Vec<u8> = (0..n).map(|_| b'a' + rng.below(26) as u8).collect();
    let mut head = b[..10].to_vec();
    head[3] = 0x08;
    Some((
        [&head[..], &name, &[0], &b[10..]].concat(),
        format!("a random {n}-letter file name in its gzip header"),
    ))
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

#[cfg(test)]
mod every_invalid_case {
    #[test]
    fn varies_if_as_long_as_a_magic_number_and_without_options() {
        for c in crate::cases::all() {
            if c.verdict != crate::cases::Verdict::Invalid || !c.options.is_empty() {
                continue;
            }
            for seed in 1..=4 {
                let v = super::vary(&c, seed);
                assert!(v.bytes != c.bytes || c.bytes.len() < 4, "{} {seed}", c.id);
            }
        }
    }
}
