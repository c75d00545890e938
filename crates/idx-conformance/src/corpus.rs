//! Writing and checking the committed corpus.

use crate::cases::{Case, Verdict};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};

/// Version of the manifest format.
pub const MANIFEST_VERSION: u32 = 1;

/// The manifest of one case.
pub fn manifest(case: &Case) -> Value {
    let findings: Vec<Value> = case
        .findings
        .iter()
        .map(|&(rule, offset, length)| json!({"rule": rule, "offset": offset, "length": length}))
        .collect();
    let mut m = json!({
        "id": case.id,
        "verdict": case.verdict.as_str(),
        "description": case.description,
        "file": case.file_name(),
        "compression": case.compression(),
        "rules": case.rules(),
        "findings": findings,
    });
    if !case.options.is_empty() {
        let o = &case.options;
        let mut opts = serde_json::Map::new();
        if let Some(l) = o.max_decompressed {
            opts.insert("max_decompressed".into(), json!(l));
        }
        if let Some(t) = o.expect_dtype {
            opts.insert("expect_dtype".into(), json!(t.name()));
        }
        if let Some(s) = &o.expect_shape {
            let parts: Vec<String> = s
                .iter()
                .map(|d| d.map_or("*".into(), |d| d.to_string()))
                .collect();
            opts.insert("expect_shape".into(), json!(parts.join(",")));
        }
        m["options"] = Value::Object(opts);
    }
    if let Some(c) = &case.content {
        m["content"] = c.to_json(true);
    }
    m
}

/// Pretty JSON with a final newline.
pub fn to_text(v: &Value) -> String {
    // invariant: serialising a Value cannot fail
    let mut s = serde_json::to_string_pretty(v).expect("serialise JSON"); // invariant: a Value always serialises
    s.push('\n');
    s
}

/// Every generated file, relative to the corpus root, with its bytes.
pub fn files(cases: &[Case]) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut index = Vec::new();
    for c in cases {
        let dir = PathBuf::from(c.verdict.as_str());
        out.insert(dir.join(c.file_name()), c.bytes.clone());
        out.insert(
            dir.join(format!("{}.json", c.id)),
            to_text(&manifest(c)).into_bytes(),
        );
        index.push(json!({
            "id": c.id,
            "verdict": c.verdict.as_str(),
            "path": format!("{}/{}", c.verdict.as_str(), c.file_name()),
            "manifest": format!("{}/{}.json", c.verdict.as_str(), c.id),
        }));
    }
    let counts = |v: Verdict| cases.iter().filter(|c| c.verdict == v).count();
    let datasets = crate::datasets::all();
    let index = json!({
        "version": MANIFEST_VERSION,
        "counts": {
            "valid": counts(Verdict::Valid),
            "invalid": counts(Verdict::Invalid),
            "implementation-defined": counts(Verdict::ImplementationDefined),
        },
        "cases": index,
        "datasets": datasets
            .iter()
            .map(|d| json!({
                "id": d.id,
                "verdict": if d.valid { "valid" } else { "invalid" },
                "directory": format!("datasets/{}", d.id),
                "manifest": format!("datasets/{}.json", d.id),
            }))
            .collect::<Vec<_>>(),
    });
    out.insert(PathBuf::from("index.json"), to_text(&index).into_bytes());
    out.extend(crate::datasets::files(&datasets));
    out
}

/// Every file under `dir`, relative to `root` (none if `dir` is missing).
fn files_under(root: &Path, dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(rd) = std::fs::read_dir(dir) else {
        return out;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(files_under(root, &p));
        } else if let Ok(rel) = p.strip_prefix(root) {
            out.push(rel.to_path_buf());
        }
    }
    out
}

/// Writes the corpus under `root`, removing stale case files.
///
/// # Errors
/// I/O errors.
pub fn generate(root: &Path, cases: &[Case]) -> io::Result<usize> {
    let files = files(cases);
    for v in [
        Verdict::Valid,
        Verdict::Invalid,
        Verdict::ImplementationDefined,
    ] {
        let dir = root.join(v.as_str());
        if dir.exists() {
            for e in std::fs::read_dir(&dir)? {
                let p = e?.path();
                let rel = p
                    .strip_prefix(root)
                    .map(Path::to_path_buf)
                    .unwrap_or_default();
                if !files.contains_key(&rel) {
                    std::fs::remove_file(&p)?;
                }
            }
        }
        std::fs::create_dir_all(&dir)?;
    }
    for rel in files_under(root, &root.join("datasets")) {
        if !files.contains_key(&rel) {
            std::fs::remove_file(root.join(rel))?;
        }
    }
    for (rel, bytes) in &files {
        let p = root.join(rel);
        if let Some(dir) = p.parent() {
            std::fs::create_dir_all(dir)?;
        }
        if std::fs::read(&p).ok().as_deref() != Some(bytes.as_slice()) {
            std::fs::write(&p, bytes)?;
        }
    }
    Ok(files.len())
}

/// Differences between the generated corpus and `root`: missing, changed
/// and unexpected files.
pub fn check(root: &Path, cases: &[Case]) -> Vec<String> {
    let files = files(cases);
    let mut problems = Vec::new();
    for (rel, bytes) in &files {
        match std::fs::read(root.join(rel)) {
            Ok(b) if &b == bytes => {}
            Ok(_) => problems.push(format!("{} differs from its recipe", rel.display())),
            Err(e) => problems.push(format!("{}: {e}", rel.display())),
        }
    }
    for v in [
        Verdict::Valid,
        Verdict::Invalid,
        Verdict::ImplementationDefined,
    ] {
        if let Ok(rd) = std::fs::read_dir(root.join(v.as_str())) {
            for e in rd.flatten() {
                let rel = PathBuf::from(v.as_str()).join(e.file_name());
                if !files.contains_key(&rel) {
                    problems.push(format!("{} is not generated by any recipe", rel.display()));
                }
            }
        }
    }
    for rel in files_under(root, &root.join("datasets")) {
        if !files.contains_key(&rel) {
            problems.push(format!("{} is not generated by any recipe", rel.display()));
        }
    }
    problems
}

/// The validator options a case's findings assume.
pub fn options(case: &Case) -> idx::Options {
    idx::Options::default()
        .with_decompress(true)
        .with_max_decompressed(case.options.max_decompressed)
        .with_expect_dtype(case.options.expect_dtype)
        .with_expect_shape(case.options.expect_shape.clone())
}
