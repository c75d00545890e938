//! The header of a raw stream, read and judged by the one engine
//! ([`Validator`]), and nothing after it.

use super::{invalid, judged_by_reading, ReadError};
use crate::dtype::ElementType;
use crate::header::{Header, MAGIC_LEN};
use crate::rules::Severity;
use crate::validate::{Options, Validator};
use crate::violations;
use std::io::{self, Read};

/// Reads the header of a raw IDX stream, and nothing after it: `r` is left
/// at the first payload byte, ready for `read_array_into`.
///
/// The errors are `read_array`'s for the header (a not-IDX input is
/// recognised from its first bytes): the first error validation reports
/// for them.
///
/// # Errors
/// [`ReadError::Invalid`] for a header that breaks a rule, [`ReadError::Io`]
/// for the reader's errors.
pub fn read_header<R: Read>(r: &mut R) -> Result<Header, ReadError> {
    read_head(r, &mut Validator::plain(Options::default().reading()))
}

/// [`read_header`], feeding the bytes read to `engine` (fed nothing yet),
/// which analyses them: the header is the engine's, and so is the error,
/// the first error among the header's findings that reading judges by
/// ([`judged_by_reading`]). Reads exactly the header's
/// bytes (its magic, then its dimensions), or, for an input that is not
/// IDX, enough of it to recognise what it is instead.
pub(crate) fn read_head<R: Read>(r: &mut R, engine: &mut Validator) -> Result<Header, ReadError> {
    let mut head = [0u8; MAGIC_LEN];
    let n = crate::buffer::fill(r, &mut head)?;
    engine.feed(&head[..n]);
    if head[..n].iter().take(2).any(|&b| b != 0) {
        // Enough of the stream to recognise what it is instead.
        // (what a failing source gave before it failed is judged too: the
        // bytes say what the input is, the failure comes later in it)
        let mut more = [0u8; 512];
        let want = crate::sniff::SNIFF_LEN - n.min(crate::sniff::SNIFF_LEN);
        let mut k = 0;
        while k < want {
            match r.read(&mut more[k..want]) {
                Ok(0) => break,
                Ok(m) => k += m,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                // (the bytes read so far say what the input is)
                Err(_) => break,
            }
        }
        engine.feed(&more[..k]);
    } else if n == MAGIC_LEN && ElementType::from_code(head[2]).is_some() {
        let mut dim_bytes = [0u8; 4 * 255];
        let want = 4 * usize::from(head[3]);
        let k = crate::buffer::fill(r, &mut dim_bytes[..want])?;
        engine.feed(&dim_bytes[..k]);
    }
    engine.analyse_now();
    let judged = engine
        .header_findings()
        .into_iter()
        .filter(judged_by_reading);
    if let Some(e) = judged.into_iter().find(|f| f.severity() == Severity::Error) {
        return Err(invalid(e));
    }
    // invariant: bytes that give no header give an error finding
    engine
        .header()
        .cloned()
        .ok_or_else(|| invalid(violations::truncated_magic(n)))
}
