//! Inputs of every `idx` subcommand: a file or standard input (`-`), gzip
//! or not, read through the library's one way in ([`idx::Reader`]):
//! validated first (every error finding, the byte-order verdict included),
//! then streamed, with the library's findings rendered on standard error
//! when the input is not valid IDX.

use idx::{ReadOptions, Report, Severity};
use std::io::{self, Read};
use std::path::Path;

/// An opened input ([`idx_io::Input`]: a file, or standard input spooled
/// to an anonymous temporary file, so it can be read twice in bounded
/// memory).
#[derive(Debug)]
pub struct Input {
    inner: idx_io::Input,
    /// The name shown to users (`<stdin>` for `-`), escaped for a terminal.
    pub name: String,
    opts: ReadOptions,
    validated: Option<idx::Validated>,
}

impl Input {
    /// Opens `path`, or standard input when it is `-`, to be read as `opts`
    /// say (the decompression limit, the byte order the user states).
    ///
    /// # Errors
    /// The file cannot be opened, or standard input cannot be copied.
    pub fn open(path: &Path, opts: ReadOptions) -> io::Result<Input> {
        let inner = idx_io::Input::open(path)?;
        Ok(Input {
            name: inner.name().to_string(),
            inner,
            opts,
            validated: None,
        })
    }

    /// Its file identity (outputs never replace an input).
    pub fn identity(&self) -> Option<idx_io::Identity> {
        self.inner.identity()
    }

    /// The header alone, when it can be read: to refuse early what a
    /// command cannot do, before the input is validated.
    pub fn header(&mut self) -> Option<idx::Header> {
        let raw = self.inner.raw().ok()?;
        idx::Reader::new(raw, &self.opts)
            .ok()
            .map(|r| r.header().clone())
    }

    /// Validates the whole input (gzip decompressed, the advisory lints
    /// off, the byte-order verdict on) with the library, in bounded memory.
    /// A raw file is not read past what can change the findings.
    ///
    /// # Errors
    /// The input's I/O errors only; everything wrong with the data is in the
    /// report.
    pub fn validate(&mut self) -> io::Result<Report> {
        let mut opts = self.opts.clone();
        opts.validate = opts
            .validate
            .with_lints(false)
            .with_file_name(self.inner.file_name());
        let len = self.inner.len()?;
        let (report, validated) = idx::Reader::validate(self.inner.raw()?, Some(len), &opts)?;
        self.validated = validated;
        Ok(report)
    }

    /// The validated input from its start: its header, then its payload as
    /// big-endian elements (a payload stated little-endian is swapped on
    /// the way). Only after [`Input::validate`] found no error.
    ///
    /// # Errors
    /// The input's I/O errors, an input that was not validated, or one that
    /// changed since.
    pub fn stream(&mut self) -> io::Result<Box<dyn Read + '_>> {
        let payload = self.payload()?;
        Ok(Box::new(
            io::Cursor::new(payload.header().to_bytes()).chain(payload),
        ))
    }

    /// The validated input's payload alone, read through the library's
    /// [`idx::Payload`] (which skips whole items by the header's geometry).
    /// Only after [`Input::validate`] found no error.
    ///
    /// # Errors
    /// As [`Input::stream`].
    pub fn payload(&mut self) -> io::Result<idx::Payload<io::BufReader<&mut std::fs::File>>> {
        let Some(v) = self.validated.clone() else {
            return Err(io::Error::other("the input was not validated"));
        };
        v.payload(self.inner.raw()?).map_err(|e| match e {
            idx::ReadError::Io(e) => e,
            other => io::Error::new(io::ErrorKind::InvalidData, other.to_string()),
        })
    }
}

/// The library's error findings of `report` for the input `name`, one per
/// line as the finding displays itself (`error[CODE]: message (at offset
/// 0x.., byte ..)`), each followed by its `expected`/`found`/`hint` lines:
/// what `idx` prints on standard error for an input that is not valid.
pub fn render_errors(name: &str, report: &Report) -> String {
    let mut s = render_findings(
        name,
        report
            .findings
            .iter()
            .filter(|f| f.severity() == Severity::Error),
    );
    if report.compression.is_some() && !s.is_empty() {
        s.push_str(
            "  = note: offsets are in the decompressed stream
",
        );
    }
    s
}

/// The byte-order test's warning of a valid `report` (IDX501: the payload
/// reads little-endian, a statistical test, so the input is read as IDX
/// says), with its score, for standard error: every subcommand prints it
/// before its output, as idx-validate reports it.
pub fn render_byte_order_warning(name: &str, report: &Report) -> String {
    render_findings(
        name,
        report
            .findings
            .iter()
            .filter(|f| f.rule == idx::Rule::LikelyLittleEndian && f.severity() != Severity::Error),
    )
}

/// `findings` of the input `name`, each with its `expected`/`found`/`help`
/// lines (`name` empty: the finding alone, indented, for a list under a
/// message that names the input).
pub fn render_findings<'a>(name: &str, findings: impl Iterator<Item = &'a idx::Finding>) -> String {
    let mut s = String::new();
    for f in findings {
        // the library's one text form, with its detail lines (`{:#}`)
        if name.is_empty() {
            s.push_str(&format!("  {f:#}\n"));
        } else {
            s.push_str(&format!("{name}: {f:#}\n"));
        }
    }
    s
}
