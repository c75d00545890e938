//! Fixes as data: what a repair changes ([`Edit`]s, in stream offsets), how
//! certain it is ([`Applicability`]), and which rules' findings carry one.

use crate::rules::Rule;
use std::fmt;

/// Whether a fix is certain to restore the intended array.
///
/// ```
/// use idx::Applicability;
///
/// // u8 [3] whose dimension was written little-endian (03 00 00 00): the
/// // three payload bytes prove the byte-swapped value, a certain fix
/// let bytes = [0, 0, 0x08, 1, 3, 0, 0, 0, 1, 2, 3];
/// let fix = idx::validate(&bytes).findings[0].fix.clone().unwrap();
/// assert_eq!(fix.applicability, Applicability::Safe);
/// assert_eq!(Applicability::Unsafe.as_str(), "unsafe");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Applicability {
    /// The intended array is certain (a length proof): applied by `--fix`.
    Safe,
    /// The tool is guessing: applied only with `--unsafe-fixes`.
    Unsafe,
}

impl Applicability {
    /// `safe` or `unsafe`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Applicability::Safe => "safe",
            Applicability::Unsafe => "unsafe",
        }
    }
}

impl fmt::Display for Applicability {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The byte order a writer used for multi-byte elements.
///
/// ```
/// use idx::ByteOrder;
///
/// assert_eq!(ByteOrder::from_name("little"), Some(ByteOrder::Little));
/// assert_eq!(ByteOrder::Big.as_str(), "big");
/// // i16 [3] written little-endian (1, 2, 3): read as such when the caller says so
/// let bytes = [0, 0, 0x0b, 1, 0, 0, 0, 3, 1, 0, 2, 0, 3, 0];
/// let opts = idx::ReadOptions::default().with_byte_order(Some(ByteOrder::Little));
/// let (a, _warnings) = idx::Reader::new(&bytes[..], &opts)?.read_array()?;
/// assert_eq!(a.data(), &idx::Data::I16(vec![1, 2, 3]));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ByteOrder {
    /// Least significant byte first (x86 native; numpy `tofile` on x86).
    Little,
    /// Most significant byte first (what IDX requires).
    Big,
}

impl ByteOrder {
    /// `little` or `big`.
    pub const fn as_str(self) -> &'static str {
        match self {
            ByteOrder::Little => "little",
            ByteOrder::Big => "big",
        }
    }

    /// Parses `little` or `big`.
    pub fn from_name(s: &str) -> Option<ByteOrder> {
        match s {
            "little" => Some(ByteOrder::Little),
            "big" => Some(ByteOrder::Big),
            _ => None,
        }
    }
}

/// One change to the IDX byte stream (decompressed, for gzip input), in
/// offsets of the stream the finding was made in.
///
/// ```
/// use idx::Edit;
///
/// // u8 [1] followed by two stray bytes at offset 9
/// let bytes = [0, 0, 0x08, 1, 0, 0, 0, 1, 9, 0xaa, 0xbb];
/// let fix = idx::validate(&bytes).findings[0].fix.clone().unwrap();
/// assert_eq!(fix.edits, [Edit::Delete { offset: 9, length: 2 }]);
///
/// // u8 [3] whose dimension was written little-endian
/// let bytes = [0, 0, 0x08, 1, 3, 0, 0, 0, 1, 2, 3];
/// let fix = idx::validate(&bytes).findings[0].fix.clone().unwrap();
/// assert_eq!(fix.edits, [Edit::Replace { offset: 4, bytes: vec![0, 0, 0, 3] }]);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Edit {
    /// Overwrite `bytes.len()` bytes at `offset` with `bytes` (header fields).
    Replace {
        /// First byte replaced.
        offset: u64,
        /// The new bytes; as many as are replaced.
        bytes: Vec<u8>,
    },
    /// Delete `length` bytes at `offset`; every deletion runs to the end of
    /// the stream (a truncation).
    Delete {
        /// First byte deleted.
        offset: u64,
        /// Bytes deleted.
        length: u64,
    },
    /// Reverse the bytes of each `element_size`-byte element in
    /// `[offset, offset + length)` (a payload byte-order change).
    SwapBytes {
        /// First byte of the first element.
        offset: u64,
        /// Bytes swapped, a multiple of `element_size`.
        length: u64,
        /// 2, 4 or 8.
        element_size: u8,
    },
}

/// How to repair a finding, as data.
///
/// ```
/// // u8 [4] with one payload byte missing: both repairs are offered, each
/// // a finding of its own rule's fixes
/// let bytes = [0, 0, 0x08, 1, 0, 0, 0, 4, 1, 2, 3];
/// let finding = &idx::validate(&bytes).findings[0];
/// assert_eq!(finding.rule.code(), "IDX202");
/// let fix = finding.fix.as_ref().unwrap();
/// assert!(finding.rule.fixes().contains(&fix.applicability));
/// assert!(!fix.description.is_empty() && !fix.edits.is_empty());
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Fix {
    /// Safe (certain) or unsafe (a guess).
    pub applicability: Applicability,
    /// What the fix does, lowercase, no trailing period.
    pub description: String,
    /// The edits, in stream offsets, ordered by offset.
    pub edits: Vec<Edit>,
}

impl Fix {
    pub(crate) fn new(applicability: Applicability, description: String, edits: Vec<Edit>) -> Self {
        Fix {
            applicability,
            description,
            edits,
        }
    }

    /// True when some edit changes a header field other than the reserved
    /// bytes (type, rank, dimensions): the payload must then be looked at
    /// again under the new header.
    pub(crate) fn changes_header_fields(&self) -> bool {
        self.edits.iter().any(|e| match e {
            Edit::Replace { offset, bytes } => offset + bytes.len() as u64 > 2,
            _ => false,
        })
    }
}

impl Rule {
    /// The applicabilities of the fixes this rule's findings can carry
    /// (`spec/idx.md`, "Fixes"): empty for report-only rules.
    pub const fn fixes(self) -> &'static [Applicability] {
        const SAFE: &[Applicability] = &[Applicability::Safe];
        const UNSAFE: &[Applicability] = &[Applicability::Unsafe];
        const BOTH: &[Applicability] = &[Applicability::Safe, Applicability::Unsafe];
        match self {
            Rule::ReservedBytes | Rule::LikelyLittleEndian => UNSAFE,
            Rule::SizeOverflow | Rule::ByteSwappedHeader => SAFE,
            Rule::TruncatedPayload | Rule::TrailingBytes => BOTH,
            _ => &[],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Applicability, ByteOrder, Edit, Fix};

    #[test]
    fn byte_orders_are_named_little_and_big_both_ways() {
        for (order, name) in [(ByteOrder::Little, "little"), (ByteOrder::Big, "big")] {
            assert_eq!(order.as_str(), name);
            assert_eq!(ByteOrder::from_name(name), Some(order));
        }
        for other in ["", "Little", "BIG", "native", "le", "be"] {
            assert_eq!(ByteOrder::from_name(other), None, "{other:?}");
        }
    }

    #[test]
    fn only_edits_past_the_reserved_bytes_change_header_fields() {
        let fix = |edits| Fix::new(Applicability::Safe, String::new(), edits);
        let replace = |offset, bytes: &[u8]| Edit::Replace {
            offset,
            bytes: bytes.to_vec(),
        };
        // the reserved bytes (0 and 1) are not a field the payload depends on
        assert!(!fix(vec![replace(0, &[0, 0])]).changes_header_fields());
        assert!(!fix(vec![replace(1, &[0])]).changes_header_fields());
        // the type code, the rank, a dimension
        assert!(fix(vec![replace(0, &[0, 0, 0x08])]).changes_header_fields());
        assert!(fix(vec![replace(2, &[0x0b])]).changes_header_fields());
        assert!(fix(vec![replace(3, &[1])]).changes_header_fields());
        assert!(fix(vec![replace(0, &[0, 0]), replace(4, &[0, 0, 0, 3])]).changes_header_fields());
        // deletions and swaps are the payload's
        let payload = vec![
            Edit::Delete {
                offset: 9,
                length: 2,
            },
            Edit::SwapBytes {
                offset: 8,
                length: 4,
                element_size: 2,
            },
        ];
        assert!(!fix(payload).changes_header_fields());
        assert!(!fix(Vec::new()).changes_header_fields());
    }
}
