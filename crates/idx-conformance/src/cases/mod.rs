//! The recipes of the corpus. Every case states its expected findings by
//! hand; nothing here asks the `idx` library what to expect.
//!
//! [`Case`] and its constructors are in `case`, the builders the recipes
//! share in `make`, and the recipes in one file per kind: `valid`,
//! `implementation_defined`, `invalid` (header, sizes, payload), `width`,
//! `compressed` and `other_formats` (called from `invalid`),
//! `spec_positions` (spec section 7) and `differential` (the cases
//! differential fuzzing asked for).

mod case;
mod compressed;
mod differential;
mod implementation_defined;
mod invalid;
mod make;
mod other_formats;
mod spec_positions;
mod valid;
mod width;

pub use case::{Case, CaseOptions, Verdict};
pub use make::{gzip_stored, index_values};

use case::{invalid, valid};
use differential::differential_cases;
use implementation_defined::implementation_defined_cases;
use invalid::invalid_cases;
use make::{mnist_images, same_bytes};
use spec_positions::spec_position_cases;
use valid::valid_cases;

/// Every committed case, in a stable order.
pub fn all() -> Vec<Case> {
    let mut out = Vec::new();
    valid_cases(&mut out);
    implementation_defined_cases(&mut out);
    invalid_cases(&mut out);
    spec_position_cases(&mut out);
    differential_cases(&mut out);
    out
}

/// The IDs of the on-demand cases: too large to commit (tens of MB, and
/// seconds to build in a debug build), so [`all`] leaves them out and only
/// `generate --large` and the runner's `--large` build them.
pub const ON_DEMAND: &[&str] = &[
    "valid-mnist-images-u8-10000x28x28",
    "invalid-trailing-mnist-images-10000",
    "invalid-truncated-payload-mnist-images-10000",
    "valid-u8-same-bytes-5000x28x56",
];

/// The on-demand cases (see [`ON_DEMAND`]), in that order.
pub fn on_demand() -> Vec<Case> {
    let images = mnist_images(10_000);
    let golden = images.golden_bytes();
    let mut valid_images = valid(
        ON_DEMAND[0],
        "an image file of t10k's size: 10,000 images of 28 x 28 (7.8 MB)",
        images,
        &[],
    );
    let mut trailing = golden.clone();
    trailing.extend(mnist_images(1).payload());
    let mut trailing = invalid(
        ON_DEMAND[1],
        "an image file declaring 10,000 images of 28 x 28 that holds 10,001",
        trailing,
        &[("IDX203", 16 + 10_000 * 784, 784)],
    );
    let mut truncated = invalid(
        ON_DEMAND[2],
        "an image file declaring 10,000 images of 28 x 28 whose last image lacks its last row",
        golden[..golden.len() - 28].to_vec(),
        &[("IDX202", 16 + 10_000 * 784 - 28, 0)],
    );
    let mut same_bytes = same_bytes(&[5000, 28, 56], "t10k's 10,000 images of 28 x 28");
    for c in [
        &mut valid_images,
        &mut trailing,
        &mut truncated,
        &mut same_bytes,
    ] {
        c.on_demand = true;
    }
    vec![valid_images, trailing, truncated, same_bytes]
}

/// [`all`] and then [`on_demand`].
pub fn with_on_demand() -> Vec<Case> {
    let mut v = all();
    v.extend(on_demand());
    v
}
