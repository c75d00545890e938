//! The first items of an image file as grey pixels, for a picture, read
//! as `idx show` reads them: through the library's one way in
//! ([`idx::Reader::validate`] with the run's own reading options: its
//! decompression limit, `noDecompress`, the byte order it states), then
//! the payload of the input validated ([`idx::Validated::payload`]), whose
//! elements come big-endian (a payload stated little-endian is swapped by
//! the library), decoded by it (`idx::decode`). An input the library finds
//! an error in gives no picture. Grey levels are as `idx show` draws them
//! (u8 as it is; other types scaled together so the least value is black
//! and the greatest white).

use idx::{ElementType, Header, ReadOptions};
use std::io::{self, Read};

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

/// The first `max_items` items of the input that `open` gives (each call:
/// the same `len` bytes from their start, plain or gzip), read as `opts`
/// say: validated by the library, then read through its payload, as
/// `idx show` reads an input. `None` when the library finds an error (a
/// gzip stream past `opts`' decompression limit, gzip with decompression
/// off, the byte-order test's warning made an error by `opts`'
/// severities...), and as [`first_items`] says. The library decides alone:
/// a run's `select`/`ignore` hide findings from its report, not from the
/// library, so a file whose only error the run ignores has no picture.
///
/// # Errors
/// The source's I/O errors, and an input that changed between the two
/// reads.
pub fn read<R: Read>(
    mut open: impl FnMut() -> R,
    len: u64,
    max_items: u32,
    opts: &ReadOptions,
) -> io::Result<Option<Picture>> {
    let (_, validated) = idx::Reader::validate(open(), Some(len), opts)?;
    let Some(v) = validated else {
        return Ok(None);
    };
    let payload = v.payload(open()).map_err(|e| match e {
        idx::ReadError::Io(e) => e,
        other => io::Error::new(io::ErrorKind::InvalidData, other.to_string()),
    })?;
    Ok(first_items(v.header(), payload, max_items))
}

/// The first `max_items` items of `payload` (the payload of `h`, its
/// elements big-endian, as [`idx::Payload`] gives them) when they are
/// pictures: rank 3 (`[n, rows, columns]`) or rank 2 (one picture). `None`
/// for other ranks, items of more than [`MAX_PICTURE_BYTES`], or a payload
/// that ends (or fails) before one whole item.
pub fn first_items(h: &Header, payload: impl Read, max_items: u32) -> Option<Picture> {
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
    payload.take(n * item).read_to_end(&mut bytes).ok()?;
    let count = bytes.len() as u64 / item;
    if count == 0 {
        return None;
    }
    bytes.truncate((count * item) as usize);
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

    /// The picture of `file` under the run's options `json` (the page's).
    fn picture_of(file: &[u8], max_items: u32, json: &str) -> Option<Picture> {
        let opts = crate::options::parse(json).unwrap().read_options(); // ok: unit test
        read(|| file, file.len() as u64, max_items, &opts).unwrap() // ok: unit test
    }

    #[test]
    fn u8_items_are_shown_as_they_are_and_others_scaled() {
        // u8, 3 items of 1x2
        let b = [
            0, 0, 8, 3, 0, 0, 0, 3, 0, 0, 0, 1, 0, 0, 0, 2, 1, 2, 3, 4, 5, 6,
        ];
        let p = picture_of(&b, 2, "{}").unwrap(); // ok: unit test
        assert_eq!((p.count, p.height, p.width), (2, 1, 2));
        assert_eq!(p.pixels, [1, 2, 3, 4]);
        // i16 rank 2: scaled from -1..1 to 0..255
        let b = [
            0, 0, 0x0B, 2, 0, 0, 0, 1, 0, 0, 0, 3, 0xff, 0xff, 0, 0, 0, 1,
        ];
        let p = picture_of(&b, 9, "{}").unwrap(); // ok: unit test
        assert_eq!((p.count, p.height, p.width), (1, 1, 3));
        assert_eq!(p.pixels, [0, 128, 255]);
        // the payload as the library gives it, with its header
        let h = Header::new(ElementType::I16, vec![1, 3]).unwrap(); // ok: unit test
        let p = first_items(&h, &b[12..], 9).unwrap(); // ok: unit test
        assert_eq!(p.pixels, [0, 128, 255]);
    }

    #[test]
    fn a_payload_stated_little_endian_is_read_little_endian_once() {
        // i16 [1, 3]: -1, 0, 1 written little-endian, stated so: the
        // library swaps them (and only it: swapped twice, 0, 1, -1 would be
        // 0x0100 = 256 and draw otherwise)
        let b = [
            0, 0, 0x0B, 2, 0, 0, 0, 1, 0, 0, 0, 3, 0xff, 0xff, 0, 0, 1, 0,
        ];
        let p = picture_of(&b, 9, r#"{"assumeByteOrder":"little"}"#).unwrap(); // ok: unit test
        assert_eq!(p.pixels, [0, 128, 255]);
        // stated big, the same bytes are read as IDX says: -1, 0, 256
        let p = picture_of(&b, 9, r#"{"assumeByteOrder":"big"}"#).unwrap(); // ok: unit test
        assert_eq!(p.pixels, [0, 1, 255]);
    }

    #[test]
    fn an_error_the_run_ignores_still_stops_the_picture() {
        // u8 [2, 2, 2] and one byte after the payload (IDX203): the run may
        // ignore the rule, the library still refuses the file's payload
        let mut b = vec![0, 0, 8, 3, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 2];
        b.extend(1..=8u8);
        assert!(picture_of(&b, 2, "{}").is_some());
        b.push(9);
        assert_eq!(picture_of(&b, 2, "{}"), None);
        assert_eq!(picture_of(&b, 2, r#"{"ignore":["IDX203"]}"#), None);
    }

    #[test]
    fn a_payload_the_run_calls_little_endian_in_error_has_no_picture() {
        // i16 [64, 8, 8] whose values (0..4096) read little-endian: the
        // byte-order test's warning, made an error by the run's severities:
        // the library reads no payload of it, so no picture
        let mut b = vec![0, 0, 0x0B, 3, 0, 0, 0, 64, 0, 0, 0, 8, 0, 0, 0, 8];
        for i in 0..64 * 64u16 {
            b.extend_from_slice(&i.to_le_bytes());
        }
        let p = picture_of(&b, 4, "{}").unwrap(); // ok: unit test
        assert_eq!((p.count, p.height, p.width), (4, 8, 8));
        assert_eq!(
            picture_of(&b, 4, r#"{"severity":{"IDX501":"error"}}"#),
            None
        );
        // stated little, it is drawn: its first item rises from black
        let p = picture_of(&b, 1, r#"{"assumeByteOrder":"little"}"#).unwrap(); // ok: unit test
        assert_eq!((p.pixels[0], p.pixels[63]), (0, 255));
    }

    #[test]
    fn gzip_is_read_within_the_runs_limit_and_decompression() {
        // u8 [2, 28, 28]: 1584 bytes decompressed
        let mut raw = vec![0, 0, 8, 3, 0, 0, 0, 2, 0, 0, 0, 28, 0, 0, 0, 28];
        raw.extend((0..2 * 28 * 28).map(|i| (i % 251) as u8));
        let gz = test_support::gzip(&raw);
        let p = picture_of(&gz, 16, "{}").unwrap(); // ok: unit test
        assert_eq!((p.count, p.height, p.width), (2, 28, 28));
        assert_eq!(p.pixels, raw[16..]);
        // past the run's limit (IDX702): no picture, not the default
        // limit's picture
        assert_eq!(picture_of(&gz, 16, r#"{"maxDecompressed":"1KiB"}"#), None);
        assert!(picture_of(&gz, 16, r#"{"maxDecompressed":"2KiB"}"#).is_some());
        // not decompressed (IDX402): no picture
        assert_eq!(picture_of(&gz, 16, r#"{"noDecompress":true}"#), None);
        // the limit is gzip's alone
        assert!(picture_of(&raw, 16, r#"{"maxDecompressed":"1KiB"}"#).is_some());
    }

    #[test]
    fn no_picture_without_pictures() {
        // rank 1 (labels), a bad magic, no whole item, absurd item size
        let labels = [0, 0, 8, 1, 0, 0, 0, 1, 7];
        assert_eq!(picture_of(&labels, 4, "{}"), None);
        assert_eq!(picture_of(b"PK\x03\x04", 4, "{}"), None);
        let short = [0, 0, 8, 3, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 2, 1];
        assert_eq!(picture_of(&short, 4, "{}"), None);
        let huge = [
            0, 0, 8, 3, 0, 0, 0, 1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
        ];
        assert_eq!(picture_of(&huge, 4, "{}"), None);
        // items larger than the bound are never read, whatever the header
        let h = Header::new(ElementType::U8, vec![1, u32::MAX, u32::MAX]).unwrap(); // ok: unit test
        assert_eq!(first_items(&h, std::io::repeat(1), 4), None);
        // a payload that ends before one whole item
        let h = Header::new(ElementType::U8, vec![1, 2, 2]).unwrap(); // ok: unit test
        assert_eq!(first_items(&h, &[1u8, 2, 3][..], 4), None);
    }
}
