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
//!
//! One file per job: `session` runs an implementation, `answer` reads
//! what it printed, `stage` hands a case's bytes over under a neutral
//! name, `selection` picks the cases and expected failures, `random`
//! holds the run's seed (the order of the cases, the request IDs),
//! `variant` draws each case's bytes anew from it,
//! `run` drives a run, `judge` and `compare` judge answers against cases,
//! and `report` holds the results and renders them.

mod answer;
mod compare;
mod judge;
pub mod random;
mod report;
mod run;
mod selection;
mod session;
mod stage;
mod variant;

pub use compare::{compare, describe, Mismatch, QUIETED};
pub use judge::{judge_reader, judge_writer, no_answer};
pub use report::{unexpected, unexpected_passes, Listed, Outcome, Report, Skipped};
pub use run::{lags, preflight, run, run_case, CaseRun, Config, VARIANT};
pub use selection::{applies, read_expected_failures, Selection, SOME_VARIANTS};
pub use session::{Adapter, Answer, Attempt, Session, FINISH_MAX};
pub use stage::{stage, stage_bytes, Staged, STAGED_NAME};
pub use variant::vary;

/// The cases sent after a persistent adapter's last case, whose answers
/// count for nothing but its being in step: two valid cases, so that an
/// adapter answering each request with the answer to the one before is
/// caught ([`CaseRun::lagging`]) whatever the order of the cases.
pub const CLOSING_PROBES: [&str; 2] = [PREFLIGHT_CASE, "valid-u8-rank2"];

use std::time::Duration;

/// The protocol version, passed to adapters in `IDX_CONFORMANCE_PROTOCOL`.
/// A persistent adapter says in its ready line that it speaks it: every
/// request carries an opaque `id` and every answer echoes it (an adapter
/// of protocol 2, whose answers carry none, is refused with how to
/// upgrade).
pub const PROTOCOL: u32 = 3;

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

/// A duration from a number of seconds given by a user or a file, without
/// panicking: NaN and negative numbers are 0, and the most is 10^9 s (an
/// `Instant` plus it does not overflow).
pub fn seconds(x: f64) -> Duration {
    if x.is_nan() {
        return Duration::ZERO;
    }
    Duration::from_secs_f64(x.clamp(0.0, 1e9))
}

/// A deadline of `x` seconds ([`seconds`]), at least 1 ms.
pub fn deadline(x: f64) -> Duration {
    seconds(x).max(Duration::from_millis(1))
}

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
