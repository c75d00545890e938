//! The data people really store in multi-byte IDX files, as generated
//! payloads: the kinds of the byte-order test's benchmark (IDX501,
//! `crates/idx/benches/byteorder.rs`, report in `bench/byteorder.md`) and of
//! its test slice in `cargo test` (`crates/idx/tests/it/byteorder.rs`).
//!
//! Each [`Kind`] makes a correct big-endian payload of `n` elements of one
//! of its types from a seed; [`little_endian_twin`] turns it into what a
//! writer that forgot the byte order would have written. A kind is judged by
//! its false positives on the big-endian payload first, and by the
//! detection of its twin second.
//!
//! Values follow what real files hold: missing-value markers (the type's
//! minimum and maximum, -1, NaN), saturation and clipping at the extremes,
//! repeated and constant values, identifiers and hashes spread over the
//! whole range, timestamps, flags, fixed point, quantised floats, one-hot
//! rows, probabilities, extreme magnitudes, subnormals.

/// splitmix64: a deterministic generator, the same on every machine.
#[derive(Debug, Clone)]
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// Uniform in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
    /// Standard normal (Box-Muller).
    pub fn normal(&mut self) -> f64 {
        let (u, v) = (self.unit().max(1e-300), self.unit());
        (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
    }
    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }
}

/// The multi-byte element types, by IDX type code (`0x0b` i16, `0x0c` i32,
/// `0x0d` f32, `0x0e` f64), so that this crate needs no `idx` dependency.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Type {
    /// `0x0b`, 2 bytes.
    I16,
    /// `0x0c`, 4 bytes.
    I32,
    /// `0x0d`, 4 bytes.
    F32,
    /// `0x0e`, 8 bytes.
    F64,
}

impl Type {
    /// All four, in type-code order.
    pub const ALL: [Type; 4] = [Type::I16, Type::I32, Type::F32, Type::F64];

    /// Bytes per element.
    pub fn size(self) -> usize {
        match self {
            Type::I16 => 2,
            Type::I32 | Type::F32 => 4,
            Type::F64 => 8,
        }
    }
    /// The IDX type code.
    pub fn code(self) -> u8 {
        match self {
            Type::I16 => 0x0b,
            Type::I32 => 0x0c,
            Type::F32 => 0x0d,
            Type::F64 => 0x0e,
        }
    }
    /// The spec's name (`i16`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Type::I16 => "i16",
            Type::I32 => "i32",
            Type::F32 => "f32",
            Type::F64 => "f64",
        }
    }
    /// True for f32 and f64.
    pub fn is_float(self) -> bool {
        matches!(self, Type::F32 | Type::F64)
    }
    fn int_max(self) -> i64 {
        match self {
            Type::I16 => i64::from(i16::MAX),
            _ => i64::from(i32::MAX),
        }
    }
    fn int_min(self) -> i64 {
        -self.int_max() - 1
    }
}

/// A value before encoding.
#[derive(Debug, Clone, Copy)]
enum V {
    /// An integer (saturated into an integer type; rounded into a float).
    I(i64),
    /// A real number (rounded into an integer type).
    F(f64),
    /// Raw bits, the low bytes of the type's width.
    B(u64),
}

fn encode(t: Type, v: V, out: &mut Vec<u8>) {
    match (t, v) {
        (_, V::B(bits)) => out.extend_from_slice(&bits.to_be_bytes()[8 - t.size()..]),
        (Type::I16, V::I(i)) => {
            out.extend_from_slice(&(i.clamp(t.int_min(), t.int_max()) as i16).to_be_bytes());
        }
        (Type::I32, V::I(i)) => {
            out.extend_from_slice(&(i.clamp(t.int_min(), t.int_max()) as i32).to_be_bytes());
        }
        (Type::I16 | Type::I32, V::F(x)) => encode(t, V::I(x.round() as i64), out),
        (Type::F32, V::I(i)) => out.extend_from_slice(&(i as f32).to_be_bytes()),
        (Type::F32, V::F(x)) => out.extend_from_slice(&(x as f32).to_be_bytes()),
        (Type::F64, V::I(i)) => out.extend_from_slice(&(i as f64).to_be_bytes()),
        (Type::F64, V::F(x)) => out.extend_from_slice(&x.to_be_bytes()),
    }
}

macro_rules! kinds {
    ($( $(#[doc = $doc:literal])* $name:ident = ($label:literal, [$($t:ident),*]) ),* $(,)?) => {
        /// A kind of data people store.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Kind {
            $( $(#[doc = $doc])* $name, )*
        }

        impl Kind {
            /// Every kind, in report order.
            pub const ALL: &'static [Kind] = &[$(Kind::$name),*];

            /// A short name for reports.
            pub fn label(self) -> &'static str {
                match self { $(Kind::$name => $label,)* }
            }

            /// What the kind is (its doc line).
            pub fn description(self) -> &'static str {
                match self { $(Kind::$name => concat!($($doc),*).trim_start(),)* }
            }

            /// The types the kind is benchmarked in.
            pub fn types(self) -> &'static [Type] {
                match self { $(Kind::$name => &[$(Type::$t),*],)* }
            }
        }
    };
}

kinds! {
    /// 28x28 pictures, a bright blob on black, 8-bit values (floats: /255).
    Image = ("image", [I16, I32, F32, F64]),
    /// The same pictures standardised to mean 0, deviation 1 (integers: x1000).
    Standardised = ("standardised", [I16, I32, F32, F64]),
    /// `arange(n) * 0.5 + 1` (integers: `arange(n)`).
    Ramp = ("arange", [I16, I32, F32, F64]),
    /// Normal values, deviation 1 (integers: deviation 100).
    Normal = ("normal", [I16, I32, F32, F64]),
    /// Uniform values in [0, 1) (integers: 0..10000).
    Uniform = ("uniform", [I16, I32, F32, F64]),
    /// Class labels 0..=9.
    Labels = ("labels", [I16, I32, F32, F64]),
    /// Small counts, geometric with mean 20.
    Counts = ("counts", [I16, I32, F32, F64]),
    /// 95 % zeros, the rest normal values (integers: 1..=9).
    Sparse = ("sparse", [I16, I32, F32, F64]),
    /// Identifiers uniform over the non-negative range of the type.
    Ids = ("ids", [I16, I32]),
    /// Identifiers with the type's minimum as missing-value marker (5 to 90 %).
    IdsMin = ("ids + MIN marker", [I16, I32]),
    /// Identifiers with the type's maximum as missing-value marker (5 to 90 %).
    IdsMax = ("ids + MAX marker", [I16, I32]),
    /// Identifiers with -1 as missing-value marker (5 to 90 %).
    IdsMinusOne = ("ids + -1 marker", [I16, I32]),
    /// Identifiers with 0 as missing-value marker (5 to 90 %).
    IdsZero = ("ids + 0 marker", [I16, I32]),
    /// Uniform values over the whole type with the minimum as marker (5 to 90 %).
    RandomMin = ("random + MIN marker", [I16, I32]),
    /// Uniform values over the whole type saturated at the maximum (5 to 90 %).
    RandomMax = ("random + MAX saturation", [I16, I32]),
    /// Speech-like audio driven into clipping at both extremes (floats: at +-1).
    ClippedAudio = ("clipped audio", [I16, I32, F32]),
    /// Quiet audio: small smooth samples, many repeated.
    QuietAudio = ("quiet audio", [I16, F32]),
    /// Event counters of every scale, saturating at the type's maximum.
    SaturatedCounters = ("saturated counters", [I16, I32]),
    /// Hashes: random bit patterns.
    Hashes = ("hashes (random bits)", [I16, I32, F32, F64]),
    /// Unix timestamps in seconds, increasing (f64: with a fraction).
    Timestamps = ("timestamps", [I32, F64]),
    /// Unix timestamps in milliseconds, as floats.
    TimestampsMs = ("timestamps (ms)", [F64]),
    /// Small categorical codes 0..20, skewed.
    Categories = ("categorical codes", [I16, I32, F32]),
    /// Bit flags: each of the low 3 to 12 bits set or not.
    Flags = ("bit flags", [I16, I32]),
    /// Bit flags with the sign bit as a marker (set in half the words).
    FlagsSign = ("bit flags + sign bit", [I16, I32]),
    /// 12-bit sensor readings (0..4095) with noise.
    Adc = ("12-bit readings", [I16, I32]),
    /// Packed 0x00RRGGBB colours of a picture.
    PackedRgb = ("packed RGB", [I32]),
    /// Fixed point (Q8.8 in i16, Q16.16 in i32) of normal values x10.
    FixedPoint = ("fixed point", [I16, I32]),
    /// f32 values rounded to float16 precision (11 significant bits).
    Float16 = ("float16-quantised", [F32, F64]),
    /// f32 values rounded to bfloat16 precision (8 significant bits).
    Bfloat16 = ("bfloat16-quantised", [F32, F64]),
    /// Normal values with NaN as missing-value marker (5 to 90 %).
    NanMissing = ("NaN as missing", [F32, F64]),
    /// Normal values with +-infinity markers (5 to 90 %).
    Infinities = ("infinities", [F32, F64]),
    /// A decay that underflows into subnormals.
    Subnormals = ("subnormal tail", [F32, F64]),
    /// Values that are all subnormal.
    AllSubnormal = ("all subnormal", [F32, F64]),
    /// One value repeated.
    Constant = ("constant", [I16, I32, F32, F64]),
    /// Piecewise constant: runs of a few hundred equal values.
    Runs = ("constant runs", [I16, I32, F32, F64]),
    /// One-hot rows of 10.
    OneHot = ("one-hot rows", [I16, I32, F32, F64]),
    /// Softmax outputs, rows of 10.
    Probabilities = ("probabilities", [F32, F64]),
    /// Log-probabilities, rows of 10.
    LogProbabilities = ("log-probabilities", [F32, F64]),
    /// Gradients around 1e-7.
    TinyGradients = ("tiny gradients", [F32, F64]),
    /// Magnitudes spread over 1e20..1e30 (f64: 1e100..1e200).
    Huge = ("huge magnitudes", [F32, F64]),
    /// Counts 0..1000 stored as floats.
    IntegersAsFloats = ("integers as floats", [F32, F64]),
    /// Cumulative sums of counts: large and increasing.
    CumulativeSums = ("cumulative sums", [I32, F32, F64]),
    /// Depth maps: millimetres (floats: metres), 0 = invalid (20-40 %).
    DepthMap = ("depth map", [I16, I32, F32]),
    /// Large values near a sentinel extreme: counters that saturate (90 % at the maximum).
    MostlyMax = ("90 % at MAX", [I16, I32]),
    /// 16-bit audio in 32-bit integers, left-justified (`s << 16`: soundfile's int32).
    Audio16In32 = ("16-bit audio in i32", [I32]),
    /// 24-bit audio in 32-bit integers, left-justified (`s << 8`).
    Audio24In32 = ("24-bit audio in i32", [I32]),
    /// Q16.16 fixed point of integers up to 30000 (`k << 16`).
    FixedIntegers = ("fixed point of integers", [I32]),
    /// Packed 0xRRGGBBAA pixels of a picture, alpha 0xff in the low byte.
    Rgba = ("packed RGBA, opaque", [I32]),
    /// Magnitudes log-uniform far below 1 (f32: 1e-38..1e-10; f64: 1e-300..1e-20).
    TinyLogUniform = ("log-uniform tiny magnitudes", [F32, F64]),
    /// Magnitudes log-uniform far above 1 (f32: 1e10..1e38; f64: 1e20..1e300).
    HugeLogUniform = ("log-uniform huge magnitudes", [F32, F64]),
}

fn marker_share(rng: &mut Rng) -> f64 {
    [0.05, 0.1, 0.3, 0.5, 0.9][rng.below(5) as usize]
}

fn pixel(i: usize, rng: &mut Rng) -> f64 {
    let (x, y) = ((i % 28) as f64 - 13.5, ((i / 28) % 28) as f64 - 13.5);
    let r = (x * x + y * y).sqrt();
    if r > 9.0 {
        0.0
    } else {
        ((255.0 * (1.0 - r / 9.0)) + 40.0 * rng.normal())
            .clamp(0.0, 255.0)
            .round()
    }
}

/// Round `x` to `bits` significant bits (float16: 11, bfloat16: 8).
fn quantise(x: f64, bits: i32) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return x;
    }
    let e = x.abs().log2().floor() as i32;
    let scale = 2f64.powi(bits - 1 - e);
    (x * scale).round() / scale
}

/// The big-endian payload of `n` elements of `kind` in `t`, from `seed`.
pub fn big_endian(kind: Kind, t: Type, n: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng(seed
        .wrapping_mul(0x2545_f491_4f6c_dd1d)
        .wrapping_add(n as u64 * 31 + u64::from(t.code()) * 7 + kind as u64 * 1009));
    let vals = values(kind, t, n, &mut rng);
    let mut out = Vec::with_capacity(n * t.size());
    for v in vals {
        encode(t, v, &mut out);
    }
    out
}

/// What a writer that stored `big_endian`'s elements in little-endian
/// order would have written: every element's bytes reversed.
pub fn little_endian_twin(t: Type, big_endian: &[u8]) -> Vec<u8> {
    big_endian
        .chunks_exact(t.size())
        .flat_map(|c| c.iter().rev().copied())
        .collect()
}

fn values(kind: Kind, t: Type, n: usize, rng: &mut Rng) -> Vec<V> {
    let int = !t.is_float();
    let max = if int { t.int_max() } else { 0 };
    let min = if int { t.int_min() } else { 0 };
    let share = marker_share(rng);
    let mut state = 0.0f64; // running state of smooth kinds
    let mut acc = 0i64;
    let amplitude = 0.5 + rng.unit() * 2.0;
    let start = 1_500_000_000 + rng.below(300_000_000) as i64;
    let flags = 3 + rng.below(10) as u32;
    let constant = match t {
        Type::I16 => V::I(1 + rng.below(1000) as i64),
        Type::I32 => V::I(1 + rng.below(100_000) as i64),
        _ => V::F(quantise((rng.normal() * 10.0).abs() + 0.1, 24)),
    };
    let full = |rng: &mut Rng| -> i64 {
        let bits = rng.next_u64();
        if t == Type::I16 {
            i64::from(bits as i16)
        } else {
            i64::from(bits as i32)
        }
    };
    (0..n)
        .map(|i| match kind {
            Kind::Image => {
                let p = pixel(i, rng);
                if int {
                    V::I(p as i64)
                } else {
                    V::F(p / 255.0)
                }
            }
            Kind::Standardised => {
                let z = (pixel(i, rng) - 33.3) / 78.6;
                V::F(if int { z * 1000.0 } else { z })
            }
            Kind::Ramp => {
                if int {
                    V::I(i as i64)
                } else {
                    V::F(i as f64 * 0.5 + 1.0)
                }
            }
            Kind::Normal => V::F(if int {
                rng.normal() * 100.0
            } else {
                rng.normal()
            }),
            Kind::Uniform => {
                if int {
                    V::I(rng.below(10000) as i64)
                } else {
                    V::F(rng.unit())
                }
            }
            Kind::Labels => V::I(rng.below(10) as i64),
            Kind::Counts => V::I((-(rng.unit().max(1e-12)).ln() * 20.0).floor() as i64),
            Kind::Sparse => {
                if rng.below(20) != 0 {
                    V::I(0)
                } else if int {
                    V::I(1 + rng.below(9) as i64)
                } else {
                    V::F(rng.normal())
                }
            }
            Kind::Ids => V::I(rng.below(max as u64 + 1) as i64),
            Kind::IdsMin | Kind::IdsMax | Kind::IdsMinusOne | Kind::IdsZero => {
                if rng.chance(share) {
                    V::I(match kind {
                        Kind::IdsMin => min,
                        Kind::IdsMax => max,
                        Kind::IdsMinusOne => -1,
                        _ => 0,
                    })
                } else {
                    V::I(rng.below(max as u64 + 1) as i64)
                }
            }
            Kind::RandomMin => {
                if rng.chance(share) {
                    V::I(min)
                } else {
                    V::I(full(rng))
                }
            }
            Kind::RandomMax => {
                if rng.chance(share) {
                    V::I(max)
                } else {
                    V::I(full(rng))
                }
            }
            Kind::ClippedAudio => {
                // a sum of drifting tones, gain set so that 5-40 % clips
                let x = i as f64;
                let s = (x * 0.031).sin() * 0.6
                    + (x * 0.173 + 1.0).sin() * 0.3
                    + (x * 0.0047).sin() * 0.4
                    + rng.normal() * 0.05;
                let s = (s * amplitude).clamp(-1.0, 1.0);
                if int {
                    V::I((s * max as f64).round() as i64)
                } else {
                    V::F(s)
                }
            }
            Kind::QuietAudio => {
                let x = i as f64;
                let s = (x * 0.05).sin() * 0.002 * amplitude + rng.normal() * 0.0005;
                if int {
                    V::F(s * 32767.0)
                } else {
                    V::F(s)
                }
            }
            Kind::SaturatedCounters => {
                // counters of every scale (bit length), a share saturated
                if rng.chance(share) {
                    V::I(max)
                } else {
                    let l = 1 + rng.below(if t == Type::I16 { 15 } else { 31 }) as u32;
                    V::I((rng.next_u64() >> (64 - l)) as i64)
                }
            }
            Kind::Hashes => V::B(rng.next_u64()),
            Kind::Timestamps => {
                acc += rng.below(120) as i64;
                if int {
                    V::I(start + acc)
                } else {
                    V::F((start + acc) as f64 + rng.unit())
                }
            }
            Kind::TimestampsMs => {
                acc += rng.below(5000) as i64;
                V::F(((start + acc / 1000) * 1000 + acc % 1000) as f64)
            }
            Kind::Categories => {
                // skewed: low codes far more common
                let c = (rng.unit().powi(3) * 20.0) as i64;
                V::I(c)
            }
            Kind::Flags | Kind::FlagsSign => {
                let mut w = 0u64;
                for b in 0..flags {
                    if rng.chance(0.3) {
                        w |= 1 << b;
                    }
                }
                if kind == Kind::FlagsSign && rng.chance(0.5) {
                    w |= 1 << (8 * t.size() - 1);
                }
                V::B(w)
            }
            Kind::Adc => {
                state = (state * 0.98 + rng.normal() * 40.0).clamp(-2047.0, 2047.0);
                V::I((2048.0 + state) as i64)
            }
            Kind::PackedRgb => {
                let p = pixel(i, rng) as u64;
                let (r, g, b) = (p, (p * 3 / 4) % 256, (p / 2 + rng.below(20)) % 256);
                V::B((r << 16) | (g << 8) | b)
            }
            Kind::FixedPoint => {
                let frac = if t == Type::I16 { 256.0 } else { 65536.0 };
                let x = rng.normal() * if t == Type::I16 { 10.0 } else { 1000.0 };
                V::F(x * frac)
            }
            Kind::Float16 => V::F(quantise(rng.normal(), 11)),
            Kind::Bfloat16 => V::F(quantise(rng.normal(), 8)),
            Kind::NanMissing => {
                if rng.chance(share) {
                    V::F(f64::NAN)
                } else {
                    V::F(rng.normal())
                }
            }
            Kind::Infinities => {
                if rng.chance(share) {
                    V::F(if rng.chance(0.5) {
                        f64::INFINITY
                    } else {
                        f64::NEG_INFINITY
                    })
                } else {
                    V::F(rng.normal())
                }
            }
            Kind::Subnormals => {
                // exp(-k x) reaching below the smallest normal number
                let floor = if t == Type::F32 { 1e-45f64 } else { 5e-324 };
                let last = if t == Type::F32 { 110.0f64 } else { 760.0 };
                let x = (i % 100) as f64 / 100.0;
                let v = (-last * x * std::f64::consts::LN_10).exp() * (1.0 + 0.1 * rng.unit());
                V::F(if v < floor { 0.0 } else { v })
            }
            Kind::AllSubnormal => {
                let smallest_normal = if t == Type::F32 {
                    f64::from(f32::MIN_POSITIVE)
                } else {
                    f64::MIN_POSITIVE
                };
                V::F(smallest_normal * rng.unit() * if rng.chance(0.5) { 1.0 } else { -1.0 })
            }
            Kind::Constant => constant,
            Kind::Runs => {
                if i % 300 == 0 {
                    state = if int {
                        rng.below(2000) as f64 - 1000.0
                    } else {
                        quantise(rng.normal(), 24)
                    };
                }
                V::F(state)
            }
            Kind::OneHot => {
                if i % 10 == 0 {
                    state = rng.below(10) as f64;
                }
                V::I(i64::from((i % 10) as f64 == state))
            }
            Kind::Probabilities | Kind::LogProbabilities => {
                // one row of 10 logits at a time, softmax taken per element
                if i % 10 == 0 {
                    state = rng.below(10) as f64;
                }
                let logit = if (i % 10) as f64 == state {
                    5.0 + rng.normal()
                } else {
                    rng.normal()
                };
                // the normaliser of a peaked row: about e^5 + 9 e^0.5
                let p = (logit - (5.0f64.exp() + 9.0 * 0.5f64.exp()).ln()).exp();
                if kind == Kind::Probabilities {
                    V::F(p)
                } else {
                    V::F(p.ln())
                }
            }
            Kind::TinyGradients => V::F(rng.normal() * 1e-7),
            Kind::Huge => {
                let (lo, hi) = if t == Type::F32 {
                    (20.0, 30.0)
                } else {
                    (100.0, 200.0)
                };
                V::F(
                    10f64.powf(lo + (hi - lo) * rng.unit())
                        * if rng.chance(0.5) { 1.0 } else { -1.0 },
                )
            }
            Kind::IntegersAsFloats => V::I(rng.below(1000) as i64),
            Kind::CumulativeSums => {
                acc += (-(rng.unit().max(1e-12)).ln() * 1000.0) as i64;
                V::I(acc)
            }
            Kind::DepthMap => {
                let invalid = rng.chance(0.2 + 0.2 * ((i / 28) % 2) as f64);
                state = (state * 0.9 + rng.normal() * 30.0).clamp(-1000.0, 1000.0);
                let mm = 1500.0 + state + (i % 28) as f64 * 20.0;
                if invalid {
                    V::I(0)
                } else if int {
                    V::F(mm)
                } else {
                    V::F(mm / 1000.0)
                }
            }
            Kind::Audio16In32 | Kind::Audio24In32 => {
                let x = i as f64;
                let s = (x * 0.031).sin() * 0.5 + (x * 0.173).sin() * 0.3 + rng.normal() * 0.02;
                if kind == Kind::Audio16In32 {
                    V::I(((s * 32000.0) as i64) << 16)
                } else {
                    V::I(((s * 8_000_000.0) as i64) << 8)
                }
            }
            Kind::FixedIntegers => V::I((rng.below(30000) as i64) << 16),
            Kind::Rgba => {
                let p = pixel(i, rng) as u64;
                let (r, g, b) = (p, (p * 3 / 4) % 256, (p / 2 + rng.below(20)) % 256);
                V::B((r << 24) | (g << 16) | (b << 8) | 0xff)
            }
            Kind::TinyLogUniform | Kind::HugeLogUniform => {
                let (lo, hi) = match (kind, t) {
                    (Kind::TinyLogUniform, Type::F32) => (-38.0, -10.0),
                    (Kind::TinyLogUniform, _) => (-300.0, -20.0),
                    (_, Type::F32) => (10.0, 38.0),
                    _ => (20.0, 300.0),
                };
                V::F(
                    10f64.powf(lo + (hi - lo) * rng.unit())
                        * if rng.chance(0.5) { 1.0 } else { -1.0 },
                )
            }
            Kind::MostlyMax => {
                if rng.chance(0.9) {
                    V::I(max)
                } else {
                    V::I(full(rng))
                }
            }
        })
        .collect()
}

/// The README's example of the IDX technical report's writer: `arange(24)`
/// as f32 `[2, 3, 4]`, the header big-endian and the elements in native
/// (little-endian) order: the file every front end must give one verdict.
pub fn report_writer_file() -> Vec<u8> {
    let mut b = vec![0, 0, 0x0d, 3, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4];
    for i in 0..24u8 {
        b.extend_from_slice(&f32::from(i).to_le_bytes());
    }
    b
}
