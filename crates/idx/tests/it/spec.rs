//! The spec, the rule list in code and the README stay in step.

use idx::{Rule, Severity, RETIRED};
use std::collections::BTreeMap;
use std::path::Path;

fn read(rel: &str) -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(rel);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// `code -> (name, severity)` for every `### IDXnnn name` section.
fn spec_rules() -> BTreeMap<String, (String, String)> {
    let text = read("spec/idx.md");
    let mut out = BTreeMap::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        let Some(head) = line.strip_prefix("### IDX") else {
            continue;
        };
        let mut parts = head.split_whitespace();
        let code = format!("IDX{}", parts.next().unwrap());
        let name = parts.next().unwrap_or("").to_string();
        let body: String = lines
            .by_ref()
            .skip_while(|l| l.trim().is_empty())
            .take(1)
            .collect();
        let sev = body
            .strip_prefix("Severity: ")
            .and_then(|s| s.split('.').next())
            .unwrap_or_else(|| panic!("{code}: first line must say 'Severity: ...', got {body:?}"))
            .to_string();
        assert!(
            out.insert(code.clone(), (name, sev)).is_none(),
            "{code} twice in the spec"
        );
    }
    out
}

#[test]
fn every_rule_in_code_is_in_the_spec_and_vice_versa() {
    let spec = spec_rules();
    assert!(
        spec.len() >= 20,
        "spec parse found only {} rules",
        spec.len()
    );
    for r in Rule::ALL {
        let (name, sev) = spec
            .get(r.code())
            .unwrap_or_else(|| panic!("{} is not in spec/idx.md", r.code()));
        assert_eq!(name, r.name(), "{}: name", r.code());
        assert_eq!(sev, r.severity().as_str(), "{}: severity", r.code());
    }
    for code in spec.keys() {
        assert!(
            Rule::find(code).is_some() || RETIRED.contains(&code.as_str()),
            "{code} is in the spec but not in the code"
        );
    }
}

#[test]
fn every_rule_code_is_in_the_readme_table() {
    let readme = read("README.md");
    for r in Rule::ALL {
        let row = format!("| {} | {} | {} |", r.code(), r.name(), r.severity());
        assert!(readme.contains(&row), "README.md lacks the row {row:?}");
    }
}

#[test]
fn error_rules_are_the_spec_errors() {
    // The warnings of §4 of the spec are exactly the 3xx family.
    for r in Rule::ALL {
        if r.code().starts_with("IDX3") {
            assert_eq!(r.severity(), Severity::Warning, "{}", r.code());
        }
        if r.code().starts_with("IDX1")
            || r.code().starts_with("IDX2")
            || r.code().starts_with("IDX4")
        {
            assert_eq!(r.severity(), Severity::Error, "{}", r.code());
        }
    }
}
