//! The byte-order verdict every reading path ends with (IDX501).

use super::ReadError;
use crate::array::Data;
use crate::edit::ByteOrder;
use crate::header::Header;

/// The elements of `d` as bytes in native order (empty for one-byte types,
/// which the byte-order test does not look at).
pub(crate) fn native_bytes(d: &Data) -> &[u8] {
    match d {
        Data::U8(_) | Data::I8(_) => &[],
        Data::I16(v) => bytemuck::cast_slice(v),
        Data::I32(v) => bytemuck::cast_slice(v),
        Data::F32(v) => bytemuck::cast_slice(v),
        Data::F64(v) => bytemuck::cast_slice(v),
    }
}

/// The byte-order verdict on a payload decoded into native order (`native`,
/// from `stored` order), for the byte order the caller `stated`: the IDX501
/// finding validation reports, when it refuses.
pub(crate) fn verdict(
    h: &Header,
    native: &[u8],
    stored: ByteOrder,
    stated: Option<ByteOrder>,
) -> Result<(), ReadError> {
    if h.dtype().size() == 1 || stated == Some(ByteOrder::Big) {
        return Ok(());
    }
    let mut l = crate::lint::PayloadLinter::for_native(h.dtype(), h.header_len() as u64, stored);
    l.feed(native);
    match l
        .finish(stated)
        .into_iter()
        .find(|f| f.severity() == crate::Severity::Error)
    {
        Some(f) => Err(ReadError::Invalid(f.into())),
        None => Ok(()),
    }
}

/// The outcome of reading a payload, as validation orders its findings:
/// `decoded` is what was decoded in native order (all of the payload, or
/// what came before a truncation), `ended` how the read ended (a
/// truncation, IDX202, or bytes after the payload, IDX203). The byte-order
/// finding is located at the payload's start, before either, so the verdict
/// on the whole elements decoded comes first; a source's I/O error stands
/// alone.
pub(crate) fn judge(
    h: &Header,
    decoded: &[u8],
    stored: ByteOrder,
    stated: Option<ByteOrder>,
    ended: Result<(), ReadError>,
) -> Result<(), ReadError> {
    if let Err(ReadError::Io(e)) = ended {
        return Err(ReadError::Io(e));
    }
    let whole = decoded.len() / h.dtype().size() * h.dtype().size();
    verdict(h, &decoded[..whole], stored, stated)?;
    ended
}
