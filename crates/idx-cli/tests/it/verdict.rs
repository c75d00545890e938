//! One verdict per file in every `idx` subcommand: a payload that
//! validation calls little-endian beyond reasonable doubt (IDX501) is
//! refused with that finding unless `--assume-byte-order` says how to read
//! it; stated, it is read that way.

use crate::support::IDX;
use test_support::payloads::report_writer_file;
use test_support::{Cmd, Out};

/// `idx ARGS... --assume-byte-order ORDER`.
fn idx_assuming(order: &str, args: &[&std::ffi::OsStr]) -> Out {
    Cmd::new(IDX)
        .args(args)
        .args(["--assume-byte-order", order])
        .out()
}

/// The arguments of `idx convert --to npy INPUT -o OUTPUT`.
fn to_npy<'a>(input: &'a std::path::Path, output: &'a std::path::Path) -> [&'a std::ffi::OsStr; 6] {
    [
        "convert".as_ref(),
        "--to".as_ref(),
        "npy".as_ref(),
        input.as_os_str(),
        "-o".as_ref(),
        output.as_os_str(),
    ]
}

fn file(dir: &std::path::Path) -> std::path::PathBuf {
    let p = dir.join("writer.idx");
    std::fs::write(&p, report_writer_file()).unwrap();
    p
}

#[test]
fn every_subcommand_reads_the_technical_report_writers_file_with_the_byte_order_warning() {
    let dir = tempfile::tempdir().unwrap();
    let f = file(dir.path());
    let npy = dir.path().join("out.npy");
    let png = dir.path().join("out.png");
    let runs: [Vec<&std::ffi::OsStr>; 4] = [
        vec!["dump".as_ref(), f.as_os_str()],
        vec!["info".as_ref(), f.as_os_str()],
        vec![
            "show".as_ref(),
            f.as_os_str(),
            "--png".as_ref(),
            png.as_os_str(),
        ],
        to_npy(&f, &npy).to_vec(),
    ];
    // the byte-order test is statistical: a warning, with its score, as
    // idx-validate reports it (the same finding), and the file is read as
    // IDX says
    let report = idx::validate(&std::fs::read(&f).unwrap());
    let w = &report.findings[0];
    assert_eq!(
        (w.rule.code(), w.severity()),
        ("IDX501", idx::Severity::Warning)
    );
    for args in &runs {
        let out = Cmd::new(IDX).args(args).out();
        assert_eq!(out.code, 0, "{args:?}: {out:?}");
        assert_eq!(
            out.stderr.matches("warning[IDX501]").count(),
            1,
            "{args:?}: {}",
            out.stderr
        );
        assert!(out.stderr.contains(&w.message), "{args:?}: {}", out.stderr);
        assert!(out.stderr.contains(" bits"), "{args:?}: {}", out.stderr);
    }
    assert!(npy.exists() && png.exists(), "the outputs are written");
    // a stated byte order: no warning
    let out = idx_assuming("little", &["dump".as_ref(), f.as_os_str()]);
    assert_eq!((out.code, out.stderr.as_str()), (0, ""));
}

#[test]
fn a_stated_byte_order_is_how_every_subcommand_reads_it() {
    let dir = tempfile::tempdir().unwrap();
    let f = file(dir.path());
    // little: the writer's array, 0..24
    let out = idx_assuming("little", &["dump".as_ref(), f.as_os_str()]);
    assert_eq!(out.code, 0, "{out:?}");
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let data: Vec<u64> = doc["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| u64::from_str_radix(v.as_str().unwrap().trim_start_matches("0x"), 16).unwrap())
        .collect();
    let want: Vec<u64> = (0..24u8)
        .map(|i| u64::from(f32::from(i).to_bits()))
        .collect();
    assert_eq!(data, want);
    let info = idx_assuming("little", &["info".as_ref(), f.as_os_str()]);
    assert_eq!(info.code, 0, "{info:?}");
    assert!(
        info.stdout
            .lines()
            .any(|l| l.starts_with("max:") && l.ends_with(" 23")),
        "{}",
        info.stdout
    );
    // big: the bytes as IDX says, untested (the "garbage" a reader decodes)
    let out = idx_assuming("big", &["dump".as_ref(), f.as_os_str()]);
    assert_eq!(out.code, 0, "{out:?}");
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(
        doc["data"][1].as_str(),
        Some(format!("0x{:08x}", u32::from_be_bytes(1f32.to_le_bytes())).as_str())
    );
    // convert, stated little: the .npy holds 0..24
    let npy = dir.path().join("out.npy");
    let out = idx_assuming("little", &to_npy(&f, &npy));
    assert_eq!(out.code, 0, "{out:?}");
    let bytes = std::fs::read(&npy).unwrap();
    let body = &bytes[bytes.len() - 96..];
    let vals: Vec<f32> = body
        .chunks(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    assert_eq!(vals, (0..24u8).map(f32::from).collect::<Vec<_>>());
}

/// The first IDX701 or IDX702 finding of a corpus case's manifest:
/// `(rule, offset)`.
fn gzip_finding(manifest: &std::path::Path) -> Option<(String, u64)> {
    let m: serde_json::Value = serde_json::from_slice(&std::fs::read(manifest).unwrap()).unwrap();
    m["findings"].as_array()?.iter().find_map(|f| {
        let rule = f["rule"].as_str()?;
        matches!(rule, "IDX701" | "IDX702")
            .then(|| (rule.to_string(), f["offset"].as_u64().unwrap()))
    })
}

/// Every subcommand reports damaged gzip (IDX701) and the decompression
/// limit (IDX702) as the located findings validation gives, at the
/// corpus manifest's offset: never a bare I/O error.
#[test]
fn every_subcommand_locates_gzip_damage_and_the_decompression_limit_as_the_corpus_says() {
    let corpus = test_support::root().join("corpus/invalid");
    let dir = tempfile::tempdir().unwrap();
    let npy = dir.path().join("out.npy");
    let png = dir.path().join("out.png");
    let mut cases = 0;
    for entry in std::fs::read_dir(&corpus).unwrap() {
        let manifest = entry.unwrap().path();
        if manifest.extension().is_none_or(|e| e != "json") {
            continue;
        }
        let Some((rule, offset)) = gzip_finding(&manifest) else {
            continue;
        };
        let file = manifest.with_extension("idx.gz");
        // the corpus checks IDX702 under a 1 MiB limit, or the limit its
        // description gives (spec 7.20): the offset is the limit
        let limit = if rule == "IDX702" {
            offset.to_string()
        } else {
            "0".into()
        };
        let f = file.as_os_str();
        let runs: [Vec<&std::ffi::OsStr>; 4] = [
            vec!["dump".as_ref(), f],
            vec!["info".as_ref(), f],
            vec!["show".as_ref(), f, "--png".as_ref(), png.as_os_str()],
            vec![
                "convert".as_ref(),
                "--to".as_ref(),
                "npy".as_ref(),
                f,
                "-o".as_ref(),
                npy.as_os_str(),
            ],
        ];
        for args in &runs {
            let out = Cmd::new(IDX)
                .args(args)
                .args(["--max-decompressed", limit.as_str()])
                .out();
            assert_eq!(out.code, 1, "{args:?}: {out:?}");
            let want = format!("error[{rule}]");
            let line = out
                .stderr
                .lines()
                .find(|l| l.contains(&want))
                .unwrap_or_else(|| panic!("{args:?}: no {want}: {}", out.stderr));
            assert!(
                line.contains(&format!("(at offset {offset:#x}, byte {offset})")),
                "{args:?}: {line}"
            );
            assert!(
                !out.stderr.contains("invalid data"),
                "{args:?}: {}",
                out.stderr
            );
        }
        cases += 1;
    }
    assert!(cases >= 7, "only {cases} gzip damage cases in the corpus");
    assert!(
        !npy.exists() && !png.exists(),
        "nothing is written for a refused input"
    );
}
