//! insta snapshots of the human (no colour) and JSON output for every
//! invalid and implementation-defined corpus file, and a few valid ones.

use idx_validate::check::{self, Settings, Source};
use idx_validate::render::{self, Context};
use std::path::Path;
use test_support::root;

fn settings() -> Settings {
    Settings {
        options: idx::Options::default()
            .with_decompress(true)
            .with_max_decompressed(Some(64 << 30)),
        structure_only: false,
        max_findings: 10,
    }
}

fn snapshot(path: &Path) {
    // Paths relative to the repository root, as a user there would type them.
    let rel = path.strip_prefix(root()).unwrap().to_path_buf();
    let abs = root().join(&rel);
    let mut result = check::check(&Source::File(abs), &settings());
    result.source = Source::File(rel);
    let results = [result];
    let ctx = Context::default();
    insta::assert_snapshot!("human", render::human::render(&results, &ctx));
    insta::assert_snapshot!("json", render::json::render(&results, &ctx));
}

#[test]
fn invalid_and_implementation_defined_files() {
    insta::glob!(
        "../../../../corpus",
        "{invalid,implementation-defined}/*.idx*",
        snapshot
    );
}

#[test]
fn some_valid_files() {
    insta::glob!(
        "../../../../corpus",
        "valid/valid-{u8-rank3,edge-f32,mnist-labels-u8-10,f64-rank32}.idx",
        snapshot
    );
}

#[test]
fn every_snapshot_is_referenced() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/it/snapshots");
    let mut n = 0;
    for e in std::fs::read_dir(&dir).unwrap() {
        let name = e.unwrap().file_name().to_string_lossy().into_owned();
        // this file's snapshots (other test files keep their own)
        if !name.ends_with(".snap") || !name.starts_with("it__snapshots__") {
            continue;
        }
        n += 1;
        let case = name.split('@').nth(1).and_then(|s| s.strip_suffix(".snap"));
        let Some(case) = case else { continue };
        // insta names a glob snapshot by the path below the matches' common folder
        let corpus = root().join("corpus");
        let exists = corpus.join(case.replace("__", "/")).exists()
            || corpus.join("valid").join(case).exists();
        assert!(
            exists,
            "snapshot {name} refers to no corpus file: delete it"
        );
    }
    let index: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(root().join("corpus/index.json")).unwrap())
            .unwrap();
    let files = index["counts"]["invalid"].as_u64().unwrap()
        + index["counts"]["implementation-defined"].as_u64().unwrap()
        + 4;
    assert_eq!(n, 2 * files, "every file has a human and a json snapshot");
}
