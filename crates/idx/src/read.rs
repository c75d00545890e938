//! Streaming decode: from any `Read` straight into an owned typed array.

use crate::array::{Array, Data};
use crate::buffer;
use crate::dtype::{Element, ElementType};
use crate::edit::ByteOrder;
use crate::finding::Finding;
use crate::header::{self, Header, MAGIC_LEN};
use crate::parse::Error;
use crate::sniff::sniff;
use crate::validate;
use crate::violations;
use std::fmt;
use std::io::{self, Read};

/// Why [`read_array`] failed.
#[derive(Debug)]
#[non_exhaustive]
pub enum ReadError {
    /// The bytes are not a valid IDX file: the first violation, located.
    Invalid(Error),
    /// The reader failed.
    Io(io::Error),
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Invalid(e) => e.fmt(f),
            ReadError::Io(e) => write!(f, "read failed: {e}"),
        }
    }
}

impl std::error::Error for ReadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ReadError::Invalid(e) => Some(e),
            ReadError::Io(e) => Some(e),
        }
    }
}

impl From<io::Error> for ReadError {
    fn from(e: io::Error) -> Self {
        ReadError::Io(e)
    }
}

fn invalid(f: Finding) -> ReadError {
    ReadError::Invalid(f.into())
}

/// Reads a whole raw IDX stream into an owned, native-endian array, in one
/// pass, without holding the file's bytes: the payload is decoded as it is
/// read, through a fixed 256 KiB buffer.
///
/// Accepts exactly what [`parse`](crate::parse()) accepts; the error is the
/// one `parse` would give, except that a not-IDX input is recognised from its
/// first bytes only.
///
/// # Errors
/// [`ReadError::Invalid`] for a file that breaks a rule, [`ReadError::Io`]
/// for the reader's errors.
///
/// # Panics
/// Never.
///
/// # Allocation
/// The array grows with the data actually read, at most 16 Mi elements
/// ahead of it: a header that declares more than the stream holds costs
/// nothing.
pub fn read_array<R: Read>(mut r: R) -> Result<Array, ReadError> {
    let h = read_header(&mut r)?;
    let a = read_payload_array(&mut r, &h, ByteOrder::Big)?;
    verdict(&h, native_bytes(a.data()), ByteOrder::Big, None)?;
    Ok(a)
}

/// The elements of `d` as bytes in native order (empty for one-byte types,
/// which the byte-order test does not look at).
pub(crate) fn native_bytes(d: &Data) -> &[u8] {
    match d {
        Data::U8(_) | Data::I8(_) => &[],
        Data::I16(v) => bytemuck::cast_slice(v),
        Data::I32(v) => bytemuck::cast_slice(v),
        Data::F32(v) => bytemuck::cast_slice(v),
        Data::F64(v) => bytemuck::cast_slice(v),
    }
}

/// The payload of `h` from `r` (just after the header) into an owned
/// native-endian array, from elements stored in `stored` order; then the
/// end of the stream is checked.
pub(crate) fn read_payload_array<R: Read>(
    r: &mut R,
    h: &Header,
    stored: ByteOrder,
) -> Result<Array, ReadError> {
    let pos = h.header_len() as u64;
    let dtype = h.dtype();
    let mut data = match dtype {
        ElementType::U8 => Data::U8(payload::<u8, R>(r, h, pos)?),
        ElementType::I8 => Data::I8(payload::<i8, R>(r, h, pos)?),
        ElementType::I16 => Data::I16(payload::<i16, R>(r, h, pos)?),
        ElementType::I32 => Data::I32(payload::<i32, R>(r, h, pos)?),
        ElementType::F32 => Data::F32(payload::<f32, R>(r, h, pos)?),
        ElementType::F64 => Data::F64(payload::<f64, R>(r, h, pos)?),
    };
    if stored == ByteOrder::Little {
        // decoded as big-endian: every element's bytes reversed
        match &mut data {
            Data::U8(_) | Data::I8(_) => {}
            Data::I16(v) => reverse_elements(bytemuck::cast_slice_mut(v), 2),
            Data::I32(v) => reverse_elements(bytemuck::cast_slice_mut(v), 4),
            Data::F32(v) => reverse_elements(bytemuck::cast_slice_mut(v), 4),
            Data::F64(v) => reverse_elements(bytemuck::cast_slice_mut(v), 8),
        }
    }
    let shape = h.dims().iter().map(|&d| d as usize).collect();
    // invariant: exactly product(dims) elements were decoded
    Array::new(shape, data).map_err(|_| invalid(violations::size_overflow(dtype, h.dims())))
}

/// Reads the header of a raw IDX stream, and nothing after it: `r` is left
/// at the first payload byte, ready for [`read_array_into`].
///
/// The errors are [`read_array`]'s for the header (a not-IDX input is
/// recognised from its first bytes).
///
/// # Errors
/// [`ReadError::Invalid`] for a header that breaks a rule, [`ReadError::Io`]
/// for the reader's errors.
pub fn read_header<R: Read>(r: &mut R) -> Result<Header, ReadError> {
    let mut head = [0u8; MAGIC_LEN];
    let n = crate::buffer::fill(r, &mut head)?;
    let mut pos = n as u64;
    let got = &head[..n];
    if got.iter().take(2).any(|&b| b != 0) {
        // Enough of the stream to recognise what it is instead.
        // (what a failing source gave before it failed is judged too: the
        // bytes say what the input is, the failure comes later in it)
        let mut prefix = got.to_vec();
        let mut more = [0u8; 512];
        let want = crate::SNIFF_LEN - n.min(crate::SNIFF_LEN);
        let mut k = 0;
        while k < want {
            match r.read(&mut more[k..want]) {
                Ok(0) => break,
                Ok(m) => k += m,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) if k == 0 && got.is_empty() => return Err(e.into()),
                Err(_) => break,
            }
        }
        prefix.extend_from_slice(&more[..k]);
        return Err(invalid(
            sniff(&prefix).unwrap_or_else(|| violations::reserved_bytes(&got[..n.min(2)])),
        ));
    }
    if n > 2 && ElementType::from_code(head[2]).is_none() {
        return Err(invalid(violations::unknown_type(head[2])));
    }
    if n < MAGIC_LEN {
        return Err(invalid(violations::truncated_magic(n)));
    }
    let rank = head[3];
    let mut dim_bytes = [0u8; 4 * 255];
    let want = 4 * usize::from(rank);
    let k = crate::buffer::fill(r, &mut dim_bytes[..want])?;
    pos += k as u64;
    if k < want {
        return Err(invalid(violations::truncated_dimensions(
            pos as usize,
            rank,
        )));
    }
    let (_, dims) = header::dimensions(&dim_bytes[..want], rank)
        .map_err(|_| invalid(violations::truncated_dimensions(pos as usize, rank)))?;
    // invariant: the type code was checked above
    let dtype = ElementType::from_code(head[2])
        .ok_or_else(|| invalid(violations::unknown_type(head[2])))?;
    Header::new(dtype, dims.clone()).ok_or_else(|| invalid(violations::size_overflow(dtype, &dims)))
}

/// Reads the payload of `header` from `r` (positioned just after the
/// header, as [`read_header`] leaves it) into `out`, which holds exactly
/// `header.payload_len()` bytes and receives the elements in native byte
/// order; then checks that the stream ends there.
///
/// The bytes are read a [`CHUNK_LEN`](crate::CHUNK_LEN) chunk at a time
/// into a page-aligned buffer that stays in the cache, and byte-swapped from
/// there into `out`: one pass over `out`, no full-size intermediate copy, so
/// a caller that owns the destination (a numpy array) decodes straight into
/// it. (Reading from the kernel straight into fresh, not yet faulted-in
/// memory measured about three times slower than this.) Together with
/// [`read_header`] it accepts exactly what [`read_array`] accepts, with the
/// same errors.
///
/// # Errors
/// [`ReadError::Invalid`] for a truncated payload (IDX202) or bytes after it
/// (IDX203); [`ReadError::Io`] for the reader's errors, and of kind
/// `InvalidInput` when `out` is not `header.payload_len()` bytes long (then
/// nothing is read).
///
/// # Allocation
/// None but the caller's `out` and a fixed buffer of `CHUNK_LEN`.
/// The caller sizes `out` from the header: it should know first that the
/// source holds that much (e.g. a regular file's length).
pub fn read_array_into<R: Read>(
    r: &mut R,
    header: &Header,
    out: &mut [u8],
) -> Result<(), ReadError> {
    read_payload_into(r, header, out, ByteOrder::Big)?;
    verdict(header, out, ByteOrder::Big, None)
}

/// [`read_array_into`] of elements stored in `stored` order.
pub(crate) fn read_payload_into<R: Read>(
    r: &mut R,
    header: &Header,
    out: &mut [u8],
    stored: ByteOrder,
) -> Result<(), ReadError> {
    fits(header, out)?;
    decode_stream(r, out, header.dtype().size(), stored).map_err(|e| e.at(header, 0))?;
    check_end(r, header, header.header_len() as u64, &mut Vec::new())
}

/// Why decoding a stretch of the payload stopped short.
enum Short {
    /// The source ended after this many of the stretch's bytes.
    End(usize),
    /// The source failed.
    Io(io::Error),
}

impl Short {
    /// The error, for a stretch that starts `from` bytes into the payload.
    fn at(self, header: &Header, from: usize) -> ReadError {
        match self {
            Short::Io(e) => ReadError::Io(e),
            Short::End(k) => {
                let seen = (from + k) as u64;
                let start = header.header_len() as u64;
                invalid(violations::truncated_payload(header, seen, start + seen))
            }
        }
    }
}

/// Reads `out.len()` payload bytes from `r` straight into `out`, a
/// [`CHUNK_LEN`](crate::CHUNK_LEN) chunk at a time, and byte-swaps each
/// chunk's elements of `size` bytes in place while it is still in the
/// cache: one copy, the kernel's.
fn decode_stream<R: Read>(
    r: &mut R,
    out: &mut [u8],
    size: usize,
    stored: ByteOrder,
) -> Result<(), Short> {
    let mut seen = 0usize;
    for part in out.chunks_mut(crate::CHUNK_LEN) {
        let k = crate::buffer::fill(r, part).map_err(Short::Io)?;
        to_native_in_place(&mut part[..k], size, stored);
        seen += k;
        if k < part.len() {
            return Err(Short::End(seen));
        }
    }
    Ok(())
}

/// Converts a payload's elements of type `t`, big-endian as stored, to
/// native byte order in place (nothing to do for `u8` and `i8`; a partial
/// element at the end, which no whole payload has, is left as it is).
/// For a payload read by other means (`readinto`, a memory map copied
/// out): the conversion [`read_array_into`] makes as it reads, compiled
/// for the best instruction set the CPU has, chosen at run time.
///
/// ```
/// let mut bytes = [0x3f, 0x80, 0x00, 0x00]; // 1.0f32, big-endian
/// idx::payload_to_native(&mut bytes, idx::ElementType::F32);
/// assert_eq!(f32::from_ne_bytes(bytes), 1.0);
/// ```
pub fn payload_to_native(bytes: &mut [u8], t: crate::ElementType) {
    to_native_in_place(bytes, t.size(), ByteOrder::Big);
}

/// True when elements stored in `stored` order must be byte-swapped to be
/// native.
fn needs_swap(stored: ByteOrder) -> bool {
    (stored == ByteOrder::Big) == cfg!(target_endian = "little")
}

/// Elements of `size` bytes stored in `stored` order to native order in
/// place.
pub(crate) fn to_native_in_place(bytes: &mut [u8], size: usize, stored: ByteOrder) {
    if size > 1 && needs_swap(stored) {
        reverse_elements(bytes, size);
    }
}

/// Reverses the bytes of every whole element of `size` bytes in place.
fn reverse_elements(bytes: &mut [u8], size: usize) {
    if size > 1 {
        pulp::Arch::new().dispatch(SwapInPlace { bytes, size });
    }
}

/// The operation [`reverse_elements`] dispatches.
struct SwapInPlace<'a> {
    bytes: &'a mut [u8],
    size: usize,
}

impl pulp::WithSimd for SwapInPlace<'_> {
    type Output = ();

    #[inline(always)]
    fn with_simd<S: pulp::Simd>(self, _simd: S) {
        let SwapInPlace { bytes, size } = self;
        let whole = bytes.len() / size * size;
        macro_rules! swap {
            ($t:ty, $n:expr) => {{
                // arrays of bytes have alignment 1: the cast always succeeds
                let elems: &mut [[u8; $n]] = bytemuck::cast_slice_mut(&mut bytes[..whole]);
                for e in elems {
                    *e = <$t>::from_ne_bytes(*e).swap_bytes().to_ne_bytes();
                }
            }};
        }
        match size {
            2 => swap!(u16, 2),
            4 => swap!(u32, 4),
            8 => swap!(u64, 8),
            _ => {}
        }
    }
}

/// The payload's length, when `out` holds exactly that many bytes; an
/// `InvalidInput` error otherwise.
fn fits(header: &Header, out: &[u8]) -> Result<u64, ReadError> {
    let declared = header.payload_len();
    if out.len() as u64 != declared {
        return Err(ReadError::Io(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "the destination holds {} bytes; the payload is {declared}",
                out.len()
            ),
        )));
    }
    Ok(declared)
}

/// A source read at byte offsets, from several threads at once: a file
/// (`pread` on Unix, `seek_read` on Windows) or bytes in memory. It is what
/// [`read_array_at`] reads.
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
    /// [`read_array_at`] then decodes from directly, without a copy
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

#[cfg(unix)]
impl ReadAt for std::fs::File {
    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
        std::os::unix::fs::FileExt::read_at(self, buf, offset)
    }

    fn len(&self) -> io::Result<u64> {
        Ok(self.metadata()?.len())
    }
}

/// On Windows `seek_read` also moves the file's position, and a
/// synchronous handle serves one read at a time.
#[cfg(windows)]
impl ReadAt for std::fs::File {
    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
        std::os::windows::fs::FileExt::seek_read(self, buf, offset)
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
struct Cursor<'a, S: ?Sized> {
    src: &'a S,
    pos: u64,
}

impl<S: ReadAt + ?Sized> Read for Cursor<'_, S> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let k = self.src.read_at(buf, self.pos)?;
        self.pos += k as u64;
        Ok(k)
    }
}

/// The fewest payload bytes worth a thread of their own in
/// [`read_array_at`]: below this, starting a thread costs more than it
/// saves.
pub const MIN_BYTES_PER_THREAD: usize = 4 << 20;

/// [`read_array_into`] for a source read at offsets, whose header (as
/// [`read_header`] read it) starts at offset 0: the payload is split into
/// contiguous parts of at least [`MIN_BYTES_PER_THREAD`] (at most 256 of
/// them, starting on huge-page boundaries of `out`), handed out one at a
/// time to the calling thread and up to `threads - 1` threads of its own,
/// each reading straight into its part of `out` and converting it in
/// place a [`CHUNK_LEN`](crate::CHUNK_LEN) chunk at a time (bytes in
/// memory are decoded from where they lie). A thread that
/// cannot be started, or that the scheduler holds back, leaves its parts
/// to the others. Then it checks that the source ends after the payload.
/// The same input gives the same result and the same errors as
/// [`read_array_into`] whatever `threads` is.
///
/// Most of the time of decoding a large array into fresh memory goes to the
/// kernel mapping the destination's pages as they are first written, one
/// page fault per 4 KiB; decoding the parts at once takes those faults, and
/// the copy, on as many cores. Measured on the project machine (2 vCPUs),
/// a 1 GiB f32 file decodes into fresh memory in 0.70 s with one thread and
/// 0.51 s with two (example `decode_at`; `bench/rows.sh`, medians of 5).
///
/// # Errors
/// As [`read_array_into`]: a truncated payload (IDX202) is reported at the
/// first missing byte, bytes after the payload as IDX203;
/// [`ReadError::Io`] for the source's errors (the first part's, when
/// several fail), and of kind `InvalidInput`, before anything is read, when
/// `out` is not `header.payload_len()` bytes long.
///
/// # Allocation
/// `out` is the caller's; nothing else is allocated but the threads.
pub fn read_array_at<S: ReadAt + ?Sized>(
    src: &S,
    header: &Header,
    out: &mut [u8],
    threads: std::num::NonZeroUsize,
) -> Result<(), ReadError> {
    read_parts_at(
        src,
        header,
        out,
        threads,
        MIN_BYTES_PER_THREAD,
        HUGE_PAGE,
        ByteOrder::Big,
    )?;
    verdict(header, out, ByteOrder::Big, None)
}

/// The most parts [`read_array_at`] splits a payload into: parts of
/// [`MIN_BYTES_PER_THREAD`] up to 1 GiB, larger beyond.
const MAX_PARTS: usize = 256;

/// The size of a transparent huge page on x86-64 and arm64 (4 KiB base
/// pages): [`read_array_at`]'s parts start on multiples of it.
pub(crate) const HUGE_PAGE: usize = 2 << 20;

/// [`read_array_at`] with the smallest part and the alignment of part
/// starts as parameters (the fuzz harness splits small payloads).
pub(crate) fn read_parts_at<S: ReadAt + ?Sized>(
    src: &S,
    header: &Header,
    out: &mut [u8],
    threads: std::num::NonZeroUsize,
    min_part: usize,
    align: usize,
    stored: ByteOrder,
) -> Result<(), ReadError> {
    let declared = fits(header, out)?;
    let size = header.dtype().size();
    let start = header.header_len() as u64;
    let parts = (out.len() / min_part.max(1)).clamp(1, MAX_PARTS);
    let starts = part_starts(out.as_ptr().addr(), out.len(), parts, size, align);
    let decode = |from: usize, part: &mut [u8]| -> Result<(), Short> {
        let Some(bytes) = src.as_bytes() else {
            let mut r = Cursor {
                src,
                pos: start + from as u64,
            };
            return decode_stream(&mut r, part, size, stored);
        };
        // in memory: decoded from where it lies
        let at = usize::try_from(start).map_or(bytes.len(), |s| s.saturating_add(from));
        let have = bytes.get(at..).unwrap_or_default();
        let k = have.len().min(part.len());
        for (to, from) in part[..k]
            .chunks_mut(crate::CHUNK_LEN)
            .zip(have[..k].chunks(crate::CHUNK_LEN))
        {
            to_native(from, to, size, stored);
        }
        if k < part.len() {
            Err(Short::End(k))
        } else {
            Ok(())
        }
    };
    // Parts are handed out one at a time to the calling thread and the
    // started ones, so a thread that the scheduler holds back leaves its
    // share to the others instead of making them wait at the end.
    let mut queue = Vec::with_capacity(starts.len());
    let mut rest = &mut *out;
    for (i, &from) in starts.iter().enumerate() {
        let end = starts.get(i + 1).map_or(rest.len(), |&e| e - from);
        let (part, tail) = rest.split_at_mut(end);
        rest = tail;
        queue.push((i, from, part));
    }
    queue.reverse(); // popped from the end: the first part first
    let workers = threads.get().min(queue.len());
    let queue = std::sync::Mutex::new(queue);
    let work = || {
        let mut done = Vec::new();
        loop {
            // a poisoned lock means another worker panicked; that panic is
            // resumed when it is joined
            let next = match queue.lock() {
                Ok(mut q) => q.pop(),
                Err(_) => None,
            };
            let Some((i, from, part)) = next else {
                return done;
            };
            done.push((i, decode(from, part)));
        }
    };
    let mut results: Vec<_> = starts.iter().map(|_| Ok(())).collect();
    std::thread::scope(|s| {
        let work = &work;
        let started: Vec<_> = (1..workers)
            .filter_map(|_| {
                if refuse_spawn() {
                    return None; // as if the system had no thread to give
                }
                std::thread::Builder::new().spawn_scoped(s, work).ok()
            })
            .collect();
        for (i, r) in work() {
            results[i] = r;
        }
        for h in started {
            match h.join() {
                Ok(done) => {
                    for (i, r) in done {
                        results[i] = r;
                    }
                }
                Err(p) => std::panic::resume_unwind(p),
            }
        }
    });
    // The first part that failed: its first missing byte is the payload's
    // (a later part's failure is at a later offset).
    for (&from, r) in starts.iter().zip(results) {
        r.map_err(|e| e.at(header, from))?;
    }
    let mut tail = Cursor {
        src,
        pos: start + declared,
    };
    check_end(&mut tail, header, start, &mut Vec::new())
}

#[cfg(test)]
thread_local! {
    /// Unit tests: how many of this thread's next part threads are refused.
    static REFUSED_SPAWNS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Whether to act as if the next part's thread could not be started (only
/// ever in this crate's unit tests).
fn refuse_spawn() -> bool {
    #[cfg(test)]
    {
        REFUSED_SPAWNS.with(|n| {
            let left = n.get();
            n.set(left.saturating_sub(1));
            left > 0
        })
    }
    #[cfg(not(test))]
    false
}

/// Where each of `parts` parts of a destination of `len` bytes at address
/// `addr` starts (the first at 0): near equal parts, each later start moved
/// up to a multiple of `align` in the address space (a huge page, so that
/// no two threads fault in the same page) and to a whole element of `size`
/// bytes; parts that would be empty are dropped.
fn part_starts(addr: usize, len: usize, parts: usize, size: usize, align: usize) -> Vec<usize> {
    let mut starts = vec![0];
    for i in 1..parts {
        let even = len / parts * i;
        let aligned = (addr + even)
            .checked_next_multiple_of(align.max(1))
            .map_or(even, |a| a - addr);
        let at = aligned - aligned % size;
        if at < len && starts.last().is_some_and(|&l| at > l) {
            starts.push(at);
        }
    }
    starts
}

/// Elements of `size` bytes in `src`, stored in `stored` order, to native
/// order in `dst`
/// (as long); a partial element at the end is copied as it is. Compiled
/// for the best instruction set the CPU has, chosen at run time
/// (`pulp::Arch::dispatch`: AVX2 on x86-64 where present, where the swap
/// is one shuffle per 32 bytes), so the build needs no `target-cpu`.
fn to_native(src: &[u8], dst: &mut [u8], size: usize, stored: ByteOrder) {
    if needs_swap(stored) {
        pulp::Arch::new().dispatch(Swap { src, dst, size });
    } else {
        dst[..src.len()].copy_from_slice(src);
    }
}

/// The operation [`to_native`] dispatches when a swap is needed.
struct Swap<'a> {
    src: &'a [u8],
    dst: &'a mut [u8],
    size: usize,
}

impl pulp::WithSimd for Swap<'_> {
    type Output = ();

    #[inline(always)]
    fn with_simd<S: pulp::Simd>(self, _simd: S) {
        let Swap { src, dst, size } = self;
        let whole = src.len() / size * size;
        macro_rules! swap {
            ($t:ty, $n:expr) => {{
                // arrays of bytes have alignment 1: the casts always succeed
                let from: &[[u8; $n]] = bytemuck::cast_slice(&src[..whole]);
                let to: &mut [[u8; $n]] = bytemuck::cast_slice_mut(&mut dst[..whole]);
                for (t, f) in to.iter_mut().zip(from) {
                    *t = <$t>::from_ne_bytes(*f).swap_bytes().to_ne_bytes();
                }
            }};
        }
        match size {
            2 => swap!(u16, 2),
            4 => swap!(u32, 4),
            8 => swap!(u64, 8),
            _ => dst[..whole].copy_from_slice(&src[..whole]),
        }
        dst[whole..src.len()].copy_from_slice(&src[whole..]);
    }
}

fn payload<T: Element, R: Read>(r: &mut R, h: &Header, start: u64) -> Result<Vec<T>, ReadError> {
    let size = T::TYPE.size();
    let declared = h.payload_len();
    let count = usize::try_from(h.element_count()).unwrap_or(usize::MAX);
    // Memory is reserved only as payload bytes arrive (never by the
    // header's word alone): the vector doubles at most, up to the declared
    // count, so it holds at most twice the bytes read.
    let mut out: Vec<T> = Vec::new();
    let mut storage = vec![0u8; crate::CHUNK_LEN + buffer::PAGE];
    let buf = buffer::page_aligned(&mut storage);
    let mut carry = 0usize; // bytes of a partial element at the front of buf
    let mut seen = 0u64;
    while seen < declared {
        let room = (buf.len() - carry) as u64;
        let want = (declared - seen).min(room) as usize;
        let k = crate::buffer::fill(r, &mut buf[carry..carry + want])?;
        if k == 0 {
            break;
        }
        seen += k as u64;
        let have = carry + k;
        let whole = have / size * size;
        if out.capacity() - out.len() < whole / size {
            let grow = (whole / size)
                .max(out.len())
                .min(count.saturating_sub(out.len()))
                .max(whole / size);
            let _ = out.try_reserve_exact(grow);
        }
        T::extend_from_be(&mut out, &buf[..whole]);
        buf.copy_within(whole..have, 0);
        carry = have - whole;
    }
    if seen < declared {
        return Err(invalid(violations::truncated_payload(
            h,
            seen,
            start + seen,
        )));
    }
    check_end(r, h, start, &mut storage)?;
    Ok(out)
}

/// After a complete payload: anything more is an error (IDX203), counted
/// for the message up to a bound, through `buf` (grown to `CHUNK_LEN` when
/// it is smaller and there are trailing bytes).
fn check_end<R: Read>(
    r: &mut R,
    h: &Header,
    start: u64,
    buf: &mut Vec<u8>,
) -> Result<(), ReadError> {
    let declared = h.payload_len();
    let mut tail = [0u8; 4];
    let t = crate::buffer::fill(r, &mut tail)?;
    if t > 0 {
        if buf.len() < crate::CHUNK_LEN {
            buf.resize(crate::CHUNK_LEN, 0);
        }
        // counted up to a bound, so an endless source finishes (spec 7.24)
        let mut extra = t as u64;
        let mut cut = false;
        loop {
            if extra >= validate::TRAILING_COUNT_LIMIT {
                cut = crate::buffer::fill(r, &mut buf[..1])? > 0;
                break;
            }
            let want = (validate::TRAILING_COUNT_LIMIT - extra).min(buf.len() as u64) as usize;
            let k = crate::buffer::fill(r, &mut buf[..want])?;
            if k == 0 {
                break;
            }
            extra += k as u64;
        }
        let end = start + declared;
        return Err(invalid(violations::trailing_bytes(
            h,
            end,
            extra,
            &tail[..t],
            cut,
        )));
    }
    Ok(())
}

/// The byte-order verdict on a payload decoded into native order (`native`,
/// from `stored` order), for the byte order the caller `stated`: the IDX501
/// finding validation reports, when it refuses.
pub(crate) fn verdict(
    h: &Header,
    native: &[u8],
    stored: ByteOrder,
    stated: Option<ByteOrder>,
) -> Result<(), ReadError> {
    if h.dtype().size() == 1 || stated == Some(ByteOrder::Big) {
        return Ok(());
    }
    let mut l = crate::lint::PayloadLinter::for_native(h.dtype(), h.header_len() as u64, stored);
    l.feed(native);
    match l
        .finish(stated)
        .into_iter()
        .find(|f| f.severity() == crate::Severity::Error)
    {
        Some(f) => Err(ReadError::Invalid(f.into())),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::{part_starts, read_array_at, REFUSED_SPAWNS};
    use crate::{ReadAt, ReadError};
    use std::collections::HashSet;
    use std::num::NonZeroUsize;
    use std::sync::Mutex;

    /// Bytes that record which threads read them.
    struct Recorded<'a>(&'a [u8], Mutex<HashSet<std::thread::ThreadId>>);

    impl ReadAt for Recorded<'_> {
        fn len(&self) -> std::io::Result<u64> {
            Ok(self.0.len() as u64)
        }

        fn read_at(&self, buf: &mut [u8], offset: u64) -> std::io::Result<usize> {
            self.1
                .lock()
                .unwrap() // ok: test
                .insert(std::thread::current().id());
            self.0.read_at(buf, offset)
        }
    }

    #[test]
    fn a_part_whose_thread_cannot_start_is_decoded_by_the_caller() {
        // four parts of a 16 MiB+ f32 payload (plus trailing bytes, and
        // then cut short): each the same as with one thread, whichever
        // part threads are refused
        let count = (4 * crate::MIN_BYTES_PER_THREAD + 3 * (2 << 20)) / 4;
        let mut full = vec![0, 0, 0x0d, 1];
        full.extend_from_slice(&(count as u32).to_be_bytes());
        full.extend((0..count * 4).map(|i| (i * 7 % 251) as u8));
        let mut trailing = full.clone();
        trailing.push(1);
        let cut = full[..full.len() - 4 * crate::MIN_BYTES_PER_THREAD / 2].to_vec();
        let h = crate::read_header(&mut &full[..]).unwrap(); // ok: test
        let decode = |bytes: &[u8], threads: usize, refused: usize| {
            REFUSED_SPAWNS.with(|n| n.set(refused));
            let src = Recorded(bytes, Mutex::default());
            let mut out = vec![0u8; count * 4];
            let threads = NonZeroUsize::new(threads).unwrap(); // ok: test
            let r = read_array_at(&src, &h, &mut out, threads).map_err(|e| match e {
                ReadError::Invalid(e) => (e.rule().code(), e.offset()),
                ReadError::Io(_) => ("io", 0),
            });
            let seen = src.1.lock().unwrap().len(); // ok: test
            (r.map(|()| out), seen)
        };
        for bytes in [&full, &trailing, &cut] {
            let (want, _) = decode(bytes, 1, 0);
            for refused in 0..=3 {
                let (got, threads) = decode(bytes, 4, refused);
                assert_eq!(got, want, "{refused} refused, {} bytes", bytes.len());
                // the caller, and at most the threads that started (one
                // may find the parts all taken)
                assert!(
                    (1..=4 - refused).contains(&threads),
                    "{threads} threads read, {refused} refused, {} bytes",
                    bytes.len()
                );
                if refused == 3 {
                    assert_eq!(threads, 1, "only the caller: {} bytes", bytes.len());
                }
            }
        }
        assert_eq!(decode(&cut, 4, 2).0.unwrap_err().0, "IDX202");
    }

    /// Bytes whose every other thread than the caller's is held back
    /// before its first read, as a busy scheduler may; records which
    /// thread read which offsets.
    struct HeldBack<'a> {
        bytes: &'a [u8],
        caller: std::thread::ThreadId,
        reads: Mutex<Vec<(std::thread::ThreadId, u64)>>,
    }

    impl ReadAt for HeldBack<'_> {
        fn len(&self) -> std::io::Result<u64> {
            Ok(self.bytes.len() as u64)
        }

        fn read_at(&self, buf: &mut [u8], offset: u64) -> std::io::Result<usize> {
            let me = std::thread::current().id();
            let first = {
                let mut reads = self.reads.lock().unwrap(); // ok: test
                let first = !reads.iter().any(|&(t, _)| t == me);
                reads.push((me, offset));
                first
            };
            if first && me != self.caller {
                std::thread::sleep(std::time::Duration::from_millis(300));
            }
            self.bytes.read_at(buf, offset)
        }
    }

    #[test]
    fn a_held_back_thread_leaves_its_parts_to_the_others() {
        // eight parts' worth of u8 payload and four threads: with the three
        // others held back on their first part, the caller decodes the
        // rest instead of waiting (a fixed split gave it one part in four)
        let count = 8 * crate::MIN_BYTES_PER_THREAD;
        let mut file = vec![0, 0, 0x08, 1];
        file.extend_from_slice(&(count as u32).to_be_bytes());
        file.extend((0..count).map(|i| (i % 253) as u8));
        let h = crate::read_header(&mut &file[..]).unwrap(); // ok: test
        let src = HeldBack {
            bytes: &file,
            caller: std::thread::current().id(),
            reads: Mutex::default(),
        };
        let mut out = vec![0u8; count];
        let four = NonZeroUsize::new(4).unwrap(); // ok: test
        read_array_at(&src, &h, &mut out, four).unwrap(); // ok: test
        assert!(out.iter().enumerate().all(|(i, &b)| b == (i % 253) as u8));
        let reads = src.reads.lock().unwrap(); // ok: test
        let part = crate::MIN_BYTES_PER_THREAD as u64;
        let by_caller: HashSet<u64> = reads
            .iter()
            .filter(|&&(t, off)| t == src.caller && off >= 8 && off < 8 + count as u64)
            .map(|&(_, off)| (off - 8) / part)
            .collect();
        assert!(
            by_caller.len() >= 4,
            "the caller decoded only parts {by_caller:?} of 8"
        );
    }

    #[test]
    fn the_swap_is_the_same_on_every_instruction_set() {
        let src: Vec<u8> = (0..1000u32).map(|i| (i * 131 % 251) as u8).collect();
        for size in [1usize, 2, 4, 8] {
            for len in [0usize, 1, 7, 31, 32, 33, 64, 999, 1000] {
                let want: Vec<u8> = src[..len]
                    .chunks(size)
                    .flat_map(|c| {
                        let mut c = c.to_vec();
                        if c.len() == size && cfg!(target_endian = "little") {
                            c.reverse();
                        }
                        c
                    })
                    .collect();
                for arch in [pulp::Arch::new(), pulp::Arch::Scalar] {
                    let mut dst = vec![0u8; len];
                    arch.dispatch(super::Swap {
                        src: &src[..len],
                        dst: &mut dst,
                        size,
                    });
                    assert_eq!(dst, want, "{arch:?} size {size} len {len}");
                    let mut in_place = src[..len].to_vec();
                    arch.dispatch(super::SwapInPlace {
                        bytes: &mut in_place,
                        size,
                    });
                    assert_eq!(in_place, want, "in place: {arch:?} size {size} len {len}");
                }
            }
        }
    }

    #[test]
    fn parts_start_on_huge_pages_and_whole_elements() {
        const HUGE: usize = 2 << 20;
        for addr in [0usize, 16, 4096 + 16, HUGE - 3, 7 * HUGE + 1] {
            for len in [0usize, 5, 9 << 20, 45 << 20, (1 << 30) + 12] {
                for parts in 1..=4 {
                    for size in [1usize, 2, 4, 8] {
                        let s = part_starts(addr, len, parts, size, HUGE);
                        assert_eq!(s[0], 0);
                        assert!(s.len() <= parts);
                        assert!(s.windows(2).all(|w| w[0] < w[1]), "{s:?}");
                        for &at in &s[1..] {
                            assert!(at < len && at % size == 0, "{addr} {len} {size}: {s:?}");
                            if addr % size == 0 {
                                assert_eq!((addr + at) % HUGE, 0, "{addr} {len} {size}: {s:?}");
                            }
                        }
                        // as many parts as asked when each gets several huge pages
                        if len >= parts * 4 * HUGE {
                            assert_eq!(s.len(), parts, "{addr} {len}: {s:?}");
                        }
                    }
                }
            }
        }
    }
}
