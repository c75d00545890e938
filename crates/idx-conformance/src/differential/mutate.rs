//! Mutations: structure-aware changes to a corpus file (header fields,
//! type codes, rank, dimensions, sizes that overflow or wrap, truncation,
//! appended bytes, byte flips, gzip wrapping), and input `i` of a run.

use super::judge::gunzip;
use super::Rng;
use crate::cases::{gzip_stored, Case};

/// Type codes to try: every valid one and neighbours of the gaps.
const TYPE_CODES: [u8; 11] = [
    0x08, 0x09, 0x0b, 0x0c, 0x0d, 0x0e, 0x00, 0x07, 0x0a, 0x0f, 0xff,
];

/// Dimension values to try.
const DIMS: [u32; 9] = [
    0,
    1,
    2,
    0x7fff_ffff,
    0x8000_0000,
    0x8000_0001,
    0xffff_fffe,
    0xffff_ffff,
    10_000,
];

/// Shapes whose element count is 2^64 + 4 (wrapping to 4), and whose byte
/// count for 4-byte elements is 2^64 + 4 (wrapping to 4 bytes).
const WRAPS: [&[u32]; 3] = [
    &[494_770, 769_546, 48_448_661],
    &[2_147_418_113, 1_718_039_348, 5],
    &[2_147_418_113, 429_509_837, 5],
];

/// The header fields of `b`, if its first 4 bytes and dimensions are there.
fn rank_of(b: &[u8]) -> Option<usize> {
    let r = usize::from(*b.get(3)?);
    (b.len() >= 4 + 4 * r).then_some(r)
}

fn set_dim(b: &mut [u8], k: usize, d: u32) {
    b[4 + 4 * k..8 + 4 * k].copy_from_slice(&d.to_be_bytes());
}

fn dim(b: &[u8], k: usize) -> u32 {
    u32::from_be_bytes([b[4 + 4 * k], b[5 + 4 * k], b[6 + 4 * k], b[7 + 4 * k]])
}

/// Applies one random mutation to `b` (possibly nothing, if it does not
/// apply); returns its name.
pub fn mutate_once(b: &mut Vec<u8>, rng: &mut Rng) -> &'static str {
    match rng.below(12) {
        0 => {
            if b.len() > 2 {
                b[2] = rng.pick(&TYPE_CODES);
            }
            "type"
        }
        1 => {
            // the rank byte alone: the dimension list shifts
            if b.len() > 3 {
                let r = b[3];
                b[3] = rng.pick(&[
                    0,
                    1,
                    2,
                    3,
                    4,
                    33,
                    65,
                    255,
                    r.wrapping_add(1),
                    r.wrapping_sub(1),
                ]);
            }
            "rank"
        }
        2 => {
            // rank +- 1 with a dimension of 1 added or dropped: same payload
            if let Some(r) = rank_of(b) {
                if r > 0 && rng.one_in(2) {
                    let k = rng.below(r);
                    if dim(b, k) == 1 || rng.one_in(4) {
                        b.drain(4 + 4 * k..8 + 4 * k);
                        b[3] = (r - 1) as u8;
                    }
                } else if r < 255 {
                    let k = rng.below(r + 1);
                    b.splice(4 + 4 * k..4 + 4 * k, [0, 0, 0, 1]);
                    b[3] = (r + 1) as u8;
                }
            }
            "rank-and-dimensions"
        }
        3 | 4 => {
            if let Some(r) = rank_of(b).filter(|&r| r > 0) {
                let k = rng.below(r);
                let d = dim(b, k);
                let v = match rng.below(3) {
                    0 => rng.pick(&DIMS),
                    1 => d.wrapping_add(1),
                    _ => d.wrapping_sub(1),
                };
                set_dim(b, k, v);
            }
            "dimension"
        }
        5 => {
            // a shape whose size wraps modulo 2^64 to (about) what is there
            let w = rng.pick(&WRAPS);
            let t = rng.pick(&TYPE_CODES[..6]);
            let mut out = vec![0, 0, t, w.len() as u8];
            w.iter()
                .for_each(|d| out.extend_from_slice(&d.to_be_bytes()));
            let size = idx::ElementType::from_code(t).map_or(1, |t| t.size());
            let n = if w[1] == 429_509_837 { 4 } else { 4 * size };
            out.extend((0..n).map(|i| i as u8 ^ 0x5a));
            *b = out;
            "wrapping-size"
        }
        6 => {
            let cut = match rng.below(4) {
                0 => rng.below(b.len() + 1),
                1 => b.len().saturating_sub(1),
                2 => rank_of(b).map_or(4, |r| 4 + 4 * r).min(b.len()),
                _ => rng.below(b.len().min(12) + 1),
            };
            b.truncate(cut);
            "truncate"
        }
        7 => {
            match rng.below(3) {
                0 => {
                    let n = 1 + rng.below(16);
                    b.extend((0..n).map(|_| rng.bits() as u8));
                }
                1 => {
                    let copy = b.clone();
                    b.extend_from_slice(&copy);
                }
                _ => b.extend(std::iter::repeat_n(0, 1 + rng.below(8))),
            }
            "append"
        }
        8 | 9 => {
            if !b.is_empty() {
                // bias towards the header
                let at = if rng.one_in(2) {
                    rng.below(b.len().min(16))
                } else {
                    rng.below(b.len())
                };
                if rng.one_in(2) {
                    b[at] ^= 1 << rng.below(8);
                } else {
                    b[at] = rng.bits() as u8;
                }
            }
            "byte"
        }
        10 => {
            // the header written little-endian
            if let Some(r) = rank_of(b) {
                b[..4].reverse();
                for k in 0..r {
                    b[4 + 4 * k..8 + 4 * k].reverse();
                }
            }
            "byte-swapped-header"
        }
        _ => {
            // the payload of a multi-byte type read as another type
            if b.len() > 2 {
                b[2] = rng.pick(&[0x0b, 0x0c, 0x0d, 0x0e]);
            }
            "retype"
        }
    }
}

/// Input `index` of a run: a seed case mutated 1 to 3 times, sometimes
/// wrapped in gzip. Returns the bytes and the mutations applied.
pub fn input(seeds: &[&Case], seed: u64, index: u64) -> (Vec<u8>, Vec<&'static str>) {
    let mut rng = Rng::for_input(seed, index);
    let base = seeds[rng.below(seeds.len())];
    let mut b = base.bytes.clone();
    // gzip seeds are mutated inside, then wrapped again
    let mut gz = false;
    if base.compression().is_some() {
        if let Some(d) = gunzip(&b) {
            b = d;
            gz = true;
        }
    }
    let n = 1 + rng.below(3);
    let mut applied = Vec::new();
    for _ in 0..n {
        applied.push(mutate_once(&mut b, &mut rng));
    }
    if gz || rng.one_in(10) {
        b = gzip_stored(&b);
        applied.push("gzip");
    }
    (b, applied)
}
