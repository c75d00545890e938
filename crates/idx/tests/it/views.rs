//! What `idx::parse` returns: the borrowed views of a valid file (what each
//! accessor and iterator returns) and the error of an invalid one.

use idx::{parse, Array, ElementType, Rule};

#[test]
fn a_parsed_file_is_viewed_as_its_header_dimensions_and_payload() {
    // i16 [2, 3]: a 12-byte header, then six big-endian elements
    let a = Array::from_vec(vec![2, 3], vec![1i16, -2, 3, -4, 5, -6]).unwrap();
    let bytes = idx::to_bytes(&a).unwrap();
    let v = parse(&bytes).unwrap();
    assert_eq!(v.dtype(), ElementType::I16);
    assert_eq!(v.dims(), [2, 3]);
    assert_eq!(v.payload(), &bytes[12..]);
    let whole = v.array();
    assert_eq!(
        (whole.dtype(), whole.dims()),
        (ElementType::I16, &[2, 3][..])
    );
    assert_eq!(whole.bytes(), &bytes[12..]);
    assert_eq!((whole.len(), whole.is_empty()), (6, false));
    assert_eq!(whole.to_array(), a);
}

#[test]
fn an_element_is_decoded_only_as_its_own_type_and_inside_the_array() {
    let a = Array::from_vec(vec![2, 3], vec![1i16, -2, 3, -4, 5, -6]).unwrap();
    let bytes = idx::to_bytes(&a).unwrap();
    let view = parse(&bytes).unwrap();
    let whole = view.array();
    assert_eq!(whole.get::<i16>(0), Some(1));
    assert_eq!(whole.get::<i16>(5), Some(-6));
    assert_eq!(whole.get::<i16>(6), None);
    assert_eq!(whole.get::<i16>(usize::MAX), None);
    assert_eq!(whole.get::<i32>(0), None);
    assert!(whole.iter::<u8>().is_none());
}

#[test]
fn the_iterators_know_their_exact_length() {
    let a = Array::from_vec(vec![2, 3], vec![1i16, -2, 3, -4, 5, -6]).unwrap();
    let bytes = idx::to_bytes(&a).unwrap();
    let view = parse(&bytes).unwrap();
    let whole = view.array();
    let mut elements = whole.iter::<i16>().unwrap();
    assert_eq!(elements.size_hint(), (6, Some(6)));
    elements.next();
    assert_eq!(elements.len(), 5);
    assert_eq!(elements.collect::<Vec<_>>(), [-2, 3, -4, 5, -6]);
    let mut items = whole.items();
    assert_eq!(items.size_hint(), (2, Some(2)));
    let first = items.next().unwrap();
    assert_eq!(items.len(), 1);
    assert_eq!((first.dims(), first.len()), (&[3][..], 3));
    assert_eq!(first.iter::<i16>().unwrap().collect::<Vec<_>>(), [1, -2, 3]);
    let second = items.next().unwrap();
    assert_eq!(second.get::<i16>(2), Some(-6));
    assert_eq!((items.next(), items.len()), (None, 0));
}

#[test]
fn an_array_without_elements_is_empty() {
    let bytes = [0, 0, 0x08, 2, 0, 0, 0, 0, 0, 0, 0, 5]; // u8 [0, 5]
    let view = parse(&bytes).unwrap();
    let whole = view.array();
    assert_eq!((whole.len(), whole.is_empty()), (0, true));
    assert_eq!(whole.items().len(), 0);
    assert_eq!(whole.items().next(), None);
}

#[test]
fn a_parse_error_locates_the_first_violation() {
    // reserved bytes 01 02 (IDX101): two offending bytes at offset 0
    let bytes = [1, 2, 0x08, 1, 0, 0, 0, 1, 42];
    let e = parse(&bytes).unwrap_err();
    assert_eq!(
        (e.rule(), e.offset(), e.length()),
        (Rule::ReservedBytes, 0, 2)
    );
    assert_eq!((e.finding().offset, e.finding().length), (0, 2));
    let shown = e.to_string();
    assert!(
        shown.ends_with("[IDX101] (at offset 0x0, byte 0)"),
        "{shown}"
    );
    let f = e.clone().into_finding();
    assert_eq!(&f, e.finding());
    // a payload one byte short (IDX202): missing data, at the input's end
    let e = parse(&[0, 0, 0x08, 1, 0, 0, 0, 2, 7]).unwrap_err();
    assert_eq!(
        (e.rule(), e.offset(), e.length()),
        (Rule::TruncatedPayload, 9, 0)
    );
}
