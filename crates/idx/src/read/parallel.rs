//! A positioned source's payload decoded in parallel parts, straight into
//! the caller's memory, then judged by the one validation engine
//! ([`Validator`]): fed the payload as stored, in order, and what follows.

use super::at::{Cursor, ReadAt};
use super::into::{conclude, decode_stream, feed_end, fits, Short};
use super::parts::{part_count, part_starts};
use super::swap::to_native;
use super::ReadError;
use crate::edit::ByteOrder;
use crate::finding::Finding;
use crate::header::Header;
use crate::validate::Validator;

/// The fewest payload bytes worth a thread of their own in
/// `read_array_at` (under [`Reader::read_into_parallel`](crate::Reader::read_into_parallel)):
/// below this, starting a thread costs more than it saves.
pub const MIN_BYTES_PER_THREAD: usize = 4 << 20;

/// `read_array_into` for a source read at
/// offsets, whose header (as `read_header` read it)
/// starts at offset 0: the payload is split into contiguous parts of at
/// least [`MIN_BYTES_PER_THREAD`] (at most 256 of them, starting on
/// huge-page boundaries of `out`), handed out one at a time to the calling
/// thread and up to `threads - 1` threads of its own, each reading straight
/// into its part of `out` and converting it in place a
/// 256 KiB chunk at a time (bytes in memory are
/// decoded from where they lie). A thread that cannot be started, or that
/// the scheduler holds back, leaves its parts to the others. Then the
/// payload decoded and the bytes after it are judged as `read_array_into`
/// judges them (`read_parts_at`).
/// The same input gives the same result and the same errors as
/// `read_array_into` whatever `threads` is.
///
/// Most of the time of decoding a large array into fresh memory goes to the
/// kernel mapping the destination's pages as they are first written, one
/// page fault per 4 KiB; decoding the parts at once takes those faults, and
/// the copy, on as many cores. Measured on the project machine (2 vCPUs),
/// a 1 GiB f32 file decodes into fresh memory in 0.70 s with one thread and
/// 0.51 s with two (example `decode_at`; `bench/rows.sh`, medians of 5).
///
/// # Errors
/// As `read_array_into`: a truncated payload (IDX202) is reported at the
/// first missing byte, bytes after the payload as IDX203;
/// [`ReadError::Io`] for the source's errors (the first part's, when
/// several fail), and of kind `InvalidInput`, before anything is read, when
/// `out` is not `header.payload_len()` bytes long.
///
/// # Allocation
/// `out` is the caller's; nothing else is allocated but the threads.
#[cfg(any(test, feature = "fuzzing"))]
pub fn read_array_at<S: ReadAt + ?Sized>(
    src: &S,
    header: &Header,
    out: &mut [u8],
    threads: std::num::NonZeroUsize,
) -> Result<(), ReadError> {
    let engine = Box::new(Validator::after_header(
        crate::validate::Options::default().reading(),
        header,
    ));
    let split = Split {
        threads,
        min_part: MIN_BYTES_PER_THREAD,
        align: super::parts::HUGE_PAGE,
    };
    read_parts_at(src, header, out, split, ByteOrder::Big, engine).map(|_| ())
}

/// How `read_parts_at` splits a payload: among how many threads, into
/// parts of at least `min_part` bytes whose starts are aligned to `align`
/// in the address space (the fuzz harness splits small payloads).
pub(crate) struct Split {
    pub(crate) threads: std::num::NonZeroUsize,
    pub(crate) min_part: usize,
    pub(crate) align: usize,
}

/// [`read_array_at`] of elements stored in `stored` order, judged by
/// `engine` (the one validation engine, fed the header), split as `split`
/// says. Once the parts are decoded, the engine is fed the payload
/// decoded (all of it, or what came before the first missing byte), in
/// order and as stored ([`feed_stored`]), then the bytes after a whole
/// payload ([`feed_end`]): its first error is the read's error, its other
/// findings the read's warnings ([`conclude`]), as `read_array_into` has
/// them. A source's I/O error stands alone.
pub(crate) fn read_parts_at<S: ReadAt + ?Sized>(
    src: &S,
    header: &Header,
    out: &mut [u8],
    split: Split,
    stored: ByteOrder,
    mut engine: Box<Validator>,
) -> Result<Vec<Finding>, ReadError> {
    let Split {
        threads,
        min_part,
        align,
    } = split;
    let declared = fits(header, out)?;
    let size = header.dtype().size();
    let start = header.header_len() as u64;
    let parts = part_count(out.len(), min_part);
    let starts = part_starts(out.as_ptr().addr(), out.len(), parts, size, align);
    let decode = |from: usize, part: &mut [u8]| -> Result<(), Short> {
        let Some(bytes) = src.as_bytes() else {
            let mut r = Cursor {
                src,
                pos: start + from as u64,
            };
            return decode_stream(&mut r, part, size, stored, |_| {});
        };
        // in memory: decoded from where it lies
        let at = usize::try_from(start).map_or(bytes.len(), |s| s.saturating_add(from));
        let have = bytes.get(at..).unwrap_or_default();
        let k = have.len().min(part.len());
        for (to, from) in part[..k]
            .chunks_mut(crate::buffer::CHUNK_LEN)
            .zip(have[..k].chunks(crate::buffer::CHUNK_LEN))
        {
            to_native(from, to, size, stored);
        }
        if k < part.len() {
            Err(Short::End(k))
        } else {
            Ok(())
        }
    };
    let mut results: Vec<Result<(), Short>> = starts.iter().map(|_| Ok(())).collect();
    if threads.get() == 1 || starts.len() == 1 {
        // the calling thread alone (a payload under two parts' worth): the
        // parts in order, with no queue, lock or thread scope to set up
        let mut rest = &mut *out;
        for (i, &from) in starts.iter().enumerate() {
            let end = starts.get(i + 1).map_or(rest.len(), |&e| e - from);
            let (part, tail) = rest.split_at_mut(end);
            rest = tail;
            results[i] = decode(from, part);
        }
    } else {
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
    }
    // The first part that failed: its first missing byte is the payload's
    // (a later part's failure is at a later offset), and every part before
    // it is whole.
    let failed = starts.iter().zip(results).find_map(|(&from, r)| match r {
        Ok(()) => None,
        Err(Short::End(k)) => Some(Ok(from + k)),
        Err(Short::Io(e)) => Some(Err(e)),
    });
    match failed {
        Some(Err(e)) => return Err(ReadError::Io(e)),
        Some(Ok(decoded)) => feed_stored(&mut engine, &out[..decoded], size, stored),
        None => {
            feed_stored(&mut engine, out, size, stored);
            let mut tail = Cursor {
                src,
                pos: start + declared,
            };
            feed_end(&mut tail, &mut engine, &mut Vec::new(), |_| false)?;
        }
    }
    conclude(engine)
}

/// Feeds `engine` the payload decoded into `native` (elements of `size`
/// bytes, stored in `stored` order) as it was stored, in order, a
/// 256 KiB chunk at a time turned back into stored order through a buffer
/// of its own, until no payload byte can change its findings but by its
/// count ([`Validator::payload_seen_enough`]: once the byte-order test has
/// its sample, on most payloads within the first few MiB); the rest is
/// accounted for by its length.
fn feed_stored(engine: &mut Validator, native: &[u8], size: usize, stored: ByteOrder) {
    // (a small payload's size: a read's fixed cost stays small)
    let mut back = vec![0u8; native.len().min(crate::buffer::CHUNK_LEN)];
    let mut fed = 0;
    for chunk in native.chunks(crate::buffer::CHUNK_LEN) {
        if engine.payload_seen_enough() {
            engine.skip((native.len() - fed) as u64);
            return;
        }
        // the conversion is its own inverse: native order back to stored
        let back = &mut back[..chunk.len()];
        to_native(chunk, back, size, stored);
        engine.feed(back);
        fed += chunk.len();
    }
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

#[cfg(test)]
mod tests {
    use super::{read_array_at, REFUSED_SPAWNS};
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
        let count = (4 * crate::read::MIN_BYTES_PER_THREAD + 3 * (2 << 20)) / 4;
        let mut full = vec![0, 0, 0x0d, 1];
        full.extend_from_slice(&(count as u32).to_be_bytes());
        full.extend((0..count * 4).map(|i| (i * 7 % 251) as u8));
        let mut trailing = full.clone();
        trailing.push(1);
        let cut = full[..full.len() - 4 * crate::read::MIN_BYTES_PER_THREAD / 2].to_vec();
        let h = crate::read::read_header(&mut &full[..]).unwrap(); // ok: test
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
        let count = 8 * crate::read::MIN_BYTES_PER_THREAD;
        let mut file = vec![0, 0, 0x08, 1];
        file.extend_from_slice(&(count as u32).to_be_bytes());
        file.extend((0..count).map(|i| (i % 253) as u8));
        let h = crate::read::read_header(&mut &file[..]).unwrap(); // ok: test
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
        let part = crate::read::MIN_BYTES_PER_THREAD as u64;
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
}
