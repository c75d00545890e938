//! The run's randomness: one seed, printed, from which the order of the
//! cases and the request IDs follow, so `--seed N` runs the same inputs
//! in the same order again.

use crate::differential::rng::Rng;

/// A seed no one can predict (the standard library's per-process hash
/// keys, the time and the process ID).
pub fn fresh_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    h.write_u128(now);
    h.write_u32(std::process::id());
    h.finish()
}

/// The generator of one purpose (`stream`) of a run seeded `seed`.
pub(crate) fn rng(seed: u64, stream: u64) -> Rng {
    Rng::for_input(seed, stream)
}

/// Puts `xs` in a random order (Fisher-Yates).
pub(crate) fn shuffle<T>(xs: &mut [T], rng: &mut Rng) {
    for i in (1..xs.len()).rev() {
        xs.swap(i, rng.below(i + 1));
    }
}

/// The streams: the order of the cases, and the request IDs.
pub(crate) const ORDER: u64 = 1;
/// See [`ORDER`].
pub(crate) const IDS: u64 = 2;

/// A request ID: opaque (random), at most 2^53 - 1 so that a JavaScript
/// number holds it exactly, never 0.
pub(crate) fn request_id(rng: &mut Rng) -> u64 {
    (rng.bits() >> 11).max(1)
}
