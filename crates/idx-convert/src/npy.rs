//! IDX <-> NumPy `.npy` (and `.npz`: images and labels in one archive).
//!
//! IDX data is big-endian; `.npy` files are written little-endian (`<`),
//! NumPy's native order on the machines people use, or `|` for one-byte
//! types, in C order, format version 1.0 (2.0 when the header needs more
//! than 65535 bytes). Reading accepts either byte order and converts to
//! IDX's big-endian.

use crate::error::Error;
use crate::input::{read_exact, IdxInput};
use crate::output::NewFile;
use crate::{Overwrite, Progress};
use idx::{ElementType, Header};
use npyz::{DType, Endianness, NpyHeader, Order, TypeChar};
use std::io::{BufReader, Read, Write};
use std::path::Path;

/// The largest `.npy` header this reader accepts, in bytes. NumPy's own
/// reader refuses headers over 10000 bytes by default (`max_header_size`);
/// the header of any array IDX can hold is far smaller.
pub const MAX_NPY_HEADER: usize = 65536;

/// Payload chunk converted at a time (a multiple of every element size).
const CHUNK: usize = 256 << 10;

/// NumPy's type string for an IDX element type, little-endian.
fn descr(t: ElementType) -> &'static str {
    match t {
        ElementType::U8 => "|u1",
        ElementType::I8 => "|i1",
        ElementType::I16 => "<i2",
        ElementType::I32 => "<i4",
        ElementType::F32 => "<f4",
        ElementType::F64 => "<f8",
    }
}

/// The complete `.npy` header (magic, version, length, dict, padding) for a
/// C-order array, aligned to 64 bytes as NumPy writes it.
pub(crate) fn npy_header(t: ElementType, dims: &[u32]) -> Vec<u8> {
    let shape = match dims {
        [d] => format!("({d},)"),
        _ => format!(
            "({})",
            dims.iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    let dict = format!(
        "{{'descr': '{}', 'fortran_order': False, 'shape': {shape}, }}",
        descr(t)
    );
    // Version 1.0 has a 2-byte length, 2.0 a 4-byte one.
    let (version, len_bytes) = if dict.len() + 1 + 10 <= 65535 {
        (1u8, 2)
    } else {
        (2u8, 4)
    };
    let pre = 6 + 2 + len_bytes;
    let total = (pre + dict.len() + 1).div_ceil(64) * 64;
    let hlen = total - pre;
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(b"\x93NUMPY");
    out.extend_from_slice(&[version, 0]);
    if version == 1 {
        out.extend_from_slice(&(hlen as u16).to_le_bytes());
    } else {
        out.extend_from_slice(&(hlen as u32).to_le_bytes());
    }
    out.extend_from_slice(dict.as_bytes());
    out.resize(total - 1, b' ');
    out.push(b'\n');
    out
}

/// Copies `len` payload bytes of elements of `size` bytes from `r` to `w`,
/// reversing the bytes of each element (big <-> little endian) when `swap`.
#[allow(clippy::too_many_arguments)]
fn copy_swapped(
    r: &mut dyn Read,
    w: &mut dyn Write,
    len: u64,
    size: usize,
    swap: bool,
    from: &Path,
    to: &Path,
    progress: &mut dyn Progress,
) -> Result<(), Error> {
    let mut buf = vec![0u8; CHUNK];
    let mut left = len;
    while left > 0 {
        let k = (CHUNK as u64).min(left) as usize;
        let chunk = &mut buf[..k];
        read_exact(r, chunk, from)?;
        if swap && size > 1 {
            for e in chunk.chunks_exact_mut(size) {
                e.reverse();
            }
        }
        w.write_all(chunk).map_err(Error::io(to))?;
        left -= k as u64;
        progress.advance(k as u64);
    }
    Ok(())
}

/// Converts an IDX file (gzipped or not) to a `.npy` file: the same dtype
/// and shape, little-endian. The input is validated first.
///
/// # Errors
/// Any [`Error`]; nothing is left at `dest` on error.
///
/// # Memory
/// A fixed 256 KiB buffer.
pub fn to_npy(
    input: &Path,
    dest: &Path,
    overwrite: Overwrite,
    read: &idx::ReadOptions,
    progress: &mut dyn Progress,
) -> Result<Header, Error> {
    let src = IdxInput::check(input, read, progress)?;
    let ids: Vec<_> = src.identity().into_iter().collect();
    let mut out = NewFile::create(dest, overwrite, &ids)?;
    write_npy(&src, &mut out, dest, progress)?;
    out.commit()?;
    Ok(src.header)
}

fn write_npy(
    src: &IdxInput,
    out: &mut dyn Write,
    dest: &Path,
    progress: &mut dyn Progress,
) -> Result<(), Error> {
    let h = &src.header;
    out.write_all(&npy_header(h.dtype(), h.dims()))
        .map_err(Error::io(dest))?;
    let mut r = src.payload()?;
    progress.start("converting (bytes)", h.payload_len());
    copy_swapped(
        &mut r,
        out,
        h.payload_len(),
        h.dtype().size(),
        true,
        &src.path,
        dest,
        progress,
    )?;
    progress.finish();
    Ok(())
}

/// Converts an IDX pair to one `.npz` archive holding `images.npy` and
/// `labels.npy` (uncompressed, as `numpy.savez` writes; zip64 when an entry
/// needs it). Both inputs are validated first and must have the same
/// number of items.
///
/// # Errors
/// Any [`Error`]; nothing is left at `dest` on error.
pub fn to_npz(
    images: &Path,
    labels: &Path,
    dest: &Path,
    overwrite: Overwrite,
    read: &idx::ReadOptions,
    progress: &mut dyn Progress,
) -> Result<(Header, Header), Error> {
    let img = IdxInput::check(images, read, progress)?;
    let lab = IdxInput::check(labels, read, progress)?;
    if img.items() != lab.items() || lab.header.rank() == 0 || img.header.rank() == 0 {
        return Err(Error::Mismatch {
            reason: format!(
                "{} holds {} items but {} holds {}; nothing was written",
                crate::shown(images),
                img.items(),
                crate::shown(labels),
                lab.items()
            ),
        });
    }
    let ids: Vec<_> = [img.identity(), lab.identity()]
        .into_iter()
        .flatten()
        .collect();
    let mut out = NewFile::create(dest, overwrite, &ids)?;
    let dest = out.dest().to_path_buf();
    let tmp = out.seekable()?;
    let zerr = |e: zip::result::ZipError| match e {
        zip::result::ZipError::Io(source) => Error::Io {
            path: dest.clone(),
            source,
        },
        e => Error::Io {
            path: dest.clone(),
            source: std::io::Error::other(e),
        },
    };
    let mut zip = zip::ZipWriter::new(tmp);
    for (name, src) in [("images.npy", &img), ("labels.npy", &lab)] {
        let size = src.header.payload_len() + 128 + 4 * 255;
        let opts = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Stored)
            .large_file(size >= u64::from(u32::MAX));
        zip.start_file(name, opts).map_err(zerr)?;
        write_npy(src, &mut zip, &dest, progress)?;
    }
    zip.finish().map_err(zerr)?;
    out.commit()?;
    Ok((img.header, lab.header))
}

fn npy_err(path: &Path, reason: impl Into<String>) -> Error {
    Error::Npy {
        path: path.into(),
        reason: reason.into(),
    }
}

/// Reads and checks a `.npy` preamble and header: returns the IDX element
/// type, the dimensions and whether the data is little-endian.
fn read_npy_header(r: &mut dyn Read, path: &Path) -> Result<(ElementType, Vec<u32>, bool), Error> {
    let mut pre = [0u8; 12];
    let got = fill(r, &mut pre[..10]).map_err(Error::io(path))?;
    if got < 10 || &pre[..6] != b"\x93NUMPY" {
        return Err(npy_err(path, "not a .npy file (no \\x93NUMPY magic)"));
    }
    let (major, minor) = (pre[6], pre[7]);
    let (pre_len, hlen) = match major {
        1 => (10, usize::from(u16::from_le_bytes([pre[8], pre[9]]))),
        2 | 3 => {
            read_exact(r, &mut pre[10..12], path)
                .map_err(|_| npy_err(path, "the file ends inside the header length"))?;
            (
                12,
                u32::from_le_bytes([pre[8], pre[9], pre[10], pre[11]]) as usize,
            )
        }
        _ => {
            return Err(npy_err(
                path,
                format!("unknown .npy format version {major}.{minor}"),
            ))
        }
    };
    if hlen > MAX_NPY_HEADER {
        return Err(npy_err(
            path,
            format!("header of {hlen} bytes; at most {MAX_NPY_HEADER} are accepted"),
        ));
    }
    // Bounded by MAX_NPY_HEADER above.
    let mut all = pre[..pre_len].to_vec();
    all.resize(pre_len + hlen, 0);
    let got = fill(r, &mut all[pre_len..]).map_err(Error::io(path))?;
    if got < hlen {
        return Err(npy_err(
            path,
            format!("the file ends inside the header ({got} of {hlen} bytes)"),
        ));
    }
    let h = NpyHeader::from_reader(&all[..])
        .map_err(|e| npy_err(path, format!("unreadable header: {e}")))?;
    let DType::Plain(ts) = h.dtype() else {
        return Err(npy_err(
            path,
            "structured or sub-array dtype: IDX holds plain numbers",
        ));
    };
    let t = match (ts.type_char(), ts.size_field()) {
        (TypeChar::Uint, 1) => ElementType::U8,
        (TypeChar::Int, 1) => ElementType::I8,
        (TypeChar::Int, 2) => ElementType::I16,
        (TypeChar::Int, 4) => ElementType::I32,
        (TypeChar::Float, 4) => ElementType::F32,
        (TypeChar::Float, 8) => ElementType::F64,
        _ => {
            return Err(npy_err(
                path,
                format!(
                    "dtype {ts} has no IDX element type (IDX has uint8, int8, int16, int32, \
                     float32, float64); convert with numpy's astype first"
                ),
            ))
        }
    };
    let shape = h.shape();
    if h.order() == Order::Fortran && shape.iter().filter(|&&d| d > 1).count() > 1 {
        return Err(npy_err(
            path,
            "Fortran-order array: IDX is row-major; save numpy.ascontiguousarray(a) instead",
        ));
    }
    if shape.len() > 255 {
        return Err(npy_err(
            path,
            format!("rank {}: IDX holds at most 255 dimensions", shape.len()),
        ));
    }
    let dims = shape
        .iter()
        .map(|&d| u32::try_from(d))
        .collect::<Result<Vec<u32>, _>>()
        .map_err(|_| npy_err(path, "a dimension over 2^32 - 1 (IDX dimensions are u32)"))?;
    Ok((t, dims, ts.endianness() == Endianness::Little))
}

use idx::input::fill;

/// Converts a `.npy` file to IDX: dtype and shape exact (uint8, int8,
/// int16, int32, float32 and float64, in either byte order; C order, or
/// Fortran order when it is the same layout), data converted to
/// big-endian.
///
/// # Errors
/// [`Error::Npy`] for a file this cannot read faithfully (another dtype,
/// Fortran order, a truncated or overlong file), I/O errors. Nothing is
/// left at `dest` on error.
///
/// # Memory
/// The header (at most [`MAX_NPY_HEADER`] bytes) and a 256 KiB buffer.
pub fn from_npy(
    input: &Path,
    dest: &Path,
    overwrite: Overwrite,
    progress: &mut dyn Progress,
) -> Result<Header, Error> {
    let mut source = idx_io::Input::open(input).map_err(Error::io(input))?;
    let file_len = source.len().map_err(Error::io(input))?;
    let ids: Vec<_> = source.identity().into_iter().collect();
    let mut r = BufReader::with_capacity(CHUNK, source.rewound().map_err(Error::io(input))?);
    let (t, dims, little) = read_npy_header(&mut r, input)?;
    let header =
        Header::new(t, dims).ok_or_else(|| npy_err(input, "the array size overflows 64 bits"))?;
    let mut out = NewFile::create(dest, overwrite, &ids)?;
    out.write_all(&header.to_bytes()).map_err(Error::io(dest))?;
    let len = header.payload_len();
    progress.start("converting (bytes)", len);
    copy_swapped(
        &mut r,
        &mut out,
        len,
        t.size(),
        little,
        input,
        dest,
        progress,
    )
    .map_err(|e| match e {
        Error::Changed { .. } => npy_err(
            input,
            format!("the file ends before the {len} data bytes its header declares"),
        ),
        e => e,
    })?;
    progress.finish();
    let mut probe = [0u8; 1];
    if fill(&mut r, &mut probe).map_err(Error::io(input))? > 0 {
        return Err(npy_err(
            input,
            format!(
                "bytes follow the {len} data bytes the header declares (file of {file_len} bytes)"
            ),
        ));
    }
    out.commit()?;
    Ok(header)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_is_numpys() {
        // What numpy 2 writes for np.zeros((2, 3), '<i2'): 128 bytes in all.
        let h = npy_header(ElementType::I16, &[2, 3]);
        assert_eq!(h.len() % 64, 0);
        assert_eq!(&h[..10], b"\x93NUMPY\x01\x00\x76\x00");
        let text = std::str::from_utf8(&h[10..]).unwrap(); // ASCII by construction
        assert!(text.starts_with("{'descr': '<i2', 'fortran_order': False, 'shape': (2, 3), }"));
        assert!(text.ends_with(" \n"));
        assert!(
            std::str::from_utf8(&npy_header(ElementType::U8, &[5])[10..])
                .unwrap()
                .contains("'descr': '|u1', 'fortran_order': False, 'shape': (5,), }")
        );
        assert!(
            std::str::from_utf8(&npy_header(ElementType::F64, &[])[10..])
                .unwrap()
                .contains("'shape': (), }")
        );
    }

    #[test]
    fn header_round_trips_through_the_reader() {
        for t in [
            ElementType::U8,
            ElementType::I8,
            ElementType::I16,
            ElementType::I32,
            ElementType::F32,
            ElementType::F64,
        ] {
            for dims in [vec![], vec![7], vec![3, 0, 2], vec![60000, 28, 28]] {
                let h = npy_header(t, &dims);
                let got = read_npy_header(&mut &h[..], Path::new("x")).unwrap();
                assert_eq!(got, (t, dims.clone(), t.size() > 1));
            }
        }
    }
}
