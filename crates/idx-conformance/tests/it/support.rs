//! Helpers shared by several of `idx-conformance`'s test modules.

use test_support::Cmd;

/// The built `idx-conformance` binary, run in the package's folder: its
/// exit status, standard output and standard error. A run (`test-reader`,
/// `test-writer`, `matrix`) gets `--no-variants`: the test adapters know
/// a case by its committed bytes (`fake.py`), and the details asserted are
/// those of the committed files; [`conformance_varied`] runs variants.
pub fn conformance(args: &[&str]) -> (i32, String, String) {
    let mut all = args.to_vec();
    if matches!(
        args.first(),
        Some(&("test-reader" | "test-writer" | "matrix"))
    ) {
        all.insert(1, "--no-variants");
    }
    conformance_varied(&all)
}

/// [`conformance`] as given: a run gives each case its variant.
pub fn conformance_varied(args: &[&str]) -> (i32, String, String) {
    // a temporary folder of its own: what the run and its adapters leave
    // in one (a cheating adapter's state, another run's files) is never
    // another test's
    let tmp = tempfile::tempdir().unwrap(); // ok: test helper
    let o = Cmd::new(env!("CARGO_BIN_EXE_idx-conformance"))
        .args(args)
        .dir(env!("CARGO_MANIFEST_DIR"))
        .env("TMPDIR", tmp.path())
        .out();
    (o.code, o.stdout, o.stderr)
}

/// The synthetic adapter `tests/adapters/fake.py`, which misbehaves in each
/// way a real reader was seen to.
pub fn fake() -> String {
    script("fake.py")
}

/// A synthetic adapter in `tests/adapters`, by file name.
pub fn script(name: &str) -> String {
    format!("{}/tests/adapters/{name}", env!("CARGO_MANIFEST_DIR"))
}
