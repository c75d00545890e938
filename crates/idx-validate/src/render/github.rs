//! GitHub Actions workflow commands: `::error file=...,title=CODE::message`.

use super::Context;
use crate::check::FileResult;
use idx::Severity;
use std::fmt::Write;

/// The workflow-command escapes of the actions toolkit (`%`, CR, LF); any
/// other control character or bidi override (from a file name) is written
/// as a Rust escape, since the log is shown on terminals and GitHub
/// defines no escape for it.
fn data(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '%' => o.push_str("%25"),
            '\r' => o.push_str("%0D"),
            '\n' => o.push_str("%0A"),
            c if c.is_control()
                || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}') =>
            {
                o.extend(c.escape_default());
            }
            c => o.push(c),
        }
    }
    o
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
