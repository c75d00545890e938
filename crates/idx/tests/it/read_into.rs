//! `read_header` + `read_array_into` (a caller-owned destination) accept
//! exactly what `read_array` accepts, with the same errors; `read_input`
//! decompresses gzip with validation's decoder and limit.

use crate::support::via_read_into;
use idx::{ElementType, Options, ReadError};
use quickcheck::TestResult;
use test_support::gzip_fast;

/// `read_array`'s outcome as comparable data: the native-endian bytes of the
/// elements, or the first error's rule and offset.
fn via_read_array(bytes: &[u8]) -> Result<(Vec<usize>, Vec<u8>), (String, u64)> {
    match idx::fuzzing::read_array(bytes) {
        Ok(a) => Ok((a.dims().to_vec(), native_bytes(a.data()))),
        Err(ReadError::Invalid(e)) => Err((e.rule().code().to_string(), e.offset())),
        Err(e) => Err(("io".into(), e.to_string().len() as u64)),
    }
}

fn native_bytes(d: &idx::Data) -> Vec<u8> {
    match d {
        idx::Data::U8(v) => v.clone(),
        idx::Data::I8(v) => v.iter().map(|x| x.to_ne_bytes()[0]).collect(),
        idx::Data::I16(v) => v.iter().flat_map(|x| x.to_ne_bytes()).collect(),
        idx::Data::I32(v) => v.iter().flat_map(|x| x.to_ne_bytes()).collect(),
        idx::Data::F32(v) => v.iter().flat_map(|x| x.to_bits().to_ne_bytes()).collect(),
        idx::Data::F64(v) => v.iter().flat_map(|x| x.to_bits().to_ne_bytes()).collect(),
    }
}

fn encoding(code: u8, dims: &[u8], payload: &[u8]) -> Vec<u8> {
    let t = ElementType::from_code(code).unwrap(); // ok: test inputs
    let mut b = vec![0, 0, code, dims.len() as u8];
    for &d in dims {
        b.extend_from_slice(&u32::from(d).to_be_bytes());
    }
    let n: usize = dims.iter().map(|&d| usize::from(d)).product::<usize>() * t.size();
    b.extend((0..n).map(|i| payload.get(i % payload.len().max(1)).copied().unwrap_or(7)));
    b
}

#[test]
fn read_into_equals_read_array_on_every_prefix_and_extension() {
    // every type, ranks 0..3, every truncation and 1..5 trailing bytes
    for code in [0x08, 0x09, 0x0B, 0x0C, 0x0D, 0x0E] {
        for dims in [&[][..], &[3], &[2, 3], &[0, 4], &[2, 1, 5]] {
            let full = encoding(code, dims, &[0x80, 0x01, 0xff, 0x7f, 0x12, 0x34, 0x56]);
            for cut in 0..=full.len() {
                let b = &full[..cut];
                assert_eq!(
                    via_read_into(b),
                    via_read_array(b),
                    "{code:#x} {dims:?} cut {cut}"
                );
            }
            for extra in 1..5 {
                let mut b = full.clone();
                b.extend(std::iter::repeat_n(9u8, extra));
                assert_eq!(
                    via_read_into(&b),
                    via_read_array(&b),
                    "{code:#x} {dims:?} +{extra}"
                );
            }
        }
    }
}

#[test]
fn read_into_equals_read_array_on_arbitrary_bytes() {
    fn prop(bytes: Vec<u8>) -> TestResult {
        // keep declared sizes small enough to allocate
        if let Ok(h) = idx::__private::read_header(&mut &bytes[..]) {
            if h.payload_len() > 1 << 20 {
                return TestResult::discard();
            }
        }
        TestResult::from_bool(via_read_into(&bytes) == via_read_array(&bytes))
    }
    test_support::quickcheck(
        "read_into::read_into_equals_read_array_on_arbitrary_bytes",
        2000,
        prop as fn(Vec<u8>) -> TestResult,
    );
}

#[test]
fn read_into_swaps_across_chunk_boundaries() {
    // more than one CHUNK_LEN of f64, so the in-place swap runs per chunk
    let n = idx::fuzzing::CHUNK_LEN / 8 * 3 + 5;
    let v: Vec<f64> = (0..n).map(|i| i as f64 * -1.5).collect();
    let bytes = idx::to_bytes(&idx::Array::from_vec(vec![n], v.clone()).unwrap()).unwrap(); // ok: test
    let got = via_read_into(&bytes).unwrap(); // ok: test
    let want: Vec<u8> = v.iter().flat_map(|x| x.to_ne_bytes()).collect();
    assert_eq!(got.1, want);
}

#[test]
fn read_into_refuses_a_destination_of_the_wrong_length() {
    let bytes = encoding(0x08, &[4], &[1]);
    let mut r = &bytes[..];
    let h = idx::__private::read_header(&mut r).unwrap(); // ok: test
    let mut out = [0u8; 3];
    match idx::fuzzing::read_array_into(&mut r, &h, &mut out) {
        Err(ReadError::Io(e)) => assert_eq!(e.kind(), std::io::ErrorKind::InvalidInput),
        other => panic!("{other:?}"), // ok: test
    }
}

fn first_error(bytes: &[u8], opts: &Options) -> (String, u64) {
    let r = idx::validate_with(bytes, opts);
    let f = r.errors().next().unwrap(); // ok: test inputs are invalid
    (f.rule.code().to_string(), f.offset)
}

#[test]
fn read_input_stops_a_gzip_bomb_at_the_limit_as_validation_does() {
    // 8 MiB of zeros declared and present, in a few KiB of gzip
    let mut raw = vec![0, 0, 8, 1];
    raw.extend_from_slice(&(8u32 << 20).to_be_bytes());
    raw.resize(8 + (8 << 20), 0);
    let bomb = gzip_fast(&raw);
    assert!(bomb.len() < 1 << 20);
    let opts = Options::default()
        .with_decompress(true)
        .with_max_decompressed(Some(1 << 20));
    match idx::fuzzing::read_input(&bomb[..], &opts) {
        Err(ReadError::Invalid(e)) => {
            assert_eq!(
                (e.rule().code().to_string(), e.offset()),
                first_error(&bomb, &opts)
            );
            assert_eq!((e.rule().code(), e.offset()), ("IDX702", 1 << 20));
        }
        other => panic!("{other:?}"), // ok: test
    }
    // no limit: it loads
    let a = idx::fuzzing::read_input(&bomb[..], &opts.clone().with_max_decompressed(None)).unwrap(); // ok: test
    assert_eq!(a.dims(), &[8 << 20]);
    // a limit of exactly the stream's length: it loads
    let exact = opts.with_max_decompressed(Some(raw.len() as u64));
    assert_eq!(
        idx::fuzzing::read_input(&bomb[..], &exact).unwrap().dims(),
        &[8 << 20]
    ); // ok: test
}

#[test]
fn read_input_keeps_trailing_bytes_seen_before_the_limit() {
    // u8 [1] and 20 trailing bytes, 12-byte limit (the corpus case
    // invalid-gzip-limit-after-trailing): IDX203 at 9 comes first
    let mut raw = encoding(0x08, &[1], &[5]);
    raw.extend([1u8; 20]);
    let file = gzip_fast(&raw);
    let opts = Options::default()
        .with_decompress(true)
        .with_max_decompressed(Some(12));
    match idx::fuzzing::read_input(&file[..], &opts) {
        Err(ReadError::Invalid(e)) => {
            assert_eq!((e.rule().code(), e.offset()), ("IDX203", 9));
            assert_eq!(
                (e.rule().code().to_string(), e.offset()),
                first_error(&file, &opts)
            );
        }
        other => panic!("{other:?}"), // ok: test
    }
}

#[test]
fn read_input_reads_plain_and_gzip_and_honours_decompress() {
    let raw = encoding(0x0B, &[2, 2], &[1, 2, 3]);
    let want = via_read_array(&raw);
    let on = Options::default().with_decompress(true);
    let read = |b: &[u8], o: &Options| match idx::fuzzing::read_input(b, o) {
        Ok(a) => Ok((a.dims().to_vec(), native_bytes(a.data()))),
        Err(ReadError::Invalid(e)) => Err((e.rule().code().to_string(), e.offset())),
        Err(e) => panic!("{e}"), // ok: test
    };
    assert_eq!(read(&raw, &on), want);
    assert_eq!(read(&gzip_fast(&raw), &on), want);
    // not decompressed: the gzip magic is recognised as not IDX, as
    // read_array and validation say
    let off = Options::default().with_decompress(false);
    assert_eq!(
        read(&gzip_fast(&raw), &off),
        via_read_array(&gzip_fast(&raw))
    );
    assert_eq!(
        read(&gzip_fast(&raw), &off).unwrap_err(),
        first_error(&gzip_fast(&raw), &off)
    );
    // inputs shorter than the magic
    for b in [&[][..], &[0x1f][..], &[0][..]] {
        assert_eq!(read(b, &on), via_read_array(b));
    }
}
