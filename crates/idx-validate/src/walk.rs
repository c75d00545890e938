//! Turning the command line's paths into inputs: files as given, directories
//! walked the way ripgrep walks them (the `ignore` crate: `.gitignore`,
//! `.ignore`, hidden files), symbolic links followed with loop detection.
//!
//! Nothing is skipped without saying so: entries that cannot be checked
//! (FIFOs, sockets, devices, symlink loops) and files that do not look like
//! IDX become [`Expansion::notes`], and a path that yields nothing to check
//! is an unreadable input unless empty paths are allowed.

use crate::check::{looks_like_idx, looks_like_idx_with, Source};
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
    finish_root(root, not_idx, before, opts, out);
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

/// What a path is, symbolic links followed ([`WalkFs::stat`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A directory.
    Dir,
    /// A regular file.
    File,
    /// A FIFO (named pipe).
    Fifo,
    /// A socket.
    Socket,
    /// A block device.
    BlockDevice,
    /// A character device.
    CharDevice,
    /// Anything else.
    Other,
}

impl Kind {
    /// How a note names an entry of this kind that a walk leaves out.
    fn text(self) -> &'static str {
        match self {
            Kind::Fifo => "a FIFO (named pipe)",
            Kind::Socket => "a socket",
            Kind::BlockDevice => "a block device",
            Kind::CharDevice => "a character device",
            Kind::Dir | Kind::File | Kind::Other => "not a regular file",
        }
    }
}

/// A path's kind and identity (its device and inode, or any text that two
/// paths share only when they are the same file: a directory that is one
/// of its own ancestors is a symbolic link loop).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stat {
    /// What it is.
    pub kind: Kind,
    /// Which file it is.
    pub id: String,
}

/// A file system to walk, for [`expand_in`]: a front end's callbacks where
/// the command runs without one (the npm command in WebAssembly).
pub trait WalkFs {
    /// The metadata of `path`, symbolic links followed.
    ///
    /// # Errors
    /// As `std::fs::metadata`'s (a broken link is `NotFound`).
    fn stat(&self, path: &Path) -> std::io::Result<Stat>;
    /// The names of the entries of the directory `path`, in any order.
    ///
    /// # Errors
    /// As `std::fs::read_dir`'s.
    fn read_dir(&self, path: &Path) -> std::io::Result<Vec<String>>;
    /// The bytes of the file at `path` (an ignore file, git's `.git` file
    /// or configuration).
    ///
    /// # Errors
    /// As `std::fs::read`'s.
    fn read(&self, path: &Path) -> std::io::Result<Vec<u8>>;
    /// `path` made absolute, symbolic links resolved.
    ///
    /// # Errors
    /// As `std::fs::canonicalize`'s.
    fn canonicalize(&self, path: &Path) -> std::io::Result<PathBuf>;
    /// The first 4 bytes of the file at `path` (`None`: fewer, or
    /// unreadable).
    fn magic(&self, path: &Path) -> Option<[u8; 4]>;
    /// The environment variable `name` (`None`: not set), as
    /// `std::env::var_os` reads it: `XDG_CONFIG_HOME`, `GIT_CONFIG_GLOBAL`
    /// and `GIT_CONFIG_SYSTEM`, for git's global excludes file.
    fn var(&self, name: &str) -> Option<String>;
    /// The user's home directory as `std::env::home_dir` finds it (`HOME`
    /// if set and not empty, else the user's entry in the password
    /// database).
    fn home_dir(&self) -> Option<PathBuf>;
    /// The current directory (`std::env::current_dir`'s): git's global
    /// excludes file is matched relative to it.
    fn current_dir(&self) -> Option<PathBuf>;
}

/// [`expand`] over `fs`: the same walk as the `ignore` crate's (the one
/// [`expand`] runs), rebuilt over [`WalkFs`] with the crate's own matchers
/// (`.ignore`, `.gitignore` and `.git/info/exclude` read as its
/// `Gitignore`s, in its order of precedence, from the walked directories
/// and from the root's parents; `--exclude` as its `Override`; hidden
/// entries; entries sorted by name; symbolic links followed, loops
/// detected; git's global excludes file, as `global_gitignore` finds
/// it).
///
/// # Errors
/// An `--exclude` glob that does not parse.
pub fn expand_in(
    paths: &[PathBuf],
    opts: &WalkOptions,
    fs: &dyn WalkFs,
) -> Result<Expansion, String> {
    let mut out = Expansion::default();
    for p in paths {
        if p.as_os_str() == "-" {
            out.inputs.push(Ok(Source::Stdin));
        } else if fs.stat(p).is_ok_and(|s| s.kind == Kind::Dir) {
            walk_in(p, opts, fs, &mut out)?;
        } else {
            out.inputs.push(Ok(Source::File(p.clone())));
        }
    }
    Ok(out)
}

/// The ignore rules of one directory (the `ignore` crate's `IgnoreInner`).
struct Level {
    ignore: ignore::gitignore::Gitignore,
    git_ignore: ignore::gitignore::Gitignore,
    git_exclude: ignore::gitignore::Gitignore,
    has_git: bool,
    /// One of the root's parents: matched with absolute paths.
    absolute: bool,
}

/// The lines of `bytes` as the crate reads an ignore file
/// (`BufRead::lines`: a `\n` or `\r\n` ending dropped), up to the first
/// that is not UTF-8 (where its reading stops, the lines before it kept).
fn lines(bytes: &[u8]) -> impl Iterator<Item = &str> {
    let mut rest = bytes;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let (line, next) = match rest.iter().position(|&b| b == b'\n') {
            Some(i) => (
                rest[..i].strip_suffix(b"\r").unwrap_or(&rest[..i]),
                &rest[i + 1..],
            ),
            None => (rest, &rest[rest.len()..]),
        };
        rest = next;
        let line = std::str::from_utf8(line).ok();
        if line.is_none() {
            rest = &[];
        }
        line
    })
}

/// Adds the lines of the ignore file `file` to `b` as the crate's
/// `GitignoreBuilder::add` does (a leading byte-order mark dropped, lines
/// that do not parse left out, [`lines`]).
fn add_file(b: &mut ignore::gitignore::GitignoreBuilder, file: &Path, fs: &dyn WalkFs) {
    if let Ok(bytes) = fs.read(file) {
        for (i, line) in lines(&bytes).enumerate() {
            let line = if i == 0 {
                line.trim_start_matches('\u{feff}')
            } else {
                line
            };
            let _ = b.add_line(Some(file.to_path_buf()), line);
        }
    }
}

/// A `Gitignore` rooted at `dir` from the file `file`, read as the crate
/// reads it ([`add_file`]).
fn gitignore_of(dir: &Path, file: &Path, fs: &dyn WalkFs) -> ignore::gitignore::Gitignore {
    let mut b = ignore::gitignore::GitignoreBuilder::new(dir);
    add_file(&mut b, file, fs);
    b.build()
        .unwrap_or_else(|_| ignore::gitignore::Gitignore::empty())
}

/// Git's global excludes file as the `ignore` crate's walk reads it
/// (`GitignoreBuilder::build_global`, rooted at the current directory),
/// over `fs`: the path is the crate's `gitconfig_excludes_path`, the first
/// of
///
/// - `core.excludesFile` in the file `$GIT_CONFIG_GLOBAL` (if set and not
///   empty), else in `~/.gitconfig`, else in `$XDG_CONFIG_HOME/git/config`
///   (`~/.config/git/config` if that is unset or empty), else in the file
///   `$GIT_CONFIG_SYSTEM` (`/etc/gitconfig` if unset or empty)
///   ([`excludes_file`]);
/// - `$XDG_CONFIG_HOME/git/ignore` (`~/.config/git/ignore` if unset or
///   empty);
///
/// read if it is a file ([`add_file`]). Empty without a current directory.
fn global_gitignore(fs: &dyn WalkFs) -> ignore::gitignore::Gitignore {
    let empty = ignore::gitignore::Gitignore::empty;
    let Some(cwd) = fs.current_dir() else {
        return empty();
    };
    let var = |name: &str| fs.var(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    let xdg = || var("XDG_CONFIG_HOME").or_else(|| fs.home_dir().map(|h| h.join(".config")));
    let from = |file: Option<PathBuf>| {
        file.and_then(|f| fs.read(&f).ok())
            .and_then(|data| excludes_file(&data, fs))
    };
    let path = from(var("GIT_CONFIG_GLOBAL"))
        .or_else(|| from(fs.home_dir().map(|h| h.join(".gitconfig"))))
        .or_else(|| from(xdg().map(|x| x.join("git/config"))))
        .or_else(|| {
            from(Some(
                var("GIT_CONFIG_SYSTEM").unwrap_or_else(|| PathBuf::from("/etc/gitconfig")),
            ))
        })
        .or_else(|| xdg().map(|x| x.join("git/ignore")));
    let Some(path) = path.filter(|p| fs.stat(p).is_ok_and(|s| s.kind == Kind::File)) else {
        return empty();
    };
    let mut b = ignore::gitignore::GitignoreBuilder::new(cwd);
    add_file(&mut b, &path, fs);
    b.build().unwrap_or_else(|_| empty())
}

/// `core.excludesFile` in the git configuration `data`, as the crate's
/// `parse_excludes_file` finds it: not a parser of git's configuration but
/// its one regular expression (the first line `excludesfile = PATH`, in any
/// section, any case, `PATH` quoted or not and without spaces), every `~`
/// in `PATH` replaced by the home directory.
fn excludes_file(data: &[u8], fs: &dyn WalkFs) -> Option<PathBuf> {
    use regex_automata::{meta::Regex, util::syntax};
    static RE: std::sync::OnceLock<Option<Regex>> = std::sync::OnceLock::new();
    let re = RE
        .get_or_init(|| {
            Regex::builder()
                .configure(Regex::config().utf8_empty(false))
                .syntax(syntax::Config::new().utf8(false))
                .build(r#"(?im-u)^\s*excludesfile\s*=\s*"?\s*(\S+?)\s*"?\s*$"#)
                .ok()
        })
        .as_ref()?;
    let mut caps = re.create_captures();
    re.captures(data, &mut caps);
    let path = std::str::from_utf8(&data[caps.get_group(1)?]).ok()?;
    Some(PathBuf::from(match fs.home_dir() {
        Some(home) => path.replace('~', &home.to_string_lossy()),
        None => path.to_string(),
    }))
}

fn level(dir: &Path, opts: &WalkOptions, fs: &dyn WalkFs, absolute: bool) -> Level {
    let empty = ignore::gitignore::Gitignore::empty;
    if opts.no_ignore {
        return Level {
            ignore: empty(),
            git_ignore: empty(),
            git_exclude: empty(),
            has_git: false,
            absolute,
        };
    }
    let git = fs.stat(&dir.join(".git")).ok().map(|s| s.kind);
    let has_jj = fs.stat(&dir.join(".jj")).is_ok();
    Level {
        ignore: gitignore_of(dir, &dir.join(".ignore"), fs),
        git_ignore: gitignore_of(dir, &dir.join(".gitignore"), fs),
        git_exclude: match git_commondir(dir, git, fs) {
            Some(git_dir) => gitignore_of(dir, &git_dir.join("info/exclude"), fs),
            None => empty(),
        },
        has_git: git.is_some() || has_jj,
        absolute,
    }
}

/// The directory holding `info/exclude` for `dir` (the crate's
/// `resolve_git_commondir`): `dir/.git`, or for a worktree (`.git` a file
/// `gitdir: PATH`) the `commondir` that PATH names.
fn git_commondir(dir: &Path, git: Option<Kind>, fs: &dyn WalkFs) -> Option<PathBuf> {
    if git != Some(Kind::File) {
        return Some(dir.join(".git"));
    }
    let first = |p: &Path| {
        fs.read(p)
            .ok()
            .and_then(|t| lines(&t).next().map(str::to_string))
    };
    let line = first(&dir.join(".git"))?;
    let real = PathBuf::from(line.strip_prefix("gitdir: ")?);
    let common = first(&real.join("commondir"))?;
    Some(if common.starts_with('.') {
        real.join(common)
    } else {
        PathBuf::from(common)
    })
}

/// The crate's `Ignore::matched_ignore`: the deepest directory's rule wins,
/// `.ignore` over `.gitignore` over `info/exclude` over git's global
/// excludes file (`global`); `.gitignore` and `info/exclude` only inside a
/// repository, and not above its root; `global` only inside a repository.
fn matched_ignore(
    levels: &[Level],
    global: &ignore::gitignore::Gitignore,
    path: &Path,
    abs: Option<&Path>,
    is_dir: bool,
) -> ignore::Match<()> {
    use ignore::Match;
    let any_git = levels.iter().any(|l| l.has_git);
    let (mut m_ignore, mut m_gi, mut m_ex) = (Match::None, Match::None, Match::None);
    let mut saw_git = false;
    let walked = levels.iter().rev().take_while(|l| !l.absolute);
    let parents = levels.iter().rev().skip_while(|l| !l.absolute);
    let above = abs.map(|a| parents.map(move |l| (l, a)));
    let with_path = walked.map(|l| (l, path)).chain(above.into_iter().flatten());
    for (l, p) in with_path {
        if m_ignore.is_none() {
            m_ignore = l.ignore.matched(p, is_dir).map(|_| ());
        }
        if any_git && !saw_git && m_gi.is_none() {
            m_gi = l.git_ignore.matched(p, is_dir).map(|_| ());
        }
        if any_git && !saw_git && m_ex.is_none() {
            m_ex = l.git_exclude.matched(p, is_dir).map(|_| ());
        }
        saw_git = saw_git || l.has_git;
    }
    let m_global = if any_git {
        global.matched(path, is_dir).map(|_| ())
    } else {
        Match::None
    };
    m_ignore.or(m_gi).or(m_ex).or(m_global)
}

/// One walk under way.
struct Walker<'a> {
    root: &'a Path,
    abs_root: Option<PathBuf>,
    opts: &'a WalkOptions,
    fs: &'a dyn WalkFs,
    overrides: ignore::overrides::Override,
    levels: Vec<Level>,
    /// Git's global excludes file ([`global_gitignore`]).
    global: ignore::gitignore::Gitignore,
    has_parent_rules: bool,
    /// The directories entered, root first: their paths and identities.
    stack: Vec<(PathBuf, String)>,
    not_idx: usize,
}

impl Walker<'_> {
    /// The crate's `Ignore::matched_dir_entry` (the root is never skipped).
    fn skipped(&self, path: &Path, is_dir: bool) -> bool {
        let path = path.strip_prefix("./").unwrap_or(path);
        let m = self.overrides.matched(path, is_dir).map(|_| ());
        if !m.is_none() {
            return m.is_ignore();
        }
        let abs = match (&self.abs_root, self.has_parent_rules) {
            (Some(a), true) => {
                let top = self.root.strip_prefix("./").unwrap_or(self.root);
                let rel = if top == Path::new(".") {
                    path
                } else {
                    path.strip_prefix(top).unwrap_or(path)
                };
                Some(a.join(rel))
            }
            _ => None,
        };
        let m = if self.opts.no_ignore {
            ignore::Match::None
        } else {
            matched_ignore(&self.levels, &self.global, path, abs.as_deref(), is_dir)
        };
        if m.is_none() && !self.opts.hidden {
            let hidden = path
                .file_name()
                .is_some_and(|n| n.as_encoded_bytes().starts_with(b"."));
            return hidden;
        }
        m.is_ignore()
    }

    /// Walks the directory `dir` (already entered: its rules pushed).
    fn dir(&mut self, dir: &Path, out: &mut Expansion) {
        let mut names = match self.fs.read_dir(dir) {
            Ok(n) => n,
            Err(e) => {
                out.inputs.push(Err((dir.to_path_buf(), read_error(&e))));
                return;
            }
        };
        names.sort();
        for name in names {
            let path = dir.join(&name);
            let st = match self.fs.stat(&path) {
                Ok(s) => s,
                Err(e) => {
                    out.inputs.push(Err((path, read_error(&e))));
                    continue;
                }
            };
            let is_dir = st.kind == Kind::Dir;
            if is_dir {
                if let Some((ancestor, _)) = self.stack.iter().find(|(_, id)| *id == st.id) {
                    out.notes.push(format!(
                        "skipped {}: a symbolic link loop (it leads back to {})",
                        esc(&path),
                        esc(ancestor)
                    ));
                    continue;
                }
            }
            if self.skipped(&path, is_dir) {
                continue;
            }
            match st.kind {
                Kind::Dir => {
                    self.levels.push(level(&path, self.opts, self.fs, false));
                    self.stack.push((path.clone(), st.id));
                    self.dir(&path, out);
                    self.stack.pop();
                    self.levels.pop();
                }
                Kind::File => {
                    if self.opts.all_files || looks_like_idx_with(&path, || self.fs.magic(&path)) {
                        out.walked.push(out.inputs.len());
                        out.inputs.push(Ok(Source::File(path)));
                    } else {
                        self.not_idx += 1;
                    }
                }
                k => out.notes.push(format!(
                    "skipped {}: {} (name it on the command line to read it)",
                    esc(&path),
                    k.text()
                )),
            }
        }
    }
}

/// An error of a walk as [`io_message`] words it.
fn read_error(e: &std::io::Error) -> String {
    if e.kind() == std::io::ErrorKind::NotFound {
        "a broken symbolic link (its target does not exist; for git-annex or DVC, fetch the content first)".into()
    } else {
        e.to_string()
    }
}

fn walk_in(
    root: &Path,
    opts: &WalkOptions,
    fs: &dyn WalkFs,
    out: &mut Expansion,
) -> Result<(), String> {
    let mut o = OverrideBuilder::new(root);
    for g in &opts.exclude {
        o.add(&format!("!{g}"))
            .map_err(|e| format!("--exclude {g:?}: {e}"))?;
    }
    let overrides = o.build().map_err(|e| format!("--exclude: {e}"))?;
    let abs_root = if opts.no_ignore {
        None
    } else {
        fs.canonicalize(root).ok()
    };
    let mut levels: Vec<Level> = abs_root
        .iter()
        .flat_map(|a| a.ancestors().skip(1).collect::<Vec<_>>())
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .map(|d| level(d, opts, fs, true))
        .collect();
    let has_parent_rules = levels
        .iter()
        .any(|l| !l.ignore.is_empty() || !l.git_ignore.is_empty() || !l.git_exclude.is_empty());
    levels.push(level(root, opts, fs, false));
    let global = if opts.no_ignore {
        ignore::gitignore::Gitignore::empty()
    } else {
        global_gitignore(fs)
    };
    let id = fs.stat(root).map(|s| s.id).unwrap_or_default();
    let before = out.inputs.len();
    let mut w = Walker {
        root,
        abs_root,
        opts,
        fs,
        overrides,
        levels,
        global,
        has_parent_rules,
        stack: vec![(root.to_path_buf(), id)],
        not_idx: 0,
    };
    w.dir(root, out);
    finish_root(root, w.not_idx, before, opts, out);
    Ok(())
}

/// What a walk of `root` says at its end, both walks alike: the files
/// skipped for not looking like IDX, and a root that gave no input (`before`:
/// the inputs before it).
fn finish_root(
    root: &Path,
    not_idx: usize,
    before: usize,
    opts: &WalkOptions,
    out: &mut Expansion,
) {
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
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::{FileTypeExt, MetadataExt};

    /// [`WalkFs`] over the process's file system: [`expand_in`] over it
    /// must be [`expand`] (the `ignore` crate's walk).
    struct Std;

    impl WalkFs for Std {
        fn stat(&self, path: &Path) -> std::io::Result<Stat> {
            let m = std::fs::metadata(path)?;
            let ft = m.file_type();
            let kind = if ft.is_dir() {
                Kind::Dir
            } else if ft.is_file() {
                Kind::File
            } else if ft.is_fifo() {
                Kind::Fifo
            } else if ft.is_socket() {
                Kind::Socket
            } else {
                Kind::Other
            };
            Ok(Stat {
                kind,
                id: format!("{}:{}", m.dev(), m.ino()),
            })
        }
        fn read_dir(&self, path: &Path) -> std::io::Result<Vec<String>> {
            std::fs::read_dir(path)?
                .map(|e| e.map(|e| e.file_name().to_string_lossy().into_owned()))
                .collect()
        }
        fn read(&self, path: &Path) -> std::io::Result<Vec<u8>> {
            std::fs::read(path)
        }
        fn canonicalize(&self, path: &Path) -> std::io::Result<PathBuf> {
            std::fs::canonicalize(path)
        }
        fn magic(&self, path: &Path) -> Option<[u8; 4]> {
            use std::io::Read;
            let mut m = [0u8; 4];
            std::fs::File::open(path)
                .and_then(|mut f| f.read_exact(&mut m))
                .ok()
                .map(|()| m)
        }
        fn var(&self, name: &str) -> Option<String> {
            std::env::var_os(name).map(|v| v.to_string_lossy().into_owned())
        }
        #[allow(deprecated)] // std's own answer, the one the crate uses
        fn home_dir(&self) -> Option<PathBuf> {
            std::env::home_dir()
        }
        fn current_dir(&self) -> Option<PathBuf> {
            std::env::current_dir().ok()
        }
    }

    fn show(e: &Expansion) -> String {
        format!(
            "{:?}\n{:?}\n{:?}\n{:?}",
            e.inputs, e.notes, e.walked, e.empty
        )
    }

    /// Names, to a run of this test binary, the tree that
    /// [`the_walk_over_another_file_system_is_the_ignore_crates`] wrote: in
    /// that child process (its environment the one a case sets), both walks
    /// are compared.
    const TREE: &str = "IDX_VALIDATE_WALK_TEST_TREE";

    /// In the child process: both walks of the roots of the tree `t`, with
    /// each set of options, are the same; writes the native walks of `t`
    /// (as `.`, the current directory) and of the tree outside any
    /// repository, for the parent to check: into the file `walks` beside
    /// `t`.
    fn walks_agree(t: &Path) {
        let wt = t.join("worktree");
        let norepo = t.parent().unwrap().join("norepo"); // ok: unit test
        let opts = |f: &dyn Fn(&mut WalkOptions)| {
            let mut o = WalkOptions::default();
            f(&mut o);
            o
        };
        let cases = [
            opts(&|_| {}),
            opts(&|o| o.hidden = true),
            opts(&|o| o.no_ignore = true),
            opts(&|o| o.all_files = true),
            opts(&|o| o.exclude = vec!["old/**".into(), "*.bin".into()]),
            opts(&|o| o.allow_empty = true),
        ];
        for roots in [
            vec![t.to_path_buf()],
            vec![t.join("sub")],
            vec![t.join("nested"), t.join("empty"), t.join("only-text")],
            vec![wt.clone()],
            vec![t.join("a.idx"), PathBuf::from("-")],
            vec![PathBuf::from(".")],
            vec![PathBuf::from("sub"), PathBuf::from("./bad-utf8")],
            vec![norepo.clone()],
        ] {
            for o in &cases {
                let want = expand(&roots, o).unwrap(); // ok: unit test
                let got = expand_in(&roots, o, &Std).unwrap(); // ok: unit test
                assert_eq!(show(&got), show(&want), "{roots:?} {o:?}");
            }
        }
        let walk = |root: PathBuf| show(&expand(&[root], &WalkOptions::default()).unwrap()); // ok: unit test
        let text = format!(
            "walk of the tree: {}\nwalk outside a repository: {}",
            walk(PathBuf::from(".")),
            walk(norepo)
        );
        std::fs::write(t.parent().unwrap().join("walks"), text).unwrap(); // ok: unit test
    }

    #[test]
    fn the_walk_over_another_file_system_is_the_ignore_crates() {
        if let Some(t) = std::env::var_os(TREE) {
            return walks_agree(Path::new(&t));
        }
        let d = tempfile::tempdir().unwrap(); // ok: unit test
        let d = &d.path().canonicalize().unwrap(); // ok: unit test
        let t = d.join("t");
        let labels = [0u8, 0, 8, 1, 0, 0, 0, 1, 3];
        let files: &[(&str, &[u8])] = &[
            (".git/info/exclude", b"excluded.idx\n"),
            (".gitignore", b"ignored.idx\nbuild/\n*.tmp\n"),
            (".ignore", b"by-ignore.idx\n"),
            ("a.idx", &labels),
            ("magic.bin", &labels),
            ("notes.txt", b"text"),
            (".hidden.idx", &labels),
            (".hid/x.idx", &labels),
            ("ignored.idx", &labels),
            ("by-ignore.idx", &labels),
            ("excluded.idx", &labels),
            ("c.tmp", &labels),
            ("build/c.idx", &labels),
            ("sub/.gitignore", b"!ignored.idx\n"),
            ("sub/ignored.idx", &labels),
            ("sub/Z.idx", &labels),
            // walking sub: its parent's .ignore and .gitignore apply
            ("sub/by-ignore.idx", &labels),
            ("sub/c.tmp", &labels),
            ("sub/old/e.idx", &labels),
            ("nested/repo/.gitignore", b"kept.idx\n"),
            ("nested/repo/kept.idx", &labels),
            ("nested/repo/ignored.idx", &labels),
            ("only-text/a.txt", b"x"),
            // what git's global excludes file may leave out
            ("global.idx", &labels),
            ("anchored.idx", &labels),
            ("sub/anchored.idx", &labels),
            ("decoy.idx", &labels),
            ("sub/global.idx", &labels),
            // ignore files that are not UTF-8 (their lines up to the first
            // bad one count), with CRLF lines, with a byte-order mark
            (
                "bad-utf8/.gitignore",
                b"first.idx\r\n\xff\xfe bad.idx\nthird.idx\n",
            ),
            ("bad-utf8/.ignore", b"\xef\xbb\xbfbom.idx\r\nlast.idx\xc3"),
            ("bad-utf8/first.idx", &labels),
            ("bad-utf8/third.idx", &labels),
            ("bad-utf8/bom.idx", &labels),
            ("bad-utf8/last.idx", &labels),
            ("bad-utf8/kept.idx", &labels),
        ];
        // outside any repository: git's global excludes file does not apply
        let more: &[(&str, &[u8])] = &[
            ("norepo/global.idx", &labels),
            ("norepo/a.idx", &labels),
            // the files of git's configuration that the cases name
            ("xdg-ignore/git/ignore", b"global.idx\n/sub/anchored.idx\n"),
            ("home-config/.config/git/ignore", b"global.idx\n"),
            (
                "xdg-config/git/config",
                b"[core]\n\texcludesFile = ~/my-excludes\n",
            ),
            ("home-tilde/my-excludes", b"global.idx\n"),
            (
                "home-gitconfig/.gitconfig",
                b"[user]\nname = x\n[core]\n    excludesfile = \"@EX@\"\n",
            ),
            ("xdg-decoy/git/config", b"[core]\nexcludesFile = @DECOY@\n"),
            ("home-decoy/.gitconfig", b"[core]\nexcludesFile = @DECOY@\n"),
            ("xdg-decoy/git/ignore", b"decoy.idx\n"),
            ("global-config", b"[core]\nEXCLUDESFILE=@EX@\n"),
            ("system-config", b"[core]\n\texcludesFile = @EX@\n"),
            ("ex", b"global.idx\n"),
            ("ex-decoy", b"decoy.idx\n"),
            (
                "xdg-bad/git/ignore",
                b"global.idx\n\xfe\n/sub/anchored.idx\n",
            ),
        ];
        let ex = d.join("ex").display().to_string();
        let decoy = d.join("ex-decoy").display().to_string();
        for (p, b) in files
            .iter()
            .map(|(p, b)| (t.join(p), b))
            .chain(more.iter().map(|(p, b)| (d.join(p), b)))
        {
            let b = b.to_vec();
            let text = String::from_utf8_lossy(&b);
            let b = if text.contains('@') {
                text.replace("@DECOY@", &decoy)
                    .replace("@EX@", &ex)
                    .into_bytes()
            } else {
                b
            };
            std::fs::create_dir_all(p.parent().unwrap()).unwrap(); // ok: unit test
            std::fs::write(p, b).unwrap(); // ok: unit test
        }
        std::fs::create_dir_all(t.join("nested/repo/.git")).unwrap(); // ok: unit test
                                                                      // a worktree: `.git` names its git directory, whose `commondir`
                                                                      // holds `info/exclude`
        let common = d.join("main.git");
        std::fs::create_dir_all(common.join("info")).unwrap(); // ok: unit test
        std::fs::create_dir_all(common.join("worktrees/wt")).unwrap(); // ok: unit test
        std::fs::write(common.join("info/exclude"), "by-worktree.idx\n").unwrap(); // ok: unit test
        std::fs::write(common.join("worktrees/wt/commondir"), "../..\n").unwrap(); // ok: unit test
        let wt = t.join("worktree");
        std::fs::create_dir_all(&wt).unwrap(); // ok: unit test
        let gitdir = format!("gitdir: {}\n", common.join("worktrees/wt").display());
        std::fs::write(wt.join(".git"), gitdir).unwrap(); // ok: unit test
        std::fs::write(wt.join("by-worktree.idx"), labels).unwrap(); // ok: unit test
        std::fs::write(wt.join("kept.idx"), labels).unwrap(); // ok: unit test
        std::fs::create_dir_all(t.join("empty")).unwrap(); // ok: unit test
        std::os::unix::fs::symlink("sub", t.join("link")).unwrap(); // ok: unit test
        std::os::unix::fs::symlink(".", t.join("loop")).unwrap(); // ok: unit test
        std::os::unix::fs::symlink("nowhere", t.join("broken.idx")).unwrap(); // ok: unit test

        // Each case: its environment (HOME, XDG_CONFIG_HOME,
        // GIT_CONFIG_GLOBAL, GIT_CONFIG_SYSTEM: unset where not given; the
        // system file one that is not there unless given), the files the
        // native walk of the tree leaves out and those it keeps.
        let p = |s: &str| d.join(s).display().to_string();
        let none = p("nowhere");
        type Case<'a> = (
            &'a str,
            Vec<(&'a str, String)>,
            &'a [&'a str],
            &'a [&'a str],
        );
        let cases: Vec<Case> = vec![
            (
                "no global file",
                vec![("HOME", p("home-empty"))],
                &[],
                &["./global.idx", "./sub/anchored.idx"],
            ),
            (
                "$XDG_CONFIG_HOME/git/ignore",
                vec![
                    ("HOME", p("home-empty")),
                    ("XDG_CONFIG_HOME", p("xdg-ignore")),
                ],
                &["./global.idx", "./sub/anchored.idx", "./sub/global.idx"],
                &["./anchored.idx", "./decoy.idx"],
            ),
            (
                "~/.config/git/ignore",
                vec![
                    ("HOME", p("home-config")),
                    ("XDG_CONFIG_HOME", String::new()),
                ],
                &["./global.idx"],
                &["./sub/anchored.idx"],
            ),
            (
                "core.excludesFile in $XDG_CONFIG_HOME/git/config, with ~",
                vec![
                    ("HOME", p("home-tilde")),
                    ("XDG_CONFIG_HOME", p("xdg-config")),
                ],
                &["./global.idx"],
                &["./decoy.idx"],
            ),
            (
                "~/.gitconfig before $XDG_CONFIG_HOME/git/config",
                vec![
                    ("HOME", p("home-gitconfig")),
                    ("XDG_CONFIG_HOME", p("xdg-decoy")),
                ],
                &["./global.idx"],
                &["./decoy.idx"],
            ),
            (
                "$GIT_CONFIG_GLOBAL before ~/.gitconfig",
                vec![
                    ("HOME", p("home-decoy")),
                    ("GIT_CONFIG_GLOBAL", p("global-config")),
                ],
                &["./global.idx"],
                &["./decoy.idx"],
            ),
            (
                "core.excludesFile in $GIT_CONFIG_SYSTEM",
                vec![
                    ("HOME", p("home-empty")),
                    ("GIT_CONFIG_SYSTEM", p("system-config")),
                ],
                &["./global.idx"],
                &["./decoy.idx"],
            ),
            (
                "a global file that is not UTF-8",
                vec![("HOME", p("home-empty")), ("XDG_CONFIG_HOME", p("xdg-bad"))],
                &["./global.idx"],
                &["./sub/anchored.idx"],
            ),
        ];
        let exe = std::env::current_exe().unwrap(); // ok: unit test
        let name = module_path!().split_once("::").map_or("", |(_, m)| m);
        let name = format!("{name}::the_walk_over_another_file_system_is_the_ignore_crates");
        let in_repo = d
            .ancestors()
            .any(|a| a.join(".git").exists() || a.join(".jj").exists());
        for (what, env, gone, kept) in cases {
            let mut c = std::process::Command::new(&exe);
            c.args([name.as_str(), "--exact", "--nocapture", "--test-threads=1"])
                .current_dir(&t)
                .env(TREE, &t)
                .env("GIT_CONFIG_SYSTEM", &none);
            for v in ["HOME", "XDG_CONFIG_HOME", "GIT_CONFIG_GLOBAL"] {
                c.env_remove(v);
            }
            c.envs(env);
            let out = c.output().unwrap(); // ok: unit test
            let text = String::from_utf8_lossy(&out.stdout).into_owned()
                + &String::from_utf8_lossy(&out.stderr);
            assert!(
                out.status.success() && text.contains("1 passed"),
                "{what}: {text}"
            );
            let walks = std::fs::read_to_string(d.join("walks")).unwrap(); // ok: unit test
            std::fs::remove_file(d.join("walks")).unwrap(); // ok: unit test
            let (tree, outside) = walks.split_once("walk outside a repository: ").unwrap(); // ok: unit test
            let tree = tree.split_once("walk of the tree: ").unwrap().1; // ok: unit test
            for g in gone {
                assert!(!tree.contains(&format!("{g:?}")), "{what}: {g} in {tree}");
            }
            for k in kept.iter().chain(&[
                "./a.idx",
                "./bad-utf8/third.idx",
                "./bad-utf8/kept.idx",
                "./bad-utf8/last.idx",
            ]) {
                assert!(
                    tree.contains(&format!("{k:?}")),
                    "{what}: {k} not in {tree}"
                );
            }
            for g in [
                "./bad-utf8/first.idx",
                "./bad-utf8/bom.idx",
                "by-ignore",
                "excluded",
            ] {
                assert!(!tree.contains(g), "{what}: {g} in {tree}");
            }
            assert!(
                in_repo || outside.contains("norepo/global.idx"),
                "{what}: {outside}"
            );
            assert!(
                tree.contains("./sub/ignored.idx") && tree.contains("./link/Z.idx"),
                "{tree}"
            );
            assert!(
                tree.contains("symbolic link loop") && tree.contains("broken"),
                "{tree}"
            );
            assert!(
                tree.contains("./worktree/kept.idx") && !tree.contains("by-worktree"),
                "{tree}"
            );
        }
    }
}
