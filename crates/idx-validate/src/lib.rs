//! The `idx-validate` command: arguments, file walking and rendering. Every
//! verdict comes from the `idx` library; this crate only presents it.
#![forbid(unsafe_code)]
#![deny(clippy::print_stdout, clippy::print_stderr)]

pub mod check;
pub mod config;
pub mod dataset;
pub mod help;
pub mod render;
pub mod repair;
pub mod resolve;
pub mod size;
pub mod walk;

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

/// The fix column of `--list-rules`.
pub fn fix_column(rule: idx::Rule) -> String {
    let f: Vec<&str> = rule.fixes().iter().map(|a| a.as_str()).collect();
    if f.is_empty() {
        "-".into()
    } else {
        f.join("|")
    }
}

/// `--max-decompressed`'s default and meaning are the library's: see
/// [`idx::input::decompression_limit`].
pub use idx::input::{decompression_limit, DEFAULT_MAX_DECOMPRESSED};

/// An `--expect-shape` pattern: dimensions, `None` for `*`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShapePattern(pub Vec<Option<u32>>);

/// Parses `--expect-shape`: comma-separated dimensions, `*` for any; an
/// empty string is rank 0.
///
/// # Errors
/// A part that is neither `*` nor a `u32`.
pub fn parse_shape(s: &str) -> Result<ShapePattern, String> {
    if s.trim().is_empty() {
        return Ok(ShapePattern(vec![]));
    }
    s.split(',')
        .map(|p| match p.trim() {
            "*" => Ok(None),
            d => d
                .parse::<u32>()
                .map(Some)
                .map_err(|_| format!("bad dimension {d:?} (a number or *)")),
        })
        .collect::<Result<_, _>>()
        .map(ShapePattern)
}

// The binary's source, compiled into the library too, so that front ends
// other than the binary (the Python package's console script) run exactly
// the same command. `extern crate self` lets it name this crate as the
// binary does.
extern crate self as idx_validate;
#[allow(clippy::print_stdout, clippy::print_stderr)]
mod command;

pub use idx_io::ExitStatus;

/// Runs the command on `args` (the first is the program name, as in
/// `std::env::args_os`): what the binary does, for every caller (the
/// binary's `main`, the Python package's console script, tests).
pub fn run<I, T>(args: I) -> ExitStatus
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    command::run_command(args)
}
