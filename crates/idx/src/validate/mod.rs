//! Validation: every independent violation, located, plus lints.
//!
//! One incremental state machine, [`Validator`], does all the work, gzip
//! and the decompression limit included. The in-memory entry points feed
//! it the whole slice at once; the streaming ones feed it through a
//! fixed-size buffer. Both therefore give the same [`Report`] by
//! construction (and tests check it).

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

/// Validates raw IDX bytes with default [`Options`].
///
/// Never panics; allocates nothing sized by a number read from the input
/// (the findings are bounded by the 255 dimensions a header can hold).
///
/// ```
/// // every violation, not only the first: reserved bytes and a cut payload
/// let report = idx::validate(&[0xff, 0, 0x08, 1, 0, 0, 0, 3, 1]);
/// let codes: Vec<_> = report.findings.iter().map(|f| f.rule.code()).collect();
/// assert_eq!(codes, ["IDX101", "IDX202"]);
/// assert!(idx::validate(&[0, 0, 0x08, 1, 0, 0, 0, 1, 7]).is_valid());
/// ```
pub fn validate(bytes: &[u8]) -> Report {
    validate_with(bytes, &Options::default())
}

/// Validates IDX bytes held in memory.
///
/// With `opts.decompress` and gzip input, the data is decompressed through a
/// fixed-size buffer; it is never held whole in memory.
///
/// ```
/// // an i32 [2] the user expected to be u8 [2]
/// let bytes = idx::to_bytes(&idx::Array::from_vec(vec![2], vec![1i32, 2])?)?;
/// let opts = idx::Options::default().with_expect_dtype(Some(idx::ElementType::U8));
/// let report = idx::validate_with(&bytes, &opts);
/// assert_eq!(report.findings[0].rule.code(), "IDX601");
/// assert!(idx::validate(&bytes).is_valid());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn validate_with(bytes: &[u8], opts: &Options) -> Report {
    let mut v = Validator::new(opts.clone());
    v.feed(bytes);
    v.finish()
}
