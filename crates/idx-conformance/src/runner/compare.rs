//! A reader's content against the expected content: the first difference,
//! and whether the data is byte-swapped.

use crate::content::{Content, Values};

/// A content mismatch.
#[derive(Debug, Clone)]
pub struct Mismatch {
    /// What differs.
    pub detail: String,
    /// The data equals the expected data with every element byte-swapped.
    pub byte_swapped: bool,
}

/// `[2, 3]`; a long shape is cut (`[2, 1, 1, 1, …, 1, 3] (rank 255)`).
fn shape_text(s: &[u32]) -> String {
    if s.len() <= 8 {
        return format!("{s:?}");
    }
    let head: Vec<String> = s[..4].iter().map(u32::to_string).collect();
    let tail: Vec<String> = s[s.len() - 2..].iter().map(u32::to_string).collect();
    format!(
        "[{}, …, {}] (rank {})",
        head.join(", "),
        tail.join(", "),
        s.len()
    )
}

fn element(v: &Values, i: usize) -> String {
    match v {
        Values::Int(x) => x.get(i).map_or("-".into(), |x| x.to_string()),
        Values::F32(x) => x.get(i).map_or("-".into(), |b| {
            format!("0x{b:08x} ({:?})", f32::from_bits(*b))
        }),
        Values::F64(x) => x.get(i).map_or("-".into(), |b| {
            format!("0x{b:016x} ({:?})", f64::from_bits(*b))
        }),
    }
}

/// `u8 shape [11]: 0, 0, 8, 1, …`: what a reader returned.
pub fn describe(c: &Content) -> String {
    let n = c.values.len();
    let first: Vec<String> = (0..n.min(8))
        .map(|i| match &c.values {
            Values::F32(x) => format!("0x{:08x}", x[i]),
            Values::F64(x) => format!("0x{:016x}", x[i]),
            Values::Int(x) => x[i].to_string(),
        })
        .collect();
    format!(
        "{} shape {}: {}{}",
        c.dtype.name(),
        shape_text(&c.shape),
        if n == 0 {
            "no elements".to_string()
        } else {
            first.join(", ")
        },
        if n > 8 { ", …" } else { "" }
    )
}

fn swapped(v: &Values, dtype: idx::ElementType) -> Option<Values> {
    Some(match v {
        Values::Int(x) => Values::Int(
            x.iter()
                .map(|&e| match dtype {
                    idx::ElementType::I16 => i64::from((e as i16).swap_bytes()),
                    idx::ElementType::I32 => i64::from((e as i32).swap_bytes()),
                    _ => e,
                })
                .collect(),
        ),
        Values::F32(x) => Values::F32(x.iter().map(|b| b.swap_bytes()).collect()),
        Values::F64(x) => Values::F64(x.iter().map(|b| b.swap_bytes()).collect()),
    })
    .filter(|_| dtype.size() > 1)
}

/// Compares a reader's content with the expected content.
///
/// # Errors
/// What differs: dtypes, shapes, or the first differing element (index and
/// both values, floats in hex), and whether the data is byte-swapped.
pub fn compare(expected: &Content, got: &Content) -> Result<(), Mismatch> {
    let plain = |detail: String| Mismatch {
        detail,
        byte_swapped: false,
    };
    if got.dtype != expected.dtype {
        return Err(plain(format!(
            "dtype {} instead of {} (shape {}, expected {})",
            got.dtype.name(),
            expected.dtype.name(),
            shape_text(&got.shape),
            shape_text(&expected.shape)
        )));
    }
    if got.shape != expected.shape {
        let same = if got.values == expected.values {
            "; the same elements in the same order"
        } else {
            ""
        };
        return Err(plain(format!(
            "shape {} instead of {} ({}, {} instead of {}{same})",
            shape_text(&got.shape),
            shape_text(&expected.shape),
            got.dtype.name(),
            count(got.values.len(), "element"),
            expected.values.len()
        )));
    }
    if got.values == expected.values {
        return Ok(());
    }
    let n = got.values.len();
    let differs = |i: usize| match (&got.values, &expected.values) {
        (Values::Int(a), Values::Int(b)) => a.get(i) != b.get(i),
        (Values::F32(a), Values::F32(b)) => a.get(i) != b.get(i),
        (Values::F64(a), Values::F64(b)) => a.get(i) != b.get(i),
        _ => true,
    };
    let diffs: Vec<usize> = (0..n).filter(|&i| differs(i)).collect();
    // the first element that differs (an element that reads the same either
    // way, 0 byte-swapped, is not one)
    let first = diffs.first().copied().unwrap_or(0);
    if swapped(&expected.values, expected.dtype).as_ref() == Some(&got.values) {
        return Err(Mismatch {
            detail: format!(
                "reads multi-byte elements little-endian: every element is byte-swapped \
                 (element {first} is {} instead of {}; {})",
                element(&got.values, first),
                element(&expected.values, first),
                differ(diffs.len(), n)
            ),
            byte_swapped: true,
        });
    }
    if diffs
        .iter()
        .all(|&i| quieted(&expected.values, &got.values, i))
    {
        return Err(plain(format!(
            "{QUIETED}: element {first} is {} instead of {}, the same NaN with its quiet bit set \
             ({}; {} shape {})",
            element(&got.values, first),
            element(&expected.values, first),
            differ(diffs.len(), n),
            got.dtype.name(),
            shape_text(&got.shape)
        )));
    }
    Err(plain(format!(
        "element {first} is {} instead of {} ({}; {} shape {})",
        element(&got.values, first),
        element(&expected.values, first),
        differ(diffs.len(), n),
        got.dtype.name(),
        shape_text(&got.shape)
    )))
}

/// How a detail starts when every differing element is a signalling NaN
/// returned quiet: the reader converted the floats (f32 to f64 and back, a
/// float register), which sets a signalling NaN's quiet bit.
pub const QUIETED: &str = "signalling NaNs come back quiet";

/// Whether element `i` is a signalling NaN in `expected` and the same NaN
/// with its quiet bit set in `got`.
fn quieted(expected: &Values, got: &Values, i: usize) -> bool {
    const Q32: u32 = 1 << 22;
    const Q64: u64 = 1 << 51;
    match (expected, got) {
        (Values::F32(e), Values::F32(g)) => match (e.get(i), g.get(i)) {
            (Some(&e), Some(&g)) => f32::from_bits(e).is_nan() && e & Q32 == 0 && g == e | Q32,
            _ => false,
        },
        (Values::F64(e), Values::F64(g)) => match (e.get(i), g.get(i)) {
            (Some(&e), Some(&g)) => f64::from_bits(e).is_nan() && e & Q64 == 0 && g == e | Q64,
            _ => false,
        },
        _ => false,
    }
}

/// `1 element`, `2 elements`.
fn count(n: usize, noun: &str) -> String {
    idx_text::plural::count(n as u64, noun)
}

/// `3 of 5 elements differ`, `1 of 1 element differs`.
fn differ(d: usize, n: usize) -> String {
    format!(
        "{d} of {} {}",
        count(n, "element"),
        idx_text::plural::verb(n as u64, "differs", "differ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use idx::ElementType;

    fn u8s(shape: &[u32], data: &[i64]) -> Content {
        Content {
            dtype: ElementType::U8,
            shape: shape.to_vec(),
            values: Values::Int(data.to_vec()),
        }
    }

    #[test]
    fn a_detail_counts_one_element_in_the_singular() {
        let d = compare(&u8s(&[1], &[7]), &u8s(&[1], &[8]))
            .unwrap_err()
            .detail;
        assert_eq!(
            d,
            "element 0 is 8 instead of 7 (1 of 1 element differs; u8 shape [1])"
        );
        let d = compare(&u8s(&[1, 1], &[7]), &u8s(&[], &[7]))
            .unwrap_err()
            .detail;
        assert_eq!(
            d,
            "shape [] instead of [1, 1] (u8, 1 element instead of 1; the same elements in the same order)"
        );
        let d = compare(&u8s(&[3], &[1, 2, 3]), &u8s(&[3], &[1, 5, 6]))
            .unwrap_err()
            .detail;
        assert!(d.contains("(2 of 3 elements differ; "), "{d}");
        let d = compare(&u8s(&[3], &[1, 2, 3]), &u8s(&[3], &[1, 5, 3]))
            .unwrap_err()
            .detail;
        assert!(d.contains("(1 of 3 elements differ; "), "{d}");
    }

    fn f32s(bits: &[u32]) -> Content {
        Content {
            dtype: ElementType::F32,
            shape: vec![bits.len() as u32],
            values: Values::F32(bits.to_vec()),
        }
    }

    #[test]
    // Before, a signalling NaN read through a double was one more wrong
    // element, with nothing said of the cause.
    fn signalling_nans_returned_quiet_are_named() {
        let spec = f32s(&[0x3f80_0000, 0x7f80_0001, 0xffbf_ffff, 0x7fc0_0001]);
        let got = f32s(&[0x3f80_0000, 0x7fc0_0001, 0xffff_ffff, 0x7fc0_0001]);
        let d = compare(&spec, &got).unwrap_err().detail;
        assert_eq!(
            d,
            "signalling NaNs come back quiet: element 1 is 0x7fc00001 (NaN) instead of \
             0x7f800001 (NaN), the same NaN with its quiet bit set (2 of 4 elements differ; \
             f32 shape [4])"
        );
        // another NaN payload is another difference
        let got = f32s(&[0x3f80_0000, 0x7fc0_0000, 0xffff_ffff, 0x7fc0_0001]);
        let d = compare(&spec, &got).unwrap_err().detail;
        assert!(d.starts_with("element 1 is 0x7fc00000"), "{d}");
        // a quiet NaN is not quieted
        let d = compare(&f32s(&[0x7fc0_0001]), &f32s(&[0x7fc0_0003]))
            .unwrap_err()
            .detail;
        assert!(d.starts_with("element 0 is"), "{d}");
    }
}
