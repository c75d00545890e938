//! Endless and non-regular inputs finish: reading stops
//! once nothing further can change the findings; trailing bytes on an input
//! of unknown length are counted up to a bound and reported as "at least";
//! a regular file's length comes from its metadata.
#![cfg(unix)]

use test_support::assert_contains;

use std::io::Write;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Waits for `child` at most `secs` seconds; kills it and fails if it hangs.
fn finish_within(mut child: Child, secs: u64) -> (i32, String) {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let mut out = String::new();
            std::io::Read::read_to_string(child.stdout.as_mut().unwrap(), &mut out).unwrap();
            return (status.code().unwrap_or(-1), out);
        }
        if start.elapsed() > Duration::from_secs(secs) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("idx-validate did not finish within {secs}s");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_idx-validate"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

#[test]
fn dev_zero_finishes_after_its_header() {
    if !Path::new("/dev/zero").exists() {
        return;
    }
    let (code, out) = finish_within(spawn(&["--format", "short", "/dev/zero"]), 30);
    assert_eq!(code, 1, "{out}");
    // 00 00 00 00: type 0x00 and rank 0; nothing after byte 3 matters
    assert_eq!(
        out.lines().collect::<Vec<_>>(),
        [
            "/dev/zero:2: error[IDX102]: unknown element type code 0x00",
            "/dev/zero:3: warning[IDX301]: rank 0: the file holds a single scalar",
        ]
    );
}

#[test]
fn an_endless_fifo_after_a_valid_payload_reports_at_least_n_trailing_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("endless.idx");
    let ok = Command::new("mkfifo").arg(&fifo).status();
    if !ok.is_ok_and(|s| s.success()) {
        return; // no mkfifo on this system
    }
    let child = spawn(&["--format", "short", fifo.to_str().unwrap()]);
    let path = fifo.clone();
    let writer = std::thread::spawn(move || {
        // u8 [1], payload 2a, then zeros until the reader goes away
        let Ok(mut f) = std::fs::OpenOptions::new().write(true).open(&path) else {
            return;
        };
        if f.write_all(&[0, 0, 8, 1, 0, 0, 0, 1, 0x2a]).is_err() {
            return;
        }
        let zeros = vec![0u8; 64 * 1024];
        while f.write_all(&zeros).is_ok() {}
    });
    let (code, out) = finish_within(child, 30);
    writer.join().unwrap();
    assert_eq!(code, 1, "{out}");
    let want = format!(
        "{}:9: error[IDX203]: at least {} bytes follow the end of the declared payload (counting stopped there)",
        fifo.display(),
        idx::__private::TRAILING_COUNT_LIMIT
    );
    assert_eq!(out.lines().collect::<Vec<_>>(), [want.as_str()]);
}

#[test]
fn a_regular_file_s_trailing_bytes_are_counted_exactly_from_its_length() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("big-trailer.idx");
    let mut bytes = vec![0, 0, 8, 1, 0, 0, 0, 1, 0x2a];
    let extra = 3 * idx::__private::TRAILING_COUNT_LIMIT as usize + 5;
    bytes.resize(bytes.len() + extra, 0);
    std::fs::write(&p, &bytes).unwrap();
    let (code, out) = finish_within(spawn(&["--format", "short", p.to_str().unwrap()]), 30);
    assert_eq!(code, 1);
    assert_eq!(
        out.trim_end(),
        format!(
            "{}:9: error[IDX203]: {extra} bytes follow the end of the declared payload",
            p.display()
        )
    );
}

/// Spec 7.20 and 7.21: `--max-decompressed 0` means no limit, like
/// `--max-findings 0`; `--expect-shape ''` is the empty shape (rank 0).
#[test]
fn zero_limits_and_the_empty_shape() {
    let dir = tempfile::tempdir().unwrap();
    let raw = [0u8, 0, 8, 1, 0, 0, 0, 1, 0x2a];
    let p = dir.path().join("one.idx");
    std::fs::write(&p, raw).unwrap();
    let gz = dir.path().join("one.idx.gz");
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(&raw).unwrap();
    std::fs::write(&gz, e.finish().unwrap()).unwrap();
    let run = |args: &[&str]| finish_within(spawn(args), 30);
    let (code, out) = run(&[
        "--format",
        "short",
        "--max-decompressed",
        "0",
        gz.to_str().unwrap(),
    ]);
    assert_eq!((code, out.as_str()), (0, ""));
    let (code, out) = run(&[
        "--format",
        "short",
        "--max-findings",
        "0",
        p.to_str().unwrap(),
    ]);
    assert_eq!((code, out.as_str()), (0, ""));
    let (code, out) = run(&[
        "--format",
        "short",
        "--expect-shape",
        "",
        p.to_str().unwrap(),
    ]);
    assert_eq!(code, 1);
    assert_contains(&out, ":3: error[IDX602]: the rank is 1, expected 0");
}

/// Every line-oriented format says when offsets
/// are in the decompressed stream; a file name's control characters reach
/// no terminal raw; JUnit attributes keep newlines as `&#10;`.
#[test]
fn decompressed_offsets_and_hostile_file_names() {
    let dir = tempfile::tempdir().unwrap();
    let raw = [0u8, 0, 8, 1, 0, 0, 0, 2, 0x2a];
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(&raw).unwrap();
    let name = "evil\n\u{1b}[31mname.idx.gz";
    let p = dir.path().join(name);
    std::fs::write(&p, e.finish().unwrap()).unwrap();
    let path = p.to_str().unwrap();
    let run = |fmt: &str| finish_within(spawn(&["--format", fmt, path]), 30).1;
    let short = run("short");
    assert_contains(&short, "(offset in the decompressed stream)");
    assert!(
        !short.contains('\u{1b}') && short.lines().count() == 1,
        "{short:?}"
    );
    assert!(short.contains("evil\\n\\u{1b}[31mname"), "{short:?}");
    let human = run("human");
    assert!(
        !human.contains('\u{1b}') && !human.contains("evil\n"),
        "{human:?}"
    );
    let github = run("github");
    assert_contains(&github, "(offset in the decompressed stream)");
    let jsonl = run("jsonl");
    assert_contains(&jsonl, "\"compression\":\"gzip\"");
    let junit = run("junit");
    assert_contains(&junit, "evil&#10;");
    assert!(
        junit.contains("of the decompressed stream")
            || junit.contains("(offset in the decompressed stream)"),
        "{junit}"
    );
}

#[test]
fn a_labels_fifo_in_a_pair_is_read_once() {
    // The dataset rules take the label values from the one validation pass:
    // a FIFO cannot be read twice (opening it again waited for a writer
    // forever), yet its values are checked (--classes 4: label 4 is out of
    // range; a second read skipped FIFOs, so nothing was found).
    let dir = tempfile::tempdir().unwrap();
    let images = dir.path().join("x-images-idx3-ubyte");
    // u8 [2, 1, 1]: two 1x1 images
    std::fs::write(
        &images,
        [0, 0, 8, 3, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 1, 7, 9],
    )
    .unwrap();
    let fifo = dir.path().join("x-labels-idx1-ubyte");
    let ok = Command::new("mkfifo").arg(&fifo).status();
    if !ok.is_ok_and(|s| s.success()) {
        return; // no mkfifo on this system
    }
    let child = spawn(&[
        "--format",
        "short",
        "--classes",
        "4",
        images.to_str().unwrap(),
        fifo.to_str().unwrap(),
    ]);
    let path = fifo.clone();
    let writer = std::thread::spawn(move || {
        // u8 [2]: labels 3 and 4, written once
        if let Ok(mut f) = std::fs::OpenOptions::new().write(true).open(&path) {
            let _ = f.write_all(&[0, 0, 8, 1, 0, 0, 0, 2, 3, 4]);
        }
    });
    let (code, out) = finish_within(child, 30);
    writer.join().unwrap();
    assert_eq!(code, 1, "{out}");
    assert_contains(&out, "x-labels-idx1-ubyte:9: error[IDX803]");
}
