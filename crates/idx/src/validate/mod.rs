//! Validation: every independent violation, located, plus lints.
//!
//! One incremental state machine, [`Validator`], does all the work. The
//! in-memory entry points feed it the whole slice at once; the streaming
//! ones feed it through a fixed-size buffer. Both therefore give the same
//! [`Report`] by construction (and tests check it).

mod analyse;
mod compressed;
mod expect;
mod options;
mod stream;
mod validator;

pub use options::Options;
pub use stream::{validate_reader, validate_reader_len, validate_structure, TRAILING_COUNT_LIMIT};
pub use validator::Validator;

use crate::finding::Report;
use crate::gzip::is_gzip;
use compressed::drive_gzip;
use std::io::{self, Read};

/// Validates raw IDX bytes with default [`Options`].
///
/// Never panics; allocates nothing sized by a number read from the input
/// (the findings are bounded by the 255 dimensions a header can hold).
pub fn validate(bytes: &[u8]) -> Report {
    validate_with(bytes, &Options::default())
}

/// Validates IDX bytes held in memory.
///
/// With `opts.decompress` and gzip input, the data is decompressed through a
/// fixed-size buffer; it is never held whole in memory.
pub fn validate_with(bytes: &[u8], opts: &Options) -> Report {
    if opts.decompress && is_gzip(bytes) {
        // Same composition as `validate_reader` so both agree exactly. A
        // slice never fails to read, so the only error is impossible.
        let src = io::Cursor::new(&bytes[..2]).chain(&bytes[2..]);
        match drive_gzip(src, opts) {
            Ok(report) => report,
            Err(_) => unreachable!("reading from a slice cannot fail"), // invariant: slices never error
        }
    } else {
        let mut v = Validator::new(opts.clone());
        v.feed(bytes);
        v.finish()
    }
}
