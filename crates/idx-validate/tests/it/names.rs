//! File names in the machine formats (SARIF URIs, GitHub's `file=`, non-UTF-8
//! names in JSON), gzip offsets in SARIF, exact JSON integers, and
//! hostile names in repair errors.

use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output};
use test_support::{assert_contains, gzip};

fn isolated_in(dir: &Path, args: &[&str]) -> Output {
    test_support::without_user_config(&mut Command::new(env!("CARGO_BIN_EXE_idx-validate")))
        .args(["--isolated"])
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn sarif(dir: &Path, args: &[&str]) -> Value {
    let o = isolated_in(dir, &[&["--format", "sarif"], args].concat());
    serde_json::from_slice(&o.stdout).unwrap()
}

/// u8 [1] followed by one trailing byte: IDX203 at offset 9, length 1.
const TRAILING: [u8; 10] = [0, 0, 8, 1, 0, 0, 0, 1, 0x2a, 0xff];

fn uris(doc: &Value) -> Vec<String> {
    doc["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect()
}

#[test]
fn sarif_uris_are_percent_encoded_uri_references() {
    let d = tempfile::tempdir().unwrap();
    let mut names = vec![
        ("a b#c%d?e.idx", "a%20b%23c%25d%3Fe.idx"),
        ("caf\u{e9}.idx", "caf%C3%A9.idx"),
        ("x:y.idx", "x%3Ay.idx"),
    ];
    if cfg!(unix) {
        // a backslash is an ordinary file-name character on Unix
        names.push(("back\\slash.idx", "back%5Cslash.idx"));
    }
    for (name, _) in &names {
        std::fs::write(d.path().join(name), TRAILING).unwrap();
    }
    for (name, want) in &names {
        let doc = sarif(d.path(), &[&format!("./{name}")]);
        assert_eq!(uris(&doc), [*want], "{name}");
    }
    // an absolute path is a file URI
    let abs = d.path().join("a b#c%d?e.idx");
    let doc = sarif(d.path(), &[abs.to_str().unwrap()]);
    let uri = &uris(&doc)[0];
    assert!(
        uri.starts_with("file:///") && uri.ends_with("/a%20b%23c%25d%3Fe.idx"),
        "{uri}"
    );
    assert!(!uri.contains(' '), "{uri}");
}

#[cfg(unix)]
#[test]
fn github_file_keeps_a_backslash_and_escapes_properties() {
    let d = tempfile::tempdir().unwrap();
    for name in ["back\\slash.idx", "a,b:c%d.idx"] {
        std::fs::write(d.path().join(name), TRAILING).unwrap();
    }
    let o = isolated_in(
        d.path(),
        &["--format", "github", "back\\slash.idx", "a,b:c%d.idx"],
    );
    let out = stdout(&o);
    assert_contains(&out, "::error file=back\\slash.idx,title=IDX203::");
    assert_contains(&out, "::error file=a%2Cb%3Ac%25d.idx,title=IDX203::");
}

#[cfg(unix)]
#[test]
fn json_carries_a_non_utf8_path_exactly() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let d = tempfile::tempdir().unwrap();
    let raw = b"bad\xff\xfename.idx";
    let name = OsStr::from_bytes(raw);
    if std::fs::write(d.path().join(name), TRAILING).is_err() {
        return; // a file system that only takes UTF-8 names
    }
    let hex = "62 61 64 ff fe 6e 61 6d 65 2e 69 64 78";
    let o =
        test_support::without_user_config(&mut Command::new(env!("CARGO_BIN_EXE_idx-validate")))
            .args(["--isolated", "--format", "json"])
            .arg(name)
            .current_dir(d.path())
            .output()
            .unwrap();
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let f = &v["files"][0];
    assert_eq!(f["path"], "bad\u{fffd}\u{fffd}name.idx");
    assert_eq!(f["path_bytes"], hex);
    assert_eq!(f["findings"][0]["rule"], "IDX203");
    let o = Command::new(env!("CARGO_BIN_EXE_idx-validate"))
        .args(["--isolated", "--format", "jsonl"])
        .arg(name)
        .current_dir(d.path())
        .output()
        .unwrap();
    let line: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(line["path_bytes"], hex);
    assert_eq!(line["rule"], "IDX203");
    // a UTF-8 name has no path_bytes
    std::fs::write(d.path().join("good.idx"), TRAILING).unwrap();
    let o = isolated_in(d.path(), &["--format", "json", "good.idx"]);
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(v["files"][0].get("path_bytes").is_none());
    // and SARIF percent-encodes the raw bytes
    let o = Command::new(env!("CARGO_BIN_EXE_idx-validate"))
        .args(["--isolated", "--format", "sarif"])
        .arg(name)
        .current_dir(d.path())
        .output()
        .unwrap();
    let doc: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(uris(&doc), ["bad%FF%FEname.idx"]);
}

#[test]
fn sarif_lists_a_gzip_file_named_twice_once() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("t.idx.gz"), gzip(&TRAILING)).unwrap();
    let doc = sarif(d.path(), &["t.idx.gz", "t.idx.gz"]);
    let run = &doc["runs"][0];
    let arts = run["artifacts"].as_array().unwrap();
    assert_eq!(arts.len(), 2, "{arts:#?}");
    let results = run["results"].as_array().unwrap();
    assert_eq!(results.len(), 2);
    for r in results {
        assert_eq!(
            r["locations"][0]["physicalLocation"]["artifactLocation"]["index"],
            1
        );
    }
}

#[test]
fn sarif_locates_gzip_findings_in_a_nested_artifact() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("t.idx.gz"), gzip(&TRAILING)).unwrap();
    std::fs::write(d.path().join("plain.idx"), TRAILING).unwrap();
    let doc = sarif(d.path(), &["plain.idx", "t.idx.gz"]);
    let run = &doc["runs"][0];
    let arts = run["artifacts"].as_array().unwrap();
    assert_eq!(arts.len(), 2, "{arts:#?}");
    assert_eq!(arts[0]["location"]["uri"], "t.idx.gz");
    assert!(arts[0].get("parentIndex").is_none());
    assert_eq!(arts[1]["parentIndex"], 0);
    assert!(arts[1].get("location").is_none() && arts[1].get("offset").is_none());
    let results = run["results"].as_array().unwrap();
    // the plain file: a byte region in the file itself
    let plain = &results[0]["locations"][0]["physicalLocation"];
    assert_eq!(plain["artifactLocation"]["uri"], "plain.idx");
    assert_eq!(plain["region"]["byteOffset"], 9);
    // the gzip file: the region is in the nested artifact, the stream
    let gz = &results[1];
    let loc = &gz["locations"][0]["physicalLocation"];
    assert_eq!(loc["artifactLocation"]["index"], 1);
    assert!(loc["artifactLocation"].get("uri").is_none());
    assert_eq!(loc["region"]["byteOffset"], 9);
    assert_eq!(loc["region"]["byteLength"], 1);
    assert_eq!(gz["properties"]["decompressed"]["byteOffset"], 9);
    // --sarif-github: the .gz file with a uri, no byte region on it
    let doc = sarif(d.path(), &["--sarif-github", "t.idx.gz"]);
    let gz = &doc["runs"][0]["results"][0];
    let loc = &gz["locations"][0]["physicalLocation"];
    assert_eq!(loc["artifactLocation"]["uri"], "t.idx.gz");
    assert_eq!(loc["artifactLocation"]["index"], 0);
    assert_eq!(loc["region"], serde_json::json!({"startLine": 1}));
    assert_eq!(gz["properties"]["decompressed"]["byteOffset"], 9);
    assert_eq!(gz["properties"]["decompressed"]["byteLength"], 1);
}

/// Spec 7.23: integers above 2^53 are written exactly, never through a
/// double: `payload_len` in JSON, and the counts in every format's text.
#[test]
fn integers_above_2_pow_53_are_exact_in_json_jsonl_and_sarif() {
    let d = tempfile::tempdir().unwrap();
    // u8 [4294967295, 4194305] with 1 payload byte
    std::fs::write(
        d.path().join("big.idx"),
        [0, 0, 8, 2, 0xff, 0xff, 0xff, 0xff, 0, 0x40, 0, 1, 0x2a],
    )
    .unwrap();
    let payload: u64 = 4_294_967_295 * 4_194_305;
    assert!(payload > 1 << 53);
    // the nearest doubles are 18014402800254976 and ...972: a double loses it
    assert_ne!(payload as f64 as u64, payload);
    let missing = (payload - 1).to_string();
    let o = isolated_in(d.path(), &["--format", "json", "big.idx"]);
    let text = stdout(&o);
    assert_contains(&text, &format!("\"payload_len\": {payload}"));
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        v["files"][0]["header"]["payload_len"].as_u64(),
        Some(payload)
    );
    let f202 = |findings: &[Value]| {
        findings
            .iter()
            .find(|f| f["rule"] == "IDX202" || f["ruleId"] == "IDX202")
            .cloned()
            .unwrap()
    };
    let f = f202(v["files"][0]["findings"].as_array().unwrap());
    assert!(f["message"].as_str().unwrap().contains(&missing));
    assert!(f["expected"]
        .as_str()
        .unwrap()
        .contains(&payload.to_string()));
    let o = isolated_in(d.path(), &["--format", "jsonl", "big.idx"]);
    let lines: Vec<Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let f = f202(&lines);
    assert!(f["message"].as_str().unwrap().contains(&missing));
    assert!(f["expected"]
        .as_str()
        .unwrap()
        .contains(&payload.to_string()));
    let doc = sarif(d.path(), &["big.idx"]);
    let f = f202(doc["runs"][0]["results"].as_array().unwrap());
    assert!(f["message"]["text"].as_str().unwrap().contains(&missing));
    assert!(f["properties"]["expected"]
        .as_str()
        .unwrap()
        .contains(&payload.to_string()));
}

/// A `--fix` that fails on a file whose name
/// holds a newline, an escape sequence and a bidi override says so on one
/// escaped line, in `human` and in `short`.
#[test]
fn a_failed_repair_of_a_hostile_name_is_reported_escaped() {
    let d = tempfile::tempdir().unwrap();
    let name = "evil\n\u{1b}[31m\u{202e}name.idx";
    // u8 [2] with a little-endian header: IDX401, a safe fix
    std::fs::write(d.path().join(name), [1, 8, 0, 0, 2, 0, 0, 0, 7, 9]).unwrap();
    // the copy cannot be written: its directory is a regular file
    std::fs::write(d.path().join("plain"), b"x").unwrap();
    let out = "plain/\u{1b}]0;title\u{7}out.idx";
    for format in ["human", "short"] {
        let o = isolated_in(
            d.path(),
            &[
                "--format", format, "--color", "always", "--fix", "--output", out, name,
            ],
        );
        let text = stdout(&o);
        assert_ne!(o.status.code(), Some(0), "{format}: {text}");
        assert_eq!(
            std::fs::read(d.path().join(name)).unwrap(),
            [1, 8, 0, 0, 2, 0, 0, 0, 7, 9],
            "the input is unchanged"
        );
        let line = text
            .lines()
            .find(|l| l.contains("NOT REPAIRED") || l.contains("not repaired"))
            .unwrap_or_else(|| panic!("{format}: no repair failure in {text:?}"));
        assert!(
            !text.contains("evil\n"),
            "{format}: raw newline in {text:?}"
        );
        for bad in ['\u{7}', '\u{202e}'] {
            assert!(!text.contains(bad), "{format}: raw {bad:?} in {text:?}");
        }
        // colours are the only escape sequences, and none comes from a name
        assert!(!text.contains("\u{1b}[31m\u{202e}"), "{format}: {text:?}");
        assert!(!text.contains("\u{1b}]0;"), "{format}: {text:?}");
        assert!(
            line.contains("evil\\n\\u{1b}[31m\\u{202e}name.idx"),
            "{format}: {line:?}"
        );
    }
}

/// The other file of a pair, when gzip, is located like any gzip finding:
/// in its decompressed stream (its offset is one), not on the .gz bytes.
#[test]
fn sarif_locates_a_gzip_pair_partner_in_its_decompressed_stream() {
    let d = tempfile::tempdir().unwrap();
    // 2 images of 1x1, 3 labels: IDX801
    let images = [0, 0, 8, 3, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 1, 7, 9];
    let labels = [0, 0, 8, 1, 0, 0, 0, 3, 1, 2, 3];
    std::fs::write(d.path().join("x-images-idx3-ubyte.gz"), gzip(&images)).unwrap();
    std::fs::write(d.path().join("x-labels-idx1-ubyte.gz"), gzip(&labels)).unwrap();
    let args = ["x-images-idx3-ubyte.gz", "x-labels-idx1-ubyte.gz"];
    let doc = sarif(d.path(), &args);
    let run = &doc["runs"][0];
    let arts = run["artifacts"].as_array().unwrap();
    let r = run["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["ruleId"] == "IDX801")
        .expect("IDX801");
    let rel = &r["relatedLocations"][0]["physicalLocation"];
    assert!(rel["artifactLocation"].get("uri").is_none(), "{rel}");
    let nested = &arts[rel["artifactLocation"]["index"].as_u64().unwrap() as usize];
    let parent = &arts[nested["parentIndex"].as_u64().unwrap() as usize];
    let own = &r["locations"][0]["physicalLocation"]["artifactLocation"];
    let own = &arts[own["index"].as_u64().unwrap() as usize];
    let own = &arts[own["parentIndex"].as_u64().unwrap() as usize];
    assert_ne!(parent["location"]["uri"], own["location"]["uri"]);
    assert!(rel["region"]["byteOffset"].is_u64());
    // --sarif-github: the partner's .gz file by uri, no byte region
    let doc = sarif(d.path(), &[&["--sarif-github"], &args[..]].concat());
    let r = doc["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["ruleId"] == "IDX801")
        .cloned()
        .unwrap();
    let rel = &r["relatedLocations"][0]["physicalLocation"];
    assert!(rel["artifactLocation"]["uri"]
        .as_str()
        .unwrap()
        .ends_with("-ubyte.gz"));
    assert_eq!(rel["region"], serde_json::json!({"startLine": 1}));
}

#[test]
fn a_paired_file_s_hostile_name_is_escaped_in_every_text_that_names_it() {
    // The dataset findings name the other file of a pair in their message,
    // expected/found and the human note; ESC and a bidi override in that
    // name reached the terminal raw in human output, and github's messages
    let d = tempfile::tempdir().unwrap();
    let prefix = "a\u{1b}[31mX\u{202e}";
    // u8 [2, 1, 1] images and u8 [3] labels: IDX801 on both files
    std::fs::write(
        d.path().join(format!("{prefix}-images-idx3-ubyte")),
        [0, 0, 8, 3, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 1, 7, 9],
    )
    .unwrap();
    std::fs::write(
        d.path().join(format!("{prefix}-labels-idx1-ubyte")),
        [0, 0, 8, 1, 0, 0, 0, 3, 1, 2, 3],
    )
    .unwrap();
    for format in ["human", "short", "github"] {
        let o = isolated_in(d.path(), &["--format", format, "--color", "never", "."]);
        let out = stdout(&o);
        assert!(out.contains("IDX801"), "{format}: {out}");
        assert!(
            !out.contains('\u{1b}') && !out.contains('\u{202e}'),
            "{format}: {out:?}"
        );
    }
}

#[test]
fn github_names_no_file_it_cannot_carry_and_escapes_the_name_in_the_message() {
    // the runner decodes only %25 %0D %0A %3A %2C in `file=`: an ESC written
    // as the text \u{1b} named a file that does not exist
    let d = tempfile::tempdir().unwrap();
    let bad = "e\u{1b}[31m\u{202e}x.idx";
    std::fs::write(d.path().join(bad), [0, 0, 7, 1, 0, 0, 0, 1, 5]).unwrap();
    std::fs::write(d.path().join("a,b:c%d.idx"), [0, 0, 7, 1, 0, 0, 0, 1, 5]).unwrap();
    let o = isolated_in(d.path(), &["--format", "github", bad, "a,b:c%d.idx"]);
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().filter(|l| l.starts_with("::")).collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(
        lines[0].starts_with("::error title=IDX102::e\\u{1b}[31m\\u{202e}x.idx: "),
        "{}",
        lines[0]
    );
    assert!(!lines[0].contains("file="), "{}", lines[0]);
    assert!(
        lines[1].starts_with("::error file=a%2Cb%3Ac%25d.idx,title=IDX102::error[IDX102]: unknown"),
        "{}",
        lines[1]
    );
    assert!(
        !out.contains('\u{1b}') && !out.contains('\u{202e}'),
        "{out:?}"
    );
}

#[test]
fn an_invalid_utf8_name_is_shown_with_its_bytes_in_every_text_format() {
    use std::os::unix::ffi::OsStrExt;
    let d = tempfile::tempdir().unwrap();
    let name = std::ffi::OsStr::from_bytes(b"l\xffn\x1b\n.idx");
    std::fs::write(d.path().join(name), [0, 0, 7, 1, 0, 0, 0, 1, 5]).unwrap();
    for format in ["human", "short", "github"] {
        let o = Command::new(env!("CARGO_BIN_EXE_idx-validate"))
            .args(["--format", format, "--color", "never"])
            .arg(name)
            .current_dir(d.path())
            .output()
            .unwrap();
        let out = String::from_utf8_lossy(&o.stdout).into_owned();
        assert!(out.contains("l\\xffn\\u{1b}\\n.idx"), "{format}: {out}");
        // as human shows it: the byte, not U+FFFD (github then names no file=)
        assert!(!out.contains('\u{fffd}'), "{format}: {out}");
        assert!(
            !o.stdout.contains(&0x1b) && !o.stdout.contains(&0xff),
            "{format}: {out:?}"
        );
    }
}

/// A bidirectional override, DEL and a C1 control from a file name reach no
/// terminal raw in the machine formats, which still carry the name exactly:
/// JSON as `\u` escapes its parsers decode, JUnit as character references
/// its parsers decode.
#[test]
fn machine_formats_carry_a_hostile_name_exactly_and_escaped() {
    let d = tempfile::tempdir().unwrap();
    let name = "r\u{202e}x\u{7f}y\u{85}z.idx";
    std::fs::write(d.path().join(name), [0, 0, 7, 1, 0, 0, 0, 1, 5]).unwrap();
    let raw = |out: &str| out.contains(['\u{202e}', '\u{7f}', '\u{85}']);
    for format in ["json", "jsonl", "sarif", "junit"] {
        let o = isolated_in(d.path(), &["--format", format, name]);
        let out = stdout(&o);
        assert!(!raw(&out), "{format}: a raw character in {out:?}");
        let given = match format {
            "json" => {
                let v: Value = serde_json::from_str(&out).unwrap();
                v["files"][0]["path"].as_str().unwrap().to_string()
            }
            "jsonl" => {
                let v: Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
                v["path"].as_str().unwrap().to_string()
            }
            "sarif" => {
                let v: Value = serde_json::from_str(&out).unwrap();
                let uri = uris(&v).remove(0);
                assert_eq!(uri, "r%E2%80%AEx%7Fy%C2%85z.idx");
                continue;
            }
            _ => {
                let mut reader = quick_xml::Reader::from_str(&out);
                let mut case = None;
                loop {
                    match reader.read_event().unwrap() {
                        quick_xml::events::Event::Eof => break,
                        quick_xml::events::Event::Start(e) if e.name().as_ref() == b"testcase" => {
                            case = e
                                .attributes()
                                .flatten()
                                .find(|a| a.key.as_ref() == b"name")
                                .map(|a| a.unescape_value().unwrap().into_owned());
                        }
                        _ => {}
                    }
                }
                case.unwrap()
            }
        };
        assert_eq!(given, name, "{format}: the name as given");
    }
}

/// A rank-1 file named as images (`*-images-idx1-ubyte`) gets IDX503, as
/// an `idx3` name on rank-1 data does (spec 6.3): a warning at the rank
/// byte, so the run still passes unless warnings are denied.
#[test]
fn an_images_name_on_rank_1_data_is_a_file_name_mismatch() {
    let d = tempfile::tempdir().unwrap();
    let rank1 = [0, 0, 8, 1, 0, 0, 0, 2, 7, 9];
    for name in ["train-images-idx1-ubyte", "train-images-idx3-ubyte"] {
        std::fs::write(d.path().join(name), rank1).unwrap();
        let o = isolated_in(d.path(), &["--format", "jsonl", name]);
        assert_eq!(o.status.code(), Some(0), "{name}");
        let found: Vec<(String, u64)> = stdout(&o)
            .lines()
            .map(|l| serde_json::from_str::<Value>(l).unwrap())
            .map(|v| {
                (
                    v["rule"].as_str().unwrap().to_string(),
                    v["offset"].as_u64().unwrap(),
                )
            })
            .collect();
        assert_eq!(found, [("IDX503".to_string(), 3)], "{name}");
        let o = isolated_in(d.path(), &["--deny-warnings", name]);
        assert_eq!(o.status.code(), Some(1), "{name}");
    }
}
