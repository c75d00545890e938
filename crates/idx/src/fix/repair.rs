//! Repairing: writing the planned output, validated as it is written.

use super::plan::{check_same, plan_inner, Planned};
use super::stream::{stream, Summed};
use super::{FixError, FixOptions, FixReport};
use crate::finding::Compression;
use crate::rules::Rule;
use crate::validate::Validator;
use std::io::{self, Read, Seek, Write};

/// Repairs `input` into `output`: [`plan`](crate::plan)s, then streams the
/// input through the planned edits into `output` (gzip-compressed again for
/// gzip input unless `opts.keep_compression` is off), validating what it
/// writes, so [`FixReport::after`] is the report of the output. The input is
/// read once per planning round (one, unless a header was rewritten) plus once
/// for writing, through a fixed buffer (256 KiB):
/// memory does not grow with the input.
///
/// When no fix applies the input is copied unchanged (gzip input is
/// recompressed); callers that must not rewrite an unchanged file check
/// [`plan`](crate::plan) first.
///
/// # Errors
/// [`FixError::Io`] when reading or writing fails; [`FixError::InputChanged`]
/// when the input's bytes differ between passes. Either way `output` holds an
/// incomplete stream and must be discarded; the input is only read.
///
/// ```
/// use std::io::Cursor;
/// let input = [0, 0, 0x08, 1, 0, 0, 0, 1, 42, 0]; // u8 [1], then one byte too many (IDX203)
/// let opts = idx::FixOptions::default().with_unsafe_fixes(true);
/// let mut out = Vec::new();
/// let report = idx::repair(Cursor::new(&input[..]), &mut out, &opts)?;
/// assert_eq!(out, [0, 0, 0x08, 1, 0, 0, 0, 1, 42]);
/// assert!(report.changed() && report.after.findings.is_empty());
/// // run again on the output: nothing left to do
/// let again = idx::plan(Cursor::new(&out), &opts)?;
/// assert!(!again.changed());
/// # Ok::<(), idx::FixError>(())
/// ```
pub fn repair<R: Read + Seek, W: Write>(
    mut input: R,
    output: W,
    opts: &FixOptions,
) -> Result<FixReport, FixError> {
    let planned = plan_inner(&mut input, opts, false)?;
    write_planned(planned, &mut input, output)
}

// (here rather than beside the plan: the plan does not know how it is
// written, so `plan` and `repair` need not import each other)
impl Planned {
    /// Writes the repaired stream of `input` (the same input that was
    /// planned on) to `output`: see [`repair`](crate::repair).
    ///
    /// # Errors
    /// As [`repair`](crate::repair).
    pub fn write<R: Read + Seek, W: Write>(
        self,
        mut input: R,
        output: W,
    ) -> Result<FixReport, FixError> {
        write_planned(self, &mut input, output)
    }
}

pub(super) fn write_planned<R: Read + Seek, W: Write>(
    planned: Planned,
    input: &mut R,
    output: W,
) -> Result<FixReport, FixError> {
    let Planned {
        mut report,
        plan,
        gzip,
        sum,
        opts,
    } = planned;
    let opts = &opts;
    let mut v = Validator::plain(super::plan::output_options(&plan, &opts.validate));
    let mut summed = Summed::rewind(input)?;
    if plan.is_empty() && (!gzip || opts.keep_compression) {
        // nothing to fix: the bytes as they are (a bomb is never expanded)
        let mut out = output;
        if gzip {
            io::copy(&mut summed, &mut out)?;
            report.after = report.before.clone(); // planned on a full pass
        } else {
            stream(&plan, &mut summed, |c| {
                v.feed(c);
                out.write_all(c)
            })?;
            report.after = v.finish();
        }
        out.flush()?;
        check_same(sum, summed.finish()?)?;
        return Ok(report);
    }
    if let Some(f) = report
        .before
        .findings
        .iter()
        .find(|f| matches!(f.rule, Rule::GzipDamaged | Rule::DecompressionLimit))
    {
        return Err(FixError::Incomplete(f.rule));
    }
    if gzip {
        v = v.with_compression(Compression::Gzip);
        let dec = crate::gzip::Members::new(&mut summed, opts.validate.limits);
        if opts.keep_compression {
            let mut enc = flate2::write::GzEncoder::new(output, flate2::Compression::default());
            stream(&plan, dec, |c| {
                v.feed(c);
                enc.write_all(c)
            })?;
            enc.finish()?.flush()?;
        } else {
            let mut out = output;
            stream(&plan, dec, |c| {
                v.feed(c);
                out.write_all(c)
            })?;
            out.flush()?;
        }
    } else {
        let mut out = output;
        stream(&plan, &mut summed, |c| {
            v.feed(c);
            out.write_all(c)
        })?;
        out.flush()?;
    }
    check_same(sum, summed.finish()?)?;
    report.after = v.finish();
    Ok(report)
}
