//! Configuration files (discovery,
//! precedence, per-path overrides, errors), --select/--ignore, --exit-zero,
//! --output-file, --statistics, size suffixes, and the CI guide's GitHub
//! Action example (docs/guide/ci.md) run as written on the real MNIST folder.

use crate::support::run_in;
use test_support::{assert_contains, mnist_dir, root};

/// A directory `data` linking to the MNIST folder, in a fresh temp dir.
fn mnist_project() -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(mnist_dir(), t.path().join("data")).unwrap();
    #[cfg(not(unix))]
    {
        std::fs::create_dir(t.path().join("data")).unwrap();
        for e in std::fs::read_dir(mnist_dir()).unwrap() {
            let e = e.unwrap();
            std::fs::copy(e.path(), t.path().join("data").join(e.file_name())).unwrap();
        }
    }
    t
}

/// The block after `marker` in a fenced block of `lang`, in the CI guide
/// (`docs/guide/ci.md`, where the README's GitHub Action example moved).
fn guide_block(marker: &str, lang: &str) -> String {
    let text = std::fs::read_to_string(root().join("docs/guide/ci.md")).unwrap();
    let at = text.find(marker).unwrap();
    let fence = format!("```{lang}\n");
    let start = text[at..].find(&fence).unwrap() + at + fence.len();
    let end = text[start..].find("```").unwrap() + start;
    text[start..end].to_string()
}

#[test]
fn the_ci_guide_action_example_passes_on_real_mnist_as_written() {
    let yaml = guide_block("**GitHub Actions**", "yaml");
    let field = |k: &str| {
        yaml.lines()
            .find_map(|l| l.trim().strip_prefix(&format!("{k}: ")))
            .unwrap()
            .split('#')
            .next()
            .unwrap()
            .trim()
            .to_string()
    };
    let (paths, args) = (field("paths"), field("args"));
    assert!(!args.contains('\''), "quoting is not handled here: {args}");
    let toml = guide_block("with an `idx-validate.toml` at the repository root", "toml");
    let t = mnist_project();
    std::fs::write(t.path().join("idx-validate.toml"), &toml).unwrap();
    // what action.yml runs: idx-validate --format github ${args} ${paths}
    let mut argv = vec!["--format", "github"];
    argv.extend(args.split_whitespace());
    argv.extend(paths.split_whitespace());
    let o = run_in(t.path(), &argv);
    assert_eq!(o.code, 0, "{}{}", o.stdout, o.stderr);
    assert_eq!(o.stdout, "", "no annotation on valid MNIST");
    // the override is what holds the images: 28x27 makes them fail, and
    // the old example (--expect-shape on every file) failed the labels
    std::fs::write(
        t.path().join("idx-validate.toml"),
        toml.replace("*,28,28", "*,28,27"),
    )
    .unwrap();
    let o = run_in(t.path(), &argv);
    assert_eq!(o.code, 1);
    // one images file (MNIST's test set): one IDX602, on it alone
    assert_eq!(o.stdout.matches("title=IDX602").count(), 1, "{}", o.stdout);
    assert!(
        o.stdout.contains("t10k-images-idx3-ubyte.gz") && !o.stdout.contains("labels"),
        "{}",
        o.stdout
    );
    let o = run_in(
        t.path(),
        &[
            "--isolated",
            "--deny-warnings",
            "--expect-shape",
            "*,28,28",
            "data/",
        ],
    );
    assert_eq!(o.code, 1, "the labels fail a global shape");
}

#[test]
fn configuration_is_found_upward_and_pyproject_counts() {
    let t = tempfile::tempdir().unwrap();
    let sub = t.path().join("a/b");
    std::fs::create_dir_all(&sub).unwrap();
    // rank 0: a warning (IDX301)
    std::fs::write(sub.join("x.idx"), [0, 0, 8, 0, 7]).unwrap();
    assert_eq!(run_in(&sub, &["x.idx"]).code, 0);
    std::fs::write(
        t.path().join("pyproject.toml"),
        "[project]\nname = \"p\"\n\n[tool.idx-validate]\ndeny-warnings = true\n",
    )
    .unwrap();
    assert_eq!(
        run_in(&sub, &["x.idx"]).code,
        1,
        "pyproject.toml found upward"
    );
    assert_eq!(run_in(&sub, &["--isolated", "x.idx"]).code, 0);
    // idx-validate.toml nearer wins
    std::fs::write(
        t.path().join("a/idx-validate.toml"),
        "ignore = [\"IDX301\"]\ndeny-warnings = true\n",
    )
    .unwrap();
    let o = run_in(&sub, &["--format", "short", "x.idx"]);
    assert_eq!(o.code, 0, "{}", o.stdout);
    assert!(!o.stdout.contains("IDX301"));
    // --config names another file; --ignore on the command line replaces the file's
    std::fs::write(t.path().join("strict.toml"), "deny-warnings = true\n").unwrap();
    let strict = t.path().join("strict.toml");
    assert_eq!(
        run_in(&sub, &["--config", strict.to_str().unwrap(), "x.idx"]).code,
        1
    );
    assert_eq!(run_in(&sub, &["--ignore", "IDX5", "x.idx"]).code, 1);
    assert_eq!(
        run_in(
            &sub,
            &[
                "--select",
                "IDX1,IDX2",
                "--deny-warnings",
                "--isolated",
                "x.idx"
            ]
        )
        .code,
        0
    );
}

#[test]
fn invalid_configuration_names_file_line_and_key() {
    let t = tempfile::tempdir().unwrap();
    std::fs::write(t.path().join("x.idx"), [0, 0, 8, 1, 0, 0, 0, 1, 7]).unwrap();
    for (text, line, key) in [
        (
            "deny-warnings = true\nmax-findings = \"ten\"\n",
            2,
            "max-findings",
        ),
        ("select = [\"IDX101\"]\nignre = [\"IDX5\"]\n", 2, "ignre"),
        (
            "\n[[overrides]]\npaths = [\"*\"]\nexpect-shape = \"28;28\"\n",
            4,
            "expect-shape",
        ),
        ("classes = -3\n", 1, "classes"),
        ("max-decompressed = \"12 parsecs\"\n", 1, "max-decompressed"),
    ] {
        std::fs::write(t.path().join("idx-validate.toml"), text).unwrap();
        let o = run_in(t.path(), &["x.idx"]);
        assert_eq!(o.code, 2, "{text}");
        let want = format!("idx-validate.toml:{line}: key `{key}`:");
        assert!(o.stderr.contains(&want), "{text}: {}", o.stderr);
        assert!(
            o.stderr.starts_with("error: invalid configuration:"),
            "{}",
            o.stderr
        );
    }
    // a bad rule on the command line is a usage error
    let o = run_in(t.path(), &["--isolated", "--select", "IDX99x", "x.idx"]);
    assert_eq!(o.code, 2);
    assert_contains(&o.stderr, "no rule code");
}

#[test]
fn exit_zero_output_file_and_statistics() {
    let root = root();
    let bad = "corpus/invalid/invalid-truncated-payload.idx";
    assert_eq!(run_in(&root, &["--isolated", bad]).code, 1);
    assert_eq!(run_in(&root, &["--isolated", "--exit-zero", bad]).code, 0);
    assert_eq!(
        run_in(&root, &["--isolated", "--exit-zero", "no/such.idx"]).code,
        2,
        "unreadable input still fails"
    );
    let t = tempfile::tempdir().unwrap();
    let out = t.path().join("report.sarif");
    let o = run_in(
        &root,
        &[
            "--isolated",
            "--format",
            "sarif",
            "--output-file",
            out.to_str().unwrap(),
            bad,
        ],
    );
    assert_eq!(o.code, 1);
    assert_eq!(o.stdout, "");
    let sarif: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(sarif["runs"][0]["results"][0]["ruleId"], "IDX202");
    let o = run_in(
        &root,
        &[
            "--isolated",
            "--statistics",
            "corpus/invalid/invalid-trailing-byte.idx",
            "corpus/invalid/invalid-trailing-concatenated.idx",
            bad,
        ],
    );
    assert_eq!(
        o.stdout,
        "2  IDX203  error    trailing-bytes\n1  IDX202  error    truncated-payload\n"
    );
    let o = run_in(
        &root,
        &["--isolated", "--statistics", "--format", "json", bad],
    );
    let v: serde_json::Value = serde_json::from_str(&o.stdout).unwrap();
    assert_eq!(v[0]["rule"], "IDX202");
    assert_eq!(v[0]["count"], 1);
}

#[test]
fn sizes_take_suffixes() {
    let root = root();
    let gz = "corpus/implementation-defined/impl-gzip-u8-4x5.idx.gz";
    // 4x5 u8 = 28 bytes decompressed
    assert_eq!(
        run_in(&root, &["--isolated", "--max-decompressed", "1K", gz]).code,
        0
    );
    let o = run_in(
        &root,
        &[
            "--isolated",
            "--format",
            "short",
            "--max-decompressed",
            "10B",
            gz,
        ],
    );
    assert_eq!(o.code, 1);
    assert_contains(&o.stdout, "IDX702");
    assert_eq!(
        run_in(&root, &["--isolated", "--max-decompressed", "64GiB", gz]).code,
        0
    );
    let o = run_in(&root, &["--isolated", "--max-decompressed", "1.5G", gz]);
    assert_eq!(o.code, 2);
    assert_contains(&o.stderr, "bad size");
}

#[test]
fn a_discovered_invalid_pyproject_table_exits_2_as_config_does() {
    // a warning-only file: with the configuration's deny-warnings it fails
    let d = tempfile::tempdir().unwrap();
    std::fs::copy(
        root().join("corpus/valid/valid-mnist-labels-u8-10.idx"),
        d.path().join("labels.idx"),
    )
    .unwrap();
    std::fs::write(
        d.path().join("pyproject.toml"),
        "[project]\nname = \"x\"\n\n[tool.idx-validate]\ndeny-warnings = \"yes\"\n",
    )
    .unwrap();
    let found = run_in(d.path(), &["labels.idx"]);
    let given = run_in(d.path(), &["--config", "pyproject.toml", "labels.idx"]);
    assert_eq!(found.code, 2, "{}", found.stderr);
    assert_eq!(found.code, given.code);
    assert_contains(&found.stderr, "pyproject.toml:5");
    assert_contains(&found.stderr, "deny-warnings");
}
