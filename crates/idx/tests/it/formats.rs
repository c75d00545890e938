//! Inputs that are not IDX say what they are in one finding;
//! byte-swapped dimensions are named with the dimensions they would have had.

use idx::{validate, validate_with, Options, Rule};

/// A real 2x2 greyscale PNG (as written by PIL), IHDR to IEND.
const PNG: &str = "89504e470d0a1a0a0000000d494844520000000200000002080000000057dd52f80000000e4944415478da63606060000200000501013a1f8bb50000000049454e44ae426082";

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

#[test]
fn a_png_gets_one_finding_that_names_it() {
    let png = unhex(PNG);
    let r = validate(&png);
    assert_eq!(r.findings.len(), 1, "{:#?}", r.findings);
    let f = &r.findings[0];
    assert_eq!((f.rule, f.offset, f.length), (Rule::ImageFile, 0, 8));
    assert!(f.message.contains("a PNG image"), "{}", f.message);
    // parse and validate agree on the error
    let e = idx::parse(&png).unwrap_err();
    assert_eq!(e.finding(), f);
    // and so does the streaming reader
    let e = idx::fuzzing::read_array(&png[..]).unwrap_err();
    assert!(e.to_string().contains("PNG"), "{e}");
}

#[test]
fn random_binary_with_two_faults_is_one_not_idx_finding() {
    // reserved bytes and type both wrong, then a page of "dimensions"
    let mut junk: Vec<u8> = vec![0x4a, 0x17, 0xee, 0x40];
    junk.extend((0..300u32).map(|i| (i * 97 % 251) as u8));
    let r = validate(&junk);
    assert_eq!(r.findings.len(), 1, "{:#?}", r.findings);
    let f = &r.findings[0];
    assert_eq!((f.rule, f.offset, f.length), (Rule::NotIdx, 0, 4));
    assert!(
        f.message
            .contains("reserved bytes 4a 17 and type code 0xee"),
        "{}",
        f.message
    );
    assert!(f.found.as_deref().unwrap().contains("binary data"));
}

#[test]
fn an_absurd_rank_without_its_dimensions_is_not_idx() {
    // reserved wrong, type u8, rank 200, and only 8 bytes after the magic
    let b = [0, 7, 8, 200, 0, 0, 0, 1, 0, 0, 0, 1];
    let r = validate(&b);
    assert_eq!(r.findings.len(), 1, "{:#?}", r.findings);
    assert_eq!(r.findings[0].rule, Rule::NotIdx);
    assert!(r.findings[0].message.contains("rank 200 with only 8 bytes"));
}

#[test]
fn a_shifted_file_says_its_first_byte_is_lost() {
    // 00 00 08 01 00 00 00 01 2a without its first byte
    let r = validate(&[0, 8, 1, 0, 0, 0, 1, 0x2a]);
    assert_eq!(r.findings.len(), 1);
    let hint = r.findings[0].hint.as_deref().unwrap();
    assert!(
        hint.contains("first byte of the file is probably lost"),
        "{hint}"
    );
}

#[test]
fn a_single_fault_keeps_the_per_field_findings() {
    // only the reserved byte is wrong: IDX101, then the rest checked as IDX
    let r = validate(&[0, 1, 8, 1, 0, 0, 0, 2, 1, 2, 3]);
    let rules: Vec<Rule> = r.findings.iter().map(|f| f.rule).collect();
    assert_eq!(rules, [Rule::ReservedBytes, Rule::TrailingBytes]);
}

#[test]
fn byte_swapped_dimensions_are_named_with_what_they_would_have_been() {
    // u8, rank 3, dims [3, 2, 2] written little-endian, 12 payload bytes
    let mut b = vec![0, 0, 8, 3];
    for d in [3u32, 2, 2] {
        b.extend_from_slice(&d.to_le_bytes());
    }
    b.extend_from_slice(&[7; 12]);
    let r = validate(&b);
    let f = r
        .findings
        .iter()
        .find(|f| {
            matches!(
                f.rule,
                Rule::SizeOverflow | Rule::TruncatedPayload | Rule::TrailingBytes
            )
        })
        .unwrap();
    let hint = f.hint.as_deref().unwrap();
    assert!(
        hint.contains("read little-endian they are [3, 2, 2]") && hint.contains("28 bytes"),
        "{hint}"
    );
    // MNIST-sized: [60000, 28, 28] little-endian, payload absent: no claim
    // unless the length matches exactly
    let mut m = vec![0, 0, 8, 3];
    for d in [60000u32, 28, 28] {
        m.extend_from_slice(&d.to_le_bytes());
    }
    m.extend_from_slice(&[0; 100]);
    let r = validate_with(&m, &Options::default());
    assert!(r
        .findings
        .iter()
        .all(|f| !f.hint.as_deref().unwrap_or("").contains("byte-swapped")));
}
