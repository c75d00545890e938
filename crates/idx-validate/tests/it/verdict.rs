//! One verdict per file: the technical report writer's file (spec 6.1) is
//! invalid (IDX501, an error) unless the user vouches for its bytes with
//! `--assume-byte-order big`; the rule list shows IDX501 as both.

use crate::support::run;
use test_support::assert_contains;
use test_support::payloads::report_writer_file;

/// 1000 normally distributed f32 values, correctly big-endian.
fn normal_f32_file() -> Vec<u8> {
    let mut b = vec![0, 0, 0x0d, 1, 0, 0, 0x03, 0xe8];
    b.extend(test_support::payloads::big_endian(
        test_support::payloads::Kind::Normal,
        test_support::payloads::Type::F32,
        1000,
        1,
    ));
    b
}

#[test]
fn the_writers_file_is_an_idx501_warning_an_error_only_when_asked_or_proved() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("writer.idx");
    std::fs::write(&p, report_writer_file()).unwrap();
    let path = p.to_str().unwrap();
    // a statistical test: a warning with its score, exit 0
    let o = run(&[path]);
    assert_eq!(o.code, 0, "{}{}", o.stdout, o.stderr);
    assert_contains(&o.stdout, "warning[IDX501]");
    assert_contains(&o.stdout, "score 279.1 bits");
    // the user makes it fail: on the command line, in the configuration
    let o = run(&["--severity", "IDX501=error", path]);
    assert_eq!(o.code, 1, "{}{}", o.stdout, o.stderr);
    assert_contains(&o.stdout, "error[IDX501]");
    let cfg = dir.path().join("strict.toml");
    std::fs::write(&cfg, "severity = { IDX501 = \"error\" }\n").unwrap();
    let o = run(&["--config", cfg.to_str().unwrap(), path]);
    assert_eq!(o.code, 1, "{}{}", o.stdout, o.stderr);
    // the command line wins over the configuration
    let o = run(&[
        "--config",
        cfg.to_str().unwrap(),
        "--severity",
        "IDX501=warning",
        path,
    ]);
    assert_eq!(o.code, 0, "{}{}", o.stdout, o.stderr);
    // an error the bytes prove cannot be lowered
    let o = run(&["--severity", "IDX203=warning", path]);
    assert_eq!(o.code, 2, "{}{}", o.stdout, o.stderr);
    assert_contains(&o.stderr, "IDX203 is an error the bytes prove");
    let o = run(&["--assume-byte-order", "big", path]);
    assert_eq!(o.code, 0, "{}{}", o.stdout, o.stderr);
    assert!(!o.stdout.contains("IDX501"), "{}", o.stdout);
    // little states how it was written: read so, it is consistent, as the
    // readers find it (`idx dump --assume-byte-order little` reads it)
    let o = run(&[
        "--assume-byte-order",
        "little",
        "--severity",
        "IDX501=error",
        path,
    ]);
    assert_eq!(o.code, 0, "{}{}", o.stdout, o.stderr);
    // and a correct big-endian file stated little is contradicted: a
    // warning (the statement is used as stated), an error when asked
    let good = dir.path().join("good.idx");
    std::fs::write(&good, normal_f32_file()).unwrap();
    let good = good.to_str().unwrap();
    assert_eq!(run(&[good]).code, 0);
    let o = run(&["--assume-byte-order", "little", good]);
    assert_eq!(o.code, 0, "{}{}", o.stdout, o.stderr);
    assert_contains(&o.stdout, "stated little-endian");
    let o = run(&[
        "--assume-byte-order",
        "little",
        "--severity",
        "IDX501=error",
        good,
    ]);
    assert_eq!(o.code, 1, "{}{}", o.stdout, o.stderr);
}

/// A stated value range proves the byte order: i32 labels 0..9 written
/// little-endian are an error under `--expect-range 0..9` (and `--classes
/// 10`), naming the first element out of range with both its readings,
/// and the byte swap is then a safe fix; big-endian labels pass, and
/// labels out of the range both ways prove nothing.
#[test]
fn a_stated_range_proves_the_byte_order_and_makes_the_swap_safe() {
    let dir = tempfile::tempdir().unwrap();
    // (longer than the 1024 bytes a repair plans from when it reads the
    // header alone)
    let labels: Vec<i32> = (0..1000).map(|i| i * 7 % 10).collect();
    let write = |name: &str, le: bool| {
        let p = dir.path().join(name);
        let mut b = vec![0, 0, 0x0c, 1, 0, 0, 0x03, 0xe8];
        for v in &labels {
            b.extend(if le { v.to_le_bytes() } else { v.to_be_bytes() });
        }
        std::fs::write(&p, b).unwrap();
        p.to_str().unwrap().to_string()
    };
    let (le, be) = (write("le-labels.idx", true), write("be-labels.idx", false));
    for stated in [&["--expect-range", "0..9"][..], &["--classes", "10"]] {
        let mut args = stated.to_vec();
        args.push(&le);
        let o = run(&args);
        assert_eq!(o.code, 1, "{stated:?}: {}{}", o.stdout, o.stderr);
        assert!(
            o.stdout.contains("error[IDX501]")
                && o.stdout.contains(
                    "element 1 reads 117440512 big-endian, outside the stated range 0..9"
                )
                && o.stdout.contains("(element 1: 7)"),
            "{stated:?}: {}",
            o.stdout
        );
        assert_contains(&o.stdout, "fix (safe): byte-swap");
        let mut args = stated.to_vec();
        args.push(&be);
        assert_eq!(run(&args).code, 0, "{stated:?}");
    }
    // out of the range both ways: no proof, no error from the range
    let o = run(&["--expect-range", "0..5", &be]);
    assert!(!o.stdout.contains("IDX501"), "{}", o.stdout);
    // --diff shows the swap it would apply, and the verdict of validation
    for stated in [&["--expect-range", "0..9"][..], &["--classes", "10"]] {
        let mut args = vec!["--diff"];
        args.extend(stated);
        args.push(&le);
        let o = run(&args);
        assert_eq!(o.code, 1, "{stated:?}: {}{}", o.stdout, o.stderr);
        assert_contains(&o.stdout, "1 fix would be applied");
        assert!(!o.stderr.contains("applied to no input"), "{}", o.stderr);
    }
    // --fix applies the safe swap without --unsafe-fixes, and the labels
    // then read 0..9 big-endian
    let o = run(&["--expect-range", "0..9", "--fix", &le]);
    assert_eq!(o.code, 0, "{}{}", o.stdout, o.stderr);
    assert_eq!(std::fs::read(&le).unwrap(), std::fs::read(&be).unwrap());
    // without a range the swap stays unsafe: not applied by --fix alone
    let le2 = write("le2.idx", true);
    let before = std::fs::read(&le2).unwrap();
    run(&["--fix", &le2]);
    assert_eq!(std::fs::read(&le2).unwrap(), before);
    // the configuration key
    let cfg = dir.path().join("range.toml");
    std::fs::write(&cfg, "expect-range = \"0..9\"\n").unwrap();
    assert_eq!(run(&["--config", cfg.to_str().unwrap(), &le2]).code, 1);
    assert_eq!(run(&["--expect-range", "9..0", &le2]).code, 2);
}

#[test]
fn the_rule_list_shows_idx501_as_a_warning_or_an_error() {
    let o = run(&["--list-rules"]);
    let line = o.stdout.lines().find(|l| l.starts_with("IDX501")).unwrap();
    assert_contains(line, "warning/error");
}

/// The score a finding's message shows is the score its JSON carries: the
/// same numbers, cut to one decimal the same way (a score of 49.96 bits was
/// "49.9" in the message and 50.0 in the JSON, over the threshold the
/// message said it was under). Every little-endian file of the corpus and
/// the report writer's, and a big-endian one stated little-endian.
#[test]
fn the_message_and_the_json_show_the_same_score() {
    let dir = tempfile::tempdir().unwrap();
    let writer = dir.path().join("writer.idx");
    std::fs::write(&writer, report_writer_file()).unwrap();
    // big-endian: a warning when stated little-endian
    let good = dir.path().join("good.idx");
    std::fs::write(&good, normal_f32_file()).unwrap();
    let mut files = vec![
        writer.to_str().unwrap().to_string(),
        good.to_str().unwrap().to_string(),
    ];
    let corpus = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../corpus/implementation-defined"
    );
    for e in std::fs::read_dir(corpus).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_str().unwrap().to_string();
        if name.starts_with("impl-little-endian-") && name.ends_with(".idx") {
            files.push(p.to_str().unwrap().to_string());
        }
    }
    assert!(files.len() >= 8, "{files:?}");
    let number_after = |text: &str, key: &str| -> f64 {
        let at = text
            .find(key)
            .unwrap_or_else(|| panic!("{key:?} in {text:?}"))
            + key.len();
        let rest = &text[at..];
        let end = rest
            .find(" bits")
            .unwrap_or_else(|| panic!("bits in {rest:?}"));
        rest[..end]
            .parse()
            .unwrap_or_else(|e| panic!("{e}: {rest:?}"))
    };
    let mut compared = 0;
    for stated in [None, Some("little")] {
        let mut args = vec!["--isolated", "--format", "json", "--max-findings", "0"];
        if let Some(order) = stated {
            args.extend(["--assume-byte-order", order]);
        }
        args.extend(files.iter().map(String::as_str));
        let o = run(&args);
        let v: serde_json::Value = serde_json::from_str(&o.stdout).unwrap();
        for f in v["files"].as_array().unwrap() {
            for g in f["findings"].as_array().unwrap() {
                if g["rule"] != "IDX501" || g["byte_order"].is_null() {
                    continue;
                }
                let s = &g["byte_order"];
                let message = g["message"].as_str().unwrap();
                let found = g["found"].as_str().unwrap();
                assert_eq!(
                    number_after(message, "score "),
                    s["score_bits"].as_f64().unwrap(),
                    "{message} / {s}"
                );
                assert_eq!(
                    number_after(found, "read big-endian: "),
                    s["big_endian_bits"].as_f64().unwrap(),
                    "{found} / {s}"
                );
                assert_eq!(
                    number_after(found, "read little-endian: "),
                    s["little_endian_bits"].as_f64().unwrap(),
                    "{found} / {s}"
                );
                compared += 1;
            }
        }
    }
    assert!(compared >= 9, "{compared} IDX501 findings compared");
}

/// `--diff` reports the verdict validation reports: IDX501's warning when
/// nothing is to be fixed (the plan had read the header alone, and the
/// warning was lost), and an error under `--severity IDX501=error`.
#[test]
fn diff_keeps_the_byte_order_warning_and_its_severity() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("writer.idx");
    std::fs::write(&p, report_writer_file()).unwrap();
    let path = p.to_str().unwrap();
    let o = run(&["--isolated", "--diff", path]);
    assert_eq!(o.code, 0, "{}{}", o.stdout, o.stderr);
    assert_contains(&o.stdout, "warning[IDX501]");
    let o = run(&["--isolated", "--diff", "--severity", "IDX501=error", path]);
    assert_eq!(o.code, 1, "{}{}", o.stdout, o.stderr);
    assert_contains(&o.stdout, "error[IDX501]");
    assert_eq!(std::fs::read(&p).unwrap(), report_writer_file());
}

/// IDX501's help is shown by every front end (`idx info` and idxkit show
/// the same finding): each option it names is named with the command that
/// takes it, `idx-validate`, which does take it; and made an error, the
/// finding's help does not call it a warning.
#[test]
fn the_byte_order_help_names_its_options_with_their_command() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("writer.idx");
    std::fs::write(&p, report_writer_file()).unwrap();
    let path = p.to_str().unwrap();
    let help = run(&["--help"]).stdout;
    for strict in [false, true] {
        let mut args = vec!["--isolated", "--format", "json"];
        if strict {
            args.extend(["--severity", "IDX501=error"]);
        }
        args.push(path);
        let o = run(&args);
        let v: serde_json::Value = serde_json::from_str(&o.stdout).unwrap();
        let hint = v["files"][0]["findings"][0]["hint"]
            .as_str()
            .unwrap()
            .to_string();
        assert!(!hint.contains("warning"), "{hint}");
        let mut named = 0;
        for (at, _) in hint.match_indices(" --") {
            let option: String = hint[at + 1..]
                .chars()
                .take_while(|c| *c == '-' || c.is_ascii_alphanumeric())
                .collect();
            assert!(
                hint[..at].ends_with("idx-validate"),
                "{option} without its command: {hint}"
            );
            assert!(
                help.contains(&format!("{option} ")),
                "{option} not in --help"
            );
            named += 1;
        }
        assert!(named >= 2, "{hint}");
    }
}
