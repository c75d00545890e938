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
