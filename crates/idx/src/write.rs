//! Writing: the one canonical encoding of an array.

use crate::array::{Array, Data};
use crate::dtype::{Element, ElementType};
use crate::header::MAGIC_LEN;
use std::fmt;
use std::io::{self, Write};

/// Why an array could not be written.
///
/// ```
/// use idx::{Array, Data, WriteError};
///
/// // an array may have a shape IDX cannot encode; writing refuses it
/// let deep = Array::new(vec![1; 256], Data::U8(vec![0]))?;
/// assert!(matches!(idx::to_bytes(&deep), Err(WriteError::RankTooLarge { rank: 256 })));
/// // a slice that the shape does not hold
/// let e = idx::write_slice(Vec::new(), &[2, 2], &[1u8, 2, 3]).unwrap_err();
/// assert!(matches!(e, WriteError::PayloadLength { expected: Some(4), found: 3 }));
/// # Ok::<(), idx::ShapeError>(())
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum WriteError {
    /// Misuse: IDX holds at most 255 dimensions.
    RankTooLarge {
        /// The rank given.
        rank: usize,
    },
    /// Misuse: each dimension must fit in an unsigned 32-bit integer.
    DimensionTooLarge {
        /// Which dimension.
        axis: usize,
        /// Its value.
        value: usize,
    },
    /// Misuse: the payload is not `product(dims) x element size` bytes.
    PayloadLength {
        /// The length the shape needs (`None` if it overflows).
        expected: Option<u64>,
        /// The length given.
        found: u64,
    },
    /// The underlying writer failed.
    Io(io::Error),
}

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WriteError::RankTooLarge { rank } => {
                write!(
                    f,
                    "rank {rank} cannot be encoded: IDX holds at most 255 dimensions"
                )
            }
            WriteError::DimensionTooLarge { axis, value } => write!(
                f,
                "dimension {axis} is {value}, which does not fit in an unsigned 32-bit integer"
            ),
            WriteError::PayloadLength {
                expected: Some(e),
                found,
            } => {
                write!(
                    f,
                    "payload is {}, the shape needs {e}",
                    idx_text::plural::count(*found, "byte")
                )
            }
            WriteError::PayloadLength {
                expected: None,
                found,
            } => {
                write!(
                    f,
                    "payload is {}, the shape's size overflows 64 bits",
                    idx_text::plural::count(*found, "byte")
                )
            }
            WriteError::Io(e) => write!(f, "write failed: {e}"),
        }
    }
}

impl std::error::Error for WriteError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            WriteError::Io(e) => Some(e),
            _ => None,
        }
    }
}

impl From<io::Error> for WriteError {
    fn from(e: io::Error) -> Self {
        WriteError::Io(e)
    }
}

/// Encodes the header for `dtype` and `dims`.
///
/// # Errors
/// [`WriteError::RankTooLarge`], [`WriteError::DimensionTooLarge`].
pub fn encode_header(dtype: ElementType, dims: &[usize]) -> Result<Vec<u8>, WriteError> {
    let rank =
        u8::try_from(dims.len()).map_err(|_| WriteError::RankTooLarge { rank: dims.len() })?;
    let mut out = Vec::with_capacity(MAGIC_LEN + 4 * dims.len());
    out.extend_from_slice(&[0, 0, dtype.code(), rank]);
    for (axis, &value) in dims.iter().enumerate() {
        let d = u32::try_from(value).map_err(|_| WriteError::DimensionTooLarge { axis, value })?;
        out.extend_from_slice(&d.to_be_bytes());
    }
    Ok(out)
}

/// Writes raw big-endian payload bytes with a header. Returns the number
/// of bytes written.
///
/// # Errors
/// A shape IDX cannot encode, a payload of the wrong length, or I/O.
///
/// # Panics
/// Never.
pub fn write_raw<W: Write>(
    mut w: W,
    dtype: ElementType,
    dims: &[usize],
    payload: &[u8],
) -> Result<u64, WriteError> {
    let header = encode_header(dtype, dims)?;
    let expected = crate::header::exact_product(
        dtype.size() as u64,
        dims.iter().map(|&d| d as u64), // usize is at most 64 bits
    );
    if expected != Some(payload.len() as u64) {
        return Err(WriteError::PayloadLength {
            expected,
            found: payload.len() as u64,
        });
    }
    w.write_all(&header)?;
    w.write_all(payload)?;
    Ok((header.len() + payload.len()) as u64)
}

/// Writes an array in the canonical IDX encoding. Returns the number of
/// bytes written. Memory: a fixed 64 KiB encoding buffer.
///
/// # Errors
/// A shape IDX cannot encode (rank over 255, a dimension over `u32::MAX`),
/// or I/O.
///
/// # Panics
/// Never.
///
/// ```
/// // into any `Write`: a file, a socket, a gzip encoder; here a vector
/// let a = idx::Array::from_vec(vec![2], vec![-1i16, 256])?;
/// let mut out = Vec::new();
/// let n = idx::write(&mut out, &a)?;
/// assert_eq!(n, 12);
/// assert_eq!(out, [0, 0, 0x0b, 1, 0, 0, 0, 2, 0xff, 0xff, 0x01, 0x00]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn write<W: Write>(mut w: W, array: &Array) -> Result<u64, WriteError> {
    let header = encode_header(array.dtype(), array.dims())?;
    w.write_all(&header)?;
    let payload = match array.data() {
        Data::U8(v) => {
            w.write_all(v)?;
            v.len() as u64
        }
        Data::I8(v) => put(&mut w, v)?,
        Data::I16(v) => put(&mut w, v)?,
        Data::I32(v) => put(&mut w, v)?,
        Data::F32(v) => put(&mut w, v)?,
        Data::F64(v) => put(&mut w, v)?,
    };
    Ok(header.len() as u64 + payload)
}

/// Writes elements held in a slice (borrowed, row-major, native-endian) in
/// the canonical IDX encoding, without copying them into an [`Array`]
/// first. Returns the number of bytes written. Memory: a fixed 64 KiB
/// encoding buffer.
///
/// # Errors
/// A shape IDX cannot encode, a shape that does not hold `data.len()`
/// elements ([`WriteError::PayloadLength`]), or I/O.
///
/// # Panics
/// Never.
///
/// ```
/// // a 2x3 f32 matrix held in a plain slice, no `Array` built
/// let rows = [0.0f32, 0.5, 1.0, 1.5, 2.0, 2.5];
/// let mut out = Vec::new();
/// idx::write_slice(&mut out, &[2, 3], &rows)?;
/// let v = idx::parse(&out)?;
/// assert_eq!((v.dims(), v.array().get::<f32>(5)), (&[2, 3][..], Some(2.5)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn write_slice<W: Write, T: Element>(
    mut w: W,
    dims: &[usize],
    data: &[T],
) -> Result<u64, WriteError> {
    let header = encode_header(T::TYPE, dims)?;
    let size = T::TYPE.size() as u64;
    let expected = dims.iter().try_fold(size, |a, &d| a.checked_mul(d as u64));
    let found = (data.len() as u64).saturating_mul(size);
    if expected != Some(found) {
        return Err(WriteError::PayloadLength { expected, found });
    }
    w.write_all(&header)?;
    Ok(header.len() as u64 + put(&mut w, data)?)
}

/// Encodes an array into a new vector.
///
/// # Errors
/// As [`write()`], but never I/O.
///
/// ```
/// let a = idx::Array::from_vec(vec![3], vec![7u8, 8, 9])?;
/// assert_eq!(idx::to_bytes(&a)?, [0, 0, 0x08, 1, 0, 0, 0, 3, 7, 8, 9]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn to_bytes(array: &Array) -> Result<Vec<u8>, WriteError> {
    // Sized by the array in memory (not by any file): header plus payload.
    let len = (MAGIC_LEN + 4 * array.dims().len())
        .saturating_add(array.data().len().saturating_mul(array.dtype().size()));
    let mut out = Vec::with_capacity(len);
    write(&mut out, array)?;
    Ok(out)
}

fn put<W: Write, T: Element>(w: &mut W, values: &[T]) -> io::Result<u64> {
    const BUF: usize = 64 * 1024;
    let size = T::TYPE.size();
    let mut buf = vec![0u8; BUF];
    for chunk in values.chunks(BUF / size) {
        let out = &mut buf[..chunk.len() * size];
        for (v, o) in chunk.iter().zip(out.chunks_exact_mut(size)) {
            v.write_be(o);
        }
        w.write_all(out)?;
    }
    Ok((values.len() * size) as u64)
}
