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

/// NumPy's type string for an IDX element type, little-endian (the
/// library's one table).
fn descr(t: ElementType) -> &'static str {
    t.numpy_dtype(idx::ByteOrder::Little)
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
                idx_io::escape::path(images),
                img.items(),
                idx_io::escape::path(labels),
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

/// What a `.npy` header says.
#[derive(Debug, Clone, PartialEq, Eq)]
struct NpyInfo {
    /// The IDX element type.
    dtype: ElementType,
    /// The dimensions.
    dims: Vec<u32>,
    /// The data is little-endian.
    little: bool,
    /// The data is in Fortran (column-major) order and that differs from
    /// C order (more than one dimension over 1).
    fortran: bool,
    /// The data's offset in the file (the preamble and header's length).
    data_offset: u64,
}

/// Reads and checks a `.npy` preamble and header (and nothing more).
fn read_npy_header(r: &mut dyn Read, path: &Path) -> Result<NpyInfo, Error> {
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
    let fortran = h.order() == Order::Fortran && shape.iter().filter(|&&d| d > 1).count() > 1;
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
    Ok(NpyInfo {
        dtype: t,
        dims,
        little: ts.endianness() == Endianness::Little,
        fortran,
        data_offset: (pre_len + hlen) as u64,
    })
}

use idx::__private::fill;

/// The most bytes of one tile of a Fortran-order conversion.
pub const TILE: usize = 4 << 20;

/// Reads `buf.len()` bytes at `offset` of `file` (positioned: the file's
/// own offset is not used).
fn read_at(file: &std::fs::File, buf: &mut [u8], offset: u64) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        std::os::unix::fs::FileExt::read_exact_at(file, buf, offset)
    }
    #[cfg(not(unix))]
    {
        use std::io::Seek;
        let mut f = file;
        f.seek(std::io::SeekFrom::Start(offset))?;
        f.read_exact(buf)
    }
}

/// Writes `buf` at `offset` of `file` (positioned).
fn write_at(file: &std::fs::File, buf: &[u8], offset: u64) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        std::os::unix::fs::FileExt::write_all_at(file, buf, offset)
    }
    #[cfg(not(unix))]
    {
        use std::io::Seek;
        let mut f = file;
        f.seek(std::io::SeekFrom::Start(offset))?;
        f.write_all(buf)
    }
}

/// The Fortran-order payload of `input` (at `info.data_offset`) written
/// row-major to `out`, after the IDX header already written there: into
/// the output file itself, at its offsets, or, for standard output, into
/// an anonymous temporary file copied out afterwards.
fn from_fortran(
    input: &std::fs::File,
    info: &NpyInfo,
    header: &Header,
    out: &mut NewFile,
    from: &Path,
    to: &Path,
    progress: &mut dyn Progress,
) -> Result<(), Error> {
    let len = header.payload_len();
    let dims: Vec<u64> = info.dims.iter().map(|&d| u64::from(d)).collect();
    let size = info.dtype.size();
    let swap = info.little && size > 1;
    progress.start("converting from Fortran order (bytes)", len);
    let mut advance = |n: u64| progress.advance(n);
    let mut read = |off: u64, buf: &mut [u8]| {
        read_at(input, buf, info.data_offset + off).map_err(Error::io(from))
    };
    let base = header.header_len() as u64;
    match out.seekable_file()? {
        Some(file) => {
            let file = &*file;
            let mut write =
                |off: u64, buf: &[u8]| write_at(file, buf, base + off).map_err(Error::io(to));
            fortran_to_c(&dims, size, swap, TILE, &mut read, &mut write, &mut advance)?;
        }
        None => {
            let mut spool = tempfile::tempfile().map_err(Error::io(to))?;
            {
                let file = &spool;
                let mut write =
                    |off: u64, buf: &[u8]| write_at(file, buf, off).map_err(Error::io(to));
                fortran_to_c(&dims, size, swap, TILE, &mut read, &mut write, &mut advance)?;
            }
            std::io::Seek::rewind(&mut spool).map_err(Error::io(to))?;
            std::io::copy(&mut (&mut spool).take(len), out).map_err(Error::io(to))?;
        }
    }
    progress.finish();
    Ok(())
}

/// Rewrites a column-major (Fortran-order) payload row-major (C order), in
/// bounded memory: `read(offset, buf)` fills `buf` from the column-major
/// payload and `write(offset, buf)` writes the row-major one (offsets in
/// bytes from each payload's start; elements of `size` bytes, each
/// byte-reversed when `swap`), in tiles of at most `tile` bytes.
///
/// Axes of length 1 are dropped first (they change neither layout). With
/// `d0` the first axis, `dk` the last and `L` the product of all but the
/// last, the payload is moved in one of two tilings, whichever makes fewer
/// reads and writes:
///
/// - by the first axis: a tile is `t` consecutive values of the first index
///   for `u` consecutive rest-of-the-index positions in row-major order;
///   each position's `t` elements are one contiguous read (the first index
///   is the column-major fastest), each first index's `u` elements one
///   contiguous write (`np.asfortranarray` of MNIST's `[60000, 28, 28]`:
///   tiles of 5349 x 784);
/// - by the last axis (when `L` elements fit a tile): a tile is the whole
///   of the other axes for `u` consecutive values of the last index, one
///   contiguous read; each row-major position of the other axes gets its `u`
///   elements in one contiguous write (`np.save` of `images.T`, shape
///   `[28, 28, 60000]`: tiles of 784 x 5349).
///
/// Memory: the tile and one output row, at most `2 * tile` bytes, whatever
/// the shape.
///
/// # Errors
/// The first error of `read` or `write`.
pub(crate) fn fortran_to_c<E, R, W>(
    dims: &[u64],
    size: usize,
    swap: bool,
    tile: usize,
    read: &mut R,
    write: &mut W,
    advance: &mut dyn FnMut(u64),
) -> Result<(), E>
where
    R: FnMut(u64, &mut [u8]) -> Result<(), E>,
    W: FnMut(u64, &[u8]) -> Result<(), E>,
{
    let dims: Vec<u64> = dims.iter().copied().filter(|&d| d != 1).collect();
    let total: u64 = dims.iter().product();
    if total == 0 {
        return Ok(());
    }
    let size64 = size as u64;
    if dims.len() < 2 {
        // one axis: the same layout, copied through
        let mut buf = vec![0u8; tile.min((total * size64) as usize)];
        let mut done = 0u64;
        while done < total * size64 {
            let n = (buf.len() as u64).min(total * size64 - done) as usize;
            read(done, &mut buf[..n])?;
            if swap {
                buf[..n].chunks_exact_mut(size).for_each(<[u8]>::reverse);
            }
            write(done, &buf[..n])?;
            advance(n as u64);
            done += n as u64;
        }
        return Ok(());
    }
    let e = (tile / size).max(1) as u64; // elements in a tile
    let plan = Tiling::choose(&dims, e);
    let k = dims.len() - 1;
    let (tile_elements, row_elements) = match plan {
        Tiling::First { t, u } => (t * u, u),
        Tiling::Last { u } => (total / dims[k] * u, u),
    };
    let mut buf = vec![0u8; (tile_elements * size64) as usize];
    let mut row = vec![0u8; (row_elements * size64) as usize];
    let copy = |row: &mut [u8], j: usize, buf: &[u8], from: u64| {
        let (to, from) = (j * size, from as usize * size);
        row[to..to + size].copy_from_slice(&buf[from..from + size]);
        if swap {
            row[to..to + size].reverse();
        }
    };
    match plan {
        Tiling::First { t, u } => {
            let d0 = dims[0];
            let rest = &dims[1..];
            let p: u64 = rest.iter().product();
            let fs = fortran_strides(rest);
            for a in (0..d0).step_by(t as usize) {
                let tt = t.min(d0 - a);
                for b in (0..p).step_by(u as usize) {
                    let uu = u.min(p - b);
                    // position b of the rest, row-major, and its column-major index
                    let mut pos = Position::at(rest, &fs, b);
                    for j in 0..uu {
                        let at = (j * tt * size64) as usize;
                        read(
                            (a + d0 * pos.f) * size64,
                            &mut buf[at..at + (tt * size64) as usize],
                        )?;
                        pos.next(rest, &fs);
                    }
                    for i in 0..tt {
                        for j in 0..uu {
                            copy(&mut row, j as usize, &buf, j * tt + i);
                        }
                        write(((a + i) * p + b) * size64, &row[..(uu * size64) as usize])?;
                    }
                    advance(tt * uu * size64);
                }
            }
        }
        Tiling::Last { u } => {
            let (others, dk) = (&dims[..k], dims[k]);
            let l: u64 = others.iter().product();
            let fs = fortran_strides(others);
            for b in (0..dk).step_by(u as usize) {
                let uu = u.min(dk - b);
                read(l * b * size64, &mut buf[..(l * uu * size64) as usize])?;
                let mut pos = Position::at(others, &fs, 0);
                for c in 0..l {
                    for j in 0..uu {
                        copy(&mut row, j as usize, &buf, j * l + pos.f);
                    }
                    write((c * dk + b) * size64, &row[..(uu * size64) as usize])?;
                    pos.next(others, &fs);
                }
                advance(l * uu * size64);
            }
        }
    }
    Ok(())
}

/// The column-major strides (in elements) of `dims`: 1, d0, d0 d1, ...
fn fortran_strides(dims: &[u64]) -> Vec<u64> {
    let mut s = Vec::with_capacity(dims.len());
    let mut x = 1u64;
    for &d in dims {
        s.push(x);
        x *= d;
    }
    s
}

/// A position in an array walked in row-major order (the last index
/// fastest), with its column-major index `f`.
struct Position {
    index: Vec<u64>,
    f: u64,
}

impl Position {
    /// Row-major position `c` of `dims`.
    fn at(dims: &[u64], fs: &[u64], mut c: u64) -> Position {
        let mut index = vec![0u64; dims.len()];
        for (i, &d) in index.iter_mut().zip(dims).rev() {
            *i = c % d;
            c /= d;
        }
        let f = index.iter().zip(fs).map(|(i, s)| i * s).sum();
        Position { index, f }
    }

    /// The next position in row-major order.
    fn next(&mut self, dims: &[u64], fs: &[u64]) {
        for m in (0..dims.len()).rev() {
            self.index[m] += 1;
            self.f += fs[m];
            if self.index[m] < dims[m] {
                return;
            }
            self.f -= dims[m] * fs[m];
            self.index[m] = 0;
        }
    }
}

/// How [`fortran_to_c`] tiles a payload (see there).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tiling {
    /// `t` values of the first index by `u` row-major positions of the rest.
    First { t: u64, u: u64 },
    /// All of the other axes by `u` values of the last index.
    Last { u: u64 },
}

impl Tiling {
    /// The tiling with fewer reads and writes for `dims` (no axis of 1, at
    /// least two) and tiles of `e` elements.
    fn choose(dims: &[u64], e: u64) -> Tiling {
        let (d0, dk) = (dims[0], dims[dims.len() - 1]);
        let total: u64 = dims.iter().product();
        let p = total / d0;
        let side = e.isqrt().max(1);
        let u = p.min((e / side.min(d0)).max(1));
        let t = d0.min((e / u).max(1));
        let first = Tiling::First { t, u };
        let first_calls = d0.div_ceil(t) * p + d0 * p.div_ceil(u);
        let l = total / dk;
        if l > e {
            return first;
        }
        let u = dk.min(e / l);
        let last_calls = dk.div_ceil(u) * (1 + l);
        if last_calls < first_calls {
            Tiling::Last { u }
        } else {
            first
        }
    }
}

/// Converts a `.npy` file to IDX: dtype and shape exact (uint8, int8,
/// int16, int32, float32 and float64, in either byte order), data
/// converted to big-endian and, from Fortran (column-major) order, to
/// IDX's row-major order (in tiles: `fortran_to_c`).
///
/// # Errors
/// [`Error::Npy`] for a file this cannot read faithfully (another dtype,
/// a truncated or overlong file), I/O errors. Nothing is left at `dest` on
/// error.
///
/// # Memory
/// The header (at most [`MAX_NPY_HEADER`] bytes) and a 256 KiB buffer; in
/// Fortran order, tiles of at most 4 MiB and one output row of
/// at most as many (standard input is spooled to a temporary file, and
/// so is the output when it is standard output).
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
    let info = read_npy_header(&mut r, input)?;
    let (t, little) = (info.dtype, info.little);
    let header = Header::new(t, info.dims.clone())
        .ok_or_else(|| npy_err(input, "the array size overflows 64 bits"))?;
    let mut out = NewFile::create(dest, overwrite, &ids)?;
    out.write_all(&header.to_bytes()).map_err(Error::io(dest))?;
    let len = header.payload_len();
    if info.fortran {
        drop(r);
        let expected = info.data_offset.saturating_add(len);
        if file_len != expected {
            return Err(npy_err(
                input,
                if file_len < expected {
                    format!("the file ends before the {len} data bytes its header declares")
                } else {
                    format!(
                        "bytes follow the {len} data bytes the header declares (file of {file_len} bytes)"
                    )
                },
            ));
        }
        let file = source.rewound().map_err(Error::io(input))?;
        from_fortran(file, &info, &header, &mut out, input, dest, progress)?;
        out.commit()?;
        return Ok(header);
    }
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

    /// Row-major bytes of a column-major payload, element by element.
    fn naive(dims: &[u64], size: usize, f: &[u8]) -> Vec<u8> {
        let total: u64 = dims.iter().product();
        let mut out = Vec::new();
        if total == 0 {
            return out;
        }
        let fs = fortran_strides(dims);
        let mut pos = Position::at(dims, &fs, 0);
        for _ in 0..total {
            let at = pos.f as usize * size;
            out.extend_from_slice(&f[at..at + size]);
            pos.next(dims, &fs);
        }
        out
    }

    #[test]
    fn fortran_to_c_is_the_naive_reorder_for_every_shape_and_tile() {
        let shapes: [&[u64]; 8] = [
            &[2, 3],
            &[7, 5],
            &[3, 1, 4],
            &[5, 3, 4],
            &[2, 3, 17],
            &[17, 3, 2],
            &[2, 2, 3, 2],
            &[3, 0, 2],
        ];
        let mut tilings = std::collections::BTreeSet::new();
        for dims in shapes {
            for size in [1usize, 2, 8] {
                let total: u64 = dims.iter().product();
                let f: Vec<u8> = (0..total as usize * size)
                    .map(|i| (i % 253) as u8)
                    .collect();
                let mut want = naive(dims, size, &f);
                for tile in [1usize, 3, 16, 40, 1 << 20] {
                    let mut got = vec![0xeeu8; want.len()];
                    let mut read = |off: u64, buf: &mut [u8]| -> Result<(), ()> {
                        buf.copy_from_slice(&f[off as usize..off as usize + buf.len()]);
                        Ok(())
                    };
                    let mut write = |off: u64, buf: &[u8]| -> Result<(), ()> {
                        got[off as usize..off as usize + buf.len()].copy_from_slice(buf);
                        Ok(())
                    };
                    let mut moved = 0;
                    fortran_to_c(
                        dims,
                        size,
                        false,
                        tile * size,
                        &mut read,
                        &mut write,
                        &mut |n| moved += n,
                    )
                    .unwrap(); // ok: unit test
                    assert_eq!(got, want, "{dims:?} size {size} tile {tile}");
                    assert_eq!(moved, want.len() as u64);
                    let d: Vec<u64> = dims.iter().copied().filter(|&d| d != 1).collect();
                    if total > 0 {
                        let first = matches!(Tiling::choose(&d, tile as u64), Tiling::First { .. });
                        tilings.insert(first);
                    }
                }
                // byte-swapped elements
                if size > 1 {
                    let mut got = vec![0u8; want.len()];
                    let mut read = |off: u64, buf: &mut [u8]| -> Result<(), ()> {
                        buf.copy_from_slice(&f[off as usize..off as usize + buf.len()]);
                        Ok(())
                    };
                    let mut write = |off: u64, buf: &[u8]| -> Result<(), ()> {
                        got[off as usize..off as usize + buf.len()].copy_from_slice(buf);
                        Ok(())
                    };
                    fortran_to_c(dims, size, true, 64, &mut read, &mut write, &mut |_| {}).unwrap(); // ok: unit test
                    want.chunks_exact_mut(size).for_each(<[u8]>::reverse);
                    assert_eq!(got, want, "{dims:?} size {size} swapped");
                }
            }
        }
        assert_eq!(tilings.len(), 2, "both tilings were exercised");
    }

    #[test]
    fn the_tiling_is_the_one_with_fewer_calls() {
        let e = (TILE) as u64;
        // np.asfortranarray(mnist): by the first axis
        assert_eq!(
            Tiling::choose(&[60000, 28, 28], e),
            Tiling::First { t: 5349, u: 784 }
        );
        // np.save(mnist.T): by the last axis
        assert_eq!(
            Tiling::choose(&[28, 28, 60000], e),
            Tiling::Last { u: 5349 }
        );
        // tiny tiles still move whole elements
        assert_eq!(Tiling::choose(&[5, 3], 1), Tiling::First { t: 1, u: 1 });
    }

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
                .unwrap() // ok: unit test
                .contains("'descr': '|u1', 'fortran_order': False, 'shape': (5,), }")
        );
        assert!(
            std::str::from_utf8(&npy_header(ElementType::F64, &[])[10..])
                .unwrap() // ok: unit test
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
                let got = read_npy_header(&mut &h[..], Path::new("x")).unwrap(); // ok: unit test
                assert_eq!(
                    (got.dtype, got.dims, got.little, got.fortran),
                    (t, dims.clone(), t.size() > 1, false)
                );
                assert_eq!(got.data_offset, h.len() as u64);
            }
        }
    }
}
