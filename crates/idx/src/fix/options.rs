//! Which fixes a repair applies: [`FixOptions`].

use crate::edit::ByteOrder;
use crate::validate::Options;

/// Which fixes [`repair`](crate::repair) applies.
///
/// ```
/// use idx::{ByteOrder, FixOptions};
/// // --fix --unsafe-fixes --assume-byte-order little
/// let opts = FixOptions::default()
///     .with_unsafe_fixes(true)
///     .with_assume_byte_order(Some(ByteOrder::Little));
/// assert!(opts.unsafe_fixes && opts.keep_compression);
/// assert!(opts.validate.decompress); // gzip input is repaired through its content
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct FixOptions {
    /// Apply unsafe fixes too (`--unsafe-fixes`).
    pub unsafe_fixes: bool,
    /// The byte order the writer used for multi-byte elements, when the
    /// user knows it: `Little` byte-swaps the payload (a safe fix, whether
    /// or not IDX501 fired); `Big` never applies IDX501's fix. This field
    /// decides the repair only: to have the stated order checked as well
    /// (the warning that a payload stated little-endian reads big-endian,
    /// as `idx-validate --fix --assume-byte-order` and `idxkit.fix` report
    /// it), state it in [`FixOptions::validate`] too
    /// ([`Options::with_byte_order`]).
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
