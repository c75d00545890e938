//! The exact half of the byte-order question (spec 6.1): when the user
//! states the range every value lies in (`--expect-range`, `--classes`), a
//! payload whose big-endian reading leaves the range while its
//! little-endian reading stays inside is proved little-endian. No
//! statistics: one element out of range in the stored order, and every
//! element inside in the other, is the proof.

use crate::carry::Carry;
use crate::dtype::ElementType;
use crate::finding::Finding;
use crate::rules::{Rule, Severity};

/// One pass over an integer payload (i16 or i32, big-endian as stored),
/// fed in chunks of any size.
#[derive(Debug, Clone)]
pub(crate) struct RangeScan {
    dtype: ElementType,
    start: u64,
    lo: i64,
    hi: i64,
    carry: Carry,
    elements: u64,
    /// The first element whose big-endian reading is outside the range:
    /// (index, big-endian value, little-endian value).
    first_out: Option<(u64, i64, i64)>,
    /// Whether every little-endian reading so far is inside the range.
    little_inside: bool,
}

impl RangeScan {
    /// A scan of a payload of `dtype` starting at byte `start` against
    /// `lo..=hi`; `None` for a type the proof does not apply to (bytes have
    /// no order; floats are left to the statistical test).
    pub(crate) fn new(dtype: ElementType, start: u64, (lo, hi): (i64, i64)) -> Option<Self> {
        matches!(dtype, ElementType::I16 | ElementType::I32).then_some(RangeScan {
            dtype,
            start,
            lo,
            hi,
            carry: Carry::default(),
            elements: 0,
            first_out: None,
            little_inside: true,
        })
    }

    /// Whether the outcome is decided whatever comes next (a little-endian
    /// reading left the range: nothing is proved).
    pub(crate) fn done(&self) -> bool {
        !self.little_inside
    }

    fn element(&mut self, c: &[u8]) {
        let (be, le) = match *c {
            [a, b] => (
                i64::from(i16::from_be_bytes([a, b])),
                i64::from(i16::from_le_bytes([a, b])),
            ),
            [a, b, c, d] => (
                i64::from(i32::from_be_bytes([a, b, c, d])),
                i64::from(i32::from_le_bytes([a, b, c, d])),
            ),
            _ => return,
        };
        let inside = |v: i64| (self.lo..=self.hi).contains(&v);
        if self.first_out.is_none() && !inside(be) {
            self.first_out = Some((self.elements, be, le));
        }
        if !inside(le) {
            self.little_inside = false;
        }
        self.elements += 1;
    }

    /// Feeds the next payload bytes.
    pub(crate) fn feed(&mut self, bytes: &[u8]) {
        let size = self.dtype.size();
        if self.done() {
            return;
        }
        let (first, whole) = self.carry.split(size, bytes);
        if let Some(e) = first {
            self.element(&e[..size]);
        }
        for c in whole.chunks_exact(size) {
            if self.done() {
                return;
            }
            self.element(c);
        }
    }

    /// The proof, when the whole payload was fed: an IDX501 error.
    pub(crate) fn finish(&self) -> Option<Finding> {
        let (i, be, le) = self.first_out?;
        if !self.little_inside {
            return None;
        }
        let size = self.dtype.size() as u64;
        let t = self.dtype.name();
        let (lo, hi) = (self.lo, self.hi);
        Some(
            Finding::new(
                Rule::LikelyLittleEndian,
                self.start + i * size,
                size,
                format!(
                    "the {t} payload is little-endian: element {i} reads {be} big-endian, outside the stated range {lo}..{hi}, and every element read little-endian is inside it (element {i}: {le})"
                ),
            )
            .with_severity(Severity::Error)
            .expected(format!("big-endian {t} values in {lo}..{hi}"))
            .found(format!(
                "element {i}: {be} read big-endian, {le} read little-endian; all {} elements are in {lo}..{hi} read little-endian",
                self.elements
            ))
            .hint("the writer wrote native little-endian values: write big-endian or byte-swap (idx-validate --fix swaps the payload: the stated range makes the repair safe)"),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scan(dtype: ElementType, bytes: &[u8], range: (i64, i64), chunk: usize) -> Option<Finding> {
        let mut s = RangeScan::new(dtype, 8, range).unwrap(); // ok: unit test, integer type
        for c in bytes.chunks(chunk) {
            s.feed(c);
        }
        s.finish()
    }

    #[test]
    fn little_endian_labels_are_proved_and_big_endian_ones_are_not() {
        let le: Vec<u8> = [0i32, 1, 9, 3]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        let be: Vec<u8> = [0i32, 1, 9, 3]
            .iter()
            .flat_map(|v| v.to_be_bytes())
            .collect();
        for chunk in [1, 3, 4, 16] {
            let f = scan(ElementType::I32, &le, (0, 9), chunk).unwrap(); // ok: unit test
            assert_eq!((f.severity, f.offset, f.length), (Severity::Error, 12, 4));
            assert!(
                f.message.contains("element 1 reads 16777216 big-endian"),
                "{}",
                f.message
            );
            assert_eq!(scan(ElementType::I32, &be, (0, 9), chunk), None);
        }
        // out of range both ways: no proof of the byte order
        let both: Vec<u8> = [0i16, 1, 300]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        assert_eq!(scan(ElementType::I16, &both, (0, 9), 2), None);
        assert!(RangeScan::new(ElementType::F32, 0, (0, 1)).is_none());
    }
}
