//! The outcome of the byte-order test of IDX501 as data: the score, its
//! verdict and the thresholds that decide it (the test itself is
//! [`crate::lint::byteorder`]).

/// Score (bits) from which IDX501 is a warning: the payload is probably
/// little-endian.
///
/// ```
/// use idx::lint::byteorder::{ByteOrderScore, Verdict, CERTAIN_BITS, LIKELY_BITS};
/// let s = |bits: f64| ByteOrderScore { bits, z: 9.0, big_bits: 0.0, little_bits: bits,
///     smoother_big: 0.0, smoother_z: 0.0, elements: 100, left_justified_big: false,
///     left_justified_little: false };
/// assert_eq!(s(LIKELY_BITS - 0.1).verdict(), Verdict::None);
/// assert_eq!(s(LIKELY_BITS).verdict(), Verdict::Likely);
/// assert_eq!(s(CERTAIN_BITS).verdict(), Verdict::Certain);
/// ```
pub const LIKELY_BITS: f64 = 20.0;
/// Score (bits) from which the byte-order test's evidence is strong
/// (IDX501 stays a warning: a statistical test proves nothing).
///
/// ```
/// use idx::lint::byteorder::{score, CERTAIN_BITS};
/// // MNIST-like pixels as i16, written little-endian by mistake
/// let le: Vec<u8> = (0..64i16).map(|i| i * 3 + 1).flat_map(i16::to_le_bytes).collect();
/// assert!(score(idx::ElementType::I16, &le).unwrap().bits >= CERTAIN_BITS);
/// ```
pub const CERTAIN_BITS: f64 = 48.0;
/// Below this many scored elements (distinct non-zero values) the test says
/// nothing: a few random elements reach [`LIKELY_BITS`] too often.
pub const MIN_ELEMENTS: u64 = 8;
/// When the little-endian reading explains the payload no better than
/// random bytes, the score counts only if its self-normalised statistic
/// ([`ByteOrderScore::z`]) reaches this: for bytes that neither reading
/// explains, the per-element terms are symmetric and `P(z >= 5)` is below
/// `exp(-12.5)`.
pub const MIN_Z: f64 = 5.0;

/// A payload that reads smoother big-endian than little-endian by this
/// many bits (`smoother_big`) is never called
/// little-endian: data left-justified in a wider integer (16-bit samples
/// in i32) or floats far from 1 read smaller, or nearer 1, the wrong way,
/// but smooth only the right way.
pub const VETO_BITS: f64 = 20.0;

/// ... when the smoothness says so consistently: its self-normalised
/// statistic ([`ByteOrderScore::smoother_z`]) reaches this. Lower than
/// [`MIN_Z`] on purpose: a veto that fires on noise only costs a detection,
/// never a false error.
pub const VETO_Z: f64 = 3.0;

/// The outcome of the byte-order test on a payload.
///
/// ```
/// use idx::lint::byteorder::score;
/// let be: Vec<u8> = (1..=64i32).flat_map(i32::to_be_bytes).collect();
/// let s = score(idx::ElementType::I32, &be).unwrap();
/// assert!(s.bits < 0.0); // reads better big-endian
/// assert_eq!(s.elements, 64); // distinct non-zero values
/// // the byte-swapped payload scores the mirror image
/// let le: Vec<u8> = (1..=64i32).flat_map(i32::to_le_bytes).collect();
/// assert_eq!(score(idx::ElementType::I32, &le).unwrap().bits, s.mirrored().bits);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ByteOrderScore {
    /// Evidence for the little-endian reading against the big-endian one,
    /// in bits (log2 of a likelihood ratio); negative when the payload reads
    /// better big-endian.
    pub bits: f64,
    /// `bits / sqrt(sum of the squared per-element terms)`: how consistent
    /// the evidence is across elements (at most `sqrt(elements)`).
    pub z: f64,
    /// Evidence (bits) for the big-endian reading against noise.
    pub big_bits: f64,
    /// Evidence (bits) for the little-endian reading against noise.
    pub little_bits: f64,
    /// How many bits smoother the payload reads big-endian than
    /// little-endian, relative to its values (integers: a neighbour step's
    /// bit length against its values'; floats: the exponent steps): a
    /// payload that reads smoother big-endian by 20 bits or more is
    /// not called little-endian, whatever its magnitudes say.
    pub smoother_big: f64,
    /// The self-normalised statistic of [`ByteOrderScore::smoother_big`]
    /// (its sum over the root of its squared terms): how consistent it is.
    pub smoother_z: f64,
    /// Number of elements scored: distinct non-zero values (a value that
    /// repeats is scored once), at most 4,096.
    pub elements: u64,
    /// Integers: the distinct values read big-endian are left-justified
    /// by part of a byte (their lowest bits are zero in every value, not a whole
    /// number of bytes, and differ in a higher byte), and read
    /// little-endian they have more of a hole: bits that are the same in
    /// every value, with bits that differ above and below them. Samples
    /// left-justified by less than a byte (10-bit values `<< 6` in i16,
    /// 12-bit ones `<< 4`) look like that: their zero low bits land in the
    /// middle of every value read the wrong way round. Such a payload is
    /// never called little-endian, however small its values read that way
    /// (the bits themselves say how it was written). Seven agreeing bits
    /// (9-bit samples `<< 7`) count too, from four values (spec 6.1: the
    /// twins of flags with a sign bit look the same, and go undetected).
    pub left_justified_big: bool,
    /// The same, the other way round: left-justified read little-endian,
    /// with a hole read big-endian (the twin of a left-justified payload).
    pub left_justified_little: bool,
}

// The scores are sums of finite table entries: never NaN.
impl Eq for ByteOrderScore {}

impl ByteOrderScore {
    /// The score of the same payload with every element byte-swapped: the
    /// two readings trade places (the test is symmetric: it scores the
    /// same elements, and each reading of one is the other reading of its
    /// swap; except that a payload that reads decisively big-endian on its
    /// first distinct values is settled there, at a checkpoint, while its
    /// swap, which reads little-endian, is scored further).
    pub fn mirrored(&self) -> ByteOrderScore {
        ByteOrderScore {
            bits: -self.bits,
            z: -self.z,
            big_bits: self.little_bits,
            little_bits: self.big_bits,
            elements: self.elements,
            smoother_big: -self.smoother_big,
            smoother_z: -self.smoother_z,
            left_justified_big: self.left_justified_little,
            left_justified_little: self.left_justified_big,
        }
    }

    /// The score as every front end shows it: the bits (`bits`, both
    /// readings', the relative smoothness) to one decimal and the two
    /// statistics (`z`, `smoother_z`) to two, each cut toward zero, so
    /// that a score below a threshold never shows as the threshold
    /// (47.96 bits, short of [`CERTAIN_BITS`], shows as 47.9, not 48.0).
    /// The messages, the JSON and SARIF reports and idxkit's
    /// `Finding.byte_order` all show these numbers; the verdict is the
    /// exact score's.
    ///
    /// ```
    /// use idx::lint::byteorder::{ByteOrderScore, Verdict, CERTAIN_BITS};
    /// let s = ByteOrderScore { bits: 47.96, z: 9.999, big_bits: -1.05, little_bits: 46.91,
    ///     smoother_big: 0.0, smoother_z: 0.0, elements: 100, left_justified_big: false,
    ///     left_justified_little: false };
    /// let shown = s.shown();
    /// assert_eq!((shown.bits, shown.z, shown.big_bits, shown.little_bits), (47.9, 9.99, -1.0, 46.9));
    /// assert!(shown.bits < CERTAIN_BITS && s.verdict() == Verdict::Likely);
    /// ```
    pub fn shown(&self) -> ByteOrderScore {
        ByteOrderScore {
            bits: cut(self.bits, 10.0),
            z: cut(self.z, 100.0),
            big_bits: cut(self.big_bits, 10.0),
            little_bits: cut(self.little_bits, 10.0),
            smoother_big: cut(self.smoother_big, 10.0),
            smoother_z: cut(self.smoother_z, 100.0),
            ..*self
        }
    }

    /// What the score says, by [`LIKELY_BITS`] and [`CERTAIN_BITS`].
    pub fn verdict(&self) -> Verdict {
        if self.elements < MIN_ELEMENTS
            || (self.little_bits < 0.0 && self.z < MIN_Z)
            || (self.smoother_big >= VETO_BITS && self.smoother_z >= VETO_Z)
            || (self.left_justified_big && !self.left_justified_little)
        {
            Verdict::None
        } else if self.bits >= CERTAIN_BITS {
            Verdict::Certain
        } else if self.bits >= LIKELY_BITS {
            Verdict::Likely
        } else {
            Verdict::None
        }
    }
}

/// `x` to `1 / per` (10: one decimal), cut toward zero: how scores are
/// shown ([`ByteOrderScore::shown`]).
pub(crate) fn cut(x: f64, per: f64) -> f64 {
    (x * per).trunc() / per
}

/// The byte-order test's verdict.
///
/// ```
/// use idx::lint::byteorder::{score, Verdict};
/// // a value repeated (a missing-value marker) counts once: too few to judge
/// let marker: Vec<u8> = [i32::MIN; 1000].iter().flat_map(|v| v.to_be_bytes()).collect();
/// assert_eq!(score(idx::ElementType::I32, &marker).unwrap().verdict(), Verdict::None);
/// let le: Vec<u8> = (1..=64i16).flat_map(i16::to_le_bytes).collect();
/// assert_eq!(score(idx::ElementType::I16, &le).unwrap().verdict(), Verdict::Certain);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// The payload is not shown to be little-endian.
    None,
    /// Probably little-endian (weak evidence): IDX501 warns.
    Likely,
    /// Strong evidence of little-endian: IDX501 warns (a statistical test
    /// is no proof; a stated range or a severity override makes an error).
    Certain,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A score that reads certainly little-endian: every guard passes.
    fn certain() -> ByteOrderScore {
        ByteOrderScore {
            bits: CERTAIN_BITS,
            z: 9.0,
            big_bits: -3.0,
            little_bits: 40.0,
            smoother_big: 0.0,
            smoother_z: 0.0,
            elements: 100,
            left_justified_big: false,
            left_justified_little: false,
        }
    }

    #[test]
    fn the_verdict_steps_at_the_likely_and_certain_thresholds() {
        let at = |bits| ByteOrderScore { bits, ..certain() }.verdict();
        assert_eq!(at(CERTAIN_BITS), Verdict::Certain);
        assert_eq!(at(CERTAIN_BITS - 0.5), Verdict::Likely);
        assert_eq!(at(LIKELY_BITS), Verdict::Likely);
        assert_eq!(at(LIKELY_BITS - 0.5), Verdict::None);
        assert_eq!(at(-CERTAIN_BITS), Verdict::None);
    }

    #[test]
    fn too_few_elements_say_nothing_and_the_minimum_is_enough() {
        let with = |elements| {
            ByteOrderScore {
                elements,
                ..certain()
            }
            .verdict()
        };
        assert_eq!(with(MIN_ELEMENTS - 1), Verdict::None);
        assert_eq!(with(0), Verdict::None);
        assert_eq!(with(MIN_ELEMENTS), Verdict::Certain);
        assert_eq!(with(4096), Verdict::Certain);
    }

    #[test]
    fn a_score_no_better_than_noise_counts_only_when_consistent() {
        let with = |little_bits, z| {
            ByteOrderScore {
                little_bits,
                z,
                ..certain()
            }
            .verdict()
        };
        // worse than noise and inconsistent: nothing
        assert_eq!(with(-1.0, MIN_Z - 0.5), Verdict::None);
        // worse than noise but consistent enough
        assert_eq!(with(-1.0, MIN_Z), Verdict::Certain);
        assert_eq!(with(-1.0, 9.0), Verdict::Certain);
        // no worse than noise: the consistency is not asked
        assert_eq!(with(0.0, 1.0), Verdict::Certain);
        assert_eq!(with(10.0, 1.0), Verdict::Certain);
    }

    #[test]
    fn a_payload_smoother_big_endian_is_vetoed_only_when_both_thresholds_are_reached() {
        let with = |smoother_big, smoother_z| {
            ByteOrderScore {
                smoother_big,
                smoother_z,
                ..certain()
            }
            .verdict()
        };
        assert_eq!(with(VETO_BITS, VETO_Z), Verdict::None);
        assert_eq!(with(VETO_BITS + 5.0, VETO_Z + 5.0), Verdict::None);
        assert_eq!(with(VETO_BITS - 0.5, VETO_Z), Verdict::Certain);
        assert_eq!(with(VETO_BITS, VETO_Z - 0.5), Verdict::Certain);
        assert_eq!(with(VETO_BITS, 0.0), Verdict::Certain);
        assert_eq!(with(0.0, VETO_Z + 5.0), Verdict::Certain);
    }

    #[test]
    fn left_justified_big_endian_vetoes_unless_the_twin_is_left_justified_too() {
        let with = |big, little| {
            ByteOrderScore {
                left_justified_big: big,
                left_justified_little: little,
                ..certain()
            }
            .verdict()
        };
        assert_eq!(with(true, false), Verdict::None);
        assert_eq!(with(true, true), Verdict::Certain);
        assert_eq!(with(false, true), Verdict::Certain);
        assert_eq!(with(false, false), Verdict::Certain);
    }

    #[test]
    fn the_shown_score_cuts_every_number_toward_zero_and_keeps_the_rest() {
        let s = ByteOrderScore {
            bits: 47.96,
            z: -9.999,
            big_bits: -1.05,
            little_bits: 46.91,
            smoother_big: 20.09,
            smoother_z: -3.019,
            elements: 77,
            left_justified_big: true,
            left_justified_little: false,
        };
        let shown = ByteOrderScore {
            bits: 47.9,
            z: -9.99,
            big_bits: -1.0,
            little_bits: 46.9,
            smoother_big: 20.0,
            smoother_z: -3.01,
            ..s
        };
        assert_eq!(s.shown(), shown);
        // a score short of a threshold is shown short of it
        assert!(s.shown().bits < CERTAIN_BITS);
        assert_eq!(shown.shown(), shown);
    }

    #[test]
    fn the_mirrored_score_trades_every_reading_for_the_other() {
        let s = ByteOrderScore {
            bits: 30.0,
            z: 6.0,
            big_bits: -2.0,
            little_bits: 28.0,
            smoother_big: -4.0,
            smoother_z: -1.5,
            elements: 77,
            left_justified_big: false,
            left_justified_little: true,
        };
        let m = ByteOrderScore {
            bits: -30.0,
            z: -6.0,
            big_bits: 28.0,
            little_bits: -2.0,
            smoother_big: 4.0,
            smoother_z: 1.5,
            elements: 77,
            left_justified_big: true,
            left_justified_little: false,
        };
        assert_eq!(s.mirrored(), m);
        assert_eq!(m.mirrored(), s);
    }
}
