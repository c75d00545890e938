//! `idx convert`: the arguments, the messages and the exit status (the
//! conversions themselves are tested in crates/idx-convert).

use crate::support::IDX;
use std::path::Path;
use std::process::Command;
use test_support::{assert_contains, root, Cmd};

/// Runs `idx convert ARGS` at the repository root: status, stdout, stderr.
fn convert(args: &[&str]) -> (i32, String, String) {
    let o = Cmd::new(IDX).args(["convert"]).args(args).out();
    (o.code, o.stdout, o.stderr)
}

const IMAGES: &str = "testdata/mnist/t10k-images-idx3-ubyte.gz";
const LABELS: &str = "testdata/mnist/t10k-labels-idx1-ubyte.gz";

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
    assert_contains(
        &err,
        "already exists; nothing was written (--force replaces it)",
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
    // A mismatched pair: MNIST's 10000 test images, 3 labels.
    let three = t.path().join("three-labels.idx");
    std::fs::write(&three, [0, 0, 8, 1, 0, 0, 0, 3, 7, 2, 1]).unwrap(); // test scratch file
    let (code, _, err) = convert(&[
        "--to",
        "npz",
        IMAGES,
        three.to_str().unwrap(), // UTF-8 temporary path
        "-o",
        out,
    ]);
    assert_eq!(code, 1);
    assert!(
        err.contains("holds 10000 items but") && err.contains("holds 3"),
        "{err}"
    );
    // Wrong numbers of paths, and a direction that does not exist.
    for args in [
        &["--to", "caffe-lmdb", IMAGES, "-o", out][..],
        &["--from", "caffe-lmdb", out, "-o", out],
        &["--to", "npy", IMAGES, LABELS, "-o", out],
    ] {
        let (code, _, err) = convert(args);
        assert_eq!(code, 2, "{args:?}");
        assert!(err.starts_with("error: --"), "{err}");
    }
    // --from offers only what it reads: npz is not among its values
    let (code, _, err) = convert(&["--from", "npz", IMAGES, "-o", out]);
    assert_eq!(code, 2);
    assert_contains(&err, "invalid value 'npz'");
    assert_contains(&err, "[possible values: caffe-lmdb, npy]");
    assert!(!Path::new(out).exists());
}

/// `idx convert ARGS` under `sh -c "umask UMASK; ..."`, with `stdin` piped
/// in from a file when given.
fn convert_sh(umask: &str, args: &[&str], stdin: Option<&Path>) -> (i32, Vec<u8>, String) {
    let quoted: Vec<String> = args
        .iter()
        .map(|a| format!("'{}'", a.replace('\'', "'\\''")))
        .collect();
    let redirect = stdin.map_or(String::new(), |p| format!(" < '{}'", p.display()));
    let o = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "umask {umask} && exec '{}' convert {}{redirect}",
            env!("CARGO_BIN_EXE_idx"),
            quoted.join(" ")
        ))
        .current_dir(root())
        .output()
        .unwrap();
    (
        o.status.code().unwrap_or(-1),
        o.stdout,
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn mode(p: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).unwrap().permissions().mode() & 0o777
}

#[test]
fn every_output_takes_its_mode_from_the_umask() {
    let dir = tempfile::tempdir().unwrap();
    let labels = dir.path().join("labels.idx");
    let images = dir.path().join("images.idx");
    // ten 2 x 3 images and their labels
    let img: Vec<u8> = (0..60).collect();
    std::fs::write(
        &images,
        idx::to_bytes(&idx::Array::from_vec(vec![10, 2, 3], img).unwrap()).unwrap(),
    )
    .unwrap();
    std::fs::write(
        &labels,
        idx::to_bytes(&idx::Array::from_vec(vec![10], (0..10u8).collect()).unwrap()).unwrap(),
    )
    .unwrap();
    let (i, l) = (images.to_str().unwrap(), labels.to_str().unwrap());
    for (umask, want) in [("022", 0o644), ("077", 0o600)] {
        let sub = dir.path().join(format!("u{umask}"));
        std::fs::create_dir(&sub).unwrap();
        let p = |n: &str| sub.join(n).to_str().unwrap().to_string();
        let runs: Vec<Vec<String>> = vec![
            vec![
                "--to".into(),
                "npy".into(),
                i.into(),
                "-o".into(),
                p("a.npy"),
            ],
            vec![
                "--to".into(),
                "npz".into(),
                i.into(),
                l.into(),
                "-o".into(),
                p("a.npz"),
            ],
            vec![
                "--from".into(),
                "npy".into(),
                p("a.npy"),
                "-o".into(),
                p("a.idx"),
            ],
            vec![
                "--to".into(),
                "caffe-lmdb".into(),
                i.into(),
                l.into(),
                "-o".into(),
                p("db"),
            ],
            vec![
                "--from".into(),
                "caffe-lmdb".into(),
                p("db"),
                "-o".into(),
                p("i.idx"),
                p("l.idx"),
            ],
        ];
        for args in &runs {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let (code, _, err) = convert_sh(umask, &args, None);
            assert_eq!(code, 0, "{args:?}: {err}");
        }
        for f in [
            "a.npy",
            "a.npz",
            "a.idx",
            "db/data.mdb",
            "db/lock.mdb",
            "i.idx",
            "l.idx",
        ] {
            assert_eq!(mode(&sub.join(f)), want, "umask {umask}: {f}");
        }
        assert_eq!(mode(&sub.join("db")) & 0o700, 0o700);
        assert_eq!(
            mode(&sub.join("db")) & 0o077 == 0,
            umask == "077",
            "db directory"
        );
    }
}

#[test]
fn dash_reads_standard_input_and_writes_standard_output() {
    let dir = tempfile::tempdir().unwrap();
    let npy = dir.path().join("t.npy");
    // the real MNIST test labels, gzipped, on standard input
    let (code, _, err) = convert_sh(
        "022",
        &["--to", "npy", "-", "-o", npy.to_str().unwrap()],
        Some(&root().join(LABELS)),
    );
    assert_eq!(code, 0, "{err}");
    assert!(err.is_empty() || !err.contains("error"), "{err}");
    let bytes = std::fs::read(&npy).unwrap();
    assert!(bytes.starts_with(b"\x93NUMPY"));
    assert_eq!(bytes.len() % 64, 10_000 % 64);
    // -o -: the .npy on standard output, the summary on standard error
    let (code, out, err) = convert_sh("022", &["--to", "npy", LABELS, "-o", "-"], None);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, bytes);
    assert_contains(&err, "wrote -");
    // and back: .npy on standard input, IDX on standard output
    let (code, out, err) = convert_sh("022", &["--from", "npy", "-", "-o", "-"], Some(&npy));
    assert_eq!(code, 0, "{err}");
    assert_eq!(&out[..8], &[0, 0, 8, 1, 0, 0, 0x27, 0x10]);
    assert_eq!(out.len(), 8 + 10_000);
    // a zip cannot be streamed; a database is a directory
    let (code, _, err) = convert_sh("022", &["--to", "npz", IMAGES, LABELS, "-o", "-"], None);
    assert_eq!(code, 2, "{err}");
    assert_contains(&err, "cannot be written to standard output");
}

/// `idx convert FLAG npy INPUT -o OUTPUT EXTRA...` (`--to` or `--from`),
/// umask 022, no standard input: status, stdout, stderr.
fn npy_convert(flag: &str, input: &Path, output: &Path, extra: &[&str]) -> (i32, Vec<u8>, String) {
    let mut args = vec![
        flag,
        "npy",
        input.to_str().unwrap(),
        "-o",
        output.to_str().unwrap(),
    ];
    args.extend(extra);
    convert_sh("022", &args, None)
}

#[test]
fn no_output_replaces_an_input_by_path_symlink_or_hard_link() {
    let dir = tempfile::tempdir().unwrap();
    let labels = dir.path().join("labels.idx");
    let bytes =
        idx::to_bytes(&idx::Array::from_vec(vec![10], (0..10u8).collect()).unwrap()).unwrap();
    std::fs::write(&labels, &bytes).unwrap();
    let npy = dir.path().join("l.npy");
    let (code, _, err) = npy_convert("--to", &labels, &npy, &[]);
    assert_eq!(code, 0, "{err}");
    let npy_bytes = std::fs::read(&npy).unwrap();
    let hard = dir.path().join("hard");
    std::fs::hard_link(&labels, &hard).unwrap();
    let soft = dir.path().join("soft");
    std::os::unix::fs::symlink(&labels, &soft).unwrap();
    for dest in [&labels, &hard, &soft] {
        let (code, _, err) = npy_convert("--to", &labels, dest, &["--force"]);
        assert_eq!(code, 2, "{err}");
        assert_contains(&err, "is one of the inputs");
        assert_eq!(std::fs::read(&labels).unwrap(), bytes);
    }
    // --from npy onto its own input, through a hard link
    let npy_hard = dir.path().join("npy-hard");
    std::fs::hard_link(&npy, &npy_hard).unwrap();
    let (code, _, err) = npy_convert("--from", &npy, &npy_hard, &["--force"]);
    assert_eq!(code, 2, "{err}");
    assert_eq!(std::fs::read(&npy).unwrap(), npy_bytes);
}

/// `np.asfortranarray(a)` and `np.save(a.T)` write Fortran-order `.npy`
/// files: `idx convert --from npy` converts them to the row-major IDX of
/// the same array, from a file or standard input, to a file or standard
/// output.
#[test]
fn a_fortran_order_npy_converts_through_files_and_standard_streams() {
    let dir = tempfile::tempdir().unwrap();
    // i16 [2, 3] = [[1, 2, 3], [4, 5, 6]] stored column-major, little-endian
    let mut npy = test_support::npy(
        "{'descr': '<i2', 'fortran_order': True, 'shape': (2, 3), }",
        &[],
    );
    for v in [1i16, 4, 2, 5, 3, 6] {
        npy.extend_from_slice(&v.to_le_bytes());
    }
    let f = dir.path().join("f.npy");
    std::fs::write(&f, &npy).unwrap();
    let mut want = vec![0, 0, 0x0b, 2, 0, 0, 0, 2, 0, 0, 0, 3];
    for v in 1i16..=6 {
        want.extend_from_slice(&v.to_be_bytes());
    }
    let out = dir.path().join("o.idx");
    let (code, _, err) = convert(&[
        "--from",
        "npy",
        f.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(std::fs::read(&out).unwrap(), want);
    let (code, bytes, err) = convert_sh("022", &["--from", "npy", "-", "-o", "-"], Some(&f));
    assert_eq!(code, 0, "{err}");
    assert_eq!(bytes, want);
}

/// The Fortran-order conversion holds tiles, not the array: 48 MiB
/// column-major (`np.asfortranarray` of u8 [6144, 64, 128], and the
/// transpose's layout, u8 [128, 64, 6144]) converted under 24 MiB of
/// address space, each element landing where row-major order puts it.
#[test]
fn a_fortran_order_npy_converts_in_bounded_memory() {
    use std::os::unix::fs::FileExt;
    let dir = tempfile::tempdir().unwrap();
    for dims in [[6144u64, 64, 128], [128, 64, 6144]] {
        let shape = format!("({}, {}, {})", dims[0], dims[1], dims[2]);
        let head = test_support::npy(
            &format!("{{'descr': '|u1', 'fortran_order': True, 'shape': {shape}, }}"),
            &[],
        );
        let n: u64 = dims.iter().product();
        let f = dir.path().join("big.npy");
        let file = std::fs::File::create(&f).unwrap();
        file.write_all_at(&head, 0).unwrap();
        file.set_len(head.len() as u64 + n).unwrap();
        // marked elements: (index, value), at their column-major offsets
        let marks = [
            ([0u64, 0, 1], 1u8),
            ([1, 2, 3], 2),
            ([dims[0] - 1, 5, dims[2] - 1], 3),
        ];
        for (i, v) in marks {
            let f_off = i[0] + dims[0] * (i[1] + dims[1] * i[2]);
            file.write_all_at(&[v], head.len() as u64 + f_off).unwrap();
        }
        drop(file);
        let out = dir.path().join("big.idx");
        let quoted = format!(
            "ulimit -v 24576 && exec '{IDX}' convert --from npy --force '{}' -o '{}'",
            f.display(),
            out.display()
        );
        let o = Cmd::new("sh").args(["-c", &quoted]).out();
        assert_eq!(o.code, 0, "{dims:?}: {}", o.stderr);
        let idx = std::fs::File::open(&out).unwrap();
        assert_eq!(idx.metadata().unwrap().len(), 16 + n);
        for (i, v) in marks {
            let c_off = (i[0] * dims[1] + i[1]) * dims[2] + i[2];
            let mut b = [0u8];
            idx.read_exact_at(&mut b, 16 + c_off).unwrap();
            assert_eq!(b[0], v, "{dims:?} element {i:?}");
        }
        let mut b = [9u8];
        idx.read_exact_at(&mut b, 16 + 2).unwrap();
        assert_eq!(b[0], 0, "{dims:?}: an unmarked element");
    }
}
