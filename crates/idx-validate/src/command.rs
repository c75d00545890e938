//! `idx-validate FILE...`: report every IDX spec violation, located.

use clap::{CommandFactory, FromArgMatches, Parser, ValueEnum};
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

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
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

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Color {
    Auto,
    Always,
    Never,
}

#[derive(Debug, Parser)]
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
    #[arg(long, value_name = "TYPE", value_parser = config::parse_dtype, help_heading = "Checks")]
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

/// The command line parsed by the command's own parser (clap), not yet
/// resolved: what every front end of the command starts from (the binary,
/// the Python package's console script, the npm command through the
/// WebAssembly module, and the npm API's options, a view of the same flags).
#[derive(Debug)]
pub struct Args {
    cli: Cli,
}

/// What a front end prints and exits with, when it does not write to the
/// process's streams itself (the npm command through the WebAssembly module).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Output {
    /// Standard output's bytes.
    pub stdout: Vec<u8>,
    /// Standard error's bytes.
    pub stderr: Vec<u8>,
    /// The exit status.
    pub status: ExitStatus,
}

impl Output {
    /// Nothing printed yet, and `status`.
    pub fn new(status: ExitStatus) -> Output {
        Output {
            stdout: Vec::new(),
            stderr: Vec::new(),
            status,
        }
    }

    /// `error: MESSAGE` on standard error, exit status 2: how the command
    /// reports an error of the run.
    pub fn error(message: &str) -> Output {
        let mut out = Output::new(ExitStatus::Error);
        out.stderr = format!("error: {message}\n").into_bytes();
        out
    }
}

/// The arguments could not be parsed, or ask for help or the version:
/// what clap (with the command's own wording for an unknown flag) prints.
#[derive(Debug)]
pub struct ArgsError(clap::Error);

impl ArgsError {
    /// The exit status: 0 for `--help` and `--version`, else 2.
    pub fn status(&self) -> ExitStatus {
        if idx_validate::help::unknown_argument(&self.0).is_some() {
            return ExitStatus::Error;
        }
        ExitStatus::from(u8::try_from(self.0.exit_code()).unwrap_or(2))
    }

    /// The text and the stream it goes to, without terminal styling.
    pub fn output(&self) -> Output {
        let (text, stderr) = match idx_validate::help::unknown_argument(&self.0) {
            Some(msg) => (msg, true),
            // (a usage error shows the values given escaped)
            None if idx_io::escape::quotes_input(&self.0) => {
                (idx_io::escape::clap_text(&self.0), true)
            }
            None => (self.0.render().to_string(), self.0.use_stderr()),
        };
        let mut out = Output::new(self.status());
        if stderr {
            out.stderr = text.into_bytes();
        } else {
            out.stdout = text.into_bytes();
        }
        out
    }

    /// Prints it as the binary does (styled on a terminal); returns the
    /// exit status.
    fn print(&self) -> ExitStatus {
        match idx_validate::help::unknown_argument(&self.0) {
            Some(msg) => eprint!("{msg}"),
            // a usage error quotes what was given: escaped, unstyled
            None if idx_io::escape::quotes_input(&self.0) => {
                eprint!("{}", idx_io::escape::clap_text(&self.0));
            }
            None => {
                let _ = self.0.print();
            }
        }
        self.status()
    }
}

/// One output format of the command, by its `--format` name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FormatName(Format);

impl std::str::FromStr for FormatName {
    type Err = String;
    /// A `--format` value, checked by the command's own list.
    fn from_str(s: &str) -> Result<Self, String> {
        Format::from_str(s, false).map(FormatName).map_err(|_| {
            let names: Vec<String> = Format::value_variants()
                .iter()
                .filter_map(|f| f.to_possible_value().map(|v| v.get_name().to_string()))
                .collect();
            format!("unknown format {s:?} (one of {})", names.join(", "))
        })
    }
}

/// Every argument and the configuration file resolved into what checks,
/// filters and renders each input (ripgrep's `HiArgs`), with nothing read
/// from the inputs: the command's, and the WebAssembly module's for the
/// page and the npm package.
#[derive(Debug, Clone)]
pub struct Checks {
    /// How every input is checked, before the configuration's per-path
    /// overrides and the dataset scan ([`Checks::for_input`]).
    pub settings: Settings,
    /// `select` and `ignore`.
    pub filter: config::RuleFilter,
    /// `--classes` and `--pair`.
    pub dataset: idx_validate::dataset::DatasetSettings,
    /// `--assume-byte-order`: for the checks (in `settings`) and a repair.
    pub byte_order: Option<idx::ByteOrder>,
    /// `--fix` or `fix = true`, unless `--no-fix`.
    pub fix_on: bool,
    /// `--unsafe-fixes` or `unsafe-fixes = true`.
    pub unsafe_fixes: bool,
    /// How the reports render.
    pub ctx: Context,
    cfg: config::Config,
    cli_dtype: bool,
    cli_shape: bool,
}

impl Checks {
    /// The settings and rule filter of the input at `path` (`None`:
    /// standard input): the configuration's overrides for it, and the
    /// label scan of a labels file ([`idx_validate::dataset::scan_options`]).
    pub fn for_input(&self, path: Option<&std::path::Path>) -> (Settings, config::RuleFilter) {
        let (mut s, f) = self.cfg.for_path(
            path,
            &self.settings,
            &self.filter,
            self.cli_dtype,
            self.cli_shape,
        );
        if let Some(p) = path {
            s.options = idx_validate::dataset::scan_options(p, s.options, &self.dataset);
        }
        (s, f)
    }

    /// The repair's options for the input `name`, as `--fix` builds them:
    /// the safe fixes (and the unsafe ones under `--unsafe-fixes`), the
    /// stated byte order, and the input's checks.
    pub fn fix_options(&self, name: &std::path::Path) -> idx::FixOptions {
        let mut opts = idx::FixOptions::default()
            .with_unsafe_fixes(self.unsafe_fixes)
            .with_assume_byte_order(self.byte_order);
        opts.validate = self.for_input(Some(name)).0.options;
        opts.validate.file_name = name.file_name().map(|n| n.to_string_lossy().into_owned());
        opts
    }
}

impl Args {
    /// Parses `args` (the first is the program name) with the command's
    /// parser.
    ///
    /// # Errors
    /// A usage error, or `--help`/`--version` (their text is the error's).
    pub fn parse<I, T>(args: I) -> Result<Args, ArgsError>
    where
        I: IntoIterator<Item = T>,
        T: Into<std::ffi::OsString> + Clone,
    {
        Cli::try_parse_from(args)
            .map(|cli| Args { cli })
            .map_err(|e| ArgsError(idx_io::escape::clap_values(e)))
    }

    /// Parses flags with no path (the first is a flag, not the program
    /// name): the options of a run whose inputs are given otherwise (the
    /// npm API's `options`, written as these flags).
    ///
    /// # Errors
    /// The usage error's first line, without `error: `.
    pub fn parse_flags<I, T>(flags: I) -> Result<Args, String>
    where
        I: IntoIterator<Item = T>,
        T: Into<std::ffi::OsString> + Clone,
    {
        // a switch of this parse alone stands for the paths given otherwise
        const NO_PATHS: &str = "options-without-paths";
        let cmd = Cli::command()
            .arg(
                clap::Arg::new(NO_PATHS)
                    .long(NO_PATHS)
                    .hide(true)
                    .action(clap::ArgAction::SetTrue),
            )
            .mut_arg("paths", |a| a.required_unless_present_any([NO_PATHS]));
        let argv = ["idx-validate".into(), format!("--{NO_PATHS}").into()]
            .into_iter()
            .chain(flags.into_iter().map(Into::into));
        cmd.try_get_matches_from::<_, std::ffi::OsString>(argv)
            .and_then(|m| Cli::from_arg_matches(&m))
            .map(|cli| Args { cli })
            .map_err(|e| {
                let text = idx_io::escape::clap_text(&idx_io::escape::clap_values(e));
                let line = text.lines().next().unwrap_or_default();
                line.strip_prefix("error: ").unwrap_or(line).to_string()
            })
    }

    /// The inputs as named: the paths, then each `--pair` file not among
    /// them (what a front end without directory walks reads).
    pub fn inputs(&self) -> Vec<PathBuf> {
        let mut out = self.cli.paths.clone();
        for p in &self.cli.pair {
            if !out.contains(p) {
                out.push(p.clone());
            }
        }
        out
    }

    /// The paths given (files, directories, `-`), in order.
    pub fn paths(&self) -> &[PathBuf] {
        &self.cli.paths
    }

    /// How directories are walked: the flags, and the configuration's
    /// `exclude` before `--exclude`.
    pub fn walk_options(&self, checks: &Checks) -> WalkOptions {
        let cli = &self.cli;
        WalkOptions {
            all_files: cli.all_files,
            no_ignore: cli.no_ignore,
            hidden: cli.hidden,
            exclude: checks
                .cfg
                .exclude
                .iter()
                .chain(&cli.exclude)
                .cloned()
                .collect(),
            allow_empty: cli.allow_empty,
        }
    }

    /// Adds each `--pair` file not among the inputs, after them.
    pub fn add_pairs(&self, expansion: &mut idx_validate::walk::Expansion) {
        for p in self.cli.pair.iter() {
            if !expansion
                .inputs
                .iter()
                .any(|i| matches!(i, Ok(Source::File(q)) if q == p))
            {
                expansion.inputs.push(Ok(Source::File(p.clone())));
            }
        }
    }

    /// What the command prints on standard error before checking: the
    /// notes of what a walk left out (not under `--quiet`: they are no
    /// failure), then an error for each directory that yielded nothing.
    pub fn walk_messages(&self, expansion: &idx_validate::walk::Expansion) -> String {
        let mut out = String::new();
        if !self.cli.quiet {
            for note in &expansion.notes {
                out.push_str(&format!("note: {note}\n"));
            }
        }
        // an empty directory is an error of the run, not an unreadable file
        for e in &expansion.empty {
            out.push_str(&format!("error: {e}\n"));
        }
        out
    }

    /// `--quiet`.
    pub fn quiet(&self) -> bool {
        self.cli.quiet
    }

    /// The first flag given that needs to write files or read other files
    /// than the inputs (`--fix`, `--diff`, `--output`, `--output-file`,
    /// `--config`): a front end that only reads its inputs refuses them.
    pub fn file_system_flag(&self) -> Option<&'static str> {
        self.writing_flag()
            .or(self.cli.config.is_some().then_some("--config"))
    }

    /// The first flag given that writes files (`--fix`, `--diff`,
    /// `--output`, `--output-file`): a front end that writes nothing
    /// refuses them.
    pub fn writing_flag(&self) -> Option<&'static str> {
        let c = &self.cli;
        [
            (c.fix, "--fix"),
            (c.diff, "--diff"),
            (c.output.is_some(), "--output"),
            (c.output_file.is_some(), "--output-file"),
        ]
        .into_iter()
        .find_map(|(given, flag)| given.then_some(flag))
    }

    /// What the command prints instead of checking anything: completions,
    /// the man page, the rule list, a rule's text; `None` for a run.
    pub fn informational(&self) -> Option<Output> {
        let cli = &self.cli;
        let mut out = Output::new(ExitStatus::SUCCESS);
        if let Some(shell) = cli.completions {
            clap_complete::generate(shell, &mut Cli::command(), "idx-validate", &mut out.stdout);
        } else if cli.man {
            if let Err(e) = idx_validate::help::man(Cli::command(), &mut out.stdout) {
                return Some(Output::error(&e.to_string()));
            }
        } else if cli.list_rules {
            out.stdout = idx_validate::help::list_rules().into_bytes();
        } else if let Some(code) = &cli.explain {
            let Some(text) = idx_report::explained(code) else {
                return Some(Output::error(&format!(
                    "no rule {code:?}; see --list-rules"
                )));
            };
            out.stdout = text.into_bytes();
        } else {
            return None;
        }
        Some(out)
    }

    /// Resolves the flags and the configuration file they find into the
    /// run's [`Checks`] (the configuration is looked for from the current
    /// directory, unless `--isolated` or `--config`).
    ///
    /// # Errors
    /// An invalid configuration.
    pub fn checks(&self) -> Result<Checks, String> {
        self.checks_in(&config::FileSystem)
    }

    /// [`Args::checks`], the configuration found and read through `files`
    /// (the npm command's: the same discovery and parse, over Node's file
    /// system).
    ///
    /// # Errors
    /// An invalid configuration.
    pub fn checks_in(&self, files: &dyn config::ConfigFiles) -> Result<Checks, String> {
        let cli = &self.cli;
        let cfg_file = if cli.isolated {
            None
        } else {
            cli.config.clone().or_else(|| {
                files
                    .current_dir()
                    .and_then(|d| config::discover_in(&d, files))
            })
        };
        let cfg = cfg_file
            .as_deref()
            .map(|p| config::load_in(p, files))
            .transpose()
            .map_err(|e| format!("invalid configuration: {e}"))?
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
        let dataset = idx_validate::dataset::DatasetSettings {
            classes: cli.classes.or(cfg.classes),
            pairs: cli
                .pair
                .chunks_exact(2)
                .map(|p| (p[0].clone(), p[1].clone()))
                .collect(),
        };
        // --fix / --unsafe-fixes, or `fix` / `unsafe-fixes` in the
        // configuration (--no-fix overrides the configuration: a
        // report-only run never writes)
        let fix_on = resolve::fix_on(cli.fix, cli.no_fix, cfg.fix);
        let unsafe_fixes = cli.unsafe_fixes || cfg.unsafe_fixes.unwrap_or(false);
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
        Ok(Checks {
            settings,
            filter,
            dataset,
            byte_order,
            fix_on,
            unsafe_fixes,
            ctx,
            cfg,
            cli_dtype: cli.expect_dtype.is_some(),
            cli_shape: cli.expect_shape.is_some(),
        })
    }

    /// What the run reports once every input is checked (`results`, in
    /// input order, each checked with [`Checks::for_input`]'s settings):
    /// the dataset rules over all of them, each input's rule filter, the
    /// report in the `--format` asked for (`--statistics` included) as
    /// `stdout`, the notes as `stderr`, and the exit status. `walked`: the
    /// indices of inputs found by walking a directory; `empty`: the
    /// directories in which no IDX file was found.
    pub fn report(
        &self,
        checks: &Checks,
        results: &mut [FileResult],
        filters: &[config::RuleFilter],
        walked: &[usize],
        empty: &[String],
    ) -> Output {
        let cli = &self.cli;
        let mut notes = String::new();
        idx_validate::dataset::apply(results, walked, &checks.dataset);
        // --classes reads every labels-shaped input (and proves a rank-1
        // integer file's byte order): say so when it met none
        if let (Some(n), false) = (checks.dataset.classes, cli.quiet) {
            let applied = results
                .iter()
                .any(|r| r.outcome.as_ref().is_ok_and(|c| c.report.labels.is_some()));
            if !applied {
                notes.push_str(&format!(
                    "note: --classes {n} applied to no input: none has a labels header (rank 1, or rank 2 of a few columns, of integers)\n"
                ));
            }
        }
        for (res, f) in results.iter_mut().zip(filters) {
            config::filter_result(res, f);
        }
        let text = self.render(results, &checks.ctx, empty);
        let t = render::totals(results, checks.ctx.deny_warnings);
        Output {
            stdout: text.into_bytes(),
            stderr: notes.into_bytes(),
            status: resolve::exit_status(
                &t,
                !empty.is_empty(),
                cli.exit_zero,
                cli.exit_non_zero_on_fix,
                cli.diff,
            ),
        }
    }

    /// The report of `results` in the `--format` asked for.
    pub fn render(&self, results: &[FileResult], ctx: &Context, empty: &[String]) -> String {
        render_results(
            FormatName(self.cli.format),
            self.cli.statistics,
            results,
            ctx,
            empty,
        )
    }
}

/// The whole command on an argument list whose first item is the program
/// name. `idx_validate::run` (the library) calls it for the Python package.
pub(crate) fn run_command<I, T>(args: I) -> ExitStatus
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let args = match Args::parse(args) {
        Ok(args) => args,
        Err(e) => return e.print(),
    };
    // the one place an error of the run is reported: `error: ...`, exit 2
    match try_run(&args) {
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

/// The run's [`Checks`] and what only the binary needs: the walk of its
/// paths, each input's settings, the repair, where the report goes.
struct Resolved {
    checks: Checks,
    expansion: idx_validate::walk::Expansion,
    per_file: Vec<(Settings, config::RuleFilter)>,
    fixing: Option<FixSettings>,
    /// The repair of standard input writes to standard output.
    stream_out: bool,
    input_ids: Vec<idx_io::Identity>,
    /// `--output-file` (not `-`).
    output_file: Option<PathBuf>,
}

/// Resolves `args` and the configuration file it finds into a [`Resolved`].
fn resolve(args: &Args) -> Result<Resolved, RunError> {
    let cli = &args.cli;
    let checks = args.checks().map_err(RunError)?;
    let mut expansion = expand(&cli.paths, &args.walk_options(&checks))?;
    args.add_pairs(&mut expansion);
    // per-path overrides: the file's own settings and rule filter (the
    // command line's --expect-* win over every override)
    let per_file: Vec<(Settings, config::RuleFilter)> = expansion
        .inputs
        .iter()
        .map(|i| {
            checks.for_input(match i {
                Ok(Source::File(p)) | Err((p, _)) => Some(p.as_path()),
                Ok(Source::Stdin) => None,
            })
        })
        .collect();
    let stream_out = resolve::repair_inputs(
        checks.fix_on,
        cli.diff,
        cli.output.as_deref(),
        &expansion.inputs,
    )?;
    let fixing = (checks.fix_on || cli.diff).then(|| FixSettings {
        options: idx::FixOptions::default()
            .with_unsafe_fixes(checks.unsafe_fixes)
            .with_assume_byte_order(checks.byte_order),
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
    Ok(Resolved {
        checks,
        expansion,
        per_file,
        fixing,
        stream_out,
        input_ids,
        output_file,
    })
}

/// The command on parsed arguments: the exit status of a run that went
/// through, or the error that stopped it.
fn try_run(args: &Args) -> Result<ExitStatus, RunError> {
    let cli = &args.cli;
    if let Some(out) = args.informational() {
        let _ = std::io::stdout().lock().write_all(&out.stdout);
        let _ = std::io::stderr().lock().write_all(&out.stderr);
        return Ok(out.status);
    }
    let r = resolve(args)?;
    let ex = &r.expansion;
    eprint!("{}", args.walk_messages(ex));
    // the repair of standard input writes to standard output from a worker
    let mut results = run(&ex.inputs, &r.per_file, cli.jobs, r.fixing.as_ref());
    let filters: Vec<config::RuleFilter> = r.per_file.iter().map(|(_, f)| f.clone()).collect();
    let out = args.report(&r.checks, &mut results, &filters, &ex.walked, &ex.empty);
    let _ = std::io::stderr().write_all(&out.stderr);
    match r.output_file.as_deref() {
        Some(p) => {
            idx_io::output::write(p, idx_io::Policy::Overwrite, &r.input_ids, &out.stdout)
                .map_err(|e| RunError(format!("--output-file {e}")))?;
        }
        // standard output carries the repaired stream
        None if r.stream_out => {
            let _ = std::io::stderr().write_all(&out.stdout);
        }
        None => {
            let mut stdout = std::io::stdout().lock();
            let _ = stdout.write_all(&out.stdout);
            let _ = stdout.flush();
        }
    }
    Ok(out.status)
}

/// The report of `results` in `format` (or, with `statistics`, the counts
/// per rule); `empty`: the directories in which no IDX file was found
/// (GitHub annotations of their own).
pub fn render_results(
    format: FormatName,
    statistics: bool,
    results: &[FileResult],
    ctx: &Context,
    empty: &[String],
) -> String {
    let format = format.0;
    if statistics {
        return render::stats::render(results, format == Format::Json);
    }
    match format {
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
