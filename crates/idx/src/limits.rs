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

    /// Of `n` decompressed bytes that follow `done` ones: how many stay
    /// within the decompression limit, and the limit when it cuts them
    /// short. Asked by the one gzip engine (`gzip::Stage`), which every
    /// reader and the validator drive: the one place the limit is applied.
    pub(crate) fn cut(&self, done: u64, n: usize) -> (usize, Option<u64>) {
        match self.max_decompressed {
            Some(limit) if done.saturating_add(n as u64) > limit => {
                // less than n: fits a usize
                (limit.saturating_sub(done) as usize, Some(limit))
            }
            _ => (n, None),
        }
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
        // no limit cuts nothing; a limit cuts at itself
        assert_eq!(
            Limits::from_setting(Some(0)).cut(u64::MAX - 4, 10),
            (10, None)
        );
        assert_eq!(Limits::from_setting(Some(100)).cut(95, 10), (5, Some(100)));
        assert_eq!(Limits::from_setting(Some(100)).cut(90, 10), (10, None));
    }
}
