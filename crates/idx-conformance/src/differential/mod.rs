//! Differential fuzzing of IDX readers.
//!
//! Inputs are made by structure-aware mutation of the corpus (header
//! fields, type codes, rank, dimensions around 0, 1, 2^31, 2^32 - 1 and
//! products that overflow or wrap to the payload, truncation, appended
//! bytes, byte flips, gzip wrapping). Each input is judged by the reference
//! (the `idx` library's validator, in process) and run through every
//! selected implementation with the runner's [`Session`] (deadline and
//! memory limit per input). Every input where an implementation does
//! something other than the reference falls in a *disagreement class*:
//! implementation x what the reference found x what the implementation did.
//! Each class keeps a count and one reproducer, minimised by delta
//! debugging on bytes.
//!
//! Determinism: input `i` is a function of the seed and `i` alone, and a
//! class's reproducer is minimised from its lowest-numbered input, so a run
//! with a case budget gives the same report for the same seed whatever `-j`
//! is (given implementations that are themselves deterministic).
//!
//! One file per job: `rng` the random numbers, `mutate` the inputs,
//! `judge` the reference's verdict and an implementation's disagreement,
//! `run` the run and its classes, `minimise` the reproducers, `report` the
//! Markdown report and its comparison with a committed one.
//!
//! [`Session`]: crate::runner::Session

mod judge;
mod minimise;
mod mutate;
mod report;
pub(crate) mod rng;
mod run;
mod scratch;

pub use judge::{did, reference, Did, Reference};
pub use mutate::{input, mutate_once};
pub use report::{hex, key_line, new_classes, render, report_keys};
pub use rng::Rng;
pub use run::{run, Class, ClassKey, Outcome};

use crate::runner::Adapter;
use std::time::Duration;

/// Seeds larger than this are not mutated (they are slow and add nothing
/// the small ones do not).
pub const MAX_SEED_LEN: usize = 64 * 1024;

/// The largest decompressed stream the reference looks at.
pub(super) const MAX_DECOMPRESSED: u64 = 64 << 20;

/// One implementation under test.
#[derive(Debug, Clone)]
pub struct Implementation {
    /// Its name in the report.
    pub name: String,
    /// How to run it (a reader).
    pub adapter: Adapter,
}

/// How much to run.
#[derive(Debug, Clone, Copy)]
pub struct Budget {
    /// At most this many mutated inputs.
    pub cases: Option<usize>,
    /// Stop handing out inputs after this long.
    pub time: Option<Duration>,
}

/// A differential run's settings.
#[derive(Debug, Clone)]
pub struct Config {
    /// The seed of every random choice.
    pub seed: u64,
    /// How many inputs.
    pub budget: Budget,
    /// Worker threads (each with its own session per implementation).
    pub jobs: usize,
    /// The implementations.
    pub implementations: Vec<Implementation>,
    /// At most this many implementation runs to minimise one reproducer.
    pub minimise_runs: usize,
}
