//! Outputs written under a temporary name beside the destination and
//! renamed into place only when complete: an error (or a panic, or a kill
//! before the rename) never leaves a partial file or database at the
//! destination, and the temporary is removed on drop.

use crate::error::Error;
use crate::Overwrite;
use std::fs;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use tempfile::{NamedTempFile, TempDir};

const PREFIX: &str = ".idx-convert-";

fn parent(dest: &Path) -> &Path {
    match dest.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// Refuses an existing destination unless `Force`.
fn check_free(dest: &Path, overwrite: Overwrite) -> Result<(), Error> {
    if overwrite == Overwrite::Refuse && fs::symlink_metadata(dest).is_ok() {
        return Err(Error::Exists {
            path: dest.into(),
            reason: "already exists; nothing was written (--force replaces it)".into(),
        });
    }
    Ok(())
}

/// A file being written.
#[derive(Debug)]
pub(crate) struct NewFile {
    dest: PathBuf,
    overwrite: Overwrite,
    out: BufWriter<NamedTempFile>,
}

impl NewFile {
    pub fn create(dest: &Path, overwrite: Overwrite) -> Result<NewFile, Error> {
        check_free(dest, overwrite)?;
        if fs::metadata(dest).is_ok_and(|m| m.is_dir()) {
            return Err(Error::Exists {
                path: dest.into(),
                reason: "is a directory".into(),
            });
        }
        let tmp = tempfile::Builder::new()
            .prefix(PREFIX)
            .tempfile_in(parent(dest))
            .map_err(Error::io(dest))?;
        Ok(NewFile {
            dest: dest.into(),
            overwrite,
            out: BufWriter::with_capacity(256 << 10, tmp),
        })
    }

    pub fn dest(&self) -> &Path {
        &self.dest
    }

    /// The temporary file, for formats that need `Seek` (zip).
    pub fn into_parts(self) -> Result<(NamedTempFile, PathBuf, Overwrite), Error> {
        let dest = self.dest;
        let tmp = self
            .out
            .into_inner()
            .map_err(|e| Error::io(dest.clone())(e.into_error()))?;
        Ok((tmp, dest, self.overwrite))
    }

    /// Flushes, syncs and renames into place.
    pub fn commit(self) -> Result<(), Error> {
        let (tmp, dest, overwrite) = self.into_parts()?;
        persist(tmp, &dest, overwrite)
    }
}

pub(crate) fn persist(tmp: NamedTempFile, dest: &Path, overwrite: Overwrite) -> Result<(), Error> {
    tmp.as_file().sync_all().map_err(Error::io(dest))?;
    let r = match overwrite {
        Overwrite::Refuse => tmp.persist_noclobber(dest),
        Overwrite::Force => tmp.persist(dest),
    };
    r.map(|_| ()).map_err(|e| {
        if e.error.kind() == std::io::ErrorKind::AlreadyExists {
            Error::Exists {
                path: dest.into(),
                reason: "appeared while converting; nothing was written".into(),
            }
        } else {
            Error::io(dest)(e.error)
        }
    })
}

impl Write for NewFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.out.write(buf)
    }
    fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
        self.out.write_all(buf)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
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
    pub fn create(dest: &Path, overwrite: Overwrite) -> Result<NewDir, Error> {
        check_free(dest, overwrite)?;
        if fs::symlink_metadata(dest).is_ok() && !replaceable(dest) {
            return Err(Error::Exists {
                path: dest.into(),
                reason: "exists and is not an LMDB directory (no data.mdb); \
                         --force replaces only an LMDB directory or an empty one"
                    .into(),
            });
        }
        let tmp = tempfile::Builder::new()
            .prefix(PREFIX)
            .tempdir_in(parent(dest))
            .map_err(Error::io(dest))?;
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
