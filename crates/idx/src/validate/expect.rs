//! The findings of the caller's expectations: an element type and a shape
//! (IDX801, IDX802).

use super::Options;
use crate::dtype::ElementType;
use crate::finding::Finding;
use crate::header::MAGIC_LEN;
use crate::rules::Rule;
use crate::text::dims_str;

pub(super) fn expectations(
    opts: &Options,
    dtype: Option<ElementType>,
    dims: Option<&[u32]>,
) -> Vec<Finding> {
    let mut out = Vec::new();
    if let (Some(want), Some(got)) = (opts.expect_dtype, dtype) {
        if want != got {
            out.push(
                Finding::new(
                    Rule::UnexpectedType,
                    2,
                    1,
                    format!("the element type is {got}, expected {want}"),
                )
                .expected(format!("{:02x} ({want})", want.code()))
                .found(format!("{:02x} ({got})", got.code())),
            );
        }
    }
    if let (Some(want), Some(dims)) = (&opts.expect_shape, dims) {
        let want_str = shape_pattern(want);
        if want.len() != dims.len() {
            out.push(
                Finding::new(
                    Rule::UnexpectedShape,
                    3,
                    1,
                    format!(
                        "the rank is {}, expected {} (shape {want_str})",
                        dims.len(),
                        want.len()
                    ),
                )
                .expected(format!("rank {}", want.len()))
                .found(format!("rank {}, shape {}", dims.len(), dims_str(dims))),
            );
        } else {
            for (k, (w, &d)) in want.iter().zip(dims).enumerate() {
                if let Some(w) = w.filter(|&w| w != d) {
                    out.push(
                        Finding::new(
                            Rule::UnexpectedShape,
                            (MAGIC_LEN + 4 * k) as u64,
                            4,
                            format!("dimension {k} is {d}, expected {w} (shape {want_str})"),
                        )
                        .expected(w.to_string())
                        .found(d.to_string()),
                    );
                }
            }
        }
    }
    out
}

fn shape_pattern(want: &[Option<u32>]) -> String {
    let parts: Vec<String> = want
        .iter()
        .map(|w| w.map_or_else(|| "*".to_string(), |d| d.to_string()))
        .collect();
    format!("[{}]", parts.join(", "))
}
