//! The header: magic and dimension list, and its nom productions.
//!
//! ```text
//! offset  width  field
//! 0       1      reserved, must be 0x00
//! 1       1      reserved, must be 0x00
//! 2       1      element type code (0x08 u8, 0x09 i8, 0x0B i16, 0x0C i32, 0x0D f32, 0x0E f64)
//! 3       1      rank r (0..=255)
//! 4+4k    4      dimension k, unsigned 32-bit big-endian, for k in 0..r
//! 4+4r           payload: product(dims) elements, row-major, big-endian
//! ```

use crate::dtype::ElementType;
use nom::number::complete::{be_u32, u8 as byte};
use nom::{IResult, Parser};

/// Length of the magic in bytes.
pub const MAGIC_LEN: usize = 4;
/// The largest possible header: the magic and 255 dimensions (1024 bytes).
///
/// ```
/// // enough to read any header before deciding anything
/// let rank_255 = idx::Header::new(idx::ElementType::U8, vec![1; 255]).unwrap();
/// assert_eq!(rank_255.header_len(), idx::MAX_HEADER_LEN);
/// ```
pub const MAX_HEADER_LEN: usize = MAGIC_LEN + 4 * 255;

/// A parsed, well-formed header.
///
/// Construction is only possible through parsing or [`Header::new`], which
/// check that the payload length fits in a `u64`.
///
/// ```
/// use idx::{ElementType, Header};
///
/// // 10 000 MNIST test images, 28x28 u8
/// let h = Header::new(ElementType::U8, vec![10_000, 28, 28]).unwrap();
/// assert_eq!(h.to_bytes(), [0, 0, 8, 3, 0, 0, 0x27, 0x10, 0, 0, 0, 28, 0, 0, 0, 28]);
/// assert_eq!((h.rank(), h.header_len(), h.item_len()), (3, 16, 784));
/// assert_eq!(h.file_len(), Some(16 + 7_840_000));
/// // a size that no u64 holds is refused
/// assert!(Header::new(ElementType::F64, vec![u32::MAX; 3]).is_none());
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Header {
    dtype: ElementType,
    dims: Vec<u32>,
    payload_len: u64,
}

impl Header {
    /// A header for `dtype` and `dims`, or `None` when the rank exceeds 255
    /// or the payload size overflows `u64`.
    pub fn new(dtype: ElementType, dims: Vec<u32>) -> Option<Header> {
        if dims.len() > 255 {
            return None;
        }
        let payload_len = payload_len(dtype, &dims)?;
        Some(Header {
            dtype,
            dims,
            payload_len,
        })
    }

    /// The element type (byte 2).
    pub fn dtype(&self) -> ElementType {
        self.dtype
    }

    /// The dimensions, outermost first.
    pub fn dims(&self) -> &[u32] {
        &self.dims
    }

    /// The rank (byte 3).
    pub fn rank(&self) -> usize {
        self.dims.len()
    }

    /// Header length in bytes: `4 + 4 * rank`.
    pub fn header_len(&self) -> usize {
        MAGIC_LEN + 4 * self.dims.len()
    }

    /// Declared payload length in bytes: `product(dims) * element size`.
    pub fn payload_len(&self) -> u64 {
        self.payload_len
    }

    /// Number of elements: `product(dims)` (1 for rank 0).
    pub fn element_count(&self) -> u64 {
        self.payload_len / self.dtype.size() as u64
    }

    /// The number of items, the slices along dimension 0: dimension 0 (1
    /// for rank 0, whose one item is the whole payload).
    pub fn items(&self) -> u64 {
        self.dims.first().map_or(1, |&d| u64::from(d))
    }

    /// The dimensions of one item: every dimension but the first (none for
    /// rank 0 and rank 1).
    pub fn item_dims(&self) -> &[u32] {
        self.dims.get(1..).unwrap_or(&[])
    }

    /// Elements of one item: [`Header::item_len`] over the element size
    /// (0 when there are no items).
    ///
    /// ```
    /// // 3 images of 28x28 f32
    /// let h = idx::Header::new(idx::ElementType::F32, vec![3, 28, 28]).unwrap();
    /// assert_eq!((h.items(), h.item_dims(), h.item_elements()), (3, &[28, 28][..], 784));
    /// assert_eq!(h.item_len(), 784 * 4);
    /// // the header of 2 of them, read on their own
    /// let two = h.with_items(2).unwrap();
    /// assert_eq!((two.dims(), two.payload_len()), (&[2, 28, 28][..], 2 * 784 * 4));
    /// ```
    pub fn item_elements(&self) -> u64 {
        self.item_len() / self.dtype.size() as u64
    }

    /// The header of `items` items of this geometry (dimension 0 replaced),
    /// or `None` for rank 0 or when their size overflows `u64`: the header
    /// of a run of items read on their own.
    pub fn with_items(&self, items: u32) -> Option<Header> {
        let mut dims = self.dims.clone();
        *dims.first_mut()? = items;
        Header::new(self.dtype, dims)
    }

    /// Bytes of one item, a slice along dimension 0: the payload length
    /// over dimension 0 (the whole payload for rank 0; 0 when dimension 0
    /// is 0).
    pub fn item_len(&self) -> u64 {
        match self.dims.first() {
            Some(&d) if d > 0 => self.payload_len / u64::from(d),
            Some(_) => 0,
            None => self.payload_len,
        }
    }

    /// Total file length: header plus payload, or `None` on overflow.
    pub fn file_len(&self) -> Option<u64> {
        self.payload_len.checked_add(self.header_len() as u64)
    }

    /// The canonical header bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.header_len());
        out.extend_from_slice(&[0, 0, self.dtype.code(), self.dims.len() as u8]);
        for d in &self.dims {
            out.extend_from_slice(&d.to_be_bytes());
        }
        out
    }
}

/// `product(dims) * size`, exactly (spec 1.5): 0 when any dimension is 0,
/// whatever the others are, and `None` only when the exact size exceeds
/// `u64::MAX`.
pub fn payload_len(dtype: ElementType, dims: &[u32]) -> Option<u64> {
    exact_product(dtype.size() as u64, dims.iter().map(|&d| u64::from(d)))
}

/// `first * product(factors)`, exactly: 0 when any factor is 0 (even after
/// a prefix whose product overflows), `None` only when the exact product
/// exceeds `u64::MAX`. Every size computation of the crate goes through
/// here, so none multiplies left to right and stops at the first overflow.
pub(crate) fn exact_product<I>(first: u64, factors: I) -> Option<u64>
where
    I: IntoIterator<Item = u64>,
    I::IntoIter: Clone,
{
    let mut factors = factors.into_iter();
    if first == 0 || factors.clone().any(|f| f == 0) {
        return Some(0);
    }
    // every factor is now at least 1, so the running product never
    // decreases: once it overflows, the exact product does too
    factors.try_fold(first, u64::checked_mul)
}

/// The four magic bytes, before any check.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct RawMagic {
    pub reserved: [u8; 2],
    pub code: u8,
    pub rank: u8,
}

/// `magic = reserved reserved type-code rank` (4 bytes).
pub(crate) fn magic(i: &[u8]) -> IResult<&[u8], RawMagic, ()> {
    let (i, (r0, r1, code, rank)) = (byte, byte, byte, byte).parse(i)?;
    Ok((
        i,
        RawMagic {
            reserved: [r0, r1],
            code,
            rank,
        },
    ))
}

/// `dimension = u32 big-endian`.
pub(crate) fn dimension(i: &[u8]) -> IResult<&[u8], u32, ()> {
    be_u32(i)
}

/// `dimensions = dimension{rank}`. The rank is at most 255, so the vector is
/// bounded by 255 entries whatever the input says.
pub(crate) fn dimensions(i: &[u8], rank: u8) -> IResult<&[u8], Vec<u32>, ()> {
    nom::multi::count(dimension, usize::from(rank)).parse(i)
}

/// True when `b` begins with an IDX magic (two zero bytes and a known
/// type code): trailing bytes like that are probably a second file.
pub(crate) fn starts_with_idx_magic(b: &[u8]) -> bool {
    b.len() >= MAGIC_LEN && b[0] == 0 && b[1] == 0 && ElementType::from_code(b[2]).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn productions_consume_exactly_their_bytes() {
        let bytes = [0x00, 0x00, 0x08, 0x02, 0, 0, 0, 3, 0, 0, 1, 0, 0xaa];
        let (rest, m) = magic(&bytes).unwrap(); // ok: unit test
        assert_eq!(
            m,
            RawMagic {
                reserved: [0, 0],
                code: 8,
                rank: 2
            }
        );
        let (rest, dims) = dimensions(rest, m.rank).unwrap(); // ok: unit test
        assert_eq!(dims, vec![3, 256]);
        assert_eq!(rest, &[0xaa]);
        assert!(magic(&bytes[..3]).is_err());
        assert!(dimensions(&bytes[4..11], 2).is_err());
    }

    #[test]
    fn payload_len_is_checked() {
        assert_eq!(payload_len(ElementType::F64, &[]), Some(8));
        assert_eq!(payload_len(ElementType::I16, &[3, 0, 7]), Some(0));
        assert_eq!(
            payload_len(ElementType::U8, &[u32::MAX, u32::MAX]),
            Some((u32::MAX as u64).pow(2))
        );
        assert_eq!(payload_len(ElementType::F64, &[u32::MAX, u32::MAX]), None);
        assert_eq!(payload_len(ElementType::U8, &[u32::MAX, u32::MAX, 2]), None);
        // a zero anywhere gives zero, even after an overflowing prefix
        assert_eq!(
            payload_len(ElementType::I32, &[u32::MAX, u32::MAX, 0]),
            Some(0)
        );
        assert_eq!(exact_product(0, [u64::MAX, u64::MAX]), Some(0));
        assert_eq!(exact_product(2, [u64::MAX, 0]), Some(0));
        assert_eq!(exact_product(2, [u64::MAX, 1]), None);
        let h = Header::new(ElementType::I32, vec![2, 3]).unwrap(); // ok: unit test
        assert_eq!(h.to_bytes(), [0, 0, 0x0c, 2, 0, 0, 0, 2, 0, 0, 0, 3]);
        assert_eq!(
            (h.header_len(), h.payload_len(), h.element_count()),
            (12, 24, 6)
        );
        assert!(Header::new(ElementType::U8, vec![1; 256]).is_none());
    }

    #[test]
    fn item_geometry_of_every_rank() {
        let h = |t, d: &[u32]| Header::new(t, d.to_vec()).unwrap(); // ok: unit test

        // rank 0: one item, the one element
        let r0 = h(ElementType::F64, &[]);
        assert_eq!(
            (r0.items(), r0.item_dims(), r0.item_elements()),
            (1, &[][..], 1)
        );
        assert_eq!(r0.with_items(3), None);
        // rank 1: items are elements
        let r1 = h(ElementType::I16, &[5]);
        assert_eq!(
            (r1.items(), r1.item_dims(), r1.item_elements()),
            (5, &[][..], 1)
        );
        assert_eq!(r1.with_items(2).map(|x| x.payload_len()), Some(4));
        // rank 3: an item is every dimension but the first
        let r3 = h(ElementType::U8, &[3, 28, 27]);
        assert_eq!(
            (r3.items(), r3.item_dims(), r3.item_elements()),
            (3, &[28, 27][..], 756)
        );
        // no items: none of any size, each still of its dimensions
        let empty = h(ElementType::U8, &[0, 28, 28]);
        assert_eq!((empty.items(), empty.item_elements()), (0, 0));
        assert_eq!(empty.item_dims(), &[28, 28]);
        assert_eq!(empty.with_items(1).map(|x| x.payload_len()), Some(784));
        // items whose run overflows u64 have no header
        let wide = h(ElementType::F64, &[1, u32::MAX, u32::MAX / 8]);
        assert_eq!(wide.with_items(u32::MAX), None);
    }
}
