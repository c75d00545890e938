//! Reading in chunks: the buffer size of the streaming paths, a page-aligned
//! view of a buffer, and the one "read until full or the end" loop.

use std::io::{self, Read};

/// Size of the buffer the streaming paths read through (a fixed bound).
pub const CHUNK_LEN: usize = 256 * 1024;

/// The page size the large buffers are aligned to.
pub(crate) const PAGE: usize = 4096;

/// The [`CHUNK_LEN`] bytes of `buf` (which holds `CHUNK_LEN + PAGE`) that
/// start on a page boundary. The kernel copies from the page cache into a
/// page-aligned buffer about three times faster than into one 16 bytes off
/// (where the allocator puts a large block), on the AMD EPYC measured.
pub(crate) fn page_aligned(buf: &mut [u8]) -> &mut [u8] {
    let off = buf.as_ptr().align_offset(PAGE).min(PAGE);
    &mut buf[off..off + CHUNK_LEN]
}

/// Reads until `buf` is full or the stream ends; returns the bytes read.
/// Interrupted reads are retried.
///
/// # Errors
/// The stream's errors.
pub fn fill<R: Read + ?Sized>(r: &mut R, buf: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}
