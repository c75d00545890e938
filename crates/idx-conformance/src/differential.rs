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

use crate::cases::{gzip_stored, Case};
use crate::content::Content;
use crate::runner::{self, Adapter, Answer, Mode, Session};
use idx::{Rule, Severity};
use std::collections::BTreeMap;
use std::io::Read;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Seeds larger than this are not mutated (they are slow and add nothing
/// the small ones do not).
pub const MAX_SEED_LEN: usize = 64 * 1024;

/// The largest decompressed stream the reference looks at.
const MAX_DECOMPRESSED: u64 = 64 << 20;

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

// ---------------------------------------------------------------------------
// Random numbers: SplitMix64, so a seed means the same inputs everywhere

/// A small deterministic generator (SplitMix64).
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator for input `index` of a run seeded `seed`.
    pub fn for_input(seed: u64, index: u64) -> Rng {
        let mut r = Rng(seed ^ index.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        r.bits();
        r
    }
    /// The next 64 random bits.
    pub fn bits(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.bits() % n.max(1) as u64) as usize
    }
    /// One of `xs` (non-empty).
    pub fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len())]
    }
    /// True with probability `1 / n`.
    pub fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }
}

// ---------------------------------------------------------------------------
// Mutations

/// Type codes to try: every valid one and neighbours of the gaps.
const TYPE_CODES: [u8; 11] = [
    0x08, 0x09, 0x0b, 0x0c, 0x0d, 0x0e, 0x00, 0x07, 0x0a, 0x0f, 0xff,
];

/// Dimension values to try.
const DIMS: [u32; 9] = [
    0,
    1,
    2,
    0x7fff_ffff,
    0x8000_0000,
    0x8000_0001,
    0xffff_fffe,
    0xffff_ffff,
    10_000,
];

/// Shapes whose element count is 2^64 + 4 (wrapping to 4), and whose byte
/// count for 4-byte elements is 2^64 + 4 (wrapping to 4 bytes).
const WRAPS: [&[u32]; 3] = [
    &[494_770, 769_546, 48_448_661],
    &[2_147_418_113, 1_718_039_348, 5],
    &[2_147_418_113, 429_509_837, 5],
];

/// The header fields of `b`, if its first 4 bytes and dimensions are there.
fn rank_of(b: &[u8]) -> Option<usize> {
    let r = usize::from(*b.get(3)?);
    (b.len() >= 4 + 4 * r).then_some(r)
}

fn set_dim(b: &mut [u8], k: usize, d: u32) {
    b[4 + 4 * k..8 + 4 * k].copy_from_slice(&d.to_be_bytes());
}

fn dim(b: &[u8], k: usize) -> u32 {
    u32::from_be_bytes([b[4 + 4 * k], b[5 + 4 * k], b[6 + 4 * k], b[7 + 4 * k]])
}

/// Applies one random mutation to `b` (possibly nothing, if it does not
/// apply); returns its name.
pub fn mutate_once(b: &mut Vec<u8>, rng: &mut Rng) -> &'static str {
    match rng.below(12) {
        0 => {
            if b.len() > 2 {
                b[2] = rng.pick(&TYPE_CODES);
            }
            "type"
        }
        1 => {
            // the rank byte alone: the dimension list shifts
            if b.len() > 3 {
                let r = b[3];
                b[3] = rng.pick(&[
                    0,
                    1,
                    2,
                    3,
                    4,
                    33,
                    65,
                    255,
                    r.wrapping_add(1),
                    r.wrapping_sub(1),
                ]);
            }
            "rank"
        }
        2 => {
            // rank +- 1 with a dimension of 1 added or dropped: same payload
            if let Some(r) = rank_of(b) {
                if r > 0 && rng.one_in(2) {
                    let k = rng.below(r);
                    if dim(b, k) == 1 || rng.one_in(4) {
                        b.drain(4 + 4 * k..8 + 4 * k);
                        b[3] = (r - 1) as u8;
                    }
                } else if r < 255 {
                    let k = rng.below(r + 1);
                    b.splice(4 + 4 * k..4 + 4 * k, [0, 0, 0, 1]);
                    b[3] = (r + 1) as u8;
                }
            }
            "rank-and-dimensions"
        }
        3 | 4 => {
            if let Some(r) = rank_of(b).filter(|&r| r > 0) {
                let k = rng.below(r);
                let d = dim(b, k);
                let v = match rng.below(3) {
                    0 => rng.pick(&DIMS),
                    1 => d.wrapping_add(1),
                    _ => d.wrapping_sub(1),
                };
                set_dim(b, k, v);
            }
            "dimension"
        }
        5 => {
            // a shape whose size wraps modulo 2^64 to (about) what is there
            let w = rng.pick(&WRAPS);
            let t = rng.pick(&TYPE_CODES[..6]);
            let mut out = vec![0, 0, t, w.len() as u8];
            w.iter()
                .for_each(|d| out.extend_from_slice(&d.to_be_bytes()));
            let size = idx::ElementType::from_code(t).map_or(1, |t| t.size());
            let n = if w[1] == 429_509_837 { 4 } else { 4 * size };
            out.extend((0..n).map(|i| i as u8 ^ 0x5a));
            *b = out;
            "wrapping-size"
        }
        6 => {
            let cut = match rng.below(4) {
                0 => rng.below(b.len() + 1),
                1 => b.len().saturating_sub(1),
                2 => rank_of(b).map_or(4, |r| 4 + 4 * r).min(b.len()),
                _ => rng.below(b.len().min(12) + 1),
            };
            b.truncate(cut);
            "truncate"
        }
        7 => {
            match rng.below(3) {
                0 => {
                    let n = 1 + rng.below(16);
                    b.extend((0..n).map(|_| rng.bits() as u8));
                }
                1 => {
                    let copy = b.clone();
                    b.extend_from_slice(&copy);
                }
                _ => b.extend(std::iter::repeat_n(0, 1 + rng.below(8))),
            }
            "append"
        }
        8 | 9 => {
            if !b.is_empty() {
                // bias towards the header
                let at = if rng.one_in(2) {
                    rng.below(b.len().min(16))
                } else {
                    rng.below(b.len())
                };
                if rng.one_in(2) {
                    b[at] ^= 1 << rng.below(8);
                } else {
                    b[at] = rng.bits() as u8;
                }
            }
            "byte"
        }
        10 => {
            // the header written little-endian
            if let Some(r) = rank_of(b) {
                b[..4].reverse();
                for k in 0..r {
                    b[4 + 4 * k..8 + 4 * k].reverse();
                }
            }
            "byte-swapped-header"
        }
        _ => {
            // the payload of a multi-byte type read as another type
            if b.len() > 2 {
                b[2] = rng.pick(&[0x0b, 0x0c, 0x0d, 0x0e]);
            }
            "retype"
        }
    }
}

/// Input `index` of a run: a seed case mutated 1 to 3 times, sometimes
/// wrapped in gzip. Returns the bytes and the mutations applied.
pub fn input(seeds: &[&Case], seed: u64, index: u64) -> (Vec<u8>, Vec<&'static str>) {
    let mut rng = Rng::for_input(seed, index);
    let base = seeds[rng.below(seeds.len())];
    let mut b = base.bytes.clone();
    // gzip seeds are mutated inside, then wrapped again
    let mut gz = false;
    if base.compression().is_some() {
        if let Some(d) = gunzip(&b) {
            b = d;
            gz = true;
        }
    }
    let n = 1 + rng.below(3);
    let mut applied = Vec::new();
    for _ in 0..n {
        applied.push(mutate_once(&mut b, &mut rng));
    }
    if gz || rng.one_in(10) {
        b = gzip_stored(&b);
        applied.push("gzip");
    }
    (b, applied)
}

fn gunzip(b: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    // the library's own opener and decoder, as every front end reads gzip
    // (its first MAX_DECOMPRESSED bytes: a bomb is mutated as its prefix)
    idx::input::open(b, None)
        .ok()?
        .take(MAX_DECOMPRESSED)
        .read_to_end(&mut out)
        .ok()?;
    Some(out)
}

// ---------------------------------------------------------------------------
// What the reference says, and what an implementation did

/// What the reference (the `idx` library) found in an input.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Reference {
    /// Valid IDX, no warning: readers MUST accept it with this content.
    Valid,
    /// Valid, with portability warnings (their codes): implementation-defined.
    Warned(Vec<&'static str>),
    /// Valid IDX inside gzip: readers MAY decompress it.
    Gzip,
    /// Invalid; the code of the first error.
    Invalid(&'static str),
}

impl Reference {
    /// Whether disagreeing with it is a conformance failure (not
    /// implementation-defined).
    pub fn is_normative(&self) -> bool {
        matches!(self, Reference::Valid | Reference::Invalid(_))
    }
    /// Human text.
    pub fn text(&self) -> String {
        match self {
            Reference::Valid => "valid".into(),
            Reference::Warned(w) => format!("valid, warns {}", w.join(" ")),
            Reference::Gzip => "valid inside gzip".into(),
            Reference::Invalid(c) => {
                let name = Rule::find(c).map_or("", |r| r.name());
                format!("invalid: {c} {name}")
            }
        }
    }
}

/// The reference's judgement and, when valid, the content.
pub fn reference(bytes: &[u8]) -> (Reference, Option<Content>) {
    let opts = idx::Options::default()
        .with_decompress(true)
        .with_max_decompressed(Some(MAX_DECOMPRESSED));
    let report = idx::validate_with(bytes, &opts);
    if let Some(f) = report
        .findings
        .iter()
        .find(|f| f.severity() == Severity::Error && f.rule != idx::Rule::LikelyLittleEndian)
    {
        return (Reference::Invalid(f.rule.code()), None);
    }
    let gz = report.compression.is_some();
    let plain = if gz {
        gunzip(bytes)
    } else {
        Some(bytes.to_vec())
    };
    let content = plain
        .as_deref()
        .and_then(|p| idx::parse(p).ok())
        .map(|v| Content::of(&v.array()));
    if gz {
        return (Reference::Gzip, content);
    }
    let mut warned: Vec<&'static str> = report
        .findings
        .iter()
        // a readable file whose payload is (certainly) little-endian is
        // warned about: readers decode it as it is
        .filter(|f| f.severity() == Severity::Warning || f.rule == idx::Rule::LikelyLittleEndian)
        .map(|f| f.rule.code())
        .collect();
    warned.sort_unstable();
    warned.dedup();
    if warned.is_empty() {
        (Reference::Valid, content)
    } else {
        (Reference::Warned(warned), content)
    }
}

/// What an implementation did, as far as the classes care.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Did {
    /// Accepted with the reference's content (agreement, unless the
    /// reference rejects).
    AcceptedSame,
    /// Accepted an input the reference rejects (or has no content for).
    Accepted,
    /// Accepted a valid input with every element byte-swapped.
    AcceptedLittleEndian,
    /// Accepted with other content.
    WrongContent,
    /// Rejected (an error document).
    Rejected,
    /// Crashed: not the protocol, a signal, the memory limit.
    Crash,
    /// No answer by the deadline.
    Timeout,
}

impl Did {
    /// The word in reports.
    pub fn as_str(self) -> &'static str {
        match self {
            Did::AcceptedSame => "accepted (same content)",
            Did::Accepted => "accepted",
            Did::AcceptedLittleEndian => "accepted, elements byte-swapped",
            Did::WrongContent => "accepted, other content",
            Did::Rejected => "rejected",
            Did::Crash => "crash",
            Did::Timeout => "timeout",
        }
    }

    /// Crash for timeout and timeout for crash: which of the two a reader
    /// that allocates what a header declares shows depends on the machine's
    /// speed and load (see [`new_classes`]).
    pub fn twin(self) -> Option<Did> {
        match self {
            Did::Crash => Some(Did::Timeout),
            Did::Timeout => Some(Did::Crash),
            _ => None,
        }
    }
}

/// Classifies an implementation's answer against the reference's. `None`
/// when they agree.
pub fn did(
    reference: &Reference,
    expected: Option<&Content>,
    answer: &Answer,
) -> Option<(Did, String)> {
    let d = match answer {
        Answer::Accepted(c) => match (reference, expected) {
            (Reference::Invalid(_), _) => (Did::Accepted, runner::describe(c)),
            (_, Some(e)) => match runner::compare(e, c) {
                Ok(()) => (Did::AcceptedSame, String::new()),
                Err(m) if m.byte_swapped => (Did::AcceptedLittleEndian, m.detail),
                Err(m) => (Did::WrongContent, m.detail),
            },
            (_, None) => (Did::Accepted, runner::describe(c)),
        },
        Answer::Rejected(m) => (Did::Rejected, m.clone()),
        Answer::Crash(why) => (Did::Crash, why.clone()),
        Answer::Timeout => (
            Did::Timeout,
            format!(
                "no answer by the deadline, nor by {} times the deadline when run again",
                runner::RETRY_FACTOR
            ),
        ),
        Answer::Wrote(_) => (Did::Crash, "a reader wrote bytes".into()),
    };
    let agrees = match reference {
        Reference::Invalid(_) => d.0 == Did::Rejected,
        _ => d.0 == Did::AcceptedSame,
    };
    (!agrees).then_some(d)
}

// ---------------------------------------------------------------------------
// Classes

/// A disagreement class's key.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ClassKey {
    /// The implementation.
    pub implementation: String,
    /// What the reference found.
    pub reference: Reference,
    /// What the implementation did.
    pub did: Did,
}

/// One disagreement class.
#[derive(Debug, Clone)]
pub struct Class {
    /// Implementation x reference x what it did.
    pub key: ClassKey,
    /// Inputs in the class.
    pub count: usize,
    /// The lowest input index in the class (the one minimised).
    pub first: u64,
    /// The minimised reproducer.
    pub reproducer: Vec<u8>,
    /// What the implementation said on the reproducer.
    pub detail: String,
    /// The mutations that made the first input.
    pub mutations: Vec<&'static str>,
    /// Corpus cases in the same class (the run of the unmutated corpus).
    pub explained_by: Vec<String>,
    /// Set when no corpus case is in the class but some are in its twin
    /// (crash for timeout, timeout for crash, see [`Did::twin`]): what they
    /// did. `explained_by` then lists those.
    pub explained_as: Option<Did>,
}

/// A differential run's result.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// The seed.
    pub seed: u64,
    /// Mutated inputs run.
    pub inputs: usize,
    /// Inputs on which every implementation agreed with the reference.
    pub agreed: usize,
    /// The classes, in key order.
    pub classes: Vec<Class>,
    /// Wall time.
    pub elapsed: Duration,
    /// Corpus cases run unmutated first (per implementation).
    pub corpus_cases: usize,
}

/// A temporary file per worker, named `.idx` or `.idx.gz` by content (some
/// readers decide on decompression by name).
struct Scratch {
    dir: PathBuf,
    worker: usize,
}

impl Scratch {
    fn write(&self, bytes: &[u8]) -> std::io::Result<PathBuf> {
        let ext = if idx::is_gzip(bytes) { "idx.gz" } else { "idx" };
        let p = self.dir.join(format!("input-{}.{ext}", self.worker));
        std::fs::write(&p, bytes)?;
        Ok(p)
    }
}

fn run_input(
    sessions: &mut [Session],
    names: &[String],
    scratch: &Scratch,
    bytes: &[u8],
) -> Result<Vec<(ClassKey, String)>, String> {
    let (r, content) = reference(bytes);
    let path = scratch
        .write(bytes)
        .map_err(|e| format!("scratch file: {e}"))?;
    let mut out = Vec::new();
    for (s, name) in sessions.iter_mut().zip(names) {
        let a = s.read(&path);
        if let Some((d, detail)) = did(&r, content.as_ref(), &a.answer) {
            out.push((
                ClassKey {
                    implementation: name.clone(),
                    reference: r.clone(),
                    did: d,
                },
                detail,
            ));
        }
    }
    Ok(out)
}

/// Delta debugging (ddmin, Zeller and Hildebrandt) on bytes: a smallest
/// input found within `max_runs` runs that still falls in `key`.
fn minimise(
    bytes: &[u8],
    key: &ClassKey,
    session: &mut Session,
    scratch: &Scratch,
    max_runs: usize,
) -> (Vec<u8>, String) {
    let mut runs = 0;
    let mut test = |candidate: &[u8], runs: &mut usize| -> Option<String> {
        *runs += 1;
        let (r, content) = reference(candidate);
        if r != key.reference {
            return None;
        }
        let path = scratch.write(candidate).ok()?;
        let a = session.read(&path);
        match did(&r, content.as_ref(), &a.answer) {
            Some((d, detail)) if d == key.did => Some(detail),
            _ => None,
        }
    };
    let mut best = bytes.to_vec();
    let mut detail = match test(&best, &mut runs) {
        Some(d) => d,
        // not reproducible (flaky implementation): keep the input as is
        None => return (best, "not reproduced when run again".into()),
    };
    // Chunks of halving size; each sweep removes every chunk it can, in
    // place, before the chunk shrinks (restarting from the front after each
    // removal, as plain ddmin does, spends the run budget on the header).
    let mut chunk = best.len().div_ceil(2).max(1);
    while best.len() >= 2 && runs < max_runs {
        let mut reduced = false;
        let mut a = 0;
        while a < best.len() && runs < max_runs {
            let b = (a + chunk).min(best.len());
            let mut c = best[..a].to_vec();
            c.extend_from_slice(&best[b..]);
            if let Some(d) = test(&c, &mut runs) {
                // the next chunk has moved to `a`
                best = c;
                detail = d;
                reduced = true;
            } else {
                a = b;
            }
        }
        if !reduced {
            if chunk == 1 {
                break;
            }
            chunk = chunk.div_ceil(2);
        }
    }
    (best, detail)
}

/// Runs the corpus unmutated, then `budget` mutated inputs.
///
/// # Errors
/// A message if the scratch folder cannot be made or written.
pub fn run(cases: &[Case], cfg: &Config) -> Result<Outcome, String> {
    let t0 = Instant::now();
    let seeds: Vec<&Case> = cases
        .iter()
        .filter(|c| c.options.is_empty() && c.bytes.len() <= MAX_SEED_LEN)
        .collect();
    if seeds.is_empty() || cfg.implementations.is_empty() {
        return Err("nothing to run: no seed cases or no implementations".into());
    }
    let temp = tempfile::Builder::new()
        .prefix("idx-differential-")
        .tempdir()
        .map_err(|e| format!("cannot create a scratch folder: {e}"))?;
    let names: Vec<String> = cfg.implementations.iter().map(|i| i.name.clone()).collect();
    let jobs = cfg.jobs.max(1);
    let new_sessions = || -> Vec<Session> {
        cfg.implementations
            .iter()
            .map(|i| Session::new(i.adapter.clone(), Mode::Reader))
            .collect()
    };

    // 1. the corpus, unmutated: which classes the corpus already shows
    let explained: Mutex<BTreeMap<ClassKey, Vec<String>>> = Mutex::new(BTreeMap::new());
    let next = AtomicUsize::new(0);
    let failure: Mutex<Option<String>> = Mutex::new(None);
    std::thread::scope(|s| {
        for w in 0..jobs {
            let (explained, next, failure, names, seeds) =
                (&explained, &next, &failure, &names, &seeds);
            let scratch = Scratch {
                dir: temp.path().to_path_buf(),
                worker: w,
            };
            let mut sessions = new_sessions();
            s.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(c) = seeds.get(i) else { break };
                match run_input(&mut sessions, names, &scratch, &c.bytes) {
                    Ok(found) => {
                        let mut e = explained.lock().unwrap_or_else(|p| p.into_inner());
                        for (k, _) in found {
                            e.entry(k).or_default().push(c.id.clone());
                        }
                    }
                    Err(m) => {
                        *failure.lock().unwrap_or_else(|p| p.into_inner()) = Some(m);
                        break;
                    }
                }
            });
        }
    });
    if let Some(m) = failure.into_inner().unwrap_or_else(|p| p.into_inner()) {
        return Err(m);
    }
    let explained = explained.into_inner().unwrap_or_else(|p| p.into_inner());

    // 2. mutated inputs
    let deadline = cfg.budget.time.map(|t| Instant::now() + t);
    let limit = cfg.budget.cases.unwrap_or(usize::MAX);
    let next = AtomicUsize::new(0);
    // class -> (count, lowest index, the bytes and mutations of its
    // shortest input (the lowest index among equals): the best start for
    // minimising, whatever order the threads finish in)
    type Seen = BTreeMap<ClassKey, (usize, u64, Vec<u8>, Vec<&'static str>, u64)>;
    let seen: Mutex<Seen> = Mutex::new(BTreeMap::new());
    let done = AtomicUsize::new(0);
    let agreed = AtomicUsize::new(0);
    let failure: Mutex<Option<String>> = Mutex::new(None);
    std::thread::scope(|s| {
        for w in 0..jobs {
            let (seen, next, done, agreed, failure, names, seeds) =
                (&seen, &next, &done, &agreed, &failure, &names, &seeds);
            let scratch = Scratch {
                dir: temp.path().to_path_buf(),
                worker: w,
            };
            let mut sessions = new_sessions();
            s.spawn(move || loop {
                if deadline.is_some_and(|d| Instant::now() >= d) {
                    break;
                }
                let i = next.fetch_add(1, Ordering::SeqCst);
                if i >= limit {
                    break;
                }
                let (bytes, muts) = input(seeds, cfg.seed, i as u64);
                match run_input(&mut sessions, names, &scratch, &bytes) {
                    Ok(found) => {
                        if found.is_empty() {
                            agreed.fetch_add(1, Ordering::SeqCst);
                        }
                        let mut m = seen.lock().unwrap_or_else(|p| p.into_inner());
                        for (k, _) in found {
                            let e = m.entry(k).or_insert((
                                0,
                                u64::MAX,
                                Vec::new(),
                                Vec::new(),
                                u64::MAX,
                            ));
                            e.0 += 1;
                            e.1 = e.1.min(i as u64);
                            if (bytes.len(), i as u64) < (e.2.len(), e.4) || e.4 == u64::MAX {
                                e.2 = bytes.clone();
                                e.3 = muts.clone();
                                e.4 = i as u64;
                            }
                        }
                        done.fetch_add(1, Ordering::SeqCst);
                    }
                    Err(m) => {
                        *failure.lock().unwrap_or_else(|p| p.into_inner()) = Some(m);
                        break;
                    }
                }
            });
        }
    });
    if let Some(m) = failure.into_inner().unwrap_or_else(|p| p.into_inner()) {
        return Err(m);
    }
    let seen = seen.into_inner().unwrap_or_else(|p| p.into_inner());

    // 3. minimise one reproducer per class, in parallel over classes
    let work: Vec<_> = seen.into_iter().collect();
    let results: Mutex<Vec<Class>> = Mutex::new(Vec::new());
    let next = AtomicUsize::new(0);
    std::thread::scope(|s| {
        for w in 0..jobs {
            let (work, next, results, explained, names) =
                (&work, &next, &results, &explained, &names);
            let scratch = Scratch {
                dir: temp.path().to_path_buf(),
                worker: w,
            };
            let mut sessions = new_sessions();
            s.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some((key, (count, first, bytes, muts, _))) = work.get(i) else {
                    break;
                };
                let Some(k) = names.iter().position(|n| *n == key.implementation) else {
                    continue;
                };
                let (reproducer, detail) =
                    minimise(bytes, key, &mut sessions[k], &scratch, cfg.minimise_runs);
                let twin = key.did.twin().and_then(|d| {
                    let k = ClassKey {
                        did: d,
                        ..key.clone()
                    };
                    explained.get(&k).map(|v| (v.clone(), d))
                });
                let (explained_by, explained_as) = match (explained.get(key), twin) {
                    (Some(v), _) => (v.clone(), None),
                    (None, Some((v, d))) => (v, Some(d)),
                    (None, None) => (Vec::new(), None),
                };
                results
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .push(Class {
                        key: key.clone(),
                        count: *count,
                        first: *first,
                        reproducer,
                        detail,
                        mutations: muts.clone(),
                        explained_by,
                        explained_as,
                    });
            });
        }
    });
    let mut classes = results.into_inner().unwrap_or_else(|p| p.into_inner());
    classes.sort_by(|a, b| a.key.cmp(&b.key));
    Ok(Outcome {
        seed: cfg.seed,
        inputs: done.into_inner(),
        agreed: agreed.into_inner(),
        classes,
        elapsed: t0.elapsed(),
        corpus_cases: seeds.len(),
    })
}

// ---------------------------------------------------------------------------
// The report

/// Spaced hex, `cut` bytes at most.
pub fn hex(b: &[u8], cut: usize) -> String {
    let mut s: Vec<String> = b.iter().take(cut).map(|x| format!("{x:02x}")).collect();
    if b.len() > cut {
        s.push(format!("… ({} bytes)", b.len()));
    }
    s.join(" ")
}

/// The key of a class as one line (also what `--check` compares).
pub fn key_line(k: &ClassKey) -> String {
    format!(
        "{} | {} | {}",
        k.implementation,
        k.reference.text(),
        k.did.as_str()
    )
}

/// The Markdown report.
pub fn render(o: &Outcome, cfg: &Config, versions: &[(String, String)]) -> String {
    let mut s = String::new();
    s.push_str("# Differential fuzzing of IDX readers\n\n");
    s.push_str(
        "Generated by `idx-conformance differential` (see `corpus/README.md`); do not edit.\n\
         Each input is a corpus file mutated by structure (header fields, type codes, rank,\n\
         dimensions around 0, 1, 2^31, 2^32 - 1 and products that overflow or wrap,\n\
         truncation, appended bytes, byte flips, gzip wrapping), judged by the reference\n\
         (the `idx` library's validator) and read by each implementation. A *class* is\n\
         implementation x what the reference found x what the implementation did; its\n\
         reproducer is the first input of the class, minimised by delta debugging.\n\n",
    );
    let budget = match (cfg.budget.cases, cfg.budget.time) {
        (Some(n), Some(t)) => format!("{n} inputs or {} s", t.as_secs()),
        (Some(n), None) => format!("{n} inputs"),
        (None, Some(t)) => format!("{} s", t.as_secs()),
        (None, None) => "unbounded".into(),
    };
    s.push_str(&format!(
        "Seed {}, budget {budget}: {} mutated inputs ({} on which every implementation agreed with the reference), after the {} corpus cases unmutated; {} jobs; {:.0} s.\n\n",
        o.seed,
        o.inputs,
        o.agreed,
        o.corpus_cases,
        cfg.jobs,
        o.elapsed.as_secs_f64()
    ));
    s.push_str("| implementation | version | timeout | memory |\n|---|---|---|---|\n");
    for i in &cfg.implementations {
        let v = versions
            .iter()
            .find(|(n, _)| *n == i.name)
            .map_or("", |(_, v)| v.as_str());
        s.push_str(&format!(
            "| {} | {} | {} s | {} |\n",
            i.name,
            v,
            i.adapter.timeout.as_secs_f64(),
            i.adapter
                .memory_mib
                .map_or("none".into(), |m| format!("{m} MiB"))
        ));
    }
    let unexplained = o
        .classes
        .iter()
        .filter(|c| c.explained_by.is_empty())
        .count();
    let normative_unexplained = o
        .classes
        .iter()
        .filter(|c| c.explained_by.is_empty() && c.key.reference.is_normative())
        .count();
    s.push_str(&format!(
        "\n## Classes\n\n{} classes; {} not shown by any corpus case ({} of them normative). Normative classes are\n\
         conformance failures; implementation-defined ones (the reference warns, or the\n\
         input is gzip) are recorded. A crash class is shown by a corpus case on which the\n\
         reader crashes or, marked \"timeout there\", times out, and a timeout class the other\n\
         way round: which of the two a reader that allocates what a header declares shows\n\
         depends on the machine's speed and load.\n\n",
        o.classes.len(),
        unexplained,
        normative_unexplained
    ));
    s.push_str("| implementation | reference | implementation did | inputs | kind | corpus cases in the class |\n|---|---|---|---|---|---|\n");
    for c in &o.classes {
        let kind = if c.key.reference.is_normative() {
            "normative"
        } else {
            "implementation-defined"
        };
        let by = if c.explained_by.is_empty() {
            "**none**".to_string()
        } else {
            let mut v: Vec<String> = c
                .explained_by
                .iter()
                .take(3)
                .map(|i| format!("`{i}`"))
                .collect();
            if c.explained_by.len() > 3 {
                v.push(format!("and {} more", c.explained_by.len() - 3));
            }
            if let Some(d) = c.explained_as {
                // the twin class: the same input can end either way
                v.push(format!("({} there)", d.as_str()));
            }
            v.join(", ")
        };
        s.push_str(&format!(
            "| {} | {} | {} | {} | {kind} | {by} |\n",
            c.key.implementation,
            c.key.reference.text(),
            c.key.did.as_str(),
            c.count
        ));
    }
    s.push_str("\n## Reproducers\n\n");
    for c in &o.classes {
        s.push_str(&format!(
            "### {}\n\n- input {} (mutations: {}), minimised to {} bytes: `{}`\n- {}: {}\n\n",
            key_line(&c.key),
            c.first,
            c.mutations.join(", "),
            c.reproducer.len(),
            hex(&c.reproducer, 64),
            c.key.implementation,
            crate::process::cut(&c.detail.replace('|', "/").replace('\n', " "), 200)
        ));
    }
    s
}

/// The class lines of a committed report (`### ` headings).
pub fn report_keys(md: &str) -> Vec<String> {
    md.lines()
        .filter_map(|l| l.strip_prefix("### "))
        .map(str::to_string)
        .collect()
}

/// Classes found that `committed` (a report) does not list: their key
/// lines, and whether each is normative.
/// A crash and a timeout count as the same for this comparison: which one a
/// reader that allocates what a header declares shows depends on the
/// machine's speed and load (it runs out of memory within the deadline on
/// one machine and not on another). A deadline that passes only because the
/// machine is loaded is no class at all: the [`Session`] runs a timed-out
/// input again with [`runner::RETRY_FACTOR`] times the deadline.
pub fn new_classes(o: &Outcome, committed: &str) -> Vec<(String, bool)> {
    let same = |line: &str| line.replace(Did::Timeout.as_str(), Did::Crash.as_str());
    let known: Vec<String> = report_keys(committed).iter().map(|k| same(k)).collect();
    o.classes
        .iter()
        .map(|c| (key_line(&c.key), c.key.reference.is_normative()))
        .filter(|(k, _)| !known.contains(&same(k)))
        .collect()
}
