//! Inputs of every `idx` subcommand: a file or standard input (`-`), gzip
//! or not (recognised by its magic), validated by the library before any
//! output, with the library's findings rendered on standard error when the
//! input is not valid IDX.

use idx::{Report, Severity};
use std::fs::File;
use std::io::{self, BufReader};
use std::path::Path;

/// An opened input ([`idx_io::Input`]: a file, or standard input spooled
/// to an anonymous temporary file, so it can be read twice in bounded
/// memory).
#[derive(Debug)]
pub struct Input {
    inner: idx_io::Input,
    /// The name shown to users (`<stdin>` for `-`), escaped for a terminal.
    pub name: String,
}

/// `path` escaped for a terminal ([`idx_io::escape::path`]).
pub fn shown(path: &Path) -> String {
    idx_io::escape::path(path)
}

impl Input {
    /// Opens `path`, or standard input when it is `-`.
    ///
    /// # Errors
    /// The file cannot be opened, or standard input cannot be copied.
    pub fn open(path: &Path) -> io::Result<Input> {
        let inner = idx_io::Input::open(path)?;
        Ok(Input {
            name: inner.name().to_string(),
            inner,
        })
    }

    /// Its file identity (outputs never replace an input).
    pub fn identity(&self) -> Option<idx_io::Identity> {
        self.inner.identity()
    }

    /// Validates the whole input (decompressing gzip, lints off) with the
    /// library, in bounded memory. A raw file of known length is not read
    /// past what can change the findings (lints off: the header and the
    /// length).
    ///
    /// # Errors
    /// The input's I/O errors only; everything wrong with the data is in the
    /// report.
    pub fn validate(&mut self) -> io::Result<Report> {
        let opts = idx::Options::default()
            .with_decompress(true)
            .with_lints(false)
            .with_max_decompressed(idx::input::decompression_limit(None))
            .with_file_name(self.inner.file_name());
        let len = self.inner.len()?;
        idx::validate_reader_len(self.inner.rewound()?, Some(len), &opts)
    }

    /// The (decompressed) bytes of the input from the start, opened by the
    /// library ([`idx::input::open`]).
    ///
    /// # Errors
    /// The input's I/O errors.
    pub fn stream(&mut self) -> io::Result<idx::input::Stream<BufReader<&mut File>>> {
        self.inner.stream(idx::input::decompression_limit(None))
    }
}

/// The library's error findings of `report` for the input `name`, one per
/// line as the finding displays itself (`error[CODE]: message (at offset
/// 0x.., byte ..)`), each followed by its `expected`/`found`/`hint` lines:
/// what `idx` prints on standard error for an input that is not valid.
pub fn render_errors(name: &str, report: &Report) -> String {
    let mut s = String::new();
    for f in report
        .findings
        .iter()
        .filter(|f| f.severity() == Severity::Error && f.rule != idx::Rule::LikelyLittleEndian)
    {
        s.push_str(&format!("{name}: {f}\n"));
        if let Some(e) = &f.expected {
            s.push_str(&format!("  = expected: {e}\n"));
        }
        if let Some(e) = &f.found {
            s.push_str(&format!("  = found: {e}\n"));
        }
        if let Some(h) = &f.hint {
            s.push_str(&format!("  = hint: {h}\n"));
        }
    }
    if report.compression.is_some() && !s.is_empty() {
        s.push_str("  = note: offsets are in the decompressed stream\n");
    }
    s
}

pub use idx::input::fill;
