//! `idx-validate FILE...`: report every IDX spec violation, located.

use clap::{CommandFactory, Parser, ValueEnum};
use idx::ElementType;
use idx_validate::check::{self, FileResult, Settings, Source};
use idx_validate::render::{self, Context};
use idx_validate::walk::{expand, Input, WalkOptions};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

const AFTER_HELP: &str = "\
EXIT STATUS:
    0   every file is valid (warnings allowed, unless --deny-warnings)
    1   at least one file has an error finding (or a warning under --deny-warnings)
    2   a usage error, or a file that could not be read (2 wins over 1)
    A panic (101) is a bug: please report it.

Offsets are 0-based, shown in hex and decimal. For gzip input (detected by its
magic) they are offsets in the decompressed stream. The rules are in
spec/idx.md; list them with --list-rules and read one with --explain CODE.";

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    /// rustc-style diagnostics with hex excerpts
    Human,
    /// one line per finding: path:offset: severity[CODE]: message
    Short,
    /// one JSON document (schema: schema/idx-validate.schema.json)
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
#[command(name = "idx-validate", version, about = "Validate IDX files (MNIST and cousins): every spec violation, located exactly", after_help = AFTER_HELP)]
struct Cli {
    /// Files, directories (walked recursively) or - for standard input.
    #[arg(value_name = "PATH", required_unless_present_any = ["list_rules", "explain", "completions", "man", "pair"])]
    paths: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
    /// With --format sarif: add startLine 1 to every region, which GitHub code scanning requires.
    #[arg(long)]
    sarif_github: bool,
    /// Colour (honours NO_COLOR; auto means only on a terminal).
    #[arg(long, value_enum, default_value_t = Color::Auto)]
    color: Color,
    /// Print only failing files.
    #[arg(short, long)]
    quiet: bool,
    /// Print the header structure of every file, valid ones included.
    #[arg(short, long)]
    verbose: bool,
    /// Warnings make a file fail (exit 1).
    #[arg(long)]
    deny_warnings: bool,
    /// At most N findings per rule per file (0: all); the rest are counted.
    #[arg(long, value_name = "N", default_value_t = 10)]
    max_findings: usize,
    /// Expected element type: u8, i8, i16, i32, f32 or f64 (IDX601 otherwise).
    #[arg(long, value_name = "TYPE", value_parser = parse_dtype)]
    expect_dtype: Option<ElementType>,
    /// Expected shape, e.g. 60000,28,28 or '*,28,28' (IDX602 otherwise).
    #[arg(long, value_name = "DIMS", value_parser = idx_validate::parse_shape)]
    expect_shape: Option<idx_validate::ShapePattern>,
    /// List every rule: code, severity, name, title.
    #[arg(long)]
    list_rules: bool,
    /// Print the spec's text for a rule (code or name).
    #[arg(long, value_name = "CODE")]
    explain: Option<String>,
    /// Check N files in parallel (default: the number of CPUs); output stays in argument order.
    #[arg(short, long, value_name = "N")]
    jobs: Option<usize>,
    /// In directories, check every file, not only IDX-looking ones.
    #[arg(long)]
    all_files: bool,
    /// In directories, also walk what .gitignore, .ignore and git's exclude files leave out.
    #[arg(long)]
    no_ignore: bool,
    /// In directories, also walk hidden files and directories.
    #[arg(long)]
    hidden: bool,
    /// In directories, leave out paths matching this gitignore-style glob (repeatable).
    #[arg(long, value_name = "GLOB")]
    exclude: Vec<String>,
    /// A path that yields no file to check is not an error.
    #[arg(long)]
    allow_empty: bool,
    /// Pair an images file with its labels file explicitly (repeatable); others pair by MNIST-style names.
    #[arg(long, num_args = 2, value_names = ["IMAGES", "LABELS"], action = clap::ArgAction::Append)]
    pair: Vec<PathBuf>,
    /// Labels must lie in 0..N-1 (IDX803); without it, gaps in the observed range are a warning (IDX804).
    #[arg(long, value_name = "N")]
    classes: Option<u32>,
    /// Check the header and the length only (from the file system), without reading the payload or running payload lints.
    #[arg(long)]
    structure_only: bool,
    /// Do not decompress gzip input (it is then reported as IDX402).
    #[arg(long)]
    no_decompress: bool,
    /// Stop decompressing after this many bytes (IDX702).
    #[arg(long, value_name = "BYTES", default_value_t = 64 << 30)]
    max_decompressed: u64,
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    #[arg(long, value_name = "SHELL")]
    completions: Option<clap_complete::Shell>,
    /// Print the man page (roff).
    #[arg(long)]
    man: bool,
}

fn parse_dtype(s: &str) -> Result<ElementType, String> {
    ElementType::from_name(s)
        .ok_or_else(|| format!("unknown type {s:?}: one of u8, i8, i16, i32, f32, f64"))
}

fn main() -> ExitCode {
    run_command(std::env::args_os())
}

/// The whole command on an argument list whose first item is the program
/// name. `idx_validate::run` (the library) calls it for the Python package.
pub(crate) fn run_command<I, T>(args: I) -> ExitCode
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2));
        }
    };
    let mut stdout = std::io::stdout().lock();
    if let Some(shell) = cli.completions {
        clap_complete::generate(shell, &mut Cli::command(), "idx-validate", &mut stdout);
        return ExitCode::SUCCESS;
    }
    if cli.man {
        return match clap_mangen::Man::new(Cli::command()).render(&mut stdout) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::from(2)
            }
        };
    }
    if cli.list_rules {
        let _ = stdout.write_all(idx_validate::list_rules().as_bytes());
        return ExitCode::SUCCESS;
    }
    if let Some(code) = &cli.explain {
        return match idx_validate::explain(code) {
            Some(text) => {
                let _ = stdout.write_all(text.as_bytes());
                ExitCode::SUCCESS
            }
            None => {
                eprintln!("error: no rule {code:?}; see --list-rules");
                ExitCode::from(2)
            }
        };
    }
    let settings = Settings {
        options: idx::Options::default()
            .with_decompress(!cli.no_decompress)
            .with_max_decompressed(Some(cli.max_decompressed))
            .with_expect_dtype(cli.expect_dtype)
            .with_expect_shape(cli.expect_shape.clone().map(|s| s.0)),
        structure_only: cli.structure_only,
        max_findings: cli.max_findings,
    };
    let walk = WalkOptions {
        all_files: cli.all_files,
        no_ignore: cli.no_ignore,
        hidden: cli.hidden,
        exclude: cli.exclude.clone(),
        allow_empty: cli.allow_empty,
    };
    let expansion = match expand(&cli.paths, &walk) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    for note in &expansion.notes {
        eprintln!("note: {note}");
    }
    let mut inputs = expansion.inputs;
    let pairs: Vec<(PathBuf, PathBuf)> = cli
        .pair
        .chunks_exact(2)
        .map(|p| (p[0].clone(), p[1].clone()))
        .collect();
    for p in cli.pair.iter() {
        if !inputs
            .iter()
            .any(|i| matches!(i, Ok(Source::File(q)) if q == p))
        {
            inputs.push(Ok(Source::File(p.clone())));
        }
    }
    let mut results = run(&inputs, &settings, cli.jobs);
    idx_validate::dataset::apply(
        &mut results,
        &expansion.walked,
        &idx_validate::dataset::DatasetSettings {
            classes: cli.classes,
            pairs,
            decompress: !cli.no_decompress,
        },
    );
    let color = match cli.color {
        Color::Always => true,
        Color::Never => false,
        Color::Auto => {
            std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                && std::io::stdout().is_terminal()
        }
    };
    let ctx = Context {
        deny_warnings: cli.deny_warnings,
        color,
        quiet: cli.quiet,
        verbose: cli.verbose,
        sarif_github: cli.sarif_github,
    };
    let text = match cli.format {
        Format::Human => render::human::render(&results, &ctx),
        Format::Short => render::short::render(&results, &ctx),
        Format::Json => render::json::render(&results, &ctx),
        Format::Jsonl => render::json::render_lines(&results, &ctx),
        Format::Sarif => render::sarif::render(&results, &ctx),
        Format::Junit => render::junit::render(&results, &ctx),
        Format::Github => render::github::render(&results, &ctx),
    };
    let _ = stdout.write_all(text.as_bytes());
    let _ = stdout.flush();
    let t = render::totals(&results, cli.deny_warnings);
    if t.unreadable > 0 {
        ExitCode::from(2)
    } else if t.invalid > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// Checks every input on `jobs` threads; results in input order.
fn run(inputs: &[Input], settings: &Settings, jobs: Option<usize>) -> Vec<FileResult> {
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
                    Ok(src) => check::check(src, settings),
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
