//! Self-checks of the committed corpus against the recipes, the library and
//! the spec.

use idx::{Rule, Severity};
use idx_conformance::cases::{self, Verdict};
use idx_conformance::content::Content;
use idx_conformance::corpus;
use std::collections::BTreeSet;

#[test]
fn committed_corpus_is_exactly_what_the_recipes_generate() {
    let problems = corpus::check(&idx_conformance::default_corpus(), &cases::all());
    assert!(
        problems.is_empty(),
        "run `cargo run -p idx-conformance -- generate`:\n{}",
        problems.join("\n")
    );
}

#[test]
fn ids_are_unique_and_well_formed() {
    let all = cases::all();
    let ids: BTreeSet<_> = all.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids.len(), all.len());
    for c in &all {
        let prefix = match c.verdict {
            Verdict::Valid => "valid-",
            Verdict::Invalid => "invalid-",
            Verdict::ImplementationDefined => "impl-",
        };
        assert!(c.id.starts_with(prefix), "{}", c.id);
        assert!(
            c.id.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'x'),
            "{}",
            c.id
        );
    }
}

#[test]
fn the_validator_reports_exactly_the_expected_findings() {
    for c in cases::with_on_demand() {
        let report = idx::validate_with(&c.bytes, &corpus::options(&c));
        let got: Vec<_> = report
            .findings
            .iter()
            .map(|f| (f.rule.code(), f.offset, f.length))
            .collect();
        assert_eq!(got, c.findings, "case {}", c.id);
        match c.verdict {
            Verdict::Invalid => assert!(report.has_errors(), "{}: invalid but no error", c.id),
            // a payload certainly written little-endian is an error
            // (IDX501), though the file is well formed
            _ => assert!(report.is_well_formed(), "{}: {:?}", c.id, report.findings),
        }
        for f in report
            .findings
            .iter()
            .filter(|f| f.rule == idx::Rule::LikelyLittleEndian)
        {
            let s = f.byte_order.expect("IDX501 carries its score");
            assert!(s.bits >= idx::lint::LIKELY_BITS, "{}: {s:?}", c.id);
        }
        if c.verdict == Verdict::ImplementationDefined && c.compression().is_none() {
            assert!(
                report
                    .findings
                    .iter()
                    .any(|f| f.severity() == Severity::Warning
                        || f.rule == idx::Rule::LikelyLittleEndian),
                "{}: impl-defined without a warning",
                c.id
            );
        }
    }
}

#[test]
fn valid_cases_decode_to_their_content_and_write_back_byte_for_byte() {
    for c in cases::all() {
        let Some(content) = &c.content else { continue };
        if c.compression().is_some() {
            continue;
        }
        // the content is the bytes read as IDX says (the little-endian
        // implementation-defined cases decode as every reader decodes them)
        let view = idx::parse(&c.bytes).unwrap_or_else(|e| panic!("{}: {e}", c.id));
        assert_eq!(&Content::of(&view.array()), content, "{}", c.id);
        let array = content.to_array().unwrap();
        assert!(view.to_array().bit_eq(&array), "{}", c.id);
        assert_eq!(
            idx::to_bytes(&array).unwrap(),
            c.bytes,
            "{}: the writer differs from the golden file",
            c.id
        );
    }
}

#[test]
fn content_json_round_trips() {
    for c in cases::all() {
        if let Some(content) = &c.content {
            assert_eq!(
                &Content::from_json(&content.to_json(false)).unwrap(),
                content,
                "{}",
                c.id
            );
        }
    }
}

#[test]
fn every_error_rule_has_an_invalid_case_and_every_named_code_is_in_the_spec() {
    let spec = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../spec/idx.md"),
    )
    .unwrap();
    let all = cases::all();
    for c in &all {
        for code in c.rules() {
            assert!(
                spec.contains(&format!("### {code} ")),
                "{}: {code} is not in the spec",
                c.id
            );
        }
    }
    for r in Rule::ALL {
        if r.severity() == Severity::Error {
            let dataset_case = idx_conformance::datasets::all()
                .iter()
                .any(|d| !d.valid && d.rules().contains(&r.code()));
            assert!(
                dataset_case
                    || all
                        .iter()
                        .any(|c| c.verdict == Verdict::Invalid && c.rules().contains(&r.code())),
                "no invalid case exercises {}",
                r.code()
            );
        }
    }
}

#[test]
fn corpus_covers_every_type_and_rank() {
    let all = cases::all();
    for t in idx::ElementType::ALL {
        for rank in [1, 2, 3, 4, 8, 32] {
            assert!(
                all.iter().any(|c| c.verdict == Verdict::Valid
                    && c.content
                        .as_ref()
                        .is_some_and(|k| k.dtype == t && k.shape.len() == rank)),
                "no valid {t} rank {rank}"
            );
        }
        assert!(
            all.iter()
                .any(|c| c.verdict == Verdict::ImplementationDefined
                    && c.content
                        .as_ref()
                        .is_some_and(|k| k.dtype == t && k.shape.len() == 255)),
            "no implementation-defined {t} rank 255"
        );
    }
}

/// The wrapped size products equal the payload exactly, both
/// as elements and as bytes, modulo 2^64, while the true size overflows.
#[test]
fn wrapping_overflow_cases_wrap_to_exactly_their_payload() {
    let all = cases::all();
    let wraps: Vec<_> = all
        .iter()
        .filter(|c| c.id.starts_with("invalid-size-overflow-wraps-"))
        .collect();
    assert!(wraps.len() >= 5, "{}", wraps.len());
    let mut types = BTreeSet::new();
    for c in wraps {
        let t = idx::ElementType::from_code(c.bytes[2]).unwrap();
        types.insert(t);
        let rank = usize::from(c.bytes[3]);
        let dims: Vec<u64> = (0..rank)
            .map(|k| {
                let b = &c.bytes[4 + 4 * k..8 + 4 * k];
                u64::from(u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
            })
            .collect();
        let payload = (c.bytes.len() - 4 - 4 * rank) as u64;
        let exact: u128 = dims.iter().map(|&d| u128::from(d)).product();
        let bytes = exact * t.size() as u128;
        assert!(bytes > u128::from(u64::MAX), "{}: does not overflow", c.id);
        let wrapped_elements = dims
            .iter()
            .fold(0u64, |a, &d| if a == 0 { d } else { a.wrapping_mul(d) });
        let wrapped_bytes = wrapped_elements.wrapping_mul(t.size() as u64);
        assert_eq!(wrapped_bytes, payload, "{}: wrapped bytes", c.id);
        if !c.id.contains("-bytes-") {
            assert_eq!(
                wrapped_elements * t.size() as u64,
                payload,
                "{}: wrapped elements",
                c.id
            );
        }
        // no dimension trips the 2^31 warning: the overflow is the only finding
        assert!(dims.iter().all(|&d| d < 1 << 31), "{}", c.id);
    }
    assert!(types.len() >= 4, "{types:?}");
}

/// MNIST's own item count, valid and with both twins.
#[test]
fn mnist_sized_label_files_and_their_twins() {
    let all = cases::all();
    let get = |id: &str| {
        all.iter()
            .find(|c| c.id == id)
            .unwrap_or_else(|| panic!("{id}"))
    };
    let valid = get("valid-mnist-labels-u8-10000");
    assert_eq!(valid.content.as_ref().unwrap().shape, [10_000]);
    assert!(!valid.on_demand);
    let trailing = get("invalid-trailing-mnist-labels-10000");
    let truncated = get("invalid-truncated-payload-mnist-labels-10000");
    assert_eq!(&trailing.bytes[..valid.bytes.len()], &valid.bytes[..]);
    assert_eq!(&truncated.bytes[..], &valid.bytes[..valid.bytes.len() - 1]);
    let big = cases::on_demand();
    let ids: Vec<_> = big.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids, cases::ON_DEMAND);
    for c in &big {
        assert!(c.on_demand, "{}", c.id);
        assert!(!all.iter().any(|k| k.id == c.id), "{}", c.id);
    }
    for c in &big[..3] {
        // 10,000 images of 28 x 28
        assert_eq!(
            &c.bytes[..16],
            &[0, 0, 8, 3, 0, 0, 0x27, 0x10, 0, 0, 0, 28, 0, 0, 0, 28],
            "{}",
            c.id
        );
    }
    // the valid one decodes to its content; the twins are one image longer
    // and one row shorter
    let view = idx::parse(&big[0].bytes).unwrap();
    assert_eq!(
        Content::of(&view.array()),
        *big[0].content.as_ref().unwrap()
    );
    assert_eq!(big[1].bytes.len(), big[0].bytes.len() + 784);
    assert_eq!(big[2].bytes.len(), big[0].bytes.len() - 28);
    // and nothing committed is that large
    for c in &all {
        assert!(c.bytes.len() < 100_000, "{} should be on demand", c.id);
    }
}

/// A reader that hard-codes a dimension of MNIST's layout (28 x 28 images,
/// 10,000 or 60,000 items, one channel) and takes the rest from the byte
/// count passes every case of that layout: each such layout has a valid
/// case with its byte count and another shape.
#[test]
fn each_hard_coded_mnist_dimension_meets_a_valid_case_with_its_byte_count_and_another_shape() {
    let all = cases::with_on_demand();
    for (assumed, id) in [
        (&[2u32, 28, 28][..], "valid-u8-same-bytes-2x14x56"),
        (&[3, 28, 28], "valid-u8-same-bytes-3x56x14"),
        (&[2, 1, 28, 28], "valid-u8-same-bytes-1x2x28x28"),
        (&[2, 28, 28, 1], "valid-u8-same-bytes-1x28x28x2"),
        (&[10_000], "valid-u8-same-bytes-2x5000"),
        (&[60_000], "valid-u8-same-bytes-2x30000"),
        (&[10_000, 28, 28], "valid-u8-same-bytes-5000x28x56"),
    ] {
        let c = all
            .iter()
            .find(|c| c.id == id)
            .unwrap_or_else(|| panic!("{id}"));
        assert_eq!(c.verdict, Verdict::Valid, "{id}");
        let content = c.content.as_ref().unwrap();
        assert_eq!(content.dtype, idx::ElementType::U8, "{id}");
        let n = |s: &[u32]| s.iter().map(|&d| u64::from(d)).product::<u64>();
        assert_eq!(n(&content.shape), n(assumed), "{id}");
        assert_ne!(content.shape, assumed, "{id}");
        assert_eq!(
            content.shape.len(),
            if assumed.len() == 1 { 2 } else { assumed.len() },
            "{id}"
        );
    }
    // rank 3 with 784-byte items that are not 28 x 28 among the committed
    let odd = cases::all()
        .into_iter()
        .filter(|c| c.verdict == Verdict::Valid)
        .filter_map(|c| c.content)
        .filter(|c| c.dtype == idx::ElementType::U8 && c.shape.len() == 3)
        .filter(|c| c.shape[1] * c.shape[2] == 784 && c.shape[1] != 28)
        .count();
    assert!(odd >= 2, "{odd}");
}

#[test]
// `generate --large` writes the on-demand cases into corpus/; one of them
// (valid-u8-same-bytes-5000x28x56) was not git-ignored, so a commit could
// take 7.8 MB of it.
fn every_on_demand_case_file_is_git_ignored() {
    let root = idx_conformance::default_corpus().join("..");
    let ignore = std::fs::read_to_string(root.join(".gitignore")).unwrap();
    let mut b = globset::GlobSetBuilder::new();
    for line in ignore.lines().filter(|l| l.starts_with("/corpus/")) {
        b.add(globset::Glob::new(&line[1..]).unwrap());
    }
    let ignored = b.build().unwrap();
    let cases = cases::on_demand();
    assert_eq!(cases.len(), cases::ON_DEMAND.len());
    for c in &cases {
        for file in [c.file_name(), format!("{}.json", c.id)] {
            let p = format!("corpus/{}/{file}", c.verdict.as_str());
            assert!(ignored.is_match(&p), "{p} is not in .gitignore");
        }
    }
}
