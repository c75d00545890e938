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
    // little states how it was written: read so, it is consistent, as the
    // readers find it (`idx dump --assume-byte-order little` reads it)
    let o = run(&["--assume-byte-order", "little", path]);
    assert_eq!(o.code, 0, "{}{}", o.stdout, o.stderr);
    // and a correct big-endian file stated little is contradicted, an
    // error, as every reader refuses it
    let good = dir.path().join("good.idx");
    let mut b = vec![0, 0, 0x0d, 1, 0, 0, 0x03, 0xe8];
    b.extend(test_support::payloads::big_endian(
        test_support::payloads::Kind::Normal,
        test_support::payloads::Type::F32,
        1000,
        1,
    ));
    std::fs::write(&good, b).unwrap();
    let good = good.to_str().unwrap();
    assert_eq!(run(&[good]).code, 0);
    let o = run(&["--assume-byte-order", "little", good]);
    assert_eq!(o.code, 1, "{}{}", o.stdout, o.stderr);
    assert!(o.stdout.contains("stated little-endian"), "{}", o.stdout);
}

#[test]
fn the_rule_list_shows_idx501_as_a_warning_or_an_error() {
    let o = run(&["--list-rules"]);
    let line = o.stdout.lines().find(|l| l.starts_with("IDX501")).unwrap();
    assert!(line.contains("warning/error"), "{line}");
}
