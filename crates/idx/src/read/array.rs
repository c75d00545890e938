//! Whole arrays: a raw stream decoded into an owned, native-endian
//! [`Array`] as it is read, memory reserved only as payload bytes arrive.

use super::into::{conclude, feed_end};
use super::swap::reverse_elements;
use super::{invalid, ReadError};
use crate::array::{Array, Data};
use crate::buffer;
use crate::dtype::{Element, ElementType};
use crate::edit::ByteOrder;
use crate::finding::Finding;
use crate::header::Header;
use crate::validate::Validator;
use crate::violations;
use std::io::Read;

/// Reads a whole raw IDX stream into an owned, native-endian array, in one
/// pass, without holding the file's bytes: the payload is decoded as it is
/// read, through a fixed 256 KiB buffer.
///
/// Accepts exactly what [`parse`](crate::parse()) accepts; the error is the
/// one `parse` would give, except that a not-IDX input is recognised from its
/// first bytes only.
///
/// # Errors
/// [`ReadError::Invalid`] for a file that breaks a rule, [`ReadError::Io`]
/// for the reader's errors.
///
/// # Panics
/// Never.
///
/// # Allocation
/// The array grows with the data actually read, at most 16 Mi elements
/// ahead of it: a header that declares more than the stream holds costs
/// nothing.
#[cfg(any(test, feature = "fuzzing"))]
pub fn read_array<R: Read>(mut r: R) -> Result<Array, ReadError> {
    let mut engine = Box::new(Validator::plain(
        crate::validate::Options::default().reading(),
    ));
    let h = super::header::read_head(&mut r, &mut engine)?;
    read_payload_array(&mut r, &h, ByteOrder::Big, engine, |_| false).map(|(a, _)| a)
}

/// The payload of `h` from `r` (just after the header) into an owned
/// native-endian array, from elements stored in `stored` order, judged by
/// `engine` (fed the header): the bytes read are fed to it as stored, then
/// the bytes after the payload ([`feed_end`]); its first error is the
/// read's error, its other findings the read's warnings ([`conclude`]).
/// `limited` as for [`feed_end`].
pub(crate) fn read_payload_array<R: Read>(
    r: &mut R,
    h: &Header,
    stored: ByteOrder,
    mut engine: Box<Validator>,
    limited: fn(&R) -> bool,
) -> Result<(Array, Vec<Finding>), ReadError> {
    let e = &mut engine;
    let dtype = h.dtype();
    let mut data = match dtype {
        ElementType::U8 => Data::U8(payload::<u8, R>(r, h, e, limited)?),
        ElementType::I8 => Data::I8(payload::<i8, R>(r, h, e, limited)?),
        ElementType::I16 => Data::I16(payload::<i16, R>(r, h, e, limited)?),
        ElementType::I32 => Data::I32(payload::<i32, R>(r, h, e, limited)?),
        ElementType::F32 => Data::F32(payload::<f32, R>(r, h, e, limited)?),
        ElementType::F64 => Data::F64(payload::<f64, R>(r, h, e, limited)?),
    };
    let warnings = conclude(engine)?;
    if stored == ByteOrder::Little {
        // decoded as big-endian: every element's bytes reversed
        match &mut data {
            Data::U8(_) | Data::I8(_) => {}
            Data::I16(v) => reverse_elements(bytemuck::cast_slice_mut(v), 2),
            Data::I32(v) => reverse_elements(bytemuck::cast_slice_mut(v), 4),
            Data::F32(v) => reverse_elements(bytemuck::cast_slice_mut(v), 4),
            Data::F64(v) => reverse_elements(bytemuck::cast_slice_mut(v), 8),
        }
    }
    let shape = h.dims().iter().map(|&d| d as usize).collect();
    // invariant: the engine found no error, so the payload was read whole
    // (exactly product(dims) elements were decoded)
    let a =
        Array::new(shape, data).map_err(|_| invalid(violations::size_overflow(dtype, h.dims())))?;
    Ok((a, warnings))
}

/// The elements of the payload decoded (all, or those before a
/// truncation), each read fed to `engine` as stored, then the bytes after
/// a whole payload; `Err` for the source's errors.
fn payload<T: Element, R: Read>(
    r: &mut R,
    h: &Header,
    engine: &mut Validator,
    limited: fn(&R) -> bool,
) -> Result<Vec<T>, ReadError> {
    let size = T::TYPE.size();
    let declared = h.payload_len();
    let count = usize::try_from(h.element_count()).unwrap_or(usize::MAX);
    // Memory is reserved only as payload bytes arrive (never by the
    // header's word alone): the vector doubles at most, up to the declared
    // count, so it holds at most twice the bytes read.
    let mut out: Vec<T> = Vec::new();
    let mut storage = vec![0u8; crate::buffer::CHUNK_LEN + buffer::PAGE];
    let buf = buffer::page_aligned(&mut storage);
    let mut carry = 0usize; // bytes of a partial element at the front of buf
    let mut seen = 0u64;
    while seen < declared {
        let room = (buf.len() - carry) as u64;
        let want = (declared - seen).min(room) as usize;
        let k = crate::buffer::fill(r, &mut buf[carry..carry + want])?;
        if k == 0 {
            break;
        }
        engine.feed(&buf[carry..carry + k]);
        seen += k as u64;
        let have = carry + k;
        let whole = have / size * size;
        if out.capacity() - out.len() < whole / size {
            let grow = (whole / size)
                .max(out.len())
                .min(count.saturating_sub(out.len()))
                .max(whole / size);
            let _ = out.try_reserve_exact(grow);
        }
        <T as crate::dtype::private::Sealed>::extend_from_be(&mut out, &buf[..whole]);
        buf.copy_within(whole..have, 0);
        carry = have - whole;
    }
    if seen == declared {
        feed_end(r, engine, &mut storage, limited)?;
    }
    Ok(out)
}
