//! Benchmark driver: decode FILE into an owned array (untimed), then time
//! writing it back as IDX into memory. `... --example encode -- FILE [RUNS]`
use std::time::Instant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args.next().ok_or("usage: encode FILE [RUNS]")?;
    let runs: usize = args.next().map_or(Ok(1), |r| r.parse())?;
    let bytes = std::fs::read(&path)?;
    let array = idx::parse(&bytes)?.to_array();
    for _ in 0..runs {
        let t = Instant::now();
        let out = idx::to_bytes(&array)?;
        let secs = t.elapsed().as_secs_f64();
        println!("{secs:.6} {}", usize::from(out == bytes));
    }
    Ok(())
}
