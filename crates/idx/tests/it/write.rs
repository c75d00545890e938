//! The writer's promises beyond the bytes (which `props` round-trips): the
//! count each writing function returns, the one allocation of `to_bytes`,
//! and what a refusal says.

use idx::{Array, Data, WriteError};
use std::error::Error;
use std::io;

/// Arrays of every element type and of ranks 0 to 3, a few elements each.
fn arrays() -> Vec<Array> {
    let mut out = Vec::new();
    for dims in [vec![], vec![3], vec![2, 3], vec![2, 1, 5]] {
        let n: usize = dims.iter().product();
        let datas = [
            Data::U8((0..n).map(|i| i as u8).collect()),
            Data::I8((0..n).map(|i| -(i as i8)).collect()),
            Data::I16((0..n).map(|i| 300 * i as i16 - 7).collect()),
            Data::I32((0..n).map(|i| -70_000 * i as i32).collect()),
            Data::F32((0..n).map(|i| i as f32 / 4.0).collect()),
            Data::F64((0..n).map(|i| -(i as f64) / 8.0).collect()),
        ];
        for data in datas {
            out.push(Array::new(dims.clone(), data).expect("the shape holds the data"));
        }
    }
    out
}

#[test]
fn every_writing_function_returns_the_number_of_bytes_it_wrote() {
    for a in arrays() {
        let what = format!("{:?} {:?}", a.dtype(), a.dims());
        let mut out = Vec::new();
        let n = idx::write(&mut out, &a).expect("written");
        assert_eq!(n, out.len() as u64, "write: {what}");
        assert_eq!(out, idx::to_bytes(&a).expect("encoded"), "{what}");

        let header_len = 4 + 4 * a.dims().len();
        let mut raw = Vec::new();
        let n = idx::__private::write_raw(&mut raw, a.dtype(), a.dims(), &out[header_len..])
            .expect("written raw");
        assert_eq!((n, &raw), (out.len() as u64, &out), "write_raw: {what}");

        let mut sliced = Vec::new();
        let n = match a.data() {
            Data::U8(v) => idx::write_slice(&mut sliced, a.dims(), v),
            Data::I8(v) => idx::write_slice(&mut sliced, a.dims(), v),
            Data::I16(v) => idx::write_slice(&mut sliced, a.dims(), v),
            Data::I32(v) => idx::write_slice(&mut sliced, a.dims(), v),
            Data::F32(v) => idx::write_slice(&mut sliced, a.dims(), v),
            Data::F64(v) => idx::write_slice(&mut sliced, a.dims(), v),
        }
        .expect("written from a slice");
        assert_eq!(
            (n, &sliced),
            (out.len() as u64, &out),
            "write_slice: {what}"
        );
    }
}

#[test]
fn to_bytes_allocates_the_encodings_length_once() {
    // (Vec::with_capacity gives exactly the capacity asked for; the
    // encoding fills it without growing)
    for a in arrays() {
        let bytes = idx::to_bytes(&a).expect("encoded");
        assert_eq!(
            bytes.capacity(),
            bytes.len(),
            "{:?} {:?}",
            a.dtype(),
            a.dims()
        );
    }
}

/// A sink that refuses every write.
struct Full;

impl io::Write for Full {
    fn write(&mut self, _: &[u8]) -> io::Result<usize> {
        Err(io::Error::new(
            io::ErrorKind::StorageFull,
            "the disk is full",
        ))
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[test]
fn a_refused_write_says_why_and_keeps_the_sinks_error_as_its_source() {
    let a = Array::from_vec(vec![2], vec![1i16, 2]).expect("shape");
    let e = idx::write(Full, &a).unwrap_err();
    assert!(matches!(e, WriteError::Io(_)), "{e:?}");
    assert_eq!(e.to_string(), "write failed: the disk is full");
    assert_eq!(
        e.source().map(|s| s.to_string()).as_deref(),
        Some("the disk is full")
    );

    // misuse: the shape and the data; each says what, and has no source
    let deep = Array::new(vec![1; 256], Data::U8(vec![0])).expect("a deep shape is an array");
    let mut cases: Vec<(WriteError, &str)> = vec![
        (
            idx::to_bytes(&deep).unwrap_err(),
            "rank 256 cannot be encoded: IDX holds at most 255 dimensions",
        ),
        (
            idx::write_slice(Vec::new(), &[2, 2], &[1u8, 2, 3]).unwrap_err(),
            "payload is 3 bytes, the shape needs 4",
        ),
        (
            idx::write_slice(Vec::new(), &[2], &[1i32]).unwrap_err(),
            "payload is 4 bytes, the shape needs 8",
        ),
        (
            idx::__private::write_raw(
                Vec::new(),
                idx::ElementType::F64,
                &[u32::MAX as usize; 3],
                &[1],
            )
            .unwrap_err(),
            "payload is 1 byte, the shape's size overflows 64 bits",
        ),
    ];
    // (a usize past u32::MAX exists only where usize has 64 bits)
    #[cfg(target_pointer_width = "64")]
    cases.push((
        idx::write_slice(Vec::new(), &[1, 1 << 32], &[0u8; 0]).unwrap_err(),
        "dimension 1 is 4294967296, which does not fit in an unsigned 32-bit integer",
    ));
    for (e, text) in cases {
        assert_eq!(e.to_string(), text, "{e:?}");
        assert!(e.source().is_none(), "{e:?}");
    }
}
