//! The output formats of the IDX validator over the `idx` library's
//! findings: the checked results ([`check`]), what a repair did
//! ([`repair`]), one renderer per format ([`render`]) and the rules' text
//! from the spec ([`explain`]). It decides nothing: every verdict comes from
//! `idx`. It opens no file but the one a result names, to show the bytes of
//! an excerpt the report did not keep ([`check::window`]), and prints
//! nothing: the front ends (`idx-validate`, `idx`, `idxkit`, the browser and
//! npm package) print what it renders, so their outputs are the same bytes.
#![forbid(unsafe_code)]
#![deny(clippy::print_stdout, clippy::print_stderr)]

pub mod check;
pub mod render;
pub mod repair;

/// The documentation site: the workspace's `homepage` (root `Cargo.toml`),
/// the `site_url` of `mkdocs.yml` (its build refuses a difference).
pub const DOCS_URL: &str = env!("CARGO_PKG_HOMEPAGE");

/// The path of a rule's page under [`DOCS_URL`], `rules/IDX203.html`: the
/// site's one URL scheme for rules, stable as the codes are (the page is
/// generated from `docs/rules/IDX203.md`).
pub fn rule_page(rule: idx::Rule) -> String {
    format!("rules/{}.html", rule.code())
}

/// The absolute URL of a rule's page: what SARIF's `helpUri`, the JSON
/// output's `url` and `--explain` give.
pub fn rule_url(rule: idx::Rule) -> String {
    format!("{DOCS_URL}{}", rule_page(rule))
}

/// The spec, for `--explain`.
pub const SPEC: &str = include_str!("../../../spec/idx.md");

/// The spec's section for a rule (by code or name), heading included,
/// followed by the lint paragraphs it cites (`(6.1)`: how the byte-order
/// test decides).
pub fn explain(code_or_name: &str) -> Option<String> {
    let rule = idx::Rule::find(code_or_name)?;
    let head = format!("### {} {}", rule.code(), rule.name());
    let start = SPEC.find(&head)?;
    let rest = &SPEC[start + head.len()..];
    let end = rest
        .find("\n### ")
        .or_else(|| rest.find("\n## "))
        .unwrap_or(rest.len());
    let body = rest[..end].trim();
    let mut out = format!("{head}\n\n{body}\n");
    for n in 1..=9 {
        let cite = format!("6.{n})");
        if body.contains(&cite) {
            if let Some(p) = paragraph(&format!("6.{n}. ")) {
                out.push_str(&format!("\n{p}\n"));
            }
        }
    }
    Some(out)
}

/// What `--explain` prints for a rule (by code or name): its spec text
/// ([`explain`]), then a line linking its page on the documentation site.
/// `idx-validate` prints this; the npm package composes the same bytes
/// from `explain` and the rule's URL.
pub fn explained(code_or_name: &str) -> Option<String> {
    let rule = idx::Rule::find(code_or_name)?;
    let text = explain(code_or_name)?;
    Some(format!(
        "{text}\nThe rule's page, with an example and the fix: {}\n",
        rule_url(rule)
    ))
}

/// The numbered paragraph of the spec that starts with `number` (`6.1. `),
/// up to the next numbered paragraph or heading.
fn paragraph(number: &str) -> Option<&'static str> {
    let start = SPEC.find(&format!("\n{number}"))? + 1;
    let rest = &SPEC[start..];
    let end = rest[number.len()..]
        .match_indices('\n')
        .map(|(i, _)| i + number.len() + 1)
        .find(|&i| {
            let line = &rest[i..];
            line.starts_with("## ")
                || line.split_once(". ").is_some_and(|(n, _)| {
                    n.contains('.') && n.bytes().all(|b| b.is_ascii_digit() || b == b'.')
                })
        })
        .unwrap_or(rest.len());
    Some(rest[..end].trim())
}
