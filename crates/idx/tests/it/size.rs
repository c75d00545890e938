//! The payload size is exact (spec 1.5, 7.4, 7.5): `product(dims) * size`
//! over the whole dimension list, 0 when any dimension is 0 whatever the
//! others, and IDX201 only when that exact value exceeds `u64::MAX`.
//!
//! The oracle below computes the size in `u128` with saturation, which is
//! exact for the question asked (every factor is at least 1 once no
//! dimension is 0, so saturation only happens above 2^64). Every layer that
//! computes a size is compared with it: `payload_len`, `Header::new`,
//! `validate`, `parse`, `read_array`, `Array::new`, `write_raw`, `to_bytes`.

use idx::__private::payload_len;
use idx::fuzzing::read_array;
use idx::{parse, validate, Array, Data, ElementType, Header, Rule};
use quickcheck::{Arbitrary, Gen, TestResult};

/// The exact payload size, or `None` above `u64::MAX`.
fn oracle(dtype: ElementType, dims: &[u32]) -> Option<u64> {
    if dims.contains(&0) {
        return Some(0);
    }
    let exact = dims.iter().fold(dtype.size() as u128, |a, &d| {
        a.saturating_mul(u128::from(d))
    });
    u64::try_from(exact).ok()
}

/// A dimension list mixing zeros, ones, small, 2^31-ish and maximal values,
/// of any rank up to 255 (mostly short), in any order.
#[derive(Debug, Clone)]
struct Dims(Vec<u32>);

impl Arbitrary for Dims {
    fn arbitrary(g: &mut Gen) -> Self {
        let rank = match u8::arbitrary(g) % 8 {
            0 => usize::from(u8::arbitrary(g)), // up to 255
            _ => usize::arbitrary(g) % 6,
        };
        let dims = (0..rank)
            .map(|_| match u8::arbitrary(g) % 8 {
                0 => 0,
                1 => 1,
                2 => u32::MAX,
                3 => u32::MAX - u32::from(u8::arbitrary(g)),
                4 => (1 << 31) + u32::from(u8::arbitrary(g)),
                5 => u32::arbitrary(g),
                _ => u32::arbitrary(g) % 5,
            })
            .collect();
        Dims(dims)
    }
    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        Box::new(self.0.shrink().map(Dims))
    }
}

fn header_bytes(dtype: ElementType, dims: &[u32]) -> Vec<u8> {
    let mut b = vec![0, 0, dtype.code(), dims.len() as u8];
    for d in dims {
        b.extend_from_slice(&d.to_be_bytes());
    }
    b
}

fn zeros(dtype: ElementType, n: usize) -> Data {
    match dtype {
        ElementType::U8 => Data::U8(vec![0; n]),
        ElementType::I8 => Data::I8(vec![0; n]),
        ElementType::I16 => Data::I16(vec![0; n]),
        ElementType::I32 => Data::I32(vec![0; n]),
        ElementType::F32 => Data::F32(vec![0.0; n]),
        ElementType::F64 => Data::F64(vec![0.0; n]),
    }
}

/// Every layer agrees with the oracle for one type and one order.
fn agrees(dtype: ElementType, dims: &[u32]) -> Result<(), String> {
    let want = oracle(dtype, dims);
    let ctx = format!("{dtype} {dims:?}");
    if payload_len(dtype, dims) != want {
        return Err(format!("{ctx}: payload_len {:?}", payload_len(dtype, dims)));
    }
    let h = Header::new(dtype, dims.to_vec());
    if h.as_ref().map(Header::payload_len) != want {
        return Err(format!("{ctx}: Header::new {h:?}"));
    }
    let head = header_bytes(dtype, dims);
    let hl = head.len() as u64;
    let overflow = |r: &idx::Report| r.findings.iter().any(|f| f.rule == Rule::SizeOverflow);
    match want {
        None => {
            let r = validate(&head);
            if !overflow(&r) || parse(&head).map_err(|e| e.rule()) != Err(Rule::SizeOverflow) {
                return Err(format!("{ctx}: overflow not reported: {r:?}"));
            }
        }
        Some(len) if len <= 4096 => {
            // exactly the declared payload: valid everywhere
            let mut file = head.clone();
            file.resize(file.len() + len as usize, 0);
            let r = validate(&file);
            if r.has_errors() || parse(&file).is_err() {
                return Err(format!("{ctx}: exact file rejected: {r:?}"));
            }
            let a = read_array(&file[..]).map_err(|e| format!("{ctx}: read_array {e}"))?;
            let shape: Vec<usize> = dims.iter().map(|&d| d as usize).collect();
            if a.dims() != shape.as_slice() {
                return Err(format!("{ctx}: read_array shape {:?}", a.dims()));
            }
            let n = (len / dtype.size() as u64) as usize;
            let built = Array::new(shape.clone(), zeros(dtype, n))
                .map_err(|e| format!("{ctx}: Array::new {e}"))?;
            let written = idx::to_bytes(&built).map_err(|e| format!("{ctx}: to_bytes {e}"))?;
            if written != file {
                return Err(format!("{ctx}: to_bytes differs"));
            }
            let mut raw = Vec::new();
            idx::__private::write_raw(&mut raw, dtype, &shape, &file[head.len()..])
                .map_err(|e| format!("{ctx}: write_raw {e}"))?;
            if raw != file {
                return Err(format!("{ctx}: write_raw differs"));
            }
            // one byte more is exactly one trailing byte at the payload's end
            file.push(0x2a);
            let got: Vec<_> = validate(&file)
                .errors()
                .map(|f| (f.rule, f.offset, f.length))
                .collect();
            if got != [(Rule::TrailingBytes, hl + len, 1)] {
                return Err(format!("{ctx}: one extra byte gave {got:?}"));
            }
        }
        Some(len) => {
            // the header alone: the payload is missing, all of it
            let r = validate(&head);
            let got: Vec<_> = r.errors().map(|f| (f.rule, f.offset, f.length)).collect();
            if got != [(Rule::TruncatedPayload, hl, 0)] {
                return Err(format!("{ctx}: header alone gave {got:?}"));
            }
            if r.header.as_ref().map(Header::payload_len) != Some(len) {
                return Err(format!("{ctx}: report header {:?}", r.header));
            }
        }
    }
    Ok(())
}

fn every_type_and_order(d: Dims) -> TestResult {
    let mut orders = vec![d.0.clone()];
    let mut rev = d.0.clone();
    rev.reverse();
    orders.push(rev);
    // every zero moved to the end, and to the front
    let (zero, rest): (Vec<u32>, Vec<u32>) = d.0.iter().partition(|&&x| x == 0);
    orders.push(rest.iter().chain(&zero).copied().collect());
    orders.push(zero.iter().chain(&rest).copied().collect());
    for dims in &orders {
        for t in ElementType::ALL {
            if let Err(e) = agrees(t, dims) {
                return TestResult::error(e);
            }
        }
    }
    TestResult::passed()
}

#[test]
fn every_layer_computes_the_exact_size() {
    test_support::quickcheck(
        "size::every_layer_computes_the_exact_size",
        2000,
        every_type_and_order as fn(Dims) -> TestResult,
    );
}

#[test]
fn a_zero_dimension_after_an_overflowing_prefix_gives_size_zero() {
    // the reproducers of the overflowing-prefix bug
    for (dtype, dims) in [
        (ElementType::I32, vec![u32::MAX, u32::MAX, 0]),
        (ElementType::U8, vec![u32::MAX, u32::MAX, u32::MAX, 0]),
        (
            ElementType::F64,
            vec![u32::MAX; 254].into_iter().chain([0]).collect(),
        ),
    ] {
        if let Err(e) = agrees(dtype, &dims) {
            panic!("{e}");
        }
    }
}

#[test]
fn an_item_is_the_payload_over_the_first_dimension_and_empty_when_there_are_none() {
    for (dtype, dims, item) in [
        (ElementType::U8, vec![60000, 28, 28], 784),
        (ElementType::F64, vec![3, 2], 16),
        // rank 0: the one element is the item
        (ElementType::I16, vec![], 2),
        // no items: 0 bytes each, not a division by zero
        (ElementType::U8, vec![0, 28, 28], 0),
        (ElementType::I32, vec![0], 0),
        // items of no bytes
        (ElementType::U8, vec![5, 0], 0),
    ] {
        let h = Header::new(dtype, dims.clone()).unwrap();
        assert_eq!(h.item_len(), item, "{dtype} {dims:?}");
    }
}
