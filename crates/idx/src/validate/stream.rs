//! Validating a reader: the streaming entry points, through a fixed buffer.

use super::{Options, Validator};
use crate::buffer::{page_aligned, CHUNK_LEN, PAGE};
use crate::finding::Report;
use crate::header::{MAGIC_LEN, MAX_HEADER_LEN};
use std::io::{self, Read};

/// The first reads of [`validate_reader`] go through a stack buffer of this
/// size; a stream that fills it continues through [`CHUNK_LEN`].
const SMALL_CHUNK_LEN: usize = 16 * 1024;

/// How many trailing bytes the streaming paths count on an input whose
/// length is not known (a pipe, a device, standard input) before they stop
/// and report "at least" that many (spec 7.24).
pub const TRAILING_COUNT_LIMIT: u64 = 1 << 20;

/// Validates IDX data read from `reader`, in memory bounded by a fixed
/// buffer (256 KiB) whatever the length of the data.
///
/// Reading stops as soon as no further byte can change the findings
/// (spec 7.24): after the header when the size is unknown (a bad magic, an
/// unknown type, an overflow), and [`TRAILING_COUNT_LIMIT`] bytes after the
/// end of the payload. [`Report::exact_len`] is then false, and the stream
/// length and the length of an IDX203 finding are lower bounds. So an
/// endless input (`/dev/zero`) finishes. Gzip input is read to its end (its
/// integrity is checked), up to [`Options::limits`].
///
/// # Errors
/// Only the reader's own I/O errors; everything wrong with the data is a
/// finding in the report, including a damaged gzip stream.
///
/// ```
/// // any `Read`: a file, standard input, a socket; here bytes in memory
/// let bytes = idx::to_bytes(&idx::Array::from_vec(vec![2, 3], vec![0u8; 6])?)?;
/// let report = idx::validate_reader(&bytes[..], &idx::Options::default())?;
/// assert!(report.is_valid() && report.exact_len);
/// assert_eq!(report.stream_len, 18);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn validate_reader<R: Read>(reader: R, opts: &Options) -> io::Result<Report> {
    validate_reader_len(reader, None, opts)
}

/// Structure-only validation (`idx-validate --structure-only`): the magic,
/// the dimensions and the length, with no lint and without reading the
/// payload when `len` (a regular file's size) is known; gzip input, and a
/// source of unknown length, is read in full (its length is not known
/// otherwise). Reads at most [`MAX_HEADER_LEN`](crate::MAX_HEADER_LEN)
/// bytes of a raw source of known length.
///
/// # Errors
/// Only the reader's own I/O errors.
pub fn validate_structure<R: Read>(
    mut reader: R,
    len: Option<u64>,
    opts: &Options,
) -> io::Result<Report> {
    let opts = opts.clone().with_lints(false).with_byte_order_test(false);
    let mut head = [0u8; crate::MAX_HEADER_LEN];
    let n = crate::buffer::fill(&mut reader, &mut head)?;
    let mut v = Validator::new(opts);
    v.feed(&head[..n]);
    match len {
        Some(len) if !v.decompressing() => {
            v.skip(len.saturating_sub(n as u64));
            Ok(v.finish())
        }
        _ => drive(v, reader, len),
    }
}

/// [`validate_reader`] for a source whose length is known, e.g. a regular
/// file's size from its metadata: once no further byte can change the
/// findings, the rest is accounted for by `len` instead of being read, and
/// the report's lengths are exact. A `len` shorter than the bytes read by
/// the time it would be used is ignored: the bytes read count, and bytes
/// after the payload are counted as without a length.
///
/// # Errors
/// Only the reader's own I/O errors.
///
/// ```
/// // a 16-byte header declaring a 1000-element payload that is all there:
/// // with the length known, a structure-only check need not read it
/// let bytes = idx::to_bytes(&idx::Array::from_vec(vec![10, 100], vec![0u8; 1000])?)?;
/// let opts = idx::Options::default().with_lints(false).with_byte_order_test(false);
/// let report = idx::validate_reader_len(&bytes[..], Some(bytes.len() as u64), &opts)?;
/// assert!(report.is_valid());
/// assert_eq!(report.stream_len, 1012);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn validate_reader_len<R: Read>(
    mut reader: R,
    len: Option<u64>,
    opts: &Options,
) -> io::Result<Report> {
    let mut peek = [0u8; 2];
    let n = crate::buffer::fill(&mut reader, &mut peek)?;
    let mut v = Validator::new(opts.clone());
    v.feed(&peek[..n]);
    drive(v, reader, len)
}

/// Feeds `v` (fed the input's first bytes) the rest of `reader`, reading
/// no more than the findings need.
fn drive<R: Read>(mut v: Validator, mut reader: R, len: Option<u64>) -> io::Result<Report> {
    if v.decompressing() {
        // a gzip stream is read to its end (its integrity is checked), or
        // until damage or the limit stops the validator
        let mut buf = vec![0u8; CHUNK_LEN];
        while !v.settled() {
            match read_some(&mut reader, &mut buf)? {
                0 => break,
                k => v.feed(&buf[..k]),
            }
        }
        return Ok(v.finish());
    }
    // A small input is read through a small stack buffer; the heap buffer is
    // taken only once a read fills that (allocating and zeroing 256 KiB per
    // input is a measurable cost when validating thousands of small files).
    let mut small = Aligned([0u8; SMALL_CHUNK_LEN]);
    let mut big: Vec<u8> = Vec::new();
    loop {
        if let (Some(len), false) = (len, v.settled()) {
            // nothing but the length left to learn from the payload
            // (only when nothing follows the payload: trailing bytes are
            // read, their first ones say whether a file was appended)
            // (`len > v.total` and `len - v.total <= left` leave at least
            // one payload byte to skip)
            let left = v.payload_left();
            if v.payload_done() && len > v.total && len - v.total <= left {
                v.skip(len - v.total);
                break;
            }
        }
        if v.settled() {
            match len {
                Some(len) if len >= v.total => {
                    // the first trailing bytes are read, not skipped: they
                    // say whether another file was appended (the hint of
                    // IDX204), whichever read the payload ended in
                    let want = v.trailing_head_wanted().min(len - v.total);
                    if want > 0 {
                        let mut head = [0u8; MAGIC_LEN];
                        match read_some(&mut reader, &mut head[..want as usize])? {
                            0 => break,
                            k => {
                                v.feed(&head[..k]);
                                continue;
                            }
                        }
                    }
                    v.skip(len - v.total);
                    break;
                }
                _ if v.trailing >= TRAILING_COUNT_LIMIT || v.header_unknown() => {
                    // one more byte would tell whether the stream ends here
                    let mut one = [0u8; 1];
                    if read_some(&mut reader, &mut one)? > 0 {
                        v.exact_len = false;
                    }
                    break;
                }
                _ => {}
            }
        }
        let buf: &mut [u8] = if big.is_empty() {
            &mut small.0
        } else {
            page_aligned(&mut big)
        };
        // the header first, so a bad one stops reading at once; after the
        // payload, no more than the trailing bytes still to be counted (a
        // known length got here only when the source holds more than it
        // says: counted as without one)
        let room = if v.analysis.is_none() {
            MAX_HEADER_LEN - v.prefix.len()
        } else if v.settled() {
            (TRAILING_COUNT_LIMIT - v.trailing.min(TRAILING_COUNT_LIMIT)).max(1) as usize
        } else {
            buf.len()
        };
        let want = room.min(buf.len());
        match read_some(&mut reader, &mut buf[..want])? {
            0 => break,
            k => {
                v.feed(&buf[..k]);
                if big.is_empty() && k == SMALL_CHUNK_LEN {
                    big = vec![0u8; CHUNK_LEN + PAGE];
                }
            }
        }
    }
    Ok(v.finish())
}

/// One `read`, retried on `Interrupted`.
fn read_some<R: Read>(r: &mut R, buf: &mut [u8]) -> io::Result<usize> {
    loop {
        match r.read(buf) {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            other => return other,
        }
    }
}

/// A buffer aligned for the kernel's copy into it.
#[repr(align(4096))]
struct Aligned([u8; SMALL_CHUNK_LEN]);
