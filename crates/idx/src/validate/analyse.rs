//! The header bytes analysed: what they say, and every finding about them.

use crate::dtype::ElementType;
use crate::finding::Finding;
use crate::header::{self, Header};
use crate::sniff::sniff;
use crate::violations::{
    dimension_warning, rank_warning, rank_zero, reserved_bytes, size_overflow,
    truncated_dimensions, truncated_magic, unknown_type,
};

/// What the header bytes say, and what is wrong with them.
#[derive(Debug, Clone, Default)]
pub(super) struct Analysis {
    pub(super) findings: Vec<Finding>,
    pub(super) not_idx: bool,
    pub(super) dtype: Option<ElementType>,
    pub(super) rank: Option<u8>,
    pub(super) dims: Option<Vec<u32>>,
    pub(super) header: Option<Header>,
}

/// Analyses the first `min(len, MAX_HEADER_LEN)` bytes. When the prefix is
/// shorter than that, it is the whole stream.
pub(super) fn analyse(prefix: &[u8]) -> Analysis {
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
