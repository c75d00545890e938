//! What one input may cost: [`Limits`], the same value and the same safe
//! default for every reader, validator and repair.

/// The default decompression limit (64 GiB): gzip input that would
/// decompress to more is reported as IDX702, not decoded without end.
///
/// ```
/// assert_eq!(idx::DEFAULT_MAX_DECOMPRESSED, 64 << 30); // 64 GiB
/// assert_eq!(idx::Limits::default().max_decompressed, Some(idx::DEFAULT_MAX_DECOMPRESSED));
/// ```
pub const DEFAULT_MAX_DECOMPRESSED: u64 = 64 << 30;

/// The bounds on one input, held by [`Options`](crate::Options) and so by
/// [`ReadOptions`](crate::ReadOptions) and [`FixOptions`](crate::FixOptions):
/// one type, one default. `Limits::default()` is the safe one (gzip input
/// decompressed up to [`DEFAULT_MAX_DECOMPRESSED`] bytes, then IDX702);
/// no limit is an explicit choice.
///
/// ```
/// use idx::Limits;
/// // a user's `--max-decompressed`: absent keeps the default, 0 means none
/// assert_eq!(Limits::from_setting(None), Limits::default());
/// assert_eq!(Limits::from_setting(Some(0)).max_decompressed, None);
/// assert_eq!(Limits::from_setting(Some(1 << 20)).max_decompressed, Some(1 << 20));
/// // every options value starts from the same default
/// assert_eq!(idx::Options::default().limits, Limits::default());
/// assert_eq!(idx::FixOptions::default().validate.limits, Limits::default());
/// assert_eq!(idx::ReadOptions::default().validate.limits, Limits::default());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Limits {
    /// Stop decompressing gzip input after this many bytes and report
    /// IDX702 (spec 7.19); `None`: no limit.
    pub max_decompressed: Option<u64>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_decompressed: Some(DEFAULT_MAX_DECOMPRESSED),
        }
    }
}

impl Limits {
    /// The limits for a user's setting of the decompression limit
    /// (`--max-decompressed N`, `maxDecompressed`, `max_decompressed=`):
    /// `None` keeps the default, `Some(0)` means no limit.
    pub fn from_setting(max_decompressed: Option<u64>) -> Self {
        Limits {
            max_decompressed: Some(max_decompressed.unwrap_or(DEFAULT_MAX_DECOMPRESSED))
                .filter(|&n| n > 0),
        }
    }

    /// Sets [`Limits::max_decompressed`] (`None`: no limit).
    pub fn with_max_decompressed(mut self, limit: Option<u64>) -> Self {
        self.max_decompressed = limit;
        self
    }
}

#[cfg(test)]
mod tests {
    use super::{Limits, DEFAULT_MAX_DECOMPRESSED};

    #[test]
    fn a_users_setting_keeps_the_default_when_absent_and_zero_means_no_limit() {
        assert_eq!(Limits::from_setting(None), Limits::default());
        assert_eq!(
            Limits::default().max_decompressed,
            Some(DEFAULT_MAX_DECOMPRESSED)
        );
        assert_eq!(Limits::from_setting(Some(0)).max_decompressed, None);
        assert_eq!(Limits::from_setting(Some(1)).max_decompressed, Some(1));
    }
}
