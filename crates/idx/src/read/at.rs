//! Positioned sources: read at byte offsets, from several threads at once.

use std::io::{self, Read};

/// A source read at byte offsets, from several threads at once: a file
/// (`pread` on Unix, `seek_read` on Windows) or bytes in memory. It is what
/// `read_array_at` reads.
///
/// ```
/// use idx::ReadAt;
///
/// let bytes: &[u8] = &[0, 0, 0x08, 1, 0, 0, 0, 2, 7, 9];
/// let mut dims = [0u8; 4];
/// assert_eq!(bytes.read_at(&mut dims, 4)?, 4);
/// assert_eq!(u32::from_be_bytes(dims), 2);
/// assert_eq!(ReadAt::len(bytes)?, 10);
/// // what `Reader::at` reads, e.g. for `read_into_parallel`
/// let reader = idx::Reader::at(bytes, &idx::ReadOptions::default())?;
/// assert_eq!(reader.header().dims(), &[2]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait ReadAt: Sync {
    /// Reads up to `buf.len()` bytes starting `offset` bytes into the
    /// source; `Ok(0)` at its end. Like [`Read::read`], it may read fewer
    /// bytes than asked.
    ///
    /// # Errors
    /// The source's own errors.
    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize>;

    /// The source's length in bytes.
    ///
    /// # Errors
    /// The source's own errors.
    fn len(&self) -> io::Result<u64>;

    /// True when the source holds no byte.
    ///
    /// # Errors
    /// The source's own errors.
    fn is_empty(&self) -> io::Result<bool> {
        Ok(self.len()? == 0)
    }

    /// The whole source when it is bytes in memory, which
    /// `read_array_at` then decodes from directly, without a copy
    /// through its buffer; `None` (the default) for any other source. When
    /// it is `Some`, it must hold exactly the bytes `read_at` reads.
    fn as_bytes(&self) -> Option<&[u8]> {
        None
    }
}

impl ReadAt for [u8] {
    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
        let from = usize::try_from(offset).map_or(self.len(), |o| o.min(self.len()));
        let k = buf.len().min(self.len() - from);
        buf[..k].copy_from_slice(&self[from..from + k]);
        Ok(k)
    }

    fn len(&self) -> io::Result<u64> {
        Ok(<[u8]>::len(self) as u64)
    }

    fn as_bytes(&self) -> Option<&[u8]> {
        Some(self)
    }
}

/// A file, read at offsets where the standard library can: `pread` on
/// Unix; on Windows `seek_read`, which also moves the file's position (a
/// synchronous handle serves one read at a time).
#[cfg(any(unix, windows))]
impl ReadAt for std::fs::File {
    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
        #[cfg(unix)]
        let k = std::os::unix::fs::FileExt::read_at(self, buf, offset);
        #[cfg(windows)]
        let k = std::os::windows::fs::FileExt::seek_read(self, buf, offset);
        k
    }

    fn len(&self) -> io::Result<u64> {
        Ok(self.metadata()?.len())
    }
}

impl<S: ReadAt + ?Sized> ReadAt for &S {
    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
        (**self).read_at(buf, offset)
    }

    fn len(&self) -> io::Result<u64> {
        (**self).len()
    }

    fn as_bytes(&self) -> Option<&[u8]> {
        (**self).as_bytes()
    }
}

/// A [`ReadAt`] source as a [`Read`] from `pos` on.
pub(super) struct Cursor<'a, S: ?Sized> {
    pub(super) src: &'a S,
    pub(super) pos: u64,
}

impl<S: ReadAt + ?Sized> Read for Cursor<'_, S> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let k = self.src.read_at(buf, self.pos)?;
        self.pos += k as u64;
        Ok(k)
    }
}
