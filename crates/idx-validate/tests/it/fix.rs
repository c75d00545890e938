//! `--fix`, `--unsafe-fixes`, `--diff`, `--output`, `--assume-byte-order`,
//! `--exit-non-zero-on-fix` through the built binary, and the file
//! handling guarantees: atomic, loss-free, permissions kept, symlinks
//! followed, standard input to standard output, failures leave the input
//! byte-identical and say why.

use crate::support::IDX_VALIDATE;
use idx::{to_bytes, Array, Data};
use serde_json::Value;
use std::io::Write;
use std::os::unix::fs::{symlink, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use test_support::{assert_contains, gunzip, gzip, Cmd, Out};

/// The binary in `dir`, without colour, `stdin` fed to it when given.
fn run_plain_in(dir: &Path, args: &[&str], stdin: Option<&[u8]>) -> Out {
    Cmd::new(IDX_VALIDATE)
        .args(args)
        .args(["--color=never"])
        .dir(dir)
        .stdin(stdin)
        .out()
}

/// A smooth f32 array (a sine), as real data is.
fn sine(n0: usize, n1: usize) -> Array {
    let n = n0 * n1;
    Array::new(
        vec![n0, n1],
        Data::F32((0..n).map(|i| (i as f32 * 0.05).sin() * 100.0).collect()),
    )
    .unwrap()
}

/// The IDX technical report's writer: big-endian magic and dimensions,
/// then `tofile` (native little-endian elements).
fn tech_report(a: &Array) -> Vec<u8> {
    let mut f = Vec::new();
    let magic = u32::from(a.dtype().code()) << 8 | a.dims().len() as u32;
    f.extend_from_slice(&magic.to_be_bytes());
    for &d in a.dims() {
        f.extend_from_slice(&(d as u32).to_be_bytes());
    }
    let Data::F32(v) = a.data() else {
        unreachable!()
    };
    f.extend(v.iter().flat_map(|x| x.to_le_bytes()));
    f
}

fn entries(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

fn setup(name: &str, bytes: &[u8]) -> (tempfile::TempDir, PathBuf) {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join(name);
    std::fs::write(&p, bytes).unwrap();
    (d, p)
}

#[test]
fn without_fix_nothing_is_ever_written() {
    let bytes = tech_report(&sine(10, 30));
    let (d, p) = setup("le.idx", &bytes);
    let mtime = std::fs::metadata(&p).unwrap().modified().unwrap();
    for fmt in [
        "human", "short", "json", "jsonl", "sarif", "junit", "github",
    ] {
        let o = run_plain_in(
            d.path(),
            &["--format", fmt, "--unsafe-fixes", "le.idx"],
            None,
        );
        // the byte-order test warns (exit 0); an override makes it fail
        assert_eq!(o.code, 0, "{fmt}: {}", o.stderr);
        let o = run_plain_in(
            d.path(),
            &[
                "--format",
                fmt,
                "--unsafe-fixes",
                "--severity",
                "IDX501=error",
                "le.idx",
            ],
            None,
        );
        assert_eq!(o.code, 1, "{fmt}: {}", o.stderr);
    }
    let o = run_plain_in(d.path(), &["--diff", "--unsafe-fixes", "le.idx"], None);
    assert_eq!(o.code, 1, "--diff exits 1 when it would change a file");
    assert_eq!(std::fs::read(&p).unwrap(), bytes);
    assert_eq!(std::fs::metadata(&p).unwrap().modified().unwrap(), mtime);
    assert_eq!(entries(d.path()), ["le.idx"]);
}

#[test]
fn technical_report_writer_file_is_repaired_exactly() {
    let a = sine(12, 50);
    let canonical = to_bytes(&a).unwrap();
    for args in [
        &["--fix", "--unsafe-fixes"][..],
        &["--fix", "--assume-byte-order", "little"][..],
    ] {
        let (d, p) = setup("le.idx", &tech_report(&a));
        let o = run_plain_in(d.path(), &[args, &["le.idx"]].concat(), None);
        assert_eq!(o.code, 0, "{args:?}: {}{}", o.stdout, o.stderr);
        assert_eq!(std::fs::read(&p).unwrap(), canonical, "{args:?}");
        // the guess answers IDX501; the statement needs no lint (read as
        // stated, the payload is consistent: the swap is the statement's)
        let tag = if args.contains(&"little") {
            "fixed[stated]"
        } else {
            "fixed[IDX501]"
        };
        assert!(o.stdout.contains(tag), "{}", o.stdout);
        assert_contains(&o.stdout, "1 fix applied");
        assert_eq!(entries(d.path()), ["le.idx"], "no temporary file left");
        // idempotent: a second run changes nothing
        let o = run_plain_in(d.path(), &[args, &["le.idx"]].concat(), None);
        assert!(o.stdout.contains("nothing to fix") || args.contains(&"little"));
    }
    // safe fixes alone never guess the byte order
    let (d, p) = setup("le.idx", &tech_report(&a));
    let o = run_plain_in(d.path(), &["--fix", "le.idx"], None);
    assert_eq!(o.code, 0, "the IDX501 warning remains, no error");
    assert_contains(&o.stdout, "warning[IDX501]");
    assert_eq!(std::fs::read(&p).unwrap(), tech_report(&a));
    assert_contains(&o.stdout, "1 has an unsafe fix");
}

#[test]
fn exit_status_reflects_what_remains() {
    let mut bytes = to_bytes(&sine(4, 5)).unwrap();
    bytes.extend_from_slice(b"junk");
    // safe only: the trailing bytes remain (exit 1), the report says an unsafe fix exists
    let (d, p) = setup("t.idx", &bytes);
    let o = run_plain_in(d.path(), &["--fix", "t.idx"], None);
    assert_eq!(o.code, 1);
    assert_contains(&o.stdout, "[IDX203]");
    assert_contains(&o.stdout, "1 has an unsafe fix");
    assert_eq!(std::fs::read(&p).unwrap(), bytes);
    // unsafe: fixed, nothing remains (exit 0), or 1 under --exit-non-zero-on-fix
    let o = run_plain_in(
        d.path(),
        &["--fix", "--unsafe-fixes", "--exit-non-zero-on-fix", "t.idx"],
        None,
    );
    assert_eq!(o.code, 1, "{}", o.stdout);
    assert_eq!(std::fs::read(&p).unwrap(), to_bytes(&sine(4, 5)).unwrap());
    assert_contains(&o.stdout, "4 bytes dropped");
    std::fs::write(&p, &bytes).unwrap();
    let o = run_plain_in(d.path(), &["--fix", "--unsafe-fixes", "t.idx"], None);
    assert_eq!(o.code, 0, "{}", o.stdout);
}

#[test]
fn diff_shows_each_fix_and_the_header_before_and_after() {
    // a whole header written little-endian (IDX401): a safe fix
    let mut bytes = to_bytes(&sine(3, 4)).unwrap();
    for k in 0..3 {
        bytes[4 * k..4 * k + 4].reverse();
    }
    let (d, p) = setup("h.idx", &bytes);
    let o = run_plain_in(d.path(), &["--diff", "h.idx"], None);
    assert_eq!(o.code, 1);
    let t = o.stdout;
    assert_contains(&t, "would fix[IDX401]");
    assert_contains(&t, "header before: 02 0d 00 00 03 00 00 00 04 00 00 00");
    assert_contains(&t, "header after:  00 00 0d 02 00 00 00 03 00 00 00 04");
    assert_contains(&t, "nothing written (--diff)");
    assert_eq!(std::fs::read(&p).unwrap(), bytes);
    assert_eq!(entries(d.path()), ["h.idx"]);
}

#[test]
fn output_writes_a_copy_and_leaves_the_input_alone() {
    let a = sine(6, 7);
    let le = tech_report(&a);
    let (d, p) = setup("le.idx", &le);
    let o = run_plain_in(
        d.path(),
        &["--fix", "--unsafe-fixes", "--output", "out.idx", "le.idx"],
        None,
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(std::fs::read(&p).unwrap(), le);
    assert_eq!(
        std::fs::read(d.path().join("out.idx")).unwrap(),
        to_bytes(&a).unwrap()
    );
    // --output needs --fix, and exactly one input
    assert_eq!(
        run_plain_in(d.path(), &["--output", "x.idx", "le.idx"], None).code,
        2
    );
    let o = run_plain_in(
        d.path(),
        &["--fix", "--output", "x.idx", "le.idx", "out.idx"],
        None,
    );
    assert_eq!(o.code, 2);
    assert_contains(&o.stderr, "exactly one input");
}

/// `--output -` is standard output, as `-` is wherever a stream goes: the
/// repaired copy on stdout (gzip when the input is, as standard input is
/// repaired), the report on stderr, no file named `-`.
#[test]
fn output_dash_writes_the_repaired_copy_to_standard_output() {
    let a = sine(6, 7);
    let le = tech_report(&a);
    let (d, p) = setup("le.idx", &le);
    let o = run_plain_in(
        d.path(),
        &["--fix", "--unsafe-fixes", "--output", "-", "le.idx"],
        None,
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(o.stdout_bytes, to_bytes(&a).unwrap());
    assert_contains(
        &o.stderr,
        "le.idx: FIX: 1 fix (0 remaining); repaired stream written to standard output",
    );
    assert_eq!(std::fs::read(&p).unwrap(), le, "the input is left alone");
    assert_eq!(entries(d.path()), ["le.idx"], "no file named -");
    // a valid input is copied as it is; gzip stays gzip
    std::fs::write(d.path().join("ok.idx.gz"), gzip(&to_bytes(&a).unwrap())).unwrap();
    let o = run_plain_in(
        d.path(),
        &["--format", "json", "--fix", "--output", "-", "ok.idx.gz"],
        None,
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(gunzip(&o.stdout_bytes), to_bytes(&a).unwrap());
    let v: Value = serde_json::from_str(&o.stderr).unwrap();
    assert_eq!(v["files"][0]["repair"]["action"], "stdout");
}

/// A repair that cannot write says why and which file, never the name of
/// the temporary file it could not create (a file that does not exist).
#[test]
fn a_failed_repair_names_no_temporary_file() {
    let le = tech_report(&sine(6, 7));
    let (d, p) = setup("le.idx", &le);
    std::fs::write(d.path().join("plain"), b"x").unwrap();
    for format in ["human", "short", "json"] {
        let o = run_plain_in(
            d.path(),
            &[
                "--format",
                format,
                "--fix",
                "--unsafe-fixes",
                "--output",
                "plain/out.idx",
                "le.idx",
            ],
            None,
        );
        assert_eq!(o.code, 2, "{format}: {}{}", o.stdout, o.stderr);
        let all = format!("{}{}", o.stdout, o.stderr);
        assert!(all.contains("Not a directory"), "{format}: {all}");
        assert!(all.contains("plain/out.idx"), "{format}: {all}");
        assert!(
            !all.contains("at path") && !all.contains(".out.idx."),
            "{format}: a temporary name in {all}"
        );
        assert_eq!(std::fs::read(&p).unwrap(), le);
    }
}

#[test]
fn gzip_keeps_its_compression_or_is_written_plain_by_name() {
    let a = sine(6, 7);
    let gz = gzip(&tech_report(&a));
    let (d, p) = setup("le.idx.gz", &gz);
    let o = run_plain_in(
        d.path(),
        &[
            "--fix",
            "--unsafe-fixes",
            "--output",
            "plain.idx",
            "le.idx.gz",
        ],
        None,
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(
        std::fs::read(d.path().join("plain.idx")).unwrap(),
        to_bytes(&a).unwrap()
    );
    assert_eq!(std::fs::read(&p).unwrap(), gz);
    let o = run_plain_in(d.path(), &["--fix", "--unsafe-fixes", "le.idx.gz"], None);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let fixed = std::fs::read(&p).unwrap();
    assert_eq!(&fixed[..2], &[0x1f, 0x8b]);
    assert_eq!(gunzip(&fixed), to_bytes(&a).unwrap());
}

#[test]
fn permissions_are_kept_and_symlinks_stay_links() {
    let a = sine(10, 10);
    let (d, target) = setup("target.idx", &tech_report(&a));
    std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o640)).unwrap();
    let sub = d.path().join("links");
    std::fs::create_dir(&sub).unwrap();
    symlink(&target, sub.join("link.idx")).unwrap();
    let o = run_plain_in(&sub, &["--fix", "--unsafe-fixes", "link.idx"], None);
    assert_eq!(o.code, 0, "{}{}", o.stdout, o.stderr);
    let link = sub.join("link.idx");
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(std::fs::read_link(&link).unwrap(), target);
    assert_eq!(std::fs::read(&target).unwrap(), to_bytes(&a).unwrap());
    let mode = std::fs::metadata(&target).unwrap().permissions().mode() & 0o7777;
    assert_eq!(mode, 0o640);
    assert_eq!(
        entries(&sub),
        ["link.idx"],
        "the temporary file is beside the target"
    );
    assert_eq!(entries(d.path()), ["links", "target.idx"]);
}

#[test]
fn standard_input_is_repaired_to_standard_output_only() {
    let a = sine(10, 6);
    let d = tempfile::tempdir().unwrap();
    let o = run_plain_in(
        d.path(),
        &["--fix", "--unsafe-fixes", "-"],
        Some(&tech_report(&a)),
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(o.stdout_bytes, to_bytes(&a).unwrap());
    assert_contains(&o.stderr, "repaired stream written to standard output");
    assert!(entries(d.path()).is_empty());
    // nothing to fix: the data passes through unchanged
    let valid = to_bytes(&a).unwrap();
    let o = run_plain_in(d.path(), &["--fix", "-"], Some(&valid));
    assert_eq!((o.code, o.stdout_bytes), (0, valid));
    // standard input must be alone
    let (d, _) = setup("x.idx", &to_bytes(&a).unwrap());
    assert_eq!(
        run_plain_in(d.path(), &["--fix", "-", "x.idx"], Some(b"")).code,
        2
    );
}

#[test]
fn json_jsonl_and_sarif_carry_the_fixes() {
    let mut bytes = to_bytes(&sine(4, 5)).unwrap();
    bytes.extend_from_slice(b"xy");
    let (d, _) = setup("t.idx", &bytes);
    let le = tech_report(&sine(8, 8));
    std::fs::write(d.path().join("le.idx"), &le).unwrap();
    let o = run_plain_in(d.path(), &["--format", "json", "t.idx", "le.idx"], None);
    let v: Value = serde_json::from_slice(&o.stdout_bytes).unwrap();
    let fix = &v["files"][0]["findings"][0]["fix"];
    assert_eq!(fix["applicability"], "unsafe");
    assert_eq!(
        fix["edits"][0],
        serde_json::json!({"kind": "delete", "offset": 92, "length": 2})
    );
    assert_eq!(v["summary"]["unsafe_fixable"], 2);
    let o = run_plain_in(d.path(), &["--format", "jsonl", "t.idx"], None);
    let line: Value = serde_json::from_str(o.stdout.lines().next().unwrap()).unwrap();
    assert_eq!(line["fix"]["edits"][0]["kind"], "delete");
    let o = run_plain_in(d.path(), &["--format", "sarif", "t.idx", "le.idx"], None);
    let s: Value = serde_json::from_slice(&o.stdout_bytes).unwrap();
    let results = s["runs"][0]["results"].as_array().unwrap();
    let trailing = results.iter().find(|r| r["ruleId"] == "IDX203").unwrap();
    let change = &trailing["fixes"][0]["artifactChanges"][0];
    assert_eq!(change["artifactLocation"]["uri"], "t.idx");
    assert_eq!(
        change["replacements"][0]["deletedRegion"],
        serde_json::json!({"byteOffset": 92, "byteLength": 2})
    );
    // a payload swap is no SARIF fix (it has no small artifact change): a description
    let swap = results.iter().find(|r| r["ruleId"] == "IDX501").unwrap();
    assert!(swap.get("fixes").is_none());
    assert_eq!(swap["properties"]["fix"]["edits"][0]["kind"], "swap");
    // after --fix the JSON says what was applied and what remains
    let o = run_plain_in(
        d.path(),
        &["--format", "json", "--fix", "--unsafe-fixes", "t.idx"],
        None,
    );
    let v: Value = serde_json::from_slice(&o.stdout_bytes).unwrap();
    assert_eq!(v["files"][0]["repair"]["action"], "rewritten");
    assert_eq!(v["files"][0]["repair"]["applied"][0]["rule"], "IDX203");
    assert_eq!(v["files"][0]["repair"]["dropped_bytes"], 2);
    assert_eq!(v["files"][0]["findings"], serde_json::json!([]));
}

#[test]
fn sarif_header_replacement_is_base64_binary() {
    let mut bytes = to_bytes(&sine(3, 4)).unwrap();
    for k in 0..3 {
        bytes[4 * k..4 * k + 4].reverse();
    }
    let (d, _) = setup("h.idx", &bytes);
    let o = run_plain_in(d.path(), &["--format", "sarif", "h.idx"], None);
    let s: Value = serde_json::from_slice(&o.stdout_bytes).unwrap();
    let r = &s["runs"][0]["results"][0]["fixes"][0]["artifactChanges"][0]["replacements"][0];
    assert_eq!(
        r["deletedRegion"],
        serde_json::json!({"byteOffset": 0, "byteLength": 12})
    );
    // 00 00 0d 02 00 00 00 03 00 00 00 04
    assert_eq!(r["insertedContent"]["binary"], "AAANAgAAAAMAAAAE");
}

#[test]
fn list_rules_fixable_column_agrees_with_the_library() {
    let d = tempfile::tempdir().unwrap();
    let o = run_plain_in(d.path(), &["--list-rules"], None);
    for line in o.stdout.lines() {
        let cols: Vec<&str> = line.split_whitespace().collect();
        let rule = idx::Rule::find(cols[0]).unwrap();
        assert_eq!(cols[2], idx_validate::fix_column(rule), "{line}");
        let want: Vec<&str> = rule.fixes().iter().map(|a| a.as_str()).collect();
        let got: Vec<&str> = cols[2].split('|').filter(|c| *c != "-").collect();
        assert_eq!(got, want, "{line}");
    }
    assert_eq!(o.stdout.lines().count(), idx::Rule::ALL.len());
}

// ---------------------------------------------------------------------------
// Failures leave the input byte-identical and say why

/// True when this process may mount (root with CAP_SYS_ADMIN).
fn mount(args: &[&str]) -> bool {
    Command::new("mount")
        .args(args)
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

fn umount(p: &Path) {
    let _ = Command::new("umount").arg(p).status();
}

/// Runs `idx-validate ARGS` under `ulimit -f BLOCKS` with SIGXFSZ ignored,
/// so that writing more than BLOCKS * 512 bytes fails with EFBIG.
fn run_with_file_size_limit(dir: &Path, blocks: u64, args: &[&str]) -> Out {
    let bin = IDX_VALIDATE;
    let script = format!("trap '' XFSZ; ulimit -f {blocks}; exec \"$0\" \"$@\"");
    let o = Command::new("sh")
        .arg("-c")
        .arg(script)
        .arg(bin)
        .args(args)
        .arg("--color=never")
        .current_dir(dir)
        .output()
        .unwrap();
    o.into()
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.stdout.starts_with(b"0\n"))
}

#[test]
fn unwritable_directory_leaves_the_input_unchanged() {
    let bytes = tech_report(&sine(10, 10));
    let (d, p) = setup("le.idx", &bytes);
    let dir = d.path().to_path_buf();
    // root ignores permission bits: a read-only bind mount, or failing that
    // a file size limit of 0 (no byte can be written)
    let how;
    let o = if !is_root() {
        how = "chmod 0555";
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o555)).unwrap();
        let o = run_plain_in(&dir, &["--fix", "--unsafe-fixes", "le.idx"], None);
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
        o
    } else if mount(&["--bind", dir.to_str().unwrap(), dir.to_str().unwrap()])
        && mount(&["-o", "remount,ro,bind", dir.to_str().unwrap()])
    {
        how = "read-only bind mount";
        let o = run_plain_in(&dir, &["--fix", "--unsafe-fixes", "le.idx"], None);
        umount(&dir);
        o
    } else {
        how = "ulimit -f 0";
        run_with_file_size_limit(&dir, 0, &["--fix", "--unsafe-fixes", "le.idx"])
    };
    assert_eq!(o.code, 2, "{how}: {}{}", o.stdout, o.stderr);
    assert!(o.stdout.contains("NOT REPAIRED"), "{how}: {}", o.stdout);
    assert!(
        o.stdout.contains("was left unchanged"),
        "{how}: {}",
        o.stdout
    );
    assert!(
        o.stdout.contains("Read-only file system")
            || o.stdout.contains("Permission denied")
            || o.stdout.contains("File too large"),
        "{how}: the reason is given: {}",
        o.stdout
    );
    assert!(!o.stdout.contains("at path"), "{how}: {}", o.stdout);
    assert_eq!(std::fs::read(&p).unwrap(), bytes, "{how}");
    assert_eq!(entries(&dir), ["le.idx"], "{how}: no temporary file left");
}

#[test]
fn full_disk_leaves_the_input_unchanged() {
    // a 64 KiB tmpfs holding a 40 KiB file: the repaired copy cannot fit
    let bytes = tech_report(&sine(100, 100));
    assert!(bytes.len() > 32 * 1024);
    let d = tempfile::tempdir().unwrap();
    let dir = d.path().join("small");
    std::fs::create_dir(&dir).unwrap();
    let mounted = is_root()
        && mount(&[
            "-t",
            "tmpfs",
            "-o",
            "size=64k",
            "tmpfs",
            dir.to_str().unwrap(),
        ]);
    let p = dir.join("le.idx");
    std::fs::write(&p, &bytes).unwrap();
    let (how, o) = if mounted {
        let o = run_plain_in(&dir, &["--fix", "--unsafe-fixes", "le.idx"], None);
        ("64 KiB tmpfs", o)
    } else {
        // no mount permission: a file size limit below the file's size
        let blocks = (bytes.len() as u64 / 512) / 2;
        (
            "ulimit -f",
            run_with_file_size_limit(&dir, blocks, &["--fix", "--unsafe-fixes", "le.idx"]),
        )
    };
    let after = std::fs::read(&p).unwrap();
    let left = entries(&dir);
    if mounted {
        umount(&dir);
    }
    assert_eq!(o.code, 2, "{how}: {}{}", o.stdout, o.stderr);
    assert!(
        o.stdout.contains("No space left on device") || o.stdout.contains("File too large"),
        "{how}: {}",
        o.stdout
    );
    assert!(
        o.stdout.contains("was left unchanged"),
        "{how}: {}",
        o.stdout
    );
    assert!(!o.stdout.contains("at path"), "{how}: {}", o.stdout);
    assert_eq!(after, bytes, "{how}");
    assert_eq!(left, ["le.idx"], "{how}: no temporary file left");
}

#[test]
fn input_changing_while_read_leaves_it_as_the_writer_left_it() {
    use idx_validate::check::{Settings, Source};
    use idx_validate::repair::{fix_with, Action, FixSettings};
    let bytes = tech_report(&sine(10, 10));
    let (d, p) = setup("le.idx", &bytes);
    let settings = Settings {
        options: idx::Options::default().with_decompress(true),
        structure_only: false,
        max_findings: 10,
    };
    let fix = FixSettings {
        options: idx::FixOptions::default().with_unsafe_fixes(true),
        diff: false,
        output: None,
    };
    // another writer appends to the file after it was read, before the rename
    let r = fix_with(&Source::File(p.clone()), &settings, &fix, || {
        let mut f = std::fs::OpenOptions::new().append(true).open(&p).unwrap();
        f.write_all(b"more").unwrap();
    });
    let c = r.outcome.unwrap();
    match &c.repair.as_ref().unwrap().action {
        Action::Failed(why) => assert!(why.contains("changed while it was read"), "{why}"),
        other => panic!("expected a failure, got {other:?}"),
    }
    assert_eq!(std::fs::read(&p).unwrap(), [&bytes[..], b"more"].concat());
    assert_eq!(entries(d.path()), ["le.idx"]);
}

#[test]
fn configuration_keys_fix_and_unsafe_fixes() {
    let a = sine(10, 10);
    let (d, p) = setup("le.idx", &tech_report(&a));
    std::fs::write(d.path().join("idx-validate.toml"), "fix = true\n").unwrap();
    let o = run_plain_in(d.path(), &["le.idx"], None);
    assert_eq!(o.code, 0, "{}{}", o.stdout, o.stderr);
    assert_contains(&o.stdout, "warning[IDX501]");
    assert_eq!(
        std::fs::read(&p).unwrap(),
        tech_report(&a),
        "fix alone is safe only"
    );
    std::fs::write(
        d.path().join("idx-validate.toml"),
        "fix = true\nunsafe-fixes = true\n",
    )
    .unwrap();
    let o = run_plain_in(d.path(), &["le.idx"], None);
    assert_eq!(o.code, 0, "{}{}", o.stdout, o.stderr);
    assert_eq!(std::fs::read(&p).unwrap(), to_bytes(&a).unwrap());
    // --no-fix overrides the configuration: nothing is written
    std::fs::write(&p, tech_report(&a)).unwrap();
    let o = run_plain_in(d.path(), &["--no-fix", "le.idx"], None);
    assert_eq!(o.code, 0, "{}{}", o.stdout, o.stderr);
    assert_contains(&o.stdout, "warning[IDX501]");
    assert_eq!(std::fs::read(&p).unwrap(), tech_report(&a));
    // --isolated reads no configuration: nothing is written
    let o = run_plain_in(d.path(), &["--isolated", "le.idx"], None);
    assert_eq!(o.code, 0);
    assert_eq!(std::fs::read(&p).unwrap(), tech_report(&a));
}

#[test]
fn pre_commit_fix_hook_repairs_what_it_matches() {
    // the hook as pre-commit runs it: `entry` plus the matching file names
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let hooks = std::fs::read_to_string(root.join(".pre-commit-hooks.yaml")).unwrap();
    let block = hooks
        .split("- id: ")
        .find(|b| b.starts_with("idx-validate-fix\n"))
        .expect("a hook idx-validate-fix");
    let field = |k: &str| {
        block
            .lines()
            .find_map(|l| l.trim().strip_prefix(&format!("{k}: ")))
            .unwrap()
            .trim_matches('\'')
            .to_string()
    };
    let entry = field("entry");
    let mut words = entry.split_whitespace();
    assert_eq!(words.next(), Some("idx-validate"));
    let args: Vec<&str> = words.collect();
    assert!(args.contains(&"--fix"));
    let files = regex_lite_match(&field("files"));
    // a whole header written little-endian: a safe fix
    let mut bytes = to_bytes(&sine(3, 4)).unwrap();
    for k in 0..3 {
        bytes[4 * k..4 * k + 4].reverse();
    }
    let name = "train-images-idx2-float";
    assert!(files(name), "the hook's pattern matches {name}");
    let (d, p) = setup(name, &bytes);
    let o = run_plain_in(d.path(), &[&args[..], &[name]].concat(), None);
    assert_eq!(o.code, 0, "{}{}", o.stdout, o.stderr);
    assert_eq!(std::fs::read(&p).unwrap(), to_bytes(&sine(3, 4)).unwrap());
}

/// The hook's `files` pattern, checked on the MNIST-style names it must
/// match (no regex engine in the dev-dependencies: the pattern is compared
/// with the one the validating hook uses, which the ecosystem test runs).
fn regex_lite_match(pattern: &str) -> impl Fn(&str) -> bool {
    let hooks = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../.pre-commit-hooks.yaml"),
    )
    .unwrap();
    let first = hooks
        .lines()
        .find_map(|l| l.trim().strip_prefix("files: "))
        .unwrap()
        .trim_matches('\'')
        .to_string();
    assert_eq!(pattern, first, "both hooks match the same files");
    |name: &str| {
        let base = name.strip_suffix(".gz").unwrap_or(name);
        base.ends_with(".idx") || idx::__private::name_claim(base).is_some()
    }
}
