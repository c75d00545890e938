//! `path:offset: severity[CODE]: message`, one line per finding.

use super::Context;
use crate::check::FileResult;
use std::fmt::Write;

/// Renders the short format.
pub fn render(results: &[FileResult], _ctx: &Context) -> String {
    let mut s = String::new();
    for r in results {
        let path = super::terminal_safe(&r.source.display());
        match &r.outcome {
            Err(e) => {
                let _ = writeln!(
                    s,
                    "{path}: error: cannot read: {}",
                    super::terminal_safe(&e.to_string())
                );
            }
            Ok(c) => {
                for f in &c.report.findings {
                    let _ = writeln!(
                        s,
                        "{path}:{}: {}[{}]: {}{}",
                        f.offset,
                        f.severity(),
                        f.rule.code(),
                        super::terminal_safe(&f.message),
                        super::offset_note(c)
                    );
                }
                for (rule, n) in &c.suppressed {
                    let _ = writeln!(
                        s,
                        "{path}: note: {} not shown",
                        idx::plural::count(*n as u64, &format!("more {rule} finding"))
                    );
                }
            }
        }
    }
    s
}
