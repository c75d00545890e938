//! The built binary: exit statuses, inputs, formats parsed back, and the
//! same findings in every format.

use crate::support::{run, run_stdin};
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use test_support::{assert_contains, gzip, root};

fn corpus(rel: &str) -> String {
    format!("corpus/{rel}")
}

const VALID: &str = "valid/valid-u8-rank3.idx";
const INVALID: &str = "invalid/invalid-truncated-payload.idx";
const WARN: &str = "implementation-defined/impl-rank0-u8.idx";

#[test]
fn exit_statuses() {
    assert_eq!(run(&[&corpus(VALID)]).code, 0);
    assert_eq!(run(&[&corpus(WARN)]).code, 0, "warnings alone pass");
    assert_eq!(run(&["--deny-warnings", &corpus(WARN)]).code, 1);
    assert_eq!(run(&[&corpus(VALID), &corpus(INVALID)]).code, 1);
    let missing = run(&[&corpus(INVALID), "no/such/file.idx"]);
    assert_eq!(missing.code, 2, "unreadable wins over invalid");
    assert_contains(&missing.stdout, "cannot read no/such/file.idx");
    assert_eq!(run(&["--format", "nonsense", &corpus(VALID)]).code, 2);
    assert_eq!(run(&[]).code, 2, "no path is a usage error");
}

#[test]
fn help_documents_exit_status() {
    let o = run(&["--help"]);
    assert_eq!(o.code, 0);
    assert!(
        o.stdout.contains("EXIT STATUS") && o.stdout.contains("2 wins over 1"),
        "{}",
        o.stdout
    );
}

#[test]
fn no_input_in_the_corpus_panics_in_any_format() {
    for f in [
        "human", "short", "json", "jsonl", "sarif", "junit", "github",
    ] {
        let o = run(&["--format", f, "corpus"]);
        assert_eq!(o.code, 1, "{f}: {}", o.stderr);
        assert!(!o.stderr.contains("panicked"), "{f}: {}", o.stderr);
    }
}

#[test]
fn stdin_plain_and_gzip() {
    let bytes = std::fs::read(root().join(corpus(VALID))).unwrap();
    let o = run_stdin(&["-"], Some(&bytes));
    assert_eq!(o.code, 0, "{}", o.stdout);
    assert_contains(&o.stdout, "<stdin>: OK u8 [2, 3, 4]");
    let o = run_stdin(&["-"], Some(&gzip(&bytes)));
    assert_eq!(o.code, 0, "{}", o.stdout);
    assert_contains(&o.stdout, "gzip; offsets are in the decompressed stream");
    let o = run_stdin(&["-", "--no-decompress"], Some(&gzip(&bytes)));
    assert_eq!(o.code, 1);
    assert_contains(&o.stdout, "error[IDX402]");
}

#[test]
fn directories_walk_idx_looking_files_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let valid = std::fs::read(root().join(corpus(VALID))).unwrap();
    std::fs::create_dir(dir.path().join("sub")).unwrap();
    std::fs::write(dir.path().join("a.idx"), &valid).unwrap();
    std::fs::write(
        dir.path().join("sub/train-labels-idx1-ubyte.gz"),
        gzip(&[0, 0, 8, 1, 0, 0, 0, 1, 7]),
    )
    .unwrap();
    let mut damaged = gzip(&valid);
    damaged.truncate(damaged.len() - 5);
    std::fs::write(dir.path().join("sub/broken.idx.gz"), &damaged).unwrap();
    std::fs::write(dir.path().join("noname"), &valid).unwrap(); // found by its magic
    std::fs::write(dir.path().join("notes.txt"), b"not idx at all").unwrap();
    let d = dir.path().to_str().unwrap();
    let o = run(&["--format", "json", d]);
    assert_eq!(o.code, 1);
    let v: Value = serde_json::from_str(&o.stdout).unwrap();
    let files: Vec<(String, String)> = v["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let p = f["path"].as_str().unwrap();
            (
                p.strip_prefix(d).unwrap().to_string(),
                f["verdict"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(
        files,
        [
            ("/a.idx".into(), "valid".into()),
            ("/noname".into(), "valid".into()),
            ("/sub/broken.idx.gz".into(), "invalid".into()),
            ("/sub/train-labels-idx1-ubyte.gz".into(), "valid".into()),
        ]
    );
    let o = run(&["--format", "json", "--all-files", d]);
    let v: Value = serde_json::from_str(&o.stdout).unwrap();
    assert_eq!(
        v["files"].as_array().unwrap().len(),
        5,
        "--all-files includes notes.txt"
    );
    let broken = run(&["--format", "json", &format!("{d}/sub/broken.idx.gz")]);
    let v: Value = serde_json::from_str(&broken.stdout).unwrap();
    assert_eq!(v["files"][0]["findings"][0]["rule"], "IDX701");
    assert_eq!(v["files"][0]["compression"], "gzip");
}

#[test]
fn unreadable_directory_entries_are_reported() {
    let dir = tempfile::tempdir().unwrap();
    let link = dir.path().join("dangling.idx");
    std::os::unix::fs::symlink(dir.path().join("nowhere"), &link).unwrap();
    let o = run(&[link.to_str().unwrap()]);
    assert_eq!(o.code, 2);
}

#[test]
fn expectations_test_a_writer() {
    let f = corpus(VALID); // u8 [2, 3, 4]
    assert_eq!(
        run(&["--expect-dtype", "u8", "--expect-shape", "2,*,4", &f]).code,
        0
    );
    let o = run(&[
        "--format",
        "short",
        "--expect-dtype",
        "f32",
        "--expect-shape",
        "*,3,5",
        &f,
    ]);
    assert_eq!(o.code, 1);
    assert_contains(
        &o.stdout,
        ":2: error[IDX601]: the element type is u8, expected f32",
    );
    assert_contains(
        &o.stdout,
        ":12: error[IDX602]: dimension 2 is 4, expected 5",
    );
    assert_eq!(run(&["--expect-shape", "2,x", &f]).code, 2);
    assert_eq!(run(&["--expect-dtype", "u9", &f]).code, 2);
}

#[test]
fn list_rules_and_explain() {
    let o = run(&["--list-rules"]);
    assert_eq!(o.code, 0);
    for r in idx::Rule::ALL {
        assert!(
            o.stdout.contains(r.code()) && o.stdout.contains(r.title()),
            "{}",
            r.code()
        );
    }
    let o = run(&["--explain", "IDX202"]);
    assert_eq!(o.code, 0);
    assert!(
        o.stdout
            .starts_with("### IDX202 truncated-payload\n\nSeverity: error."),
        "{}",
        o.stdout
    );
    assert!(
        !o.stdout.contains("IDX203"),
        "only the one section: {}",
        o.stdout
    );
    assert_eq!(run(&["--explain", "trailing-bytes"]).code, 0);
    assert_eq!(run(&["--explain", "IDX999"]).code, 2);
}

#[test]
fn quiet_verbose_and_colour() {
    let o = run(&["-q", &corpus(VALID), &corpus(INVALID)]);
    assert!(!o.stdout.contains("valid-u8-rank3"), "{}", o.stdout);
    assert_contains(&o.stdout, "invalid-truncated-payload.idx: INVALID");
    let o = run(&["-v", &corpus(VALID)]);
    assert_contains(&o.stdout, "0x0004  00 00 00 02   dimension 0 = 2");
    assert!(
        !run(&[&corpus(INVALID)]).stdout.contains('\x1b'),
        "no colour when not a terminal"
    );
    assert!(run(&["--color", "always", &corpus(INVALID)])
        .stdout
        .contains("\x1b[1;31m"));
    assert!(!run(&["--color", "never", &corpus(INVALID)])
        .stdout
        .contains('\x1b'));
}

#[test]
fn structure_only_reads_the_header_and_the_length() {
    let o = run(&[
        "--structure-only",
        "--format",
        "short",
        "corpus/invalid",
        "corpus/implementation-defined",
    ]);
    assert_eq!(o.code, 1);
    assert_contains(&o.stdout, "invalid-truncated-payload.idx:10: error[IDX202]");
    assert_contains(&o.stdout, "invalid-trailing-byte.idx:9: error[IDX203]");
    assert!(
        !o.stdout.contains("IDX501"),
        "no payload lints: {}",
        o.stdout
    );
}

#[test]
fn max_findings_caps_per_rule_and_counts_the_rest() {
    let mut bytes = vec![0, 0, 8, 40];
    bytes.extend(std::iter::repeat_n(0u8, 160)); // 40 zero dimensions
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("zeros.idx");
    std::fs::write(&p, &bytes).unwrap();
    let o = run(&[
        "--format",
        "json",
        "--max-findings",
        "3",
        p.to_str().unwrap(),
    ]);
    let v: Value = serde_json::from_str(&o.stdout).unwrap();
    // rank 40 is also one IDX304 (high rank), not capped
    assert_eq!(v["files"][0]["findings"].as_array().unwrap().len(), 1 + 3);
    assert_eq!(v["files"][0]["findings"][0]["rule"], "IDX304");
    assert_eq!(v["files"][0]["suppressed"]["IDX302"], 37);
    assert_eq!(v["summary"]["warnings"], 1 + 40);
    assert!(run(&["--max-findings", "3", p.to_str().unwrap()])
        .stdout
        .contains("37 more IDX302 findings"));
}

/// `(path, rule, offset)` of every error and warning, per format.
fn keys_from(format: &str, out: &str) -> BTreeSet<(String, String, u64)> {
    let mut s = BTreeSet::new();
    match format {
        "json" => {
            let v: Value = serde_json::from_str(out).unwrap();
            assert_eq!(v["version"], 1);
            for f in v["files"].as_array().unwrap() {
                for k in ["path", "verdict", "compression", "header", "findings"] {
                    assert!(f.get(k).is_some(), "json file lacks {k}");
                }
                for x in f["findings"].as_array().unwrap() {
                    for k in [
                        "rule", "severity", "offset", "length", "message", "expected", "found",
                        "hint",
                    ] {
                        assert!(x.get(k).is_some(), "json finding lacks {k}");
                    }
                    s.insert((
                        f["path"].as_str().unwrap().into(),
                        x["rule"].as_str().unwrap().into(),
                        x["offset"].as_u64().unwrap(),
                    ));
                }
            }
        }
        "jsonl" => {
            for line in out.lines() {
                let x: Value = serde_json::from_str(line).unwrap();
                s.insert((
                    x["path"].as_str().unwrap().into(),
                    x["rule"].as_str().unwrap().into(),
                    x["offset"].as_u64().unwrap(),
                ));
            }
        }
        "sarif" => {
            let v: Value = serde_json::from_str(out).unwrap();
            assert_eq!(v["version"], "2.1.0");
            let run = &v["runs"][0];
            let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
            assert_eq!(rules.len(), idx::Rule::ALL.len());
            for r in run["results"].as_array().unwrap() {
                let idx = r["ruleIndex"].as_u64().unwrap() as usize;
                assert_eq!(rules[idx]["id"], r["ruleId"]);
                assert!(r["message"]["text"].is_string());
                let loc = &r["locations"][0]["physicalLocation"];
                // a gzip file's findings are in its decompressed stream, a
                // nested artifact whose parent is the .gz file
                let art = &loc["artifactLocation"];
                let uri = match art["uri"].as_str() {
                    Some(u) => u,
                    None => {
                        let arts = &run["artifacts"];
                        let nested = &arts[art["index"].as_u64().unwrap() as usize];
                        let parent = nested["parentIndex"].as_u64().unwrap() as usize;
                        arts[parent]["location"]["uri"].as_str().unwrap()
                    }
                };
                assert!(!uri.starts_with('/'), "relative uri");
                assert!(loc["region"]["byteLength"].is_u64());
                s.insert((
                    uri.into(),
                    r["ruleId"].as_str().unwrap().into(),
                    loc["region"]["byteOffset"].as_u64().unwrap(),
                ));
            }
        }
        "short" => {
            for line in out.lines() {
                let (path, rest) = line.split_once(':').unwrap();
                let (off, rest) = rest.split_once(": ").unwrap();
                let code = rest.split('[').nth(1).unwrap().split(']').next().unwrap();
                s.insert((path.into(), code.into(), off.parse().unwrap()));
            }
        }
        "github" => {
            for line in out.lines() {
                let props = line.split("::").nth(1).unwrap();
                let file = props
                    .split("file=")
                    .nth(1)
                    .unwrap()
                    .split(',')
                    .next()
                    .unwrap();
                let title = props.split("title=").nth(1).unwrap();
                let msg = line.splitn(3, "::").nth(2).unwrap();
                let off = msg
                    .split(", byte ")
                    .nth(1)
                    .unwrap()
                    .split(')')
                    .next()
                    .unwrap();
                s.insert((file.into(), title.into(), off.parse().unwrap()));
            }
        }
        "junit" => {
            let mut reader = quick_xml::Reader::from_str(out);
            let mut case = String::new();
            loop {
                match reader.read_event().unwrap() {
                    quick_xml::events::Event::Eof => break,
                    quick_xml::events::Event::Start(e) | quick_xml::events::Event::Empty(e) => {
                        let attr = |n: &str| {
                            e.attributes()
                                .flatten()
                                .find(|a| a.key.as_ref() == n.as_bytes())
                                .map(|a| a.unescape_value().unwrap().into_owned())
                        };
                        if e.name().as_ref() == b"testcase" {
                            case = attr("name").unwrap();
                        }
                        if e.name().as_ref() == b"failure" {
                            let ty = attr("type").unwrap();
                            let text = reader.read_text(e.name()).unwrap();
                            let off = text
                                .split(", byte ")
                                .nth(1)
                                .unwrap()
                                .split(')')
                                .next()
                                .unwrap();
                            s.insert((case.clone(), ty, off.parse().unwrap()));
                        }
                    }
                    _ => {}
                }
            }
        }
        _ => unreachable!(),
    }
    s
}

#[test]
fn every_format_renders_the_same_findings() {
    // --deny-warnings so that JUnit lists warnings as failures too; infos
    // are left out of the comparison for the same reason.
    let inputs = [
        "corpus/invalid",
        "corpus/implementation-defined/impl-rank0-u8.idx",
        "corpus/implementation-defined/impl-little-endian-f32-sine.idx",
    ];
    let mut reference: Option<BTreeSet<(String, String, u64)>> = None;
    for format in ["json", "jsonl", "sarif", "short", "github", "junit"] {
        let mut args = vec!["--format", format, "--deny-warnings"];
        args.extend(inputs);
        let o = run(&args);
        assert_eq!(o.code, 1, "{format}: {}", o.stderr);
        let mut keys = keys_from(format, &o.stdout);
        keys.retain(|(_, code, _)| {
            idx::Rule::find(code).is_some_and(|r| r.severity() != idx::Severity::Info)
        });
        assert!(keys.len() > 40, "{format}: only {} findings", keys.len());
        match &reference {
            None => reference = Some(keys),
            Some(r) => assert_eq!(&keys, r, "{format} differs from json"),
        }
    }
}

#[test]
fn sarif_github_adds_start_lines() {
    let o = run(&["--format", "sarif", "--sarif-github", &corpus(INVALID)]);
    let v: Value = serde_json::from_str(&o.stdout).unwrap();
    assert_eq!(
        v["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"],
        1
    );
    let o = run(&["--format", "sarif", &corpus(INVALID)]);
    let v: Value = serde_json::from_str(&o.stdout).unwrap();
    assert!(
        v["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]
            .get("startLine")
            .is_none()
    );
}

#[test]
fn parallel_output_keeps_argument_order() {
    let files: Vec<String> = std::fs::read_dir(root().join("corpus/valid"))
        .unwrap()
        .map(|e| format!("corpus/valid/{}", e.unwrap().file_name().to_string_lossy()))
        .filter(|p| p.ends_with(".idx"))
        .collect();
    let mut rev = files.clone();
    rev.reverse();
    let args: Vec<&str> = ["--format", "short", "-j", "4"]
        .into_iter()
        .chain(rev.iter().map(String::as_str))
        .collect();
    let one = run(&[
        &["--format", "json", "-j", "1"][..],
        &rev.iter().map(String::as_str).collect::<Vec<_>>(),
    ]
    .concat());
    let four = run(&[
        &["--format", "json", "-j", "4"][..],
        &rev.iter().map(String::as_str).collect::<Vec<_>>(),
    ]
    .concat());
    assert_eq!(one.stdout, four.stdout);
    let v: Value = serde_json::from_str(&four.stdout).unwrap();
    let order: Vec<&str> = v["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    assert_eq!(order, rev);
    assert_eq!(run(&args).code, 0);
}

#[test]
fn real_mnist_files_are_valid() {
    let dir = test_support::mnist_dir();
    let o = run(&[dir.to_str().unwrap()]);
    assert_eq!(o.code, 0, "{}", o.stdout);
    for (name, shape) in [
        ("t10k-images-idx3-ubyte.gz", "u8 [10000, 28, 28]"),
        ("t10k-labels-idx1-ubyte.gz", "u8 [10000]"),
    ] {
        assert!(
            o.stdout.contains(&format!("{name}: OK {shape}")),
            "{name}: {}",
            o.stdout
        );
    }
    // decompressed, as most people keep them
    let tmp = tempfile::tempdir().unwrap();
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "gz") {
            let mut d = flate2::read::GzDecoder::new(std::fs::File::open(&p).unwrap());
            let mut out = std::fs::File::create(tmp.path().join(p.file_stem().unwrap())).unwrap();
            std::io::copy(&mut d, &mut out).unwrap();
        }
    }
    let o = run(&["--deny-warnings", tmp.path().to_str().unwrap()]);
    assert_eq!(o.code, 0, "{}", o.stdout);
    assert_contains(&o.stdout, "t10k-images-idx3-ubyte: OK u8 [10000, 28, 28]");
    assert_contains(&o.stdout, "2 files checked: 2 valid");
}

/// The MNIST test set the repository carries is the published one: each
/// file's sha256, gzipped and decompressed, is the one its README's table
/// gives, and the table names exactly the files there.
#[test]
fn the_test_data_is_mnists_test_set_as_published() {
    use sha2::{Digest, Sha256};
    use std::io::Read;
    let dir = test_support::mnist_dir();
    let readme = std::fs::read_to_string(dir.join("README.md")).unwrap();
    let mut checked = 0;
    for line in readme.lines().filter(|l| l.starts_with("| t10k-")) {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let (name, bytes, sha) = (cells[1], cells[2], cells[3]);
        let (file, decompress) = match name.strip_suffix(" (decompressed)") {
            Some(stem) => (format!("{stem}.gz"), true),
            None => (name.to_string(), false),
        };
        let mut data = std::fs::read(dir.join(&file)).unwrap();
        if decompress {
            let mut out = Vec::new();
            flate2::read::GzDecoder::new(&data[..])
                .read_to_end(&mut out)
                .unwrap();
            data = out;
        }
        assert_eq!(data.len().to_string(), bytes, "{name}");
        let hex: String = Sha256::digest(&data)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(hex, sha, "{name}");
        checked += 1;
    }
    assert_eq!(checked, 4, "two files, gzipped and decompressed");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "README.md",
            "t10k-images-idx3-ubyte.gz",
            "t10k-labels-idx1-ubyte.gz"
        ]
    );
}

/// The documented schema and the output agree on the required keys.
#[test]
fn json_output_has_every_key_the_schema_requires() {
    let schema: Value = serde_json::from_str(
        &std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("schema/idx-validate.schema.json"),
        )
        .unwrap(),
    )
    .unwrap();
    let o = run(&[
        "--format",
        "json",
        &corpus(VALID),
        &corpus(INVALID),
        "no/such.idx",
    ]);
    let v: Value = serde_json::from_str(&o.stdout).unwrap();
    let req = |s: &Value| -> Vec<String> {
        s["required"]
            .as_array()
            .unwrap()
            .iter()
            .map(|k| k.as_str().unwrap().to_string())
            .collect()
    };
    for k in req(&schema) {
        assert!(v.get(&k).is_some(), "top level lacks {k}");
    }
    let file_schema = &schema["properties"]["files"]["items"];
    for f in v["files"].as_array().unwrap() {
        for k in req(file_schema) {
            assert!(f.get(&k).is_some(), "file lacks {k}");
        }
        for x in f["findings"].as_array().unwrap() {
            for k in req(&file_schema["properties"]["findings"]["items"]) {
                assert!(x.get(&k).is_some(), "finding lacks {k}");
            }
        }
    }
    for k in req(&schema["properties"]["summary"]) {
        assert!(v["summary"].get(&k).is_some(), "summary lacks {k}");
    }
}

/// The README shows the output of its first command; it must stay true.
#[test]
fn readme_first_command_output_is_current() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let cmd = "cargo run -q -p idx-validate -- ";
    let line = readme
        .lines()
        .find(|l| l.starts_with(cmd))
        .expect("README shows the first command");
    let args: Vec<&str> = line[cmd.len()..].split_whitespace().collect();
    let o = run(&args);
    assert_eq!(o.code, 1);
    let shown = readme
        .split("exits 1 because one file is\ninvalid:\n\n```text\n")
        .nth(1)
        .unwrap()
        .split("```")
        .next()
        .unwrap();
    assert_eq!(shown, o.stdout, "update the README's sample output");
}

#[test]
fn completions_and_the_committed_man_page() {
    for shell in ["bash", "zsh", "fish"] {
        let o = run(&["--completions", shell]);
        assert_eq!(o.code, 0, "{shell}");
        assert!(o.stdout.contains("expect-shape"), "{shell}: {}", o.stdout);
    }
    let o = run(&["--man"]);
    assert_eq!(o.code, 0);
    assert!(
        o.stdout.starts_with(".ie \\n(.g .ds Aq"),
        "{}",
        &o.stdout[..40]
    );
    let committed = std::fs::read_to_string(root().join("docs/idx-validate.1")).unwrap();
    assert_eq!(
        committed, o.stdout,
        "regenerate: idx-validate --man > docs/idx-validate.1"
    );
}

/// A copy of `valid-mnist-labels-u8-10.idx` in `dir` (`in.idx`), its
/// bytes, and a hard and a symbolic link to it: the names a report's
/// output file may give an input.
fn input_and_links(dir: &Path) -> (PathBuf, Vec<u8>, [PathBuf; 2]) {
    let input = dir.join("in.idx");
    let bytes = std::fs::read(root().join(corpus("valid/valid-mnist-labels-u8-10.idx"))).unwrap();
    std::fs::write(&input, &bytes).unwrap();
    let hard = dir.join("hard.idx");
    std::fs::hard_link(&input, &hard).unwrap();
    let soft = dir.join("soft.idx");
    std::os::unix::fs::symlink(&input, &soft).unwrap();
    (input, bytes, [hard, soft])
}

#[test]
fn output_file_never_replaces_an_input_by_path_symlink_or_hard_link() {
    let dir = tempfile::tempdir().unwrap();
    let (input, bytes, [hard, soft]) = input_and_links(dir.path());
    for dest in [&input, &hard, &soft] {
        let o = run(&[
            "--output-file",
            dest.to_str().unwrap(),
            input.to_str().unwrap(),
        ]);
        assert_eq!(o.code, 2, "{}", o.stderr);
        assert_contains(&o.stderr, "is one of the inputs");
        assert_eq!(std::fs::read(&input).unwrap(), bytes);
    }
    // any other file is replaced by the report, atomically
    let report = dir.path().join("report.json");
    std::fs::write(&report, "old").unwrap();
    let o = run(&[
        "--format",
        "json",
        "--output-file",
        report.to_str().unwrap(),
        input.to_str().unwrap(),
    ]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let v: Value = serde_json::from_slice(&std::fs::read(&report).unwrap()).unwrap();
    assert!(v.is_object());
}

/// `idx-validate --output-file X - < X`: standard input redirected from X
/// is X (same device and inode), so the report must not replace it, as
/// `idx show --png X - < X` and `idx convert ... -o X - < X` refuse.
#[test]
fn output_file_never_replaces_the_file_redirected_to_standard_input() {
    let dir = tempfile::tempdir().unwrap();
    let (input, bytes, [hard, _]) = input_and_links(dir.path());
    for dest in [&input, &hard] {
        let o = test_support::Cmd::new(crate::support::IDX_VALIDATE)
            .args(["--output-file", dest.to_str().unwrap(), "-"])
            .stdin_file(&input)
            .out();
        assert_eq!(o.code, 2, "{}", o.stderr);
        assert_contains(&o.stderr, "is one of the inputs");
        assert_eq!(std::fs::read(&input).unwrap(), bytes);
    }
    // another file is written, standard input being a file or a pipe
    let report = dir.path().join("report.txt");
    let o = test_support::Cmd::new(crate::support::IDX_VALIDATE)
        .args(["--output-file", report.to_str().unwrap(), "-"])
        .stdin_file(&input)
        .out();
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(std::fs::read_to_string(&report)
        .unwrap()
        .contains("<stdin>"));
}

#[test]
fn a_2_gib_file_is_checked_under_a_64_mib_address_space() {
    use std::os::unix::fs::FileExt;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("labels.idx");
    let f = std::fs::File::create(&file).unwrap();
    f.write_all_at(&[0, 0, 8, 1, 0x7f, 0xff, 0xff, 0xf8], 0)
        .unwrap();
    f.set_len(8 + 0x7fff_fff8).unwrap();
    let o = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v 65536 && exec '{}' '{}'",
            env!("CARGO_BIN_EXE_idx-validate"),
            file.display()
        ))
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_contains(&out, "OK u8 [2147483640]");
}

#[test]
fn output_file_dash_is_standard_output() {
    let o = run(&[
        "--format",
        "json",
        "--output-file",
        "-",
        &corpus("valid/valid-mnist-labels-u8-10.idx"),
    ]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let v: Value = serde_json::from_str(&o.stdout).unwrap();
    assert_eq!(v["files"][0]["verdict"], "valid");
    assert!(!root().join("-").exists());
}

/// A usage error quotes the value given escaped: an escape sequence, a bell
/// or a line break in an option's value or an unknown argument is shown,
/// not obeyed (clap printed them as given).
#[test]
fn usage_errors_show_the_values_given_escaped() {
    use test_support::{assert_escaped_usage_error, HOSTILE_VALUE};
    let unknown = format!("--x{HOSTILE_VALUE}");
    for args in [
        vec!["--max-findings", HOSTILE_VALUE, "x.idx"],
        vec!["--format", HOSTILE_VALUE, "x.idx"],
        vec![unknown.as_str(), "x.idx"],
    ] {
        let o = crate::support::run(&args);
        assert_escaped_usage_error(&args, o.code, &o.stderr);
    }
}
