//! A run: the preflight case, then every selected case in a random order
//! through one [`Session`], judged, into a [`Report`]; a persistent
//! adapter then gets the [`CLOSING_PROBES`].

use super::random::{self, shuffle};
use super::session::secs;
use super::variant::vary;
use super::{
    judge_reader, judge_writer, stage, Adapter, Answer, Mode, Report, Selection, Session, Status,
    CLOSING_PROBES, PREFLIGHT_CASE,
};
use crate::cases::{Case, Verdict};
use std::time::{Duration, Instant};

/// How to run.
#[derive(Debug, Clone)]
pub struct Config {
    /// The implementation.
    pub adapter: Adapter,
    /// Only cases whose ID matches one of these globs (all when empty).
    pub run: Vec<String>,
    /// Skip cases whose ID matches one of these globs.
    pub skip: Vec<String>,
    /// Globs of IDs expected to fail.
    pub expected_failures: Vec<String>,
    /// The run's seed: the order of the cases, the request IDs and each
    /// case's variant follow from it ([`random::fresh_seed`] for a run no
    /// one can predict).
    pub seed: u64,
    /// Each case's bytes drawn anew from the seed where its rule allows
    /// ([`vary`]); `false` runs the committed bytes (to reproduce what a
    /// report says of a corpus file; a run an adapter can look up).
    pub variants: bool,
}

/// How a failure's detail names the variant that failed: `...; this run's
/// variant: payload cut at 3 of 5 bytes (seed 7)`.
pub const VARIANT: &str = "; this run's variant: ";

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
    /// What the implementation answered (`None` when it was not asked).
    pub answer: Option<Answer>,
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

    /// The verdict on a case answered by a persistent adapter's process
    /// whose answers were found to lag their requests: no answer of that
    /// process counts. `this` is the case on which it was found.
    pub fn lagging(&mut self, this: bool) {
        self.detail = format!(
            "out of step: {}, so no answer of this adapter process counts (it answered {}: {})",
            if this {
                "the answer is the one the input asked before it wanted, not this one's: the \
                 adapter's answers lag its requests"
            } else {
                "another answer of the same adapter process was the one the input asked before \
                 it wanted: its answers lag their requests"
            },
            self.status.as_str(),
            self.detail
        );
        self.status = Status::Crash;
    }
}

/// Whether `answer`, given for `case`, is not `case`'s answer but the one
/// `before` (the case asked just before, of the same process) wanted: the
/// content of a valid case, or the golden bytes. An answer that is right
/// for `case` never is, nor one without elements: an empty array is what
/// many readers make of an input they misread, whichever case came before.
pub fn lags(answer: &Answer, case: &Case, before: &Case) -> bool {
    match answer {
        Answer::Accepted(c) => {
            !c.shape.contains(&0)
                && case.verdict != Verdict::Invalid
                && case.content.as_ref() != Some(c)
                && before.verdict != Verdict::Invalid
                && before.content.as_ref() == Some(c)
        }
        Answer::Wrote(b) => *b != case.bytes && *b == before.bytes,
        _ => false,
    }
}

/// Runs `case` through `session`, its bytes given under a neutral name
/// ([`stage`]), and judges the attempt.
///
/// # Errors
/// When the case's file cannot be staged (an I/O error of the runner's).
pub fn run_case(session: &mut Session, case: &Case) -> Result<CaseRun, String> {
    let timeout = session.adapter().timeout;
    let (attempt, (status, detail)) = match session.mode {
        Mode::Reader => {
            let staged = stage(case)?;
            let a = session.read(staged.path());
            let (status, detail) = judge_reader(case, &a.answer, timeout);
            // what the adapter said of its input, without the folder's
            // random name
            (a, (status, staged.neutral(&detail)))
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
                    answer: None,
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
        answer: Some(attempt.answer),
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
pub fn preflight(cases: &[Case], session: &mut Session) -> Result<CaseRun, String> {
    let case = find(cases, PREFLIGHT_CASE)?;
    let r = run_case(session, case)?;
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

/// The recipe's case `id`.
fn find<'a>(cases: &'a [Case], id: &str) -> Result<&'a Case, String> {
    cases
        .iter()
        .find(|c| c.id == id)
        .ok_or_else(|| format!("the case {id} is missing from the recipes"))
}

/// Why a case ran.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    /// Its result.
    Result,
    /// A closing probe: not a result.
    Probe,
    /// The case's committed bytes, run again because its variant's result
    /// disagreed with the expected failures: not a result, but said in its
    /// result's detail.
    Committed,
}

/// A case as run: its ID, the case, its result, and which start of a
/// persistent adapter's process answered it.
struct Ran<'a> {
    case: &'a Case,
    run: CaseRun,
    process: usize,
    role: Role,
}

/// The cases run so far, in the order they ran.
struct Log<'a> {
    ran: Vec<Ran<'a>>,
    persistent: bool,
}

impl<'a> Log<'a> {
    /// Records `run` of `case`: a line too many after the answer before
    /// counts against that case, and a persistent answer that is the one
    /// the case before wanted (the same process's: [`lags`]) makes every
    /// answer of that process out of step, and restarts it. `role`: why
    /// the case ran.
    fn push(&mut self, case: &'a Case, mut run: CaseRun, session: &mut Session, role: Role) {
        if let Some(extra) = run.previous_extra.take() {
            if let Some(before) = self.ran.last_mut() {
                before.run.out_of_step(&extra);
            }
        }
        let process = session.startups.len();
        let lagging = self.persistent
            && match (self.ran.last(), &run.answer) {
                (Some(before), Some(a)) => before.process == process && lags(a, case, before.case),
                _ => false,
            };
        if lagging {
            for r in self.ran.iter_mut().filter(|r| r.process == process) {
                r.run.lagging(false);
            }
            run.lagging(true);
            session.restart();
        }
        self.ran.push(Ran {
            case,
            run,
            process,
            role,
        });
    }
}

/// Runs every applicable, selected case, after a preflight, in an order
/// that follows from `cfg.seed`.
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
    let mut session = Session::seeded(cfg.adapter.clone(), mode, cfg.seed);
    // every case as this run gives it, from the seed
    let given: Vec<Case> = if cfg.variants {
        cases.iter().map(|c| vary(c, cfg.seed)).collect()
    } else {
        cases.to_vec()
    };
    let committed = cases;
    let cases = &given[..];
    let first = preflight(cases, &mut session)?;
    let mut notes = Vec::new();
    let t = cfg.adapter.timeout;
    let startup = session.startups.first().copied().unwrap_or(first.elapsed);
    let mut log = Log {
        ran: Vec::new(),
        persistent: cfg.adapter.persistent,
    };
    log.push(
        find(cases, PREFLIGHT_CASE)?,
        first,
        &mut session,
        Role::Result,
    );
    let mut skipped = Vec::new();
    let selected: Vec<&Case> = sel.cases(cases, mode, &mut skipped).collect();
    // a random order: neither the count of its calls nor the order of the
    // corpus tells an adapter which case it has
    let mut order: Vec<&Case> = selected
        .iter()
        .copied()
        .filter(|c| c.id != PREFLIGHT_CASE)
        .collect();
    shuffle(&mut order, &mut random::rng(cfg.seed, random::ORDER));
    for case in order {
        let r = run_case(&mut session, case)?;
        log.push(case, r, &mut session, Role::Result);
    }
    // a variant's result that disagrees with the expected failures: the
    // committed bytes too, to tell a reader that fails some variants of a
    // case from one whose result on the case changed
    let again: Vec<&Case> = log
        .ran
        .iter()
        .filter(|r| r.role == Role::Result)
        .filter_map(|r| {
            let c = committed.iter().find(|c| c.id == r.case.id)?;
            let o = sel.outcome(r.case, r.run.status, String::new(), r.run.elapsed);
            (c.bytes != r.case.bytes && (o.unexpected_failure() || o.unexpected_pass()))
                .then_some(c)
        })
        .collect();
    for case in again {
        let r = run_case(&mut session, case)?;
        log.push(case, r, &mut session, Role::Committed);
    }
    if cfg.adapter.persistent {
        for id in CLOSING_PROBES {
            let probe = find(cases, id)?;
            let r = run_case(&mut session, probe)?;
            log.push(probe, r, &mut session, Role::Probe);
        }
    }
    if let Some(extra) = session.finish() {
        if let Some(last) = log.ran.last_mut() {
            last.run.out_of_step(&extra);
        }
    }
    let ran = log.ran;
    let first = &ran[0].run;
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
            let Ran {
                case: given,
                run: r,
                ..
            } = ran
                .iter()
                .find(|r| r.role == Role::Result && r.case.id == case.id)?;
            let mut detail = r.detail.clone();
            let mine = committed.iter().find(|c| c.id == case.id)?;
            let varied = mine.bytes != given.bytes;
            let again = ran
                .iter()
                .find(|r| r.role == Role::Committed && r.case.id == case.id)
                .map(|r| &r.run);
            if varied && (r.status != Status::Pass || again.is_some()) {
                detail = format!("{detail}{VARIANT}{} (seed {})", given.description, cfg.seed);
            }
            let committed_failed = again.map(|a| {
                let failed =
                    case.verdict != Verdict::ImplementationDefined && a.status != Status::Pass;
                detail = if failed {
                    format!(
                        "{detail}; on the committed bytes: {}: {}",
                        a.status.as_str(),
                        a.detail
                    )
                } else {
                    format!("{detail}; the committed bytes pass")
                };
                if failed != (r.status != Status::Pass) {
                    detail.push_str(": the reader fails some variants of this case, not all");
                }
                failed
            });
            let mut o = sel.outcome(case, r.status, detail, r.elapsed);
            o.committed_failed = committed_failed;
            Some(o)
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

#[cfg(test)]
mod tests {
    use super::*;

    fn case(id: &str) -> Case {
        let all = crate::cases::all();
        let found = all.into_iter().find(|c| c.id == id);
        found.unwrap_or_else(|| panic!("{id}")) // ok: unit test
    }

    #[test]
    // Before, an empty array (what a reader that cannot read gzip made of
    // impl-gzip-u8-4x5) was taken for the answer to impl-zero-dim-u8-0
    // when the order put that case just before: every answer of the
    // process counted as a crash, under some seeds only (ubyte, seed 4).
    fn an_answer_without_elements_is_no_lag() {
        let empty = case("impl-zero-dim-u8-0");
        let answer = Answer::Accepted(empty.content.clone().unwrap()); // ok: unit test
        assert!(!lags(&answer, &case("impl-gzip-u8-4x5"), &empty));
        // an answer with elements that is the case before's still is
        let before = case("valid-u8-rank2");
        let answer = Answer::Accepted(before.content.clone().unwrap()); // ok: unit test
        assert!(lags(&answer, &case("valid-u8-rank3"), &before));
    }
}
