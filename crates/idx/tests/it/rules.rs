//! One table test per rule: spaced hex input, each field commented, and
//! the exact findings `(code, offset, length)` the validator must report.
//! `parse` must fail exactly when an error is expected, with one of them.

use crate::support::hx;
use idx::{validate, validate_with, ElementType, Options, Rule};
use test_support::gzip;

fn findings(bytes: &[u8], opts: &Options) -> Vec<(&'static str, u64, u64)> {
    validate_with(bytes, opts)
        .findings
        .iter()
        .map(|f| (f.rule.code(), f.offset, f.length))
        .collect()
}

#[track_caller]
fn case(name: &str, hex: &str, expected: &[(&str, u64, u64)]) {
    case_with(name, hex, &Options::default(), expected)
}

#[track_caller]
fn case_with(name: &str, hex: &str, opts: &Options, expected: &[(&str, u64, u64)]) {
    let bytes = hx(hex);
    let got = findings(&bytes, opts);
    let want: Vec<_> = expected.iter().map(|&(c, o, l)| (c, o, l)).collect();
    let got_cmp: Vec<_> = got.iter().map(|&(c, o, l)| (c, o, l)).collect();
    assert_eq!(got_cmp, want, "case {name}");
    let report = validate_with(&bytes, opts);
    assert_eq!(
        report.looks_like_idx(),
        !got.iter().any(|&(c, _, _)| c.starts_with("IDX4")),
        "case {name}: looks like IDX unless an IDX4xx finding says otherwise"
    );
    if *opts == Options::default() {
        let parsed = idx::parse(&bytes);
        assert_eq!(
            parsed.is_ok(),
            report.is_well_formed(),
            "case {name}: parse vs validate"
        );
        if let Err(e) = parsed {
            assert!(
                got.iter()
                    .any(|&(c, o, _)| c == e.rule().code() && o == e.offset()),
                "case {name}: parse error {e} not among {got:?}"
            );
        }
    }
}

#[test]
fn valid_files_have_no_findings() {
    case(
        "u8 rank 1",
        concat!(
            "00 00 08 01 ", // reserved, reserved, u8, rank 1
            "00 00 00 03 ", // dim 0 = 3
            "0a 0b 0c",     // payload
        ),
        &[],
    );
    case(
        "i16 rank 2",
        concat!(
            "00 00 0b 02 ",             // i16, rank 2
            "00 00 00 01 00 00 00 02 ", // dims 1 x 2
            "ff fe 00 07",              // -2, 7
        ),
        &[],
    );
}

#[test]
fn idx101_reserved_bytes() {
    case(
        "byte 0 set",
        concat!(
            "01 00 08 01 ", // reserved byte 0 is 0x01
            "00 00 00 01 ", // dim 0 = 1
            "2a",           // payload
        ),
        &[("IDX101", 0, 1)],
    );
    case(
        "byte 1 set",
        "00 80 08 01  00 00 00 01  2a", // reserved byte 1 is 0x80 (not a known signature)
        &[("IDX101", 1, 1)],
    );
    case(
        "both set",
        "81 80 08 01  00 00 00 01  2a", // both reserved bytes non-zero
        &[("IDX101", 0, 2)],
    );
}

#[test]
fn idx102_unknown_type() {
    case(
        "type 0x07",
        concat!(
            "00 00 07 01 ", // type code 0x07 is not a type
            "00 00 00 02 ", // dim 0 = 2
            "01 02",        // payload (size unknown: not checked)
        ),
        &[("IDX102", 2, 1)],
    );
}

#[test]
fn idx103_truncated_magic() {
    case("empty", "", &[("IDX103", 0, 0)]);
    case("three bytes", "00 00 08", &[("IDX103", 3, 0)]);
    case("one byte, unknown type later", "00", &[("IDX103", 1, 0)]);
    case(
        "three bytes, bad type",
        "00 00 01",
        &[("IDX102", 2, 1), ("IDX103", 3, 0)],
    );
}

#[test]
fn idx104_truncated_dimensions() {
    case(
        "rank 2 with one dimension",
        concat!(
            "00 00 08 02 ", // u8, rank 2
            "00 00 00 03 ", // dim 0 = 3
            "00 00",        // dim 1 cut after 2 bytes
        ),
        &[("IDX104", 10, 0)],
    );
}

#[test]
fn idx201_size_overflow() {
    case(
        "f64 4G x 4G",
        concat!(
            "00 00 0e 02 ",             // f64, rank 2
            "ff ff ff ff ff ff ff ff ", // dims 2^32-1 x 2^32-1: x 8 overflows u64
        ),
        &[("IDX201", 4, 8), ("IDX303", 4, 4), ("IDX303", 8, 4)],
    );
}

#[test]
fn idx201_is_about_the_exact_size_so_a_zero_dimension_wins() {
    case(
        "i32 4G x 4G x 0",
        concat!(
            "00 00 0c 03 ",             // i32, rank 3
            "ff ff ff ff ff ff ff ff ", // dims 0, 1: 2^32-1 each (overflow alone)
            "00 00 00 00",              // dim 2 = 0: the exact size is 0
        ),
        &[("IDX303", 4, 4), ("IDX303", 8, 4), ("IDX302", 12, 4)],
    );
    case(
        "u8 4G x 4G x 4G x 0, one byte",
        concat!(
            "00 00 08 04 ",                         // u8, rank 4
            "ff ff ff ff ff ff ff ff ff ff ff ff ", // dims 0..2: 2^32-1
            "00 00 00 00 ",                         // dim 3 = 0: size 0
            "2a",                                   // a trailing byte
        ),
        &[
            ("IDX303", 4, 4),
            ("IDX303", 8, 4),
            ("IDX303", 12, 4),
            ("IDX302", 16, 4),
            ("IDX203", 20, 1),
        ],
    );
}

#[test]
fn idx202_truncated_payload() {
    case(
        "one byte short",
        concat!(
            "00 00 08 01 ", // u8, rank 1
            "00 00 00 03 ", // dim 0 = 3
            "0a 0b",        // payload: 2 of 3 bytes
        ),
        &[("IDX202", 10, 0)],
    );
    case(
        "hostile size in a tiny file",
        "00 00 08 03  7f ff ff ff 7f ff ff ff 00 00 00 04", // u8, 3 huge dims (2^64 - 2^34 bytes), no payload
        &[("IDX202", 16, 0)],
    );
}

#[test]
fn idx203_trailing_bytes() {
    case(
        "one extra byte",
        concat!(
            "00 00 08 01 ", // u8, rank 1
            "00 00 00 01 ", // dim 0 = 1
            "0a ",          // payload
            "0b",           // trailing
        ),
        &[("IDX203", 9, 1)],
    );
}

#[test]
fn idx301_rank_zero() {
    case("scalar", "00 00 08 00  2a", &[("IDX301", 3, 1)]);
}

#[test]
fn idx302_zero_dimension() {
    case(
        "empty",
        concat!(
            "00 00 0c 02 ", // i32, rank 2
            "00 00 00 05 ", // dim 0 = 5
            "00 00 00 00",  // dim 1 = 0: no payload
        ),
        &[("IDX302", 8, 4)],
    );
}

#[test]
fn idx303_large_dimension() {
    case(
        "2^31 x 0",
        concat!(
            "00 00 08 02 ", // u8, rank 2
            "80 00 00 00 ", // dim 0 = 2^31
            "00 00 00 00",  // dim 1 = 0: empty payload
        ),
        &[("IDX303", 4, 4), ("IDX302", 8, 4)],
    );
}

#[test]
fn a_dimension_is_read_from_all_four_of_its_bytes() {
    // each dimension non-zero in one byte alone: none is zero, none large
    case(
        "one byte each",
        concat!(
            "00 00 08 04 ", // u8, rank 4
            "01 00 00 00 ", // dim 0 = 2^24
            "00 01 00 00 ", // dim 1 = 2^16
            "00 00 01 00 ", // dim 2 = 2^8
            "00 00 00 01",  // dim 3 = 1: no payload follows
        ),
        &[("IDX202", 20, 0)],
    );
}

/// `00 00 08 RR` then `RR` dimensions of 1 and one payload byte.
fn rank_hex(rank: usize) -> String {
    format!("00 00 08 {rank:02x} {} 2a", "00 00 00 01 ".repeat(rank))
}

#[test]
fn idx304_high_rank() {
    // 33: the first rank numpy before 2.0 rejects; 65: numpy 2 too; 255
    for rank in [33, 64, 65, 255] {
        case(
            &format!("rank {rank}"),
            &rank_hex(rank),
            &[("IDX304", 3, 1)],
        );
    }
    // 32 is the last portable rank; 4 to 32 get nothing (spec 7.27)
    for rank in [3, 4, 8, 32] {
        case(&format!("rank {rank}"), &rank_hex(rank), &[]);
    }
    // reported from the rank byte, before a cut dimension list's finding
    case(
        "rank 40, cut",
        "00 00 08 28  00 00 00 01",
        &[("IDX304", 3, 1), ("IDX104", 8, 0)],
    );
}

#[test]
fn a_payload_ending_near_2_64_does_not_overflow_the_end_offset() {
    // found by the size quickcheck: header 12 + payload 2^64 - 4 > u64::MAX
    case(
        "i32 [2^31 - 1, 2^31 + 1], no payload",
        concat!(
            "00 00 0c 02 ", // i32, rank 2
            "7f ff ff ff ", // dim 0 = 2^31 - 1
            "80 00 00 01",  // dim 1 = 2^31 + 1: 2^64 - 4 payload bytes
        ),
        &[("IDX303", 8, 4), ("IDX202", 12, 0)],
    );
}

#[test]
fn the_rules_that_say_the_data_is_not_idx_are_the_idx4xx_family() {
    for r in Rule::ALL {
        assert_eq!(
            r.means_not_idx(),
            r.code().starts_with("IDX4"),
            "{}",
            r.code()
        );
    }
}

#[test]
fn idx4xx_not_idx() {
    case(
        "byte-swapped",
        "03 08 00 00  01 00 00 00  01 00 00 00  01 00 00 00  00",
        &[("IDX401", 0, 4)],
    );
    case("gzip", "1f 8b 08 00 00 00 00 00 00 ff", &[("IDX402", 0, 2)]);
    case("zip", "50 4b 03 04 14 00", &[("IDX403", 0, 4)]);
    case("xz", "fd 37 7a 58 5a 00 00 04", &[("IDX403", 0, 6)]);
    case("zstd", "28 b5 2f fd 04 00", &[("IDX403", 0, 4)]);
    case("bzip2", "42 5a 68 39 31 41", &[("IDX403", 0, 3)]);
    case("npy", "93 4e 55 4d 50 59 01 00 76 00", &[("IDX404", 0, 6)]);
    case("html", "3c 68 74 6d 6c 3e", &[("IDX405", 0, 6)]);
    case(
        "appledouble",
        "00 05 16 07 00 02 00 00",
        &[("IDX406", 0, 4)],
    );
}

#[test]
fn independent_violations_are_all_reported() {
    case(
        "reserved + trailing",
        concat!(
            "00 01 08 01 ", // reserved byte 1 is 0x01
            "00 00 00 01 ", // dim 0 = 1
            "2a ",          // payload
            "ff ff",        // trailing
        ),
        &[("IDX101", 1, 1), ("IDX203", 9, 2)],
    );
    case(
        "reserved + zero dim",
        concat!(
            "00 01 08 01 ", // reserved byte 1 set, type u8
            "00 00 00 00",  // dim 0 = 0
        ),
        &[("IDX101", 1, 1), ("IDX302", 4, 4)],
    );
    // reserved bytes and type code both wrong: not IDX, one finding (spec 5.4)
    case(
        "reserved + unknown type + zero dim",
        concat!(
            "00 01 ff 01 ", // reserved byte 1 set, type 0xff unknown
            "00 00 00 00",  // dim 0 = 0
        ),
        &[("IDX420", 0, 4)],
    );
}

#[test]
fn idx501_and_idx502_lints() {
    let mut le = hx("00 00 0c 01 00 00 00 40"); // i32, rank 1, 64 elements
    for i in 0..64i32 {
        le.extend_from_slice(&(i % 10 + 1).to_le_bytes());
    }
    let r = validate(&le);
    assert_eq!(r.findings.len(), 1, "{r:#?}");
    assert_eq!(
        (
            r.findings[0].rule,
            r.findings[0].offset,
            r.findings[0].length
        ),
        (Rule::LikelyLittleEndian, 8, 256)
    );
    // strong evidence, but a statistical test: a warning, and parse
    // accepts the bytes (an error is what the bytes prove)
    assert_eq!(r.findings[0].severity(), idx::Severity::Warning);
    assert!(idx::parse(&le).is_ok());

    case(
        "nan and inf",
        concat!(
            "00 00 0d 01 00 00 00 03 ", // f32, rank 1, 3 elements
            "3f 80 00 00 ",             // 1.0
            "7f c0 00 01 ",             // NaN with payload 1
            "ff 80 00 00",              // -inf
        ),
        &[("IDX502", 12, 4)],
    );
}

#[test]
fn idx503_file_name() {
    let mut opts = Options::default();
    opts.file_name = Some("train-labels-idx1-ubyte".into());
    case_with(
        "rank and type contradict",
        "00 00 09 02  00 00 00 01 00 00 00 01  2a", // i8, rank 2
        &opts,
        &[("IDX503", 2, 1), ("IDX503", 3, 1)],
    );
    case_with("agrees", "00 00 08 01  00 00 00 01  2a", &opts, &[]);
}

/// `images` before `idx<R>` claims at least two dimensions (items, then
/// each item's pixels), as an `idx3` name claims three: a rank-1 file
/// named `*-images-idx1-ubyte` contradicts it, at the rank byte, whatever
/// the name's own rank says.
#[test]
fn idx503_an_images_name_claims_at_least_rank_2() {
    let rank1 = "00 00 08 01  00 00 00 02  2a 2b";
    let rank0 = "00 00 08 00  2a";
    let rank2 = "00 00 08 02  00 00 00 01 00 00 00 02  2a 2b";
    for (name, bytes, want) in [
        ("train-images-idx1-ubyte", rank1, &[("IDX503", 3, 1)][..]),
        ("T10K_IMAGES.IDX1-UBYTE.GZ", rank1, &[("IDX503", 3, 1)]),
        (
            "x-images-idx0-ubyte",
            rank0,
            &[("IDX301", 3, 1), ("IDX503", 3, 1)],
        ),
        // the idx3 claim already contradicts rank 1: one finding, not two
        ("train-images-idx3-ubyte", rank1, &[("IDX503", 3, 1)]),
        // flattened images (items x pixels) are images
        ("train-images-idx2-ubyte", rank2, &[]),
        ("images-idx1-ubyte", rank1, &[("IDX503", 3, 1)]),
        // labels and other words claim no rank here (IDX802 is the dataset
        // rule of labels), nor does `images` glued to another word
        ("train-labels-idx1-ubyte", rank1, &[]),
        ("trainimages-idx1-ubyte", rank1, &[]),
        ("x-images2-idx1-ubyte", rank1, &[]),
    ] {
        let mut opts = Options::default();
        opts.file_name = Some(name.into());
        case_with(name, bytes, &opts, want);
    }
}

/// Only the six words of spec 6.3 make a claim, and the
/// whole name (with `.gz`) is compared without regard to ASCII case.
#[test]
fn idx503_claims_only_from_names_in_the_convention() {
    // i8, rank 2: contradicts every u8 rank-3 claim in both fields
    let bytes = "00 00 09 02  00 00 00 01 00 00 00 01  2a";
    for name in [
        "images.idx3.bin",
        "x.idx3.npy",
        "train-idx3-images",
        "x-idx3-ubytes",
        "x-idx3-uint8",
        "x-idx3-int8",
        "x-idx3-float32",
        "idx3-ubyte",
        "xidx3-ubyte",
        "x-idx3-ubyte.gz.bak",
        "x-idx3-ubyte-",
    ] {
        let mut opts = Options::default();
        opts.file_name = Some(name.into());
        case_with(name, bytes, &opts, &[]);
    }
    for name in [
        "train-images-idx3-ubyte",
        "train-images-idx3-ubyte.gz",
        "train-images-idx3-ubyte.GZ",
        "TRAIN-IMAGES-IDX3-UBYTE",
        "TRAIN-IMAGES-IDX3-UBYTE.GZ",
        "dir/t10k.Idx3_UByte.Gz",
        "a-idx2-b_idx3.ubyte",
    ] {
        let mut opts = Options::default();
        opts.file_name = Some(name.into());
        case_with(name, bytes, &opts, &[("IDX503", 2, 1), ("IDX503", 3, 1)]);
    }
}

#[test]
fn idx601_idx602_expectations() {
    let mut opts = Options::default();
    opts.expect_dtype = Some(ElementType::F32);
    opts.expect_shape = Some(vec![None, Some(28), Some(28)]);
    case_with(
        "u8 of shape 2x28x27",
        "00 00 08 03  00 00 00 02 00 00 00 1c 00 00 00 1b",
        &opts,
        &[("IDX601", 2, 1), ("IDX602", 12, 4), ("IDX202", 16, 0)],
    );
    case_with(
        "rank differs",
        "00 00 0d 01  00 00 00 00",
        &opts,
        &[("IDX602", 3, 1), ("IDX302", 4, 4)],
    );
}

#[test]
fn an_unexpected_shape_is_reported_with_the_shape_expected_wildcards_as_stars() {
    let opts = Options::default().with_expect_shape(Some(vec![None, Some(28), Some(28)]));
    let messages = |hex: &str| -> Vec<String> {
        validate_with(&hx(hex), &opts)
            .findings
            .iter()
            .filter(|f| f.rule.code() == "IDX602")
            .map(|f| f.message.clone())
            .collect()
    };
    assert_eq!(
        messages("00 00 08 03  00 00 00 02 00 00 00 1c 00 00 00 1b"),
        ["dimension 2 is 27, expected 28 (shape [*, 28, 28])"]
    );
    assert_eq!(
        messages("00 00 08 01  00 00 00 00"),
        ["the rank is 1, expected 3 (shape [*, 28, 28])"]
    );
}

#[test]
fn each_options_builder_sets_its_own_option_and_no_other() {
    use idx::{ByteOrder, Limits};
    let d = Options::default;
    let set = |f: &dyn Fn(&mut Options)| {
        let mut o = d();
        f(&mut o);
        o
    };
    let severity: idx::Severities = "IDX501=error".parse().unwrap();
    let limits = Limits::default().with_max_decompressed(Some(12));
    let cases = [
        (d().with_decompress(true), set(&|o| o.decompress = true)),
        (d().with_limits(limits), set(&|o| o.limits = limits)),
        (
            d().with_max_decompressed(Some(12)),
            set(&|o| o.limits = limits),
        ),
        (d().with_lints(false), set(&|o| o.lints = false)),
        (
            d().with_byte_order_test(false),
            set(&|o| o.byte_order_test = false),
        ),
        (
            d().with_byte_order(Some(ByteOrder::Little)),
            set(&|o| o.byte_order = Some(ByteOrder::Little)),
        ),
        (
            d().with_expect_range(Some((0, 9))),
            set(&|o| o.expect_range = Some((0, 9))),
        ),
        (
            d().with_severity(severity.clone()),
            set(&|o| o.severity = severity.clone()),
        ),
        (
            d().with_file_name(Some("x-idx1-ubyte".into())),
            set(&|o| o.file_name = Some("x-idx1-ubyte".into())),
        ),
        (
            d().with_expect_dtype(Some(ElementType::F32)),
            set(&|o| o.expect_dtype = Some(ElementType::F32)),
        ),
        (
            d().with_expect_shape(Some(vec![None, Some(3)])),
            set(&|o| o.expect_shape = Some(vec![None, Some(3)])),
        ),
        (
            d().with_scan_labels(Some(Some(10))),
            set(&|o| o.scan_labels = Some(Some(10))),
        ),
    ];
    for (k, (built, set)) in cases.iter().enumerate() {
        assert_eq!(built, set, "builder {k}");
        assert_ne!(built, &d(), "builder {k}: not the default");
    }
}

#[test]
fn idx7xx_gzip_container() {
    let mut opts = Options::default();
    opts.decompress = true;
    let inner = hx("00 00 08 01 00 00 00 03 0a 0b 0c");
    let gz = gzip(&inner);
    let r = validate_with(&gz, &opts);
    assert_eq!(r.compression, Some(idx::Compression::Gzip));
    assert!(r.findings.is_empty(), "{r:#?}");
    assert_eq!(r.stream_len, 11);

    // two members (as `cat a.gz b.gz` makes) are one stream: here trailing bytes
    let mut two = gz.clone();
    two.extend_from_slice(&gzip(&[0xee]));
    let r = validate_with(&two, &opts);
    assert_eq!(
        r.findings
            .iter()
            .map(|f| (f.rule, f.offset, f.length))
            .collect::<Vec<_>>(),
        [(Rule::TrailingBytes, 11, 1)]
    );

    // cut in the middle: damaged, and no separate truncation finding
    let r = validate_with(&gz[..gz.len() - 6], &opts);
    let rules: Vec<_> = r.findings.iter().map(|f| f.rule).collect();
    assert_eq!(rules, [Rule::GzipDamaged], "{r:#?}");

    // a flipped byte in the CRC
    let mut bad = gz.clone();
    let n = bad.len();
    bad[n - 8] ^= 0xff;
    let r = validate_with(&bad, &opts);
    assert!(
        r.findings.iter().any(|f| f.rule == Rule::GzipDamaged),
        "{r:#?}"
    );

    // a bomb against a limit
    let big = gzip(&vec![0u8; 4 << 20]);
    opts.limits.max_decompressed = Some(1 << 20);
    let r = validate_with(&big, &opts);
    assert_eq!(
        r.findings.last().map(|f| (f.rule, f.offset)),
        Some((Rule::DecompressionLimit, 1 << 20))
    );
    assert_eq!(r.stream_len, 1 << 20);

    // gzip inside gzip is not decompressed twice
    opts.limits.max_decompressed = None;
    let r = validate_with(&gzip(&gz), &opts);
    assert_eq!(
        r.findings.iter().map(|f| f.rule).collect::<Vec<_>>(),
        [Rule::GzipCompressed]
    );
}

#[test]
fn messages_say_what_and_where() {
    let r = validate(&hx("00 00 07 03"));
    let f = &r.findings[0];
    assert_eq!(f.message, "unknown element type code 0x07");
    assert_eq!(f.expected.as_deref(), Some("one of 08 09 0b 0c 0d 0e"));
    assert_eq!(f.found.as_deref(), Some("07"));
    let e = idx::parse(&hx("00 00 08 01 00 00 00 03 0a")).unwrap_err();
    assert_eq!(e.to_string(), "the file ends 2 bytes before the end of the declared payload: expected 2 more bytes [IDX202] (at offset 0x9, byte 9)");
    assert!(e
        .finding()
        .hint
        .as_deref()
        .unwrap()
        .contains("exactly 1 complete item of the 3"));
}

/// The findings of a gzip input, decompressed.
fn gz_findings(bytes: &[u8], limit: Option<u64>) -> Vec<(&'static str, u64, u64)> {
    findings(
        bytes,
        &Options::default()
            .with_decompress(true)
            .with_max_decompressed(limit),
    )
}

#[test]
fn idx701_a_distance_before_the_start_of_the_output_is_damage() {
    // a back-reference reaching before the first output
    // byte ("invalid distance too far back" in zlib) was decoded as zeros
    // and the stream reported valid
    let b = hx(
        "1f 8b 08 00 00 00 00 00 00 ff  63 60 e0 60 04 b2 98 1d 9d 9c 01  de 66 82 52 0b 00 00 00",
    );
    // the prefix 00 00 08 01 is decoded; the cut dimension list is a
    // consequence of the damage, not reported
    // (zlib-rs 0.6 words it "repeated call with bad state" when its fast
    // path meets the error; the verdict and the offset are what count)
    assert_eq!(gz_findings(&b, None), [("IDX701", 4, 0)]);
}

#[test]
fn idx701_keeps_the_findings_of_the_decoded_prefix() {
    // zlib decodes 29 bytes before "invalid distance
    // code": 01 07 00 00 00 00 00 02 and 21 bytes of 0a
    let b = hx("1f 8b 08 00 00 00 00 00 02 03  63 64 67 00 01 26 2e 6c 00 ed 8b 90 06 0a 00 00 00");
    // 01 07 00 00: reserved bytes, type and rank all wrong, which the
    // not-IDX recognition (IDX420) reports as one finding
    assert_eq!(gz_findings(&b, None), [("IDX420", 0, 4), ("IDX701", 29, 0)]);
}

#[test]
fn idx702_does_not_hide_trailing_bytes_already_seen() {
    // u8 [1], one payload byte, then 20 trailing bytes, limit 12: the
    // 3 trailing bytes seen before the limit are certain (spec 7.14)
    let mut raw = hx("00 00 08 01 00 00 00 01 2a");
    raw.extend([0x55; 20]);
    let gz = gzip(&raw);
    assert_eq!(
        gz_findings(&gz, Some(12)),
        [("IDX203", 9, 3), ("IDX702", 12, 0)]
    );
    let r = validate_with(
        &gz,
        &Options::default()
            .with_decompress(true)
            .with_max_decompressed(Some(12)),
    );
    let m = &r.findings[0].message;
    assert!(m.starts_with("at least 3 bytes follow"), "{m}");
}

/// The validator decodes a gzip stream in pieces of 64 KiB of compressed
/// bytes; a valid stream of several pieces is valid, also when its bytes
/// come in pushes of other sizes.
#[test]
fn a_valid_gzip_stream_longer_than_one_input_piece_has_no_findings() {
    let mut raw = hx("00 00 08 01 00 03 0d 40"); // u8 [200000]
    raw.extend((0..200_000u32).map(|i| (i * 7 % 251) as u8));
    let gz = test_support::gzip_stored(&raw); // stored: longer than the data
    assert!(gz.len() > 3 * 64 * 1024);
    assert_eq!(gz_findings(&gz, None), []);
    let mut v = idx::Validator::new(Options::default().with_decompress(true));
    for piece in gz.chunks(50_000) {
        v.feed(piece);
    }
    assert_eq!(v.finish().findings, []);
}

#[test]
fn skipping_payload_bytes_turns_off_the_lints_that_would_miss_them() {
    // f32 [4]: a NaN, then 1, 2, 3
    let mut bytes = hx("00 00 0d 01 00 00 00 04");
    for x in [f32::NAN, 1.0, 2.0, 3.0] {
        bytes.extend(x.to_be_bytes());
    }
    assert_eq!(validate(&bytes).findings[0].rule, Rule::NonFinite);
    // the NaN fed, the rest skipped: no lint of a payload seen in part
    let mut v = idx::Validator::new(Options::default());
    v.feed(&bytes[..12]);
    v.skip(12);
    let r = v.finish();
    assert_eq!(r.findings, [], "{r:?}");
    assert_eq!((r.stream_len, r.tail.len()), (24, 0));
    // skipping nothing changes nothing
    let mut v = idx::Validator::new(Options::default());
    v.feed(&bytes[..8]);
    v.skip(0);
    v.feed(&bytes[8..]);
    assert_eq!(v.finish(), validate(&bytes));
}

#[test]
fn the_validator_keeps_the_first_four_trailing_bytes_alone() {
    // the header buffer (1024 bytes) full, then trailing bytes in pieces
    let mut v = idx::Validator::new(Options::default());
    v.feed(&u8_file(1024));
    for piece in [1u8, 2, 3, 4, 5, 6, 7, 8, 9, 10].chunks(3) {
        v.feed(piece);
    }
    let shown = format!("{v:?}");
    assert!(shown.contains("trailing_head: [1, 2, 3, 4],"), "{shown}");
}

#[test]
fn a_validator_decoding_gzip_shows_its_decoder_in_its_debug_form() {
    let gz = gzip(&hx("00 00 08 01 00 00 00 01 2a"));
    let mut v = idx::Validator::new(Options::default().with_decompress(true));
    // (pieces of 64 KiB are gathered before they are decoded: none yet)
    v.feed(&gz);
    let shown = format!("{v:?}");
    assert!(
        shown.contains("Gzip(GzipStage { stage: Stage { inflate: Inflate { members: 0, padding: 0, done: false"),
        "{shown}"
    );
}

#[test]
fn the_decompression_limit_stops_validation_before_padding_after_the_member() {
    // a stored stream whose last 64 KiB input piece holds its trailer
    // alone, then zero padding: the limit, reached in an earlier piece,
    // is the one finding (nothing after it is looked at)
    let file = |n: usize| {
        let mut raw = hx("00 00 08 01");
        raw.extend(u32::try_from(n).unwrap().to_be_bytes());
        raw.extend((0..n).map(|i| (i * 7 % 251) as u8));
        raw
    };
    // the stored stream's overhead, the same for sizes this close
    let over = test_support::gzip_stored(&file(262_000)).len() - 262_000;
    let gz = test_support::gzip_stored(&file(4 * 64 * 1024 + 8 - over));
    assert_eq!((gz.len() - 8) % (64 * 1024), 0, "{}", gz.len());
    let mut padded = gz.clone();
    padded.extend([0; 3]);
    let got = gz_findings(&padded, None);
    assert_eq!(got.iter().map(|f| f.0).collect::<Vec<_>>(), ["IDX703"]);
    let got = gz_findings(&padded, Some(100_000));
    assert_eq!(got, [("IDX702", 100_000, 0)]);
}

#[test]
fn an_empty_first_push_leaves_the_container_to_the_bytes_that_follow() {
    let gz = gzip(&hx("00 00 08 01 00 00 00 01 2a"));
    let mut v = idx::Validator::new(Options::default().with_decompress(true));
    v.feed(&[]);
    v.feed(&gz);
    let r = v.finish();
    assert_eq!(r.compression, Some(idx::Compression::Gzip));
    assert!(r.is_valid(), "{r:?}");
}

#[test]
fn idx703_zero_padding_after_the_last_member() {
    let mut b = gzip(&hx("00 00 08 01 00 00 00 01 2a"));
    b.extend([0; 7]);
    assert_eq!(gz_findings(&b, None), [("IDX703", 9, 0)]);
    // a non-zero byte after the padding is damage
    b.push(1);
    assert_eq!(gz_findings(&b, None), [("IDX701", 9, 0)]);
}

#[test]
fn endless_readers_finish_with_lower_bounds() {
    use std::io::Read;
    // /dev/zero: type 0x00 and rank 0; nothing after the header matters
    let r = idx::validate_reader(std::io::repeat(0), &Options::default()).unwrap();
    let got: Vec<_> = r
        .findings
        .iter()
        .map(|f| (f.rule.code(), f.offset, f.length))
        .collect();
    assert_eq!(got, [("IDX102", 2, 1), ("IDX301", 3, 1)]);
    assert!(!r.exact_len);
    assert_eq!(r.stream_len, idx::MAX_HEADER_LEN as u64);
    // a valid u8 [1] file followed by endless bytes: trailing counted to the bound
    let src = std::io::Cursor::new(hx("00 00 08 01 00 00 00 01 2a")).chain(std::io::repeat(7));
    let r = idx::validate_reader(src, &Options::default()).unwrap();
    let got: Vec<_> = r
        .findings
        .iter()
        .map(|f| (f.rule.code(), f.offset, f.length))
        .collect();
    assert_eq!(got, [("IDX203", 9, idx::__private::TRAILING_COUNT_LIMIT)]);
    assert!(r.findings[0].message.starts_with("at least "));
    assert!(!r.exact_len);
    // the same through read_array
    let src = std::io::Cursor::new(hx("00 00 08 01 00 00 00 01 2a")).chain(std::io::repeat(7));
    match idx::fuzzing::read_array(src) {
        Err(idx::ReadError::Invalid(e)) => {
            assert_eq!((e.rule(), e.offset()), (Rule::TrailingBytes, 9));
            assert!(e.finding().message.starts_with("at least "));
        }
        other => panic!("{other:?}"),
    }
    // and through the Reader's two reads, counted to the same bound
    let limit = idx::__private::TRAILING_COUNT_LIMIT;
    for into in [false, true] {
        let src = std::io::Cursor::new(hx("00 00 08 01 00 00 00 01 2a")).chain(std::io::repeat(7));
        let reader = idx::Reader::new(src, &idx::ReadOptions::default()).unwrap(); // ok: test
        let read = if into {
            reader.read_into(&mut [0u8; 1]).map(|_| ())
        } else {
            reader.read_array().map(|_| ())
        };
        match read {
            Err(idx::ReadError::Invalid(e)) => {
                let f = e.finding();
                assert_eq!(
                    (f.rule.code(), f.offset, f.length),
                    ("IDX203", 9, limit),
                    "{into}"
                );
                assert!(f.message.starts_with("at least "), "{}", f.message);
            }
            other => panic!("{other:?}"),
        }
    }
    // a known length makes it exact without reading the rest
    let mut bytes = hx("00 00 08 01 00 00 00 01 2a");
    bytes.resize(9 + 3_000_000, 0);
    let n = bytes.len() as u64;
    let r = idx::validate_reader_len(&bytes[..], Some(n), &Options::default()).unwrap();
    assert!(r.exact_len);
    assert_eq!(r.findings[0].length, 3_000_000);
}

#[test]
fn an_unknown_size_stops_reading_after_the_header_exact_only_when_nothing_follows() {
    // type ff: no payload size; a reader stops after the 1024-byte header
    // buffer and reads one more byte to tell whether the stream ends there
    let mut bytes = hx("00 00 ff 01 00 00 00 01");
    bytes.resize(idx::MAX_HEADER_LEN, 0);
    let r = idx::validate_reader(&bytes[..], &Options::default()).unwrap();
    assert!(r.exact_len, "{r:?}");
    assert_eq!(verdict(&r), verdict(&validate(&bytes)));
    bytes.push(0);
    let r = idx::validate_reader(&bytes[..], &Options::default()).unwrap();
    assert!(!r.exact_len, "{r:?}");
    assert_eq!(r.stream_len, idx::MAX_HEADER_LEN as u64);
}

/// Every other read is interrupted (`EINTR`), and is to be retried.
struct Interrupting<'a> {
    rest: &'a [u8],
    now: bool,
}

impl std::io::Read for Interrupting<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.now = !self.now;
        if self.now {
            return Err(std::io::ErrorKind::Interrupted.into());
        }
        self.rest.read(buf)
    }
}

#[test]
fn an_interrupted_read_is_retried_by_every_streaming_entry_point() {
    let bytes = u8_file(100_000);
    let src = || Interrupting {
        rest: &bytes,
        now: false,
    };
    let opts = Options::default();
    let n = Some(bytes.len() as u64);
    for r in [
        idx::validate_reader(src(), &opts).unwrap(),
        idx::validate_reader_len(src(), n, &opts).unwrap(),
        idx::__private::validate_structure(src(), None, &opts).unwrap(),
    ] {
        assert!(r.is_valid() && r.exact_len, "{r:?}");
        assert_eq!(r.stream_len, bytes.len() as u64);
    }
}

#[test]
fn a_known_length_still_reads_the_first_trailing_bytes() {
    // u8 [1016]: header and payload fill the first 1024-byte read exactly,
    // so everything after could be skipped by length; the first trailing
    // bytes are read anyway and name the appended second file, as in memory
    let mut bytes = hx("00 00 08 01 00 00 03 f8");
    bytes.resize(1024, 1);
    bytes.extend(hx("00 00 08 01 00 00 00 01 2a"));
    let n = bytes.len() as u64;
    let memory = validate(&bytes);
    let known = idx::validate_reader_len(&bytes[..], Some(n), &Options::default()).unwrap();
    let f = &known.findings[0];
    assert_eq!((f.rule, f.offset, f.length), (Rule::TrailingBytes, 1024, 9));
    assert!(f.hint.as_deref().unwrap().contains("concatenated"), "{f:?}");
    let fix = f.fix.as_ref().unwrap();
    assert!(
        fix.description.contains("the second file is lost"),
        "{fix:?}"
    );
    assert_eq!(memory.findings, known.findings);
}

/// A reader over bytes in memory, giving at most `piece` bytes a read,
/// that records the room each read offers and how many bytes it gave.
struct Recorded<'a> {
    rest: &'a [u8],
    piece: usize,
    offered: Vec<usize>,
    given: usize,
}

impl<'a> Recorded<'a> {
    fn new(bytes: &'a [u8]) -> Self {
        Recorded {
            rest: bytes,
            piece: usize::MAX,
            offered: Vec::new(),
            given: 0,
        }
    }
}

impl std::io::Read for Recorded<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.offered.push(buf.len());
        let n = buf.len().min(self.rest.len()).min(self.piece);
        buf[..n].copy_from_slice(&self.rest[..n]);
        self.rest = &self.rest[n..];
        self.given += n;
        Ok(n)
    }
}

/// A valid u8 file of `len` bytes in all.
fn u8_file(len: usize) -> Vec<u8> {
    let n = u32::try_from(len - 8).unwrap();
    let mut bytes = vec![0, 0, 8, 1];
    bytes.extend(n.to_be_bytes());
    bytes.extend((0..len - 8).map(|i| (i % 251) as u8));
    bytes
}

#[test]
fn a_small_input_is_validated_through_the_small_buffer_and_a_large_one_through_the_large() {
    // 12 KiB: the header, then the rest in one read of at most 16 KiB
    let small = u8_file(12 * 1024);
    let mut src = Recorded::new(&small);
    let r = idx::validate_reader(&mut src, &Options::default()).unwrap();
    assert!(r.is_valid(), "{r:?}");
    assert_eq!(src.given, small.len());
    assert!(src.offered.len() <= 4, "{:?}", src.offered);
    assert!(
        src.offered.iter().all(|&n| n <= 16 * 1024),
        "{:?}",
        src.offered
    );
    // 1 MiB: once a read fills the small buffer, reads of 256 KiB
    let large = u8_file(1024 * 1024);
    let mut src = Recorded::new(&large);
    let r = idx::validate_reader(&mut src, &Options::default()).unwrap();
    assert!(r.is_valid(), "{r:?}");
    assert_eq!(src.offered.iter().max(), Some(&(256 * 1024)));
}

/// The findings, the stream length and whether it is exact.
fn verdict(r: &idx::Report) -> (Vec<idx::Finding>, u64, bool) {
    (r.findings.clone(), r.stream_len, r.exact_len)
}

#[test]
fn a_known_length_skips_the_payload_no_check_needs_with_the_report_of_reading_it() {
    // i32 [200000], lints off: the byte-order test scores the first values,
    // after which the rest of the payload is accounted for by the length
    let opts = Options::default().with_lints(false);
    let mut bytes = hx("00 00 0c 01 00 03 0d 40");
    bytes.extend((0..200_000i32).flat_map(|i| (i * 3).to_be_bytes()));
    let n = bytes.len() as u64;
    let mut src = Recorded::new(&bytes);
    let r = idx::validate_reader_len(&mut src, Some(n), &opts).unwrap();
    assert!(src.given < bytes.len() / 2, "{} bytes read", src.given);
    assert_eq!(verdict(&r), verdict(&validate_with(&bytes, &opts)));
    assert_eq!((r.stream_len, r.findings.len()), (n, 0));
    // a second file appended: the bytes after the payload are read, and
    // say so, as in memory
    bytes.extend(hx("00 00 08 01 00 00 00 01 2a"));
    let mut src = Recorded::new(&bytes);
    let r = idx::validate_reader_len(&mut src, Some(bytes.len() as u64), &opts).unwrap();
    assert_eq!(verdict(&r), verdict(&validate_with(&bytes, &opts)));
    let f = &r.findings[0];
    assert_eq!((f.rule, f.offset, f.length), (Rule::TrailingBytes, n, 9));
    assert!(f.hint.as_deref().unwrap().contains("concatenated"), "{f:?}");
}

#[test]
fn a_known_length_equal_to_the_bytes_read_when_the_payload_could_be_skipped_is_ignored() {
    let opts = Options::default().with_lints(false);
    let mut bytes = hx("00 00 0c 01 00 03 0d 40"); // i32 [200000]
    bytes.extend((0..200_000i32).flat_map(|i| (i * 3).to_be_bytes()));
    // the true length, read 1000 bytes at a time: how much is read before
    // the rest of the payload is accounted for by the length
    let mut src = Recorded::new(&bytes);
    src.piece = 1000;
    idx::validate_reader_len(&mut src, Some(bytes.len() as u64), &opts).unwrap();
    let read = src.given;
    assert!(read < bytes.len() / 2, "{read} bytes read");
    // a length of just those bytes, the source holding more: nothing is
    // left to skip, so the rest is read and counts
    let mut src = Recorded::new(&bytes);
    src.piece = 1000;
    let r = idx::validate_reader_len(&mut src, Some(read as u64), &opts).unwrap();
    assert_eq!(src.given, bytes.len());
    assert_eq!(verdict(&r), verdict(&validate_with(&bytes, &opts)));
}

#[test]
fn a_known_length_bounds_the_trailing_bytes_read_after_the_payload() {
    // u8 [1016], then a second file; the length says 2 trailing bytes: the
    // reader is not asked for more once they are read
    let mut bytes = u8_file(1024);
    bytes.extend(hx("00 00 08 01 00 00 00 01 2a"));
    let mut src = Recorded::new(&bytes);
    let r = idx::validate_reader_len(&mut src, Some(1026), &Options::default()).unwrap();
    assert_eq!(src.given, 1026, "{:?}", src.offered);
    let f = &r.findings[0];
    assert_eq!((f.rule, f.offset, f.length), (Rule::TrailingBytes, 1024, 2));
    assert_eq!(r.stream_len, 1026);
}

#[test]
fn a_known_length_reads_only_the_first_trailing_bytes_and_counts_the_rest() {
    // u8 [1016], then 1000 bytes: the first 4 are read (is it a second
    // file?), the other 996 are counted by the length alone
    let mut bytes = u8_file(1024);
    bytes.extend((0..1000).map(|i| (i % 7) as u8 + 1));
    let mut src = Recorded::new(&bytes);
    let r = idx::validate_reader_len(&mut src, Some(2024), &Options::default()).unwrap();
    assert_eq!(src.given, 1028, "{:?}", src.offered);
    let f = &r.findings[0];
    assert_eq!(
        (f.rule, f.offset, f.length),
        (Rule::TrailingBytes, 1024, 1000)
    );
    assert!(r.exact_len);
}

#[test]
fn the_byte_order_test_turned_off_with_the_lints_reports_nothing_on_a_little_endian_payload() {
    let mut le = hx("00 00 0c 01 00 00 27 10"); // i32 [10000]
    le.extend((0..10_000i32).flat_map(|i| (i * 1000).to_le_bytes()));
    let on = Options::default().with_lints(false);
    let codes = |o: &Options| -> Vec<&str> {
        validate_with(&le, o)
            .findings
            .iter()
            .map(|f| f.rule.code())
            .collect()
    };
    assert_eq!(codes(&on), ["IDX501"]);
    assert_eq!(
        codes(&on.clone().with_byte_order_test(false)),
        Vec::<&str>::new()
    );
}

#[test]
fn a_known_length_shorter_than_the_bytes_already_read_is_ignored() {
    // u8 [1016] and 10 trailing bytes: the first read (the 1024-byte
    // header buffer) holds the whole payload; the length says 1000
    let mut bytes = u8_file(1024);
    bytes.extend(1..=10);
    let r = idx::validate_reader_len(&bytes[..], Some(1000), &Options::default()).unwrap();
    assert_eq!(verdict(&r), verdict(&validate(&bytes)));
    let f = &r.findings[0];
    assert_eq!(
        (f.rule, f.offset, f.length),
        (Rule::TrailingBytes, 1024, 10)
    );
}

#[test]
fn a_known_length_shorter_than_the_source_counts_trailing_bytes_as_no_length_does() {
    // u8 [1016] and 3 MiB of trailing bytes, the length saying 1000: the
    // trailing bytes are counted up to the same bound as when no length is
    // given (an exact count would need the whole source read), and the
    // report says the count is a lower bound
    let mut bytes = u8_file(1024);
    bytes.resize(1024 + (3 << 20), 7);
    let short = idx::validate_reader_len(&bytes[..], Some(1000), &Options::default()).unwrap();
    let none = idx::validate_reader(&bytes[..], &Options::default()).unwrap();
    assert_eq!(verdict(&short), verdict(&none));
    assert!(!short.exact_len);
}

#[test]
fn structure_only_reads_only_the_header_of_a_raw_source_of_known_length() {
    let bytes = u8_file(100_000);
    let n = bytes.len() as u64;
    let mut src = Recorded::new(&bytes);
    let r = idx::__private::validate_structure(&mut src, Some(n), &Options::default()).unwrap();
    assert!(r.is_valid() && r.exact_len, "{r:?}");
    assert_eq!(r.stream_len, n);
    assert!(src.given <= idx::MAX_HEADER_LEN, "{} bytes read", src.given);
    // the length alone says the payload is cut
    let r =
        idx::__private::validate_structure(&bytes[..], Some(n - 1), &Options::default()).unwrap();
    let got: Vec<_> = r.findings.iter().map(|f| (f.rule, f.offset)).collect();
    assert_eq!(got, [(Rule::TruncatedPayload, n - 1)]);
}

#[test]
fn structure_only_reads_a_gzip_source_of_known_length_in_full() {
    let raw = u8_file(100_000);
    let gz = gzip(&raw);
    let opts = Options::default().with_decompress(true);
    let mut src = Recorded::new(&gz);
    let r = idx::__private::validate_structure(&mut src, Some(gz.len() as u64), &opts).unwrap();
    assert_eq!(src.given, gz.len());
    assert!(r.is_valid() && r.exact_len, "{r:?}");
    assert_eq!(r.compression, Some(idx::Compression::Gzip));
    assert_eq!(r.stream_len, raw.len() as u64);
}

#[test]
fn spec_section_7_positions() {
    // 7.11: the bytes present are checked, then IDX103
    case("3 bytes", "00 00 07", &[("IDX102", 2, 1), ("IDX103", 3, 0)]);
    // 7.12: 1 to 3 printable bytes are text
    case("text ab", "61 62", &[("IDX405", 0, 2)]);
    // 7.13: a little-endian rank-0 u8 magic
    case("le rank 0", "00 08 00 00 2a", &[("IDX401", 0, 4)]);
    // 7.14: warnings for the complete dimensions present
    case(
        "truncated list",
        "00 00 08 03  00 00 00 00  80 00 00 00  ff",
        &[("IDX302", 4, 4), ("IDX303", 8, 4), ("IDX104", 13, 0)],
    );
    // 7.15: payload lints run on an invalid file's payload bytes
    case(
        "truncated f32 with a NaN",
        "00 00 0d 01  00 00 00 02  7f c0 00 00",
        &[("IDX502", 8, 4), ("IDX202", 12, 0)],
    );
    // 7.16: both reserved bytes, one finding
    case(
        "both reserved",
        "01 01 08 01  00 00 00 01  2a",
        &[("IDX101", 0, 2)],
    );
    // 7.17: empty zip and bare BZh are other compression
    case(
        "empty zip",
        "50 4b 05 06 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00",
        &[("IDX403", 0, 4)],
    );
    case("bare BZh", "42 5a 68", &[("IDX403", 0, 3)]);
    // 7.22: no item hint for rank 0
    let r = validate(&hx("00 00 0c 00  01 02"));
    let f = r
        .findings
        .iter()
        .find(|f| f.rule == Rule::TruncatedPayload)
        .unwrap();
    assert_eq!((f.offset, f.hint.as_deref()), (6, None));
}

#[test]
fn a_rule_prints_as_its_code() {
    for r in Rule::ALL {
        assert_eq!(r.to_string(), r.code());
    }
}

#[test]
fn severity_overrides_are_empty_until_a_warning_is_overridden() {
    use idx::{Severities, Severity};
    let mut s = Severities::default();
    assert!(s.is_empty());
    assert!("".parse::<Severities>().unwrap().is_empty());
    // an error keeps its severity: refused, and still nothing overridden
    assert!(s.set(Rule::TrailingBytes, Severity::Warning).is_err());
    assert!(s.is_empty());
    s.set(Rule::LikelyLittleEndian, Severity::Error).unwrap();
    assert!(!s.is_empty());
    assert_eq!("IDX501=error".parse::<Severities>(), Ok(s));
    let two: Severities = "likely-little-endian=error, IDX302=info".parse().unwrap();
    assert_eq!(
        two.iter().collect::<Vec<_>>(),
        [
            (Rule::ZeroDimension, Severity::Info),
            (Rule::LikelyLittleEndian, Severity::Error)
        ]
    );
}

#[test]
fn a_byte_order_proved_by_a_stated_range_stays_an_error_whatever_severity_is_asked() {
    use idx::{Severities, Severity};
    let mut le = hx("00 00 0c 01 00 00 00 40"); // i32, rank 1, 64 elements
    for i in 0..64i32 {
        le.extend_from_slice(&(i % 10).to_le_bytes());
    }
    let idx501 = |opts: &Options| {
        let r = validate_with(&le, opts);
        let f = r
            .findings
            .iter()
            .find(|f| f.rule == Rule::LikelyLittleEndian);
        f.map(|f| f.severity())
    };
    let asked = |s: &str| s.parse::<Severities>().unwrap();
    let proved = Options::default().with_expect_range(Some((0, 9)));
    assert_eq!(idx501(&proved), Some(Severity::Error));
    let quieter = proved.clone().with_severity(asked("IDX501=warning"));
    assert_eq!(
        idx501(&quieter),
        Some(Severity::Error),
        "a proof is not overridden"
    );
    // the statistical warning, without a range, follows what is asked
    let stricter = Options::default().with_severity(asked("IDX501=error"));
    assert_eq!(idx501(&Options::default()), Some(Severity::Warning));
    assert_eq!(idx501(&stricter), Some(Severity::Error));
}

#[test]
fn a_stated_range_proves_an_i16_payload_little_endian_at_its_first_element_outside() {
    let mut le = hx("00 00 0b 01 00 00 00 0a"); // i16, rank 1, 10 elements
    for i in 0..10i16 {
        le.extend_from_slice(&i.to_le_bytes());
    }
    let opts = Options::default().with_expect_range(Some((0, 9)));
    let r = validate_with(&le, &opts);
    let proofs: Vec<_> = r.errors().map(|f| (f.rule, f.offset, f.length)).collect();
    // element 1 reads 256 big-endian: 8 bytes of header, then 2 per element
    assert_eq!(proofs, [(Rule::LikelyLittleEndian, 10, 2)], "{r:#?}");
}

#[test]
fn the_classes_of_a_rank_1_labels_file_prove_its_byte_order_as_a_stated_range_does() {
    // i16 labels 0..=9 little-endian: 10 classes give the range 0..=9
    let labels = |hex: &str, n: u16| {
        let mut le = hx(hex);
        for i in 0..n {
            le.extend_from_slice(&((i % 10) as i16).to_le_bytes());
        }
        le
    };
    let proofs = |bytes: &[u8], classes: Option<u32>| -> Vec<(Rule, u64, u64)> {
        let opts = Options::default().with_scan_labels(Some(classes));
        let r = validate_with(bytes, &opts);
        r.errors().map(|f| (f.rule, f.offset, f.length)).collect()
    };
    let rank1 = labels("00 00 0b 01 00 00 00 0a", 10);
    assert_eq!(
        proofs(&rank1, Some(10)),
        [(Rule::LikelyLittleEndian, 10, 2)]
    );
    // 9 classes (0..=8): element 9 (9) is outside both ways, nothing proved
    assert_eq!(proofs(&rank1, Some(9)), []);
    // without a number of classes, or with none, nothing to prove against
    assert_eq!(proofs(&rank1, None), []);
    assert_eq!(proofs(&rank1, Some(0)), []);
    // a rank-2 file's values are not labels
    let rank2 = labels("00 00 0b 02 00 00 00 05 00 00 00 02", 10);
    assert_eq!(proofs(&rank2, Some(10)), []);
}

#[test]
fn a_stated_range_proof_does_not_depend_on_the_chunking() {
    // i16 and i32 little-endian values 0..=9; when spoilt, the last is
    // inside the range only big-endian, so nothing is proved. 600 elements:
    // past the first 1024 bytes, which validation reads before the payload
    // is looked at, so the chunks reach the scan as they are fed
    for (code, size) in [(0x0b_u8, 2), (0x0c, 4)] {
        for spoil in [false, true] {
            let mut b = hx("00 00 00 01 00 00 02 58"); // rank 1, 600 elements
            b[2] = code;
            for i in 0..600u16 {
                let mut e = vec![0; size];
                e[0] = (i % 10) as u8; // little-endian i % 10
                if spoil && i == 599 {
                    e = vec![0; size];
                    e[size - 1] = 5; // big-endian 5, little-endian huge
                }
                b.extend(e);
            }
            let opts = Options::default().with_expect_range(Some((0, 9)));
            let whole = findings(&b, &opts);
            let proved = validate_with(&b, &opts)
                .errors()
                .any(|f| f.rule == Rule::LikelyLittleEndian);
            assert_eq!(proved, !spoil, "size {size}, spoilt {spoil}: {whole:?}");
            for chunk in 1..=9 {
                let mut v = idx::Validator::new(opts.clone());
                for c in b.chunks(chunk) {
                    v.feed(c);
                }
                let got: Vec<_> = v
                    .finish()
                    .findings
                    .iter()
                    .map(|f| (f.rule.code(), f.offset, f.length))
                    .collect();
                assert_eq!(got, whole, "size {size}, spoilt {spoil}, chunks of {chunk}");
            }
        }
    }
}

/// Every damage and end a gzip stream can have, as pushed to the
/// validator in pieces of any size: the report of the whole, so a stream
/// fed as it arrives (the page, the npm API) gets the command's findings.
#[test]
fn a_gzip_stream_pushed_in_pieces_of_any_size_gets_the_report_of_the_whole() {
    // f32 [20000] of varied values, so the deflate stream has real codes
    let mut raw = vec![0, 0, 0x0d, 1, 0, 0, 0x4e, 0x20];
    raw.extend((0..20_000u32).flat_map(|i| ((i % 977) as f32 * 0.25).to_be_bytes()));
    let good = gzip(&raw);
    let mut inputs = vec![good.clone(), gzip(&raw[..5000])];
    for at in [10, 100, good.len() / 2, good.len() - 6] {
        let mut bad = good.clone();
        bad[at] ^= 0x55; // damage in the header, the blocks, the CRC
        inputs.push(bad);
        inputs.push(good[..at].to_vec()); // cut
    }
    let mut padded = good.clone();
    padded.extend([0; 9]);
    inputs.push(padded.clone());
    padded.push(1);
    inputs.push(padded); // garbage after the padding
    let mut two = gzip(&raw[..4000]);
    two.extend(gzip(&raw[4000..]));
    inputs.push(two);
    let limited = Options::default()
        .with_decompress(true)
        .with_max_decompressed(Some(30_000));
    for opts in [Options::default().with_decompress(true), limited] {
        for input in &inputs {
            let whole = validate_with(input, &opts);
            for size in [1, 2, 7, 4099, 65_536, 65_537, input.len()] {
                let mut v = idx::Validator::new(opts.clone());
                for piece in input.chunks(size) {
                    v.feed(piece);
                }
                assert_eq!(v.finish(), whole, "pieces of {size}");
            }
        }
    }
}

#[test]
fn a_stated_range_proves_nothing_about_a_payload_cut_short() {
    // i16 [10] stated 0..9, little-endian 0..6 then the file ends: the
    // elements read already leave the range big-endian, but a proof is
    // made only of a whole payload; the cut is the error
    let mut le = hx("00 00 0b 01 00 00 00 0a");
    for i in 0..7i16 {
        le.extend_from_slice(&i.to_le_bytes());
    }
    let opts = Options::default().with_expect_range(Some((0, 9)));
    let r = validate_with(&le, &opts);
    let errors: Vec<_> = r.errors().map(|f| f.rule).collect();
    assert_eq!(errors, [Rule::TruncatedPayload], "{r:#?}");
    // the whole payload: proved
    for i in 7..10i16 {
        le.extend_from_slice(&i.to_le_bytes());
    }
    let r = validate_with(&le, &opts);
    let errors: Vec<_> = r.errors().map(|f| f.rule).collect();
    assert_eq!(errors, [Rule::LikelyLittleEndian], "{r:#?}");
}

#[test]
fn the_width_hint_is_not_given_when_the_trailing_bytes_are_another_idx_file() {
    // u8 [20], then 20 more bytes: exactly twice the declared size, and the
    // 40 bytes read as i16 are plausible (small values) whether or not the
    // extra bytes begin with an IDX magic (00 00 08 01: 2049, one outlier)
    let payload = "00 01 00 02 00 03 00 04 00 05 00 06 00 07 00 08 00 09 00 0a";
    let trailing_hint = |extra: &str| {
        let bytes = hx(&format!("00 00 08 01 00 00 00 14 {payload} {extra}"));
        let r = validate(&bytes);
        let f: Vec<_> = r
            .errors()
            .filter(|f| f.rule == Rule::TrailingBytes)
            .collect();
        assert_eq!(f.len(), 1, "{r:#?}");
        f[0].hint.clone().unwrap_or_default()
    };
    let tail = "00 01 00 02 00 03 00 04 00 05 00 06 00 0b 00 0c";
    // not a file: the other width is named
    let plain = trailing_hint(&format!("00 07 00 08 {tail}"));
    assert!(plain.contains("exactly twice the declared size"), "{plain}");
    // another IDX file appended (its header first): not a width question
    let appended = trailing_hint(&format!("00 00 08 01 {tail}"));
    assert!(!appended.contains("declared size"), "{appended}");
}

#[test]
fn a_gzip_stream_exactly_as_long_as_the_limit_is_within_it_in_validation_and_the_reader() {
    // u8 [100] decompresses to 108 bytes: a limit of 108 holds it whole,
    // 107 does not (IDX702 after exactly the limit), in validation and in
    // the reader alike
    let raw = u8_file(108);
    let gz = gzip(&raw);
    assert_eq!(gz_findings(&gz, Some(108)), []);
    assert_eq!(gz_findings(&gz, Some(107)), [("IDX702", 107, 0)]);
    let read = |limit: u64| {
        let opts = idx::ReadOptions::default().with_max_decompressed(Some(limit));
        idx::Reader::new(&gz[..], &opts)
            .and_then(|r| r.read_array())
            .map(|(a, _)| a)
    };
    assert_eq!(read(108).unwrap().data(), &idx::Data::U8(raw[8..].to_vec()));
    match read(107) {
        Err(idx::ReadError::Invalid(e)) => assert_eq!(e.rule().code(), "IDX702"),
        other => panic!("{other:?}"),
    }
}

/// Trailing bytes are counted exactly up to the bound and as a lower bound
/// past it, by validation of a stream and by every read of the Reader (the
/// parallel one too): exactly the bound is an exact count.
#[test]
fn trailing_bytes_up_to_the_bound_are_counted_exactly_and_past_it_as_at_least() {
    let limit = idx::__private::TRAILING_COUNT_LIMIT;
    for extra in [limit, limit + 1] {
        let mut bytes = hx("00 00 08 01 00 00 00 01 2a");
        bytes.resize(9 + extra as usize, 7);
        let cut = extra > limit;
        let r = idx::validate_reader(&bytes[..], &Options::default()).unwrap(); // ok: test
        let f = &r.findings[0];
        assert_eq!((f.rule.code(), f.length), ("IDX203", limit), "{extra}");
        assert_eq!(f.message.starts_with("at least "), cut, "{}", f.message);
        let opts = idx::ReadOptions::default();
        let reads: [(&str, Result<(), idx::ReadError>); 3] = [
            (
                "read_array",
                idx::Reader::new(&bytes[..], &opts)
                    .and_then(|r| r.read_array())
                    .map(|_| ()),
            ),
            (
                "read_into",
                idx::Reader::new(&bytes[..], &opts)
                    .and_then(|r| r.read_into(&mut [0u8; 1]))
                    .map(|_| ()),
            ),
            (
                "read_into_parallel",
                idx::Reader::at(&&bytes[..], &opts)
                    .and_then(|r| r.read_into_parallel(&mut [0u8; 1], std::num::NonZeroUsize::MIN))
                    .map(|_| ()),
            ),
        ];
        for (what, read) in reads {
            match read {
                Err(idx::ReadError::Invalid(e)) => {
                    let g = e.finding();
                    assert_eq!((g.rule, g.length), (f.rule, f.length), "{what} {extra}");
                    assert_eq!(g.message, f.message, "{what} {extra}");
                }
                other => panic!("{what} {extra}: {other:?}"),
            }
        }
    }
}

#[test]
fn a_known_length_keeps_a_one_byte_payloads_last_bytes_before_a_truncation() {
    // a u8 payload has no linter to wait for, so its bytes are read, not
    // skipped by the source's length: the report keeps the last bytes
    // before the truncation, as in memory (with the lints off too)
    let mut bytes = u8_file(100_000);
    bytes.truncate(60_000);
    for opts in [Options::default(), Options::default().with_lints(false)] {
        let memory = validate_with(&bytes, &opts);
        let known = idx::validate_reader_len(&bytes[..], Some(bytes.len() as u64), &opts).unwrap(); // ok: test
        assert_eq!(known.findings, memory.findings);
        assert!(!memory.tail.is_empty());
        assert_eq!(known.tail, memory.tail, "lints {}", opts.lints);
    }
}
