//! The C functions called as C calls them.

use idxc::*;
use std::ffi::{CStr, CString};
use std::path::PathBuf;
use std::ptr;

fn corpus() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in ["valid", "invalid", "implementation-defined"] {
        for e in std::fs::read_dir(test_support::root().join("corpus").join(dir)).unwrap() {
            let p = e.unwrap().path(); // ok: test
            if p.extension().is_some_and(|x| x != "json") {
                files.push(p);
            }
        }
    }
    files.sort();
    assert!(files.len() > 150, "{} corpus files", files.len());
    files
}

/// A reader over `bytes` with the default options, opened (asserted).
///
/// # Safety
/// `bytes` outlives the reader, which the caller frees.
unsafe fn open(bytes: &[u8]) -> *mut IdxReader {
    let (mut reader, mut err) = (ptr::null_mut(), ptr::null_mut());
    // SAFETY: `bytes` is valid for its length; storage for both pointers
    let s = unsafe {
        idx_reader_open_buffer(
            bytes.as_ptr(),
            bytes.len(),
            ptr::null(),
            &mut reader,
            &mut err,
        )
    };
    assert_eq!(s, IdxStatus::IdxOk);
    reader
}

fn message(err: *const IdxError) -> String {
    // SAFETY: a live error from the library; its message is NUL-terminated.
    unsafe { CStr::from_ptr(idx_error_message(err)) }
        .to_string_lossy()
        .into_owned()
}

#[test]
fn the_corpus_through_the_c_abi_is_the_library() {
    // validation's findings and verdict, the reader's outcome and bytes, and
    // the writer's encoding, as idxc::fuzzing::c_abi checks them
    for p in corpus() {
        idxc::fuzzing::c_abi(&std::fs::read(&p).unwrap()); // ok: test
    }
    // and what the fuzz target once failed on (fuzz/regressions/README.md)
    let regressions = test_support::root().join("fuzz/regressions/c_abi");
    for e in std::fs::read_dir(regressions).unwrap() {
        let p = e.unwrap().path(); // ok: test
        if !p.file_name().unwrap().to_string_lossy().starts_with('.') {
            idxc::fuzzing::c_abi(&std::fs::read(&p).unwrap()); // ok: test
        }
    }
}

#[test]
fn a_file_is_validated_as_idx_validate_does_with_its_name() {
    // gzip decompressed within the default limit; the name lint sees the
    // file's name: an images file named as labels gets IDX503
    let dir = tempfile::tempdir().unwrap(); // ok: test
    let images =
        idx::to_bytes(&idx::Array::from_vec(vec![1, 2, 2], vec![0u8; 4]).unwrap()).unwrap(); // ok: test
    let path = dir.path().join("train-labels-idx1-ubyte");
    std::fs::write(&path, &images).unwrap(); // ok: test
    let c = CString::new(path.to_str().unwrap()).unwrap(); // ok: test
    let mut report = ptr::null_mut();
    // SAFETY: a NUL-terminated path, default options, storage for the report
    let s = unsafe { idx_validate_file(c.as_ptr(), ptr::null(), &mut report, ptr::null_mut()) };
    assert_eq!(s, IdxStatus::IdxOk);
    let want = idx::validate_with(
        &images,
        &idx::ReadOptions::default()
            .validate
            .with_file_name(Some("train-labels-idx1-ubyte".into())),
    );
    assert!(want.findings.iter().any(|f| f.rule.code() == "IDX503"));
    // SAFETY: IDX_OK gives a live report with `findings_len` findings
    let r = unsafe { &*report };
    let rules: Vec<String> = (0..r.findings_len)
        // SAFETY: as above; the rule strings are NUL-terminated
        .map(|i| {
            unsafe { CStr::from_ptr((*r.findings.add(i)).rule) }
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    let want: Vec<String> = want
        .findings
        .iter()
        .map(|f| f.rule.code().to_string())
        .collect();
    assert_eq!(rules, want);
    assert_eq!(
        (r.has_header, r.header.rank, r.header.dims[1]),
        (true, 3, 2)
    );
    // SAFETY: from idx_validate_file, freed once
    unsafe { idx_report_free(report) };

    let missing = CString::new(dir.path().join("absent").to_str().unwrap()).unwrap(); // ok: test
    let mut err = ptr::null_mut();
    // SAFETY: as above, with storage for the error
    let s = unsafe { idx_validate_file(missing.as_ptr(), ptr::null(), &mut report, &mut err) };
    assert_eq!((s, report.is_null()), (IdxStatus::IdxIo, true));
    assert!(message(err).starts_with("cannot open "), "{}", message(err));
    // SAFETY: the error from the call, freed once
    unsafe { idx_error_free(err) };
}

#[test]
fn null_pointers_and_wrong_sizes_are_misuse_with_a_message() {
    let mut err = ptr::null_mut();
    let mut report = ptr::null_mut();
    // SAFETY: NULL where the contract requires a pointer is what is tested:
    // the library checks before it reads
    unsafe {
        assert_eq!(
            idx_validate_file(ptr::null(), ptr::null(), &mut report, &mut err),
            IdxStatus::IdxMisuse
        );
        assert_eq!(message(err), "path is NULL");
        assert_eq!(idx_error_code(err), IdxStatus::IdxMisuse);
        assert!(idx_error_finding(err).is_null());
        idx_error_free(err);
        assert_eq!(
            idx_validate_buffer(
                ptr::null(),
                0,
                ptr::null(),
                ptr::null(),
                ptr::null_mut(),
                &mut err
            ),
            IdxStatus::IdxMisuse
        );
        assert_eq!(message(err), "out is NULL");
        idx_error_free(err);
        assert_eq!(
            idx_reader_read_into(
                ptr::null_mut(),
                ptr::null_mut(),
                0,
                ptr::null_mut(),
                &mut err
            ),
            IdxStatus::IdxMisuse
        );
        idx_error_free(err);
        // no error wanted: the status alone
        assert_eq!(
            idx_validate_buffer(
                ptr::null(),
                3,
                ptr::null(),
                ptr::null(),
                &mut report,
                ptr::null_mut()
            ),
            IdxStatus::IdxMisuse
        );
        assert!(report.is_null());
        // freeing NULL is nothing
        idx_report_free(ptr::null_mut());
        idx_reader_free(ptr::null_mut());
        idx_bytes_free(ptr::null_mut());
        idx_findings_free(ptr::null_mut());
        idx_array_free(ptr::null_mut());
        idx_error_free(ptr::null_mut());
        assert!(idx_reader_header(ptr::null()).is_null());
    }

    // a buffer of the wrong size: nothing read, and the reader is spent
    let file = idx::to_bytes(&idx::Array::from_vec(vec![3], vec![1u8, 2, 3]).unwrap()).unwrap(); // ok: test
    let mut reader;
    let mut out = [9u8; 4];
    // SAFETY: `file` outlives the reader; `out` is valid for 4 bytes
    unsafe {
        reader = open(&file);
        assert_eq!((*idx_reader_header(reader)).payload_len, 3);
        assert_eq!(
            idx_reader_read_into(
                reader,
                out.as_mut_ptr().cast(),
                4,
                ptr::null_mut(),
                &mut err
            ),
            IdxStatus::IdxMisuse
        );
        assert_eq!(out, [9; 4]);
        idx_error_free(err);
        idx_reader_free(reader);
    }

    // read options the library does not know
    let mut opts = idx_read_options_default();
    opts.byte_order = 7;
    // SAFETY: as above
    unsafe {
        assert_eq!(
            idx_reader_open_buffer(file.as_ptr(), file.len(), &opts, &mut reader, &mut err),
            IdxStatus::IdxMisuse
        );
        assert_eq!(message(err), "unknown byte order 7");
        assert!(reader.is_null());
        idx_error_free(err);
    }
}

#[test]
fn a_refused_read_hands_over_the_located_finding() {
    // u8 [3] with one payload byte missing: IDX202 at offset 11
    let file = [0, 0, 8, 1, 0, 0, 0, 3, 1, 2];
    let reader;
    let mut err = ptr::null_mut();
    let mut out = [0u8; 3];
    // SAFETY: `file` outlives the reader; `out` is valid for 3 bytes
    unsafe {
        reader = open(&file);
        assert_eq!(
            idx_reader_read_into(
                reader,
                out.as_mut_ptr().cast(),
                3,
                ptr::null_mut(),
                &mut err
            ),
            IdxStatus::IdxInvalid
        );
        let f = &*idx_error_finding(err);
        assert_eq!(CStr::from_ptr(f.rule).to_str().unwrap(), "IDX202"); // ok: test
        assert_eq!((f.offset, f.severity), (10, IdxSeverity::IdxSeverityError));
        assert!(message(err).contains("IDX202"), "{}", message(err));
        idx_error_free(err);
        idx_reader_free(reader);
    }
}

/// A finding's `text`.
///
/// # Safety
/// `f` is a finding of a live report, findings or error.
unsafe fn text(f: &IdxFinding) -> String {
    assert!(!f.text.is_null());
    // SAFETY: a live finding's text is NUL-terminated (the contract)
    unsafe { CStr::from_ptr(f.text) }
        .to_string_lossy()
        .into_owned()
}

#[test]
fn a_findings_text_is_the_librarys_one_text_form() {
    // u8 [3] with one payload byte missing: validation's findings, and the
    // finding of the refused read, each with the text `Display` gives
    let file = [0, 0, 8, 1, 0, 0, 0, 3, 1, 2];
    let checks = idx::ReadOptions::default().validate;
    let want: Vec<String> = idx::validate_with(&file, &checks)
        .findings
        .iter()
        .map(|f| f.to_string())
        .collect();
    assert!(
        want.iter()
            .any(|t| t.starts_with("error[IDX202]: ") && t.ends_with(" (at offset 0xa, byte 10)")),
        "{want:?}"
    );
    let (mut report, mut err) = (ptr::null_mut(), ptr::null_mut());
    // SAFETY: `file` is valid for its length; storage for the pointers;
    // the report's findings read while it lives, then freed once
    unsafe {
        let s = idx_validate_buffer(
            file.as_ptr(),
            file.len(),
            ptr::null(),
            ptr::null(),
            &mut report,
            &mut err,
        );
        assert_eq!(s, IdxStatus::IdxOk);
        let r = &*report;
        let got: Vec<String> = (0..r.findings_len)
            .map(|i| text(&*r.findings.add(i)))
            .collect();
        assert_eq!(got, want);
        idx_report_free(report);
    }

    let Err(idx::ReadError::Invalid(e)) = idx::Reader::new(&file[..], &idx::ReadOptions::default())
        .and_then(|r| r.read_into(&mut [0u8; 3]))
    else {
        panic!("the library read a truncated file"); // ok: test
    };
    let reader;
    let mut out = [0u8; 3];
    // SAFETY: `file` outlives the reader; `out` is valid for 3 bytes; the
    // error's finding read while it lives, then freed once
    unsafe {
        reader = open(&file);
        let s = idx_reader_read_into(
            reader,
            out.as_mut_ptr().cast(),
            3,
            ptr::null_mut(),
            &mut err,
        );
        assert_eq!(s, IdxStatus::IdxInvalid);
        assert_eq!(text(&*idx_error_finding(err)), e.finding().to_string());
        idx_error_free(err);
        idx_reader_free(reader);
    }
}

/// The C view of a read's warnings: (rule, severity, offset, length,
/// message, text).
///
/// # Safety
/// `w` is a live `IdxFindings`.
unsafe fn warnings(w: *const IdxFindings) -> Vec<(String, IdxSeverity, u64, u64, String, String)> {
    // SAFETY: a live IdxFindings holds `findings_len` live findings whose
    // strings are NUL-terminated (the function's contract)
    unsafe {
        (0..(*w).findings_len)
            .map(|i| {
                let f = &*(*w).findings.add(i);
                let s = |p| CStr::from_ptr(p).to_string_lossy().into_owned();
                let t = text(f);
                (s(f.rule), f.severity, f.offset, f.length, s(f.message), t)
            })
            .collect()
    }
}

#[test]
fn a_read_hands_over_the_byte_order_warning_that_validation_reports() {
    // i16 1..=64 written little-endian: read as IDX says (big-endian), with
    // the byte-order test's IDX501 warning; the big-endian twin, none
    let values: Vec<i16> = (1..=64).collect();
    let big =
        idx::to_bytes(&idx::Array::from_vec(vec![values.len()], values.clone()).unwrap()).unwrap(); // ok: test
    let mut little = big.clone();
    for pair in little[8..].chunks_exact_mut(2) {
        pair.swap(0, 1);
    }
    let checks = idx::ReadOptions::default().validate;
    let report = idx::validate_with(&little, &checks);
    let want: Vec<_> = report
        .findings
        .iter()
        .filter(|f| f.rule.code() == "IDX501")
        .map(|f| {
            (
                f.rule.code().to_string(),
                IdxSeverity::IdxSeverityWarning,
                f.offset,
                f.length,
                f.message.clone(),
                f.to_string(),
            )
        })
        .collect();
    assert_eq!(want.len(), 1, "{:?}", report.findings);
    assert!(!report.has_errors());
    let swapped: Vec<i16> = values.iter().map(|v| v.swap_bytes()).collect();

    for (bytes, expected) in [(&little, want.clone()), (&big, vec![])] {
        // into the caller's buffer
        let mut reader;
        let (mut w, mut err) = (ptr::null_mut(), ptr::null_mut());
        let mut out = vec![0i16; values.len()];
        // SAFETY: `bytes` outlives the reader; `out` is valid for its
        // bytes; storage for the three pointers; each result freed once
        unsafe {
            reader = open(bytes);
            let s = idx_reader_read_into(
                reader,
                out.as_mut_ptr().cast(),
                out.len() * 2,
                &mut w,
                &mut err,
            );
            assert_eq!(s, IdxStatus::IdxOk);
            assert_eq!(warnings(w), expected);
            idx_findings_free(w);
            idx_reader_free(reader);
        }
        let decoded = if bytes == &little { &swapped } else { &values };
        assert_eq!(&out, decoded);

        // into an array the library allocates
        let mut array = ptr::null_mut();
        // SAFETY: as above
        unsafe {
            reader = open(bytes);
            let s = idx_reader_read_array(reader, &mut array, &mut w, &mut err);
            assert_eq!(s, IdxStatus::IdxOk);
            assert_eq!(warnings(w), expected);
            assert_eq!((*array).len, values.len() * 2);
            idx_findings_free(w);
            idx_array_free(array);
            idx_reader_free(reader);
        }
    }

    // a caller that does not want the warnings passes NULL
    let reader;
    let mut err = ptr::null_mut();
    let mut out = vec![0i16; values.len()];
    // SAFETY: as above
    unsafe {
        reader = open(&little);
        let s = idx_reader_read_into(
            reader,
            out.as_mut_ptr().cast(),
            out.len() * 2,
            ptr::null_mut(),
            &mut err,
        );
        assert_eq!(s, IdxStatus::IdxOk);
        idx_reader_free(reader);
    }
}

#[test]
fn the_read_options_reach_the_reader() {
    use std::io::Write;
    // gzip beyond a 9-byte limit: IDX702; gzip refused when not decompressed: IDX402
    let raw = idx::to_bytes(&idx::Array::from_vec(vec![3], vec![7u8, 8, 9]).unwrap()).unwrap(); // ok: test
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(&raw).unwrap(); // ok: test
    let gz = gz.finish().unwrap(); // ok: test
    for (opts, rule) in [
        (
            IdxReadOptions {
                max_decompressed: 9,
                ..idx_read_options_default()
            },
            "IDX702",
        ),
        (
            IdxReadOptions {
                decompress: false,
                ..idx_read_options_default()
            },
            "IDX402",
        ),
    ] {
        let (mut reader, mut err) = (ptr::null_mut(), ptr::null_mut());
        let mut out = [0u8; 3];
        // SAFETY: `gz` outlives the reader; `out` is valid for 3 bytes
        unsafe {
            let mut s = idx_reader_open_buffer(gz.as_ptr(), gz.len(), &opts, &mut reader, &mut err);
            if s == IdxStatus::IdxOk {
                s = idx_reader_read_into(
                    reader,
                    out.as_mut_ptr().cast(),
                    3,
                    ptr::null_mut(),
                    &mut err,
                );
            }
            assert_eq!(s, IdxStatus::IdxInvalid);
            assert_eq!(
                CStr::from_ptr((*idx_error_finding(err)).rule)
                    .to_str()
                    .unwrap(),
                rule
            ); // ok: test
            idx_error_free(err);
            idx_reader_free(reader);
        }
    }
}

#[test]
fn the_writer_encodes_native_elements_canonically_and_refuses_misuse() {
    let dims = [2u32];
    let data = [258i16, -2];
    let (mut bytes, mut err) = (ptr::null_mut(), ptr::null_mut());
    // SAFETY: `dims` and `data` are valid for their lengths; storage for
    // the two pointers; each result freed once
    unsafe {
        let s = idx_write_buffer(
            0x0b,
            dims.as_ptr(),
            1,
            data.as_ptr().cast(),
            4,
            &mut bytes,
            &mut err,
        );
        assert_eq!(s, IdxStatus::IdxOk);
        let b = std::slice::from_raw_parts((*bytes).data, (*bytes).len);
        // 00 00 0b 01: i16, rank 1; dimension 2; 258 and -2 big-endian
        assert_eq!(b, [0, 0, 0x0b, 1, 0, 0, 0, 2, 0x01, 0x02, 0xff, 0xfe]);
        idx_bytes_free(bytes);
        // an unknown type, and data that is not the shape's size
        assert_eq!(
            idx_write_buffer(
                0x0a,
                dims.as_ptr(),
                1,
                data.as_ptr().cast(),
                4,
                &mut bytes,
                &mut err
            ),
            IdxStatus::IdxMisuse
        );
        assert_eq!(message(err), "unknown element type 0xa");
        idx_error_free(err);
        assert_eq!(
            idx_write_buffer(
                0x0b,
                dims.as_ptr(),
                1,
                data.as_ptr().cast(),
                2,
                &mut bytes,
                &mut err
            ),
            IdxStatus::IdxMisuse
        );
        assert!(bytes.is_null());
        idx_error_free(err);
    }
    // to a file
    let dir = tempfile::tempdir().unwrap(); // ok: test
    let path = dir.path().join("out.idx");
    let c = CString::new(path.to_str().unwrap()).unwrap(); // ok: test
                                                           // SAFETY: as above
    let s = unsafe {
        idx_write_file(
            c.as_ptr(),
            0x08,
            dims.as_ptr(),
            1,
            [5u8, 6].as_ptr().cast(),
            2,
            ptr::null_mut(),
        )
    };
    assert_eq!(s, IdxStatus::IdxOk);
    assert_eq!(
        std::fs::read(&path).unwrap(),
        [0, 0, 8, 1, 0, 0, 0, 2, 5, 6]
    ); // ok: test
}

/// Writes `n` zero bytes as a u8 array [n] to `path` through the C ABI.
fn write_file(path: &std::path::Path, n: u32) -> (IdxStatus, String) {
    let c = CString::new(path.to_str().unwrap()).unwrap(); // ok: test
    let data = vec![0u8; n as usize];
    let mut err = ptr::null_mut();
    // SAFETY: a NUL-terminated path; `dims` and `data` valid for their
    // lengths; storage for the error, freed once
    unsafe {
        let s = idx_write_file(
            c.as_ptr(),
            0x08,
            [n].as_ptr(),
            1,
            data.as_ptr().cast(),
            data.len(),
            &mut err,
        );
        let m = if err.is_null() {
            String::new()
        } else {
            message(err)
        };
        idx_error_free(err);
        (s, m)
    }
}

/// Set in the child process of the next test: the destination it writes.
const WRITE_UNDER_LIMIT: &str = "IDXC_TEST_WRITE_UNDER_FILE_SIZE_LIMIT";

#[test]
fn a_failed_write_leaves_the_destination_as_it_was_and_no_temporary_file() {
    // the child: this test again, under a file size limit that a 1 MiB
    // write exceeds (the write fails with EFBIG, SIGXFSZ being ignored)
    if let Some(dest) = std::env::var_os(WRITE_UNDER_LIMIT) {
        let (s, m) = write_file(std::path::Path::new(&dest), 1 << 20);
        assert_eq!(s, IdxStatus::IdxIo, "{m}");
        assert!(m.contains("out.idx"), "{m}");
        return;
    }
    let dir = tempfile::tempdir().unwrap(); // ok: test
    let dest = dir.path().join("out.idx");
    let old = [0, 0, 8, 1, 0, 0, 0, 2, 5, 6];
    std::fs::write(&dest, old).unwrap(); // ok: test
    let name = "abi::a_failed_write_leaves_the_destination_as_it_was_and_no_temporary_file";
    // output to pipes, which the limit does not apply to
    let child = std::process::Command::new("sh")
        .arg("-c")
        .arg(r#"ulimit -f 64 && trap '' XFSZ && exec "$0" "$@""#)
        .arg(std::env::current_exe().unwrap()) // ok: test
        .args(["--exact", name, "--nocapture", "--test-threads=1"])
        .env(WRITE_UNDER_LIMIT, &dest)
        .output()
        .unwrap(); // ok: test
    assert!(
        child.status.success() && String::from_utf8_lossy(&child.stdout).contains("1 passed"),
        "the write under the limit: {:?}\n{}\n{}",
        child.status,
        String::from_utf8_lossy(&child.stdout),
        String::from_utf8_lossy(&child.stderr)
    );
    assert_eq!(std::fs::read(&dest).unwrap(), old); // ok: test
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap() // ok: test
        .map(|e| e.unwrap().file_name()) // ok: test
        .collect();
    assert_eq!(left, ["out.idx"]);

    // without the limit, the same write replaces the file
    assert_eq!(write_file(&dest, 1 << 20).0, IdxStatus::IdxOk);
    assert_eq!(std::fs::metadata(&dest).unwrap().len(), 8 + (1 << 20)); // ok: test
}

#[test]
fn the_fuzz_target_is_this_body_and_ci_runs_it_and_the_c_checks() {
    // fuzz/fuzz_targets/c_abi.rs is the one-liner over fuzzing::c_abi that
    // the corpus test above replays, and fuzz/run.sh (CI's fuzzing step)
    // runs it among all its targets
    let root = test_support::root();
    let target = std::fs::read_to_string(root.join("fuzz/fuzz_targets/c_abi.rs")).unwrap(); // ok: test
    assert!(target.contains("idxc::fuzzing::c_abi(data)"), "{target}");
    let run = std::fs::read_to_string(root.join("fuzz/run.sh")).unwrap(); // ok: test
    let all = run.lines().find(|l| l.starts_with("all=(")).unwrap(); // ok: test
    assert!(all.contains(" c_abi"), "{all}");
    // and CI runs the C and C++ checks (scripts/test-c.sh)
    let ci = std::fs::read_to_string(root.join(".ci/run")).unwrap(); // ok: test
    assert!(
        ci.contains("\nscripts/test-c.sh\n"),
        ".ci/run does not run scripts/test-c.sh"
    );
}
