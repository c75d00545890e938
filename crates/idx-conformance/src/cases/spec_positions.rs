//! The files for the positions of spec section 7.

use super::case::{invalid, Case};
use super::make::hx;

/// Files for the positions of spec section 7 (7.11-7.22) that are files:
/// each answer, with its exact findings.
pub(super) fn spec_position_cases(out: &mut Vec<Case>) {
    out.push(invalid(
        "invalid-short-stream-unknown-type",
        "3 bytes whose type byte is unknown: the bytes present are checked, then the magic is cut (spec 7.11)",
        hx("00 00 07"),
        &[("IDX102", 2, 1), ("IDX103", 3, 0)],
    ));
    out.push(invalid(
        "invalid-short-stream-reserved",
        "2 bytes whose second reserved byte is non-zero: IDX101, then the magic is cut (spec 7.11)",
        hx("00 05"),
        &[("IDX101", 1, 1), ("IDX103", 2, 0)],
    ));
    for (id, text) in [
        ("invalid-text-1-byte", &b"7"[..]),
        ("invalid-text-2-bytes", b"OK"),
        ("invalid-text-3-bytes", b"404"),
    ] {
        out.push(invalid(
            id,
            &format!(
                "{} ({}): text, not a truncated magic (spec 7.12)",
                idx_text::plural::count(text.len() as u64, "printable byte"),
                String::from_utf8_lossy(text)
            ),
            text.to_vec(),
            &[("IDX405", 0, text.len() as u64)],
        ));
    }
    out.push(invalid(
        "invalid-byte-swapped-rank0",
        "00 08 00 00: the magic of a rank-0 u8 file written little-endian (spec 7.13)",
        hx("00 08 00 00"),
        &[("IDX401", 0, 4)],
    ));
    out.push(invalid(
        "invalid-truncated-dimensions-with-warnings",
        "rank 3 whose list ends inside dimension 2: the complete dimensions 0 and 4294967295 get their portability warnings, the partial one none, then IDX104 (spec 7.14)",
        hx("00 00 08 03  00 00 00 00  ff ff ff ff  00 00"),
        &[("IDX302", 4, 4), ("IDX303", 8, 4), ("IDX104", 14, 0)],
    ));
    out.push(invalid(
        "invalid-reserved-both",
        "both reserved bytes are 0x01 and the rest is a valid u8 file: one IDX101 of length 2 (spec 7.16)",
        hx("01 01 08 01  00 00 00 01  2a"),
        &[("IDX101", 0, 2)],
    ));
    let mut eocd = b"PK\x05\x06".to_vec();
    eocd.resize(22, 0);
    out.push(invalid(
        "invalid-zip-empty",
        "an empty zip archive (only its end-of-central-directory record, PK 05 06): other compression (spec 7.17)",
        eocd,
        &[("IDX403", 0, 4)],
    ));
    out.push(invalid(
        "invalid-bzip2-bare-signature",
        "the 3-byte bzip2 signature BZh and nothing more: other compression (spec 7.17)",
        b"BZh".to_vec(),
        &[("IDX403", 0, 3)],
    ));
    let mut utf16 = vec![0xff, 0xfe];
    for u in "hello\n".encode_utf16() {
        utf16.extend_from_slice(&u.to_le_bytes());
    }
    out.push(invalid(
        "invalid-text-utf16",
        "UTF-16LE text with a byte-order mark: not recognised as text (spec 7.17), so not IDX",
        utf16,
        &[("IDX420", 0, 4)],
    ));
    out.push(invalid(
        "invalid-text-latin1",
        "Latin-1 text (caf\\xe9 au lait): not recognised as text (spec 7.17), so not IDX",
        b"caf\xe9 au lait\n".to_vec(),
        &[("IDX420", 0, 4)],
    ));
    out.push(invalid(
        "invalid-truncated-payload-rank0",
        "an f32 scalar (rank 0) with 2 of its 4 payload bytes: IDX202 without an item count (spec 7.22)",
        hx("00 00 0d 00  40 49"),
        &[("IDX301", 3, 1), ("IDX202", 6, 0)],
    ));
}
