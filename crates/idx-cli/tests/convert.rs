//! `idx convert`: the arguments, the messages and the exit status (the
//! conversions themselves are tested in crates/idx-convert).

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap() // the repository exists
}

/// Runs `idx convert ARGS` at the repository root: status, stdout, stderr.
fn convert(args: &[&str]) -> (i32, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_idx"))
        .arg("convert")
        .args(args)
        .current_dir(root())
        .output()
        .unwrap(); // the binary was built by cargo
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

const IMAGES: &str = "../shared/data/mnist/t10k-images-idx3-ubyte.gz";
const LABELS: &str = "../shared/data/mnist/t10k-labels-idx1-ubyte.gz";

#[test]
fn lmdb_both_ways_with_messages_and_no_progress_off_a_terminal() {
    let t = tempfile::tempdir().unwrap(); // test scratch directory
    let db = t.path().join("db");
    let db = db.to_str().unwrap(); // a temporary path is UTF-8 here
    let (code, out, err) = convert(&["--to", "caffe-lmdb", IMAGES, LABELS, "-o", db]);
    assert_eq!(
        (code, err.as_str()),
        (0, ""),
        "stderr is not a terminal: no bar"
    );
    assert!(out.ends_with(
        ": 10000 records (keys 00000000..00009999) from u8 [10000, 28, 28] images and u8 labels\n"
    ));
    // Again: the database exists.
    let (code, _, err) = convert(&["--to", "caffe-lmdb", IMAGES, LABELS, "-o", db]);
    assert_eq!(code, 2);
    assert!(
        err.contains("already exists; nothing was written (--force replaces it)"),
        "{err}"
    );
    let (code, _, _) = convert(&["--to", "caffe-lmdb", IMAGES, LABELS, "-o", db, "--force"]);
    assert_eq!(code, 0);
    let (i, l) = (t.path().join("i.idx"), t.path().join("l.idx"));
    let (code, out, err) = convert(&[
        "--from",
        "caffe-lmdb",
        db,
        "-o",
        i.to_str().unwrap(), // UTF-8 temporary path
        l.to_str().unwrap(), // as above
    ]);
    assert_eq!((code, err.as_str()), (0, ""));
    assert!(
        out.contains("(u8 [10000, 28, 28])") && out.contains("(u8 [10000]) from 10000 records"),
        "{out}"
    );
}

#[test]
fn refusals_exit_1_with_findings_and_usage_errors_exit_2() {
    let t = tempfile::tempdir().unwrap(); // test scratch directory
    let out = t.path().join("x");
    let out = out.to_str().unwrap(); // UTF-8 temporary path
                                     // An invalid input: each error finding, then where to see them in context.
    let bad = "corpus/invalid/invalid-truncated-payload.idx";
    let (code, _, err) = convert(&["--to", "npy", bad, "-o", out]);
    assert_eq!(code, 1);
    assert!(
        err.starts_with(&format!(
            "error: {bad}: not a valid IDX file (1 error); nothing was written\n  error[IDX202]: "
        )),
        "{err}"
    );
    assert!(err.contains(&format!(
        "= help: `idx-validate {bad}` shows each finding in context"
    )));
    // A mismatched pair.
    let (code, _, err) = convert(&[
        "--to",
        "npz",
        "../shared/data/mnist/train-images-idx3-ubyte.gz",
        LABELS,
        "-o",
        out,
    ]);
    assert_eq!(code, 1);
    assert!(
        err.contains("holds 60000 items but") && err.contains("holds 10000"),
        "{err}"
    );
    // Wrong numbers of paths, and a direction that does not exist.
    for args in [
        &["--to", "caffe-lmdb", IMAGES, "-o", out][..],
        &["--from", "caffe-lmdb", out, "-o", out],
        &["--to", "npy", IMAGES, LABELS, "-o", out],
        &["--from", "npz", IMAGES, "-o", out],
    ] {
        let (code, _, err) = convert(args);
        assert_eq!(code, 2, "{args:?}");
        assert!(err.starts_with("error: --"), "{err}");
    }
    assert!(!Path::new(out).exists());
}
