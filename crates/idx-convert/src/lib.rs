//! Conversion between IDX and the formats IDX data usually travels on to:
//! Caffe's LMDB of `Datum` records (what `convert_mnist_data` writes) and
//! NumPy's `.npy` / `.npz`.
//!
//! Every direction validates its IDX input with the `idx` library first and
//! refuses an invalid file with its findings before anything is written,
//! streams the data item by item (memory does not grow with the input), and
//! writes its output under a temporary name beside the destination, renamed
//! into place only when complete: a failed conversion leaves nothing behind.
//!
//! The library never prints; long conversions report through [`Progress`].

#![deny(missing_docs, clippy::print_stdout, clippy::print_stderr)]

mod datum;
mod error;
mod input;
mod lmdb;
mod npy;
mod output;

pub use datum::Datum;
pub use error::{Error, RecordProblem};
pub use lmdb::{from_caffe_lmdb, to_caffe_lmdb, LmdbSummary, BATCH};
pub use npy::{from_npy, to_npy, to_npz, MAX_NPY_HEADER};

/// Receives progress of a long conversion; the CLI draws a bar with it.
pub trait Progress {
    /// A phase begins: `what` is a short phrase naming the phase and its
    /// unit (records, bytes), `total` the number of units it will go through.
    fn start(&mut self, what: &str, total: u64);
    /// `n` more units are done.
    fn advance(&mut self, n: u64);
    /// The phase is over.
    fn finish(&mut self);
    /// An input's validation warned that its payload reads little-endian
    /// (the byte-order test, IDX501: a statistical test, so the input is
    /// converted as IDX says): the CLI prints it on standard error.
    fn byte_order_warning(&mut self, path: &std::path::Path, finding: &idx::Finding) {
        let _ = (path, finding);
    }
}

/// A [`Progress`] that ignores everything.
#[derive(Debug, Default, Clone, Copy)]
pub struct NoProgress;

impl Progress for NoProgress {
    fn start(&mut self, _: &str, _: u64) {}
    fn advance(&mut self, _: u64) {}
    fn finish(&mut self) {}
}

/// What to do when the destination exists.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub enum Overwrite {
    /// Refuse with [`Error::Exists`] (the default, as Caffe's converter).
    #[default]
    Refuse,
    /// Replace it (an LMDB destination only if it is an LMDB directory).
    Force,
}
