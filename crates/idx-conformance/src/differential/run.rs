//! A differential run: the corpus unmutated, then the mutated inputs,
//! each through every implementation, into disagreement classes, each
//! with a minimised reproducer.

use super::minimise::minimise;
use super::scratch::Scratch;
use super::{did, input, reference, Config, Did, Reference, MAX_SEED_LEN};
use crate::cases::Case;
use crate::runner::{Mode, Session};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

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

/// One piece of a parallel phase: input `i` through a thread's sessions;
/// `Ok(false)` when there is no input `i` (no more work).
type Step<'a> = dyn Fn(usize, &mut [Session], &Scratch) -> Result<bool, String> + Sync + 'a;

/// Runs `step(i, sessions, scratch)` for i = 0, 1, 2, ... on `jobs`
/// threads, each with its own sessions (`new_sessions`) and scratch file
/// in `dir`, until every thread's step has said there is no more work
/// (`Ok(false)`). A thread whose step fails stops; the run then returns
/// that error (the last one, when several fail).
fn in_parallel(
    jobs: usize,
    dir: &std::path::Path,
    new_sessions: &dyn Fn() -> Vec<Session>,
    step: &Step<'_>,
) -> Result<(), String> {
    let next = AtomicUsize::new(0);
    let failure: Mutex<Option<String>> = Mutex::new(None);
    std::thread::scope(|s| {
        for w in 0..jobs {
            let (next, failure) = (&next, &failure);
            let scratch = Scratch {
                dir: dir.to_path_buf(),
                worker: w,
            };
            let mut sessions = new_sessions();
            s.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                match step(i, &mut sessions, &scratch) {
                    Ok(true) => {}
                    Ok(false) => break,
                    Err(m) => {
                        *failure.lock().unwrap_or_else(|p| p.into_inner()) = Some(m);
                        break;
                    }
                }
            });
        }
    });
    match failure.into_inner().unwrap_or_else(|p| p.into_inner()) {
        Some(m) => Err(m),
        None => Ok(()),
    }
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
    let pool = |step: &Step<'_>| in_parallel(jobs, temp.path(), &new_sessions, step);

    // 1. the corpus, unmutated: which classes the corpus already shows
    let explained: Mutex<BTreeMap<ClassKey, Vec<String>>> = Mutex::new(BTreeMap::new());
    pool(&|i, sessions, scratch| {
        let Some(c) = seeds.get(i) else {
            return Ok(false);
        };
        let found = run_input(sessions, &names, scratch, &c.bytes)?;
        let mut e = explained.lock().unwrap_or_else(|p| p.into_inner());
        for (k, _) in found {
            e.entry(k).or_default().push(c.id.clone());
        }
        Ok(true)
    })?;
    let explained = explained.into_inner().unwrap_or_else(|p| p.into_inner());

    // 2. mutated inputs
    let deadline = cfg.budget.time.map(|t| Instant::now() + t);
    let limit = cfg.budget.cases.unwrap_or(usize::MAX);
    // class -> (count, lowest index, the bytes and mutations of its
    // shortest input (the lowest index among equals): the best start for
    // minimising, whatever order the threads finish in)
    type Seen = BTreeMap<ClassKey, (usize, u64, Vec<u8>, Vec<&'static str>, u64)>;
    let seen: Mutex<Seen> = Mutex::new(BTreeMap::new());
    let done = AtomicUsize::new(0);
    let agreed = AtomicUsize::new(0);
    pool(&|i, sessions, scratch| {
        if deadline.is_some_and(|d| Instant::now() >= d) || i >= limit {
            return Ok(false);
        }
        let (bytes, muts) = input(&seeds, cfg.seed, i as u64);
        let found = run_input(sessions, &names, scratch, &bytes)?;
        if found.is_empty() {
            agreed.fetch_add(1, Ordering::SeqCst);
        }
        let mut m = seen.lock().unwrap_or_else(|p| p.into_inner());
        for (k, _) in found {
            let e = m
                .entry(k)
                .or_insert((0, u64::MAX, Vec::new(), Vec::new(), u64::MAX));
            e.0 += 1;
            e.1 = e.1.min(i as u64);
            if (bytes.len(), i as u64) < (e.2.len(), e.4) || e.4 == u64::MAX {
                e.2 = bytes.clone();
                e.3 = muts.clone();
                e.4 = i as u64;
            }
        }
        done.fetch_add(1, Ordering::SeqCst);
        Ok(true)
    })?;
    let seen = seen.into_inner().unwrap_or_else(|p| p.into_inner());

    // 3. minimise one reproducer per class, in parallel over classes
    let work: Vec<_> = seen.into_iter().collect();
    let results: Mutex<Vec<Class>> = Mutex::new(Vec::new());
    pool(&|i, sessions, scratch| {
        let Some((key, (count, first, bytes, muts, _))) = work.get(i) else {
            return Ok(false);
        };
        let Some(k) = names.iter().position(|n| *n == key.implementation) else {
            return Ok(true);
        };
        let (reproducer, detail) =
            minimise(bytes, key, &mut sessions[k], scratch, cfg.minimise_runs);
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
        Ok(true)
    })?;
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
