//! Outputs written under a temporary name beside the destination and
//! renamed into place only when complete: an error (or a panic, or a kill
//! before the rename) never leaves a partial file or database at the
//! destination, and the temporary is removed on drop.

use crate::error::Error;
use crate::Overwrite;
use idx_io::{AtomicFile, Identity, OutputError, Policy};
use std::fs;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use tempfile::TempDir;

const PREFIX: &str = ".idx-convert-";

fn parent(dest: &Path) -> &Path {
    idx_io::output::parent(dest)
}

fn policy(overwrite: Overwrite) -> Policy {
    match overwrite {
        Overwrite::Refuse => Policy::Create,
        Overwrite::Force => Policy::Overwrite,
    }
}

/// The crate's error for the atomic writer's.
fn output_error(e: OutputError) -> Error {
    match e {
        OutputError::IsInput(path) => Error::Exists {
            path,
            reason: "is one of the inputs; nothing was written (an output never replaces an input)"
                .into(),
        },
        OutputError::Exists(path) => Error::Exists {
            path,
            reason: "already exists; nothing was written (--force replaces it)".into(),
        },
        OutputError::IsDirectory(path) => Error::Exists {
            path,
            reason: "is a directory".into(),
        },
        OutputError::Io { path, source, .. } => Error::Io { path, source },
        other => Error::Io {
            path: PathBuf::new(),
            source: other.into(),
        },
    }
}

/// A file output being written: through [`idx_io::AtomicFile`] (never an
/// input, an existing file only with `--force`, permissions from the
/// umask), or to standard output when the destination is `-`.
#[derive(Debug)]
pub(crate) struct NewFile {
    dest: PathBuf,
    out: Out,
}

#[derive(Debug)]
enum Out {
    File(AtomicFile),
    Stdout(BufWriter<std::io::Stdout>),
}

impl NewFile {
    /// `inputs`: the identities of the conversion's inputs.
    pub fn create(
        dest: &Path,
        overwrite: Overwrite,
        inputs: &[Identity],
    ) -> Result<NewFile, Error> {
        let out = if idx_io::is_dash(dest) {
            Out::Stdout(BufWriter::with_capacity(256 << 10, std::io::stdout()))
        } else {
            Out::File(AtomicFile::create(dest, policy(overwrite), inputs).map_err(output_error)?)
        };
        Ok(NewFile {
            dest: dest.into(),
            out,
        })
    }

    pub fn dest(&self) -> &Path {
        &self.dest
    }

    /// The file being written, for formats that need `Seek` (zip); `-`
    /// (standard output) cannot seek and is refused.
    pub fn seekable(&mut self) -> Result<&mut fs::File, Error> {
        match &mut self.out {
            Out::File(f) => f.file().map_err(Error::io(&self.dest)),
            Out::Stdout(_) => Err(Error::Exists {
                path: self.dest.clone(),
                reason: "a .npz archive cannot be written to standard output (it is a zip, written with seeks): give a file".into(),
            }),
        }
    }

    /// The file being written, for positioned writes past what was
    /// written through `Write` (flushed first); `None` for standard
    /// output.
    pub fn seekable_file(&mut self) -> Result<Option<&mut fs::File>, Error> {
        match &mut self.out {
            Out::File(f) => f.file().map(Some).map_err(Error::io(&self.dest)),
            Out::Stdout(_) => Ok(None),
        }
    }

    /// Flushes, syncs and renames into place (or flushes standard output).
    pub fn commit(self) -> Result<(), Error> {
        match self.out {
            Out::File(f) => f.commit().map_err(output_error),
            Out::Stdout(mut w) => w.flush().map_err(Error::io(&self.dest)),
        }
    }
}

impl Write for NewFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match &mut self.out {
            Out::File(f) => f.write(buf),
            Out::Stdout(w) => w.write(buf),
        }
    }
    fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
        match &mut self.out {
            Out::File(f) => f.write_all(buf),
            Out::Stdout(w) => w.write_all(buf),
        }
    }
    fn flush(&mut self) -> std::io::Result<()> {
        match &mut self.out {
            Out::File(f) => f.flush(),
            Out::Stdout(w) => w.flush(),
        }
    }
}

/// A directory (an LMDB environment) being written.
#[derive(Debug)]
pub(crate) struct NewDir {
    dest: PathBuf,
    tmp: TempDir,
}

impl NewDir {
    /// Refuses an existing destination unless `Force`, and even then
    /// replaces only an LMDB directory (one holding `data.mdb`) or an empty
    /// directory, never anything else.
    pub fn create(dest: &Path, overwrite: Overwrite, inputs: &[Identity]) -> Result<NewDir, Error> {
        if idx_io::is_dash(dest) {
            return Err(Error::Exists {
                path: dest.into(),
                reason: "an LMDB database is a directory: it cannot be written to standard output"
                    .into(),
            });
        }
        idx_io::output::check(dest, policy(overwrite), inputs).map_err(output_error)?;
        if fs::symlink_metadata(dest).is_ok() && !replaceable(dest) {
            return Err(Error::Exists {
                path: dest.into(),
                reason: "exists and is not an LMDB directory (no data.mdb); \
                         --force replaces only an LMDB directory or an empty one"
                    .into(),
            });
        }
        let mut b = tempfile::Builder::new();
        b.prefix(PREFIX);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            // the kernel applies the umask to mkdir(2)'s mode
            b.permissions(fs::Permissions::from_mode(0o777));
        }
        let tmp = b.tempdir_in(parent(dest)).map_err(Error::io(dest))?;
        Ok(NewDir {
            dest: dest.into(),
            tmp,
        })
    }

    pub fn path(&self) -> &Path {
        self.tmp.path()
    }

    /// Renames into place (replacing an existing LMDB directory if allowed
    /// by `create`).
    pub fn commit(self) -> Result<(), Error> {
        let dest = self.dest;
        let tmp = self.tmp;
        umask_modes(tmp.path()).map_err(Error::io(&dest))?;
        let mut old = None;
        if fs::symlink_metadata(&dest).is_ok() {
            // Move the old database aside first, so that a failure leaves it.
            let aside = tempfile::Builder::new()
                .prefix(PREFIX)
                .tempdir_in(parent(&dest))
                .map_err(Error::io(&dest))?;
            let target = aside.path().join("old");
            fs::rename(&dest, &target).map_err(Error::io(&dest))?;
            old = Some((aside, target));
        }
        if let Err(e) = fs::rename(tmp.path(), &dest) {
            if let Some((_, target)) = &old {
                let _ = fs::rename(target, &dest);
            }
            return Err(Error::io(&dest)(e));
        }
        // The temporary directory was renamed: keep TempDir from removing
        // whatever now has its old name.
        let _ = tmp.keep();
        drop(old); // removes the old database
        Ok(())
    }
}

fn replaceable(dest: &Path) -> bool {
    let Ok(m) = fs::symlink_metadata(dest) else {
        return false;
    };
    if !m.is_dir() {
        return false;
    }
    if dest.join("data.mdb").is_file() {
        return true;
    }
    fs::read_dir(dest).is_ok_and(|mut d| d.next().is_none())
}

/// LMDB creates its files with mode 0600; they get the mode a new file gets
/// from the umask (`0666 & !umask`), as every other output does. The umask
/// is read without changing it: a probe file created with mode 0666 shows
/// it.
fn umask_modes(dir: &Path) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
        let probe = dir.join(".umask-probe");
        let f = fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o666)
            .open(&probe)?;
        let mode = f.metadata()?.permissions().mode() & 0o777;
        drop(f);
        fs::remove_file(&probe)?;
        for e in fs::read_dir(dir)? {
            let e = e?;
            if e.file_type()?.is_file() {
                fs::set_permissions(e.path(), fs::Permissions::from_mode(mode))?;
            }
        }
    }
    #[cfg(not(unix))]
    let _ = dir;
    Ok(())
}
