//! Turning paths into validated results: walking directories, reading
//! files and standard input. All verdicts come from the `idx` library.
//! The results' types are the renderers' ([`idx_report::check`]).

use idx::Options;
pub use idx_report::check::{cap, window, Checked, FileResult, Source};
use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

/// How to check.
#[derive(Debug, Clone)]
pub struct Settings {
    /// The library's options (decompression, expectations, limits).
    pub options: Options,
    /// Read only the header; take the length from the file system.
    pub structure_only: bool,
    /// At most this many findings per rule per file (0: no cap).
    pub max_findings: usize,
}

/// By name (`*.idx`, `*-idx3-ubyte`, either with `.gz`) or by magic
/// (`00 00` and a known type code).
pub fn looks_like_idx(path: &Path) -> bool {
    looks_like_idx_with(path, || {
        let mut magic = [0u8; 4];
        File::open(path)
            .and_then(|mut f| f.read_exact(&mut magic))
            .ok()
            .map(|()| magic)
    })
}

/// [`looks_like_idx`], the first 4 bytes read by `magic` (`None`: fewer,
/// or unreadable) only when the name does not tell.
pub fn looks_like_idx_with(path: &Path, magic: impl FnOnce() -> Option<[u8; 4]>) -> bool {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    let base = name.strip_suffix(".gz").unwrap_or(&name);
    if base.ends_with(".idx") || idx::__private::name_claim(base).is_some() {
        return true;
    }
    match magic() {
        Some(m) => m[0] == 0 && m[1] == 0 && idx::ElementType::from_code(m[2]).is_some(),
        None => false,
    }
}

/// Checks data read from `reader` (of `len` bytes when known) as the
/// command checks standard input and files: the Python package's in-memory
/// data and file objects go through here. `source` names it in the result
/// (its file name, if any, is the one the name lints see).
pub fn check_reader<R: Read>(
    source: Source,
    reader: R,
    len: Option<u64>,
    settings: &Settings,
) -> FileResult {
    let mut opts = settings.options.clone();
    if let Source::File(p) = &source {
        opts.file_name = p.file_name().map(|n| n.to_string_lossy().into_owned());
    }
    FileResult {
        outcome: idx::validate_reader_len(reader, len, &opts)
            .map(|r| cap(r, settings.max_findings))
            .map_err(|e| e.to_string()),
        source,
    }
}

/// Checks one input.
pub fn check(source: &Source, settings: &Settings) -> FileResult {
    let mut opts = settings.options.clone();
    if let Source::File(p) = source {
        opts.file_name = p.file_name().map(|n| n.to_string_lossy().into_owned());
    }
    let report = match source {
        Source::Stdin => idx::validate_reader(io::stdin().lock(), &opts),
        Source::File(p) => File::open(p).and_then(|f| {
            // a labels file's values are read even then: the dataset
            // rules (--classes, gaps) need them (its own lints stay off)
            let len = f.metadata().ok().filter(|m| m.is_file()).map(|m| m.len());
            if settings.structure_only && opts.scan_labels.is_none() {
                idx::__private::validate_structure(f, len, &opts)
            } else if settings.structure_only {
                idx::validate_reader_len(
                    f,
                    len,
                    &opts.clone().with_lints(false).with_byte_order_test(false),
                )
            } else {
                // a regular file's length comes from its metadata, so the
                // library can stop reading once nothing else can change
                idx::validate_reader_len(f, len, &opts)
            }
        }),
    };
    FileResult {
        source: source.clone(),
        outcome: report
            .map(|r| cap(r, settings.max_findings))
            .map_err(|e| e.to_string()),
    }
}
