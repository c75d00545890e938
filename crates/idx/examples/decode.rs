//! Benchmark driver: decode a whole IDX file into an owned native-endian
//! array with `idx::fuzzing::read_array` (one pass, no copy of the file held); print the seconds taken (read + decode) and
//! a checksum. `cargo run --release -p idx --example decode -- FILE [RUNS]`
use std::time::Instant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args.next().ok_or("usage: decode FILE [RUNS]")?;
    let runs: usize = args.next().map_or(Ok(1), |r| r.parse())?;
    for _ in 0..runs {
        let t = Instant::now();
        let array = idx::fuzzing::read_array(std::fs::File::open(&path)?)?;
        let secs = t.elapsed().as_secs_f64();
        let check = match array.data() {
            idx::Data::U8(v) => v.iter().map(|&x| u64::from(x)).sum::<u64>() as f64,
            idx::Data::F32(v) => v.iter().step_by(4096).map(|&x| f64::from(x)).sum::<f64>(),
            _ => 0.0,
        };
        println!("{secs:.6} {check}");
    }
    Ok(())
}
