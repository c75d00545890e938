//! `Array` and `Data` beyond what reading and writing show: emptiness,
//! equality by bit pattern, and what a shape that does not hold the data
//! says.

use idx::{Array, Data};

#[test]
fn data_is_empty_exactly_when_it_has_no_elements() {
    assert!(Data::U8(vec![]).is_empty());
    assert!(Data::F64(vec![]).is_empty());
    assert!(!Data::U8(vec![0]).is_empty());
    assert!(!Data::I32(vec![0, 0]).is_empty());
}

#[test]
fn equality_by_bit_pattern_counts_nan_payloads_signed_zeros_lengths_and_shapes() {
    let nan32 = f32::from_bits(0x7fc0_0001);
    let nan64 = f64::from_bits(0x7ff8_0000_0000_0001);
    // the same bits: equal, NaN or not
    assert!(Data::F32(vec![nan32, 1.0]).bit_eq(&Data::F32(vec![nan32, 1.0])));
    assert!(Data::F64(vec![nan64, 1.0]).bit_eq(&Data::F64(vec![nan64, 1.0])));
    // other bits: a NaN's payload, a zero's sign
    assert!(!Data::F32(vec![nan32]).bit_eq(&Data::F32(vec![f32::NAN])));
    assert!(!Data::F64(vec![nan64]).bit_eq(&Data::F64(vec![f64::NAN])));
    assert!(!Data::F32(vec![0.0]).bit_eq(&Data::F32(vec![-0.0])));
    assert!(!Data::F64(vec![0.0]).bit_eq(&Data::F64(vec![-0.0])));
    // one a prefix of the other
    assert!(!Data::F32(vec![1.0]).bit_eq(&Data::F32(vec![1.0, 2.0])));
    assert!(!Data::F64(vec![1.0, 2.0]).bit_eq(&Data::F64(vec![1.0])));
    // other types: by value, and never across types
    assert!(Data::I16(vec![1, 2]).bit_eq(&Data::I16(vec![1, 2])));
    assert!(!Data::I16(vec![1, 2]).bit_eq(&Data::I16(vec![1, 3])));
    assert!(!Data::U8(vec![1]).bit_eq(&Data::I8(vec![1])));
    assert!(!Data::F32(vec![1.0]).bit_eq(&Data::F64(vec![1.0])));

    // arrays: the shape and the data's bits
    let a = |dims: Vec<usize>, v: Vec<f32>| Array::from_vec(dims, v).expect("shape");
    assert!(a(vec![2, 1], vec![nan32, 0.0]).bit_eq(&a(vec![2, 1], vec![nan32, 0.0])));
    assert!(!a(vec![2, 1], vec![nan32, 0.0]).bit_eq(&a(vec![1, 2], vec![nan32, 0.0])));
    assert!(!a(vec![2, 1], vec![nan32, 0.0]).bit_eq(&a(vec![2, 1], vec![nan32, -0.0])));
}

#[test]
fn a_shape_that_does_not_hold_the_data_says_both() {
    let e = Array::from_vec(vec![2, 3], vec![0u8; 5]).unwrap_err();
    assert_eq!(e.to_string(), "shape [2, 3] does not hold 5 elements");
    let e = Array::from_vec(vec![0], vec![1i16]).unwrap_err();
    assert_eq!(e.to_string(), "shape [0] does not hold 1 element");
}
