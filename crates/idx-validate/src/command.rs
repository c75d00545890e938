//! `idx-validate FILE...`: report every IDX spec violation, located.

use clap::{CommandFactory, Parser, ValueEnum};
use idx::ElementType;
use idx_io::ExitStatus;
use idx_validate::check::{self, FileResult, Settings, Source};
use idx_validate::config;
use idx_validate::render::{self, Context};
use idx_validate::repair::{self, FixSettings};
use idx_validate::resolve;
use idx_validate::walk::{expand, Input, WalkOptions};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    /// rustc-style diagnostics with hex excerpts
    Human,
    /// one line per finding: path:offset: severity[CODE]: message
    Short,
    /// one JSON document (schema: crates/idx-validate/schema/idx-validate.schema.json in the source)
    Json,
    /// one JSON object per finding
    Jsonl,
    /// SARIF 2.1.0
    Sarif,
    /// JUnit XML
    Junit,
    /// GitHub Actions workflow commands
    Github,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Color {
    Auto,
    Always,
    Never,
}

#[derive(Parser)]
#[command(name = "idx-validate", version, about = "Validate IDX files (MNIST and cousins): every spec violation, located exactly", after_help = idx_validate::help::after_help())]
struct Cli {
    /// Files, directories (walked recursively) or - for standard input.
    #[arg(value_name = "PATH", required_unless_present_any = ["list_rules", "explain", "completions", "man", "pair"])]
    paths: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human, help_heading = "Output")]
    format: Format,
    /// With --format sarif: add startLine 1 to every region, which GitHub code scanning requires.
    #[arg(long, help_heading = "Output")]
    sarif_github: bool,
    /// Colour (honours NO_COLOR; auto means only on a terminal).
    #[arg(long, value_enum, default_value_t = Color::Auto, help_heading = "Output")]
    color: Color,
    /// Print only failing files (no note about what a walk left out).
    #[arg(short, long, help_heading = "Output")]
    quiet: bool,
    /// Print the header structure of every file, valid ones included.
    #[arg(short, long, help_heading = "Output")]
    verbose: bool,
    /// Warnings make a file fail (exit 1).
    #[arg(long, help_heading = "Checks")]
    deny_warnings: bool,
    /// At most N findings per rule per file (0: all; default 10); the rest are counted.
    #[arg(long, value_name = "N", help_heading = "Checks")]
    max_findings: Option<usize>,
    /// Expected element type: u8, i8, i16, i32, f32 or f64 (IDX601 otherwise).
    #[arg(long, value_name = "TYPE", value_parser = parse_dtype, help_heading = "Checks")]
    expect_dtype: Option<ElementType>,
    /// Expected shape, e.g. 60000,28,28 or '*,28,28' (IDX602 otherwise).
    #[arg(long, value_name = "DIMS", value_parser = idx_validate::parse_shape, help_heading = "Checks")]
    expect_shape: Option<idx_validate::ShapePattern>,
    /// List every rule: code, severity, name, title.
    #[arg(long, help_heading = "Rules and documentation")]
    list_rules: bool,
    /// Print the spec's text for a rule (code or name).
    #[arg(long, value_name = "CODE", help_heading = "Rules and documentation")]
    explain: Option<String>,
    /// Check N files in parallel (default: the number of CPUs); output stays in argument order.
    #[arg(short, long, value_name = "N", help_heading = "Inputs")]
    jobs: Option<usize>,
    /// In directories, check every file, not only IDX-looking ones.
    #[arg(long, help_heading = "Inputs")]
    all_files: bool,
    /// In directories, also walk what .gitignore, .ignore and git's exclude files leave out.
    #[arg(long, help_heading = "Inputs")]
    no_ignore: bool,
    /// In directories, also walk hidden files and directories.
    #[arg(long, help_heading = "Inputs")]
    hidden: bool,
    /// In directories, leave out paths matching this gitignore-style glob (repeatable).
    #[arg(long, value_name = "GLOB", help_heading = "Inputs")]
    exclude: Vec<String>,
    /// A path that yields no file to check is not an error.
    #[arg(long, help_heading = "Inputs")]
    allow_empty: bool,
    /// Pair an images file with its labels file explicitly (repeatable); others pair by MNIST-style names.
    #[arg(long, num_args = 2, value_names = ["IMAGES", "LABELS"], action = clap::ArgAction::Append, help_heading = "Datasets")]
    pair: Vec<PathBuf>,
    /// Labels must lie in 0..N-1 (IDX803); without it, gaps in the observed range are a warning (IDX804).
    #[arg(long, value_name = "N", help_heading = "Datasets")]
    classes: Option<u32>,
    /// Check the header and the length only (from the file system), without reading the payload or running payload lints; a labels file's values are still read for the dataset rules.
    #[arg(long, help_heading = "Checks")]
    structure_only: bool,
    /// Do not decompress gzip input (it is then reported as IDX402).
    #[arg(long, help_heading = "Checks")]
    no_decompress: bool,
    /// Stop decompressing after this many bytes (IDX702); suffixes K, M, G, KiB, MiB, GiB... (default 64GiB; 0: no limit).
    #[arg(long, value_name = "SIZE", value_parser = idx_io::size::parse_size, help_heading = "Checks")]
    max_decompressed: Option<u64>,
    /// Report only these rules: codes, names or code prefixes, comma-separated (replaces the configuration's select).
    #[arg(long, value_name = "RULES", value_delimiter = ',', value_parser = parse_rule_selector, help_heading = "Checks")]
    select: Option<Vec<String>>,
    /// Never report these rules: codes, names or code prefixes, comma-separated (replaces the configuration's ignore).
    #[arg(long, value_name = "RULES", value_delimiter = ',', value_parser = parse_rule_selector, help_heading = "Checks")]
    ignore: Option<Vec<String>>,
    /// Change a rule's severity, CODE=SEVERITY (error, warning or info), comma-separated or repeated: --severity IDX501=error makes the byte-order test's warning fail the run (a gate for a writer's output in CI). Errors the bytes prove cannot be changed.
    #[arg(long, value_name = "CODE=SEVERITY", action = clap::ArgAction::Append, value_parser = parse_severities, help_heading = "Checks")]
    severity: Vec<idx::Severities>,
    /// Every element of an i16 or i32 payload lies in LO..HI (inclusive): a payload whose big-endian reading leaves the range while its little-endian reading stays inside is proved little-endian (an IDX501 error, with the first element out of range; the --fix byte swap is then safe). --classes N states 0..N-1 for rank-1 labels.
    #[arg(long, value_name = "LO..HI", value_parser = config::parse_range, help_heading = "Checks")]
    expect_range: Option<(i64, i64)>,
    /// Read the configuration from this file (idx-validate.toml syntax, or a pyproject.toml).
    #[arg(
        long,
        value_name = "FILE",
        conflicts_with = "isolated",
        help_heading = "Configuration"
    )]
    config: Option<PathBuf>,
    /// Read no configuration file.
    #[arg(long, help_heading = "Configuration")]
    isolated: bool,
    /// Exit 0 even when files are invalid (2 still means unreadable input or a usage error).
    #[arg(long, help_heading = "Checks")]
    exit_zero: bool,
    /// Write the report to FILE instead of standard output.
    #[arg(long, value_name = "FILE", help_heading = "Output")]
    output_file: Option<PathBuf>,
    /// Print how many findings each rule produced instead of the findings.
    #[arg(long, help_heading = "Output")]
    statistics: bool,
    /// The absolute URL of spec/idx.md (a release's copy); the human output's spec lines and SARIF's helpUri link rules into it (without it, helpUri is the rule's page on the documentation site and the human output links no spec).
    #[arg(long, value_name = "URL", value_parser = parse_url, help_heading = "Output")]
    spec_url: Option<String>,
    /// Repair what can be repaired: apply safe fixes and rewrite each file atomically (standard input goes to standard output). See "Repairing files" in the documentation (docs/guide/fix.md).
    #[arg(long, conflicts_with = "structure_only", help_heading = "Repair")]
    fix: bool,
    /// Never write, whatever the configuration says (`fix = true` in idx-validate.toml or pyproject.toml is ignored); the report-only pre-commit hook and the GitHub Action pass it.
    #[arg(long, conflicts_with_all = ["fix", "output"], help_heading = "Repair")]
    no_fix: bool,
    /// With --fix: apply unsafe fixes too (the tool is guessing); without it, mark them fixable.
    #[arg(long, help_heading = "Repair")]
    unsafe_fixes: bool,
    /// Show what --fix would change (each fix, the header before and after) and write nothing.
    #[arg(long, conflicts_with = "structure_only", help_heading = "Repair")]
    diff: bool,
    /// With --fix and one input file: write the repaired copy to OUT and leave the input alone (gzip output when OUT ends in .gz); - writes it to standard output (gzip when the input is) and the report to standard error.
    #[arg(long, value_name = "OUT", help_heading = "Repair")]
    output: Option<PathBuf>,
    /// The byte order the writer used for multi-byte elements, when you know it, judged as every reader reads it: little reads the payload as written (an IDX501 warning only when it reads big-endian: the statement is probably wrong; an IDX501 note with the score when it barely distinguishes the two orders) and, with --fix, byte-swaps it as a safe fix (unless it already reads big-endian: then nothing is swapped, so a second run changes nothing); big vouches for the bytes: IDX501 is not reported and nothing is swapped.
    #[arg(long, value_name = "ORDER", value_parser = ["little", "big"], help_heading = "Repair")]
    assume_byte_order: Option<String>,
    /// With --fix: exit 1 when any fix was applied, even if nothing remains.
    #[arg(long, help_heading = "Repair")]
    exit_non_zero_on_fix: bool,
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    #[arg(long, value_name = "SHELL", help_heading = "Rules and documentation")]
    completions: Option<clap_complete::Shell>,
    /// Print the man page (roff).
    #[arg(long, help_heading = "Rules and documentation")]
    man: bool,
}

fn parse_dtype(s: &str) -> Result<ElementType, String> {
    ElementType::from_name(s)
        .ok_or_else(|| format!("unknown type {s:?}: one of u8, i8, i16, i32, f32, f64"))
}

fn parse_url(s: &str) -> Result<String, String> {
    if s.contains("://") {
        Ok(s.to_string())
    } else {
        Err(format!(
            "{s:?} is not an absolute URL (a relative link only works inside a clone)"
        ))
    }
}

fn parse_severities(s: &str) -> Result<idx::Severities, String> {
    s.parse()
}

fn parse_rule_selector(s: &str) -> Result<String, String> {
    idx_validate::config::parse_rule_selector(s)
}

/// The whole command on an argument list whose first item is the program
/// name. `idx_validate::run` (the library) calls it for the Python package.
pub(crate) fn run_command<I, T>(args: I) -> ExitStatus
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => match idx_validate::help::unknown_argument(&e) {
            Some(msg) => {
                eprint!("{msg}");
                return ExitStatus::from(2);
            }
            None => {
                let _ = e.print();
                return ExitStatus::from(u8::try_from(e.exit_code()).unwrap_or(2));
            }
        },
    };
    // the one place an error of the run is reported: `error: ...`, exit 2
    match try_run(&cli) {
        Ok(status) => status,
        Err(RunError(message)) => {
            eprintln!("error: {message}");
            ExitStatus::from(2)
        }
    }
}

/// An error of the run itself (a bad configuration, a path that cannot be
/// walked, an output that would replace an input...), not of an input:
/// reported once by [`run_command`] as `error: ...` with exit status 2.
struct RunError(String);

impl<E: std::fmt::Display> From<E> for RunError {
    fn from(e: E) -> RunError {
        RunError(e.to_string())
    }
}

/// Every argument and the configuration file resolved into one value, in
/// one place (ripgrep's `HiArgs`): what the run checks, with which
/// settings, what it writes and how it renders, decided before any input is
/// read.
struct Resolved {
    expansion: idx_validate::walk::Expansion,
    per_file: Vec<(Settings, config::RuleFilter)>,
    dataset: idx_validate::dataset::DatasetSettings,
    fixing: Option<FixSettings>,
    /// The repair of standard input writes to standard output.
    stream_out: bool,
    input_ids: Vec<idx_io::Identity>,
    /// `--output-file` (not `-`).
    output_file: Option<PathBuf>,
    ctx: Context,
}

/// Resolves `cli` and the configuration file it finds into a [`Resolved`].
fn resolve(cli: &Cli) -> Result<Resolved, RunError> {
    let cfg_file = if cli.isolated {
        None
    } else {
        cli.config.clone().or_else(|| {
            std::env::current_dir()
                .ok()
                .and_then(|d| config::discover(&d))
        })
    };
    let cfg = cfg_file
        .as_deref()
        .map(config::load)
        .transpose()
        .map_err(|e| RunError(format!("invalid configuration: {e}")))?
        .unwrap_or_default();
    let filter = resolve::rule_filter(cli.select.clone(), cli.ignore.clone(), &cfg.filter);
    let byte_order = cli
        .assume_byte_order
        .as_deref()
        .and_then(idx::ByteOrder::from_name);
    let settings = Settings {
        options: idx::Options::default()
            .with_decompress(!cli.no_decompress)
            // 0 means no limit, as for --max-findings (spec 7.20)
            .with_limits(idx::Limits::from_setting(
                cli.max_decompressed.or(cfg.max_decompressed),
            ))
            // the one verdict (spec 6.1), as every reader gives it: big
            // vouches for the bytes; little reads the payload as written,
            // with a warning when it reads big-endian
            .with_byte_order(byte_order)
            .with_severity(resolve::severities(&cfg.severity, &cli.severity))
            .with_expect_range(cli.expect_range.or(cfg.expect_range))
            .with_expect_dtype(cli.expect_dtype.or(cfg.expect_dtype))
            .with_expect_shape(
                cli.expect_shape
                    .clone()
                    .map(|s| s.0)
                    .or(cfg.expect_shape.clone()),
            ),
        structure_only: cli.structure_only,
        max_findings: cli.max_findings.or(cfg.max_findings).unwrap_or(10),
    };
    let walk = WalkOptions {
        all_files: cli.all_files,
        no_ignore: cli.no_ignore,
        hidden: cli.hidden,
        exclude: cfg.exclude.iter().chain(&cli.exclude).cloned().collect(),
        allow_empty: cli.allow_empty,
    };
    let mut expansion = expand(&cli.paths, &walk)?;
    let pairs: Vec<(PathBuf, PathBuf)> = cli
        .pair
        .chunks_exact(2)
        .map(|p| (p[0].clone(), p[1].clone()))
        .collect();
    for p in cli.pair.iter() {
        if !expansion
            .inputs
            .iter()
            .any(|i| matches!(i, Ok(Source::File(q)) if q == p))
        {
            expansion.inputs.push(Ok(Source::File(p.clone())));
        }
    }
    // per-path overrides: the file's own settings and rule filter (the
    // command line's --expect-* win over every override)
    let dataset = idx_validate::dataset::DatasetSettings {
        classes: cli.classes.or(cfg.classes),
        pairs,
    };
    let per_file: Vec<(Settings, config::RuleFilter)> = expansion
        .inputs
        .iter()
        .map(|i| {
            let path = match i {
                Ok(Source::File(p)) | Err((p, _)) => Some(p.as_path()),
                Ok(Source::Stdin) => None,
            };
            let (mut s, f) = cfg.for_path(
                path,
                &settings,
                &filter,
                cli.expect_dtype.is_some(),
                cli.expect_shape.is_some(),
            );
            if let Some(p) = path {
                s.options = idx_validate::dataset::scan_options(p, s.options, &dataset);
            }
            (s, f)
        })
        .collect();
    // --fix / --unsafe-fixes, or `fix` / `unsafe-fixes` in the configuration
    // (--no-fix overrides the configuration: a report-only run never writes)
    let fix_on = resolve::fix_on(cli.fix, cli.no_fix, cfg.fix);
    let unsafe_fixes = cli.unsafe_fixes || cfg.unsafe_fixes.unwrap_or(false);
    let stream_out =
        resolve::repair_inputs(fix_on, cli.diff, cli.output.as_deref(), &expansion.inputs)?;
    let fixing = (fix_on || cli.diff).then(|| FixSettings {
        options: idx::FixOptions::default()
            .with_unsafe_fixes(unsafe_fixes)
            .with_assume_byte_order(byte_order),
        diff: cli.diff,
        output: if cli.diff { None } else { cli.output.clone() },
    });
    // --output-file never replaces an input (checked before any work, and
    // again by the atomic writer); `-` is the file redirected to standard
    // input, if any
    let input_ids: Vec<idx_io::Identity> = expansion
        .inputs
        .iter()
        .filter_map(|i| match i {
            Ok(Source::File(p)) => idx_io::Identity::of_path(p),
            Ok(Source::Stdin) => idx_io::Identity::of_stdin(),
            Err(_) => None,
        })
        .collect();
    // `--output-file -` is standard output, as everywhere `-` names a stream
    let output_file = cli.output_file.clone().filter(|p| !idx_io::is_dash(p));
    if let Some(p) = output_file.as_deref() {
        idx_io::output::check(p, idx_io::Policy::Overwrite, &input_ids)
            .map_err(|e| RunError(format!("--output-file {e}")))?;
    }
    let color = match cli.color {
        Color::Always => true,
        Color::Never => false,
        Color::Auto => {
            std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                && std::io::stdout().is_terminal()
        }
    };
    let ctx = Context {
        deny_warnings: cli.deny_warnings || cfg.deny_warnings.unwrap_or(false),
        color,
        quiet: cli.quiet,
        verbose: cli.verbose,
        sarif_github: cli.sarif_github,
        spec_url: cli.spec_url.clone().or(cfg.spec_url.clone()),
        unsafe_fixes,
        fix_run: fix_on && !cli.diff,
    };
    Ok(Resolved {
        expansion,
        per_file,
        dataset,
        fixing,
        stream_out,
        input_ids,
        output_file,
        ctx,
    })
}

/// What the command prints and exits with before it checks anything:
/// completions, the man page, the rule list, a rule's text.
fn informational(cli: &Cli) -> Option<Result<ExitStatus, RunError>> {
    let mut stdout = std::io::stdout().lock();
    if let Some(shell) = cli.completions {
        clap_complete::generate(shell, &mut Cli::command(), "idx-validate", &mut stdout);
    } else if cli.man {
        return Some(
            idx_validate::help::man(Cli::command(), &mut stdout)
                .map(|()| ExitStatus::SUCCESS)
                .map_err(RunError::from),
        );
    } else if cli.list_rules {
        let _ = stdout.write_all(idx_validate::help::list_rules().as_bytes());
    } else if let Some(code) = &cli.explain {
        let Some(text) = idx_report::explained(code) else {
            return Some(Err(RunError(format!("no rule {code:?}; see --list-rules"))));
        };
        let _ = stdout.write_all(text.as_bytes());
    } else {
        return None;
    }
    Some(Ok(ExitStatus::SUCCESS))
}

/// The command on parsed arguments: the exit status of a run that went
/// through, or the error that stopped it.
fn try_run(cli: &Cli) -> Result<ExitStatus, RunError> {
    if let Some(done) = informational(cli) {
        return done;
    }
    let r = resolve(cli)?;
    let ex = &r.expansion;
    // -q prints only what fails: what a walk left out is not a failure
    if !cli.quiet {
        for note in &ex.notes {
            eprintln!("note: {note}");
        }
    }
    // an empty directory is an error of the run, not an unreadable file
    for e in &ex.empty {
        eprintln!("error: {e}");
    }
    // the repair of standard input writes to standard output from a worker
    let mut results = run(&ex.inputs, &r.per_file, cli.jobs, r.fixing.as_ref());
    idx_validate::dataset::apply(&mut results, &ex.walked, &r.dataset);
    // --classes reads every labels-shaped input (and proves a rank-1
    // integer file's byte order): say so when it met none
    if let (Some(n), false) = (r.dataset.classes, cli.quiet) {
        let applied = results
            .iter()
            .any(|r| r.outcome.as_ref().is_ok_and(|c| c.report.labels.is_some()));
        if !applied {
            eprintln!(
                "note: --classes {n} applied to no input: none has a labels header (rank 1, or rank 2 of a few columns, of integers)"
            );
        }
    }
    for (res, (_, f)) in results.iter_mut().zip(&r.per_file) {
        config::filter_result(res, f);
    }
    let text = render_results(cli, &results, &r.ctx, &ex.empty);
    match r.output_file.as_deref() {
        Some(p) => {
            idx_io::output::write(p, idx_io::Policy::Overwrite, &r.input_ids, text.as_bytes())
                .map_err(|e| RunError(format!("--output-file {e}")))?;
        }
        // standard output carries the repaired stream
        None if r.stream_out => {
            let _ = std::io::stderr().write_all(text.as_bytes());
        }
        None => {
            let mut stdout = std::io::stdout().lock();
            let _ = stdout.write_all(text.as_bytes());
            let _ = stdout.flush();
        }
    }
    let t = render::totals(&results, r.ctx.deny_warnings);
    Ok(resolve::exit_status(
        &t,
        !ex.empty.is_empty(),
        cli.exit_zero,
        cli.exit_non_zero_on_fix,
        cli.diff,
    ))
}

/// The report of `results` in the format `cli` asks for (`--statistics`
/// included); `empty`: the directories in which no IDX file was found
/// (GitHub annotations of their own).
fn render_results(cli: &Cli, results: &[FileResult], ctx: &Context, empty: &[String]) -> String {
    if cli.statistics {
        return render::stats::render(results, cli.format == Format::Json);
    }
    match cli.format {
        Format::Human => render::human::render(results, ctx),
        Format::Short => render::short::render(results, ctx),
        Format::Json => render::json::render(results, ctx),
        Format::Jsonl => render::json::render_lines(results, ctx),
        Format::Sarif => render::sarif::render(results, ctx),
        Format::Junit => render::junit::render(results, ctx),
        Format::Github => {
            let annotations: String = empty
                .iter()
                .map(|e| {
                    format!(
                        "::error title=no-idx-files::{}\n",
                        idx_io::escape::github_data(e)
                    )
                })
                .collect();
            annotations + &render::github::render(results, ctx)
        }
    }
}

/// Checks every input on `jobs` threads; results in input order.
fn run(
    inputs: &[Input],
    settings: &[(Settings, config::RuleFilter)],
    jobs: Option<usize>,
    fixing: Option<&FixSettings>,
) -> Vec<FileResult> {
    let jobs = jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .clamp(1, inputs.len().max(1));
    let big = inputs.len() > 20
        || inputs
            .iter()
            .filter_map(|i| match i {
                Ok(Source::File(p)) => std::fs::metadata(p).ok().map(|m| m.len()),
                _ => None,
            })
            .sum::<u64>()
            > 256 << 20;
    let bar = if big && std::io::stderr().is_terminal() {
        let b = indicatif::ProgressBar::new(inputs.len() as u64);
        b.set_style(
            indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} files {elapsed_precise}")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        Some(b)
    } else {
        None
    };
    let slots: Vec<Mutex<Option<FileResult>>> = inputs.iter().map(|_| Mutex::new(None)).collect();
    let next = AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..jobs {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(input) = inputs.get(i) else { break };
                let r = match input {
                    Ok(src) => match fixing {
                        Some(f) => repair::fix(src, &settings[i].0, f),
                        None => check::check(src, &settings[i].0),
                    },
                    Err((p, e)) => FileResult {
                        source: Source::File(p.clone()),
                        outcome: Err(e.clone()),
                    },
                };
                if let Ok(mut slot) = slots[i].lock() {
                    *slot = Some(r);
                }
                if let Some(b) = &bar {
                    b.inc(1);
                }
            });
        }
    });
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    slots
        .into_iter()
        .zip(inputs)
        .map(|(m, input)| {
            m.into_inner().ok().flatten().unwrap_or_else(|| FileResult {
                source: match input {
                    Ok(s) => s.clone(),
                    Err((p, _)) => Source::File(p.clone()),
                },
                outcome: Err("internal error: not checked".into()),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    #[test]
    fn clap_definition_is_consistent() {
        super::Cli::command().debug_assert();
    }
}
