//! The header of a raw stream, read and checked, and nothing after it.

use super::{invalid, ReadError};
use crate::dtype::ElementType;
use crate::header::{self, Header, MAGIC_LEN};
use crate::sniff::sniff;
use crate::violations;
use std::io::{self, Read};

/// Reads the header of a raw IDX stream, and nothing after it: `r` is left
/// at the first payload byte, ready for `read_array_into`.
///
/// The errors are `read_array`'s for the header (a not-IDX input is
/// recognised from its first bytes).
///
/// # Errors
/// [`ReadError::Invalid`] for a header that breaks a rule, [`ReadError::Io`]
/// for the reader's errors.
pub fn read_header<R: Read>(r: &mut R) -> Result<Header, ReadError> {
    let mut head = [0u8; MAGIC_LEN];
    let n = crate::buffer::fill(r, &mut head)?;
    let mut pos = n as u64;
    let got = &head[..n];
    if got.iter().take(2).any(|&b| b != 0) {
        // Enough of the stream to recognise what it is instead.
        // (what a failing source gave before it failed is judged too: the
        // bytes say what the input is, the failure comes later in it)
        let mut prefix = got.to_vec();
        let mut more = [0u8; 512];
        let want = crate::sniff::SNIFF_LEN - n.min(crate::sniff::SNIFF_LEN);
        let mut k = 0;
        while k < want {
            match r.read(&mut more[k..want]) {
                Ok(0) => break,
                Ok(m) => k += m,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) if k == 0 && got.is_empty() => return Err(e.into()),
                Err(_) => break,
            }
        }
        prefix.extend_from_slice(&more[..k]);
        return Err(invalid(
            sniff(&prefix).unwrap_or_else(|| violations::reserved_bytes(&got[..n.min(2)])),
        ));
    }
    if n > 2 && ElementType::from_code(head[2]).is_none() {
        return Err(invalid(violations::unknown_type(head[2])));
    }
    if n < MAGIC_LEN {
        return Err(invalid(violations::truncated_magic(n)));
    }
    let rank = head[3];
    let mut dim_bytes = [0u8; 4 * 255];
    let want = 4 * usize::from(rank);
    let k = crate::buffer::fill(r, &mut dim_bytes[..want])?;
    pos += k as u64;
    if k < want {
        return Err(invalid(violations::truncated_dimensions(
            pos as usize,
            rank,
        )));
    }
    let (_, dims) = header::dimensions(&dim_bytes[..want], rank)
        .map_err(|_| invalid(violations::truncated_dimensions(pos as usize, rank)))?;
    // invariant: the type code was checked above
    let dtype = ElementType::from_code(head[2])
        .ok_or_else(|| invalid(violations::unknown_type(head[2])))?;
    Header::new(dtype, dims.clone()).ok_or_else(|| invalid(violations::size_overflow(dtype, &dims)))
}
