//! `test-reader` and `test-writer`: one implementation against the corpus.

use super::{write_output, CliError};
use clap::{Args, ValueEnum};
use idx_conformance::runner::{self, Adapter, Config, Mode};
use idx_conformance::{cases, corpus, matrix};
use idx_io::ExitStatus;
use std::path::PathBuf;

#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum Format {
    Human,
    Json,
}

#[derive(Args)]
pub(crate) struct RunArgs {
    /// A corpus folder to check first: every case file against the SHA-256
    /// of the recipes compiled into this binary; the run stops with exit 2
    /// at the first missing or different file. The inputs are written from
    /// the recipes either way, one at a time, each alone in a temporary
    /// folder only this user opens, so an installed binary needs no source tree and no
    /// answer is on disk.
    #[arg(long)]
    corpus: Option<PathBuf>,
    /// The run's seed: the order of the cases, the request IDs and each
    /// case's bytes (its variant) follow from it (default: a fresh one,
    /// printed on standard error).
    #[arg(long)]
    seed: Option<u64>,
    /// Give each case its committed bytes instead of a variant drawn from
    /// the seed: to reproduce what a report says of a file in corpus/. An
    /// adapter can look such a run's answers up (corpus/README.md, "Threat
    /// model").
    #[arg(long)]
    no_variants: bool,
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
    /// line on stdin, one answer per line (protocol 3, or 2,
    /// corpus/README.md).
    #[arg(long)]
    persistent: bool,
    /// The least time a persistent adapter's start-up (its ready line) is
    /// given, in seconds; it gets the larger of this and --timeout, and is
    /// started once more with 3 times --timeout (or this) before it counts
    /// as a timeout.
    #[arg(long, default_value_t = 30.0, value_name = "SECONDS")]
    startup_timeout: f64,
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
    /// case, with its status and detail as a comment); the run's failures
    /// are then expected, and the exit status 0.
    #[arg(long, value_name = "FILE")]
    write_expected: Option<PathBuf>,
    /// Output format on stdout.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
    /// Also write the JSON results to this file (for `matrix --merge`).
    #[arg(long, value_name = "FILE")]
    json_out: Option<PathBuf>,
    /// Implementation name recorded in the JSON results (default: the
    /// adapter's file name without its extension: the first argument that
    /// is a file, else the command's).
    #[arg(long, default_value = "")]
    name: String,
    /// Implementation version recorded in the JSON results.
    #[arg(long = "impl-version", default_value = "")]
    impl_version: String,
    /// The command to test, after `--`.
    #[arg(last = true, required = true)]
    command: Vec<String>,
}

/// Runs one implementation, a reader or a writer, against the corpus and
/// prints the report: the failure verdict when a case failed unexpectedly
/// (or, with `--strict-expected`, an expected failure passed).
///
/// # Errors
/// The expected-failures file cannot be read, the corpus is missing or
/// changed, the adapter cannot handle the simplest case, an output cannot
/// be written.
pub(crate) fn run(mode: Mode, a: RunArgs) -> Result<ExitStatus, CliError> {
    let expected_failures = match &a.expected_failures {
        Some(p) => runner::read_expected_failures(p)
            .map_err(|e| format!("{}: {e}", idx_io::escape::path(p)))?,
        None => vec![],
    };
    let all = if a.large {
        cases::with_on_demand()
    } else {
        cases::all()
    };
    if let Some(root) = &a.corpus {
        corpus::verify(root, &all)?;
    }
    let seed = a.seed.unwrap_or_else(runner::random::fresh_seed);
    let cfg = Config {
        adapter: Adapter {
            command: a.command.clone(),
            persistent: a.persistent,
            timeout: runner::deadline(a.timeout),
            memory_mib: (a.memory_mib > 0).then_some(a.memory_mib),
            startup: runner::deadline(a.startup_timeout),
        },
        run: a.run,
        skip: a.skip,
        expected_failures,
        seed,
        variants: !a.no_variants,
    };
    let mut report = runner::run(&all, mode, &cfg)?;
    report.name = if a.name.is_empty() {
        default_name(&a.command)
    } else {
        a.name
    };
    report.version = a.impl_version;
    if let Some(p) = &a.write_expected {
        let how = format!(
            "`idx-conformance {} --write-expected FILE -- CMD...`",
            if mode == Mode::Reader {
                "test-reader"
            } else {
                "test-writer"
            }
        );
        write_output(p, matrix::expected_failures_text(&report, &how).as_bytes())?;
        // the file now lists every failure: they are expected
        for o in &mut report.outcomes {
            let listed = o.listed();
            o.expected_failure = listed != runner::Listed::No;
            o.some_variants = listed == runner::Listed::SomeVariants;
        }
    }
    // stamped with the committed corpus's fingerprint (the on-demand cases
    // of --large are recipes too), as `matrix --results` stamps its own
    let mut json = report.to_json();
    corpus::stamp(&mut json, &cases::all());
    if let Some(p) = &a.json_out {
        write_output(p, format!("{json:#}\n").as_bytes())?;
    }
    match a.format {
        Format::Human => print!("{}", report.render_human()),
        Format::Json => println!("{json}"),
    }
    // after the report: an error of the run stays its one line
    eprintln!("seed {seed} (`--seed {seed}` runs the same inputs in the same order again)");
    let passes = runner::unexpected_passes(&report.outcomes);
    if a.strict_expected && passes > 0 {
        eprintln!(
            "{} listed in the expected failures passed (XPASS above): remove them from the file",
            idx_text::plural::count(passes as u64, "case")
        );
        return Ok(ExitStatus::Failure);
    }
    if runner::unexpected(&report.outcomes) == 0 {
        Ok(ExitStatus::Success)
    } else {
        Ok(ExitStatus::Failure)
    }
}

/// The name of an implementation run without `--name`: the file name,
/// without its extension, of the first argument that is a file (the
/// adapter script an interpreter runs), else of the command.
fn default_name(command: &[String]) -> String {
    let stem = |a: &String| {
        std::path::Path::new(a)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
    };
    command
        .iter()
        .skip(1)
        .find(|a| std::path::Path::new(a).is_file())
        .or(command.first())
        .and_then(stem)
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::default_name;

    #[test]
    fn an_implementation_is_named_by_its_adapter_not_its_interpreter() {
        let args = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let script = concat!(env!("CARGO_MANIFEST_DIR"), "/src/cli/run.rs");
        assert_eq!(
            default_name(&args(&["/usr/bin/python3", script, "--persistent"])),
            "run"
        );
        assert_eq!(default_name(&args(&["target/debug/idx", "dump"])), "idx");
        assert_eq!(default_name(&args(&["sh", "-c", "cat"])), "sh");
    }
}
