//! What to check beyond the spec's rules: [`Options`].

use crate::dtype::ElementType;
use crate::edit::ByteOrder;
use crate::limits::Limits;
use crate::rules::Severities;

/// What to check, beyond the spec's rules.
///
/// ```
/// use idx::{ElementType, Options};
///
/// // MNIST training images, as a user expects them: u8 [*, 28, 28]
/// let opts = Options::default()
///     .with_expect_dtype(Some(ElementType::U8))
///     .with_expect_shape(Some(vec![None, Some(28), Some(28)]));
/// let ok = idx::to_bytes(&idx::Array::from_vec(vec![2, 28, 28], vec![0u8; 2 * 784])?)?;
/// assert!(idx::validate_with(&ok, &opts).is_valid());
/// let wrong = idx::to_bytes(&idx::Array::from_vec(vec![2, 14, 56], vec![0u8; 2 * 784])?)?;
/// assert_eq!(idx::validate_with(&wrong, &opts).findings[0].rule.code(), "IDX602");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Options {
    /// Decompress a gzip stream (magic `1f 8b`) and validate the IDX data
    /// inside. Off by default: the raw layer reports gzip as IDX402, so that
    /// `parse(b).is_ok()` equals "no error" for `validate(b)`.
    pub decompress: bool,
    /// The bounds on the input: gzip decompressed past
    /// [`Limits::max_decompressed`] bytes stops with IDX702. The default is
    /// the safe one, as every reader's ([`Limits::default`]).
    pub limits: Limits,
    /// Run the advisory lints: non-finite floats (IDX502) and file names
    /// (IDX503), and the byte-order test (IDX501). On by default.
    pub lints: bool,
    /// Run the byte-order test (IDX501) even when [`Options::lints`] is
    /// off: the one verdict of spec 6.1, the same warning from validation
    /// and every reader (an error only when [`Options::expect_range`]
    /// proves the order, or [`Options::severity`] asks for one). On by
    /// default; off only for structure-only checks.
    pub byte_order_test: bool,
    /// The byte order the caller states for the payload (spec 6.1):
    /// `None`, the byte-order test decides (a warning); `Some(Big)`, the
    /// caller vouches for the bytes and IDX501 is not reported;
    /// `Some(Little)`, the payload is read as little-endian, with a warning
    /// when it reads big-endian.
    pub byte_order: Option<ByteOrder>,
    /// The inclusive range every element of an integer payload (i16, i32)
    /// lies in, when the user knows it (`--expect-range LO..HI`, or
    /// `0..=classes-1` for a rank-1 integer file under `--classes`): a
    /// payload whose big-endian reading leaves the range while its
    /// little-endian reading stays inside is proved little-endian, an
    /// IDX501 error naming the first element out of range and both its
    /// readings (spec 6.1).
    pub expect_range: Option<(i64, i64)>,
    /// Per-rule severity overrides (`--severity IDX501=error`): an advisory
    /// finding made an error fails the run. Readers judge only the spec's
    /// errors and the byte-order test: they refuse an input whose IDX501
    /// an override makes an error, and neither return nor refuse for the
    /// header's portability warnings (IDX3xx), whatever their override.
    pub severity: Severities,
    /// The file name, for the MNIST naming lint (IDX503).
    pub file_name: Option<String>,
    /// The element type the user expects (IDX601).
    pub expect_dtype: Option<ElementType>,
    /// The shape the user expects; `None` entries are wildcards (IDX602).
    pub expect_shape: Option<Vec<Option<u32>>>,
    /// Scan the label values of a labels-shaped file during the same pass (for
    /// the dataset rules, spec §11), against `Some(classes)` when the number of
    /// classes is known: [`Report::labels`](crate::Report::labels). Off by
    /// default.
    pub scan_labels: Option<Option<u32>>,
}

impl Options {
    /// The checks every reading path ([`Reader`](crate::Reader)) makes, as
    /// the one engine's options: the spec's rules and the byte-order test
    /// (IDX501) under the stated byte order and the severity overrides of
    /// `self`, and nothing else (no advisory lint, expectation, label scan
    /// or file name: [`Reader::validate`](crate::Reader::validate) checks
    /// with those). The limits are not among them: the reader's engine is
    /// fed bytes already decompressed, by a stream that applies `self`'s.
    pub(crate) fn reading(&self) -> Options {
        Options {
            byte_order: self.byte_order,
            severity: self.severity.clone(),
            ..Options::default().with_lints(false)
        }
    }
}

impl Default for Options {
    fn default() -> Self {
        Options {
            decompress: false,
            limits: Limits::default(),
            lints: true,
            byte_order_test: true,
            byte_order: None,
            expect_range: None,
            severity: Severities::default(),
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
    /// Sets [`Options::limits`].
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }
    /// Sets the decompression limit of [`Options::limits`] (`None`: no
    /// limit).
    pub fn with_max_decompressed(mut self, limit: Option<u64>) -> Self {
        self.limits.max_decompressed = limit;
        self
    }
    /// Sets [`Options::lints`].
    pub fn with_lints(mut self, on: bool) -> Self {
        self.lints = on;
        self
    }
    /// Sets [`Options::byte_order_test`].
    pub fn with_byte_order_test(mut self, on: bool) -> Self {
        self.byte_order_test = on;
        self
    }
    /// Sets [`Options::byte_order`].
    pub fn with_byte_order(mut self, stated: Option<ByteOrder>) -> Self {
        self.byte_order = stated;
        self
    }
    /// Sets [`Options::expect_range`].
    pub fn with_expect_range(mut self, range: Option<(i64, i64)>) -> Self {
        self.expect_range = range;
        self
    }
    /// Sets [`Options::severity`].
    pub fn with_severity(mut self, severity: Severities) -> Self {
        self.severity = severity;
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
