//! Criterion benchmarks: parse, validate (u8 and f32, with and without the
//! payload lints), decode and write, with throughput in bytes per second;
//! and the byte-order test's fixed cost on 1 MiB (its score per type, and a
//! 1 MiB f32 read with and without the verdict).
//! `cargo bench -p idx --bench idx`
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
            |b, f| b.iter(|| idx::fuzzing::read_array(black_box(&f[..]))),
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

/// 1 MiB of xorshift bytes: every element distinct, the most a 1 MiB
/// payload asks of the byte-order test.
fn random_mib() -> Vec<u8> {
    let mut x: u64 = 0x1234_5678_9abc_def1;
    (0..1 << 20)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect()
}

fn byte_order(c: &mut Criterion) {
    let mut g = c.benchmark_group("byte-order test");
    g.sample_size(50);
    let bytes = random_mib();
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    for t in [
        idx::ElementType::I16,
        idx::ElementType::I32,
        idx::ElementType::F32,
        idx::ElementType::F64,
    ] {
        g.bench_with_input(BenchmarkId::new("score 1 MiB random", t), &bytes, |b, p| {
            b.iter(|| idx::lint::byteorder::score(t, black_box(p)))
        });
    }
    // what the verdict adds to reading 1 MiB of a smooth f32 payload
    let n = 1 << 18;
    let signal: Vec<f32> = (0..n).map(|i| (i as f32 / 100.0).sin() * 3.0).collect();
    let file = idx::to_bytes(&idx::Array::from_vec(vec![n], signal).unwrap()).unwrap();
    let mut out = vec![0u8; 4 * n];
    for (name, stated) in [
        ("read_into 1 MiB f32 (verdict)", None),
        (
            "read_into 1 MiB f32 (stated big: no verdict)",
            Some(idx::ByteOrder::Big),
        ),
    ] {
        let opts = idx::ReadOptions::default().with_byte_order(stated);
        g.bench_function(name, |b| {
            b.iter(|| {
                idx::Reader::new(black_box(&file[..]), &opts)
                    .and_then(|r| r.read_into(&mut out))
                    .unwrap()
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench, byte_order);
criterion_main!(benches);
