//! Inputs named by a path, `-` being standard input.

use std::fs::{self, File};
use std::io::{self, BufReader, Seek, SeekFrom};
use std::path::{Path, PathBuf};

/// The identity of a file: device and inode on Unix. Two paths with the
/// same identity are the same file, whatever symlinks or hard links lead
/// to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Identity {
    dev: u64,
    ino: u64,
}

impl Identity {
    /// The identity of an open file (`None` where the platform has none).
    pub fn of_file(f: &File) -> Option<Identity> {
        f.metadata().ok().and_then(|m| Identity::of_metadata(&m))
    }

    /// The identity of the file `path` leads to, symlinks followed (`None`
    /// when it does not exist).
    pub fn of_path(path: &Path) -> Option<Identity> {
        fs::metadata(path)
            .ok()
            .and_then(|m| Identity::of_metadata(&m))
    }

    /// The identity of the regular file redirected to standard input
    /// (`< file`), if it is one: a pipe or a terminal can never be an
    /// output, so it has none.
    pub fn of_stdin() -> Option<Identity> {
        stdin_identity()
    }

    #[cfg(unix)]
    fn of_metadata(m: &fs::Metadata) -> Option<Identity> {
        use std::os::unix::fs::MetadataExt;
        Some(Identity {
            dev: m.dev(),
            ino: m.ino(),
        })
    }

    #[cfg(not(unix))]
    fn of_metadata(_: &fs::Metadata) -> Option<Identity> {
        None
    }
}

/// An opened input: a seekable file. Standard input (`-`) is first copied
/// to an anonymous temporary file, so it can be read twice in bounded
/// memory; its identity is that of the file redirected to it, if any.
#[derive(Debug)]
pub struct Input {
    file: File,
    name: String,
    path: Option<PathBuf>,
    identity: Option<Identity>,
}

/// True when `arg` names standard input or output (`-`).
pub fn is_dash(arg: &Path) -> bool {
    arg.as_os_str() == "-"
}

impl Input {
    /// Opens `arg`, or standard input when it is `-`.
    ///
    /// # Errors
    /// The file cannot be opened, or standard input cannot be copied.
    pub fn open(arg: &Path) -> io::Result<Input> {
        if is_dash(arg) {
            let identity = stdin_identity();
            let mut file = tempfile::tempfile()?;
            io::copy(&mut io::stdin().lock(), &mut file)?;
            file.seek(SeekFrom::Start(0))?;
            return Ok(Input {
                file,
                name: "<stdin>".into(),
                path: None,
                identity,
            });
        }
        let file = File::open(arg)?;
        Ok(Input {
            identity: Identity::of_file(&file),
            file,
            name: crate::escape::path(arg),
            path: Some(arg.to_path_buf()),
        })
    }

    /// The name to show (`<stdin>` for `-`), escaped for a terminal.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The path it was opened by (`None` for standard input).
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// The last component of its path, for the file-name lints.
    pub fn file_name(&self) -> Option<String> {
        self.path
            .as_deref()
            .and_then(Path::file_name)
            .map(|n| n.to_string_lossy().into_owned())
    }

    /// Its file identity, for [`crate::output`]'s "never an input" check.
    pub fn identity(&self) -> Option<Identity> {
        self.identity
    }

    /// The file, rewound to its start.
    ///
    /// # Errors
    /// The seek's error.
    pub fn rewound(&mut self) -> io::Result<&mut File> {
        self.file.seek(SeekFrom::Start(0))?;
        Ok(&mut self.file)
    }

    /// Its length in bytes (the compressed length for gzip).
    ///
    /// # Errors
    /// The file's metadata cannot be read.
    pub fn len(&self) -> io::Result<u64> {
        Ok(self.file.metadata()?.len())
    }

    /// True when it holds no byte.
    ///
    /// # Errors
    /// The file's metadata cannot be read.
    pub fn is_empty(&self) -> io::Result<bool> {
        Ok(self.len()? == 0)
    }

    /// The input's bytes from the start, as stored (gzip is the
    /// library's business: [`idx::Reader`]), through a 256 KiB buffer.
    ///
    /// # Errors
    /// The seek's error.
    pub fn raw(&mut self) -> io::Result<BufReader<&mut File>> {
        Ok(BufReader::with_capacity(256 * 1024, self.rewound()?))
    }
}

impl Input {
    /// [`Input::raw`] over a handle of its own (the same open file,
    /// rewound), for a caller that keeps reading while it uses the input's
    /// other fields. One reader at a time: the handles share the offset.
    ///
    /// # Errors
    /// The input's I/O errors.
    pub fn raw_owned(&self) -> io::Result<BufReader<File>> {
        let mut f = self.file.try_clone()?;
        f.seek(SeekFrom::Start(0))?;
        Ok(BufReader::with_capacity(256 * 1024, f))
    }
}

#[cfg(unix)]
fn stdin_identity() -> Option<Identity> {
    use std::os::fd::AsFd;
    let fd = io::stdin().as_fd().try_clone_to_owned().ok()?;
    let f = File::from(fd);
    // only a regular file redirected to standard input can be an output
    f.metadata()
        .ok()
        .filter(fs::Metadata::is_file)
        .and_then(|_| Identity::of_file(&f))
}

#[cfg(not(unix))]
fn stdin_identity() -> Option<Identity> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    #[test]
    fn a_file_is_opened_with_its_identity_and_an_escaped_name() {
        let dir = tempfile::tempdir().unwrap(); // ok: unit test
        let p = dir.path().join("a\u{1b}b.idx");
        fs::write(&p, [0, 0, 8, 1, 0, 0, 0, 1, 7]).unwrap(); // ok: unit test
        let mut i = Input::open(&p).unwrap(); // ok: unit test
        assert!(i.name().ends_with("a\\u{1b}b.idx"));
        assert_eq!(i.identity(), Identity::of_path(&p));
        assert!(i.identity().is_some() || cfg!(not(unix)));
        let mut v = Vec::new();
        i.raw().unwrap().read_to_end(&mut v).unwrap(); // ok: unit test
        assert_eq!(v, [0, 0, 8, 1, 0, 0, 0, 1, 7]);
        // a hard link is the same file
        let q = dir.path().join("link.idx");
        fs::hard_link(&p, &q).unwrap(); // ok: unit test
        assert_eq!(Identity::of_path(&q), i.identity());
    }
}
