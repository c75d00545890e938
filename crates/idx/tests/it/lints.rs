//! The byte-order lint (IDX501) must stay silent on genuine big-endian data
//! and fire on the same data written little-endian.

use idx::{validate, Rule};

/// A deterministic xorshift generator (no dependency, same data every run).
struct XorShift(u64);
impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    fn gauss(&mut self) -> f64 {
        let (u, v) = (self.unit().max(1e-300), self.unit());
        (-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()
    }
}

fn file(code: u8, n: usize, payload: Vec<u8>) -> Vec<u8> {
    let mut out = vec![0, 0, code, 1];
    out.extend_from_slice(&(n as u32).to_be_bytes());
    out.extend(payload);
    out
}

fn fires(bytes: &[u8]) -> bool {
    validate(bytes)
        .findings
        .iter()
        .any(|f| f.rule == Rule::LikelyLittleEndian)
}

macro_rules! both_orders {
    ($name:literal, $code:expr, $values:expr) => {{
        let values: Vec<_> = $values;
        let be = file(
            $code,
            values.len(),
            values.iter().flat_map(|v| v.to_be_bytes()).collect(),
        );
        let le = file(
            $code,
            values.len(),
            values.iter().flat_map(|v| v.to_le_bytes()).collect(),
        );
        assert!(!fires(&be), "{}: fired on big-endian data", $name);
        assert!(fires(&le), "{}: silent on little-endian data", $name);
    }};
}

#[test]
fn smooth_signals() {
    both_orders!(
        "i16 sine",
        0x0b,
        (0..4000)
            .map(|i| (12000.0 * (i as f64 / 40.0).sin()) as i16)
            .collect()
    );
    both_orders!(
        "i32 ramp",
        0x0c,
        (0..4000i32).map(|i| i * 1000 - 2_000_000).collect()
    );
    both_orders!(
        "f32 sine",
        0x0d,
        (0..4000).map(|i| (i as f32 / 30.0).sin() * 5.0).collect()
    );
    both_orders!(
        "f64 decay",
        0x0e,
        (1..4000).map(|i| (-(i as f64) / 500.0).exp()).collect()
    );
}

#[test]
fn small_integer_labels() {
    let mut r = XorShift(7);
    both_orders!(
        "i32 labels",
        0x0c,
        (0..2000).map(|_| (r.next() % 10) as i32).collect()
    );
    both_orders!(
        "i16 labels",
        0x0b,
        (0..2000).map(|_| (r.next() % 10) as i16).collect()
    );
}

#[test]
fn gaussian_floats() {
    let mut r = XorShift(11);
    both_orders!(
        "f32 gaussian",
        0x0d,
        (0..5000).map(|_| r.gauss() as f32).collect()
    );
    both_orders!(
        "f64 gaussian",
        0x0e,
        (0..5000).map(|_| r.gauss() * 1e-3).collect()
    );
    both_orders!(
        "f32 mnist-like",
        0x0d,
        (0..5000)
            .map(|i| if i % 5 == 0 { r.unit() as f32 } else { 0.0 })
            .collect()
    );
}

#[test]
fn silent_on_data_without_order_information() {
    let mut r = XorShift(3);
    // uniform random bits look the same both ways
    let noise: Vec<u8> = (0..8000).map(|_| r.next() as u8).collect();
    assert!(!fires(&file(0x0c, 2000, noise.clone())));
    assert!(!fires(&file(0x0d, 2000, noise)));
    // palindromic elements read the same both ways
    let palindromes: Vec<u8> = (0..1000u16).flat_map(|v| [v as u8, v as u8]).collect();
    assert!(!fires(&file(0x0b, 1000, palindromes)));
    // all zeros: nothing to score
    assert!(!fires(&file(0x0d, 1000, vec![0; 4000])));
}

#[test]
fn non_finite_values_are_counted_everywhere_not_only_in_the_sample() {
    let n = 20_000usize;
    let mut values: Vec<f32> = (0..n).map(|i| (i as f32 / 50.0).sin()).collect();
    values[9_000] = f32::from_bits(0x7fc0_0001); // NaN outside the first sample block
    values[15_000] = f32::NEG_INFINITY;
    values[15_001] = f32::from_bits(0x7f80_0001); // signalling NaN
    let bytes = file(
        0x0d,
        n,
        values.iter().flat_map(|v| v.to_be_bytes()).collect(),
    );
    let r = validate(&bytes);
    let f: Vec<_> = r
        .findings
        .iter()
        .filter(|f| f.rule == Rule::NonFinite)
        .collect();
    assert_eq!(f.len(), 1);
    assert_eq!((f[0].offset, f[0].length), (8 + 9_000 * 4, 4));
    assert_eq!(
        f[0].message,
        "the float payload holds 2 NaN values and 1 infinite value"
    );
    // the same through every chunking
    for step in [1usize, 3, 4093, 65536] {
        let mut v = idx::Validator::new(idx::Options::default());
        bytes.chunks(step).for_each(|c| v.feed(c));
        assert_eq!(v.finish(), r, "chunk {step}");
    }
    // f64 too
    let mut d: Vec<f64> = (0..n).map(|i| i as f64).collect();
    d[12_345] = f64::INFINITY;
    let bytes = file(0x0e, n, d.iter().flat_map(|v| v.to_be_bytes()).collect());
    let r = validate(&bytes);
    let f = r
        .findings
        .iter()
        .find(|f| f.rule == Rule::NonFinite)
        .unwrap();
    assert_eq!(
        (f.offset, f.message.as_str()),
        (
            8 + 12_345 * 8,
            "the float payload holds 0 NaN values and 1 infinite value"
        )
    );
}

#[test]
fn large_payloads_are_judged_on_the_sample() {
    let mut r = XorShift(5);
    both_orders!(
        "f32 gaussian, 1M",
        0x0d,
        (0..1_000_000).map(|_| r.gauss() as f32).collect()
    );
    both_orders!(
        "i16 sine, 1M",
        0x0b,
        (0..1_000_000)
            .map(|i| (9000.0 * (i as f64 / 300.0).sin()) as i16)
            .collect()
    );
}

/// A reader that hands out its bytes in the given sizes, cycling.
struct Pieces<'a> {
    data: &'a [u8],
    sizes: &'a [usize],
    k: usize,
}

impl std::io::Read for Pieces<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.sizes[self.k % self.sizes.len()]
            .min(buf.len())
            .min(self.data.len());
        self.k += 1;
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

/// Streaming validation reads a small input through a small buffer and
/// switches to the large one after the first full read; non-finite values
/// before, across and after the switch and the chunk boundaries are counted
/// and located as in memory, for f32 and f64 (rank 1: the f64 payload then
/// starts 4 bytes off an 8-byte boundary) and rank 2.
#[test]
fn streaming_counts_non_finite_values_like_in_memory_across_buffer_sizes() {
    let n = 200_000usize;
    for (code, size, rank2) in [(0x0d, 4, false), (0x0e, 8, false), (0x0e, 8, true)] {
        let mut payload: Vec<u8> = Vec::new();
        for i in 0..n {
            let x = (i as f64 / 70.0).sin();
            if size == 4 {
                payload.extend_from_slice(&(x as f32).to_be_bytes());
            } else {
                payload.extend_from_slice(&x.to_be_bytes());
            }
        }
        let nan: &[u8] = if size == 4 {
            &[0x7f, 0xc0, 0, 1]
        } else {
            &[0x7f, 0xf8, 0, 0, 0, 0, 0, 1]
        };
        let inf: &[u8] = if size == 4 {
            &[0xff, 0x80, 0, 0]
        } else {
            &[0xff, 0xf0, 0, 0, 0, 0, 0, 0]
        };
        // elements around 16 KiB, 256 KiB and the end
        let at = [
            16 * 1024 / size - 1,
            16 * 1024 / size + 1,
            262_144 / size,
            n - 1,
        ];
        for (j, &e) in at.iter().enumerate() {
            let v = if j % 2 == 0 { nan } else { inf };
            payload[e * size..(e + 1) * size].copy_from_slice(v);
        }
        let mut bytes = if rank2 {
            let mut b = vec![0, 0, code, 2];
            b.extend_from_slice(&(n as u32 / 2).to_be_bytes());
            b.extend_from_slice(&2u32.to_be_bytes());
            b
        } else {
            let mut b = vec![0, 0, code, 1];
            b.extend_from_slice(&(n as u32).to_be_bytes());
            b
        };
        let start = bytes.len() as u64;
        bytes.extend(payload);
        let r = validate(&bytes);
        let f = r
            .findings
            .iter()
            .find(|f| f.rule == Rule::NonFinite)
            .expect("a non-finite finding");
        assert_eq!(f.offset, start + (at[0] * size) as u64);
        assert_eq!(
            f.message,
            "the float payload holds 2 NaN values and 2 infinite values"
        );
        for sizes in [
            &[usize::MAX][..],
            &[16 * 1024, 5, 262_144 + 3][..],
            &[7, 16 * 1024][..],
        ] {
            let reader = Pieces {
                data: &bytes,
                sizes,
                k: 0,
            };
            let s = idx::validate_reader(reader, &idx::Options::default()).unwrap();
            assert_eq!(s, r, "type {code:#x}, pieces {sizes:?}");
        }
    }
}

/// i16 values written (little-endian, natively) under an i32 header whose
/// dimensions fit both (10000 i16 counts under `[5000]` i32): the
/// byte-order test calls the i32 payload little-endian, but it is an
/// element-width mismatch; the finding says so and offers no i32 byte swap
/// (which would garble the counts).
#[test]
fn i16_counts_under_an_i32_header_are_a_width_mismatch_not_a_byte_order() {
    let mut state = 3u64;
    let counts: Vec<i16> = (0..10_000)
        .map(|i| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            // a slowly varying rate plus noise: counts in 0..=1000
            let rate = 400.0 + 300.0 * ((i as f64) / 500.0).sin();
            (rate + ((state >> 40) % 101) as f64 - 50.0) as i16
        })
        .collect();
    let payload: Vec<u8> = counts.iter().flat_map(|v| v.to_le_bytes()).collect();
    let bytes = file(0x0c, 5000, payload);
    let r = validate(&bytes);
    let f = r
        .findings
        .iter()
        .find(|f| f.rule == Rule::LikelyLittleEndian)
        .expect("the i32 reading alone looks little-endian");
    assert_eq!(f.severity(), idx::Severity::Warning);
    // the message (every reader's) gives the score and the diagnosis
    assert!(
        f.message.contains("reads as little-endian: score")
            && f.message
                .contains("but far better as little-endian i16 values")
            && f.message
                .contains("probably an element-width mismatch, not an i32 byte order"),
        "{}",
        f.message
    );
    let hint = f.hint.as_deref().unwrap_or_default();
    assert!(
        hint.contains("i16 elements (type code 0x0b, twice the first dimension)"),
        "{hint}"
    );
    assert!(f.fix.is_none(), "no byte swap: {:?}", f.fix);
    // a reader warns with the same finding, whole: the diagnosis in its
    // message, and no swap (its report keeps no payload bytes to look at)
    let (_, warnings) = idx::Reader::new(&bytes[..], &idx::ReadOptions::default())
        .and_then(idx::Reader::read_array)
        .unwrap(); // ok: a valid file
    assert_eq!(warnings, std::slice::from_ref(f));
    // the same values as i32 written little-endian stay a byte-order finding
    let le: Vec<u8> = counts[..5000]
        .iter()
        .flat_map(|&v| i32::from(v).to_le_bytes())
        .collect();
    let r = validate(&file(0x0c, 5000, le));
    let f = r
        .findings
        .iter()
        .find(|f| f.rule == Rule::LikelyLittleEndian)
        .unwrap();
    let hint = f.hint.as_deref().unwrap_or_default();
    assert!(
        !hint.contains("width") && !f.message.contains("width"),
        "{f:?}"
    );
    assert!(f.fix.is_some());
}

/// Pixels packed one per i32 (`0x00RRGGBB`) also read as pairs of i16, but
/// their constant top byte says what they are: no width diagnosis.
#[test]
fn packed_pixels_are_not_diagnosed_as_i16_pairs() {
    let pixels: Vec<u8> = (0..4096u32)
        .flat_map(|i| {
            let (x, y) = (i % 64, i / 64);
            let rgb = ((x * 4) << 16) | ((y * 4) << 8) | ((x + y) * 2);
            rgb.to_be_bytes()
        })
        .collect();
    let r = validate(&file(0x0c, 4096, pixels));
    assert!(
        r.findings
            .iter()
            .any(|f| f.rule == Rule::LikelyLittleEndian),
        "packed pixels do read little-endian: {:?}",
        r.findings
    );
    for f in &r.findings {
        let hint = f.hint.as_deref().unwrap_or_default();
        assert!(!hint.contains("width"), "{hint}");
    }
}

/// i16 values stored so that every i32 word is a byte palindrome (`a,
/// a+1, a+1, a`: i16 values `257 a + 1` and `257 a + 256`), with the byte
/// order stated little-endian: the i32 words read the same either way
/// round, the test scores exactly 0 bits, and the note says that only the
/// statement decides. The width diagnosis answers an i32 payload that
/// reads more plausibly little-endian (its hint says an i32 byte swap
/// would garble the values; here a swap changes nothing), so the note
/// keeps its own hint, although the i16 reading is far better.
#[test]
fn i32_words_that_read_the_same_either_way_get_no_width_diagnosis() {
    let payload: Vec<u8> = (1..=64u8).flat_map(|a| [a, a + 1, a + 1, a]).collect();
    let s16 = idx::lint::byteorder::score(idx::ElementType::I16, &payload).unwrap();
    let s32 = idx::lint::byteorder::score(idx::ElementType::I32, &payload).unwrap();
    let best16 = s16.big_bits.max(s16.little_bits);
    let best32 = s32.big_bits.max(s32.little_bits);
    assert!(
        best16 >= best32 + idx::lint::byteorder::CERTAIN_BITS,
        "{s16:?} {s32:?}"
    );
    let opts = idx::Options::default().with_byte_order(Some(idx::ByteOrder::Little));
    let r = idx::validate_with(&file(0x0c, 64, payload), &opts);
    let f = r
        .findings
        .iter()
        .find(|f| f.rule == Rule::LikelyLittleEndian)
        .expect("the note on a stated order");
    assert_eq!(f.severity(), idx::Severity::Info);
    assert!(f.byte_order.is_some_and(|s| s.bits == 0.0), "{f:?}");
    assert_eq!(
        f.hint.as_deref(),
        Some("the bytes read about as plausibly either way: only the statement says how they were written"),
        "{f:?}"
    );
    assert!(f.fix.is_none(), "{:?}", f.fix);
}

/// The reserved bytes' fix is offered only when every other error has a
/// fix: an IDX501 error that a diagnosed element width answers counts as
/// fixed (i16 counts under an i32 header, IDX501 made an error).
#[test]
fn reserved_bytes_are_fixable_beside_an_idx501_error_the_width_diagnosis_answers() {
    let counts: Vec<i16> = (0..10_000)
        .map(|i| (400.0 + 300.0 * (f64::from(i) / 500.0).sin()) as i16)
        .collect();
    let payload: Vec<u8> = counts.iter().flat_map(|v| v.to_le_bytes()).collect();
    let mut bytes = file(0x0c, 5000, payload);
    bytes[1] = 7;
    let severity: idx::Severities = "IDX501=error".parse().unwrap();
    let r = idx::validate_with(&bytes, &idx::Options::default().with_severity(severity));
    let f = |rule| r.findings.iter().find(|f| f.rule == rule).unwrap();
    let lint = f(Rule::LikelyLittleEndian);
    assert_eq!(lint.severity(), idx::Severity::Error);
    assert!(lint.fix.is_none(), "{:?}", lint.fix);
    assert!(
        lint.message
            .contains("far better as little-endian i16 values")
            && lint.message.contains("over its first 1016 bytes"),
        "{}",
        lint.message
    );
    assert!(f(Rule::ReservedBytes).fix.is_some(), "{:?}", r.findings);
}

/// ... but not beside an error left without a fix: 64-bit integers under
/// a u8 header (IDX has no such type, so the width's hint has no fix), or
/// an IDX501 error saying a stated little-endian order reads big-endian.
#[test]
fn reserved_bytes_are_not_fixable_beside_an_error_without_a_fix() {
    let vals: Vec<i64> = (0..100).collect();
    let mut bytes = file(
        0x08,
        100,
        vals.iter().flat_map(|v| v.to_be_bytes()).collect(),
    );
    bytes[1] = 7;
    let r = validate(&bytes);
    let trailing = r
        .findings
        .iter()
        .find(|f| f.rule == Rule::TrailingBytes)
        .unwrap();
    assert!(trailing
        .hint
        .as_deref()
        .unwrap_or_default()
        .contains("64-bit integers"));
    assert!(trailing.fix.is_none());
    let reserved = r
        .findings
        .iter()
        .find(|f| f.rule == Rule::ReservedBytes)
        .unwrap();
    assert!(reserved.fix.is_none(), "{:?}", reserved.fix);

    // big-endian f64 under an f32 header (the width's fix: type f64),
    // stated little-endian: the f32 reading says big-endian
    let vals: Vec<f64> = (0..200)
        .map(|i| 1.0 + (f64::from(i) / 20.0).sin())
        .collect();
    let mut bytes = file(
        0x0d,
        200,
        vals.iter().flat_map(|v| v.to_be_bytes()).collect(),
    );
    bytes[1] = 7;
    let opts = idx::Options::default()
        .with_byte_order(Some(idx::ByteOrder::Little))
        .with_severity("IDX501=error".parse().unwrap());
    let r = idx::validate_with(&bytes, &opts);
    let f = |rule| r.findings.iter().find(|f| f.rule == rule).unwrap();
    assert!(f(Rule::TrailingBytes).fix.is_some(), "{:?}", r.findings);
    let lint = f(Rule::LikelyLittleEndian);
    assert_eq!(lint.severity(), idx::Severity::Error);
    assert!(lint.byte_order.is_some_and(|s| s.bits < 0.0), "{lint:?}");
    assert!(f(Rule::ReservedBytes).fix.is_none(), "{:?}", r.findings);
}

/// The width diagnosis needs the i16 reading far better than the i32 one
/// (by `CERTAIN_BITS`): these noisy i16 counts read about as well either
/// way (2015.5 bits as i16, 2014.8 as i32), so the i32 finding stands,
/// with its swap.
#[test]
fn i16_counts_reading_no_better_as_i16_than_as_i32_are_no_width_mismatch() {
    let mut state = 3u64;
    let counts: Vec<i16> = (0..10_000)
        .map(|i| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let rate = 400.0 + 300.0 * (f64::from(i) / 200.0).sin();
            (rate + ((state >> 40) % 22) as f64) as i16
        })
        .collect();
    let payload: Vec<u8> = counts.iter().flat_map(|v| v.to_le_bytes()).collect();
    let r = validate(&file(0x0c, 5000, payload));
    let f = r
        .findings
        .iter()
        .find(|f| f.rule == Rule::LikelyLittleEndian)
        .unwrap();
    let hint = f.hint.as_deref().unwrap_or_default();
    assert!(!hint.contains("i16"), "{hint}");
    assert!(f.fix.is_some(), "{f:?}");
}

#[test]
fn with_the_lints_off_no_float_payload_is_said_to_hold_non_finite_values() {
    // (the non-finite value among the first elements, which the byte-order
    // test reads before it settles)
    let n = 1_000usize;
    let f32s: Vec<u8> = (0..n)
        .map(|i| if i == 3 { f32::NAN } else { i as f32 })
        .flat_map(f32::to_be_bytes)
        .collect();
    let f64s: Vec<u8> = (0..n)
        .map(|i| if i == 3 { f64::INFINITY } else { i as f64 })
        .flat_map(f64::to_be_bytes)
        .collect();
    for (code, payload) in [(0x0d, f32s), (0x0e, f64s)] {
        let bytes = file(code, n, payload);
        let has = |opts: &idx::Options| {
            idx::validate_with(&bytes, opts)
                .findings
                .iter()
                .any(|f| f.rule == Rule::NonFinite)
        };
        assert!(has(&idx::Options::default()), "type {code:#x}");
        assert!(
            !has(&idx::Options::default().with_lints(false)),
            "type {code:#x}"
        );
    }
}

/// A payload whose values differ in one byte alone is byte for byte the
/// byte-swapped twin of values 2^k times further apart (`0a 00` is 10
/// little-endian and 2560 big-endian): the warning says the sizes of the
/// values alone decide it (not "strong evidence", whatever the score) and
/// how to say the bytes are right, in validation and in a reader alike; a
/// payload whose values differ in two bytes keeps the evidence's strength.
#[test]
fn a_payload_varying_in_one_byte_is_decided_by_the_sizes_of_its_values_alone() {
    let idx501 = |bytes: &[u8]| {
        let r = validate(bytes);
        let f = r
            .findings
            .into_iter()
            .find(|f| f.rule == Rule::LikelyLittleEndian)
            .expect("an IDX501 warning");
        let (_, warned) = idx::Reader::new(bytes, &idx::ReadOptions::default())
            .and_then(idx::Reader::read_array)
            .unwrap(); // ok: a valid file
        assert_eq!(warned, std::slice::from_ref(&f), "one verdict");
        f
    };
    // pixels as i16 written little-endian: `v 00`
    let pixels: Vec<u8> = (0..200u16)
        .flat_map(|i| ((i * 37) % 251).to_le_bytes())
        .collect();
    let f = idx501(&file(0x0b, 200, pixels));
    assert!(
        f.message.contains("score ")
            && f.message.contains("from the sizes of its values alone")
            && f.message.contains("differ in their first byte alone")
            && f.message.contains("256 times further apart")
            && !f.message.contains("strong evidence"),
        "{}",
        f.message
    );
    let hint = f.hint.as_deref().unwrap_or_default();
    assert!(
        hint.starts_with("the bytes cannot tell values written little-endian from values 256 times further apart")
            && hint.contains("idx-validate --assume-byte-order big")
            && hint.contains("numpy '<i2'"),
        "{hint}"
    );
    // i32 `00 v 00 00`: v << 16 big-endian, v << 8 little-endian
    let shifted: Vec<u8> = (0..200u32)
        .flat_map(|i| (((i * 37) % 251 + 1) << 8).to_le_bytes())
        .collect();
    let f = idx501(&file(0x0c, 200, shifted));
    assert!(
        f.message.contains("differ in their second byte alone")
            && f.message.contains("256 times further apart"),
        "{}",
        f.message
    );
    // i32 `v 00 00 00`: 2^24 times
    let labels: Vec<u8> = (0..200u32)
        .flat_map(|i| (i % 250 + 1).to_le_bytes())
        .collect();
    let f = idx501(&file(0x0c, 200, labels));
    assert!(
        f.message.contains("16777216 times further apart"),
        "{}",
        f.message
    );
    // two varying bytes: the evidence's strength, as before
    let counts: Vec<u8> = (0..200u16)
        .flat_map(|i| (i * 5 + 300).to_le_bytes())
        .collect();
    let f = idx501(&file(0x0b, 200, counts));
    assert!(
        f.message
            .contains("(strong evidence: from 48 bits; a statistical test, not a proof)"),
        "{}",
        f.message
    );
    assert!(!f.hint.unwrap_or_default().contains("cannot tell"));
}
