//! Reading raw IDX streams straight into memory, one job per file: the
//! header ([`read_header`]), a whole owned array ([`read_array`]), the
//! payload into the caller's memory ([`read_array_into`]), positioned
//! sources ([`ReadAt`]) read in parallel parts ([`read_array_at`]), and the
//! byte swap to native order (`swap`). Every one of them is judged by the
//! one validation engine ([`Validator`](crate::Validator)): the header,
//! the whole array and the payload read into memory fed to it as they are
//! read (`header`, `into`, `array`), the parallel parts once they are
//! decoded, in order and as stored (`parallel`); then the bytes after the
//! payload (`into`'s `feed_end`). [`Reader`](crate::Reader) is the way in
//! for front ends; these are its parts.

mod array;
mod at;
mod header;
mod into;
mod parallel;
mod parts;
mod swap;

#[cfg(any(test, feature = "fuzzing"))] // the tests' and fuzz targets' (`idx::fuzzing`)
pub use array::read_array;
pub(crate) use array::read_payload_array;
pub use at::ReadAt;
pub(crate) use header::read_head;
pub use header::read_header;
#[cfg(any(test, feature = "fuzzing"))] // the tests' and fuzz targets' (`idx::fuzzing`)
pub use into::read_array_into;
pub(crate) use into::{conclude, read_payload_into};
#[cfg(any(test, feature = "fuzzing"))] // the tests' and fuzz targets' (`idx::fuzzing`)
pub use parallel::read_array_at;
pub use parallel::MIN_BYTES_PER_THREAD;
pub(crate) use parallel::{read_parts_at, Split};
pub(crate) use parts::HUGE_PAGE;
pub(crate) use swap::to_native_in_place;

use crate::finding::Finding;
use crate::parse::Error;
use crate::rules::{Rule, Severity};
use std::fmt;
use std::io;

/// Why a read ([`Reader`](crate::Reader)) failed.
///
/// ```
/// use idx::{ReadError, ReadOptions, Reader};
///
/// // not IDX at all: a PNG signature, recognised from the first bytes
/// let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR";
/// match Reader::new(&png[..], &ReadOptions::default()) {
///     Err(ReadError::Invalid(e)) => assert_eq!(e.finding().rule.name(), "image-file"),
///     other => panic!("{other:?}"),
/// }
/// // the source's own failure
/// struct Broken;
/// impl std::io::Read for Broken {
///     fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
///         Err(std::io::ErrorKind::PermissionDenied.into())
///     }
/// }
/// assert!(matches!(Reader::new(Broken, &ReadOptions::default()), Err(ReadError::Io(_))));
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum ReadError {
    /// The bytes are not a valid IDX file: the first violation, located.
    Invalid(Error),
    /// The reader failed.
    Io(io::Error),
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Invalid(e) => e.fmt(f),
            ReadError::Io(e) => write!(f, "read failed: {e}"),
        }
    }
}

impl std::error::Error for ReadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ReadError::Invalid(e) => Some(e),
            ReadError::Io(e) => Some(e),
        }
    }
}

impl From<io::Error> for ReadError {
    fn from(e: io::Error) -> Self {
        ReadError::Io(e)
    }
}

/// Whether a reading path judges by `f`, one of the engine's findings: the
/// spec's rules (errors the bytes prove) and the byte-order verdict
/// (IDX501, a warning unless the options make it an error). The header's
/// portability warnings (IDX3xx) are validation's to report
/// ([`Reader::validate`](crate::Reader::validate)): a read neither returns
/// them nor is refused for them, whatever the severity overrides, as
/// every reading path (the parallel one too) has it.
fn judged_by_reading(f: &Finding) -> bool {
    f.rule.severity() == Severity::Error || f.rule == Rule::LikelyLittleEndian
}

fn invalid(f: Finding) -> ReadError {
    ReadError::Invalid(f.into())
}
