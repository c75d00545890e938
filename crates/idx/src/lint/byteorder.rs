//! The byte-order test of IDX501 (spec §10.1): how much more plausible a
//! payload is read little-endian than big-endian, as a score in bits.
//!
//! Each scored element (every non-zero element the sample looks at) is read
//! both ways. For each reading, two features are compared with what random
//! bytes would give:
//!
//! - **magnitude**: integers people store are small for their type (a
//!   scale-free prior: every bit length equally likely, every value of a
//!   bit length equally likely; the type's extremes, common as markers of
//!   missing or saturated values, are as plausible as their byte-swapped
//!   twins 128 and -129, so neither says anything), floats have an exponent near zero (95 % of
//!   them within 2^-32..2^32, the rest anywhere, subnormals included);
//! - **smoothness**: neighbouring values are close (the bit length of an
//!   integer difference, the step of a float exponent, geometrically less
//!   likely as it grows).
//!
//! Each feature gives a log-likelihood ratio against uniform random bytes;
//! their sum over the elements is the evidence `G` for a reading. The score
//! is `G_little - G_big` in bits. Bytes that neither reading explains
//! (random bit patterns) make the per-element terms `d_i` of the score
//! symmetric around 0, so their sum wanders like a random walk; a score
//! counts only when at least [`MIN_ELEMENTS`] elements were scored and the
//! little-endian reading explains the payload better than random bytes
//! (`G_little >= 0`), or the self-normalised statistic
//! `z = sum(d_i) / sqrt(sum(d_i^2))` reaches [`MIN_Z`]. The two features are
//! treated as independent, which overstates the nominal odds when they are
//! correlated; the thresholds are set from measurements
//! (`crates/idx/tests/it/byteorder.rs`, `bench/byteorder.md`), not from the
//! nominal odds.
//!
//! All the per-element terms come from small tables built once per payload,
//! so scoring costs a few table lookups per sampled element.

use crate::dtype::ElementType;
pub use crate::score::{ByteOrderScore, Verdict, CERTAIN_BITS, LIKELY_BITS, MIN_ELEMENTS, MIN_Z};

/// Share of float exponents a real payload keeps within `2^-32..2^32`.
const FLOAT_TYPICAL_SHARE: f64 = 0.95;
/// Unbiased float exponents counted as typical: `-WINDOW..=WINDOW`.
const FLOAT_WINDOW: i64 = 32;
/// Ratio of the geometric law of exponent steps between neighbours.
const STEP_RATIO: f64 = 0.5;
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
    fn new(dtype: ElementType) -> Option<Tables> {
        let ln2 = std::f64::consts::LN_2;
        match dtype {
            ElementType::I16 | ElementType::I32 => {
                let bits = 8 * dtype.size() as u32;
                let b = f64::from(bits);
                // P(v) = 2^-L / bits for |v| of bit length L >= 1 (both
                // signs), against 2^-bits for noise.
                let magnitude: Vec<f64> = (0..=bits)
                    .map(|l| (b - f64::from(l.max(1))) * ln2 - b.ln())
                    .collect();
                // MIN and MAX (0x80.., 0x7f..ff) are the byte-swapped
                // twins of 128 and -129: as plausible as those, so that a
                // marker value and a mid-grey pixel say nothing either way
                let extreme = magnitude[8];
                // P(d) = 2^-L / (bits + 2) for a difference of bit length
                // L >= 1 (both signs; 0 counted as 1), against 2^-bits.
                let smooth = (0..=bits + 1)
                    .map(|l| (b - f64::from(l.max(1))) * ln2 - (b + 2.0).ln())
                    .collect();
                Some(Tables {
                    magnitude,
                    smooth,
                    bits,
                    extreme,
                })
            }
            ElementType::F32 | ElementType::F64 => {
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
                Some(Tables {
                    magnitude,
                    smooth,
                    bits: ebits,
                    extreme: 0.0,
                })
            }
            ElementType::U8 | ElementType::I8 => None,
        }
    }
}

/// One reading's running evidence.
#[derive(Debug, Clone, Copy, Default)]
struct Reading {
    evidence: f64,
    prev: Option<i64>,
}

/// The byte-order test, fed the scored elements in order.
#[derive(Debug, Clone)]
pub(crate) struct Scorer {
    dtype: ElementType,
    tables: Option<Tables>,
    big: Reading,
    little: Reading,
    last_index: Option<u64>,
    elements: u64,
    /// Sum of the squared per-element terms of the score (natural log).
    squares: f64,
}

impl Scorer {
    pub(crate) fn new(dtype: ElementType) -> Scorer {
        Scorer {
            dtype,
            tables: Tables::new(dtype),
            big: Reading::default(),
            little: Reading::default(),
            last_index: None,
            elements: 0,
            squares: 0.0,
        }
    }

    /// Scores element `index` (its bytes as stored, `N` = the type's size);
    /// zero elements say nothing and are skipped.
    #[inline]
    pub(crate) fn element<const N: usize>(&mut self, index: u64, c: &[u8]) {
        let Some(t) = &self.tables else { return };
        let mut be = 0u64;
        for &b in c {
            be = (be << 8) | u64::from(b);
        }
        if be == 0 {
            return;
        }
        let le = be.swap_bytes() >> (64 - 8 * N as u32);
        let neighbour = self
            .last_index
            .is_some_and(|last| index > last && index - last <= MAX_GAP);
        if !neighbour {
            self.big.prev = None;
            self.little.prev = None;
        }
        let float = self.dtype.is_float();
        let before = self.little.evidence - self.big.evidence;
        for (reading, raw) in [(&mut self.big, be), (&mut self.little, le)] {
            let (key, m) = if float {
                let e = (raw >> (8 * N as u32 - 1 - t.bits)) & ((1 << t.bits) - 1);
                (e as i64, t.magnitude[e as usize])
            } else {
                let shift = 64 - 8 * N as u32;
                let v = ((raw << shift) as i64) >> shift;
                let l = 64 - v.unsigned_abs().leading_zeros();
                let max = (1i64 << (8 * N - 1)) - 1;
                if v == max || v == -max - 1 {
                    (v, t.extreme)
                } else {
                    (v, t.magnitude[l as usize])
                }
            };
            let s = match reading.prev {
                None => 0.0,
                Some(p) if float => t.smooth[key.abs_diff(p) as usize],
                Some(p) => {
                    let d = key.wrapping_sub(p).unsigned_abs();
                    t.smooth[(64 - d.leading_zeros()) as usize]
                }
            };
            reading.evidence += m + s;
            reading.prev = Some(key);
        }
        let d = self.little.evidence - self.big.evidence - before;
        self.squares += d * d;
        self.last_index = Some(index);
        self.elements += 1;
    }

    /// The score of everything scored, or `None` for a one-byte type.
    pub(crate) fn score(&self) -> Option<ByteOrderScore> {
        self.tables.as_ref()?;
        let ln2 = std::f64::consts::LN_2;
        let (b, l) = (self.big.evidence / ln2, self.little.evidence / ln2);
        let diff = self.little.evidence - self.big.evidence;
        Some(ByteOrderScore {
            bits: l - b,
            z: if self.squares > 0.0 {
                diff / self.squares.sqrt()
            } else {
                0.0
            },
            big_bits: b,
            little_bits: l,
            elements: self.elements,
        })
    }
}

/// The byte-order test on a whole payload (`bytes`, big-endian as stored,
/// of `dtype`), scoring the same elements as validation does; `None` for a
/// one-byte type.
pub fn score(dtype: ElementType, bytes: &[u8]) -> Option<ByteOrderScore> {
    let mut l = super::PayloadLinter::new(dtype, 0);
    l.feed(bytes);
    l.byte_order_score()
}
