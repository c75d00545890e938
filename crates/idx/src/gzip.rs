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

use crate::limits::Limits;
use flate2::{Decompress, FlushDecompress, Status};
use std::io::{self, Read};

/// Size of the compressed-input buffer (a fixed bound).
pub(crate) const IN_LEN: usize = 64 * 1024;

/// What one step of the deflate decoder ([`Inflate`]) did.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Decoded {
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

/// The container's members, padding and damage: given the next compressed
/// bytes, it decodes what they hold into a caller's buffer. Only [`Stage`]
/// drives it.
struct Inflate {
    dec: Option<Decompress>,
    members: u64,
    /// Zero bytes seen after the last member.
    padding: u64,
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
    fn new() -> Self {
        Inflate {
            dec: None,
            members: 0,
            padding: 0,
            done: false,
        }
    }

    /// True once the container ended or was found damaged: no further
    /// byte is looked at.
    fn is_done(&self) -> bool {
        self.done
    }

    /// Decodes from `input` (the next compressed bytes; `last` when no
    /// byte follows them) into `out` (which must not be empty). Returns how
    /// many input bytes were used, and what happened.
    fn step(&mut self, input: &[u8], last: bool, out: &mut [u8]) -> (usize, Decoded) {
        let mut pos = 0;
        loop {
            if self.done {
                return (pos, Decoded::End);
            }
            let rest = &input[pos..];
            let Some(dec) = &mut self.dec else {
                // between members: a new member, padding, or garbage
                let Some(&first) = rest.first() else {
                    if last {
                        self.done = true;
                        return (pos, Decoded::End);
                    }
                    return (pos, Decoded::More);
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
                        Decoded::Damaged {
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
                        Decoded::Damaged {
                            written: wrote,
                            why: e.to_string(),
                        },
                    );
                }
                Ok(Status::StreamEnd) => {
                    self.dec = None;
                    if wrote > 0 {
                        return (pos, Decoded::Data(wrote));
                    }
                }
                Ok(Status::Ok | Status::BufError) => {
                    if wrote > 0 {
                        return (pos, Decoded::Data(wrote));
                    }
                    if used == 0 && pos == input.len() {
                        if !last {
                            return (pos, Decoded::More);
                        }
                        self.done = true;
                        return (
                            pos,
                            Decoded::Damaged {
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
                            Decoded::Damaged {
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

/// What one step of the [`Stage`] did.
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
    /// The container holds more than the decompression limit (this many
    /// bytes), all of which were returned before: nothing more is decoded
    /// (spec 7.19, IDX702).
    Limit(u64),
    /// The compressed input taken so far is used up: the next bytes of
    /// the container are needed (never once the input ended).
    More,
}

/// The library's one gzip engine, a push stage: compressed bytes are
/// taken in ([`Stage::take`] as they come, or [`Stage::fill_from`] a
/// `Read`), gathered into pieces of [`IN_LEN`] bytes (the deflate
/// decoder's verdict on a damaged stream may depend on where its input is
/// cut: so the findings never depend on how the caller chunks its input),
/// and each piece is decoded into the caller's buffer ([`Stage::step`]) up
/// to the decompression limit ([`Limits`]), which it applies itself. The
/// validator's gzip stage (push: `validate::compressed`) and every pull
/// reader ([`Members`], under `input::Stream`, the repair and the fuzzer)
/// are loops over it, so all of them accept, refuse and cut exactly the
/// same streams at exactly the same byte. Memory is fixed: one piece.
pub(crate) struct Stage {
    inflate: Inflate,
    piece: Box<[u8]>,
    /// The piece's bytes not yet decoded: `pos..len`.
    pos: usize,
    len: usize,
    /// The piece is complete (full, or the input's last) and is being
    /// decoded; otherwise it is being gathered.
    ready: bool,
    /// The piece is the input's last.
    last: bool,
    /// No compressed byte follows those taken ([`Stage::end_input`]).
    input_ended: bool,
    limits: Limits,
    /// Decompressed bytes returned so far.
    out: u64,
    /// The limit, once the container was found to hold more than it.
    over: Option<u64>,
    /// Where the container was found damaged (decompressed bytes before
    /// the damage) and what the decoder said.
    damage: Option<(u64, String)>,
}

impl std::fmt::Debug for Stage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Stage")
            .field("inflate", &self.inflate)
            .field("limits", &self.limits)
            .field("out", &self.out)
            .finish_non_exhaustive()
    }
}

impl Stage {
    /// A stage for a container (which starts with `1f 8b`) decoded within
    /// `limits`.
    pub(crate) fn new(limits: Limits) -> Self {
        Stage {
            inflate: Inflate::new(),
            piece: vec![0u8; IN_LEN].into_boxed_slice(),
            pos: 0,
            len: 0,
            ready: false,
            last: false,
            input_ended: false,
            limits,
            out: 0,
            over: None,
            damage: None,
        }
    }

    /// True once nothing more of the container is looked at: it ended, is
    /// damaged, or holds more than the limit.
    pub(crate) fn is_done(&self) -> bool {
        self.inflate.is_done() || self.over.is_some()
    }

    /// Zero bytes seen after the last member.
    pub(crate) fn padding(&self) -> u64 {
        self.inflate.padding
    }

    /// The decompression limit the container held more than, once it did.
    pub(crate) fn over(&self) -> Option<u64> {
        self.over
    }

    /// Where the container was found damaged, in decompressed bytes, and
    /// what the decoder said.
    pub(crate) fn damage(&self) -> Option<&(u64, String)> {
        self.damage.as_ref()
    }

    /// Takes the next compressed bytes into the piece being gathered:
    /// returns how many it took (none while a piece is being decoded:
    /// [`Stage::step`] until [`Step::More`] first; none once the input
    /// ended or the stage is done, whose last piece stays ready).
    pub(crate) fn take(&mut self, input: &[u8]) -> usize {
        if self.ready {
            return 0;
        }
        let n = (self.piece.len() - self.len).min(input.len());
        self.piece[self.len..self.len + n].copy_from_slice(&input[..n]);
        self.len += n;
        self.ready = self.len == self.piece.len();
        n
    }

    /// Says that no compressed byte follows those taken.
    pub(crate) fn end_input(&mut self) {
        self.input_ended = true;
        if !self.ready {
            self.ready = true;
            self.last = true;
        }
    }

    /// Gathers the next piece from `src` (all of it, or to the source's
    /// end), when one is wanted.
    ///
    /// # Errors
    /// The source's errors.
    pub(crate) fn fill_from<R: Read>(&mut self, src: &mut R) -> io::Result<()> {
        if self.ready {
            return Ok(());
        }
        self.len += crate::buffer::fill(src, &mut self.piece[self.len..])?;
        if self.len < self.piece.len() {
            self.end_input(); // the last piece: ready
        } else {
            self.ready = true;
        }
        Ok(())
    }

    /// Decodes the next bytes of the piece into `out`, within the limit.
    /// At the limit, one more byte is decoded (into the stage's own byte)
    /// to tell a container that holds exactly the limit from one that
    /// holds more ([`Step::Limit`]). Once the stage is done: [`Step::End`].
    pub(crate) fn step(&mut self, out: &mut [u8]) -> Step {
        if out.is_empty() {
            return Step::Data(0);
        }
        loop {
            if self.is_done() {
                return Step::End;
            }
            if !self.ready {
                return Step::More;
            }
            let (room, cut) = cut(self.limits, self.out, out.len());
            let mut probe = [0u8; 1];
            let dst = if room == 0 {
                &mut probe[..]
            } else {
                &mut out[..room]
            };
            let (used, decoded) =
                self.inflate
                    .step(&self.piece[self.pos..self.len], self.last, dst);
            self.pos += used;
            return match decoded {
                Decoded::Data(k) => match cut {
                    Some(limit) if room == 0 => {
                        self.over = Some(limit);
                        Step::Limit(limit)
                    }
                    _ => {
                        self.out += k as u64;
                        Step::Data(k)
                    }
                },
                Decoded::End => Step::End,
                Decoded::Damaged { written, why } => match cut {
                    // a byte past the limit was decoded before the damage:
                    // the container holds more than the limit
                    Some(limit) if room == 0 && written > 0 => {
                        self.over = Some(limit);
                        Step::Limit(limit)
                    }
                    _ => {
                        // (at the limit, nothing was written: the arm above)
                        self.out += written as u64;
                        self.damage = Some((self.out, why.clone()));
                        Step::Damaged { written, why }
                    }
                },
                Decoded::More => {
                    // the piece is used up: gather the next one, or decode
                    // the (empty) last piece when the input ended
                    (self.pos, self.len) = (0, 0);
                    self.ready = false;
                    if self.input_ended {
                        self.end_input();
                        continue;
                    }
                    Step::More
                }
            };
        }
    }
}

/// Of `n` decompressed bytes that follow `done` ones: how many stay within
/// the decompression limit, and the limit when it cuts them short. The one
/// place the limit is applied ([`Stage::step`]).
fn cut(limits: Limits, done: u64, n: usize) -> (usize, Option<u64>) {
    match limits.max_decompressed {
        Some(limit) if done.saturating_add(n as u64) > limit => {
            // less than n: fits a usize
            (limit.saturating_sub(done) as usize, Some(limit))
        }
        _ => (n, None),
    }
}

/// A gzip container read from `src`, decoded in fixed memory: a pull loop
/// over the [`Stage`] (it gathers a piece from the source whenever the
/// stage wants more).
pub(crate) struct Members<R> {
    src: R,
    stage: Stage,
    damage: Option<String>,
}

impl<R> std::fmt::Debug for Members<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Members")
            .field("stage", &self.stage)
            .finish_non_exhaustive()
    }
}

impl<R> Members<R> {
    /// The compressed source.
    pub(crate) fn source(&self) -> &R {
        &self.src
    }

    /// The stage: where the container ended, its padding, damage, limit.
    pub(crate) fn stage(&self) -> &Stage {
        &self.stage
    }
}

impl<R: Read> Members<R> {
    /// A decoder for the container `src` (which starts with `1f 8b`),
    /// within `limits`.
    pub(crate) fn new(src: R, limits: Limits) -> Self {
        Members {
            src,
            stage: Stage::new(limits),
            damage: None,
        }
    }

    /// Decodes the next bytes into `out` (which must not be empty): never
    /// [`Step::More`].
    ///
    /// # Errors
    /// Only the source's I/O errors; damage is [`Step::Damaged`].
    pub(crate) fn step(&mut self, out: &mut [u8]) -> io::Result<Step> {
        loop {
            match self.stage.step(out) {
                Step::More => self.stage.fill_from(&mut self.src)?,
                step => return Ok(step),
            }
        }
    }
}

/// Damage of a gzip stream: the inner error of the `InvalidData` errors
/// that [`Members`] reads return, so that damage is told apart from a
/// source's own errors of that kind.
#[derive(Debug)]
pub(crate) struct Damage(String);

impl std::fmt::Display for Damage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Damage {}

/// The decompressed stream as a reader, for the repair path: damage is an
/// `InvalidData` error ([`Damage`]) after the bytes decoded before it were
/// returned, and so is a container that holds more than the limit (the
/// repair validates first and refuses such input: defence in depth).
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
            Step::Limit(limit) => Err(io::Error::new(
                io::ErrorKind::InvalidData,
                Damage(format!(
                    "the gzip stream holds more than the decompression limit of {limit} bytes"
                )),
            )),
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
        let mut m = Members::new(bytes, Limits::default());
        let mut out = Vec::new();
        let mut buf = [0u8; 7];
        loop {
            let step = m.step(&mut buf).unwrap(); // ok: unit test
            match step {
                Step::Data(n) => out.extend_from_slice(&buf[..n]),
                Step::End | Step::More | Step::Limit(_) => return (out, None, m.stage().padding()),
                Step::Damaged { written, why } => {
                    out.extend_from_slice(&buf[..written]);
                    return (out, Some(why), m.stage().padding());
                }
            }
        }
    }

    /// Bytes that do not compress: several pieces of compressed input.
    fn noise(n: usize) -> Vec<u8> {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        (0..n)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                (x >> 32) as u8
            })
            .collect()
    }

    /// What the stage gives when `gz` is pushed into it in `chunk`-byte
    /// pieces and decoded into a buffer of `room` bytes: the bytes, and
    /// how it ended.
    fn pushed(gz: &[u8], limits: Limits, chunk: usize, room: usize) -> (Vec<u8>, Step) {
        let mut stage = Stage::new(limits);
        let mut out = Vec::new();
        let mut buf = vec![0u8; room];
        let mut pieces = gz.chunks(chunk);
        let mut pending: &[u8] = &[];
        let mut ended = false;
        loop {
            match stage.step(&mut buf) {
                Step::Data(n) => out.extend_from_slice(&buf[..n]),
                Step::More => {
                    // as the validator pushes: what is left of the last
                    // chunk first, then the next chunk; the end once both
                    // are used up
                    assert!(!ended, "More after the input ended");
                    if pending.is_empty() {
                        pending = pieces.next().unwrap_or_default();
                    }
                    pending = &pending[stage.take(pending)..];
                    if pending.is_empty() && pieces.len() == 0 && !ended {
                        stage.end_input(); // once, as the validator's finish
                        ended = true;
                    }
                }
                Step::Damaged { written, why } => {
                    out.extend_from_slice(&buf[..written]);
                    return (out, Step::Damaged { written: 0, why });
                }
                end => return (out, end),
            }
        }
    }

    /// What a pull loop over the stage gives, read `room` bytes at a time.
    fn pulled(gz: &[u8], limits: Limits, room: usize) -> (Vec<u8>, Step) {
        let mut m = Members::new(gz, limits);
        let mut out = Vec::new();
        let mut buf = vec![0u8; room];
        loop {
            let step = m.step(&mut buf).unwrap(); // ok: unit test
            match step {
                Step::Data(n) => out.extend_from_slice(&buf[..n]),
                Step::Damaged { written, why } => {
                    out.extend_from_slice(&buf[..written]);
                    return (out, Step::Damaged { written: 0, why });
                }
                end => return (out, end),
            }
        }
    }

    /// The length, a hash of the bytes, and the end (short to print).
    fn summary((out, end): (Vec<u8>, Step)) -> (usize, u64, Step) {
        let hash = out.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        });
        (out.len(), hash, end)
    }

    #[test]
    fn pushed_in_any_pieces_or_pulled_the_stage_gives_the_same_bytes_and_end() {
        let data = noise(300_000);
        let whole = gz(&data);
        let mut damaged = whole.clone();
        let crc_at = damaged.len() - 8;
        damaged[crc_at] ^= 0xff;
        let cut = whole[..200_000].to_vec();
        // two members, then zero padding up to a multiple of the piece
        // length: the last piece is full, and the end comes after it
        let mut members = gz(&data[..150_000]);
        members.extend(gz(&data[150_000..]));
        members.resize(members.len().div_ceil(IN_LEN) * IN_LEN, 0);
        let n = data.len() as u64;
        let cases = [
            ("whole", &whole),
            ("members", &members),
            ("damaged", &damaged),
            ("cut", &cut),
        ];
        for (what, g) in cases {
            for max in [None, Some(0), Some(1), Some(100_000), Some(n - 1), Some(n)] {
                let limits = Limits::default().with_max_decompressed(max);
                let want = summary(pulled(g, limits, 64 * 1024));
                // the reference: the bytes and the end say what they should
                let prefix = |m: u64, end| summary((data[..m as usize].to_vec(), end));
                match (what, max) {
                    (_, Some(m)) if m < n && (what != "cut" || m < 150_000) => {
                        assert_eq!(want, prefix(m, Step::Limit(m)), "{what} {max:?}");
                    }
                    ("whole" | "members", _) => assert_eq!(want, prefix(n, Step::End)),
                    _ => assert!(matches!(want.2, Step::Damaged { .. }), "{what} {max:?}"),
                }
                for chunk in [1, 7, 65_537, g.len()] {
                    for room in [1, 4099] {
                        if chunk == 1 && room == 1 && max != Some(1) {
                            continue; // slow, and nothing the others miss
                        }
                        assert_eq!(
                            summary(pushed(g, limits, chunk, room)),
                            want,
                            "{what}, limit {max:?}, pushed {chunk} at a time, into {room}"
                        );
                        let got = summary(pulled(g, limits, room));
                        assert_eq!(got, want, "{what}, {max:?}, {room}");
                    }
                }
            }
        }
    }

    #[test]
    fn the_input_ended_while_a_full_piece_is_decoded_ends_after_it() {
        // the input ends with a full piece still to decode: the stage
        // decodes it, then ends (here: inside a member, the stream is cut)
        let g = gz(&noise(100_000));
        let mut stage = Stage::new(Limits::default());
        assert_eq!(stage.take(&g), IN_LEN);
        stage.end_input();
        let mut out = vec![0u8; 4096];
        let mut n = 0;
        let end = loop {
            match stage.step(&mut out) {
                Step::Data(k) => n += k,
                end => break end,
            }
        };
        assert!(matches!(end, Step::Damaged { written: 0, .. }), "{end:?}");
        assert_eq!(stage.damage().map(|d| d.0), Some(n as u64));
        assert!(n > 0 && stage.is_done() && stage.padding() == 0);
    }

    #[test]
    fn damage_found_at_the_limit_with_nothing_more_decoded_is_damage_not_the_limit() {
        // a stored stream whose trailer (CRC-32 and length) is a piece of
        // its own, the CRC broken: all of the data is decoded from the first
        // piece, exactly the limit, and the damage is found in the second,
        // by the probe at the limit, which decodes nothing more
        let stored = |len: usize| {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::none());
            e.write_all(&noise(len)).unwrap(); // ok: unit test
            e.finish().unwrap() // ok: unit test
        };
        let len = (IN_LEN - 100..IN_LEN)
            .find(|&len| stored(len).len() == IN_LEN + 8)
            .unwrap(); // ok: unit test
        let mut g = stored(len);
        g[IN_LEN] ^= 0xff; // the CRC
        let limits = Limits::default().with_max_decompressed(Some(len as u64));
        let (out, end) = pulled(&g, limits, 4099);
        assert_eq!(out, noise(len));
        assert!(matches!(end, Step::Damaged { .. }), "{end:?}");
        // one byte less is the limit: the probe decodes a byte
        let limits = Limits::default().with_max_decompressed(Some(len as u64 - 1));
        assert_eq!(pulled(&g, limits, 4099).1, Step::Limit(len as u64 - 1));
    }

    #[test]
    fn no_limit_cuts_nothing_and_a_limit_cuts_at_itself() {
        let limit = |n| Limits::default().with_max_decompressed(n);
        assert_eq!(cut(limit(None), u64::MAX - 4, 10), (10, None));
        assert_eq!(cut(limit(Some(100)), 95, 10), (5, Some(100)));
        assert_eq!(cut(limit(Some(100)), 90, 10), (10, None));
        assert_eq!(cut(limit(Some(100)), 100, 1), (0, Some(100)));
        assert_eq!(cut(limit(Some(100)), 200, 1), (0, Some(100)));
    }

    #[test]
    fn the_stage_takes_or_gathers_no_byte_after_the_end_of_its_input_or_while_decoding() {
        let g = gz(&noise(100_000));
        let mut stage = Stage::new(Limits::default());
        // a whole piece is taken, then nothing until it is decoded
        assert_eq!(stage.take(&g), IN_LEN);
        assert_eq!(stage.take(&g[IN_LEN..]), 0);
        let mut src = &g[IN_LEN..];
        stage.fill_from(&mut src).unwrap(); // ok: unit test
        assert_eq!(
            src.len(),
            g.len() - IN_LEN,
            "nothing gathered while decoding"
        );
        let mut out = vec![0u8; 4096];
        let mut n = 0;
        while let Step::Data(k) = stage.step(&mut out) {
            n += k;
        }
        let rest = &g[IN_LEN..];
        assert_eq!(stage.take(rest), rest.len());
        stage.end_input();
        assert_eq!(stage.take(b"more"), 0, "the input ended");
        while let Step::Data(k) = stage.step(&mut out) {
            n += k;
        }
        assert_eq!(n, 100_000);
        assert!(stage.is_done() && stage.damage().is_none());
        assert_eq!(stage.take(b"more"), 0, "done");
        assert_eq!(stage.step(&mut out), Step::End, "the end stays the end");
    }

    #[test]
    fn a_container_over_the_limit_read_as_a_stream_is_an_error_after_the_limit() {
        let g = gz(&[3u8; 100]);
        let limits = Limits::default().with_max_decompressed(Some(10));
        let mut out = Vec::new();
        let e = Members::new(&g[..], limits)
            .read_to_end(&mut out)
            .unwrap_err(); // ok: unit test
        assert_eq!(out, [3u8; 10]);
        assert_eq!(e.kind(), io::ErrorKind::InvalidData);
        assert!(
            e.to_string().contains("decompression limit of 10 bytes"),
            "{e}"
        );
        // exactly the limit is not over it
        let limits = Limits::default().with_max_decompressed(Some(100));
        let mut out = Vec::new();
        Members::new(&g[..], limits).read_to_end(&mut out).unwrap(); // ok: unit test
        assert_eq!(out, [3u8; 100]);
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
        let e = Members::new(&junk[..], Limits::default())
            .read_to_end(&mut out)
            .unwrap_err(); // ok: unit test
        assert_eq!(out, b"hello");
        assert!(e.get_ref().is_some_and(|inner| inner.is::<Damage>()));
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
        let mut m = Members::new(&padded[..], Limits::default());
        let mut buf = [0u8; 64];
        while !matches!(m.step(&mut buf).unwrap(), Step::End) {} // ok: unit test
        let shown = format!("{m:?}");
        assert!(
            shown.starts_with("Members { stage: Stage { inflate: Inflate {"),
            "{shown}"
        );
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
