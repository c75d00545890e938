//! `read_array_at` (a source read at offsets, the payload decoded in
//! parallel parts) accepts exactly what `read_array` accepts, with the same
//! errors, whatever the number of threads; the parts do run at once, and
//! the first failing part gives the error.

use crate::support::{outcome_of, via_read_into, Outcome};
use idx::__private::MIN_BYTES_PER_THREAD;
use idx::{ReadAt, ReadError};
use std::collections::HashSet;
use std::io;
use std::num::NonZeroUsize;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::Duration;

fn via_read_at<S: ReadAt + ?Sized>(src: &S, bytes: &[u8], threads: usize) -> Outcome {
    let h = idx::__private::read_header(&mut &bytes[..]).map_err(outcome_of)?;
    let mut out = vec![0u8; usize::try_from(h.payload_len()).unwrap()]; // ok: test sizes
    let threads = NonZeroUsize::new(threads).unwrap(); // ok: test inputs
    idx::fuzzing::read_array_at(src, &h, &mut out, threads).map_err(outcome_of)?;
    Ok((h.dims().iter().map(|&d| d as usize).collect(), out))
}

/// Bytes seen only through `read_at` (as a file is), so that the buffered
/// path is tested as well as the in-memory one.
struct Opaque<'a>(&'a [u8]);

impl ReadAt for Opaque<'_> {
    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
        // at most 1000 bytes a call, as a short read may be
        let n = buf.len().min(1000);
        self.0.read_at(&mut buf[..n], offset)
    }

    fn len(&self) -> io::Result<u64> {
        Ok(self.0.len() as u64)
    }
}

fn seeded_encoding(code: u8, dims: &[u32], seed: u8) -> Vec<u8> {
    let t = idx::ElementType::from_code(code).unwrap(); // ok: test inputs
    let mut b = vec![0, 0, code, dims.len() as u8];
    for &d in dims {
        b.extend_from_slice(&d.to_be_bytes());
    }
    let n = dims.iter().map(|&d| d as usize).product::<usize>() * t.size();
    b.extend((0..n).map(|i| (i as u8).wrapping_mul(31).wrapping_add(seed)));
    b
}

#[test]
fn read_at_equals_read_array_on_every_prefix_and_extension() {
    for code in [0x08, 0x09, 0x0B, 0x0C, 0x0D, 0x0E] {
        for dims in [&[][..], &[3], &[2, 3], &[0, 4], &[2, 1, 5]] {
            let full = seeded_encoding(code, dims, 0x80);
            let mut cases: Vec<Vec<u8>> = (0..=full.len()).map(|c| full[..c].to_vec()).collect();
            for extra in 1..5 {
                let mut b = full.clone();
                b.extend(std::iter::repeat_n(9u8, extra));
                cases.push(b);
            }
            for b in &cases {
                for threads in 1..=4 {
                    let want = via_read_into(b);
                    let why = format!("{code:#x} {dims:?} {} bytes, {threads} threads", b.len());
                    assert_eq!(via_read_at(&b[..], b, threads), want, "{why}");
                    assert_eq!(via_read_at(&Opaque(b), b, threads), want, "{why}, opaque");
                }
            }
        }
    }
}

#[test]
fn parts_decode_and_locate_truncation_and_trailing_bytes_as_one_pass_does() {
    // three parts and a bit, for each element size; cut inside the first
    // part, on a chunk boundary, inside the last part, one element short,
    // whole, and with trailing bytes
    for (code, size) in [(0x08u8, 1usize), (0x0B, 2), (0x0D, 4), (0x0E, 8)] {
        let count = (3 * MIN_BYTES_PER_THREAD + 4 * idx::fuzzing::CHUNK_LEN + 24) / size;
        let full = seeded_encoding(code, &[count as u32], size as u8);
        let header = full.len() - count * size;
        let mut cases = vec![
            full[..header + 1000].to_vec(),
            // on a chunk boundary
            full[..header + 4 * idx::fuzzing::CHUNK_LEN].to_vec(),
            full[..full.len() - 3 * size].to_vec(),
            full[..full.len() - 1].to_vec(),
            full.clone(),
        ];
        let mut trailing = full.clone();
        trailing.extend([0, 0, 8, 1, 2]);
        cases.push(trailing);
        for b in &cases {
            let want = via_read_into(b);
            for threads in [1, 2, 3, 4, 7] {
                let why = format!(
                    "{code:#x}: {} of {} bytes, {threads} threads",
                    b.len(),
                    full.len()
                );
                assert_eq!(via_read_at(&b[..], b, threads), want, "{why}");
                assert_eq!(via_read_at(&Opaque(b), b, threads), want, "{why}, opaque");
            }
        }
    }
}

/// Bytes that record which threads read them, can fail at offsets (each
/// with its own message), and can hold each thread's first payload read
/// until `meet` threads have arrived (at most 20 s), noting whether they
/// all did.
struct Recorded<'a> {
    bytes: &'a [u8],
    threads: Mutex<HashSet<std::thread::ThreadId>>,
    fail_at: Vec<u64>,
    meet: usize,
    arrived: Condvar,
    missed: AtomicBool,
}

impl<'a> Recorded<'a> {
    fn new(bytes: &'a [u8]) -> Self {
        Recorded {
            bytes,
            threads: Mutex::default(),
            fail_at: Vec::new(),
            meet: 0,
            arrived: Condvar::new(),
            missed: AtomicBool::new(false),
        }
    }
}

impl ReadAt for Recorded<'_> {
    fn len(&self) -> io::Result<u64> {
        Ok(self.bytes.len() as u64)
    }

    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
        let mut seen = self.threads.lock().unwrap(); // ok: test
        if seen.insert(std::thread::current().id()) && self.meet > 0 {
            self.arrived.notify_all();
            let (guard, wait) = self
                .arrived
                .wait_timeout_while(seen, Duration::from_secs(20), |s| s.len() < self.meet)
                .unwrap(); // ok: test
            drop(guard);
            if wait.timed_out() {
                self.missed.store(true, Ordering::Relaxed);
            }
        } else {
            drop(seen);
        }
        let end = offset + buf.len() as u64;
        if let Some(f) = self.fail_at.iter().find(|&&f| (offset..end).contains(&f)) {
            return Err(io::Error::other(format!("the disk is on fire at {f}")));
        }
        self.bytes.read_at(buf, offset)
    }
}

// WASI preview 1 has no threads (see the next test).
#[cfg(not(target_os = "wasi"))]
#[test]
fn the_parts_are_decoded_at_the_same_time() {
    // each part's first read waits for the others' (a decode one part
    // after another would wait 20 s and fail)
    for (threads, parts) in [(2, 2), (3, 3), (4, 4), (6, 4)] {
        let count = 3 * MIN_BYTES_PER_THREAD / 4 + 3 * (2 << 20) / 4 + 100;
        let full = seeded_encoding(0x0D, &[count as u32], 3);
        let mut src = Recorded::new(&full);
        src.meet = parts;
        assert_eq!(via_read_at(&src, &full, threads), via_read_into(&full));
        assert!(
            !src.missed.load(Ordering::Relaxed),
            "{threads} threads asked"
        );
        // the caller decodes the first part (and checks the end)
        let seen = src.threads.lock().unwrap().len(); // ok: test
        assert_eq!(seen, parts, "{threads} threads asked");
    }
    // one thread asked: the caller alone
    let full = seeded_encoding(0x0D, &[(2 * MIN_BYTES_PER_THREAD / 4) as u32], 3);
    let src = Recorded::new(&full);
    assert_eq!(via_read_at(&src, &full, 1), via_read_into(&full));
    assert_eq!(src.threads.lock().unwrap().len(), 1); // ok: test
}

// Where no thread can be started (WASI preview 1), a decode asked for
// several threads is done by the caller alone, with the same result.
#[cfg(target_os = "wasi")]
#[test]
fn without_threads_the_caller_decodes_every_part() {
    let count = 3 * MIN_BYTES_PER_THREAD / 4 + 100;
    let full = seeded_encoding(0x0D, &[count as u32], 3);
    for threads in [2, 4] {
        let src = Recorded::new(&full);
        assert_eq!(via_read_at(&src, &full, threads), via_read_into(&full));
        assert_eq!(src.threads.lock().unwrap().len(), 1); // ok: test
    }
}

#[test]
fn the_first_failing_part_gives_the_error() {
    let count = 3 * MIN_BYTES_PER_THREAD + 3 * (2 << 20) + 8;
    let full = seeded_encoding(0x08, &[count as u32], 5);
    let h = idx::__private::read_header(&mut &full[..]).unwrap(); // ok: test
    let third = full.len() as u64 / 3;
    let decode = |src: &Recorded<'_>| {
        let mut out = vec![0u8; count];
        idx::fuzzing::read_array_at(src, &h, &mut out, NonZeroUsize::new(3).unwrap())
        // ok: test
    };
    // one failing read anywhere: its error
    for at in [100u64, third + 5, full.len() as u64 - 2] {
        let mut src = Recorded::new(&full);
        src.fail_at = vec![at];
        match decode(&src) {
            Err(ReadError::Io(e)) => {
                assert_eq!(e.to_string(), format!("the disk is on fire at {at}"))
            }
            other => panic!("failing at {at}: {other:?}"), // ok: test
        }
    }
    // failing reads in every part: the first part's
    let mut src = Recorded::new(&full);
    src.fail_at = vec![full.len() as u64 - 2, third + 5, 100];
    match decode(&src) {
        Err(ReadError::Io(e)) => assert_eq!(e.to_string(), "the disk is on fire at 100"),
        other => panic!("{other:?}"), // ok: test
    }
    // cut short in the first part and failing in the last: IDX202 where
    // the data ends, as one pass reads it
    let cut = &full[..1000];
    let mut src = Recorded::new(cut);
    src.fail_at = vec![full.len() as u64 - 2];
    match decode(&src) {
        Err(ReadError::Invalid(e)) => {
            assert_eq!((e.rule().code(), e.offset()), ("IDX202", 1000));
            assert_eq!(Err(("IDX202".to_string(), 1000)), via_read_into(cut));
        }
        other => panic!("{other:?}"), // ok: test
    }
}

// A file is a `ReadAt` where the standard library reads at offsets: Unix
// and Windows (not WASI, whose `FileExt` is unstable).
#[cfg(any(unix, windows))]
#[test]
fn a_file_is_read_at_offsets() {
    let count = 2 * MIN_BYTES_PER_THREAD / 2 + 77;
    let full = seeded_encoding(0x0B, &[count as u32], 11);
    let mut tmp = tempfile::tempfile().unwrap(); // ok: test
    io::Write::write_all(&mut tmp, &full).unwrap(); // ok: test
    assert_eq!(via_read_at(&tmp, &full, 2), via_read_into(&full));
    // a file that shrank after its length was checked: IDX202 at its end
    tmp.set_len(full.len() as u64 - 10).unwrap(); // ok: test
    let got = via_read_at(&tmp, &full, 2);
    assert_eq!(got, via_read_into(&full[..full.len() - 10]));
    assert_eq!(got.unwrap_err().0, "IDX202");
}

#[test]
fn read_at_refuses_a_destination_of_the_wrong_length() {
    let bytes = seeded_encoding(0x08, &[4], 1);
    let h = idx::__private::read_header(&mut &bytes[..]).unwrap(); // ok: test
    let mut out = [0u8; 3];
    match idx::fuzzing::read_array_at(&bytes[..], &h, &mut out, NonZeroUsize::MIN) {
        Err(ReadError::Io(e)) => assert_eq!(e.kind(), io::ErrorKind::InvalidInput),
        other => panic!("{other:?}"), // ok: test
    }
}

#[test]
fn a_source_says_whether_it_is_empty_and_whether_it_is_bytes_in_memory() {
    let bytes: &[u8] = &[0, 0, 0x08, 1, 0, 0, 0, 1, 7];
    assert!(!ReadAt::is_empty(bytes).unwrap()); // ok: test
    assert!(ReadAt::is_empty(&bytes[..0]).unwrap()); // ok: test
                                                     // bytes in memory are handed over whole (decoded without a copy), by
                                                     // reference too; a source of any other kind is read at offsets
    assert_eq!(bytes.as_bytes(), Some(bytes));
    assert_eq!((&bytes).as_bytes(), Some(bytes));
    // (a reference is the source it refers to: `Self = &[u8]` here)
    assert_eq!(ReadAt::len(&bytes).unwrap(), 9); // ok: test
    assert_eq!(ReadAt::len(&&Opaque(bytes)).unwrap(), 9); // ok: test
    assert!(ReadAt::is_empty(&&bytes[..0]).unwrap()); // ok: test
    assert_eq!(Opaque(bytes).as_bytes(), None);
    assert!(!ReadAt::is_empty(&Opaque(bytes)).unwrap()); // ok: test
    assert!(ReadAt::is_empty(&Opaque(&[])).unwrap()); // ok: test
    #[cfg(any(unix, windows))]
    {
        let mut tmp = tempfile::tempfile().unwrap(); // ok: test
        assert!(ReadAt::is_empty(&tmp).unwrap()); // ok: test
        io::Write::write_all(&mut tmp, bytes).unwrap(); // ok: test
        assert!(!ReadAt::is_empty(&tmp).unwrap()); // ok: test
        assert_eq!(ReadAt::len(&tmp).unwrap(), 9); // ok: test
        assert_eq!(tmp.as_bytes(), None);
    }
}

#[test]
fn a_read_error_keeps_the_finding_or_the_sources_error_as_its_source() {
    use std::error::Error;
    // a not-IDX input: the finding's error
    let e = idx::Reader::new(
        &b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR"[..],
        &idx::ReadOptions::default(),
    )
    .unwrap_err(); // ok: test
    let src = e
        .source()
        .expect("an invalid input's error has the finding as its source");
    assert_eq!(src.to_string(), e.to_string());
    // the source's own failure
    #[derive(Debug)]
    struct Broken;
    impl io::Read for Broken {
        fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
            Err(io::Error::new(io::ErrorKind::PermissionDenied, "not yours"))
        }
    }
    let e = idx::Reader::new(Broken, &idx::ReadOptions::default()).unwrap_err(); // ok: test
    assert!(matches!(e, ReadError::Io(_)), "{e:?}");
    assert_eq!(e.to_string(), "read failed: not yours");
    assert_eq!(
        e.source().map(|s| s.to_string()).as_deref(),
        Some("not yours")
    );
}
