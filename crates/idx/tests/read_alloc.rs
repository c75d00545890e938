//! `read_array` reserves memory only as payload bytes arrive: a header that
//! declares a large array over a short stream costs what the stream holds
//! (plus the fixed read buffer), not what the header says. Measured with a
//! counting global allocator (this test binary's own; one test, so no other
//! test allocates meanwhile).

use stats_alloc::{Region, StatsAlloc, INSTRUMENTED_SYSTEM};
use std::alloc::System;

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

#[test]
fn memory_follows_the_bytes_read_not_the_header() {
    // f64 [16777216] (128 MiB declared), then 64 bytes of payload
    let mut b = vec![0, 0, 0x0e, 1, 1, 0, 0, 0];
    b.extend([0x3f; 64]);
    let region = Region::new(GLOBAL);
    let r = idx::fuzzing::read_array(&b[..]);
    let got = region.change().bytes_allocated;
    assert!(r.is_err(), "truncated");
    assert!(got < 1 << 20, "{got} bytes allocated for a 72-byte stream");

    // u8 [3 MiB], whole: the array (doubling as it grows) and the buffer
    let n = 3usize << 20;
    let mut b = vec![0, 0, 0x08, 1];
    b.extend((n as u32).to_be_bytes());
    b.extend((0..n).map(|i| i as u8));
    let region = Region::new(GLOBAL);
    let a = idx::fuzzing::read_array(&b[..]).unwrap();
    let got = region.change().bytes_allocated;
    assert_eq!(a.dims(), &[n]);
    assert!(got <= 3 * n, "{got} bytes allocated for {n} elements");
    // reserved up to the declared count and no further: no slack in the array
    match a.data() {
        idx::Data::U8(v) => assert_eq!(v.capacity(), n),
        other => panic!("{:?}", other.dtype()),
    }

    // f64 [100000] and [300000] (0.8 and 2.4 MB, not whole numbers of
    // 256 KiB chunks): the same, for elements of more than one byte (where
    // the array's own doubling would overshoot the count)
    for n in [100_000usize, 300_000] {
        let mut b = vec![0, 0, 0x0e, 1];
        b.extend((n as u32).to_be_bytes());
        b.extend((0..n).flat_map(|i| (i as f64).to_be_bytes()));
        let a = idx::fuzzing::read_array(&b[..]).unwrap();
        match a.data() {
            idx::Data::F64(v) => assert_eq!((v.len(), v.capacity()), (n, n)),
            other => panic!("{:?}", other.dtype()),
        }
    }

    // f64 [16777216] (128 MiB declared) over 384 KiB of payload (a chunk
    // and a half): the array at most doubles past the bytes read, so all
    // that is allocated is the array's 256 KiB then 512 KiB, the 260 KiB
    // buffer and small change; never the next steps of the declared size
    let read: usize = 384 << 10;
    let mut b = vec![0, 0, 0x0e, 1, 1, 0, 0, 0];
    b.extend((0..read).map(|i| (i % 251) as u8));
    // (stats_alloc counts what a reallocation grows by as allocated too)
    let region = Region::new(GLOBAL);
    let r = idx::fuzzing::read_array(&b[..]);
    let got = region.change().bytes_allocated;
    assert!(r.is_err(), "truncated");
    assert!(
        got <= 2 * read + (300 << 10),
        "{got} bytes allocated for {read} bytes of payload"
    );
}
