//! Running third-party readers and writers against the corpus.
//!
//! The protocol (version [`PROTOCOL`]) is written down in `corpus/README.md`.
//! Two layers:
//!
//! - [`Session`] runs one implementation on one input at a time, one-shot or
//!   persistent, with a deadline and a memory limit, and returns what the
//!   implementation *did* ([`Attempt`]: accepted with this content, rejected
//!   with this message, wrote these bytes, crashed because..., timed out),
//!   judging nothing. Differential fuzzing uses this layer directly.
//! - [`run`] drives a session over the corpus and judges each attempt
//!   against the case's verdict ([`Outcome`], [`Report`]).

use crate::cases::{Case, Verdict};
use crate::content::{Content, Values};
use crate::process::{self, cut, Ending, HeadTail, Persistent, Reply};
use globset::{Glob, GlobSet, GlobSetBuilder};
use idx_content::protocol::error_message;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The protocol version, passed to adapters in `IDX_CONFORMANCE_PROTOCOL`
/// and expected in a persistent adapter's ready line.
pub const PROTOCOL: u32 = 2;

/// The case run before every run, to check the adapter works at all.
pub const PREFLIGHT_CASE: &str = "valid-u8-rank1";

/// The least time given to a persistent adapter's start-up (its ready
/// line): a loaded machine must not turn a slow interpreter import into
/// "cannot read a valid file". Cases, the preflight case among them, have
/// the per-case deadline.
pub const STARTUP_MIN: Duration = Duration::from_secs(30);

/// An input that gets no answer by its deadline is run once more with this
/// many times the deadline before it counts as a timeout: on a loaded
/// machine a deadline can pass for an input a reader answers at once, and
/// that must not become a failure, or a disagreement class.
pub const RETRY_FACTOR: u32 = 3;

/// Reader or writer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Mode {
    /// `CMD ... FILE` prints the content, or an error document and exits 1.
    Reader,
    /// `CMD ...` reads the content on stdin and writes IDX to stdout.
    Writer,
}

impl Mode {
    /// `reader` or `writer`.
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Reader => "reader",
            Mode::Writer => "writer",
        }
    }

    /// The mode named `s`.
    pub fn from_name(s: &str) -> Option<Mode> {
        match s {
            "reader" => Some(Mode::Reader),
            "writer" => Some(Mode::Writer),
            _ => None,
        }
    }
}

/// The outcome of one case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Status {
    /// Did what the verdict requires.
    Pass,
    /// Accepted an invalid file.
    AcceptedInvalid,
    /// Rejected a valid file (or refused to write valid content).
    RejectedValid,
    /// Accepted, but the content differs from the manifest.
    WrongContent,
    /// The written bytes differ from the golden file.
    WrongBytes,
    /// Not the protocol: an exit status other than 0 or 1, exit 1 without an
    /// error document, output that is not the content encoding, a signal,
    /// the memory limit.
    Crash,
    /// Exceeded the per-case time limit.
    Timeout,
    /// Implementation-defined case accepted with the spec's content.
    Accepted,
    /// Implementation-defined little-endian case accepted with every element
    /// byte-swapped: the reader read the payload little-endian.
    AcceptedLittleEndian,
    /// Implementation-defined case rejected.
    Rejected,
}

impl Status {
    /// Every status, in report order.
    pub const ALL: [Status; 10] = [
        Status::Pass,
        Status::AcceptedInvalid,
        Status::RejectedValid,
        Status::WrongContent,
        Status::WrongBytes,
        Status::Crash,
        Status::Timeout,
        Status::Accepted,
        Status::AcceptedLittleEndian,
        Status::Rejected,
    ];

    /// The status word.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Pass => "pass",
            Status::AcceptedInvalid => "accepted-invalid",
            Status::RejectedValid => "rejected-valid",
            Status::WrongContent => "wrong-content",
            Status::WrongBytes => "wrong-bytes",
            Status::Crash => "crash",
            Status::Timeout => "timeout",
            Status::Accepted => "accepted",
            Status::AcceptedLittleEndian => "accepted-little-endian",
            Status::Rejected => "rejected",
        }
    }

    /// The status named `s`.
    pub fn from_name(s: &str) -> Option<Status> {
        Status::ALL.into_iter().find(|x| x.as_str() == s)
    }
}

fn verdict_from_name(s: &str) -> Option<Verdict> {
    [
        Verdict::Valid,
        Verdict::Invalid,
        Verdict::ImplementationDefined,
    ]
    .into_iter()
    .find(|v| v.as_str() == s)
}

// ---------------------------------------------------------------------------
// One implementation, one input

/// How to run an implementation.
#[derive(Debug, Clone)]
pub struct Adapter {
    /// The command and its arguments (a reader gets the file appended in
    /// one-shot mode).
    pub command: Vec<String>,
    /// Started once, one request per line (protocol section "Persistent
    /// mode"), instead of once per input.
    pub persistent: bool,
    /// Per-input deadline, the preflight case's included (a persistent
    /// adapter's start-up gets the larger of it and [`STARTUP_MIN`]).
    pub timeout: Duration,
    /// Address-space limit (`ulimit -v`) of the adapter's process, in MiB.
    pub memory_mib: Option<u64>,
}

/// What an implementation did with one input. Nothing here is a verdict.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    /// A reader accepted the file with this content.
    Accepted(Content),
    /// It rejected the input with this error document's message.
    Rejected(String),
    /// A writer wrote these bytes.
    Wrote(Vec<u8>),
    /// It broke the protocol, died, or ran out of memory: why.
    Crash(String),
    /// No answer by the deadline.
    Timeout,
}

/// One run of an implementation on one input.
#[derive(Debug, Clone)]
pub struct Attempt {
    /// What it did.
    pub answer: Answer,
    /// Wall time of this input (without a persistent adapter's start-up),
    /// both tries when it was run again.
    pub elapsed: Duration,
    /// It got no answer by the deadline and was run again with
    /// [`RETRY_FACTOR`] times the deadline (this is that second answer).
    pub retried: bool,
}

/// An implementation ready to run inputs: one-shot (a process per input) or
/// persistent (one process, restarted after any crash, hang or garbage).
///
/// ```no_run
/// use idx_conformance::runner::{Adapter, Answer, Mode, Session};
/// use std::time::Duration;
/// let mut s = Session::new(
///     Adapter {
///         command: vec!["python3".into(), "numpy_reader.py".into()],
///         persistent: true,
///         timeout: Duration::from_secs(10),
///         memory_mib: Some(4096),
///     },
///     Mode::Reader,
/// );
/// match s.read(std::path::Path::new("input.idx")).answer {
///     Answer::Accepted(content) => println!("{:?}", content.shape),
///     other => println!("{other:?}"),
/// }
/// ```
#[derive(Debug)]
pub struct Session {
    adapter: Adapter,
    mode: Mode,
    child: Option<Persistent>,
    /// Start-up times of the persistent process (one per start).
    pub startups: Vec<Duration>,
}

impl Session {
    /// A session; a persistent adapter is started on first use.
    pub fn new(adapter: Adapter, mode: Mode) -> Session {
        Session {
            adapter,
            mode,
            child: None,
            startups: Vec::new(),
        }
    }

    /// The adapter.
    pub fn adapter(&self) -> &Adapter {
        &self.adapter
    }

    /// Runs a reader on `file` (twice if the first try times out, see
    /// [`RETRY_FACTOR`]).
    pub fn read(&mut self, file: &Path) -> Attempt {
        self.retrying(|s| s.read_within(file))
    }

    /// Runs a writer on `content` (twice if the first try times out, see
    /// [`RETRY_FACTOR`]).
    pub fn write(&mut self, content: &Content) -> Attempt {
        self.retrying(|s| s.write_within(content))
    }

    /// One try, then, if it timed out, a second with [`RETRY_FACTOR`] times
    /// the deadline: only a reader that cannot answer in that either times
    /// out.
    fn retrying(&mut self, mut once: impl FnMut(&mut Session) -> Attempt) -> Attempt {
        let first = once(self);
        if first.answer != Answer::Timeout {
            return first;
        }
        let deadline = self.adapter.timeout;
        self.adapter.timeout = deadline * RETRY_FACTOR;
        let second = once(self);
        self.adapter.timeout = deadline;
        Attempt {
            answer: second.answer,
            elapsed: first.elapsed + second.elapsed,
            retried: true,
        }
    }

    fn read_within(&mut self, file: &Path) -> Attempt {
        debug_assert_eq!(self.mode, Mode::Reader);
        if self.adapter.persistent {
            let req = json!({"file": file.display().to_string()});
            self.ask(req)
        } else {
            let mut args = self.adapter.command.clone();
            args.push(file.display().to_string());
            let f = process::run_once(&args, None, self.adapter.timeout, self.adapter.memory_mib);
            let answer = one_shot_answer(&f, Mode::Reader, self.adapter.memory_mib);
            Attempt {
                answer,
                elapsed: f.elapsed,
                retried: false,
            }
        }
    }

    fn write_within(&mut self, content: &Content) -> Attempt {
        debug_assert_eq!(self.mode, Mode::Writer);
        let doc = content.to_json(false);
        if self.adapter.persistent {
            self.ask(json!({ "content": doc }))
        } else {
            let input = crate::corpus::to_text(&doc).into_bytes();
            let f = process::run_once(
                &self.adapter.command,
                Some(input),
                self.adapter.timeout,
                self.adapter.memory_mib,
            );
            let answer = one_shot_answer(&f, Mode::Writer, self.adapter.memory_mib);
            Attempt {
                answer,
                elapsed: f.elapsed,
                retried: false,
            }
        }
    }

    /// Starts the persistent process if needed and waits for its ready line.
    fn ensure_started(&mut self) -> Result<(), Answer> {
        if self.child.is_some() {
            return Ok(());
        }
        let t0 = Instant::now();
        let mut p = Persistent::start(&self.adapter.command, self.adapter.memory_mib)
            .map_err(|e| Answer::Crash(format!("could not run: {e}")))?;
        let reply = p.ask(None, t0 + self.adapter.timeout.max(STARTUP_MIN));
        self.startups.push(t0.elapsed());
        let bad = |what: String, p: &Persistent| {
            Answer::Crash(format!(
                "persistent adapter did not start: {what}{}",
                stderr_note(&p.take_stderr(), self.adapter.memory_mib)
            ))
        };
        match reply {
            Reply::Line(l) => {
                let v: Option<Value> = serde_json::from_slice(&l).ok();
                match v
                    .as_ref()
                    .and_then(|v| v.get("protocol"))
                    .and_then(Value::as_u64)
                {
                    Some(n) if n == u64::from(PROTOCOL) => {
                        self.child = Some(p);
                        Ok(())
                    }
                    Some(n) => Err(bad(
                        format!("it speaks protocol {n}, the runner {PROTOCOL}"),
                        &p,
                    )),
                    None => Err(bad(
                        format!(
                            "its first line is not {{\"protocol\": {PROTOCOL}}}: {}",
                            quote(&l)
                        ),
                        &p,
                    )),
                }
            }
            Reply::Timeout => Err(Answer::Timeout),
            Reply::TooLong => Err(bad("an endless first line".into(), &p)),
            Reply::Ended(e) => Err(bad(ending_text(&e), &p)),
        }
    }

    fn ask(&mut self, request: Value) -> Attempt {
        let t0 = Instant::now();
        if let Err(answer) = self.ensure_started() {
            return Attempt {
                answer,
                elapsed: t0.elapsed(),
                retried: false,
            };
        }
        let started = Instant::now();
        let Some(child) = self.child.as_mut() else {
            return Attempt {
                answer: Answer::Crash("persistent adapter not running".into()),
                elapsed: t0.elapsed(),
                retried: false,
            };
        };
        let line = request.to_string();
        let reply = child.ask(Some(line.as_bytes()), started + self.adapter.timeout);
        let elapsed = started.elapsed();
        let mem = self.adapter.memory_mib;
        let answer = match reply {
            Reply::Line(l) => persistent_answer(&l, self.mode).unwrap_or_else(|why| {
                Answer::Crash(format!("{why}{}", stderr_note(&child.take_stderr(), mem)))
            }),
            Reply::Timeout => Answer::Timeout,
            Reply::TooLong => Answer::Crash("an answer line longer than 256 MiB".into()),
            Reply::Ended(e) => Answer::Crash(format!(
                "the persistent adapter {}{}",
                ending_text(&e),
                stderr_note(&child.take_stderr(), mem)
            )),
        };
        if matches!(answer, Answer::Crash(_) | Answer::Timeout) {
            // Out of step or dead: the next input gets a fresh process.
            if let Some(c) = self.child.take() {
                c.kill();
            }
        } else {
            let _ = child.take_stderr();
        }
        Attempt {
            answer,
            elapsed,
            retried: false,
        }
    }
}

fn ending_text(e: &Ending) -> String {
    match e {
        Ending::Code(c) => format!("exited with status {c}"),
        Ending::Signal(s) => format!("was killed by {s}"),
        Ending::Timeout => "stopped answering".into(),
        Ending::SpawnError(e) => format!("could not run: {e}"),
    }
}

/// Words in standard error that mean an allocation failed.
const MEMORY_WORDS: [&str; 8] = [
    "MemoryError",
    "bad_alloc",
    "memory allocation of",
    "Cannot allocate memory",
    "out of memory",
    "allocation failed",
    "failed to allocate",
    "capacity overflow",
];

/// `; stderr: ...` and, when an allocation failed under the limit, says so.
fn stderr_note(err: &HeadTail, memory_mib: Option<u64>) -> String {
    let mut s = String::new();
    if !err.is_empty() {
        s.push_str("; stderr: ");
        s.push_str(&err.summary());
    }
    let text = err.text();
    if let Some(w) = MEMORY_WORDS.iter().find(|w| text.contains(*w)) {
        match memory_mib {
            Some(m) => s.push_str(&format!(
                "; an allocation failed ({w}): the memory limit ({m} MiB of address space) was the cause"
            )),
            None => s.push_str(&format!("; an allocation failed ({w})")),
        }
    }
    s
}

fn quote(b: &[u8]) -> String {
    if b.is_empty() {
        return "nothing".into();
    }
    format!("{:?}", cut(&String::from_utf8_lossy(b), 80))
}

fn one_shot_answer(f: &process::Finished, mode: Mode, mem: Option<u64>) -> Answer {
    let note = || stderr_note(&f.stderr, mem);
    match &f.ending {
        Ending::Timeout => Answer::Timeout,
        Ending::SpawnError(e) => Answer::Crash(format!("could not run: {e}")),
        Ending::Signal(s) => Answer::Crash(format!("killed by {s}{}", note())),
        Ending::Code(0) => match mode {
            Mode::Writer => Answer::Wrote(f.stdout.clone()),
            Mode::Reader => match parse_content(&f.stdout) {
                Ok(c) => Answer::Accepted(c),
                Err(e) => Answer::Crash(format!(
                    "exit 0, but the output is not the content encoding ({e}): {}{}",
                    quote(&f.stdout),
                    note()
                )),
            },
        },
        Ending::Code(1) => {
            match serde_json::from_slice::<Value>(&f.stdout)
                .ok()
                .as_ref()
                .and_then(error_message)
            {
                Some(m) => Answer::Rejected(m),
                None => Answer::Crash(format!(
                    "exit 1 without an error document on stdout (got {}){}",
                    quote(&f.stdout),
                    note()
                )),
            }
        }
        Ending::Code(c) => Answer::Crash(format!("exit status {c}{}", note())),
    }
}

fn parse_content(out: &[u8]) -> Result<Content, String> {
    let v: Value = serde_json::from_slice(out).map_err(|e| format!("not JSON: {e}"))?;
    if error_message(&v).is_some() {
        return Err("an error document with exit status 0".into());
    }
    Content::from_json(&v)
}

/// A persistent adapter's answer line.
fn persistent_answer(line: &[u8], mode: Mode) -> Result<Answer, String> {
    let v: Value = serde_json::from_slice(line)
        .map_err(|e| format!("the answer is not a JSON line ({e}): {}", quote(line)))?;
    if let Some(m) = error_message(&v) {
        return Ok(Answer::Rejected(m));
    }
    match mode {
        Mode::Reader => Content::from_json(&v).map(Answer::Accepted).map_err(|e| {
            format!(
                "the answer is not the content encoding ({e}): {}",
                quote(line)
            )
        }),
        Mode::Writer => {
            let h = v
                .get("idx")
                .and_then(Value::as_str)
                .ok_or_else(|| format!("the answer has no \"idx\" hex string: {}", quote(line)))?;
            unhex(h)
                .map(Answer::Wrote)
                .ok_or_else(|| format!("\"idx\" is not hex: {}", quote(line)))
        }
    }
}

fn unhex(s: &str) -> Option<Vec<u8>> {
    if s.len() % 2 != 0 {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| s.get(i..i + 2).and_then(|h| u8::from_str_radix(h, 16).ok()))
        .collect()
}

// ---------------------------------------------------------------------------
// Judging attempts against cases

/// One case's result.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// Case ID.
    pub id: String,
    /// The case's verdict.
    pub verdict: Verdict,
    /// What happened.
    pub status: Status,
    /// An explanation (never empty).
    pub detail: String,
    /// Whether it counts as a failure (not implementation-defined, not pass).
    pub failed: bool,
    /// Whether the expected-failures file lists it.
    pub expected_failure: bool,
    /// Wall time.
    pub elapsed: Duration,
}

/// A case not run, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skipped {
    /// Case ID.
    pub id: String,
    /// Why.
    pub reason: String,
}

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

/// The results of one run.
#[derive(Debug, Clone)]
pub struct Report {
    /// Implementation name.
    pub name: String,
    /// Implementation version.
    pub version: String,
    /// Reader or writer.
    pub mode: Mode,
    /// The command.
    pub command: Vec<String>,
    /// Persistent mode.
    pub persistent: bool,
    /// Per-case deadline.
    pub timeout: Duration,
    /// Memory limit.
    pub memory_mib: Option<u64>,
    /// Every case run.
    pub outcomes: Vec<Outcome>,
    /// Every case not run, with the reason.
    pub skipped: Vec<Skipped>,
    /// Things said once (start-up share of the deadline, restarts).
    pub notes: Vec<String>,
    /// Wall time of the whole run.
    pub elapsed: Duration,
}

fn globset(globs: &[String]) -> Result<GlobSet, String> {
    let mut b = GlobSetBuilder::new();
    for g in globs {
        b.add(Glob::new(g).map_err(|e| format!("bad glob {g:?}: {e}"))?);
    }
    b.build().map_err(|e| e.to_string())
}

/// Reads an expected-failures file: one glob per line, `#` comments.
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
/// (and its retry, [`RETRY_FACTOR`]) like any case; a persistent adapter's
/// start-up has its own deadline ([`STARTUP_MIN`]). Only a crash or a
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

/// Which cases a run takes (`--run`, `--skip`) and which failures it
/// expects (`--expected-failures`): the one selection and failure rule of
/// every run, the runner's and `idxkit`'s in-process checks alike.
#[derive(Debug, Clone)]
pub struct Selection {
    run: GlobSet,
    any_run: bool,
    skip: GlobSet,
    xfail: GlobSet,
}

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
        Ok(Selection {
            run: globset(run)?,
            any_run: !run.is_empty(),
            skip: globset(skip)?,
            xfail: globset(expected_failures)?,
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
            elapsed,
        }
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

fn secs(d: Duration) -> String {
    format!("{:.2} s", d.as_secs_f64())
}

/// The detail of a timeout: a [`Session`] gives a timed-out input a second
/// try with [`RETRY_FACTOR`] times the deadline.
pub fn no_answer(timeout: Duration) -> String {
    format!(
        "no answer in {}, nor in {} when run again",
        secs(timeout),
        secs(timeout * RETRY_FACTOR)
    )
}

/// The verdict on a reader's answer.
pub fn judge_reader(case: &Case, answer: &Answer, timeout: Duration) -> (Status, String) {
    let imp = case.verdict == Verdict::ImplementationDefined;
    match answer {
        Answer::Timeout => (Status::Timeout, no_answer(timeout)),
        Answer::Crash(why) => (Status::Crash, why.clone()),
        Answer::Wrote(_) => (Status::Crash, "a reader answered like a writer".into()),
        Answer::Rejected(m) => {
            let m = format!("rejected: {}", cut(m, 200));
            match case.verdict {
                Verdict::Invalid => (Status::Pass, m),
                Verdict::Valid => (Status::RejectedValid, m),
                Verdict::ImplementationDefined => (Status::Rejected, m),
            }
        }
        Answer::Accepted(got) => {
            if case.verdict == Verdict::Invalid {
                return (
                    Status::AcceptedInvalid,
                    format!("returned {}", describe(got)),
                );
            }
            let Some(expected) = &case.content else {
                return (Status::Crash, "case has no content".into());
            };
            match compare(expected, got) {
                Ok(()) if imp => (Status::Accepted, "the content as the spec reads it".into()),
                Ok(()) => (Status::Pass, "the content as the spec reads it".into()),
                Err(m) if imp && m.byte_swapped => (
                    Status::AcceptedLittleEndian,
                    "matched the little-endian reading (every element byte-swapped from the spec's big-endian reading)".into(),
                ),
                Err(m) => (Status::WrongContent, m.detail),
            }
        }
    }
}

/// The verdict on a writer's answer.
pub fn judge_writer(case: &Case, answer: &Answer, timeout: Duration) -> (Status, String) {
    let imp = case.verdict == Verdict::ImplementationDefined;
    match answer {
        Answer::Timeout => (Status::Timeout, no_answer(timeout)),
        Answer::Crash(why) => (Status::Crash, why.clone()),
        Answer::Accepted(_) => (Status::Crash, "a writer answered like a reader".into()),
        Answer::Rejected(m) => {
            let m = format!("refused: {}", cut(m, 200));
            (
                if imp {
                    Status::Rejected
                } else {
                    Status::RejectedValid
                },
                m,
            )
        }
        Answer::Wrote(out) if *out == case.bytes => (
            if imp { Status::Accepted } else { Status::Pass },
            format!("the golden {} bytes", out.len()),
        ),
        Answer::Wrote(out) => (Status::WrongBytes, bytes_difference(out, &case.bytes, case)),
    }
}

fn bytes_difference(out: &[u8], golden: &[u8], case: &Case) -> String {
    let at = out
        .iter()
        .zip(golden)
        .position(|(a, b)| a != b)
        .unwrap_or(out.len().min(golden.len()));
    let byte = |b: &[u8]| {
        b.get(at)
            .map_or("end of output".into(), |x| format!("0x{x:02x}"))
    };
    let header = golden.len() - case.content.as_ref().map_or(0, |c| c.payload().len());
    let place = if at < header {
        "in the header".to_string()
    } else {
        let size = case.content.as_ref().map_or(1, |c| c.dtype.size());
        format!("in payload element {}", (at - header) / size)
    };
    format!(
        "byte {at} ({place}) is {} instead of {}; {} written, {} expected",
        byte(out),
        byte(golden),
        idx_text::plural::count(out.len() as u64, "byte"),
        golden.len()
    )
}

/// A content mismatch.
#[derive(Debug, Clone)]
pub struct Mismatch {
    /// What differs.
    pub detail: String,
    /// The data equals the expected data with every element byte-swapped.
    pub byte_swapped: bool,
}

/// `[2, 3]`; a long shape is cut (`[2, 1, 1, 1, …, 1, 3] (rank 255)`).
fn shape_text(s: &[u32]) -> String {
    if s.len() <= 8 {
        return format!("{s:?}");
    }
    let head: Vec<String> = s[..4].iter().map(u32::to_string).collect();
    let tail: Vec<String> = s[s.len() - 2..].iter().map(u32::to_string).collect();
    format!(
        "[{}, …, {}] (rank {})",
        head.join(", "),
        tail.join(", "),
        s.len()
    )
}

fn element(v: &Values, i: usize) -> String {
    match v {
        Values::Int(x) => x.get(i).map_or("-".into(), |x| x.to_string()),
        Values::F32(x) => x.get(i).map_or("-".into(), |b| {
            format!("0x{b:08x} ({:?})", f32::from_bits(*b))
        }),
        Values::F64(x) => x.get(i).map_or("-".into(), |b| {
            format!("0x{b:016x} ({:?})", f64::from_bits(*b))
        }),
    }
}

/// `u8 shape [11]: 0, 0, 8, 1, …`: what a reader returned.
pub fn describe(c: &Content) -> String {
    let n = c.values.len();
    let first: Vec<String> = (0..n.min(8))
        .map(|i| match &c.values {
            Values::F32(x) => format!("0x{:08x}", x[i]),
            Values::F64(x) => format!("0x{:016x}", x[i]),
            Values::Int(x) => x[i].to_string(),
        })
        .collect();
    format!(
        "{} shape {}: {}{}",
        c.dtype.name(),
        shape_text(&c.shape),
        if n == 0 {
            "no elements".to_string()
        } else {
            first.join(", ")
        },
        if n > 8 { ", …" } else { "" }
    )
}

fn swapped(v: &Values, dtype: idx::ElementType) -> Option<Values> {
    Some(match v {
        Values::Int(x) => Values::Int(
            x.iter()
                .map(|&e| match dtype {
                    idx::ElementType::I16 => i64::from((e as i16).swap_bytes()),
                    idx::ElementType::I32 => i64::from((e as i32).swap_bytes()),
                    _ => e,
                })
                .collect(),
        ),
        Values::F32(x) => Values::F32(x.iter().map(|b| b.swap_bytes()).collect()),
        Values::F64(x) => Values::F64(x.iter().map(|b| b.swap_bytes()).collect()),
    })
    .filter(|_| dtype.size() > 1)
}

/// Compares a reader's content with the expected content.
///
/// # Errors
/// What differs: dtypes, shapes, or the first differing element (index and
/// both values, floats in hex), and whether the data is byte-swapped.
pub fn compare(expected: &Content, got: &Content) -> Result<(), Mismatch> {
    let plain = |detail: String| Mismatch {
        detail,
        byte_swapped: false,
    };
    if got.dtype != expected.dtype {
        return Err(plain(format!(
            "dtype {} instead of {} (shape {}, expected {})",
            got.dtype.name(),
            expected.dtype.name(),
            shape_text(&got.shape),
            shape_text(&expected.shape)
        )));
    }
    if got.shape != expected.shape {
        let same = if got.values == expected.values {
            "; the same elements in the same order"
        } else {
            ""
        };
        return Err(plain(format!(
            "shape {} instead of {} ({}, {} elements instead of {}{same})",
            shape_text(&got.shape),
            shape_text(&expected.shape),
            got.dtype.name(),
            got.values.len(),
            expected.values.len()
        )));
    }
    if got.values == expected.values {
        return Ok(());
    }
    let n = got.values.len();
    let differs = |i: usize| match (&got.values, &expected.values) {
        (Values::Int(a), Values::Int(b)) => a.get(i) != b.get(i),
        (Values::F32(a), Values::F32(b)) => a.get(i) != b.get(i),
        (Values::F64(a), Values::F64(b)) => a.get(i) != b.get(i),
        _ => true,
    };
    let diffs: Vec<usize> = (0..n).filter(|&i| differs(i)).collect();
    // the first element that differs (an element that reads the same either
    // way, 0 byte-swapped, is not one)
    let first = diffs.first().copied().unwrap_or(0);
    if swapped(&expected.values, expected.dtype).as_ref() == Some(&got.values) {
        return Err(Mismatch {
            detail: format!(
                "reads multi-byte elements little-endian: every element is byte-swapped \
                 (element {first} is {} instead of {}; {} of {n} elements differ)",
                element(&got.values, first),
                element(&expected.values, first),
                diffs.len()
            ),
            byte_swapped: true,
        });
    }
    Err(plain(format!(
        "element {first} is {} instead of {} ({} of {n} elements differ; {} shape {})",
        element(&got.values, first),
        element(&expected.values, first),
        diffs.len(),
        got.dtype.name(),
        shape_text(&got.shape)
    )))
}

// ---------------------------------------------------------------------------
// Reports

/// Unexpected failures: failed and not listed as expected.
pub fn unexpected(outcomes: &[Outcome]) -> usize {
    outcomes
        .iter()
        .filter(|o| o.failed && !o.expected_failure)
        .count()
}

/// Expected failures that passed.
pub fn unexpected_passes(outcomes: &[Outcome]) -> usize {
    outcomes
        .iter()
        .filter(|o| !o.failed && o.expected_failure)
        .count()
}

impl Report {
    /// Counts per status.
    pub fn counts(&self) -> Vec<(Status, usize)> {
        Status::ALL
            .iter()
            .map(|&s| (s, self.outcomes.iter().filter(|o| o.status == s).count()))
            .filter(|&(_, n)| n > 0)
            .collect()
    }

    /// Human-readable report.
    pub fn render_human(&self) -> String {
        let mut s = String::new();
        for o in &self.outcomes {
            let mark = match (o.failed, o.expected_failure) {
                (true, true) => "XFAIL",
                (true, false) => "FAIL ",
                (false, true) => "XPASS",
                (false, false) if o.verdict == Verdict::ImplementationDefined => "IMPL ",
                (false, false) => continue,
            };
            s.push_str(&format!(
                "{mark} {:<45} {:<16} {}\n",
                o.id,
                o.status.as_str(),
                o.detail
            ));
        }
        let mut reasons: Vec<(&str, usize)> = Vec::new();
        for k in &self.skipped {
            match reasons.iter_mut().find(|(r, _)| *r == k.reason) {
                Some(e) => e.1 += 1,
                None => reasons.push((&k.reason, 1)),
            }
        }
        for (r, n) in &reasons {
            let ids: Vec<&str> = self
                .skipped
                .iter()
                .filter(|k| k.reason == *r)
                .map(|k| k.id.as_str())
                .take(3)
                .collect();
            s.push_str(&format!(
                "SKIP  {n} case{}: {r} ({}{})\n",
                if *n == 1 { "" } else { "s" },
                ids.join(", "),
                if *n > 3 { ", …" } else { "" }
            ));
        }
        for n in &self.notes {
            s.push_str(&format!("NOTE  {n}\n"));
        }
        let pass = self
            .outcomes
            .iter()
            .filter(|o| o.status == Status::Pass)
            .count();
        let failed = self.outcomes.iter().filter(|o| o.failed).count();
        let xfail = self
            .outcomes
            .iter()
            .filter(|o| o.failed && o.expected_failure)
            .count();
        let imp = self
            .outcomes
            .iter()
            .filter(|o| o.verdict == Verdict::ImplementationDefined)
            .count();
        s.push_str(&format!(
            "{} {mode}: {pass} passed, {failed} failed ({xfail} expected), {imp} implementation-defined recorded, {} skipped\n",
            self.outcomes.len(),
            self.skipped.len(),
            mode = self.mode.as_str()
        ));
        s
    }

    /// JSON report (the format `matrix --merge` reads back).
    pub fn to_json(&self) -> Value {
        let results: Vec<Value> = self
            .outcomes
            .iter()
            .map(|o| {
                json!({"id": o.id, "verdict": o.verdict.as_str(), "status": o.status.as_str(),
                       "detail": o.detail, "failed": o.failed, "expected_failure": o.expected_failure,
                       "seconds": (o.elapsed.as_secs_f64() * 1000.0).round() / 1000.0})
            })
            .collect();
        let counts: serde_json::Map<String, Value> = self
            .counts()
            .into_iter()
            .map(|(s, n)| (s.as_str().to_string(), json!(n)))
            .collect();
        json!({
            "version": 2,
            "protocol": PROTOCOL,
            "implementation": {"name": self.name, "version": self.version},
            "mode": self.mode.as_str(),
            "command": self.command,
            "persistent": self.persistent,
            "limits": {"timeout_seconds": self.timeout.as_secs_f64(), "memory_mib": self.memory_mib},
            "counts": counts,
            "summary": {
                "cases": self.outcomes.len(),
                "passed": self.outcomes.iter().filter(|o| o.status == Status::Pass).count(),
                "failed": self.outcomes.iter().filter(|o| o.failed).count(),
                "unexpected_failures": unexpected(&self.outcomes),
                "unexpected_passes": unexpected_passes(&self.outcomes),
                "skipped": self.skipped.len(),
                "seconds": (self.elapsed.as_secs_f64() * 100.0).round() / 100.0,
            },
            "notes": self.notes,
            "results": results,
            "skipped": self.skipped.iter().map(|k| json!({"id": k.id, "reason": k.reason})).collect::<Vec<_>>(),
        })
    }

    /// Reads back [`Report::to_json`].
    ///
    /// # Errors
    /// A missing or malformed field.
    pub fn from_json(v: &Value) -> Result<Report, String> {
        let s = |v: &Value, k: &str| -> Result<String, String> {
            v.get(k)
                .and_then(Value::as_str)
                .map(str::to_string)
                .ok_or_else(|| format!("missing string field {k:?}"))
        };
        if v.get("version").and_then(Value::as_u64) != Some(2) {
            return Err("not a version 2 results file".into());
        }
        let imp = v
            .get("implementation")
            .ok_or("missing \"implementation\"")?;
        let mode = Mode::from_name(&s(v, "mode")?).ok_or("bad \"mode\"")?;
        let limits = v.get("limits").ok_or("missing \"limits\"")?;
        let mut outcomes = Vec::new();
        for r in v
            .get("results")
            .and_then(Value::as_array)
            .ok_or("missing \"results\"")?
        {
            outcomes.push(Outcome {
                id: s(r, "id")?,
                verdict: verdict_from_name(&s(r, "verdict")?).ok_or("bad verdict")?,
                status: Status::from_name(&s(r, "status")?).ok_or("bad status")?,
                detail: s(r, "detail")?,
                failed: r
                    .get("failed")
                    .and_then(Value::as_bool)
                    .ok_or("bad \"failed\"")?,
                expected_failure: r
                    .get("expected_failure")
                    .and_then(Value::as_bool)
                    .unwrap_or(false),
                elapsed: Duration::from_secs_f64(
                    r.get("seconds")
                        .and_then(Value::as_f64)
                        .unwrap_or(0.0)
                        .max(0.0),
                ),
            });
        }
        let mut skipped = Vec::new();
        for k in v
            .get("skipped")
            .and_then(Value::as_array)
            .ok_or("missing \"skipped\"")?
        {
            skipped.push(Skipped {
                id: s(k, "id")?,
                reason: s(k, "reason")?,
            });
        }
        Ok(Report {
            name: s(imp, "name")?,
            version: s(imp, "version")?,
            mode,
            command: v
                .get("command")
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter_map(|x| x.as_str().map(str::to_string))
                        .collect()
                })
                .unwrap_or_default(),
            persistent: v
                .get("persistent")
                .and_then(Value::as_bool)
                .unwrap_or(false),
            timeout: Duration::from_secs_f64(
                limits
                    .get("timeout_seconds")
                    .and_then(Value::as_f64)
                    .unwrap_or(0.0)
                    .max(0.0),
            ),
            memory_mib: limits.get("memory_mib").and_then(Value::as_u64),
            outcomes,
            skipped,
            notes: v
                .get("notes")
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter_map(|x| x.as_str().map(str::to_string))
                        .collect()
                })
                .unwrap_or_default(),
            elapsed: Duration::from_secs_f64(
                v.pointer("/summary/seconds")
                    .and_then(Value::as_f64)
                    .unwrap_or(0.0)
                    .max(0.0),
            ),
        })
    }
}
