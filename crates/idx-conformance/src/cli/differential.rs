//! `differential`: differential fuzzing of the described readers.

use super::{write_output, CliError};
use clap::Args;
use idx_conformance::runner;
use idx_conformance::{cases, differential, matrix};
use idx_io::ExitStatus;
use std::path::PathBuf;

/// Differential fuzzing of the described readers (see `corpus/README.md`).
#[derive(Args)]
pub(crate) struct DiffArgs {
    /// The seed: the same seed and case budget give the same inputs.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Run at most this many mutated inputs.
    #[arg(long)]
    cases: Option<usize>,
    /// Stop starting new inputs after this many seconds (the classes found
    /// are then minimised).
    #[arg(long)]
    seconds: Option<f64>,
    /// Worker threads, each with its own adapter processes.
    #[arg(short = 'j', long, default_value_t = 1)]
    jobs: usize,
    /// Readers to run, by description name (repeatable; default: every one
    /// with `ci = true` except the reference, which runs in process).
    #[arg(long = "only", value_name = "NAME")]
    only: Vec<String>,
    /// The folder of description files and adapters.
    #[arg(long, default_value_os_t = idx_conformance::adapters_dir())]
    adapters: PathBuf,
    /// The folder of the implementations' environments (as for `matrix`).
    #[arg(long, default_value_os_t = idx_conformance::default_corpus().join("../target/conformance-envs"))]
    envs: PathBuf,
    /// Run persistent-capable adapters one process per input.
    #[arg(long)]
    one_shot: bool,
    /// Per-input deadline in seconds (default: each description's timeout).
    #[arg(long)]
    timeout: Option<f64>,
    /// At most this many runs to minimise one class's reproducer.
    #[arg(long, default_value_t = 300)]
    minimise_runs: usize,
    /// Write the Markdown report here (e.g. corpus/DIFFERENTIAL.md).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Exit 1 if a normative class is found that this committed report does
    /// not list (new implementation-defined classes are only noted).
    #[arg(long, value_name = "REPORT")]
    check: Option<PathBuf>,
}

/// Runs the differential fuzzer and prints its classes (and writes the
/// report with `--out`): the failure verdict when `--check` finds a
/// normative class the committed report does not list.
///
/// # Errors
/// The descriptions or the report to check cannot be read, a reader is
/// unknown, no budget is given, the run or the report's writing fails.
pub(crate) fn differential_command(a: DiffArgs) -> Result<ExitStatus, CliError> {
    let exe = std::env::current_exe().unwrap_or_else(|_| PathBuf::from("idx-conformance"));
    let places = matrix::Places {
        adapters: std::fs::canonicalize(&a.adapters).unwrap_or(a.adapters.clone()),
        envs: std::path::absolute(&a.envs).unwrap_or(a.envs.clone()),
        bin: exe.parent().map(PathBuf::from).unwrap_or_default(),
    };
    let descriptions = matrix::load_descriptions(&places.adapters)?;
    for n in &a.only {
        if !descriptions
            .iter()
            .any(|d| &d.name == n && d.reader.is_some())
        {
            return Err(CliError::from(format!(
                "no description file with a reader for {n:?} in {}",
                idx_io::escape::path(&places.adapters)
            )));
        }
    }
    let mut impls = Vec::new();
    let mut versions = Vec::new();
    for d in &descriptions {
        let chosen = if a.only.is_empty() {
            d.ci && d.name != "reference"
        } else {
            a.only.contains(&d.name)
        };
        let Some(side) = d.reader.as_ref().filter(|_| chosen) else {
            continue;
        };
        let (command, persistent) = match (&side.persistent, a.one_shot) {
            (Some(p), false) => (places.expand(&d.name, p), true),
            _ => (places.expand(&d.name, &side.command), false),
        };
        let timeout = a.timeout.or(d.timeout).unwrap_or(10.0).max(0.001);
        impls.push(differential::Implementation {
            name: d.name.clone(),
            adapter: runner::Adapter {
                command,
                persistent,
                timeout: runner::deadline(timeout),
                memory_mib: Some(d.memory_mib.unwrap_or(4096)),
                startup: runner::STARTUP_MIN,
            },
        });
        versions.push((d.name.clone(), matrix::probe_version(d, &places)));
    }
    let cfg = differential::Config {
        seed: a.seed,
        budget: differential::Budget {
            cases: a.cases,
            time: a.seconds.map(runner::seconds),
        },
        jobs: a.jobs.max(1),
        implementations: impls,
        minimise_runs: a.minimise_runs,
    };
    if cfg.budget.cases.is_none() && cfg.budget.time.is_none() {
        return Err(CliError::from(
            "give a budget: --cases N and/or --seconds S",
        ));
    }
    let committed = match &a.check {
        Some(p) => Some(
            std::fs::read_to_string(p).map_err(|e| format!("{}: {e}", idx_io::escape::path(p)))?,
        ),
        None => None,
    };
    let o = differential::run(&cases::all(), &cfg)?;
    for c in &o.classes {
        println!(
            "{:>6}  {}{}",
            c.count,
            differential::key_line(&c.key),
            if c.explained_by.is_empty() {
                "  (no corpus case)"
            } else {
                ""
            }
        );
    }
    println!(
        "{} mutated inputs in {:.1} s ({:.0} per second), {} agreed; {} classes",
        o.inputs,
        o.elapsed.as_secs_f64(),
        o.inputs as f64 / o.elapsed.as_secs_f64().max(0.001),
        o.agreed,
        o.classes.len()
    );
    if let Some(out) = &a.out {
        write_output(out, differential::render(&o, &cfg, &versions).as_bytes())?;
        println!("wrote {}", idx_io::escape::path(out));
    }
    if let Some(md) = committed {
        // a new normative class fails; a new implementation-defined one is
        // noted (inputs shift whenever the corpus gains a case)
        let new = differential::new_classes(&o, &md);
        for (n, normative) in &new {
            let what = if *normative {
                "new class"
            } else {
                "note: new implementation-defined class"
            };
            eprintln!("{what} (not in the committed report): {n}");
        }
        if new.iter().any(|(_, normative)| *normative) {
            eprintln!("regenerate the report (see corpus/README.md, Differential fuzzing) after checking it");
            return Ok(ExitStatus::Failure);
        }
    }
    Ok(ExitStatus::Success)
}
