//! The text of each structural finding (the magic, the dimension list, the
//! length, the gzip container): message, expected, found and hint, at the
//! counts and boundaries where the wording changes.

use crate::support::hx;
use idx::{validate, validate_with, Finding, Options};

/// The only finding of `hex`'s validation with the given code.
#[track_caller]
fn finding(bytes: &[u8], opts: &Options, code: &str) -> Finding {
    let r = validate_with(bytes, opts);
    let mut it = r.findings.into_iter().filter(|f| f.rule.code() == code);
    let f = it.next().unwrap_or_else(|| panic!("no {code}"));
    assert!(it.next().is_none(), "more than one {code}");
    f
}

#[track_caller]
fn of(hex: &str, code: &str) -> Finding {
    finding(&hx(hex), &Options::default(), code)
}

#[track_caller]
fn texts(f: &Finding) -> (&str, Option<&str>, Option<&str>) {
    (
        f.message.as_str(),
        f.expected.as_deref(),
        f.found.as_deref(),
    )
}

#[test]
fn reserved_bytes_are_quoted_and_located_from_the_first_to_the_last_non_zero() {
    for (hex, at, len) in [
        ("00 01 08 01  00 00 00 00", 1, 1),
        ("01 00 08 01  00 00 00 00", 0, 1),
        ("7f 01 08 01  00 00 00 00", 0, 2),
    ] {
        let f = of(hex, "IDX101");
        assert_eq!((f.offset, f.length), (at, len), "{hex}");
        let quoted = &hex[..5];
        assert_eq!(
            texts(&f),
            (
                format!("reserved magic bytes are {quoted}, not 00 00").as_str(),
                Some("00 00"),
                Some(quoted)
            )
        );
    }
}

#[test]
fn a_short_magic_says_how_many_bytes_are_missing() {
    let f = of("", "IDX103");
    assert_eq!(
        texts(&f),
        (
            "the file is empty: expected a 4-byte magic",
            Some("4 bytes of magic"),
            Some("0 bytes")
        )
    );
    let f = of("00", "IDX103");
    assert_eq!(
        texts(&f),
        (
            "the file ends after 1 of the 4 magic bytes: expected 3 more bytes",
            Some("4 bytes of magic"),
            Some("1 byte")
        )
    );
    let f = of("00 00 08", "IDX103");
    assert_eq!(
        f.message,
        "the file ends after 3 of the 4 magic bytes: expected 1 more byte"
    );
}

#[test]
fn a_cut_dimension_list_says_how_long_the_header_is() {
    let f = of("00 00 08 02  00 00 00 01  00", "IDX104");
    assert_eq!((f.offset, f.length), (9, 0));
    assert_eq!(
        texts(&f),
        (
            "the file ends inside the dimension list: expected 3 more bytes",
            Some("12 header bytes (4 + 4 x rank 2)"),
            Some("9 bytes")
        )
    );
    let f = of("00 00 08 03", "IDX104");
    assert_eq!(
        f.message,
        "the file ends inside the dimension list: expected 12 more bytes"
    );
    assert_eq!(
        f.expected.as_deref(),
        Some("16 header bytes (4 + 4 x rank 3)")
    );
}

#[test]
fn an_overflowing_size_shows_the_dimensions_and_the_element_size() {
    let f = of(
        "00 00 0d 03  ff ff ff ff  ff ff ff ff  00 00 00 02",
        "IDX201",
    );
    assert_eq!((f.offset, f.length), (4, 12));
    assert_eq!(
        f.found.as_deref(),
        Some("[4294967295, 4294967295, 2] x 4 bytes")
    );
    let f = of("00 00 0c 02  ff ff ff ff  ff ff ff ff", "IDX201");
    assert_eq!((f.offset, f.length), (4, 8));
}

#[test]
fn a_rank_above_32_names_the_numpy_versions_that_reject_it() {
    let rank = |r: usize| format!("00 00 08 {r:02x} {} 2a", "00 00 00 01 ".repeat(r));
    let f = of(&rank(33), "IDX304");
    assert_eq!(
        texts(&f),
        (
            "rank 33: numpy-based readers on numpy before 2.0 reject it (at most 32 dimensions; numpy 2 supports 64)",
            Some("rank 32 or less (for portability)"),
            Some("33")
        )
    );
    let f = of(&rank(64), "IDX304");
    assert!(f
        .message
        .starts_with("rank 64: numpy-based readers on numpy before 2.0"));
    let f = of(&rank(65), "IDX304");
    assert_eq!(
        f.message,
        "rank 65: every numpy-based reader rejects it (numpy supports at most 64 dimensions, 32 before numpy 2.0)"
    );
    assert!(validate(&hx(&rank(32))).findings.is_empty());
}

#[test]
fn a_zero_or_huge_dimension_is_named_by_its_index() {
    let r = validate(&hx("00 00 08 03  00 00 00 01  00 00 00 00  80 00 00 00"));
    let got: Vec<_> = r
        .findings
        .iter()
        .map(|f| (f.rule.code(), f.offset, f.length, f.message.as_str()))
        .collect();
    assert_eq!(
        got,
        [
            (
                "IDX302",
                8,
                4,
                "dimension 1 is 0: the file holds no elements"
            ),
            ("IDX303", 12, 4, "dimension 2 is 2147483648, at least 2^31"),
        ]
    );
    assert_eq!(r.findings[1].found.as_deref(), Some("2147483648"));
    // 2^31 - 1 is fine
    assert!(validate(&hx("00 00 08 02  00 00 00 00  7f ff ff ff"))
        .findings
        .iter()
        .all(|f| f.rule.code() != "IDX303"));
}

#[test]
fn a_cut_payload_counts_the_missing_bytes_and_the_complete_items() {
    // u8 [2, 2]: 3 of 4 bytes, 1 complete item (not exactly)
    let f = of("00 00 08 02  00 00 00 02  00 00 00 02  01 02 03", "IDX202");
    assert_eq!((f.offset, f.length), (15, 0));
    assert_eq!(
        texts(&f),
        (
            "the file ends 1 byte before the end of the declared payload: expected 1 more byte",
            Some("4 payload bytes ([2, 2] x 1 byte)"),
            Some("3 payload bytes")
        )
    );
    assert_eq!(
        f.hint.as_deref(),
        Some("the payload holds 1 complete item of the 2 the header declares: the file was cut short, or dimension 0 overstates the count")
    );
    // i16 [3, 1]: 2 of 6 bytes, exactly 1 item
    let f = of("00 00 0b 02  00 00 00 03  00 00 00 01  00 07", "IDX202");
    assert_eq!(
        f.message,
        "the file ends 4 bytes before the end of the declared payload: expected 4 more bytes"
    );
    assert_eq!(
        f.expected.as_deref(),
        Some("6 payload bytes ([3, 1] x 2 bytes)")
    );
    assert!(f
        .hint
        .as_deref()
        .unwrap()
        .starts_with("the payload holds exactly 1 complete item of the 3 "));
    // rank 0: no items to count, no hint
    let f = of("00 00 0c 00  00 00", "IDX202");
    assert_eq!(f.hint, None);
}

#[test]
fn trailing_bytes_say_how_many_and_what_they_may_be() {
    let generic =
        "the header may understate a dimension, or the writer appended padding or another record";
    // u8 [2, 2] and 4 more bytes: exactly 2 more items
    let f = of(
        "00 00 08 02  00 00 00 02  00 00 00 02  01 02 03 04  05 06 07 08",
        "IDX203",
    );
    assert_eq!((f.offset, f.length), (16, 4));
    assert_eq!(
        texts(&f),
        (
            "4 bytes follow the end of the declared payload",
            Some("end of file at byte 16"),
            Some("4 more bytes")
        )
    );
    assert_eq!(
        f.hint.as_deref(),
        Some("the trailing bytes are exactly 2 more items: dimension 0 probably understates the count")
    );
    // 3 more bytes: not whole items
    let f = of(
        "00 00 08 02  00 00 00 02  00 00 00 02  01 02 03 04  05 06 07",
        "IDX203",
    );
    assert_eq!(f.hint.as_deref(), Some(generic));
    // 1 byte: "follows"
    let f = of("00 00 08 01  00 00 00 01  01 02", "IDX203");
    assert_eq!(
        texts(&f),
        (
            "1 byte follows the end of the declared payload",
            Some("end of file at byte 9"),
            Some("1 more byte")
        )
    );
    assert_eq!(
        f.hint.as_deref(),
        Some("the trailing bytes are exactly 1 more item: dimension 0 probably understates the count")
    );
    // no items to compare with: a first dimension of 0, or items of 0 bytes
    for hex in [
        "00 00 08 01  00 00 00 00  01 02",
        "00 00 08 02  00 00 00 02  00 00 00 00  01 02",
    ] {
        let f = of(hex, "IDX203");
        assert_eq!(f.hint.as_deref(), Some(generic), "{hex}");
    }
}

#[test]
fn trailing_bytes_counted_to_a_bound_are_at_least_and_not_whole_items() {
    // u8 [1] then gzip-limited trailing bytes: 3 seen before the limit,
    // a multiple of the 1-byte item, yet only a lower bound
    let mut raw = hx("00 00 08 01 00 00 00 01 2a");
    raw.extend([0x55; 20]);
    let gz = test_support::gzip(&raw);
    let opts = Options::default()
        .with_decompress(true)
        .with_max_decompressed(Some(12));
    let f = finding(&gz, &opts, "IDX203");
    assert_eq!(
        texts(&f),
        (
            "at least 3 bytes follow the end of the declared payload (counting stopped there)",
            Some("end of file at byte 9"),
            Some("at least 3 more bytes")
        )
    );
    assert_eq!(
        f.hint.as_deref(),
        Some("the header may understate a dimension, or the writer appended padding or another record")
    );
    let f = finding(&gz, &opts, "IDX702");
    assert_eq!((f.offset, f.length), (12, 0));
    assert_eq!(
        texts(&f),
        (
            "decompression stopped at the limit of 12 bytes",
            Some("at most 12 decompressed bytes"),
            Some("more")
        )
    );
}

#[test]
fn damaged_gzip_says_after_how_many_bytes_of_output() {
    let b = hx(
        "1f 8b 08 00 00 00 00 00 00 ff  63 60 e0 60 04 b2 98 1d 9d 9c 01  de 66 82 52 0b 00 00 00",
    );
    let f = finding(&b, &Options::default().with_decompress(true), "IDX701");
    assert_eq!((f.offset, f.length), (4, 0));
    assert_eq!(
        f.message,
        "the gzip stream is damaged; decompression failed after 4 bytes of output"
    );
    assert_eq!(
        f.expected.as_deref(),
        Some("a complete, intact gzip stream")
    );
    assert!(!f.found.as_deref().unwrap_or("").is_empty());
}
