//! The matrix: description files, the expected-failures check, merged
//! results and the Markdown, against the synthetic adapter
//! `tests/adapters/fake.py`.

use crate::support::{conformance, fake};
use idx_conformance::matrix;
use std::path::Path;
use test_support::assert_contains;

#[test]
fn every_shipped_description_parses_and_names_files_that_exist() {
    let dir = idx_conformance::adapters_dir();
    let ds = matrix::load_descriptions(&dir).unwrap();
    let names: Vec<&str> = ds.iter().map(|d| d.name.as_str()).collect();
    for n in [
        "reference",
        "numpy",
        "idx2numpy",
        "python-mnist",
        "mnist",
        "ubyte",
        "idx-lib",
        "nuvec-io",
        "mnists",
        "emnist",
        "mlxtend",
        "get-mnist",
        "idx-data",
        "tiny-dnn",
        "dlib",
        "idx-decoder",
        "wasm",
        "idxc",
        "libtorch",
        "mxnet",
    ] {
        assert!(names.contains(&n), "{n} missing from {names:?}");
    }
    assert_eq!(names[0], "reference");
    for d in &ds {
        assert!(d.verdict.is_some(), "{}: no verdict", d.name);
        for side in [&d.reader, &d.writer].into_iter().flatten() {
            if let Some(f) = &side.expected_failures {
                assert!(dir.join(f).is_file(), "{}: {f} missing", d.name);
            }
            for arg in side.command.iter().chain(side.persistent.iter().flatten()) {
                if let Some(script) = arg.strip_prefix("{adapters}/") {
                    assert!(dir.join(script).is_file(), "{}: {script} missing", d.name);
                }
            }
        }
    }
}

#[test]
fn the_rust_adapters_are_their_own_pinned_workspaces() {
    let dir = idx_conformance::adapters_dir();
    for (crate_dir, pin) in [
        ("idx-lib", "idx-lib = \"=0.0.2\""),
        ("nuvec-io", "nuvec-io = \"=0.5.0\""),
        ("idx-decoder", "idx-decoder = \"=0.0.2\""),
    ] {
        let manifest = std::fs::read_to_string(dir.join(crate_dir).join("Cargo.toml")).unwrap();
        assert!(
            manifest.contains("\n[workspace]\n"),
            "{crate_dir}: not its own workspace"
        );
        assert!(manifest.contains(pin), "{crate_dir}: not pinned");
        assert!(
            dir.join(crate_dir).join("Cargo.lock").is_file(),
            "{crate_dir}: no Cargo.lock"
        );
    }
}

/// A temporary adapters folder with one description, `fake`, whose reader
/// runs fake.py with BEHAVIOUR, and an expected-failures file.
fn adapters(behaviour: &str, expected: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let toml = format!(
        "name = \"fake\"\nsummary = \"the test adapter\"\nverdict = \"Accepts everything.\"\n\
         version = [\"echo\", \"fake 1.0\"]\ntimeout = 5\n\n[reader]\n\
         command = [\"python3\", \"{f}\", \"{behaviour}\"]\n\
         persistent = [\"python3\", \"{f}\", \"{behaviour}\", \"--persistent\"]\n\
         expected_failures = \"fake-reader.txt\"\n",
        f = fake()
    );
    std::fs::write(dir.path().join("fake.toml"), toml).unwrap();
    std::fs::write(dir.path().join("fake-reader.txt"), expected).unwrap();
    dir
}

fn matrix_run(dir: &Path, extra: &[&str]) -> (i32, String, String) {
    let envs = dir.join("envs");
    let mut args = vec![
        "matrix",
        "--adapters",
        dir.to_str().unwrap(),
        "--envs",
        envs.to_str().unwrap(),
    ];
    args.extend(extra);
    conformance(&args)
}

#[test]
fn check_fails_when_a_result_leaves_the_expected_failures() {
    // accept-all accepts the three invalid-trailing cases (among others).
    let all = "invalid-*\n";
    let dir = adapters("accept-all", all);
    let (code, out, err) = matrix_run(dir.path(), &["--check"]);
    assert_eq!(code, 0, "{out}{err}");
    assert_contains(&out, "fake reader (fake 1.0, persistent)");
    // One failure no longer listed: a change.
    let dir = adapters(
        "accept-all",
        "invalid-[!t]*\ninvalid-trailing-byte\ninvalid-trailing-extra-items\n",
    );
    let (code, out, _) = matrix_run(dir.path(), &["--check"]);
    assert_eq!(code, 1, "{out}");
    assert_contains(&out, "CHANGED fake reader: invalid-trailing-concatenated failed but is not in its expected failures");
    // A listed case that passes: a change too.
    let dir = adapters("accept-all", &format!("{all}valid-u8-rank3\n"));
    let (code, out, _) = matrix_run(dir.path(), &["--check"]);
    assert_eq!(code, 1, "{out}");
    assert_contains(
        &out,
        "CHANGED fake reader: valid-u8-rank3 passed but is listed as an expected failure",
    );
}

#[test]
fn one_run_writes_json_results_and_markdown_and_merges_saved_results() {
    let dir = adapters("accept-all", "invalid-*\n");
    let results = dir.path().join("results");
    let md = dir.path().join("MATRIX.md");
    // A saved result of another implementation, as `test-reader --json-out`
    // writes it.
    let saved = dir.path().join("other.json");
    let (code, _, err) = conformance(&[
        "test-reader",
        "--name",
        "other",
        "--impl-version",
        "other 2.0",
        "--run",
        "valid-u8-*",
        "--json-out",
        saved.to_str().unwrap(),
        "--",
        "python3",
        &fake(),
        "little-endian",
    ]);
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = matrix_run(
        dir.path(),
        &[
            "--results",
            results.to_str().unwrap(),
            "--out",
            md.to_str().unwrap(),
            "--merge",
            saved.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 0, "{out}{err}");
    let v: serde_json::Value =
        serde_json::from_slice(&std::fs::read(results.join("fake-reader.json")).unwrap()).unwrap();
    assert_eq!(v["implementation"]["name"], "fake");
    assert_eq!(v["persistent"], true);
    let text = std::fs::read_to_string(&md).unwrap();
    assert_contains(
        &text,
        "| fake | reader (persistent) | fake 1.0 | the test adapter |",
    );
    assert_contains(&text, "| other | reader | other 2.0 |");
    assert_contains(&text, "- **fake**: Accepts everything.");
    // the failing cases in corpus order, runs of one pattern grouped
    assert_contains(&text, "reader accepted-invalid: `invalid-width-*-under-*` (4), `invalid-width-i64-labels-under-u8`, `invalid-reserved-byte0`");
    assert_contains(
        &text,
        "- **other**: (no verdict written)\n  <sub>no failures</sub>",
    );
    assert_contains(&text, "| valid-u8-rank1 | valid | pass | pass |");
    assert_contains(
        &text,
        "| invalid-empty | invalid | **accepted-invalid** | - |",
    );
    assert_contains(&text, "- `invalid-gzip-bomb`: needs validator options");
}

#[test]
// Before, `test-reader --json-out` wrote no corpus fingerprint, so the
// matrix called seconds-old results STALE, and named the implementation
// by its interpreter (`python3`).
fn results_of_test_reader_merge_as_current_under_the_adapters_name() {
    let dir = tempfile::tempdir().unwrap();
    let saved = dir.path().join("r.json");
    let (code, _, err) = conformance(&[
        "test-reader",
        "--run",
        "valid-u8-rank*",
        "--json-out",
        saved.to_str().unwrap(),
        "--",
        "python3",
        &fake(),
        "none",
    ]);
    assert_eq!(code, 0, "{err}");
    let md = dir.path().join("MATRIX.md");
    let (code, out, err) = conformance(&[
        "matrix",
        "--no-run",
        "--merge",
        saved.to_str().unwrap(),
        "--out",
        md.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(!out.contains("STALE"), "{out}");
    let text = std::fs::read_to_string(&md).unwrap();
    assert_contains(&text, "\n| fake | reader |");
    assert!(!text.contains("python3"), "{text}");
}

#[test]
fn a_description_whose_name_is_not_its_file_name_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("a.toml"),
        "name = \"b\"\nsummary = \"x\"\n[reader]\ncommand = [\"true\"]\n",
    )
    .unwrap();
    let e = matrix::load_descriptions(dir.path()).unwrap_err();
    assert_contains(&e, "name \"b\" differs from the file name");
    std::fs::write(
        dir.path().join("a.toml"),
        "name = \"a\"\nsummary = \"x\"\nreder = 1\n",
    )
    .unwrap();
    let e = matrix::load_descriptions(dir.path()).unwrap_err();
    assert_contains(&e, "unknown field");
}

#[test]
fn families_that_differ_in_element_type_are_folded() {
    let ids = ["valid-u8-rank255", "valid-i8-rank255", "invalid-empty"];
    assert_eq!(
        matrix::fold_ids(&ids),
        "`valid-*-rank255` (2), `invalid-empty`"
    );
}
