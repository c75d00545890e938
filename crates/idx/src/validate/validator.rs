//! The incremental validator: one state machine fed the stream in chunks.

use super::analyse::{analyse, Analysis};
use super::compressed::GzipStage;
use super::expect::expectations;
use super::Options;
use crate::edit::ByteOrder;
use crate::finding::{Compression, Finding, Report, TAIL_LEN};
use crate::header::{starts_with_idx_magic, Header, MAGIC_LEN, MAX_HEADER_LEN};
use crate::label_scan::LabelScanner;
use crate::lint::{self, PayloadLinter};
use crate::rules::Rule;
use crate::suggest::attach;
use crate::violations::{trailing_bytes, truncated_payload};

/// The incremental validator, the library's one input engine: feed it the
/// bytes of one stream in chunks of any size, then
/// [`finish`](Validator::finish). With [`Options::decompress`] on, it
/// looks at the first two bytes fed (its one gzip sniff) and decodes a
/// gzip stream itself, up to [`Options::limits`]; every validating entry
/// point (`validate*`, repair) is a loop over it.
///
/// Memory is bounded: a 1 KiB header buffer, a 64 KiB buffer for gzip
/// output, a few counters, and findings bounded by the 255 dimensions of a
/// header, whatever the input.
///
/// ```
/// // the bytes arrive in pieces of any size, e.g. from a network
/// let bytes = idx::to_bytes(&idx::Array::from_vec(vec![4], vec![1i16, 2, 3, 4])?)?;
/// let mut v = idx::Validator::new(idx::Options::default());
/// for piece in bytes.chunks(3) {
///     v.feed(piece);
/// }
/// let report = v.finish();
/// assert!(report.is_valid());
/// assert_eq!(report, idx::validate(&bytes));
///
/// // a gzip stream pushed the same way validates in the same bounded memory
/// let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
/// std::io::Write::write_all(&mut gz, &bytes)?;
/// let gz = gz.finish()?;
/// let mut v = idx::Validator::new(idx::Options::default().with_decompress(true));
/// for piece in gz.chunks(3) {
///     v.feed(piece);
/// }
/// let report = v.finish();
/// assert!(report.is_valid() && report.compression.is_some());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct Validator {
    pub(super) opts: Options,
    /// How fed bytes reach the IDX checks: as they are, or decompressed.
    input: Input,
    pub(super) prefix: Vec<u8>,
    pub(super) analysis: Option<Analysis>,
    pub(super) total: u64,
    payload_seen: u64,
    pub(super) trailing: u64,
    trailing_head: Vec<u8>,
    linter: Option<PayloadLinter>,
    labels: Option<LabelScanner>,
    /// The exact byte-order proof against a stated range (spec 6.1).
    range: Option<lint::range::RangeScan>,
    /// The first non-zero words after the header (the width hint's sample).
    width: lint::width::NonZeroWords,
    pub(super) compression: Option<Compression>,
    stop: Option<(Finding, bool)>,
    pub(super) container: Vec<Finding>,
    pub(super) exact_len: bool,
    tail: [u8; TAIL_LEN],
    skipped: bool,
}

/// How the bytes fed to a [`Validator`] reach its IDX checks.
#[derive(Debug)]
enum Input {
    /// Decompression is on and fewer than two bytes were fed: not yet
    /// known whether the stream is gzip (the byte held, if one was fed).
    Sniffing(Option<u8>),
    /// The IDX stream itself.
    Plain,
    /// A gzip stream, decoded by the stage.
    Gzip(Box<GzipStage>),
}

impl Validator {
    /// A validator for one stream (gzip too, when
    /// [`Options::decompress`] is on).
    pub fn new(opts: Options) -> Self {
        let input = if opts.decompress {
            Input::Sniffing(None)
        } else {
            Input::Plain
        };
        let mut v = Validator::plain(opts);
        v.input = input;
        v
    }

    /// A validator fed the decompressed IDX stream itself, whatever
    /// [`Options::decompress`] says (the repair's own decoding paths).
    pub(crate) fn plain(opts: Options) -> Self {
        Validator {
            input: Input::Plain,
            opts,
            prefix: Vec::with_capacity(MAX_HEADER_LEN),
            analysis: None,
            total: 0,
            payload_seen: 0,
            trailing: 0,
            trailing_head: Vec::with_capacity(MAGIC_LEN),
            linter: None,
            labels: None,
            range: None,
            width: lint::width::NonZeroWords::default(),
            compression: None,
            stop: None,
            container: Vec::new(),
            exact_len: true,
            tail: [0; TAIL_LEN],
            skipped: false,
        }
    }

    /// Feeds the next bytes of the stream.
    pub fn feed(&mut self, bytes: &[u8]) {
        match std::mem::replace(&mut self.input, Input::Plain) {
            Input::Plain => self.feed_plain(bytes),
            Input::Gzip(mut gz) => {
                self.push_gzip(&mut gz, bytes, false);
                self.input = Input::Gzip(gz);
            }
            Input::Sniffing(held) => {
                let first = held.or(bytes.first().copied());
                let second = if held.is_some() {
                    bytes.first()
                } else {
                    bytes.get(1)
                };
                match (first, second) {
                    (None, _) => self.input = Input::Sniffing(None),
                    (Some(b @ 0x1f), None) => {
                        // one byte that may start the gzip magic
                        self.input = Input::Sniffing(Some(b));
                    }
                    (Some(b), Some(&c)) if Validator::sniff(&[b, c]).is_some() => {
                        self.compression = Some(Compression::Gzip);
                        let mut gz = Box::new(GzipStage::new(self.opts.limits));
                        if let Some(h) = held {
                            self.push_gzip(&mut gz, &[h], false);
                        }
                        self.push_gzip(&mut gz, bytes, false);
                        self.input = Input::Gzip(gz);
                    }
                    _ => {
                        if let Some(h) = held {
                            self.feed_plain(&[h]);
                        }
                        self.feed_plain(bytes);
                    }
                }
            }
        }
    }

    /// The library's one gzip sniff: the container that the first bytes of
    /// a stream (two are enough; fewer are never gzip) say it comes in.
    /// The validator decides with it on the first bytes fed; the pull
    /// opener (`input::open`, under [`Reader`](crate::Reader)) asks it too,
    /// so every way in accepts gzip by the same two bytes.
    pub(crate) fn sniff(prefix: &[u8]) -> Option<Compression> {
        crate::gzip::is_gzip(prefix).then_some(Compression::Gzip)
    }

    /// The container of the stream, as the validator found it (known once
    /// two bytes were fed): `Some(Gzip)` when it decompresses what it is
    /// fed, `None` for plain IDX.
    ///
    /// ```
    /// let mut v = idx::Validator::new(idx::Options::default().with_decompress(true));
    /// v.feed(&[0x1f, 0x8b]);
    /// assert_eq!(v.compression(), Some(idx::Compression::Gzip));
    /// ```
    pub fn compression(&self) -> Option<Compression> {
        self.compression
    }

    /// True when fed bytes are decoded as gzip (the stream began with its
    /// magic and decompression is on).
    pub(super) fn decompressing(&self) -> bool {
        matches!(self.input, Input::Gzip(_))
    }

    /// True once validation was stopped (damage, the limit).
    pub(super) fn stopped(&self) -> bool {
        self.stop.is_some()
    }

    /// Feeds the next bytes of the IDX stream itself.
    pub(super) fn feed_plain(&mut self, mut bytes: &[u8]) {
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
    /// the report keeps no tail bytes. Only for a plain stream: a gzip
    /// stream's bytes are all read (its integrity is checked), so skipping
    /// them is ignored.
    pub fn skip(&mut self, n: u64) {
        if let Input::Sniffing(Some(h)) = self.input {
            self.input = Input::Plain;
            self.feed_plain(&[h]);
        }
        if matches!(self.input, Input::Gzip(_)) {
            return;
        }
        self.input = Input::Plain;
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
            // the lints and the label scan would miss payload bytes (a
            // linter that has seen all it looks at stays)
            if !self.linter.as_ref().is_some_and(PayloadLinter::done) {
                self.linter = None;
            }
            self.labels = None;
            self.range = None;
        }
        let p = left.min(n);
        if let Some(l) = &mut self.linter {
            l.skip(p);
        }
        self.payload_seen += p;
        self.trailing += n - p;
    }

    fn analyse_prefix(&mut self) {
        let a = analyse(&self.prefix);
        let prefix = std::mem::take(&mut self.prefix);
        let body = a.header.as_ref().map(|h| h.header_len());
        if let Some(h) = &a.header {
            let test = self.opts.byte_order_test && self.opts.byte_order != Some(ByteOrder::Big);
            if (self.opts.lints || test) && PayloadLinter::is_active(h.dtype()) {
                self.linter = Some(PayloadLinter::new(
                    h.dtype(),
                    h.header_len() as u64,
                    self.opts.lints,
                ));
            }
            if let Some(classes) = self.opts.scan_labels {
                self.labels = LabelScanner::new(h, classes);
            }
            // a stated range, or the classes of a rank-1 file: 0..classes-1
            let classes = match self.opts.scan_labels {
                Some(Some(n)) if n > 0 && h.rank() == 1 => Some((0, i64::from(n) - 1)),
                _ => None,
            };
            if self.opts.byte_order.is_none() {
                if let Some(range) = self.opts.expect_range.or(classes) {
                    self.range =
                        lint::range::RangeScan::new(h.dtype(), h.header_len() as u64, range);
                }
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

    /// A validator fed `header`'s bytes and analysed, for the payload that
    /// follows them (a payload read by other means, the lower-level
    /// readers given a header already read).
    pub(crate) fn after_header(opts: Options, header: &Header) -> Self {
        let mut v = Validator::plain(opts);
        v.feed(&header.to_bytes());
        v.analyse_now();
        v
    }

    /// Analyses the header on the bytes fed so far, if it is not analysed
    /// yet: for a pull reader that fed exactly the header's bytes (or the
    /// whole stream, which ended within them), before it feeds the payload.
    pub(crate) fn analyse_now(&mut self) {
        if self.analysis.is_none() {
            self.analyse_prefix();
        }
    }

    /// The header the analysed bytes give (`None` before the analysis, or
    /// when they give none).
    pub(crate) fn header(&self) -> Option<&Header> {
        self.analysis.as_ref().and_then(|a| a.header.as_ref())
    }

    /// The analysed header's findings as [`finish`](Validator::finish)
    /// reports them ([`Validator::ordered`]).
    pub(crate) fn header_findings(&self) -> Vec<Finding> {
        let Some(a) = &self.analysis else {
            return Vec::new();
        };
        let mut found = a.findings.clone();
        self.ordered(&mut found);
        found
    }

    /// Findings as the report gives them: the severity overrides applied,
    /// in the order of their offsets (then of their codes).
    fn ordered(&self, findings: &mut [Finding]) {
        for f in findings.iter_mut() {
            f.severity = self.opts.severity.apply(f.rule, f.severity);
        }
        findings.sort_by(|x, y| (x.offset, x.rule.code()).cmp(&(y.offset, y.rule.code())));
    }

    /// True when no payload byte still to come can change the findings
    /// but by its count: the header is analysed, the byte-order test has
    /// scored all it scores (or is off), no label scan or stated range
    /// looks at the payload, and the element-width sample is full. The
    /// rest of the payload may then be accounted for by its length
    /// ([`skip`](Validator::skip)), which gives the findings feeding it
    /// gives: for a reader that decoded it by other means.
    pub(crate) fn payload_seen_enough(&self) -> bool {
        self.analysis.is_some()
            && self.labels.is_none()
            && self.range.is_none()
            && self.linter.as_ref().is_none_or(PayloadLinter::done)
            && self.width.is_full()
    }

    /// Marks the stream's length as a lower bound: reading stopped before
    /// its end (the trailing bytes' count bound, a reader's limit).
    pub(crate) fn cut_short(&mut self) {
        self.exact_len = false;
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
        if let Some(r) = &mut self.range {
            r.feed(&bytes[..n]);
        }
        self.width.feed(bytes);
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

    /// Payload bytes still to come (0 without a header).
    pub(super) fn payload_left(&self) -> u64 {
        match self.analysis.as_ref().and_then(|a| a.header.as_ref()) {
            Some(h) => h.payload_len() - self.payload_seen,
            None => 0,
        }
    }

    /// True when the rest of the payload can be accounted for by its
    /// length alone (a source of known length): the header is analysed and
    /// nothing that looks at payload bytes wants more (the byte-order test
    /// has all it scores, the advisory lints and the label scan are off).
    pub(super) fn payload_done(&self) -> bool {
        // (a payload without a linter is read whole, as before the test
        // existed: its last bytes are the excerpt of a truncation)
        self.analysis.is_some()
            && self.labels.is_none()
            && self.range.as_ref().is_none_or(lint::range::RangeScan::done)
            && self.linter.as_ref().is_some_and(PayloadLinter::done)
    }

    /// True when no further byte of the stream can change the findings,
    /// except the count of trailing bytes: the header is analysed and
    /// either the payload size is unknown (not IDX, an unknown type, an
    /// overflow) or the whole payload was seen (and linted).
    /// A gzip stream is settled only once its decoding ended (damage, the
    /// limit): its integrity depends on every byte.
    pub fn settled(&self) -> bool {
        if self.stop.is_some() {
            return true;
        }
        match &self.input {
            Input::Plain => {}
            Input::Gzip(gz) => return gz.is_done(),
            Input::Sniffing(_) => return false,
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
    pub(super) fn trailing_head_wanted(&self) -> u64 {
        match self.analysis.as_ref().and_then(|a| a.header.as_ref()) {
            Some(_) => (MAGIC_LEN - self.trailing_head.len()) as u64,
            None => 0,
        }
    }

    /// True once the header is analysed and gives no payload size.
    pub(super) fn header_unknown(&self) -> bool {
        self.analysis.as_ref().is_some_and(|a| a.header.is_none())
    }

    /// Stops validation with a container finding; `limit` says whether the
    /// data was cut by a limit (so nothing about its end can be said) rather
    /// than damaged (so truncation findings are consequences, not causes).
    pub(super) fn stop(&mut self, f: Finding, limit: bool) {
        if self.stop.is_none() {
            self.stop = Some((f, limit));
        }
    }

    /// The report for everything fed.
    pub fn finish(mut self) -> Report {
        self.report(true)
    }

    /// The findings for everything fed, as [`finish`](Validator::finish)
    /// reports them (a reader's verdict, which has no use for the rest of
    /// the report: the payload's byte-order score is not computed again,
    /// the stream's last bytes not copied, the validator not moved). The validator is spent: feed it no more.
    pub(crate) fn findings(&mut self) -> Vec<Finding> {
        self.report(false).findings
    }

    /// The report, leaving the validator spent; `full`: with the payload's
    /// byte-order score ([`Report::byte_order`]) and the stream's last
    /// bytes ([`Report::tail`]), which only the findings' reader skips.
    fn report(&mut self, full: bool) -> Report {
        match std::mem::replace(&mut self.input, Input::Plain) {
            Input::Sniffing(Some(h)) => self.feed_plain(&[h]),
            Input::Gzip(mut gz) => self.push_gzip(&mut gz, &[], true),
            Input::Sniffing(None) | Input::Plain => {}
        }
        if self.analysis.is_none() {
            self.analyse_prefix();
        }
        let a = self.analysis.take().unwrap_or_default();
        let mut findings = a.findings;
        let mut width = None;
        if let Some(h) = &a.header {
            // the payload's first non-zero words, for the element-width hint
            let sample = &self.width.bytes;
            if self.payload_seen < h.payload_len() {
                let mut f = truncated_payload(h, self.payload_seen, self.total);
                if self.stop.is_none() {
                    if let Some(w) =
                        lint::width::hint(h.dtype(), h.payload_len(), self.payload_seen, sample)
                    {
                        f.hint = Some(w.text.clone());
                        width = Some(w);
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
                        f.hint = Some(w.text.clone());
                        width = Some(w);
                    }
                }
                findings.push(f);
            }
            if let Some(l) = &self.linter {
                findings.extend(l.finish(self.opts.byte_order));
            }
            // a stated range that proves the byte order replaces the
            // statistical test's finding (the whole payload was seen)
            let proof = match &self.range {
                Some(r) if self.payload_seen == h.payload_len() => r.finish(),
                _ => None,
            };
            if let Some(p) = proof {
                findings.retain(|f| f.rule != Rule::LikelyLittleEndian);
                findings.push(p);
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
        self.ordered(&mut findings);
        let kept = if self.skipped || !full {
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
            head: std::mem::take(&mut self.prefix),
            labels: self.labels.take().map(LabelScanner::finish),
            byte_order: self
                .linter
                .as_ref()
                .filter(|_| full)
                .and_then(PayloadLinter::byte_order_score),
        };
        attach(
            &mut report,
            starts_with_idx_magic(&self.trailing_head),
            width.as_ref(),
        );
        report
    }
}
