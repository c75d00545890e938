//! One implementation, one input: a [`Session`] runs an adapter one-shot
//! or persistent, with a deadline and a memory limit, and returns what the
//! implementation did, judging nothing.

use super::answer::{ending_text, one_shot_answer, persistent_answer, quote, stderr_note};
use super::random::{self, request_id};
use super::{Mode, PROTOCOL, RETRY_FACTOR};
use crate::content::Content;
use crate::differential::rng::Rng;
use crate::process::{self, Persistent, Reply};
use serde_json::{json, Value};
use std::path::Path;
use std::time::{Duration, Instant};

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
    /// adapter's start-up gets the larger of it and `startup`).
    pub timeout: Duration,
    /// Address-space limit (`ulimit -v`) of the adapter's process, in MiB.
    pub memory_mib: Option<u64>,
    /// The least time a persistent adapter's start-up (its ready line) is
    /// given, [`STARTUP_MIN`](super::STARTUP_MIN) unless asked otherwise.
    pub startup: Duration,
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

/// What a try waited for when it timed out, and how long.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Waited {
    /// An answer, for the per-input deadline.
    Answer(Duration),
    /// A persistent adapter's ready line, for its start-up deadline.
    Ready(Duration),
}

/// The detail of a timeout, from what each of the two tries waited for.
fn timeout_text(first: Waited, second: Waited) -> String {
    let ready = |d| {
        format!(
            "printed no ready line in {} (its start-up deadline)",
            secs(d)
        )
    };
    match (first, second) {
        (Waited::Answer(a), Waited::Answer(b)) => no_answer_in(a, b),
        (Waited::Ready(a), Waited::Ready(b)) => format!(
            "the persistent adapter {}, nor in {} when started again",
            ready(a),
            secs(b)
        ),
        (Waited::Answer(a), Waited::Ready(b)) => format!(
            "no answer in {}; when run again, the restarted adapter {}",
            secs(a),
            ready(b)
        ),
        (Waited::Ready(a), Waited::Answer(b)) => format!(
            "the persistent adapter {}; when started again, no answer in {}",
            ready(a),
            secs(b)
        ),
    }
}

/// A duration as the runner's messages give it (`3.00 s`).
pub(super) fn secs(d: Duration) -> String {
    format!("{:.2} s", d.as_secs_f64())
}

/// `no answer in 1.00 s, nor in 3.00 s when run again`.
pub(super) fn no_answer_in(first: Duration, second: Duration) -> String {
    format!(
        "no answer in {}, nor in {} when run again",
        secs(first),
        secs(second)
    )
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
    /// For a timeout, what both tries waited for and how long: `no answer
    /// in 1.00 s, nor in 3.00 s when run again`, or the persistent
    /// adapter's start-up deadline when that is what passed.
    pub timed_out: Option<String>,
    /// What a persistent adapter printed after its answer to the input
    /// before this one, before this input was sent (`another line: "..."`),
    /// or when this one was (protocol 3: `another answer to it (id 4):
    /// "..."`): one answer line per request is the protocol, so that
    /// input's answer does not count, and the adapter was restarted before
    /// this input.
    pub previous_extra: Option<String>,
    waited: Option<Waited>,
}

impl Attempt {
    fn new(answer: Answer, elapsed: Duration) -> Attempt {
        Attempt {
            answer,
            elapsed,
            retried: false,
            timed_out: None,
            previous_extra: None,
            waited: None,
        }
    }
}

/// What a persistent adapter's answer line is, for the request it was
/// awaited for.
enum Line {
    /// The answer to this request.
    Answer(Answer),
    /// Protocol 3: another answer to the request before, which was
    /// answered already.
    Again(u64),
    /// Not an answer: why.
    Bad(String),
}

/// An implementation ready to run inputs: one-shot (a process per input) or
/// persistent (one process, restarted after any crash, hang, garbage or
/// answer out of step).
///
/// ```no_run
/// use idx_conformance::runner::{Adapter, Answer, Mode, Session, STARTUP_MIN};
/// use std::time::Duration;
/// let mut s = Session::new(
///     Adapter {
///         command: vec!["python3".into(), "numpy_reader.py".into()],
///         persistent: true,
///         timeout: Duration::from_secs(10),
///         memory_mib: Some(4096),
///         startup: STARTUP_MIN,
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
    pub(super) mode: Mode,
    child: Option<Persistent>,
    /// Where request IDs come from: each is random, so that neither an ID
    /// nor the difference of two says which input a request is, or how
    /// many came before.
    ids: Rng,
    /// The IDs given so far: each is unique in the session, across
    /// restarts.
    used: std::collections::HashSet<u64>,
    /// The ID of the last request the running process answered.
    answered: Option<u64>,
    /// Start-up times of the persistent process (one per start).
    pub startups: Vec<Duration>,
}

impl Session {
    /// A session; a persistent adapter is started on first use. Its
    /// request IDs come from a fresh seed.
    pub fn new(adapter: Adapter, mode: Mode) -> Session {
        Session::seeded(adapter, mode, random::fresh_seed())
    }

    /// A session whose request IDs follow from `seed` (a run's seed).
    pub fn seeded(adapter: Adapter, mode: Mode, seed: u64) -> Session {
        Session {
            adapter,
            mode,
            child: None,
            ids: random::rng(seed, random::IDS),
            used: std::collections::HashSet::new(),
            answered: None,
            startups: Vec::new(),
        }
    }

    /// Stops a persistent adapter's process: the next input starts a fresh
    /// one (after its answers were found out of step).
    pub fn restart(&mut self) {
        self.stop();
    }

    /// A fresh request ID, never given before in this session.
    fn next_id(&mut self) -> u64 {
        loop {
            let id = request_id(&mut self.ids);
            if self.used.insert(id) {
                return id;
            }
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

    /// The end of the inputs: a persistent adapter's standard input is
    /// closed and what it still prints before it exits is read (bounded by
    /// the deadline, at most [`FINISH_MAX`]). A line there followed its
    /// last answer: `Some` says what it was (as
    /// [`Attempt::previous_extra`] does), and the last input's answer does
    /// not count.
    pub fn finish(&mut self) -> Option<String> {
        let child = self.child.take()?;
        self.answered = None;
        let lines = child.finish(Instant::now() + self.adapter.timeout.min(FINISH_MAX));
        let first = lines.first()?;
        Some(format!(
            "{} before it exited",
            extra_line(first, lines.len())
        ))
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
        let timed_out = match (first.waited, second.waited) {
            (Some(a), Some(b)) if second.answer == Answer::Timeout => Some(timeout_text(a, b)),
            _ => None,
        };
        Attempt {
            answer: second.answer,
            elapsed: first.elapsed + second.elapsed,
            retried: true,
            timed_out,
            // the first try's: the second follows a timeout, after which
            // the adapter was restarted
            previous_extra: first.previous_extra.or(second.previous_extra),
            waited: second.waited,
        }
    }

    fn read_within(&mut self, file: &Path) -> Attempt {
        debug_assert_eq!(self.mode, Mode::Reader);
        if self.adapter.persistent {
            let req = json!({"file": file.display().to_string()});
            self.ask(&req)
        } else {
            let mut args = self.adapter.command.clone();
            args.push(file.display().to_string());
            let f = process::run_once(&args, None, self.adapter.timeout, self.adapter.memory_mib);
            self.one_shot(&f, Mode::Reader)
        }
    }

    fn write_within(&mut self, content: &Content) -> Attempt {
        debug_assert_eq!(self.mode, Mode::Writer);
        let doc = content.to_json(false);
        if self.adapter.persistent {
            self.ask(&json!({ "content": doc }))
        } else {
            let input = crate::json::to_text(&doc).into_bytes();
            let f = process::run_once(
                &self.adapter.command,
                Some(input),
                self.adapter.timeout,
                self.adapter.memory_mib,
            );
            self.one_shot(&f, Mode::Writer)
        }
    }

    fn one_shot(&self, f: &process::Finished, mode: Mode) -> Attempt {
        let answer = one_shot_answer(f, mode, self.adapter.memory_mib);
        let mut a = Attempt::new(answer, f.elapsed);
        if a.answer == Answer::Timeout {
            a.waited = Some(Waited::Answer(self.adapter.timeout));
        }
        a
    }

    /// The persistent process's start-up deadline.
    fn startup_deadline(&self) -> Duration {
        self.adapter.timeout.max(self.adapter.startup)
    }

    /// Starts the persistent process if needed and waits for its ready line.
    fn ensure_started(&mut self) -> Result<(), Answer> {
        if self.child.is_some() {
            return Ok(());
        }
        let t0 = Instant::now();
        let mut p = Persistent::start(&self.adapter.command, self.adapter.memory_mib)
            .map_err(|e| Answer::Crash(format!("could not run: {e}")))?;
        let reply = p.ask(None, t0 + self.startup_deadline());
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
                        self.answered = None;
                        self.child = Some(p);
                        Ok(())
                    }
                    Some(n) if n < u64::from(PROTOCOL) => Err(bad(upgrade(n), &p)),
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

    /// Kills the persistent process: the next input gets a fresh one.
    fn stop(&mut self) {
        if let Some(c) = self.child.take() {
            c.kill();
        }
        self.answered = None;
    }

    fn ask(&mut self, request: &Value) -> Attempt {
        let t0 = Instant::now();
        let mut previous_extra = None;
        // A line already waiting followed the previous answer: the adapter
        // is a line ahead, and would answer this request with it.
        if let Some(line) = self.child.as_mut().and_then(Persistent::waiting) {
            previous_extra = Some(extra_line(&line, 1));
            self.stop();
        }
        loop {
            let deadline = self.startup_deadline();
            if let Err(answer) = self.ensure_started() {
                let mut a = Attempt::new(answer, t0.elapsed());
                if a.answer == Answer::Timeout {
                    a.waited = Some(Waited::Ready(deadline));
                }
                a.previous_extra = previous_extra;
                return a;
            }
            let started = Instant::now();
            let id = self.next_id();
            let mut request = request.clone();
            request["id"] = json!(id);
            let Some(child) = self.child.as_mut() else {
                let mut a = Attempt::new(
                    Answer::Crash("persistent adapter not running".into()),
                    t0.elapsed(),
                );
                a.previous_extra = previous_extra;
                return a;
            };
            let reply = child.ask(
                Some(request.to_string().as_bytes()),
                started + self.adapter.timeout,
            );
            let elapsed = started.elapsed();
            let mem = self.adapter.memory_mib;
            let answer = match reply {
                Reply::Line(l) => match self.line(&l, id) {
                    Line::Answer(a) => a,
                    Line::Again(prev) if previous_extra.is_none() => {
                        // The answer to the request before, a second time:
                        // that request's answer does not count, and this
                        // one is asked again of a fresh process.
                        previous_extra =
                            Some(format!("another answer to it (id {prev}): {}", quote(&l)));
                        self.stop();
                        continue;
                    }
                    Line::Again(prev) => Answer::Crash(format!(
                        "the answer's id is {prev}, the request's {id}: out of step: {}",
                        quote(&l)
                    )),
                    Line::Bad(why) => {
                        Answer::Crash(format!("{why}{}", stderr_note(&self.take_stderr(), mem)))
                    }
                },
                Reply::Timeout => Answer::Timeout,
                Reply::TooLong => Answer::Crash("an answer line longer than 256 MiB".into()),
                Reply::Ended(e) => Answer::Crash(format!(
                    "the persistent adapter {}{}",
                    ending_text(&e),
                    stderr_note(&self.take_stderr(), mem)
                )),
            };
            let mut a = Attempt::new(answer, elapsed);
            a.previous_extra = previous_extra;
            if matches!(a.answer, Answer::Crash(_) | Answer::Timeout) {
                if a.answer == Answer::Timeout {
                    a.waited = Some(Waited::Answer(self.adapter.timeout));
                }
                // Out of step or dead: the next input gets a fresh process.
                self.stop();
            } else {
                self.answered = Some(id);
                let _ = self.take_stderr();
            }
            return a;
        }
    }

    fn take_stderr(&self) -> crate::process::HeadTail {
        self.child
            .as_ref()
            .map(Persistent::take_stderr)
            .unwrap_or_default()
    }

    /// What an answer line is for request `id`.
    fn line(&self, l: &[u8], id: u64) -> Line {
        let mut v: Value = match serde_json::from_slice(l) {
            Ok(v) => v,
            Err(e) => {
                return Line::Bad(format!("the answer is not a JSON line ({e}): {}", quote(l)))
            }
        };
        let got = v.as_object_mut().and_then(|o| o.remove("id"));
        match got.as_ref().and_then(Value::as_u64) {
            Some(x) if x == id => {}
            Some(x) if self.answered == Some(x) => return Line::Again(x),
            Some(x) => {
                return Line::Bad(format!(
                    "the answer's id is {x}, the request's {id}: the adapter is out of step: {}",
                    quote(l)
                ))
            }
            None => {
                return Line::Bad(format!(
                    "the answer has no \"id\" (protocol 3: each answer carries its request's, here {id}): {}",
                    quote(l)
                ))
            }
        }
        match persistent_answer(&v, l, self.mode) {
            Ok(a) => Line::Answer(a),
            Err(why) => Line::Bad(why),
        }
    }
}

/// Why a persistent adapter of protocol `n` (under 3) is refused, and how
/// to upgrade it.
fn upgrade(n: u64) -> String {
    format!(
        "it speaks protocol {n}, and persistent adapters must speak protocol {PROTOCOL}: without \
         the request's id in each answer, an answer to another input cannot be told from this \
         one's. To upgrade, copy each request's \"id\" into its answer line and print \
         {{\"protocol\": {PROTOCOL}}} when ready (corpus/README.md, \"Persistent mode\"); or run \
         the adapter one-shot, without --persistent"
    )
}

/// The most time [`Session::finish`] waits for a persistent adapter to
/// exit once its standard input is closed.
pub const FINISH_MAX: Duration = Duration::from_secs(2);

/// `another line: "..."`, with how many more followed.
fn extra_line(r: &Reply, n: usize) -> String {
    let what = match r {
        Reply::Line(l) => format!("another line: {}", quote(l)),
        _ => "another line, longer than 256 MiB".into(),
    };
    if n > 1 {
        format!("{what} (and {} more)", n - 1)
    } else {
        what
    }
}
