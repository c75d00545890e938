//! Strict parsing into a zero-copy view.

use crate::array::{Array, Data};
use crate::dtype::{Element, ElementType};
use crate::finding::Finding;
use crate::header::{self, Header};
use crate::rules::Rule;
use crate::sniff::sniff;
use crate::violations;
use std::fmt;
use std::io::{self, Write};
use std::marker::PhantomData;

/// Why strict parsing failed: the first violation, located.
///
/// Owns its data (it does not borrow the input).
///
/// ```
/// // u8 [3], but only two payload bytes: the first violation, located
/// let bytes = [0, 0, 0x08, 1, 0, 0, 0, 3, 0x0a, 0x0b];
/// let e = idx::parse(&bytes).unwrap_err();
/// assert_eq!((e.rule().code(), e.offset(), e.length()), ("IDX202", 10, 0));
/// assert!(e.to_string().ends_with("[IDX202] (at offset 0xa, byte 10)"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error(Box<Finding>);

impl Error {
    /// The rule broken.
    pub fn rule(&self) -> Rule {
        self.0.rule
    }
    /// Byte offset of the violation (the input length for missing data).
    pub fn offset(&self) -> u64 {
        self.0.offset
    }
    /// Number of offending bytes (0 for missing data).
    pub fn length(&self) -> u64 {
        self.0.length
    }
    /// The whole finding: message, expected, found, hint.
    pub fn finding(&self) -> &Finding {
        &self.0
    }
    /// Converts into the finding.
    pub fn into_finding(self) -> Finding {
        *self.0
    }
}

impl From<Finding> for Error {
    fn from(f: Finding) -> Self {
        Error(Box::new(f))
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} [{}] (at offset {:#x}, byte {})",
            self.0.message,
            self.0.rule.code(),
            self.0.offset,
            self.0.offset
        )
    }
}

impl std::error::Error for Error {}

/// Parses a whole IDX file strictly into a zero-copy [`View`].
///
/// Accepts exactly the inputs for which [`validate`](crate::validate())
/// reports no error: the magic, the dimension list, a payload of exactly the
/// declared length and nothing after it. Warnings (rank 0, empty or huge
/// dimensions, a payload the statistical byte-order test calls
/// little-endian: IDX501, spec 6.1) do not make parsing fail; the view's
/// elements are the stored bytes ([`Reader`](crate::Reader) decodes them
/// in a stated byte order).
///
/// # Errors
/// Validation's first error (its findings ordered by offset), with its rule
/// code, offset, length, expected and found values (see `spec/idx.md`).
///
/// # Panics
/// Never, on any input.
///
/// # Allocation
/// Only the dimension list (at most 255 `u32`s); the payload is borrowed.
///
/// ```
/// // i16 [2, 2]: 1, 2, 3, -1 big-endian
/// let bytes = [0, 0, 0x0b, 2, 0, 0, 0, 2, 0, 0, 0, 2, 0, 1, 0, 2, 0, 3, 0xff, 0xff];
/// let v = idx::parse(&bytes)?;
/// assert_eq!((v.dtype(), v.dims()), (idx::ElementType::I16, &[2, 2][..]));
/// assert_eq!(v.array().get::<i16>(3), Some(-1));
/// // nothing may follow the payload
/// let mut longer = bytes.to_vec();
/// longer.push(0);
/// assert_eq!(idx::parse(&longer).unwrap_err().rule().code(), "IDX203");
/// # Ok::<(), idx::Error>(())
/// ```
pub fn parse(input: &[u8]) -> Result<View<'_>, Error> {
    let (header, payload, ended) = parse_structure(input)?;
    ended?;
    Ok(View { header, payload })
}

/// A header, the payload bytes present (at most the declared ones), and
/// whether the input's length is the declared one.
type Structure<'a> = (Header, &'a [u8], Result<(), Error>);

/// The structure alone: magic, dimensions, length. `Err` for a header that
/// breaks a rule.
fn parse_structure(input: &[u8]) -> Result<Structure<'_>, Error> {
    let reserved = &input[..input.len().min(2)];
    if reserved.iter().any(|&b| b != 0) {
        return Err(sniff(input)
            .unwrap_or_else(|| violations::reserved_bytes(reserved))
            .into());
    }
    if input.len() > 2 && ElementType::from_code(input[2]).is_none() {
        return Err(violations::unknown_type(input[2]).into());
    }
    let (rest, magic) =
        header::magic(input).map_err(|_| violations::truncated_magic(input.len()))?;
    // invariant: the code was checked above and the magic is complete
    let dtype =
        ElementType::from_code(magic.code).ok_or_else(|| violations::unknown_type(magic.code))?;
    let (payload, dims) = header::dimensions(rest, magic.rank)
        .map_err(|_| violations::truncated_dimensions(input.len(), magic.rank))?;
    let Some(header) = Header::new(dtype, dims.clone()) else {
        return Err(violations::size_overflow(dtype, &dims).into());
    };
    let declared = header.payload_len();
    let found = payload.len() as u64;
    if found < declared {
        let cut = violations::truncated_payload(&header, found, input.len() as u64);
        return Ok((header, payload, Err(cut.into())));
    }
    if found > declared {
        let end = header.header_len() as u64 + declared;
        let (payload, tail) = payload.split_at(declared as usize); // declared < found <= usize::MAX
        let more = violations::trailing_bytes(
            &header,
            end,
            found - declared,
            &tail[..tail.len().min(4)],
            false,
        );
        return Ok((header, payload, Err(more.into())));
    }
    Ok((header, payload, Ok(())))
}

/// A parsed IDX file: the header and the borrowed payload bytes.
///
/// ```
/// let bytes = idx::to_bytes(&idx::Array::from_vec(vec![2], vec![1.5f32, -2.0])?)?;
/// let v = idx::parse(&bytes)?;
/// assert_eq!(v.header().header_len(), 8);
/// assert_eq!(v.payload(), &bytes[8..]); // borrowed, big-endian as stored
/// assert_eq!(v.to_array(), idx::Array::from_vec(vec![2], vec![1.5f32, -2.0])?);
/// let mut copy = Vec::new();
/// v.write_to(&mut copy)?;
/// assert_eq!(copy, bytes);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct View<'a> {
    header: Header,
    payload: &'a [u8],
}

impl<'a> View<'a> {
    /// The header.
    pub fn header(&self) -> &Header {
        &self.header
    }
    /// The element type.
    pub fn dtype(&self) -> ElementType {
        self.header.dtype()
    }
    /// The dimensions.
    pub fn dims(&self) -> &[u32] {
        self.header.dims()
    }
    /// The payload bytes, big-endian, exactly as in the file.
    pub fn payload(&self) -> &'a [u8] {
        self.payload
    }
    /// The whole array as a borrowed [`ArrayView`].
    pub fn array(&self) -> ArrayView<'_> {
        ArrayView {
            dtype: self.header.dtype(),
            dims: self.header.dims(),
            payload: self.payload,
        }
    }
    /// Decodes into an owned array (allocates the payload's size, which is
    /// present in the input, never more).
    pub fn to_array(&self) -> Array {
        self.array().to_array()
    }
    /// Writes the file back: the canonical encoding, byte-identical to the
    /// parsed input.
    ///
    /// # Errors
    /// Only the writer's I/O errors.
    pub fn write_to<W: Write>(&self, mut w: W) -> io::Result<()> {
        w.write_all(&self.header.to_bytes())?;
        w.write_all(self.payload)
    }
}

/// A borrowed, typed-on-demand view of an array or of an item of one.
///
/// ```
/// // three 2x2 u8 images
/// let a = idx::Array::from_vec(vec![3, 2, 2], (0..12u8).collect())?;
/// let bytes = idx::to_bytes(&a)?;
/// let v = idx::parse(&bytes)?;
/// let whole = v.array();
/// assert_eq!((whole.len(), whole.get::<u8>(5)), (12, Some(5)));
/// assert_eq!(whole.get::<f32>(5), None); // not the element type
/// let last = whole.items().last().unwrap();
/// assert_eq!((last.dims(), last.bytes()), (&[2, 2][..], &[8, 9, 10, 11][..]));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ArrayView<'a> {
    dtype: ElementType,
    dims: &'a [u32],
    payload: &'a [u8],
}

impl<'a> ArrayView<'a> {
    /// A view of `payload`, big-endian elements as IDX stores them, under
    /// `header` (e.g. items read on their own through
    /// [`Payload`](crate::Payload), under [`Header::with_items`]); `None`
    /// when `payload` is not the header's payload length.
    ///
    /// ```
    /// let h = idx::Header::new(idx::ElementType::I16, vec![2, 3]).unwrap();
    /// let second = [0, 4, 0, 5, 0, 6]; // the second item's bytes
    /// let one = h.with_items(1).unwrap();
    /// let v = idx::ArrayView::new(&one, &second).unwrap();
    /// assert_eq!((v.dims(), v.get::<i16>(2)), (&[1, 3][..], Some(6)));
    /// assert!(idx::ArrayView::new(&h, &second).is_none()); // 6 bytes, not 12
    /// ```
    pub fn new(header: &'a Header, payload: &'a [u8]) -> Option<ArrayView<'a>> {
        (payload.len() as u64 == header.payload_len()).then_some(ArrayView {
            dtype: header.dtype(),
            dims: header.dims(),
            payload,
        })
    }

    /// The element type.
    pub fn dtype(&self) -> ElementType {
        self.dtype
    }
    /// The dimensions.
    pub fn dims(&self) -> &'a [u32] {
        self.dims
    }
    /// The raw big-endian bytes.
    pub fn bytes(&self) -> &'a [u8] {
        self.payload
    }
    /// Number of elements.
    pub fn len(&self) -> usize {
        self.payload.len() / self.dtype.size()
    }
    /// True when there are no elements.
    pub fn is_empty(&self) -> bool {
        self.payload.is_empty()
    }
    /// Element `index` in row-major order, decoded; `None` when `T` is not
    /// the element type or the index is out of range.
    pub fn get<T: Element>(&self, index: usize) -> Option<T> {
        if T::TYPE != self.dtype {
            return None;
        }
        let size = self.dtype.size();
        let start = index.checked_mul(size)?;
        let bytes = self.payload.get(start..start.checked_add(size)?)?;
        Some(T::from_be_slice(bytes))
    }
    /// Decoding iterator over all elements in row-major order; `None` when
    /// `T` is not the element type.
    pub fn iter<T: Element>(&self) -> Option<Elements<'a, T>> {
        (T::TYPE == self.dtype).then(|| Elements {
            chunks: self.payload.chunks_exact(self.dtype.size()),
            _t: PhantomData,
        })
    }
    /// Iterator over the first axis: `dims[0]` views of rank `rank - 1`.
    /// Empty for rank 0.
    pub fn items(&self) -> Items<'a> {
        let (count, dims) = match self.dims.split_first() {
            Some((&n, rest)) => (n as usize, rest),
            None => (0, self.dims),
        };
        let item_len = self.payload.len().checked_div(count).unwrap_or(0);
        Items {
            dtype: self.dtype,
            dims,
            rest: self.payload,
            item_len,
            left: count,
        }
    }
    /// Decodes into an owned array.
    pub fn to_array(&self) -> Array {
        let dims: Vec<usize> = self.dims.iter().map(|&d| d as usize).collect();
        let data = match self.dtype {
            ElementType::U8 => Data::U8(self.payload.to_vec()),
            ElementType::I8 => Data::I8(decode(self.payload)),
            ElementType::I16 => Data::I16(decode(self.payload)),
            ElementType::I32 => Data::I32(decode(self.payload)),
            ElementType::F32 => Data::F32(decode(self.payload)),
            ElementType::F64 => Data::F64(decode(self.payload)),
        };
        match Array::new(dims, data) {
            Ok(a) => a,
            Err(_) => unreachable!("view shape and payload agree"), // invariant: parse checked the length
        }
    }
}

/// Decodes big-endian bytes into a vector of elements.
///
/// ```
/// assert_eq!(idx::decode::<i16>(&[0x01, 0x00, 0xff, 0xfe]), vec![256, -2]);
/// assert_eq!(idx::decode::<u8>(&[7, 8]), vec![7, 8]);
/// ```
pub fn decode<T: Element>(bytes: &[u8]) -> Vec<T> {
    bytes
        .chunks_exact(T::TYPE.size())
        .map(T::from_be_slice)
        .collect()
}

/// Decoding iterator over the elements of an [`ArrayView`].
///
/// ```
/// let bytes = idx::to_bytes(&idx::Array::from_vec(vec![3], vec![10i32, -20, 30])?)?;
/// let v = idx::parse(&bytes)?;
/// let sum: i32 = v.array().iter::<i32>().unwrap().sum();
/// assert_eq!(sum, 20);
/// assert!(v.array().iter::<u8>().is_none()); // not the element type
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct Elements<'a, T> {
    chunks: std::slice::ChunksExact<'a, u8>,
    _t: PhantomData<T>,
}

impl<T: Element> Iterator for Elements<'_, T> {
    type Item = T;
    fn next(&mut self) -> Option<T> {
        self.chunks.next().map(T::from_be_slice)
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.chunks.size_hint()
    }
}

impl<T: Element> ExactSizeIterator for Elements<'_, T> {}

/// Iterator over the first axis of an [`ArrayView`].
///
/// ```
/// // labels of 4 images, one u8 each: items of rank 0
/// let bytes = [0, 0, 0x08, 1, 0, 0, 0, 4, 7, 2, 1, 0];
/// let v = idx::parse(&bytes)?;
/// let labels: Vec<u8> = v.array().items().map(|item| item.get::<u8>(0).unwrap()).collect();
/// assert_eq!(labels, [7, 2, 1, 0]);
/// # Ok::<(), idx::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Items<'a> {
    dtype: ElementType,
    dims: &'a [u32],
    rest: &'a [u8],
    item_len: usize,
    left: usize,
}

impl<'a> Iterator for Items<'a> {
    type Item = ArrayView<'a>;
    fn next(&mut self) -> Option<ArrayView<'a>> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        let (item, rest) = self.rest.split_at(self.item_len.min(self.rest.len()));
        self.rest = rest;
        Some(ArrayView {
            dtype: self.dtype,
            dims: self.dims,
            payload: item,
        })
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl ExactSizeIterator for Items<'_> {}
