//! Repairs: fixes as data attached to findings, and a streaming repair.
//!
//! Validation attaches a [`Fix`] to every finding the spec says can be
//! repaired (`spec/idx.md`, "Fixes"): an [`Applicability`], a description
//! and the [`Edit`]s, in stream offsets. [`repair`] applies them: it plans
//! on the input's report (from its header and length alone, unless IDX501's
//! guess is taken or a header is rewritten, which need the payload read),
//! selects the fixes the [`FixOptions`] allow, and streams the input through
//! the edits into the output, validating the output as it goes, so the
//! [`FixReport`] says what was fixed and what remains. Memory is bounded by a
//! fixed buffer whatever the length of the input. Between passes it checks
//! that the input's length and first 1024 bytes (and, when it was read whole
//! more than once, all of it) did not change; callers that own files should
//! also compare the file's size and modification time before replacing it.
//!
//! ```
//! // the IDX technical report's writer: dimensions big-endian, elements native
//! let mut bytes = vec![0x00, 0x00, 0x0b, 0x01, 0, 0, 0, 64];
//! for v in 0..64i16 { bytes.extend_from_slice(&(v * 100).to_le_bytes()); }
//! let opts = idx::FixOptions::default().with_assume_byte_order(Some(idx::ByteOrder::Little));
//! let mut out = Vec::new();
//! let report = idx::repair(std::io::Cursor::new(&bytes), &mut out, &opts)?;
//! assert!(report.changed());
//! assert!(report.after.findings.is_empty());
//! assert_eq!(idx::parse(&out)?.array().get::<i16>(3), Some(300));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::dtype::ElementType;
use crate::finding::{Compression, Finding, Report};
use crate::header::{payload_len, MAGIC_LEN, MAX_HEADER_LEN};
use crate::rules::{Rule, Severity};
use crate::validate::{Options, Validator, CHUNK_LEN};
use std::fmt;
use std::io::{self, Read, Seek, SeekFrom, Write};

/// Whether a fix is certain to restore the intended array.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Applicability {
    /// The intended array is certain (a length proof): applied by `--fix`.
    Safe,
    /// The tool is guessing: applied only with `--unsafe-fixes`.
    Unsafe,
}

impl Applicability {
    /// `safe` or `unsafe`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Applicability::Safe => "safe",
            Applicability::Unsafe => "unsafe",
        }
    }
}

impl fmt::Display for Applicability {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The byte order a writer used for multi-byte elements.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ByteOrder {
    /// Least significant byte first (x86 native; numpy `tofile` on x86).
    Little,
    /// Most significant byte first (what IDX requires).
    Big,
}

impl ByteOrder {
    /// `little` or `big`.
    pub const fn as_str(self) -> &'static str {
        match self {
            ByteOrder::Little => "little",
            ByteOrder::Big => "big",
        }
    }

    /// Parses `little` or `big`.
    pub fn from_name(s: &str) -> Option<ByteOrder> {
        match s {
            "little" => Some(ByteOrder::Little),
            "big" => Some(ByteOrder::Big),
            _ => None,
        }
    }
}

/// One change to the IDX byte stream (decompressed, for gzip input), in
/// offsets of the stream the finding was made in.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Edit {
    /// Overwrite `bytes.len()` bytes at `offset` with `bytes` (header fields).
    Replace {
        /// First byte replaced.
        offset: u64,
        /// The new bytes; as many as are replaced.
        bytes: Vec<u8>,
    },
    /// Delete `length` bytes at `offset`; every deletion runs to the end of
    /// the stream (a truncation).
    Delete {
        /// First byte deleted.
        offset: u64,
        /// Bytes deleted.
        length: u64,
    },
    /// Reverse the bytes of each `element_size`-byte element in
    /// `[offset, offset + length)` (a payload byte-order change).
    SwapBytes {
        /// First byte of the first element.
        offset: u64,
        /// Bytes swapped, a multiple of `element_size`.
        length: u64,
        /// 2, 4 or 8.
        element_size: u8,
    },
}

/// How to repair a finding, as data.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Fix {
    /// Safe (certain) or unsafe (a guess).
    pub applicability: Applicability,
    /// What the fix does, lowercase, no trailing period.
    pub description: String,
    /// The edits, in stream offsets, ordered by offset.
    pub edits: Vec<Edit>,
}

impl Fix {
    fn new(applicability: Applicability, description: String, edits: Vec<Edit>) -> Self {
        Fix {
            applicability,
            description,
            edits,
        }
    }

    /// True when some edit changes a header field other than the reserved
    /// bytes (type, rank, dimensions): the payload must then be looked at
    /// again under the new header.
    pub(crate) fn changes_header_fields(&self) -> bool {
        self.edits.iter().any(|e| match e {
            Edit::Replace { offset, bytes } => offset + bytes.len() as u64 > 2,
            _ => false,
        })
    }
}

/// Which fixes [`repair`] applies.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct FixOptions {
    /// Apply unsafe fixes too (`--unsafe-fixes`).
    pub unsafe_fixes: bool,
    /// The byte order the writer used for multi-byte elements, when the
    /// user knows it: `Little` byte-swaps the payload (a safe fix, whether
    /// or not IDX501 fired); `Big` never applies IDX501's fix.
    pub assume_byte_order: Option<ByteOrder>,
    /// Write gzip output for gzip input (on by default); off writes the
    /// repaired stream plain.
    pub keep_compression: bool,
    /// Validation options (decompression is what makes gzip input
    /// repairable; it is on by default here).
    pub validate: Options,
}

impl Default for FixOptions {
    fn default() -> Self {
        FixOptions {
            unsafe_fixes: false,
            assume_byte_order: None,
            keep_compression: true,
            validate: Options::default().with_decompress(true),
        }
    }
}

impl FixOptions {
    /// Sets [`FixOptions::unsafe_fixes`].
    pub fn with_unsafe_fixes(mut self, on: bool) -> Self {
        self.unsafe_fixes = on;
        self
    }
    /// Sets [`FixOptions::assume_byte_order`].
    pub fn with_assume_byte_order(mut self, order: Option<ByteOrder>) -> Self {
        self.assume_byte_order = order;
        self
    }
    /// Sets [`FixOptions::keep_compression`].
    pub fn with_keep_compression(mut self, on: bool) -> Self {
        self.keep_compression = on;
        self
    }
    /// Sets [`FixOptions::validate`].
    pub fn with_validate(mut self, opts: Options) -> Self {
        self.validate = opts;
        self
    }
}

/// A fix that [`repair`] applied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AppliedFix {
    /// The finding's rule, or `None` for the payload byte swap stated by
    /// [`FixOptions::assume_byte_order`] when no finding asked for it.
    pub rule: Option<Rule>,
    /// The finding's offset (in the stream the fix was planned on).
    pub offset: u64,
    /// The finding's message (or what the user stated).
    pub message: String,
    /// The fix, with the applicability it was applied under.
    pub fix: Fix,
}

/// What [`repair`] or [`plan`] did to one input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FixReport {
    /// The report the repair was planned on: the input's, or for plain
    /// input when IDX501's guess was not wanted, its structure-only report
    /// (header and length; no payload lints).
    pub before: Report,
    /// The fixes applied, in the order they were planned.
    pub applied: Vec<AppliedFix>,
    /// The report of the output: what remains. For [`plan`] alone, the
    /// report of the input with the planned edits applied.
    pub after: Report,
    /// Bytes of the (decompressed) stream deleted by truncations.
    pub dropped_bytes: u64,
    /// True when the output is gzip-compressed.
    pub compressed_output: bool,
}

impl FixReport {
    /// True when any fix was applied (the output differs from the input).
    pub fn changed(&self) -> bool {
        !self.applied.is_empty()
    }
}

/// Why a repair failed. The output is then incomplete and must be
/// discarded; the input was only read.
#[derive(Debug)]
#[non_exhaustive]
pub enum FixError {
    /// Reading the input or writing the output failed.
    Io(io::Error),
    /// A plain copy of a gzip stream was asked for, but the stream is
    /// damaged (IDX701) or exceeds the decompression limit (IDX702).
    Incomplete(Rule),
    /// The input was not the same in every pass (it changed while it was
    /// read).
    InputChanged {
        /// Length and CRC-32 of the raw input in the planning pass (of its
        /// first 1024 bytes when only the structure was read).
        planned: (u64, u32),
        /// The same in the writing pass.
        found: (u64, u32),
    },
}

impl fmt::Display for FixError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FixError::Io(e) => write!(f, "{e}"),
            FixError::Incomplete(rule) => write!(
                f,
                "the gzip stream cannot be decompressed whole ({rule}): no plain copy can be written"
            ),
            FixError::InputChanged { planned, found } => write!(
                f,
                "the input changed while it was read ({} bytes, CRC-32 {:08x} when planned; {} bytes, CRC-32 {:08x} when written)",
                planned.0, planned.1, found.0, found.1
            ),
        }
    }
}

impl std::error::Error for FixError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            FixError::Io(e) => Some(e),
            FixError::InputChanged { .. } | FixError::Incomplete(_) => None,
        }
    }
}

impl From<io::Error> for FixError {
    fn from(e: io::Error) -> Self {
        FixError::Io(e)
    }
}

impl Rule {
    /// The applicabilities of the fixes this rule's findings can carry
    /// (`spec/idx.md`, "Fixes"): empty for report-only rules.
    pub const fn fixes(self) -> &'static [Applicability] {
        const SAFE: &[Applicability] = &[Applicability::Safe];
        const UNSAFE: &[Applicability] = &[Applicability::Unsafe];
        const BOTH: &[Applicability] = &[Applicability::Safe, Applicability::Unsafe];
        match self {
            Rule::ReservedBytes | Rule::LikelyLittleEndian => UNSAFE,
            Rule::SizeOverflow | Rule::ByteSwappedHeader => SAFE,
            Rule::TruncatedPayload | Rule::TrailingBytes => BOTH,
            _ => &[],
        }
    }
}

// ---------------------------------------------------------------------------
// Attaching fixes to findings

/// Attaches its fix to every fixable finding of a finished report;
/// `second_file` says whether the trailing bytes start with an IDX magic
/// (the validator saw them even when it skipped the rest of the file).
pub(crate) fn attach(report: &mut Report, second_file: bool) {
    if report
        .findings
        .iter()
        .any(|f| matches!(f.rule, Rule::GzipDamaged | Rule::DecompressionLimit))
    {
        return; // the stream is incomplete: nothing about its end is known
    }
    if !report.exact_len {
        return; // reading stopped early: the stream's length is a lower bound
    }
    let len = report.stream_len;
    let head = report.head.clone();
    // A whole header stored little-endian (IDX401).
    if let Some(i) = index_of(report, Rule::ByteSwappedHeader) {
        if let Some(fix) = swapped_header_fix(&head, len) {
            report.findings[i].fix = Some(fix);
        }
        if let Some(says) = swapped_header_payload(&head) {
            let f = &mut report.findings[i];
            f.hint = Some(format!("{}; {says}", f.hint.as_deref().unwrap_or_default()));
        }
        return;
    }
    // Dimensions stored little-endian, with a correct magic.
    let le_dims = little_endian_dims_fix(&head, len);
    let mut length_fixed = false;
    if let Some(fix) = le_dims {
        if let Some(i) = report.findings.iter().position(|f| {
            matches!(
                f.rule,
                Rule::SizeOverflow | Rule::TruncatedPayload | Rule::TrailingBytes
            )
        }) {
            report.findings[i].fix = Some(fix);
            length_fixed = true;
            // spec 5.5: the hint says what the dimensions would have been
            if let Some((_, le)) = head
                .get(3)
                .and_then(|&r| both_readings(&head, usize::from(r)))
            {
                report.findings[i].hint = Some(format!(
                    "the dimensions look byte-swapped: read little-endian they are {}, which accounts for the stream's {} exactly; the writer stored the header's integers little-endian",
                    dims_str(&le),
                    bytes(len)
                ));
            }
        }
    }
    let Some(h) = report.header.clone() else {
        return;
    };
    let hlen = h.header_len() as u64;
    // saturating: a payload near 2^64 bytes has no room for a header, and
    // `end` is used only when trailing bytes prove it fits
    let end = hlen.saturating_add(h.payload_len());
    if !length_fixed {
        if let Some(i) = index_of(report, Rule::TruncatedPayload) {
            report.findings[i].fix = truncated_payload_fix(&h, len);
        }
        if let Some(i) = index_of(report, Rule::TrailingBytes) {
            let trailing = len - end;
            let mut d = format!(
                "truncate the file after the declared payload, dropping {}",
                bytes(trailing)
            );
            if second_file {
                d.push_str(" (they start with an IDX magic: the second file is lost)");
            }
            report.findings[i].fix = Some(Fix::new(
                Applicability::Unsafe,
                d,
                vec![Edit::Delete {
                    offset: end,
                    length: trailing,
                }],
            ));
        }
    }
    if let Some(i) = index_of(report, Rule::LikelyLittleEndian) {
        let f = &report.findings[i];
        let size = h.dtype().size() as u64;
        report.findings[i].fix = Some(Fix::new(
            Applicability::Unsafe,
            format!(
                "byte-swap the {} {} elements of the payload from little-endian to big-endian",
                f.length / size,
                h.dtype()
            ),
            vec![Edit::SwapBytes {
                offset: f.offset,
                length: f.length,
                element_size: size as u8,
            }],
        ));
    }
    // Reserved bytes, when everything else is consistent: every other error
    // has a fix (which the same run applies) and none is about what the
    // bytes are.
    if let Some(i) = index_of(report, Rule::ReservedBytes) {
        let others_fixable = report
            .findings
            .iter()
            .filter(|f| f.rule != Rule::ReservedBytes && f.severity() == Severity::Error)
            .all(|f| {
                f.fix.is_some() || matches!(f.rule, Rule::UnexpectedType | Rule::UnexpectedShape)
            });
        if others_fixable {
            report.findings[i].fix = Some(Fix::new(
                Applicability::Unsafe,
                "set the reserved bytes to 00 00".into(),
                vec![Edit::Replace {
                    offset: 0,
                    bytes: vec![0, 0],
                }],
            ));
        }
    }
}

fn index_of(report: &Report, rule: Rule) -> Option<usize> {
    report.findings.iter().position(|f| f.rule == rule)
}

/// `1 byte`, `2 bytes`.
fn bytes(n: u64) -> String {
    if n == 1 {
        "1 byte".into()
    } else {
        format!("{n} bytes")
    }
}

fn dims_str(dims: &[u32]) -> String {
    let parts: Vec<String> = dims.iter().map(u32::to_string).collect();
    format!("[{}]", parts.join(", "))
}

/// The dimensions at `head[4..4 + 4 * rank]` read both ways, when present.
fn both_readings(head: &[u8], rank: usize) -> Option<(Vec<u32>, Vec<u32>)> {
    let dims = head.get(MAGIC_LEN..MAGIC_LEN + 4 * rank)?;
    let mut be = Vec::with_capacity(rank);
    let mut le = Vec::with_capacity(rank);
    for c in dims.chunks_exact(4) {
        let w = [c[0], c[1], c[2], c[3]];
        be.push(u32::from_be_bytes(w));
        le.push(u32::from_le_bytes(w));
    }
    Some((be, le))
}

/// True when a header of `rank` dimensions `dims` and type `t` accounts for
/// exactly `len` bytes.
fn accounts_for(t: ElementType, dims: &[u32], len: u64) -> bool {
    payload_len(t, dims)
        .and_then(|p| p.checked_add((MAGIC_LEN + 4 * dims.len()) as u64))
        .is_some_and(|total| total == len)
}

fn be_dims(dims: &[u32]) -> Vec<u8> {
    dims.iter().flat_map(|d| d.to_be_bytes()).collect()
}

fn swapped_header_fix(head: &[u8], len: u64) -> Option<Fix> {
    let rank = usize::from(*head.first()?);
    let t = ElementType::from_code(*head.get(1)?)?;
    let (be, le) = both_readings(head, rank)?;
    if !accounts_for(t, &le, len) || (be != le && accounts_for(t, &be, len)) {
        return None;
    }
    let mut bytes = vec![0, 0, t.code(), rank as u8];
    bytes.extend(be_dims(&le));
    Some(Fix::new(
        Applicability::Safe,
        format!(
            "rewrite the header big-endian: {t}, dimensions {} (read little-endian, they account for the stream's {} exactly)",
            dims_str(&le),
            self::bytes(len)
        ),
        vec![Edit::Replace { offset: 0, bytes }],
    ))
}

fn little_endian_dims_fix(head: &[u8], len: u64) -> Option<Fix> {
    let t = ElementType::from_code(*head.get(2)?)?;
    let rank = usize::from(*head.get(3)?);
    let (be, le) = both_readings(head, rank)?;
    if be == le || accounts_for(t, &be, len) || !accounts_for(t, &le, len) {
        return None;
    }
    Some(Fix::new(
        Applicability::Safe,
        format!(
            "the dimensions are stored little-endian: rewrite them big-endian as {} (that reading accounts for the stream's {} exactly)",
            dims_str(&le),
            bytes(len)
        ),
        vec![Edit::Replace {
            offset: MAGIC_LEN as u64,
            bytes: be_dims(&le),
        }],
    ))
}

fn truncated_payload_fix(h: &crate::Header, len: u64) -> Option<Fix> {
    let first = *h.dims().first()?;
    let item = h.payload_len().checked_div(u64::from(first))?;
    if item == 0 {
        return None;
    }
    let hlen = h.header_len() as u64;
    let present = len.checked_sub(hlen)?;
    let whole = present / item;
    if whole == 0 || whole >= u64::from(first) {
        return None; // nothing to keep (or not truncated)
    }
    let keep_end = hlen + whole * item;
    let partial = len - keep_end;
    let mut edits = vec![Edit::Replace {
        offset: MAGIC_LEN as u64,
        bytes: (whole as u32).to_be_bytes().to_vec(), // whole < first, a u32
    }];
    let mut d = format!("lower dimension 0 from {first} to {whole}, the number of complete items");
    if partial > 0 {
        d.push_str(&format!(
            ", and drop the {} of the partial item",
            bytes(partial)
        ));
        edits.push(Edit::Delete {
            offset: keep_end,
            length: partial,
        });
    }
    Some(Fix::new(Applicability::Unsafe, d, edits))
}

// ---------------------------------------------------------------------------
// Selecting and composing fixes

/// The composed edits of every applied fix, in input stream offsets.
/// Header replacements keep lengths and deletions run to the end, so the
/// offsets of a repaired stream below its length are those of the input.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Plan {
    /// Byte replacements, applied in order (later ones win).
    replace: Vec<(u64, Vec<u8>)>,
    /// `(offset, length, element size)` of the payload byte swap.
    swap: Option<(u64, u64, usize)>,
    /// The repaired stream ends at this input offset.
    cut: Option<u64>,
}

impl Plan {
    fn add(&mut self, fix: &Fix) {
        for e in &fix.edits {
            match e {
                Edit::Replace { offset, bytes } => self.replace.push((*offset, bytes.clone())),
                Edit::Delete { offset, .. } => {
                    self.cut = Some(self.cut.map_or(*offset, |c| c.min(*offset)));
                }
                Edit::SwapBytes {
                    offset,
                    length,
                    element_size,
                } => self.swap = Some((*offset, *length, usize::from(*element_size))),
            }
        }
        // a swap never reaches into deleted bytes
        if let (Some((o, l, s)), Some(c)) = (self.swap, self.cut) {
            let end = (o + l).min(c.max(o));
            self.swap = Some((o, (end - o) / s as u64 * s as u64, s));
        }
    }

    fn is_empty(&self) -> bool {
        self.replace.is_empty() && self.swap.is_none() && self.cut.is_none()
    }
}

/// The fixes of `report` that `opts` allow, as applied fixes, in finding
/// order. When one of them rewrites header fields, only header fixes are
/// taken: the rest were found under the old header and are looked at again.
fn select(report: &Report, opts: &FixOptions, swapped: bool) -> Vec<AppliedFix> {
    let allowed = |f: &Finding| -> Option<Fix> {
        let fix = f.fix.as_ref()?;
        if f.rule == Rule::LikelyLittleEndian {
            return match (opts.assume_byte_order, swapped) {
                (_, true) | (Some(ByteOrder::Big), _) => None,
                (Some(ByteOrder::Little), false) => Some(Fix {
                    applicability: Applicability::Safe,
                    description: format!(
                        "{} (the writer's byte order was stated)",
                        fix.description
                    ),
                    ..fix.clone()
                }),
                (None, false) => opts.unsafe_fixes.then(|| fix.clone()),
            };
        }
        (fix.applicability == Applicability::Safe || opts.unsafe_fixes).then(|| fix.clone())
    };
    let mut out: Vec<AppliedFix> = report
        .findings
        .iter()
        .filter_map(|f| {
            allowed(f).map(|fix| AppliedFix {
                rule: Some(f.rule),
                offset: f.offset,
                message: f.message.clone(),
                fix,
            })
        })
        .collect();
    // The reserved bytes only when every other error's fix is applied too.
    if let Some(i) = out.iter().position(|a| a.rule == Some(Rule::ReservedBytes)) {
        let all = report
            .findings
            .iter()
            .filter(|f| {
                f.fix.is_some() && f.rule != Rule::ReservedBytes && f.severity() == Severity::Error
            })
            .all(|f| out.iter().any(|a| a.rule == Some(f.rule)));
        if !all {
            out.remove(i);
        }
    }
    if out
        .iter()
        .any(|a| a.fix.changes_header_fields() && is_header_rewrite(a))
    {
        out.retain(is_header_rewrite);
        return out;
    }
    if opts.assume_byte_order == Some(ByteOrder::Little)
        && !swapped
        && !out.iter().any(|a| a.rule == Some(Rule::LikelyLittleEndian))
    {
        if let Some(a) = stated_swap(report) {
            out.push(a);
        }
    }
    out
}

/// A fix that rewrites the type, rank or dimensions to what a length proof
/// says (IDX401, little-endian dimensions).
fn is_header_rewrite(a: &AppliedFix) -> bool {
    a.fix.applicability == Applicability::Safe
        && a.fix.changes_header_fields()
        && a.fix
            .edits
            .iter()
            .all(|e| matches!(e, Edit::Replace { .. }))
}

/// The payload swap stated by `--assume-byte-order little`: every whole
/// element present.
fn stated_swap(report: &Report) -> Option<AppliedFix> {
    let h = report.header.as_ref()?;
    let size = h.dtype().size() as u64;
    if size == 1 {
        return None;
    }
    let hlen = h.header_len() as u64;
    let present = report.stream_len.saturating_sub(hlen).min(h.payload_len());
    let length = present / size * size;
    if length == 0 {
        return None;
    }
    Some(AppliedFix {
        rule: None,
        offset: hlen,
        message: "the writer stored multi-byte elements little-endian (stated by the user)".into(),
        fix: Fix::new(
            Applicability::Safe,
            format!(
                "byte-swap the {} {} elements of the payload from little-endian to big-endian (the writer's byte order was stated)",
                length / size,
                h.dtype()
            ),
            vec![Edit::SwapBytes {
                offset: hlen,
                length,
                element_size: size as u8,
            }],
        ),
    })
}

// ---------------------------------------------------------------------------
// Streaming the input through the edits

use crate::input::fill;

/// Streams `input` through `plan` into `sink`, a chunk at a time; returns
/// the bytes of `input` read.
fn stream<R: Read>(
    plan: &Plan,
    mut input: R,
    mut sink: impl FnMut(&[u8]) -> io::Result<()>,
) -> io::Result<u64> {
    let mut buf = vec![0u8; CHUNK_LEN + 8];
    let mut have = 0usize; // bytes held back at the front of buf
    let mut base = 0u64; // input offset of buf[0]
    loop {
        let n = fill(&mut input, &mut buf[have..have + CHUNK_LEN])?;
        let total = have + n;
        let eof = n == 0;
        let mut emit = total;
        if let Some((s, l, size)) = plan.swap {
            let end_in = base + total as u64;
            if !eof && end_in > s && end_in < s + l {
                emit -= ((end_in - s) % size as u64) as usize; // a partial element waits
            }
        }
        let chunk = &mut buf[..emit];
        let lo = base;
        let hi = base + emit as u64;
        if let Some((s, l, size)) = plan.swap {
            let a = s.max(lo);
            let b = (s + l).min(hi);
            if a < b {
                // a and b are element boundaries: s + k * size
                let part = &mut chunk[(a - lo) as usize..(b - lo) as usize];
                swap_elements(part, size);
            }
        }
        for (off, bytes) in &plan.replace {
            for (k, &v) in bytes.iter().enumerate() {
                let at = off + k as u64;
                if at >= lo && at < hi {
                    chunk[(at - lo) as usize] = v;
                }
            }
        }
        let keep = plan
            .cut
            .map_or(emit, |c| (c.saturating_sub(lo)).min(emit as u64) as usize);
        if keep > 0 {
            sink(&chunk[..keep])?;
        }
        buf.copy_within(emit..total, 0);
        have = total - emit;
        base = hi;
        if eof {
            return Ok(base + have as u64);
        }
    }
}

fn swap_elements(bytes: &mut [u8], size: usize) {
    match size {
        2 => bytes.chunks_exact_mut(2).for_each(|c| c.swap(0, 1)),
        4 => bytes.chunks_exact_mut(4).for_each(|c| {
            let w = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
            c.copy_from_slice(&w.to_be_bytes());
        }),
        8 => bytes.chunks_exact_mut(8).for_each(|c| {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            c.copy_from_slice(&u64::from_le_bytes(w).to_be_bytes());
        }),
        _ => bytes
            .chunks_exact_mut(size.max(1))
            .for_each(<[u8]>::reverse),
    }
}

/// A reader that counts and checksums what it hands out.
struct Summed<R> {
    inner: R,
    crc: flate2::Crc,
    head: flate2::Crc,
    len: u64,
}

/// What a pass saw of the raw input: its length, the CRC-32 of its first
/// [`MAX_HEADER_LEN`] bytes, and the CRC-32 of all of it when it was read
/// whole.
type Sum = (u64, u32, Option<u32>);

impl<R: Read + Seek> Summed<R> {
    /// Rewinds `inner` and wraps it.
    fn rewind(mut inner: R) -> io::Result<Self> {
        inner.seek(SeekFrom::Start(0))?;
        Ok(Summed {
            inner,
            crc: flate2::Crc::new(),
            head: flate2::Crc::new(),
            len: 0,
        })
    }

    /// Reads what is left (bytes after the last gzip member) and returns
    /// what was read.
    fn finish(mut self) -> io::Result<Sum> {
        io::copy(&mut self, &mut io::sink())?;
        Ok((self.len, self.head.sum(), Some(self.crc.sum())))
    }
}

impl<R: Read> Read for Summed<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.crc.update(&buf[..n]);
        if self.len < MAX_HEADER_LEN as u64 {
            let k = (MAX_HEADER_LEN - self.len as usize).min(n);
            self.head.update(&buf[..k]);
        }
        self.len += n as u64;
        Ok(n)
    }
}

fn is_gzip<R: Read + Seek>(input: &mut R, opts: &FixOptions) -> io::Result<bool> {
    if !opts.validate.decompress {
        return Ok(false);
    }
    input.seek(SeekFrom::Start(0))?;
    let mut magic = [0u8; 2];
    let n = fill(input, &mut magic)?;
    Ok(crate::is_gzip(&magic[..n]))
}

/// Validates `input` with `plan` applied; returns the report and the raw
/// input's length and CRC-32.
fn validate_planned<R: Read + Seek>(
    input: &mut R,
    plan: &Plan,
    gzip: bool,
    opts: &Options,
) -> io::Result<(Report, Sum)> {
    let len = input.seek(SeekFrom::End(0)).ok(); // None: read to the end
    let mut summed = Summed::rewind(input)?;
    let report = if plan.is_empty() {
        // Validation's own entry point, so the findings are validation's;
        // the length is known, so the report's lengths are exact.
        crate::validate::validate_reader_len(&mut summed, len, opts)?
    } else {
        let mut v = Validator::new(opts.clone());
        if gzip {
            v = v.with_compression(Compression::Gzip);
            let dec = crate::gzip::Members::new(&mut summed);
            stream(plan, dec, |c| {
                v.feed(c);
                Ok(())
            })?;
        } else {
            stream(plan, &mut summed, |c| {
                v.feed(c);
                Ok(())
            })?;
        }
        v.finish()
    };
    Ok((report, summed.finish()?))
}

/// Validates the structure of plain `input` only: the header and the length
/// (from `seek`), without reading the payload or running payload lints.
/// Enough to plan every fix but IDX501's (a payload statistic).
fn validate_structure<R: Read + Seek>(input: &mut R, opts: &Options) -> io::Result<(Report, Sum)> {
    let len = input.seek(SeekFrom::End(0))?;
    input.seek(SeekFrom::Start(0))?;
    let mut head = vec![0u8; MAX_HEADER_LEN.min(usize::try_from(len).unwrap_or(MAX_HEADER_LEN))];
    let n = fill(input, &mut head)?;
    let mut v = Validator::new(opts.clone().with_lints(false));
    v.feed(&head[..n]);
    v.skip(len.saturating_sub(n as u64));
    let mut crc = flate2::Crc::new();
    crc.update(&head[..n]);
    Ok((v.finish(), (len, crc.sum(), None)))
}

/// Plans the repair of `input`: validates it, selects the fixes `opts`
/// allow, and, when a fix rewrote the header, validates again under the new
/// header (at most a few rounds), then once more with every fix applied for
/// [`FixReport::after`]. Reads the input once per round; writes nothing
/// (`idx-validate --diff`).
///
/// # Errors
/// [`FixError::Io`] for the reader's I/O errors (everything wrong with the
/// data is a finding); [`FixError::InputChanged`] when the input's bytes
/// differ between rounds.
pub fn plan<R: Read + Seek>(mut input: R, opts: &FixOptions) -> Result<FixReport, FixError> {
    plan_inner(&mut input, opts, true).map(|p| p.report)
}

/// Plans a repair to be written later with [`Planned::write`]: like
/// [`plan`], without the last validation pass (so its report's `after` is
/// only up to date when nothing changed). `idx-validate --fix` uses it to
/// decide whether to write at all, reading an unchanged file only once.
///
/// # Errors
/// As [`plan`].
pub fn prepare<R: Read + Seek>(mut input: R, opts: &FixOptions) -> Result<Planned, FixError> {
    plan_inner(&mut input, opts, false)
}

/// A planned repair: see [`prepare`].
#[derive(Debug, Clone)]
pub struct Planned {
    report: FixReport,
    plan: Plan,
    gzip: bool,
    sum: Sum,
    opts: FixOptions,
}

impl Planned {
    /// The report so far (`after` is the input's report when nothing
    /// changed).
    pub fn report(&self) -> &FixReport {
        &self.report
    }

    /// True when a fix is planned.
    pub fn changed(&self) -> bool {
        self.report.changed()
    }

    /// Writes the repaired stream of `input` (the same input that was
    /// planned on) to `output`: see [`repair`].
    ///
    /// # Errors
    /// As [`repair`].
    pub fn write<R: Read + Seek, W: Write>(
        self,
        mut input: R,
        output: W,
    ) -> Result<FixReport, FixError> {
        write_planned(self, &mut input, output)
    }
}

const MAX_ROUNDS: usize = 4;

fn plan_inner<R: Read + Seek>(
    input: &mut R,
    opts: &FixOptions,
    final_check: bool,
) -> Result<Planned, FixError> {
    let gzip = is_gzip(input, opts)?;
    let mut plan = Plan::default();
    // Only IDX501's fix needs the payload read (a statistic); every other
    // fix is planned from the header and the length, so the input is read
    // whole only once, when it is written.
    let lint_fix = opts.unsafe_fixes && opts.assume_byte_order.is_none();
    let (before, sum) = if gzip || lint_fix || !opts.validate.lints {
        validate_planned(input, &plan, gzip, &opts.validate)?
    } else {
        validate_structure(input, &opts.validate)?
    };
    let mut report = before.clone();
    let mut applied: Vec<AppliedFix> = Vec::new();
    let mut stale = false; // `report` does not reflect the latest fixes
    for _ in 0..MAX_ROUNDS {
        let chosen = select(&report, opts, plan.swap.is_some());
        if chosen.is_empty() {
            break;
        }
        for a in &chosen {
            plan.add(&a.fix);
        }
        let again = chosen.iter().any(is_header_rewrite);
        applied.extend(chosen);
        stale = true;
        if !again {
            break;
        }
        // the header changed: look at the payload again under the new one
        let (r, s) = validate_planned(input, &plan, gzip, &opts.validate)?;
        check_same(sum, s)?;
        report = r;
        stale = false;
    }
    if stale && final_check {
        let (r, s) = validate_planned(input, &plan, gzip, &opts.validate)?;
        check_same(sum, s)?;
        report = r;
    }
    let dropped = plan.cut.map_or(0, |c| before.stream_len.saturating_sub(c));
    let fr = FixReport {
        compressed_output: gzip && opts.keep_compression,
        before,
        applied,
        after: report,
        dropped_bytes: dropped,
    };
    Ok(Planned {
        report: fr,
        plan,
        gzip,
        sum,
        opts: opts.clone(),
    })
}

fn check_same(planned: Sum, found: Sum) -> Result<(), FixError> {
    let whole = match (planned.2, found.2) {
        (Some(a), Some(b)) => a == b,
        _ => true,
    };
    if planned.0 == found.0 && planned.1 == found.1 && whole {
        Ok(())
    } else {
        Err(FixError::InputChanged {
            planned: (planned.0, planned.2.unwrap_or(planned.1)),
            found: (found.0, found.2.unwrap_or(found.1)),
        })
    }
}

/// Repairs `input` into `output`: [`plan`]s, then streams the input through
/// the planned edits into `output` (gzip-compressed again for gzip input
/// unless `opts.keep_compression` is off), validating what it writes, so
/// [`FixReport::after`] is the report of the output. The input is read once
/// per planning round (one, unless a header was rewritten) plus once for
/// writing, through a fixed buffer ([`CHUNK_LEN`]): memory does not grow
/// with the input.
///
/// When no fix applies the input is copied unchanged (gzip input is
/// recompressed); callers that must not rewrite an unchanged file check
/// [`plan`] first.
///
/// # Errors
/// [`FixError::Io`] when reading or writing fails; [`FixError::InputChanged`]
/// when the input's bytes differ between passes. Either way `output` holds an
/// incomplete stream and must be discarded; the input is only read.
pub fn repair<R: Read + Seek, W: Write>(
    mut input: R,
    output: W,
    opts: &FixOptions,
) -> Result<FixReport, FixError> {
    let planned = plan_inner(&mut input, opts, false)?;
    write_planned(planned, &mut input, output)
}

fn write_planned<R: Read + Seek, W: Write>(
    planned: Planned,
    input: &mut R,
    output: W,
) -> Result<FixReport, FixError> {
    let Planned {
        mut report,
        plan,
        gzip,
        sum,
        opts,
    } = planned;
    let opts = &opts;
    let mut v = Validator::new(opts.validate.clone());
    let mut summed = Summed::rewind(input)?;
    if plan.is_empty() && (!gzip || opts.keep_compression) {
        // nothing to fix: the bytes as they are (a bomb is never expanded)
        let mut out = output;
        if gzip {
            io::copy(&mut summed, &mut out)?;
            report.after = report.before.clone(); // planned on a full pass
        } else {
            stream(&plan, &mut summed, |c| {
                v.feed(c);
                out.write_all(c)
            })?;
            report.after = v.finish();
        }
        out.flush()?;
        check_same(sum, summed.finish()?)?;
        return Ok(report);
    }
    if let Some(f) = report
        .before
        .findings
        .iter()
        .find(|f| matches!(f.rule, Rule::GzipDamaged | Rule::DecompressionLimit))
    {
        return Err(FixError::Incomplete(f.rule));
    }
    if gzip {
        v = v.with_compression(Compression::Gzip);
        let dec = crate::gzip::Members::new(&mut summed);
        if opts.keep_compression {
            let mut enc = flate2::write::GzEncoder::new(output, flate2::Compression::default());
            stream(&plan, dec, |c| {
                v.feed(c);
                enc.write_all(c)
            })?;
            enc.finish()?.flush()?;
        } else {
            let mut out = output;
            stream(&plan, dec, |c| {
                v.feed(c);
                out.write_all(c)
            })?;
            out.flush()?;
        }
    } else {
        let mut out = output;
        stream(&plan, &mut summed, |c| {
            v.feed(c);
            out.write_all(c)
        })?;
        out.flush()?;
    }
    check_same(sum, summed.finish()?)?;
    report.after = v.finish();
    Ok(report)
}

/// What the byte-order test (spec 6.1) says of the payload under a
/// byte-swapped header (IDX401), from its first bytes in `head`: whether
/// the writer swapped the elements too.
fn swapped_header_payload(head: &[u8]) -> Option<String> {
    let (&rank, &code) = (head.first()?, head.get(1)?);
    let t = ElementType::from_code(code)?;
    if t.size() == 1 {
        return None;
    }
    let start = 4 + 4 * usize::from(rank);
    let sample = head.get(start..)?;
    let score = crate::lint::byteorder::score(t, &sample[..sample.len() / t.size() * t.size()])?;
    Some(match score.verdict() {
        crate::lint::Verdict::None if score.bits <= -crate::lint::LIKELY_BITS => format!(
            "its {t} payload reads big-endian (byte-order score {:.1} bits over its first {} non-zero elements): only the header was swapped",
            score.bits, score.elements
        ),
        crate::lint::Verdict::None => format!(
            "the byte order of its {t} payload cannot be told from its first bytes ({} non-zero elements scored)",
            score.elements
        ),
        _ => format!(
            "its {t} payload is little-endian too (byte-order score {:.1} bits over its first {} non-zero elements): swap the elements as well",
            score.bits, score.elements
        ),
    })
}
