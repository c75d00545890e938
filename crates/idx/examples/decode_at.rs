//! Benchmark driver: decode a whole IDX file into a fresh buffer with
//! `idx::__private::read_header` and `idx::fuzzing::read_array_at` (the payload read at offsets
//! in THREADS parallel parts, default: the machine's cores); print the
//! seconds and a checksum. Unlike `decode_into`'s later runs, the buffer is
//! fresh memory, so its page faults are in the time, as in a loader that
//! returns a new array (`idxkit.load`).
//! `cargo run --release -p idx --example decode_at -- FILE [THREADS]`
use std::num::NonZeroUsize;
use std::time::Instant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args.next().ok_or("usage: decode_at FILE [THREADS]")?;
    let threads: NonZeroUsize = match args.next() {
        Some(t) => t.parse()?,
        None => std::thread::available_parallelism()?,
    };
    let t = Instant::now();
    let f = std::fs::File::open(&path)?;
    let h = idx::__private::read_header(&mut &f)?;
    let mut out = vec![0u8; usize::try_from(h.payload_len())?];
    idx::fuzzing::read_array_at(&f, &h, &mut out, threads)?;
    let secs = t.elapsed().as_secs_f64();
    let check: u64 = out.iter().step_by(4096).map(|&b| u64::from(b)).sum();
    println!("{secs:.6} {check} ({threads} threads)");
    Ok(())
}
