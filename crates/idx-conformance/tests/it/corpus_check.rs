//! The runner checks the corpus it runs: a missing folder, an
//! empty folder or one changed file stops it with exit 2 naming the file;
//! without `--corpus` it generates the corpus from its own recipes, so an
//! installed binary works from any directory.

use crate::support::fake;
use idx_conformance::{cases, corpus};
use std::path::Path;
use std::process::Command;
use test_support::{assert_contains, Cmd};

fn exe() -> &'static str {
    env!("CARGO_BIN_EXE_idx-conformance")
}

/// Runs `exe test-reader --corpus DIR` on the test adapter `fake.py`
/// reading correctly; returns the exit code, stdout and stderr.
fn reference_run(exe: &str, corpus: Option<&Path>, cwd: &Path) -> (i32, String, String) {
    let corpus = corpus.map(|dir| [std::ffi::OsStr::new("--corpus"), dir.as_os_str()]);
    // fake.py knows a case by its committed bytes
    let o = Cmd::new(exe)
        .dir(cwd)
        .args(["test-reader", "--no-variants"])
        .args(corpus.into_iter().flatten())
        .args(["--", "python3", &fake(), "correct"])
        .out();
    (o.code, o.stdout, o.stderr)
}

#[test]
fn a_missing_corpus_folder_stops_the_run_with_exit_2() {
    let tmp = tempfile::tempdir().unwrap();
    let missing = tmp.path().join("nonexistent");
    let (code, out, err) = reference_run(exe(), Some(&missing), tmp.path());
    assert_eq!(code, 2, "{out}{err}");
    assert_contains(&err, "does not exist");
    assert!(out.is_empty(), "nothing is run: {out}");
}

#[test]
fn an_empty_corpus_folder_stops_the_run_naming_the_first_missing_file() {
    let tmp = tempfile::tempdir().unwrap();
    let (code, out, err) = reference_run(exe(), Some(tmp.path()), tmp.path());
    assert_eq!(code, 2, "{out}{err}");
    let first = corpus::case_path(&cases::all()[0]);
    assert_contains(&err, &format!("{} is missing", first.display()));
}

#[test]
fn one_changed_file_stops_the_run_naming_it() {
    let tmp = tempfile::tempdir().unwrap();
    corpus::generate(tmp.path(), &cases::all()).unwrap();
    // the intact copy runs, and passes
    let (code, out, err) = reference_run(exe(), Some(tmp.path()), tmp.path());
    assert_eq!(code, 0, "{out}{err}");
    let victim = tmp.path().join("valid/valid-u8-rank1.idx");
    let mut bytes = std::fs::read(&victim).unwrap();
    bytes[8] ^= 1;
    std::fs::write(&victim, bytes).unwrap();
    let (code, out, err) = reference_run(exe(), Some(tmp.path()), tmp.path());
    assert_eq!(code, 2, "{out}{err}");
    assert_contains(&err, "valid/valid-u8-rank1.idx has SHA-256");
    assert!(out.is_empty(), "{out}");
}

#[test]
fn the_verifier_names_the_first_missing_on_demand_file() {
    let tmp = tempfile::tempdir().unwrap();
    corpus::generate(tmp.path(), &cases::all()).unwrap();
    corpus::verify(tmp.path(), &cases::all()).unwrap();
    let e = corpus::verify(tmp.path(), &cases::with_on_demand()).unwrap_err();
    assert_contains(&e, &format!("valid/{}.idx is missing", cases::ON_DEMAND[0]));
    assert_contains(&e, "generate --large");
}

/// The runner binary copied out of the build tree and run from another
/// directory: the corpus comes from the binary's recipes, not a source
/// tree. (`scripts/ecosystem-test.sh` does the same with `cargo install`.)
#[test]
fn a_runner_outside_the_source_tree_generates_its_corpus() {
    let tmp = tempfile::tempdir().unwrap();
    let bin = tmp.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    let copy = bin.join("idx-conformance");
    std::fs::copy(exe(), &copy).unwrap();
    let copy = copy.to_str().unwrap();
    let elsewhere = tmp.path().join("elsewhere");
    std::fs::create_dir(&elsewhere).unwrap();
    let help = Command::new(copy)
        .current_dir(&elsewhere)
        .args(["test-reader", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&help.stdout);
    assert_contains(&help, "temporary folder");
    let (code, out, err) = reference_run(copy, None, &elsewhere);
    assert_eq!(code, 0, "{out}{err}");
    assert_contains(&out, " 0 failed");
    // nothing was written in the working directory
    assert_eq!(std::fs::read_dir(&elsewhere).unwrap().count(), 0);
}

/// Saved results merged into the matrix must be of the current
/// corpus (same case set and bytes); others are flagged stale.
#[test]
fn saved_results_of_another_corpus_are_stale() {
    let all = cases::all();
    let fp = corpus::fingerprint(&all);
    let ok = serde_json::json!({"corpus": {"cases": all.len(), "sha256": fp}});
    corpus::results_match(&ok, &all).unwrap();
    // one case fewer, or one byte changed, is another corpus
    assert!(corpus::results_match(&ok, &all[1..]).is_err());
    let mut changed = all.clone();
    changed[0].bytes.push(0);
    let e = corpus::results_match(&ok, &changed).unwrap_err();
    assert_contains(&e, "another corpus");
    // results without a fingerprint are stale too
    let e = corpus::results_match(&serde_json::json!({}), &all).unwrap_err();
    assert_contains(&e, "no corpus fingerprint");
}

/// A folder name with a terminal escape and a line break reaches the
/// terminal escaped, in what `generate` says it wrote and what `--check`
/// says it compared.
#[test]
fn a_corpus_folder_name_reaches_the_terminal_escaped() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("evil\u{1b}[31m\nname");
    let arg = dir.to_str().unwrap();
    let (code, out, err) = crate::support::conformance(&["generate", "--corpus", arg]);
    assert_eq!(code, 0, "{err}");
    assert_contains(&out, "evil\\u{1b}[31m\\nname");
    assert!(
        !out.contains('\u{1b}') && out.lines().count() == 1,
        "{out:?}"
    );
    let (code, out, err) = crate::support::conformance(&["generate", "--check", "--corpus", arg]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("evil\\u{1b}[31m\\nname") && !out.contains('\u{1b}'),
        "{out:?}"
    );
}
