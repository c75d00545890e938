//! The dataset rules through the built binary: every dataset case of the
//! corpus (`corpus/datasets/<id>`) walked as a directory gives exactly the
//! findings of its manifest, in every output format; `--pair`; and an insta
//! snapshot of the human output of each case.

use crate::support::run_in;
use serde_json::Value;
use std::collections::BTreeSet;
use test_support::{assert_contains, root};

fn manifests() -> Vec<Value> {
    let index: Value =
        serde_json::from_str(&std::fs::read_to_string(root().join("corpus/index.json")).unwrap())
            .unwrap();
    let list = index["datasets"].as_array().unwrap();
    assert!(
        list.len() >= 8,
        "the dataset cases are listed in index.json"
    );
    list.iter()
        .map(|d| {
            let p = root().join("corpus").join(d["manifest"].as_str().unwrap());
            serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
        })
        .collect()
}

fn args_for(m: &Value, format: &str) -> Vec<String> {
    let mut a = vec!["--format".to_string(), format.to_string()];
    if let Some(n) = m["classes"].as_u64() {
        a.push("--classes".into());
        a.push(n.to_string());
    }
    a.push(format!("corpus/{}", m["directory"].as_str().unwrap()));
    a
}

type Found = BTreeSet<(String, String, u64, u64)>;

fn expected(m: &Value) -> Found {
    m["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["file"].as_str().unwrap().to_string(),
                f["rule"].as_str().unwrap().to_string(),
                f["offset"].as_u64().unwrap(),
                f["length"].as_u64().unwrap(),
            )
        })
        .collect()
}

fn base(path: &str) -> String {
    path.rsplit('/').next().unwrap().to_string()
}

#[test]
fn every_dataset_case_gives_exactly_its_findings() {
    for m in manifests() {
        let id = m["id"].as_str().unwrap();
        let args = args_for(&m, "json");
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = run_in(&root(), &args);
        let doc: Value = serde_json::from_str(&o.stdout).unwrap();
        let mut found = Found::new();
        for f in doc["files"].as_array().unwrap() {
            let file = base(f["path"].as_str().unwrap());
            for x in f["findings"].as_array().unwrap() {
                found.insert((
                    file.clone(),
                    x["rule"].as_str().unwrap().to_string(),
                    x["offset"].as_u64().unwrap(),
                    x["length"].as_u64().unwrap(),
                ));
                // a finding about two files names both
                if x["rule"].as_str().unwrap().starts_with("IDX80")
                    && matches!(x["rule"].as_str(), Some("IDX801" | "IDX805"))
                {
                    let other = x["related"]["path"].as_str().unwrap();
                    assert!(x["message"].as_str().unwrap().contains(other), "{id}: {x}");
                }
            }
        }
        assert_eq!(found, expected(&m), "{id}");
        let valid = m["verdict"] == "valid";
        assert_eq!(o.code, if valid { 0 } else { 1 }, "{id}: {}", o.stdout);
    }
}

#[test]
fn dataset_findings_render_in_every_format() {
    for m in manifests() {
        let id = m["id"].as_str().unwrap();
        for (rule, ..) in expected(&m).iter().map(|f| (f.1.clone(), f.0.clone())) {
            for format in ["human", "short", "jsonl", "sarif", "junit", "github"] {
                let args = args_for(&m, format);
                let args: Vec<&str> = args.iter().map(String::as_str).collect();
                let o = run_in(&root(), &args);
                let sev_warning = matches!(rule.as_str(), "IDX804" | "IDX806");
                // junit lists only failures (errors); the others every finding
                if format == "junit" && sev_warning {
                    continue;
                }
                assert!(o.stdout.contains(&rule), "{id} {format}: {}", o.stdout);
            }
        }
    }
}

#[test]
fn sarif_names_the_other_file_of_a_pair_as_a_related_location() {
    let o = run_in(
        &root(),
        &[
            "--format",
            "sarif",
            "corpus/datasets/invalid-pairs-count-mismatch",
        ],
    );
    let doc: Value = serde_json::from_str(&o.stdout).unwrap();
    let r = &doc["runs"][0]["results"][0];
    assert_eq!(r["ruleId"], "IDX801");
    let rel = &r["relatedLocations"][0]["physicalLocation"];
    assert_eq!(
        rel["artifactLocation"]["uri"],
        "corpus/datasets/invalid-pairs-count-mismatch/train-images-idx3-ubyte"
    );
    assert_eq!(rel["region"]["byteOffset"], 4);
    assert_eq!(rel["region"]["byteLength"], 4);
}

#[test]
fn structure_only_still_checks_label_values() {
    // 5000 u8 labels (past the first 1 KiB read), one of them 200: the
    // values are read for the dataset rules even with --structure-only
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    let mut labels = vec![0, 0, 8, 1, 0, 0, 0x13, 0x88];
    labels.extend((0..5000u32).map(|i| if i == 4000 { 200 } else { (i % 10) as u8 }));
    std::fs::write(d.join("t-labels-idx1-ubyte"), &labels).unwrap();
    for extra in [&[][..], &["--structure-only"][..]] {
        let args = [
            &["--format", "short", "--classes", "10"][..],
            extra,
            &["t-labels-idx1-ubyte"],
        ]
        .concat();
        let o = run_in(d, &args);
        assert_eq!(o.code, 1, "{extra:?}: {}", o.stdout);
        assert!(
            o.stdout.contains("t-labels-idx1-ubyte:4008: error[IDX803]"),
            "{extra:?}: {}",
            o.stdout
        );
    }
}

#[test]
fn explicit_pairs_override_names() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    // names outside the convention: nothing pairs them by name
    std::fs::write(
        d.join("x.idx"),
        [0, 0, 8, 3, 0, 0, 0, 3, 0, 0, 0, 1, 0, 0, 0, 1, 1, 2, 3],
    )
    .unwrap();
    std::fs::write(d.join("y.idx"), [0, 0, 8, 1, 0, 0, 0, 2, 0, 1]).unwrap();
    let o = run_in(d, &["--format", "short", "x.idx", "y.idx"]);
    assert_eq!(o.code, 0, "{}", o.stdout);
    let o = run_in(d, &["--format", "short", "--pair", "x.idx", "y.idx"]);
    assert_eq!(o.code, 1, "{}", o.stdout);
    assert_contains(&o.stdout, "y.idx:4: error[IDX801]: the labels file holds 2 items but its images file x.idx holds 3 items");
}

#[test]
fn real_mnist_pairs_cleanly_and_classes_are_checked() {
    let o = run_in(
        &root(),
        &["--format", "json", "--classes", "10", "testdata/mnist"],
    );
    assert_eq!(o.code, 0, "{}", o.stdout);
    let o = run_in(
        &root(),
        &["--format", "short", "--classes", "9", "testdata/mnist"],
    );
    assert_eq!(o.code, 1);
    assert_contains(
        &o.stdout,
        "t10k-labels-idx1-ubyte.gz:15: error[IDX803]: 1009 labels are outside the classes 0..8",
    );
}

#[test]
fn human_snapshots_of_every_dataset_case() {
    for m in manifests() {
        let id = m["id"].as_str().unwrap().to_string();
        let args = args_for(&m, "human");
        let mut args: Vec<&str> = args.iter().map(String::as_str).collect();
        args.insert(0, "--color=never");
        let o = run_in(&root(), &args);
        insta::assert_snapshot!(id, o.stdout);
    }
}

/// `--classes` reads every labels-shaped input; when it meets none it says
/// so (on standard error), and is silent when one is there.
#[test]
fn classes_that_apply_to_nothing_are_said_to() {
    let o = run_in(
        &root(),
        &["--classes", "10", "corpus/valid/valid-u8-rank3.idx"],
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_contains(
        &o.stderr,
        "note: --classes 10 applied to no input: none has a labels header",
    );
    let o = run_in(
        &root(),
        &[
            "--classes",
            "10",
            "corpus/valid/valid-mnist-labels-u8-10.idx",
        ],
    );
    assert_eq!((o.code, o.stderr.as_str()), (0, ""));
    let o = run_in(
        &root(),
        &["-q", "--classes", "10", "corpus/valid/valid-u8-rank3.idx"],
    );
    assert_eq!(o.stderr, "", "-q prints only what fails");
}
