//! Invalid cases whose elements were written at another width than the
//! header declares.

use super::case::{invalid, Case};

/// Elements written at another width than the header declares: the payload
/// is an exact power-of-two multiple or fraction of the declared size, and
/// the finding's hint names the reading that makes it consistent.
pub(super) fn width_cases(out: &mut Vec<Case>) {
    fn file(code: u8, dims: &[u32], payload: Vec<u8>) -> Vec<u8> {
        let mut b = vec![0, 0, code, dims.len() as u8];
        dims.iter()
            .for_each(|d| b.extend_from_slice(&d.to_be_bytes()));
        b.extend(payload);
        b
    }
    let wave =
        |n: usize| -> Vec<f64> { (0..n).map(|i| (i as f64 / 3.0).sin() * 2.0 + 3.0).collect() };
    // f64 under f32: 12 declared f32 elements, 12 f64 written
    let p: Vec<u8> = wave(12).iter().flat_map(|v| v.to_be_bytes()).collect();
    out.push(invalid(
        "invalid-width-f64-under-f32",
        "12 f64 values written under an f32 [12] header: the payload is twice the declared size",
        file(0x0d, &[12], p),
        &[("IDX203", 56, 48)],
    ));
    // f32 under f64: 12 declared f64 elements, 12 f32 written
    let p: Vec<u8> = wave(12)
        .iter()
        .flat_map(|&v| (v as f32).to_be_bytes())
        .collect();
    out.push(invalid(
        "invalid-width-f32-under-f64",
        "12 f32 values written under an f64 [12] header: the payload is half the declared size",
        file(0x0e, &[12], p),
        &[("IDX202", 56, 0)],
    ));
    // i32 under i16
    let p: Vec<u8> = (0..16i32)
        .flat_map(|v| (v * 37 - 200).to_be_bytes())
        .collect();
    out.push(invalid(
        "invalid-width-i32-under-i16",
        "16 i32 values written under an i16 [16] header: the payload is twice the declared size",
        file(0x0b, &[16], p),
        &[("IDX203", 40, 32)],
    ));
    // int64 labels (numpy's default integer, little-endian) under u8
    let p: Vec<u8> = (0..10i64)
        .map(|i| (i * 7) % 10)
        .flat_map(|v| v.to_le_bytes())
        .collect();
    out.push(invalid(
        "invalid-width-i64-labels-under-u8",
        "ten int64 labels (numpy's default, little-endian) written under a u8 [10] header: the payload is 8 times the declared size",
        file(0x08, &[10], p),
        &[("IDX203", 18, 70)],
    ));
    // u8 pixels under i16
    let p: Vec<u8> = (0..20u8).map(|i| i * 12).collect();
    out.push(invalid(
        "invalid-width-u8-under-i16",
        "20 u8 values written under an i16 [20] header: the payload is half the declared size",
        file(0x0b, &[20], p),
        &[("IDX202", 28, 0)],
    ));
}
