//! JUnit XML: one testcase per file, one failure per error finding (and
//! per warning under `--deny-warnings`), an error for an unreadable file.

use super::{totals, Context};
use crate::check::FileResult;
use idx::Severity;
use std::fmt::Write;

/// XML-escapes text and attribute values. A C0 control, which XML 1.0
/// cannot hold, is written as the text `\xNN`; DEL, a C1 control or a
/// bidirectional formatting character as a character reference, which an
/// XML parser decodes back to the same character (a name stays exact and
/// reaches no terminal raw).
pub fn esc(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&apos;"),
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => {
                o.push_str(&format!("\\x{:02x}", c as u32))
            }
            c if idx_io::escape::is_unsafe(c) && c >= '\u{7f}' => {
                o.push_str(&format!("&#x{:X};", u32::from(c)))
            }
            c => o.push(c),
        }
    }
    o
}

/// XML-escapes an attribute value: as [`esc`], and newlines, carriage
/// returns and tabs as character references, which attribute-value
/// normalisation would otherwise turn into spaces.
pub fn esc_attr(s: &str) -> String {
    esc(s)
        .replace('\n', "&#10;")
        .replace('\r', "&#13;")
        .replace('\t', "&#9;")
}

/// Renders the report.
pub fn render(results: &[FileResult], ctx: &Context) -> String {
    let t = totals(results, ctx.deny_warnings);
    let mut s = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        s,
        "<testsuites name=\"idx-validate\" tests=\"{}\" failures=\"{}\" errors=\"{}\">",
        t.files, t.invalid, t.unreadable
    );
    let _ = writeln!(
        s,
        "  <testsuite name=\"idx-validate\" tests=\"{}\" failures=\"{}\" errors=\"{}\">",
        t.files, t.invalid, t.unreadable
    );
    for r in results {
        let name = esc_attr(&r.source.display());
        let _ = writeln!(
            s,
            "    <testcase classname=\"idx-validate\" name=\"{name}\">"
        );
        match &r.outcome {
            Err(e) => {
                let _ = writeln!(s, "      <error message=\"cannot read: {}\"/>", esc_attr(e));
            }
            Ok(c) => {
                for f in &c.report.findings {
                    let fails = match f.severity() {
                        Severity::Error => true,
                        Severity::Warning => ctx.deny_warnings,
                        Severity::Info => false,
                    };
                    if fails {
                        let body = super::finding_text(c, f);
                        let _ = writeln!(
                            s,
                            "      <failure type=\"{}\" message=\"{}\">{}</failure>",
                            f.rule.code(),
                            esc_attr(&f.message),
                            esc(&body)
                        );
                    }
                }
                let others: Vec<String> = c
                    .report
                    .findings
                    .iter()
                    .filter(|f| {
                        f.severity() == Severity::Info
                            || (f.severity() == Severity::Warning && !ctx.deny_warnings)
                    })
                    .map(|f| format!("{f}{}", super::offset_note(c)))
                    .collect();
                if !others.is_empty() {
                    let _ = writeln!(
                        s,
                        "      <system-out>{}</system-out>",
                        esc(&others.join("\n"))
                    );
                }
            }
        }
        s.push_str("    </testcase>\n");
    }
    s.push_str("  </testsuite>\n</testsuites>\n");
    s
}
