//! GitHub Actions workflow commands: `::error file=...,title=CODE::message`.

use super::Context;
use crate::check::FileResult;
use idx::Severity;
use std::fmt::Write;

fn data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

fn property(s: &str) -> String {
    data(s).replace(':', "%3A").replace(',', "%2C")
}

/// Renders workflow commands.
pub fn render(results: &[FileResult], ctx: &Context) -> String {
    let mut s = String::new();
    for r in results {
        let file = property(&super::path_text(r));
        match &r.outcome {
            Err(e) => {
                let _ = writeln!(
                    s,
                    "::error file={file},title=unreadable::{}",
                    data(&format!("cannot read: {e}"))
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
                    let mut msg = format!(
                        "{} (at byte {}){}",
                        f.message,
                        f.offset,
                        super::offset_note(c)
                    );
                    if let Some(h) = &f.hint {
                        msg.push_str(&format!("\nhelp: {h}"));
                    }
                    let _ = writeln!(
                        s,
                        "::{level} file={file},title={}::{}",
                        property(f.rule.code()),
                        data(&msg)
                    );
                }
            }
        }
    }
    s
}
