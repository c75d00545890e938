//! The `idx-validate` command: arguments, file walking and rendering. Every
//! verdict comes from the `idx` library; this crate only presents it.
#![forbid(unsafe_code)]
#![deny(clippy::print_stdout, clippy::print_stderr)]

pub mod check;
/// The output formats live in their own crate ([`idx_report`]), usable
/// where this command's files and walks are not (the browser).
pub use idx_report::render;
pub mod config;
pub mod dataset;
pub mod help;
pub mod repair;
pub mod resolve;
pub mod walk;

/// The spec and `--explain` are the renderers' ([`idx_report::explain`]):
/// SARIF carries a rule's text too.
pub use idx_report::{explain, SPEC};

pub use idx_report::{rule_page, rule_url, DOCS_URL};

/// The fix column of `--list-rules`.
pub fn fix_column(rule: idx::Rule) -> String {
    let f: Vec<&str> = rule.fixes().iter().map(|a| a.as_str()).collect();
    if f.is_empty() {
        "-".into()
    } else {
        f.join("|")
    }
}

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

pub use command::{render_results, Args, ArgsError, Checks, FormatName, Output};
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
