//! `idx dump`, streamed: the content JSON (`{"dtype", "shape", "data"}`,
//! floats as bit patterns, byte for byte what
//! [`Content::to_json`](crate::Content::to_json) gives) written element by
//! element through a fixed buffer, so memory stays bounded whatever the
//! size of the file.

use idx::__private::fill;
use idx::{ElementType, Header};
use std::io::{self, Read, Write};

/// Bytes of payload converted per step.
const STEP: usize = 256 * 1024;

/// Writes the content JSON of the IDX stream `r` (already validated:
/// `header` is its header) to `out`, and a newline.
///
/// # Errors
/// I/O errors of either side; a stream shorter than the header says is an
/// `UnexpectedEof` error (the input changed after it was validated).
pub fn dump<R: Read + ?Sized, W: Write>(r: &mut R, header: &Header, out: &mut W) -> io::Result<()> {
    let mut skip = vec![0u8; header.header_len()];
    if fill(r, &mut skip)? < skip.len() {
        return Err(short());
    }
    let dims: Vec<String> = header.dims().iter().map(u32::to_string).collect();
    write!(
        out,
        "{{\"dtype\":\"{}\",\"shape\":[{}],\"data\":[",
        header.dtype().name(),
        dims.join(",")
    )?;
    let size = header.dtype().size();
    let mut left = header.payload_len();
    let mut buf = vec![0u8; STEP];
    let mut text = String::with_capacity(STEP * 4);
    let mut first = true;
    while left > 0 {
        let want = usize::try_from(left).map_or(STEP, |l| l.min(STEP));
        let k = fill(r, &mut buf[..want])?;
        if k < want {
            return Err(short());
        }
        left -= k as u64;
        text.clear();
        for c in buf[..k].chunks_exact(size) {
            if !first {
                text.push(',');
            }
            first = false;
            element(&mut text, header.dtype(), c);
        }
        out.write_all(text.as_bytes())?;
    }
    out.write_all(b"]}\n")?;
    out.flush()
}

fn short() -> io::Error {
    io::Error::new(
        io::ErrorKind::UnexpectedEof,
        "the input ended early (did it change after it was validated?)",
    )
}

fn element(s: &mut String, t: ElementType, c: &[u8]) {
    use std::fmt::Write as _;
    let _ = match t {
        ElementType::U8 => write!(s, "{}", c[0]),
        ElementType::I8 => write!(s, "{}", c[0] as i8),
        ElementType::I16 => write!(s, "{}", i16::from_be_bytes([c[0], c[1]])),
        ElementType::I32 => write!(s, "{}", i32::from_be_bytes([c[0], c[1], c[2], c[3]])),
        ElementType::F32 => write!(
            s,
            "\"0x{:08x}\"",
            u32::from_be_bytes([c[0], c[1], c[2], c[3]])
        ),
        ElementType::F64 => write!(
            s,
            "\"0x{:016x}\"",
            u64::from_be_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]])
        ),
    };
}
