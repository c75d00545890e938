//! A run: the preflight case, then every selected case through one
//! [`Session`], judged, into a [`Report`].

use super::session::secs;
use super::{
    judge_reader, judge_writer, stage, Adapter, Mode, Report, Selection, Session, Status,
    PREFLIGHT_CASE,
};
use crate::cases::Case;
use std::path::PathBuf;
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

/// One case run and judged.
#[derive(Debug, Clone)]
pub struct CaseRun {
    /// Its status.
    pub status: Status,
    /// Its detail.
    pub detail: String,
    /// Its wall time (a one-shot adapter's start-up included).
    pub elapsed: Duration,
    /// What a persistent adapter printed after its answer to the case run
    /// before this one ([`Attempt::previous_extra`](super::Attempt::previous_extra)).
    pub previous_extra: Option<String>,
}

impl CaseRun {
    /// The verdict on a case whose answer was followed by `extra`: a line
    /// too many is a crash, whatever the answer was.
    pub fn out_of_step(&mut self, extra: &str) {
        self.detail = format!(
            "after its answer ({}: {}), the adapter printed {extra}: one answer line per \
             request is the protocol, so the adapter was out of step",
            self.status.as_str(),
            self.detail
        );
        self.status = Status::Crash;
    }
}

/// Runs `case` through `session`, its file given under a neutral name
/// ([`stage`]), and judges the attempt.
///
/// # Errors
/// When the case's file cannot be staged (an I/O error of the runner's).
pub fn run_case(
    session: &mut Session,
    case: &Case,
    corpus: &std::path::Path,
) -> Result<CaseRun, String> {
    let timeout = session.adapter().timeout;
    let (attempt, (status, detail)) = match session.mode {
        Mode::Reader => {
            let staged = stage(case, corpus)?;
            let a = session.read(staged.path());
            let j = judge_reader(case, &a.answer, timeout);
            (a, j)
        }
        Mode::Writer => match &case.content {
            Some(c) => {
                let a = session.write(c);
                let j = judge_writer(case, &a.answer, timeout);
                (a, j)
            }
            None => {
                return Ok(CaseRun {
                    status: Status::Crash,
                    detail: "case has no content".into(),
                    elapsed: Duration::ZERO,
                    previous_extra: None,
                })
            }
        },
    };
    let detail = match (&attempt.timed_out, status) {
        (Some(t), Status::Timeout) => t.clone(),
        _ => detail,
    };
    Ok(CaseRun {
        status,
        detail,
        elapsed: attempt.elapsed,
        previous_extra: attempt.previous_extra,
    })
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
    corpus: &std::path::Path,
) -> Result<CaseRun, String> {
    let case = cases
        .iter()
        .find(|c| c.id == PREFLIGHT_CASE)
        .ok_or("the preflight case is missing from the recipes")?;
    let r = run_case(session, case, corpus)?;
    if matches!(r.status, Status::Crash | Status::Timeout) {
        Err(format!(
            "the adapter cannot {} the simplest valid case, {PREFLIGHT_CASE} ({}: {}); \
             check the command and that its interpreter has the package installed",
            if session.mode == Mode::Reader {
                "read"
            } else {
                "write"
            },
            r.status.as_str(),
            r.detail
        ))
    } else {
        Ok(r)
    }
}

/// Runs every applicable, selected case, after a preflight.
///
/// # Errors
/// Bad globs, an empty command, a failed preflight (a crash or a timeout),
/// or a case file that cannot be staged.
pub fn run(cases: &[Case], mode: Mode, cfg: &Config) -> Result<Report, String> {
    if cfg.adapter.command.is_empty() {
        return Err("no command given (use -- CMD [ARGS...])".into());
    }
    let started = Instant::now();
    let sel = Selection::new(&cfg.run, &cfg.skip, &cfg.expected_failures)?;
    let mut session = Session::new(cfg.adapter.clone(), mode);
    let first = preflight(cases, &mut session, &cfg.corpus)?;
    let mut notes = Vec::new();
    let t = cfg.adapter.timeout;
    let startup = session.startups.first().copied().unwrap_or(first.elapsed);
    // The cases in the order they ran, the preflight case first: a line
    // too many after an answer is counted against the case run before.
    let mut ran: Vec<(&str, CaseRun)> = vec![(PREFLIGHT_CASE, first)];
    let mut skipped = Vec::new();
    let selected: Vec<&Case> = sel.cases(cases, mode, &mut skipped).collect();
    for case in selected.iter().filter(|c| c.id != PREFLIGHT_CASE) {
        let mut r = run_case(&mut session, case, &cfg.corpus)?;
        if let Some(extra) = r.previous_extra.take() {
            if let Some((_, before)) = ran.last_mut() {
                before.out_of_step(&extra);
            }
        }
        ran.push((&case.id, r));
    }
    if let Some(extra) = session.finish() {
        if let Some((_, last)) = ran.last_mut() {
            last.out_of_step(&extra);
        }
    }
    let first = &ran[0].1;
    if first.status != Status::Pass {
        notes.push(format!(
            "the preflight case {PREFLIGHT_CASE} did not pass ({}: {}); \
             the adapter answers under the protocol, so the run goes on",
            first.status.as_str(),
            first.detail
        ));
    }
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
    if session.protocols.contains(&2) {
        notes.push(
            "the persistent adapter speaks protocol 2: its answers carry no request id, so an \
             answer out of step is caught only when a line is left waiting (protocol 3 echoes \
             each request's id)"
                .into(),
        );
    }
    if session.startups.len() > 1 {
        notes.push(format!(
            "the persistent adapter was restarted {} (after crashes, timeouts or answers out of step)",
            idx_text::plural::count(session.startups.len() as u64 - 1, "time")
        ));
    }
    // the results in the selection's order (the preflight case only when
    // selected); the preflight already ran its case: its result, not a
    // second run
    let out = selected
        .iter()
        .filter_map(|case| {
            let (_, r) = ran.iter().find(|(id, _)| *id == case.id)?;
            Some(sel.outcome(case, r.status, r.detail.clone(), r.elapsed))
        })
        .collect();
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
