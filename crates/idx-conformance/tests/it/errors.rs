//! How the binary ends on an error of the run itself (an unreadable
//! input, an output it cannot write, a bad argument the parser cannot
//! catch): one line `error: <message>` on standard error and exit 2,
//! whichever subcommand it is; a failing verdict is not an error and
//! exits 1.

use crate::support::{conformance, fake};
use test_support::assert_contains;

/// Asserts that a run ended with exit 2 and exactly one line on standard
/// error, `error: ` followed by a message containing `message`; returns
/// that line.
fn one_error(run: (i32, String, String), message: &str) -> String {
    let (code, out, err) = run;
    assert_eq!(code, 2, "stdout: {out}\nstderr: {err}");
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    assert!(err.ends_with('\n'), "{err:?}");
    assert!(err.starts_with("error: "), "{err}");
    assert!(err.contains(message), "{message:?} in {err}");
    err
}

fn path(p: &std::path::Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn generate_into_a_folder_under_a_file_is_one_error_line() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("a-file");
    std::fs::write(&file, b"not a folder").unwrap();
    let corpus = file.join("corpus\x1b[2J");
    let (code, out, err) = conformance(&["generate", "--corpus", path(&corpus)]);
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains("cannot write the corpus under ") && err.contains("corpus\\u{1b}[2J: "),
        "the folder, escaped: {err}"
    );
    one_error((code, out, err), "Not a directory");
}

#[test]
fn a_merged_results_file_that_is_not_json_is_one_error_line_naming_it_escaped() {
    let tmp = tempfile::tempdir().unwrap();
    let bad = tmp.path().join("bad\x1b[31m.json");
    std::fs::write(&bad, b"not json").unwrap();
    let err = one_error(
        conformance(&["matrix", "--no-run", "--merge", path(&bad)]),
        "bad\\u{1b}[31m.json: expected ident at line 1 column 2",
    );
    assert!(!err.contains('\x1b'), "{err:?}");
    let missing = tmp.path().join("missing.json");
    one_error(
        conformance(&["matrix", "--no-run", "--merge", path(&missing)]),
        "missing.json: No such file or directory",
    );
}

#[test]
fn a_reader_command_that_does_not_exist_is_one_error_line() {
    let (code, out, err) = conformance(&["test-reader", "--", "/nonexistent/reader"]);
    assert!(out.is_empty(), "{out}");
    one_error(
        (code, out, err),
        "the adapter cannot read the simplest valid case, valid-u8-rank1 (crash: exit status 127",
    );
}

#[test]
fn an_unreadable_expected_failures_file_is_one_error_line_naming_it_escaped() {
    let tmp = tempfile::tempdir().unwrap();
    let missing = tmp.path().join("expected\x07.txt");
    let err = one_error(
        conformance(&[
            "test-reader",
            "--expected-failures",
            path(&missing),
            "--",
            "sh",
            "-c",
            "exit 3",
        ]),
        "expected\\u{7}.txt: No such file or directory",
    );
    assert!(!err.contains('\x07'), "{err:?}");
}

#[test]
fn a_differential_report_to_check_that_cannot_be_read_is_one_error_line() {
    let tmp = tempfile::tempdir().unwrap();
    let missing = tmp.path().join("DIFFERENTIAL.md");
    // no descriptions: nothing is started before the report is read
    one_error(
        conformance(&[
            "differential",
            "--cases",
            "1",
            "--adapters",
            path(tmp.path()),
            "--check",
            path(&missing),
        ]),
        "DIFFERENTIAL.md: No such file or directory",
    );
    let err = one_error(
        conformance(&["differential", "--adapters", path(tmp.path())]),
        "",
    );
    assert_eq!(err, "error: give a budget: --cases N and/or --seconds S\n");
}

#[test]
fn an_unknown_implementation_is_one_error_line() {
    let tmp = tempfile::tempdir().unwrap();
    let err = one_error(
        conformance(&["matrix", "--adapters", path(tmp.path()), "--only", "nosuch"]),
        "",
    );
    assert!(
        err.starts_with("error: no description file for \"nosuch\" in "),
        "{err}"
    );
}

#[test]
fn a_failing_verdict_exits_1_and_is_no_error() {
    let (code, out, err) = conformance(&[
        "test-reader",
        "--run",
        "invalid-trailing-byte",
        "--",
        "python3",
        &fake(),
        "traceback",
    ]);
    assert_eq!(code, 1, "stdout: {out}\nstderr: {err}");
    assert_contains(&out, "invalid-trailing-byte");
    assert!(!err.contains("error:"), "{err}");
    // the corpus check's verdict: the problems, then how to update
    let tmp = tempfile::tempdir().unwrap();
    let (code, out, err) = conformance(&["generate", "--check", "--corpus", path(tmp.path())]);
    assert_eq!(code, 1, "stdout: {out}\nstderr: {err}");
    assert!(!err.contains("error:"), "{err}");
    assert!(
        err.ends_with("run `cargo run -p idx-conformance -- generate` to update it\n"),
        "{err}"
    );
}

/// A usage error quotes the value given escaped (clap printed it as given).
#[test]
fn usage_errors_show_the_values_given_escaped() {
    use test_support::{assert_escaped_usage_error, HOSTILE_VALUE};
    let unknown = format!("--x{HOSTILE_VALUE}");
    for args in [
        vec!["test-reader", "--timeout", HOSTILE_VALUE, "--", "true"],
        vec!["test-reader", unknown.as_str()],
    ] {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_idx-conformance"))
            .args(&args)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_escaped_usage_error(&args, o.status.code().unwrap(), &stderr);
    }
}
