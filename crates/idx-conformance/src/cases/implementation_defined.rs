//! The implementation-defined cases: valid files that are not portable
//! (high ranks, empty shapes, little-endian payloads) and gzip, which a
//! reader MAY open.

use super::case::{implementation_defined, Case};
use super::make::{gzip_stored, high_rank_shape, indexed, ints};
use crate::content::{Content, Values};
use idx::ElementType::{self, F32, F64, I16, I32, U8};

pub(super) fn implementation_defined_cases(out: &mut Vec<Case>) {
    // ranks above 32 (IDX304, spec 7.27): 33 fails numpy 1.x, 65 every numpy
    for t in ElementType::ALL {
        let c = indexed(t, &high_rank_shape(255));
        out.push(implementation_defined(
            &format!("impl-rank255-{t}"),
            &format!("{t}, rank 255 (the largest), shape [2, 1 x 253, 3]: every numpy-based reader rejects it"),
            c.clone(),
            c.golden_bytes(),
            &[("IDX304", 3, 1)],
        ));
    }
    for (rank, why) in [
        (33, "the lowest rank numpy before 2.0 rejects"),
        (65, "the lowest rank numpy 2 rejects"),
    ] {
        let c = indexed(U8, &high_rank_shape(rank));
        out.push(implementation_defined(
            &format!("impl-rank{rank}-u8"),
            &format!("u8, rank {rank}, shape [2, 1 x {}, 3]: {why}", rank - 2),
            c.clone(),
            c.golden_bytes(),
            &[("IDX304", 3, 1)],
        ));
    }
    let c = ints(U8, &[], &[42]);
    out.push(implementation_defined(
        "impl-rank0-u8",
        "rank 0: one u8 scalar (42)",
        c.clone(),
        c.golden_bytes(),
        &[("IDX301", 3, 1)],
    ));
    let c = Content {
        dtype: F64,
        shape: vec![],
        values: Values::F64(vec![std::f64::consts::PI.to_bits()]),
    };
    out.push(implementation_defined(
        "impl-rank0-f64",
        "rank 0: one f64 scalar (pi)",
        c.clone(),
        c.golden_bytes(),
        &[("IDX301", 3, 1)],
    ));
    let c = ints(U8, &[0], &[]);
    out.push(implementation_defined(
        "impl-zero-dim-u8-0",
        "rank 1 with dimension 0: no elements",
        c.clone(),
        c.golden_bytes(),
        &[("IDX302", 4, 4)],
    ));
    let c = ints(I32, &[3, 0], &[]);
    out.push(implementation_defined(
        "impl-zero-dim-i32-3x0",
        "shape [3, 0]: no elements",
        c.clone(),
        c.golden_bytes(),
        &[("IDX302", 8, 4)],
    ));
    let c = ints(U8, &[1 << 31, 0], &[]);
    out.push(implementation_defined(
        "impl-large-dim-u8-2147483648x0",
        "a dimension of 2^31 (paired with 0, so the file is empty): readers with signed 32-bit sizes break",
        c.clone(),
        c.golden_bytes(),
        &[("IDX303", 4, 4), ("IDX302", 8, 4)],
    ));
    let c = Content {
        dtype: F32,
        shape: vec![0, u32::MAX],
        values: Values::F32(vec![]),
    };
    out.push(implementation_defined(
        "impl-large-dim-f32-0x4294967295",
        "shape [0, 4294967295]: the largest dimension, no elements",
        c.clone(),
        c.golden_bytes(),
        &[("IDX302", 4, 4), ("IDX303", 8, 4)],
    ));
    let c = ints(I32, &[u32::MAX, u32::MAX, 0], &[]);
    out.push(implementation_defined(
        "impl-zero-dim-after-overflowing-prefix-i32",
        "i32 of shape [4294967295, 4294967295, 0]: the first two dimensions alone overflow 64 bits, but the exact size is 0",
        c.clone(),
        c.golden_bytes(),
        &[("IDX303", 4, 4), ("IDX303", 8, 4), ("IDX302", 12, 4)],
    ));
    // little-endian data: valid IDX whose content (read big-endian, as the
    // spec says) is almost certainly not what the writer meant
    let labels: Vec<i32> = (0..100).map(|i| (i * 7) % 10).collect();
    let mut bytes = vec![0, 0, 0x0c, 1, 0, 0, 0, 100];
    labels
        .iter()
        .for_each(|v| bytes.extend_from_slice(&v.to_le_bytes()));
    let c = Content {
        dtype: I32,
        shape: vec![100],
        values: Values::Int(
            labels
                .iter()
                .map(|v| i32::from_be_bytes(v.to_le_bytes()) as i64)
                .collect(),
        ),
    };
    out.push(implementation_defined(
        "impl-little-endian-i32-labels",
        "i32 labels 0..9 written little-endian (the header is big-endian)",
        c,
        bytes,
        &[("IDX501", 8, 400)],
    ));
    let wave: Vec<f32> = (0..64)
        .map(|i| (i as f32 / 8.0).sin() * 3.0 + 0.5)
        .collect();
    let mut bytes = vec![0, 0, 0x0d, 1, 0, 0, 0, 64];
    wave.iter()
        .for_each(|v| bytes.extend_from_slice(&v.to_le_bytes()));
    let c = Content {
        dtype: F32,
        shape: vec![64],
        values: Values::F32(
            wave.iter()
                .map(|v| u32::from_be_bytes(v.to_le_bytes()))
                .collect(),
        ),
    };
    out.push(implementation_defined(
        "impl-little-endian-f32-sine",
        "an f32 sine wave written little-endian (the header is big-endian)",
        c,
        bytes,
        &[("IDX501", 8, 256)],
    ));
    // the small and sparse payloads of the IDX technical report's own
    // writer (a big-endian header, then `array.tofile(f)` on x86)
    let picture: Vec<f64> = (0..784)
        .map(|i| {
            let (x, y) = ((i % 28) as f64 - 13.5, (i / 28) as f64 - 13.5);
            let r = (x * x + y * y).sqrt();
            if r > 9.0 {
                0.0
            } else {
                (255.0 * (1.0 - r / 9.0)).round() / 255.0
            }
        })
        .collect();
    let mut sparse = vec![0.0; 4096];
    for (k, i) in [3usize, 500, 1024, 1500, 2047, 3000, 3500, 4095]
        .into_iter()
        .enumerate()
    {
        sparse[i] = 0.125 * (k + 1) as f64;
    }
    for (id, desc, t, shape, values) in [
        (
            "impl-little-endian-f32-one-picture",
            "one 28x28 picture scaled to [0, 1], f32, written little-endian",
            F32,
            vec![28u32, 28],
            picture,
        ),
        (
            "impl-little-endian-f32-arange",
            "numpy.arange(256, dtype='<f4') * 0.5 + 1 written after a big-endian header",
            F32,
            vec![256],
            (0..256).map(|i| f64::from(i) * 0.5 + 1.0).collect(),
        ),
        (
            "impl-little-endian-f64-ramp",
            "an f64 ramp 0..23 written little-endian",
            F64,
            vec![24],
            (0..24).map(f64::from).collect(),
        ),
        (
            "impl-little-endian-i16-labels",
            "ten i16 labels 0..9 written little-endian",
            I16,
            vec![10],
            (0..10).map(f64::from).collect(),
        ),
        (
            "impl-little-endian-f32-sparse",
            "4096 f32 values, 8 of them non-zero, written little-endian",
            F32,
            vec![4096],
            sparse,
        ),
    ] {
        let (bytes, c) = little_endian(t, &shape, &values);
        let start = 4 + 4 * shape.len() as u64;
        let len = bytes.len() as u64 - start;
        // read big-endian, eight of the picture's values are NaN
        let nan: &[(&str, u64, u64)] = if t == F32 && shape.len() == 2 {
            &[("IDX502", 1072, 4)]
        } else {
            &[]
        };
        let findings: Vec<_> = [("IDX501", start, len)]
            .iter()
            .chain(nan)
            .copied()
            .collect();
        out.push(implementation_defined(id, desc, c, bytes, &findings));
    }
    let c = indexed(U8, &[4, 5]);
    let gz = gzip_stored(&c.golden_bytes());
    out.push(implementation_defined(
        "impl-gzip-u8-4x5",
        "a valid u8 file inside gzip: not IDX itself, but readers MAY decompress it",
        c,
        gz,
        &[],
    ));
    let c = ints(U8, &[1], &[42]);
    let mut padded = gzip_stored(&c.golden_bytes());
    padded.extend([0; 8]);
    out.push(implementation_defined(
        "impl-gzip-zero-padding",
        "a valid u8 file in gzip followed by 8 zero bytes: gzip(1) and Python accept the padding, strict readers do not (spec 7.18)",
        c,
        padded,
        &[("IDX703", 9, 0)],
    ));
}

/// An IDX file of `values` (as `t`) with a big-endian header and a
/// little-endian payload, and its content as the spec reads it.
fn little_endian(t: ElementType, shape: &[u32], values: &[f64]) -> (Vec<u8>, Content) {
    let mut bytes = vec![0, 0, t.code(), shape.len() as u8];
    shape
        .iter()
        .for_each(|d| bytes.extend_from_slice(&d.to_be_bytes()));
    let le: Vec<Vec<u8>> = values
        .iter()
        .map(|&v| match t {
            I16 => (v as i16).to_le_bytes().to_vec(),
            I32 => (v as i32).to_le_bytes().to_vec(),
            F32 => (v as f32).to_le_bytes().to_vec(),
            _ => v.to_le_bytes().to_vec(),
        })
        .collect();
    le.iter().for_each(|e| bytes.extend_from_slice(e));
    let values = match t {
        I16 => Values::Int(
            le.iter()
                .map(|e| i64::from(i16::from_be_bytes([e[0], e[1]])))
                .collect(),
        ),
        I32 => Values::Int(
            le.iter()
                .map(|e| i64::from(i32::from_be_bytes([e[0], e[1], e[2], e[3]])))
                .collect(),
        ),
        F32 => Values::F32(
            le.iter()
                .map(|e| u32::from_be_bytes([e[0], e[1], e[2], e[3]]))
                .collect(),
        ),
        _ => Values::F64(
            le.iter()
                .map(|e| u64::from_be_bytes(e[..8].try_into().unwrap_or([0; 8])))
                .collect(),
        ),
    };
    let c = Content {
        dtype: t,
        shape: shape.to_vec(),
        values,
    };
    (bytes, c)
}
