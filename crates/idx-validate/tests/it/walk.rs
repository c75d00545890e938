//! Directory walking through the built binary: nothing found is an error,
//! ignore files and hidden files as ripgrep treats them, `--exclude`,
//! symbolic links followed with loop detection, and no entry skipped without
//! a note.

use crate::support::run_in;
use std::path::PathBuf;
use std::process::Command;
use test_support::{assert_contains, Out};

/// A valid u8 file of shape [2, 3].
const VALID_BYTES: &[u8] = &[0, 0, 8, 2, 0, 0, 0, 2, 0, 0, 0, 3, 1, 2, 3, 4, 5, 6];

fn tree(files: &[&str]) -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    for f in files {
        let p = t.path().join(f);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, VALID_BYTES).unwrap();
    }
    t
}

/// The files reported as checked, from `--format short -v`-independent JSON.
fn checked(out: &Out) -> Vec<String> {
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    v["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn a_directory_with_nothing_to_check_fails_in_every_format() {
    let t = tempfile::tempdir().unwrap();
    std::fs::create_dir(t.path().join("data")).unwrap();
    std::fs::write(t.path().join("data/README.md"), "# data\n").unwrap();
    for format in [
        "human", "short", "json", "jsonl", "sarif", "junit", "github",
    ] {
        let o = run_in(t.path(), &["--format", format, "data"]);
        assert_eq!(o.code, 2, "{format}: {}", o.stdout);
        assert!(
            o.stderr.contains("error: no IDX files found under data"),
            "{format}: {}",
            o.stderr
        );
        // not a file: nothing unreadable, nothing counted
        assert!(!o.stdout.contains("UNREADABLE"), "{format}: {}", o.stdout);
        if format == "human" {
            assert!(
                o.stdout
                    .ends_with("0 files checked: 0 valid, 0 invalid, 0 unreadable\n"),
                "{}",
                o.stdout
            );
        }
        if format == "github" {
            assert_contains(
                &o.stdout,
                "::error title=no-idx-files::no IDX files found under data",
            );
        }
    }
    let o = run_in(t.path(), &["--allow-empty", "data"]);
    assert_eq!(o.code, 0, "{}", o.stdout);
    // the file left out is still mentioned
    assert_contains(&o.stderr, "skipped 1 file under data");
}

#[test]
fn an_empty_directory_beside_a_full_one_still_fails() {
    let t = tree(&["full/a.idx"]);
    std::fs::create_dir(t.path().join("empty")).unwrap();
    assert_eq!(run_in(t.path(), &["full"]).code, 0);
    assert_eq!(run_in(t.path(), &["full", "empty"]).code, 2);
    assert_eq!(
        run_in(t.path(), &["--allow-empty", "full", "empty"]).code,
        0
    );
}

#[test]
fn gitignore_ignore_and_hidden_files_are_honoured_like_ripgrep() {
    let t = tree(&[
        "d/keep.idx",
        "d/build/out.idx",
        "d/scratch.idx",
        "d/.cache/hidden.idx",
    ]);
    std::fs::create_dir(t.path().join(".git")).unwrap();
    std::fs::write(t.path().join(".gitignore"), "build/\n").unwrap();
    std::fs::write(t.path().join("d/.ignore"), "scratch.idx\n").unwrap();
    let o = run_in(t.path(), &["--format", "json", "d"]);
    assert_eq!(checked(&o), ["d/keep.idx"]);
    let o = run_in(t.path(), &["--format", "json", "--no-ignore", "d"]);
    assert_eq!(
        checked(&o),
        ["d/build/out.idx", "d/keep.idx", "d/scratch.idx"]
    );
    let o = run_in(t.path(), &["--format", "json", "--hidden", "d"]);
    assert_eq!(checked(&o), ["d/.cache/hidden.idx", "d/keep.idx"]);
    // a file named on the command line is checked even when ignored
    let o = run_in(t.path(), &["--format", "json", "d/build/out.idx"]);
    assert_eq!(checked(&o), ["d/build/out.idx"]);
}

#[test]
fn exclude_leaves_out_matching_walked_paths() {
    let t = tree(&["d/train.idx", "d/test.idx", "d/old/train.idx"]);
    let o = run_in(
        t.path(),
        &[
            "--format",
            "json",
            "--exclude",
            "old/",
            "--exclude",
            "test*",
            "d",
        ],
    );
    assert_eq!(checked(&o), ["d/train.idx"]);
    let o = run_in(t.path(), &["--exclude", "[", "d"]);
    assert_eq!(o.code, 2, "a bad glob is a usage error");
    assert_contains(&o.stderr, "--exclude");
}

#[cfg(unix)]
#[test]
fn symlinks_are_followed_with_loop_detection() {
    use std::os::unix::fs::symlink;
    // a git-annex-like tree: the dataset holds links into an object store
    let t = tree(&["store/object1"]);
    let d = t.path().join("d");
    std::fs::create_dir_all(d.join("sub")).unwrap();
    symlink("../store/object1", d.join("train-images-idx2-ubyte")).unwrap();
    symlink("../../store", d.join("sub/store-link")).unwrap();
    symlink("..", d.join("sub/up")).unwrap();
    let o = run_in(t.path(), &["--format", "json", "d"]);
    assert_eq!(o.code, 0, "{}{}", o.stdout, o.stderr);
    // the link to a directory is walked; object1 looks like IDX by magic
    assert_eq!(
        checked(&o),
        ["d/sub/store-link/object1", "d/train-images-idx2-ubyte"]
    );
    assert_contains(&o.stderr, "skipped d/sub/up: a symbolic link loop");
}

#[cfg(unix)]
#[test]
fn a_broken_symlink_is_unreadable_not_skipped() {
    let t = tree(&["d/ok.idx"]);
    std::os::unix::fs::symlink(".git/annex/objects/xx", t.path().join("d/gone.idx")).unwrap();
    let o = run_in(t.path(), &["d"]);
    assert_eq!(o.code, 2, "{}", o.stdout);
    assert_contains(&o.stdout, "d/gone.idx");
    assert_contains(&o.stdout, "broken symbolic link");
}

#[cfg(unix)]
#[test]
fn a_walked_fifo_is_noted_and_a_named_one_is_read() {
    let t = tree(&["d/ok.idx"]);
    let fifo: PathBuf = t.path().join("d/pipe.idx");
    let st = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(st.success());
    let o = run_in(t.path(), &["--all-files", "d"]);
    assert_eq!(o.code, 0, "{}", o.stdout);
    assert_contains(&o.stderr, "skipped d/pipe.idx: a FIFO (named pipe)");
    // named: the FIFO is read as a stream
    let writer = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::write(fifo, VALID_BYTES).unwrap())
    };
    let o = run_in(t.path(), &["--format", "json", "d/pipe.idx"]);
    writer.join().unwrap();
    assert_eq!(o.code, 0, "{}", o.stdout);
    assert_eq!(checked(&o), ["d/pipe.idx"]);
}

#[test]
fn files_that_do_not_look_like_idx_are_counted_in_a_note() {
    let t = tree(&["d/a.idx"]);
    std::fs::write(t.path().join("d/notes.txt"), "x").unwrap();
    std::fs::write(t.path().join("d/plot.png"), "x").unwrap();
    let o = run_in(t.path(), &["d"]);
    assert_eq!(o.code, 0);
    assert_contains(
        &o.stderr,
        "skipped 2 files under d that do not look like IDX",
    ); // -q prints only what fails: no note, on either stream
    let o = run_in(t.path(), &["-q", "d"]);
    assert_eq!((o.code, o.stdout.as_str(), o.stderr.as_str()), (0, "", ""));
}

/// The walks here run without the user's own configuration: git's global
/// excludes file, which the walk reads as git does, would otherwise decide
/// what a test on a tree inside a repository sees, by whose machine runs
/// it. Each command a test runs gets a home, a configuration directory
/// and a system git configuration that do not exist, and no
/// `GIT_CONFIG_GLOBAL`.
#[test]
fn the_walks_see_none_of_the_users_configuration() {
    let o = test_support::Cmd::new("sh")
        .args([
            "-c",
            "printf '%s\\n' \"$HOME\" \"$XDG_CONFIG_HOME\" \"$GIT_CONFIG_SYSTEM\" \"${GIT_CONFIG_GLOBAL-unset}\"",
        ])
        .out();
    let lines: Vec<&str> = o.stdout.lines().collect();
    assert_eq!(lines.len(), 4, "{}", o.stdout);
    for l in &lines[..3] {
        assert!(
            l.contains("tests-have-no-home") && !std::path::Path::new(l).exists(),
            "{l}"
        );
    }
    assert_eq!(lines[3], "unset");
}
