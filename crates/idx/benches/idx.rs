//! Criterion benchmarks: parse, validate (u8 and f32, with and without the
//! payload lints), decode and write, with throughput in bytes per second.
//! `cargo bench -p idx`
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;

/// An MNIST-sized u8 file (60000 x 28 x 28) and a 64 MiB f32 file.
fn files() -> Vec<(&'static str, Vec<u8>)> {
    let images: Vec<u8> = (0..60000 * 28 * 28)
        .map(|i: u32| (i.wrapping_mul(2654435761) >> 24) as u8)
        .collect();
    let u8_file =
        idx::to_bytes(&idx::Array::from_vec(vec![60000, 28, 28], images).unwrap()).unwrap();
    let n = 16 << 20;
    let signal: Vec<f32> = (0..n).map(|i| (i as f32 / 100.0).sin() * 3.0).collect();
    let f32_file = idx::to_bytes(&idx::Array::from_vec(vec![n], signal).unwrap()).unwrap();
    vec![("u8-mnist-train", u8_file), ("f32-64mib", f32_file)]
}

fn bench(c: &mut Criterion) {
    let files = files();
    let mut g = c.benchmark_group("idx");
    g.sample_size(20);
    for (name, bytes) in &files {
        g.throughput(Throughput::Bytes(bytes.len() as u64));
        g.bench_with_input(
            BenchmarkId::new("parse (zero-copy view)", name),
            bytes,
            |b, f| b.iter(|| idx::parse(black_box(f)).map(|v| v.payload().len())),
        );
        g.bench_with_input(
            BenchmarkId::new("validate with lints", name),
            bytes,
            |b, f| b.iter(|| idx::validate(black_box(f))),
        );
        let no_lints = idx::Options::default()
            .with_lints(false)
            .with_byte_order_test(false);
        g.bench_with_input(
            BenchmarkId::new("validate without lints", name),
            bytes,
            |b, f| b.iter(|| idx::validate_with(black_box(f), &no_lints)),
        );
        g.bench_with_input(
            BenchmarkId::new("validate_reader with lints", name),
            bytes,
            |b, f| b.iter(|| idx::validate_reader(black_box(&f[..]), &idx::Options::default())),
        );
        g.bench_with_input(
            BenchmarkId::new("decode (View::to_array)", name),
            bytes,
            |b, f| {
                let view = idx::parse(f).unwrap();
                b.iter(|| black_box(&view).to_array())
            },
        );
        g.bench_with_input(
            BenchmarkId::new("decode (read_array)", name),
            bytes,
            |b, f| b.iter(|| idx::read_array(black_box(&f[..]))),
        );
        let array = idx::parse(bytes).unwrap().to_array();
        g.bench_with_input(
            BenchmarkId::new("write (to_bytes)", name),
            &array,
            |b, a| b.iter(|| idx::to_bytes(black_box(a))),
        );
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
