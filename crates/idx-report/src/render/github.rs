//! GitHub Actions workflow commands: `::error file=...,title=CODE::message`.

use super::Context;
use crate::check::FileResult;
use idx::Severity;
use std::fmt::Write;

/// The data of a workflow command, with the runner's escapes
/// ([`idx_io::escape::github_data`]).
fn data(s: &str) -> String {
    idx_io::escape::github_data(s)
}

/// A property of a workflow command ([`idx_io::escape::github_property`]).
fn property(s: &str) -> String {
    idx_io::escape::github_property(s)
}

/// Renders workflow commands.
pub fn render(results: &[FileResult], ctx: &Context) -> String {
    let mut s = String::new();
    for r in results {
        // The runner decodes only %25 %0D %0A %3A %2C: a name holding any
        // other control character or a bidi override cannot be carried in
        // `file=` (its escaped text would name another file), so such an
        // annotation names no file and its message starts with the escaped
        // name instead.
        // A name that is not UTF-8 cannot be carried either (U+FFFD in
        // its place names another file); its message shows the bytes as
        // human does (`\xff`).
        let name = super::path_text(r);
        let (file, prefix) =
            if super::non_utf8_path(r).is_none() && idx_io::escape::github_can_carry(&name) {
                (format!("file={},", property(&name)), String::new())
            } else {
                (String::new(), format!("{}: ", super::path_escaped(r)))
            };
        match &r.outcome {
            Err(e) => {
                let _ = writeln!(
                    s,
                    "::error {file}title=unreadable::{}",
                    data(&format!("{prefix}cannot read: {e}"))
                );
            }
            Ok(c) => {
                for f in &c.report.findings {
                    let level = match f.severity() {
                        Severity::Error => "error",
                        Severity::Warning if ctx.deny_warnings => "error",
                        Severity::Warning => "warning",
                        Severity::Info => "notice",
                    };
                    let msg = format!("{prefix}{}", super::finding_text(c, f));
                    let _ = writeln!(
                        s,
                        "::{level} {file}title={}::{}",
                        property(f.rule.code()),
                        data(&msg)
                    );
                }
            }
        }
    }
    s
}
