//! The README stays short and true: at most 260 lines; every count it
//! states (rules, corpus files, datasets, implementations, the Rust
//! version) is the repository's; every relative link and anchor resolves;
//! its two commands are what `.ci/run` runs; it says how to open the site.
//! (Its first command's output is checked in `cli.rs`.)

use std::collections::BTreeSet;
use test_support::root;

fn read(rel: &str) -> String {
    std::fs::read_to_string(root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

fn readme() -> String {
    read("README.md")
}

/// The README's text outside fenced code blocks.
fn prose(text: &str) -> String {
    let mut out = String::new();
    let mut inside = false;
    for l in text.lines() {
        if l.trim_start().starts_with("```") {
            inside = !inside;
            continue;
        }
        if !inside {
            out.push_str(l);
            out.push('\n');
        }
    }
    out
}

#[test]
fn the_readme_is_at_most_260_lines() {
    let n = readme().lines().count();
    assert!(
        n <= 260,
        "README.md has {n} lines; move a section into docs/"
    );
}

/// The counts the README states, each computed from the repository: the
/// phrase and the numbers in it.
fn counts() -> Vec<(String, Vec<String>)> {
    let index: serde_json::Value = serde_json::from_str(&read("corpus/index.json")).unwrap();
    let files: u64 = index["counts"]
        .as_object()
        .unwrap()
        .values()
        .map(|v| v.as_u64().unwrap())
        .sum();
    assert_eq!(files as usize, index["cases"].as_array().unwrap().len());
    let datasets = index["datasets"].as_array().unwrap().len();
    // the implementations table of the matrix, less this toolkit's own rows
    // (the reference, its WebAssembly build and its C library)
    let matrix = read("corpus/MATRIX.md");
    let table = matrix
        .split("\n## Implementations\n")
        .nth(1)
        .unwrap()
        .split("\n## ")
        .next()
        .unwrap();
    let rows: Vec<&str> = table
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| name ") && !l.starts_with("|---"))
        .collect();
    assert!(
        rows.iter().any(|r| r.starts_with("| reference |")),
        "{rows:?}"
    );
    let others = rows
        .iter()
        .filter(|r| !r.contains("| this toolkit's "))
        .count();
    assert_eq!(
        rows.len() - others,
        3,
        "the reference, wasm and idxc (C library) rows: {rows:?}"
    );
    let cargo = read("Cargo.toml");
    let rust = cargo
        .lines()
        .find_map(|l| l.strip_prefix("rust-version = "))
        .unwrap()
        .trim_matches('"')
        .to_string();
    let rules = idx::Rule::ALL.len();
    vec![
        (format!("{rules} rules"), vec![rules.to_string()]),
        (
            format!("{files} files and {datasets} datasets"),
            vec![files.to_string(), datasets.to_string()],
        ),
        (
            format!("{others} other IDX readers and writers"),
            vec![others.to_string()],
        ),
        (format!("Rust toolchain ({rust} or later"), vec![rust]),
    ]
}

#[test]
fn every_count_the_readme_states_is_the_repositorys() {
    let text = prose(&readme()).replace('\n', " ");
    let mut checked = BTreeSet::new();
    for (phrase, numbers) in counts() {
        assert!(text.contains(&phrase), "README.md should say {phrase:?}");
        checked.extend(numbers);
    }
    // any other count of these things would be a number no test checks
    let nouns = [
        "rule",
        "case",
        "file",
        "dataset",
        "implementation",
        "reader",
        "other",
        "writer",
        "format",
        "target",
        "test",
    ];
    let words: Vec<&str> = text.split_whitespace().collect();
    for w in words.windows(2) {
        let n = w[0].trim_matches(|c: char| !c.is_ascii_digit() && c != '.');
        if n.is_empty() || !n.starts_with(|c: char| c.is_ascii_digit()) {
            continue;
        }
        let noun = w[1]
            .trim_matches(|c: char| !c.is_alphabetic())
            .to_lowercase();
        if nouns.iter().any(|x| noun.starts_with(x)) {
            assert!(
                checked.contains(n),
                "README.md states \"{} {}\", which no test checks: add it to counts()",
                w[0],
                w[1]
            );
        }
    }
    // speeds belong to docs/performance.md and BENCHMARKS.md, which
    // measure them; the README states none
    for unit in ["GB/s", "MB/s", "GiB/s", "MiB/s", "times faster", "x faster"] {
        assert!(!text.contains(unit), "README.md states a speed ({unit})");
    }
}

/// GitHub's anchor for a heading: lower case, punctuation dropped, spaces
/// to hyphens (as `pymdownx.slugs` makes them for the site).
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

fn anchors(markdown: &str) -> BTreeSet<String> {
    prose(markdown)
        .lines()
        .filter(|l| l.starts_with('#'))
        .map(|l| slug(l.trim_start_matches('#')))
        .collect()
}

/// The targets of the markdown links and images of `text`.
fn links(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find("](") {
        let after = &rest[i + 2..];
        let end = after.find(')').unwrap();
        out.push(after[..end].to_string());
        rest = &after[end..];
    }
    out
}

#[test]
fn every_relative_link_and_anchor_of_the_readme_resolves() {
    let text = readme();
    let own = anchors(&text);
    let mut n = 0;
    for link in links(&prose(&text)) {
        if link.contains("://") {
            continue;
        }
        n += 1;
        let (path, frag) = link.split_once('#').unwrap_or((&link, ""));
        let target = root().join(path);
        assert!(
            path.is_empty() || target.exists(),
            "README.md links to {link}: no such file"
        );
        if !frag.is_empty() {
            let set = if path.is_empty() {
                own.clone()
            } else {
                anchors(&std::fs::read_to_string(&target).unwrap())
            };
            assert!(
                set.contains(frag),
                "README.md links to {link}: no such anchor"
            );
        }
    }
    assert!(n >= 20, "only {n} relative links found");
    // a link into the site, at least one per tool's guide
    for page in [
        "docs/guide/idx-validate.md",
        "docs/guide/idx.md",
        "docs/guide/convert.md",
        "docs/guide/idxkit.md",
        "docs/guide/conformance.md",
        "docs/guide/ci.md",
        "docs/rules/index.md",
        "docs/getting-started.md",
    ] {
        assert!(
            text.contains(&format!("]({page})")),
            "README.md lacks a link to {page}"
        );
    }
}

#[test]
fn the_readme_commands_are_what_ci_runs_and_it_says_how_to_open_the_site() {
    let text = readme();
    let ci = read(".ci/run");
    let first = text
        .lines()
        .find(|l| l.starts_with("cargo run -q -p idx-validate -- "))
        .expect("the README shows its first command");
    assert!(ci.contains(first), ".ci/run does not run {first:?}");
    assert!(
        text.lines().any(|l| l == "scripts/test"),
        "the README shows scripts/test"
    );
    assert!(
        ci.lines().any(|l| l == "scripts/test"),
        ".ci/run runs scripts/test"
    );
    assert!(
        text.contains("`scripts/docs serve`"),
        "the README says how to build and open the site"
    );
    assert!(
        ci.lines().any(|l| l == "scripts/docs check"),
        ".ci/run checks the site"
    );
}
