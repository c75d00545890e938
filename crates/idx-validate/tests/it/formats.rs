//! A file that is not IDX gets one
//! finding naming what it is, in every format.

use serde_json::Value;
use std::process::Command;
use test_support::root;

fn json(args: &[&str]) -> (i32, Value) {
    let o = Command::new(env!("CARGO_BIN_EXE_idx-validate"))
        .args(["--format", "json"])
        .args(args)
        .current_dir(root())
        .output()
        .unwrap();
    let v = serde_json::from_slice(&o.stdout).unwrap();
    (o.status.code().unwrap_or(-1), v)
}

#[test]
fn the_repository_png_is_one_finding_naming_png() {
    // a real PNG (the README's contact sheet): before, 3 errors and
    // dozens of warnings about "dimensions"
    let (code, v) = json(&["--all-files", "docs/mnist-train-first64.png"]);
    assert_eq!(code, 1);
    let f = v["files"][0]["findings"].as_array().unwrap();
    assert_eq!(f.len(), 1, "{f:#?}");
    assert_eq!(f[0]["rule"], "IDX410");
    assert!(f[0]["message"].as_str().unwrap().contains("a PNG image"));
}

#[test]
fn every_not_idx_format_of_the_corpus_is_exactly_one_finding() {
    for (file, rule, name) in [
        ("invalid-png", "IDX410", "PNG"),
        ("invalid-jpeg", "IDX410", "JPEG"),
        ("invalid-gif", "IDX410", "GIF"),
        ("invalid-bmp", "IDX410", "BMP"),
        ("invalid-tiff", "IDX410", "TIFF"),
        ("invalid-webp", "IDX410", "WebP"),
        ("invalid-pdf", "IDX411", "PDF"),
        ("invalid-pickle", "IDX412", "pickle"),
        ("invalid-hdf5", "IDX413", "HDF5"),
        ("invalid-tfrecord", "IDX414", "TFRecord"),
        ("invalid-parquet", "IDX415", "Parquet"),
        ("invalid-elf", "IDX416", "ELF"),
        ("invalid-tar", "IDX403", "tar"),
        ("invalid-npz", "IDX403", ".npz"),
        ("invalid-first-byte-lost", "IDX420", "not IDX"),
    ] {
        let path = format!("corpus/invalid/{file}.idx");
        let (code, v) = json(&[&path]);
        assert_eq!(code, 1, "{file}");
        let f = v["files"][0]["findings"].as_array().unwrap();
        assert_eq!(f.len(), 1, "{file}: {f:#?}");
        assert_eq!(f[0]["rule"], rule, "{file}");
        assert!(
            f[0]["message"].as_str().unwrap().contains(name),
            "{file}: {}",
            f[0]["message"]
        );
    }
}

#[test]
fn random_bytes_stop_after_one_finding() {
    let t = tempfile::tempdir().unwrap();
    let p = t.path().join("noise.bin");
    let bytes: Vec<u8> = (0..4096u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    assert!(bytes[0] != 0 || bytes[1] != 0);
    std::fs::write(&p, &bytes).unwrap();
    let (code, v) = json(&[p.to_str().unwrap()]);
    assert_eq!(code, 1);
    let f = v["files"][0]["findings"].as_array().unwrap();
    assert_eq!(f.len(), 1, "{f:#?}");
}

/// The message of the first GitHub annotation of `out`, its escapes
/// decoded.
fn first_annotation(out: &str) -> String {
    let line = out.lines().find(|l| l.starts_with("::")).unwrap();
    let msg = line.splitn(3, "::").nth(2).unwrap();
    msg.replace("%0A", "\n")
        .replace("%0D", "\r")
        .replace("%3A", ":")
        .replace("%2C", ",")
        .replace("%25", "%")
}

#[test]
fn github_and_junit_give_a_finding_in_the_librarys_one_text_form() {
    let f = "corpus/invalid/invalid-trailing-byte.idx";
    let bytes = std::fs::read(root().join(f)).unwrap();
    let finding = &idx::validate(&bytes).findings[0];
    let long = format!("{finding:#}");
    assert!(long.contains("\n  = help: "), "{long}");
    let run = |fmt: &str, path: &str| {
        let o = Command::new(env!("CARGO_BIN_EXE_idx-validate"))
            .args(["--format", fmt, path])
            .current_dir(root())
            .output()
            .unwrap();
        String::from_utf8(o.stdout).unwrap()
    };
    assert_eq!(first_annotation(&run("github", f)), long);
    let junit = run("junit", f);
    let body = junit
        .split("\">")
        .find_map(|s| s.split_once("</failure>"))
        .unwrap()
        .0
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&amp;", "&");
    assert_eq!(body, long);
    // gzip: the same, the line saying where its offset is
    let dir = tempfile::tempdir().unwrap();
    let gz = dir.path().join("t.idx.gz");
    std::fs::write(&gz, test_support::gzip(&bytes)).unwrap();
    let noted = long.replacen(")\n", ") (offset in the decompressed stream)\n", 1);
    assert_eq!(
        first_annotation(&run("github", gz.to_str().unwrap())),
        noted
    );
}
