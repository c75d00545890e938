//! The exported C functions: each turns C's pointers into Rust values,
//! runs its body (`work`) under `catch_unwind`, and hands the results back
//! as pointers the caller frees with the matching `idx_*_free`.
//!
//! The only `unsafe` of the crate is here (its manifest says why), each
//! block with the hazard it rules out. The contract every pointer argument
//! shares, stated once in the header: a pointer is NULL or valid for what
//! its type says; a buffer pointer is valid for its length; what the
//! library returned is handed back to it only once.
#![allow(unsafe_code)]

use crate::types::{
    IdxArray, IdxBytes, IdxError, IdxFinding, IdxFindings, IdxHeader, IdxReadOptions, IdxReport,
    IdxStatus, OwnedArray, OwnedFindings, OwnedReport,
};
use crate::work::{self, IdxReader};
use std::ffi::{c_char, c_void, CStr};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;

/// Runs `body` so that nothing unwinds into C: its error, or a panic's,
/// goes to `*err` when the caller asked for it.
fn guard(err: *mut *mut IdxError, body: impl FnOnce() -> Result<(), IdxError>) -> IdxStatus {
    if !err.is_null() {
        // SAFETY: `err` is not NULL and, by the header's contract, points to
        // writable storage for one pointer; nothing is read through it.
        unsafe { *err = std::ptr::null_mut() };
    }
    let outcome = match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => return IdxStatus::IdxOk,
        Ok(Err(e)) => e,
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            IdxError::new(
                IdxStatus::IdxPanic,
                &format!("internal error: the library panicked: {what}"),
            )
        }
    };
    let status = outcome.status;
    if !err.is_null() {
        // SAFETY: as above; the box is handed over to the caller, who frees
        // it with idx_error_free (the only place it is turned back into a box).
        unsafe { *err = Box::into_raw(Box::new(outcome)) };
    }
    status
}

fn misuse(what: &str) -> IdxError {
    IdxError::misuse(&format!("{what} is NULL"))
}

/// A path from a NUL-terminated string: its bytes as they are on Unix.
///
/// # Safety
/// `path` is NULL or points to a NUL-terminated string.
unsafe fn path_arg(path: *const c_char) -> Result<PathBuf, IdxError> {
    if path.is_null() {
        return Err(misuse("path"));
    }
    // SAFETY: not NULL, and NUL-terminated by this function's contract, so
    // CStr::from_ptr reads within the string.
    let bytes = unsafe { CStr::from_ptr(path) }.to_bytes();
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        Ok(PathBuf::from(std::ffi::OsStr::from_bytes(bytes)))
    }
    #[cfg(not(unix))]
    {
        std::str::from_utf8(bytes)
            .map(PathBuf::from)
            .map_err(|_| IdxError::misuse("path is not UTF-8"))
    }
}

/// The caller's options, or the default for NULL.
///
/// # Safety
/// `opts` is NULL or points to an `IdxReadOptions`.
unsafe fn options_arg(opts: *const IdxReadOptions) -> IdxReadOptions {
    if opts.is_null() {
        IdxReadOptions::new()
    } else {
        // SAFETY: not NULL, and a valid IdxReadOptions by this function's
        // contract; its fields are plain integers and a bool, so any value C
        // stores (0 or 1 for bool) is a valid Rust value. Copied out.
        unsafe { *opts }
    }
}

/// `len` bytes at `data` as a slice; NULL is the empty slice when `len` is 0.
///
/// # Safety
/// `data` is NULL or valid for reads of `len` bytes for `'a`, not written
/// meanwhile.
unsafe fn bytes_arg<'a>(data: *const c_void, len: usize) -> Result<&'a [u8], IdxError> {
    if data.is_null() {
        return if len == 0 {
            Ok(&[])
        } else {
            Err(misuse("data"))
        };
    }
    // SAFETY: not NULL, valid for `len` bytes and unchanged for 'a by this
    // function's contract; u8 has no alignment or validity requirement.
    Ok(unsafe { std::slice::from_raw_parts(data.cast::<u8>(), len) })
}

/// Stores `value` at `out`, handing it to the caller.
///
/// # Safety
/// `out` is not NULL and points to writable storage for one `T`.
unsafe fn put<T>(out: *mut T, value: T) {
    // SAFETY: by this function's contract; the old value is a pointer or
    // plain data and is not dropped.
    unsafe { out.write(value) }
}

/// The version of the library, e.g. `"0.1.0"` (static; never freed).
#[no_mangle]
pub extern "C" fn idx_version() -> *const c_char {
    c"0.1.0".as_ptr()
}

/// The default read options: gzip decompressed up to 64 GiB, the byte
/// order decided by the byte-order test.
#[no_mangle]
pub extern "C" fn idx_read_options_default() -> IdxReadOptions {
    IdxReadOptions::new()
}

/// Validates the file at `path` as `idx-validate` does with `opts` (NULL:
/// the defaults, as `idx-validate FILE`), every finding uncapped. On
/// `IDX_OK`, `*out` is the report (free it with `idx_report_free`); the
/// verdict is in the report, not in the status: an invalid file is
/// `IDX_OK` with `IDX_VERDICT_INVALID`. `IDX_IO` when the file cannot be
/// read.
///
/// # Safety
/// `path` is a NUL-terminated string; `opts` is NULL or an
/// `IdxReadOptions`; `out` points to storage for a pointer; `err` is NULL
/// or points to storage for a pointer.
#[no_mangle]
pub unsafe extern "C" fn idx_validate_file(
    path: *const c_char,
    opts: *const IdxReadOptions,
    out: *mut *mut IdxReport,
    err: *mut *mut IdxError,
) -> IdxStatus {
    guard(err, || {
        if out.is_null() {
            return Err(misuse("out"));
        }
        // SAFETY: `out` is not NULL and points to storage for a pointer
        // (this function's contract); cleared first so that a failure leaves
        // no stale pointer for the caller to free.
        unsafe { put(out, std::ptr::null_mut()) };
        // SAFETY: this function's contract on `path` and `opts`.
        let (path, opts) = unsafe { (path_arg(path)?, options_arg(opts)) };
        let report = work::validate_path(&path, &opts)?;
        // SAFETY: as above; the pointer is to the box's first field (repr(C)
        // OwnedReport), turned back into the box by idx_report_free alone.
        unsafe { put(out, Box::into_raw(report).cast::<IdxReport>()) };
        Ok(())
    })
}

/// Validates `len` bytes at `data` (gzip included, as `opts` says; NULL:
/// the defaults); `name`, when not NULL, is the file name the naming lint
/// (IDX503) sees. As `idx_validate_file` otherwise.
///
/// # Safety
/// `data` is valid for `len` bytes (or NULL with `len` 0) during the call;
/// `name` is NULL or a NUL-terminated string; `opts`, `out`, `err` as for
/// `idx_validate_file`.
#[no_mangle]
pub unsafe extern "C" fn idx_validate_buffer(
    data: *const u8,
    len: usize,
    name: *const c_char,
    opts: *const IdxReadOptions,
    out: *mut *mut IdxReport,
    err: *mut *mut IdxError,
) -> IdxStatus {
    guard(err, || {
        if out.is_null() {
            return Err(misuse("out"));
        }
        // SAFETY: `out` is not NULL and points to storage for a pointer.
        unsafe { put(out, std::ptr::null_mut()) };
        // SAFETY: this function's contract: `data` is valid for `len` bytes
        // for the call; `name` is NULL or NUL-terminated; `opts` is NULL or
        // an IdxReadOptions.
        let (bytes, opts) = unsafe { (bytes_arg(data.cast(), len)?, options_arg(opts)) };
        let name = if name.is_null() {
            None
        } else {
            // SAFETY: not NULL, so NUL-terminated by the contract.
            let name = unsafe { CStr::from_ptr(name) };
            Some(name.to_string_lossy().into_owned())
        };
        let report = work::validate_bytes(bytes, name, &opts)?;
        // SAFETY: as in idx_validate_file.
        unsafe { put(out, Box::into_raw(report).cast::<IdxReport>()) };
        Ok(())
    })
}

/// Frees a report (NULL: nothing).
///
/// # Safety
/// `report` is NULL or a report from `idx_validate_*` not freed yet.
#[no_mangle]
pub unsafe extern "C" fn idx_report_free(report: *mut IdxReport) {
    // SAFETY: a report pointer is the first field of a boxed repr(C)
    // OwnedReport made by Box::into_raw (idx_validate_*), not freed yet by
    // this function's contract.
    unsafe { free_box(report.cast::<OwnedReport>()) }
}

/// Gives `ptr` (NULL: nothing) back to the box it was leaked from and
/// drops it, never unwinding into C (a panicking destructor is caught and
/// the memory leaked).
///
/// # Safety
/// `ptr` is NULL or was made by `Box::into_raw` of a `Box<T>` and is not
/// freed yet: the box is rebuilt once.
unsafe fn free_box<T>(ptr: *mut T) {
    if ptr.is_null() {
        return;
    }
    let _ = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: this function's contract.
        drop(unsafe { Box::from_raw(ptr) });
    }));
}

/// Opens the file at `path` for reading through the library's `Reader`
/// with `opts` (NULL: the defaults): gzip is recognised by its magic and
/// decompressed within the limit, and the header is read and checked. On
/// `IDX_OK`, `*out` is the reader (free it with `idx_reader_free`);
/// `IDX_INVALID` with the finding when the header breaks a rule.
///
/// # Safety
/// As `idx_validate_file`, with `out` storage for an `IdxReader *`.
#[no_mangle]
pub unsafe extern "C" fn idx_reader_open_file(
    path: *const c_char,
    opts: *const IdxReadOptions,
    out: *mut *mut IdxReader,
    err: *mut *mut IdxError,
) -> IdxStatus {
    guard(err, || {
        if out.is_null() {
            return Err(misuse("out"));
        }
        // SAFETY: `out` is not NULL and points to storage for a pointer.
        unsafe { put(out, std::ptr::null_mut()) };
        // SAFETY: this function's contract on `path` and `opts`.
        let (path, opts) = unsafe { (path_arg(path)?, options_arg(opts)) };
        let reader = work::open_path(&path, &opts)?;
        // SAFETY: as above; freed by idx_reader_free alone.
        unsafe { put(out, Box::into_raw(Box::new(reader))) };
        Ok(())
    })
}

/// Opens `len` bytes at `data` for reading, as `idx_reader_open_file`. The
/// reader reads them in place: they must stay valid and unchanged until
/// the reader is freed.
///
/// # Safety
/// `data` is valid for `len` bytes (or NULL with `len` 0), unchanged until
/// `idx_reader_free`; `opts`, `out`, `err` as for `idx_reader_open_file`.
#[no_mangle]
pub unsafe extern "C" fn idx_reader_open_buffer(
    data: *const u8,
    len: usize,
    opts: *const IdxReadOptions,
    out: *mut *mut IdxReader,
    err: *mut *mut IdxError,
) -> IdxStatus {
    guard(err, || {
        if out.is_null() {
            return Err(misuse("out"));
        }
        // SAFETY: `out` is not NULL and points to storage for a pointer.
        unsafe { put(out, std::ptr::null_mut()) };
        let bytes: &'static [u8];
        let opts =
            // SAFETY: this function's contract: the bytes stay valid and
            // unchanged until idx_reader_free drops the reader that borrows
            // them, which is as long as the 'static slice is used; `opts` is
            // NULL or an IdxReadOptions.
            unsafe {
                bytes = bytes_arg(data.cast(), len)?;
                options_arg(opts)
            };
        let reader = work::open(Box::new(bytes), &opts)?;
        // SAFETY: as above; freed by idx_reader_free alone.
        unsafe { put(out, Box::into_raw(Box::new(reader))) };
        Ok(())
    })
}

/// The header a reader read and checked (owned by the reader), or NULL
/// for a NULL reader.
///
/// # Safety
/// `reader` is NULL or a reader not freed yet.
#[no_mangle]
pub unsafe extern "C" fn idx_reader_header(reader: *const IdxReader) -> *const IdxHeader {
    if reader.is_null() {
        return std::ptr::null();
    }
    // SAFETY: not NULL and a live reader by the contract; only the address
    // of a field is taken, nothing is read or written.
    unsafe { &raw const (*reader).header }
}

/// Clears `*findings` when the caller asked for a read's warnings, so that
/// a failure leaves no stale pointer to free.
///
/// # Safety
/// `findings` is NULL or points to storage for a pointer.
unsafe fn clear_findings(findings: *mut *mut IdxFindings) {
    if !findings.is_null() {
        // SAFETY: not NULL, so storage for a pointer (the contract).
        unsafe { put(findings, std::ptr::null_mut()) };
    }
}

/// Hands a successful read's warnings to the caller when asked (`findings`
/// not NULL); otherwise they are dropped here.
///
/// # Safety
/// `findings` is NULL or points to storage for a pointer.
unsafe fn put_findings(findings: *mut *mut IdxFindings, warnings: &[idx::Finding]) {
    if !findings.is_null() {
        let owned = OwnedFindings::new(warnings);
        // SAFETY: not NULL, so storage for a pointer (the contract); the
        // pointer is to the box's first field (repr(C) OwnedFindings),
        // turned back into the box by idx_findings_free alone.
        unsafe { put(findings, Box::into_raw(owned).cast::<IdxFindings>()) };
    }
}

/// Reads the payload into `out`, which holds exactly the header's
/// `payload_len` bytes, as native-endian elements: the input must end
/// there and pass the byte-order verdict. `IDX_INVALID` with the finding
/// (IDX202 truncated, IDX203 trailing bytes, IDX501 made an error, IDX701,
/// IDX702...), `IDX_MISUSE` for a buffer of another size or a second read.
/// A reader reads once; free it afterwards in any case.
///
/// On `IDX_OK`, when `findings` is not NULL, `*findings` holds the read's
/// warnings (free them with `idx_findings_free`; empty when there is
/// none): the byte-order test's IDX501 when it calls the payload
/// little-endian, which validation reports too. The elements are read as
/// IDX says all the same, so a caller that passes NULL reads a payload the
/// test suspects without being told. On failure `*findings` is NULL.
///
/// # Safety
/// `reader` is a reader not freed yet, used by one thread at a time;
/// `out` is valid for writes of `out_len` bytes (or NULL with 0);
/// `findings` is NULL or points to storage for a pointer; `err` as for
/// `idx_validate_file`.
#[no_mangle]
pub unsafe extern "C" fn idx_reader_read_into(
    reader: *mut IdxReader,
    out: *mut c_void,
    out_len: usize,
    findings: *mut *mut IdxFindings,
    err: *mut *mut IdxError,
) -> IdxStatus {
    guard(err, || {
        // SAFETY: this function's contract on `findings`.
        unsafe { clear_findings(findings) };
        if reader.is_null() {
            return Err(misuse("reader"));
        }
        let out: &mut [u8] = if out.is_null() {
            if out_len != 0 {
                return Err(misuse("out"));
            }
            &mut []
        } else {
            // SAFETY: not NULL, valid for writes of `out_len` bytes by the
            // contract, and not aliased by the reader (the caller's memory);
            // u8 has no alignment or validity requirement.
            unsafe { std::slice::from_raw_parts_mut(out.cast::<u8>(), out_len) }
        };
        // SAFETY: a live reader used by this thread alone (the contract):
        // the one reference to it for the call.
        let reader = unsafe { &mut *reader };
        let warnings = work::read_into(reader, out)?;
        // SAFETY: this function's contract on `findings`.
        unsafe { put_findings(findings, &warnings) };
        Ok(())
    })
}

/// Reads the payload into an array the library allocates as the data
/// arrives, so that a header declaring more than the input holds costs
/// nothing: for a caller that does not want to trust the header's size.
/// As `idx_reader_read_into` otherwise, warnings included. On `IDX_OK`,
/// `*out` is the array (free it with `idx_array_free`).
///
/// # Safety
/// `reader` is a reader not freed yet, used by one thread at a time;
/// `out` points to storage for a pointer; `findings` is NULL or points to
/// storage for a pointer; `err` as for `idx_validate_file`.
#[no_mangle]
pub unsafe extern "C" fn idx_reader_read_array(
    reader: *mut IdxReader,
    out: *mut *mut IdxArray,
    findings: *mut *mut IdxFindings,
    err: *mut *mut IdxError,
) -> IdxStatus {
    guard(err, || {
        // SAFETY: this function's contract on `findings`.
        unsafe { clear_findings(findings) };
        if reader.is_null() {
            return Err(misuse("reader"));
        }
        if out.is_null() {
            return Err(misuse("out"));
        }
        // SAFETY: `out` is not NULL and points to storage for a pointer.
        unsafe { put(out, std::ptr::null_mut()) };
        // SAFETY: a live reader used by this thread alone (the contract):
        // the one reference to it for the call.
        let reader = unsafe { &mut *reader };
        let (array, warnings) = work::read_array(reader)?;
        // SAFETY: this function's contract on `findings`; then as above:
        // the pointer is to the box's first field (repr(C) OwnedArray),
        // turned back into the box by idx_array_free alone. (The warnings
        // first: nothing after them can fail, so the caller never gets an
        // array with an error.)
        unsafe {
            put_findings(findings, &warnings);
            put(out, Box::into_raw(array).cast::<IdxArray>());
        }
        Ok(())
    })
}

/// Frees a read's warnings (NULL: nothing).
///
/// # Safety
/// `findings` is NULL or from `idx_reader_read_*`, not freed yet.
#[no_mangle]
pub unsafe extern "C" fn idx_findings_free(findings: *mut IdxFindings) {
    // SAFETY: a findings pointer is the first field of a boxed repr(C)
    // OwnedFindings made by Box::into_raw (put_findings), not freed yet by
    // the contract.
    unsafe { free_box(findings.cast::<OwnedFindings>()) }
}

/// Frees an array (NULL: nothing).
///
/// # Safety
/// `array` is NULL or from `idx_reader_read_array`, not freed yet.
#[no_mangle]
pub unsafe extern "C" fn idx_array_free(array: *mut IdxArray) {
    // SAFETY: an array pointer is the first field of a boxed repr(C)
    // OwnedArray made by Box::into_raw (idx_reader_read_array), not freed
    // yet by the contract.
    unsafe { free_box(array.cast::<OwnedArray>()) }
}

/// Frees a reader (NULL: nothing).
///
/// # Safety
/// `reader` is NULL or a reader from `idx_reader_open_*` not freed yet.
#[no_mangle]
pub unsafe extern "C" fn idx_reader_free(reader: *mut IdxReader) {
    // SAFETY: made by Box::into_raw in idx_reader_open_*, not freed yet by
    // the contract.
    unsafe { free_box(reader) }
}

/// The array of element type `dtype` (an `IdxElementType` value),
/// dimensions `dims[0..rank]` and `data_len` bytes of native-endian
/// elements at `data`, encoded canonically (big-endian, spec 3). On
/// `IDX_OK`, `*out` holds the bytes (free them with `idx_bytes_free`).
/// `IDX_MISUSE` for an unknown type, a rank over 255, or data that is not
/// the shape's size.
///
/// # Safety
/// `dims` is valid for `rank` values (or NULL with `rank` 0); `data` for
/// `data_len` bytes (or NULL with 0); `out` points to storage for a
/// pointer; `err` as for `idx_validate_file`.
#[no_mangle]
pub unsafe extern "C" fn idx_write_buffer(
    dtype: u32,
    dims: *const u32,
    rank: usize,
    data: *const c_void,
    data_len: usize,
    out: *mut *mut IdxBytes,
    err: *mut *mut IdxError,
) -> IdxStatus {
    guard(err, || {
        if out.is_null() {
            return Err(misuse("out"));
        }
        // SAFETY: `out` is not NULL and points to storage for a pointer.
        unsafe { put(out, std::ptr::null_mut()) };
        // SAFETY: this function's contract on `dims` and `data`.
        let (dims, data) = unsafe { (dims_arg(dims, rank)?, bytes_arg(data, data_len)?) };
        let bytes = work::encode(dtype, dims, data)?.into_boxed_slice();
        let len = bytes.len();
        let c = IdxBytes {
            data: Box::into_raw(bytes).cast::<u8>(),
            len,
        };
        // SAFETY: as above; freed by idx_bytes_free alone, which rebuilds
        // the boxed slice from `data` and `len`.
        unsafe { put(out, Box::into_raw(Box::new(c))) };
        Ok(())
    })
}

/// As `idx_write_buffer`, written to the file at `path`, created or
/// replaced atomically: the bytes go to a temporary file in the same
/// folder, synced, then renamed over `path`, so that a failed write
/// (`IDX_IO`) leaves an existing file as it was and no temporary file
/// behind. A replaced file keeps its permission bits; a new one gets
/// those the umask gives. A symbolic link at `path` is replaced by the
/// file, not followed.
///
/// # Safety
/// `path` is a NUL-terminated string; `dims`, `data`, `err` as for
/// `idx_write_buffer`.
#[no_mangle]
pub unsafe extern "C" fn idx_write_file(
    path: *const c_char,
    dtype: u32,
    dims: *const u32,
    rank: usize,
    data: *const c_void,
    data_len: usize,
    err: *mut *mut IdxError,
) -> IdxStatus {
    guard(err, || {
        // SAFETY: this function's contract on `path`, `dims` and `data`.
        let (path, dims, data) = unsafe {
            (
                path_arg(path)?,
                dims_arg(dims, rank)?,
                bytes_arg(data, data_len)?,
            )
        };
        work::write_path(&path, dtype, dims, data)
    })
}

/// `rank` dimensions at `dims`.
///
/// # Safety
/// `dims` is NULL or valid for reads of `rank` `u32`s for `'a`.
unsafe fn dims_arg<'a>(dims: *const u32, rank: usize) -> Result<&'a [u32], IdxError> {
    if dims.is_null() {
        return if rank == 0 {
            Ok(&[])
        } else {
            Err(misuse("dims"))
        };
    }
    if !dims.is_aligned() {
        return Err(IdxError::misuse("dims is not aligned for uint32_t"));
    }
    // SAFETY: not NULL, aligned (checked), valid for `rank` u32s by this
    // function's contract; any bit pattern is a u32.
    Ok(unsafe { std::slice::from_raw_parts(dims, rank) })
}

/// Frees bytes from `idx_write_buffer` (NULL: nothing).
///
/// # Safety
/// `bytes` is NULL or from `idx_write_buffer`, not freed yet.
#[no_mangle]
pub unsafe extern "C" fn idx_bytes_free(bytes: *mut IdxBytes) {
    if bytes.is_null() {
        return;
    }
    let _ = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: made by Box::into_raw in idx_write_buffer, not freed yet
        // by the contract: given back to its box once.
        let b = unsafe { Box::from_raw(bytes) };
        let slice = std::ptr::slice_from_raw_parts_mut(b.data.cast_mut(), b.len);
        // SAFETY: `data` and `len` are those of the boxed slice
        // idx_write_buffer leaked (the caller reads, never changes them):
        // given back to that box once.
        drop(unsafe { Box::from_raw(slice) });
    }));
}

/// The status of an error (NULL: `IDX_OK`).
///
/// # Safety
/// `err` is NULL or an error not freed yet.
#[no_mangle]
pub unsafe extern "C" fn idx_error_code(err: *const IdxError) -> IdxStatus {
    if err.is_null() {
        return IdxStatus::IdxOk;
    }
    // SAFETY: not NULL and a live error by the contract; a field copied out.
    unsafe { (*err).status }
}

/// The error's message, NUL-terminated, owned by the error (NULL for a
/// NULL error).
///
/// # Safety
/// `err` is NULL or an error not freed yet.
#[no_mangle]
pub unsafe extern "C" fn idx_error_message(err: *const IdxError) -> *const c_char {
    if err.is_null() {
        return std::ptr::null();
    }
    // SAFETY: not NULL and a live error by the contract; the pointer is
    // into the error's own string, valid until idx_error_free.
    unsafe { (*err).message.as_ptr() }
}

/// For `IDX_INVALID`: the finding of the rule the data breaks, owned by
/// the error; otherwise NULL.
///
/// # Safety
/// `err` is NULL or an error not freed yet.
#[no_mangle]
pub unsafe extern "C" fn idx_error_finding(err: *const IdxError) -> *const IdxFinding {
    if err.is_null() {
        return std::ptr::null();
    }
    // SAFETY: not NULL and a live error by the contract; the address of a
    // field it owns, valid until idx_error_free.
    match unsafe { &(*err).finding } {
        Some(f) => &raw const f.c,
        None => std::ptr::null(),
    }
}

/// Frees an error (NULL: nothing).
///
/// # Safety
/// `err` is NULL or an error from this library not freed yet.
#[no_mangle]
pub unsafe extern "C" fn idx_error_free(err: *mut IdxError) {
    // SAFETY: made by Box::into_raw in `guard`, not freed yet by the
    // contract.
    unsafe { free_box(err) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_is_idx_panic_with_its_message_not_an_unwind() {
        let mut err = std::ptr::null_mut();
        let status = guard(&mut err, || panic!("boom")); // ok: unit test of the guard
        assert_eq!(status, IdxStatus::IdxPanic);
        // SAFETY: `guard` stored a live error; read, then freed once.
        unsafe {
            assert_eq!((*err).status, IdxStatus::IdxPanic);
            let m = CStr::from_ptr(idx_error_message(err)).to_str().unwrap(); // ok: unit test
            assert_eq!(m, "internal error: the library panicked: boom");
            idx_error_free(err);
        }
    }
}
