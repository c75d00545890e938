//! `idx`: look at IDX data and convert it.
//!
//! - `idx show FILE` draws the first items (rank 3, e.g. n x 28 x 28) in the
//!   terminal or as a PNG contact sheet; rank 2 as one image; rank 1 as a
//!   histogram.
//! - `idx info FILE` prints the header field by field and payload statistics.
//! - `idx dump FILE` prints the content as JSON (the corpus encoding);
//!   `idx write` reads that JSON on stdin and writes IDX to stdout. They are
//!   the reference reader and writer of the conformance runner.
//! - `idx convert` converts to and from Caffe LMDB and NumPy (`idx_convert`).

mod convert;
mod dump;
mod info;
mod show;
mod write;

use clap::{CommandFactory, Parser, Subcommand, ValueEnum};
use idx_io::ExitStatus;
use std::path::PathBuf;

#[derive(Parser)]
#[command(
    name = "idx",
    version,
    about = "Look at IDX files and convert them to and from JSON",
    after_help = AFTER_HELP,
    arg_required_else_help = true,
    args_conflicts_with_subcommands = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Cmd>,
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    #[arg(long, value_name = "SHELL", exclusive = true)]
    completions: Option<clap_complete::Shell>,
    /// Print the man page (roff).
    #[arg(long, exclusive = true)]
    man: bool,
}

const AFTER_HELP: &str = "\
Every FILE may be gzipped (recognised by its magic) or - for standard input.
An input that is not valid IDX is reported on standard error with the
library's error findings (rule code, offset, expected, found, hint), as
idx-validate reports them. A payload that the byte-order test calls
little-endian (IDX501, a statistical test) is read as IDX says, with the
warning and its score on standard error (--assume-byte-order says how to
read it when you know).

EXIT STATUS:
    0   success
    1   the input is not valid IDX (or bad content JSON for write)
    2   a usage error, or a file that could not be read or written";

/// How every IDX input of a command is read.
#[derive(clap::Args, Clone, Copy, Debug, Default)]
pub(crate) struct ReadArgs {
    /// The byte order of the payload's elements, when you know it: little
    /// reads a payload written in native x86 order (numpy tofile, '<f4');
    /// big reads the bytes as IDX says, untested. Without it, a payload
    /// that reads little-endian (IDX501) is read as IDX says, with the
    /// byte-order test's warning on standard error.
    #[arg(long, value_enum, value_name = "ORDER")]
    pub assume_byte_order: Option<Order>,
    /// Stop decompressing a gzip input at SIZE bytes (IDX702); 0 for no
    /// limit. Sizes take K, M, G, T, KiB, MiB, GiB, TiB. [default: 64GiB]
    #[arg(long, value_name = "SIZE", value_parser = idx_io::size::parse_size)]
    pub max_decompressed: Option<u64>,
}

/// A byte order on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum Order {
    /// Least significant byte first.
    Little,
    /// Most significant byte first, as IDX requires.
    Big,
}

impl ReadArgs {
    /// The library's reading options for these arguments.
    pub(crate) fn options(self) -> idx::ReadOptions {
        idx::ReadOptions::default()
            .with_limits(idx::Limits::from_setting(self.max_decompressed))
            .with_byte_order(self.assume_byte_order.map(|o| match o {
                Order::Little => idx::ByteOrder::Little,
                Order::Big => idx::ByteOrder::Big,
            }))
    }
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(super) enum Color {
    Auto,
    Always,
    Never,
}

#[derive(Subcommand)]
enum Cmd {
    /// Draw the first items (rank 3), the image (rank 2) or a histogram (rank 1).
    Show {
        /// The IDX file, gzip or not, or - for standard input.
        file: PathBuf,
        /// How many items of a rank-3 file.
        #[arg(long, default_value_t = 16)]
        items: usize,
        /// The first item to show (0-based).
        #[arg(long, value_name = "N", default_value_t = 0)]
        start: usize,
        /// Items per row of the grid (default: as many as fit the terminal's width in the terminal, a near-square grid in a PNG).
        #[arg(long)]
        cols: Option<usize>,
        /// Write a PNG (contact sheet, image, or a histogram for rank 1) here instead of drawing in the terminal; - writes it to standard output.
        #[arg(long, value_name = "OUT.png")]
        png: Option<PathBuf>,
        /// Replace an existing OUT.png (never one of the inputs).
        #[arg(long, requires = "png")]
        force: bool,
        /// Enlarge the PNG K times in each direction.
        #[arg(long, value_name = "K", default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
        scale: u16,
        /// 24-bit grey half blocks (auto: on a terminal without NO_COLOR), else an ASCII ramp.
        #[arg(long, value_enum, default_value_t = Color::Auto)]
        color: Color,
        #[command(flatten)]
        read: ReadArgs,
    },
    /// The header field by field, with offsets, and payload statistics.
    Info {
        /// The IDX file, gzip or not, or - for standard input.
        file: PathBuf,
        #[command(flatten)]
        read: ReadArgs,
    },
    /// Print the content as JSON: {"dtype", "shape", "data"}, floats as bit patterns.
    Dump {
        /// The IDX file, gzip or not, or - for standard input.
        file: PathBuf,
        /// For the conformance runner's reader protocol: an invalid input prints an error document ({"error": ...}) on stdout instead of the findings on stderr.
        #[arg(long)]
        error_document: bool,
        #[command(flatten)]
        read: ReadArgs,
    },
    /// Read content JSON on stdin and write the IDX bytes to stdout (nothing on stdout when the JSON is bad: the error goes to stderr).
    Write {
        /// For the conformance runner's writer protocol: bad content also prints an error document ({"error": ...}) on stdout.
        #[arg(long)]
        error_document: bool,
    },
    /// Convert to and from Caffe LMDB (Datum records) and NumPy (.npy, .npz).
    Convert(convert::ConvertArgs),
}

/// The whole command on an argument list whose first item is the program
/// name. `idx_cli::run` (the library) calls it for the Python package.
pub(crate) fn run_command<I, T>(args: I) -> ExitStatus
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            let status = ExitStatus::from(u8::try_from(e.exit_code()).unwrap_or(2));
            if idx_io::escape::quotes_input(&e) {
                // a usage error quotes what was given: escaped, unstyled
                eprint!(
                    "{}",
                    idx_io::escape::clap_text(&idx_io::escape::clap_values(e))
                );
            } else {
                let _ = e.print();
            }
            return status;
        }
    };
    let mut stdout = std::io::stdout().lock();
    if let Some(shell) = cli.completions {
        clap_complete::generate(shell, &mut Cli::command(), "idx", &mut stdout);
        return ExitStatus::SUCCESS;
    }
    if cli.man {
        return match clap_mangen::Man::new(Cli::command()).render(&mut stdout) {
            Ok(()) => ExitStatus::SUCCESS,
            Err(e) => fail(e, 2),
        };
    }
    drop(stdout);
    let Some(command) = cli.command else {
        return fail("a subcommand is required (see idx --help)", 2);
    };
    match command {
        Cmd::Show {
            file,
            items,
            start,
            cols,
            png,
            force,
            scale,
            color,
            read,
        } => show::show(
            &file,
            read.options(),
            &show::Picture {
                n: items,
                start,
                cols,
                png: png.as_deref(),
                png_policy: if force {
                    idx_io::Policy::Overwrite
                } else {
                    idx_io::Policy::Create
                },
                scale: usize::from(scale),
                color,
            },
        ),
        Cmd::Info { file, read } => info::info(&file, read.options()),
        Cmd::Dump {
            file,
            error_document,
            read,
        } => dump::dump(&file, error_document, read.options()),
        Cmd::Write { error_document } => write::write(error_document),
        Cmd::Convert(args) => convert::run(args),
    }
}

/// `path` opened and validated (`info`, `dump`), or the exit status of a
/// failure to read it (2, the error said on standard error).
pub(super) fn open_validated(
    path: &std::path::Path,
    opts: idx::ReadOptions,
) -> Result<(idx_cli::input::Input, idx::Report), ExitStatus> {
    let shown = idx_io::escape::path;
    let mut input = idx_cli::input::Input::open(path, opts)
        .map_err(|e| fail(format!("{}: {e}", shown(path)), 2))?;
    let report = input
        .validate()
        .map_err(|e| fail(format!("{}: {e}", input.name), 2))?;
    Ok((input, report))
}

pub(super) fn fail(msg: impl std::fmt::Display, code: u8) -> ExitStatus {
    eprintln!("error: {msg}");
    ExitStatus::from(code)
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    #[test]
    fn clap_definition_is_consistent() {
        super::Cli::command().debug_assert();
    }
}
