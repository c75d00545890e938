//! IDX inputs: validated in full first, then streamed item by item.

use crate::error::Error;
use crate::Progress;
use idx::{Header, ReadOptions};
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
    validated: idx::Validated,
}

impl IdxInput {
    /// Validates the whole file through the library's one way in
    /// ([`idx::Reader::validate`]: streaming, bounded memory, gzip by its
    /// magic within the default limit, the byte-order verdict for `read`'s
    /// stated byte order); an invalid file is [`Error::Invalid`] with its
    /// error findings. Progress is reported in bytes of the file as stored
    /// (compressed, if it is).
    pub fn check(
        path: &Path,
        read: &ReadOptions,
        progress: &mut dyn Progress,
    ) -> Result<IdxInput, Error> {
        let mut source = idx_io::Input::open(path).map_err(Error::io(path))?;
        let len = source.len().map_err(Error::io(path))?;
        let mut checked = read.clone();
        checked.validate = checked.validate.with_lints(false);
        progress.start("validating (bytes)", len);
        let f = source.raw().map_err(Error::io(path))?;
        let mut counted = Counted {
            inner: f,
            progress,
            read: 0,
        };
        let (report, validated) =
            idx::Reader::validate(&mut counted, Some(len), &checked).map_err(Error::io(path))?;
        // what the library skipped by the file's length is done too
        let skipped = len.saturating_sub(counted.read);
        counted.progress.advance(skipped);
        counted.progress.finish();
        let Some(validated) = validated else {
            return Err(Error::Invalid {
                path: path.into(),
                findings: report.errors().cloned().collect(),
            });
        };
        for f in report
            .findings
            .iter()
            .filter(|f| f.rule == idx::Rule::LikelyLittleEndian)
        {
            counted.progress.byte_order_warning(path, f);
        }
        Ok(IdxInput {
            path: path.into(),
            header: validated.header().clone(),
            source,
            validated,
        })
    }

    /// Its file identity: no output may replace it.
    pub fn identity(&self) -> Option<idx_io::Identity> {
        self.source.identity()
    }

    /// The payload stream: the input read again from its start (standard
    /// input from its spooled copy) by the library, its header checked
    /// against the validated one, the elements big-endian (a payload stated
    /// little-endian swapped on the way).
    pub fn payload(&self) -> Result<Box<dyn Read>, Error> {
        let raw = self.source.raw_owned().map_err(Error::io(&self.path))?;
        let p = self.validated.payload(raw).map_err(|e| match e {
            idx::ReadError::Io(e) if e.kind() == std::io::ErrorKind::InvalidData => {
                Error::Changed {
                    path: self.path.clone(),
                }
            }
            idx::ReadError::Io(e) => Error::Io {
                path: self.path.clone(),
                source: e,
            },
            _ => Error::Changed {
                path: self.path.clone(),
            },
        })?;
        Ok(Box::new(BufReader::with_capacity(BUF, p)))
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
/// validated (the library's payload stream says so with `InvalidData`:
/// cut short, its gzip stream damaged, more bytes after it).
pub(crate) fn read_exact(r: &mut dyn Read, buf: &mut [u8], path: &Path) -> Result<(), Error> {
    r.read_exact(buf).map_err(|e| {
        use std::io::ErrorKind::{InvalidData, UnexpectedEof};
        if matches!(e.kind(), UnexpectedEof | InvalidData) {
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
    /// Bytes read so far.
    read: u64,
}

impl<R: Read> Read for Counted<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.progress.advance(n as u64);
        self.read += n as u64;
        Ok(n)
    }
}
