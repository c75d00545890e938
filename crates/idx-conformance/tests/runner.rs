//! The runner against the reference adapters, and against readers and
//! writers that misbehave in each way the statuses name.

use std::process::Command;

fn conformance(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_idx-conformance"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

fn exe() -> &'static str {
    env!("CARGO_BIN_EXE_idx-conformance")
}

#[test]
fn the_reference_reader_and_writer_pass_everything() {
    let (code, out) = conformance(&["test-reader", "--", exe(), "reference-reader"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains(" 0 failed"), "{out}");
    let (code, out) = conformance(&["test-writer", "--", exe(), "reference-writer"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains(" 0 failed"), "{out}");
}

#[test]
fn a_reader_that_accepts_everything_fails_on_invalid_cases() {
    let (code, out) = conformance(&[
        "test-reader",
        "--run",
        "invalid-trailing-*",
        "--format",
        "json",
        "--",
        "sh",
        "-c",
        "exit 0",
    ]);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let statuses: Vec<&str> = v["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["status"].as_str().unwrap())
        .collect();
    assert_eq!(statuses, ["accepted-invalid"; 3]);
}

#[test]
fn crashes_timeouts_and_wrong_content_are_told_apart() {
    let (_, out) = conformance(&[
        "test-reader",
        "--run",
        "valid-u8-rank1",
        "--format",
        "json",
        "--",
        "sh",
        "-c",
        "exit 3",
    ]);
    assert!(out.contains("\"crash\""), "{out}");
    let started = std::time::Instant::now();
    let (_, out) = conformance(&[
        "test-reader",
        "--run",
        "valid-u8-rank1",
        "--timeout",
        "0.2",
        "--format",
        "json",
        "--",
        "sh",
        "-c",
        "sleep 5",
    ]);
    assert!(out.contains("\"timeout\""), "{out}");
    assert!(
        started.elapsed() < std::time::Duration::from_secs(4),
        "the child's children were not killed"
    );
    let (_, out) = conformance(&[
        "test-reader",
        "--run",
        "valid-u8-rank1",
        "--format",
        "json",
        "--",
        "sh",
        "-c",
        "echo '{\"dtype\":\"u8\",\"shape\":[5],\"data\":[0,1,2,3,5]}'",
    ]);
    assert!(out.contains("\"wrong-content\""), "{out}");
    let (_, out) = conformance(&[
        "test-reader",
        "--run",
        "valid-u8-rank1",
        "--format",
        "json",
        "--",
        "sh",
        "-c",
        "exit 1",
    ]);
    assert!(out.contains("\"rejected-valid\""), "{out}");
    let (_, out) = conformance(&[
        "test-writer",
        "--run",
        "valid-u8-rank1",
        "--format",
        "json",
        "--",
        "sh",
        "-c",
        "cat >/dev/null; printf 'x'",
    ]);
    assert!(out.contains("\"wrong-bytes\""), "{out}");
}

#[test]
fn expected_failures_do_not_fail_the_run() {
    let dir = std::env::temp_dir().join(format!("idx-xfail-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let list = dir.join("xfail.txt");
    std::fs::write(&list, "# known gaps\ninvalid-trailing-*\n").unwrap();
    let (code, out) = conformance(&[
        "test-reader",
        "--run",
        "invalid-trailing-*",
        "--expected-failures",
        list.to_str().unwrap(),
        "--",
        "sh",
        "-c",
        "exit 0",
    ]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("XFAIL"), "{out}");
}
