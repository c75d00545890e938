//! The checked results every renderer takes: where an input came from
//! ([`Source`]), its report or why it could not be read ([`FileResult`]),
//! findings capped per rule ([`cap`]), and the bytes of an excerpt
//! ([`window`]).

use idx::{Finding, Report, Rule};
use std::collections::BTreeMap;
use std::fs::File;
use std::io::Read;
use std::path::PathBuf;

/// Where the bytes of one input come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// A file.
    File(PathBuf),
    /// Standard input (`-`).
    Stdin,
}

impl Source {
    /// The path as shown to users (`-` shows as `<stdin>`).
    pub fn display(&self) -> String {
        match self {
            Source::File(p) => p.display().to_string(),
            Source::Stdin => "<stdin>".into(),
        }
    }

    /// The name for a terminal ([`idx_io::escape::path`]: controls, bidi
    /// overrides and bytes that are not UTF-8 shown escaped).
    pub fn shown(&self) -> String {
        match self {
            Source::File(p) => idx_io::escape::path(p),
            Source::Stdin => "<stdin>".into(),
        }
    }
}

/// The outcome for one input.
#[derive(Debug, Clone)]
pub struct FileResult {
    /// The input.
    pub source: Source,
    /// The report, or why the input could not be read.
    pub outcome: Result<Checked, String>,
}

/// A validated input.
#[derive(Debug, Clone)]
pub struct Checked {
    /// The library's report, findings capped per rule.
    pub report: Report,
    /// Findings left out by the cap, per rule.
    pub suppressed: BTreeMap<Rule, usize>,
    /// With `--fix` or `--diff`: what was repaired; `report` is then what
    /// remains.
    pub repair: Option<crate::repair::Repair>,
    /// Rows of the stream (by offset) read by a front end that has no
    /// file system for [`window`] to read (the browser): the excerpts of
    /// findings beyond the report's kept head and tail ([`excerpt_rows`]).
    pub excerpts: BTreeMap<u64, Vec<u8>>,
}

impl FileResult {
    /// `valid`, `invalid` or `unreadable`.
    pub fn verdict(&self, deny_warnings: bool) -> &'static str {
        match &self.outcome {
            Err(_) => "unreadable",
            Ok(c) if c.fails(deny_warnings) => "invalid",
            Ok(_) => "valid",
        }
    }
}

impl Checked {
    /// True when an error (or, when denied, a warning) was found; counts
    /// suppressed findings too.
    pub fn fails(&self, deny_warnings: bool) -> bool {
        let bad = |s: idx::Severity| match s {
            idx::Severity::Error => true,
            idx::Severity::Warning => deny_warnings,
            idx::Severity::Info => false,
        };
        // --diff wrote nothing: the file on disk is what was planned from
        let on_disk = self.repair.as_ref().is_some_and(|x| {
            x.action == crate::repair::Action::WouldRewrite && x.before.iter().any(|&(_, s)| bad(s))
        });
        on_disk
            || self.report.findings.iter().any(|f| bad(f.severity()))
            || self.suppressed.keys().any(|&r| bad(r.severity()))
    }

    /// [`Checked::fails`] of the stream as it is after the repair (with
    /// `--diff`, as it would be).
    pub fn fails_after(&self, deny_warnings: bool) -> bool {
        let bad = |s: idx::Severity| match s {
            idx::Severity::Error => true,
            idx::Severity::Warning => deny_warnings,
            idx::Severity::Info => false,
        };
        self.report.findings.iter().any(|f| bad(f.severity()))
            || self.suppressed.keys().any(|&r| bad(r.severity()))
    }

    /// Number of findings of a severity, suppressed ones included.
    pub fn count(&self, s: idx::Severity) -> usize {
        self.report.count(s)
            + self
                .suppressed
                .iter()
                .filter(|(r, _)| r.severity() == s)
                .map(|(_, n)| n)
                .sum::<usize>()
    }
}

/// Caps the findings of `report` at `max` per rule (0: no cap).
pub fn cap(mut report: Report, max: usize) -> Checked {
    let mut suppressed = BTreeMap::new();
    if max > 0 {
        let mut seen: BTreeMap<Rule, usize> = BTreeMap::new();
        report.findings.retain(|f: &Finding| {
            let n = seen.entry(f.rule).or_default();
            *n += 1;
            if *n > max {
                *suppressed.entry(f.rule).or_default() += 1;
                false
            } else {
                true
            }
        });
    }
    Checked {
        report,
        suppressed,
        repair: None,
        excerpts: BTreeMap::new(),
    }
}

/// The stream bytes `[start, start + len)` (clamped to the stream), from
/// the report's kept head and tail or, for uncompressed files, from the file
/// itself. `None` when they cannot be had (deep inside a decompressed or
/// piped stream).
pub fn window(result: &FileResult, start: u64, len: usize) -> Option<Vec<u8>> {
    use std::io::{Seek, SeekFrom};
    let Ok(c) = &result.outcome else { return None };
    let rep = &c.report;
    let len = (rep.stream_len.saturating_sub(start)).min(len as u64) as usize;
    if let Some(b) = rep.bytes_at(start, len) {
        return Some(b.to_vec());
    }
    if let Some(b) = c.excerpts.get(&start).and_then(|b| b.get(..len)) {
        return Some(b.to_vec());
    }
    match (&result.source, rep.compression) {
        (Source::File(p), None) => {
            let mut f = File::open(p).ok()?;
            f.seek(SeekFrom::Start(start)).ok()?;
            let mut buf = vec![0u8; len];
            f.read_exact(&mut buf).ok()?;
            Some(buf)
        }
        _ => None,
    }
}

/// The 16-byte row of the stream the human format shows for a finding: the
/// row holding its first byte, or the last byte before it for missing data
/// (a finding of length 0).
pub fn excerpt_row(f: &Finding) -> u64 {
    let anchor = if f.length == 0 {
        f.offset.saturating_sub(1)
    } else {
        f.offset
    };
    anchor / 16 * 16
}

/// The rows ([`excerpt_row`]) of a checked input's findings that its report
/// did not keep: what a front end without a file system reads into
/// [`Checked::excerpts`], so that its excerpts are the command's. None for
/// a decompressed stream (the command shows none either).
pub fn excerpt_rows(c: &Checked) -> Vec<u64> {
    let rep = &c.report;
    if rep.compression.is_some() || rep.stream_len == 0 {
        return Vec::new();
    }
    let mut rows: Vec<u64> = rep
        .findings
        .iter()
        .map(excerpt_row)
        .filter(|&row| {
            let len = rep.stream_len.saturating_sub(row).min(16) as usize;
            rep.bytes_at(row, len).is_none()
        })
        .collect();
    rows.sort_unstable();
    rows.dedup();
    rows
}
