//! Streaming the input through the planned edits, a chunk at a time.

use super::select::Plan;
use crate::buffer::{fill, CHUNK_LEN};
use crate::header::MAX_HEADER_LEN;
use std::io::{self, Read, Seek, SeekFrom};

/// Streams `input` through `plan` into `sink`, a chunk at a time: the
/// output's bytes, each once, in order.
pub(super) fn stream<R: Read>(
    plan: &Plan,
    mut input: R,
    mut sink: impl FnMut(&[u8]) -> io::Result<()>,
) -> io::Result<()> {
    let mut buf = vec![0u8; CHUNK_LEN + 8];
    let mut have = 0usize; // bytes held back at the front of buf
    let mut base = 0u64; // input offset of buf[0]
    loop {
        let n = fill(&mut input, &mut buf[have..have + CHUNK_LEN])?;
        let total = have + n;
        let eof = n == 0;
        let mut emit = total;
        if let Some((s, l, size)) = plan.swap {
            let end_in = base + total as u64;
            if !eof && end_in > s && end_in < s + l {
                emit -= ((end_in - s) % size as u64) as usize; // a partial element waits
            }
        }
        let chunk = &mut buf[..emit];
        let lo = base;
        let hi = base + emit as u64;
        if let Some((s, l, size)) = plan.swap {
            let a = s.max(lo);
            let b = (s + l).min(hi);
            if a < b {
                // a and b are element boundaries: s + k * size
                let part = &mut chunk[(a - lo) as usize..(b - lo) as usize];
                swap_elements(part, size);
            }
        }
        for (off, bytes) in &plan.replace {
            for (k, &v) in bytes.iter().enumerate() {
                let at = off + k as u64;
                if at >= lo && at < hi {
                    chunk[(at - lo) as usize] = v;
                }
            }
        }
        let keep = plan
            .cut
            .map_or(emit, |c| (c.saturating_sub(lo)).min(emit as u64) as usize);
        if keep > 0 {
            sink(&chunk[..keep])?;
        }
        buf.copy_within(emit..total, 0);
        have = total - emit;
        base = hi;
        if eof {
            return Ok(());
        }
    }
}

pub(super) fn swap_elements(bytes: &mut [u8], size: usize) {
    match size {
        2 => bytes.chunks_exact_mut(2).for_each(|c| c.swap(0, 1)),
        4 => bytes.chunks_exact_mut(4).for_each(|c| {
            let w = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
            c.copy_from_slice(&w.to_be_bytes());
        }),
        8 => bytes.chunks_exact_mut(8).for_each(|c| {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            c.copy_from_slice(&u64::from_le_bytes(w).to_be_bytes());
        }),
        _ => bytes
            .chunks_exact_mut(size.max(1))
            .for_each(<[u8]>::reverse),
    }
}

/// A reader that counts and checksums what it hands out.
pub(super) struct Summed<R> {
    inner: R,
    crc: flate2::Crc,
    head: flate2::Crc,
    len: u64,
}

/// What a pass saw of the raw input: its length, the CRC-32 of its first
/// [`MAX_HEADER_LEN`] bytes, and the CRC-32 of all of it when it was read
/// whole.
pub(super) type Sum = (u64, u32, Option<u32>);

impl<R: Read + Seek> Summed<R> {
    /// Rewinds `inner` and wraps it.
    pub(super) fn rewind(mut inner: R) -> io::Result<Self> {
        inner.seek(SeekFrom::Start(0))?;
        Ok(Summed {
            inner,
            crc: flate2::Crc::new(),
            head: flate2::Crc::new(),
            len: 0,
        })
    }

    /// Reads what is left (bytes after the last gzip member) and returns
    /// what was read.
    pub(super) fn finish(mut self) -> io::Result<Sum> {
        io::copy(&mut self, &mut io::sink())?;
        Ok((self.len, self.head.sum(), Some(self.crc.sum())))
    }
}

impl<R: Read> Read for Summed<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.crc.update(&buf[..n]);
        if self.len < MAX_HEADER_LEN as u64 {
            let k = (MAX_HEADER_LEN - self.len as usize).min(n);
            self.head.update(&buf[..k]);
        }
        self.len += n as u64;
        Ok(n)
    }
}
