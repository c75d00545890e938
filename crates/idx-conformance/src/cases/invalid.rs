//! The invalid cases: magic, type, rank and dimensions, sizes that
//! overflow or wrap, truncated and trailing payloads, byte order, several
//! violations at once, and validator options; the widths, compression and
//! other formats are in their own files, called from here in that order.

use super::case::{invalid, Case};
use super::compressed::compressed_cases;
use super::make::{hx, mnist_labels};
use super::other_formats::other_format_cases;
use super::width::width_cases;
use idx::ElementType::{self, F32, F64, I16, I32, U8};

pub(super) fn invalid_cases(out: &mut Vec<Case>) {
    width_cases(out);
    out.push(invalid(
        "invalid-reserved-byte0",
        "byte 0 of the magic is 0x01",
        hx("01 00 08 01  00 00 00 01  2a"),
        &[("IDX101", 0, 1)],
    ));
    out.push(invalid(
        "invalid-reserved-byte1",
        "byte 1 of the magic is 0x80",
        hx("00 80 08 01  00 00 00 01  2a"),
        &[("IDX101", 1, 1)],
    ));
    out.push(invalid(
        "invalid-first-byte-lost",
        "a u8 file that lost its first byte: every magic field is shifted, so reserved bytes and type are both wrong: one not-IDX finding (spec 5.4) whose hint names the shift",
        hx("00 08 01 00 00 00 01 2a"),
        &[("IDX420", 0, 4)],
    ));
    out.push(invalid(
        "invalid-unknown-type-07",
        "type code 0x07",
        hx("00 00 07 01  00 00 00 02  0a 0b"),
        &[("IDX102", 2, 1)],
    ));
    out.push(invalid(
        "invalid-unknown-type-0a",
        "type code 0x0a, in the gap between i8 and i16",
        hx("00 00 0a 01  00 00 00 02  0a 0b"),
        &[("IDX102", 2, 1)],
    ));
    out.push(invalid(
        "invalid-empty",
        "an empty file",
        vec![],
        &[("IDX103", 0, 0)],
    ));
    out.push(invalid(
        "invalid-truncated-magic",
        "3 bytes: the magic is cut",
        hx("00 00 08"),
        &[("IDX103", 3, 0)],
    ));
    out.push(invalid(
        "invalid-truncated-dimensions",
        "rank 3, but the file ends inside dimension 1",
        hx("00 00 08 03  00 00 00 02  00 00"),
        &[("IDX104", 10, 0)],
    ));
    out.push(invalid(
        "invalid-size-overflow-f64",
        "f64 of shape [4294967295, 4294967295]: the payload size overflows 64 bits",
        hx("00 00 0e 02  ff ff ff ff  ff ff ff ff"),
        &[("IDX201", 4, 8), ("IDX303", 4, 4), ("IDX303", 8, 4)],
    ));
    out.push(invalid(
        "invalid-size-overflow-u8-rank3",
        "u8 of shape [4294967295, 4294967295, 2]: the payload size overflows 64 bits",
        hx("00 00 08 03  ff ff ff ff  ff ff ff ff  00 00 00 02"),
        &[("IDX201", 4, 12), ("IDX303", 4, 4), ("IDX303", 8, 4)],
    ));
    // sizes that wrap modulo 2^64 to exactly the payload present: a reader
    // that multiplies with wrapping arithmetic (numpy's prod, size_t) passes
    // its size check and fails later, or not at all
    let wraps: [(&str, ElementType, &[u32], u64, &str); 7] = [
        (
            "u8",
            U8,
            &[494_770, 769_546, 48_448_661],
            4,
            "2^64 + 4 elements",
        ),
        (
            "i16",
            I16,
            &[823_996_703, 1_066_043_567, 21],
            5,
            "2^64 + 5 elements",
        ),
        (
            "i32",
            I32,
            &[2_147_418_113, 1_718_039_348, 5],
            4,
            "2^64 + 4 elements",
        ),
        (
            "f32",
            F32,
            &[1_197_225_396, 10_827_767, 1423],
            20,
            "2^64 + 20 elements",
        ),
        (
            "f64",
            F64,
            &[823_996_703, 1_066_043_567, 21],
            5,
            "2^64 + 5 elements",
        ),
        (
            "bytes-f32",
            F32,
            &[2_147_418_113, 429_509_837, 5],
            1,
            "2^62 + 1 elements, 2^64 + 4 bytes",
        ),
        (
            "bytes-f64",
            F64,
            &[1_824_726_041, 1_263_665_316],
            4,
            "2^61 + 4 elements, 2^64 + 32 bytes",
        ),
    ];
    for (name, t, dims, elements, what) in wraps {
        let mut bytes = vec![0, 0, t.code(), dims.len() as u8];
        dims.iter()
            .for_each(|d| bytes.extend_from_slice(&d.to_be_bytes()));
        let n = elements * t.size() as u64;
        bytes.extend((1..=n).map(|b| b as u8));
        out.push(invalid(
            &format!("invalid-size-overflow-wraps-{name}"),
            &format!(
                "{t} of shape {dims:?} ({what}): the size overflows 64 bits and wraps to exactly the {n} payload bytes present"
            ),
            bytes,
            &[("IDX201", 4, 4 * dims.len() as u64)],
        ));
    }
    out.push(invalid(
        "invalid-truncated-payload",
        "u8 of 3 elements with 2 payload bytes",
        hx("00 00 08 01  00 00 00 03  0a 0b"),
        &[("IDX202", 10, 0)],
    ));
    out.push(invalid(
        "invalid-truncated-payload-mnist-labels",
        "a label file declaring 10 labels that holds 7",
        hx("00 00 08 01  00 00 00 0a  07 02 01 00 04 01 04"),
        &[("IDX202", 15, 0)],
    ));
    out.push(invalid(
        "invalid-truncated-payload-partial-element",
        "f32 of 2 elements with 6 payload bytes: the file ends inside an element",
        hx("00 00 0d 01  00 00 00 02  3f 80 00 00 40 00"),
        &[("IDX202", 14, 0)],
    ));
    let labels = mnist_labels(10_000).golden_bytes();
    out.push(invalid(
        "invalid-truncated-payload-mnist-labels-10000",
        "a label file declaring 10,000 labels that holds 9,999",
        labels[..labels.len() - 1].to_vec(),
        &[("IDX202", 10_007, 0)],
    ));
    out.push(invalid(
        "invalid-hostile-4gib-u8",
        "an 8-byte file declaring 4294967295 u8 elements: a reader that allocates by the header is attacked",
        hx("00 00 08 01  ff ff ff ff"),
        &[("IDX303", 4, 4), ("IDX202", 8, 0)],
    ));
    out.push(invalid(
        "invalid-hostile-2pib-f64",
        "a 16-byte file declaring 2^48 f64 elements (2 PiB)",
        hx("00 00 0e 03  00 01 00 00  00 01 00 00  00 01 00 00"),
        &[("IDX202", 16, 0)],
    ));
    out.push(invalid(
        "invalid-trailing-byte",
        "one byte after the payload",
        hx("00 00 08 01  00 00 00 01  2a  00"),
        &[("IDX203", 9, 1)],
    ));
    out.push(invalid(
        "invalid-zero-size-one-byte",
        "u8 of shape [4294967295 x 3, 0]: the exact size is 0, so the one payload byte is trailing",
        hx("00 00 08 04  ff ff ff ff  ff ff ff ff  ff ff ff ff  00 00 00 00  2a"),
        &[
            ("IDX303", 4, 4),
            ("IDX303", 8, 4),
            ("IDX303", 12, 4),
            ("IDX302", 16, 4),
            ("IDX203", 20, 1),
        ],
    ));
    let mut two = hx("00 00 08 01  00 00 00 02  0a 0b");
    two.extend(hx("00 00 08 01  00 00 00 01  0c"));
    out.push(invalid(
        "invalid-trailing-concatenated",
        "two u8 files concatenated",
        two,
        &[("IDX203", 10, 9)],
    ));
    out.push(invalid(
        "invalid-trailing-extra-items",
        "a label file declaring 5 labels that holds 7",
        hx("00 00 08 01  00 00 00 05  01 02 03 04 05 06 07"),
        &[("IDX203", 13, 2)],
    ));
    let mut labels = mnist_labels(10_000).golden_bytes();
    labels.extend_from_slice(&[3, 1, 4, 1, 5, 9, 2, 6]);
    out.push(invalid(
        "invalid-trailing-mnist-labels-10000",
        "a label file declaring 10,000 labels followed by 8 more bytes: a reader that checks only the count it knows drops them",
        labels,
        &[("IDX203", 10_008, 8)],
    ));
    out.push(invalid(
        "invalid-byte-swapped-header",
        "a u8 [2, 3] file whose header was written little-endian",
        hx("02 08 00 00  02 00 00 00  03 00 00 00  01 02 03 04 05 06"),
        &[("IDX401", 0, 4)],
    ));
    compressed_cases(out);
    other_format_cases(out);
    out.push(invalid(
        "invalid-multi-reserved-trailing",
        "two independent violations: a reserved byte and trailing bytes",
        hx("00 01 08 01  00 00 00 02  0a 0b  ff"),
        &[("IDX101", 1, 1), ("IDX203", 10, 1)],
    ));
    out.push(invalid(
        "invalid-multi-reserved-type-zero-dim",
        "a reserved byte and an unknown type at once: not IDX, one finding (spec 5.4) instead of one per field",
        hx("00 01 ff 01  00 00 00 00"),
        &[("IDX420", 0, 4)],
    ));
    let mut e = invalid(
        "invalid-expect-dtype",
        "a valid u8 file checked against --expect-dtype f32",
        hx("00 00 08 01  00 00 00 01  2a"),
        &[("IDX601", 2, 1)],
    );
    e.options.expect_dtype = Some(F32);
    out.push(e);
    let mut bytes = hx("00 00 08 03  00 00 00 02  00 00 00 1c  00 00 00 1b");
    bytes.resize(16 + 2 * 28 * 27, 0x11);
    let mut e = invalid(
        "invalid-expect-shape",
        "a valid u8 [2, 28, 27] file checked against --expect-shape '*,28,28'",
        bytes,
        &[("IDX602", 12, 4)],
    );
    e.options.expect_shape = Some(vec![None, Some(28), Some(28)]);
    out.push(e);
}
