//! The dataset cases through the library alone: each file validated, then
//! `idx::dataset::check_dataset` over the directory, gives exactly the
//! manifest's findings.

use idx::__private::{role, Role};
use idx::dataset::{check_dataset, DatasetFile, DatasetOptions};
use idx_conformance::datasets;
use std::collections::BTreeSet;

#[test]
fn the_library_reports_exactly_the_expected_dataset_findings() {
    for c in datasets::all() {
        let mut expected: BTreeSet<(String, String, u64, u64)> = c
            .findings
            .iter()
            .map(|&(f, r, o, l)| (f.to_string(), r.to_string(), o, l))
            .collect();
        let opts = idx::Options::default().with_decompress(true);
        let mut files = Vec::new();
        let mut found = BTreeSet::new();
        for (name, bytes) in &c.files {
            let rep =
                idx::validate_with(bytes, &opts.clone().with_file_name(Some(name.to_string())));
            for f in &rep.findings {
                found.insert((
                    name.to_string(),
                    f.rule.code().to_string(),
                    f.offset,
                    f.length,
                ));
            }
            files.push(DatasetFile {
                path: format!("d/{name}"),
                header: rep.header,
                labels: None,
                walked: true,
            });
        }
        let dopts = DatasetOptions {
            classes: c.classes,
            pairs: vec![],
        };
        // a labels file's values, scanned in one validation pass
        let scan = idx::Options::default()
            .with_decompress(true)
            .with_lints(false)
            .with_byte_order_test(false)
            .with_scan_labels(Some(c.classes));
        for (i, f) in files.iter_mut().enumerate() {
            if role(&f.path, &dopts.pairs, i) == Some(Role::Labels) {
                f.labels = idx::validate_with(&c.files[i].1, &scan).labels;
            }
        }
        for (i, f) in check_dataset(&files, &dopts) {
            found.insert((
                c.files[i].0.to_string(),
                f.rule.code().to_string(),
                f.offset,
                f.length,
            ));
        }
        assert_eq!(found, std::mem::take(&mut expected), "{}", c.id);
    }
}

#[test]
fn dataset_ids_are_unique_and_prefixed_by_verdict() {
    let all = datasets::all();
    let ids: BTreeSet<_> = all.iter().map(|c| c.id).collect();
    assert_eq!(ids.len(), all.len());
    for c in &all {
        let prefix = if c.valid {
            "valid-pairs-"
        } else {
            "invalid-pairs-"
        };
        assert!(c.id.starts_with(prefix), "{}", c.id);
        let errors = c
            .rules()
            .iter()
            .any(|r| idx::Rule::find(r).is_some_and(|r| r.severity() == idx::Severity::Error));
        assert_eq!(errors, !c.valid, "{}: verdict and findings disagree", c.id);
    }
}
