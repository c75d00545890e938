//! Aligned --list-rules, grouped
//! --help with EXAMPLES, typo suggestions that never check less, man page
//! section names, README install lines, the release profile, SARIF help
//! text, and spec links only when absolute.

use crate::support::{run, run_in};
use serde_json::Value;
use std::process::Command;
use test_support::{assert_contains, root};

#[test]
fn list_rules_columns_are_aligned() {
    let o = run(&["--list-rules"]);
    assert_eq!(o.code, 0);
    let lines: Vec<&str> = o.stdout.lines().collect();
    assert_eq!(lines.len(), idx::Rule::ALL.len());
    // every column starts at the same place on every line
    let starts = |line: &str, r: idx::Rule| {
        let name = line[8..].find(&format!("  {}  ", r.name())).unwrap() + 10;
        (
            line.find(r.severities()).unwrap(),
            name,
            line.rfind(r.title()).unwrap(),
        )
    };
    let first = starts(lines[0], idx::Rule::ALL[0]);
    assert_eq!(first.0, 8);
    for (line, r) in lines.iter().zip(idx::Rule::ALL) {
        assert_eq!(starts(line, *r), first, "{line}");
    }
}

#[test]
fn help_is_grouped_and_has_examples_and_exit_status() {
    let o = run(&["--help"]);
    assert_eq!(o.code, 0);
    let h = &o.stdout;
    let at = |s: &str| h.find(s).unwrap_or_else(|| panic!("--help lacks {s:?}"));
    for heading in [
        "Output:",
        "Checks:",
        "Inputs:",
        "Datasets:",
        "Configuration:",
        "Rules and documentation:",
    ] {
        at(&format!("\n{heading}\n"));
    }
    assert!(at("\nEXAMPLES:\n") < at("\nEXIT STATUS:\n"));
    // the examples run: each is a real command line of this tool
    assert!(h.contains("idx-validate --classes 10 data/mnist/"));
    // options sit under their heading
    assert!(
        at("\nChecks:\n") < at("--deny-warnings")
            && at("--deny-warnings") < at("\nInputs:\n").max(at("\nRules and documentation:\n"))
    );
}

#[test]
fn a_typo_never_proposes_an_option_that_checks_less() {
    let o = run(&["--strict", "corpus/valid/valid-u8-rank3.idx"]);
    assert_eq!(o.code, 2);
    assert!(!o.stderr.contains("structure-only"), "{}", o.stderr);
    assert_contains(&o.stderr, "'--deny-warnings'");
    // a near miss of the very option is still suggested
    let o = run(&["--structure-onyl", "x"]);
    assert_eq!(o.code, 2);
    assert_contains(&o.stderr, "'--structure-only'");
    // and suggestions of options that check as much are untouched
    let o = run(&["--deny-warning", "x"]);
    assert_contains(&o.stderr, "'--deny-warnings'");
}

#[test]
fn man_page_sections_have_their_usual_names() {
    let o = run(&["--man"]);
    assert_eq!(o.code, 0);
    let sections: Vec<&str> = o.stdout.lines().filter(|l| l.starts_with(".SH ")).collect();
    for s in [
        ".SH NAME",
        ".SH SYNOPSIS",
        ".SH DESCRIPTION",
        ".SH EXAMPLES",
        ".SH \"EXIT STATUS\"",
    ] {
        assert!(sections.contains(&s), "{s} in {sections:?}");
    }
    assert!(!sections.contains(&".SH EXTRA"), "{sections:?}");
    assert_eq!(
        o.stdout.matches(".ie \\n(.g").count(),
        1,
        "one roff preamble"
    );
}

/// The README's install lines, and the site's (`docs/`, where the rest of
/// the install section moved).
#[test]
fn readme_and_docs_cargo_install_lines_are_locked() {
    let mut files = vec![root().join("README.md")];
    let mut dirs = vec![root().join("docs")];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "md") {
                files.push(p);
            }
        }
    }
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let lines: Vec<&str> = text
            .lines()
            .filter(|l| l.trim_start().starts_with("cargo install"))
            .collect();
        if f.ends_with("README.md") || f.ends_with("getting-started.md") {
            assert!(lines.len() >= 2, "{}: {lines:?}", f.display());
        }
        for l in lines {
            assert!(l.contains("--locked"), "{}: {l}", f.display());
        }
    }
}

#[test]
fn release_binaries_carry_no_debug_info() {
    let toml: toml::Table = std::fs::read_to_string(root().join("Cargo.toml"))
        .unwrap()
        .parse()
        .unwrap();
    let release = toml["profile"]["release"].as_table().unwrap();
    assert!(
        matches!(
            release.get("debug"),
            Some(toml::Value::Boolean(false)) | Some(toml::Value::Integer(0)) | None
        ),
        "{release:?}"
    );
    assert!(
        matches!(
            release.get("strip").and_then(|v| v.as_str()),
            Some("debuginfo" | "symbols")
        ) || release.get("strip").and_then(toml::Value::as_bool) == Some(true),
        "{release:?}"
    );
}

#[test]
fn sarif_rules_carry_the_whole_spec_section() {
    let o = run(&[
        "--format",
        "sarif",
        "--isolated",
        "corpus/invalid/invalid-trailing-byte.idx",
    ]);
    let v: Value = serde_json::from_str(&o.stdout).unwrap();
    let rules = v["runs"][0]["tool"]["driver"]["rules"].as_array().unwrap();
    assert_eq!(rules.len(), idx::Rule::ALL.len());
    for r in rules {
        let id = r["id"].as_str().unwrap();
        let text = r["help"]["text"].as_str().unwrap();
        let spec = idx_validate::explain(id).unwrap();
        assert_eq!(text, spec.trim(), "{id}");
        assert!(text.contains("Severity:"), "{id}");
        // without --spec-url, the rule's page on the documentation site
        assert_eq!(
            r["helpUri"].as_str(),
            Some(idx_validate::rule_url(idx::Rule::find(id).unwrap()).as_str()),
            "{id}"
        );
    }
}

#[test]
fn spec_links_are_absolute_or_absent_in_every_format() {
    let file = "corpus/invalid/invalid-trailing-byte.idx";
    for format in [
        "human", "short", "json", "jsonl", "sarif", "junit", "github",
    ] {
        let o = run(&["--isolated", "--format", format, file]);
        assert!(!o.stdout.contains("spec/idx.md#"), "{format}: {}", o.stdout);
    }
    let url = "https://example.org/toolkit/v1/spec/idx.md";
    let o = run(&["--isolated", "--spec-url", url, file]);
    assert_contains(&o.stdout, &format!("= spec: {url}#idx203-trailing-bytes"));
    let o = run(&["--isolated", "--format", "sarif", "--spec-url", url, file]);
    let v: Value = serde_json::from_str(&o.stdout).unwrap();
    let r = &v["runs"][0]["tool"]["driver"]["rules"][0];
    assert_eq!(r["helpUri"], format!("{url}#idx101-reserved-bytes"));
    // a relative spec-url in the configuration is refused
    let t = tempfile::tempdir().unwrap();
    std::fs::write(
        t.path().join("idx-validate.toml"),
        "spec-url = \"spec/idx.md\"\n",
    )
    .unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_idx-validate"))
        .arg(root().join(file))
        .current_dir(t.path())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr)
        .contains("key `spec-url`: \"spec/idx.md\" is not an absolute URL"));
}

/// u8 [2] and one trailing byte: IDX203, fixed by a truncation (unsafe).
const TWO_ITEMS_AND_TRAILING: [u8; 11] = [0, 0, 8, 1, 0, 0, 0, 2, 1, 2, 9];

#[test]
fn quiet_prints_nothing_when_nothing_fails() {
    let o = run(&["-q", "corpus/valid/valid-mnist-labels-u8-10.idx"]);
    assert_eq!((o.code, o.stdout.as_str()), (0, ""), "{}", o.stdout);
    let o = run(&["-q", "corpus/invalid/invalid-unknown-type-07.idx"]);
    assert_eq!(o.code, 1);
    assert_contains(&o.stdout, "1 file checked");
}

#[test]
fn diff_never_calls_a_file_ok_that_is_still_invalid_on_disk() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("t.idx"), TWO_ITEMS_AND_TRAILING).unwrap();
    let o = run_in(
        d.path(),
        &["--diff", "--unsafe-fixes", "--color", "never", "t.idx"],
    );
    assert_eq!(o.code, 1, "{}", o.stdout);
    assert_contains(
        &o.stdout,
        "t.idx: INVALID: valid once the fixes above are applied",
    );
    assert!(!o.stdout.contains(": OK"), "{}", o.stdout);
    assert_contains(&o.stdout, "0 valid, 1 invalid");
    assert_eq!(
        std::fs::read(d.path().join("t.idx")).unwrap(),
        TWO_ITEMS_AND_TRAILING
    );
}

#[test]
fn a_rewrite_names_the_path_as_given_and_a_failed_fix_is_not_fixable_with_fix() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("t.idx"), TWO_ITEMS_AND_TRAILING).unwrap();
    let o = run_in(
        d.path(),
        &["--fix", "--unsafe-fixes", "--color", "never", "t.idx"],
    );
    assert_eq!(o.code, 0, "{}", o.stdout);
    assert_contains(&o.stdout, "t.idx: FIX: 1 fix (0 remaining); rewritten\n");
    assert!(!o.stdout.contains("the target"), "{}", o.stdout);
    // a repair that cannot be written: the summary does not send a --fix
    // run back to --fix
    std::fs::write(d.path().join("u.idx"), TWO_ITEMS_AND_TRAILING).unwrap();
    let o = run_in(
        d.path(),
        &[
            "--fix",
            "--unsafe-fixes",
            "--color",
            "never",
            "--output",
            "no/such/dir/out.idx",
            "u.idx",
        ],
    );
    assert_eq!(o.code, 2, "{}", o.stdout);
    assert_contains(&o.stdout, "NOT REPAIRED");
    assert!(!o.stdout.contains("fixable with --fix"), "{}", o.stdout);
    assert_contains(&o.stdout, "fixable, not applied");
}

/// A rewritten file whose name holds a control character is named once,
/// escaped, and not called a symlink's target (the check compared the
/// escaped name with the path, which differ for such a name).
#[test]
fn a_rewrite_of_a_name_with_a_control_character_is_no_symlink_target() {
    let d = tempfile::tempdir().unwrap();
    for name in ["nl\nx.idx", "esc\u{1b}[31m.idx"] {
        std::fs::write(d.path().join(name), TWO_ITEMS_AND_TRAILING).unwrap();
        let o = run_in(
            d.path(),
            &["--fix", "--unsafe-fixes", "--color", "never", name],
        );
        assert_eq!(o.code, 0, "{}", o.stdout);
        assert_contains(&o.stdout, "FIX: 1 fix (0 remaining); rewritten\n");
        assert!(!o.stdout.contains("the target"), "{}", o.stdout);
        assert!(!o.stdout.contains('\u{1b}'), "{}", o.stdout);
    }
}
