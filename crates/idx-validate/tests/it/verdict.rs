//! One verdict per file: the technical report writer's file (spec 6.1) is
//! invalid (IDX501, an error) unless the user vouches for its bytes with
//! `--assume-byte-order big`; the rule list shows IDX501 as both.

use crate::support::run;
use test_support::payloads::report_writer_file;

#[test]
fn the_writers_file_is_an_idx501_error_unless_big_endian_is_stated() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("writer.idx");
    std::fs::write(&p, report_writer_file()).unwrap();
    let path = p.to_str().unwrap();
    let o = run(&[path]);
    assert_eq!(o.code, 1, "{}{}", o.stdout, o.stderr);
    assert!(o.stdout.contains("error[IDX501]"), "{}", o.stdout);
    let o = run(&["--assume-byte-order", "big", path]);
    assert_eq!(o.code, 0, "{}{}", o.stdout, o.stderr);
    assert!(!o.stdout.contains("IDX501"), "{}", o.stdout);
    // little states how it was written: the validator's verdict stays
    let o = run(&["--assume-byte-order", "little", path]);
    assert_eq!(o.code, 1, "{}{}", o.stdout, o.stderr);
}

#[test]
fn the_rule_list_shows_idx501_as_a_warning_or_an_error() {
    let o = run(&["--list-rules"]);
    let line = o.stdout.lines().find(|l| l.starts_with("IDX501")).unwrap();
    assert!(line.contains("warning/error"), "{line}");
}
