//! `idx-conformance`: generate and check the corpus, and test other
//! people's IDX readers and writers against it.

use clap::{Args, Parser, Subcommand, ValueEnum};
use idx_conformance::cases;
use idx_conformance::content::Content;
use idx_conformance::corpus;
use idx_conformance::matrix;
use idx_conformance::runner::{self, Config, Mode};
use std::io::{Read, Write};
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
    /// Write the corpus from its recipes (or, with --check, compare).
    Generate {
        /// The corpus folder.
        #[arg(long, default_value_os_t = idx_conformance::default_corpus())]
        corpus: PathBuf,
        /// Do not write; exit 1 if the committed corpus differs.
        #[arg(long)]
        check: bool,
    },
    /// Run a reader: `CMD ARGS... FILE` prints the content as JSON and exits
    /// 0, or exits 1 to reject.
    TestReader(RunArgs),
    /// Run a writer: `CMD ARGS...` reads content JSON on stdin and writes IDX
    /// to stdout.
    TestWriter(RunArgs),
    /// Run every shipped adapter and write the matrix.
    Matrix {
        /// Python interpreter with numpy and idx2numpy.
        #[arg(long, default_value = "python3")]
        python: PathBuf,
        /// Where to write the Markdown.
        #[arg(long, default_value_os_t = idx_conformance::default_corpus().join("MATRIX.md"))]
        out: PathBuf,
    },
    /// The reference reader (the `idx` library), for the runner.
    #[command(hide = true)]
    ReferenceReader { file: PathBuf },
    /// The reference writer (the `idx` library), for the runner.
    #[command(hide = true)]
    ReferenceWriter,
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Human,
    Json,
}

#[derive(Args)]
struct RunArgs {
    /// The corpus folder.
    #[arg(long, default_value_os_t = idx_conformance::default_corpus())]
    corpus: PathBuf,
    /// Per-case time limit in seconds.
    #[arg(long, default_value_t = 10.0)]
    timeout: f64,
    /// Address-space limit per case in MiB (0: none).
    #[arg(long, default_value_t = 4096)]
    memory_mib: u64,
    /// Run only cases whose ID matches (repeatable).
    #[arg(long = "run", value_name = "GLOB")]
    run: Vec<String>,
    /// Skip cases whose ID matches (repeatable).
    #[arg(long = "skip", value_name = "GLOB")]
    skip: Vec<String>,
    /// A file of case-ID globs expected to fail (one per line, # comments).
    #[arg(long)]
    expected_failures: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
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
                        idx::plural::count(cases.len() as u64, "recipe")
                    );
                    ExitCode::SUCCESS
                } else {
                    eprintln!("run `cargo run -p idx-conformance -- generate` to update it");
                    ExitCode::FAILURE
                }
            } else {
                match corpus::generate(&root, &cases) {
                    Ok(n) => {
                        println!(
                            "wrote {} for {} under {}",
                            idx::plural::count(n as u64, "file"),
                            idx::plural::count(cases.len() as u64, "case"),
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
        Cmd::Matrix { python, out } => {
            let exe = std::env::current_exe().unwrap_or_else(|_| PathBuf::from("idx-conformance"));
            let impls = matrix::shipped(&exe, &python, &idx_conformance::adapters_dir());
            match matrix::build(&cases::all(), idx_conformance::default_corpus(), &impls) {
                Ok(md) => match std::fs::write(&out, md) {
                    Ok(()) => {
                        println!("wrote {}", out.display());
                        ExitCode::SUCCESS
                    }
                    Err(e) => {
                        eprintln!("error: {}: {e}", out.display());
                        ExitCode::from(2)
                    }
                },
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::from(2)
                }
            }
        }
        Cmd::ReferenceReader { file } => reference_reader(&file),
        Cmd::ReferenceWriter => reference_writer(),
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
    let cfg = Config {
        corpus: a.corpus,
        command: a.command.clone(),
        timeout: Duration::from_secs_f64(a.timeout.max(0.001)),
        memory_mib: (a.memory_mib > 0).then_some(a.memory_mib),
        run: a.run,
        skip: a.skip,
        expected_failures,
    };
    let outcomes = match runner::run(&cases::all(), mode, &cfg) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    match a.format {
        Format::Human => print!("{}", runner::render_human(&outcomes, mode)),
        Format::Json => println!("{}", runner::render_json(&outcomes, mode, &a.command)),
    }
    if runner::unexpected(&outcomes) == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

fn reference_reader(file: &PathBuf) -> ExitCode {
    let bytes = match std::fs::read(file) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("error: {}: {e}", file.display());
            return ExitCode::from(2);
        }
    };
    match idx::parse(&bytes) {
        Ok(view) => {
            println!("{}", Content::of(&view.array()).to_json(false));
            ExitCode::SUCCESS
        }
        Err(e) => {
            println!(
                "{}",
                serde_json::json!({"error": {"rule": e.rule().code(), "offset": e.offset(), "message": e.to_string()}})
            );
            ExitCode::FAILURE
        }
    }
}

fn reference_writer() -> ExitCode {
    let mut input = Vec::new();
    if let Err(e) = std::io::stdin().read_to_end(&mut input) {
        eprintln!("error: stdin: {e}");
        return ExitCode::from(2);
    }
    let content = serde_json::from_slice(&input)
        .map_err(|e| e.to_string())
        .and_then(|v| Content::from_json(&v));
    let array = match content.map(|c| c.to_array()) {
        Ok(Ok(a)) => a,
        Ok(Err(e)) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let stdout = std::io::stdout();
    let mut lock = stdout.lock();
    match idx::write(&mut lock, &array).map(|_| lock.flush()) {
        Ok(Ok(())) => ExitCode::SUCCESS,
        Ok(Err(e)) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
