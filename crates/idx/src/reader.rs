//! One way to read an IDX input: [`Reader`], shaped like image-png's
//! `Decoder`.
//!
//! A reader is a loop over the one validation engine,
//! [`Validator`](crate::Validator) (as image-png's pull decoder is over
//! its push one): [`Reader::new`] takes any source and [`ReadOptions`]
//! whose default is safe ([`Limits::default`]: the same limit validation
//! and repair apply), recognises gzip by the validator's one sniff
//! (`input::open`) and decodes it within the limit through `input::Stream`,
//! a pull loop (`gzip::Members`) over the library's one gzip engine
//! (`gzip::Stage`, the push stage the validator drives, which applies the
//! limit itself), then reads exactly the header's bytes and feeds them to a
//! validator with the reading paths' checks (the spec's rules and the
//! byte-order test, under the stated byte order and the severity
//! overrides): the header is the one it analysed (whose item geometry,
//! [`Header::items`] and [`Header::item_len`], says what a caller reads of
//! it), an error its first. Then the payload goes straight into the
//! caller's memory ([`Reader::read_into`]) or into an owned array
//! ([`Reader::read_array`]), each chunk fed to the same validator as
//! stored before it is converted, then the bytes after it: the read's
//! error and warnings are the validator's. In parallel parts from a
//! positioned source ([`Reader::read_into_parallel`]) the payload is
//! decoded first, then fed to the same validator in order, as stored
//! (until only its length can change the findings: the rest is counted),
//! then the bytes after it; a payload read by other means
//! ([`Reader::decode_in_place`]) is fed to the validator whole, as stored,
//! before it is converted. Commands that must
//! report every finding before they write anything validate first and
//! then stream ([`Reader::validate`], [`Validated::payload`]).
//!
//! Every path follows the one verdict of spec 6.1: a payload that the
//! statistical byte-order test calls little-endian is decoded as IDX says,
//! with the IDX501 warning validation reports (refused only when the caller
//! makes it an error, [`ReadOptions::with_severity`]; the caller may state
//! its byte order, [`ReadOptions::with_byte_order`]); a damaged gzip stream
//! and the decompression limit are the located findings IDX701 and IDX702,
//! never a bare I/O error: the stream ends at the damage or the limit and
//! says so, and the reader makes the finding from that (`settle`,
//! `locate`), the validator being fed the decompressed bytes only.
//!
//! ```
//! # fn main() -> Result<(), idx::ReadError> {
//! // f32 [2]: 1.0 and -2.0, big-endian
//! let file = [0, 0, 0x0d, 1, 0, 0, 0, 2, 0x3f, 0x80, 0, 0, 0xc0, 0, 0, 0];
//! let reader = idx::Reader::new(&file[..], &idx::ReadOptions::default())?;
//! assert_eq!(reader.header().dims(), &[2]);
//! let mut out = [0f32; 2];
//! reader.read_into(bytemuck::cast_slice_mut(&mut out))?;
//! assert_eq!(out, [1.0, -2.0]);
//! # Ok(()) }
//! ```

use crate::array::Array;
use crate::edit::ByteOrder;
use crate::finding::{Finding, Report};
use crate::header::Header;
use crate::input::{self, Stream};
use crate::read::{self, ReadAt, ReadError};
use crate::rules::{Rule, Severities};
use crate::validate::{Options, Validator};
use crate::violations;
use std::io::{self, Read};
use std::num::NonZeroUsize;

use crate::limits::Limits;

/// How a [`Reader`] reads and checks: one [`Options`] value, the one
/// validation takes, whose default here decompresses gzip (the reader's
/// front door; validation's own default reports gzip as IDX402). The
/// reading paths follow its decompression, limits, stated byte order and
/// severity overrides; [`Reader::validate`] checks with all of it (lints,
/// expectations, the file name too). The default is the safe one: gzip
/// decompressed up to [`DEFAULT_MAX_DECOMPRESSED`](crate::DEFAULT_MAX_DECOMPRESSED)
/// bytes, the byte order decided by the byte-order test.
///
/// ```
/// let opts = idx::ReadOptions::default()
///     .with_limits(idx::Limits::from_setting(Some(0))) // a user's `--max-decompressed 0`: no limit
///     .with_byte_order(Some(idx::ByteOrder::Little));
/// assert_eq!(opts.validate.limits.max_decompressed, None);
/// assert_eq!(opts.validate.byte_order, Some(idx::ByteOrder::Little));
/// assert!(idx::ReadOptions::default().validate.decompress);
/// assert_eq!(idx::ReadOptions::default().validate.limits, idx::Limits::default());
/// // checks beyond reading: the same value, no conversion
/// let mut checked = idx::ReadOptions::default();
/// checked.validate = checked.validate.with_lints(false).with_file_name(Some("x.idx".into()));
/// assert!(!checked.validate.lints && checked.validate.decompress);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ReadOptions {
    /// The options of reading and of validation alike: what
    /// [`Reader::validate`] checks with, and whose decompression, limits,
    /// stated byte order and severity overrides every reading path follows.
    pub validate: Options,
}

impl Default for ReadOptions {
    fn default() -> Self {
        ReadOptions {
            validate: Options::default().with_decompress(true),
        }
    }
}

impl ReadOptions {
    /// Whether gzip input (by its magic) is decompressed (the default) or,
    /// off, reported as what it is (IDX402): for a caller that wants raw
    /// IDX only.
    pub fn with_decompress(mut self, on: bool) -> Self {
        self.validate.decompress = on;
        self
    }

    /// Stop decompressing gzip input after `limit` bytes (IDX702); `None`:
    /// no limit.
    pub fn with_max_decompressed(mut self, limit: Option<u64>) -> Self {
        self.validate.limits.max_decompressed = limit;
        self
    }

    /// Sets the limits ([`Limits::from_setting`] turns a user's
    /// `--max-decompressed N` into them).
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.validate.limits = limits;
        self
    }

    /// The byte order the caller states for the payload (spec 6.1): `None`
    /// reads the bytes as IDX says, with the byte-order test's warning
    /// (IDX501) when they read little-endian; `Big` reads them as IDX says,
    /// untested; `Little` reads them as little-endian, with a warning when
    /// they read big-endian.
    pub fn with_byte_order(mut self, stated: Option<ByteOrder>) -> Self {
        self.validate.byte_order = stated;
        self
    }

    /// Per-rule severity overrides: `IDX501=error` refuses a payload the
    /// byte-order test calls little-endian, as `idx-validate --severity
    /// IDX501=error` fails it.
    ///
    /// ```
    /// // i16 [64], written little-endian: 1..=64
    /// let mut file = vec![0, 0, 0x0b, 1, 0, 0, 0, 64];
    /// file.extend((1..=64i16).flat_map(i16::to_le_bytes));
    /// let warned = idx::Reader::new(&file[..], &idx::ReadOptions::default())?.read_array()?;
    /// assert_eq!(warned.1[0].rule.code(), "IDX501"); // read, with the warning
    /// let strict = idx::ReadOptions::default().with_severity("IDX501=error".parse()?);
    /// assert!(idx::Reader::new(&file[..], &strict)?.read_array().is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_severity(mut self, severity: Severities) -> Self {
        self.validate.severity = severity;
        self
    }
}

/// An IDX input being read: its header is read and checked, its payload
/// not yet: read it into memory, or validate it first and stream it.
///
/// ```
/// // u8 [2, 2] from any `Read` (a file, stdin, gzip or not)
/// let bytes = idx::to_bytes(&idx::Array::from_vec(vec![2, 2], vec![1u8, 2, 3, 4])?)?;
/// let reader = idx::Reader::new(&bytes[..], &idx::ReadOptions::default())?;
/// let h = reader.header().clone();
/// assert_eq!((h.dtype(), h.dims()), (idx::ElementType::U8, &[2, 2][..]));
/// // the header says what to allocate; the payload goes straight into it
/// let mut out = vec![0u8; h.payload_len() as usize];
/// reader.read_into(&mut out)?;
/// assert_eq!(out, [1, 2, 3, 4]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct Reader<R> {
    stream: Stream<R>,
    header: Header,
    opts: ReadOptions,
    /// The one validation engine, with the reading paths' checks
    /// ([`Options`]' `reading`): fed the header's bytes, it gave the header;
    /// fed the payload and what follows, it gives the read's verdict.
    /// (boxed: a reader is moved whole from call to call)
    engine: Box<Validator>,
}

impl<R: Read> Reader<R> {
    /// Opens `source`: gzip (recognised by its magic, `1f 8b`) is
    /// decompressed by the library's decoder within the limit; the header
    /// is read and checked.
    ///
    /// # Errors
    /// [`ReadError::Invalid`] with the first finding of a header that
    /// breaks a rule (a not-IDX input recognised from its first bytes), of
    /// damaged gzip (IDX701) or of the limit (IDX702); [`ReadError::Io`]
    /// for the source's own errors.
    ///
    /// ```
    /// use std::io::Write;
    ///
    /// // gzip is recognised by its magic and decompressed within the limit
    /// let raw = idx::to_bytes(&idx::Array::from_vec(vec![3], vec![7u8, 8, 9])?)?;
    /// let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    /// gz.write_all(&raw)?;
    /// let gz = gz.finish()?;
    /// let reader = idx::Reader::new(&gz[..], &idx::ReadOptions::default())?;
    /// assert_eq!(reader.compression(), Some(idx::Compression::Gzip));
    /// assert_eq!(reader.read_array()?.0, idx::Array::from_vec(vec![3], vec![7u8, 8, 9])?);
    ///
    /// // beyond the limit: the located IDX702 finding, not an I/O error
    /// let tight = idx::ReadOptions::default().with_max_decompressed(Some(9));
    /// let e = idx::Reader::new(&gz[..], &tight)?.read_array().unwrap_err();
    /// assert!(matches!(e, idx::ReadError::Invalid(e) if e.rule().code() == "IDX702"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(source: R, opts: &ReadOptions) -> Result<Reader<R>, ReadError> {
        let checks = &opts.validate;
        let mut stream = input::open(source, checks.decompress, checks.limits)?;
        // (fed the decompressed stream; a read's verdict is its findings,
        // which do not depend on the container, so it is not told of one)
        let mut engine = Box::new(Validator::plain(checks.reading()));
        match read::read_head(&mut stream, &mut engine) {
            Ok(header) => Ok(Reader {
                stream,
                header,
                opts: opts.clone(),
                engine,
            }),
            Err(e) => Err(locate(&stream, e)),
        }
    }

    /// The header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The container the input came in, `None` for plain IDX (offsets in
    /// errors are in the decompressed stream).
    pub fn compression(&self) -> Option<crate::Compression> {
        self.stream.compression()
    }

    /// How the payload is stored: big-endian unless the caller stated
    /// otherwise.
    fn stored(&self) -> ByteOrder {
        self.opts.validate.byte_order.unwrap_or(ByteOrder::Big)
    }

    /// Reads the payload into `out`, which holds exactly
    /// `header().payload_len()` bytes and receives the elements in native
    /// byte order, through a fixed buffer; then checks that the input ends
    /// there and applies the byte-order verdict.
    ///
    /// Returns the warnings of the read: the byte-order test's IDX501 when
    /// it calls the payload little-endian (a statistical test: the elements
    /// are decoded as IDX says all the same).
    ///
    /// # Errors
    /// [`ReadError::Invalid`] for a truncated payload (IDX202), bytes after
    /// it (IDX203), damaged gzip (IDX701), the limit (IDX702), an IDX501
    /// finding made an error by [`ReadOptions::with_severity`]; [`ReadError::Io`] for
    /// the source's errors, and of kind `InvalidInput` when `out` is not
    /// `header().payload_len()` bytes long (nothing is read then).
    ///
    /// # Allocation
    /// None but a fixed buffer: the caller sizes `out` from the header, and
    /// should know first that the source holds that much
    /// ([`Reader::output_buffer_size`] says so for a positioned source).
    pub fn read_into(self, out: &mut [u8]) -> Result<Vec<Finding>, ReadError> {
        let stored = self.stored();
        let Reader {
            mut stream,
            header,
            engine,
            ..
        } = self;
        let r =
            read::read_payload_into(&mut stream, &header, out, stored, engine, Stream::hit_limit);
        settle(&stream, r)
    }

    /// Reads the payload into an owned, native-endian array, which grows
    /// with the data actually read (at most 16 Mi elements ahead of it): a
    /// header that declares more than the input holds costs nothing.
    ///
    /// # Errors
    /// As [`Reader::read_into`].
    ///
    /// ```
    /// let bytes = idx::to_bytes(&idx::Array::from_vec(vec![2], vec![0.5f64, -1.0])?)?;
    /// let (a, warnings) = idx::Reader::new(&bytes[..], &idx::ReadOptions::default())?.read_array()?;
    /// assert_eq!(a.data(), &idx::Data::F64(vec![0.5, -1.0]));
    /// assert!(warnings.is_empty()); // the byte-order test's IDX501, when it warns
    ///
    /// // one payload byte missing: the finding validation reports, located
    /// let cut = &bytes[..bytes.len() - 1];
    /// match idx::Reader::new(cut, &idx::ReadOptions::default())?.read_array() {
    ///     Err(idx::ReadError::Invalid(e)) => assert_eq!((e.rule().code(), e.offset()), ("IDX202", 23)),
    ///     other => panic!("{other:?}"),
    /// }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn read_array(self) -> Result<(Array, Vec<Finding>), ReadError> {
        let stored = self.stored();
        let Reader {
            mut stream,
            header,
            engine,
            ..
        } = self;
        let r = read::read_payload_array(&mut stream, &header, stored, engine, Stream::hit_limit);
        settle(&stream, r)
    }
}

impl Reader<()> {
    /// Validates a whole input first, every finding with `opts` (as it
    /// reads, with its lints, expectations, file name): for commands that
    /// must report every finding before they write anything (`idx dump`,
    /// `idx convert`...). When validation found no error (the byte-order
    /// verdict included), the [`Validated`] it returns opens the input
    /// again for its payload ([`Validated::payload`]), checking that the
    /// header is still the one validated. `len` is the source's length when
    /// known (a regular file's size): the payload is then read no further
    /// than the byte-order test needs.
    ///
    /// ```
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// // i16 [3]: 1, 2, 3, big-endian
    /// let file = [0, 0, 0x0b, 1, 0, 0, 0, 3, 0, 1, 0, 2, 0, 3];
    /// let opts = idx::ReadOptions::default();
    /// let (report, validated) = idx::Reader::validate(&file[..], None, &opts)?;
    /// assert!(report.is_valid());
    /// let mut payload = validated.expect("valid").payload(&file[..])?;
    /// let mut bytes = Vec::new();
    /// std::io::Read::read_to_end(&mut payload, &mut bytes)?;
    /// assert_eq!(bytes, [0, 1, 0, 2, 0, 3]);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// Only the source's I/O errors: everything wrong with the data is in
    /// the report.
    pub fn validate<S: Read>(
        source: S,
        len: Option<u64>,
        opts: &ReadOptions,
    ) -> io::Result<(Report, Option<Validated>)> {
        let report = crate::validate_reader_len(source, len, &opts.validate)?;
        let validated = match (&report.header, report.has_errors()) {
            (Some(h), false) => Some(Validated {
                header: h.clone(),
                opts: opts.clone(),
            }),
            _ => None,
        };
        Ok((report, validated))
    }
}

impl Reader<()> {
    /// The payload of `header` read by other means (`readinto` into the
    /// caller's memory, a copy out of a memory map): its stored bytes in
    /// `payload` are converted to native byte order in place, in up to
    /// `threads` parts at once, and the byte-order verdict for `opts` is
    /// applied: the same IDX501 warning as every other path returns (`Ok`),
    /// or the same refusal when `opts` makes it an error.
    ///
    /// ```
    /// let header = idx::Header::new(idx::ElementType::I16, vec![2]).unwrap();
    /// let mut payload = [0x01, 0x02, 0xff, 0xfe]; // 258, -2 as stored
    /// idx::Reader::decode_in_place(&header, &mut payload, &idx::ReadOptions::default(),
    ///     std::num::NonZeroUsize::MIN)?;
    /// assert_eq!(bytemuck::cast_slice::<u8, i16>(&payload), &[258, -2]);
    /// # Ok::<(), idx::ReadError>(())
    /// ```
    ///
    /// # Errors
    /// [`ReadError::Io`] of kind `InvalidInput` when `payload` is not the
    /// header's payload length; [`ReadError::Invalid`] with the IDX501
    /// finding made an error by `opts` (then `payload` holds the elements
    /// converted, to be discarded).
    pub fn decode_in_place(
        header: &Header,
        payload: &mut [u8],
        opts: &ReadOptions,
        threads: NonZeroUsize,
    ) -> Result<Vec<Finding>, ReadError> {
        if payload.len() as u64 != header.payload_len() {
            return Err(ReadError::Io(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "the payload holds {} bytes; the header declares {}",
                    payload.len(),
                    header.payload_len()
                ),
            )));
        }
        // judged by the one engine, fed the payload as stored before it is
        // converted (it looks no further than its byte-order sample needs)
        let mut engine = Box::new(Validator::after_header(opts.validate.reading(), header));
        engine.feed(payload);
        let stored = opts.validate.byte_order.unwrap_or(ByteOrder::Big);
        let size = header.dtype().size();
        let parts = threads
            .get()
            .min(payload.len() / read::MIN_BYTES_PER_THREAD)
            .max(1);
        let per = payload.len().div_ceil(parts).div_ceil(size) * size;
        if parts == 1 || per == 0 {
            read::to_native_in_place(payload, size, stored);
        } else {
            std::thread::scope(|s| {
                let mut here = Vec::new();
                for (i, part) in payload.chunks_mut(per).enumerate() {
                    if i == 0 {
                        here.push(part);
                        continue;
                    }
                    // a part whose thread cannot be started is converted here
                    let (tx, rx) = std::sync::mpsc::channel::<&mut [u8]>();
                    let spawned = std::thread::Builder::new().spawn_scoped(s, move || {
                        if let Ok(p) = rx.recv() {
                            read::to_native_in_place(p, size, stored);
                        }
                    });
                    match spawned {
                        Ok(_) => {
                            if let Err(std::sync::mpsc::SendError(part)) = tx.send(part) {
                                here.push(part);
                            }
                        }
                        Err(_) => here.push(part),
                    }
                }
                for part in here {
                    read::to_native_in_place(part, size, stored);
                }
            });
        }
        read::conclude(engine)
    }
}

/// An input that [`Reader::validate`] found without error: its header and
/// how it is read, to open it again for its payload.
///
/// ```
/// let file = idx::to_bytes(&idx::Array::from_vec(vec![3, 2], vec![1u8, 2, 3, 4, 5, 6])?)?;
/// let (report, validated) = idx::Reader::validate(
///     &file[..],
///     Some(file.len() as u64),
///     &idx::ReadOptions::default(),
/// )?;
/// assert!(report.findings.is_empty());
/// let validated = validated.expect("no error");
/// assert_eq!(validated.header().dims(), &[3, 2]);
/// // an input with an error gives no `Validated`
/// let (_, none) = idx::Reader::validate(&file[..5], None, &Default::default())?;
/// assert!(none.is_none());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Validated {
    header: Header,
    opts: ReadOptions,
}

impl Validated {
    /// The header validated.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// Opens the validated input again (`source`, from its start) for its
    /// payload: a stream of big-endian elements, as IDX stores them (a
    /// payload stated little-endian is byte-swapped element by element on
    /// the way), ending after the payload.
    ///
    /// # Errors
    /// [`ReadError::Invalid`] when the header read now breaks a rule;
    /// [`ReadError::Io`] of kind `InvalidData` when it is not the one
    /// validated (the input changed), and for the source's errors. A read
    /// of the payload fails with `InvalidData` when the input ends before
    /// its payload does (it changed since: cut short, its gzip damaged).
    pub fn payload<R: Read>(&self, source: R) -> Result<Payload<R>, ReadError> {
        let reader = Reader::new(source, &self.opts)?;
        if reader.header() != &self.header {
            return Err(ReadError::Io(io::Error::new(
                io::ErrorKind::InvalidData,
                "the input changed since it was validated: its header is not the one validated",
            )));
        }
        let stored = reader.stored();
        let header = reader.header;
        Ok(Payload {
            left: header.payload_len(),
            swap: stored == ByteOrder::Little && header.dtype().size() > 1,
            carry: Vec::new(),
            ended: false,
            stream: reader.stream,
            header,
        })
    }
}

/// The payload of a [`Validated`] input: big-endian elements, read in
/// pieces of any size; [`Payload::skip_items`] skips whole items.
///
/// ```
/// use std::io::Read;
///
/// // 3 items of 2 bytes: skip the first, stream the rest
/// let file = idx::to_bytes(&idx::Array::from_vec(vec![3, 2], vec![1u8, 2, 3, 4, 5, 6])?)?;
/// let (_, validated) =
///     idx::Reader::validate(&file[..], None, &Default::default())?;
/// let mut payload = validated.expect("valid").payload(&file[..])?;
/// payload.skip_items(1)?;
/// assert_eq!(payload.remaining(), 4);
/// let mut rest = Vec::new();
/// payload.read_to_end(&mut rest)?;
/// assert_eq!(rest, [3, 4, 5, 6]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct Payload<R> {
    stream: Stream<R>,
    header: Header,
    left: u64,
    swap: bool,
    /// Bytes read past a partial element, kept for the next read (swap).
    carry: Vec<u8>,
    /// The end of the input was checked after the payload.
    ended: bool,
}

impl<R: Read> Payload<R> {
    /// The header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// Payload bytes not read yet.
    pub fn remaining(&self) -> u64 {
        self.left
    }

    /// Skips the next `n` items (slices along dimension 0), or to the end.
    ///
    /// # Errors
    /// The source's errors.
    pub fn skip_items(&mut self, n: u64) -> io::Result<()> {
        let item = self.header.item_len();
        let mut skip = n.saturating_mul(item).min(self.left);
        let mut buf = [0u8; 8192];
        while skip > 0 {
            let k = self.read(&mut buf[..skip.min(8192) as usize])?;
            if k == 0 {
                break;
            }
            skip -= k as u64;
        }
        Ok(())
    }
}

impl<R> Payload<R> {
    /// The input ended before its payload did: it changed since it was
    /// validated (cut short, or its gzip stream damaged or over the limit
    /// now), which a reader of the payload must not take for its end.
    fn ended_early(&self, missing: u64) -> io::Error {
        let why = match (self.stream.damage(), self.stream.hit_limit()) {
            (Some((at, why)), _) => format!("its gzip stream is damaged after {at} bytes ({why})"),
            (None, true) => "it decompresses to more than the limit".to_string(),
            (None, false) if missing == 0 => "bytes follow its payload".to_string(),
            (None, false) => format!("it ends {missing} bytes before its payload does"),
        };
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("the input changed since it was validated: {why}"),
        )
    }
}

impl<R: Read> Read for Payload<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.left == 0 && self.carry.is_empty() && !self.ended && !buf.is_empty() {
            // after the payload, the input must end as it did when it was
            // validated: no more bytes, no damage in the gzip trailer
            self.ended = true;
            let mut probe = [0u8; 1];
            if self.stream.read(&mut probe)? > 0
                || self.stream.damage().is_some()
                || self.stream.hit_limit()
            {
                return Err(self.ended_early(0));
            }
        }
        if self.left == 0 || buf.is_empty() {
            return Ok(0);
        }
        let want = buf
            .len()
            .min(usize::try_from(self.left).unwrap_or(usize::MAX));
        if !self.swap {
            let k = self.stream.read(&mut buf[..want])?;
            if k == 0 {
                return Err(self.ended_early(self.left));
            }
            self.left -= k as u64;
            return Ok(k);
        }
        // Whole elements only, so that each can be swapped: the bytes of an
        // element that a small read cannot take wait in `carry`.
        if !self.carry.is_empty() {
            let k = self.carry.len().min(want);
            buf[..k].copy_from_slice(&self.carry[..k]);
            self.carry.drain(..k);
            self.left -= k as u64;
            return Ok(k);
        }
        let size = self.header.dtype().size();
        if want < size {
            let mut e = [0u8; 8];
            let r = read_whole(&mut self.stream, &mut e[..size])?;
            if r < size {
                return Err(self.ended_early(self.left - r as u64));
            }
            e[..size].reverse();
            buf[..want].copy_from_slice(&e[..want]);
            self.carry.extend_from_slice(&e[want..size]);
            self.left -= want as u64;
            return Ok(want);
        }
        let whole = want / size * size;
        let k = read_whole(&mut self.stream, &mut buf[..whole])?;
        if k == 0 || k % size != 0 {
            return Err(self.ended_early(self.left - k as u64));
        }
        for e in buf[..k].chunks_exact_mut(size) {
            e.reverse();
        }
        self.left -= k as u64;
        Ok(k)
    }
}

/// Reads until `buf` is full or the stream ends.
fn read_whole<R: Read>(r: &mut R, buf: &mut [u8]) -> io::Result<usize> {
    crate::buffer::fill(r, buf)
}

/// A [`ReadAt`] source read as a stream from an offset: what
/// [`Reader::at`] reads through.
///
/// ```
/// use std::num::NonZeroUsize;
///
/// // a positioned source: bytes in memory here, a `std::fs::File` likewise
/// let bytes = idx::to_bytes(&idx::Array::from_vec(vec![4], vec![1i32, -2, 3, -4])?)?;
/// let reader: idx::Reader<idx::At<'_, [u8]>> =
///     idx::Reader::at(&bytes[..], &idx::ReadOptions::default())?;
/// // the source holds the whole payload: allocating it up front is safe
/// let len = reader.output_buffer_size()?.expect("raw and long enough");
/// let mut out = vec![0i32; len / 4];
/// reader.read_into_parallel(bytemuck::cast_slice_mut(&mut out), NonZeroUsize::MIN)?;
/// assert_eq!(out, [1, -2, 3, -4]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct At<'a, S: ?Sized> {
    src: &'a S,
    pos: u64,
}

impl<S: ReadAt + ?Sized> Read for At<'_, S> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let k = self.src.read_at(buf, self.pos)?;
        self.pos += k as u64;
        Ok(k)
    }
}

impl<'a, S: ReadAt + ?Sized> Reader<At<'a, S>> {
    /// A reader of a positioned source (a file read with `pread`, bytes in
    /// memory), which knows its length: besides what every reader does, it
    /// says when the payload may be allocated up front
    /// ([`Reader::output_buffer_size`]) and decodes a raw payload in
    /// parallel parts ([`Reader::read_into_parallel`]).
    ///
    /// # Errors
    /// As [`Reader::new`].
    pub fn at(src: &'a S, opts: &ReadOptions) -> Result<Self, ReadError> {
        Reader::new(At { src, pos: 0 }, opts)
    }

    /// The number of bytes `read_into` needs, when the source is known to
    /// hold the whole payload (raw, and long enough), so that allocating it
    /// is backed by data; `None` for gzip, a source too short, or a payload
    /// larger than memory can address (read it with
    /// [`Reader::read_array`], which grows with the data).
    ///
    /// # Errors
    /// The source's errors while asking its length.
    pub fn output_buffer_size(&self) -> io::Result<Option<usize>> {
        if self.stream.compression().is_some() {
            return Ok(None);
        }
        let src = self.stream_source();
        let need = self.header.file_len();
        let len = src.len()?;
        Ok(need
            .filter(|&n| n <= len)
            .and_then(|_| usize::try_from(self.header.payload_len()).ok()))
    }

    fn stream_source(&self) -> &'a S {
        self.stream.source().src
    }

    /// [`Reader::read_into`], decoding a raw payload in parallel parts
    /// straight from the source's offsets: contiguous parts of at least
    /// 4 MiB (at most 256), handed out one at a time to the calling thread
    /// and up to `threads - 1` threads of its own (bytes in memory are
    /// decoded from where they lie; a thread that cannot be started leaves
    /// its parts to the others); then the payload decoded is judged as
    /// `read_into` judges it, by the validator fed it in order as stored,
    /// and the bytes after it. Gzip input is decoded as `read_into` does.
    /// The same input gives the same result and errors whatever `threads`
    /// is.
    ///
    /// # Errors
    /// As [`Reader::read_into`].
    pub fn read_into_parallel(
        self,
        out: &mut [u8],
        threads: NonZeroUsize,
    ) -> Result<Vec<Finding>, ReadError> {
        if self.stream.compression().is_some() {
            return self.read_into(out);
        }
        let (src, stored) = (self.stream_source(), self.stored());
        let split = read::Split {
            threads,
            min_part: read::MIN_BYTES_PER_THREAD,
            align: read::HUGE_PAGE,
        };
        read::read_parts_at(src, &self.header, out, split, stored, self.engine)
    }
}

/// The outcome of reading a whole payload from `stream` (which ends at
/// gzip damage and at the limit), as validation orders its findings: an
/// error located before the damage or the limit stands; a truncation the
/// damage or the limit caused becomes IDX701 or IDX702; and a read that
/// succeeded on bytes before damage found after them (a bad trailer, junk
/// after the last member), or on a stream that holds more than the limit,
/// fails with that finding, since validation reports it as an error.
fn settle<R, T>(stream: &Stream<R>, r: Result<T, ReadError>) -> Result<T, ReadError> {
    let v = r.map_err(|e| locate(stream, e))?;
    if let Some((at, why)) = stream.damage() {
        return Err(ReadError::Invalid(violations::gzip_damaged(at, why).into()));
    }
    if let Some(limit) = stream.limit() {
        return Err(ReadError::Invalid(
            violations::decompression_limit(limit).into(),
        ));
    }
    Ok(v)
}

/// An error of a gzip stream's reader as the finding it is: damage after
/// the bytes decoded (IDX701), the limit (IDX702, which hides the
/// truncations it causes but no finding located before it).
fn locate<R>(stream: &Stream<R>, e: ReadError) -> ReadError {
    let truncation = |e: &ReadError| {
        matches!(e, ReadError::Invalid(f) if matches!(
            f.rule(),
            Rule::TruncatedMagic | Rule::TruncatedDimensions | Rule::TruncatedPayload
        ))
    };
    if let Some((at, why)) = stream.damage() {
        // (the stream ends at damage: the reader sees it as a truncation)
        if truncation(&e) {
            return ReadError::Invalid(violations::gzip_damaged(at, why).into());
        }
    }
    if let Some(limit) = stream.limit() {
        if truncation(&e) {
            return ReadError::Invalid(violations::decompression_limit(limit).into());
        }
    }
    e
}
