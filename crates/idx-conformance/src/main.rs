//! `idx-conformance`: generate and check the corpus, and test other
//! people's IDX readers and writers against it.

use clap::{Args, Parser, Subcommand, ValueEnum};
use idx_conformance::cases;
use idx_conformance::corpus;
use idx_conformance::differential;
use idx_conformance::matrix;
use idx_conformance::runner::{self, Adapter, Config, Mode};

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

#[derive(Parser)]
#[command(
    name = "idx-conformance",
    version,
    about = "The IDX conformance corpus and runner"
)]
struct Cli {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Differential fuzzing: mutate the corpus, run the reference and the
    /// selected readers on each input, report disagreement classes.
    Differential(DiffArgs),
    /// Write the corpus from its recipes (or, with --check, compare).
    Generate {
        /// The corpus folder.
        #[arg(long, default_value_os_t = idx_conformance::default_corpus())]
        corpus: PathBuf,
        /// Do not write; exit 1 if the committed corpus differs.
        #[arg(long)]
        check: bool,
        /// Also write the files of the on-demand cases (real-size MNIST
        /// files, too large to commit; git-ignored).
        #[arg(long, conflicts_with = "check")]
        large: bool,
    },
    /// Run a reader: `CMD ARGS... FILE` prints the content as JSON and exits
    /// 0, or exits 1 to reject.
    TestReader(RunArgs),
    /// Run a writer: `CMD ARGS...` reads content JSON on stdin and writes IDX
    /// to stdout.
    TestWriter(RunArgs),
    /// Run every shipped adapter and write the matrix.
    Matrix(MatrixArgs),
}

/// Differential fuzzing of the described readers (see `corpus/README.md`).
#[derive(Args)]
struct DiffArgs {
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

/// Run every described implementation (or some), merge saved results,
/// write `corpus/MATRIX.md`.
#[derive(Args)]
struct MatrixArgs {
    /// The folder of description files (`<name>.toml`) and adapters.
    #[arg(long, default_value_os_t = idx_conformance::adapters_dir())]
    adapters: PathBuf,
    /// The folder holding each implementation's environment (`{env}` is
    /// `<envs>/<name>`).
    #[arg(long, default_value_os_t = idx_conformance::default_corpus().join("../target/conformance-envs"))]
    envs: PathBuf,
    /// A corpus folder to run, checked against the recipes first (as for
    /// test-reader); default: generated into a temporary folder.
    #[arg(long)]
    corpus: Option<PathBuf>,
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

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Human,
    Json,
}

#[derive(Args)]
struct RunArgs {
    /// A corpus folder to run. Every case file is first checked against the
    /// SHA-256 of the recipes compiled into this binary; the run stops with
    /// exit 2 at the first missing or different file. Without --corpus the
    /// corpus is generated from those recipes into a temporary folder
    /// (removed afterwards), so an installed binary needs no source tree.
    #[arg(long)]
    corpus: Option<PathBuf>,
    /// Also run the on-demand cases (real-size MNIST files, tens of MB).
    #[arg(long)]
    large: bool,
    /// Per-case time limit in seconds, the preflight case's included: an
    /// input with no answer by then is run once more with 3 times the limit
    /// before it counts as a timeout. A persistent adapter's start-up (its
    /// ready line) has the larger of this and 30 s.
    #[arg(long, default_value_t = 10.0)]
    timeout: f64,
    /// Address-space limit of the adapter process in MiB (`ulimit -v`; 0:
    /// none). It limits reserved virtual memory, not resident memory: it
    /// turns a reader that allocates what a hostile header declares
    /// (`invalid-hostile-*`) into a crash the report attributes to the
    /// limit, and it can fail runtimes that reserve much address space up
    /// front (raise it for those).
    #[arg(long, default_value_t = 4096)]
    memory_mib: u64,
    /// The command is a persistent adapter: started once, one request per
    /// line on stdin, one answer per line (protocol 2, corpus/README.md).
    #[arg(long)]
    persistent: bool,
    /// Run only cases whose ID matches (repeatable).
    #[arg(long = "run", value_name = "GLOB")]
    run: Vec<String>,
    /// Skip cases whose ID matches (repeatable).
    #[arg(long = "skip", value_name = "GLOB")]
    skip: Vec<String>,
    /// A file of case-ID globs expected to fail (one per line, # comments).
    #[arg(long)]
    expected_failures: Option<PathBuf>,
    /// Exit 1 also when a case the expected-failures file lists passes:
    /// any change from the file fails (for CI; update the file with
    /// --write-expected after checking the change).
    #[arg(long)]
    strict_expected: bool,
    /// Write the expected-failures file these results imply (every failed
    /// case, with its status and detail as a comment).
    #[arg(long, value_name = "FILE")]
    write_expected: Option<PathBuf>,
    /// Output format on stdout.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
    /// Also write the JSON results to this file (for `matrix --merge`).
    #[arg(long, value_name = "FILE")]
    json_out: Option<PathBuf>,
    /// Implementation name recorded in the JSON results.
    #[arg(long, default_value = "")]
    name: String,
    /// Implementation version recorded in the JSON results.
    #[arg(long = "impl-version", default_value = "")]
    impl_version: String,
    /// The command to test, after `--`.
    #[arg(last = true, required = true)]
    command: Vec<String>,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Cmd::Generate {
            corpus: root,
            check,
            large,
        } => {
            let cases = cases::all();
            if check {
                let problems = corpus::check(&root, &cases);
                for p in &problems {
                    eprintln!("{p}");
                }
                if problems.is_empty() {
                    println!(
                        "corpus at {} matches its {}",
                        root.display(),
                        idx_text::plural::count(cases.len() as u64, "recipe")
                    );
                    ExitCode::SUCCESS
                } else {
                    eprintln!("run `cargo run -p idx-conformance -- generate` to update it");
                    ExitCode::FAILURE
                }
            } else {
                let cases = if large {
                    cases::with_on_demand()
                } else {
                    cases
                };
                match corpus::generate(&root, &cases) {
                    Ok(n) => {
                        println!(
                            "wrote {} for {} under {}",
                            idx_text::plural::count(n as u64, "file"),
                            idx_text::plural::count(cases.len() as u64, "case"),
                            root.display()
                        );
                        ExitCode::SUCCESS
                    }
                    Err(e) => {
                        eprintln!("error: {e}");
                        ExitCode::from(2)
                    }
                }
            }
        }
        Cmd::TestReader(a) => run(Mode::Reader, a),
        Cmd::TestWriter(a) => run(Mode::Writer, a),
        Cmd::Matrix(m) => matrix_command(m),
        Cmd::Differential(d) => differential_command(d),
    }
}

fn run(mode: Mode, a: RunArgs) -> ExitCode {
    let expected_failures = match &a.expected_failures {
        Some(p) => match runner::read_expected_failures(p) {
            Ok(v) => v,
            Err(e) => {
                eprintln!("error: {}: {e}", p.display());
                return ExitCode::from(2);
            }
        },
        None => vec![],
    };
    let all = if a.large {
        cases::with_on_demand()
    } else {
        cases::all()
    };
    let prepared = match corpus::Prepared::new(a.corpus.as_deref(), &all) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let cfg = Config {
        corpus: prepared.path().to_path_buf(),
        adapter: Adapter {
            command: a.command.clone(),
            persistent: a.persistent,
            timeout: Duration::from_secs_f64(a.timeout.max(0.001)),
            memory_mib: (a.memory_mib > 0).then_some(a.memory_mib),
        },
        run: a.run,
        skip: a.skip,
        expected_failures,
    };
    let mut report = match runner::run(&all, mode, &cfg) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    report.name = if a.name.is_empty() {
        a.command[0].clone()
    } else {
        a.name
    };
    report.version = a.impl_version;
    if let Some(p) = &a.json_out {
        if let Err(e) = std::fs::write(p, format!("{:#}\n", report.to_json())) {
            eprintln!("error: {}: {e}", p.display());
            return ExitCode::from(2);
        }
    }
    if let Some(p) = &a.write_expected {
        if let Err(e) = std::fs::write(p, matrix::expected_failures_text(&report)) {
            eprintln!("error: {}: {e}", p.display());
            return ExitCode::from(2);
        }
    }
    match a.format {
        Format::Human => print!("{}", report.render_human()),
        Format::Json => println!("{}", report.to_json()),
    }
    let passes = runner::unexpected_passes(&report.outcomes);
    if a.strict_expected && passes > 0 {
        eprintln!(
            "{} listed in the expected failures passed (XPASS above): remove them from the file",
            idx_text::plural::count(passes as u64, "case")
        );
        return ExitCode::FAILURE;
    }
    if runner::unexpected(&report.outcomes) == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

fn differential_command(a: DiffArgs) -> ExitCode {
    let exe = std::env::current_exe().unwrap_or_else(|_| PathBuf::from("idx-conformance"));
    let places = matrix::Places {
        adapters: std::fs::canonicalize(&a.adapters).unwrap_or(a.adapters.clone()),
        envs: std::path::absolute(&a.envs).unwrap_or(a.envs.clone()),
        bin: exe.parent().map(PathBuf::from).unwrap_or_default(),
    };
    let descriptions = match matrix::load_descriptions(&places.adapters) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    for n in &a.only {
        if !descriptions
            .iter()
            .any(|d| &d.name == n && d.reader.is_some())
        {
            eprintln!(
                "error: no description file with a reader for {n:?} in {}",
                places.adapters.display()
            );
            return ExitCode::from(2);
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
                timeout: Duration::from_secs_f64(timeout),
                memory_mib: Some(d.memory_mib.unwrap_or(4096)),
            },
        });
        versions.push((d.name.clone(), matrix::probe_version(d, &places)));
    }
    let cfg = differential::Config {
        seed: a.seed,
        budget: differential::Budget {
            cases: a.cases,
            time: a.seconds.map(|s| Duration::from_secs_f64(s.max(0.0))),
        },
        jobs: a.jobs.max(1),
        implementations: impls,
        minimise_runs: a.minimise_runs,
    };
    if cfg.budget.cases.is_none() && cfg.budget.time.is_none() {
        eprintln!("error: give a budget: --cases N and/or --seconds S");
        return ExitCode::from(2);
    }
    let committed = match &a.check {
        Some(p) => match std::fs::read_to_string(p) {
            Ok(s) => Some(s),
            Err(e) => {
                eprintln!("error: {}: {e}", p.display());
                return ExitCode::from(2);
            }
        },
        None => None,
    };
    let o = match differential::run(&cases::all(), &cfg) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
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
        if let Err(e) = std::fs::write(out, differential::render(&o, &cfg, &versions)) {
            eprintln!("error: {}: {e}", out.display());
            return ExitCode::from(2);
        }
        println!("wrote {}", out.display());
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
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}

fn matrix_command(m: MatrixArgs) -> ExitCode {
    let exe = std::env::current_exe().unwrap_or_else(|_| PathBuf::from("idx-conformance"));
    let places = matrix::Places {
        adapters: std::fs::canonicalize(&m.adapters).unwrap_or(m.adapters.clone()),
        envs: std::path::absolute(&m.envs).unwrap_or(m.envs.clone()),
        bin: exe.parent().map(PathBuf::from).unwrap_or_default(),
    };
    let descriptions = match matrix::load_descriptions(&places.adapters) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    for n in &m.only {
        if !descriptions.iter().any(|d| &d.name == n) {
            eprintln!(
                "error: no description file for {n:?} in {}",
                places.adapters.display()
            );
            return ExitCode::from(2);
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
    let prepared = match corpus::Prepared::new(m.corpus.as_deref(), &cases) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let mut reports = Vec::new();
    let mut changes = Vec::new();
    for d in &selected {
        if m.install {
            eprintln!("== install {}", d.name);
            if let Err(e) = matrix::install(d, &places) {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        }
        let t = std::time::Instant::now();
        let rs = match matrix::run_implementation(&cases, prepared.path(), d, &places, m.one_shot) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        };
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
                let w = std::fs::create_dir_all(dir).and_then(|()| {
                    let mut v = r.to_json();
                    v["corpus"] = serde_json::json!({
                        "cases": cases.len(),
                        "sha256": corpus::fingerprint(&cases),
                    });
                    std::fs::write(&p, format!("{v:#}\n"))
                });
                if let Err(e) = w {
                    eprintln!("error: {}: {e}", p.display());
                    return ExitCode::from(2);
                }
            }
            if m.write_expected {
                if let Some(f) = d.side(r.mode).and_then(|s| s.expected_failures.as_ref()) {
                    let p = places.adapters.join(f);
                    if let Err(e) = std::fs::write(&p, matrix::expected_failures_text(r)) {
                        eprintln!("error: {}: {e}", p.display());
                        return ExitCode::from(2);
                    }
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
                println!("  STALE {}: {why}", p.display());
                stale = Some(why);
            }
        }
        let r = v.and_then(|v| runner::Report::from_json(&v));
        match r {
            Ok(mut r) => {
                if let Some(why) = stale {
                    // the page and the reports mark the column
                    r.notes
                        .push(format!("{}{why}", idx_conformance::page::STALE));
                }
                reports.push(r);
            }
            Err(e) => {
                eprintln!("error: {}: {e}", p.display());
                return ExitCode::from(2);
            }
        }
    }
    if let Some(out) = &m.out {
        let md = matrix::render(&cases, &reports, &descriptions);
        if let Err(e) = std::fs::write(out, md) {
            eprintln!("error: {}: {e}", out.display());
            return ExitCode::from(2);
        }
        println!("wrote {}", out.display());
    }
    if let Some(out) = &m.html {
        if let Err(e) = std::fs::write(out, idx_conformance::page::render_html(&cases, &reports)) {
            eprintln!("error: {}: {e}", out.display());
            return ExitCode::from(2);
        }
        println!("wrote {}", out.display());
    }
    if let Some(out) = &m.png {
        let w = idx_conformance::picture::render_png(&cases, &reports)
            .and_then(|b| std::fs::write(out, b).map_err(|e| e.to_string()));
        if let Err(e) = w {
            eprintln!("error: {}: {e}", out.display());
            return ExitCode::from(2);
        }
        println!("wrote {}", out.display());
    }
    if let Some(dir) = &m.reports {
        if let Err(e) = write_reports(dir, &cases, &reports) {
            eprintln!("error: {}: {e}", dir.display());
            return ExitCode::from(2);
        }
    }
    if m.check && !changes.is_empty() {
        eprintln!(
            "{} result(s) differ from the committed expected failures (see CHANGED above)",
            changes.len()
        );
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

fn write_reports(
    dir: &std::path::Path,
    cases: &[cases::Case],
    reports: &[runner::Report],
) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let written = idx_conformance::reports::all(cases, reports);
    for (name, md) in &written {
        let p = dir.join(format!("{name}.md"));
        std::fs::write(&p, md)?;
        println!("wrote {}", p.display());
    }
    for r in reports {
        if r.name != "reference" && !written.iter().any(|(n, _)| *n == r.name) {
            let p = dir.join(format!("{}.md", r.name));
            if p.is_file() {
                std::fs::remove_file(&p)?;
                println!("removed {} (no failures)", p.display());
            }
        }
    }
    Ok(())
}
