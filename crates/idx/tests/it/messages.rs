//! Every message agrees in number and takes the right article: no
//! "1 bytes", "1 complete items", "limit of 1 bytes" or "a empty". The
//! inputs are built so that every count a message can hold is 1 somewhere
//! (one byte short, one byte over, a limit of 1, one item, one NaN ...),
//! and every corpus file is checked too.

use crate::support::hx;
use idx::{validate_with, ElementType, Options};
use idx_text::plural::{a, count};
use std::path::Path;
use test_support::gzip_stored;

/// Plural nouns that must not follow a count of 1.
const PLURALS: &[&str] = &[
    "bytes",
    "items",
    "elements",
    "values",
    "entries",
    "files",
    "dimensions",
    "findings",
    "errors",
    "warnings",
];

/// The words of `text` that break agreement, if any.
fn disagreements(text: &str) -> Vec<String> {
    let words: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || "(),;:[]".contains(c))
        .filter(|w| !w.is_empty())
        .collect();
    let mut bad = Vec::new();
    for (i, w) in words.iter().enumerate() {
        let next: Vec<&str> = words[i + 1..].iter().take(3).copied().collect();
        // "1 bytes", "1 more bytes", "1 complete items", "1 NaN values"
        if *w == "1" {
            // the noun is the first word of the next three that is a count noun
            if let Some(n) = next
                .iter()
                .find(|n| PLURALS.contains(n) || PLURALS.contains(&format!("{n}s").as_str()))
            {
                if PLURALS.contains(n) {
                    bad.push(format!("1 ... {n}"));
                }
            }
        }
        // "a empty", "a xz", "a HTML"
        if w.eq_ignore_ascii_case("a") {
            if let Some(n) = next.first() {
                let want = a(n);
                if !want.starts_with("a ") {
                    bad.push(format!("a {n}"));
                }
            }
        }
    }
    bad
}

fn check(name: &str, bytes: &[u8], opts: &Options) {
    let r = validate_with(bytes, opts);
    for f in &r.findings {
        for text in [
            Some(&f.message),
            f.expected.as_ref(),
            f.found.as_ref(),
            f.hint.as_ref(),
            f.fix.as_ref().map(|x| &x.description),
        ]
        .into_iter()
        .flatten()
        {
            let bad = disagreements(text);
            assert!(bad.is_empty(), "{name}: {} says {text:?} ({bad:?})", f.rule);
        }
    }
}

#[test]
fn the_checker_catches_what_it_must() {
    // the checker itself: each of the examples is caught
    for text in [
        "the payload holds 1 complete items of the 3",
        "the data is a empty zip archive, not IDX",
        "decompression stopped at the limit of 1 bytes",
        "found 1 bytes",
        "1 more bytes",
        "a HTML page",
    ] {
        assert!(!disagreements(text).is_empty(), "{text}");
    }
    for text in [
        "1 byte follows",
        "2 bytes follow",
        "1 more byte",
        "an empty zip archive",
        "a zip archive",
        "an xz stream",
        "a u8 file",
    ] {
        assert!(disagreements(text).is_empty(), "{text}");
    }
}

#[test]
fn counts_of_one_are_singular_in_every_finding() {
    let d = Options::default();
    let gz = Options::default().with_decompress(true);
    let cases: Vec<(&str, Vec<u8>, Options)> = vec![
        ("1 byte of magic", hx("00"), d.clone()),
        ("1 dimension byte", hx("00 00 08 01 00"), d.clone()),
        (
            "one byte short",
            hx("00 00 08 01 00 00 00 02 0a"),
            d.clone(),
        ),
        // 2 items of 1 byte, 1 present: "1 complete item"
        (
            "one complete item",
            hx("00 00 08 01 00 00 00 03 0a"),
            d.clone(),
        ),
        (
            "one trailing byte",
            hx("00 00 08 01 00 00 00 01 0a 0b"),
            d.clone(),
        ),
        // one trailing item of a [1, 2] u8 file
        (
            "one more item",
            hx("00 00 08 02 00 00 00 01 00 00 00 02 0a 0b 0c 0d"),
            d.clone(),
        ),
        (
            "u8 overflow (1-byte elements)",
            hx("00 00 08 03 ff ff ff ff ff ff ff ff 00 00 00 02"),
            d.clone(),
        ),
        (
            "one NaN",
            hx("00 00 0d 01 00 00 00 01 7f c0 00 00"),
            d.clone(),
        ),
        (
            "one infinity",
            hx("00 00 0e 01 00 00 00 01 7f f0 00 00 00 00 00 00"),
            d.clone(),
        ),
        (
            "empty zip",
            b"PK\x05\x06\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0".to_vec(),
            d.clone(),
        ),
        ("xz", hx("fd 37 7a 58 5a 00 00 04"), d.clone()),
        (
            "limit of 1 byte",
            gzip_stored(&hx("00 00 08 01 00 00 00 01 0a")),
            gz.clone().with_max_decompressed(Some(1)),
        ),
        (
            "damaged after 1 byte",
            gzip_stored(&hx("00"))[..20].to_vec(),
            gz.clone(),
        ),
        // i16 [1] with its header little-endian (IDX401): the hint scores
        // the payload's one non-zero element
        (
            "one element under a swapped header",
            hx("01 0b 00 00  01 00 00 00  00 05"),
            d.clone(),
        ),
        // the same over 1 non-zero element of 2, read little-endian
        (
            "one non-zero element under a swapped header",
            hx("01 0b 00 00  02 00 00 00  05 00 00 00"),
            d.clone(),
        ),
        (
            "file name claims",
            hx("00 00 08 01 00 00 00 01 0a"),
            d.clone().with_file_name(Some("x-idx3-float".into())),
        ),
        (
            "expected shape",
            hx("00 00 08 01 00 00 00 01 0a"),
            d.clone()
                .with_expect_shape(Some(vec![Some(2)]))
                .with_expect_dtype(Some(ElementType::F32)),
        ),
    ];
    for (name, bytes, opts) in &cases {
        check(name, bytes, opts);
    }
    // and the two helpers say what the tests above rely on
    assert_eq!(count(1, "complete item"), "1 complete item");
    assert_eq!(a("empty zip archive"), "an empty zip archive");
}

#[test]
fn every_corpus_file_has_agreeing_messages() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus");
    let opts = Options::default()
        .with_decompress(true)
        .with_max_decompressed(Some(1 << 20));
    let mut n = 0;
    for dir in ["valid", "invalid", "implementation-defined"] {
        for e in std::fs::read_dir(root.join(dir)).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "json") {
                continue;
            }
            check(&p.display().to_string(), &std::fs::read(&p).unwrap(), &opts);
            n += 1;
        }
    }
    assert!(n > 50, "only {n} corpus files");
}

#[test]
fn a_findings_long_form_adds_its_expected_found_and_help_lines() {
    // u8 [2] holding one byte: the payload ends early
    let r = idx::validate(&hx("00 00 08 01 00 00 00 02 07"));
    let f = &r.findings[0];
    let details: Vec<(&str, &str)> = f.details().collect();
    let labels: Vec<&str> = details.iter().map(|d| d.0).collect();
    assert_eq!(labels, ["expected", "found", "help"]);
    assert_eq!(details[0].1, f.expected.as_deref().unwrap());
    assert_eq!(details[1].1, f.found.as_deref().unwrap());
    assert_eq!(details[2].1, f.hint.as_deref().unwrap());
    let mut want = f.to_string();
    for (label, text) in &details {
        want.push_str(&format!("\n  = {label}: {text}"));
    }
    assert_eq!(format!("{f:#}"), want);
    assert_eq!(
        f.to_string(),
        format!("error[IDX202]: {} (at offset 0x9, byte 9)", f.message)
    );
    // a finding without details: its line alone
    let mut bare = f.clone();
    (bare.expected, bare.found, bare.hint) = (None, None, None);
    assert_eq!(bare.details().count(), 0);
    assert_eq!(format!("{bare:#}"), bare.to_string());
}

/// A report gives back the bytes it kept, from its head (the first 1024)
/// or its tail (the last 64), and no others: here a u8 [3000] file.
#[test]
fn a_report_gives_back_the_bytes_it_kept_at_its_head_and_tail_and_no_others() {
    let mut bytes = vec![0, 0, 0x08, 1, 0, 0, 0x0b, 0xb8];
    bytes.extend((0..3000u32).map(|i| (i % 251) as u8));
    let r = idx::validate(&bytes);
    let n = bytes.len() as u64;
    assert_eq!((r.head.len(), r.tail.len(), r.stream_len), (1024, 64, n));
    for (offset, len) in [
        (0, 4),
        (1020, 4),
        (n - 64, 64),
        (n - 64, 1),
        (n - 3, 3),
        (n - 2, 2),
        (n - 1, 1),
        (n, 0),
    ] {
        let (o, l) = (offset as usize, len);
        assert_eq!(
            r.bytes_at(offset, len),
            Some(&bytes[o..o + l]),
            "{offset}+{len}"
        );
    }
    for (offset, len) in [(1021, 4), (n - 65, 2), (n - 2, 3), (n, 1), (u64::MAX, 2)] {
        assert_eq!(r.bytes_at(offset, len), None, "{offset}+{len}");
    }
    assert_eq!(idx::Compression::Gzip.as_str(), "gzip");
}
