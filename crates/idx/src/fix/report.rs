//! What a repair did: the fixes applied, the reports before and after, and
//! the errors that stop it.

use crate::edit::Fix;
use crate::finding::Report;
use crate::rules::Rule;
use std::fmt;
use std::io;

/// A fix that [`repair`](crate::repair) applied.
///
/// ```
/// use std::io::Cursor;
/// let input = [0, 0, 0x08, 1, 0, 0, 0, 1, 42, 0]; // u8 [1], then one byte too many (IDX203)
/// let opts = idx::FixOptions::default().with_unsafe_fixes(true);
/// let report = idx::plan(Cursor::new(&input[..]), &opts)?;
/// let applied: &idx::AppliedFix = &report.applied[0];
/// assert_eq!((applied.rule, applied.offset), (Some(idx::Rule::TrailingBytes), 9));
/// assert_eq!(applied.fix.applicability, idx::Applicability::Unsafe);
/// assert_eq!(applied.fix.edits, [idx::Edit::Delete { offset: 9, length: 1 }]);
/// # Ok::<(), idx::FixError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AppliedFix {
    /// The finding's rule, or `None` for the payload byte swap stated by
    /// [`FixOptions::assume_byte_order`](crate::FixOptions::assume_byte_order)
    /// when no finding asked for it.
    pub rule: Option<Rule>,
    /// The finding's offset (in the stream the fix was planned on).
    pub offset: u64,
    /// The finding's message (or what the user stated).
    pub message: String,
    /// The fix, with the applicability it was applied under.
    pub fix: Fix,
}

/// What [`repair`](crate::repair) or [`plan`](crate::plan) did to one input.
///
/// A byte order stated for a payload that does not read more plausibly
/// that way is declined, with the reason:
///
/// ```
/// use std::io::Cursor;
/// // 1, 2, ..., 64 as i16, correctly big-endian
/// let bytes = idx::to_bytes(&idx::Array::from_vec(vec![64], (1..=64).collect::<Vec<i16>>())?)?;
/// let opts = idx::FixOptions::default().with_assume_byte_order(Some(idx::ByteOrder::Little));
/// let report = idx::plan(Cursor::new(&bytes), &opts)?;
/// assert!(!report.changed());
/// assert!(report.declined[0].contains("it reads big-endian"), "{:?}", report.declined);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FixReport {
    /// The report the repair was planned on: the input's, or for plain
    /// input when no byte order is to be decided (neither IDX501's guess
    /// wanted, nor a little-endian order stated, nor a range or a number
    /// of classes that proves one), its structure-only report (header and
    /// length; no payload lints).
    pub before: Report,
    /// The fixes applied, in the order they were planned.
    pub applied: Vec<AppliedFix>,
    /// The report of the output: what remains. For [`plan`](crate::plan) alone,
    /// the report of the input with the planned edits applied.
    pub after: Report,
    /// Bytes of the (decompressed) stream deleted by truncations.
    pub dropped_bytes: u64,
    /// True when the output is gzip-compressed.
    pub compressed_output: bool,
    /// Fixes asked for but not applied, each with the reason (a byte order
    /// stated little-endian for a payload that does not read more
    /// plausibly so: a second run after a swap, or a wrong statement).
    pub declined: Vec<String>,
}

impl FixReport {
    /// True when any fix was applied (the output differs from the input).
    pub fn changed(&self) -> bool {
        !self.applied.is_empty()
    }
}

/// Why a repair failed. The output is then incomplete and must be
/// discarded; the input was only read.
///
/// ```
/// use std::io::{self, Read, Seek, SeekFrom};
/// struct Unplugged;
/// impl Read for Unplugged {
///     fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
///         Err(io::Error::other("device unplugged"))
///     }
/// }
/// impl Seek for Unplugged {
///     fn seek(&mut self, _: SeekFrom) -> io::Result<u64> {
///         Ok(0)
///     }
/// }
/// let err = idx::plan(Unplugged, &idx::FixOptions::default()).unwrap_err();
/// assert!(matches!(err, idx::FixError::Io(_)));
/// assert_eq!(err.to_string(), "device unplugged");
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum FixError {
    /// Reading the input or writing the output failed.
    Io(io::Error),
    /// A plain copy of a gzip stream was asked for, but the stream is
    /// damaged (IDX701) or exceeds the decompression limit (IDX702).
    Incomplete(Rule),
    /// The input was not the same in every pass (it changed while it was
    /// read).
    InputChanged {
        /// Length and CRC-32 of the raw input in the planning pass (of its
        /// first 1024 bytes when only the structure was read).
        planned: (u64, u32),
        /// The same in the writing pass.
        found: (u64, u32),
    },
}

impl fmt::Display for FixError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FixError::Io(e) => write!(f, "{e}"),
            FixError::Incomplete(rule) => write!(
                f,
                "the gzip stream cannot be decompressed whole ({rule}): no plain copy can be written"
            ),
            FixError::InputChanged { planned, found } => write!(
                f,
                "the input changed while it was read ({} bytes, CRC-32 {:08x} when planned; {} bytes, CRC-32 {:08x} when written)",
                planned.0, planned.1, found.0, found.1
            ),
        }
    }
}

impl std::error::Error for FixError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            FixError::Io(e) => Some(e),
            FixError::InputChanged { .. } | FixError::Incomplete(_) => None,
        }
    }
}

impl From<io::Error> for FixError {
    fn from(e: io::Error) -> Self {
        FixError::Io(e)
    }
}
