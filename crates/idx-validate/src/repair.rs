//! `--fix`, `--diff` and `--output`: the repairs are planned and written by
//! the `idx` library ([`idx::prepare`], [`idx::Planned::write`]); this
//! module only handles files, atomically and without loss:
//!
//! - the repaired stream is written to a temporary file in the destination's
//!   own directory, flushed and synced, given the input's permission bits,
//!   and renamed over the destination (the directory is then synced);
//! - a symbolic link is resolved and its target repaired: the link stays a
//!   link;
//! - the input's size and modification time are checked again just before
//!   the rename, and the library checks that its bytes were the same in
//!   every pass: if anything changed, nothing is renamed;
//! - on any failure the temporary file is removed and the input is left
//!   byte-identical; the error says why;
//! - standard input is repaired to standard output only, and `--output -`
//!   streams a file's repaired copy there (the file is only read);
//! - nothing is written at all unless a fix applies (or `--output` asks for
//!   a copy).

use crate::check::{cap, Checked, FileResult, Settings, Source};
use idx::{FixError, FixOptions, FixReport};
pub use idx_report::repair::{Action, Repair};
use std::fs::{self, File};
use std::io::{self, BufWriter, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// What `--fix` / `--diff` should do.
#[derive(Debug, Clone)]
pub struct FixSettings {
    /// Which fixes to apply.
    pub options: FixOptions,
    /// `--diff`: plan and report, write nothing.
    pub diff: bool,
    /// `--output OUT`: write the repaired copy there (one input).
    pub output: Option<PathBuf>,
}

/// Validates and repairs one input. The result's report is what remains
/// after the repair (for `--diff`, what would remain); on failure, the
/// input's own report.
pub fn fix(source: &Source, settings: &Settings, fix: &FixSettings) -> FileResult {
    fix_with(source, settings, fix, || {})
}

/// [`fix`], with `before_rename` run after the repaired copy is complete
/// and before the rename (tests use it to change the input at the worst
/// moment).
pub fn fix_with(
    source: &Source,
    settings: &Settings,
    fix: &FixSettings,
    before_rename: impl FnOnce(),
) -> FileResult {
    let mut opts = fix.options.clone();
    opts.validate = settings.options.clone();
    if let Source::File(p) = source {
        opts.validate.file_name = p.file_name().map(|n| n.to_string_lossy().into_owned());
    }
    let outcome = match source {
        Source::Stdin => fix_stdin(&opts, fix.diff),
        Source::File(p) => fix_file(p, &opts, fix, before_rename),
    };
    FileResult {
        source: source.clone(),
        outcome: outcome.map(|(report, repair)| {
            let mut c: Checked = cap(report, settings.max_findings);
            c.repair = Some(repair);
            c
        }),
    }
}

fn io_err(what: &str, path: &Path, e: impl std::fmt::Display) -> String {
    format!("{what} {}: {e}", idx_io::escape::path(path))
}

fn fix_file(
    path: &Path,
    opts: &FixOptions,
    fix: &FixSettings,
    before_rename: impl FnOnce(),
) -> Result<(idx::Report, Repair), String> {
    if fix.diff {
        let (_, mut input, _) = open_input(path)?;
        let mut opts = opts.clone();
        if let Some(out) = &fix.output {
            opts.keep_compression = gz_name(out);
        }
        let r = idx::plan(&mut input, &opts).map_err(|e| e.to_string())?;
        let action = if r.changed() {
            Action::WouldRewrite
        } else {
            Action::Unchanged
        };
        return Ok((r.after.clone(), Repair::from_report(&r, action)));
    }
    if fix.output.as_deref().is_some_and(idx_io::is_dash) {
        return fix_file_to_stdout(path, opts);
    }
    match repair_file_with(path, fix.output.as_deref(), opts, before_rename) {
        Ok(done) => Ok((
            done.report.after.clone(),
            Repair::from_report(&done.report, done.action),
        )),
        Err(RepairError::Input(why)) => Err(why),
        Err(RepairError::Write { before, why, .. }) => {
            let before = *before;
            let r = FixReport {
                before: before.clone(),
                applied: Vec::new(),
                after: before.clone(),
                dropped_bytes: 0,
                compressed_output: false,
                declined: Vec::new(),
            };
            Ok((before, Repair::from_report(&r, Action::Failed(why))))
        }
    }
}

/// `--output -`: the repaired copy of the file at `path` streamed to
/// standard output (always written, as `--output` always writes a copy;
/// gzip when the input is, as standard input is repaired); the file is
/// only read.
fn fix_file_to_stdout(path: &Path, opts: &FixOptions) -> Result<(idx::Report, Repair), String> {
    let (_, mut input, _) = open_input(path)?;
    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(1 << 20, stdout.lock());
    let r = idx::repair(&mut input, &mut out, opts).map_err(|e| e.to_string())?;
    out.flush()
        .map_err(|e| format!("cannot write standard output: {e}"))?;
    Ok((r.after.clone(), Repair::from_report(&r, Action::Stdout)))
}

/// Opens the file to repair: a symlink is followed (its target is read and
/// replaced); it must be a regular file.
fn open_input(path: &Path) -> Result<(PathBuf, File, fs::Metadata), String> {
    let target = fs::canonicalize(path).map_err(|e| io_err("cannot resolve", path, e))?;
    let input = File::open(&target).map_err(|e| io_err("cannot open", path, e))?;
    let meta = input
        .metadata()
        .map_err(|e| io_err("cannot stat", path, e))?;
    if !meta.is_file() {
        return Err(format!(
            "{} is not a regular file: it cannot be repaired in place",
            path.display()
        ));
    }
    Ok((target, input, meta))
}

/// A copy written to `out` is gzip exactly when its name ends in `.gz`.
fn gz_name(out: &Path) -> bool {
    out.file_name()
        .is_some_and(|n| n.to_string_lossy().to_ascii_lowercase().ends_with(".gz"))
}

/// A file repaired by [`repair_file`].
#[derive(Debug, Clone)]
pub struct FileRepair {
    /// What the library did: the fixes applied, the dropped bytes and, in
    /// `after`, the full report of what was written (of the input, when
    /// nothing was written).
    pub report: FixReport,
    /// [`Action::Unchanged`], [`Action::Rewritten`] (the path replaced: a
    /// symlink's target) or [`Action::WrittenTo`].
    pub action: Action,
}

/// Why [`repair_file`] failed; the input is unchanged either way.
#[derive(Debug)]
pub enum RepairError {
    /// The input could not be resolved, opened, read or planned on.
    Input(String),
    /// The repaired copy could not be written or renamed into place.
    Write {
        /// The report the repair was planned on.
        before: Box<idx::Report>,
        /// Why, ending with the input being left unchanged.
        why: String,
        /// The destination's own error (it cannot be created, written or
        /// renamed into place, or is a directory), for callers that map it
        /// to their platform's (the Python package's `OSError` subclasses
        /// with `errno` and `filename`); `None` when the failure is not the
        /// destination's (the input changed or could not be read).
        output: Option<idx_io::OutputError>,
    },
}

impl std::fmt::Display for RepairError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RepairError::Input(why) | RepairError::Write { why, .. } => f.write_str(why),
        }
    }
}

impl std::error::Error for RepairError {}

/// Repairs the file at `path` with the library ([`idx::prepare`],
/// [`idx::Planned::write`]) and writes the result atomically: over the file
/// itself when `output` is `None` (a symlink's target; nothing is written
/// when no fix applies; gzip input stays gzip unless `opts` says otherwise),
/// else to `output` (always written; gzip exactly when its name ends in
/// `.gz`). The copy is written to a temporary file in the
/// destination's directory, flushed, given the input's permission bits,
/// synced and renamed into place, after checking that the input's size and
/// modification time did not change; on failure the temporary file is
/// removed and the input is byte-identical. `idx-validate --fix` and the
/// Python package's `idxkit.fix` both use it.
///
/// # Errors
/// [`RepairError`]: the input could not be read, or the copy not written.
pub fn repair_file(
    path: &Path,
    output: Option<&Path>,
    opts: &FixOptions,
) -> Result<FileRepair, RepairError> {
    repair_file_with(path, output, opts, || {})
}

fn repair_file_with(
    path: &Path,
    output: Option<&Path>,
    opts: &FixOptions,
    before_rename: impl FnOnce(),
) -> Result<FileRepair, RepairError> {
    let input_err = RepairError::Input;
    let (target, mut input, meta) = open_input(path).map_err(input_err)?;
    let mut opts = opts.clone();
    if opts.validate.file_name.is_none() {
        opts.validate.file_name = path.file_name().map(|n| n.to_string_lossy().into_owned());
    }
    if let Some(out) = output {
        opts.keep_compression = gz_name(out);
    }
    let planned = idx::prepare(&mut input, &opts).map_err(|e| input_err(e.to_string()))?;
    let (dest, action) = match output {
        Some(out) => (out.to_path_buf(), Action::WrittenTo(out.to_path_buf())),
        None if !planned.changed() => {
            // nothing to write; the full report (the plan may have looked at
            // the structure only)
            let mut report = planned.report().clone();
            report.after = input
                .seek(SeekFrom::Start(0))
                .and_then(|_| idx::validate_reader(&mut input, &opts.validate))
                .map_err(|e| input_err(io_err("cannot read", path, e)))?;
            return Ok(FileRepair {
                report,
                action: Action::Unchanged,
            });
        }
        // the path as given, unless it is a symlink: then its target,
        // which is what was rewritten (the link stays a link)
        None => {
            let link = fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
            let shown = if link {
                target.clone()
            } else {
                path.to_path_buf()
            };
            (target.clone(), Action::Rewritten(shown))
        }
    };
    let before = planned.report().before.clone();
    // in place: the input itself is the destination (a repair); a copy
    // (--output) replaces any file but the input
    let (policy, inputs) = match output {
        None => (idx_io::Policy::Repair, Vec::new()),
        Some(_) => (
            idx_io::Policy::Overwrite,
            idx_io::Identity::of_path(&target).into_iter().collect(),
        ),
    };
    match write_atomically(
        &dest,
        policy,
        &inputs,
        |w| planned.write(&mut input, w),
        || {
            before_rename();
            unchanged_since(&target, &meta)
        },
    ) {
        Ok(report) => Ok(FileRepair { report, action }),
        Err((why, output)) => Err(RepairError::Write {
            before: Box::new(before),
            why: format!("{why}; {} was left unchanged", idx_io::escape::path(path)),
            output,
        }),
    }
}

/// Checks that `path` still has the size and modification time of `meta`.
fn unchanged_since(path: &Path, meta: &fs::Metadata) -> Result<(), String> {
    let now = fs::metadata(path).map_err(|e| io_err("cannot stat", path, e))?;
    if now.len() != meta.len() || now.modified().ok() != meta.modified().ok() {
        return Err(format!(
            "the input changed while it was read (size {} then {}, or its modification time moved)",
            meta.len(),
            now.len()
        ));
    }
    Ok(())
}

/// Writes `dest` through the one atomic writer ([`idx_io::AtomicFile`]:
/// a temporary file in its directory, the permissions of the file it
/// replaces or the umask's, sync, `check`, rename, sync of the directory).
/// On any error the temporary file is removed and `dest` is untouched; the
/// error is its message and, when it is the destination's, the writer's
/// error.
fn write_atomically(
    dest: &Path,
    policy: idx_io::Policy,
    inputs: &[idx_io::Identity],
    write: impl FnOnce(&mut WriteErrors<'_>) -> Result<FixReport, FixError>,
    check: impl FnOnce() -> Result<(), String>,
) -> Result<FixReport, (String, Option<idx_io::OutputError>)> {
    let failed = |e: idx_io::OutputError| {
        let why = e.to_string();
        match e {
            idx_io::OutputError::Aborted(_) => (why, None),
            e => (why, Some(e)),
        }
    };
    let mut out = idx_io::AtomicFile::create(dest, policy, inputs).map_err(failed)?;
    let mut recorded = WriteErrors {
        out: &mut out,
        error: None,
    };
    let report = write(&mut recorded).map_err(|e| {
        let written = recorded.error.take();
        match e {
            FixError::Io(e) => (
                io_err("cannot write the repaired copy of", dest, &e),
                // the temporary file's own error, not the input's
                written.map(|source| idx_io::OutputError::Io {
                    path: dest.to_path_buf(),
                    action: "write the repaired copy to",
                    source,
                }),
            ),
            other => (other.to_string(), None),
        }
    })?;
    out.commit_checked(check).map_err(failed)?;
    Ok(report)
}

/// The atomic writer, keeping the first error of a write to it (the
/// repair also reads the input while it writes: an I/O error it returns
/// is the destination's only when one was kept here).
struct WriteErrors<'a> {
    out: &'a mut idx_io::AtomicFile,
    error: Option<io::Error>,
}

impl WriteErrors<'_> {
    fn keep<T>(&mut self, r: io::Result<T>) -> io::Result<T> {
        if let Err(e) = &r {
            if self.error.is_none() {
                self.error = Some(e.raw_os_error().map_or_else(
                    || io::Error::new(e.kind(), e.to_string()),
                    io::Error::from_raw_os_error,
                ));
            }
        }
        r
    }
}

impl Write for WriteErrors<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let r = self.out.write(buf);
        self.keep(r)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        let r = self.out.write_all(buf);
        self.keep(r)
    }

    fn flush(&mut self) -> io::Result<()> {
        let r = self.out.flush();
        self.keep(r)
    }
}

/// Standard input: spooled to an anonymous temporary file (the repair reads
/// its input more than once), repaired to standard output.
fn fix_stdin(opts: &FixOptions, diff: bool) -> Result<(idx::Report, Repair), String> {
    let mut spool =
        tempfile::tempfile().map_err(|e| format!("cannot spool standard input: {e}"))?;
    io::copy(&mut io::stdin().lock(), &mut spool)
        .map_err(|e| format!("cannot read standard input: {e}"))?;
    if diff {
        let r = idx::plan(&mut spool, opts).map_err(|e| e.to_string())?;
        let action = if r.changed() {
            Action::WouldRewrite
        } else {
            Action::Unchanged
        };
        return Ok((r.after.clone(), Repair::from_report(&r, action)));
    }
    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(1 << 20, stdout.lock());
    let r = idx::repair(&mut spool, &mut out, opts).map_err(|e| e.to_string())?;
    out.flush()
        .map_err(|e| format!("cannot write standard output: {e}"))?;
    Ok((r.after.clone(), Repair::from_report(&r, Action::Stdout)))
}
