//! What each call does, on Rust values: the C functions (`ffi`) only turn
//! pointers into these arguments and the results back into pointers.
#![forbid(unsafe_code)]

use crate::types::{IdxError, IdxHeader, IdxReadOptions, IdxStatus, OwnedArray, OwnedReport};
use std::fs::File;
use std::io::Read;
use std::path::Path;

/// The validation options for an input read with `opts`, as `idx-validate`
/// checks it: the spec's rules, the lints and the byte-order test, and the
/// file name lint when the name is known.
fn checks(opts: &IdxReadOptions, name: Option<String>) -> Result<idx::Options, IdxError> {
    Ok(opts.to_idx()?.validate.with_file_name(name))
}

fn io_error(what: &str, path: &Path, e: std::io::Error) -> IdxError {
    IdxError::new(
        IdxStatus::IdxIo,
        &format!("cannot {what} {}: {e}", path.display()),
    )
}

/// Validates the file at `path` as `idx-validate` does (its length from the
/// file system, its name for the naming lint); every finding, uncapped.
pub(crate) fn validate_path(
    path: &Path,
    opts: &IdxReadOptions,
) -> Result<Box<OwnedReport>, IdxError> {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
    let checks = checks(opts, name)?;
    let f = File::open(path).map_err(|e| io_error("open", path, e))?;
    let len = f.metadata().ok().filter(|m| m.is_file()).map(|m| m.len());
    let report =
        idx::validate_reader_len(f, len, &checks).map_err(|e| io_error("read", path, e))?;
    Ok(OwnedReport::new(&report))
}

/// Validates bytes in memory; `name`, when given, is the file name the
/// naming lint sees.
pub(crate) fn validate_bytes(
    bytes: &[u8],
    name: Option<String>,
    opts: &IdxReadOptions,
) -> Result<Box<OwnedReport>, IdxError> {
    let checks = checks(opts, name)?;
    Ok(OwnedReport::new(&idx::validate_with(bytes, &checks)))
}

/// A reader whose header is read and checked, its payload not yet. Opaque
/// to C; freed by `idx_reader_free`.
pub struct IdxReader {
    pub(crate) reader: Option<idx::Reader<Box<dyn Read>>>,
    pub(crate) header: IdxHeader,
}

impl std::fmt::Debug for IdxReader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("IdxReader")
            .field("header", &self.header)
            .field("read", &self.reader.is_none())
            .finish()
    }
}

/// Opens `source` through [`idx::Reader`] with `opts`.
pub(crate) fn open(source: Box<dyn Read>, opts: &IdxReadOptions) -> Result<IdxReader, IdxError> {
    let reader = idx::Reader::new(source, &opts.to_idx()?).map_err(IdxError::read)?;
    Ok(IdxReader {
        header: IdxHeader::new(reader.header()),
        reader: Some(reader),
    })
}

/// Opens the file at `path` through [`idx::Reader`].
pub(crate) fn open_path(path: &Path, opts: &IdxReadOptions) -> Result<IdxReader, IdxError> {
    let f = File::open(path).map_err(|e| io_error("open", path, e))?;
    open(Box::new(std::io::BufReader::new(f)), opts)
}

/// Reads the payload into `out` (exactly the header's payload length), in
/// native byte order, with the reader's verdict and its warnings (the
/// byte-order test's IDX501). A reader reads once.
pub(crate) fn read_into(r: &mut IdxReader, out: &mut [u8]) -> Result<Vec<idx::Finding>, IdxError> {
    let reader = r
        .reader
        .take()
        .ok_or_else(|| IdxError::misuse("the reader's payload was read already"))?;
    reader.read_into(out).map_err(IdxError::read)
}

/// Reads the payload into an array the library allocates as the data
/// arrives (a header that declares more than the input holds costs
/// nothing), with the reader's verdict and its warnings. A reader reads
/// once.
pub(crate) fn read_array(
    r: &mut IdxReader,
) -> Result<(Box<OwnedArray>, Vec<idx::Finding>), IdxError> {
    let reader = r
        .reader
        .take()
        .ok_or_else(|| IdxError::misuse("the reader's payload was read already"))?;
    let header = reader.header().clone();
    let (array, warnings) = reader.read_array().map_err(IdxError::read)?;
    Ok((OwnedArray::new(&header, array), warnings))
}

/// The canonical encoding of the array of type code `dtype`, dimensions
/// `dims` and elements `data` (native byte order).
pub(crate) fn encode(dtype: u32, dims: &[u32], data: &[u8]) -> Result<Vec<u8>, IdxError> {
    let t = u8::try_from(dtype)
        .ok()
        .and_then(idx::ElementType::from_code)
        .ok_or_else(|| IdxError::misuse(&format!("unknown element type {dtype:#x}")))?;
    let size = t.size();
    if data.len() % size != 0 {
        return Err(IdxError::misuse(&format!(
            "the data holds {} bytes, not a whole number of {size}-byte elements",
            data.len()
        )));
    }
    fn ne<const N: usize, T>(data: &[u8], f: fn([u8; N]) -> T) -> Vec<T> {
        data.chunks_exact(N)
            .map(|c| f(c.try_into().unwrap_or([0; N]))) // chunks of exactly N bytes
            .collect()
    }
    let values = match t {
        idx::ElementType::U8 => idx::Data::U8(data.to_vec()),
        idx::ElementType::I8 => idx::Data::I8(ne(data, i8::from_ne_bytes)),
        idx::ElementType::I16 => idx::Data::I16(ne(data, i16::from_ne_bytes)),
        idx::ElementType::I32 => idx::Data::I32(ne(data, i32::from_ne_bytes)),
        idx::ElementType::F32 => idx::Data::F32(ne(data, f32::from_ne_bytes)),
        idx::ElementType::F64 => idx::Data::F64(ne(data, f64::from_ne_bytes)),
    };
    let dims = dims.iter().map(|&d| d as usize).collect();
    let array = idx::Array::new(dims, values).map_err(|e| IdxError::misuse(&e.to_string()))?;
    idx::to_bytes(&array).map_err(IdxError::write)
}

/// Writes the canonical encoding to `path`, created or replaced
/// atomically through the toolkit's one writer (`idx_io::output`): a
/// temporary file beside it, synced, then renamed over it, so that a
/// failed write leaves an existing file as it was and no temporary file
/// behind; a replaced file keeps its permission bits.
pub(crate) fn write_path(
    path: &Path,
    dtype: u32,
    dims: &[u32],
    data: &[u8],
) -> Result<(), IdxError> {
    let bytes = encode(dtype, dims, data)?;
    idx_io::output::write(path, idx_io::output::Policy::Overwrite, &[], &bytes)
        .map_err(|e| IdxError::new(IdxStatus::IdxIo, &e.to_string()))
}
