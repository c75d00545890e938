//! Recognising inputs that are not IDX at all, so the finding can say what
//! the bytes are instead of "bad magic".

mod formats;

use crate::dtype::ElementType;
use crate::finding::Finding;
use crate::rules::Rule;
use crate::text::hex;
use idx_text::plural::a;

/// How many leading bytes the sniffers look at (a fixed bound).
pub const SNIFF_LEN: usize = 512;

/// Recognises a not-IDX input from its first bytes. Only called when the
/// reserved bytes of the magic are not both `0x00`.
pub(crate) fn sniff(prefix: &[u8]) -> Option<Finding> {
    let p = &prefix[..prefix.len().min(SNIFF_LEN)];
    let starts = |sig: &[u8]| p.starts_with(sig);
    if starts(&[0x1f, 0x8b]) {
        return Some(
            Finding::new(Rule::GzipCompressed, 0, 2, "the data is gzip-compressed, not IDX")
                .expected("00 00 (IDX magic)")
                .found("1f 8b (gzip magic)")
                .hint("decompress it first (gunzip FILE), or validate it with decompression on: idx-validate decompresses gzip by itself"),
        );
    }
    if let Some(f) = formats::known_format(p) {
        return Some(f);
    }
    let other: &[(&[u8], &str, &str)] = &[
        (
            b"PK\x03\x04",
            "zip archive",
            "extract it first (unzip FILE)",
        ),
        (
            b"PK\x05\x06",
            "empty zip archive",
            "the archive holds no file",
        ),
        (
            b"PK\x07\x08",
            "zip archive (spanned)",
            "extract it first (unzip FILE)",
        ),
        (
            b"\xfd7zXZ\x00",
            "xz stream",
            "decompress it first (xz -d FILE)",
        ),
        (
            b"\x28\xb5\x2f\xfd",
            "zstd stream",
            "decompress it first (zstd -d FILE)",
        ),
        (b"BZh", "bzip2 stream", "decompress it first (bunzip2 FILE)"),
    ];
    for (sig, what, hint) in other {
        if starts(sig) {
            return Some(
                Finding::new(
                    Rule::OtherCompression,
                    0,
                    sig.len() as u64,
                    format!("the data is {}, not IDX", a(what)),
                )
                .expected("00 00 (IDX magic)")
                .found(format!("{} ({what} signature)", hex(sig)))
                .hint(*hint),
            );
        }
    }
    if starts(b"\x93NUMPY") {
        return Some(
            Finding::new(
                Rule::NumpyFile,
                0,
                6,
                "the data is a NumPy .npy file, not IDX",
            )
            .expected("00 00 (IDX magic)")
            .found("93 4e 55 4d 50 59 (\\x93NUMPY)")
            .hint("load it with numpy.load and write it as IDX (big-endian, with an IDX header)"),
        );
    }
    if starts(&[0x00, 0x05, 0x16, 0x07]) {
        return Some(
            Finding::new(Rule::AppleDouble, 0, 4, "the data is a macOS AppleDouble (._) metadata file, not IDX")
                .expected("00 00 (IDX magic)")
                .found("00 05 16 07 (AppleDouble magic)")
                .hint("macOS writes these ._NAME files beside real ones on foreign file systems and in archives; delete them or skip files named ._*"),
        );
    }
    if p.len() >= 4 && p[2] == 0 && p[3] == 0 {
        if let Some(t) = ElementType::from_code(p[1]) {
            return Some(
                Finding::new(Rule::ByteSwappedHeader, 0, 4, format!(
                    "the magic is byte-swapped: read little-endian it is a valid {t} rank-{} magic",
                    p[0]
                ))
                .expected(format!("00 00 {:02x} {:02x}", p[1], p[0]))
                .found(hex(&p[..4]))
                .hint("the writer emitted the header little-endian (e.g. struct.pack('<I') or numpy '<u4'); every IDX header field and multi-byte element is big-endian"),
            );
        }
    }
    text(p).or_else(|| formats::implausible(p))
}

fn text(p: &[u8]) -> Option<Finding> {
    if p.is_empty() {
        return None;
    }
    // Valid UTF-8, allowing a character cut by the end of the prefix.
    let s = match std::str::from_utf8(p) {
        Ok(s) => s,
        Err(e) if e.error_len().is_none() && e.valid_up_to() > 0 => {
            std::str::from_utf8(&p[..e.valid_up_to()]).ok()?
        }
        Err(_) => return None,
    };
    if s.chars()
        .any(|c| c.is_control() && !matches!(c, '\t' | '\n' | '\r' | '\x0c'))
    {
        return None;
    }
    let t = s.trim_start_matches('\u{feff}').trim_start();
    let lower: String = t.chars().take(64).flat_map(char::to_lowercase).collect();
    let (what, hint) = if lower.starts_with("<!doctype html") || lower.starts_with("<html") {
        ("an HTML page", "probably an error or login page saved in place of the file: download it again and check the URL")
    } else if lower.starts_with("<?xml") {
        ("an XML document", "probably an error response saved in place of the file: download it again and check the URL")
    } else if lower.starts_with('<') {
        ("markup (HTML or XML)", "probably an error page saved in place of the file: download it again and check the URL")
    } else if lower.starts_with("version https://git-lfs") {
        (
            "a Git LFS pointer",
            "the repository stores the real file in Git LFS: run `git lfs pull`",
        )
    } else {
        (
            "plain text",
            "IDX is binary; check that this is the file you meant",
        )
    };
    let first_line: String = t.lines().next().unwrap_or("").chars().take(40).collect();
    Some(
        Finding::new(
            Rule::TextFile,
            0,
            p.len() as u64,
            format!("the data is {what}, not IDX"),
        )
        .expected("00 00 (IDX magic)")
        .found(format!("text starting {first_line:?}"))
        .hint(hint),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(bytes: &[u8]) -> Option<Rule> {
        sniff(bytes).map(|f| f.rule)
    }

    #[test]
    fn recognises_each_kind() {
        assert_eq!(rule(b"\x1f\x8b\x08\x00"), Some(Rule::GzipCompressed));
        assert_eq!(rule(b"PK\x03\x04rest"), Some(Rule::OtherCompression));
        assert_eq!(rule(b"\xfd7zXZ\x00\x00"), Some(Rule::OtherCompression));
        assert_eq!(rule(b"\x28\xb5\x2f\xfd"), Some(Rule::OtherCompression));
        assert_eq!(rule(b"BZh91AY"), Some(Rule::OtherCompression));
        assert_eq!(rule(b"\x93NUMPY\x01\x00"), Some(Rule::NumpyFile));
        assert_eq!(rule(b"\x00\x05\x16\x07\x00\x02"), Some(Rule::AppleDouble));
        // 00 00 08 03 written little-endian
        assert_eq!(
            rule(b"\x03\x08\x00\x00\x60\xea\x00\x00"),
            Some(Rule::ByteSwappedHeader)
        );
        assert_eq!(rule(b"<!DOCTYPE html><html>"), Some(Rule::TextFile));
        assert_eq!(
            rule(b"version https://git-lfs.github.com/spec/v1\n"),
            Some(Rule::TextFile)
        );
        // binary garbage is no known format; reserved bytes and type code
        // both wrong make it one not-IDX finding (spec 5.4)
        assert_eq!(rule(b"\x01\x02\x03\x04\xff"), Some(Rule::NotIdx));
        // an unknown type code read little-endian is not a byte-swapped magic
        assert_eq!(rule(b"\x03\x07\x00\x00"), Some(Rule::NotIdx));
        // one fault alone (a reserved byte) is left to the per-field rules
        assert_eq!(rule(b"\x00\x01\x08\x01\x00\x00\x00\x01\x2a"), None);
    }

    #[test]
    fn text_finding_says_what_it_is() {
        let f = sniff(b"<html><body>404 Not Found</body></html>").unwrap(); // ok: unit test
        assert!(f.message.contains("HTML"), "{}", f.message);
        assert_eq!((f.offset, f.length), (0, 39));
        // a multi-byte character cut at the sniff limit is still text
        let mut long = vec![b'a'; SNIFF_LEN - 1];
        long.extend_from_slice("é tail".as_bytes());
        assert_eq!(rule(&long), Some(Rule::TextFile));
    }

    #[test]
    fn html_is_named_by_either_opening_and_other_markup_apart() {
        let what = |b: &[u8]| text(b).map(|f| f.message); // the first words name it
        for page in [
            &b"<html><body>gone</body></html>"[..],
            b"<!DOCTYPE html>\n<p>x",
        ] {
            let m = what(page).unwrap(); // ok: unit test
            assert!(m.contains("an HTML page"), "{m}");
        }
        let m = what(b"<svg></svg>").unwrap(); // ok: unit test
        assert!(m.contains("markup (HTML or XML)"), "{m}");
    }

    #[test]
    fn only_a_character_cut_by_the_end_after_some_text_is_text() {
        // a byte that is no UTF-8 after a text start: binary, not text
        assert!(text(b"hello\xff world").is_none());
        // the start of a character and nothing before it: nothing to call text
        assert!(text(&[0xc3]).is_none());
        // text, then a character cut by the end: text
        assert!(text(b"hello \xc3").is_some());
    }
}
