//! Turning paths into validated results: walking directories, reading
//! files and standard input. All verdicts come from the `idx` library.

use idx::{Finding, Options, Report, Rule};
use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

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

/// How to check.
#[derive(Debug, Clone)]
pub struct Settings {
    /// The library's options (decompression, expectations, limits).
    pub options: Options,
    /// Read only the header; take the length from the file system.
    pub structure_only: bool,
    /// At most this many findings per rule per file (0: no cap).
    pub max_findings: usize,
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

/// By name (`*.idx`, `*-idx3-ubyte`, either with `.gz`) or by magic
/// (`00 00` and a known type code).
pub fn looks_like_idx(path: &Path) -> bool {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    let base = name.strip_suffix(".gz").unwrap_or(&name);
    if base.ends_with(".idx") || idx::lint::name_claim(base).is_some() {
        return true;
    }
    let mut magic = [0u8; 4];
    match File::open(path).and_then(|mut f| f.read_exact(&mut magic)) {
        Ok(()) => magic[0] == 0 && magic[1] == 0 && idx::ElementType::from_code(magic[2]).is_some(),
        Err(_) => false,
    }
}

/// Checks data read from `reader` (of `len` bytes when known) as the
/// command checks standard input and files: the Python package's in-memory
/// data and file objects go through here. `source` names it in the result
/// (its file name, if any, is the one the name lints see).
pub fn check_reader<R: Read>(
    source: Source,
    reader: R,
    len: Option<u64>,
    settings: &Settings,
) -> FileResult {
    let mut opts = settings.options.clone();
    if let Source::File(p) = &source {
        opts.file_name = p.file_name().map(|n| n.to_string_lossy().into_owned());
    }
    FileResult {
        outcome: idx::validate_reader_len(reader, len, &opts)
            .map(|r| cap(r, settings.max_findings))
            .map_err(|e| e.to_string()),
        source,
    }
}

/// Checks one input.
pub fn check(source: &Source, settings: &Settings) -> FileResult {
    let mut opts = settings.options.clone();
    if let Source::File(p) = source {
        opts.file_name = p.file_name().map(|n| n.to_string_lossy().into_owned());
    }
    let report = match source {
        Source::Stdin => idx::validate_reader(io::stdin().lock(), &opts),
        Source::File(p) => File::open(p).and_then(|f| {
            // a labels file's values are read even then: the dataset
            // rules (--classes, gaps) need them (its own lints stay off)
            let len = f.metadata().ok().filter(|m| m.is_file()).map(|m| m.len());
            if settings.structure_only && opts.scan_labels.is_none() {
                idx::validate_structure(f, len, &opts)
            } else if settings.structure_only {
                idx::validate_reader_len(
                    f,
                    len,
                    &opts.clone().with_lints(false).with_byte_order_test(false),
                )
            } else {
                // a regular file's length comes from its metadata, so the
                // library can stop reading once nothing else can change
                idx::validate_reader_len(f, len, &opts)
            }
        }),
    };
    FileResult {
        source: source.clone(),
        outcome: report
            .map(|r| cap(r, settings.max_findings))
            .map_err(|e| e.to_string()),
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
