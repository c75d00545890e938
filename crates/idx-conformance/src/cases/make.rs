//! What the recipes build their files from: spaced hex, stable gzip,
//! contents whose elements encode their own index, MNIST-shaped contents
//! and shapes.

use super::case::{valid, Case};
use crate::content::{Content, Values};
use idx::ElementType::{self, F32, F64, I16, I32, I8, U8};
use std::io::Write;

/// Spaced hex to bytes (recipes only; a typo is a bug in the corpus).
pub(super) fn hx(s: &str) -> Vec<u8> {
    s.split_whitespace()
        .map(|b| u8::from_str_radix(b, 16).unwrap_or_else(|_| panic!("bad hex {b:?} in a recipe"))) // ok: recipes are our own constants
        .collect()
}

/// gzip with stored (uncompressed) blocks: stable bytes whatever the
/// deflate implementation's version.
pub fn gzip_stored(bytes: &[u8]) -> Vec<u8> {
    gzip_level(bytes, flate2::Compression::none())
}

pub(super) fn gzip_level(bytes: &[u8], level: flate2::Compression) -> Vec<u8> {
    let mut e = flate2::GzBuilder::new().mtime(0).write(Vec::new(), level);
    // invariant: writing to a Vec cannot fail
    e.write_all(bytes).expect("write to Vec"); // invariant: a Vec never fails
    e.finish().expect("write to Vec") // invariant: a Vec never fails
}

/// Values that encode their own flat index, distinct per type, so that a
/// reader that transposes, drops or shifts elements is caught.
pub fn index_values(dtype: ElementType, n: usize) -> Values {
    match dtype {
        U8 => Values::Int((0..n).map(|i| (i % 251) as i64).collect()),
        I8 => Values::Int((0..n).map(|i| (i % 251) as i64 - 125).collect()),
        I16 => Values::Int(
            (0..n)
                .map(|i| (i as i64 * 7 - 1000).clamp(-32768, 32767))
                .collect(),
        ),
        I32 => Values::Int((0..n).map(|i| i as i64 * 100_003 - 5_000_000).collect()),
        F32 => Values::F32((0..n).map(|i| (i as f32 + 0.25).to_bits()).collect()),
        F64 => Values::F64((0..n).map(|i| (i as f64 * 0.5 - 3.0).to_bits()).collect()),
    }
}

pub(super) fn indexed(dtype: ElementType, shape: &[u32]) -> Content {
    let n = shape.iter().map(|&d| d as usize).product();
    Content {
        dtype,
        shape: shape.to_vec(),
        values: index_values(dtype, n),
    }
}

pub(super) fn ints(dtype: ElementType, shape: &[u32], v: &[i64]) -> Content {
    Content {
        dtype,
        shape: shape.to_vec(),
        values: Values::Int(v.to_vec()),
    }
}

/// `n` labels 0 to 9 in a fixed, irregular order.
pub(super) fn mnist_labels(n: usize) -> Content {
    let v = (0..n)
        .map(|i| ((i * 7919 + i / 13) % 10) as i64)
        .collect::<Vec<_>>();
    ints(U8, &[n as u32], &v)
}

/// `n` 28 x 28 u8 images; every pixel depends on item, row and column.
pub(super) fn mnist_images(n: usize) -> Content {
    let v = (0..n * 784)
        .map(|i| ((i / 784) * 31 + (i % 784) / 28 * 5 + (i % 28) * 3) as i64 % 256)
        .collect::<Vec<_>>();
    ints(U8, &[n as u32, 28, 28], &v)
}

/// `valid-u8-same-bytes-<shape>`: u8 of `shape`, each element encoding its
/// own index, whose payload is as long as that of `like`.
pub(super) fn same_bytes(shape: &[u32], like: &str) -> Case {
    let dims: Vec<String> = shape.iter().map(u32::to_string).collect();
    valid(
        &format!("valid-u8-same-bytes-{}", dims.join("x")),
        &format!(
            "u8, shape {shape:?}, each element encoding its own index: the byte count of \
             {like} in another shape, which a reader that hard-codes that layout's dimensions \
             gets wrong"
        ),
        indexed(U8, shape),
        &[],
    )
}

/// Shape of rank `rank`, all ones but 2 first and 3 last.
pub(super) fn high_rank_shape(rank: usize) -> Vec<u32> {
    let mut s = vec![1u32; rank];
    s[0] = 2;
    s[rank - 1] = 3;
    s
}
