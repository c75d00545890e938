//! The byte-order test of IDX501 (spec §6.1): how much more plausible a
//! payload is read little-endian than big-endian, as a score in bits.
//!
//! The test is judged by its false positives on the data people store
//! (missing-value markers, saturation, identifiers, hashes, flags,
//! constants...), measured per kind by `crates/idx/benches/byteorder.rs`
//! (`bench/byteorder.md`). Two rules keep a correct big-endian payload from
//! piling up evidence it does not have:
//!
//! - **a value counts once**: only the first occurrence of a bit pattern is
//!   scored (at most 4,096 of them, in a bounded table), so a
//!   marker, a saturated or clipped value or a constant run is one piece of
//!   evidence however often it repeats;
//! - **constant byte columns are set aside**: an integer byte column that
//!   never changes (zero low bytes of samples left-justified in i32, an
//!   opaque alpha channel) reads as small numbers the wrong way round; when
//!   at least two other columns vary, the elements are read without it;
//! - **left-justified values decide**: an integer payload whose
//!   big-endian values all end in the same zero bits (part of a byte: 10-bit
//!   samples `<< 6` in i16, 9-bit ones `<< 7`) while its little-endian
//!   reading has those bits in the middle of every value is never called
//!   little-endian ([`ByteOrderScore::left_justified_big`]);
//! - **smoothness can veto**: a payload that reads smoother big-endian
//!   relative to its values ([`ByteOrderScore::smoother_big`]) is never
//!   called little-endian, whatever its magnitudes say;
//! - **every term is bounded**: each feature is a mixture of what real data
//!   does and "anything at all", so a value or a step that is extreme in one
//!   reading costs at most a few bits; the type's extremes (`MIN`, `MAX`,
//!   markers of missing or saturated values) are as plausible as their
//!   byte-swapped twins 128 and -129, and no step to or from them, or to or
//!   from a subnormal, infinite or NaN float in a reading, is evidence.
//!
//! Each scored element is read both ways. For each reading, two features are
//! compared with what random bytes would give:
//!
//! - **magnitude**: half of the integers people store are small for their
//!   type (a scale-free prior: every bit length equally likely), the other
//!   half anywhere; floats have an exponent near zero (95 % of them within
//!   2^-32..2^32, the rest anywhere);
//! - **smoothness**: neighbouring values are close (integers: half of the
//!   steps scale-free by bit length, half jumps anywhere; floats: the step of
//!   the exponent, geometric, mixed with 5 % of random steps).
//!
//! Each feature gives a log-likelihood ratio against uniform random bytes;
//! their sum over the distinct elements is the evidence `G` for a reading.
//! The score is `G_little - G_big` in bits. Bytes that neither reading
//! explains (random bit patterns) make the per-element terms `d_i` of the
//! score symmetric around 0, so their sum wanders like a random walk; a
//! score counts only when at least 8 distinct elements (`MIN_ELEMENTS`) were
//! scored and the little-endian reading explains the payload better than
//! random bytes (`G_little >= 0`), or the self-normalised statistic
//! `z = sum(d_i) / sqrt(sum(d_i^2))` reaches 5 (`MIN_Z`). The thresholds are
//! set from the benchmark, not from the nominal odds.
//!
//! All the per-element terms come from small tables built once per process,
//! so scoring costs a few table lookups and one probe of the distinct-value
//! table per sampled element; once 4,096 values are scored the
//! rest of the payload is not looked at, nor is it once the values scored
//! at a checkpoint (64, 256 and 1,024 distinct values of floats, 1,024
//! of integers) read decisively big-endian (by 256 bits): the verdict of a correct payload
//! is then settled (no warning), at a fraction of the cost.

use crate::dtype::ElementType;
use crate::edit::ByteOrder;
use crate::finding::Finding;
use crate::rules::{Rule, Severity};
use crate::score::MIN_Z;
pub use crate::score::{ByteOrderScore, Verdict, CERTAIN_BITS, LIKELY_BITS};
use std::sync::OnceLock;

/// Share of float exponents a real payload keeps within `2^-32..2^32`.
const FLOAT_TYPICAL_SHARE: f64 = 0.95;
/// Unbiased float exponents counted as typical: `-WINDOW..=WINDOW`.
const FLOAT_WINDOW: i64 = 32;
/// Ratio of the geometric law of exponent steps between neighbours.
const STEP_RATIO: f64 = 0.5;
/// Share of integers drawn from the scale-free law of magnitudes; the rest
/// are anywhere in the type's range (identifiers, hashes, flags, markers).
const INT_SMALL_SHARE: f64 = 0.5;
/// Share of integer neighbours whose difference follows the scale-free law;
/// the rest are jumps anywhere.
const INT_SMOOTH_SHARE: f64 = 0.5;
/// A neighbour further away than this many elements is not a neighbour.
pub(crate) const MAX_GAP: u64 = 16;

/// Per-type tables of the per-element log-likelihood ratios (natural log).
#[derive(Debug, Clone)]
struct Tables {
    /// Magnitude term by bit length (integers) or exponent field (floats).
    magnitude: Vec<f64>,
    /// Smoothness term by bit length of the difference (integers) or by
    /// exponent step (floats).
    smooth: Vec<f64>,
    /// Bits of an integer, or of a float's exponent field.
    bits: u32,
    /// Magnitude term of an integer type's extremes (`MIN`, `MAX`).
    extreme: f64,
}

impl Tables {
    /// The tables of `dtype`, built once per process (an f64 payload's
    /// take 4,096 logarithms: more than scoring a small payload costs).
    fn of(dtype: ElementType) -> Option<&'static Tables> {
        static FLOATS: [OnceLock<Tables>; 2] = [const { OnceLock::new() }; 2];
        match dtype {
            ElementType::I16 | ElementType::I32 => {
                Some(Tables::of_integers(8 * dtype.size() as u32))
            }
            ElementType::F32 => Some(FLOATS[0].get_or_init(|| Tables::floats(dtype))),
            ElementType::F64 => Some(FLOATS[1].get_or_init(|| Tables::floats(dtype))),
            ElementType::U8 | ElementType::I8 => None,
        }
    }

    /// [`Tables::integers`] of `bits` (a whole number of bytes, at most
    /// 8), built once per process.
    fn of_integers(bits: u32) -> &'static Tables {
        static INTEGERS: [OnceLock<Tables>; 9] = [const { OnceLock::new() }; 9];
        let k = (bits / 8).min(8);
        INTEGERS[k as usize].get_or_init(|| Tables::integers(8 * k))
    }

    /// The tables of `bits`-bit two's-complement integers.
    fn integers(bits: u32) -> Tables {
        let ln2 = std::f64::consts::LN_2;
        {
            {
                let b = f64::from(bits);
                // P(v) = 2^-L / bits for |v| of bit length L >= 1 (both
                // signs), against 2^-bits for noise.
                let magnitude: Vec<f64> = (0..=bits)
                    .map(|l| {
                        let scale_free = ((b - f64::from(l.max(1))) * ln2 - b.ln()).exp();
                        (INT_SMALL_SHARE * scale_free + (1.0 - INT_SMALL_SHARE)).ln()
                    })
                    .collect();
                // MIN and MAX (0x80.., 0x7f..ff) are the byte-swapped
                // twins of 128 and -129: as plausible as those, so that a
                // marker value and a mid-grey pixel say nothing either way
                let extreme = magnitude[8.min(bits as usize)];
                // P(d) = 2^-L / (bits + 2) for a difference of bit length
                // L >= 1 (both signs; 0 counted as 1), against 2^-bits.
                let smooth = (0..=bits + 1)
                    .map(|l| {
                        let scale_free = ((b - f64::from(l.max(1))) * ln2 - (b + 2.0).ln()).exp();
                        (INT_SMOOTH_SHARE * scale_free + (1.0 - INT_SMOOTH_SHARE)).ln()
                    })
                    .collect();
                Tables {
                    magnitude,
                    smooth,
                    bits,
                    extreme,
                }
            }
        }
    }

    /// The tables of a float type's exponent field.
    fn floats(dtype: ElementType) -> Tables {
        {
            {
                let (ebits, bias) = if dtype == ElementType::F32 {
                    (8u32, 127i64)
                } else {
                    (11, 1023)
                };
                let n = 1usize << ebits;
                let uniform = 1.0 / n as f64;
                let window = (2 * FLOAT_WINDOW + 1) as f64;
                let magnitude = (0..n as i64)
                    .map(|e| {
                        let unbiased = e - bias;
                        let typical = if e != 0
                            && e != n as i64 - 1
                            && (-FLOAT_WINDOW..=FLOAT_WINDOW).contains(&unbiased)
                        {
                            FLOAT_TYPICAL_SHARE / window
                        } else {
                            0.0
                        };
                        ((typical + (1.0 - FLOAT_TYPICAL_SHARE) * uniform) / uniform).ln()
                    })
                    .collect();
                // two-sided geometric law of the step, mixed with 5 % noise
                let norm = (1.0 - STEP_RATIO) / (1.0 + STEP_RATIO);
                let smooth = (0..n)
                    .map(|d| {
                        let p = norm * STEP_RATIO.powi(d as i32);
                        ((FLOAT_TYPICAL_SHARE * p + (1.0 - FLOAT_TYPICAL_SHARE) * uniform)
                            / uniform)
                            .ln()
                    })
                    .collect();
                Tables {
                    magnitude,
                    smooth,
                    bits: ebits,
                    extreme: 0.0,
                }
            }
        }
    }
}

/// One distinct value scored: its bit pattern as stored (big-endian) and
/// that of the element before it, when that is its neighbour (at most
/// [`MAX_GAP`] elements back, non-zero; it may be a value seen before).
#[derive(Debug, Clone, Copy)]
struct Entry {
    raw: u64,
    prev: Option<u64>,
}

/// At most this many distinct values are scored; the rest of the payload
/// adds nothing (the score is decided long before).
pub(crate) const MAX_DISTINCT: usize = 4096;
/// Slots of the distinct-value table at most (a power of two, twice
/// [`MAX_DISTINCT`]).
const SLOTS: usize = 2 * MAX_DISTINCT;
/// Slots of the distinct-value table at first (room for the first
/// checkpoint's values, [`STOP_AT`]): it doubles before it would be more
/// than half full, up to [`SLOTS`], so that a payload settled at the first
/// checkpoint clears and probes 1 KiB, not the whole table.
const FIRST_SLOTS: usize = 2 * STOP_AT[0];
// the probe mask (`len - 1`) needs a power of two
const _: () = assert!(SLOTS.is_power_of_two());
const _: () = assert!(FIRST_SLOTS.is_power_of_two());

/// The set of bit patterns already scored: open addressing over a table
/// of at most [`SLOTS`] slots (zero, never scored, marks an empty slot).
#[derive(Debug, Clone)]
struct Seen {
    slots: Vec<u64>,
    len: usize,
}

impl Seen {
    fn new() -> Seen {
        Seen {
            slots: vec![0; FIRST_SLOTS],
            len: 0,
        }
    }

    /// The first slot probed for `v` in a table of `mask + 1` slots.
    fn home(v: u64, mask: usize) -> usize {
        (v.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 32) as usize & mask
    }

    /// Inserts `v` (non-zero); true when it was new and there was room.
    fn insert(&mut self, v: u64) -> bool {
        if self.wants_room() {
            // doubled before a value is added, not after, so that the
            // first checkpoint's values fill the first table
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut i = Seen::home(v, mask);
        loop {
            match self.slots[i] {
                0 if self.len < MAX_DISTINCT => {
                    self.slots[i] = v;
                    self.len += 1;
                    return true;
                }
                0 => return false,
                x if x == v => return false,
                _ => i = (i + 1) & mask,
            }
        }
    }

    /// True when the table is to double before the next value: half full,
    /// and not yet [`SLOTS`]. Doubling sooner or later than this changes
    /// the table's size, not which values it holds.
    fn wants_room(&self) -> bool {
        2 * self.len >= self.slots.len() && self.slots.len() < SLOTS
    }

    /// Doubles the table (the values kept, each in its new place).
    #[cold]
    fn grow(&mut self) {
        let wider = vec![0; 2 * self.slots.len()];
        let old = std::mem::replace(&mut self.slots, wider);
        let mask = self.slots.len() - 1;
        for v in old.into_iter().filter(|&v| v != 0) {
            let mut i = Seen::home(v, mask);
            while self.slots[i] != 0 {
                i = (i + 1) & mask;
            }
            self.slots[i] = v;
        }
    }
}

/// The byte-order test, fed the scored elements in order. It keeps the
/// distinct values (fixed memory: at most [`MAX_DISTINCT`]) and scores them
/// when asked, so that a byte column that never changes can be set aside
/// first (see [`Scorer::score`]).
#[derive(Debug, Clone)]
pub(crate) struct Scorer {
    dtype: ElementType,
    tables: Option<&'static Tables>,
    seen: Option<Seen>,
    entries: Vec<Entry>,
    /// The previous non-zero element: its index and bit pattern.
    prev: Option<(u64, u64)>,
    /// The score at a checkpoint ([`STOP_AT`]) where the distinct values
    /// scored so far read decisively big-endian ([`STOP_BITS`]): nothing
    /// further is scored, and this is the score.
    settled: Option<ByteOrderScore>,
}

/// After each of these counts of distinct values (floats), the values
/// scored so far are scored as a payload: when they read decisively
/// big-endian ([`STOP_BITS`]), the test stops there. A few checkpoints, not
/// one per element: each scores every value so far, so together they cost
/// at most 1,344 value readings more than scoring [`MAX_DISTINCT`] values.
pub(crate) const STOP_AT: [usize; 3] = [64, 256, 1024];

/// The checkpoint of integers: only at 1,024 values, because how an
/// integer is read (the byte columns and low zero bits set aside) is
/// decided over all the values scored, and a few hundred decide it wrongly
/// too often (fixed point, left-justified samples: twins that read
/// decisively big-endian on their first 256 distinct values and
/// little-endian on all of them, `bench/byteorder.md`).
pub(crate) const STOP_AT_INTEGERS: [usize; 1] = [1024];

/// How decisively big-endian the values scored at a checkpoint must read
/// for the test to stop (bits, with `z` at most `-MIN_Z`): far past what
/// the rest of the payload could reverse in the data people store
/// (`bench/byteorder.md`: no control is warned and no twin detected at
/// n >= 64 that was not before, on the generated kinds and the real arrays).
pub(crate) const STOP_BITS: f64 = 256.0;

/// At most this many bits of relative smoothness per neighbour pair: a
/// step that is a tiny fraction of its values says no more than one that
/// is a small one.
const RELATIVE_CAP: u32 = 16;

/// The relative smoothness of neighbours `a` and `b` (integers): how many
/// bits shorter their difference is than the larger of the two.
fn relative(a: i64, b: i64) -> f64 {
    let len = |v: u64| 64 - v.leading_zeros();
    let big = len(a.unsigned_abs().max(b.unsigned_abs()));
    let diff = len(a.wrapping_sub(b).unsigned_abs());
    f64::from(big.saturating_sub(diff).min(RELATIVE_CAP))
}

/// True when the `n`-byte integer `raw` is its type's `MIN` or `MAX` read
/// either way.
#[inline]
fn is_extreme(raw: u64, n: u32) -> bool {
    let max = i64::MAX >> (64 - 8 * n);
    let (be, le) = (signed(raw, n), signed(raw.swap_bytes() >> (64 - 8 * n), n));
    [be, le].iter().any(|&v| v == max || v == -max - 1)
}

/// `bytes` bytes of `v` as a two's-complement integer.
fn signed(v: u64, bytes: u32) -> i64 {
    let shift = 64 - 8 * bytes;
    ((v << shift) as i64) >> shift
}

/// How an integer element is read both ways once the byte columns that
/// never change are set aside: the bytes that do change, in stored order
/// (big-endian) and reversed (little-endian).
#[derive(Debug, Clone)]
struct Columns {
    /// Bit offsets (from the least significant end of the stored pattern)
    /// of the varying bytes, most significant first.
    varying: Vec<u32>,
}

impl Columns {
    /// The columns of `entries` of `n` bytes: every byte column when fewer
    /// than two vary or none is constant (then nothing is set aside: a lone
    /// varying byte is exactly the case that only magnitudes can decide,
    /// `0a 00` being both 10 little-endian and 2560 big-endian).
    fn of(entries: &[Entry], n: u32) -> Columns {
        let first = entries.first().map_or(0, |e| e.raw);
        let differ = entries.iter().fold(0u64, |m, e| m | (e.raw ^ first));
        let all: Vec<u32> = (0..n).rev().map(|k| 8 * k).collect();
        let varying: Vec<u32> = all
            .iter()
            .copied()
            .filter(|&at| (differ >> at) & 0xff != 0)
            .collect();
        if varying.len() >= 2 && varying.len() < all.len() {
            Columns { varying }
        } else {
            Columns { varying: all }
        }
    }

    fn width(&self) -> u32 {
        self.varying.len() as u32
    }

    /// The element read both ways: (big-endian, little-endian).
    fn read(&self, raw: u64) -> (i64, i64) {
        let w = self.width();
        let (mut be, mut le) = (0u64, 0u64);
        for (k, &at) in self.varying.iter().enumerate() {
            let b = (raw >> at) & 0xff;
            be = (be << 8) | b;
            le |= b << (8 * k);
        }
        (signed(be, w), signed(le, w))
    }
}

impl Scorer {
    pub(crate) fn new(dtype: ElementType) -> Scorer {
        let tables = Tables::of(dtype);
        Scorer {
            dtype,
            seen: tables.as_ref().map(|_| Seen::new()),
            tables,
            // room for the values up to the first checkpoint, allocated once
            entries: Vec::with_capacity(if tables.is_some() { STOP_AT[0] } else { 0 }),
            prev: None,
            settled: None,
        }
    }

    /// True once no further element is scored: [`MAX_DISTINCT`] values
    /// were, or a checkpoint found the payload decisively big-endian.
    pub(crate) fn is_full(&self) -> bool {
        self.settled.is_some() || self.seen.as_ref().is_none_or(|s| s.len >= MAX_DISTINCT)
    }

    /// Integers whose distinct values scored differ in one byte alone:
    /// how many bits further apart they read big-endian than little-endian
    /// (`8 * (n - 1 - 2k)` for stored byte `k` of `n`; negative when they
    /// read closer), and `k`. Such a payload is byte for byte another's
    /// byte-swapped twin (`0a 00` is 10 little-endian and 2560 big-endian):
    /// only the sizes of its values tell the two readings apart.
    pub(crate) fn one_byte_scale(&self) -> Option<(i32, usize)> {
        if self.dtype.is_float() {
            return None;
        }
        let first = self.entries.first()?.raw;
        let differ = self.entries.iter().fold(0u64, |m, e| m | (e.raw ^ first));
        let n = self.dtype.size() as i32;
        let mut varying = (0..n).filter(|j| (differ >> (8 * j)) & 0xff != 0);
        // `j` counts bytes from the least significant end of the stored
        // (big-endian) pattern: stored byte `n - 1 - j`
        match (varying.next(), varying.next()) {
            (Some(j), None) => Some((8 * (2 * j - n + 1), (n - 1 - j) as usize)),
            _ => None,
        }
    }

    /// At a checkpoint ([`STOP_AT`]): stops the test when the values scored
    /// so far read decisively big-endian ([`STOP_BITS`]).
    #[cold]
    fn checkpoint(&mut self) {
        self.settled = self
            .score()
            .filter(|s| s.bits <= -STOP_BITS && s.z <= -MIN_Z);
    }

    /// Scores element `index` (its bytes as stored, `N` = the type's size).
    /// Zero elements say nothing and are skipped; an element whose bit
    /// pattern was scored before adds nothing either (it only becomes the
    /// neighbour of the next one), so a repeated value, however often it
    /// repeats, counts once.
    #[inline]
    pub(crate) fn element<const N: usize>(&mut self, index: u64, c: &[u8]) {
        if self.settled.is_some() {
            return;
        }
        let Some(seen) = &mut self.seen else {
            return;
        };
        let mut raw = 0u64;
        for &b in c {
            raw = (raw << 8) | u64::from(b);
        }
        if raw == 0 {
            return;
        }
        let prev = self
            .prev
            .filter(|&(at, _)| index > at && index - at <= MAX_GAP)
            .map(|(_, r)| r);
        self.prev = Some((index, raw));
        if seen.insert(raw) {
            self.entries.push(Entry { raw, prev });
            let stops: &[usize] = if self.dtype.is_float() {
                &STOP_AT
            } else {
                &STOP_AT_INTEGERS
            };
            if stops.contains(&self.entries.len()) {
                self.checkpoint();
            }
        }
    }

    /// The score of everything scored, or `None` for a one-byte type.
    ///
    /// Integers: byte columns that never change across the distinct values
    /// are set aside first when at least two others change (16-bit samples
    /// left-justified in i32, an opaque alpha channel, fixed point of
    /// integers: their constant bytes would read as small numbers the wrong
    /// way); the type's extremes are judged on the whole value.
    pub(crate) fn score(&self) -> Option<ByteOrderScore> {
        if self.settled.is_some() {
            return self.settled;
        }
        let t = self.tables?;
        let n = self.dtype.size() as u32;
        let float = self.dtype.is_float();
        let columns = (!float).then(|| Columns::of(&self.entries, n));
        let compact = columns.as_ref().filter(|c| c.width() < n);
        let t = match compact {
            Some(c) => Tables::of_integers(8 * c.width()),
            None => t,
        };
        // (one loop per kind of reading, each inlined whole: a shared
        // closure was a call per element and per neighbour)
        let (sums, justified) = if float {
            let sums = sum_terms(
                &self.entries,
                &FloatReading {
                    n,
                    t,
                    top: (1i64 << t.bits) - 1,
                },
            );
            (sums, (false, false))
        } else {
            let plain = IntReading {
                n,
                t,
                compact,
                shift: (0, 0),
            };
            let shift = trailing_shifts(&self.entries, &plain);
            let sums = sum_terms(&self.entries, &IntReading { shift, ..plain });
            (sums, left_justified(&self.entries, n))
        };
        let Sums {
            big,
            little,
            squares,
            smoother,
            smoother_squares,
        } = sums;
        let ln2 = std::f64::consts::LN_2;
        let (b, l) = (big / ln2, little / ln2);
        let z = |sum: f64, sq: f64| if sq > 0.0 { sum / sq.sqrt() } else { 0.0 };
        let (left_justified_big, left_justified_little) = justified;
        Some(ByteOrderScore {
            bits: l - b,
            z: z(little - big, squares),
            big_bits: b,
            little_bits: l,
            elements: self.entries.len() as u64,
            smoother_big: smoother,
            smoother_z: z(smoother, smoother_squares),
            left_justified_big,
            left_justified_little,
        })
    }
}

/// The sums [`Scorer::score`] draws the score from (natural log).
#[derive(Debug, Default)]
struct Sums {
    big: f64,
    little: f64,
    squares: f64,
    smoother: f64,
    smoother_squares: f64,
}

/// How the elements of one kind are read both ways.
trait Reading {
    /// The element read both ways: (key, magnitude term) big-endian, then
    /// little-endian.
    fn read(&self, raw: u64) -> ((i64, f64), (i64, f64));
    /// The smoothness terms of element `raw` after its neighbour `p` (keys
    /// `(kb, pb)` big-endian, `(kl, pl)` little-endian) and their relative
    /// smoothness difference in bits, or `None` when they are no
    /// neighbours.
    fn pair(&self, raw: u64, p: u64, b: (i64, i64), l: (i64, i64)) -> Option<(f64, f64, f64)>;
}

/// A float's exponent field.
struct FloatReading<'a> {
    n: u32,
    t: &'a Tables,
    /// The exponent field of infinities and NaN.
    top: i64,
}

impl Reading for FloatReading<'_> {
    #[inline(always)]
    fn read(&self, raw: u64) -> ((i64, f64), (i64, f64)) {
        let (n, t) = (self.n, self.t);
        let le = raw.swap_bytes() >> (64 - 8 * n);
        let exp = |v: u64| {
            let e = (v >> (8 * n - 1 - t.bits)) & ((1 << t.bits) - 1);
            (e as i64, t.magnitude[e as usize])
        };
        (exp(raw), exp(le))
    }

    #[inline(always)]
    fn pair(
        &self,
        _: u64,
        _: u64,
        (kb, pb): (i64, i64),
        (kl, pl): (i64, i64),
    ) -> Option<(f64, f64, f64)> {
        // a subnormal, infinite or NaN element is no neighbour in the
        // reading where it is one
        let special = |k: i64| k == 0 || k == self.top;
        let (mut sb, mut sl) = (0.0, 0.0);
        if !special(kb) && !special(pb) {
            sb = self.t.smooth[kb.abs_diff(pb) as usize];
        }
        if !special(kl) && !special(pl) {
            sl = self.t.smooth[kl.abs_diff(pl) as usize];
        }
        Some((sb, sl, (sb - sl) / std::f64::consts::LN_2))
    }
}

/// An integer, on its varying byte columns when some are set aside.
struct IntReading<'a> {
    n: u32,
    t: &'a Tables,
    compact: Option<&'a Columns>,
    /// Low zero bits set aside in each reading (big-endian, little-endian).
    shift: (u32, u32),
}

/// Share of the distinct values that must end in `k` zero bits for a
/// reading to have them set aside.
const TRAILING_SHARE: f64 = 0.95;

/// The low zero bits that each reading of `entries` shares (samples
/// left-justified by less than a byte, fixed point, times rounded to 128 s):
/// the largest `k < 8` such that at least [`TRAILING_SHARE`] of the
/// non-extreme values end in `k` zero bits, 0 when whole bytes do (a
/// constant byte is the columns' business, and `0a 00` stays ambiguous).
fn trailing_shifts(entries: &[Entry], r: &IntReading<'_>) -> (u32, u32) {
    let mut counts = [[0u32; 9]; 2];
    let mut total = 0u32;
    for e in entries {
        if is_extreme(e.raw, r.n) {
            continue;
        }
        let (b, l) = r.plain(e.raw);
        total += 1;
        for (c, v) in counts.iter_mut().zip([b, l]) {
            let tz = v.trailing_zeros().min(8) as usize;
            for n in &mut c[1..=tz] {
                *n += 1;
            }
        }
    }
    let need = (TRAILING_SHARE * f64::from(total)).ceil() as u32;
    let pick = |c: &[u32; 9]| {
        if total < 8 || c[8] >= need {
            return 0;
        }
        (1..8).rev().find(|&k| c[k] >= need).unwrap_or(0) as u32
    };
    let (sb, sl) = (pick(&counts[0]), pick(&counts[1]));
    // seven low zero bits leave one varying bit in the byte: a sign bit
    // read the wrong way round (flags with the sign bit as a marker) looks
    // the same, so seven are set aside only when, without them, neighbours
    // are close relative to their values (left-justified samples, times,
    // pixels are; flags are not)
    let mut rel = [(0.0f64, 0u32); 2];
    for e in entries {
        let Some(p) = e.prev else { continue };
        if is_extreme(e.raw, r.n) || is_extreme(p, r.n) {
            continue;
        }
        let ((b, l), (pb, pl)) = (r.plain(e.raw), r.plain(p));
        rel[0].0 += relative(b >> sb, pb >> sb);
        rel[0].1 += 1;
        rel[1].0 += relative(l >> sl, pl >> sl);
        rel[1].1 += 1;
    }
    let gate = |s: u32, (sum, n): (f64, u32)| {
        if s > 0 && (s < 7 || (n > 0 && sum / f64::from(n) >= SMOOTH_GATE)) {
            s
        } else {
            0
        }
    };
    (gate(sb, rel[0]), gate(sl, rel[1]))
}

/// Fewest distinct values (neither an extreme nor all ones) whose bits can
/// show them left-justified: with fewer, low bits that are the same in all
/// of them by chance are too likely (the lowest bit of 16 values: `2^-15`).
/// Seven agreeing bits need fewer ([`SEVEN_MIN_VALUES`]).
const JUSTIFIED_MIN_VALUES: usize = 16;

/// Fewest distinct values that show seven agreeing low bits of a byte
/// (`k % 8 == 7`): four values agree on seven bits by chance with
/// probability `2^-21`, below the `2^-15` of [`JUSTIFIED_MIN_VALUES`]. Only
/// seven: a few values that vary little agree on the low bits of the byte
/// that changes slowest (a smooth gradient of RGB565 pixels, whose red
/// field steps the high byte by 8; fixed point over a narrow range), but
/// two values of a byte that agree on seven bits differ by 128 in it, which
/// no narrow range makes: read the other way round, only the top bit of
/// that byte varies (for i16, the sign bit: values `v` and `MIN + v`).
const SEVEN_MIN_VALUES: usize = 4;

/// Whether each reading of the `n`-byte integers `entries` (big-endian,
/// little-endian) is left-justified by part of a byte: the values agree on
/// their lowest `k` bits, which are zero (`k` not a whole number of bytes:
/// whole constant bytes are [`Columns`]' business) and differ in a byte
/// above the one where those bits end. Low bits that agree but are not
/// zero are a field of their own, not the padding of samples shifted left
/// (the twin of RGB565 pixels whose green field hardly varies: its low
/// byte is the red field over the green field's three high bits). Read
/// the other way round, those `k` bits land in the middle of every value,
/// with bits that differ on both sides of them:
/// a hole that integer arrays rarely have (`0x1fc0` stored as `1f c0` is
/// `0xc01f` read little-endian, bits 8 to 13 always zero), so the reading
/// that is left-justified, when it has fewer such bits in the middle of its
/// values than the other (small counts whose high byte never takes some
/// values have a hole of their own), is the one the bits were written in. Real
/// integers vary in their low bits and agree in their high ones (zero or
/// sign bits), or agree in their lowest bits too (left-justified,
/// rounded). The type's extremes and all ones (-1: a missing-value marker,
/// the same either way round) are left out, as markers. The byte above
/// the lowest varying bit must vary too: a varying bit under eight that
/// never do is a field of its own (a flag), not the lowest bit of samples.
///
/// Seven agreeing bits (9-bit samples `<< 7` in i16, 8-bit ones times 128)
/// count as any others do, whether or not neighbours are close: read the
/// other way round they are values of one byte and the sign bit set in some
/// of them, nothing between (`0x8000 + v`), and the rule only keeps the
/// left-justified reading from being called little-endian. Flags with the
/// sign bit as a marker look like that; stored big-endian they are never
/// held back by it (their own reading has the hole), only their twins go
/// undetected, which is what the rule gives up for samples whose neighbours
/// are not close (MNIST's strokes; dim pictures).
fn left_justified(entries: &[Entry], n: u32) -> (bool, bool) {
    let width = 8 * n;
    let ones = u64::MAX >> (64 - width);
    let mut first: Option<u64> = None;
    let (mut differ, mut count) = (0u64, 0usize);
    for e in entries {
        if is_extreme(e.raw, n) || e.raw == ones {
            continue;
        }
        differ |= e.raw ^ *first.get_or_insert(e.raw);
        count += 1;
    }
    // from the lowest bit that differs to the highest: both readings have
    // as many bits that differ (byte reversal reorders them), so the one
    // whose span is wider has more bits between them that never do
    let span = |varying: u64| {
        if varying == 0 {
            return 0;
        }
        64 - varying.leading_zeros() - varying.trailing_zeros()
    };
    let justified = |this: u64, other: u64, value: u64| {
        let k = this.trailing_zeros();
        let enough = if k % 8 == 7 {
            SEVEN_MIN_VALUES
        } else {
            JUSTIFIED_MIN_VALUES
        };
        // the other way round has more of a hole than this way (values that
        // differ in one byte only have the same hole either way: byte
        // reversal keeps the order of the bits in a byte); i32 flags with
        // a sign bit, read the wrong way round, agree on seven bits too,
        // with bits 8 to 23 constant above them
        this != 0
            && k % 8 != 0
            && value.trailing_zeros() >= k
            && this.checked_shr(k + 1).unwrap_or(0) & 0xff != 0
            && count >= enough
            && span(this) < span(other)
    };
    let little = differ.swap_bytes() >> (64 - width);
    let v = first.unwrap_or(0);
    let v_little = v.swap_bytes() >> (64 - width);
    (
        justified(differ, little, v),
        justified(little, differ, v_little),
    )
}

/// Mean relative smoothness (bits) a reading needs to have its low zero
/// bits set aside.
const SMOOTH_GATE: f64 = 2.0;

impl IntReading<'_> {
    /// The element read both ways, before any low bits are set aside.
    #[inline(always)]
    fn plain(&self, raw: u64) -> (i64, i64) {
        let n = self.n;
        match self.compact {
            Some(c) => c.read(raw),
            None => (signed(raw, n), signed(raw.swap_bytes() >> (64 - 8 * n), n)),
        }
    }
}

impl Reading for IntReading<'_> {
    #[inline(always)]
    fn read(&self, raw: u64) -> ((i64, f64), (i64, f64)) {
        let t = self.t;
        let (be, le) = self.plain(raw);
        let (be, le) = (be >> self.shift.0, le >> self.shift.1);
        let ext = is_extreme(raw, self.n);
        let mag = |v: i64| {
            if ext {
                t.extreme
            } else {
                t.magnitude[(64 - v.unsigned_abs().leading_zeros()) as usize]
            }
        };
        ((be, mag(be)), (le, mag(le)))
    }

    #[inline(always)]
    fn pair(
        &self,
        raw: u64,
        p: u64,
        (kb, pb): (i64, i64),
        (kl, pl): (i64, i64),
    ) -> Option<(f64, f64, f64)> {
        // a missing-value marker or a saturated value is nobody's neighbour
        if is_extreme(raw, self.n) || is_extreme(p, self.n) {
            return None;
        }
        let smooth = &self.t.smooth;
        let step = |a: i64, b: i64| {
            let d = a.wrapping_sub(b).unsigned_abs();
            smooth[((64 - d.leading_zeros()) as usize).min(smooth.len() - 1)]
        };
        Some((
            step(kb, pb),
            step(kl, pl),
            relative(kb, pb) - relative(kl, pl),
        ))
    }
}

/// Sums the per-element terms of `entries` under `reading`.
#[inline]
fn sum_terms<R: Reading>(entries: &[Entry], reading: &R) -> Sums {
    let mut s = Sums::default();
    for e in entries {
        let ((kb, mb), (kl, ml)) = reading.read(e.raw);
        let (mut sb, mut sl) = (0.0, 0.0);
        if let Some(p) = e.prev {
            let ((pb, _), (pl, _)) = reading.read(p);
            if let Some((b, l, d)) = reading.pair(e.raw, p, (kb, pb), (kl, pl)) {
                (sb, sl) = (b, l);
                s.smoother += d;
                s.smoother_squares += d * d;
            }
        }
        s.big += mb + sb;
        s.little += ml + sl;
        let d = (ml + sl) - (mb + sb);
        s.squares += d * d;
    }
    s
}

/// The byte-order test on a whole payload (`bytes`, big-endian as stored,
/// of `dtype`), scoring the same elements as validation does; `None` for a
/// one-byte type.
///
/// ```
/// use idx::lint::byteorder::{score, Verdict};
/// use idx::ElementType;
/// let le: Vec<u8> = (1..=64i16).flat_map(i16::to_le_bytes).collect();
/// assert_eq!(score(ElementType::I16, &le).unwrap().verdict(), Verdict::Certain);
/// let be: Vec<u8> = (1..=64i16).flat_map(i16::to_be_bytes).collect();
/// assert_eq!(score(ElementType::I16, &be).unwrap().verdict(), Verdict::None);
/// assert!(score(ElementType::U8, &[1, 2, 3]).is_none()); // bytes have no order
/// ```
pub fn score(dtype: ElementType, bytes: &[u8]) -> Option<ByteOrderScore> {
    let mut l = super::PayloadLinter::new(dtype, 0, false);
    l.feed(bytes);
    l.byte_order_score()
}

/// A score in bits for a message, as [`ByteOrderScore::shown`] shows it:
/// one decimal, cut toward zero, so that a score below a threshold never
/// prints as the threshold (47.96 is "47.9", below "certain from 48 bits"),
/// and the message and the JSON report give the same number.
pub(crate) fn bits_str(bits: f64) -> String {
    format!("{:.1}", crate::score::cut(bits, 10.0))
}

/// The one verdict of spec 6.1 on a payload of `dtype` (`len` bytes from
/// `start`) whose byte-order test gave `score`, when the caller `stated`
/// its byte order or not: the IDX501 finding every front end reports, or
/// none. Validation and every reader decide through this function, so they
/// report the same finding.
///
/// The test is statistical, so its finding is a warning, never an error
/// (an error is what the bytes prove; a stated value range proves the
/// order exactly, `lint::range`); a user makes it fail with a severity
/// override:
///
/// - nothing stated: a warning when the payload reads little-endian
///   (likely from [`LIKELY_BITS`], strong from [`CERTAIN_BITS`]);
/// - `Big` stated: the caller vouches for the bytes; nothing is reported;
/// - `Little` stated: the payload is decoded as little-endian, with a
///   warning when it reads big-endian beyond [`CERTAIN_BITS`] (the
///   statement is probably wrong), and a note (severity info, which no
///   override changes) when the payload barely distinguishes the two
///   orders (no verdict either way short of that warning): the statement
///   alone decides, and the note gives the score.
pub(crate) fn contract(
    dtype: ElementType,
    start: u64,
    len: u64,
    score: ByteOrderScore,
    stated: Option<ByteOrder>,
) -> Option<Finding> {
    let t = dtype.name();
    // numpy's letter and size (`i2`), the byte order written before it
    let np = &dtype.numpy_dtype(ByteOrder::Big)[1..];
    let found = |s: &ByteOrderScore| {
        format!(
            "{} scored; against random bytes, read big-endian: {} bits, read little-endian: {} bits",
            idx_text::plural::count(s.elements, "distinct non-zero element"),
            bits_str(s.big_bits),
            bits_str(s.little_bits)
        )
    };
    match stated {
        Some(ByteOrder::Big) => None,
        Some(ByteOrder::Little) => {
            let mirrored = score.mirrored();
            if mirrored.verdict() == Verdict::Certain {
                return Some(
                    Finding::new(
                        Rule::LikelyLittleEndian,
                        start,
                        len,
                        format!(
                            "the {t} payload was stated little-endian, but a statistical test reads it as big-endian: score {} bits",
                            bits_str(score.bits)
                        ),
                    )
                    .with_severity(Severity::Warning)
                    .with_byte_order(score)
                    .expected(format!("little-endian {t} data, as stated"))
                    .found(found(&score))
                    .hint("the payload reads as big-endian, as IDX requires: if so, read it without stating a byte order (or state big)"),
                );
            }
            // neither order is what the test would report: the statement
            // alone decides, and the note says so (the test's warning
            // would have needed a clear score either way)
            (score.verdict() == Verdict::None).then(|| {
                Finding::new(
                    Rule::LikelyLittleEndian,
                    start,
                    len,
                    format!(
                        "the {t} payload barely distinguishes the byte orders (score {} bits); the stated order, little-endian, is used",
                        bits_str(score.bits)
                    ),
                )
                .with_severity(Severity::Info)
                .with_byte_order(score)
                .expected(format!("little-endian {t} data, as stated"))
                .found(found(&score))
                .hint("the bytes read about as plausibly either way: only the statement says how they were written")
            })
        }
        None => {
            let how = match score.verdict() {
                Verdict::None => return None,
                Verdict::Likely => format!(
                    "weak evidence: likely from {LIKELY_BITS} bits, strong from {CERTAIN_BITS}"
                ),
                Verdict::Certain => format!("strong evidence: from {CERTAIN_BITS} bits"),
            };
            Some(
                Finding::new(
                    Rule::LikelyLittleEndian,
                    start,
                    len,
                    format!(
                        "the {t} payload reads as little-endian: score {} bits ({how}; a statistical test, not a proof)",
                        bits_str(score.bits)
                    ),
                )
                .with_severity(Severity::Warning)
                .with_byte_order(score)
                .expected(format!("big-endian {t} data"))
                .found(found(&score))
                .hint(format!(
                    "if the writer wrote native little-endian values (e.g. numpy '<{np}' or tofile() on x86), write big-endian ('>{np}') or byte-swap; a known value range proves the order (idx-validate --expect-range LO..HI); idx-validate --severity IDX501=error fails a run on this finding"
                )),
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Scorer;

    /// The scale of payloads whose values differ in one byte alone: the
    /// bits further apart they read big-endian than little-endian.
    #[test]
    fn one_byte_scale_is_the_shift_between_the_two_readings() {
        let scale = |dtype: ElementType, values: &[Vec<u8>]| {
            let mut s = Scorer::new(dtype);
            for (i, v) in values.iter().enumerate() {
                match v.len() {
                    2 => s.element::<2>(i as u64, v),
                    4 => s.element::<4>(i as u64, v),
                    _ => s.element::<8>(i as u64, v),
                }
            }
            s.one_byte_scale()
        };
        let each = |f: &dyn Fn(u8) -> Vec<u8>| (1..=20u8).map(f).collect::<Vec<_>>();
        assert_eq!(
            scale(ElementType::I16, &each(&|v| vec![v, 0])),
            Some((8, 0))
        );
        assert_eq!(
            scale(ElementType::I16, &each(&|v| vec![0, v])),
            Some((-8, 1))
        );
        assert_eq!(
            scale(ElementType::I32, &each(&|v| vec![v, 0, 0, 0])),
            Some((24, 0))
        );
        assert_eq!(
            scale(ElementType::I32, &each(&|v| vec![0, v, 0, 0])),
            Some((8, 1))
        );
        assert_eq!(
            scale(ElementType::I32, &each(&|v| vec![7, 7, v, 7])),
            Some((-8, 2))
        );
        assert_eq!(
            scale(ElementType::I32, &each(&|v| vec![0, 0, 0, v])),
            Some((-24, 3))
        );
        // two bytes vary: none
        assert_eq!(scale(ElementType::I16, &each(&|v| vec![v, v / 2])), None);
        assert_eq!(
            scale(ElementType::I32, &each(&|v| vec![v, 0, 0, 1 + v % 2])),
            None
        );
        // floats, and nothing scored: none
        assert_eq!(scale(ElementType::F32, &each(&|v| vec![v, 0, 0, 0])), None);
        assert_eq!(scale(ElementType::I16, &[]), None);
    }

    use super::{left_justified, score, ElementType, Entry, Verdict, MAX_DISTINCT};

    /// The i16 values `v` as scored entries (no neighbours: the rule reads
    /// bits only).
    fn entries(v: &[u16]) -> Vec<Entry> {
        v.iter()
            .map(|&x| Entry {
                raw: u64::from(x),
                prev: None,
            })
            .collect()
    }

    /// `n` distinct values of at most 10 bits, left-justified by `k` in
    /// i16.
    fn shifted(n: u16, k: u32) -> Vec<u16> {
        (1..=n).map(|i| (i * 37 % 1000 + 1) << k).collect()
    }

    #[test]
    fn sixteen_values_left_justified_by_part_of_a_byte_decide() {
        for k in [4, 6] {
            let v = shifted(16, k);
            assert_eq!(left_justified(&entries(&v), 2), (true, false), "<< {k}");
            // the other way round: the same bytes reversed
            let swapped: Vec<u16> = v.iter().map(|x| x.swap_bytes()).collect();
            let got = left_justified(&entries(&swapped), 2);
            assert_eq!(got, (false, true), "<< {k}, swapped");
            // fifteen could agree on a low bit by chance: nothing is decided
            let got = left_justified(&entries(&v[..15]), 2);
            assert_eq!(got, (false, false), "<< {k}, fifteen");
        }
    }

    #[test]
    fn i32_values_left_justified_by_twelve_bits_decide() {
        // 20-bit values `<< 12`: the low byte and half the next agree
        let v: Vec<Entry> = (1..=32u64)
            .map(|i| Entry {
                raw: (i * 30_011 % 1_000_000 + 1) << 12,
                prev: None,
            })
            .collect();
        assert_eq!(left_justified(&v, 4), (true, false));
        let swapped: Vec<Entry> = v
            .iter()
            .map(|e| Entry {
                raw: u64::from((e.raw as u32).swap_bytes()),
                prev: None,
            })
            .collect();
        assert_eq!(left_justified(&swapped, 4), (false, true));
    }

    #[test]
    fn low_bits_that_agree_but_are_not_zero_are_no_left_justification() {
        // values whose low three bits are `010` in every one of them (a
        // narrow field at the bottom of a byte: the twin of RGB565 pixels
        // whose green field hardly varies) were not shifted left: only zero
        // low bits are the padding of left-justified samples
        let v: Vec<u16> = shifted(16, 3).iter().map(|x| x | 0b010).collect();
        assert_eq!(left_justified(&entries(&v), 2), (false, false));
        let swapped: Vec<u16> = v.iter().map(|x| x.swap_bytes()).collect();
        assert_eq!(left_justified(&entries(&swapped), 2), (false, false));
        // the same values with those bits zero are left-justified
        let z: Vec<u16> = shifted(16, 3);
        assert_eq!(left_justified(&entries(&z), 2), (true, false));
        // a first value with exactly those three zero bits (bit 3 set)
        let mut exact = vec![1u16 << 3];
        exact.extend(shifted(16, 3));
        assert_eq!(left_justified(&entries(&exact), 2), (true, false));
    }

    #[test]
    fn values_that_differ_in_one_byte_only_are_left_justified_neither_way() {
        // bits 3 to 7 of the low byte vary, nothing else: read either way
        // round the varying bits span the same width (byte reversal keeps
        // the order of the bits in a byte), so neither reading has more of
        // a hole than the other, whatever the byte above holds
        for high in [0u16, 0x0100, 0x7f00] {
            let v: Vec<u16> = (1..=31u16).map(|x| high | (x << 3)).collect();
            assert_eq!(
                left_justified(&entries(&v), 2),
                (false, false),
                "high byte {high:#06x}"
            );
        }
    }

    #[test]
    fn markers_are_left_out() {
        // -1 and the type's extremes have every bit set or clear in some
        // reading: with them the values would agree on no low bit
        let mut v = shifted(16, 6);
        v.extend([0xffff, 0x7fff, 0x8000]);
        assert_eq!(left_justified(&entries(&v), 2), (true, false));
    }

    #[test]
    fn seven_agreeing_bits_decide_from_four_values() {
        for n in [4, 8, 16] {
            let v = shifted(n, 7);
            assert_eq!(left_justified(&entries(&v), 2), (true, false), "{n}");
            let swapped: Vec<u16> = v.iter().map(|x| x.swap_bytes()).collect();
            let got = left_justified(&entries(&swapped), 2);
            assert_eq!(got, (false, true), "{n}, swapped");
        }
        // three could agree by chance (`2^-14`)
        let v = shifted(3, 7);
        assert_eq!(left_justified(&entries(&v), 2), (false, false));
        // fewer agreeing bits still need sixteen values: a few values that
        // vary little agree on the low bits of their slowest byte
        for k in [1, 3, 6] {
            let v = shifted(8, k);
            assert_eq!(left_justified(&entries(&v), 2), (false, false), "<< {k}");
        }
    }

    #[test]
    fn a_lone_varying_bit_below_a_constant_byte_is_no_sample() {
        // i32 flags in the low byte with the sign bit as a marker, read
        // the wrong way round: bit 7 (the sign bit) and the top byte vary,
        // bits 8 to 23 never do; seven agreeing bits, but bit 7 is a field
        // of its own, not the lowest bit of left-justified samples
        let flags: Vec<u32> = (1..=32u32)
            .map(|i| (i * 37 % 255 + 1) | if i % 3 == 0 { 1 << 31 } else { 0 })
            .collect();
        let twin: Vec<Entry> = flags
            .iter()
            .map(|&v| Entry {
                raw: u64::from(v.swap_bytes()),
                prev: None,
            })
            .collect();
        assert_eq!(left_justified(&twin, 4), (false, false));
        let le: Vec<u8> = flags.iter().flat_map(|v| v.to_le_bytes()).collect();
        let t = score(ElementType::I32, &le).unwrap(); // ok: unit test
        assert_ne!(t.verdict(), Verdict::None, "{t:?}");
        // samples left-justified by seven bits in i32 (`<< 7`): the byte
        // above bit 7 varies, and they decide
        let samples: Vec<Entry> = (1..=32u64)
            .map(|i| Entry {
                raw: (i * 7_919 % 100_000 + 1) << 7,
                prev: None,
            })
            .collect();
        assert_eq!(left_justified(&samples, 4), (true, false));
    }

    /// 8-bit pixels with sharp edges (each value anywhere in 1..=255, as
    /// at the edges of MNIST's strokes) times 128 in i16: the values
    /// without their seven zero bits are not close to their neighbours,
    /// and read little-endian they are small numbers, half of them with
    /// the sign bit set (`0x8000 + v`). The seven agreeing bits alone keep
    /// them from being called little-endian; their twin is not held back.
    #[test]
    fn pixels_times_128_with_sharp_edges_are_not_called_little_endian() {
        let mut x = 12_345u32;
        let g: Vec<i16> = (0..600)
            .map(|_| {
                x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                1 + ((x >> 16) % 255) as i16
            })
            .collect();
        let be: Vec<u8> = g.iter().flat_map(|v| (v * 128).to_be_bytes()).collect();
        let s = score(ElementType::I16, &be).unwrap(); // ok: unit test
        assert_eq!(s.verdict(), Verdict::None, "{s:?}");
        assert!(s.left_justified_big && !s.left_justified_little, "{s:?}");
        let le: Vec<u8> = g.iter().flat_map(|v| (v * 128).to_le_bytes()).collect();
        let t = score(ElementType::I16, &le).unwrap(); // ok: unit test
        assert!(!t.left_justified_big && t.left_justified_little, "{t:?}");
    }

    #[test]
    fn values_that_vary_in_one_byte_only_decide_nothing() {
        // bits 5 to 7 vary, nothing above: `20 00` and `00 20` are as
        // plausible as each other (none of these is an extreme either way)
        let v: Vec<u16> = (0..16).map(|i| (2 * (i % 4) + 1) << 5).collect();
        assert_eq!(left_justified(&entries(&v), 2), (false, false));
    }

    /// A payload whose sampled elements stop one block short of
    /// [`MAX_DISTINCT`] distinct values and whose elements outside the
    /// samples (the extra non-zero ones, scored one by one) bring more
    /// than the rest: the 4,096th distinct value is the last one scored.
    #[test]
    fn no_more_than_max_distinct_values_are_scored() {
        use crate::lint::{EXTRA_ELEMENTS, SAMPLE_BLOCK, SAMPLE_LEN};
        let blocks = MAX_DISTINCT as u64 / SAMPLE_LEN - 1;
        let mut v = vec![0i16; (blocks * SAMPLE_BLOCK) as usize];
        let mut next = 0i16;
        let mut fill = |at: u64, len: u64| {
            for x in &mut v[at as usize..(at + len) as usize] {
                next += 1;
                *x = next;
            }
        };
        for b in 0..blocks {
            fill(b * SAMPLE_BLOCK, SAMPLE_LEN);
        }
        // the last sampled block's extra elements: 768 past the 4,096th
        fill((blocks - 1) * SAMPLE_BLOCK + SAMPLE_LEN, EXTRA_ELEMENTS);
        assert!(next as usize > MAX_DISTINCT);
        // stored little-endian, so no checkpoint settles the test early
        let le: Vec<u8> = v.iter().flat_map(|x| x.to_le_bytes()).collect();
        let s = score(ElementType::I16, &le).unwrap(); // ok: unit test
        assert_eq!(s.elements, MAX_DISTINCT as u64, "{s:?}");
    }

    #[test]
    fn a_reading_with_more_of_a_hole_of_its_own_is_not_held_back() {
        // small counts whose high byte is 0 or 2, never 1: big-endian, bit
        // 8 is the same in every value between varying bits (a hole of one
        // bit); read little-endian they look left-justified by one bit, with
        // six constant bits in their middle: that reading is not favoured
        let v: Vec<u16> = (1..=40)
            .map(|i| if i % 2 == 0 { i } else { 0x200 | i })
            .collect();
        assert_eq!(left_justified(&entries(&v), 2), (false, false));
    }
}
