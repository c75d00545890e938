//! One implementation, one input: a [`Session`] runs an adapter one-shot
//! or persistent, with a deadline and a memory limit, and returns what the
//! implementation did, judging nothing.

use super::answer::{ending_text, one_shot_answer, persistent_answer, quote, stderr_note};
use super::{Mode, PROTOCOL, RETRY_FACTOR, STARTUP_MIN};
use crate::content::Content;
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
    pub(super) mode: Mode,
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
