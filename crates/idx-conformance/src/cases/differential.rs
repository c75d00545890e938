//! The cases differential fuzzing asked for.

use super::case::{invalid, Case};
use super::make::{gzip_stored, hx};

/// Cases added because differential fuzzing (`corpus/DIFFERENTIAL.md`)
/// found a disagreement class that no case showed: each puts a reader in a
/// class (implementation x the first error x what it did) that only
/// mutated inputs reached. Called after [`invalid_cases`](super::invalid::invalid_cases), whose files some
/// of them wrap in gzip.
pub(super) fn differential_cases(out: &mut Vec<Case>) {
    // Readers that check no header field and allocate what bytes 4..8
    // declare (ubyte) run out of memory on these, whatever else is wrong.
    out.push(invalid(
        "invalid-reserved-byte1-declares-2g",
        "byte 1 of the magic is 0x01, and 2147483647 u8 elements are declared with none present: a reader that allocates before checking the magic runs out of memory",
        hx("00 01 08 01  7f ff ff ff"),
        &[("IDX101", 1, 1), ("IDX202", 8, 0)],
    ));
    out.push(invalid(
        "invalid-mp4",
        "the start of an MP4 video (an ISO base media ftyp box): its reserved bytes are 00 00, its type code is 0x00, and 'ftyp' read as a dimension is 1718909296",
        hx("00 00 00 20  66 74 79 70  69 73 6f 6d  00 00 02 00  69 73 6f 6d 69 73 6f 32 61 76 63 31 6d 70 34 31"),
        &[("IDX102", 2, 1), ("IDX104", 32, 0)],
    ));
    out.push(invalid(
        "invalid-truncated-dimensions-zero",
        "rank 2, and the file ends after dimension 0, which is 0: a reader that reads only the first dimension returns no elements",
        hx("00 00 08 02  00 00 00 00"),
        &[("IDX302", 4, 4), ("IDX104", 8, 0)],
    ));
    out.push(invalid(
        "invalid-truncated-dimensions-2g",
        "rank 2, and the file ends after dimension 0, which is 2147483647",
        hx("00 00 08 02  7f ff ff ff"),
        &[("IDX104", 8, 0)],
    ));
    out.push(invalid(
        "invalid-size-overflow-u8-rank4",
        "u8 of shape [1, 4294967295, 4294967295, 2]: the size overflows 64 bits; a reader that reads only the first dimension returns byte 8",
        hx("00 00 08 04  00 00 00 01  ff ff ff ff  ff ff ff ff  00 00 00 02"),
        &[("IDX201", 4, 16), ("IDX303", 8, 4), ("IDX303", 12, 4)],
    ));
    out.push(invalid(
        "invalid-trailing-after-scalar-f32",
        "an f32 scalar (rank 0, pi) followed by one byte: a reader that takes bytes 4..8 for a dimension reads 1078530011",
        hx("00 00 0d 00  40 49 0f db  00"),
        &[("IDX301", 3, 1), ("IDX203", 8, 1)],
    ));
    out.push(invalid(
        "invalid-byte-swapped-header-zero-dim",
        "a u8 [0, 3] file whose header was written little-endian",
        hx("02 08 00 00  00 00 00 00  03 00 00 00"),
        &[("IDX401", 0, 4)],
    ));
    let mut le = hx("01 08 00 00  40 00 00 00");
    le.extend(0..64u8);
    out.push(invalid(
        "invalid-byte-swapped-header-64",
        "a u8 [64] file whose header was written little-endian: the dimension read big-endian is 2^30",
        le,
        &[("IDX401", 0, 4)],
    ));
    let mut sqlite = b"SQLite format 3\0".to_vec();
    sqlite.extend(hx("10 00 01 01 00 40 20 20 00 00 00 02 00 00 00 01"));
    out.push(invalid(
        "invalid-sqlite",
        "the start of an SQLite database: not IDX, and 'ite ' read as a dimension is 1769235744",
        sqlite,
        &[("IDX420", 0, 4)],
    ));
    // ubyte's image loop runs once per declared item, even when the items
    // are empty: 2147483647 empty items take hours (a timeout, twice).
    out.push(invalid(
        "invalid-trailing-after-2g-empty-items",
        "f32 of shape [2147483647, 0, 5] (no elements) and 4 more bytes: a reader that loops over the 2147483647 empty items never answers",
        hx("00 00 0d 03  7f ff ff ff  00 00 00 00  00 00 00 05  01 02 03 04"),
        &[("IDX302", 8, 4), ("IDX203", 16, 4)],
    ));
    out.push(invalid(
        "invalid-reserved-byte1-2g-empty-items",
        "byte 1 of the magic is 0x04 on an f32 header declaring 2147483647 empty items (shape [2147483647, 0, 5]), and 4 more bytes: a reader that checks no header field loops over the items and never answers",
        hx("00 04 0d 03  7f ff ff ff  00 00 00 00  00 00 00 05  01 02 03 04"),
        &[("IDX101", 1, 1), ("IDX302", 8, 4), ("IDX203", 16, 4)],
    ));
    out.push(invalid(
        "invalid-damaged-magic-2g-empty-items",
        "a rank-3 header whose reserved and type bytes are damaged (00 04 ff), declaring 2147483647 empty items, and 4 more bytes: a reader that checks neither loops over the items and never answers",
        hx("00 04 ff 03  7f ff ff ff  00 00 00 00  00 2d 00 05  01 02 03 04"),
        &[("IDX420", 0, 4)],
    ));
    // a protocol-4 pickle of 16384 zero bytes, as pickle.dumps writes it:
    // its frame length (16402, little-endian) puts 0x40 in byte 4
    let mut frame = vec![b'B'];
    frame.extend_from_slice(&16_384u32.to_le_bytes());
    frame.resize(frame.len() + 16_384, 0);
    frame.extend([0x94, b'.']);
    let mut pickle = vec![0x80, 0x04, 0x95];
    pickle.extend_from_slice(&(frame.len() as u64).to_le_bytes());
    pickle.extend(frame);
    out.push(invalid(
        "invalid-pickle-16k",
        "a protocol-4 Python pickle of 16384 zero bytes: bytes 4..8 read as a dimension are 1073741824",
        pickle,
        &[("IDX412", 0, 2)],
    ));
    out.push(invalid(
        "invalid-gzip-header-cut",
        "the first 5 bytes of a gzip stream: read as IDX, 1f 8b 08 00 is a u8 scalar with reserved bytes 1f 8b, and 00 its value",
        hx("1f 8b 08 00 00"),
        &[("IDX701", 0, 0)],
    ));
    out.push(invalid(
        "invalid-elf-damaged-class",
        "the start of a 64-bit ELF executable whose class byte (4) is damaged to 0x66: still an ELF by its magic, and bytes 4..8 read as a dimension are 1711341824",
        hx("7f 45 4c 46  66 01 01 00  00 00 00 00 00 00 00 00  03 00 3e 00"),
        &[("IDX416", 0, 4)],
    ));
    // gzip(1) stores the file's mtime (little-endian) in bytes 4..8; with
    // a low byte of 0x40 a reader that does not look for gzip reads it as a
    // dimension of over 2^30
    let mut gz = gzip_stored(&hx("00 00 08 01  00 00 00 03  0a 0b 0c"));
    gz[4..8].copy_from_slice(&0x6592_0040u32.to_le_bytes());
    let n = gz.len();
    gz[n - 8] ^= 0xff;
    out.push(invalid(
        "invalid-gzip-damaged-crc-with-mtime",
        "a gzip stream with an mtime (2024-01-01 00:01:04 UTC) whose CRC-32 does not match",
        gz,
        &[("IDX701", 11, 0)],
    ));
    // python-mnist builds each image as [0] * rows * cols before it looks
    // at the payload: a row of 4294967295 runs out of memory at once.
    out.push(invalid(
        "invalid-hostile-rank3-4g-row",
        "one u8 image of 4294967295 x 2 declared with no payload: a reader that allocates a row of the declared length runs out of memory",
        hx("00 00 08 03  00 00 00 01  ff ff ff ff  00 00 00 02"),
        &[("IDX303", 8, 4), ("IDX202", 16, 0)],
    ));
    out.push(invalid(
        "invalid-hostile-rank3-4g-row-trailing",
        "one u8 image of 4294967295 x 0 (no payload) and one byte: a reader that allocates a row before multiplying by the 0 runs out of memory",
        hx("00 00 08 03  00 00 00 01  ff ff ff ff  00 00 00 00  2a"),
        &[("IDX303", 8, 4), ("IDX302", 12, 4), ("IDX203", 16, 1)],
    ));
    // Not-IDX formats inside gzip: the first error is the inner format's,
    // at offsets in the decompressed stream. A reader that does not look
    // for gzip reads the gzip header (mtime 0) as a count of 0 elements.
    out.push(invalid(
        "invalid-gzip-of-empty",
        "gzip of an empty file",
        gzip_stored(&[]),
        &[("IDX103", 0, 0)],
    ));
    let inner: &[(&str, &str, &'static str, u64)] = &[
        ("invalid-zstd", "zstd", "IDX403", 4),
        ("invalid-npy", "npy", "IDX404", 6),
        ("invalid-html-error-page", "html-error-page", "IDX405", 157),
        ("invalid-pdf", "pdf", "IDX411", 5),
        ("invalid-hdf5", "hdf5", "IDX413", 8),
        ("invalid-parquet", "parquet", "IDX415", 4),
        ("invalid-elf", "elf", "IDX416", 4),
        ("invalid-appledouble", "appledouble", "IDX406", 4),
    ];
    for (id, name, rule, length) in inner {
        let c = out
            .iter()
            .find(|c| c.id == *id)
            .unwrap_or_else(|| panic!("no case {id} to wrap in gzip")); // ok: recipes are our own constants
        let (bytes, what) = (gzip_stored(&c.bytes), c.description.clone());
        out.push(invalid(
            &format!("invalid-gzip-of-{name}"),
            &format!("gzip of {id} ({what})"),
            bytes,
            &[(rule, 0, *length)],
        ));
    }
}
