//! Streaming decode: from any `Read` straight into an owned typed array.

use crate::array::{Array, Data};
use crate::dtype::{Element, ElementType};
use crate::finding::Finding;
use crate::header::{self, Header, MAGIC_LEN};
use crate::parse::Error;
use crate::sniff::sniff;
use crate::validate;
use std::fmt;
use std::io::{self, Read};

/// The most elements reserved ahead of the data actually read: the vector
/// grows with the data, never by the header's word alone.
const RESERVE_AHEAD: usize = 16 << 20;

/// Why [`read_array`] failed.
#[derive(Debug)]
#[non_exhaustive]
pub enum ReadError {
    /// The bytes are not a valid IDX file: the first violation, located.
    Invalid(Error),
    /// The reader failed.
    Io(io::Error),
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Invalid(e) => e.fmt(f),
            ReadError::Io(e) => write!(f, "read failed: {e}"),
        }
    }
}

impl std::error::Error for ReadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ReadError::Invalid(e) => Some(e),
            ReadError::Io(e) => Some(e),
        }
    }
}

impl From<io::Error> for ReadError {
    fn from(e: io::Error) -> Self {
        ReadError::Io(e)
    }
}

fn invalid(f: Finding) -> ReadError {
    ReadError::Invalid(f.into())
}

/// Reads until `buf` is full or the reader ends; returns the bytes read.
fn fill<R: Read>(r: &mut R, buf: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

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
pub fn read_array<R: Read>(mut r: R) -> Result<Array, ReadError> {
    let mut head = [0u8; MAGIC_LEN];
    let n = fill(&mut r, &mut head)?;
    let mut pos = n as u64;
    let got = &head[..n];
    if got.iter().take(2).any(|&b| b != 0) {
        // Enough of the stream to recognise what it is instead.
        let mut prefix = got.to_vec();
        let mut more = [0u8; 512];
        let k = fill(
            &mut r,
            &mut more[..crate::SNIFF_LEN - n.min(crate::SNIFF_LEN)],
        )?;
        prefix.extend_from_slice(&more[..k]);
        return Err(invalid(
            sniff(&prefix).unwrap_or_else(|| validate::reserved_bytes(&got[..n.min(2)])),
        ));
    }
    if n > 2 && ElementType::from_code(head[2]).is_none() {
        return Err(invalid(validate::unknown_type(head[2])));
    }
    if n < MAGIC_LEN {
        return Err(invalid(validate::truncated_magic(n)));
    }
    let rank = head[3];
    let mut dim_bytes = [0u8; 4 * 255];
    let want = 4 * usize::from(rank);
    let k = fill(&mut r, &mut dim_bytes[..want])?;
    pos += k as u64;
    if k < want {
        return Err(invalid(validate::truncated_dimensions(pos as usize, rank)));
    }
    let (_, dims) = header::dimensions(&dim_bytes[..want], rank)
        .map_err(|_| invalid(validate::truncated_dimensions(pos as usize, rank)))?;
    // invariant: the type code was checked above
    let dtype =
        ElementType::from_code(head[2]).ok_or_else(|| invalid(validate::unknown_type(head[2])))?;
    let Some(h) = Header::new(dtype, dims.clone()) else {
        return Err(invalid(validate::size_overflow(dtype, &dims)));
    };
    let data = match dtype {
        ElementType::U8 => Data::U8(payload::<u8, R>(&mut r, &h, pos)?),
        ElementType::I8 => Data::I8(payload::<i8, R>(&mut r, &h, pos)?),
        ElementType::I16 => Data::I16(payload::<i16, R>(&mut r, &h, pos)?),
        ElementType::I32 => Data::I32(payload::<i32, R>(&mut r, &h, pos)?),
        ElementType::F32 => Data::F32(payload::<f32, R>(&mut r, &h, pos)?),
        ElementType::F64 => Data::F64(payload::<f64, R>(&mut r, &h, pos)?),
    };
    let shape = h.dims().iter().map(|&d| d as usize).collect();
    // invariant: exactly product(dims) elements were decoded
    Array::new(shape, data).map_err(|_| invalid(validate::size_overflow(dtype, h.dims())))
}

fn payload<T: Element, R: Read>(r: &mut R, h: &Header, start: u64) -> Result<Vec<T>, ReadError> {
    let size = T::TYPE.size();
    let declared = h.payload_len();
    let count = usize::try_from(h.element_count()).unwrap_or(usize::MAX);
    let mut out: Vec<T> = Vec::new();
    let _ = out.try_reserve_exact(count.min(RESERVE_AHEAD));
    let mut storage = vec![0u8; crate::CHUNK_LEN + validate::PAGE];
    let buf = validate::page_aligned(&mut storage);
    let mut carry = 0usize; // bytes of a partial element at the front of buf
    let mut seen = 0u64;
    while seen < declared {
        let room = (buf.len() - carry) as u64;
        let want = (declared - seen).min(room) as usize;
        let k = fill(r, &mut buf[carry..carry + want])?;
        if k == 0 {
            break;
        }
        seen += k as u64;
        let have = carry + k;
        let whole = have / size * size;
        if out.capacity() - out.len() < whole / size {
            let _ = out.try_reserve(
                (whole / size).max(count.saturating_sub(out.len()).min(RESERVE_AHEAD)),
            );
        }
        T::extend_from_be(&mut out, &buf[..whole]);
        buf.copy_within(whole..have, 0);
        carry = have - whole;
    }
    if seen < declared {
        return Err(invalid(validate::truncated_payload(h, seen, start + seen)));
    }
    // Anything after the payload is an error; count it for the message.
    let mut tail = [0u8; 4];
    let t = fill(r, &mut tail)?;
    if t > 0 {
        // counted up to a bound, so an endless source finishes (spec 7.17)
        let mut extra = t as u64;
        let mut cut = false;
        loop {
            if extra >= validate::TRAILING_COUNT_LIMIT {
                cut = fill(r, &mut buf[..1])? > 0;
                break;
            }
            let want = (validate::TRAILING_COUNT_LIMIT - extra).min(buf.len() as u64) as usize;
            let k = fill(r, &mut buf[..want])?;
            if k == 0 {
                break;
            }
            extra += k as u64;
        }
        let end = start + declared;
        return Err(invalid(validate::trailing_bytes(
            h,
            end,
            extra,
            &tail[..t],
            cut,
        )));
    }
    Ok(out)
}
