//! The fix each repairable finding gets (`spec/idx.md`, "Fixes"), attached
//! by the validator to a finished report.

use crate::dtype::ElementType;
use crate::edit::{Applicability, Edit, Fix};
use crate::finding::Report;
use crate::header::{payload_len, MAGIC_LEN};
use crate::rules::{Rule, Severity};
use crate::text::{bytes, dims_str};

/// Attaches its fix to every fixable finding of a finished report;
/// `second_file` says whether the trailing bytes start with an IDX magic
/// (the validator saw them even when it skipped the rest of the file).
pub(crate) fn attach(report: &mut Report, second_file: bool) {
    if report
        .findings
        .iter()
        .any(|f| matches!(f.rule, Rule::GzipDamaged | Rule::DecompressionLimit))
    {
        return; // the stream is incomplete: nothing about its end is known
    }
    if !report.exact_len {
        return; // reading stopped early: the stream's length is a lower bound
    }
    let len = report.stream_len;
    let head = report.head.clone();
    // A whole header stored little-endian (IDX401).
    if let Some(i) = index_of(report, Rule::ByteSwappedHeader) {
        if let Some(fix) = swapped_header_fix(&head, len) {
            report.findings[i].fix = Some(fix);
        }
        if let Some(says) = swapped_header_payload(&head) {
            let f = &mut report.findings[i];
            f.hint = Some(format!("{}; {says}", f.hint.as_deref().unwrap_or_default()));
        }
        return;
    }
    // Dimensions stored little-endian, with a correct magic.
    let le_dims = little_endian_dims_fix(&head, len);
    let mut length_fixed = false;
    if let Some(fix) = le_dims {
        if let Some(i) = report.findings.iter().position(|f| {
            matches!(
                f.rule,
                Rule::SizeOverflow | Rule::TruncatedPayload | Rule::TrailingBytes
            )
        }) {
            report.findings[i].fix = Some(fix);
            length_fixed = true;
            // spec 5.5: the hint says what the dimensions would have been
            if let Some((_, le)) = head
                .get(3)
                .and_then(|&r| both_readings(&head, usize::from(r)))
            {
                report.findings[i].hint = Some(format!(
                    "the dimensions look byte-swapped: read little-endian they are {}, which accounts for the stream's {} exactly; the writer stored the header's integers little-endian",
                    dims_str(&le),
                    bytes(len)
                ));
            }
        }
    }
    let Some(h) = report.header.clone() else {
        return;
    };
    let hlen = h.header_len() as u64;
    // saturating: a payload near 2^64 bytes has no room for a header, and
    // `end` is used only when trailing bytes prove it fits
    let end = hlen.saturating_add(h.payload_len());
    if !length_fixed {
        if let Some(i) = index_of(report, Rule::TruncatedPayload) {
            report.findings[i].fix = truncated_payload_fix(&h, len);
        }
        if let Some(i) = index_of(report, Rule::TrailingBytes) {
            let trailing = len - end;
            let mut d = format!(
                "truncate the file after the declared payload, dropping {}",
                bytes(trailing)
            );
            if second_file {
                d.push_str(" (they start with an IDX magic: the second file is lost)");
            }
            report.findings[i].fix = Some(Fix::new(
                Applicability::Unsafe,
                d,
                vec![Edit::Delete {
                    offset: end,
                    length: trailing,
                }],
            ));
        }
    }
    if let Some(i) = index_of(report, Rule::LikelyLittleEndian) {
        let f = &report.findings[i];
        let size = h.dtype().size() as u64;
        report.findings[i].fix = Some(Fix::new(
            Applicability::Unsafe,
            format!(
                "byte-swap the {} {} elements of the payload from little-endian to big-endian",
                f.length / size,
                h.dtype()
            ),
            vec![Edit::SwapBytes {
                offset: f.offset,
                length: f.length,
                element_size: size as u8,
            }],
        ));
    }
    // Reserved bytes, when everything else is consistent: every other error
    // has a fix (which the same run applies) and none is about what the
    // bytes are.
    if let Some(i) = index_of(report, Rule::ReservedBytes) {
        let others_fixable = report
            .findings
            .iter()
            .filter(|f| f.rule != Rule::ReservedBytes && f.severity() == Severity::Error)
            .all(|f| {
                f.fix.is_some() || matches!(f.rule, Rule::UnexpectedType | Rule::UnexpectedShape)
            });
        if others_fixable {
            report.findings[i].fix = Some(Fix::new(
                Applicability::Unsafe,
                "set the reserved bytes to 00 00".into(),
                vec![Edit::Replace {
                    offset: 0,
                    bytes: vec![0, 0],
                }],
            ));
        }
    }
}

fn index_of(report: &Report, rule: Rule) -> Option<usize> {
    report.findings.iter().position(|f| f.rule == rule)
}

/// The dimensions at `head[4..4 + 4 * rank]` read both ways, when present.
fn both_readings(head: &[u8], rank: usize) -> Option<(Vec<u32>, Vec<u32>)> {
    let dims = head.get(MAGIC_LEN..MAGIC_LEN + 4 * rank)?;
    let mut be = Vec::with_capacity(rank);
    let mut le = Vec::with_capacity(rank);
    for c in dims.chunks_exact(4) {
        let w = [c[0], c[1], c[2], c[3]];
        be.push(u32::from_be_bytes(w));
        le.push(u32::from_le_bytes(w));
    }
    Some((be, le))
}

/// True when a header of `rank` dimensions `dims` and type `t` accounts for
/// exactly `len` bytes.
fn accounts_for(t: ElementType, dims: &[u32], len: u64) -> bool {
    payload_len(t, dims)
        .and_then(|p| p.checked_add((MAGIC_LEN + 4 * dims.len()) as u64))
        .is_some_and(|total| total == len)
}

fn be_dims(dims: &[u32]) -> Vec<u8> {
    dims.iter().flat_map(|d| d.to_be_bytes()).collect()
}

fn swapped_header_fix(head: &[u8], len: u64) -> Option<Fix> {
    let rank = usize::from(*head.first()?);
    let t = ElementType::from_code(*head.get(1)?)?;
    let (be, le) = both_readings(head, rank)?;
    if !accounts_for(t, &le, len) || (be != le && accounts_for(t, &be, len)) {
        return None;
    }
    let mut bytes = vec![0, 0, t.code(), rank as u8];
    bytes.extend(be_dims(&le));
    Some(Fix::new(
        Applicability::Safe,
        format!(
            "rewrite the header big-endian: {t}, dimensions {} (read little-endian, they account for the stream's {} exactly)",
            dims_str(&le),
            self::bytes(len)
        ),
        vec![Edit::Replace { offset: 0, bytes }],
    ))
}

fn little_endian_dims_fix(head: &[u8], len: u64) -> Option<Fix> {
    let t = ElementType::from_code(*head.get(2)?)?;
    let rank = usize::from(*head.get(3)?);
    let (be, le) = both_readings(head, rank)?;
    if be == le || accounts_for(t, &be, len) || !accounts_for(t, &le, len) {
        return None;
    }
    Some(Fix::new(
        Applicability::Safe,
        format!(
            "the dimensions are stored little-endian: rewrite them big-endian as {} (that reading accounts for the stream's {} exactly)",
            dims_str(&le),
            bytes(len)
        ),
        vec![Edit::Replace {
            offset: MAGIC_LEN as u64,
            bytes: be_dims(&le),
        }],
    ))
}

fn truncated_payload_fix(h: &crate::Header, len: u64) -> Option<Fix> {
    let first = *h.dims().first()?;
    let item = h.payload_len().checked_div(u64::from(first))?;
    if item == 0 {
        return None;
    }
    let hlen = h.header_len() as u64;
    let present = len.checked_sub(hlen)?;
    let whole = present / item;
    if whole == 0 || whole >= u64::from(first) {
        return None; // nothing to keep (or not truncated)
    }
    let keep_end = hlen + whole * item;
    let partial = len - keep_end;
    let mut edits = vec![Edit::Replace {
        offset: MAGIC_LEN as u64,
        bytes: (whole as u32).to_be_bytes().to_vec(), // whole < first, a u32
    }];
    let mut d = format!("lower dimension 0 from {first} to {whole}, the number of complete items");
    if partial > 0 {
        d.push_str(&format!(
            ", and drop the {} of the partial item",
            bytes(partial)
        ));
        edits.push(Edit::Delete {
            offset: keep_end,
            length: partial,
        });
    }
    Some(Fix::new(Applicability::Unsafe, d, edits))
}

/// What the byte-order test (spec 6.1) says of the payload under a
/// byte-swapped header (IDX401), from its first bytes in `head`: whether
/// the writer swapped the elements too.
fn swapped_header_payload(head: &[u8]) -> Option<String> {
    let (&rank, &code) = (head.first()?, head.get(1)?);
    let t = ElementType::from_code(code)?;
    if t.size() == 1 {
        return None;
    }
    let start = 4 + 4 * usize::from(rank);
    let sample = head.get(start..)?;
    let score = crate::lint::byteorder::score(t, &sample[..sample.len() / t.size() * t.size()])?;
    let elements = idx_text::plural::count(score.elements, "non-zero element");
    Some(match score.verdict() {
        crate::lint::Verdict::None if score.bits <= -crate::lint::LIKELY_BITS => format!(
            "its {t} payload reads big-endian (byte-order score {:.1} bits over its first {}): only the header was swapped",
            score.bits, elements
        ),
        crate::lint::Verdict::None => format!(
            "the byte order of its {t} payload cannot be told from its first bytes ({} scored)",
            elements
        ),
        _ => format!(
            "its {t} payload is little-endian too (byte-order score {:.1} bits over its first {}): swap the elements as well",
            score.bits, elements
        ),
    })
}
