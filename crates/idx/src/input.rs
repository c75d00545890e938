//! One way in: how every reader of IDX bytes opens a stream.
//!
//! [`fill`] is the one "read until full or the end" loop; [`open`] reads
//! the first two bytes without losing them, asks the validator's one gzip
//! sniff ([`Validator`](crate::Validator)'s) what they are, and returns
//! either the raw stream or a pull loop (`gzip::Members`) over the
//! library's one gzip engine (`gzip::Stage`), the push engine the
//! validator's gzip stage drives, which applies the decompression limit
//! ([`Limits`]) itself: so every reader accepts, refuses and cuts exactly
//! the gzip data validation does, at the same byte. [`Reader`](crate::Reader)
//! opens its source here, and so does the differential fuzzer (for a gzip
//! input's content: to mutate a seed, and as the reference's content); the
//! front ends read through `Reader`, `validate*` or the repair. None sniffs
//! or decompresses on its own.

pub use crate::buffer::fill;
use crate::gzip::{Members, Stage, Step};
use crate::limits::Limits;
use std::io::{self, Read};

/// A stream opened by [`open`]: the raw bytes, or the decompressed bytes of
/// a gzip container. A gzip stream ends (`Ok(0)`) at the decompression
/// limit when it holds more ([`Stream::hit_limit`]) and where it is damaged
/// ([`Stream::damage`]), so that a reader sees the bytes before either as
/// the validator does (spec 7.19: a finding located before the limit or
/// the damage is kept) and reports IDX702 or IDX701 itself.
pub struct Stream<R> {
    inner: Inner<R>,
    limits: Limits,
}

/// The source with its sniffed bytes put back in front.
type Sniffed<R> = io::Chain<io::Take<io::Cursor<[u8; 2]>>, R>;

enum Inner<R> {
    Raw(Sniffed<R>),
    Gzip(Box<Members<Sniffed<R>>>),
}

impl<R> std::fmt::Debug for Stream<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Stream")
            .field("compression", &self.compression())
            .field("limits", &self.limits)
            .finish_non_exhaustive()
    }
}

/// Opens `r` as IDX input: with `decompress`, gzip (recognised by its
/// magic, `1f 8b`) is decoded by the library's decoder within `limits`;
/// anything else is passed through unchanged. Nothing is lost: the sniffed
/// bytes are returned first.
///
/// # Errors
/// The source's errors while sniffing.
pub fn open<R: Read>(mut r: R, decompress: bool, limits: Limits) -> io::Result<Stream<R>> {
    let mut magic = [0u8; 2];
    let n = fill(&mut r, &mut magic)?;
    let stream = io::Cursor::new(magic).take(n as u64).chain(r);
    let inner = if decompress && crate::validate::Validator::sniff(&magic[..n]).is_some() {
        Inner::Gzip(Box::new(Members::new(stream, limits)))
    } else {
        Inner::Raw(stream)
    };
    Ok(Stream { inner, limits })
}

impl<R> Stream<R> {
    /// The container the input came in (by [`Validator::sniff`](crate::Validator)),
    /// `None` for a raw stream.
    pub fn compression(&self) -> Option<crate::Compression> {
        matches!(self.inner, Inner::Gzip(_)).then_some(crate::Compression::Gzip)
    }

    /// The gzip engine's stage, for a gzip stream.
    fn stage(&self) -> Option<&Stage> {
        match &self.inner {
            Inner::Raw(_) => None,
            Inner::Gzip(g) => Some(g.stage()),
        }
    }

    /// True when reading stopped at the decompression limit.
    pub fn hit_limit(&self) -> bool {
        self.limit().is_some()
    }

    /// The decompression limit the stream held more than, once it did.
    pub(crate) fn limit(&self) -> Option<u64> {
        self.stage().and_then(Stage::over)
    }

    /// Where a gzip stream was found damaged, in decompressed bytes, and
    /// what the decoder said.
    pub fn damage(&self) -> Option<(u64, String)> {
        self.stage().and_then(Stage::damage).cloned()
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
        let g = match &mut self.inner {
            Inner::Raw(r) => return r.read(buf),
            Inner::Gzip(g) => g,
        };
        if buf.is_empty() {
            return Ok(0);
        }
        // damage and the limit end the stream: the stage says where
        match g.step(buf)? {
            Step::Data(n) => Ok(n),
            Step::Damaged { written, .. } => Ok(written),
            Step::End | Step::Limit(_) | Step::More => Ok(0),
        }
    }
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

    fn limit(n: Option<u64>) -> Limits {
        Limits::default().with_max_decompressed(n)
    }

    /// Everything the stream gives, read 3 bytes at a time, and whether it
    /// was gzip.
    fn all<R: Read>(mut s: Stream<R>) -> (Vec<u8>, bool) {
        let mut out = Vec::new();
        let mut buf = [0u8; 3];
        loop {
            match s.read(&mut buf) {
                Ok(0) => return (out, s.compression().is_some()),
                Ok(n) => out.extend_from_slice(&buf[..n]),
                Err(e) => panic!("{e}"), // ok: unit test
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
            let s = open(b, true, limit(None)).unwrap(); // ok: unit test
            assert_eq!(all(s), (b.to_vec(), false));
        }
    }

    #[test]
    fn gzip_is_decoded_by_the_library_decoder_padding_included() {
        let mut g = gz(b"\x00\x00\x08\x01\x00\x00\x00\x01\x07");
        g.extend([0, 0, 0]); // zero padding after the last member (spec 7.18)
        let (out, gzip) = all(open(&g[..], true, limit(None)).unwrap()); // ok: unit test
        assert_eq!(
            (out.as_slice(), gzip),
            (&b"\x00\x00\x08\x01\x00\x00\x00\x01\x07"[..], true)
        );
        // not decompressed when asked not to: the bytes as they are
        let (out, gzip) = all(open(&g[..], false, limit(None)).unwrap()); // ok: unit test
        assert_eq!((out, gzip), (g, false));
    }

    #[test]
    fn the_limit_ends_the_stream_after_exactly_its_bytes_and_says_so() {
        let g = gz(&[5u8; 100]);
        for piece in [1, 3, 7, 100, 4096] {
            let mut s = open(&g[..], true, limit(Some(10))).unwrap(); // ok: unit test
            let mut out = Vec::new();
            let mut buf = vec![0u8; piece];
            loop {
                let n = s.read(&mut buf).unwrap(); // ok: unit test
                if n == 0 {
                    break;
                }
                out.extend_from_slice(&buf[..n]);
            }
            assert_eq!(out, [5u8; 10], "pieces of {piece}");
            assert!(s.hit_limit() && s.damage().is_none());
            assert_eq!(s.limit(), Some(10));
            // the end stays the end
            assert_eq!(s.read(&mut buf).unwrap(), 0); // ok: unit test
        }
        // exactly at the limit is not over it
        let mut s = open(&g[..], true, limit(Some(100))).unwrap(); // ok: unit test
        let mut out = Vec::new();
        s.read_to_end(&mut out).unwrap(); // ok: unit test
        assert_eq!(out.len(), 100);
        assert!(!s.hit_limit() && s.limit().is_none());
        // a raw stream has no decompression limit
        let raw = [7u8; 50];
        let (out, _) = all(open(&raw[..], true, limit(Some(10))).unwrap()); // ok: unit test
        assert_eq!(out, raw);
    }

    #[test]
    fn damage_ends_the_stream_after_the_decoded_prefix_and_says_where() {
        let g = gz(&[7u8; 50]);
        let cut = &g[..g.len() - 4];
        let mut s = open(cut, true, limit(None)).unwrap(); // ok: unit test
        let mut out = Vec::new();
        s.read_to_end(&mut out).unwrap(); // ok: unit test
        assert_eq!(out, [7u8; 50]);
        let (at, why) = s.damage().unwrap(); // ok: unit test
        assert_eq!(at, 50);
        assert!(!why.is_empty() && !s.hit_limit());
    }

    #[test]
    fn damage_is_the_end_even_when_a_valid_member_follows() {
        // member 1 with its CRC broken, then a valid member 2: the stream
        // ends at member 1's damage, and stays ended
        let mut g = gz(&[1u8; 20]);
        let crc_at = g.len() - 8;
        g[crc_at] ^= 0xff;
        g.extend(gz(&[2u8; 30]));
        let mut s = open(&g[..], true, limit(None)).unwrap(); // ok: unit test
        let mut out = Vec::new();
        s.read_to_end(&mut out).unwrap(); // ok: unit test
        assert_eq!(out, [1u8; 20]);
        assert_eq!(s.damage().map(|d| d.0), Some(20));
        let mut buf = [0u8; 64];
        for _ in 0..3 {
            assert_eq!(s.read(&mut buf).unwrap(), 0); // ok: unit test
        }
    }

    #[test]
    fn an_empty_read_takes_nothing_from_the_stream() {
        let data: Vec<u8> = (0..100u8).collect();
        let g = gz(&data);
        for max in [None, Some(100), Some(10)] {
            let mut s = open(&g[..], true, limit(max)).unwrap(); // ok: unit test
            let mut out = Vec::new();
            let mut buf = [0u8; 7];
            loop {
                assert_eq!(s.read(&mut []).unwrap(), 0); // ok: unit test
                let n = s.read(&mut buf).unwrap(); // ok: unit test
                if n == 0 {
                    break;
                }
                out.extend_from_slice(&buf[..n]);
            }
            let want = max.map_or(100, |m| m as usize);
            assert_eq!(out, data[..want], "limit {max:?}");
            assert_eq!(s.hit_limit(), max == Some(10));
        }
    }

    #[test]
    fn a_stream_shows_its_container_and_limits() {
        let g = gz(b"x");
        let s = open(&g[..], true, limit(Some(5))).unwrap(); // ok: unit test
        let shown = format!("{s:?}");
        assert!(
            shown.starts_with(
                "Stream { compression: Some(Gzip), limits: Limits { max_decompressed: Some(5) }"
            ),
            "{shown}"
        );
    }

    /// A source that counts the bytes taken from it.
    struct Counted<'a> {
        rest: &'a [u8],
        taken: std::rc::Rc<std::cell::Cell<usize>>,
    }

    impl Read for Counted<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = self.rest.read(buf)?;
            self.taken.set(self.taken.get() + n);
            Ok(n)
        }
    }

    #[test]
    fn the_end_at_the_limit_reads_no_more_of_the_source() {
        // 400 KB that do not compress: several input pieces of the decoder
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let data: Vec<u8> = (0..400_000)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                (x >> 32) as u8
            })
            .collect();
        let g = gz(&data);
        let taken = std::rc::Rc::new(std::cell::Cell::new(0));
        let src = Counted {
            rest: &g,
            taken: taken.clone(),
        };
        let mut s = open(src, true, limit(Some(10))).unwrap(); // ok: unit test
        let mut out = Vec::new();
        s.read_to_end(&mut out).unwrap(); // ok: unit test
        assert!(s.hit_limit() && out.len() == 10);
        let at_end = taken.get();
        assert!(at_end < g.len(), "{at_end} of {} bytes", g.len());
        // reads after the end take nothing more from the source (each
        // would probe one more byte: 200,000 of them need more input)
        let mut buf = [0u8; 4096];
        for _ in 0..200_000 {
            assert_eq!(s.read(&mut buf).unwrap(), 0); // ok: unit test
        }
        assert_eq!(taken.get(), at_end);
    }

    /// A source that fails after its bytes.
    struct Failing<'a>(&'a [u8]);

    impl Read for Failing<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.0.is_empty() {
                return Err(io::Error::other("the disk failed"));
            }
            let n = buf.len().min(self.0.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    #[test]
    fn the_sources_own_errors_are_errors_not_damage() {
        let g = gz(&[7u8; 50]);
        let mut s = open(Failing(&g[..g.len() - 4]), true, limit(None)).unwrap(); // ok: unit test
        let mut out = Vec::new();
        let e = s.read_to_end(&mut out).unwrap_err(); // ok: unit test
        assert_eq!(e.to_string(), "the disk failed");
        assert!(s.damage().is_none());
    }
}
