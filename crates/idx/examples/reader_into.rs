//! Times `Reader::read_into` (into a reused buffer) and `Reader::read_array`
//! of one file, in process: the front ends' way of loading a file.
//!
//! `cargo run --release -p idx --example reader_into -- FILE [RUNS] [LOOPS]`
//! prints, per run, the seconds of `read_into` and of `read_array`; with
//! LOOPS, the file is read from memory LOOPS times per run instead and the
//! microseconds per call are printed (a reader's fixed cost per file).
use std::time::Instant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args.next().ok_or("usage: reader_into FILE [RUNS]")?;
    let runs: usize = args.next().map_or(Ok(1), |r| r.parse())?;
    let opts = idx::ReadOptions::default();
    let mut out: Vec<u8> = Vec::new();
    if let Some(loops) = args.next() {
        let loops: u32 = loops.parse()?;
        let bytes = std::fs::read(&path)?;
        for _ in 0..runs {
            let t = Instant::now();
            for _ in 0..loops {
                let reader = idx::Reader::new(&bytes[..], &opts)?;
                out.resize(usize::try_from(reader.header().payload_len())?, 0);
                std::hint::black_box(reader.read_into(&mut out)?);
            }
            let into = t.elapsed().as_secs_f64() * 1e6 / f64::from(loops);
            let t = Instant::now();
            for _ in 0..loops {
                std::hint::black_box(idx::Reader::new(&bytes[..], &opts)?.read_array()?);
            }
            let whole = t.elapsed().as_secs_f64() * 1e6 / f64::from(loops);
            println!("{into:.3} {whole:.3} us per call");
        }
        return Ok(());
    }
    for _ in 0..runs {
        let t = Instant::now();
        let reader = idx::Reader::new(std::fs::File::open(&path)?, &opts)?;
        let n = usize::try_from(reader.header().payload_len())?;
        out.resize(n, 0);
        let warnings = reader.read_into(&mut out)?;
        let into = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let (array, _) = idx::Reader::new(std::fs::File::open(&path)?, &opts)?.read_array()?;
        let whole = t.elapsed().as_secs_f64();
        let check: u64 = out.iter().step_by(4096).map(|&b| u64::from(b)).sum();
        println!(
            "{into:.6} {whole:.6} {check} {} {}",
            warnings.len(),
            array.dims().len()
        );
    }
    Ok(())
}
