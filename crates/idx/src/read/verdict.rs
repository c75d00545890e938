//! The byte-order verdict every reading path ends with (IDX501).

use super::ReadError;
use crate::edit::ByteOrder;
use crate::finding::Finding;
use crate::header::Header;
use crate::rules::{Severities, Severity};

/// How a reading path judges the payload's byte order: the order the
/// caller `stated`, and the severity overrides that can make the
/// byte-order test's warning an error (a refusal).
#[derive(Debug, Clone, Default)]
pub(crate) struct Judging {
    pub(crate) stated: Option<ByteOrder>,
    pub(crate) severity: Severities,
}

/// The byte-order verdict on a payload decoded into native order (`native`,
/// from `stored` order), under `judging`: the IDX501 warning validation
/// reports (`Ok`), or the finding made an error by a severity override
/// (`Err`, the refusal).
pub(crate) fn verdict(
    h: &Header,
    native: &[u8],
    stored: ByteOrder,
    judging: &Judging,
) -> Result<Vec<Finding>, ReadError> {
    if h.dtype().size() == 1 || judging.stated == Some(ByteOrder::Big) {
        return Ok(Vec::new());
    }
    let mut l = crate::lint::PayloadLinter::for_native(h.dtype(), h.header_len() as u64, stored);
    l.feed(native);
    let mut found = l.finish(judging.stated);
    for f in &mut found {
        f.severity = judging.severity.apply(f.rule, f.severity);
    }
    match found.iter().position(|f| f.severity() == Severity::Error) {
        Some(i) => Err(ReadError::Invalid(found.swap_remove(i).into())),
        None => Ok(found),
    }
}

/// The outcome of reading a payload, as validation orders its findings:
/// `decoded` is what was decoded in native order (all of the payload, or
/// what came before a truncation), `ended` how the read ended (a
/// truncation, IDX202, or bytes after the payload, IDX203). The byte-order
/// finding is located at the payload's start, before either, so the verdict
/// on the whole elements decoded comes first; a source's I/O error stands
/// alone. `Ok` holds the warnings of a payload read whole.
pub(crate) fn judge(
    h: &Header,
    decoded: &[u8],
    stored: ByteOrder,
    judging: &Judging,
    ended: Result<(), ReadError>,
) -> Result<Vec<Finding>, ReadError> {
    if let Err(ReadError::Io(e)) = ended {
        return Err(ReadError::Io(e));
    }
    let whole = decoded.len() / h.dtype().size() * h.dtype().size();
    let warnings = verdict(h, &decoded[..whole], stored, judging)?;
    ended.map(|()| warnings)
}
