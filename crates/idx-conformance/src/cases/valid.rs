//! The valid cases: every type in ranks 1 to 32, MNIST shapes, the byte
//! counts of common layouts in other shapes, and edge values.

use super::case::{valid, Case};
use super::make::{high_rank_shape, indexed, ints, mnist_labels, same_bytes};
use crate::content::{Content, Values};
use idx::ElementType::{self, F32, F64, I16, I32, I8, U8};

pub(super) fn valid_cases(out: &mut Vec<Case>) {
    // rank 32: the highest every numpy supports (spec 7.27); 255 is
    // implementation-defined (IDX304)
    let rank32 = high_rank_shape(32);
    let shapes: [(&str, Vec<u32>); 6] = [
        ("rank1", vec![5]),
        ("rank2", vec![2, 3]),
        ("rank3", vec![2, 3, 4]),
        ("rank4", vec![2, 3, 1, 2]),
        ("rank8", vec![1, 2, 1, 3, 1, 1, 2, 1]),
        ("rank32", rank32),
    ];
    for t in ElementType::ALL {
        for (name, shape) in &shapes {
            out.push(valid(
                &format!("valid-{t}-{name}"),
                &format!(
                    "{t}, shape {shape:?}, each element encoding its own row-major index",
                    shape = if shape.len() > 8 {
                        format!("rank {}", shape.len())
                    } else {
                        format!("{shape:?}")
                    }
                ),
                indexed(t, shape),
                &[],
            ));
        }
    }
    // MNIST-shaped
    let labels = [7, 2, 1, 0, 4, 1, 4, 9, 5, 9];
    out.push(valid(
        "valid-mnist-labels-u8-10",
        "MNIST-shaped label file: 10 labels (the first ten of t10k)",
        ints(U8, &[10], &labels),
        &[],
    ));
    let images: Vec<i64> = (0..3 * 28 * 28)
        .map(|i| ((i / 784) * 80 + (i % 784) / 28 * 3 + (i % 28)) as i64 % 256)
        .collect();
    out.push(valid(
        "valid-mnist-images-u8-3x28x28",
        "MNIST-shaped image file: 3 images of 28 x 28, pixel = item*80 + row*3 + column",
        ints(U8, &[3, 28, 28], &images),
        &[],
    ));
    let big: Vec<i64> = (0..64 * 28 * 28).map(|i| ((i * 7) % 256) as i64).collect();
    out.push(valid(
        "valid-mnist-images-u8-64x28x28",
        "MNIST-shaped image file of 64 items (content given as a SHA-256)",
        ints(U8, &[64, 28, 28], &big),
        &[],
    ));
    // MNIST's own item counts: readers that accept only those (a published
    // Rust crate does) can then show what they do with the twins in
    // invalid/ (trailing bytes, truncation)
    out.push(valid(
        "valid-mnist-labels-u8-10000",
        "a label file of t10k's size: 10,000 labels",
        mnist_labels(10_000),
        &[],
    ));
    // The byte count of a common layout with another shape: a reader that
    // hard-codes a dimension (28 x 28 images, 10,000 or 60,000 items, one
    // channel) and takes the rest from the byte count gets another shape.
    for (shape, like) in [
        (
            &[2u32, 14, 56][..],
            "two 28 x 28 images (784 bytes per item)",
        ),
        (&[3, 56, 14], "three 28 x 28 images (784 bytes per item)"),
        (
            &[1, 2, 28, 28],
            "two 1-channel 28 x 28 images, channels first",
        ),
        (
            &[1, 28, 28, 2],
            "two 1-channel 28 x 28 images, channels last",
        ),
        (&[2, 5000], "t10k's 10,000 labels"),
        (&[2, 30000], "train's 60,000 labels"),
    ] {
        out.push(same_bytes(shape, like));
    }
    out.push(valid("valid-transpose-i16-2x7", "non-square i16 matrix whose values are 100*row + column: a transposing reader gets other values", ints(I16, &[2, 7], &(0..14).map(|i| (i / 7) * 100 + i % 7).collect::<Vec<_>>()), &[]));
    // edge values
    out.push(valid(
        "valid-edge-u8",
        "u8 extremes",
        ints(U8, &[6], &[0, 1, 127, 128, 254, 255]),
        &[],
    ));
    out.push(valid(
        "valid-edge-i8",
        "i8 extremes: a reader that reads i8 as u8 is caught",
        ints(I8, &[7], &[-128, -127, -1, 0, 1, 126, 127]),
        &[],
    ));
    out.push(valid(
        "valid-edge-i16",
        "i16 extremes and byte-order probes (255, 256)",
        ints(
            I16,
            &[9],
            &[-32768, -32767, -256, -1, 0, 1, 255, 256, 32767],
        ),
        &[],
    ));
    out.push(valid(
        "valid-edge-i32",
        "i32 extremes and byte-order probes",
        ints(
            I32,
            &[11],
            &[
                i32::MIN as i64,
                i32::MIN as i64 + 1,
                -65536,
                -1,
                0,
                1,
                255,
                256,
                65536,
                16_777_216,
                i32::MAX as i64,
            ],
        ),
        &[],
    ));
    let f32_bits: Vec<u32> = vec![
        0x0000_0000,
        0x8000_0000,
        0x3f80_0000,
        0xbf80_0000,
        0x0000_0001,
        0x007f_ffff,
        0x0080_0000,
        0x7f7f_ffff,
        0xff7f_ffff,
        0x7f80_0000,
        0xff80_0000,
        0x7fc0_0000,
        0x7fc0_0001,
        0xffc0_0000,
        0x7f80_0001,
        0x7fbf_ffff,
        0x4049_0fdb,
    ];
    out.push(valid(
        "valid-edge-f32",
        "f32 bit patterns: +-0, +-1, subnormals, largest finite, +-inf, quiet and signalling NaNs with payloads, pi; a reader that converts instead of reinterpreting bits is caught",
        Content { dtype: F32, shape: vec![17], values: Values::F32(f32_bits) },
        &[("IDX502", 8 + 9 * 4, 4)],
    ));
    let f64_bits: Vec<u64> = vec![
        0,
        0x8000_0000_0000_0000,
        0x3ff0_0000_0000_0000,
        0xbff0_0000_0000_0000,
        1,
        0x000f_ffff_ffff_ffff,
        0x0010_0000_0000_0000,
        0x7fef_ffff_ffff_ffff,
        0xffef_ffff_ffff_ffff,
        0x7ff0_0000_0000_0000,
        0xfff0_0000_0000_0000,
        0x7ff8_0000_0000_0000,
        0x7ff8_0000_0000_0001,
        0xfff8_0000_0000_0000,
        0x7ff0_0000_0000_0001,
        0x7ff7_ffff_ffff_ffff,
        0x4009_21fb_5444_2d18,
    ];
    out.push(valid(
        "valid-edge-f64",
        "f64 bit patterns: +-0, +-1, subnormals, largest finite, +-inf, quiet and signalling NaNs with payloads, pi",
        Content { dtype: F64, shape: vec![17], values: Values::F64(f64_bits) },
        &[("IDX502", 8 + 9 * 8, 8)],
    ));
}
