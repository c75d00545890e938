//! quickcheck properties of parse, validate and write.

use idx::fuzzing;
use idx::{parse, to_bytes, validate, Array, Data, ElementType, Rule};
use quickcheck::{Arbitrary, Gen, TestResult};

/// An array IDX can hold: any type, rank 0 to 4, dims 0 to 6, any bits.
#[derive(Debug, Clone)]
struct Arb(Array);

fn data_of(dtype: ElementType, g: &mut Gen, n: usize) -> Data {
    match dtype {
        ElementType::U8 => Data::U8((0..n).map(|_| u8::arbitrary(g)).collect()),
        ElementType::I8 => Data::I8((0..n).map(|_| i8::arbitrary(g)).collect()),
        ElementType::I16 => Data::I16((0..n).map(|_| i16::arbitrary(g)).collect()),
        ElementType::I32 => Data::I32((0..n).map(|_| i32::arbitrary(g)).collect()),
        // bit patterns, so NaN payloads, -0.0 and subnormals all occur
        ElementType::F32 => Data::F32((0..n).map(|_| f32::from_bits(u32::arbitrary(g))).collect()),
        ElementType::F64 => Data::F64((0..n).map(|_| f64::from_bits(u64::arbitrary(g))).collect()),
    }
}

impl Arbitrary for Arb {
    fn arbitrary(g: &mut Gen) -> Self {
        let dtype = *g.choose(&ElementType::ALL).unwrap();
        // A quarter are long vectors, so that the payload lints have data.
        let dims: Vec<usize> = if u8::arbitrary(g) % 4 == 0 {
            vec![usize::arbitrary(g) % 300]
        } else {
            let rank = usize::arbitrary(g) % 5;
            (0..rank).map(|_| usize::arbitrary(g) % 7).collect()
        };
        let n = dims.iter().product();
        Arb(Array::new(dims, data_of(dtype, g, n)).unwrap())
    }

    /// Shrinks the outermost dimension, keeping the leading items.
    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        let (dims, data) = self.0.clone().into_parts();
        let Some(&first) = dims.first() else {
            return Box::new(std::iter::empty());
        };
        let item: usize = dims[1..].iter().product();
        let out = first.shrink().map(move |d| {
            let mut nd = dims.clone();
            nd[0] = d;
            let keep = d * item;
            let data = match &data {
                Data::U8(v) => Data::U8(v[..keep].to_vec()),
                Data::I8(v) => Data::I8(v[..keep].to_vec()),
                Data::I16(v) => Data::I16(v[..keep].to_vec()),
                Data::I32(v) => Data::I32(v[..keep].to_vec()),
                Data::F32(v) => Data::F32(v[..keep].to_vec()),
                Data::F64(v) => Data::F64(v[..keep].to_vec()),
            };
            Arb(Array::new(nd, data).unwrap())
        });
        Box::new(out.collect::<Vec<_>>().into_iter())
    }
}

/// A valid file, then up to three edits: byte overwrites, cuts, appends.
#[derive(Debug, Clone)]
struct Mutated(Vec<u8>);

impl Arbitrary for Mutated {
    fn arbitrary(g: &mut Gen) -> Self {
        let mut bytes = to_bytes(&Arb::arbitrary(g).0).unwrap();
        for _ in 0..usize::arbitrary(g) % 4 {
            match u8::arbitrary(g) % 4 {
                0 if !bytes.is_empty() => {
                    // mostly hit the header, where the rules are
                    let at = usize::arbitrary(g)
                        % bytes
                            .len()
                            .min(if bool::arbitrary(g) { 16 } else { usize::MAX });
                    bytes[at] = u8::arbitrary(g);
                }
                1 if !bytes.is_empty() => {
                    let at = usize::arbitrary(g) % bytes.len();
                    bytes.truncate(at);
                }
                2 => {
                    let n = 1 + usize::arbitrary(g) % 8;
                    bytes.extend((0..n).map(|_| u8::arbitrary(g)));
                }
                _ => {}
            }
        }
        Mutated(bytes)
    }
    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        Box::new(self.0.shrink().map(Mutated))
    }
}

#[test]
fn write_then_parse_is_identity() {
    fn prop(a: Arb) -> bool {
        fuzzing::roundtrip_array_target(&a.0);
        true
    }
    test_support::quickcheck(
        "props::write_then_parse_is_identity",
        100,
        prop as fn(Arb) -> bool,
    );
}

#[test]
fn parsed_bytes_write_back_identically() {
    fn prop(m: Mutated) -> bool {
        fuzzing::roundtrip_bytes_target(&m.0);
        true
    }
    test_support::quickcheck(
        "props::parsed_bytes_write_back_identically",
        100,
        prop as fn(Mutated) -> bool,
    );
}

#[test]
fn arbitrary_bytes_never_panic_and_stay_in_range() {
    fn prop(bytes: Vec<u8>) -> bool {
        fuzzing::parse_target(&bytes);
        true
    }
    test_support::quickcheck(
        "props::arbitrary_bytes_never_panic_and_stay_in_range",
        100,
        prop as fn(Vec<u8>) -> bool,
    );
}

#[test]
fn mutated_files_parse_iff_no_error() {
    fn prop(m: Mutated) -> bool {
        fuzzing::parse_target(&m.0);
        true
    }
    test_support::quickcheck(
        "props::mutated_files_parse_iff_no_error",
        100,
        prop as fn(Mutated) -> bool,
    );
}

#[test]
fn streaming_equals_in_memory() {
    fn prop(m: Mutated, sizes: Vec<u8>) -> bool {
        let mut input = vec![sizes.len().min(7) as u8];
        input.extend(sizes.iter().take(7));
        input.extend(&m.0);
        fuzzing::validate_stream_target(&input);
        true
    }
    test_support::quickcheck(
        "props::streaming_equals_in_memory",
        100,
        prop as fn(Mutated, Vec<u8>) -> bool,
    );
}

#[test]
fn every_strict_prefix_is_rejected_at_its_end() {
    fn prop(a: Arb) -> TestResult {
        let bytes = to_bytes(&a.0).unwrap();
        for cut in 0..bytes.len() {
            let prefix = &bytes[..cut];
            let Err(e) = parse(prefix) else {
                return TestResult::error(format!("prefix {cut} parsed"));
            };
            let truncation = matches!(
                e.rule(),
                Rule::TruncatedMagic | Rule::TruncatedDimensions | Rule::TruncatedPayload
            );
            if !truncation || e.offset() != cut as u64 || e.length() != 0 {
                return TestResult::error(format!("prefix {cut}: {e}"));
            }
            // the structure says exactly this, whatever the lints say of
            // the elements present
            let structure = idx::validate_with(
                prefix,
                &idx::Options::default()
                    .with_lints(false)
                    .with_byte_order_test(false),
            );
            let errors: Vec<_> = structure
                .errors()
                .map(|f| (f.rule, f.offset, f.length))
                .collect();
            if errors != [(e.rule(), cut as u64, 0)] {
                return TestResult::error(format!("prefix {cut}: {errors:?}"));
            }
            if !validate(prefix)
                .errors()
                .any(|f| (f.rule, f.offset, f.length) == (e.rule(), cut as u64, 0))
            {
                return TestResult::error(format!("prefix {cut}: no truncation with the lints on"));
            }
        }
        TestResult::passed()
    }
    test_support::quickcheck(
        "props::every_strict_prefix_is_rejected_at_its_end",
        100,
        prop as fn(Arb) -> TestResult,
    );
}

#[test]
fn streaming_agrees_on_gzip_damage_through_any_chunking() {
    use std::io::Write;
    let bytes = to_bytes(
        &Array::from_vec(
            vec![64, 64],
            (0..4096).map(|i| i as f32).collect::<Vec<f32>>(),
        )
        .unwrap(),
    )
    .unwrap();
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(&bytes).unwrap();
    let gz = e.finish().unwrap();
    for cut in [gz.len() / 3, gz.len() / 2, gz.len() - 3, gz.len()] {
        for sizes in [&[1u8][..], &[3, 200], &[255]] {
            let mut input = vec![sizes.len() as u8];
            input.extend(sizes);
            input.extend(&gz[..cut]);
            fuzzing::validate_stream_target(&input);
        }
    }
}

/// Structure-only validation (the header fed, the rest skipped by
/// length) finds exactly what full validation without lints finds.
#[test]
fn skipping_the_payload_finds_the_same_structure() {
    fn prop(m: Mutated) -> bool {
        let opts = idx::Options::default()
            .with_lints(false)
            .with_byte_order_test(false);
        let full = idx::validate_with(&m.0, &opts);
        let mut v = idx::Validator::new(opts);
        let head = m.0.len().min(idx::MAX_HEADER_LEN);
        v.feed(&m.0[..head]);
        v.skip((m.0.len() - head) as u64);
        let quick = v.finish();
        let key = |r: &idx::Report| {
            r.findings
                .iter()
                .map(|f| (f.rule, f.offset, f.length))
                .collect::<Vec<_>>()
        };
        key(&full) == key(&quick)
            && full.header == quick.header
            && full.stream_len == quick.stream_len
    }
    test_support::quickcheck(
        "props::skipping_the_payload_finds_the_same_structure",
        100,
        prop as fn(Mutated) -> bool,
    );
}

#[test]
fn report_keeps_head_and_tail_bytes() {
    fn prop(m: Mutated) -> bool {
        let r = validate(&m.0);
        let n = m.0.len();
        r.head == m.0[..n.min(1024)]
            && r.tail == m.0[n - n.min(64)..]
            && (0..n as u64).all(|o| r.bytes_at(o, 1).is_none_or(|b| b[0] == m.0[o as usize]))
    }
    test_support::quickcheck(
        "props::report_keeps_head_and_tail_bytes",
        100,
        prop as fn(Mutated) -> bool,
    );
}

/// Streaming decode accepts exactly what parse accepts, decodes the same
/// array, and fails with the same rule at the same offset.
#[test]
fn read_array_agrees_with_parse() {
    fn prop(m: Mutated, sizes: Vec<u8>) -> bool {
        let streamed = idx::fuzzing::read_array(fuzzing::ChunkedReader::new(&m.0, &sizes));
        match (parse(&m.0), streamed) {
            (Ok(v), Ok(a)) => v.to_array().bit_eq(&a),
            (Err(e), Err(idx::ReadError::Invalid(g))) => {
                (e.rule(), e.offset(), e.length()) == (g.rule(), g.offset(), g.length())
            }
            _ => false,
        }
    }
    test_support::quickcheck(
        "props::read_array_agrees_with_parse",
        100,
        prop as fn(Mutated, Vec<u8>) -> bool,
    );
}

#[test]
fn read_array_does_not_allocate_by_the_header() {
    // declares 2^48 f64 elements (2 PiB) in a 16-byte file
    let bytes = [0, 0, 0x0e, 3, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0];
    match idx::fuzzing::read_array(&bytes[..]) {
        Err(idx::ReadError::Invalid(e)) => {
            assert_eq!((e.rule(), e.offset()), (Rule::TruncatedPayload, 16))
        }
        other => panic!("{other:?}"),
    }
}

/// `write_slice` of an array's elements writes what `write` of the
/// array writes.
#[test]
fn write_slice_equals_write() {
    fn prop(a: Arb) -> bool {
        let a = a.0;
        let mut out = Vec::new();
        let n = match a.data() {
            Data::U8(v) => idx::write_slice(&mut out, a.dims(), v),
            Data::I8(v) => idx::write_slice(&mut out, a.dims(), v),
            Data::I16(v) => idx::write_slice(&mut out, a.dims(), v),
            Data::I32(v) => idx::write_slice(&mut out, a.dims(), v),
            Data::F32(v) => idx::write_slice(&mut out, a.dims(), v),
            Data::F64(v) => idx::write_slice(&mut out, a.dims(), v),
        };
        n.ok() == Some(out.len() as u64) && Some(out) == to_bytes(&a).ok()
    }
    test_support::quickcheck(
        "props::write_slice_equals_write",
        100,
        prop as fn(Arb) -> bool,
    );
}

#[test]
fn write_slice_refuses_a_shape_that_does_not_hold_the_data() {
    let err = idx::write_slice(Vec::new(), &[2, 3], &[1.0f32; 5]).unwrap_err(); // test: must fail
    assert!(matches!(
        err,
        idx::WriteError::PayloadLength {
            expected: Some(24),
            found: 20
        }
    ));
}

/// Streaming decode of payloads longer than its read buffer (so the
/// buffer is refilled and elements straddle reads) equals `parse`, for
/// every type, whole reads and odd pieces alike.
#[test]
fn read_array_decodes_large_payloads_of_every_type_like_parse() {
    let n = 300_000usize;
    for code in [0x08u8, 0x09, 0x0b, 0x0c, 0x0d, 0x0e] {
        let t = ElementType::from_code(code).unwrap();
        let mut bytes = vec![0, 0, code, 2];
        bytes.extend_from_slice(&(n as u32 / 3).to_be_bytes());
        bytes.extend_from_slice(&3u32.to_be_bytes());
        let mut state = u64::from(code);
        for _ in 0..n * t.size() {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            bytes.push((state >> 33) as u8);
        }
        let want = parse(&bytes).unwrap().to_array();
        let whole = idx::fuzzing::read_array(&bytes[..]).unwrap();
        assert!(whole.bit_eq(&want), "type {t}");
        let pieces =
            idx::fuzzing::read_array(fuzzing::ChunkedReader::new(&bytes, &[7, 255, 3])).unwrap();
        assert!(pieces.bit_eq(&want), "type {t}, pieces");
    }
}
