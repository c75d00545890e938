//! Output formats. Each renders the same [`FileResult`]s: the same findings,
//! in the same order, with the same fields.

pub mod github;
pub mod human;
pub mod json;
pub mod junit;
pub mod sarif;
pub mod short;
pub mod stats;

use crate::check::{Checked, FileResult};
use idx::{Header, Severity};
use std::fmt::Write as _;

/// What every renderer needs to know besides the results.
#[derive(Debug, Clone, Default)]
pub struct Context {
    /// Warnings count as failures.
    pub deny_warnings: bool,
    /// ANSI colours (human format only).
    pub color: bool,
    /// Print only failing files (human format only).
    pub quiet: bool,
    /// Print the header structure of every file (human format only).
    pub verbose: bool,
    /// Add `startLine: 1` to SARIF regions (for GitHub code scanning).
    pub sarif_github: bool,
    /// The absolute URL of `spec/idx.md` (`--spec-url`, `spec-url`); without
    /// it no output carries a spec link (a relative path would only work
    /// inside a clone), and SARIF's `helpUri` is the rule's page
    /// ([`crate::rule_url`]).
    pub spec_url: Option<String>,
    /// `--unsafe-fixes`: unsafe fixes count as applicable (`[*]`).
    pub unsafe_fixes: bool,
    /// `--fix` (not `--diff`): fixes were applied, so what is left is not
    /// "fixable with --fix".
    pub fix_run: bool,
}

/// The absolute spec link of a rule (`<spec-url>#idx102-unknown-type`), or
/// `None` when no spec URL is configured.
pub fn spec_link(ctx: &Context, rule: idx::Rule) -> Option<String> {
    ctx.spec_url
        .as_deref()
        .map(|u| format!("{}#{}", u.split('#').next().unwrap_or(u), rule.anchor()))
}

/// `[60000, 28, 28]`.
pub fn shape(dims: &[u32]) -> String {
    let parts: Vec<String> = dims.iter().map(u32::to_string).collect();
    format!("[{}]", parts.join(", "))
}

/// `u8 [60000, 28, 28]`.
pub fn header_summary(h: &Header) -> String {
    format!("{} {}", h.dtype(), shape(h.dims()))
}

/// Totals over all results.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Totals {
    /// Inputs.
    pub files: usize,
    /// Valid inputs.
    pub valid: usize,
    /// Invalid inputs.
    pub invalid: usize,
    /// Unreadable inputs.
    pub unreadable: usize,
    /// Error findings.
    pub errors: usize,
    /// Warning findings.
    pub warnings: usize,
    /// Info findings.
    pub infos: usize,
    /// Findings with a fix `--fix` applies (safe, or unsafe under
    /// `--unsafe-fixes`); see [`applicable`].
    pub fixable: usize,
    /// Findings whose only fix is unsafe, without `--unsafe-fixes`.
    pub unsafe_fixable: usize,
    /// Fixes applied (or, with `--diff`, that would be).
    pub fixed: usize,
    /// Files whose repair failed (left unchanged).
    pub repair_failed: usize,
}

/// True when `--fix` (with `unsafe_fixes` as given) applies this
/// finding's fix: `[*]` in the human format.
pub fn applicable(f: &idx::Finding, unsafe_fixes: bool) -> bool {
    f.fix
        .as_ref()
        .is_some_and(|x| x.applicability == idx::Applicability::Safe || unsafe_fixes)
}

/// Counts fixable findings and repairs.
pub fn fix_totals(results: &[FileResult], unsafe_fixes: bool) -> Totals {
    let mut t = Totals::default();
    for r in results {
        if let Ok(c) = &r.outcome {
            for f in &c.report.findings {
                if applicable(f, unsafe_fixes) {
                    t.fixable += 1;
                } else if f.fix.is_some() {
                    t.unsafe_fixable += 1;
                }
            }
            if let Some(rep) = &c.repair {
                t.fixed += rep.applied.len();
                t.repair_failed += usize::from(rep.failed());
            }
        }
    }
    t
}

/// Counts verdicts and findings.
pub fn totals(results: &[FileResult], deny_warnings: bool) -> Totals {
    let mut t = Totals {
        files: results.len(),
        ..Totals::default()
    };
    let fixes = fix_totals(results, false);
    t.fixed = fixes.fixed;
    t.repair_failed = fixes.repair_failed;
    for r in results {
        match r.verdict(deny_warnings) {
            "valid" => t.valid += 1,
            "invalid" => t.invalid += 1,
            _ => t.unreadable += 1,
        }
        if let Ok(c) = &r.outcome {
            t.errors += c.count(Severity::Error);
            t.warnings += c.count(Severity::Warning);
            t.infos += c.count(Severity::Info);
        }
    }
    t
}

/// `2 errors, 1 warning`: the non-zero counts of a checked file.
pub fn counts(c: &Checked) -> String {
    let mut parts = Vec::new();
    for (s, one) in [
        (Severity::Error, "error"),
        (Severity::Warning, "warning"),
        (Severity::Info, "info"),
    ] {
        let n = c.count(s);
        if n > 0 {
            parts.push(idx_text::plural::count(n as u64, one));
        }
    }
    parts.join(", ")
}

/// ` (offset in the decompressed stream)` when the report's offsets are in
/// a decompressed stream (spec 5.2), else nothing.
pub fn offset_note(c: &Checked) -> &'static str {
    if c.report.compression.is_some() {
        " (offset in the decompressed stream)"
    } else {
        ""
    }
}

/// A finding in the library's one text form (`{:#}`: the line, then each
/// of [`idx::Finding::details`] as `  = label: text`), the line followed by
/// [`offset_note`]: the body of a JUnit failure and of a GitHub annotation.
pub fn finding_text(c: &Checked, f: &idx::Finding) -> String {
    let mut s = format!("{f}{}", offset_note(c));
    for (label, text) in f.details() {
        let _ = write!(s, "\n  = {label}: {text}");
    }
    s
}

/// The bytes of a path as the file system has them: exact on Unix (a
/// non-UTF-8 name stays as it is), the lossy UTF-8 text elsewhere. On
/// Unix `\\` is an ordinary file-name character; only Windows, where it is
/// a separator, turns it into `/`.
fn path_bytes_of(p: &std::path::Path) -> Vec<u8> {
    // Unix, and WebAssembly, whose paths are its host's (Node on Unix)
    #[cfg(not(windows))]
    {
        p.as_os_str().as_encoded_bytes().to_vec()
    }
    #[cfg(windows)]
    {
        p.to_string_lossy().replace('\\', "/").into_bytes()
    }
}

/// Whether `p` is absolute: on every target but Windows, when it starts
/// with `/`. (`Path::is_absolute` is false for every path on
/// `wasm32-unknown-unknown`, which knows no file system, while the npm
/// command's paths are its host's, Node's on Unix.)
fn is_absolute(p: &std::path::Path) -> bool {
    if cfg!(windows) {
        p.is_absolute()
    } else {
        p.has_root()
    }
}

/// `path` without any leading `./` (`./a/./b` gives `a/./b`).
fn without_dot_slash(mut b: &[u8]) -> &[u8] {
    while let Some(rest) = b.strip_prefix(b"./") {
        b = rest;
        while let Some(rest) = b.strip_prefix(b"/") {
            b = rest;
        }
    }
    b
}

/// RFC 3986 percent-encoding of a path: every byte but the unreserved
/// characters (`A-Z a-z 0-9 - . _ ~`), the separator `/` and (when
/// `colon`) `:` becomes `%XX`, so a space, `%`, `#`, `?`, `\\` and the
/// UTF-8 (or raw) bytes of non-ASCII names survive a URI parser.
fn percent_encode(bytes: &[u8], colon: bool) -> String {
    let mut s = String::with_capacity(bytes.len());
    for &b in bytes {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) || (colon && b == b':') {
            s.push(char::from(b));
        } else {
            s.push_str(&format!("%{b:02X}"));
        }
    }
    s
}

/// The path of a result as an RFC 3986 URI reference, for SARIF's
/// `artifactLocation.uri`: a relative path is a relative reference (with
/// no leading `./`; `:` is encoded, so its first segment never reads as a
/// scheme), an absolute one a `file://` URI; every byte but
/// `A-Z a-z 0-9 - . _ ~ /` (and `:` in a `file://` path) is
/// percent-encoded.
/// Standard input is `-` (`%3Cstdin%3E` would name a file).
pub fn uri(r: &FileResult) -> String {
    match &r.source {
        crate::check::Source::File(p) => path_uri(p),
        crate::check::Source::Stdin => "-".into(),
    }
}

/// [`uri`] of a path.
pub fn path_uri(p: &std::path::Path) -> String {
    let bytes = path_bytes_of(p);
    let b = without_dot_slash(&bytes);
    if is_absolute(p) {
        let enc = percent_encode(b, true);
        if enc.starts_with('/') {
            format!("file://{enc}")
        } else {
            format!("file:///{enc}")
        }
    } else {
        percent_encode(b, false)
    }
}

/// The path of a result as text for formats that take a file name, not a
/// URI (GitHub's `file=`): relative paths without a leading `./`, `/`
/// separators; a backslash is kept on Unix, where it is not a separator.
/// A non-UTF-8 name is shown with U+FFFD (JSON carries it exactly, see
/// [`json::path_fields`]).
pub fn path_text(r: &FileResult) -> String {
    match &r.source {
        crate::check::Source::File(p) => {
            String::from_utf8_lossy(without_dot_slash(&path_bytes_of(p))).into_owned()
        }
        crate::check::Source::Stdin => r.source.display(),
    }
}

/// The path of a result as [`path_text`] has it, for a terminal: its
/// bytes through [`idx_io::escape::bytes`] (controls and bidi overrides
/// escaped, a byte that is not UTF-8 as `\xNN`).
pub fn path_escaped(r: &FileResult) -> String {
    match &r.source {
        crate::check::Source::File(p) => {
            idx_io::escape::bytes(without_dot_slash(&path_bytes_of(p)))
        }
        crate::check::Source::Stdin => r.source.display(),
    }
}

/// The exact bytes of a result's path when it is not valid UTF-8 (Unix),
/// else `None`: JSON then shows `path` lossily and adds `path_bytes`.
pub fn non_utf8_path(r: &FileResult) -> Option<Vec<u8>> {
    match &r.source {
        crate::check::Source::File(p) if p.to_str().is_none() => Some(path_bytes_of(p)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::path_uri;
    use std::path::Path;

    #[test]
    fn uris_are_percent_encoded_references() {
        assert_eq!(
            path_uri(Path::new("./a b/c%#?.idx")),
            "a%20b/c%25%23%3F.idx"
        );
        assert_eq!(path_uri(Path::new("x:y.idx")), "x%3Ay.idx");
        assert_eq!(path_uri(Path::new("caf\u{e9}.idx")), "caf%C3%A9.idx");
        assert_eq!(
            path_uri(Path::new("../t10k-idx1-ubyte.gz")),
            "../t10k-idx1-ubyte.gz"
        );
        #[cfg(unix)]
        {
            assert_eq!(path_uri(Path::new("a\\b.idx")), "a%5Cb.idx");
            assert_eq!(path_uri(Path::new("/tmp/a b:c")), "file:///tmp/a%20b:c");
        }
    }
}
