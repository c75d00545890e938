//! Owned arrays with typed storage.

use crate::dtype::{Element, ElementType};
use std::fmt;

/// Typed element storage of an [`Array`].
///
/// ```
/// let data = idx::Data::I16(vec![-1, 2, 300]);
/// assert_eq!(data.dtype(), idx::ElementType::I16);
/// assert_eq!(data.len(), 3);
/// // what an array read from a file holds
/// let a = idx::Array::new(vec![3], data.clone())?;
/// assert_eq!(a.data(), &data);
/// # Ok::<(), idx::ShapeError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum Data {
    /// `u8` elements.
    U8(Vec<u8>),
    /// `i8` elements.
    I8(Vec<i8>),
    /// `i16` elements.
    I16(Vec<i16>),
    /// `i32` elements.
    I32(Vec<i32>),
    /// `f32` elements.
    F32(Vec<f32>),
    /// `f64` elements.
    F64(Vec<f64>),
}

impl Data {
    /// The element type.
    pub fn dtype(&self) -> ElementType {
        match self {
            Data::U8(_) => ElementType::U8,
            Data::I8(_) => ElementType::I8,
            Data::I16(_) => ElementType::I16,
            Data::I32(_) => ElementType::I32,
            Data::F32(_) => ElementType::F32,
            Data::F64(_) => ElementType::F64,
        }
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        match self {
            Data::U8(v) => v.len(),
            Data::I8(v) => v.len(),
            Data::I16(v) => v.len(),
            Data::I32(v) => v.len(),
            Data::F32(v) => v.len(),
            Data::F64(v) => v.len(),
        }
    }

    /// True when there are no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Equality by bit pattern: NaN payloads and signed zeros count.
    ///
    /// ```
    /// use idx::Data;
    ///
    /// assert_ne!(Data::F32(vec![f32::NAN]), Data::F32(vec![f32::NAN]));
    /// assert!(Data::F32(vec![f32::NAN]).bit_eq(&Data::F32(vec![f32::NAN])));
    /// assert!(!Data::F32(vec![0.0]).bit_eq(&Data::F32(vec![-0.0])));
    /// ```
    pub fn bit_eq(&self, other: &Data) -> bool {
        match (self, other) {
            (Data::F32(a), Data::F32(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits())
            }
            (Data::F64(a), Data::F64(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits())
            }
            _ => self == other,
        }
    }
}

/// The shape does not hold the data: `product(dims)` differs from the
/// number of elements, or overflows.
///
/// ```
/// let e = idx::Array::from_vec(vec![2, 3], vec![0u8; 5]).unwrap_err();
/// assert_eq!((&e.dims[..], e.elements), (&[2, 3][..], 5));
/// assert_eq!(e.to_string(), "shape [2, 3] does not hold 5 elements");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShapeError {
    /// The dimensions given.
    pub dims: Vec<usize>,
    /// The number of elements given.
    pub elements: usize,
}

impl fmt::Display for ShapeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "shape {:?} does not hold {}",
            self.dims,
            idx_text::plural::count(self.elements as u64, "element")
        )
    }
}

impl std::error::Error for ShapeError {}

/// An owned n-dimensional array, row-major, with native-endian typed data.
///
/// What [`Reader::read_array`](crate::Reader::read_array) returns and
/// [`to_bytes`](crate::to_bytes) writes:
///
/// ```
/// // two 2x2 images
/// let a = idx::Array::from_vec(vec![2, 2, 2], vec![1u8, 2, 3, 4, 5, 6, 7, 8])?;
/// assert_eq!(a.dims(), &[2, 2, 2]);
/// assert_eq!(a.dtype(), idx::ElementType::U8);
///
/// let bytes = idx::to_bytes(&a)?;
/// let (back, warnings) = idx::Reader::new(&bytes[..], &idx::ReadOptions::default())?.read_array()?;
/// assert_eq!((back, warnings), (a, vec![]));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Array {
    dims: Vec<usize>,
    data: Data,
}

impl Array {
    /// An array of shape `dims` holding `data` in row-major order.
    ///
    /// The shape may be one IDX cannot encode (rank over 255, a dimension
    /// over `u32::MAX`); writing refuses those.
    ///
    /// # Errors
    /// When `product(dims)` (1 for rank 0) is not `data.len()`.
    ///
    /// ```
    /// use idx::{Array, Data};
    ///
    /// assert!(Array::new(vec![2, 2], Data::I32(vec![1, 2, 3, 4])).is_ok());
    /// assert!(Array::new(vec![], Data::F64(vec![7.0])).is_ok()); // a scalar
    /// assert!(Array::new(vec![3], Data::U8(vec![1, 2])).is_err());
    /// ```
    pub fn new(dims: Vec<usize>, data: Data) -> Result<Array, ShapeError> {
        // exact: a 0 anywhere gives 0 elements whatever the other dimensions
        let product = crate::header::exact_product(1, dims.iter().map(|&d| d as u64));
        if product != Some(data.len() as u64) {
            return Err(ShapeError {
                elements: data.len(),
                dims,
            });
        }
        Ok(Array { dims, data })
    }

    /// An array from a typed vector.
    ///
    /// # Errors
    /// As [`Array::new`].
    pub fn from_vec<T: Element + IntoData>(
        dims: Vec<usize>,
        data: Vec<T>,
    ) -> Result<Array, ShapeError> {
        Array::new(dims, T::into_data(data))
    }

    /// The dimensions.
    pub fn dims(&self) -> &[usize] {
        &self.dims
    }

    /// The element type.
    pub fn dtype(&self) -> ElementType {
        self.data.dtype()
    }

    /// The typed data.
    pub fn data(&self) -> &Data {
        &self.data
    }

    /// Consumes the array into its shape and data.
    pub fn into_parts(self) -> (Vec<usize>, Data) {
        (self.dims, self.data)
    }

    /// Equality by bit pattern (see [`Data::bit_eq`]).
    pub fn bit_eq(&self, other: &Array) -> bool {
        self.dims == other.dims && self.data.bit_eq(&other.data)
    }
}

/// Element types that can be wrapped into [`Data`]: what lets
/// [`Array::from_vec`] take a `Vec` of any element type.
///
/// ```
/// use idx::IntoData;
///
/// assert_eq!(f32::into_data(vec![0.5]), idx::Data::F32(vec![0.5]));
/// ```
pub trait IntoData: Sized {
    /// Wraps a vector.
    fn into_data(v: Vec<Self>) -> Data;
}

macro_rules! into_data {
    ($t:ty, $v:ident) => {
        impl IntoData for $t {
            fn into_data(v: Vec<Self>) -> Data {
                Data::$v(v)
            }
        }
    };
}
into_data!(u8, U8);
into_data!(i8, I8);
into_data!(i16, I16);
into_data!(i32, I32);
into_data!(f32, F32);
into_data!(f64, F64);

#[cfg(feature = "arbitrary")]
impl<'a> arbitrary::Arbitrary<'a> for Array {
    /// Any element type, rank 0 to 4, dimensions 0 to 8 (at most 4096
    /// elements), any bit patterns (NaN payloads, subnormals, -0.0).
    fn arbitrary(u: &mut arbitrary::Unstructured<'a>) -> arbitrary::Result<Self> {
        let dtype: ElementType = u.arbitrary()?;
        let rank = u.int_in_range(0..=4usize)?;
        let mut dims = Vec::with_capacity(rank);
        for _ in 0..rank {
            dims.push(u.int_in_range(0..=8usize)?);
        }
        let n: usize = dims.iter().product();
        let data = match dtype {
            ElementType::U8 => Data::U8((0..n).map(|_| u.arbitrary()).collect::<Result<_, _>>()?),
            ElementType::I8 => Data::I8((0..n).map(|_| u.arbitrary()).collect::<Result<_, _>>()?),
            ElementType::I16 => Data::I16((0..n).map(|_| u.arbitrary()).collect::<Result<_, _>>()?),
            ElementType::I32 => Data::I32((0..n).map(|_| u.arbitrary()).collect::<Result<_, _>>()?),
            ElementType::F32 => Data::F32(
                (0..n)
                    .map(|_| u.arbitrary().map(f32::from_bits))
                    .collect::<Result<_, _>>()?,
            ),
            ElementType::F64 => Data::F64(
                (0..n)
                    .map(|_| u.arbitrary().map(f64::from_bits))
                    .collect::<Result<_, _>>()?,
            ),
        };
        Array::new(dims, data).map_err(|_| arbitrary::Error::IncorrectFormat)
    }
}
