//! Validation: every independent violation, located, plus lints.
//!
//! One incremental state machine, [`Validator`], does all the work. The
//! in-memory entry points feed it the whole slice at once; the streaming
//! ones feed it through a fixed-size buffer. Both therefore give the same
//! [`Report`] by construction (and tests check it).

use crate::dtype::ElementType;
use crate::finding::{Compression, Finding, Report, TAIL_LEN};
use crate::gzip::{Members, Step};
use crate::header::{self, Header, MAGIC_LEN, MAX_HEADER_LEN};
use crate::lint::{self, PayloadLinter};
use idx_text::plural::{count, verb};
use crate::rules::Rule;
use crate::sniff::{hex, sniff};
use std::io::{self, Read};

/// Size of the buffer the streaming paths read through (a fixed bound).
pub const CHUNK_LEN: usize = 256 * 1024;

/// The first reads of [`validate_reader`] go through a stack buffer of this
/// size; a stream that fills it continues through [`CHUNK_LEN`].
const SMALL_CHUNK_LEN: usize = 16 * 1024;

/// What to check, beyond the spec's rules.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Options {
    /// Decompress a gzip stream (magic `1f 8b`) and validate the IDX data
    /// inside. Off by default: the raw layer reports gzip as IDX402, so that
    /// `parse(b).is_ok()` equals "no error" for `validate(b)`.
    pub decompress: bool,
    /// Stop decompressing after this many bytes and report IDX702.
    pub max_decompressed: Option<u64>,
    /// Run the payload lints (byte order, NaN/Inf). On by default.
    pub lints: bool,
    /// The file name, for the MNIST naming lint (IDX503).
    pub file_name: Option<String>,
    /// The element type the user expects (IDX601).
    pub expect_dtype: Option<ElementType>,
    /// The shape the user expects; `None` entries are wildcards (IDX602).
    pub expect_shape: Option<Vec<Option<u32>>>,
    /// Scan the label values of a labels-shaped file during the same pass
    /// (for the dataset rules, spec §11), against `Some(classes)` when the
    /// number of classes is known: [`Report::labels`]. Off by default.
    pub scan_labels: Option<Option<u32>>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            decompress: false,
            max_decompressed: None,
            lints: true,
            file_name: None,
            expect_dtype: None,
            expect_shape: None,
            scan_labels: None,
        }
    }
}

impl Options {
    /// Sets [`Options::decompress`].
    pub fn with_decompress(mut self, on: bool) -> Self {
        self.decompress = on;
        self
    }
    /// Sets [`Options::max_decompressed`].
    pub fn with_max_decompressed(mut self, limit: Option<u64>) -> Self {
        self.max_decompressed = limit;
        self
    }
    /// Sets [`Options::lints`].
    pub fn with_lints(mut self, on: bool) -> Self {
        self.lints = on;
        self
    }
    /// Sets [`Options::file_name`].
    pub fn with_file_name(mut self, name: Option<String>) -> Self {
        self.file_name = name;
        self
    }
    /// Sets [`Options::expect_dtype`].
    pub fn with_expect_dtype(mut self, dtype: Option<ElementType>) -> Self {
        self.expect_dtype = dtype;
        self
    }
    /// Sets [`Options::expect_shape`].
    pub fn with_expect_shape(mut self, shape: Option<Vec<Option<u32>>>) -> Self {
        self.expect_shape = shape;
        self
    }
    /// Sets [`Options::scan_labels`]: `Some(classes)` turns the scan on.
    pub fn with_scan_labels(mut self, classes: Option<Option<u32>>) -> Self {
        self.scan_labels = classes;
        self
    }
}

/// Validates raw IDX bytes with default [`Options`].
///
/// Never panics; allocates nothing sized by a number read from the input
/// (the findings are bounded by the 255 dimensions a header can hold).
pub fn validate(bytes: &[u8]) -> Report {
    validate_with(bytes, &Options::default())
}

/// Validates IDX bytes held in memory.
///
/// With `opts.decompress` and gzip input, the data is decompressed through a
/// fixed-size buffer; it is never held whole in memory.
pub fn validate_with(bytes: &[u8], opts: &Options) -> Report {
    if opts.decompress && is_gzip(bytes) {
        // Same composition as `validate_reader` so both agree exactly. A
        // slice never fails to read, so the only error is impossible.
        let src = io::Cursor::new(&bytes[..2]).chain(&bytes[2..]);
        match drive_gzip(src, opts) {
            Ok(report) => report,
            Err(_) => unreachable!("reading from a slice cannot fail"), // invariant: slices never error
        }
    } else {
        let mut v = Validator::new(opts.clone());
        v.feed(bytes);
        v.finish()
    }
}

/// How many trailing bytes the streaming paths count on an input whose
/// length is not known (a pipe, a device, standard input) before they stop
/// and report "at least" that many (spec 7.24).
pub const TRAILING_COUNT_LIMIT: u64 = 1 << 20;

/// Validates IDX data read from `reader`, in memory bounded by a fixed
/// buffer ([`CHUNK_LEN`]) whatever the length of the data.
///
/// Reading stops as soon as no further byte can change the findings
/// (spec 7.24): after the header when the size is unknown (a bad magic, an
/// unknown type, an overflow), and [`TRAILING_COUNT_LIMIT`] bytes after the
/// end of the payload. [`Report::exact_len`] is then false, and the stream
/// length and the length of an IDX203 finding are lower bounds. So an
/// endless input (`/dev/zero`) finishes. Gzip input is read to its end (its
/// integrity is checked), up to [`Options::max_decompressed`].
///
/// # Errors
/// Only the reader's own I/O errors; everything wrong with the data is a
/// finding in the report, including a damaged gzip stream.
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
    let opts = opts.clone().with_lints(false);
    let mut head = [0u8; crate::MAX_HEADER_LEN];
    let n = crate::input::fill(&mut reader, &mut head)?;
    let Some(len) = len.filter(|_| !(opts.decompress && is_gzip(&head[..n]))) else {
        return validate_reader_len(io::Cursor::new(&head[..n]).chain(reader), len, &opts);
    };
    let mut v = Validator::new(opts);
    v.feed(&head[..n]);
    v.skip(len.saturating_sub(n as u64));
    Ok(v.finish())
}

/// [`validate_reader`] for a source whose length is known, e.g. a regular
/// file's size from its metadata: once no further byte can change the
/// findings, the rest is accounted for by `len` instead of being read, and
/// the report's lengths are exact. A `len` shorter than what the reader
/// holds is ignored (the bytes read count).
///
/// # Errors
/// Only the reader's own I/O errors.
pub fn validate_reader_len<R: Read>(
    mut reader: R,
    len: Option<u64>,
    opts: &Options,
) -> io::Result<Report> {
    let mut peek = [0u8; 2];
    let n = crate::input::fill(&mut reader, &mut peek)?;
    if opts.decompress && is_gzip(&peek[..n]) {
        return drive_gzip(io::Cursor::new(&peek[..n]).chain(reader), opts);
    }
    let mut v = Validator::new(opts.clone());
    v.feed(&peek[..n]);
    // A small input is read through a small stack buffer; the heap buffer is
    // taken only once a read fills that (allocating and zeroing 256 KiB per
    // input is a measurable cost when validating thousands of small files).
    let mut small = Aligned([0u8; SMALL_CHUNK_LEN]);
    let mut big: Vec<u8> = Vec::new();
    loop {
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
        // payload, no more than the trailing bytes still to be counted
        let room = if v.analysis.is_none() {
            MAX_HEADER_LEN - v.prefix.len()
        } else if v.settled() && len.is_none() {
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

pub(crate) const PAGE: usize = 4096;

/// The [`CHUNK_LEN`] bytes of `buf` (which holds `CHUNK_LEN + PAGE`) that
/// start on a page boundary. The kernel copies from the page cache into a
/// page-aligned buffer about three times faster than into one 16 bytes off
/// (where the allocator puts a large block), on the AMD EPYC measured.
pub(crate) fn page_aligned(buf: &mut [u8]) -> &mut [u8] {
    let off = buf.as_ptr().align_offset(PAGE).min(PAGE);
    &mut buf[off..off + CHUNK_LEN]
}

/// True when `prefix` (the first bytes of an input, at least 2 of them to
/// be sure) starts with the gzip magic: the input the library decompresses
/// when [`Options::decompress`] is on.
pub fn is_gzip(prefix: &[u8]) -> bool {
    prefix.starts_with(&[0x1f, 0x8b])
}

/// IDX702: decompression stopped because the stream holds more than `limit`
/// bytes.
pub(crate) fn decompression_limit(limit: u64) -> Finding {
    Finding::new(
        Rule::DecompressionLimit,
        limit,
        0,
        format!("decompression stopped at the limit of {}", count(limit, "byte")),
    )
    .expected(format!("at most {}", count(limit, "decompressed byte")))
    .found("more")
    .hint("raise the limit (idx-validate --max-decompressed) if the file is genuinely that large; a tiny file that expands this much is a decompression bomb")
}

/// Feeds decompressed bytes, stopping at the decompression limit (IDX702).
/// Returns false when the limit stopped validation.
fn feed_limited(v: &mut Validator, bytes: &[u8], opts: &Options) -> bool {
    if let Some(limit) = opts.max_decompressed {
        if v.total + bytes.len() as u64 > limit {
            let keep = (limit - v.total) as usize; // < bytes.len(), fits
            v.feed(&bytes[..keep]);
            v.stop(decompression_limit(limit), true);
            return false;
        }
    }
    v.feed(bytes);
    true
}

fn drive_gzip<R: Read>(src: R, opts: &Options) -> io::Result<Report> {
    let mut dec = Members::new(src);
    let mut v = Validator::new(opts.clone());
    v.compression = Some(Compression::Gzip);
    let mut buf = vec![0u8; CHUNK_LEN];
    loop {
        match dec.step(&mut buf)? {
            Step::Data(k) => {
                if !feed_limited(&mut v, &buf[..k], opts) {
                    break;
                }
            }
            Step::End => {
                if dec.padding > 0 {
                    let at = v.total;
                    v.container.push(
                        Finding::new(
                            Rule::GzipPadding,
                            at,
                            0,
                            format!(
                                "{} of zero padding {} the last gzip member",
                                count(dec.padding, "byte"),
                                verb(dec.padding, "follows", "follow")
                            ),
                        )
                        .expected("end of file after the last member")
                        .found(count(dec.padding, "zero byte"))
                        .hint("gzip(1) and Python accept zero padding (tape blocks, some servers pad); strict gzip readers reject it: truncate the file after the last member"),
                    );
                }
                break;
            }
            Step::Damaged { written, why } => {
                // the bytes decoded before the damage are findings too
                if !feed_limited(&mut v, &buf[..written], opts) {
                    break;
                }
                let at = v.total;
                v.stop(
                    Finding::new(
                        Rule::GzipDamaged,
                        at,
                        0,
                        format!(
                            "the gzip stream is damaged; decompression failed after {} of output",
                            count(at, "byte")
                        ),
                    )
                    .expected("a complete, intact gzip stream")
                    .found(why)
                    .hint("the download is probably incomplete or corrupted: fetch it again and compare its checksum"),
                    false,
                );
                break;
            }
        }
    }
    Ok(v.finish())
}

/// What the header bytes say, and what is wrong with them.
#[derive(Debug, Clone, Default)]
struct Analysis {
    findings: Vec<Finding>,
    not_idx: bool,
    dtype: Option<ElementType>,
    rank: Option<u8>,
    dims: Option<Vec<u32>>,
    header: Option<Header>,
}

/// Analyses the first `min(len, MAX_HEADER_LEN)` bytes. When the prefix is
/// shorter than that, it is the whole stream.
fn analyse(prefix: &[u8]) -> Analysis {
    let mut a = Analysis::default();
    let len = prefix.len();
    let reserved = &prefix[..len.min(2)];
    if reserved.iter().any(|&b| b != 0) {
        if let Some(f) = sniff(prefix) {
            a.findings.push(f);
            a.not_idx = true;
            return a;
        }
        a.findings.push(reserved_bytes(reserved));
    }
    if len > 2 {
        a.dtype = ElementType::from_code(prefix[2]);
        if a.dtype.is_none() {
            a.findings.push(unknown_type(prefix[2]));
        }
    }
    let Ok((rest, m)) = header::magic(prefix) else {
        a.findings.push(truncated_magic(len));
        return a;
    };
    a.rank = Some(m.rank);
    if m.rank == 0 {
        a.findings.push(rank_zero());
    }
    a.findings.extend(rank_warning(m.rank));
    let present = (rest.len() / 4).min(usize::from(m.rank));
    for k in 0..present {
        let d = u32::from_be_bytes([
            rest[4 * k],
            rest[4 * k + 1],
            rest[4 * k + 2],
            rest[4 * k + 3],
        ]);
        a.findings.extend(dimension_warning(k, d));
    }
    let Ok((_, dims)) = header::dimensions(rest, m.rank) else {
        a.findings.push(truncated_dimensions(len, m.rank));
        return a;
    };
    if let Some(t) = a.dtype {
        match Header::new(t, dims.clone()) {
            Some(h) => a.header = Some(h),
            None => a.findings.push(size_overflow(t, &dims)),
        }
    }
    a.dims = Some(dims);
    a
}

pub(crate) fn reserved_bytes(reserved: &[u8]) -> Finding {
    let first = reserved.iter().position(|&b| b != 0).unwrap_or(0);
    let last = reserved.iter().rposition(|&b| b != 0).unwrap_or(0);
    Finding::new(
        Rule::ReservedBytes,
        first as u64,
        (last - first + 1) as u64,
        format!("reserved magic bytes are {}, not 00 00", hex(reserved)),
    )
    .expected("00 00")
    .found(hex(reserved))
    .hint("an IDX file starts with two zero bytes; this is not an IDX file or its start is damaged or shifted")
}

pub(crate) fn unknown_type(code: u8) -> Finding {
    Finding::new(
        Rule::UnknownType,
        2,
        1,
        format!("unknown element type code 0x{code:02x}"),
    )
    .expected("one of 08 09 0b 0c 0d 0e")
    .found(format!("{code:02x}"))
    .hint("the element types are 08 u8, 09 i8, 0b i16, 0c i32, 0d f32, 0e f64")
}

/// `1 more byte`, `2 more bytes`.
fn more(n: u64) -> String {
    count(n, "more byte")
}

pub(crate) fn truncated_magic(len: usize) -> Finding {
    let msg = if len == 0 {
        "the file is empty: expected a 4-byte magic".to_string()
    } else {
        format!(
            "the file ends after {len} of the 4 magic bytes: expected {}",
            more((MAGIC_LEN - len) as u64)
        )
    };
    Finding::new(Rule::TruncatedMagic, len as u64, 0, msg)
        .expected("4 bytes of magic")
        .found(count(len as u64, "byte"))
}

pub(crate) fn truncated_dimensions(len: usize, rank: u8) -> Finding {
    let need = MAGIC_LEN + 4 * usize::from(rank);
    Finding::new(
        Rule::TruncatedDimensions,
        len as u64,
        0,
        format!(
            "the file ends inside the dimension list: expected {}",
            more((need - len) as u64)
        ),
    )
    .expected(format!("{need} header bytes (4 + 4 x rank {rank})"))
    .found(count(len as u64, "byte"))
    .hint("the file was cut short, or the rank byte (offset 3) is wrong")
}

pub(crate) fn size_overflow(t: ElementType, dims: &[u32]) -> Finding {
    Finding::new(
        Rule::SizeOverflow,
        MAGIC_LEN as u64,
        4 * dims.len() as u64,
        "the declared payload size does not fit in 64 bits",
    )
    .expected("product(dims) x element size < 2^64")
    .found(format!(
        "{} x {}",
        dims_str(dims),
        count(t.size() as u64, "byte")
    ))
    .hint("no real file has this size: the dimensions are garbage or hostile")
}

fn rank_zero() -> Finding {
    Finding::new(
        Rule::RankZero,
        3,
        1,
        "rank 0: the file holds a single scalar",
    )
    .expected("rank 1 or more (for portability)")
    .found("00")
    .hint("many readers reject rank 0 or mis-size it; store a scalar as rank 1 with dimension 1")
}

/// The largest rank numpy before 2.0 supports (`NPY_MAXDIMS`); numpy 2
/// supports 64.
const NUMPY_1_MAX_RANK: u8 = 32;

fn rank_warning(rank: u8) -> Option<Finding> {
    if rank > NUMPY_1_MAX_RANK {
        let who = if rank > 64 {
            "every numpy-based reader rejects it (numpy supports at most 64 dimensions, 32 before numpy 2.0)"
        } else {
            "numpy-based readers on numpy before 2.0 reject it (at most 32 dimensions; numpy 2 supports 64)"
        };
        Some(
            Finding::new(Rule::HighRank, 3, 1, format!("rank {rank}: {who}"))
                .expected(format!("rank {NUMPY_1_MAX_RANK} or less (for portability)"))
                .found(rank.to_string())
                .hint("merge dimensions (the payload is the same in row-major order) or drop dimensions of length 1"),
        )
    } else {
        None
    }
}

fn dimension_warning(k: usize, d: u32) -> Option<Finding> {
    let at = (MAGIC_LEN + 4 * k) as u64;
    if d == 0 {
        Some(
            Finding::new(
                Rule::ZeroDimension,
                at,
                4,
                format!("dimension {k} is 0: the file holds no elements"),
            )
            .expected("a dimension of 1 or more (for portability)")
            .found("0")
            .hint("some readers divide by dimensions or reject empty arrays"),
        )
    } else if d >= 1 << 31 {
        Some(
            Finding::new(Rule::LargeDimension, at, 4, format!("dimension {k} is {d}, at least 2^31"))
                .expected("a dimension below 2^31 (for portability)")
                .found(d.to_string())
                .hint("readers that hold sizes in signed 32-bit integers (Java, many C readers) overflow here"),
        )
    } else {
        None
    }
}

fn dims_str(dims: &[u32]) -> String {
    let parts: Vec<String> = dims.iter().map(u32::to_string).collect();
    format!("[{}]", parts.join(", "))
}

/// The incremental validator: feed it the bytes of one stream in chunks of
/// any size, then [`finish`](Validator::finish).
///
/// Memory is bounded: a 1 KiB header buffer, a few counters, and findings
/// bounded by the 255 dimensions of a header.
#[derive(Debug, Clone)]
pub struct Validator {
    opts: Options,
    prefix: Vec<u8>,
    analysis: Option<Analysis>,
    total: u64,
    payload_seen: u64,
    trailing: u64,
    trailing_head: Vec<u8>,
    linter: Option<PayloadLinter>,
    labels: Option<crate::dataset::LabelScanner>,
    compression: Option<Compression>,
    stop: Option<(Finding, bool)>,
    container: Vec<Finding>,
    exact_len: bool,
    tail: [u8; TAIL_LEN],
    skipped: bool,
}

impl Validator {
    /// A validator for one stream.
    pub fn new(opts: Options) -> Self {
        Validator {
            opts,
            prefix: Vec::with_capacity(MAX_HEADER_LEN),
            analysis: None,
            total: 0,
            payload_seen: 0,
            trailing: 0,
            trailing_head: Vec::with_capacity(MAGIC_LEN),
            linter: None,
            labels: None,
            compression: None,
            stop: None,
            container: Vec::new(),
            exact_len: true,
            tail: [0; TAIL_LEN],
            skipped: false,
        }
    }

    /// Feeds the next bytes of the stream.
    pub fn feed(&mut self, mut bytes: &[u8]) {
        if self.stop.is_some() {
            return;
        }
        self.keep_tail(bytes);
        if self.analysis.is_none() {
            let take = (MAX_HEADER_LEN - self.prefix.len()).min(bytes.len());
            self.prefix.extend_from_slice(&bytes[..take]);
            self.total += take as u64;
            bytes = &bytes[take..];
            if self.prefix.len() < MAX_HEADER_LEN {
                return;
            }
            self.analyse_prefix();
        }
        self.total += bytes.len() as u64;
        self.body(bytes);
    }

    fn keep_tail(&mut self, bytes: &[u8]) {
        if bytes.len() >= TAIL_LEN {
            self.tail.copy_from_slice(&bytes[bytes.len() - TAIL_LEN..]);
        } else {
            self.tail.copy_within(bytes.len().., 0);
            self.tail[TAIL_LEN - bytes.len()..].copy_from_slice(bytes);
        }
    }

    /// Accounts for the next `n` bytes of the stream without looking at
    /// them: for structure-only validation of a file whose length is known
    /// (e.g. from `stat`), after its first [`MAX_HEADER_LEN`] bytes were fed.
    /// Payload lints see nothing of these bytes, so they are turned off, and
    /// the report keeps no tail bytes.
    pub fn skip(&mut self, n: u64) {
        if self.stop.is_some() || n == 0 {
            return;
        }
        if self.analysis.is_none() {
            self.analyse_prefix();
        }
        self.skipped = true;
        self.total += n;
        let Some(h) = self.analysis.as_ref().and_then(|a| a.header.as_ref()) else {
            return;
        };
        let left = h.payload_len() - self.payload_seen;
        if left > 0 {
            // the lints and the label scan would miss payload bytes
            self.linter = None;
            self.labels = None;
        }
        let p = left.min(n);
        self.payload_seen += p;
        self.trailing += n - p;
    }

    fn analyse_prefix(&mut self) {
        let a = analyse(&self.prefix);
        let prefix = std::mem::take(&mut self.prefix);
        let body = a.header.as_ref().map(|h| h.header_len());
        if let Some(h) = &a.header {
            if self.opts.lints && PayloadLinter::is_active(h.dtype()) {
                self.linter = Some(PayloadLinter::new(h.dtype(), h.header_len() as u64));
            }
            if let Some(classes) = self.opts.scan_labels {
                self.labels = crate::dataset::LabelScanner::new(h, classes);
            }
        }
        self.analysis = Some(a);
        if let Some(start) = body {
            if start < prefix.len() {
                self.body(&prefix[start..]);
            }
        }
        self.prefix = prefix;
    }

    /// Accounts for bytes after the header: payload, then trailing bytes.
    fn body(&mut self, bytes: &[u8]) {
        let Some(h) = self.analysis.as_ref().and_then(|a| a.header.as_ref()) else {
            return;
        };
        let left = h.payload_len() - self.payload_seen;
        let n = usize::try_from(left).map_or(bytes.len(), |l| l.min(bytes.len()));
        if let Some(l) = &mut self.linter {
            l.feed(&bytes[..n]);
        }
        if let Some(l) = &mut self.labels {
            l.feed(&bytes[..n]);
        }
        self.payload_seen += n as u64;
        let rest = &bytes[n..];
        let head = (MAGIC_LEN - self.trailing_head.len()).min(rest.len());
        self.trailing_head.extend_from_slice(&rest[..head]);
        self.trailing += rest.len() as u64;
    }

    /// Marks the stream as the decompressed content of `c`.
    pub(crate) fn with_compression(mut self, c: Compression) -> Self {
        self.compression = Some(c);
        self
    }

    /// True when no further byte of the stream can change the findings,
    /// except the count of trailing bytes: the header is analysed and
    /// either the payload size is unknown (not IDX, an unknown type, an
    /// overflow) or the whole payload was seen (and linted).
    pub fn settled(&self) -> bool {
        if self.stop.is_some() {
            return true;
        }
        let Some(a) = &self.analysis else {
            return false;
        };
        match &a.header {
            None => true,
            Some(h) => self.payload_seen == h.payload_len(),
        }
    }

    /// How many of the first trailing bytes (kept for the IDX204 hint) are
    /// still to be seen: 0 without a header.
    fn trailing_head_wanted(&self) -> u64 {
        match self.analysis.as_ref().and_then(|a| a.header.as_ref()) {
            Some(_) => (MAGIC_LEN - self.trailing_head.len()) as u64,
            None => 0,
        }
    }

    /// True once the header is analysed and gives no payload size.
    fn header_unknown(&self) -> bool {
        self.analysis.as_ref().is_some_and(|a| a.header.is_none())
    }

    /// Stops validation with a container finding; `limit` says whether the
    /// data was cut by a limit (so nothing about its end can be said) rather
    /// than damaged (so truncation findings are consequences, not causes).
    fn stop(&mut self, f: Finding, limit: bool) {
        if self.stop.is_none() {
            self.stop = Some((f, limit));
        }
    }

    /// The report for everything fed.
    pub fn finish(mut self) -> Report {
        if self.analysis.is_none() {
            self.analyse_prefix();
        }
        let a = self.analysis.take().unwrap_or_default();
        let mut findings = a.findings;
        if let Some(h) = &a.header {
            // the payload's first bytes, for the element-width hint
            let sample = self.prefix.get(h.header_len()..).unwrap_or(&[]);
            if self.payload_seen < h.payload_len() {
                let mut f = truncated_payload(h, self.payload_seen, self.total);
                if self.stop.is_none() {
                    if let Some(w) =
                        lint::width::hint(h.dtype(), h.payload_len(), self.payload_seen, sample)
                    {
                        f.hint = Some(w);
                    }
                }
                findings.push(f);
            }
            if self.trailing > 0 {
                // trailing bytes follow a complete payload, so the stream
                // (a u64 count) held header and payload: no overflow; the
                // payload alone may be up to u64::MAX - header otherwise
                let end = h.header_len() as u64 + h.payload_len();
                // a lower bound when reading stopped before the end
                let cut = !self.exact_len || matches!(self.stop, Some((_, true)));
                let mut f = trailing_bytes(h, end, self.trailing, &self.trailing_head, cut);
                let actual = h.payload_len().checked_add(self.trailing);
                if let (false, Some(actual)) =
                    (cut || starts_with_idx_magic(&self.trailing_head), actual)
                {
                    if let Some(w) = lint::width::hint(h.dtype(), h.payload_len(), actual, sample) {
                        f.hint = Some(w);
                    }
                }
                findings.push(f);
            }
            if let Some(l) = &self.linter {
                findings.extend(l.finish());
            }
        }
        if !a.not_idx {
            if let (Some(name), Some(rank)) = (&self.opts.file_name, a.rank) {
                findings.extend(lint::file_name_findings(name, a.dtype, rank));
            }
            findings.extend(expectations(&self.opts, a.dtype, a.dims.as_deref()));
        }
        if let Some((f, limit)) = self.stop.take() {
            findings.retain(|g| {
                let truncation = matches!(
                    g.rule,
                    Rule::TruncatedMagic | Rule::TruncatedDimensions | Rule::TruncatedPayload
                );
                // IDX702 never hides a certain finding (spec 7.19): trailing
                // bytes already seen stay (as a lower bound)
                let _ = limit;
                !truncation
            });
            findings.push(f);
        }
        findings.append(&mut self.container);
        findings.sort_by(|x, y| (x.offset, x.rule.code()).cmp(&(y.offset, y.rule.code())));
        let kept = if self.skipped {
            0
        } else {
            (self.total.min(TAIL_LEN as u64)) as usize
        };
        let mut report = Report {
            header: a.header,
            stream_len: self.total,
            exact_len: self.exact_len,
            compression: self.compression,
            findings,
            tail: self.tail[TAIL_LEN - kept..].to_vec(),
            head: self.prefix,
            labels: self.labels.map(crate::dataset::LabelScanner::finish),
        };
        crate::fix::attach(&mut report, starts_with_idx_magic(&self.trailing_head));
        report
    }
}

pub(crate) fn truncated_payload(h: &Header, seen: u64, total: u64) -> Finding {
    let missing = h.payload_len() - seen;
    let mut f = Finding::new(
        Rule::TruncatedPayload,
        total,
        0,
        format!(
            "the file ends {} before the end of the declared payload: expected {}",
            count(missing, "byte"),
            more(missing)
        ),
    )
    .expected(format!(
        "{} ({} x {})",
        count(h.payload_len(), "payload byte"),
        dims_str(h.dims()),
        count(h.dtype().size() as u64, "byte")
    ))
    .found(count(seen, "payload byte"));
    if let Some(&first) = h.dims().first() {
        if let Some(item) = h
            .payload_len()
            .checked_div(u64::from(first))
            .filter(|&i| i > 0)
        {
            let whole = seen / item;
            let exact = if seen % item == 0 { "exactly " } else { "" };
            f = f.hint(format!(
                "the payload holds {exact}{} of the {first} the header declares: the file was cut short, or dimension 0 overstates the count",
                count(whole, "complete item")
            ));
        }
    }
    f
}

/// True when `b` begins with an IDX magic (two zero bytes and a known
/// type code): trailing bytes like that are probably a second file.
pub(crate) fn starts_with_idx_magic(b: &[u8]) -> bool {
    b.len() >= MAGIC_LEN && b[0] == 0 && b[1] == 0 && ElementType::from_code(b[2]).is_some()
}

pub(crate) fn trailing_bytes(
    h: &Header,
    end: u64,
    trailing: u64,
    head: &[u8],
    at_least: bool,
) -> Finding {
    let looks_idx = starts_with_idx_magic(head);
    let item = h
        .dims()
        .first()
        .filter(|&&d| d > 0)
        .map(|&d| h.payload_len() / u64::from(d))
        .filter(|&i| i > 0);
    let hint = if looks_idx {
        "the trailing bytes start with an IDX magic: two files were probably concatenated"
            .to_string()
    } else if let Some(item) = item.filter(|i| trailing % i == 0 && !at_least) {
        format!(
            "the trailing bytes are exactly {}: dimension 0 probably understates the count",
            count(trailing / item, "more item")
        )
    } else {
        "the header may understate a dimension, or the writer appended padding or another record"
            .to_string()
    };
    Finding::new(
        Rule::TrailingBytes,
        end,
        trailing,
        if at_least {
            format!(
                "{} {} the end of the declared payload (counting stopped there)",
                idx_text::plural::at_least(trailing, "byte"),
                verb(trailing, "follows", "follow")
            )
        } else {
            format!(
                "{} {} the end of the declared payload",
                count(trailing, "byte"),
                verb(trailing, "follows", "follow")
            )
        },
    )
    .expected(format!("end of file at byte {end}"))
    .found(if at_least {
        format!("at least {}", more(trailing))
    } else {
        more(trailing)
    })
    .hint(hint)
}

fn expectations(opts: &Options, dtype: Option<ElementType>, dims: Option<&[u32]>) -> Vec<Finding> {
    let mut out = Vec::new();
    if let (Some(want), Some(got)) = (opts.expect_dtype, dtype) {
        if want != got {
            out.push(
                Finding::new(
                    Rule::UnexpectedType,
                    2,
                    1,
                    format!("the element type is {got}, expected {want}"),
                )
                .expected(format!("{:02x} ({want})", want.code()))
                .found(format!("{:02x} ({got})", got.code())),
            );
        }
    }
    if let (Some(want), Some(dims)) = (&opts.expect_shape, dims) {
        let want_str = shape_pattern(want);
        if want.len() != dims.len() {
            out.push(
                Finding::new(
                    Rule::UnexpectedShape,
                    3,
                    1,
                    format!(
                        "the rank is {}, expected {} (shape {want_str})",
                        dims.len(),
                        want.len()
                    ),
                )
                .expected(format!("rank {}", want.len()))
                .found(format!("rank {}, shape {}", dims.len(), dims_str(dims))),
            );
        } else {
            for (k, (w, &d)) in want.iter().zip(dims).enumerate() {
                if let Some(w) = w.filter(|&w| w != d) {
                    out.push(
                        Finding::new(
                            Rule::UnexpectedShape,
                            (MAGIC_LEN + 4 * k) as u64,
                            4,
                            format!("dimension {k} is {d}, expected {w} (shape {want_str})"),
                        )
                        .expected(w.to_string())
                        .found(d.to_string()),
                    );
                }
            }
        }
    }
    out
}

fn shape_pattern(want: &[Option<u32>]) -> String {
    let parts: Vec<String> = want
        .iter()
        .map(|w| w.map_or_else(|| "*".to_string(), |d| d.to_string()))
        .collect();
    format!("[{}]", parts.join(", "))
}
