//! Benchmark baseline: allocate BYTES of fresh memory and write every page
//! of it once, as any decoder's output costs at least (the kernel zeroes
//! each fresh page). `cargo run --release -p idx --example touch -- BYTES`
use std::hint::black_box;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let n: usize = std::env::args()
        .nth(1)
        .ok_or("usage: touch BYTES")?
        .parse()?;
    let v = black_box(vec![1u8; n]);
    println!(
        "{}",
        v.iter().step_by(4096).map(|&b| u64::from(b)).sum::<u64>()
    );
    Ok(())
}
