//! Common binary formats that are not IDX, recognised by their magic (spec
//! 5.3), and the one "not IDX" finding for a header implausible in several
//! independent ways (spec 5.4). Called from the sniffer, only when the
//! reserved bytes of the magic are not both `0x00`.

use crate::dtype::ElementType;
use crate::finding::Finding;
use crate::rules::Rule;
use crate::text::hex;
use idx_text::plural::a;

/// One recognised format: rule, signature length, name, hint.
struct Known {
    rule: Rule,
    len: usize,
    what: &'static str,
    hint: &'static str,
}

const IMAGE_HINT: &str = "IDX holds raw arrays with an IDX header; convert the images (e.g. with numpy and PIL) and write them as IDX";

fn recognise(p: &[u8]) -> Option<Known> {
    let starts = |sig: &[u8]| p.starts_with(sig);
    let k = |rule, len, what, hint| {
        Some(Known {
            rule,
            len,
            what,
            hint,
        })
    };
    if starts(b"\x89PNG\r\n\x1a\n") {
        return k(Rule::ImageFile, 8, "PNG image", IMAGE_HINT);
    }
    if starts(b"\xff\xd8\xff") {
        return k(Rule::ImageFile, 3, "JPEG image", IMAGE_HINT);
    }
    if starts(b"GIF87a") || starts(b"GIF89a") {
        return k(Rule::ImageFile, 6, "GIF image", IMAGE_HINT);
    }
    // BM, the file size (4 bytes), then two reserved 16-bit fields of zero
    if starts(b"BM") && p.len() >= 14 && p[6..10] == [0, 0, 0, 0] {
        return k(Rule::ImageFile, 2, "BMP image", IMAGE_HINT);
    }
    if starts(b"II*\x00") || starts(b"MM\x00*") {
        return k(Rule::ImageFile, 4, "TIFF image", IMAGE_HINT);
    }
    if starts(b"RIFF") && p.get(8..12) == Some(b"WEBP") {
        return k(Rule::ImageFile, 12, "WebP image", IMAGE_HINT);
    }
    if starts(b"%PDF-") {
        return k(
            Rule::PdfFile,
            5,
            "PDF document",
            "a PDF is a document, perhaps the dataset's description saved in place of the data: download the data file itself",
        );
    }
    // PROTO opcode 0x80 with protocols 2 to 5
    if p.len() >= 2 && p[0] == 0x80 && (2..=5).contains(&p[1]) {
        return k(
            Rule::PickleFile,
            2,
            "Python pickle",
            "load it with pickle (only from a trusted source) and write the arrays as IDX",
        );
    }
    if starts(b"\x89HDF\r\n\x1a\n") {
        return k(
            Rule::Hdf5File,
            8,
            "HDF5 file",
            "read the dataset with h5py and write it as IDX",
        );
    }
    if starts(b"PAR1") {
        return k(
            Rule::ParquetFile,
            4,
            "Parquet file",
            "read it with pyarrow or pandas and write the arrays as IDX",
        );
    }
    if starts(b"\x7fELF") {
        return k(
            Rule::ExecutableFile,
            4,
            "ELF executable or library",
            "a program, not data: check the path (a build output or a tool in place of the file?)",
        );
    }
    if tfrecord(p) {
        return k(
            Rule::TfrecordFile,
            12,
            "TFRecord file",
            "read it with tf.data.TFRecordDataset and write the arrays as IDX",
        );
    }
    None
}

/// A TFRecord starts with a record: its length (u64 little-endian) and the
/// masked CRC-32C of those 8 bytes.
fn tfrecord(p: &[u8]) -> bool {
    let (Some(len), Some(crc)) = (p.get(..8), p.get(8..12)) else {
        return false;
    };
    let c = crc32c(len);
    let masked = (c.rotate_right(15)).wrapping_add(0xa282_ead8);
    crc == masked.to_le_bytes()
}

/// CRC-32C (Castagnoli), bit by bit: only ever run on 8 bytes.
fn crc32c(data: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in data {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0x82f6_3b78
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// A finding naming a common binary format, or an archive (tar, a NumPy
/// `.npz` zip), when the first bytes show one.
pub(crate) fn known_format(p: &[u8]) -> Option<Finding> {
    if let Some(f) = archive(p) {
        return Some(f);
    }
    let k = recognise(p)?;
    let sig = &p[..k.len];
    Some(
        Finding::new(
            k.rule,
            0,
            k.len as u64,
            format!("the data is {}, not IDX", a(k.what)),
        )
        .expected("00 00 (IDX magic)")
        .found(format!("{} ({} signature)", hex(sig), k.what))
        .hint(k.hint),
    )
}

fn archive(p: &[u8]) -> Option<Finding> {
    // a zip whose first member is a .npy file: NumPy's savez
    if p.starts_with(b"PK\x03\x04") && p.len() >= 30 {
        let n = usize::from(u16::from_le_bytes([p[26], p[27]]));
        if let Some(name) = p.get(30..30 + n) {
            if name.ends_with(b".npy") {
                return Some(
                    Finding::new(
                        Rule::OtherCompression,
                        0,
                        4,
                        "the data is a NumPy .npz archive (zip), not IDX",
                    )
                    .expected("00 00 (IDX magic)")
                    .found(format!(
                        "50 4b 03 04 (zip signature), first member {:?}",
                        String::from_utf8_lossy(name)
                    ))
                    .hint("load it with numpy.load (a dict of arrays) and write each array as IDX"),
                );
            }
        }
    }
    // POSIX tar: "ustar" at offset 257 of the first header block
    if p.get(257..262) == Some(b"ustar") {
        return Some(
            Finding::new(
                Rule::OtherCompression,
                257,
                5,
                "the data is a tar archive, not IDX",
            )
            .expected("00 00 (IDX magic) at offset 0")
            .found("75 73 74 61 72 (\"ustar\" at offset 257: a tar header)")
            .hint("extract it first (tar -xf FILE)"),
        );
    }
    None
}

/// Spec 5.4: when the reserved bytes are wrong, no known format matched,
/// and the header is implausible in another independent way too (an unknown
/// type code, or a rank above 16 whose dimension list the stream does not
/// even hold), the input is not IDX: one finding says so and what the bytes
/// look like, instead of a finding per field. `prefix` is the first
/// `min(len, SNIFF_LEN)` bytes; shorter means it is the whole stream.
pub(crate) fn implausible(prefix: &[u8]) -> Option<Finding> {
    if prefix.len() < 4 {
        return None;
    }
    let unknown_type = ElementType::from_code(prefix[2]).is_none();
    let rank = usize::from(prefix[3]);
    let whole = prefix.len() < crate::sniff::SNIFF_LEN;
    let absurd_rank = rank > 16 && whole && prefix.len() < 4 + 4 * rank;
    if !(unknown_type || absurd_rank) {
        return None;
    }
    let mut why = vec![format!("reserved bytes {}", hex(&prefix[..2]))];
    if unknown_type {
        why.push(format!("type code {:#04x}", prefix[2]));
    }
    if absurd_rank {
        why.push(format!(
            "rank {rank} with only {} bytes after the magic",
            prefix.len() - 4
        ));
    }
    let shown = &prefix[..prefix.len().min(8)];
    let printable = prefix
        .iter()
        .take(64)
        .filter(|b| b.is_ascii_graphic() || b.is_ascii_whitespace())
        .count();
    let looks = if printable * 4 >= prefix.len().min(64) * 3 {
        "mostly printable bytes: text in an encoding or format not recognised"
    } else {
        "binary data of a format not recognised"
    };
    // a lost first byte: bytes 0..3 hold the end of a magic, `00 <type> <rank>`
    let hint = if prefix[0] == 0 && ElementType::from_code(prefix[1]).is_some() {
        format!(
            "the start looks shifted: bytes 0 to 2 ({}) read as the last three bytes of an IDX magic ({} rank {}), so the first byte of the file is probably lost",
            hex(&prefix[..3]),
            ElementType::from_code(prefix[1]).map_or("", |t| t.name()),
            prefix[2]
        )
    } else {
        "this is not an IDX file (or its start is lost): check that the path names the file you meant; `file FILE` may say what it is".to_string()
    };
    Some(
        Finding::new(
            Rule::NotIdx,
            0,
            4,
            format!(
                "the data is not IDX: {} are {} wrong",
                why.join(" and "),
                if why.len() == 2 { "both" } else { "all" }
            ),
        )
        .expected("00 00, a type code (08 09 0b 0c 0d 0e) and a rank")
        .found(format!("{} ... ({looks})", hex(shown)))
        .hint(hint),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc32c_matches_the_standard_check_value() {
        assert_eq!(crc32c(b"123456789"), 0xe306_9283);
    }

    #[test]
    fn each_format_is_named() {
        let mut tf = 100u64.to_le_bytes().to_vec();
        let c = crc32c(&tf).rotate_right(15).wrapping_add(0xa282_ead8);
        tf.extend_from_slice(&c.to_le_bytes());
        let mut tar = vec![b'a'; 100];
        tar.resize(257, 0);
        tar.extend_from_slice(b"ustar\x0000");
        let mut npz = b"PK\x03\x04".to_vec();
        npz.resize(26, 0);
        npz.extend_from_slice(&[5, 0, 0, 0]);
        npz.extend_from_slice(b"x.npy");
        let cases: &[(&[u8], Rule, &str)] = &[
            (b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR", Rule::ImageFile, "PNG"),
            (b"\xff\xd8\xff\xe0\0\x10JFIF", Rule::ImageFile, "JPEG"),
            (b"GIF89a\x01\0", Rule::ImageFile, "GIF"),
            (b"BM\x46\0\0\0\0\0\0\0\x36\0\0\0", Rule::ImageFile, "BMP"),
            (b"II*\0\x08\0\0\0", Rule::ImageFile, "TIFF"),
            (b"MM\0*\0\0\0\x08", Rule::ImageFile, "TIFF"),
            (b"RIFF\x24\0\0\0WEBPVP8 ", Rule::ImageFile, "WebP"),
            (b"%PDF-1.7\n%\xe2\xe3", Rule::PdfFile, "PDF"),
            (b"\x80\x04\x95\x10\0\0", Rule::PickleFile, "pickle"),
            (b"\x89HDF\r\n\x1a\n\0\0", Rule::Hdf5File, "HDF5"),
            (b"PAR1\x15\x04", Rule::ParquetFile, "Parquet"),
            (b"\x7fELF\x02\x01\x01\0", Rule::ExecutableFile, "ELF"),
            (&tf, Rule::TfrecordFile, "TFRecord"),
            (&tar, Rule::OtherCompression, "tar"),
            (&npz, Rule::OtherCompression, "npz"),
        ];
        for (bytes, rule, name) in cases {
            let f = known_format(bytes).unwrap_or_else(|| panic!("{name} not recognised")); // ok: unit test
            assert_eq!(f.rule, *rule, "{name}");
            assert!(f.message.contains(name), "{name}: {}", f.message);
        }
        // near misses are not recognised
        for bytes in [
            &b"BM\x46\0\0\0\x01\0\0\0\x36\0\0\0"[..],
            b"\x80\x01\x02",
            b"\x89PNF",
            b"RIFF\x24\0\0\0WAVE",
        ] {
            assert!(known_format(bytes).is_none(), "{bytes:?}");
        }
        // a TFRecord length with a wrong CRC is not one
        let mut bad = tf.clone();
        bad[8] ^= 1;
        assert!(known_format(&bad).is_none());
    }

    #[test]
    fn implausible_needs_a_second_independent_fault() {
        // reserved and type both wrong
        assert!(implausible(b"\x01\x02\xff\x01\0\0\0\0").is_some());
        // reserved wrong, type right, rank small: not implausible enough
        assert!(implausible(b"\x00\x01\x08\x01\0\0\0\x02ab").is_none());
        // reserved wrong and an absurd rank with no room for its dimensions
        assert!(implausible(b"\x00\x01\x08\xc8\0\0\0\x02").is_some());
        // a large rank whose dimensions are all present is not absurd
        let mut long = vec![0u8, 1, 8, 20];
        long.resize(4 + 80 + 1, 0);
        assert!(implausible(&long).is_none());
    }

    #[test]
    fn a_rank_is_absurd_above_16_only_when_the_whole_stream_lacks_its_dimensions() {
        // reserved bytes wrong, a known type: the rank is the second fault
        let with = |rank: u8, len: usize| {
            let mut b = vec![0u8, 1, 8, rank];
            b.resize(len, 0);
            implausible(&b).is_some()
        };
        assert!(!with(16, 8), "rank 16 is plausible");
        assert!(with(17, 4 + 4 * 17 - 1), "one byte short of 17 dimensions");
        assert!(!with(17, 4 + 4 * 17), "17 dimensions all there");
        // a prefix of the sniff's whole length may be cut from a longer
        // stream: its rank's dimensions may follow
        assert!(!with(200, crate::sniff::SNIFF_LEN));
        assert!(with(200, crate::sniff::SNIFF_LEN - 1));
    }

    #[test]
    fn what_unknown_bytes_look_like_is_said_from_three_quarters_printable() {
        let found = |b: &[u8]| implausible(b).and_then(|f| f.found).unwrap_or_default();
        // 6 of 8 bytes printable (type code 0x41 unknown): text-like
        assert!(found(b"\x01\x02ABCDEF").contains("mostly printable"));
        // 5 of 8: binary
        assert!(found(b"\x01\x02ABCDE\x03").contains("binary data"));
        // printable means graphic or whitespace, either
        assert!(found(b"\x01\x02A B\tC\nD").contains("mostly printable"));
    }

    #[test]
    fn a_lost_first_byte_is_said_only_when_a_magic_follows_a_zero() {
        let hint = |b: &[u8]| implausible(b).and_then(|f| f.hint).unwrap_or_default();
        // 00 08 03 ...: the magic 00 00 08 03 without its first byte
        assert!(hint(b"\x00\x08\x03\x00\x00\x00").contains("shifted"));
        // a zero, then no type code
        assert!(hint(b"\x00\x01\x02\x03").contains("not an IDX file"));
        // a type code after a non-zero byte
        assert!(hint(b"\x05\x08\x02\x03").contains("not an IDX file"));
    }
}
