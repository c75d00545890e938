//! A run: the preflight case, then every selected case through one
//! [`Session`], judged, into a [`Report`].

use super::judge::secs;
use super::{
    judge_reader, judge_writer, Adapter, Mode, Report, Selection, Session, Status, PREFLIGHT_CASE,
};
use crate::cases::Case;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How to run.
#[derive(Debug, Clone)]
pub struct Config {
    /// Corpus root (holding `valid/`, `invalid/`, ...).
    pub corpus: PathBuf,
    /// The implementation.
    pub adapter: Adapter,
    /// Only cases whose ID matches one of these globs (all when empty).
    pub run: Vec<String>,
    /// Skip cases whose ID matches one of these globs.
    pub skip: Vec<String>,
    /// Globs of IDs expected to fail.
    pub expected_failures: Vec<String>,
}

fn case_path(case: &Case, corpus: &Path) -> PathBuf {
    corpus.join(case.verdict.as_str()).join(case.file_name())
}

/// Runs `case` through `session` and judges the attempt.
pub fn run_case(session: &mut Session, case: &Case, corpus: &Path) -> (Status, String, Duration) {
    let timeout = session.adapter().timeout;
    let (attempt, judged) = match session.mode {
        Mode::Reader => {
            let a = session.read(&case_path(case, corpus));
            let j = judge_reader(case, &a.answer, timeout);
            (a, j)
        }
        Mode::Writer => match &case.content {
            Some(c) => {
                let a = session.write(c);
                let j = judge_writer(case, &a.answer, timeout);
                (a, j)
            }
            None => return (Status::Crash, "case has no content".into(), Duration::ZERO),
        },
    };
    (judged.0, judged.1, attempt.elapsed)
}

/// The result of [`PREFLIGHT_CASE`], run before everything else.
#[derive(Debug, Clone)]
pub struct Preflight {
    /// Its status: anything but a crash or a timeout.
    pub status: Status,
    /// Its detail.
    pub detail: String,
    /// Its wall time (a one-shot adapter's start-up included).
    pub elapsed: Duration,
}

/// The adapter checked on [`PREFLIGHT_CASE`], with the per-case deadline
/// (and its retry, [`RETRY_FACTOR`](super::RETRY_FACTOR)) like any case; a persistent adapter's
/// start-up has its own deadline ([`STARTUP_MIN`](super::STARTUP_MIN)). Only a crash or a
/// timeout means the adapter cannot be used: a rejection or other content
/// is an answer under the protocol, that case's result.
///
/// # Errors
/// A message for the user when the adapter crashes or times out on the
/// valid case.
pub fn preflight(
    cases: &[Case],
    session: &mut Session,
    corpus: &Path,
) -> Result<Preflight, String> {
    let case = cases
        .iter()
        .find(|c| c.id == PREFLIGHT_CASE)
        .ok_or("the preflight case is missing from the recipes")?;
    let (status, detail, elapsed) = run_case(session, case, corpus);
    if matches!(status, Status::Crash | Status::Timeout) {
        Err(format!(
            "the adapter cannot {} the simplest valid case, {PREFLIGHT_CASE} ({}: {detail}); \
             check the command and that its interpreter has the package installed",
            if session.mode == Mode::Reader {
                "read"
            } else {
                "write"
            },
            status.as_str()
        ))
    } else {
        Ok(Preflight {
            status,
            detail,
            elapsed,
        })
    }
}

/// Runs every applicable, selected case, after a preflight.
///
/// # Errors
/// Bad globs, an empty command, or a failed preflight (a crash or a
/// timeout).
pub fn run(cases: &[Case], mode: Mode, cfg: &Config) -> Result<Report, String> {
    if cfg.adapter.command.is_empty() {
        return Err("no command given (use -- CMD [ARGS...])".into());
    }
    let started = Instant::now();
    let sel = Selection::new(&cfg.run, &cfg.skip, &cfg.expected_failures)?;
    let mut session = Session::new(cfg.adapter.clone(), mode);
    let first = preflight(cases, &mut session, &cfg.corpus)?;
    let mut notes = Vec::new();
    if first.status != Status::Pass {
        notes.push(format!(
            "the preflight case {PREFLIGHT_CASE} did not pass ({}: {}); \
             the adapter answers under the protocol, so the run goes on",
            first.status.as_str(),
            first.detail
        ));
    }
    let t = cfg.adapter.timeout;
    let startup = session.startups.first().copied().unwrap_or(first.elapsed);
    if startup * 4 > t {
        notes.push(format!(
            "start-up is a large share of the deadline: {} of {}{}",
            secs(startup),
            secs(t),
            if cfg.adapter.persistent {
                " (persistent: paid once per process)"
            } else {
                "; use the adapter's persistent mode, or a longer --timeout"
            }
        ));
    }
    let mut out = Vec::new();
    let mut skipped = Vec::new();
    for case in sel.cases(cases, mode, &mut skipped) {
        // the preflight already ran this case: its result, not a second run
        let (status, detail, elapsed) = if case.id == PREFLIGHT_CASE {
            (first.status, first.detail.clone(), first.elapsed)
        } else {
            run_case(&mut session, case, &cfg.corpus)
        };
        out.push(sel.outcome(case, status, detail, elapsed));
    }
    if session.startups.len() > 1 {
        notes.push(format!(
            "the persistent adapter was restarted {} times (after crashes or timeouts)",
            session.startups.len() - 1
        ));
    }
    Ok(Report {
        name: String::new(),
        version: String::new(),
        mode,
        command: cfg.adapter.command.clone(),
        persistent: cfg.adapter.persistent,
        timeout: cfg.adapter.timeout,
        memory_mib: cfg.adapter.memory_mib,
        outcomes: out,
        skipped,
        notes,
        elapsed: started.elapsed(),
    })
}
