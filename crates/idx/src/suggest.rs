//! The fix each repairable finding gets (`spec/idx.md`, "Fixes"), attached
//! by the validator to a finished report.

use crate::dtype::ElementType;
use crate::edit::{Applicability, Edit, Fix};
use crate::finding::Report;
use crate::header::{payload_len, MAGIC_LEN};
use crate::lint::width::Width;
use crate::rules::{Rule, Severity};
use crate::text::{bytes, dims_str};

/// Attaches its fix to every fixable finding of a finished report;
/// `second_file` says whether the trailing bytes start with an IDX magic
/// (the validator saw them even when it skipped the rest of the file).
pub(crate) fn attach(report: &mut Report, second_file: bool, width: Option<&Width>) {
    if report.findings.is_empty() {
        return; // fixes and hints go on findings: none to go on
    }
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
                let mut hint = format!(
                    "the dimensions look byte-swapped: read little-endian they are {}, which accounts for the stream's {} exactly; the writer stored the header's integers little-endian",
                    dims_str(&le),
                    bytes(len)
                );
                // and the elements? the byte-order test on the payload's
                // first bytes says (spec 5.5)
                if let (Some(t), Some(&rank)) = (
                    head.get(2).and_then(|&c| ElementType::from_code(c)),
                    head.get(3),
                ) {
                    if let Some(says) =
                        payload_order(t, head.get(4 + 4 * usize::from(rank)..).unwrap_or(&[]))
                    {
                        hint.push_str("; ");
                        hint.push_str(&says);
                    }
                }
                report.findings[i].hint = Some(hint);
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
    let mut width_found = false;
    // An element width the hint diagnoses: the type code the hint names,
    // with the dimensions as they are (they then account for the stream
    // exactly); truncating is not the likely cause then, so it is not
    // offered (spec 10.3).
    if let (false, Some(w)) = (length_fixed, width) {
        if let Some(i) = report
            .findings
            .iter()
            .position(|f| matches!(f.rule, Rule::TruncatedPayload | Rule::TrailingBytes))
        {
            report.findings[i].fix = width_fix(&h, len, w);
        }
        length_fixed = true;
        width_found = true;
    }
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
    // i16 values under an i32 header whose dimensions fit both (10000 i16
    // counts under [5000] i32, written little-endian): an element-width
    // mismatch, not an i32 byte order, so no i32 swap is offered (spec
    // 6.1). The linter diagnosed it on the payload's first bytes, which a
    // reader's report does not keep: its finding says so.
    if index_of(report, Rule::LikelyLittleEndian)
        .is_some_and(|i| report.findings[i].hint.as_deref() == Some(crate::lint::WIDTH_HINT))
    {
        width_found = true;
    }
    // (under a wrong element type the lint read the wrong elements: the
    // width's fix says how the payload is stored)
    // The swap answers a payload that reads more plausibly little-endian
    // (not an IDX501 error that says a stated little-endian byte order is
    // contradicted: that payload reads big-endian).
    // A stated range's proof (no score: the whole payload was read) makes
    // the swap safe; the statistical test's finding leaves it unsafe.
    if let Some(i) = index_of(report, Rule::LikelyLittleEndian)
        .filter(|_| !width_found)
        .filter(|&i| report.findings[i].byte_order.is_none_or(|s| s.bits > 0.0))
    {
        let f = &report.findings[i];
        let size = h.dtype().size() as u64;
        let (offset, length, applicability, why) = match f.byte_order {
            None => (
                h.header_len() as u64,
                h.payload_len(),
                Applicability::Safe,
                "proved by the stated range",
            ),
            Some(_) => (
                f.offset,
                f.length,
                Applicability::Unsafe,
                "the byte order rests on a statistical test: check the values after the swap",
            ),
        };
        report.findings[i].fix = Some(Fix::new(
            applicability,
            format!(
                "byte-swap the {} {} elements of the payload from little-endian to big-endian ({why})",
                length / size,
                h.dtype()
            ),
            vec![Edit::SwapBytes {
                offset,
                length,
                element_size: size as u8,
            }],
        ));
    }
    // Reserved bytes, when everything else is consistent: every other error
    // has a fix (which the same run applies) and none is about what the
    // bytes are. An IDX501 error that calls the payload little-endian,
    // under a diagnosed width, is answered by the width's fix (which says
    // how the payload is stored), not by a fix of its own: else the next
    // run would take the reserved bytes alone. (The other IDX501 error, a
    // stated little-endian order contradicted, is answered by nothing.)
    if let Some(i) = index_of(report, Rule::ReservedBytes) {
        let others_fixable = report
            .findings
            .iter()
            .filter(|f| f.rule != Rule::ReservedBytes && f.severity() == Severity::Error)
            .all(|f| {
                f.fix.is_some()
                    || matches!(f.rule, Rule::UnexpectedType | Rule::UnexpectedShape)
                    || (width_found
                        && f.rule == Rule::LikelyLittleEndian
                        && f.byte_order.is_some_and(|s| s.bits > 0.0))
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

/// The fix of an element-width mismatch (spec 6.5): the type code of the
/// width the payload plausibly holds (and the payload byte-swapped when it
/// reads plausibly only little-endian), when that type with the same
/// dimensions accounts for the stream's `len` bytes exactly.
fn width_fix(h: &crate::Header, len: u64, w: &Width) -> Option<Fix> {
    let t = w.dtype?;
    if !accounts_for(t, h.dims(), len) {
        return None;
    }
    let hlen = h.header_len() as u64;
    let mut edits = vec![Edit::Replace {
        offset: 2,
        bytes: vec![t.code()],
    }];
    let mut d = format!(
        "change the element type from {} to {t}: with the same dimensions, the declared payload is then the {} the stream holds",
        h.dtype(),
        bytes(len - hlen)
    );
    if w.little && t.size() > 1 {
        d.push_str(&format!(
            ", and byte-swap its {} {t} elements from little-endian to big-endian",
            (len - hlen) / t.size() as u64
        ));
        edits.push(Edit::SwapBytes {
            offset: hlen,
            length: len - hlen,
            element_size: t.size() as u8,
        });
    }
    Some(Fix::new(Applicability::Unsafe, d, edits))
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
    let start = 4 + 4 * usize::from(rank);
    payload_order(t, head.get(start..)?)
}

/// What the byte-order test says of the first payload bytes `sample` of
/// type `t` under a header written little-endian: whether the elements are
/// little-endian too; `None` for a one-byte type.
fn payload_order(t: ElementType, sample: &[u8]) -> Option<String> {
    if t.size() == 1 {
        return None;
    }
    let score = crate::lint::byteorder::score(t, &sample[..sample.len() / t.size() * t.size()])?;
    Some(match score.verdict() {
        crate::lint::Verdict::None if score.bits <= -crate::lint::LIKELY_BITS => format!(
            "its {t} payload reads big-endian (byte-order score {} bits over its first {}): only the header was swapped",
            crate::lint::byteorder::bits_str(score.bits),
            idx_text::plural::count(score.elements, "distinct non-zero element")
        ),
        crate::lint::Verdict::None => format!(
            "the byte order of its {t} payload cannot be told from its first bytes ({} scored)",
            idx_text::plural::count(score.elements, "distinct non-zero element")
        ),
        _ => format!(
            "its {t} payload is little-endian too (byte-order score {} bits over its first {}): swap the elements as well",
            crate::lint::byteorder::bits_str(score.bits),
            idx_text::plural::count(score.elements, "distinct non-zero element")
        ),
    })
}

#[cfg(test)]
mod tests {
    use crate::lint::byteorder::score;
    use crate::lint::width::i16_under_i32;
    use crate::ElementType;

    /// i16 values whose two bytes are equal (`a * 257`) read the same in
    /// either byte order (a score of exactly 0 bits): they are called
    /// big-endian, IDX's order, which needs no swap.
    #[test]
    fn i16_values_that_read_the_same_either_way_are_called_big_endian() {
        let sample: Vec<u8> = (1..=64u8).flat_map(|a| [a, a]).collect();
        let s16 = score(ElementType::I16, &sample).unwrap(); // ok: unit test
        assert_eq!(s16.bits, 0.0, "{s16:?}");
        // as i32 (`a a b b`: the first and last byte columns vary) they
        // read far worse than as i16
        let (order, why) = i16_under_i32(&sample).unwrap(); // ok: unit test
        assert_eq!(order, "big", "{why}");
        assert!(why.starts_with("read as big-endian i16: "), "{why}");
    }
}
