//! The one atomic writer of the toolkit's front ends.
//!
//! Every command that writes a file (`idx-validate --fix` and
//! `--output-file`, `idx show --png`, `idx convert`, `idxkit.save` and
//! `fix`) goes through [`AtomicFile`], which performs exactly these steps:
//!
//! 1. [`check`]: the destination is refused when it is one of the run's
//!    inputs (same device and inode, so through symlinks and hard links)
//!    unless the command is a repair ([`Policy::Repair`]), when it is a
//!    directory, and when it exists unless the command's overwrite flag was
//!    given ([`Policy::Overwrite`]);
//! 2. a temporary file is created in the destination's directory, with the
//!    permissions a new file gets from the umask (`0666 & !umask`), or,
//!    when a file is replaced, that file's permission bits;
//! 3. the caller writes it;
//! 4. [`AtomicFile::commit`] flushes and fsyncs it, renames it over the
//!    destination (without replacing a file that appeared meanwhile unless
//!    overwriting is allowed) and fsyncs the directory.
//!
//! On any error, or when the `AtomicFile` is dropped uncommitted, the
//! temporary file is removed and the destination is untouched. The rename
//! replaces the directory entry: a destination that was a hard link to
//! another name stops being one (the other name keeps the old content), and
//! a destination that was a symlink is replaced by a file unless the caller
//! resolved it first (repairs do, so the link stays a link).

use crate::escape;
use crate::input::Identity;
use std::fmt;
use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use tempfile::NamedTempFile;

/// What a command may do to an existing destination.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Policy {
    /// A new file only: an existing destination is refused.
    Create,
    /// Replace an existing destination (the command's overwrite flag),
    /// never one of the inputs.
    Overwrite,
    /// A repair (`--fix`): the destination may be the input itself.
    Repair,
}

/// Why an output was not written.
#[derive(Debug)]
#[non_exhaustive]
pub enum OutputError {
    /// The destination is one of the run's inputs.
    IsInput(PathBuf),
    /// The destination exists and the command's overwrite flag was not
    /// given.
    Exists(PathBuf),
    /// The destination is a directory.
    IsDirectory(PathBuf),
    /// The caller's check before the rename failed (its message).
    Aborted(String),
    /// An I/O error, with what was being done.
    Io {
        /// The destination.
        path: PathBuf,
        /// What failed ("create a temporary file beside", ...).
        action: &'static str,
        /// The error.
        source: io::Error,
    },
}

impl fmt::Display for OutputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OutputError::IsInput(p) => write!(
                f,
                "{}: is one of the inputs; nothing was written (an output never replaces an input)",
                escape::path(p)
            ),
            OutputError::Exists(p) => write!(
                f,
                "{}: already exists; nothing was written (--force replaces it)",
                escape::path(p)
            ),
            OutputError::IsDirectory(p) => {
                write!(
                    f,
                    "{}: is a directory; nothing was written",
                    escape::path(p)
                )
            }
            OutputError::Aborted(why) => f.write_str(why),
            OutputError::Io {
                path,
                action,
                source,
            } => write!(f, "{}: cannot {action}: {source}", escape::path(path)),
        }
    }
}

impl std::error::Error for OutputError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            OutputError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

impl From<OutputError> for io::Error {
    fn from(e: OutputError) -> io::Error {
        let kind = match &e {
            OutputError::IsInput(_) => io::ErrorKind::InvalidInput,
            OutputError::Exists(_) => io::ErrorKind::AlreadyExists,
            OutputError::IsDirectory(_) => io::ErrorKind::IsADirectory,
            OutputError::Aborted(_) => io::ErrorKind::Other,
            OutputError::Io { source, .. } => source.kind(),
        };
        io::Error::new(kind, e.to_string())
    }
}

fn io_err(path: &Path, action: &'static str) -> impl FnOnce(io::Error) -> OutputError {
    let path = path.to_path_buf();
    move |source| OutputError::Io {
        path,
        action,
        source,
    }
}

/// The directory a destination is created in.
pub fn parent(dest: &Path) -> &Path {
    match dest.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// Step 1 alone, for outputs that are not one file (an LMDB directory):
/// refuses `dest` when it is one of `inputs` (unless `Repair`), and when
/// it exists (unless `Overwrite` or `Repair`).
///
/// # Errors
/// [`OutputError::IsInput`] or [`OutputError::Exists`].
pub fn check(dest: &Path, policy: Policy, inputs: &[Identity]) -> Result<(), OutputError> {
    if policy != Policy::Repair {
        if let Some(id) = Identity::of_path(dest) {
            if inputs.contains(&id) {
                return Err(OutputError::IsInput(dest.to_path_buf()));
            }
        }
    }
    if policy == Policy::Create && fs::symlink_metadata(dest).is_ok() {
        return Err(OutputError::Exists(dest.to_path_buf()));
    }
    Ok(())
}

/// A file being written under a temporary name beside its destination.
#[derive(Debug)]
pub struct AtomicFile {
    out: BufWriter<Unnamed>,
    dest: PathBuf,
    policy: Policy,
}

impl AtomicFile {
    /// Steps 1 and 2: checks `dest` and creates the temporary file.
    ///
    /// # Errors
    /// See [`check`]; [`OutputError::IsDirectory`]; the temporary file
    /// cannot be created.
    pub fn create(
        dest: &Path,
        policy: Policy,
        inputs: &[Identity],
    ) -> Result<AtomicFile, OutputError> {
        check(dest, policy, inputs)?;
        let old = fs::metadata(dest).ok();
        if old.as_ref().is_some_and(fs::Metadata::is_dir) {
            return Err(OutputError::IsDirectory(dest.to_path_buf()));
        }
        let name = dest
            .file_name()
            .map_or_else(|| "out".into(), |n| n.to_string_lossy().into_owned());
        let prefix = format!(".{name}.");
        let mut b = tempfile::Builder::new();
        b.prefix(&prefix).suffix(".tmp");
        // opened here rather than by `tempfile_in`, whose errors name the
        // temporary file ("... at path \"dir/.out.idx.Ab12Cd.tmp\""), a file
        // that means nothing to the user, who is told the destination
        let tmp = b
            .make_in(parent(dest), |p| {
                let mut o = fs::OpenOptions::new();
                o.read(true).write(true).create_new(true);
                #[cfg(unix)]
                {
                    use std::os::unix::fs::OpenOptionsExt;
                    // the kernel applies the umask to the mode given to open(2)
                    o.mode(0o666);
                }
                o.open(p)
            })
            .map_err(io_err(dest, "create a temporary file beside"))?;
        if let Some(old) = old {
            tmp.as_file()
                .set_permissions(old.permissions())
                .map_err(io_err(dest, "give the new file the permissions of"))?;
        }
        Ok(AtomicFile {
            out: BufWriter::with_capacity(256 << 10, Unnamed(tmp)),
            dest: dest.to_path_buf(),
            policy,
        })
    }

    /// The destination.
    pub fn dest(&self) -> &Path {
        &self.dest
    }

    /// The temporary file itself (for writers that need `Seek`, e.g. zip):
    /// flushes the buffer first.
    ///
    /// # Errors
    /// The flush's error.
    pub fn file(&mut self) -> io::Result<&mut File> {
        self.out.flush()?;
        Ok(self.out.get_mut().0.as_file_mut())
    }

    /// Step 4: flush, fsync, rename, fsync of the directory.
    ///
    /// # Errors
    /// Any of these fails (the destination is then untouched), or, for
    /// [`Policy::Create`], a file appeared at the destination meanwhile.
    pub fn commit(self) -> Result<(), OutputError> {
        self.commit_checked(|| Ok(()))
    }

    /// [`AtomicFile::commit`] with `check` run after the new file is
    /// complete and synced and before the rename (a repair checks there
    /// that its input did not change): its error leaves the destination
    /// untouched.
    ///
    /// # Errors
    /// As [`AtomicFile::commit`], and [`OutputError::Aborted`] with
    /// `check`'s message.
    pub fn commit_checked(
        self,
        check: impl FnOnce() -> Result<(), String>,
    ) -> Result<(), OutputError> {
        let dest = self.dest;
        let tmp = self
            .out
            .into_inner()
            .map_err(|e| io_err(&dest, "write")(e.into_error()))?
            .0;
        tmp.as_file().sync_all().map_err(io_err(&dest, "sync"))?;
        check().map_err(OutputError::Aborted)?;
        let r = match self.policy {
            Policy::Create => tmp.persist_noclobber(&dest),
            Policy::Overwrite | Policy::Repair => tmp.persist(&dest),
        };
        r.map_err(|e| {
            if e.error.kind() == io::ErrorKind::AlreadyExists {
                OutputError::Exists(dest.clone())
            } else {
                io_err(&dest, "rename the new file to")(e.error)
            }
        })?;
        // the rename is durable once the directory is synced
        if let Ok(d) = File::open(parent(&dest)) {
            let _ = d.sync_all();
        }
        Ok(())
    }
}

/// The temporary file, written through its `File`: `NamedTempFile`'s own
/// `Write` adds the temporary file's name to every error.
#[derive(Debug)]
struct Unnamed(NamedTempFile);

impl Write for Unnamed {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.as_file_mut().write(buf)
    }
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.0.as_file_mut().write_all(buf)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.0.as_file_mut().flush()
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.out.write(buf)
    }
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.out.write_all(buf)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// Writes `bytes` to `dest` through [`AtomicFile`].
///
/// # Errors
/// As [`AtomicFile::create`] and [`AtomicFile::commit`].
pub fn write(
    dest: &Path,
    policy: Policy,
    inputs: &[Identity],
    bytes: &[u8],
) -> Result<(), OutputError> {
    let mut f = AtomicFile::create(dest, policy, inputs)?;
    f.write_all(bytes).map_err(io_err(dest, "write"))?;
    f.commit()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_input_is_never_a_destination_by_path_symlink_or_hard_link() {
        let dir = tempfile::tempdir().unwrap(); // ok: unit test
        let input = dir.path().join("in.idx");
        fs::write(&input, b"original").unwrap(); // ok: unit test
        let ids = [Identity::of_path(&input).unwrap()]; // ok: unit test
        let hard = dir.path().join("hard.idx");
        fs::hard_link(&input, &hard).unwrap(); // ok: unit test
        let mut dests = vec![input.clone(), hard];
        #[cfg(unix)]
        {
            let soft = dir.path().join("soft.idx");
            std::os::unix::fs::symlink(&input, &soft).unwrap(); // ok: unit test
            dests.push(soft);
        }
        for d in &dests {
            for policy in [Policy::Create, Policy::Overwrite] {
                let e = write(d, policy, &ids, b"new").unwrap_err(); // ok: unit test
                assert!(matches!(e, OutputError::IsInput(_)), "{e}");
            }
        }
        assert_eq!(fs::read(&input).unwrap(), b"original"); // ok: unit test
                                                            // a repair may replace its input
        write(&input, Policy::Repair, &ids, b"repaired").unwrap(); // ok: unit test
        assert_eq!(fs::read(&input).unwrap(), b"repaired"); // ok: unit test
                                                            // no temporary file is left behind
        let left: Vec<_> = fs::read_dir(dir.path()).unwrap().collect(); // ok: unit test
        assert_eq!(left.len(), dests.len());
    }

    #[test]
    fn an_existing_file_is_replaced_only_when_asked_and_keeps_its_mode() {
        let dir = tempfile::tempdir().unwrap(); // ok: unit test
        let d = dir.path().join("out.bin");
        write(&d, Policy::Create, &[], b"one").unwrap(); // ok: unit test
        let e = write(&d, Policy::Create, &[], b"two").unwrap_err(); // ok: unit test
        assert!(matches!(e, OutputError::Exists(_)), "{e}");
        assert_eq!(fs::read(&d).unwrap(), b"one"); // ok: unit test
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            fs::set_permissions(&d, fs::Permissions::from_mode(0o640)).unwrap(); // ok: unit test
            write(&d, Policy::Overwrite, &[], b"two").unwrap(); // ok: unit test
            let m = fs::metadata(&d).unwrap().permissions().mode() & 0o777; // ok: unit test
            assert_eq!(m, 0o640);
        }
        assert_eq!(fs::read(&d).unwrap(), b"two"); // ok: unit test
        let e = write(dir.path(), Policy::Overwrite, &[], b"x").unwrap_err(); // ok: unit test
        assert!(matches!(e, OutputError::IsDirectory(_)), "{e}");
    }

    #[test]
    fn a_temporary_file_that_cannot_be_created_is_not_named() {
        let dir = tempfile::tempdir().unwrap(); // ok: unit test
        fs::write(dir.path().join("plain"), b"x").unwrap(); // ok: unit test
        let d = dir.path().join("plain/out.idx");
        let e = write(&d, Policy::Create, &[], b"x").unwrap_err(); // ok: unit test
        let text = e.to_string();
        assert!(
            text.contains("plain/out.idx: cannot create a temporary file beside"),
            "{text}"
        );
        assert!(
            !text.contains(".out.idx.") && !text.contains("at path"),
            "{text}"
        );
        let OutputError::Io { source, .. } = e else {
            panic!("{text}") // ok: unit test
        };
        assert!(
            source.raw_os_error().is_some(),
            "the OS error is kept: {source:?}"
        );
    }

    #[test]
    fn dropped_uncommitted_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap(); // ok: unit test
        let d = dir.path().join("out.bin");
        let mut f = AtomicFile::create(&d, Policy::Create, &[]).unwrap(); // ok: unit test
        f.write_all(b"partial").unwrap(); // ok: unit test
        drop(f);
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0); // ok: unit test
    }
}
