//! Harness bodies for the fuzz targets in `fuzz/`, kept here so that a
//! stable `cargo test` replays the seed corpus and committed regressions
//! through exactly the same code. Each function panics when a property of
//! the library fails; that is its job.

use crate::{parse, to_bytes, validate, validate_reader, validate_with, Array, Options, Report};
use std::io::{self, Read};

/// The size of the fixed buffers the library reads through (the tests size
/// inputs to cross it).
pub const CHUNK_LEN: usize = crate::buffer::CHUNK_LEN;
/// The most distinct values the byte-order test scores.
pub const MAX_DISTINCT: usize = crate::lint::byteorder::MAX_DISTINCT;
/// The byte-order test's checkpoints for floats (distinct values scored).
pub const STOP_AT: [usize; 3] = crate::lint::byteorder::STOP_AT;
/// The byte-order test's checkpoint for integers.
pub const STOP_AT_INTEGERS: [usize; 1] = crate::lint::byteorder::STOP_AT_INTEGERS;
/// How decisively big-endian the values at a checkpoint read to stop.
pub const STOP_BITS: f64 = crate::lint::byteorder::STOP_BITS;
/// The lower-level readers under [`Reader`](crate::Reader), for the
/// tests, examples and benchmarks that measure them alone.
pub use crate::read::{read_array, read_array_at, read_array_into};
pub use crate::rules::RETIRED;

/// `read_array` of an input that may be
/// gzip-compressed, as validation reads it: [`Reader`](crate::Reader) with the options'
/// `decompress`, `limits` and `byte_order` (a stream that holds
/// more than the limit fails with the IDX702 finding after at most that
/// many bytes were decoded; damaged gzip is the IDX701 finding).
///
/// # Errors
/// As [`Reader::read_array`](crate::Reader::read_array).
pub fn read_input<R: Read>(r: R, opts: &Options) -> Result<Array, crate::ReadError> {
    let read = crate::ReadOptions {
        validate: opts.clone(),
    };
    crate::Reader::new(r, &read)?.read_array().map(|(a, _)| a)
}

/// Every finding lies within the stream, or marks its end for missing data.
pub fn check_offsets(report: &Report) {
    for f in &report.findings {
        let end = f.offset.checked_add(f.length);
        assert!(
            end.is_some_and(|e| e <= report.stream_len),
            "finding {} at {}+{} outside a stream of {} bytes",
            f.rule,
            f.offset,
            f.length,
            report.stream_len
        );
    }
}

/// `parse` target: never panics; `parse(b).is_ok()` equals "well formed"
/// (no error but IDX501's, which grades the payload's content);
/// a parse error is one of the validator's errors; offsets in range.
pub fn parse_target(data: &[u8]) {
    let parsed = parse(data);
    let report = validate(data);
    check_offsets(&report);
    assert_eq!(report.stream_len, data.len() as u64);
    // the one verdict: IDX501 included (an error only when certain)
    assert_eq!(
        parsed.is_ok(),
        report.is_valid(),
        "parse and validate disagree: {report:#?}"
    );
    if let Err(e) = &parsed {
        assert!(
            report
                .findings
                .iter()
                .any(|f| f.rule == e.rule() && f.offset == e.offset()),
            "parse error {e} not among validate's findings {report:#?}"
        );
    }
    if let Ok(view) = &parsed {
        assert_eq!(report.header.as_ref(), Some(view.header()));
    }
}

/// A reader that hands out the data in the chunk sizes given, cyclically.
#[derive(Debug)]
pub struct ChunkedReader<'a> {
    data: &'a [u8],
    sizes: Vec<usize>,
    next: usize,
}

impl<'a> ChunkedReader<'a> {
    /// Chunks of `sizes` (each at least 1), repeated.
    pub fn new(data: &'a [u8], sizes: &[u8]) -> Self {
        let mut sizes: Vec<usize> = sizes.iter().map(|&s| usize::from(s).max(1)).collect();
        if sizes.is_empty() {
            sizes.push(1);
        }
        ChunkedReader {
            data,
            sizes,
            next: 0,
        }
    }
}

/// Bytes read at offsets in short reads: at most `sizes[offset % len]`
/// bytes a call (at least 1), and never through `as_bytes`.
struct ShortReads<'a> {
    file: &'a [u8],
    sizes: &'a [u8],
}

impl crate::ReadAt for ShortReads<'_> {
    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
        let most = match self.sizes.len() {
            0 => buf.len(),
            n => usize::from(self.sizes[(offset % n as u64) as usize]).max(1),
        };
        let n = most.min(buf.len());
        self.file.read_at(&mut buf[..n], offset)
    }

    fn len(&self) -> io::Result<u64> {
        Ok(self.file.len() as u64)
    }
}

impl Read for ChunkedReader<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.sizes[self.next % self.sizes.len()]
            .min(buf.len())
            .min(self.data.len());
        self.next += 1;
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

/// `validate_stream` target: the first byte says how many chunk sizes
/// follow (at most 8); the rest is the file. Streaming through those chunk
/// sizes gives the in-memory report, for raw and decompressing validation.
pub fn validate_stream_target(data: &[u8]) {
    let Some((&n, rest)) = data.split_first() else {
        return;
    };
    let n = usize::from(n % 8).min(rest.len());
    let (sizes, file) = rest.split_at(n);
    for decompress in [false, true] {
        let opts = Options::default()
            .with_decompress(decompress)
            .with_max_decompressed(Some(1 << 20))
            .with_file_name(Some("fuzz-idx3-ubyte".into()))
            // (raw input only: over gzip the scan adds nothing new but
            // time, the same validator is fed the decompressed bytes)
            .with_scan_labels((!decompress).then_some(Some(3)));
        let memory = validate_with(file, &opts);
        // the label scan is the same whatever the lints and the chunking
        match validate_reader(
            ChunkedReader::new(file, sizes),
            &opts.clone().with_lints(false).with_byte_order_test(false),
        ) {
            Ok(r) => assert_eq!(memory.labels, r.labels, "the label scans differ"),
            Err(e) => panic!("a reader over a slice cannot fail: {e}"), // ok: fuzz harness assertion
        }
        let streamed = match validate_reader(ChunkedReader::new(file, sizes), &opts) {
            Ok(r) => r,
            Err(e) => panic!("a reader over a slice cannot fail: {e}"), // ok: fuzz harness assertion
        };
        check_offsets(&memory);
        check_offsets(&streamed);
        assert!(memory.exact_len);
        if streamed.exact_len {
            assert_eq!(memory, streamed, "streaming and in-memory reports differ");
        } else {
            // reading stopped early: the same findings, lengths lower bounds
            assert_eq!(memory.header, streamed.header);
            assert!(streamed.stream_len < memory.stream_len);
            let key = |r: &Report| {
                r.findings
                    .iter()
                    .map(|f| (f.rule, f.offset))
                    .collect::<Vec<_>>()
            };
            assert_eq!(
                key(&memory),
                key(&streamed),
                "an early stop changed the findings"
            );
            for (m, s) in memory.findings.iter().zip(&streamed.findings) {
                assert!(s.length <= m.length);
            }
        }
        // with the length known (a regular file), the report is exact
        let known = match crate::validate_reader_len(
            ChunkedReader::new(file, sizes),
            Some(file.len() as u64),
            &opts,
        ) {
            Ok(r) => r,
            Err(e) => panic!("a reader over a slice cannot fail: {e}"), // ok: fuzz harness assertion
        };
        assert!(known.exact_len);
        let mut m = memory.clone();
        if known.tail.is_empty() {
            m.tail.clear(); // skipped by length: no tail kept
        }
        assert_eq!(m, known, "a known length changed the report");
    }
}

/// `roundtrip_bytes` target: bytes that parse write back identically.
pub fn roundtrip_bytes_target(data: &[u8]) {
    if let Ok(view) = parse(data) {
        let mut out = Vec::with_capacity(data.len());
        assert!(view.write_to(&mut out).is_ok());
        assert_eq!(out, data, "parsed bytes do not write back identically");
        let array = view.to_array();
        match to_bytes(&array) {
            Ok(again) => assert_eq!(
                again, data,
                "decoded array does not encode back identically"
            ),
            Err(e) => panic!("a parsed array must be writable: {e}"), // ok: fuzz harness assertion
        }
    }
}

/// `roundtrip_array` target: any array IDX can hold is written, parsed and
/// decoded back bit for bit, and the written length is the declared one.
pub fn roundtrip_array_target(array: &Array) {
    let bytes = match to_bytes(array) {
        Ok(b) => b,
        Err(e) => panic!("the arbitrary domain is encodable: {e}"), // ok: fuzz harness assertion
    };
    // An arbitrary array may hold values that read more plausibly
    // byte-swapped (say 0x7a00 0x0300 0x0800...): the byte-order test only
    // warns (spec 6.1), so whatever the writer writes parses.
    let view = match crate::parse(&bytes) {
        Ok(v) => v,
        Err(e) => panic!("written bytes do not parse: {e}"), // ok: fuzz harness assertion
    };
    let declared = view.header().file_len();
    assert_eq!(declared, Some(bytes.len() as u64));
    assert!(
        view.to_array().bit_eq(array),
        "array changed in the round trip"
    );
    assert!(validate_with(&bytes, &Options::default()).is_well_formed());
    // unstated, the verdict is the byte-order test's alone: parse refuses
    // exactly when validation reports an error
    assert_eq!(parse(&bytes).is_ok(), !validate(&bytes).has_errors());
}

/// The gzip header the `gzip` target puts before its input.
pub const GZIP_HEADER: [u8; 10] = [0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0xff];

/// `gzip` target: arbitrary bytes behind a gzip header through the
/// decompressing path, with a 1 MiB output cap: no panic, bounded work,
/// offsets in range, a finding for damage.
pub fn gzip_target(data: &[u8]) {
    let mut input = Vec::with_capacity(GZIP_HEADER.len() + data.len());
    input.extend_from_slice(&GZIP_HEADER);
    input.extend_from_slice(data);
    let opts = Options::default()
        .with_decompress(true)
        .with_max_decompressed(Some(1 << 20));
    let report = validate_with(&input, &opts);
    check_offsets(&report);
    assert!(report.stream_len <= 1 << 20);
    assert!(report.compression.is_some());
}

/// `file_name` target: any file name through the naming lint, with any
/// header bytes.
pub fn file_name_target(data: &[u8]) {
    let split = data.iter().position(|&b| b == 0xff).unwrap_or(data.len());
    let (name, file) = data.split_at(split);
    let opts = Options::default().with_file_name(Some(String::from_utf8_lossy(name).into_owned()));
    let report = validate_with(file.get(1..).unwrap_or(&[]), &opts);
    check_offsets(&report);
    let _ = crate::lint::name_claim(opts.file_name.as_deref().unwrap_or(""));
}

/// `read_array` target: the first byte counts chunk sizes (at most 8), then
/// the sizes, then the file. Streaming decode accepts exactly what `parse`
/// accepts, decodes the same array and reports the same first violation;
/// and so does `read_header` + `read_array_at`'s parallel decode (where the
/// header declares at most a MiB), split into 1 to 4 parts of at least a
/// few bytes on small alignments (from the first byte and the sizes), from
/// the bytes in memory and through short positional reads of the sizes.
pub fn read_array_target(data: &[u8]) {
    let Some((&n, rest)) = data.split_first() else {
        return;
    };
    let threads = std::num::NonZeroUsize::MIN.saturating_add(usize::from(n >> 6));
    let n = usize::from(n % 8).min(rest.len());
    let (sizes, file) = rest.split_at(n);
    let streamed = read_array(ChunkedReader::new(file, sizes));
    let min_part = 1 + usize::from(sizes.first().copied().unwrap_or(0));
    let align = 1 << (sizes.get(1).copied().unwrap_or(0) % 8);
    let at = |src: &dyn crate::ReadAt| match crate::read::read_header(&mut &file[..]) {
        Ok(h) if h.payload_len() <= 1 << 20 => {
            let mut out = vec![0u8; h.payload_len() as usize];
            let engine = Box::new(crate::Validator::after_header(
                Options::default().reading(),
                &h,
            ));
            let split = crate::read::Split {
                threads,
                min_part,
                align,
            };
            Some(
                crate::read::read_parts_at(src, &h, &mut out, split, crate::ByteOrder::Big, engine)
                    .map(|_| out),
            )
        }
        Ok(_) => None,
        Err(e) => Some(Err(e)),
    };
    let short = ShortReads { file, sizes };
    for at in [at(&file), at(&short)] {
        match (&at, &streamed) {
            (None, _) => {}
            (Some(Ok(out)), Ok(a)) => {
                assert_eq!(
                    out,
                    &native_bytes(a.data()),
                    "read_array_at decoded other bytes"
                )
            }
            (Some(Err(crate::ReadError::Invalid(e))), Err(crate::ReadError::Invalid(g))) => {
                assert_eq!(
                    (e.rule(), e.offset(), e.length()),
                    (g.rule(), g.offset(), g.length())
                )
            }
            (Some(a), s) => {
                let (a, s) = (a.as_ref().map(|_| ()), s.as_ref().map(|_| ()));
                panic!("read_array_at {a:?} but read_array {s:?}") // ok: fuzz harness assertion
            }
        }
    }
    match (parse(file), streamed) {
        (Ok(v), Ok(a)) => assert!(v.to_array().bit_eq(&a), "decoded arrays differ"),
        (Err(e), Err(crate::ReadError::Invalid(g))) => {
            assert_eq!(
                (e.rule(), e.offset(), e.length()),
                (g.rule(), g.offset(), g.length())
            )
        }
        (p, s) => {
            let (p, s) = (p.map(|_| ()), s.map(|_| ()));
            panic!("parse {p:?} but read_array {s:?}") // ok: fuzz harness assertion
        }
    }
}

/// The elements' bytes in native order, as `read_array_at` writes them.
fn native_bytes(d: &crate::Data) -> Vec<u8> {
    use crate::Data;
    match d {
        Data::U8(v) => v.clone(),
        Data::I8(v) => v.iter().flat_map(|x| x.to_ne_bytes()).collect(),
        Data::I16(v) => v.iter().flat_map(|x| x.to_ne_bytes()).collect(),
        Data::I32(v) => v.iter().flat_map(|x| x.to_ne_bytes()).collect(),
        Data::F32(v) => v.iter().flat_map(|x| x.to_bits().to_ne_bytes()).collect(),
        Data::F64(v) => v.iter().flat_map(|x| x.to_bits().to_ne_bytes()).collect(),
    }
}

/// Repairs `data` under `opts` in memory; panics on an I/O error (there is
/// none over slices).
pub fn repair_bytes(data: &[u8], opts: &crate::FixOptions) -> (crate::FixReport, Vec<u8>) {
    let mut out = Vec::new();
    match crate::repair(io::Cursor::new(data), &mut out, opts) {
        Ok(r) => (r, out),
        Err(e) => panic!("repairing a slice cannot fail: {e}"), // ok: fuzz harness assertion
    }
}

/// Rules whose findings a repair may newly report: facts about the
/// repaired header or payload that the input's damage hid (the payload lints
/// and the portability warnings, after a header was rewritten or the
/// payload byte-swapped). Never an error.
pub const REVEALED: &[crate::Rule] = &[
    crate::Rule::RankZero,
    crate::Rule::ZeroDimension,
    crate::Rule::LargeDimension,
    crate::Rule::HighRank,
    crate::Rule::LikelyLittleEndian,
    crate::Rule::NonFinite,
    crate::Rule::FileNameMismatch,
];

/// The repair guarantees on one input under one set of options:
/// - the report's `after` is the validation of the output;
/// - idempotent: repairing the output changes nothing;
/// - never worse: every applied fix's finding is gone, and no finding
///   appears whose rule the input's report lacked, except [`REVEALED`]
///   warnings when a header was rewritten or the payload swapped;
/// - safe fixes never change the decoded array of a file that decoded;
/// - gzip output for gzip input, unless compression is not kept.
pub fn check_repair(data: &[u8], opts: &crate::FixOptions) {
    let mut out = Vec::new();
    let report = match crate::repair(io::Cursor::new(data), &mut out, opts) {
        Ok(r) => r,
        Err(crate::FixError::Incomplete(rule)) => {
            let r = validate_with(data, &opts.validate);
            assert!(r.findings.iter().any(|f| f.rule == rule));
            assert!(!opts.keep_compression);
            return;
        }
        Err(e) => panic!("repairing a slice cannot fail: {e}"), // ok: fuzz harness assertion
    };
    check_offsets(&report.after);
    // a plain copy of a gzip stream is validated as written: raw
    let plain = report.before.compression.is_some() && !report.compressed_output;
    let swapped = report.applied.iter().any(|a| {
        a.fix
            .edits
            .iter()
            .any(|e| matches!(e, crate::Edit::SwapBytes { .. }))
    });
    let mut out_opts = opts
        .validate
        .clone()
        .with_decompress(opts.validate.decompress && !plain);
    if swapped {
        // a byte order stated for the input does not describe the swapped
        // output (spec 10.1)
        out_opts = out_opts.with_byte_order(None);
    }
    assert_eq!(
        report.after.findings,
        validate_with(&out, &out_opts).findings,
        "the report's `after` is not the output's validation"
    );
    if !report.changed() {
        if report.before.compression.is_none() {
            assert_eq!(out, data, "an unchanged input was not copied as is");
        }
        return;
    }
    // idempotent under the same options, a stated byte order included (a
    // stated swap is applied only to a payload that reads more plausibly
    // little-endian, which the swapped output no longer does)
    let again_opts = opts.clone();
    let (again, out2) = repair_bytes(&out, &again_opts);
    // A header rewrite is applied alone: what was found under the old
    // header is looked at again by the next run (spec 10), which may then
    // take the byte-order swap the new header's payload calls for; a third
    // run changes nothing.
    let header_rewritten = report.applied.iter().any(|a| a.fix.changes_header_fields());
    let (again, out2, out) = if header_rewritten
        && !again.applied.is_empty()
        && again
            .applied
            .iter()
            .all(|a| a.rule == Some(crate::Rule::LikelyLittleEndian))
    {
        let (third, out3) = repair_bytes(&out2, &again_opts);
        (third, out3, out2)
    } else {
        (again, out2, out)
    };
    assert!(
        again.applied.is_empty(),
        "a repaired file was repaired again: {:#?}\ninput {:02x?}\nfirst {:#?}",
        again.applied,
        data,
        report.applied
    );
    if report.after.compression.is_none() {
        assert_eq!(out2, out);
    }
    // never worse
    let rewrote = report.applied.iter().any(|a| {
        a.fix.edits.iter().any(|e| match e {
            crate::Edit::Replace { offset, bytes } => offset + bytes.len() as u64 > 2,
            crate::Edit::SwapBytes { .. } => true,
            _ => false,
        })
    });
    // the input's full report (the repair may have planned on its structure)
    let baseline = validate_with(data, &opts.validate);
    for f in &report.after.findings {
        let before = baseline.findings.iter().any(|g| g.rule == f.rule);
        assert!(
            before || (rewrote && REVEALED.contains(&f.rule)),
            "the repair introduced {} ({}): before {:#?}, applied {:#?}",
            f.rule,
            f.message,
            report.before.findings,
            report.applied
        );
    }
    for a in &report.applied {
        if let Some(rule) = a.rule {
            assert!(
                !report
                    .after
                    .findings
                    .iter()
                    .any(|f| f.rule == rule && f.rule.severity() == crate::Severity::Error),
                "the fixed {rule} is still reported: {:#?}",
                report.after.findings
            );
        }
    }
    if report.before.compression.is_some() {
        assert_eq!(
            out.starts_with(&[0x1f, 0x8b]),
            opts.keep_compression,
            "gzip input lost or kept its compression against the options"
        );
    }
    // safe fixes keep the decoded array of a file that decoded (a stated
    // byte order is the user's fix, not the tool's)
    let all_safe = opts.assume_byte_order.is_none()
        && report
            .applied
            .iter()
            .all(|a| a.fix.applicability == crate::Applicability::Safe && a.rule.is_some());
    if all_safe && report.before.compression.is_none() {
        if let Ok(v) = parse(data) {
            match parse(&out) {
                Ok(w) => assert!(
                    w.to_array().bit_eq(&v.to_array()),
                    "a safe fix changed the array"
                ),
                Err(e) => panic!("a safe fix broke a file that decoded: {e}"), // ok: fuzz harness assertion
            }
        }
    }
}

/// `fix` target: the first byte picks the options (bit 0: unsafe fixes;
/// bit 1: a byte order stated little-endian to the repair; bit 4 with bit
/// 1: stated to the validation too, as `idx-validate --assume-byte-order
/// little --fix` runs; bit 2: gzip-wrapped, bit 3: decompressed output);
/// the rest is the file. [`check_repair`] on it.
pub fn fix_target(data: &[u8]) {
    let Some((&mode, file)) = data.split_first() else {
        return;
    };
    let stated = (mode & 2 != 0).then_some(crate::ByteOrder::Little);
    let opts = crate::FixOptions::default()
        .with_unsafe_fixes(mode & 1 != 0)
        .with_assume_byte_order(stated)
        .with_validate(
            Options::default()
                .with_decompress(true)
                .with_max_decompressed(Some(1 << 20))
                .with_byte_order(stated.filter(|_| mode & 16 != 0)),
        );
    if mode & 4 != 0 {
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        let gz = std::io::Write::write_all(&mut enc, file).and_then(|()| enc.finish());
        match gz {
            Ok(gz) => check_repair(&gz, &opts.with_keep_compression(mode & 8 == 0)),
            Err(e) => panic!("compressing into memory cannot fail: {e}"), // ok: fuzz harness assertion
        }
    } else {
        check_repair(file, &opts);
    }
}

// ---------------------------------------------------------------------------
// Differential inflate: the library's gzip layer (zlib-rs) against an
// independent one (miniz_oxide's core inflater with a non-wrapping output
// buffer, and the gzip framing written here from RFC 1952).

/// Output cap of the differential target: inputs that expand beyond it are
/// not compared (both sides would only be cut by the limit).
pub const INFLATE_CAP: usize = 1 << 20;

/// What a gzip decoder made of an input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Inflated {
    /// The decompressed bytes (before the damage, for a damaged stream).
    pub output: Vec<u8>,
    /// True when the container is intact (zero padding allowed).
    pub intact: bool,
    /// Zero bytes after the last member.
    pub padding: u64,
}

/// The library's gzip layer over `data`, or `None` beyond [`INFLATE_CAP`].
pub fn inflate_library(data: &[u8]) -> Option<Inflated> {
    let mut m =
        crate::gzip::Members::new(data, crate::Limits::default().with_max_decompressed(None));
    let mut output = Vec::new();
    // an odd buffer size, so steps end at awkward places
    let mut buf = vec![0u8; 4099];
    loop {
        let step = match m.step(&mut buf) {
            Ok(s) => s,
            Err(e) => panic!("a slice cannot fail: {e}"), // ok: fuzz harness assertion
        };
        let (n, end) = match step {
            crate::gzip::Step::Data(n) => (n, None),
            crate::gzip::Step::End | crate::gzip::Step::More => (0, Some(true)),
            crate::gzip::Step::Limit(_) => panic!("no limit was set"), // ok: fuzz harness assertion
            crate::gzip::Step::Damaged { written, .. } => (written, Some(false)),
        };
        output.extend_from_slice(&buf[..n]);
        if output.len() > INFLATE_CAP {
            return None;
        }
        if let Some(intact) = end {
            return Some(Inflated {
                output,
                intact,
                padding: m.stage().padding(),
            });
        }
    }
}

/// CRC-32 (IEEE, reflected, as gzip uses), bit by bit: written here so
/// the reference shares no code with the library's decoder.
fn crc32(data: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in data {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0xedb8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// The reference decoder, or `None` beyond [`INFLATE_CAP`].
pub fn inflate_reference(data: &[u8]) -> Option<Inflated> {
    use miniz_oxide::inflate::core::{decompress, inflate_flags, DecompressorOxide};
    use miniz_oxide::inflate::TINFLStatus;
    let mut out = vec![0u8; INFLATE_CAP + 1];
    let mut out_len = 0usize;
    let mut pos = 0usize;
    let mut members = 0u64;
    let damaged = |out: &[u8]| {
        Some(Inflated {
            output: out.to_vec(),
            intact: false,
            padding: 0,
        })
    };
    loop {
        let rest = &data[pos..];
        if members > 0 {
            if rest.is_empty() {
                break;
            }
            if rest[0] == 0 {
                if rest.iter().all(|&b| b == 0) {
                    return Some(Inflated {
                        output: out[..out_len].to_vec(),
                        intact: true,
                        padding: rest.len() as u64,
                    });
                }
                return damaged(&out[..out_len]);
            }
        }
        // header: 1f 8b 08 FLG MTIME(4) XFL OS
        if rest.len() < 10 || rest[..3] != [0x1f, 0x8b, 0x08] || rest[3] & 0xe0 != 0 {
            return damaged(&out[..out_len]);
        }
        let flg = rest[3];
        let mut h = 10usize;
        if flg & 0x04 != 0 {
            let Some(x) = rest.get(h..h + 2) else {
                return damaged(&out[..out_len]);
            };
            h += 2 + usize::from(u16::from_le_bytes([x[0], x[1]]));
        }
        for bit in [0x08u8, 0x10] {
            if flg & bit != 0 {
                let Some(z) = rest.get(h..).and_then(|r| r.iter().position(|&b| b == 0)) else {
                    return damaged(&out[..out_len]);
                };
                h += z + 1;
            }
        }
        if flg & 0x02 != 0 {
            let Some(c) = rest.get(h..h + 2) else {
                return damaged(&out[..out_len]);
            };
            if u16::from_le_bytes([c[0], c[1]]) != (crc32(&rest[..h]) & 0xffff) as u16 {
                return damaged(&out[..out_len]);
            }
            h += 2;
        }
        let Some(body) = rest.get(h..) else {
            return damaged(&out[..out_len]);
        };
        members += 1;
        let start = out_len;
        let mut r = DecompressorOxide::new();
        let (status, used, wrote) = decompress(
            &mut r,
            body,
            &mut out[..],
            start,
            inflate_flags::TINFL_FLAG_USING_NON_WRAPPING_OUTPUT_BUF,
        );
        out_len = start + wrote;
        if out_len > INFLATE_CAP || status == TINFLStatus::HasMoreOutput {
            return None;
        }
        if status != TINFLStatus::Done {
            return damaged(&out[..out_len]);
        }
        let Some(t) = body.get(used..used + 8) else {
            return damaged(&out[..out_len]);
        };
        let crc = u32::from_le_bytes([t[0], t[1], t[2], t[3]]);
        let isize = u32::from_le_bytes([t[4], t[5], t[6], t[7]]);
        if crc != crc32(&out[start..out_len]) || isize != (wrote as u64 & 0xffff_ffff) as u32 {
            return damaged(&out[..out_len]);
        }
        pos += h + used + 8;
    }
    Some(Inflated {
        output: out[..out_len].to_vec(),
        intact: true,
        padding: 0,
    })
}

/// `inflate_diff` target: the same gzip bytes through two independent
/// inflaters give the same verdict. For an intact stream the outputs and
/// the padding are equal. For a damaged stream one output is a prefix of
/// the other: both decode the same symbols the same way up to the damage,
/// but they may find one damaged block at different points. zlib-rs checks
/// a dynamic block's code lengths when it reads the block header (an
/// incomplete or over-subscribed code, no end-of-block code: no symbol of
/// such a block can ever be followed by a valid end), while miniz_oxide
/// finds the same damage only when a bit pattern fails to decode, after
/// emitting the literals that did decode. The input is used as is when it
/// starts with the gzip magic, and behind [`GZIP_HEADER`] otherwise (so
/// raw deflate data is explored too).
pub fn inflate_diff_target(data: &[u8]) {
    let input: Vec<u8> = if data.starts_with(&[0x1f, 0x8b]) {
        data.to_vec()
    } else {
        GZIP_HEADER.iter().chain(data).copied().collect()
    };
    let (Some(lib), Some(reference)) = (inflate_library(&input), inflate_reference(&input)) else {
        return;
    };
    assert_eq!(
        lib.intact, reference.intact,
        "verdicts differ: library {lib:?}, reference {reference:?}"
    );
    if lib.intact {
        assert_eq!(
            lib.output, reference.output,
            "outputs differ: library {lib:?}, reference {reference:?}"
        );
    } else {
        let common = lib.output.len().min(reference.output.len());
        assert_eq!(
            lib.output[..common],
            reference.output[..common],
            "outputs before the damage differ: library {lib:?}, reference {reference:?}"
        );
    }
    // Padding (spec 7.18) is zero bytes that end an intact stream. When a
    // non-zero byte follows the zeros the stream is damaged (IDX701 says
    // so) and how many zeros came first is no part of the verdict: the
    // library counts them for its message, the reference does not.
    if lib.intact {
        assert_eq!(
            lib.padding, reference.padding,
            "padding differs: library {lib:?}, reference {reference:?}"
        );
    }
}
