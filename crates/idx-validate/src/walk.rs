//! Turning the command line's paths into inputs: files as given, directories
//! walked the way ripgrep walks them (the `ignore` crate: `.gitignore`,
//! `.ignore`, hidden files), symbolic links followed with loop detection.
//!
//! Nothing is skipped without saying so: entries that cannot be checked
//! (FIFOs, sockets, devices, symlink loops) and files that do not look like
//! IDX become [`Expansion::notes`], and a path that yields nothing to check
//! is an unreadable input unless empty paths are allowed.

use crate::check::{looks_like_idx, Source};
use ignore::overrides::OverrideBuilder;
use std::fs::FileType;
use std::path::{Path, PathBuf};

/// How to walk directories.
#[derive(Debug, Clone, Default)]
pub struct WalkOptions {
    /// In directories, check every file, not only IDX-looking ones.
    pub all_files: bool,
    /// Do not honour `.gitignore`, `.ignore` and git's exclude files.
    pub no_ignore: bool,
    /// Walk hidden files and directories too.
    pub hidden: bool,
    /// Gitignore-style globs of walked paths to leave out.
    pub exclude: Vec<String>,
    /// A path that yields nothing to check is not an error.
    pub allow_empty: bool,
}

/// One input, or a path that cannot be checked and why.
pub type Input = Result<Source, (PathBuf, String)>;

/// The inputs of a run, in command-line order, and what was left out.
#[derive(Debug, Clone, Default)]
pub struct Expansion {
    /// What to check (or report as unreadable), in order.
    pub inputs: Vec<Input>,
    /// One sentence per entry (or group of entries) left out of a walk.
    pub notes: Vec<String>,
    /// The indices of the inputs found by walking a directory (not named).
    pub walked: Vec<usize>,
    /// Directories named on the command line in which no IDX file was found
    /// (without `--allow-empty`): an error each, and no file counted.
    pub empty: Vec<String>,
}

/// Expands `paths`.
///
/// # Errors
/// An `--exclude` glob that does not parse.
pub fn expand(paths: &[PathBuf], opts: &WalkOptions) -> Result<Expansion, String> {
    let mut out = Expansion::default();
    for p in paths {
        if p.as_os_str() == "-" {
            out.inputs.push(Ok(Source::Stdin));
        } else if p.is_dir() {
            walk(p, opts, &mut out)?;
        } else {
            // Named files are read whatever they are (a FIFO named on the
            // command line is read as a stream); a missing one is unreadable.
            out.inputs.push(Ok(Source::File(p.clone())));
        }
    }
    Ok(out)
}

fn walk(root: &Path, opts: &WalkOptions, out: &mut Expansion) -> Result<(), String> {
    let mut b = ignore::WalkBuilder::new(root);
    b.follow_links(true)
        .hidden(!opts.hidden)
        .ignore(!opts.no_ignore)
        .git_ignore(!opts.no_ignore)
        .git_global(!opts.no_ignore)
        .git_exclude(!opts.no_ignore)
        .parents(!opts.no_ignore)
        .sort_by_file_name(|a, b| a.cmp(b));
    if !opts.exclude.is_empty() {
        let mut o = OverrideBuilder::new(root);
        for g in &opts.exclude {
            o.add(&format!("!{g}"))
                .map_err(|e| format!("--exclude {g:?}: {e}"))?;
        }
        b.overrides(o.build().map_err(|e| format!("--exclude: {e}"))?);
    }
    let before = out.inputs.len();
    let mut not_idx = 0usize;
    for e in b.build() {
        match e {
            Ok(e) => {
                let Some(ft) = e.file_type() else { continue };
                if ft.is_dir() {
                    continue;
                }
                if ft.is_file() {
                    if opts.all_files || looks_like_idx(e.path()) {
                        out.walked.push(out.inputs.len());
                        out.inputs.push(Ok(Source::File(e.path().to_path_buf())));
                    } else {
                        not_idx += 1;
                    }
                } else {
                    out.notes.push(format!(
                        "skipped {}: {} (name it on the command line to read it)",
                        esc(e.path()),
                        special_kind(ft)
                    ));
                }
            }
            Err(err) => match loop_of(&err) {
                Some((child, ancestor)) => out.notes.push(format!(
                    "skipped {}: a symbolic link loop (it leads back to {})",
                    esc(&child),
                    esc(&ancestor)
                )),
                None => {
                    let path = path_of(&err).unwrap_or_else(|| root.to_path_buf());
                    out.inputs.push(Err((path, io_message(&err))));
                }
            },
        }
    }
    if not_idx > 0 {
        out.notes.push(format!(
            "skipped {} under {} that {} not look like IDX (--all-files checks {})",
            idx_text::plural::count(not_idx as u64, "file"),
            esc(root),
            idx_text::plural::verb(not_idx as u64, "does", "do"),
            idx_text::plural::verb(not_idx as u64, "it", "them"),
        ));
    }
    if out.inputs.len() == before && !opts.allow_empty {
        out.empty.push(format!(
            "no IDX files found under {} (a run that checks nothing fails; --allow-empty accepts it)",
            esc(root)
        ));
    }
    Ok(())
}

#[cfg(unix)]
fn special_kind(ft: FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if ft.is_fifo() {
        "a FIFO (named pipe)"
    } else if ft.is_socket() {
        "a socket"
    } else if ft.is_block_device() {
        "a block device"
    } else if ft.is_char_device() {
        "a character device"
    } else {
        "not a regular file"
    }
}

#[cfg(not(unix))]
fn special_kind(_: FileType) -> &'static str {
    "not a regular file"
}

fn loop_of(err: &ignore::Error) -> Option<(PathBuf, PathBuf)> {
    match err {
        ignore::Error::Loop { ancestor, child } => Some((child.clone(), ancestor.clone())),
        ignore::Error::WithPath { err, .. } | ignore::Error::WithDepth { err, .. } => loop_of(err),
        _ => None,
    }
}

fn path_of(err: &ignore::Error) -> Option<PathBuf> {
    match err {
        ignore::Error::WithPath { path, .. } => Some(path.clone()),
        ignore::Error::WithDepth { err, .. } => path_of(err),
        _ => None,
    }
}

fn io_message(err: &ignore::Error) -> String {
    match err.io_error() {
        Some(e) if e.kind() == std::io::ErrorKind::NotFound => {
            "a broken symbolic link (its target does not exist; for git-annex or DVC, fetch the content first)".into()
        }
        Some(e) => e.to_string(),
        None => err.to_string(),
    }
}

/// A path for a message ([`idx_io::escape::path`]), never raw.
fn esc(p: &Path) -> String {
    idx_io::escape::path(p)
}
