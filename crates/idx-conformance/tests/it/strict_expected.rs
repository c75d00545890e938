//! `test-reader --strict-expected` (a listed case that passes fails the run,
//! so any change from the expected-failures file fails: what
//! `conformance/action.yml` runs) and `--write-expected FILE`.

use crate::support::fake;
use test_support::{assert_contains, Cmd};

fn test_reader(extra: &[&str], behaviour: &str) -> (i32, String, String) {
    // fake.py knows a case by its committed bytes
    let o = Cmd::new(env!("CARGO_BIN_EXE_idx-conformance"))
        .args(["test-reader", "--no-variants", "--persistent"])
        .args(extra)
        .args(["--", "python3", &fake(), behaviour, "--persistent"])
        .out();
    (o.code, o.stdout, o.stderr)
}

#[test]
fn a_listed_case_that_passes_fails_only_with_strict_expected() {
    let dir = tempfile::tempdir().unwrap();
    let xf = dir.path().join("xf.txt");
    std::fs::write(&xf, "invalid-trailing-byte\n").unwrap();
    let xf = xf.to_str().unwrap();
    let (code, out, err) = test_reader(&["--expected-failures", xf], "correct");
    assert_eq!(code, 0, "{out}{err}");
    assert_contains(&out, "XPASS invalid-trailing-byte");
    let (code, out, err) =
        test_reader(&["--expected-failures", xf, "--strict-expected"], "correct");
    assert_eq!(code, 1, "{out}{err}");
    assert_contains(&err, "1 case listed in the expected failures passed");
    // the listed failure still failing: no change, exit 0
    let (code, out, err) = test_reader(
        &["--expected-failures", xf, "--strict-expected"],
        "accept-all@invalid-trailing-byte",
    );
    assert_eq!(code, 0, "{out}{err}");
}

#[test]
fn write_expected_lists_every_failed_case() {
    let dir = tempfile::tempdir().unwrap();
    let xf = dir.path().join("xf.txt");
    let (code, out, _) = test_reader(
        &["--write-expected", xf.to_str().unwrap()],
        "accept-all@invalid-trailing-byte",
    );
    // the file lists the failure: it is expected (this exited 1)
    assert_eq!(code, 0, "{out}");
    assert_contains(&out, "XFAIL invalid-trailing-byte");
    let text = std::fs::read_to_string(&xf).unwrap();
    // the command that wrote it (this said `matrix --write-expected`)
    assert!(
        text.starts_with(
            "# Known failures of the fake reader, one case ID per line.\n\
             # CI fails when this changes; regenerate with \
             `idx-conformance test-reader --write-expected FILE -- CMD...` after checking.\n"
        ),
        "{text}"
    );
    let ids: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    assert_eq!(ids, ["invalid-trailing-byte"], "{text}");
    let (code, out, err) = test_reader(
        &[
            "--expected-failures",
            xf.to_str().unwrap(),
            "--strict-expected",
        ],
        "accept-all@invalid-trailing-byte",
    );
    assert_eq!(code, 0, "{out}{err}");
}
