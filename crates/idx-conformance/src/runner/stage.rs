//! A case's file as an adapter sees it: a copy named [`STAGED_NAME`]
//! (`.gz` added when the case is gzip, since some readers decide on
//! decompression by the name), alone in a fresh temporary folder of its
//! own. Neither the name, nor the folder, nor anything beside it says the
//! case's ID, its verdict, its manifest or the corpus index: a reader is
//! judged on what it makes of the bytes.

use crate::cases::Case;
use std::path::{Path, PathBuf};

/// The name every case's file has when an adapter gets it (`input.idx`,
/// or `input.idx.gz`).
pub const STAGED_NAME: &str = "input.idx";

/// A case's file staged for an adapter; the folder is removed on drop.
#[derive(Debug)]
pub struct Staged {
    path: PathBuf,
    _dir: tempfile::TempDir,
}

impl Staged {
    /// The file to give the adapter.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// A fresh temporary folder and the path of the case's file in it.
fn fresh(case: &Case) -> std::io::Result<(tempfile::TempDir, PathBuf)> {
    let dir = tempfile::Builder::new().prefix("idx-input-").tempdir()?;
    let name = match case.compression() {
        Some(_) => format!("{STAGED_NAME}.gz"),
        None => STAGED_NAME.to_string(),
    };
    let path = dir.path().join(name);
    Ok((dir, path))
}

/// Copies `case`'s file from the corpus folder `corpus` into a fresh
/// temporary folder under a neutral name (a copy, not a link, so that
/// nothing leads back to the corpus).
///
/// # Errors
/// I/O errors, with the case's file or the folder named.
pub fn stage(case: &Case, corpus: &Path) -> Result<Staged, String> {
    let (dir, path) =
        fresh(case).map_err(|e| format!("cannot create a temporary folder for an input: {e}"))?;
    let from = corpus.join(crate::corpus::case_path(case));
    // a scratch input in a folder of our own, removed on drop: not an
    // output, so copied directly
    std::fs::copy(&from, &path).map_err(|e| format!("{}: {e}", idx_io::escape::path(&from)))?;
    Ok(Staged { path, _dir: dir })
}

/// Writes `case`'s bytes (from its recipe) into a fresh temporary folder
/// under the same neutral name as [`stage`], for runs without a corpus
/// folder (`idxkit.check_reader`).
///
/// # Errors
/// The I/O error of creating the folder or writing the file.
pub fn stage_bytes(case: &Case) -> std::io::Result<Staged> {
    let (dir, path) = fresh(case)?;
    // a scratch input in a folder of our own, removed on drop: not an
    // output, so written directly
    std::fs::write(&path, &case.bytes)?;
    Ok(Staged { path, _dir: dir })
}
