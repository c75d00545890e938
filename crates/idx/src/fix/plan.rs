//! Planning a repair: validating the input (again after a header rewrite),
//! choosing the fixes, and checking that the input did not change between
//! passes.

use super::select::is_header_rewrite;
use super::select::{select, Plan};
use super::stream::{stream, Sum, Summed};
use super::{AppliedFix, FixError, FixOptions, FixReport};
use crate::buffer::fill;
use crate::finding::{Compression, Report};
use crate::header::MAX_HEADER_LEN;
use crate::rules::Rule;
use crate::validate::{Options, Validator};
use std::io::{self, Read, Seek, SeekFrom};

/// How a stream with `plan` applied is validated: a byte order stated for
/// the input no longer holds once the plan swaps the payload (the output is
/// big-endian then), so it is dropped.
pub(super) fn output_options(plan: &Plan, opts: &Options) -> Options {
    if plan.swaps() {
        opts.clone().with_byte_order(None)
    } else {
        opts.clone()
    }
}

/// Validates `input` with `plan` applied; returns the report and the raw
/// input's length and CRC-32.
fn validate_planned<R: Read + Seek>(
    input: &mut R,
    plan: &Plan,
    gzip: bool,
    opts: &Options,
) -> io::Result<(Report, Sum)> {
    let opts = &output_options(plan, opts);
    let len = input.seek(SeekFrom::End(0)).ok(); // None: read to the end
    let mut summed = Summed::rewind(input)?;
    let report = if plan.is_empty() {
        // Validation's own entry point, so the findings are validation's;
        // the length is known, so the report's lengths are exact.
        crate::validate::validate_reader_len(&mut summed, len, opts)?
    } else {
        // the plan's stream is the decompressed content
        let mut v = Validator::plain(opts.clone());
        if gzip {
            v = v.with_compression(Compression::Gzip);
            let dec = crate::gzip::Members::new(&mut summed, opts.limits);
            stream(plan, dec, |c| {
                v.feed(c);
                Ok(())
            })?;
        } else {
            stream(plan, &mut summed, |c| {
                v.feed(c);
                Ok(())
            })?;
        }
        v.finish()
    };
    Ok((report, summed.finish()?))
}

/// Validates the structure of plain `input` only: the header and the length
/// (from `seek`), without reading the payload or running payload lints.
/// Enough to plan every fix but IDX501's (a payload statistic). `None` when
/// the validator found a gzip stream in the first bytes (its one sniff): a
/// gzip stream is validated whole.
fn validate_structure<R: Read + Seek>(
    input: &mut R,
    opts: &Options,
) -> io::Result<Option<(Report, Sum)>> {
    let len = input.seek(SeekFrom::End(0))?;
    input.seek(SeekFrom::Start(0))?;
    // (at least the two bytes the validator sniffs, whatever `seek` said)
    let want = usize::try_from(len).map_or(MAX_HEADER_LEN, |l| l.clamp(2, MAX_HEADER_LEN));
    let mut head = vec![0u8; want];
    let n = fill(input, &mut head)?;
    let mut v = Validator::new(opts.clone().with_lints(false).with_byte_order_test(false));
    v.feed(&head[..n]);
    if v.compression().is_some() {
        return Ok(None);
    }
    v.skip(len.saturating_sub(n as u64));
    let mut crc = flate2::Crc::new();
    crc.update(&head[..n]);
    Ok(Some((v.finish(), (len, crc.sum(), None))))
}

/// Plans the repair of `input`: validates it, selects the fixes `opts`
/// allow, and, when a fix rewrote the header, validates again under the new
/// header (at most a few rounds), then once more with every fix applied for
/// [`FixReport::after`]. Reads the input once per round; writes nothing
/// (`idx-validate --diff`).
///
/// # Errors
/// [`FixError::Io`] for the reader's I/O errors (everything wrong with the
/// data is a finding); [`FixError::InputChanged`] when the input's bytes
/// differ between rounds.
///
/// ```
/// use std::io::Cursor;
/// let input = [0, 0, 0x08, 1, 0, 0, 0, 1, 42, 0]; // u8 [1], then one byte too many (IDX203)
/// // safe fixes only: dropping bytes is unsafe, so nothing is planned
/// let safe = idx::plan(Cursor::new(&input[..]), &idx::FixOptions::default())?;
/// assert_eq!(safe.before.findings[0].rule, idx::Rule::TrailingBytes);
/// assert!(!safe.changed());
/// // with unsafe fixes the truncation is planned, and `after` is clean
/// let opts = idx::FixOptions::default().with_unsafe_fixes(true);
/// let all = idx::plan(Cursor::new(&input[..]), &opts)?;
/// assert_eq!(all.applied[0].rule, Some(idx::Rule::TrailingBytes));
/// assert!(all.after.findings.is_empty());
/// # Ok::<(), idx::FixError>(())
/// ```
pub fn plan<R: Read + Seek>(mut input: R, opts: &FixOptions) -> Result<FixReport, FixError> {
    plan_inner(&mut input, opts, true).map(|p| p.report)
}

/// Plans a repair to be written later with [`Planned::write`]: like
/// [`plan`], without the last validation pass (so its report's `after` is
/// only up to date when nothing changed). `idx-validate --fix` uses it to
/// decide whether to write at all, reading an unchanged file only once.
///
/// # Errors
/// As [`plan`].
///
/// ```
/// use std::io::Cursor;
/// let input = [0, 0, 0x08, 1, 0, 0, 0, 1, 42, 0]; // u8 [1], then one byte too many (IDX203)
/// let opts = idx::FixOptions::default().with_unsafe_fixes(true);
/// let planned = idx::prepare(Cursor::new(&input[..]), &opts)?;
/// assert!(planned.changed()); // so the file is rewritten
/// let mut out = Vec::new();
/// let report = planned.write(Cursor::new(&input[..]), &mut out)?;
/// assert_eq!(out, [0, 0, 0x08, 1, 0, 0, 0, 1, 42]);
/// assert_eq!(report.dropped_bytes, 1);
/// # Ok::<(), idx::FixError>(())
/// ```
pub fn prepare<R: Read + Seek>(mut input: R, opts: &FixOptions) -> Result<Planned, FixError> {
    plan_inner(&mut input, opts, false)
}

/// A planned repair: see [`prepare`].
///
/// ```
/// use std::io::Cursor;
/// let valid = [0, 0, 0x08, 1, 0, 0, 0, 1, 42];
/// let planned = idx::prepare(Cursor::new(&valid[..]), &idx::FixOptions::default())?;
/// // nothing to fix: a caller that must not rewrite an unchanged file stops here
/// assert!(!planned.changed());
/// assert!(planned.report().before.findings.is_empty());
/// # Ok::<(), idx::FixError>(())
/// ```
#[derive(Debug, Clone)]
pub struct Planned {
    pub(super) report: FixReport,
    pub(super) plan: Plan,
    pub(super) gzip: bool,
    pub(super) sum: Sum,
    pub(super) opts: FixOptions,
}

impl Planned {
    /// The report so far (`after` is the input's report when nothing
    /// changed).
    pub fn report(&self) -> &FixReport {
        &self.report
    }

    /// True when a fix is planned.
    pub fn changed(&self) -> bool {
        self.report.changed()
    }
}

const MAX_ROUNDS: usize = 4;

pub(super) fn plan_inner<R: Read + Seek>(
    input: &mut R,
    opts: &FixOptions,
    final_check: bool,
) -> Result<Planned, FixError> {
    let mut plan = Plan::default();
    // Only IDX501's fix needs the payload read (a statistic, or a stated
    // range or number of classes that proves the order); every other fix
    // is planned from the header and the length, so the input is read
    // whole only once, when it is written.
    let stated = &opts.validate;
    let range_proof = stated.expect_range.is_some() || matches!(stated.scan_labels, Some(Some(_)));
    let lint_fix = (opts.unsafe_fixes && opts.assume_byte_order.is_none())
        || opts.assume_byte_order == Some(crate::edit::ByteOrder::Little)
        || range_proof;
    let structure = if lint_fix || !opts.validate.lints {
        None
    } else {
        validate_structure(input, &opts.validate)?
    };
    // a structure-only report lacks the payload's findings (IDX501's
    // warning among them): `plan`'s `after` is then validated in full
    let partial = structure.is_some();
    let (before, sum) = match structure {
        Some(s) => s,
        // (an empty plan is validation's own entry point: it finds the
        // container itself)
        None => validate_planned(input, &plan, false, &opts.validate)?,
    };
    // The container is the validator's verdict on the first bytes (its one
    // sniff, off when `decompress` is): the later rounds decode gzip for
    // the plan's edits.
    let gzip = before.compression == Some(Compression::Gzip);
    let mut report = before.clone();
    let mut applied: Vec<AppliedFix> = Vec::new();
    let mut declined: Vec<String> = Vec::new();
    let mut stale = partial; // `report` does not reflect the latest fixes, or the payload
                             // A gzip stream that cannot be decompressed whole (damaged, or past the
                             // limit) cannot be rewritten: nothing inside it is fixed. With its
                             // compression kept it is copied as it is; a plain copy cannot be
                             // written (`FixError::Incomplete`).
    let whole = !(gzip
        && before
            .findings
            .iter()
            .any(|f| matches!(f.rule, Rule::GzipDamaged | Rule::DecompressionLimit)));
    let rounds = if whole { MAX_ROUNDS } else { 0 };
    for _ in 0..rounds {
        // (each round decides the byte order afresh: only the last round's
        // reasons for declining it stand)
        declined.clear();
        let mut chosen = select(&report, opts, plan.swap.is_some(), &mut declined);
        if chosen.is_empty() {
            break;
        }
        // A byte-order swap decided on elements a fix then deletes waits for
        // the next round, which scores the elements kept.
        let deferred = defer_swap_past_cut(&mut chosen);
        // So does the decision not to swap: the elements kept may read the
        // other way.
        let cuts = lint_fix
            && plan.swap.is_none()
            && chosen.iter().any(|a| {
                a.fix
                    .edits
                    .iter()
                    .any(|e| matches!(e, crate::edit::Edit::Delete { .. }))
            });
        for a in &chosen {
            plan.add(&a.fix);
        }
        let again = deferred || cuts || chosen.iter().any(is_header_rewrite);
        applied.extend(chosen);
        stale = true;
        if !again {
            break;
        }
        // the header changed: look at the payload again under the new one
        let (r, s) = validate_planned(input, &plan, gzip, &opts.validate)?;
        check_same(sum, s)?;
        report = r;
        stale = false;
    }
    if stale && final_check {
        let (r, s) = validate_planned(input, &plan, gzip, &opts.validate)?;
        check_same(sum, s)?;
        report = r;
    }
    if !whole && !select(&report, opts, false, &mut declined).is_empty() {
        declined.push(
            "the gzip stream cannot be decompressed whole: nothing inside it is fixed (it is copied as it is)".into(),
        );
    }
    let dropped = plan.cut.map_or(0, |c| before.stream_len.saturating_sub(c));
    let fr = FixReport {
        compressed_output: gzip && opts.keep_compression,
        before,
        applied,
        after: report,
        dropped_bytes: dropped,
        declined,
    };
    Ok(Planned {
        report: fr,
        plan,
        gzip,
        sum,
        opts: opts.clone(),
    })
}

/// Removes from `chosen` the byte-order swap (IDX501's fix, or the one
/// `--assume-byte-order little` states) when another chosen fix deletes
/// bytes inside the swapped range: the swap was decided on a score over
/// elements that will not all be kept, so the elements kept may read the
/// other way, and a second run would swap them back. Returns true when a
/// swap was deferred to the next round (scored over the elements kept).
fn defer_swap_past_cut(chosen: &mut Vec<AppliedFix>) -> bool {
    use crate::edit::Edit;
    let Some(cut) = chosen
        .iter()
        .flat_map(|a| &a.fix.edits)
        .filter_map(|e| match e {
            Edit::Delete { offset, .. } => Some(*offset),
            _ => None,
        })
        .min()
    else {
        return false;
    };
    let byte_order_swap_past_cut = |a: &AppliedFix| {
        matches!(a.rule, None | Some(crate::Rule::LikelyLittleEndian))
            && a.fix.edits.iter().any(
                |e| matches!(e, Edit::SwapBytes { offset, length, .. } if offset + length > cut),
            )
    };
    let before = chosen.len();
    chosen.retain(|a| !byte_order_swap_past_cut(a));
    chosen.len() != before
}

pub(super) fn check_same(planned: Sum, found: Sum) -> Result<(), FixError> {
    let whole = match (planned.2, found.2) {
        (Some(a), Some(b)) => a == b,
        _ => true,
    };
    if planned.0 == found.0 && planned.1 == found.1 && whole {
        Ok(())
    } else {
        Err(FixError::InputChanged {
            planned: (planned.0, planned.2.unwrap_or(planned.1)),
            found: (found.0, found.2.unwrap_or(found.1)),
        })
    }
}
