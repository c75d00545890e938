//! Which cases a run takes and which failures it expects: the one
//! selection and failure rule of every run.

use super::{Mode, Outcome, Skipped, Status};
use crate::cases::{Case, Verdict};
use globset::{Glob, GlobSet, GlobSetBuilder};
use std::path::Path;
use std::time::Duration;

fn globset(globs: &[String]) -> Result<GlobSet, String> {
    let mut b = GlobSetBuilder::new();
    for g in globs {
        b.add(Glob::new(g).map_err(|e| format!("bad glob {g:?}: {e}"))?);
    }
    b.build().map_err(|e| e.to_string())
}

/// Reads an expected-failures file: one glob per line, `#` comments; a
/// glob after `~` lists cases failed on some of their variants only
/// ([`SOME_VARIANTS`]).
///
/// # Errors
/// I/O errors.
pub fn read_expected_failures(path: &Path) -> std::io::Result<Vec<String>> {
    let text = std::fs::read_to_string(path)?;
    Ok(text
        .lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect())
}

/// Whether a case applies to a mode, or why not: cases that need validator
/// options (the gzip bomb among them) are about validators; writers get the
/// cases with content that are not gzip.
///
/// # Errors
/// The reason the case is skipped.
pub fn applies(case: &Case, mode: Mode) -> Result<(), String> {
    let o = &case.options;
    if !o.is_empty() {
        let mut needs = Vec::new();
        if let Some(m) = o.max_decompressed {
            needs.push(format!("max_decompressed = {m} (a decompression limit)"));
        }
        if let Some(d) = o.expect_dtype {
            needs.push(format!("expect_dtype = {}", d.name()));
        }
        if o.expect_shape.is_some() {
            needs.push("expect_shape".to_string());
        }
        return Err(format!(
            "needs validator options ({}), which readers and writers do not take",
            needs.join(", ")
        ));
    }
    match mode {
        Mode::Reader => Ok(()),
        Mode::Writer if case.content.is_none() => Err("no content to write (invalid case)".into()),
        Mode::Writer if case.compression().is_some() => {
            Err("gzip: the writer protocol writes plain IDX".into())
        }
        Mode::Writer => Ok(()),
    }
}

/// Which cases a run takes (`--run`, `--skip`) and which failures it
/// expects (`--expected-failures`): the one selection and failure rule of
/// every run, the runner's and `idxkit`'s in-process checks alike.
#[derive(Debug, Clone)]
pub struct Selection {
    run: GlobSet,
    any_run: bool,
    skip: GlobSet,
    xfail: GlobSet,
    some: GlobSet,
}

/// How an expected-failures line marks a case the reader fails on some of
/// its variants only: `~ID`. Such a case may pass or fail a run.
pub const SOME_VARIANTS: &str = "~";

impl Selection {
    /// From the three glob lists.
    ///
    /// # Errors
    /// A bad glob.
    pub fn new(
        run: &[String],
        skip: &[String],
        expected_failures: &[String],
    ) -> Result<Self, String> {
        let plain: Vec<String> = expected_failures
            .iter()
            .map(|g| {
                g.strip_prefix(SOME_VARIANTS)
                    .unwrap_or(g)
                    .trim()
                    .to_string()
            })
            .collect();
        let some: Vec<String> = expected_failures
            .iter()
            .filter_map(|g| g.strip_prefix(SOME_VARIANTS).map(|g| g.trim().to_string()))
            .collect();
        Ok(Selection {
            run: globset(run)?,
            any_run: !run.is_empty(),
            skip: globset(skip)?,
            xfail: globset(&plain)?,
            some: globset(&some)?,
        })
    }

    /// The selected cases that apply to `mode`, in order; the selected ones
    /// that do not apply go to `skipped` with the reason.
    pub fn cases<'a>(
        &'a self,
        cases: &'a [Case],
        mode: Mode,
        skipped: &'a mut Vec<Skipped>,
    ) -> impl Iterator<Item = &'a Case> + 'a {
        cases.iter().filter(move |case| {
            if (self.any_run && !self.run.is_match(&case.id)) || self.skip.is_match(&case.id) {
                return false;
            }
            match applies(case, mode) {
                Ok(()) => true,
                Err(reason) => {
                    skipped.push(Skipped {
                        id: case.id.clone(),
                        reason,
                    });
                    false
                }
            }
        })
    }

    /// A judged case as an outcome: a failure unless it passed or the case
    /// is implementation-defined; expected when the expected failures list
    /// it.
    pub fn outcome(
        &self,
        case: &Case,
        status: Status,
        detail: String,
        elapsed: Duration,
    ) -> Outcome {
        Outcome {
            id: case.id.clone(),
            verdict: case.verdict,
            status,
            detail,
            failed: case.verdict != Verdict::ImplementationDefined && status != Status::Pass,
            expected_failure: self.xfail.is_match(&case.id),
            some_variants: self.some.is_match(&case.id),
            committed_failed: None,
            elapsed,
        }
    }
}
