//! Selecting the fixes the options allow and composing their edits into
//! one plan.

use super::{AppliedFix, FixOptions};
use crate::edit::{Applicability, ByteOrder, Edit, Fix};
use crate::finding::{Finding, Report};
use crate::rules::{Rule, Severity};

/// The composed edits of every applied fix, in input stream offsets.
/// Header replacements keep lengths and deletions run to the end, so the
/// offsets of a repaired stream below its length are those of the input.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct Plan {
    /// Byte replacements, applied in order (later ones win).
    pub(super) replace: Vec<(u64, Vec<u8>)>,
    /// `(offset, length, element size)` of the payload byte swap.
    pub(super) swap: Option<(u64, u64, usize)>,
    /// The repaired stream ends at this input offset.
    pub(super) cut: Option<u64>,
}

impl Plan {
    pub(super) fn add(&mut self, fix: &Fix) {
        for e in &fix.edits {
            match e {
                Edit::Replace { offset, bytes } => self.replace.push((*offset, bytes.clone())),
                Edit::Delete { offset, .. } => {
                    self.cut = Some(self.cut.map_or(*offset, |c| c.min(*offset)));
                }
                Edit::SwapBytes {
                    offset,
                    length,
                    element_size,
                } => self.swap = Some((*offset, *length, usize::from(*element_size))),
            }
        }
        // a swap never reaches into deleted bytes
        if let (Some((o, l, s)), Some(c)) = (self.swap, self.cut) {
            let end = (o + l).min(c.max(o));
            self.swap = Some((o, (end - o) / s as u64 * s as u64, s));
        }
    }

    /// True when the plan byte-swaps the payload.
    pub(super) fn swaps(&self) -> bool {
        self.swap.is_some()
    }

    pub(super) fn is_empty(&self) -> bool {
        self.replace.is_empty() && self.swap.is_none() && self.cut.is_none()
    }
}

/// The fixes of `report` that `opts` allow, as applied fixes, in finding
/// order. When one of them rewrites header fields, only header fixes are
/// taken: the rest were found under the old header and are looked at again.
pub(super) fn select(
    report: &Report,
    opts: &FixOptions,
    swapped: bool,
    declined: &mut Vec<String>,
) -> Vec<AppliedFix> {
    let allowed = |f: &Finding| -> Option<Fix> {
        let fix = f.fix.as_ref()?;
        if f.rule == Rule::LikelyLittleEndian {
            return match (opts.assume_byte_order, swapped) {
                (_, true) | (Some(ByteOrder::Big), _) => None,
                // (an IDX501 finding means the little-endian reading is
                // the more plausible one: the statement agrees)
                (Some(ByteOrder::Little), false) => Some(Fix {
                    applicability: Applicability::Safe,
                    description: format!(
                        "{} (the writer's byte order was stated)",
                        fix.description
                    ),
                    ..fix.clone()
                }),
                (None, false) => (fix.applicability == Applicability::Safe || opts.unsafe_fixes)
                    .then(|| fix.clone()),
            };
        }
        (fix.applicability == Applicability::Safe || opts.unsafe_fixes).then(|| fix.clone())
    };
    let mut out: Vec<AppliedFix> = report
        .findings
        .iter()
        .filter_map(|f| {
            allowed(f).map(|fix| AppliedFix {
                rule: Some(f.rule),
                offset: f.offset,
                message: f.message.clone(),
                fix,
            })
        })
        .collect();
    // The reserved bytes only when every other error's fix is applied too.
    if let Some(i) = out.iter().position(|a| a.rule == Some(Rule::ReservedBytes)) {
        let all = report
            .findings
            .iter()
            .filter(|f| {
                f.fix.is_some() && f.rule != Rule::ReservedBytes && f.severity() == Severity::Error
            })
            .all(|f| out.iter().any(|a| a.rule == Some(f.rule)));
        if !all {
            out.remove(i);
        }
    }
    if out
        .iter()
        .any(|a| a.fix.changes_header_fields() && is_header_rewrite(a))
    {
        out.retain(is_header_rewrite);
        return out;
    }
    // (a fix already swapping the payload, such as a width's type code,
    // says how the elements are stored: one swap at most)
    let swaps = out.iter().any(|a| {
        a.fix
            .edits
            .iter()
            .any(|e| matches!(e, Edit::SwapBytes { .. }))
    });
    // nor while the element width itself is in question (a length error
    // whose fix is another type code): which bytes make an element is not
    // known until that fix is taken
    let width_in_question = report.findings.iter().any(|f| {
        matches!(f.rule, Rule::TruncatedPayload | Rule::TrailingBytes)
            && f.fix.as_ref().is_some_and(|x| {
                x.edits
                    .iter()
                    .any(|e| matches!(e, Edit::Replace { offset: 2, .. }))
            })
    });
    if opts.assume_byte_order == Some(ByteOrder::Little) && !swapped && !swaps && width_in_question
    {
        declined.push(
            "--assume-byte-order little: the payload was not swapped: its element width is in question (the type-code fix of IDX202/IDX203 first)".into(),
        );
    } else if opts.assume_byte_order == Some(ByteOrder::Little)
        && !swapped
        && !swaps
        && !out.iter().any(|a| a.rule == Some(Rule::LikelyLittleEndian))
    {
        // Swapped only when the payload reads more plausibly little-endian
        // (spec 10.1): never one that already reads big-endian, so a second
        // run swaps nothing back and no swap adds IDX501.
        match report.byte_order {
            Some(s) if s.bits > 0.0 => out.extend(stated_swap(report)),
            Some(s) => declined.push(format!(
                "--assume-byte-order little: the payload was not swapped: it reads big-endian ({}: score {} bits over {})",
                if s.mirrored().verdict() == crate::lint::Verdict::Certain {
                    "strongly"
                } else {
                    "no less plausibly than little-endian"
                },
                crate::lint::byteorder::bits_str(s.bits),
                idx_text::plural::count(s.elements, "distinct non-zero element"),
            )),
            None => {}
        }
    }
    out
}

/// A fix that rewrites the type, rank or dimensions to what a length proof
/// says (IDX401, little-endian dimensions).
pub(super) fn is_header_rewrite(a: &AppliedFix) -> bool {
    a.fix.applicability == Applicability::Safe
        && a.fix.changes_header_fields()
        && a.fix
            .edits
            .iter()
            .all(|e| matches!(e, Edit::Replace { .. }))
}

/// The payload swap stated by `--assume-byte-order little`: every whole
/// element present.
fn stated_swap(report: &Report) -> Option<AppliedFix> {
    let h = report.header.as_ref()?;
    let size = h.dtype().size() as u64;
    if size == 1 {
        return None;
    }
    let hlen = h.header_len() as u64;
    let present = report.stream_len.saturating_sub(hlen).min(h.payload_len());
    let length = present / size * size;
    if length == 0 {
        return None;
    }
    Some(AppliedFix {
        rule: None,
        offset: hlen,
        message: "the writer stored multi-byte elements little-endian (stated by the user)".into(),
        fix: Fix::new(
            Applicability::Safe,
            format!(
                "byte-swap the {} {} elements of the payload from little-endian to big-endian (the writer's byte order was stated)",
                length / size,
                h.dtype()
            ),
            vec![Edit::SwapBytes {
                offset: hlen,
                length,
                element_size: size as u8,
            }],
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fix(edits: Vec<Edit>) -> Fix {
        Fix::new(Applicability::Safe, String::new(), edits)
    }

    const SWAP: Edit = Edit::SwapBytes {
        offset: 8,
        length: 20,
        element_size: 4,
    };

    fn cut(offset: u64) -> Edit {
        Edit::Delete { offset, length: 3 }
    }

    #[test]
    fn a_cut_past_the_swaps_end_leaves_the_swap_as_it_is() {
        for c in [28, 29, 40, 1000] {
            let mut p = Plan::default();
            p.add(&fix(vec![SWAP]));
            p.add(&fix(vec![cut(c)]));
            assert_eq!((p.swap, p.cut), (Some((8, 20, 4)), Some(c)), "cut at {c}");
            let mut q = Plan::default();
            q.add(&fix(vec![cut(c), SWAP]));
            assert_eq!(q, p, "cut at {c}, added first");
        }
    }

    #[test]
    fn a_cut_inside_the_swap_keeps_the_whole_elements_before_it() {
        for (c, len) in [
            (27, 16),
            (24, 16),
            (19, 8),
            (12, 4),
            (11, 0),
            (8, 0),
            (5, 0),
        ] {
            let mut p = Plan::default();
            p.add(&fix(vec![SWAP, cut(c)]));
            assert_eq!(p.swap, Some((8, len, 4)), "cut at {c}");
        }
        // the earliest cut wins
        let mut p = Plan::default();
        p.add(&fix(vec![SWAP, cut(24), cut(40)]));
        p.add(&fix(vec![cut(30)]));
        assert_eq!((p.swap, p.cut), (Some((8, 16, 4)), Some(24)));
    }

    fn finding(rule: Rule, offset: u64, applicability: Applicability, edits: Vec<Edit>) -> Finding {
        let mut f = Finding::new(rule, offset, 2, "");
        f.fix = Some(Fix::new(applicability, String::new(), edits));
        f
    }

    fn report(findings: Vec<Finding>) -> Report {
        Report {
            header: None,
            stream_len: 100,
            exact_len: true,
            compression: None,
            findings,
            head: Vec::new(),
            tail: Vec::new(),
            labels: None,
            byte_order: None,
        }
    }

    fn rules(out: &[AppliedFix]) -> Vec<Option<Rule>> {
        out.iter().map(|a| a.rule).collect()
    }

    /// The reserved bytes' fix (unsafe) with IDX501's, which is withheld
    /// once the payload was swapped.
    fn reserved_and_idx501(severity: Severity) -> Report {
        let reserved = finding(
            Rule::ReservedBytes,
            0,
            Applicability::Unsafe,
            vec![Edit::Replace {
                offset: 0,
                bytes: vec![0, 0],
            }],
        );
        let idx501 = finding(
            Rule::LikelyLittleEndian,
            8,
            Applicability::Unsafe,
            vec![SWAP],
        )
        .with_severity(severity);
        report(vec![reserved, idx501])
    }

    #[test]
    fn the_reserved_bytes_wait_for_an_errors_fix_that_is_withheld_but_not_a_warnings() {
        let opts = FixOptions::default().with_unsafe_fixes(true);
        let mut declined = Vec::new();
        // not yet swapped: both fixes taken
        let r = reserved_and_idx501(Severity::Error);
        let out = select(&r, &opts, false, &mut declined);
        assert_eq!(
            rules(&out),
            [Some(Rule::ReservedBytes), Some(Rule::LikelyLittleEndian)]
        );
        // swapped: IDX501's fix withheld, an error: the reserved bytes wait
        let out = select(&r, &opts, true, &mut declined);
        assert_eq!(rules(&out), []);
        // a warning's fix withheld does not hold them back
        let r = reserved_and_idx501(Severity::Warning);
        let out = select(&r, &opts, true, &mut declined);
        assert_eq!(rules(&out), [Some(Rule::ReservedBytes)]);
        assert!(declined.is_empty(), "{declined:?}");
    }

    #[test]
    fn a_header_rewrite_is_taken_alone_without_the_other_fixes() {
        // little-endian dimensions rewritten (safe, header fields), the
        // reserved bytes (unsafe, replaced) and trailing bytes (safe, cut)
        let reserved = finding(
            Rule::ReservedBytes,
            0,
            Applicability::Unsafe,
            vec![Edit::Replace {
                offset: 0,
                bytes: vec![0, 0],
            }],
        );
        let rewrite = finding(
            Rule::ByteSwappedHeader,
            4,
            Applicability::Safe,
            vec![Edit::Replace {
                offset: 4,
                bytes: vec![0, 0, 0, 9],
            }],
        );
        let trailing = finding(Rule::TrailingBytes, 17, Applicability::Safe, vec![cut(17)]);
        let r = report(vec![reserved, rewrite, trailing]);
        let opts = FixOptions::default().with_unsafe_fixes(true);
        let out = select(&r, &opts, false, &mut Vec::new());
        assert_eq!(rules(&out), [Some(Rule::ByteSwappedHeader)]);
        assert!(is_header_rewrite(&out[0]));
        // without the rewrite, the others are taken
        let r = report(vec![r.findings[0].clone(), r.findings[2].clone()]);
        let out = select(&r, &opts, false, &mut Vec::new());
        assert_eq!(
            rules(&out),
            [Some(Rule::ReservedBytes), Some(Rule::TrailingBytes)]
        );
        assert!(!out.iter().any(is_header_rewrite));
    }
}
