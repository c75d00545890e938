//! The first items of an image file as grey pixels, for a picture: the
//! header read by the library (`idx::__private::read_header`), the items' bytes decoded
//! by it (`idx::decode`), grey levels as `idx show` draws them (u8 as it
//! is; other types scaled together so the least value is black and the
//! greatest white). A payload the user states is little-endian
//! (`assumeByteOrder`) is read little-endian, as the library's readers read
//! it under `ReadOptions::with_byte_order`.

use idx::{ByteOrder, ElementType};
use std::io::Read;

/// At most this many bytes of items are read for a picture, whatever the
/// header says (no allocation is sized by a number read from the file).
pub const MAX_PICTURE_BYTES: u64 = 16 << 20;

/// Grey items, row-major, one after the other.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Picture {
    /// Pixels per row of an item.
    pub width: u32,
    /// Rows of an item.
    pub height: u32,
    /// Items in `pixels`.
    pub count: u32,
    /// `count * height * width` grey levels.
    pub pixels: Vec<u8>,
}

fn values(dtype: ElementType, bytes: &[u8]) -> Vec<f64> {
    match dtype {
        ElementType::U8 => idx::decode::<u8>(bytes)
            .into_iter()
            .map(f64::from)
            .collect(),
        ElementType::I8 => idx::decode::<i8>(bytes)
            .into_iter()
            .map(f64::from)
            .collect(),
        ElementType::I16 => idx::decode::<i16>(bytes)
            .into_iter()
            .map(f64::from)
            .collect(),
        ElementType::I32 => idx::decode::<i32>(bytes)
            .into_iter()
            .map(f64::from)
            .collect(),
        ElementType::F32 => idx::decode::<f32>(bytes)
            .into_iter()
            .map(f64::from)
            .collect(),
        ElementType::F64 => idx::decode::<f64>(bytes),
    }
}

/// The first `max_items` items of the stream `r` (already decompressed)
/// when they are pictures: rank 3 (`[n, rows, columns]`) or rank 2 (one
/// picture), their elements in the byte order `order` states (`None` or
/// big: as IDX says). `None` for other ranks, a header the library
/// rejects, items of more than [`MAX_PICTURE_BYTES`], or a stream that
/// ends before one whole item.
pub fn first_items(mut r: impl Read, max_items: u32, order: Option<ByteOrder>) -> Option<Picture> {
    let h = idx::__private::read_header(&mut r).ok()?;
    let (n, height, width) = match *h.dims() {
        [n, rows, cols] => (n.min(max_items), rows, cols),
        [rows, cols] => (1.min(max_items), rows, cols),
        _ => return None,
    };
    let item = u64::from(height) * u64::from(width) * h.dtype().size() as u64;
    if item == 0 || item > MAX_PICTURE_BYTES {
        return None;
    }
    let n = u64::from(n).min(MAX_PICTURE_BYTES / item);
    let mut bytes = Vec::new();
    r.take(n * item).read_to_end(&mut bytes).ok()?;
    let count = bytes.len() as u64 / item;
    if count == 0 {
        return None;
    }
    bytes.truncate((count * item) as usize);
    let size = h.dtype().size();
    if order == Some(ByteOrder::Little) && size > 1 {
        // little-endian elements: their bytes reversed, then read as IDX says
        for e in bytes.chunks_exact_mut(size) {
            e.reverse();
        }
    }
    let pixels = if h.dtype() == ElementType::U8 {
        bytes
    } else {
        let v = values(h.dtype(), &bytes);
        let finite = v.iter().copied().filter(|x| x.is_finite());
        let lo = finite.clone().fold(f64::INFINITY, f64::min);
        let hi = finite.fold(f64::NEG_INFINITY, f64::max);
        let span = if hi > lo { hi - lo } else { 1.0 };
        v.iter()
            .map(|&x| {
                if x.is_finite() {
                    ((x - lo) / span * 255.0).round() as u8
                } else {
                    0
                }
            })
            .collect()
    };
    Some(Picture {
        width,
        height,
        count: count as u32,
        pixels,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn u8_items_are_shown_as_they_are_and_others_scaled() {
        // u8, 3 items of 1x2
        let b = [
            0, 0, 8, 3, 0, 0, 0, 3, 0, 0, 0, 1, 0, 0, 0, 2, 1, 2, 3, 4, 5, 6,
        ];
        let p = first_items(&b[..], 2, None).unwrap(); // ok: unit test
        assert_eq!((p.count, p.height, p.width), (2, 1, 2));
        assert_eq!(p.pixels, [1, 2, 3, 4]);
        // i16 rank 2: scaled from -1..1 to 0..255
        let b = [
            0, 0, 0x0B, 2, 0, 0, 0, 1, 0, 0, 0, 3, 0xff, 0xff, 0, 0, 0, 1,
        ];
        let p = first_items(&b[..], 9, None).unwrap(); // ok: unit test
        assert_eq!(p.pixels, [0, 128, 255]);
        // the same values written little-endian, stated so
        let b = [
            0, 0, 0x0B, 2, 0, 0, 0, 1, 0, 0, 0, 3, 0xff, 0xff, 0, 0, 1, 0,
        ];
        let p = first_items(&b[..], 9, Some(ByteOrder::Little)).unwrap(); // ok: unit test
        assert_eq!(p.pixels, [0, 128, 255]);
    }

    #[test]
    fn no_picture_without_pictures() {
        // rank 1 (labels), a bad magic, no whole item, absurd item size
        let labels = [0, 0, 8, 1, 0, 0, 0, 1, 7];
        assert_eq!(first_items(&labels[..], 4, None), None);
        assert_eq!(first_items(&b"PK\x03\x04"[..], 4, None), None);
        let short = [0, 0, 8, 3, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 2, 1];
        assert_eq!(first_items(&short[..], 4, None), None);
        let huge = [
            0, 0, 8, 3, 0, 0, 0, 1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
        ];
        assert_eq!(first_items(&huge[..], 4, None), None);
    }
}
