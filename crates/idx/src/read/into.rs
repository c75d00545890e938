//! The payload streamed into the caller's memory, converted a chunk at a
//! time and fed as stored to the validation engine, which judges it with
//! the bytes after it ([`feed_end`], [`conclude`]): the parallel path
//! (`parallel`) ends the same way.

use super::swap::to_native_in_place;
use super::{invalid, judged_by_reading, ReadError};
use crate::edit::ByteOrder;
use crate::finding::Finding;
use crate::header::Header;
use crate::rules::Severity;
use crate::validate::{self, Validator};
use std::io::{self, Read};

/// Reads the payload of `header` from `r` (positioned just after the
/// header, as `read_header` leaves it) into `out`, which holds exactly
/// `header.payload_len()` bytes and receives the elements in native byte
/// order; then checks that the stream ends there.
///
/// The bytes are read a 256 KiB chunk at a time
/// into a page-aligned buffer that stays in the cache, and byte-swapped from
/// there into `out`: one pass over `out`, no full-size intermediate copy, so
/// a caller that owns the destination (a numpy array) decodes straight into
/// it. (Reading from the kernel straight into fresh, not yet faulted-in
/// memory measured about three times slower than this.) Together with
/// `read_header` it accepts exactly what
/// `read_array` accepts, with the same errors.
///
/// # Errors
/// [`ReadError::Invalid`] for a truncated payload (IDX202) or bytes after it
/// (IDX203); [`ReadError::Io`] for the reader's errors, and of kind
/// `InvalidInput` when `out` is not `header.payload_len()` bytes long (then
/// nothing is read).
///
/// # Allocation
/// None but the caller's `out` and a fixed buffer of `CHUNK_LEN`.
/// The caller sizes `out` from the header: it should know first that the
/// source holds that much (e.g. a regular file's length).
#[cfg(any(test, feature = "fuzzing"))]
pub fn read_array_into<R: Read>(
    r: &mut R,
    header: &Header,
    out: &mut [u8],
) -> Result<(), ReadError> {
    let engine = Box::new(Validator::after_header(
        validate::Options::default().reading(),
        header,
    ));
    read_payload_into(r, header, out, ByteOrder::Big, engine, |_| false).map(|_| ())
}

/// `read_array_into` of elements stored in `stored` order, judged by
/// `engine` (the one validation engine, fed the header): each chunk is fed
/// to it as stored before it is converted, then the bytes after the
/// payload ([`feed_end`]); its first error is the read's error, its other
/// findings (the byte-order test's IDX501) the read's warnings
/// ([`conclude`]). `limited` as for [`feed_end`].
pub(crate) fn read_payload_into<R: Read>(
    r: &mut R,
    header: &Header,
    out: &mut [u8],
    stored: ByteOrder,
    mut engine: Box<Validator>,
    limited: fn(&R) -> bool,
) -> Result<Vec<Finding>, ReadError> {
    fits(header, out)?;
    match decode_stream(r, out, header.dtype().size(), stored, |b| engine.feed(b)) {
        Ok(()) => feed_end(r, &mut engine, &mut Vec::new(), limited)?,
        Err(Short::End(_)) => {}
        Err(Short::Io(e)) => return Err(ReadError::Io(e)),
    }
    conclude(engine)
}

/// The engine's report as a read's outcome: of the findings reading
/// judges by ([`judged_by_reading`]), the first error is the read's error,
/// the others the read's warnings.
pub(crate) fn conclude(mut engine: Box<Validator>) -> Result<Vec<Finding>, ReadError> {
    let mut findings = engine.findings();
    findings.retain(judged_by_reading);
    match findings
        .iter()
        .position(|f| f.severity() == Severity::Error)
    {
        Some(i) => Err(invalid(findings.remove(i))),
        None => Ok(findings),
    }
}

/// Why decoding a stretch of the payload stopped short.
pub(super) enum Short {
    /// The source ended after this many of the stretch's bytes.
    End(usize),
    /// The source failed.
    Io(io::Error),
}

/// Reads `out.len()` payload bytes from `r` straight into `out`, a
/// 256 KiB chunk at a time, and byte-swaps each
/// chunk's elements of `size` bytes in place while it is still in the
/// cache: one copy, the kernel's. `feed` sees each chunk's bytes as
/// stored, before they are converted (the engine's byte-order test).
pub(super) fn decode_stream<R: Read>(
    r: &mut R,
    out: &mut [u8],
    size: usize,
    stored: ByteOrder,
    mut feed: impl FnMut(&[u8]),
) -> Result<(), Short> {
    let mut seen = 0usize;
    for part in out.chunks_mut(crate::buffer::CHUNK_LEN) {
        let k = crate::buffer::fill(r, part).map_err(Short::Io)?;
        feed(&part[..k]);
        to_native_in_place(&mut part[..k], size, stored);
        seen += k;
        if k < part.len() {
            return Err(Short::End(seen));
        }
    }
    Ok(())
}

/// The payload's length, when `out` holds exactly that many bytes; an
/// `InvalidInput` error otherwise.
pub(super) fn fits(header: &Header, out: &[u8]) -> Result<u64, ReadError> {
    let declared = header.payload_len();
    if out.len() as u64 != declared {
        return Err(ReadError::Io(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "the destination holds {} bytes; the payload is {declared}",
                out.len()
            ),
        )));
    }
    Ok(declared)
}

/// After a complete payload: the bytes that follow, fed to `engine` (which
/// reports them, IDX203), counted up to a bound ([`trailing`]). The count
/// is a lower bound when reading stopped at that bound, or when `r` ended
/// at a limit of its own (`limited`: the reader's decompression limit), as
/// validation says.
pub(crate) fn feed_end<R: Read>(
    r: &mut R,
    engine: &mut Validator,
    buf: &mut Vec<u8>,
    limited: fn(&R) -> bool,
) -> io::Result<()> {
    let mut tail = [0u8; 4];
    let t = crate::buffer::fill(r, &mut tail)?;
    if t == 0 {
        return Ok(());
    }
    engine.feed(&tail[..t]);
    let (_, cut) = trailing(r, t as u64, buf, |bytes| engine.feed(bytes))?;
    if cut || limited(r) {
        engine.cut_short();
    }
    Ok(())
}

/// The rest of the trailing bytes after the first `seen`, read through
/// `buf` (grown to `CHUNK_LEN` when it is smaller) and handed to `each`,
/// up to [`TRAILING_COUNT_LIMIT`](validate::TRAILING_COUNT_LIMIT) in all,
/// so that an endless source finishes (spec 7.24): how many there were,
/// and whether a byte followed the bound (the count is then a lower bound).
fn trailing<R: Read>(
    r: &mut R,
    seen: u64,
    buf: &mut Vec<u8>,
    mut each: impl FnMut(&[u8]),
) -> io::Result<(u64, bool)> {
    if buf.len() < crate::buffer::CHUNK_LEN {
        buf.resize(crate::buffer::CHUNK_LEN, 0);
    }
    let mut extra = seen;
    loop {
        if extra >= validate::TRAILING_COUNT_LIMIT {
            return Ok((extra, crate::buffer::fill(r, &mut buf[..1])? > 0));
        }
        let want = (validate::TRAILING_COUNT_LIMIT - extra).min(buf.len() as u64) as usize;
        let k = crate::buffer::fill(r, &mut buf[..want])?;
        if k == 0 {
            return Ok((extra, false));
        }
        each(&buf[..k]);
        extra += k as u64;
    }
}
