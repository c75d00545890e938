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

/// Copies `case`'s file from the corpus folder `corpus` into a fresh
/// temporary folder under a neutral name (a copy, not a link, so that
/// nothing leads back to the corpus).
///
/// # Errors
/// I/O errors, with the case's file or the folder named.
pub fn stage(case: &Case, corpus: &Path) -> Result<Staged, String> {
    let dir = tempfile::Builder::new()
        .prefix("idx-input-")
        .tempdir()
        .map_err(|e| format!("cannot create a temporary folder for an input: {e}"))?;
    let name = match case.compression() {
        Some(_) => format!("{STAGED_NAME}.gz"),
        None => STAGED_NAME.to_string(),
    };
    let from = corpus.join(crate::corpus::case_path(case));
    let path = dir.path().join(name);
    // a scratch input in a folder of our own, removed on drop: not an
    // output, so copied directly
    std::fs::copy(&from, &path).map_err(|e| format!("{}: {e}", idx_io::escape::path(&from)))?;
    Ok(Staged { path, _dir: dir })
}
