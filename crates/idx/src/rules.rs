//! The rule list: one stable code per check of `spec/idx.md`.
//!
//! Codes are never renumbered and never reused. A test in this crate parses
//! `spec/idx.md` and fails if the spec and this table disagree on any code,
//! name or severity.

use std::fmt;

/// How serious a finding is.
///
/// ```
/// use idx::{Rule, Severity};
///
/// assert_eq!(Rule::TruncatedPayload.severity(), Severity::Error);
/// assert!(Severity::Warning < Severity::Error); // ordered by seriousness
/// assert_eq!(Severity::Info.to_string(), "info");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    /// Informational: true facts about valid data (e.g. NaN counts).
    Info,
    /// Valid IDX that some readers mishandle, or data that is probably wrong.
    Warning,
    /// The bytes are not a valid IDX file (or not what was expected).
    Error,
}

impl Severity {
    /// `error`, `warning` or `info`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

macro_rules! rules {
    ($( $(#[$doc:meta])* $variant:ident = ($code:literal, $name:literal, $sev:ident, $title:literal), )*) => {
        /// A rule of the spec. See `spec/idx.md` for the normative text.
        ///
        /// ```
        /// use idx::{Rule, Severity};
        ///
        /// let rule = Rule::find("IDX102").unwrap();
        /// assert_eq!((rule, rule.name()), (Rule::UnknownType, "unknown-type"));
        /// assert_eq!(rule.severity(), Severity::Error);
        /// assert_eq!(Rule::find("unknown-type"), Some(rule));
        /// assert!(Rule::ALL.len() > 30);
        /// ```
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum Rule {
            $( $(#[$doc])* $variant, )*
        }

        impl Rule {
            /// Every rule, in code order.
            pub const ALL: &'static [Rule] = &[$(Rule::$variant,)*];

            /// The stable code, e.g. `IDX102`.
            pub const fn code(self) -> &'static str {
                match self { $(Rule::$variant => $code,)* }
            }

            /// The stable kebab-case name, e.g. `unknown-type`.
            pub const fn name(self) -> &'static str {
                match self { $(Rule::$variant => $name,)* }
            }

            /// The severity of every finding of this rule.
            pub const fn severity(self) -> Severity {
                match self { $(Rule::$variant => Severity::$sev,)* }
            }

            /// A one-line title.
            pub const fn title(self) -> &'static str {
                match self { $(Rule::$variant => $title,)* }
            }
        }
    };
}

rules! {
    /// Bytes 0 and 1 of the magic are not both `0x00`.
    ReservedBytes = ("IDX101", "reserved-bytes", Error, "the first two bytes of the magic must be 0x00"),
    /// Byte 2 is not a known element type code.
    UnknownType = ("IDX102", "unknown-type", Error, "byte 2 must be a known element type code"),
    /// The file ends before the 4-byte magic is complete.
    TruncatedMagic = ("IDX103", "truncated-magic", Error, "the file is shorter than the 4-byte magic"),
    /// The file ends inside the dimension list.
    TruncatedDimensions = ("IDX104", "truncated-dimensions", Error, "the file ends inside the dimension list"),
    /// The declared payload size does not fit in 64 bits.
    SizeOverflow = ("IDX201", "size-overflow", Error, "the declared payload size overflows 64 bits"),
    /// Fewer payload bytes than the header declares.
    TruncatedPayload = ("IDX202", "truncated-payload", Error, "the payload is shorter than the header declares"),
    /// Bytes after the declared payload.
    TrailingBytes = ("IDX203", "trailing-bytes", Error, "bytes follow the end of the declared payload"),
    /// Rank 0: a scalar.
    RankZero = ("IDX301", "rank-zero", Warning, "rank 0 (a single scalar) is not portable"),
    /// A dimension of length 0.
    ZeroDimension = ("IDX302", "zero-dimension", Warning, "a dimension of length 0 is not portable"),
    /// A dimension of 2^31 or more.
    LargeDimension = ("IDX303", "large-dimension", Warning, "a dimension of 2^31 or more breaks readers with signed 32-bit sizes"),
    /// A rank above 32: numpy-based readers reject it.
    HighRank = ("IDX304", "high-rank", Warning, "a rank above 32 breaks numpy-based readers"),
    /// The magic is a valid magic read little-endian.
    ByteSwappedHeader = ("IDX401", "byte-swapped-header", Error, "the header is byte-swapped (little-endian)"),
    /// gzip data seen by the raw IDX layer.
    GzipCompressed = ("IDX402", "gzip-compressed", Error, "the data is gzip-compressed, not IDX"),
    /// zip, xz, zstd or bzip2 data.
    OtherCompression = ("IDX403", "other-compression", Error, "the data is compressed or archived, not IDX"),
    /// A NumPy `.npy` file.
    NumpyFile = ("IDX404", "numpy-file", Error, "the data is a NumPy .npy file, not IDX"),
    /// Text: HTML, XML or plain text.
    TextFile = ("IDX405", "text-file", Error, "the data is text (HTML, XML or plain), not IDX"),
    /// A macOS AppleDouble `._` metadata file.
    AppleDouble = ("IDX406", "appledouble-file", Error, "the data is a macOS AppleDouble (._) file, not IDX"),
    /// A PNG, JPEG, GIF, BMP, TIFF or WebP image.
    ImageFile = ("IDX410", "image-file", Error, "the data is an image (PNG, JPEG, GIF, BMP, TIFF or WebP), not IDX"),
    /// A PDF document.
    PdfFile = ("IDX411", "pdf-file", Error, "the data is a PDF document, not IDX"),
    /// A Python pickle.
    PickleFile = ("IDX412", "pickle-file", Error, "the data is a Python pickle, not IDX"),
    /// An HDF5 file.
    Hdf5File = ("IDX413", "hdf5-file", Error, "the data is an HDF5 file, not IDX"),
    /// A TFRecord file.
    TfrecordFile = ("IDX414", "tfrecord-file", Error, "the data is a TFRecord file, not IDX"),
    /// A Parquet file.
    ParquetFile = ("IDX415", "parquet-file", Error, "the data is a Parquet file, not IDX"),
    /// An ELF executable or shared library.
    ExecutableFile = ("IDX416", "executable-file", Error, "the data is an ELF executable or library, not IDX"),
    /// A header implausible in several independent ways: not IDX.
    NotIdx = ("IDX420", "not-idx", Error, "the header is implausible in several independent ways: not IDX"),
    /// Multi-byte data that reads far more plausibly little-endian.
    LikelyLittleEndian = ("IDX501", "likely-little-endian", Warning, "the payload looks little-endian"),
    /// Float payload holding NaN or infinities.
    NonFinite = ("IDX502", "non-finite-values", Info, "the float payload holds NaN or infinite values"),
    /// An MNIST-style file name contradicting the header.
    FileNameMismatch = ("IDX503", "file-name-mismatch", Warning, "the MNIST-style file name contradicts the header"),
    /// The element type differs from the one the user expected.
    UnexpectedType = ("IDX601", "unexpected-type", Error, "the element type is not the expected one"),
    /// The shape differs from the one the user expected.
    UnexpectedShape = ("IDX602", "unexpected-shape", Error, "the shape is not the expected one"),
    /// The gzip stream around the IDX data is damaged.
    GzipDamaged = ("IDX701", "gzip-damaged", Error, "the gzip stream is damaged"),
    /// Decompression exceeded the configured limit.
    DecompressionLimit = ("IDX702", "decompression-limit", Error, "the decompressed data exceeds the configured limit"),
    /// Zero bytes after the last gzip member.
    GzipPadding = ("IDX703", "gzip-padding", Warning, "zero bytes pad the gzip stream after its last member"),
    /// An images file and its labels file hold different numbers of items.
    PairCountMismatch = ("IDX801", "pair-count-mismatch", Error, "an images file and its labels file hold different numbers of items"),
    /// A labels file that is not rank-1 (or QMNIST rank-2) integer data.
    LabelsNotInteger = ("IDX802", "labels-not-rank1-integer", Error, "a labels file must be rank-1 integer data (or QMNIST-style rank 2)"),
    /// Label values outside the classes.
    LabelOutOfRange = ("IDX803", "label-out-of-range", Error, "a label value lies outside the classes"),
    /// Label values with a gap in the observed range.
    LabelGap = ("IDX804", "label-gap", Warning, "some classes between 0 and the largest label never occur"),
    /// Training and test images with different item shapes or types.
    SplitMismatch = ("IDX805", "split-mismatch", Error, "training and test images differ in item shape or type"),
    /// An images file without labels, or the reverse, in a walked directory.
    LoneFile = ("IDX806", "lone-file", Warning, "an images file without its labels file, or the reverse"),
}

/// Codes that were once used and are retired: listed so they are never reused.
#[cfg(any(test, feature = "fuzzing"))]
pub const RETIRED: &[&str] = &[];

impl Rule {
    /// True for the rules that say the data is not an IDX header at all
    /// (IDX401-IDX420: a byte-swapped header, another format, an
    /// implausible header), so that its fields mean nothing as IDX.
    pub const fn means_not_idx(self) -> bool {
        matches!(
            self,
            Rule::ByteSwappedHeader
                | Rule::GzipCompressed
                | Rule::OtherCompression
                | Rule::NumpyFile
                | Rule::TextFile
                | Rule::AppleDouble
                | Rule::ImageFile
                | Rule::PdfFile
                | Rule::PickleFile
                | Rule::Hdf5File
                | Rule::TfrecordFile
                | Rule::ParquetFile
                | Rule::ExecutableFile
                | Rule::NotIdx
        )
    }

    /// The severities a finding of this rule can have, as the rule list
    /// shows them: the default [`Rule::severity`], or `info/warning/error`
    /// for the byte-order test (IDX501), a warning when the payload reads
    /// little-endian (a statistical test), an error only when a stated
    /// value range proves it, and a note (info) when a stated byte order is
    /// used on a payload that barely distinguishes the orders (spec 6.1).
    ///
    /// ```
    /// assert_eq!(idx::Rule::LikelyLittleEndian.severities(), "info/warning/error");
    /// assert_eq!(idx::Rule::TrailingBytes.severities(), "error");
    /// ```
    pub const fn severities(self) -> &'static str {
        match self {
            Rule::LikelyLittleEndian => "info/warning/error",
            _ => self.severity().as_str(),
        }
    }

    /// Looks a rule up by code (`IDX102`, case-insensitive) or name (`unknown-type`).
    pub fn find(code_or_name: &str) -> Option<Rule> {
        Rule::ALL
            .iter()
            .copied()
            .find(|r| r.code().eq_ignore_ascii_case(code_or_name) || r.name() == code_or_name)
    }

    /// The anchor of this rule's section in `spec/idx.md`, as GitHub
    /// renders the heading `### IDX102 unknown-type`: `idx102-unknown-type`.
    pub fn anchor(self) -> String {
        format!("{}-{}", self.code().to_ascii_lowercase(), self.name())
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// Per-rule severity overrides, as glTF-Validator's `severityOverrides`: a
/// user makes an advisory rule (a warning or a note, such as the byte-order
/// test IDX501) fail a run, or quietens it. A finding the bytes prove (an
/// error) keeps its severity whatever is asked: an error is a proof, and no
/// option makes a broken file pass.
///
/// ```
/// use idx::{Rule, Severities, Severity};
/// let s: Severities = "IDX501=error".parse()?;
/// assert_eq!(s.get(Rule::LikelyLittleEndian), Some(Severity::Error));
/// // an error stays an error
/// let e = "IDX203=warning".parse::<Severities>().unwrap_err();
/// assert!(e.contains("IDX203 is an error"), "{e}");
/// # Ok::<(), String>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Severities(std::collections::BTreeMap<Rule, Severity>);

impl Severities {
    /// Sets the severity of `rule`'s findings; `Err` (a sentence) for a
    /// rule whose findings are errors, which no override changes.
    pub fn set(&mut self, rule: Rule, severity: Severity) -> Result<(), String> {
        if rule.severity() == Severity::Error {
            return Err(format!(
                "{} is an error the bytes prove ({}): its severity cannot be changed; only warnings and notes can (e.g. IDX501=error)",
                rule.code(),
                rule.title()
            ));
        }
        self.0.insert(rule, severity);
        Ok(())
    }

    /// Parses (rule, severity) pairs: a rule's code or name, and `error`,
    /// `warning` or `info`; later pairs win. The one parser of overrides:
    /// `--severity`'s string ([`FromStr`](std::str::FromStr): `CODE=SEVERITY`
    /// pairs separated by commas), a configuration file's table and the
    /// Python `severity=` mapping all come here, so each refuses the same
    /// input with the same sentence.
    ///
    /// ```
    /// use idx::{Rule, Severities, Severity};
    /// let s = Severities::from_pairs([("likely-little-endian", "Error")])?;
    /// assert_eq!(s.get(Rule::LikelyLittleEndian), Some(Severity::Error));
    /// let e = Severities::from_pairs([("IDX999", "error")]).unwrap_err();
    /// assert_eq!(e, "\"IDX999\" is not a rule's code or name");
    /// # Ok::<(), String>(())
    /// ```
    pub fn from_pairs<'a>(
        pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<Severities, String> {
        let mut out = Severities::default();
        for (rule, sev) in pairs {
            let rule = Rule::find(rule.trim())
                .ok_or_else(|| format!("{:?} is not a rule's code or name", rule.trim()))?;
            out.set(rule, sev.trim().parse()?)?;
        }
        Ok(out)
    }

    /// The severity asked for `rule`, if any.
    pub fn get(&self, rule: Rule) -> Option<Severity> {
        self.0.get(&rule).copied()
    }

    /// Whether nothing is overridden.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The overrides, by rule.
    pub fn iter(&self) -> impl Iterator<Item = (Rule, Severity)> + '_ {
        self.0.iter().map(|(r, s)| (*r, *s))
    }

    /// `severity` of a finding of `rule` made `found`: the override when
    /// one is set and the finding has its rule's own severity, else
    /// `found`. A finding made more severe (IDX501's error: a stated range
    /// proves the byte order) or less (IDX501's note that a stated byte
    /// order was used on a payload that barely distinguishes the orders)
    /// keeps its severity: the override is for the rule's usual finding.
    pub(crate) fn apply(&self, rule: Rule, found: Severity) -> Severity {
        match self.get(rule) {
            Some(s) if found == rule.severity() => s,
            _ => found,
        }
    }
}

impl std::str::FromStr for Severities {
    type Err = String;

    /// `CODE=SEVERITY` pairs separated by commas (`IDX501=error`); a code
    /// or a rule's name; `error`, `warning` or `info`.
    fn from_str(s: &str) -> Result<Self, String> {
        let pairs = s
            .split(',')
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .map(|pair| {
                pair.split_once('=')
                    .ok_or_else(|| format!("{pair:?} is not CODE=SEVERITY (e.g. IDX501=error)"))
            })
            .collect::<Result<Vec<_>, _>>()?;
        Severities::from_pairs(pairs)
    }
}

impl std::str::FromStr for Severity {
    type Err = String;

    /// `error`, `warning` or `info` (case-insensitive).
    fn from_str(s: &str) -> Result<Self, String> {
        [Severity::Error, Severity::Warning, Severity::Info]
            .into_iter()
            .find(|v| v.as_str().eq_ignore_ascii_case(s))
            .ok_or_else(|| format!("{s:?} is not a severity (error, warning or info)"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    #[test]
    fn codes_and_names_are_unique_and_well_formed() {
        let codes: BTreeSet<_> = Rule::ALL.iter().map(|r| r.code()).collect();
        let names: BTreeSet<_> = Rule::ALL.iter().map(|r| r.name()).collect();
        assert_eq!(codes.len(), Rule::ALL.len());
        assert_eq!(names.len(), Rule::ALL.len());
        for r in Rule::ALL {
            let c = r.code();
            assert!(
                c.len() == 6 && c.starts_with("IDX") && c[3..].bytes().all(|b| b.is_ascii_digit()),
                "{c}"
            );
            assert!(!RETIRED.contains(&c), "{c} is retired");
            assert_eq!(Rule::find(c), Some(*r));
            assert_eq!(Rule::find(r.name()), Some(*r));
        }
        assert_eq!(Rule::find("idx101"), Some(Rule::ReservedBytes));
        assert_eq!(Rule::find("IDX999"), None);
    }
}
