//! Findings and reports: what validation says about a file, as data.

use crate::edit::Fix;
use crate::header::Header;
use crate::label_scan::LabelScan;
use crate::rules::{Rule, Severity};
use crate::score::ByteOrderScore;
use std::fmt;

/// One violation (or lint) at one place in the file.
///
/// `offset` is 0-based in the IDX byte stream (the decompressed stream when
/// [`Report::compression`] is set). A finding about *missing* data has
/// `offset` equal to the stream length and `length` 0; every other finding
/// lies within the stream: `offset + length <= stream length`.
///
/// ```
/// use idx::Severity;
///
/// // type code 0x0a is not an IDX type
/// let report = idx::validate(&[0, 0, 0x0a, 1, 0, 0, 0, 1, 5]);
/// let f = &report.findings[0];
/// assert_eq!((f.rule.code(), f.severity, f.offset, f.length), ("IDX102", Severity::Error, 2, 1));
/// assert!(f.message.contains("type"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// The rule broken.
    pub rule: Rule,
    /// How serious this finding is: the rule's severity, except where the
    /// spec grades a rule by its evidence (IDX501: a warning when the
    /// payload is probably little-endian, an error when certainly).
    pub severity: Severity,
    /// Byte offset of the first offending byte.
    pub offset: u64,
    /// Number of offending bytes (0 for missing data).
    pub length: u64,
    /// A lowercase, self-contained message with no trailing period.
    pub message: String,
    /// What the spec requires here, if it can be said briefly.
    pub expected: Option<String>,
    /// What the file holds here.
    pub found: Option<String>,
    /// How to fix it or what the bytes probably are.
    pub hint: Option<String>,
    /// The repair, when the spec's "Fixes" section gives this finding one
    /// (attached by validation; applied by [`crate::repair`]).
    pub fix: Option<Fix>,
    /// For a dataset rule (spec §11): the place in the other file of the
    /// pair that the finding is also about.
    pub related: Option<Related>,
    /// For IDX501: the byte-order test's score.
    pub byte_order: Option<ByteOrderScore>,
}

/// A place in another file that a dataset finding is also about.
///
/// ```
/// use idx::dataset::{check_dataset, DatasetFile, DatasetOptions};
///
/// // 3 images but 2 labels: the finding on the labels points at the images
/// let images = idx::to_bytes(&idx::Array::from_vec(vec![3, 1, 1], vec![0u8; 3])?)?;
/// let labels = idx::to_bytes(&idx::Array::from_vec(vec![2], vec![0u8; 2])?)?;
/// let file = |path: &str, bytes: &[u8]| DatasetFile {
///     path: path.to_string(),
///     header: idx::validate(bytes).header,
///     ..DatasetFile::default()
/// };
/// let files = [
///     file("train-images-idx3-ubyte", &images),
///     file("train-labels-idx1-ubyte", &labels),
/// ];
/// let found = check_dataset(&files, &DatasetOptions::default());
/// let (file, finding) = &found[0];
/// assert_eq!((*file, finding.offset), (1, 4)); // the labels' count
/// let related = finding.related.as_ref().unwrap();
/// assert_eq!((related.path.as_str(), related.offset), ("train-images-idx3-ubyte", 4));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Related {
    /// The other file's path, as given to [`crate::dataset::check_dataset`].
    pub path: String,
    /// Byte offset in the other file's stream.
    pub offset: u64,
    /// Number of bytes.
    pub length: u64,
}

impl Finding {
    pub(crate) fn new(rule: Rule, offset: u64, length: u64, message: impl Into<String>) -> Self {
        Finding {
            rule,
            severity: rule.severity(),
            offset,
            length,
            message: message.into(),
            expected: None,
            found: None,
            hint: None,
            fix: None,
            related: None,
            byte_order: None,
        }
    }

    pub(crate) fn with_severity(mut self, severity: Severity) -> Self {
        self.severity = severity;
        self
    }

    pub(crate) fn with_byte_order(mut self, score: ByteOrderScore) -> Self {
        self.byte_order = Some(score);
        self
    }

    pub(crate) fn expected(mut self, e: impl Into<String>) -> Self {
        self.expected = Some(e.into());
        self
    }

    pub(crate) fn found(mut self, f: impl Into<String>) -> Self {
        self.found = Some(f.into());
        self
    }

    pub(crate) fn hint(mut self, h: impl Into<String>) -> Self {
        self.hint = Some(h.into());
        self
    }

    pub(crate) fn related(mut self, r: Related) -> Self {
        self.related = Some(r);
        self
    }

    /// The finding's severity ([`Finding::severity`], the field).
    pub fn severity(&self) -> Severity {
        self.severity
    }

    /// The detail lines' labels and texts, those present, in order:
    /// `expected`, `found`, and `help` (the `hint` field, labelled as rustc
    /// labels its suggestions). The alternate form of [`Display`]
    /// (`{:#}`) writes each as `  = label: text`; a front end that lays
    /// the details out its own way takes the same labels from here.
    ///
    /// [`Display`]: fmt::Display
    pub fn details(&self) -> impl Iterator<Item = (&'static str, &str)> {
        [
            ("expected", &self.expected),
            ("found", &self.found),
            ("help", &self.hint),
        ]
        .into_iter()
        .filter_map(|(label, text)| Some((label, text.as_deref()?)))
    }
}

/// The one text form of a finding, which every front end prints (the
/// `idx` command, `str()` of the Python `Finding`): one line,
/// `severity[CODE]: message (at offset 0x.., byte ..)`; the alternate form
/// (`{:#}`) adds a line `  = label: text` for each of
/// [`Finding::details`] (expected, found, help).
///
/// ```
/// // u8 [2] holding one byte: the payload ends early
/// let report = idx::validate(&[0, 0, 8, 1, 0, 0, 0, 2, 7]);
/// let f = &report.findings[0];
/// assert_eq!(
///     f.to_string(),
///     format!("error[IDX202]: {} (at offset 0x9, byte 9)", f.message)
/// );
/// let long = format!("{f:#}");
/// assert!(long.starts_with(&format!("{f}\n  = expected: ")), "{long}");
/// assert_eq!(long.lines().count(), 1 + f.details().count());
/// ```
impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}[{}]: {} (at offset {:#x}, byte {})",
            self.severity(),
            self.rule.code(),
            self.message,
            self.offset,
            self.offset
        )?;
        if f.alternate() {
            for (label, text) in self.details() {
                write!(f, "\n  = {label}: {text}")?;
            }
        }
        Ok(())
    }
}

/// A compression layer that was removed before validation.
///
/// ```
/// use std::io::Write;
///
/// let idx_bytes = [0, 0, 0x08, 1, 0, 0, 0, 2, 1, 2];
/// let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
/// gz.write_all(&idx_bytes)?;
/// let opts = idx::Options::default().with_decompress(true);
/// let report = idx::validate_with(&gz.finish()?, &opts);
/// assert_eq!(report.compression, Some(idx::Compression::Gzip));
/// assert_eq!(report.stream_len, 10); // offsets in the decompressed stream
/// assert!(report.is_valid());
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compression {
    /// gzip (RFC 1952), possibly several members.
    Gzip,
}

impl Compression {
    /// `gzip`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Compression::Gzip => "gzip",
        }
    }
}

/// Everything validation found in one input.
///
/// ```
/// // u8 [3] cut after two payload bytes
/// let report = idx::validate(&[0, 0, 0x08, 1, 0, 0, 0, 3, 1, 2]);
/// assert!(report.has_errors() && !report.is_well_formed());
/// assert!(report.looks_like_idx());
/// assert_eq!(report.header.as_ref().map(|h| h.dims().to_vec()), Some(vec![3]));
/// assert_eq!(report.count(idx::Severity::Error), 1);
/// assert_eq!(report.bytes_at(8, 2), Some(&[1, 2][..]));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    /// The header, when the magic and the dimension list were complete and
    /// the element type known (even if other rules failed).
    pub header: Option<Header>,
    /// Length of the IDX byte stream (decompressed, if compressed).
    pub stream_len: u64,
    /// False when reading stopped before the end of an input of unknown
    /// length because no further byte could change the findings (spec
    /// 7.24): `stream_len` and the length of an IDX203 finding are then
    /// lower bounds ("at least").
    pub exact_len: bool,
    /// The compression layer removed, if any. Offsets are then in the
    /// decompressed stream.
    pub compression: Option<Compression>,
    /// Every finding, ordered by offset, then by rule code.
    pub findings: Vec<Finding>,
    /// The first `min(stream_len, 1024)` bytes of the stream, for excerpts.
    pub head: Vec<u8>,
    /// The last `min(stream_len, 64)` bytes of the stream, for excerpts.
    pub tail: Vec<u8>,
    /// The label values of a labels-shaped file, scanned in the same pass
    /// when [`crate::Options::scan_labels`] asked for it.
    pub labels: Option<LabelScan>,
    /// The byte-order test's score of the payload (spec 6.1), when it ran
    /// (a multi-byte payload, the test not turned off), whatever its
    /// verdict: what a repair stated little-endian is checked against.
    pub byte_order: Option<ByteOrderScore>,
}

/// How many bytes [`Report::tail`] keeps.
pub const TAIL_LEN: usize = 64;

impl Report {
    /// The stream bytes `[offset, offset + len)` when the report kept them
    /// (in [`Report::head`] or [`Report::tail`]).
    pub fn bytes_at(&self, offset: u64, len: usize) -> Option<&[u8]> {
        let end = offset.checked_add(len as u64)?;
        if end <= self.head.len() as u64 {
            return self.head.get(offset as usize..end as usize);
        }
        let tail_start = self.stream_len - self.tail.len() as u64;
        if offset >= tail_start && end <= self.stream_len {
            let a = (offset - tail_start) as usize;
            return self.tail.get(a..a + len);
        }
        None
    }
}

impl Report {
    /// True unless a finding says the data is not IDX at all
    /// ([`Rule::means_not_idx`]): then the bytes of its header mean nothing
    /// as IDX fields, and a front end shows none of them.
    pub fn looks_like_idx(&self) -> bool {
        !self.findings.iter().any(|f| f.rule.means_not_idx())
    }

    /// True when no error concerns the file's structure: the bytes are IDX
    /// as the spec defines it, and a reader decodes them. Only IDX501 can be
    /// an error of a well-formed file: the payload's byte order is wrong,
    /// which no reader can see.
    pub fn is_well_formed(&self) -> bool {
        self.errors().all(|f| f.rule == Rule::LikelyLittleEndian)
    }

    /// True when any finding is an error.
    pub fn has_errors(&self) -> bool {
        self.count(Severity::Error) > 0
    }

    /// Number of findings of a severity.
    pub fn count(&self, severity: Severity) -> usize {
        self.findings
            .iter()
            .filter(|f| f.severity() == severity)
            .count()
    }

    /// The error findings.
    pub fn errors(&self) -> impl Iterator<Item = &Finding> {
        self.findings
            .iter()
            .filter(|f| f.severity() == Severity::Error)
    }

    /// True when there is no error (warnings and infos allowed).
    pub fn is_valid(&self) -> bool {
        !self.has_errors()
    }
}
