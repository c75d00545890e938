//! One way in: how every reader of IDX bytes opens a stream.
//!
//! [`fill`] is the one "read until full or the end" loop; [`open`] reads
//! the first two bytes without losing them, asks the validator's one gzip
//! sniff ([`Validator`](crate::Validator)'s) what they are, and returns
//! either the raw stream or the library's own gzip decoder (a pull loop
//! over the push decoder validation drives, so every reader accepts
//! exactly the gzip data validation accepts) behind a decompression limit.
//! [`Reader`](crate::Reader) opens its source here; of the front ends, the
//! page's picture and the differential fuzzer read a stream through
//! [`open`], and the others read through `Reader`, `validate*` or the
//! repair. None sniffs or decompresses on its own.

pub use crate::buffer::fill;
use std::io::{self, Read};

/// A stream opened by [`open`]: the raw bytes, or the decompressed bytes of
/// a gzip container.
pub struct Stream<R> {
    inner: Inner<R>,
    limit: Option<u64>,
    /// Decompressed bytes returned so far (gzip only).
    out: u64,
    over: bool,
    /// Where the gzip stream was found damaged (decompressed bytes before
    /// the damage) and what the decoder said.
    damage: Option<(u64, String)>,
    /// End the stream at the limit and at damage (the reader's mode)
    /// instead of failing, so that the reader judges the bytes before
    /// either as validation does.
    end_at_limit: bool,
}

/// The source with its sniffed bytes put back in front.
type Sniffed<R> = io::Chain<io::Take<io::Cursor<[u8; 2]>>, R>;

enum Inner<R> {
    Raw(Sniffed<R>),
    Gzip(Box<crate::gzip::Members<Sniffed<R>>>),
}

impl<R> std::fmt::Debug for Stream<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Stream")
            .field("compression", &self.compression())
            .field("limit", &self.limit)
            .finish_non_exhaustive()
    }
}

/// Opens `r` as IDX input: gzip (recognised by its magic, `1f 8b`) is
/// decoded by the library's decoder, at most `max_decompressed` bytes
/// (`None`: no limit); anything else is passed through unchanged. Nothing
/// is lost: the sniffed bytes are returned first.
///
/// A damaged gzip stream reads as an `InvalidData` error after the bytes
/// decoded before the damage; a stream that holds more than the limit
/// reads as an error (kind `Other`, [`Stream::hit_limit`] true) after
/// exactly the limit. Callers that report findings validate instead
/// ([`validate_reader`](crate::validate_reader)), which locates both as
/// IDX701 and IDX702.
///
/// # Errors
/// The source's errors while sniffing.
pub fn open<R: Read>(mut r: R, max_decompressed: Option<u64>) -> io::Result<Stream<R>> {
    let mut magic = [0u8; 2];
    let n = fill(&mut r, &mut magic)?;
    let stream = io::Cursor::new(magic).take(n as u64).chain(r);
    let inner = if crate::validate::Validator::sniff(&magic[..n]).is_some() {
        Inner::Gzip(Box::new(crate::gzip::Members::new(stream)))
    } else {
        Inner::Raw(stream)
    };
    Ok(Stream {
        inner,
        limit: max_decompressed,
        out: 0,
        over: false,
        damage: None,
        end_at_limit: false,
    })
}

/// [`open`], but a stream over the limit ends there (`Ok(0)`) with
/// [`Stream::hit_limit`] set, and a damaged gzip stream ends where the
/// damage is (`Ok(0)`) with [`Stream::damage`] set, so that a reader sees
/// the bytes before either as the validator does (spec 7.19: a finding
/// located before the limit or the damage is kept).
pub(crate) fn open_cut<R: Read>(
    r: R,
    decompress: bool,
    max_decompressed: Option<u64>,
) -> io::Result<Stream<R>> {
    let mut s = open(r, max_decompressed)?;
    s.end_at_limit = true;
    if !decompress {
        if let Inner::Gzip(g) = s.inner {
            // raw after all: the sniffed bytes and the source, as they were
            s.inner = Inner::Raw(g.into_source());
        }
    }
    Ok(s)
}

impl<R> Stream<R> {
    /// The container the input came in (by [`Validator::sniff`](crate::Validator)),
    /// `None` for a raw stream.
    pub fn compression(&self) -> Option<crate::Compression> {
        matches!(self.inner, Inner::Gzip(_)).then_some(crate::Compression::Gzip)
    }

    /// True when reading stopped at the decompression limit.
    pub fn hit_limit(&self) -> bool {
        self.over
    }

    /// The decompression limit.
    pub(crate) fn limit(&self) -> Option<u64> {
        self.limit
    }

    /// Where a gzip stream was found damaged, in decompressed bytes, and
    /// what the decoder said.
    pub(crate) fn damage(&self) -> Option<(u64, String)> {
        self.damage.clone()
    }

    /// The source.
    pub(crate) fn source(&self) -> &R {
        match &self.inner {
            Inner::Raw(r) => r.get_ref().1,
            Inner::Gzip(g) => g.source().get_ref().1,
        }
    }
}

impl<R: Read> Read for Stream<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match &mut self.inner {
            Inner::Raw(r) => r.read(buf),
            Inner::Gzip(g) => {
                if self.damage.is_some() && self.end_at_limit {
                    return Ok(0);
                }
                let (out, end) = (self.out, self.end_at_limit);
                let mut damaged = |e: io::Error| {
                    if !crate::gzip::is_damage(&e) {
                        return Err(e); // the source's own error
                    }
                    self.damage = Some((out, e.to_string()));
                    if end {
                        Ok(0)
                    } else {
                        Err(e)
                    }
                };
                let Some(limit) = self.limit else {
                    let n = g.read(buf).or_else(&mut damaged)?;
                    self.out += n as u64;
                    return Ok(n);
                };
                if self.over {
                    return if self.end_at_limit {
                        Ok(0)
                    } else {
                        Err(limit_error(limit))
                    };
                }
                let left = limit - self.out;
                if left == 0 {
                    // one more byte tells whether the stream holds more
                    let mut probe = [0u8; 1];
                    let probed = g.read(&mut probe).or_else(&mut damaged)?;
                    return match probed {
                        0 => Ok(0),
                        _ => {
                            self.over = true;
                            if self.end_at_limit {
                                Ok(0)
                            } else {
                                Err(limit_error(limit))
                            }
                        }
                    };
                }
                let room = buf.len().min(usize::try_from(left).unwrap_or(usize::MAX));
                let n = g.read(&mut buf[..room]).or_else(&mut damaged)?;
                self.out += n as u64;
                Ok(n)
            }
        }
    }
}

fn limit_error(limit: u64) -> io::Error {
    io::Error::other(format!(
        "the gzip stream decompresses to more than {limit} bytes (IDX702; raise the limit to read it)"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn gz(bytes: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(bytes).unwrap(); // ok: unit test
        e.finish().unwrap() // ok: unit test
    }

    fn all<R: Read>(mut s: Stream<R>) -> (Vec<u8>, Option<io::ErrorKind>, bool) {
        let mut out = Vec::new();
        let mut buf = [0u8; 3];
        loop {
            match s.read(&mut buf) {
                Ok(0) => return (out, None, s.compression().is_some()),
                Ok(n) => out.extend_from_slice(&buf[..n]),
                Err(e) => return (out, Some(e.kind()), s.compression().is_some()),
            }
        }
    }

    #[test]
    fn raw_input_passes_through_whole_even_shorter_than_the_magic() {
        for b in [
            &b""[..],
            b"\x00",
            b"\x1f",
            b"\x00\x00\x08\x01\x00\x00\x00\x01\x07",
        ] {
            assert_eq!(all(open(b, None).unwrap()), (b.to_vec(), None, false)); // ok: unit test
        }
    }

    #[test]
    fn gzip_is_decoded_by_the_library_decoder_padding_included() {
        let mut g = gz(b"\x00\x00\x08\x01\x00\x00\x00\x01\x07");
        g.extend([0, 0, 0]); // zero padding after the last member (spec 7.18)
        let (out, err, gzip) = all(open(&g[..], None).unwrap()); // ok: unit test
        assert_eq!(
            (out.as_slice(), err, gzip),
            (&b"\x00\x00\x08\x01\x00\x00\x00\x01\x07"[..], None, true)
        );
    }

    #[test]
    fn the_limit_stops_after_exactly_its_bytes_and_says_so() {
        let g = gz(&[5u8; 100]);
        let mut s = open(&g[..], Some(10)).unwrap(); // ok: unit test
        let mut out = Vec::new();
        let err = s.read_to_end(&mut out).unwrap_err(); // ok: unit test
        assert_eq!(out, [5u8; 10]);
        assert!(s.hit_limit());
        assert!(err.to_string().contains("IDX702"));
        // exactly at the limit is not over it
        let (out, err, _) = all(open(&g[..], Some(100)).unwrap()); // ok: unit test
        assert_eq!((out.len(), err), (100, None));
    }

    #[test]
    fn damage_is_invalid_data_after_the_decoded_prefix() {
        let g = gz(&[7u8; 50]);
        let cut = &g[..g.len() - 4];
        let (out, err, _) = all(open(cut, None).unwrap()); // ok: unit test
        assert_eq!(out, [7u8; 50]);
        assert_eq!(err, Some(io::ErrorKind::InvalidData));
    }
}
