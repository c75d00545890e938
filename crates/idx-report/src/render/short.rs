//! `path:offset: severity[CODE]: message`, one line per finding (and
//! `path: error: not repaired: why` for a failed `--fix`).

use super::Context;
use crate::check::FileResult;
use std::fmt::Write;

/// Renders the short format.
pub fn render(results: &[FileResult], _ctx: &Context) -> String {
    let mut s = String::new();
    for r in results {
        let path = r.source.shown();
        match &r.outcome {
            Err(e) => {
                let _ = writeln!(
                    s,
                    "{path}: error: cannot read: {}",
                    idx_io::escape::text(&e.to_string())
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
                        idx_io::escape::text(&f.message),
                        super::offset_note(c)
                    );
                }
                for (rule, n) in &c.suppressed {
                    let _ = writeln!(
                        s,
                        "{path}: note: {} not shown",
                        idx_text::plural::count(*n as u64, &format!("more {rule} finding"))
                    );
                }
                // a failed --fix: one escaped line (the reason names paths)
                if let Some(crate::repair::Action::Failed(why)) =
                    c.repair.as_ref().map(|rep| &rep.action)
                {
                    let _ = writeln!(
                        s,
                        "{path}: error: not repaired: {}",
                        idx_io::escape::text(why)
                    );
                }
            }
        }
    }
    s
}
