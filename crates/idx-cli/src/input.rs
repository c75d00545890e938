//! Inputs of every `idx` subcommand: a file or standard input (`-`), gzip
//! or not (recognised by its magic), validated by the library before any
//! output, with the library's findings rendered on standard error when the
//! input is not valid IDX.

use idx::{Report, Severity};
use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::path::Path;

/// An opened input: a seekable file (standard input is first copied to an
/// anonymous temporary file, so it can be read twice in bounded memory).
#[derive(Debug)]
pub struct Input {
    file: File,
    /// The name shown to users (`<stdin>` for `-`), with control
    /// characters escaped.
    pub name: String,
    /// The last path component, for the MNIST naming lint.
    file_name: Option<String>,
}

/// `path` with control characters escaped, so that nothing from a file
/// name reaches a terminal unescaped.
pub fn shown(path: &Path) -> String {
    path.display()
        .to_string()
        .chars()
        .flat_map(|c| {
            if c.is_control() {
                c.escape_default().collect::<Vec<_>>()
            } else {
                vec![c]
            }
        })
        .collect()
}

impl Input {
    /// Opens `path`, or standard input when it is `-`.
    ///
    /// # Errors
    /// The file cannot be opened, or standard input cannot be copied.
    pub fn open(path: &Path) -> io::Result<Input> {
        if path.as_os_str() == "-" {
            let mut file = tempfile::tempfile()?;
            io::copy(&mut io::stdin().lock(), &mut file)?;
            file.seek(SeekFrom::Start(0))?;
            return Ok(Input {
                file,
                name: "<stdin>".into(),
                file_name: None,
            });
        }
        Ok(Input {
            file: File::open(path)?,
            name: shown(path),
            file_name: path.file_name().map(|n| n.to_string_lossy().into_owned()),
        })
    }

    /// Validates the whole input (decompressing gzip, lints off) with the
    /// library, in bounded memory, and rewinds it.
    ///
    /// # Errors
    /// The input's I/O errors only; everything wrong with the data is in the
    /// report.
    pub fn validate(&mut self) -> io::Result<Report> {
        self.file.seek(SeekFrom::Start(0))?;
        let opts = idx::Options::default()
            .with_decompress(true)
            .with_lints(false)
            .with_file_name(self.file_name.clone());
        let report = idx::validate_reader(&mut self.file, &opts)?;
        self.file.seek(SeekFrom::Start(0))?;
        Ok(report)
    }

    /// The (decompressed) bytes of the input from the start.
    ///
    /// # Errors
    /// The input's I/O errors.
    pub fn stream(&mut self) -> io::Result<Box<dyn Read + '_>> {
        self.file.seek(SeekFrom::Start(0))?;
        let mut magic = [0u8; 2];
        let mut n = 0;
        while n < 2 {
            match self.file.read(&mut magic[n..])? {
                0 => break,
                k => n += k,
            }
        }
        self.file.seek(SeekFrom::Start(0))?;
        let reader = io::BufReader::with_capacity(256 * 1024, &mut self.file);
        Ok(if magic[..n] == [0x1f, 0x8b] {
            Box::new(flate2::read::MultiGzDecoder::new(reader))
        } else {
            Box::new(reader)
        })
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
        .filter(|f| f.severity() == Severity::Error)
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

/// True when the report holds an error finding.
pub fn has_errors(report: &Report) -> bool {
    report.errors().next().is_some()
}

/// Reads until `buf` is full or the stream ends; returns the bytes read.
///
/// # Errors
/// The stream's errors.
pub fn fill<R: Read + ?Sized>(r: &mut R, buf: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}
