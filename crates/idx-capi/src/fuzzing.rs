//! The body of the fuzz target `c_abi` (`fuzz/fuzz_targets/c_abi.rs`),
//! replayed on stable by this crate's tests: any bytes go through the C
//! functions exactly as a C caller uses them, and
//!
//! - nothing panics across the boundary (a panic is `IDX_PANIC`, which
//!   fails the target), every returned object is freed once;
//! - validation of the buffer gives the library's findings (rule,
//!   severity, offset, length, message, and the text: the library's one
//!   text form) and verdict;
//! - a read of the buffer through the C reader succeeds exactly when the
//!   library's `Reader` does, into the same native bytes with the same
//!   warnings (the byte-order test's IDX501), or fails with the same
//!   finding;
//! - the writer's encoding of what was read reads back to the same bytes;
//! - the owned read (`idx_reader_read_array`) is the library's
//!   `read_array`, warnings included.
#![allow(unsafe_code)]

use crate::ffi::*;
use crate::types::{IdxBytes, IdxError, IdxFinding, IdxFindings, IdxReport, IdxStatus, IdxVerdict};
use crate::work::IdxReader;
use std::ffi::CStr;
use std::ptr;

/// Payloads larger than this are not read (the target's memory bound).
const MAX_PAYLOAD: u64 = 1 << 20;

/// A finding for comparison: (rule, severity, offset, length, message,
/// text).
type Key = (String, idx::Severity, u64, u64, String, String);

/// A finding as the library states it, for comparison: its text is the
/// library's one text form (`Display`).
fn key(f: &idx::Finding) -> Key {
    (
        f.rule.code().to_string(),
        f.severity(),
        f.offset,
        f.length,
        f.message.clone(),
        f.to_string(),
    )
}

/// A finding as C sees it.
///
/// # Safety
/// `f` is a finding of a live report or error.
unsafe fn c_key(f: &IdxFinding) -> Key {
    // SAFETY: the strings of a live finding are NUL-terminated (this
    // function's contract).
    let (rule, message, text) = unsafe {
        (
            CStr::from_ptr(f.rule),
            CStr::from_ptr(f.message),
            CStr::from_ptr(f.text),
        )
    };
    let severity = match f.severity as u32 {
        0 => idx::Severity::Info,
        1 => idx::Severity::Warning,
        _ => idx::Severity::Error,
    };
    (
        rule.to_string_lossy().into_owned(),
        severity,
        f.offset,
        f.length,
        message.to_string_lossy().into_owned(),
        text.to_string_lossy().into_owned(),
    )
}

/// The findings of a live report or read as C sees them.
///
/// # Safety
/// `findings` points to `len` live findings (any pointer when `len` is 0).
unsafe fn c_keys(findings: *const IdxFinding, len: usize) -> Vec<Key> {
    if len == 0 {
        return Vec::new();
    }
    // SAFETY: `len` live findings at `findings` (this function's contract).
    let all = unsafe { std::slice::from_raw_parts(findings, len) };
    // SAFETY: each a live finding.
    all.iter().map(|f| unsafe { c_key(f) }).collect()
}

/// A read's warnings as C got them, freed here.
///
/// # Safety
/// `w` is a live `IdxFindings` from a read, not used afterwards.
unsafe fn take_warnings(w: *mut IdxFindings) -> Vec<Key> {
    assert!(
        !w.is_null(),
        "a read that succeeded gave no warnings object"
    );
    // SAFETY: a live IdxFindings (the contract), its findings live until it
    // is freed, once, here.
    unsafe {
        let keys = c_keys((*w).findings, (*w).findings_len);
        idx_findings_free(w);
        keys
    }
}

/// Runs `data` through the C ABI and checks it against the library.
pub fn c_abi(data: &[u8]) {
    let lib = idx::ReadOptions::default();
    let expected = idx::validate_with(data, &lib.validate);

    let mut report: *mut IdxReport = ptr::null_mut();
    let mut err: *mut IdxError = ptr::null_mut();
    // SAFETY: `data` is valid for its length during the call; `report`
    // and `err` are storage for one pointer each; NULL name and options.
    let status = unsafe {
        idx_validate_buffer(
            data.as_ptr(),
            data.len(),
            ptr::null(),
            ptr::null(),
            &mut report,
            &mut err,
        )
    };
    assert_eq!(status, IdxStatus::IdxOk);
    assert!(err.is_null() && !report.is_null());
    // SAFETY: IDX_OK gives a live report, read here and freed below once.
    let r = unsafe { &*report };
    // SAFETY: a live report's `findings` points to `findings_len` findings
    // it owns, live until idx_report_free.
    let got = unsafe { c_keys(r.findings, r.findings_len) };
    let want: Vec<_> = expected.findings.iter().map(key).collect();
    assert_eq!(got, want);
    assert_eq!(
        r.verdict == IdxVerdict::IdxVerdictInvalid,
        expected.has_errors()
    );
    assert_eq!(r.has_header, expected.header.is_some());
    // SAFETY: from idx_validate_buffer, freed once.
    unsafe { idx_report_free(report) };

    let library = idx::Reader::new(data, &lib).and_then(|reader| {
        if reader.header().payload_len() > MAX_PAYLOAD {
            return Ok(None);
        }
        let mut out = vec![0u8; reader.header().payload_len() as usize];
        reader
            .read_into(&mut out)
            .map(|w| Some((out, w.iter().map(key).collect::<Vec<_>>())))
    });

    let mut reader: *mut IdxReader = ptr::null_mut();
    // SAFETY: `data` outlives the reader (freed at the end of this
    // function); `reader`, `err` are storage for one pointer each.
    let status = unsafe {
        idx_reader_open_buffer(
            data.as_ptr(),
            data.len(),
            ptr::null(),
            &mut reader,
            &mut err,
        )
    };
    let c_read = if status == IdxStatus::IdxOk {
        // SAFETY: a live reader; its header lives as long.
        let h = unsafe { *idx_reader_header(reader) };
        if h.payload_len > MAX_PAYLOAD {
            Ok(None)
        } else {
            let mut out = vec![0u8; h.payload_len as usize];
            let mut warnings: *mut IdxFindings = ptr::null_mut();
            // SAFETY: a live reader; `out` is valid for its length; storage
            // for the warnings and the error.
            let s = unsafe {
                idx_reader_read_into(
                    reader,
                    out.as_mut_ptr().cast(),
                    out.len(),
                    &mut warnings,
                    &mut err,
                )
            };
            if s == IdxStatus::IdxOk {
                // SAFETY: IDX_OK with storage given: live warnings, freed there.
                let warnings = unsafe { take_warnings(warnings) };
                // a second read is refused, without a crash, and gives no
                // warnings object
                let (mut e2, mut w2): (*mut IdxError, *mut IdxFindings) =
                    (ptr::null_mut(), ptr::null_mut());
                // SAFETY: as above; the error is freed at once.
                unsafe {
                    assert_eq!(
                        idx_reader_read_into(
                            reader,
                            out.as_mut_ptr().cast(),
                            out.len(),
                            &mut w2,
                            &mut e2
                        ),
                        IdxStatus::IdxMisuse
                    );
                    assert!(w2.is_null());
                    idx_error_free(e2);
                }
                Ok(Some((
                    h.dtype as u32,
                    h.dims[..h.rank as usize].to_vec(),
                    out,
                    warnings,
                )))
            } else {
                assert!(warnings.is_null());
                Err(s)
            }
        }
    } else {
        Err(status)
    };
    match (&library, &c_read) {
        (Ok(Some((a, want_warnings))), Ok(Some((dtype, dims, b, warnings)))) => {
            assert_eq!(a, b);
            assert_eq!(warnings, want_warnings);
            // the canonical encoding of what was read reads back the same
            let mut bytes: *mut IdxBytes = ptr::null_mut();
            let mut e: *mut IdxError = ptr::null_mut();
            // SAFETY: `dims` and `b` are valid for their lengths; storage
            // for the two pointers; the bytes and error are freed below.
            let s = unsafe {
                idx_write_buffer(
                    *dtype,
                    dims.as_ptr(),
                    dims.len(),
                    b.as_ptr().cast(),
                    b.len(),
                    &mut bytes,
                    &mut e,
                )
            };
            assert_eq!(s, IdxStatus::IdxOk);
            // SAFETY: IDX_OK gives live bytes, valid for `len`.
            let written = unsafe { std::slice::from_raw_parts((*bytes).data, (*bytes).len) };
            let back = idx::Reader::new(
                written,
                &lib.clone().with_byte_order(Some(idx::ByteOrder::Big)),
            )
            .and_then(|r| {
                let mut out = vec![0u8; b.len()];
                r.read_into(&mut out).map(|_| out)
            });
            assert_eq!(back.ok().as_ref(), Some(b));
            // SAFETY: from idx_write_buffer, freed once.
            unsafe { idx_bytes_free(bytes) };
        }
        (Ok(None), Ok(None)) => {}
        (Err(idx::ReadError::Invalid(want)), Err(IdxStatus::IdxInvalid)) => {
            // SAFETY: IDX_INVALID gives a live error with its finding.
            let got = unsafe { c_key(&*idx_error_finding(err)) };
            assert_eq!(got, key(want.finding()));
        }
        (l, c) => panic!("the library read {l:?}, the C ABI {c:?}"), // ok: fuzz harness assertion
    }
    // SAFETY: each from this library or NULL, freed once.
    unsafe {
        idx_error_free(err);
        idx_reader_free(reader);
    }
    owned_read(data, &lib);
}

/// `idx_reader_read_array` gives what [`idx::Reader::read_array`] gives:
/// the same elements, or the same finding.
fn owned_read(data: &[u8], lib: &idx::ReadOptions) {
    let want = idx::Reader::new(data, lib).and_then(|r| r.read_array());
    let (mut reader, mut array, mut err) = (ptr::null_mut(), ptr::null_mut(), ptr::null_mut());
    let mut warnings: *mut IdxFindings = ptr::null_mut();
    // SAFETY: `data` outlives the reader (freed below); storage for the
    // three pointers.
    let mut status = unsafe {
        idx_reader_open_buffer(
            data.as_ptr(),
            data.len(),
            ptr::null(),
            &mut reader,
            &mut err,
        )
    };
    if status == IdxStatus::IdxOk {
        // SAFETY: a live reader, and storage for the array, the warnings
        // and the error.
        status = unsafe { idx_reader_read_array(reader, &mut array, &mut warnings, &mut err) };
    }
    match want {
        Ok((a, want_warnings)) => {
            assert_eq!(status, IdxStatus::IdxOk);
            // SAFETY: IDX_OK with storage given: live warnings, freed there.
            let got = unsafe { take_warnings(warnings) };
            assert_eq!(got, want_warnings.iter().map(key).collect::<Vec<_>>());
            // SAFETY: IDX_OK gives a live array whose `data` holds `len`
            // bytes (any pointer when `len` is 0 is not read).
            let got = unsafe {
                let c = &*array;
                if c.len == 0 {
                    &[][..]
                } else {
                    std::slice::from_raw_parts(c.data.cast::<u8>(), c.len)
                }
            };
            let native: Vec<u8> = match a.data() {
                idx::Data::U8(v) => v.clone(),
                idx::Data::I8(v) => v.iter().flat_map(|x| x.to_ne_bytes()).collect(),
                idx::Data::I16(v) => v.iter().flat_map(|x| x.to_ne_bytes()).collect(),
                idx::Data::I32(v) => v.iter().flat_map(|x| x.to_ne_bytes()).collect(),
                idx::Data::F32(v) => v.iter().flat_map(|x| x.to_ne_bytes()).collect(),
                idx::Data::F64(v) => v.iter().flat_map(|x| x.to_ne_bytes()).collect(),
            };
            assert_eq!(got, &native[..]);
        }
        Err(idx::ReadError::Invalid(e)) => {
            assert_eq!(status, IdxStatus::IdxInvalid);
            assert!(warnings.is_null());
            // SAFETY: IDX_INVALID gives a live error with its finding.
            assert_eq!(unsafe { c_key(&*idx_error_finding(err)) }, key(e.finding()));
        }
        Err(e) => panic!("the library failed to read: {e}"), // ok: fuzz harness assertion
    }
    // SAFETY: each from this library or NULL, freed once.
    unsafe {
        idx_array_free(array);
        idx_error_free(err);
        idx_reader_free(reader);
    }
}
