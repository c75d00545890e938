//! Structure checks that read the sources: the one way in stays the one
//! way in. The gzip magic is recognised by the library's reader (and the
//! decoder and the IDX402 finding beside it) alone, and the decompression
//! limit's default lives in `idx` alone, so no front end can read gzip its
//! own way or forget the limit.

use std::path::{Path, PathBuf};

fn files(dir: &Path, exts: &[&str], out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        if p.is_dir() {
            if !matches!(
                name.as_str(),
                "tests" | "node_modules" | "target" | "snapshots"
            ) {
                files(&p, exts, out);
            }
        } else if exts.iter().any(|x| name.ends_with(x)) {
            out.push(p);
        }
    }
}

/// Every source file of the workspace's crates (tests aside), the Python
/// package, the page and the npm package, as (path from the root, text).
fn sources() -> Vec<(String, String)> {
    let root = test_support::root();
    let mut paths = Vec::new();
    for (dir, exts) in [
        ("crates", &["rs"][..]),
        ("python/idxkit", &["py"][..]),
        ("web", &["js", "mjs"][..]),
        ("npm", &["js", "mjs", "ts"][..]),
    ] {
        files(&root.join(dir), exts, &mut paths);
    }
    let mut out: Vec<(String, String)> = paths
        .into_iter()
        .filter(|p| !p.components().any(|c| c.as_os_str() == "tests"))
        .map(|p| {
            (
                p.strip_prefix(&root)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/"),
                std::fs::read_to_string(&p).unwrap_or_default(),
            )
        })
        .collect();
    out.sort();
    assert!(out.len() > 100, "{} sources", out.len());
    out
}

/// Lines of `text` outside comments (`//`, `#`, `*` doc lines).
fn code_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines().enumerate().filter(|(_, l)| {
        let t = l.trim_start();
        !(t.starts_with("//") || t.starts_with('#') && !t.starts_with("#[") || t.starts_with('*'))
    })
}

#[test]
fn the_gzip_magic_is_recognised_by_the_reader_alone() {
    // where the magic may appear: the decoder with `is_gzip` (which the
    // reader calls), the IDX402 finding, the fuzz harnesses that build gzip
    // streams, and the corpus recipes that write gzip cases
    let allowed = [
        "crates/idx/src/gzip.rs",
        "crates/idx/src/sniff/mod.rs",
        "crates/idx/src/fuzzing.rs",
        "crates/idx-conformance/src/cases/",
    ];
    let needles = [
        "0x1f, 0x8b",
        "0x1f,0x8b",
        "\\x1f\\x8b",
        "[31, 139]",
        "0x8b1f",
        "1f 8b 08",
    ];
    let mut found = Vec::new();
    for (path, text) in sources() {
        if allowed.iter().any(|a| path.starts_with(a)) {
            continue;
        }
        for (n, line) in code_lines(&text) {
            if needles.iter().any(|x| line.contains(x)) {
                found.push(format!("{path}:{}: {}", n + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "the gzip magic outside the reader:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_decompression_limit_has_its_default_in_idx_alone() {
    // front ends take the limit from `idx::ReadOptions` (whose default is
    // the safe one); none computes or re-exports a default of its own
    let needles = [
        "decompression_limit(",
        "DEFAULT_MAX_DECOMPRESSED",
        "64 << 30",
    ];
    let mut found = Vec::new();
    for (path, text) in sources() {
        if path.starts_with("crates/idx/") {
            continue;
        }
        for (n, line) in code_lines(&text) {
            if needles.iter().any(|x| line.contains(x)) && !line.contains("\"64") {
                found.push(format!("{path}:{}: {}", n + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "a decompression default outside idx:\n{}",
        found.join("\n")
    );
}
