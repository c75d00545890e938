//! A case's file as an adapter sees it: its bytes, written from the
//! case's recipe (never copied from a corpus folder), named
//! [`STAGED_NAME`] (`.gz` added when the case is gzip, since some readers
//! decide on decompression by the name), alone in a fresh temporary folder
//! of its own that only the runner's user can open (mode 0700). Neither
//! the name, nor the folder, nor anything beside it says the case's ID,
//! its verdict, its manifest or the corpus index, and no other case's file
//! is on disk while it runs: a reader is judged on what it makes of the
//! bytes.

use crate::cases::Case;
use std::path::{Path, PathBuf};

/// The name every case's file has when an adapter gets it (`input.idx`,
/// or `input.idx.gz`).
pub const STAGED_NAME: &str = "input.idx";

/// A case's file staged for an adapter; the folder is removed on drop.
#[derive(Debug)]
pub struct Staged {
    path: PathBuf,
    dir: tempfile::TempDir,
}

impl Staged {
    /// The file to give the adapter.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// `text` with the staged file's path, and then its folder's, replaced
    /// by the file's name: what an adapter says of its input (a rejection
    /// naming the file) is the same from run to run.
    pub fn neutral(&self, text: &str) -> String {
        let name = self
            .path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        text.replace(&self.path.display().to_string(), &name)
            .replace(&self.dir.path().display().to_string(), ".")
    }
}

/// Writes `case`'s bytes into a fresh temporary folder under a neutral
/// name ([`STAGED_NAME`]): the folder mode 0700, the file 0600.
///
/// # Errors
/// The I/O error of creating the folder or writing the file.
pub fn stage_bytes(case: &Case) -> std::io::Result<Staged> {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::Builder::new()
        .prefix("idx-input-")
        .permissions(std::fs::Permissions::from_mode(0o700))
        .tempdir()?;
    let name = match case.compression() {
        Some(_) => format!("{STAGED_NAME}.gz"),
        None => STAGED_NAME.to_string(),
    };
    let path = dir.path().join(name);
    // a scratch input in a folder of our own, removed on drop: not an
    // output, so written directly (an atomic write's temporary file would
    // sit beside the input, in the folder the adapter sees)
    std::fs::write(&path, &case.bytes)?;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600))?;
    Ok(Staged { path, dir })
}

/// [`stage_bytes`], its error a message for the user.
///
/// # Errors
/// The I/O error, said.
pub fn stage(case: &Case) -> Result<Staged, String> {
    stage_bytes(case).map_err(|e| format!("cannot write an input into a temporary folder: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn an_input_is_alone_in_a_folder_only_its_user_opens() {
        let cases = crate::cases::all();
        let case = &cases[0];
        let s = stage_bytes(case).unwrap(); // ok: unit test
        let dir = s.path().parent().unwrap(); // ok: unit test
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777; // ok: unit test
        assert_eq!(mode(dir), 0o700);
        assert_eq!(mode(s.path()), 0o600);
        assert_eq!(std::fs::read_dir(dir).unwrap().count(), 1); // ok: unit test
        assert_eq!(std::fs::read(s.path()).unwrap(), case.bytes); // ok: unit test
        let said = format!("{}: bad; in {}", s.path().display(), dir.display());
        assert_eq!(s.neutral(&said), "input.idx: bad; in .");
    }
}
