//! IDX inputs: validated in full first, then streamed item by item.

use crate::error::Error;
use crate::Progress;
use idx::{Header, Options};
use std::io::{BufReader, Read};
use std::path::{Path, PathBuf};

/// Read buffer size of the streams.
const BUF: usize = 256 << 10;

/// A validated IDX input (gzipped or not).
#[derive(Debug)]
pub(crate) struct IdxInput {
    pub path: PathBuf,
    pub header: Header,
    source: idx_io::Input,
}

impl IdxInput {
    /// Validates the whole file (streaming, bounded memory); an invalid file
    /// is [`Error::Invalid`] with its error findings. Progress is reported
    /// in bytes of the file as stored (compressed, if it is).
    pub fn check(path: &Path, progress: &mut dyn Progress) -> Result<IdxInput, Error> {
        let mut source = idx_io::Input::open(path).map_err(Error::io(path))?;
        let len = source.len().map_err(Error::io(path))?;
        let opts = Options::default()
            .with_decompress(true)
            .with_lints(false)
            .with_max_decompressed(idx::input::decompression_limit(None));
        progress.start("validating (bytes)", len);
        let f = source.rewound().map_err(Error::io(path))?;
        let counted = Counted { inner: f, progress };
        let report = idx::validate_reader(counted, &opts).map_err(Error::io(path))?;
        progress.finish();
        if !report.is_well_formed() {
            return Err(Error::Invalid {
                path: path.into(),
                findings: report
                    .errors()
                    .filter(|f| f.rule != idx::Rule::LikelyLittleEndian)
                    .cloned()
                    .collect(),
            });
        }
        let Some(header) = report.header else {
            // A report without errors always has a header (the magic and
            // dimension list are complete); kept as an error, not a panic.
            return Err(Error::Changed { path: path.into() });
        };
        Ok(IdxInput {
            path: path.into(),
            header,
            source,
        })
    }

    /// Its file identity: no output may replace it.
    pub fn identity(&self) -> Option<idx_io::Identity> {
        self.source.identity()
    }

    /// The payload stream: the input read again from its start (standard
    /// input from its spooled copy), opened by the library (gzip by its
    /// magic, the library's decoder), and the header read and checked
    /// against the validated one.
    pub fn payload(&self) -> Result<Box<dyn Read>, Error> {
        let s = self
            .source
            .stream_owned(idx::input::decompression_limit(None))
            .map_err(Error::io(&self.path))?;
        let mut r: Box<dyn Read> = Box::new(BufReader::with_capacity(BUF, s));
        // At most 1024 bytes (4 + 4 * 255).
        let mut head = vec![0u8; self.header.header_len()];
        read_exact(&mut r, &mut head, &self.path)?;
        if head != self.header.to_bytes() {
            return Err(Error::Changed {
                path: self.path.clone(),
            });
        }
        Ok(r)
    }

    /// Number of items: the first dimension (1 for rank 0).
    pub fn items(&self) -> u64 {
        self.header.dims().first().map_or(1, |&d| u64::from(d))
    }

    /// Bytes per item: the payload divided by the first dimension.
    pub fn item_len(&self) -> u64 {
        let t = self.header.dtype().size() as u64;
        self.header
            .dims()
            .iter()
            .skip(1)
            .fold(t, |a, &d| a.saturating_mul(u64::from(d)))
    }
}

/// `read_exact`, where an early end means the file changed since it was
/// validated.
pub(crate) fn read_exact(r: &mut dyn Read, buf: &mut [u8], path: &Path) -> Result<(), Error> {
    r.read_exact(buf).map_err(|e| {
        if e.kind() == std::io::ErrorKind::UnexpectedEof {
            Error::Changed { path: path.into() }
        } else {
            Error::Io {
                path: path.into(),
                source: e,
            }
        }
    })
}

/// A reader that reports the bytes read to a [`Progress`].
struct Counted<'a, R> {
    inner: R,
    progress: &'a mut dyn Progress,
}

impl<R: Read> Read for Counted<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.progress.advance(n as u64);
        Ok(n)
    }
}
