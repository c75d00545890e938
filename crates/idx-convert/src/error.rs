//! Why a conversion failed. Every variant names the file at fault.

use idx_io::escape::path as shown;
use std::fmt;
use std::io;
use std::path::PathBuf;

/// One bad record of a Caffe LMDB, located by its key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordProblem {
    /// The record's key (raw bytes; shown escaped).
    pub key: Vec<u8>,
    /// What is wrong, lowercase, no trailing period.
    pub what: String,
}

impl fmt::Display for RecordProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "key \"{}\": {}", self.key.escape_ascii(), self.what)
    }
}

/// Why a conversion failed. Nothing was written when any of these is
/// returned (a partial output is removed before returning).
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// An IDX input breaks the spec: its error findings (every one of them,
    /// as `idx::validate_reader` reports them).
    Invalid {
        /// The input.
        path: PathBuf,
        /// The error findings, ordered by offset.
        findings: Vec<idx::Finding>,
    },
    /// A valid input that this conversion cannot represent faithfully.
    Unsupported {
        /// The input.
        path: PathBuf,
        /// Why, and what would work instead.
        reason: String,
    },
    /// The images and labels do not pair up.
    Mismatch {
        /// What does not match.
        reason: String,
    },
    /// The destination exists (and `--force` was not given, or it is not
    /// something this conversion may replace).
    Exists {
        /// The destination.
        path: PathBuf,
        /// Why it was not replaced.
        reason: String,
    },
    /// Reading or writing failed.
    Io {
        /// The file involved.
        path: PathBuf,
        /// The operating system's error.
        source: io::Error,
    },
    /// The LMDB library failed.
    Lmdb {
        /// The database directory.
        path: PathBuf,
        /// LMDB's message.
        message: String,
    },
    /// Records of a Caffe LMDB that cannot become an IDX pair: the first
    /// [`Error::MAX_PROBLEMS`], and how many there are in all.
    Records {
        /// The database directory.
        path: PathBuf,
        /// The first problems, in key order.
        problems: Vec<RecordProblem>,
        /// The number of bad records.
        total: u64,
    },
    /// A `.npy` input that is not one this conversion reads.
    Npy {
        /// The input.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// An input changed between its validation and its conversion.
    Changed {
        /// The input.
        path: PathBuf,
    },
}

impl Error {
    /// How many record problems [`Error::Records`] keeps.
    pub const MAX_PROBLEMS: usize = 20;

    pub(crate) fn io(path: impl Into<PathBuf>) -> impl FnOnce(io::Error) -> Error {
        let path = path.into();
        move |source| Error::Io { path, source }
    }

    pub(crate) fn lmdb(path: impl Into<PathBuf>) -> impl FnOnce(heed::Error) -> Error {
        let path = path.into();
        move |e| match e {
            heed::Error::Io(source) => Error::Io { path, source },
            e => Error::Lmdb {
                path,
                message: e.to_string(),
            },
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Invalid { path, findings } => write!(
                f,
                "{}: not a valid IDX file ({} error{}); nothing was written",
                shown(path),
                findings.len(),
                if findings.len() == 1 { "" } else { "s" }
            ),
            Error::Unsupported { path, reason } => write!(f, "{}: {reason}", shown(path)),
            Error::Mismatch { reason } => write!(f, "{reason}"),
            Error::Exists { path, reason } => write!(f, "{}: {reason}", shown(path)),
            Error::Io { path, source } => write!(f, "{}: {source}", shown(path)),
            Error::Lmdb { path, message } => write!(f, "{}: lmdb: {message}", shown(path)),
            Error::Records {
                path,
                problems: _,
                total,
            } => write!(
                f,
                "{}: {total} record{} cannot be converted; nothing was written",
                shown(path),
                if *total == 1 { "" } else { "s" }
            ),
            Error::Npy { path, reason } => write!(f, "{}: {reason}", shown(path)),
            Error::Changed { path } => write!(
                f,
                "{}: the file changed while it was being converted",
                shown(path)
            ),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}
