//! Element types and their decoding.

use crate::ByteOrder;
use std::fmt;

/// The element type of an IDX file, stored in byte 2 of the magic.
///
/// Multi-byte types are stored big-endian in the file.
///
/// ```
/// use idx::ElementType;
///
/// let t = ElementType::from_code(0x0D).unwrap(); // byte 2 of `00 00 0d 01`
/// assert_eq!((t, t.size(), t.name()), (ElementType::F32, 4, "f32"));
/// assert_eq!(ElementType::from_name("i16").map(ElementType::code), Some(0x0B));
/// assert_eq!(ElementType::from_code(0x0A), None); // not an IDX type
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum ElementType {
    /// `0x08`: unsigned byte.
    U8,
    /// `0x09`: signed byte (two's complement).
    I8,
    /// `0x0B`: signed 16-bit integer, big-endian.
    I16,
    /// `0x0C`: signed 32-bit integer, big-endian.
    I32,
    /// `0x0D`: IEEE-754 binary32, big-endian.
    F32,
    /// `0x0E`: IEEE-754 binary64, big-endian.
    F64,
}

impl ElementType {
    /// Every element type, in type-code order.
    pub const ALL: [ElementType; 6] = [
        ElementType::U8,
        ElementType::I8,
        ElementType::I16,
        ElementType::I32,
        ElementType::F32,
        ElementType::F64,
    ];

    /// The type code of byte 2 of the magic.
    pub const fn code(self) -> u8 {
        match self {
            ElementType::U8 => 0x08,
            ElementType::I8 => 0x09,
            ElementType::I16 => 0x0B,
            ElementType::I32 => 0x0C,
            ElementType::F32 => 0x0D,
            ElementType::F64 => 0x0E,
        }
    }

    /// The element type for a type code, or `None` for an unknown code.
    pub const fn from_code(code: u8) -> Option<ElementType> {
        match code {
            0x08 => Some(ElementType::U8),
            0x09 => Some(ElementType::I8),
            0x0B => Some(ElementType::I16),
            0x0C => Some(ElementType::I32),
            0x0D => Some(ElementType::F32),
            0x0E => Some(ElementType::F64),
            _ => None,
        }
    }

    /// Size of one element in bytes (1, 2, 4 or 8).
    pub const fn size(self) -> usize {
        match self {
            ElementType::U8 | ElementType::I8 => 1,
            ElementType::I16 => 2,
            ElementType::I32 | ElementType::F32 => 4,
            ElementType::F64 => 8,
        }
    }

    /// The short name used in the corpus manifests and the CLI: `u8`, `i8`,
    /// `i16`, `i32`, `f32`, `f64`.
    pub const fn name(self) -> &'static str {
        match self {
            ElementType::U8 => "u8",
            ElementType::I8 => "i8",
            ElementType::I16 => "i16",
            ElementType::I32 => "i32",
            ElementType::F32 => "f32",
            ElementType::F64 => "f64",
        }
    }

    /// Parses a short name (`u8`, ..., `f64`).
    pub fn from_name(name: &str) -> Option<ElementType> {
        ElementType::ALL.into_iter().find(|t| t.name() == name)
    }

    /// The word used for this type in MNIST-style file names
    /// (`ubyte`, `byte`, `short`, `int`, `float`, `double`).
    pub const fn mnist_word(self) -> &'static str {
        match self {
            ElementType::U8 => "ubyte",
            ElementType::I8 => "byte",
            ElementType::I16 => "short",
            ElementType::I32 => "int",
            ElementType::F32 => "float",
            ElementType::F64 => "double",
        }
    }

    /// numpy's type string for this type stored in `order` (what
    /// `numpy.dtype` takes): `|u1` and `|i1` (one byte: no order), `>i2`,
    /// `>i4`, `>f4`, `>f8` big-endian (as IDX stores them), `<i2`, ...
    /// little-endian. The one table from IDX types to numpy's: the Python
    /// package and the byte-order finding's hint use it.
    ///
    /// ```
    /// use idx::{ByteOrder, ElementType};
    ///
    /// assert_eq!(ElementType::I16.numpy_dtype(ByteOrder::Big), ">i2");
    /// assert_eq!(ElementType::F64.numpy_dtype(ByteOrder::Little), "<f8");
    /// assert_eq!(ElementType::U8.numpy_dtype(ByteOrder::Big), "|u1");
    /// ```
    pub const fn numpy_dtype(self, order: ByteOrder) -> &'static str {
        use ByteOrder::{Big, Little};
        match (self, order) {
            (ElementType::U8, _) => "|u1",
            (ElementType::I8, _) => "|i1",
            (ElementType::I16, Big) => ">i2",
            (ElementType::I16, Little) => "<i2",
            (ElementType::I32, Big) => ">i4",
            (ElementType::I32, Little) => "<i4",
            (ElementType::F32, Big) => ">f4",
            (ElementType::F32, Little) => "<f4",
            (ElementType::F64, Big) => ">f8",
            (ElementType::F64, Little) => "<f8",
        }
    }

    /// True for `f32` and `f64`.
    pub const fn is_float(self) -> bool {
        matches!(self, ElementType::F32 | ElementType::F64)
    }
}

impl fmt::Display for ElementType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A Rust type that is an IDX element type.
///
/// Implemented for `u8`, `i8`, `i16`, `i32`, `f32` and `f64`. Decoding and
/// encoding are bit-exact: floats keep their NaN payloads and signed zeros.
///
/// ```
/// use idx::Element;
///
/// assert_eq!(i16::TYPE, idx::ElementType::I16);
/// assert_eq!(i16::from_be_slice(&[0xff, 0xfe]), -2);
/// let mut out = [0u8; 4];
/// 1.0f32.write_be(&mut out);
/// assert_eq!(out, [0x3f, 0x80, 0x00, 0x00]);
/// ```
pub trait Element: Copy + Send + Sync + 'static + private::Sealed {
    /// The IDX element type of `Self`.
    const TYPE: ElementType;
    /// Decodes one element from exactly `TYPE.size()` big-endian bytes.
    fn from_be_slice(bytes: &[u8]) -> Self;
    /// Encodes `self` big-endian into exactly `TYPE.size()` bytes.
    fn write_be(self, out: &mut [u8]);
}

/// The crate's side of [`Element`]: no type outside it implements
/// `Element`, and these methods are not its API.
pub(crate) mod private {
    pub trait Sealed: Sized {
        /// Appends the elements of `bytes` (big-endian, whole elements; a
        /// partial one at the end is ignored) to `out`, in one vectorisable
        /// loop.
        fn extend_from_be(out: &mut Vec<Self>, bytes: &[u8]);
    }
}

macro_rules! element {
    ($t:ty, $variant:ident, $n:expr) => {
        impl private::Sealed for $t {
            #[inline]
            fn extend_from_be(out: &mut Vec<Self>, bytes: &[u8]) {
                // Arrays of bytes have alignment 1: the cast always succeeds.
                let words: &[[u8; $n]] = bytemuck::cast_slice(&bytes[..bytes.len() / $n * $n]);
                out.extend(words.iter().map(|&w| <$t>::from_be_bytes(w)));
            }
        }
        impl Element for $t {
            const TYPE: ElementType = ElementType::$variant;
            #[inline]
            fn from_be_slice(bytes: &[u8]) -> Self {
                let mut b = [0u8; $n];
                b.copy_from_slice(&bytes[..$n]);
                <$t>::from_be_bytes(b)
            }
            #[inline]
            fn write_be(self, out: &mut [u8]) {
                out[..$n].copy_from_slice(&self.to_be_bytes());
            }
        }
    };
}

element!(u8, U8, 1);
element!(i8, I8, 1);
element!(i16, I16, 2);
element!(i32, I32, 4);
element!(f32, F32, 4);
element!(f64, F64, 8);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_and_unknown_codes_are_rejected() {
        for t in ElementType::ALL {
            assert_eq!(ElementType::from_code(t.code()), Some(t));
            assert_eq!(ElementType::from_name(t.name()), Some(t));
        }
        let known: Vec<u8> = ElementType::ALL.iter().map(|t| t.code()).collect();
        for code in 0..=255u8 {
            assert_eq!(
                ElementType::from_code(code).is_some(),
                known.contains(&code)
            );
        }
    }

    #[test]
    fn numpys_type_strings_name_the_kind_the_size_and_the_stored_order() {
        use crate::edit::ByteOrder::{Big, Little};
        let table: Vec<_> = ElementType::ALL
            .iter()
            .map(|t| (t.numpy_dtype(Big), t.numpy_dtype(Little)))
            .collect();
        assert_eq!(
            table,
            [
                ("|u1", "|u1"),
                ("|i1", "|i1"),
                (">i2", "<i2"),
                (">i4", "<i4"),
                (">f4", "<f4"),
                (">f8", "<f8"),
            ]
        );
    }

    #[test]
    fn floats_decode_bit_exactly() {
        let nan = f32::from_bits(0x7fc0_0001);
        let mut out = [0u8; 4];
        nan.write_be(&mut out);
        assert_eq!(out, [0x7f, 0xc0, 0x00, 0x01]);
        assert_eq!(f32::from_be_slice(&out).to_bits(), 0x7fc0_0001);
        assert_eq!(i16::from_be_slice(&[0xff, 0xfe]), -2);
    }
}
