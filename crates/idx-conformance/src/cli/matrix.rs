//! `matrix`: every described implementation, the merged saved results,
//! and the matrix, page, picture and reports written from them.

use super::{write_output, CliError};
use clap::Args;
use idx_conformance::runner;
use idx_conformance::{cases, corpus, matrix};
use idx_io::ExitStatus;
use std::path::PathBuf;

/// Run every described implementation (or some), merge saved results,
/// write `corpus/MATRIX.md`.
#[derive(Args)]
pub(crate) struct MatrixArgs {
    /// The folder of description files (`<name>.toml`) and adapters.
    #[arg(long, default_value_os_t = idx_conformance::adapters_dir())]
    adapters: PathBuf,
    /// The folder holding each implementation's environment (`{env}` is
    /// `<envs>/<name>`).
    #[arg(long, default_value_os_t = idx_conformance::default_corpus().join("../target/conformance-envs"))]
    envs: PathBuf,
    /// A corpus folder to check against the recipes before the runs (as
    /// for test-reader); the inputs are written from the recipes either way.
    #[arg(long)]
    corpus: Option<PathBuf>,
    /// The seed of the runs: the order of the cases, the request IDs and
    /// each case's variant (default: a fresh one, printed first).
    #[arg(long)]
    seed: Option<u64>,
    /// Give each case its committed bytes instead of a variant drawn from
    /// the seed (as for test-reader).
    #[arg(long)]
    no_variants: bool,
    /// Run each description's install commands first.
    #[arg(long)]
    install: bool,
    /// Only these implementations (repeatable; default: every one with
    /// `ci = true`).
    #[arg(long = "only", value_name = "NAME")]
    only: Vec<String>,
    /// Run persistent-capable adapters one process per case.
    #[arg(long)]
    one_shot: bool,
    /// Write each run's JSON results here as `<name>-<mode>.json`.
    #[arg(long, value_name = "DIR")]
    results: Option<PathBuf>,
    /// Merge saved JSON results (repeatable), e.g. for implementations too
    /// heavy for CI.
    #[arg(long = "merge", value_name = "FILE")]
    merge: Vec<PathBuf>,
    /// Where to write the Markdown (nothing written when absent).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Also write the matrix as a self-contained HTML page (every case a
    /// row, every implementation a column, a colour per status, filters;
    /// e.g. corpus/matrix.html).
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
    /// Also write a PNG of the whole grid (e.g. corpus/matrix.png).
    #[arg(long, value_name = "FILE")]
    png: Option<PathBuf>,
    /// Write `<name>.md` here for every third-party implementation with
    /// failures (one section per failure class; e.g. corpus/reports), and
    /// remove the report of a run implementation that has none.
    #[arg(long, value_name = "DIR")]
    reports: Option<PathBuf>,
    /// Run nothing: render only the results given with --merge.
    #[arg(long, conflicts_with_all = ["install", "only", "check", "write_expected"])]
    no_run: bool,
    /// Exit 1 when a result differs from the implementation's committed
    /// expected failures (a new failure, or a listed case that passed).
    #[arg(long)]
    check: bool,
    /// Rewrite the expected-failures files from these results.
    #[arg(long)]
    write_expected: bool,
}

/// Runs the selected implementations, merges saved results and writes
/// what was asked: the failure verdict when `--check` finds a result that
/// differs from the committed expected failures.
///
/// # Errors
/// The descriptions, the corpus or a merged results file cannot be read,
/// an implementation is unknown, cannot be installed or cannot handle the
/// simplest case, an output cannot be written.
pub(crate) fn matrix_command(m: MatrixArgs) -> Result<ExitStatus, CliError> {
    let exe = std::env::current_exe().unwrap_or_else(|_| PathBuf::from("idx-conformance"));
    let places = matrix::Places {
        adapters: std::fs::canonicalize(&m.adapters).unwrap_or(m.adapters.clone()),
        envs: std::path::absolute(&m.envs).unwrap_or(m.envs.clone()),
        bin: exe.parent().map(PathBuf::from).unwrap_or_default(),
    };
    let descriptions = matrix::load_descriptions(&places.adapters)?;
    for n in &m.only {
        if !descriptions.iter().any(|d| &d.name == n) {
            return Err(CliError::from(format!(
                "no description file for {n:?} in {}",
                idx_io::escape::path(&places.adapters)
            )));
        }
    }
    let selected: Vec<&matrix::Description> = descriptions
        .iter()
        .filter(|d| {
            if m.no_run {
                false
            } else if m.only.is_empty() {
                d.ci
            } else {
                m.only.contains(&d.name)
            }
        })
        .collect();
    let cases = cases::all();
    if let Some(root) = &m.corpus {
        corpus::verify(root, &cases)?;
    }
    let seed = m.seed.unwrap_or_else(runner::random::fresh_seed);
    if !selected.is_empty() {
        println!("seed {seed} (`--seed {seed}` runs the same inputs in the same order again)");
    }
    let mut reports = Vec::new();
    let mut changes = Vec::new();
    for d in &selected {
        if m.install {
            eprintln!("== install {}", d.name);
            matrix::install(d, &places)?;
        }
        let t = std::time::Instant::now();
        let rs = matrix::run_implementation(&cases, d, &places, m.one_shot, seed, !m.no_variants)?;
        for r in &rs {
            let c = matrix::changes(r);
            println!(
                "{} {} ({}{}): {}",
                r.name,
                r.mode.as_str(),
                r.version,
                if r.persistent { ", persistent" } else { "" },
                r.render_human().lines().last().unwrap_or("")
            );
            for x in &c {
                println!("  CHANGED {x}");
            }
            changes.extend(c);
            if let Some(dir) = &m.results {
                let p = dir.join(format!("{}-{}.json", r.name, r.mode.as_str()));
                std::fs::create_dir_all(dir)
                    .map_err(|e| format!("{}: {e}", idx_io::escape::path(&p)))?;
                let mut v = r.to_json();
                corpus::stamp(&mut v, &cases);
                write_output(&p, format!("{v:#}\n").as_bytes())?;
            }
            if m.write_expected {
                if let Some(f) = d.side(r.mode).and_then(|s| s.expected_failures.as_ref()) {
                    let p = places.adapters.join(f);
                    let text = matrix::expected_failures_text(r, "`matrix --write-expected`");
                    write_output(&p, text.as_bytes())?;
                }
            }
        }
        println!("  ({} in {:.1} s)", d.name, t.elapsed().as_secs_f64());
        reports.extend(rs);
    }
    let mut merge = m.merge.clone();
    if m.only.is_empty() && !m.no_run {
        for d in descriptions.iter().filter(|d| !d.ci) {
            merge.extend(d.saved_results.iter().map(|f| places.adapters.join(f)));
        }
    }
    for p in &merge {
        let v: Result<serde_json::Value, String> = std::fs::read(p)
            .map_err(|e| e.to_string())
            .and_then(|b| serde_json::from_slice(&b).map_err(|e| e.to_string()));
        let mut stale = None;
        if let Ok(v) = &v {
            // saved results must be of this corpus (same cases, same bytes)
            // flagged, not failed: rerunning them needs a heavy install
            // outside CI (scripts/torchvision-matrix.sh)
            if let Err(why) = corpus::results_match(v, &cases) {
                println!("  STALE {}: {why}", idx_io::escape::path(p));
                stale = Some(why);
            }
        }
        let mut r = v
            .and_then(|v| runner::Report::from_json(&v))
            .map_err(|e| format!("{}: {e}", idx_io::escape::path(p)))?;
        if let Some(why) = stale {
            // the page and the reports mark the column
            r.notes
                .push(format!("{}{why}", idx_conformance::page::STALE));
        }
        reports.push(r);
    }
    if let Some(out) = &m.out {
        let md = matrix::render(&cases, &reports, &descriptions);
        write_output(out, md.as_bytes())?;
        println!("wrote {}", idx_io::escape::path(out));
    }
    if let Some(out) = &m.html {
        let html = idx_conformance::page::render_html(&cases, &reports);
        write_output(out, html.as_bytes())?;
        println!("wrote {}", idx_io::escape::path(out));
    }
    if let Some(out) = &m.png {
        let png = idx_conformance::picture::render_png(&cases, &reports)
            .map_err(|e| format!("{}: {e}", idx_io::escape::path(out)))?;
        write_output(out, &png)?;
        println!("wrote {}", idx_io::escape::path(out));
    }
    if let Some(dir) = &m.reports {
        write_reports(dir, &cases, &reports)?;
    }
    if m.check && !changes.is_empty() {
        eprintln!(
            "{} result(s) differ from the committed expected failures (see CHANGED above)",
            changes.len()
        );
        return Ok(ExitStatus::Failure);
    }
    Ok(ExitStatus::Success)
}

/// Writes the reports of `reports` under `dir` (created if missing) and
/// removes those of run implementations that have no failures left.
///
/// # Errors
/// A message naming the folder or the file.
fn write_reports(
    dir: &std::path::Path,
    cases: &[cases::Case],
    reports: &[runner::Report],
) -> Result<(), CliError> {
    let in_dir = |e: std::io::Error| format!("{}: {e}", idx_io::escape::path(dir));
    std::fs::create_dir_all(dir).map_err(in_dir)?;
    let written = idx_conformance::reports::all(cases, reports);
    for (name, md) in &written {
        let p = dir.join(format!("{name}.md"));
        write_output(&p, md.as_bytes())?;
        println!("wrote {}", idx_io::escape::path(&p));
    }
    for r in reports {
        if r.name != "reference" && !written.iter().any(|(n, _)| *n == r.name) {
            let p = dir.join(format!("{}.md", r.name));
            if p.is_file() {
                std::fs::remove_file(&p).map_err(in_dir)?;
                println!("removed {} (no failures)", idx_io::escape::path(&p));
            }
        }
    }
    Ok(())
}
