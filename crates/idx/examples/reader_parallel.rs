//! Times `Reader::at` + `Reader::read_into_parallel` of one file into fresh
//! memory (its page faults in the time, as in a loader that returns a new
//! array), in THREADS parallel parts (default: the machine's cores).
//!
//! `cargo run --release -p idx --example reader_parallel -- FILE [THREADS] [RUNS]`
//! prints, per run, the seconds, the number of warnings and a checksum.
use std::num::NonZeroUsize;
use std::time::Instant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args
        .next()
        .ok_or("usage: reader_parallel FILE [THREADS] [RUNS]")?;
    let threads: NonZeroUsize = match args.next() {
        Some(t) => t.parse()?,
        None => std::thread::available_parallelism()?,
    };
    let runs: usize = args.next().map_or(Ok(1), |r| r.parse())?;
    let opts = idx::ReadOptions::default();
    for _ in 0..runs {
        let t = Instant::now();
        let f = std::fs::File::open(&path)?;
        let reader = idx::Reader::at(&f, &opts)?;
        let n = reader.output_buffer_size()?.ok_or("not a whole raw file")?;
        let mut out = vec![0u8; n];
        let warnings = reader.read_into_parallel(&mut out, threads)?;
        let secs = t.elapsed().as_secs_f64();
        let check: u64 = out.iter().step_by(4096).map(|&b| u64::from(b)).sum();
        println!("{secs:.6} {} {check} ({threads} threads)", warnings.len());
    }
    Ok(())
}
