//! rustc-style diagnostics with a hex excerpt and carets under the exact
//! bytes, then a summary line per file and a total line.

use super::{applicable, counts, fix_totals, header_summary, spec_link, totals, Context};
use crate::check::{window, FileResult};
use idx::{Finding, Severity};
use idx_text::plural::count;
use std::fmt::Write;

struct Paint {
    on: bool,
}

impl Paint {
    fn p(&self, code: &str, s: &str) -> String {
        if self.on {
            format!("\x1b[{code}m{s}\x1b[0m")
        } else {
            s.to_string()
        }
    }
    fn sev(&self, s: Severity, text: &str) -> String {
        match s {
            Severity::Error => self.p("1;31", text),
            Severity::Warning => self.p("1;33", text),
            Severity::Info => self.p("1;36", text),
        }
    }
    fn blue(&self, s: &str) -> String {
        self.p("1;34", s)
    }
    fn bold(&self, s: &str) -> String {
        self.p("1", s)
    }
}

/// Column of byte `i` (0..=16) of a hex row.
fn col(i: usize) -> usize {
    10 + 3 * i + usize::from(i >= 8)
}

/// `00000000  00 00 08 03 ...  |....|`.
pub fn hex_row(start: u64, bytes: &[u8]) -> String {
    let mut s = format!("{start:08x}  ");
    for i in 0..16 {
        match bytes.get(i) {
            Some(b) => {
                let _ = write!(s, "{b:02x}");
            }
            None => s.push_str("  "),
        }
        if i < 15 {
            s.push(' ');
        }
        if i == 7 {
            s.push(' ');
        }
    }
    s.push_str("  |");
    for &b in bytes {
        s.push(if b.is_ascii_graphic() || b == b' ' {
            b as char
        } else {
            '.'
        });
    }
    s.push('|');
    s
}

/// Expected and found, on one line under the carets with the library's
/// labels ([`Finding::details`]; its `help` is the `= help:` line), else the
/// rule's title; escaped: a dataset finding's texts name the other file of
/// a pair.
fn label(f: &Finding) -> String {
    let said: Vec<String> = f
        .details()
        .filter(|(label, _)| *label != "help")
        .map(|(label, text)| format!("{label} {text}"))
        .collect();
    let text = if said.is_empty() {
        f.rule.title().to_string()
    } else {
        said.join(", ")
    };
    idx_io::escape::text(&text).into_owned()
}

fn excerpt(out: &mut String, r: &FileResult, f: &Finding, stream_len: u64, paint: &Paint) {
    const GUTTER: &str = "   | ";
    let missing = f.length == 0;
    if stream_len == 0 {
        let _ = writeln!(out, "{}(empty stream)", paint.blue(GUTTER));
        let _ = writeln!(
            out,
            "{}{} {}",
            paint.blue(GUTTER),
            paint.sev(f.severity(), "^"),
            label(f)
        );
        return;
    }
    let row = crate::check::excerpt_row(f);
    let Some(bytes) = window(r, row, 16) else {
        let _ = writeln!(
            out,
            "{}(bytes not shown: offset {:#x} lies beyond the kept head of a decompressed or piped stream)",
            paint.blue(GUTTER),
            f.offset
        );
        let _ = writeln!(out, "{}{}", paint.blue(GUTTER), label(f));
        return;
    };
    let _ = writeln!(out, "{}{}", paint.blue(GUTTER), hex_row(row, &bytes));
    let a = (f.offset - row) as usize;
    let (from, to, more) = if missing {
        (col(a.min(16)), col(a.min(16)) + 1, String::new())
    } else {
        let end = (f.offset + f.length - row).min(16) as usize;
        let more = if f.offset + f.length > row + 16 {
            format!(
                " ({}, to offset {:#x})",
                count(f.length, "byte"),
                f.offset + f.length
            )
        } else {
            String::new()
        };
        (col(a), col(end - 1) + 2, more)
    };
    let carets = "^".repeat(to - from);
    let _ = writeln!(
        out,
        "{}{}{} {}{more}",
        paint.blue(GUTTER),
        " ".repeat(from),
        paint.sev(f.severity(), &carets),
        label(f)
    );
}

fn location(r: &FileResult, f: &Finding, gz: bool) -> String {
    let of = if gz {
        " of the decompressed stream"
    } else {
        ""
    };
    format!(
        "{} @ {:#x} (byte {}{of})",
        r.source.shown(),
        f.offset,
        f.offset
    )
}

/// The header structure, field by field.
fn structure(out: &mut String, r: &FileResult, paint: &Paint) {
    let Ok(c) = &r.outcome else { return };
    let head = &c.report.head;
    let _ = writeln!(out, "{}", paint.bold("header:"));
    if head.len() < 4 {
        let _ = writeln!(
            out,
            "  (the magic is incomplete: {})",
            count(head.len() as u64, "byte")
        );
        return;
    }
    let _ = writeln!(
        out,
        "  0x0000  {:02x} {:02x}         reserved (must be 00 00)",
        head[0], head[1]
    );
    let t = idx::ElementType::from_code(head[2]).map_or("unknown".to_string(), |t| {
        format!("{t}, {} each", count(t.size() as u64, "byte"))
    });
    let _ = writeln!(
        out,
        "  0x0002  {:02x}            element type: {t}",
        head[2]
    );
    let _ = writeln!(out, "  0x0003  {:02x}            rank {}", head[3], head[3]);
    for k in 0..usize::from(head[3]) {
        let at = 4 + 4 * k;
        match head.get(at..at + 4) {
            Some(d) => {
                let v = u32::from_be_bytes([d[0], d[1], d[2], d[3]]);
                let _ = writeln!(
                    out,
                    "  {at:#06x}  {:02x} {:02x} {:02x} {:02x}   dimension {k} = {v}",
                    d[0], d[1], d[2], d[3]
                );
            }
            None => {
                let _ = writeln!(out, "  {at:#06x}  (missing)     dimension {k}");
                return;
            }
        }
    }
    if let Some(h) = &c.report.header {
        let _ = writeln!(
            out,
            "  {:#06x}  payload: {} declared ({}), {} present in a stream of {}",
            h.header_len(),
            count(h.payload_len(), "byte"),
            count(h.element_count(), "element"),
            c.report
                .stream_len
                .saturating_sub(h.header_len() as u64)
                .min(h.payload_len()),
            count(c.report.stream_len, "byte")
        );
    }
}

/// Each finding of a checked input, in order, as the human format shows it
/// (its lines, from `error[IDX...]:` to its `= spec:` or `= rule:` line;
/// [`render`] writes these, each followed by a blank line): what the web
/// page shows in a finding's box. Nothing for an unreadable input.
pub fn findings(r: &FileResult, ctx: &Context) -> Vec<String> {
    let paint = Paint { on: ctx.color };
    let Ok(c) = &r.outcome else {
        return Vec::new();
    };
    let gz = c.report.compression.is_some();
    c.report
        .findings
        .iter()
        .map(|f| {
            let mut out = String::new();
            let sev = f.severity();
            let mark = if applicable(f, ctx.unsafe_fixes) {
                "[*] "
            } else {
                ""
            };
            let _ = writeln!(
                out,
                "{}: {mark}{}",
                paint.sev(sev, &format!("{sev}[{}]", f.rule.code())),
                paint.bold(&idx_io::escape::text(&f.message))
            );
            let _ = writeln!(out, "  {} {}", paint.blue("-->"), location(r, f, gz));
            let _ = writeln!(out, "{}", paint.blue("   |"));
            excerpt(&mut out, r, f, c.report.stream_len, &paint);
            if let Some(o) = &f.related {
                let _ = writeln!(
                    out,
                    "   {} also about {} @ {:#x} (byte {}, {} bytes)",
                    paint.blue("= note:"),
                    idx_io::escape::text(&o.path),
                    o.offset,
                    o.offset,
                    o.length
                );
            }
            if let Some(h) = &f.hint {
                let _ = writeln!(
                    out,
                    "   {} {}",
                    paint.blue("= help:"),
                    idx_io::escape::text(h)
                );
            }
            if let Some(fix) = &f.fix {
                let _ = writeln!(
                    out,
                    "   {} {}",
                    paint.blue(&format!("= fix ({}):", fix.applicability)),
                    idx_io::escape::text(&fix.description)
                );
            }
            match spec_link(ctx, f.rule) {
                Some(url) => {
                    let _ = writeln!(out, "   {} {url}", paint.blue("= spec:"));
                }
                None => {
                    let _ = writeln!(
                        out,
                        "   {} idx-validate --explain {}",
                        paint.blue("= rule:"),
                        f.rule.code()
                    );
                }
            }
            out
        })
        .collect()
}

/// The line of an input's verdict, `PATH: TAG...`, in its parts: the
/// path as shown, the tag (`OK`, `INVALID` or `UNREADABLE`) and what
/// follows it (the header and counts of a valid input, the counts of an
/// invalid one, the gzip note). [`render`] writes it after the input's
/// findings ([`Verdict::line`]); the web page shows it as a file's heading.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    /// The input's path as shown.
    pub path: String,
    /// `OK`, `INVALID` or `UNREADABLE`.
    pub tag: &'static str,
    /// Everything after the tag (`: 2 errors`, ` u8 [10] (1 warning)`...).
    pub rest: String,
}

impl Verdict {
    /// The whole line, without its line feed; the tag coloured with
    /// `color` (green `OK`, red otherwise).
    pub fn line(&self, color: bool) -> String {
        let paint = Paint { on: color };
        let tag = if self.tag == "OK" {
            paint.p("1;32", self.tag)
        } else {
            paint.sev(Severity::Error, self.tag)
        };
        format!("{}: {tag}{}", self.path, self.rest)
    }
}

/// The verdict of one input ([`Verdict`]), as [`render`] words it.
pub fn verdict(r: &FileResult, ctx: &Context) -> Verdict {
    let path = r.source.shown();
    let Ok(c) = &r.outcome else {
        return Verdict {
            path,
            tag: "UNREADABLE",
            rest: String::new(),
        };
    };
    let failing = r.verdict(ctx.deny_warnings) != "valid";
    let gzs = if c.report.compression.is_some() {
        " (gzip; offsets are in the decompressed stream)"
    } else {
        ""
    };
    let n = counts(c);
    let would = c
        .repair
        .as_ref()
        .is_some_and(|x| x.action == crate::repair::Action::WouldRewrite);
    let (tag, rest) = if failing && would && !c.fails_after(ctx.deny_warnings) {
        (
            "INVALID",
            format!(": valid once the fixes above are applied (nothing written: --diff){gzs}"),
        )
    } else if failing {
        ("INVALID", format!(": {n}{gzs}"))
    } else {
        let what = c
            .report
            .header
            .as_ref()
            .map_or_else(String::new, |h| format!(" {}", header_summary(h)));
        let extra = if n.is_empty() {
            String::new()
        } else {
            format!(" ({n})")
        };
        ("OK", format!("{what}{extra}{gzs}"))
    };
    Verdict { path, tag, rest }
}

/// Why an input could not be read, `error: cannot read PATH: WHY`
/// (without its line feed), as [`render`] writes it before the input's
/// `UNREADABLE` verdict; `None` for an input that was read.
pub fn unreadable(r: &FileResult, ctx: &Context) -> Option<String> {
    let paint = Paint { on: ctx.color };
    let e = r.outcome.as_ref().err()?;
    Some(format!(
        "{}: cannot read {}: {}",
        paint.sev(Severity::Error, "error"),
        r.source.shown(),
        idx_io::escape::text(e)
    ))
}

/// One note per rule whose findings the cap left out, `note: N more RULE
/// findings in PATH not shown (raise --max-findings)` (without its line
/// feed), as [`render`] writes them; none for an unreadable input.
pub fn suppressed(r: &FileResult) -> Vec<String> {
    let Ok(c) = &r.outcome else {
        return Vec::new();
    };
    let path = r.source.shown();
    c.suppressed
        .iter()
        .map(|(rule, n)| {
            format!(
                "note: {} in {path} not shown (raise --max-findings)",
                count(*n as u64, &format!("more {rule} finding"))
            )
        })
        .collect()
}

/// The run's last line, `N files checked: V valid, I invalid, U
/// unreadable` and what the fixes did or could do (without its line
/// feed), as [`render`] ends with it.
pub fn summary(results: &[FileResult], ctx: &Context) -> String {
    summary_of(&totals(results, ctx.deny_warnings), &fix_note(results, ctx))
}

fn summary_of(t: &super::Totals, note: &str) -> String {
    format!(
        "{} checked: {} valid, {} invalid, {} unreadable{note}",
        count(t.files as u64, "file"),
        t.valid,
        t.invalid,
        t.unreadable
    )
}

/// Renders the human format.
pub fn render(results: &[FileResult], ctx: &Context) -> String {
    let paint = Paint { on: ctx.color };
    let mut out = String::new();
    for r in results {
        let failing = r.verdict(ctx.deny_warnings) != "valid";
        if ctx.quiet && !failing {
            continue;
        }
        let path = r.source.shown();
        if let Some(e) = unreadable(r, ctx) {
            let _ = writeln!(out, "{e}\n");
        }
        if let Ok(c) = &r.outcome {
            if ctx.verbose {
                let _ = writeln!(out, "{}", paint.bold(&path));
                structure(&mut out, r, &paint);
                out.push('\n');
            }
            for block in findings(r, ctx) {
                out.push_str(&block);
                out.push('\n');
            }
            if let Some(rep) = &c.repair {
                repair_summary(&mut out, &r.source, c, rep, &paint);
            }
            for note in suppressed(r) {
                let _ = writeln!(out, "{note}\n");
            }
        }
        let _ = writeln!(out, "{}", verdict(r, ctx).line(ctx.color));
    }
    let t = totals(results, ctx.deny_warnings);
    let note = fix_note(results, ctx);
    // -q: nothing at all when nothing failed and nothing was repaired
    if ctx.quiet && t.invalid == 0 && t.unreadable == 0 && note.is_empty() {
        return out;
    }
    let _ = writeln!(out, "{}", summary_of(&t, &note));
    out
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// `; [*] 2 fixable with --fix (1 more with --unsafe-fixes)`, and what a
/// repair did; empty when there is nothing to say.
fn fix_note(results: &[FileResult], ctx: &Context) -> String {
    let f = fix_totals(results, ctx.unsafe_fixes);
    let diff = results.iter().any(|r| {
        r.outcome.as_ref().is_ok_and(|c| {
            c.repair
                .as_ref()
                .is_some_and(|x| x.action == crate::repair::Action::WouldRewrite)
        })
    });
    let mut s = String::new();
    if f.fixed > 0 {
        let verb = if diff { "would be applied" } else { "applied" };
        s.push_str(&format!("; {} {verb}", plural(f.fixed, "fix", "fixes")));
    }
    if f.repair_failed > 0 {
        s.push_str(&format!(
            "; {} not repaired",
            plural(f.repair_failed, "file", "files")
        ));
    }
    if f.fixable > 0 && ctx.fix_run {
        // a --fix run: what is still fixable was not applied (its repair
        // failed, or it needs --unsafe-fixes)
        s.push_str(&format!("; [*] {} fixable, not applied", f.fixable));
    } else if f.fixable > 0 {
        s.push_str(&format!("; [*] {} fixable with --fix", f.fixable));
    }
    if f.unsafe_fixable > 0 {
        s.push_str(&format!(
            "; {} with an unsafe fix (--fix --unsafe-fixes)",
            plural(f.unsafe_fixable, "more finding", "more findings")
        ));
    }
    s
}

/// The header length a stream head declares (its rank byte), at most its
/// length.
fn header_len(head: &[u8]) -> usize {
    head.get(3)
        .map_or(head.len(), |&r| 4 + 4 * usize::from(r))
        .min(head.len())
}

/// Hex of the first `n` bytes (at most 64) of a stream head.
fn header_hex(head: &[u8], n: usize) -> String {
    let cut = n > 64;
    let n = n.min(head.len()).min(64);
    let mut s: Vec<String> = head[..n].iter().map(|b| format!("{b:02x}")).collect();
    if cut {
        s.push("...".into());
    }
    s.join(" ")
}

/// What `--fix` or `--diff` did to one file.
fn repair_summary(
    out: &mut String,
    source: &crate::check::Source,
    c: &crate::check::Checked,
    rep: &crate::repair::Repair,
    paint: &Paint,
) {
    use crate::repair::Action;
    let path = &source.shown();
    let would = rep.action == Action::WouldRewrite;
    for a in &rep.applied {
        let code = a
            .rule
            .map_or("stated".to_string(), |r| r.code().to_string());
        let _ = writeln!(
            out,
            "{}: {} at {:#x}: {}",
            paint.p(
                "1;32",
                &format!("{}[{code}]", if would { "would fix" } else { "fixed" })
            ),
            idx_io::escape::text(&a.message),
            a.offset,
            idx_io::escape::text(&a.fix.description)
        );
        let _ = writeln!(
            out,
            "   {} {}",
            paint.blue("= applicability:"),
            a.fix.applicability
        );
    }
    for d in &rep.declined {
        let _ = writeln!(
            out,
            "{}: {}",
            paint.p("1;33", "not fixed"),
            idx_io::escape::text(d)
        );
    }
    // the header as the repaired stream declares it, before and after
    let n = header_len(&rep.head_after).max(header_len(&rep.head_before).min(4));
    let (before, after) = (
        header_hex(&rep.head_before, n),
        header_hex(&rep.head_after, n),
    );
    if !rep.applied.is_empty() && before != after {
        let _ = writeln!(out, "   {} {before}", paint.blue("header before:"));
        let _ = writeln!(out, "   {} {after}", paint.blue("header after: "));
    }
    if rep.dropped_bytes > 0 {
        let _ = writeln!(
            out,
            "   {} {} dropped",
            paint.blue("= note:"),
            plural(rep.dropped_bytes as usize, "byte", "bytes")
        );
    }
    let remaining = c.report.findings.len() + c.suppressed.values().sum::<usize>();
    let unsafe_left = c
        .report
        .findings
        .iter()
        .filter(|f| {
            f.fix
                .as_ref()
                .is_some_and(|x| x.applicability == idx::Applicability::Unsafe)
        })
        .count();
    let left = if unsafe_left > 0 {
        format!(
            "{} remaining, {} an unsafe fix (--unsafe-fixes)",
            remaining,
            if unsafe_left == 1 {
                "1 has".to_string()
            } else {
                format!("{unsafe_left} have")
            }
        )
    } else {
        format!("{remaining} remaining")
    };
    let line = match &rep.action {
        Action::Unchanged => format!("nothing to fix ({left})"),
        Action::Rewritten(p) => format!(
            "{} ({left}); rewritten{}",
            plural(rep.applied.len(), "fix", "fixes"),
            // (the path given, compared as given: its escaped form for a
            // terminal differs when the name holds a control character)
            if matches!(source, crate::check::Source::File(given) if given == p) {
                String::new()
            } else {
                format!(" (the target {})", idx_io::escape::path(p))
            }
        ),
        Action::WrittenTo(p) => format!(
            "{} ({left}); repaired copy written to {}",
            plural(rep.applied.len(), "fix", "fixes"),
            idx_io::escape::path(p)
        ),
        Action::Stdout => format!(
            "{} ({left}); repaired stream written to standard output",
            plural(rep.applied.len(), "fix", "fixes")
        ),
        Action::WouldRewrite => format!(
            "{} would be applied ({left}); nothing written (--diff)",
            plural(rep.applied.len(), "fix", "fixes")
        ),
        Action::Failed(why) => format!("NOT REPAIRED: {}", idx_io::escape::text(why)),
    };
    let tag = match rep.action {
        Action::Failed(_) => paint.sev(Severity::Error, "FIX"),
        _ => paint.p("1;32", "FIX"),
    };
    let _ = writeln!(out, "{path}: {tag}: {line}");
}
