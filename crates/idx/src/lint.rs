//! Heuristic lints: byte order of the payload, non-finite floats, and
//! MNIST-style file names.
//!
//! The payload lints run in one pass over the payload, fed in chunks of any
//! size; the state kept between chunks is a few counters and at most one
//! partial element, so streaming and in-memory validation give the same
//! result by construction.

use crate::carry::Carry;
use crate::dtype::ElementType;
use crate::edit::ByteOrder;
use crate::finding::Finding;
use crate::rules::Rule;
use idx_text::plural::count;
pub(crate) use name::name_claim;

pub mod byteorder;
pub(crate) mod name;
pub(crate) mod range;
pub(crate) mod width;

pub use byteorder::{ByteOrderScore, Verdict, CERTAIN_BITS, LIKELY_BITS};

/// The byte-order test scores the first [`SAMPLE_LEN`] elements of every
/// [`SAMPLE_BLOCK`] (by element index): 1/256 of a large payload, all of a
/// small one; and, outside those, the first [`EXTRA_ELEMENTS`] non-zero
/// elements, so that a sparse payload is scored on its non-zero values.
pub(crate) const SAMPLE_BLOCK: u64 = 65536;
/// See [`SAMPLE_BLOCK`].
pub(crate) const SAMPLE_LEN: u64 = 256;
/// See [`SAMPLE_BLOCK`].
pub(crate) const EXTRA_ELEMENTS: u64 = 1024;

/// One-pass payload statistics for the byte-order and non-finite lints.
#[derive(Debug, Clone)]
pub(crate) struct PayloadLinter {
    dtype: ElementType,
    start: u64,
    carry: Carry,
    elements: u64,
    /// The byte-order test.
    scorer: byteorder::Scorer,
    /// Whether the non-finite lint (IDX502) runs (the byte-order test
    /// always does).
    non_finite_lint: bool,
    /// Payload bytes fed or skipped, all of them (the finding covers the
    /// whole payload seen, even after the test stopped looking).
    seen: u64,
    /// Non-zero elements outside the sample still to score.
    extra_left: u64,
    // non-finite
    nan: u64,
    inf: u64,
    first_non_finite: Option<u64>,
    /// The instruction set for the non-finite count, detected once.
    arch: pulp::Arch,
    /// i32: the payload's first bytes, to the stream's 1024th (what a
    /// report keeps as its head): the element-width diagnosis's sample
    /// ([`width::i16_under_i32`]).
    head: Vec<u8>,
}

impl PayloadLinter {
    /// A linter for a payload of `dtype` starting at byte `start`: the
    /// byte-order test, and the non-finite lint when `non_finite` is set.
    pub fn new(dtype: ElementType, start: u64, non_finite: bool) -> Self {
        PayloadLinter {
            dtype,
            start,
            carry: Carry::default(),
            elements: 0,
            scorer: byteorder::Scorer::new(dtype),
            non_finite_lint: non_finite,
            seen: 0,
            extra_left: EXTRA_ELEMENTS,
            nan: 0,
            inf: 0,
            first_non_finite: None,
            arch: pulp::Arch::new(),
            head: Vec::new(),
        }
    }

    /// Bytes of the payload's head still to keep (i32 alone).
    fn head_left(&self) -> usize {
        if self.dtype != ElementType::I32 {
            return 0;
        }
        let keep = usize::try_from(self.start)
            .map_or(0, |s| crate::header::MAX_HEADER_LEN.saturating_sub(s));
        keep.saturating_sub(self.head.len())
    }

    /// True when the lints have anything to look at for this type.
    pub fn is_active(dtype: ElementType) -> bool {
        dtype.size() > 1
    }

    /// Accounts for `n` payload bytes that a done linter need not look at
    /// (a source of known length, skipped by its length).
    pub fn skip(&mut self, n: u64) {
        self.seen += n;
    }

    /// True when no further payload byte can change what this linter
    /// reports: the byte-order test has scored all it scores and the
    /// non-finite lint is off.
    pub fn done(&self) -> bool {
        !self.non_finite_lint && self.scorer.is_full()
    }

    /// Feeds the next payload bytes.
    pub fn feed(&mut self, bytes: &[u8]) {
        let size = self.dtype.size();
        let take = self.head_left().min(bytes.len());
        self.head.extend_from_slice(&bytes[..take]);
        self.seen += bytes.len() as u64;
        // (a linter is built for multi-byte types alone: `is_active`)
        if self.done() {
            return;
        }
        let (first, whole) = self.carry.split(size, bytes);
        if let Some(e) = first {
            self.elements_of(&e[..size]);
        }
        self.elements_of(whole);
    }

    /// Whole elements, the first of which is element `self.elements`.
    fn elements_of(&mut self, bytes: &[u8]) {
        let size = self.dtype.size();
        let start = self.elements;
        let end = start + (bytes.len() / size) as u64;
        match self.dtype {
            ElementType::F32 if self.non_finite_lint => {
                self.non_finite::<4>(bytes, start, 0x807f, 0xffff_ff7f);
            }
            ElementType::F64 if self.non_finite_lint => {
                self.non_finite::<8>(bytes, start, 0xf07f, 0xffff_ffff_ffff_ff7f);
            }
            _ => {}
        }
        // The byte-order test looks at elements fixed by index (and the
        // first non-zero ones outside those), so chunking cannot change it.
        let mut i = start;
        while i < end {
            let block = i / SAMPLE_BLOCK;
            let sample_end = block * SAMPLE_BLOCK + SAMPLE_LEN;
            let sampled = i < sample_end;
            let stop = if sampled {
                sample_end.min(end)
            } else {
                ((block + 1) * SAMPLE_BLOCK).min(end)
            };
            // (`score` returns at once when the scorer is full or, outside
            // the sample, no extra element is left)
            let part = &bytes[(i - start) as usize * size..(stop - start) as usize * size];
            match size {
                2 => self.score::<2>(part, i, sampled),
                4 => self.score::<4>(part, i, sampled),
                _ => self.score::<8>(part, i, sampled),
            }
            i = stop;
        }
        self.elements = end;
    }

    /// IDX501's warning (no byte order stated, so the payload reads as
    /// little-endian), said as what the bytes are when they say more:
    ///
    /// - values that differ in one byte alone are the same bytes as values
    ///   2^k times further apart the other way: only their sizes tell the
    ///   two readings apart (spec 6.1), whatever the score;
    /// - i16 values under an i32 header whose dimensions fit both (10000
    ///   i16 counts under `[5000]` i32, written little-endian): an
    ///   element-width mismatch, not an i32 byte order.
    fn diagnose(&self, f: &mut Finding, score: ByteOrderScore) {
        if let Some((k, stored)) = self.scorer.one_byte_scale().filter(|s| s.0.is_positive()) {
            one_byte_wording(f, self.dtype, score.bits, k, stored);
        }
        if let Some((order, why)) = width::i16_under_i32(&self.head) {
            f.message = format!(
                "the i32 payload reads as little-endian: score {} bits, but far better as {order}-endian i16 values: probably an element-width mismatch, not an i32 byte order ({why}; a statistical test, not a proof)",
                byteorder::bits_str(score.bits)
            );
            f.hint = Some(WIDTH_HINT.into());
        }
    }

    /// Counts NaN and infinite elements. The count tests the exponent bits
    /// of each element read as a little-endian integer (`exp` selects the
    /// exponent's bits in that reading, `abs` every bit but the sign), in
    /// explicit SIMD chosen at run time ([`count_non_finite`]); only the
    /// first chunk holding a non-finite value is looked at element by
    /// element, to locate the first one.
    fn non_finite<const N: usize>(&mut self, bytes: &[u8], start: u64, exp: u64, abs: u64) {
        let (non_finite, inf) = count_non_finite::<N>(self.arch, bytes, exp, abs);
        if non_finite == 0 {
            return;
        }
        self.inf += inf;
        self.nan += non_finite - inf;
        if self.first_non_finite.is_none() {
            self.first_non_finite = bytes
                .chunks_exact(N)
                .position(|c| {
                    let mut w = [0u8; 8];
                    w[..N].copy_from_slice(c);
                    u64::from_le_bytes(w) & exp == exp
                })
                .map(|j| start + j as u64);
        }
    }

    /// Scores the elements of `bytes` (the first is element `first`): all
    /// of them when `sampled`, else non-zero ones while `extra_left` lasts,
    /// skipping runs of zero bytes 64 at a time.
    fn score<const N: usize>(&mut self, bytes: &[u8], first: u64, sampled: bool) {
        let stored = |c: &[u8]| -> [u8; N] {
            let mut e = [0u8; N];
            e.copy_from_slice(c);
            e
        };
        if sampled {
            for (k, c) in bytes.chunks_exact(N).enumerate() {
                if self.scorer.is_full() {
                    // settled at a checkpoint (or every distinct value
                    // scored): no later element is scored
                    return;
                }
                self.scorer.element::<N>(first + k as u64, &stored(c));
            }
            return;
        }
        let per = 64 / N;
        for (j, run) in bytes.chunks(64).enumerate() {
            if self.extra_left == 0 {
                return;
            }
            if run.iter().all(|&b| b == 0) {
                continue;
            }
            for (k, c) in run.chunks_exact(N).enumerate() {
                if c.iter().any(|&b| b != 0) && self.extra_left > 0 {
                    self.extra_left -= 1;
                    self.scorer
                        .element::<N>(first + (j * per + k) as u64, &stored(c));
                }
            }
        }
    }

    /// The byte-order test's score of everything fed (`None` for a
    /// one-byte type).
    pub fn byte_order_score(&self) -> Option<ByteOrderScore> {
        self.scorer.score()
    }

    /// The lint findings for everything fed, the byte-order test's under
    /// the contract of spec 6.1 for the byte order the caller `stated`
    /// ([`byteorder::contract`]).
    pub fn finish(&self, stated: Option<ByteOrder>) -> Vec<Finding> {
        let mut out = Vec::new();
        let size = self.dtype.size() as u64;
        if size == 1 {
            return out;
        }
        if let Some(score) = self.scorer.score() {
            let mut f = byteorder::contract(
                self.dtype,
                self.start,
                self.seen / size * size,
                score,
                stated,
            );
            if let Some(f) = f.as_mut().filter(|_| stated.is_none()) {
                self.diagnose(f, score);
            }
            out.extend(f);
        }
        if let Some(first) = self.first_non_finite {
            out.push(
                Finding::new(
                    Rule::NonFinite,
                    self.start + first * size,
                    size,
                    format!(
                        "the float payload holds {} and {}",
                        count(self.nan, "NaN value"),
                        count(self.inf, "infinite value")
                    ),
                )
                .found(format!(
                    "{} NaN, {} infinite; the first is element {first}",
                    self.nan, self.inf
                )),
            );
        }
        out
    }
}

/// The hint of IDX501's element-width diagnosis ([`PayloadLinter::diagnose`]):
/// the finding that carries it gets no byte swap (`suggest`), in validation
/// and in every reader alike.
pub(crate) const WIDTH_HINT: &str = "i16 elements (type code 0x0b, twice the first dimension) under an i32 header whose dimensions fit both: write the header the elements have (and big-endian elements); an i32 byte swap would garble them";

/// IDX501's finding on a payload whose values scored differ in one byte
/// alone (stored byte `stored`), `k` bits further apart big-endian than
/// little-endian: the message says the sizes of the values alone decide
/// (not "strong evidence"), and the hint how to say the bytes are right.
fn one_byte_wording(f: &mut Finding, dtype: ElementType, bits: f64, k: i32, stored: usize) {
    const ORDINALS: [&str; 8] = [
        "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
    ];
    let factor = 1u64 << k.clamp(0, 63);
    f.message = format!(
        "the {dtype} payload reads as little-endian: score {} bits, from the sizes of its values alone (the values scored differ in their {} byte alone: as unsigned numbers, they are {factor} times further apart read big-endian; a statistical test, not a proof)",
        byteorder::bits_str(bits),
        ORDINALS.get(stored).copied().unwrap_or("one"),
    );
    let rest = f.hint.take().unwrap_or_default();
    f.hint = Some(format!(
        "the bytes cannot tell values written little-endian from values {factor} times further apart (as unsigned numbers) written big-endian (samples shifted into a high byte, fixed point of small integers): if the values are that far apart, the file is correct (idx-validate --assume-byte-order big says so); {rest}"
    ));
}

/// How many `N`-byte elements (`N` is 4 or 8) of `bytes`, read as
/// little-endian integers, have every bit of `exp` set (non-finite), and how
/// many of those have no other bit of `abs` set (infinite). `exp` and `abs`
/// are the exponent and absolute-value masks of a big-endian float read
/// little-endian, so no byte is swapped.
///
/// The loop is written over fixed 64-byte blocks with one counter per lane,
/// which the compiler turns into vector compares; `arch.dispatch` compiles
/// it for the best instruction set the CPU has (AVX2 on x86-64 where
/// present, checked at run time) and runs that version.
pub(crate) fn count_non_finite<const N: usize>(
    arch: pulp::Arch,
    bytes: &[u8],
    exp: u64,
    abs: u64,
) -> (u64, u64) {
    arch.dispatch(NonFinite::<N> { bytes, exp, abs })
}

/// The operation [`count_non_finite`] dispatches.
struct NonFinite<'a, const N: usize> {
    bytes: &'a [u8],
    exp: u64,
    abs: u64,
}

impl<const N: usize> pulp::WithSimd for NonFinite<'_, N> {
    type Output = (u64, u64);

    #[inline(always)]
    fn with_simd<S: pulp::Simd>(self, _simd: S) -> (u64, u64) {
        let NonFinite { bytes, exp, abs } = self;
        let (mut non_finite, mut inf) = (0u64, 0u64);
        // Plain reduction loops, which the compiler vectorises (for the
        // instruction set `dispatch` chose); the counters are u32, so the
        // bytes go in pieces of at most 2^32 (2^30 or 2^29 elements); a
        // 32-bit target's slices are shorter than that already.
        let piece_len = usize::try_from(1u64 << 32).unwrap_or(usize::MAX);
        for piece in bytes.chunks(piece_len) {
            let (mut nf, mut fi) = (0u32, 0u32);
            // Arrays of bytes have alignment 1, so these casts always
            // succeed; the compiler then loads whole vectors of words.
            if N == 4 {
                let (e, a) = (exp as u32, abs as u32);
                let words: &[[u8; 4]] = bytemuck::cast_slice(&piece[..piece.len() / 4 * 4]);
                for &c in words {
                    let w = u32::from_le_bytes(c);
                    nf += u32::from(w & e == e);
                    fi += u32::from(w & a == e);
                }
            } else {
                let words: &[[u8; 8]] = bytemuck::cast_slice(&piece[..piece.len() / 8 * 8]);
                for &c in words {
                    let w = u64::from_le_bytes(c);
                    nf += u32::from(w & exp == exp);
                    fi += u32::from(w & abs == exp);
                }
            }
            non_finite += u64::from(nf);
            inf += u64::from(fi);
        }
        (non_finite, inf)
    }
}

/// Findings for a file name whose MNIST-style words contradict the header
/// bytes (`code` is byte 2, `rank` byte 3; `code` is `None` when byte 2 is
/// not a known type).
pub(crate) fn file_name_findings(
    file_name: &str,
    dtype: Option<ElementType>,
    rank: u8,
) -> Vec<Finding> {
    let mut out = Vec::new();
    let Some(claim) = name_claim(file_name) else {
        return out;
    };
    if let (Some(said), Some(actual)) = (claim.dtype, dtype) {
        if said != actual {
            out.push(
                Finding::new(
                    Rule::FileNameMismatch,
                    2,
                    1,
                    format!(
                        "the file name says {} ({said}) but the header says {actual}",
                        said.mnist_word()
                    ),
                )
                .expected(format!("{:02x} ({said}, from the file name)", said.code()))
                .found(format!("{:02x} ({actual})", actual.code()))
                .hint("rename the file, or check that the writer used the intended element type"),
            );
        }
    }
    if claim.rank != u32::from(rank) {
        out.push(
            Finding::new(
                Rule::FileNameMismatch,
                3,
                1,
                format!(
                    "the file name says idx{} (rank {}) but the header says rank {rank}",
                    claim.rank, claim.rank
                ),
            )
            .expected(format!("rank {} (from the file name)", claim.rank))
            .found(format!("rank {rank}"))
            .hint("rename the file, or check that the writer wrote the intended shape"),
        );
    } else if claim.images && rank < 2 {
        out.push(
            Finding::new(
                Rule::FileNameMismatch,
                3,
                1,
                format!(
                    "the file name says images (at least rank 2: the items, then each item's pixels) but the header says rank {rank}"
                ),
            )
            .expected("rank 2 or more (images, from the file name)")
            .found(format!("rank {rank}"))
            .hint("rename the file (a labels file is named -labels-), or check that the writer kept the items' dimensions"),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::name::NameClaim;
    use super::*;

    #[test]
    fn parses_mnist_names() {
        let c = |n| name_claim(n);
        assert_eq!(
            c("train-images-idx3-ubyte"),
            Some(NameClaim {
                rank: 3,
                dtype: Some(ElementType::U8),
                images: true,
            })
        );
        assert_eq!(
            c("data/t10k-labels.idx1-ubyte.gz"),
            Some(NameClaim {
                rank: 1,
                dtype: Some(ElementType::U8),
                images: false,
            })
        );
        assert_eq!(
            c("x-idx2-double"),
            Some(NameClaim {
                rank: 2,
                dtype: Some(ElementType::F64),
                images: false,
            })
        );
        // a word outside the six claims nothing
        assert_eq!(c("x-idx2-weird"), None);
        assert_eq!(c("x-idx2-uint8"), None);
        assert_eq!(c("images.idx3.bin"), None);
        assert_eq!(
            c("X-IDX2-DOUBLE.GZ"),
            Some(NameClaim {
                rank: 2,
                dtype: Some(ElementType::F64),
                images: false,
            })
        );
        assert_eq!(c("widx3-ubyte"), None);
        assert_eq!(c("images.idx"), None);
        assert_eq!(c("foo.bin"), None);
    }

    /// The SIMD count (on whatever the CPU offers, and on the scalar
    /// fallback) equals a plain element-by-element count, for every length
    /// and alignment, on random bytes salted with NaN, infinities and
    /// near-misses.
    #[test]
    fn non_finite_count_matches_plain_count() {
        fn plain<const N: usize>(bytes: &[u8]) -> (u64, u64) {
            let (mut nf, mut inf) = (0, 0);
            for c in bytes.chunks_exact(N) {
                let (is_nf, is_inf) = if N == 4 {
                    let x = f32::from_be_bytes([c[0], c[1], c[2], c[3]]);
                    (!x.is_finite(), x.is_infinite())
                } else {
                    let mut b = [0u8; 8];
                    b.copy_from_slice(c);
                    let x = f64::from_be_bytes(b);
                    (!x.is_finite(), x.is_infinite())
                };
                nf += u64::from(is_nf);
                inf += u64::from(is_inf);
            }
            (nf, inf)
        }
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut bytes = Vec::new();
        for i in 0..4000usize {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let specials: [&[u8]; 6] = [
                &[0x7f, 0x80, 0, 0],
                &[0xff, 0x80, 0, 0],
                &[0x7f, 0xc0, 0, 1],
                &[0x7f, 0x7f, 0xff, 0xff],
                &[0x7f, 0xf0, 0, 0, 0, 0, 0, 0],
                &[0xff, 0xf8, 0, 0, 0, 0, 0, 1],
            ];
            if i % 7 == 0 {
                bytes.extend_from_slice(specials[(state % 6) as usize]);
            } else {
                bytes.extend_from_slice(&state.to_le_bytes());
            }
        }
        let archs = [pulp::Arch::new(), pulp::Arch::Scalar];
        for arch in archs {
            for skip in 0..8 {
                for len in (0..300).chain([4096, bytes.len() - 8]) {
                    let b = &bytes[skip..skip + len];
                    assert_eq!(
                        count_non_finite::<4>(arch, b, 0x807f, 0xffff_ff7f),
                        plain::<4>(b),
                        "f32 {arch:?} skip {skip} len {len}"
                    );
                    assert_eq!(
                        count_non_finite::<8>(arch, b, 0xf07f, 0xffff_ffff_ffff_ff7f),
                        plain::<8>(b),
                        "f64 {arch:?} skip {skip} len {len}"
                    );
                }
            }
        }
        assert!(plain::<4>(&bytes).0 > 100 && plain::<4>(&bytes).1 > 10);
        assert!(plain::<8>(&bytes).0 > 10 && plain::<8>(&bytes).1 > 10);
    }

    #[test]
    fn linter_is_chunking_invariant() {
        let mut bytes = Vec::new();
        for i in 0..500i32 {
            bytes.extend_from_slice(&(i * 3).to_le_bytes());
        }
        let mut whole = PayloadLinter::new(ElementType::I32, 8, true);
        whole.feed(&bytes);
        for step in [1, 3, 7, 4096] {
            let mut parts = PayloadLinter::new(ElementType::I32, 8, true);
            bytes.chunks(step).for_each(|c| parts.feed(c));
            assert_eq!(parts.finish(None), whole.finish(None), "chunk {step}");
        }
        assert_eq!(whole.finish(None)[0].rule, Rule::LikelyLittleEndian);
    }
}
