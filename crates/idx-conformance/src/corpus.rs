//! Writing and checking the committed corpus.

use crate::cases::{Case, Verdict};
use crate::json::to_text;
use idx_io::output::Policy;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
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
        "sha256": sha256_hex(&case.bytes),
    });
    if case.on_demand {
        m["on_demand"] = json!(true);
    }
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

/// The SHA-256 of `bytes`, lowercase hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A fingerprint of a corpus: the SHA-256 of one line per case, `<id> <SHA-256
/// of its file>`, in case order. Saved results carry it, so that results of
/// another corpus (another case set, or other bytes) are seen as stale.
pub fn fingerprint(cases: &[Case]) -> String {
    let mut text = String::new();
    for c in cases {
        text.push_str(&c.id);
        text.push(' ');
        text.push_str(&sha256_hex(&c.bytes));
        text.push('\n');
    }
    sha256_hex(text.as_bytes())
}

/// Stamps JSON results (`v`, from [`Report::to_json`](crate::runner::Report::to_json))
/// with the corpus they were made on (`"corpus": {"cases", "sha256"}`, the
/// [`fingerprint`] of `cases`), so that `matrix --merge` can tell current
/// results from stale ones ([`results_match`]).
pub fn stamp(v: &mut Value, cases: &[Case]) {
    v["corpus"] = json!({
        "cases": cases.len(),
        "sha256": fingerprint(cases),
    });
}

/// Whether saved JSON results (`v`) were made on the corpus of `cases`:
/// `Err` says why not.
///
/// # Errors
/// Results without a fingerprint, or of another corpus.
pub fn results_match(v: &Value, cases: &[Case]) -> Result<(), String> {
    let want = fingerprint(cases);
    match v
        .get("corpus")
        .and_then(|c| c.get("sha256"))
        .and_then(Value::as_str)
    {
        None => Err("the results name no corpus fingerprint (made before fingerprints)".into()),
        Some(got) if got == want => Ok(()),
        Some(_) => {
            let n = v
                .get("corpus")
                .and_then(|c| c.get("cases"))
                .and_then(Value::as_u64)
                .map_or("?".into(), |n| n.to_string());
            Err(format!(
                "the results are of another corpus ({n} cases; the current one has {}, or other bytes): rerun them",
                cases.len()
            ))
        }
    }
}

/// The path of a case's file relative to the corpus root.
pub fn case_path(case: &Case) -> PathBuf {
    PathBuf::from(case.verdict.as_str()).join(case.file_name())
}

/// Every file, relative to the corpus root, with its bytes: each case's
/// file and manifest, and `index.json` (of the committed cases only).
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
        if c.on_demand {
            continue;
        }
        index.push(json!({
            "id": c.id,
            "verdict": c.verdict.as_str(),
            "path": format!("{}/{}", c.verdict.as_str(), c.file_name()),
            "manifest": format!("{}/{}.json", c.verdict.as_str(), c.id),
            "sha256": sha256_hex(&c.bytes),
        }));
    }
    let counts = |v: Verdict| {
        cases
            .iter()
            .filter(|c| c.verdict == v && !c.on_demand)
            .count()
    };
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

/// Writes the corpus of `cases` under `root`, removing stale case files
/// (but not the files of on-demand cases, which are git-ignored).
///
/// # Errors
/// I/O errors.
pub fn generate(root: &Path, cases: &[Case]) -> io::Result<usize> {
    let files = files(cases);
    let on_demand = on_demand_paths();
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
                if !files.contains_key(&rel) && !on_demand.contains(&rel) {
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
            // the workspace's one atomic writer; a changed file is replaced
            idx_io::output::write(&p, Policy::Overwrite, &[], bytes)?;
        }
    }
    Ok(files.len())
}

/// Differences between the generated corpus and `root`: missing, changed
/// and unexpected files.
pub fn check(root: &Path, cases: &[Case]) -> Vec<String> {
    let files = files(cases);
    let on_demand = on_demand_paths();
    let mut problems = Vec::new();
    for (rel, bytes) in &files {
        match std::fs::read(root.join(rel)) {
            Ok(b) if &b == bytes => {}
            Ok(_) => problems.push(format!(
                "{} differs from its recipe",
                idx_io::escape::path(rel)
            )),
            Err(e) => problems.push(format!("{}: {e}", idx_io::escape::path(rel))),
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
                if !files.contains_key(&rel) && !on_demand.contains(&rel) {
                    problems.push(format!(
                        "{} is not generated by any recipe",
                        idx_io::escape::path(&rel)
                    ));
                }
            }
        }
    }
    for rel in files_under(root, &root.join("datasets")) {
        if !files.contains_key(&rel) {
            problems.push(format!(
                "{} is not generated by any recipe",
                idx_io::escape::path(&rel)
            ));
        }
    }
    problems
}

/// The files of the on-demand cases (file and manifest), by name alone.
fn on_demand_paths() -> std::collections::BTreeSet<PathBuf> {
    let mut out = std::collections::BTreeSet::new();
    for id in crate::cases::ON_DEMAND {
        let dir = if id.starts_with("valid-") {
            Verdict::Valid
        } else {
            Verdict::Invalid
        };
        let dir = PathBuf::from(dir.as_str());
        out.insert(dir.join(format!("{id}.idx")));
        out.insert(dir.join(format!("{id}.json")));
    }
    out
}

/// Checks that every case file under `root` holds exactly the bytes of its
/// recipe (by SHA-256), in case order.
///
/// # Errors
/// A message naming the folder if it is missing, else the first missing or
/// different file.
pub fn verify(root: &Path, cases: &[Case]) -> Result<(), String> {
    if !root.is_dir() {
        return Err(format!(
            "the corpus folder {} does not exist or is not a folder",
            escape(root)
        ));
    }
    for c in cases {
        let rel = case_path(c);
        let path = root.join(&rel);
        let want = sha256_hex(&c.bytes);
        match std::fs::read(&path) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                let hint = if c.on_demand {
                    " (an on-demand case: write it with `generate --large`)"
                } else {
                    ""
                };
                return Err(format!(
                    "the corpus at {} is not the one this runner was built with: {} is missing{hint}",
                    escape(root),
                    idx_io::escape::path(&rel)
                ));
            }
            Err(e) => return Err(format!("{}: {e}", escape(&path))),
            Ok(b) => {
                let got = sha256_hex(&b);
                if got != want {
                    return Err(format!(
                        "the corpus at {} is not the one this runner was built with: {} has SHA-256 {got}, its recipe {want}",
                        escape(root),
                        idx_io::escape::path(&rel)
                    ));
                }
            }
        }
    }
    Ok(())
}

/// A path for a message: the workspace's one escaper.
fn escape(p: &Path) -> String {
    idx_io::escape::path(p)
}

/// The validator options a case's findings assume.
pub fn options(case: &Case) -> idx::Options {
    idx::Options::default()
        .with_decompress(true)
        .with_max_decompressed(case.options.max_decompressed)
        .with_expect_dtype(case.options.expect_dtype)
        .with_expect_shape(case.options.expect_shape.clone())
}
