//! The gzip container (RFC 1952, spec 5.2): members decoded one after the
//! other by zlib-rs (through flate2's `Decompress` in gzip mode, which
//! checks the header, the CRC-32 and the length of every member).
//!
//! Why not `flate2::read::MultiGzDecoder` on its default backend:
//! miniz_oxide, in the streaming (wrapping 32 KiB window) mode flate2 uses,
//! does not check a back-reference against the start of the output, so a
//! distance "too far back" copies zeros from the fresh window and an
//! invalid stream decodes as valid. And a `Read`
//! adapter drops the bytes decoded in the same call as an error, so the
//! findings of the prefix before the damage were lost (bug 3). Here every
//! step says how many bytes it wrote, also when it fails.
//!
//! After the last member, zero bytes are padding (spec 7.18): accepted and
//! counted; any other byte is damage (IDX701).

use flate2::{Decompress, FlushDecompress, Status};
use std::io::{self, Read};

/// Size of the compressed-input buffer (a fixed bound).
pub(crate) const IN_LEN: usize = 64 * 1024;

/// What one decoding step did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Step {
    /// This many bytes were written to the output buffer.
    Data(usize),
    /// The container ended cleanly.
    End,
    /// The container is damaged; `written` bytes decoded before the damage
    /// were written to the output buffer first.
    Damaged {
        /// Bytes written by this step before the damage.
        written: usize,
        /// What is wrong, in the decoder's words.
        why: String,
    },
    /// Every input byte given was used and nothing was written: the next
    /// bytes of the container are needed (never when the input is the last).
    More,
}

/// The push engine of the container: given the next compressed bytes, it
/// decodes what they hold into a caller's buffer. [`Members`] (pull, over a
/// `Read`) and the validator's gzip stage (push, bytes fed as they come)
/// are loops over it, so both accept and refuse exactly the same streams.
pub(crate) struct Inflate {
    dec: Option<Decompress>,
    members: u64,
    /// Zero bytes seen after the last member.
    pub padding: u64,
    done: bool,
}

impl std::fmt::Debug for Inflate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Inflate")
            .field("members", &self.members)
            .field("padding", &self.padding)
            .field("done", &self.done)
            .finish_non_exhaustive()
    }
}

impl Inflate {
    /// A decoder for a container (which starts with `1f 8b`).
    pub(crate) fn new() -> Self {
        Inflate {
            dec: None,
            members: 0,
            padding: 0,
            done: false,
        }
    }

    /// True once the container ended or was found damaged: no further
    /// byte is looked at.
    pub(crate) fn is_done(&self) -> bool {
        self.done
    }

    /// Decodes from `input` (the next compressed bytes; `last` when no
    /// byte follows them) into `out` (which must not be empty). Returns how
    /// many input bytes were used, and what happened.
    pub(crate) fn step(&mut self, input: &[u8], last: bool, out: &mut [u8]) -> (usize, Step) {
        let mut pos = 0;
        loop {
            if self.done {
                return (pos, Step::End);
            }
            let rest = &input[pos..];
            let Some(dec) = &mut self.dec else {
                // between members: a new member, padding, or garbage
                let Some(&first) = rest.first() else {
                    if last {
                        self.done = true;
                        return (pos, Step::End);
                    }
                    return (pos, Step::More);
                };
                if first == 0 && self.members > 0 {
                    let zeros = rest.iter().take_while(|&&b| b == 0).count();
                    self.padding += zeros as u64;
                    pos += zeros;
                    continue;
                }
                if self.padding > 0 || first != 0x1f {
                    self.done = true;
                    let what = if self.padding > 0 {
                        "a non-zero byte follows the zero padding after the last member"
                    } else {
                        "bytes after a member are neither another gzip member nor zero padding"
                    };
                    return (
                        pos,
                        Step::Damaged {
                            written: 0,
                            why: what.into(),
                        },
                    );
                }
                self.dec = Some(Decompress::new_gzip(15));
                self.members += 1;
                continue;
            };
            let (in0, out0) = (dec.total_in(), dec.total_out());
            let flush = if last {
                FlushDecompress::Finish
            } else {
                FlushDecompress::None
            };
            let res = dec.decompress(rest, out, flush);
            let used = (dec.total_in() - in0) as usize; // at most rest.len()
            let wrote = (dec.total_out() - out0) as usize; // at most out.len()
            pos += used;
            match res {
                Err(e) => {
                    self.done = true;
                    return (
                        pos,
                        Step::Damaged {
                            written: wrote,
                            why: e.to_string(),
                        },
                    );
                }
                Ok(Status::StreamEnd) => {
                    self.dec = None;
                    if wrote > 0 {
                        return (pos, Step::Data(wrote));
                    }
                }
                Ok(Status::Ok | Status::BufError) => {
                    if wrote > 0 {
                        return (pos, Step::Data(wrote));
                    }
                    if used == 0 && pos == input.len() {
                        if !last {
                            return (pos, Step::More);
                        }
                        self.done = true;
                        return (
                            pos,
                            Step::Damaged {
                                written: 0,
                                why: "the gzip stream ends inside a member".into(),
                            },
                        );
                    }
                    if used == 0 {
                        // input and room were given and nothing happened:
                        // never loop on it
                        self.done = true;
                        return (
                            pos,
                            Step::Damaged {
                                written: 0,
                                why: "the deflate decoder made no progress".into(),
                            },
                        );
                    }
                }
            }
        }
    }
}

/// A gzip container read from `src`, decoded in fixed memory: a loop over
/// [`Inflate`].
pub(crate) struct Members<R> {
    src: R,
    buf: Box<[u8]>,
    pos: usize,
    len: usize,
    eof: bool,
    core: Inflate,
    damage: Option<String>,
}

impl<R> std::fmt::Debug for Members<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Members")
            .field("core", &self.core)
            .finish_non_exhaustive()
    }
}

impl<R> Members<R> {
    /// The compressed source.
    pub(crate) fn source(&self) -> &R {
        &self.src
    }

    /// Zero bytes seen after the last member.
    #[cfg(any(test, feature = "fuzzing"))]
    pub(crate) fn padding(&self) -> u64 {
        self.core.padding
    }
}

impl<R: Read> Members<R> {
    /// A decoder for the container `src` (which starts with `1f 8b`).
    pub(crate) fn new(src: R) -> Self {
        Members {
            src,
            buf: vec![0u8; IN_LEN].into_boxed_slice(),
            pos: 0,
            len: 0,
            eof: false,
            core: Inflate::new(),
            damage: None,
        }
    }

    /// Refills the input buffer completely (or to the end of the source),
    /// so the decoder sees the same pieces whatever the source's chunking.
    fn fill(&mut self) -> io::Result<()> {
        if self.pos < self.len || self.eof {
            return Ok(());
        }
        self.pos = 0;
        self.len = crate::buffer::fill(&mut self.src, &mut self.buf)?;
        self.eof = self.len < self.buf.len();
        Ok(())
    }

    /// Decodes the next bytes into `out` (which must not be empty).
    ///
    /// # Errors
    /// Only the source's I/O errors; damage is [`Step::Damaged`].
    pub(crate) fn step(&mut self, out: &mut [u8]) -> io::Result<Step> {
        loop {
            if self.core.is_done() {
                return Ok(Step::End);
            }
            self.fill()?;
            let (used, step) = self.core.step(&self.buf[self.pos..self.len], self.eof, out);
            self.pos += used;
            if step != Step::More {
                return Ok(step);
            }
        }
    }
}

/// Damage of a gzip stream: the inner error of the `InvalidData` errors
/// that [`Members`] reads return, so that damage is told apart from a
/// source's own errors of that kind ([`is_damage`]).
#[derive(Debug)]
pub(crate) struct Damage(String);

impl std::fmt::Display for Damage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Damage {}

/// True when `e` is the damage of a gzip stream read through [`Members`],
/// not an error of its source.
pub(crate) fn is_damage(e: &io::Error) -> bool {
    e.get_ref().is_some_and(|inner| inner.is::<Damage>())
}

/// The decompressed stream as a reader, for the repair path: damage is an
/// `InvalidData` error ([`Damage`]) after the bytes decoded before it were
/// returned.
impl<R: Read> Read for Members<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        if let Some(why) = self.damage.take() {
            return Err(io::Error::new(io::ErrorKind::InvalidData, Damage(why)));
        }
        match self.step(buf)? {
            Step::Data(n) => Ok(n),
            Step::End | Step::More => Ok(0),
            Step::Damaged { written, why } => {
                if written > 0 {
                    self.damage = Some(why);
                    Ok(written)
                } else {
                    Err(io::Error::new(io::ErrorKind::InvalidData, Damage(why)))
                }
            }
        }
    }
}

/// True when `prefix` (the first bytes of an input, at least 2 of them to
/// be sure) starts with the gzip magic: the input the library decompresses
/// when [`Options::decompress`](crate::Options::decompress) is on.
pub(crate) fn is_gzip(prefix: &[u8]) -> bool {
    prefix.starts_with(&[0x1f, 0x8b])
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

    fn decode(bytes: &[u8]) -> (Vec<u8>, Option<String>, u64) {
        let mut m = Members::new(bytes);
        let mut out = Vec::new();
        let mut buf = [0u8; 7];
        loop {
            match m.step(&mut buf).unwrap() {
                // ok: unit test
                Step::Data(n) => out.extend_from_slice(&buf[..n]),
                Step::End | Step::More => return (out, None, m.padding()),
                Step::Damaged { written, why } => {
                    out.extend_from_slice(&buf[..written]);
                    return (out, Some(why), m.padding());
                }
            }
        }
    }

    #[test]
    fn members_padding_and_garbage() {
        let mut two = gz(b"hello ");
        two.extend(gz(b"world"));
        assert_eq!(decode(&two), (b"hello world".to_vec(), None, 0));
        let mut padded = two.clone();
        padded.extend([0; 5]);
        assert_eq!(decode(&padded), (b"hello world".to_vec(), None, 5));
        let mut garbage = padded.clone();
        garbage.push(1);
        assert!(decode(&garbage).1.is_some());
        let mut junk = two.clone();
        junk.extend(b"junk");
        assert!(decode(&junk).1.is_some());
        assert!(decode(&two[..two.len() - 1]).1.is_some());
    }

    #[test]
    fn a_member_after_the_zero_padding_is_damage_not_a_member() {
        let mut padded = gz(b"hello ");
        padded.extend([0; 4]);
        padded.extend(gz(b"world"));
        let (out, why, padding) = decode(&padded);
        assert_eq!((out, padding), (b"hello ".to_vec(), 4));
        let why = why.unwrap(); // ok: unit test
        assert!(why.contains("follows the zero padding"), "{why}");
    }

    #[test]
    fn bytes_after_a_member_that_start_no_member_are_named_as_such() {
        let mut junk = gz(b"hello");
        junk.extend(b"junk");
        let (out, why, _) = decode(&junk);
        assert_eq!(out, b"hello");
        let why = why.unwrap(); // ok: unit test
        assert!(
            why.contains("neither another gzip member nor zero padding"),
            "{why}"
        );
    }

    #[test]
    fn zeros_before_any_member_are_damage_not_padding() {
        // (the library decodes only input that starts with the magic; the
        // decoder itself does not rely on it)
        let (out, why, padding) = decode(&[0, 0, 0]);
        assert_eq!((out, padding), (Vec::new(), 0));
        assert!(why.is_some());
    }

    #[test]
    fn damage_read_through_members_is_an_error_that_says_what_is_wrong() {
        let mut junk = gz(b"hello");
        junk.extend(b"junk");
        let mut out = Vec::new();
        let e = Members::new(&junk[..]).read_to_end(&mut out).unwrap_err(); // ok: unit test
        assert_eq!(out, b"hello");
        assert!(is_damage(&e));
        assert_eq!(e.kind(), io::ErrorKind::InvalidData);
        let shown = e.to_string();
        assert!(
            shown.contains("neither another gzip member nor zero padding"),
            "{shown}"
        );
    }

    #[test]
    fn the_decoders_debug_form_shows_its_members_and_padding() {
        let mut padded = gz(b"hello");
        padded.extend([0; 3]);
        let mut m = Members::new(&padded[..]);
        let mut buf = [0u8; 64];
        while !matches!(m.step(&mut buf).unwrap(), Step::End) {} // ok: unit test
        let shown = format!("{m:?}");
        assert!(shown.starts_with("Members { core: Inflate {"), "{shown}");
        assert!(
            shown.contains("members: 1, padding: 3, done: true"),
            "{shown}"
        );
    }

    #[test]
    fn a_block_without_an_end_of_block_code_is_damage_at_its_header() {
        // fuzz/regressions/inflate_diff/eob-missing-lit-len-code: a final
        // dynamic block whose literal/length code has one symbol (0x1d,
        // eight bits) and no code for 256, the end of block. No symbol of
        // it can be followed by a valid end, so nothing of it is decoded:
        // the damage is the block header (zlib: "invalid code -- missing
        // end-of-block"), while an inflater that checks only symbol by
        // symbol emits 0x1d bytes until a bit pattern fails to decode.
        let hex = concat!(
            "1d52494600010000000000010000000000000000000000000000000000000000",
            "0000000000000000000000000000000000000000000000000000000000000000",
            "0000000b0b0b0b0b0b0b0b0b0b0b0b0b0b2b29d47a082e00360b0b0b0b0b0b0b",
            "0b0b0b0b0b0b0b0b0b040b0b0b0b000e00400921fb5420442d18",
        );
        let mut b = vec![0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff];
        b.extend((0..hex.len() / 2).map(|i| {
            u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap() // ok: unit test
        }));
        let (out, why, _) = decode(&b);
        assert_eq!(out, b"");
        assert!(why.unwrap().contains("end-of-block")); // ok: unit test
    }

    #[test]
    fn a_distance_before_the_start_is_damage_and_the_prefix_is_kept() {
        // zlib says "invalid distance too far back" after
        // decoding 00 00 08 01
        let b: Vec<u8> = (0..29)
            .map(|i| {
                u8::from_str_radix(
                    &"1f8b08000000000000ff6360e06004b2981d9d9c01de6682520b000000"[2 * i..2 * i + 2],
                    16,
                )
                .unwrap() // ok: unit test
            })
            .collect();
        let (out, why, _) = decode(&b);
        assert_eq!(out, [0, 0, 8, 1]);
        assert!(why.unwrap().contains("too far back")); // ok: unit test
    }
}
