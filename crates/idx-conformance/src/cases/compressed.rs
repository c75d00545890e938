//! Invalid cases about compression: damaged gzip streams, decompression
//! limits, and the compressions a reader need not know (zip, xz, zstd,
//! bzip2).

use super::case::{invalid, Case};
use super::make::{gzip_level, gzip_stored, hx};

/// Called by [`invalid_cases`](super::invalid::invalid_cases), after the
/// byte-order case.
pub(super) fn compressed_cases(out: &mut Vec<Case>) {
    let inner = hx("00 00 08 01  00 00 00 03  0a 0b 0c");
    out.push(invalid(
        "invalid-gzip-in-gzip",
        "gzip inside gzip: only one layer is removed",
        gzip_stored(&gzip_stored(&inner)),
        &[("IDX402", 0, 2)],
    ));
    out.push(invalid(
        "invalid-gzip-of-truncated",
        "gzip of a truncated u8 file: offsets are in the decompressed stream",
        gzip_stored(&hx("00 00 08 01  00 00 00 03  0a 0b")),
        &[("IDX202", 10, 0)],
    ));
    let gz = gzip_stored(&inner);
    out.push(invalid(
        "invalid-gzip-damaged-cut",
        "a gzip stream whose 4-byte length trailer is cut off",
        gz[..gz.len() - 4].to_vec(),
        &[("IDX701", 11, 0)],
    ));
    let mut crc = gz.clone();
    let n = crc.len();
    crc[n - 8] ^= 0xff;
    out.push(invalid(
        "invalid-gzip-damaged-crc",
        "a gzip stream whose CRC-32 does not match",
        crc,
        &[("IDX701", 11, 0)],
    ));
    out.push(invalid(
        "invalid-gzip-distance-too-far-back",
        "a deflate back-reference reaching before the start of the output after 00 00 08 01 (zlib: invalid distance too far back); a decoder that copies zeros accepts it",
        hx("1f 8b 08 00 00 00 00 00 00 ff  63 60 e0 60 04 b2 98 1d 9d 9c 01  de 66 82 52 0b 00 00 00"),
        &[("IDX701", 4, 0)],
    ));
    out.push(invalid(
        "invalid-gzip-damaged-after-prefix",
        "29 bytes decode (01 07 00 00 ...) before an invalid distance code: the prefix's finding, then IDX701 at 29",
        hx("1f 8b 08 00 00 00 00 00 02 03  63 64 67 00 01 26 2e 6c 00 ed 8b 90 06 0a 00 00 00"),
        &[("IDX420", 0, 4), ("IDX701", 29, 0)],
    ));
    let mut raw = hx("00 00 08 01  00 00 00 01  2a");
    raw.extend([0x55; 20]);
    let mut lim = invalid(
        "invalid-gzip-limit-after-trailing",
        "u8 [1] and 20 trailing bytes, against a 12-byte decompression limit: the 3 trailing bytes seen are reported with IDX702 (spec 7.19)",
        gzip_stored(&raw),
        &[("IDX203", 9, 3), ("IDX702", 12, 0)],
    );
    lim.options.max_decompressed = Some(12);
    out.push(lim);
    let mut bomb_src = hx("00 00 08 01  00 40 00 00");
    bomb_src.resize(8 + (4 << 20), 0);
    let mut bomb = invalid(
        "invalid-gzip-bomb",
        "4 MiB of zeros in a small gzip file, against a 1 MiB decompression limit",
        gzip_level(&bomb_src, flate2::Compression::best()),
        &[("IDX702", 1 << 20, 0)],
    );
    bomb.options.max_decompressed = Some(1 << 20);
    out.push(bomb);
    out.push(invalid(
        "invalid-zip",
        "a zip archive",
        b"PK\x03\x04\x14\x00\x00\x00\x00\x00\x00\x00\x00\x00".to_vec(),
        &[("IDX403", 0, 4)],
    ));
    out.push(invalid(
        "invalid-xz",
        "an xz stream",
        hx("fd 37 7a 58 5a 00 00 04 e6 d6 b4 46"),
        &[("IDX403", 0, 6)],
    ));
    out.push(invalid(
        "invalid-zstd",
        "a zstd frame",
        hx("28 b5 2f fd 20 00 01 00 00"),
        &[("IDX403", 0, 4)],
    ));
    out.push(invalid(
        "invalid-bzip2",
        "a bzip2 stream",
        b"BZh91AY&SY".to_vec(),
        &[("IDX403", 0, 3)],
    ));
}
