//! The element-width hint (spec §6.5): a payload that is exactly 2, 4 or 8
//! times (or a half, a quarter, an eighth of) the declared size, and whose
//! first bytes decode plausibly at that other width, was probably written
//! with another element type than its header says.

use crate::dtype::ElementType;

/// Share of the non-zero sampled elements that must be plausible.
const PLAUSIBLE_SHARE: f64 = 0.9;
/// Fewest non-zero sampled elements for a verdict on a multi-byte width.
const MIN_NON_ZERO: usize = 4;

/// What the width test found: the hint, and the element type (with its
/// byte order) the payload plausibly holds, when IDX has one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Width {
    /// The hint for the finding.
    pub text: String,
    /// The IDX element type of the width found, when there is one (IDX has
    /// no 64-bit integers) and the payload reads plausibly as it.
    pub dtype: Option<ElementType>,
    /// True when that reading is little-endian.
    pub little: bool,
}

/// The first non-zero words (8 bytes, aligned from the payload's start, so
/// whole elements of every width) of the bytes after the header, payload
/// and trailing bytes alike, up to [`SAMPLE_BYTES`]: what the width test
/// reads, so that a payload that starts with zeros (a sparse one) is still
/// judged on its values.
#[derive(Debug, Clone, Default)]
pub(crate) struct NonZeroWords {
    pub bytes: Vec<u8>,
    carry: [u8; 8],
    carry_len: usize,
}

/// The most sample bytes [`NonZeroWords`] keeps.
pub(crate) const SAMPLE_BYTES: usize = 1024;

impl NonZeroWords {
    /// True once the sample holds all it keeps: no byte fed later is
    /// looked at.
    pub fn is_full(&self) -> bool {
        self.bytes.len() >= SAMPLE_BYTES
    }

    /// Feeds the next bytes after the header.
    pub fn feed(&mut self, mut bytes: &[u8]) {
        while !bytes.is_empty() && self.bytes.len() < SAMPLE_BYTES {
            let take = (8 - self.carry_len).min(bytes.len());
            self.carry[self.carry_len..self.carry_len + take].copy_from_slice(&bytes[..take]);
            self.carry_len += take;
            bytes = &bytes[take..];
            if self.carry_len == 8 {
                if self.carry.iter().any(|&b| b != 0) {
                    self.bytes.extend_from_slice(&self.carry);
                }
                self.carry_len = 0;
                // whole zero words are skipped without copying: 64 bytes
                // at a time first (a test the compiler vectorises: a
                // payload of zeros costs a fraction of its copy), then
                // word by word
                let zero_blocks = bytes
                    .chunks_exact(64)
                    .position(|c| c.iter().fold(0u8, |a, &b| a | b) != 0)
                    .unwrap_or(bytes.len() / 64);
                bytes = &bytes[64 * zero_blocks..];
                while bytes.len() >= 8 && bytes[..8].iter().all(|&b| b == 0) {
                    bytes = &bytes[8..];
                }
            }
        }
    }
}

/// The hint for a payload of `actual` bytes under a header declaring
/// `declared` bytes of `dtype`, `sample` being the payload's first non-zero
/// words ([`NonZeroWords`]); `None` when the sizes are not an exact
/// power-of-two ratio or the other width does not decode plausibly.
pub(crate) fn hint(dtype: ElementType, declared: u64, actual: u64, sample: &[u8]) -> Option<Width> {
    if declared == 0 || actual == 0 {
        return None;
    }
    let size = dtype.size() as u64;
    let (width, ratio) = [
        (2u64, "twice", "half"),
        (4, "4 times", "a quarter of"),
        (8, "8 times", "an eighth of"),
    ]
    .into_iter()
    .find_map(|(k, more, less)| {
        if declared.checked_mul(k) == Some(actual) && size * k <= 8 {
            Some((size * k, more))
        } else if actual.checked_mul(k) == Some(declared) && size % k == 0 {
            Some((size / k, less))
        } else {
            None
        }
    })?;
    let (what, reading, found, little) = plausible(width as usize, sample)?;
    let article = if dtype.name().starts_with('u') {
        "a"
    } else {
        "an"
    };
    let idx_note = if width == 8 && what.starts_with("64-bit integer") {
        " (IDX has no 64-bit integer type: convert them, e.g. to i32 or u8)"
    } else {
        ""
    };
    Some(Width {
        text: format!(
            "the payload is exactly {ratio} the declared size ({actual} bytes for {declared}): {what} written under {article} {} header? Read as {reading}, its first non-zero elements are plausible{idx_note}",
            dtype.name()
        ),
        dtype: found,
        little,
    })
}

/// What `sample` plausibly holds as elements of `width` bytes: a name and
/// the reading (type and byte order) that makes it consistent.
fn plausible(width: usize, sample: &[u8]) -> Option<(String, String, Option<ElementType>, bool)> {
    if width == 1 {
        return Some((
            "u8 values".into(),
            "u8".into(),
            Some(ElementType::U8),
            false,
        ));
    }
    let elements: Vec<&[u8]> = sample
        .chunks_exact(width)
        .filter(|c| c.iter().any(|&b| b != 0))
        .collect();
    if elements.len() < MIN_NON_ZERO {
        return None;
    }
    let share = |ok: &dyn Fn(u64) -> bool, little: bool| -> bool {
        let good = elements
            .iter()
            .filter(|c| {
                let mut v = 0u64;
                for i in 0..width {
                    let b = if little { c[width - 1 - i] } else { c[i] };
                    v = (v << 8) | u64::from(b);
                }
                ok(v)
            })
            .count();
        good as f64 >= PLAUSIBLE_SHARE * elements.len() as f64
    };
    let bits = 8 * width as u32;
    // a float's unbiased exponent within 2^-32..2^32
    let float = |v: u64| -> bool {
        let (mant, mask, bias) = if width == 4 {
            (23, 0xff, 127)
        } else {
            (52, 0x7ff, 1023)
        };
        let e = ((v >> mant) & mask) as i64 - bias;
        (-32..=32).contains(&e)
    };
    // an integer whose upper half is sign extension
    let int = |v: u64| -> bool {
        let shift = 64 - bits;
        let s = ((v << shift) as i64) >> shift;
        s.unsigned_abs() < 1u64 << (bits / 2)
    };
    let order = |little: bool| {
        if little {
            "little-endian"
        } else {
            "big-endian"
        }
    };
    for little in [false, true] {
        if (width == 4 || width == 8) && share(&float, little) {
            let (t, et) = if width == 4 {
                ("f32", ElementType::F32)
            } else {
                ("f64", ElementType::F64)
            };
            return Some((
                format!("{t} values"),
                format!("{} {t}", order(little)),
                Some(et),
                little,
            ));
        }
    }
    for little in [false, true] {
        if share(&int, little) {
            let (what, t, et) = match width {
                2 => ("i16 values", "i16", Some(ElementType::I16)),
                4 => ("i32 values", "i32", Some(ElementType::I32)),
                _ => ("64-bit integers (numpy int64)", "64-bit integers", None),
            };
            return Some((what.into(), format!("{} {t}", order(little)), et, little));
        }
    }
    None
}

/// Whether the first payload bytes `sample` of an i32 file read as i16
/// values (in either byte order) far better than as i32 either way: that
/// order and the scores' evidence against random bytes, in bits.
pub(crate) fn i16_under_i32(sample: &[u8]) -> Option<(&'static str, String)> {
    let whole = &sample[..sample.len() / 4 * 4];
    // a byte column that never changes at either end is a packed pixel's
    // (0x00RRGGBB, an opaque alpha), not half of an i16
    let constant = |k: usize| whole.chunks_exact(4).all(|c| c[k] == whole[k]);
    if whole.is_empty() || constant(0) || constant(3) {
        return None;
    }
    let s16 = crate::lint::byteorder::score(ElementType::I16, whole)?;
    let s32 = crate::lint::byteorder::score(ElementType::I32, whole)?;
    let best32 = s32.big_bits.max(s32.little_bits);
    let (order, best16) = if s16.bits > 0.0 {
        ("little", s16.little_bits)
    } else {
        ("big", s16.big_bits)
    };
    (best16 >= best32 + crate::lint::CERTAIN_BITS).then(|| {
        (
            order,
            format!(
                "read as {order}-endian i16: {} bits against random bytes, as i32 at best {} bits, over its first {} bytes",
                crate::lint::byteorder::bits_str(best16),
                crate::lint::byteorder::bits_str(best32),
                whole.len()
            ),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn be_f64(v: &[f64]) -> Vec<u8> {
        v.iter().flat_map(|x| x.to_be_bytes()).collect()
    }

    #[test]
    fn f64_data_under_an_f32_header() {
        let sample = be_f64(&[0.5, 1.5, 2.25, 3.0, 4.0, 100.0]);
        let h = hint(ElementType::F32, 24, 48, &sample).unwrap().text; // ok: unit test
        assert!(h.contains("exactly twice the declared size"), "{h}");
        assert!(h.contains("f64 values written under an f32 header"), "{h}");
        assert!(h.contains("big-endian f64"), "{h}");
        // (the note on 64-bit integers is for those alone)
        assert!(!h.contains("64-bit integer"), "{h}");
    }

    #[test]
    fn small_negative_i16_values_under_a_u8_header_read_as_i16() {
        let sample: Vec<u8> = [-3i16, 7, -120, 255, -255, 1]
            .iter()
            .flat_map(|v| v.to_be_bytes())
            .collect();
        let w = hint(ElementType::U8, 6, 12, &sample).unwrap(); // ok: unit test
        assert_eq!((w.dtype, w.little), (Some(ElementType::I16), false));
        assert!(
            w.text.contains("i16 values written under a u8 header"),
            "{}",
            w.text
        );
        assert!(w.text.contains("big-endian i16"), "{}", w.text);
    }

    #[test]
    fn an_integer_is_plausible_only_below_half_its_width_in_bits() {
        // 256 = 2^8 is not a plausible i16 (it needs more than half of its
        // 16 bits); read little-endian these elements are 1
        let sample: Vec<u8> = [256i16; 6].iter().flat_map(|v| v.to_be_bytes()).collect();
        let w = hint(ElementType::U8, 6, 12, &sample).unwrap(); // ok: unit test
        assert_eq!((w.dtype, w.little), (Some(ElementType::I16), true));
        // 255 is plausible as it stands
        let sample: Vec<u8> = [255i16; 6].iter().flat_map(|v| v.to_be_bytes()).collect();
        let w = hint(ElementType::U8, 6, 12, &sample).unwrap(); // ok: unit test
        assert_eq!((w.dtype, w.little), (Some(ElementType::I16), false));
    }

    #[test]
    fn four_non_zero_elements_are_enough_for_a_verdict_and_three_are_not() {
        let four = be_f64(&[0.5, 1.5, 2.25, 3.0]);
        let w = hint(ElementType::F32, 16, 32, &four).unwrap(); // ok: unit test
        assert_eq!((w.dtype, w.little), (Some(ElementType::F64), false));
        // zero elements do not count
        let mut three = be_f64(&[0.5, 1.5, 2.25, 0.0]);
        assert_eq!(hint(ElementType::F32, 16, 32, &three), None);
        three.extend(be_f64(&[0.0; 4]));
        assert_eq!(hint(ElementType::F32, 32, 64, &three), None);
    }

    #[test]
    fn int64_labels_under_a_u8_header_little_endian() {
        let sample: Vec<u8> = (0..10i64).flat_map(|v| v.to_le_bytes()).collect();
        let h = hint(ElementType::U8, 10, 80, &sample).unwrap().text; // ok: unit test
        assert!(h.contains("exactly 8 times"), "{h}");
        assert!(h.contains("little-endian 64-bit integers"), "{h}");
        assert!(h.contains("no 64-bit integer type"), "{h}");
    }

    #[test]
    fn no_hint_without_an_exact_ratio_or_plausible_values() {
        let sample = be_f64(&[0.5, 1.5, 2.25, 3.0]);
        assert_eq!(hint(ElementType::F32, 24, 47, &sample), None);
        assert_eq!(hint(ElementType::F32, 0, 48, &sample), None);
        let noise: Vec<u8> = (0..64u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8 | 0x81)
            .collect();
        assert_eq!(hint(ElementType::I16, 32, 64, &noise), None);
    }

    /// The zero words skipped 64 bytes at a time leave the sample as word
    /// by word: the same words, whatever the pieces fed and wherever the
    /// non-zero words lie after runs of zeros.
    #[test]
    fn zero_runs_skipped_in_blocks_leave_the_same_sample() {
        let mut bytes = vec![0u8; 8 * 37];
        bytes.extend_from_slice(&[0, 0, 0, 0, 0, 0, 0, 9]);
        bytes.extend(std::iter::repeat_n(0u8, 8 * 200));
        bytes.extend_from_slice(&[1, 2, 3, 4, 5, 6, 7, 8]);
        bytes.extend(std::iter::repeat_n(0u8, 8 * 8));
        bytes.extend_from_slice(&[7, 0, 0, 0, 0, 0, 0, 0]);
        let mut one = NonZeroWords::default();
        for b in &bytes {
            one.feed(std::slice::from_ref(b));
        }
        let want = [
            [0, 0, 0, 0, 0, 0, 0, 9],
            [1, 2, 3, 4, 5, 6, 7, 8],
            [7, 0, 0, 0, 0, 0, 0, 0],
        ]
        .concat();
        assert_eq!(one.bytes, want);
        for piece in [1usize, 3, 8, 64, 100, 4096] {
            let mut w = NonZeroWords::default();
            for c in bytes.chunks(piece) {
                w.feed(c);
            }
            assert_eq!(w.bytes, want, "pieces of {piece}");
        }
    }

    #[test]
    fn no_width_wider_than_eight_bytes_is_suggested() {
        // f64 twice over and i32 four times over would be 16-byte elements
        let sample = be_f64(&[0.5, 1.5, 2.25, 3.0, 4.0, 100.0, 7.0, 9.5]);
        assert_eq!(hint(ElementType::F64, 32, 64, &sample), None);
        assert_eq!(hint(ElementType::I32, 16, 64, &sample), None);
        // (eight bytes are: f32 twice over reads as f64)
        assert!(hint(ElementType::F32, 32, 64, &sample).is_some());
    }

    #[test]
    fn the_sample_keeps_the_non_zero_words_in_order_and_skips_the_zero_ones() {
        let mut w = NonZeroWords::default();
        // a word with a zero byte counts as non-zero; whole zero words are
        // left out, whether carried or skipped at once
        let mut input = vec![1, 2, 3, 4, 5, 6, 7, 8];
        input.extend([0; 16]);
        input.extend([9, 0, 0, 0, 0, 0, 0, 10]);
        input.extend([11; 8]);
        w.feed(&input[..3]);
        w.feed(&input[3..]);
        w.feed(&[0; 8]);
        w.feed(&[12; 4]);
        let mut want = vec![1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0, 0, 0, 10];
        want.extend([11; 8]);
        assert_eq!(w.bytes, want);
        // (the half word fed last is carried, not kept)
    }

    #[test]
    fn the_sample_stops_at_its_size() {
        let mut w = NonZeroWords::default();
        w.feed(&[7; SAMPLE_BYTES + 64]);
        assert_eq!(w.bytes.len(), SAMPLE_BYTES);
        w.feed(&[7; 8]);
        assert_eq!(w.bytes.len(), SAMPLE_BYTES);
    }

    /// i16 values under an i32 header are diagnosed from a payload whose
    /// every byte column varies; a column that never changes at either end
    /// is a packed pixel's (an opaque alpha), not half of an i16, whatever
    /// the scores say.
    #[test]
    fn i16_under_i32_needs_both_end_columns_to_vary() {
        // both bytes of every i16 value vary
        let counts: Vec<u8> = (0..254u16)
            .flat_map(|i| (300 + 3 * i).to_le_bytes())
            .collect();
        let (order, why) = i16_under_i32(&counts).unwrap(); // ok: unit test
        assert_eq!(order, "little", "{why}");
        // every other value below 256: the last column (little-endian) or
        // the first (big-endian) never changes; each reads far better as
        // i16 than as i32 (by 926 and 1056 bits), and is not diagnosed
        let small = |i: u16| 10 + i / 2;
        let le: Vec<u8> = (0..254u16)
            .flat_map(|i| if i % 2 == 0 { 300 + 3 * i } else { small(i) }.to_le_bytes())
            .collect();
        let be: Vec<u8> = (0..254u16)
            .flat_map(|i| if i % 2 == 1 { 300 + 3 * i } else { small(i) }.to_be_bytes())
            .collect();
        for (what, payload) in [("last", &le), ("first", &be)] {
            let s16 = crate::lint::byteorder::score(ElementType::I16, payload).unwrap(); // ok: unit test
            let s32 = crate::lint::byteorder::score(ElementType::I32, payload).unwrap(); // ok: unit test
            let margin = s16.big_bits.max(s16.little_bits) - s32.big_bits.max(s32.little_bits);
            assert!(margin > 900.0, "{what}: {margin}");
            assert_eq!(i16_under_i32(payload), None, "{what} column constant");
        }
        assert_eq!(i16_under_i32(&[]), None);
    }
}
