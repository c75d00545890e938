//! `idx-conformance`: generate and check the corpus, and test other
//! people's IDX readers and writers against it.

mod cli;

use clap::{Parser, Subcommand};
use cli::differential::{differential_command, DiffArgs};
use cli::matrix::{matrix_command, MatrixArgs};
use cli::run::{run, RunArgs};
use cli::CliError;
use idx_conformance::runner::Mode;
use idx_io::ExitStatus;
use std::path::PathBuf;
use std::process::ExitCode;

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

fn main() -> ExitCode {
    // the one place an error of the run is reported: `error: ...`, exit 2
    let cli: Cli = cli::parse();
    match try_run(cli) {
        Ok(status) => status.into(),
        Err(e) => {
            eprintln!("error: {e}");
            ExitStatus::Error.into()
        }
    }
}

/// The subcommand on parsed arguments: its verdict when it ran to the
/// end, or the error that stopped it.
fn try_run(cli: Cli) -> Result<ExitStatus, CliError> {
    match cli.command {
        Cmd::Generate {
            corpus: root,
            check,
            large,
        } => cli::generate::generate(&root, check, large),
        Cmd::TestReader(a) => run(Mode::Reader, a),
        Cmd::TestWriter(a) => run(Mode::Writer, a),
        Cmd::Matrix(m) => matrix_command(m),
        Cmd::Differential(d) => differential_command(d),
    }
}
