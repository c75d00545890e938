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
    let n = idx_conformance::cases::all()
        .iter()
        .filter(|c| c.id.starts_with("invalid-trailing-"))
        .count();
    assert!(n >= 3);
    assert_eq!(statuses, vec!["accepted-invalid"; n]);
}

/// The status the runner gives case `valid-u8-rank1` under `sh -c SCRIPT`.
fn status(mode: &str, script: &str, extra: &[&str]) -> String {
    let mut args = vec![mode, "--run", "valid-u8-rank1", "--format", "json"];
    args.extend(extra);
    args.extend(["--", "sh", "-c", script]);
    let (_, out) = conformance(&args);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    v["results"][0]["status"].as_str().unwrap().to_string()
}

#[test]
fn crashes_timeouts_and_wrong_content_are_told_apart() {
    assert_eq!(status("test-reader", "exit 3", &[]), "crash");
    let started = std::time::Instant::now();
    assert_eq!(
        status("test-reader", "sleep 5", &["--timeout", "0.2"]),
        "timeout"
    );
    assert!(
        started.elapsed() < std::time::Duration::from_secs(4),
        "the child's children were not killed"
    );
    let wrong = "echo '{\"dtype\":\"u8\",\"shape\":[5],\"data\":[0,1,2,3,5]}'";
    assert_eq!(status("test-reader", wrong, &[]), "wrong-content");
    assert_eq!(status("test-reader", "exit 1", &[]), "rejected-valid");
    assert_eq!(
        status("test-writer", "cat >/dev/null; printf 'x'", &[]),
        "wrong-bytes"
    );
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
