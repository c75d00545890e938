//! The scratch file each worker hands its inputs to the readers in.

use std::path::PathBuf;

/// A temporary file per worker, named `.idx` or `.idx.gz` by content (some
/// readers decide on decompression by name).
pub(super) struct Scratch {
    pub(super) dir: PathBuf,
    pub(super) worker: usize,
}

impl Scratch {
    pub(super) fn write(&self, bytes: &[u8]) -> std::io::Result<PathBuf> {
        // the library's one sniff: what its validator takes the input for
        let mut v = idx::Validator::new(idx::Options::default().with_decompress(true));
        v.feed(&bytes[..bytes.len().min(2)]);
        let ext = if v.compression().is_some() {
            "idx.gz"
        } else {
            "idx"
        };
        let p = self.dir.join(format!("input-{}.{ext}", self.worker));
        // a scratch input, rewritten for every input: not an output, so
        // written directly (the atomic writer's fsyncs would slow the run)
        std::fs::write(&p, bytes)?;
        Ok(p)
    }
}
