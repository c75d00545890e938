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
    for c in cases::all() {
        let report = idx::validate_with(&c.bytes, &corpus::options(&c));
        let got: Vec<_> = report
            .findings
            .iter()
            .map(|f| (f.rule.code(), f.offset, f.length))
            .collect();
        assert_eq!(got, c.findings, "case {}", c.id);
        match c.verdict {
            Verdict::Invalid => assert!(report.has_errors(), "{}: invalid but no error", c.id),
            _ => assert!(!report.has_errors(), "{}: {:?}", c.id, report.findings),
        }
        if c.verdict == Verdict::ImplementationDefined && c.compression().is_none() {
            assert!(
                report
                    .findings
                    .iter()
                    .any(|f| f.severity() == Severity::Warning),
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
        for rank in [1, 2, 3, 4, 8, 255] {
            assert!(
                all.iter().any(|c| c.verdict == Verdict::Valid
                    && c.content
                        .as_ref()
                        .is_some_and(|k| k.dtype == t && k.shape.len() == rank)),
                "no valid {t} rank {rank}"
            );
        }
    }
}
