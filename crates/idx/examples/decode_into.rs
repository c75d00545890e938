//! Benchmark driver: decode a whole IDX file with `idx::__private::read_header` and
//! `idx::fuzzing::read_array_into` into one caller-owned buffer, RUNS times (as a
//! loader that reuses its output buffer does); print the seconds of each
//! decode (read + byte swap) and a checksum. The first run also pays for
//! the buffer's fresh pages; later runs show the decoder alone.
//! `cargo run --release -p idx --example decode_into -- FILE [RUNS]`
use std::time::Instant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args.next().ok_or("usage: decode_into FILE [RUNS]")?;
    let runs: usize = args.next().map_or(Ok(1), |r| r.parse())?;
    let mut out: Vec<u8> = Vec::new();
    for _ in 0..runs {
        let t = Instant::now();
        let mut f = std::fs::File::open(&path)?;
        let h = idx::__private::read_header(&mut f)?;
        let n = usize::try_from(h.payload_len())?;
        out.resize(n, 0);
        idx::fuzzing::read_array_into(&mut f, &h, &mut out)?;
        let secs = t.elapsed().as_secs_f64();
        let check: u64 = out.iter().step_by(4096).map(|&b| u64::from(b)).sum();
        println!("{secs:.6} {check}");
    }
    Ok(())
}
