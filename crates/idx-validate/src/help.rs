//! The words around the options: `--help`'s EXAMPLES and EXIT STATUS, the
//! man page with its sections under their usual names, `--list-rules`, and
//! typo suggestions that never propose an option that checks less.

use clap::error::{ContextKind, ContextValue, ErrorKind};
use std::fmt::Write as _;
use std::io::Write;

/// Examples: command and what it does.
pub const EXAMPLES: &[(&str, &str)] = &[
    (
        "idx-validate train-images-idx3-ubyte.gz",
        "check one file (gzip is decompressed on the fly)",
    ),
    (
        "idx-validate --classes 10 data/mnist/",
        "check a dataset folder: every file, then images against labels",
    ),
    (
        "idx-validate --deny-warnings --format github data/",
        "in CI: annotate findings on the pull request, fail on warnings too",
    ),
    (
        "idx-validate --expect-dtype u8 --expect-shape '*,28,28' out.idx",
        "test a writer's output against the type and shape it should have",
    ),
    (
        "idx-validate --format sarif --output-file idx.sarif data/",
        "write SARIF for code scanning",
    ),
    (
        "idx-validate --statistics data/",
        "count the findings per rule",
    ),
    (
        "idx-validate --explain IDX203",
        "read the spec's text for a rule",
    ),
];

/// The exit statuses: status and meaning.
pub const EXIT_STATUS: &[(&str, &str)] = &[
    (
        "0",
        "every file is valid (warnings allowed, unless --deny-warnings), or --exit-zero",
    ),
    (
        "1",
        "at least one file has an error finding (or a warning under --deny-warnings)",
    ),
    (
        "2",
        "a usage or configuration error, a file that could not be read, or a path with no file to check (2 wins over 1)",
    ),
    ("101", "a panic: a bug, please report it"),
];

const NOTES: &str = "With --fix the status reflects what remains after fixing; a file that could not be repaired (left unchanged) is 2; --exit-non-zero-on-fix makes any applied fix 1, and --diff exits 1 when it would change a file. Offsets are 0-based, shown in hex and decimal. For gzip input (detected by its magic) they are offsets in the decompressed stream. List the rules with --list-rules and read one with --explain CODE.";

/// `--help`'s text after the options: EXAMPLES, EXIT STATUS, notes.
pub fn after_help() -> String {
    let mut s = String::from("EXAMPLES:\n");
    for (cmd, what) in EXAMPLES {
        let _ = writeln!(s, "    {cmd}\n        {what}");
    }
    s.push_str("\nEXIT STATUS:\n");
    for (code, what) in EXIT_STATUS {
        let _ = writeln!(s, "    {code:<5}{what}");
    }
    s.push('\n');
    s.push_str(NOTES);
    s
}

/// Escapes text for a roff line.
fn roff(s: &str) -> String {
    let s = s.replace('\\', "\\e").replace('-', "\\-");
    if s.starts_with('.') || s.starts_with('\'') {
        format!("\\&{s}")
    } else {
        s
    }
}

/// The man page: NAME, SYNOPSIS, DESCRIPTION, OPTIONS, EXAMPLES, EXIT
/// STATUS, NOTES, VERSION.
///
/// # Errors
/// Write errors.
pub fn man(cmd: clap::Command, w: &mut dyn Write) -> std::io::Result<()> {
    let cmd = cmd.after_help(None::<&str>).after_long_help(None::<&str>);
    let m = clap_mangen::Man::new(cmd);
    let mut buf = Vec::new();
    m.render_title(&mut buf)?;
    // each part repeats roff's preamble: keep it once
    fn part(buf: &mut Vec<u8>, b: &[u8]) {
        let text = String::from_utf8_lossy(b);
        for line in text
            .lines()
            .filter(|l| !l.starts_with(".ie \\n(.g") && !l.starts_with(".el .ds Aq"))
        {
            buf.extend_from_slice(line.as_bytes());
            buf.push(b'\n');
        }
    }
    for f in [
        clap_mangen::Man::render_name_section,
        clap_mangen::Man::render_synopsis_section,
        clap_mangen::Man::render_description_section,
        clap_mangen::Man::render_options_section,
    ] {
        let mut b = Vec::new();
        f(&m, &mut b)?;
        part(&mut buf, &b);
    }
    let mut s = String::from(".SH EXAMPLES\n");
    for (cmd, what) in EXAMPLES {
        let _ = writeln!(s, ".TP\n\\fB{}\\fR\n{}", roff(cmd), roff(what));
    }
    s.push_str(".SH \"EXIT STATUS\"\n");
    for (code, what) in EXIT_STATUS {
        let _ = writeln!(s, ".TP\n\\fB{code}\\fR\n{}", roff(what));
    }
    let _ = writeln!(s, ".SH NOTES\n{}", roff(NOTES));
    buf.extend_from_slice(s.as_bytes());
    let mut b = Vec::new();
    m.render_version_section(&mut b)?;
    part(&mut buf, &b);
    w.write_all(&buf)
}

/// `--list-rules`: code, severity, fix (`safe`, `unsafe`, `safe|unsafe` or
/// `-`, from the library: `spec/idx.md` §10), name and title, one rule per
/// line, in aligned columns.
pub fn list_rules() -> String {
    let rules = idx::Rule::ALL;
    let sev = rules
        .iter()
        .map(|r| r.severities().len())
        .max()
        .unwrap_or(0);
    let name = rules.iter().map(|r| r.name().len()).max().unwrap_or(0);
    let fix = rules
        .iter()
        .map(|r| crate::fix_column(*r).len())
        .max()
        .unwrap_or(0);
    rules
        .iter()
        .map(|r| {
            format!(
                "{}  {:<sev$}  {:<fix$}  {:<name$}  {}\n",
                r.code(),
                r.severities(),
                crate::fix_column(*r),
                r.name(),
                r.title()
            )
        })
        .collect()
}

/// Options that make a run check less: never proposed for a typo unless
/// the typo is a near miss of that very option.
const CHECKS_LESS: &[&str] = &[
    "--structure-only",
    "--no-decompress",
    "--exit-zero",
    "--allow-empty",
    "--ignore",
    "--isolated",
    "--select",
    "--max-findings",
];

/// Words users type for "stricter", and the option that does it.
const STRICTER: &[(&str, &str)] = &[
    ("strict", "--deny-warnings"),
    ("pedantic", "--deny-warnings"),
    ("werror", "--deny-warnings"),
    ("warnings-as-errors", "--deny-warnings"),
    ("fail-on-warnings", "--deny-warnings"),
];

fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != *cb);
            cur.push(sub.min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

fn context_str(e: &clap::Error, k: ContextKind) -> Option<String> {
    match e.get(k)? {
        ContextValue::String(s) => Some(s.clone()),
        ContextValue::Strings(v) => v.first().cloned(),
        _ => None,
    }
}

/// The message for an unknown option, or `None` to let clap say it: a
/// suggestion of an option that checks less is replaced (by the stricter
/// option when the word asks for one) unless the typo is a near miss of it.
pub fn unknown_argument(e: &clap::Error) -> Option<String> {
    if e.kind() != ErrorKind::UnknownArgument {
        return None;
    }
    let given = context_str(e, ContextKind::InvalidArg)?;
    let suggested = context_str(e, ContextKind::SuggestedArg);
    let flag = given.split('=').next().unwrap_or(&given);
    let word = flag.trim_start_matches('-').to_ascii_lowercase();
    let stricter = STRICTER.iter().find(|(w, _)| *w == word).map(|(_, o)| *o);
    let risky = suggested.as_deref().is_some_and(|s| {
        let opt = s.split([' ', '=']).next().unwrap_or(s);
        CHECKS_LESS.contains(&opt) && distance(flag, opt) > 2
    });
    if !risky && stricter.is_none() {
        return None;
    }
    let mut s = format!("error: unexpected argument '{given}' found\n\n");
    match stricter {
        Some(o) => {
            let _ = writeln!(s, "  tip: to fail on warnings too, use '{o}'\n");
        }
        None => s.push_str("  tip: see the options in '--help'\n\n"),
    }
    s.push_str("Usage: idx-validate [OPTIONS] [PATH]...\n\nFor more information, try '--help'.\n");
    Some(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances() {
        assert_eq!(distance("--structure-onyl", "--structure-only"), 2);
        assert!(distance("--strict", "--structure-only") > 2);
    }

    #[test]
    fn rule_list_columns_line_up() {
        let text = list_rules();
        let col = |line: &str| {
            let r = idx::Rule::find(&line[..6]).unwrap(); // ok: unit test
            line.find(r.title()).unwrap() // ok: unit test
        };
        let cols: std::collections::BTreeSet<usize> = text.lines().map(col).collect();
        assert_eq!(cols.len(), 1, "{text}");
    }
}
