//! `idx convert`: arguments and rendering only; the conversions are
//! `idx_convert`'s.

use clap::{Args, ValueEnum};
use idx_convert::{Error, Overwrite, Progress};
use idx_io::escape::path as shown;
use idx_io::ExitStatus;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// A Caffe LMDB of Datum records (what convert_mnist_data writes).
    CaffeLmdb,
    /// A NumPy .npy file.
    Npy,
    /// A NumPy .npz archive with images.npy and labels.npy.
    Npz,
}

/// The formats `--from` reads (an .npz is not one: extract an array and
/// convert it `--from npy`).
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FromFormat {
    /// A Caffe LMDB of Datum records (what convert_mnist_data writes).
    CaffeLmdb,
    /// A NumPy .npy file.
    Npy,
}

/// The arguments of `idx convert`.
#[derive(Args)]
#[command(after_help = "\
Examples:
  idx convert --to caffe-lmdb IMAGES LABELS -o DB
  idx convert --from caffe-lmdb DB -o IMAGES.idx LABELS.idx
  idx convert --to npy FILE -o FILE.npy
  idx convert --to npz IMAGES LABELS -o DATA.npz
  idx convert --from npy FILE.npy -o FILE.idx

IDX inputs (gzipped or not, - for standard input) are validated first; an
invalid one is refused with its findings. Outputs are written under a
temporary name in their directory, with the permissions the umask gives a new
file, and renamed into place when complete; an output that is one of the
inputs is always refused, an existing one unless --force. -o - writes a .npy
or IDX stream to standard output (the summary then goes to standard error).

Exit status: 0 converted; 1 an input is invalid or cannot be converted
faithfully; 2 usage, I/O or LMDB error, or an existing output.")]
pub struct ConvertArgs {
    /// Convert IDX to this format.
    #[arg(
        long,
        value_enum,
        required_unless_present = "from",
        conflicts_with = "from"
    )]
    to: Option<Format>,
    /// Convert from this format to IDX.
    #[arg(long, value_enum)]
    from: Option<FromFormat>,
    /// The inputs: IMAGES LABELS, or one file or database; - is standard input.
    #[arg(required = true, num_args = 1..=2)]
    inputs: Vec<PathBuf>,
    /// The outputs: one, or IMAGES LABELS for --from caffe-lmdb; - is standard output for a stream (.npy, IDX).
    #[arg(short, long, required = true, num_args = 1..=2)]
    output: Vec<PathBuf>,
    /// Replace an existing output (never an input; a database only if it is an LMDB directory).
    #[arg(long)]
    force: bool,
    #[command(flatten)]
    read: super::ReadArgs,
}

/// A progress bar on stderr when stderr is a terminal; nothing otherwise.
struct Bar {
    bar: Option<ProgressBar>,
}

impl Bar {
    fn new() -> Bar {
        Bar { bar: None }
    }
}

impl Progress for Bar {
    fn start(&mut self, what: &str, total: u64) {
        if !std::io::stderr().is_terminal() {
            return;
        }
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
        if let Ok(style) =
            ProgressStyle::with_template("{msg:18} [{bar:40}] {pos}/{len} ({eta} left)")
        {
            bar.set_style(style.progress_chars("=> "));
        }
        bar.set_message(what.to_string());
        self.bar = Some(bar);
    }
    fn advance(&mut self, n: u64) {
        if let Some(b) = &self.bar {
            b.inc(n);
        }
    }
    fn finish(&mut self) {
        if let Some(b) = self.bar.take() {
            b.finish_and_clear();
        }
    }
    fn byte_order_warning(&mut self, path: &Path, finding: &idx::Finding) {
        eprint!(
            "{}",
            idx_cli::input::render_findings(&shown(path).to_string(), std::iter::once(finding))
        );
    }
}

fn usage(msg: &str) -> ExitStatus {
    eprintln!("error: {msg}");
    ExitStatus::from(2)
}

pub fn run(a: ConvertArgs) -> ExitStatus {
    let ow = if a.force {
        Overwrite::Force
    } else {
        Overwrite::Refuse
    };
    let mut bar = Bar::new();
    let read = a.read.options();
    let (ins, outs) = (a.inputs.as_slice(), a.output.as_slice());
    let result = match (a.to, a.from, ins, outs) {
        (Some(Format::CaffeLmdb), _, [images, labels], [db]) => {
            idx_convert::to_caffe_lmdb(images, labels, db, ow, &read, &mut bar).map(|s| {
                format!(
                    "wrote {}: {} records (keys {:08}..{:08}) from {} {:?} images and {} labels",
                    shown(db),
                    s.records,
                    0,
                    s.records.saturating_sub(1),
                    s.images_dtype,
                    s.images_dims,
                    s.labels_dtype
                )
            })
        }
        (Some(Format::CaffeLmdb), ..) => {
            return usage("--to caffe-lmdb takes IMAGES LABELS and -o DB")
        }
        (_, Some(FromFormat::CaffeLmdb), [db], [images, labels]) => {
            idx_convert::from_caffe_lmdb(db, images, labels, ow, &mut bar).map(|s| {
                format!(
                    "wrote {} ({} {:?}) and {} ({} [{}]) from {} records",
                    shown(images),
                    s.images_dtype,
                    s.images_dims,
                    shown(labels),
                    s.labels_dtype,
                    s.records,
                    s.records
                )
            })
        }
        (_, Some(FromFormat::CaffeLmdb), ..) => {
            return usage("--from caffe-lmdb takes DB and -o IMAGES LABELS")
        }
        (Some(Format::Npy), _, [input], [out]) => {
            idx_convert::to_npy(input, out, ow, &read, &mut bar)
                .map(|h| format!("wrote {} ({} {:?})", shown(out), h.dtype(), h.dims()))
        }
        (Some(Format::Npy), ..) => return usage("--to npy takes one FILE and -o FILE.npy"),
        (Some(Format::Npz), _, [images, labels], [out]) => {
            idx_convert::to_npz(images, labels, out, ow, &read, &mut bar).map(|(i, l)| {
                format!(
                    "wrote {}: images.npy ({} {:?}), labels.npy ({} {:?})",
                    shown(out),
                    i.dtype(),
                    i.dims(),
                    l.dtype(),
                    l.dims()
                )
            })
        }
        (Some(Format::Npz), ..) => return usage("--to npz takes IMAGES LABELS and -o FILE.npz"),
        (_, Some(FromFormat::Npy), [input], [out]) => {
            idx_convert::from_npy(input, out, ow, &mut bar)
                .map(|h| format!("wrote {} ({} {:?})", shown(out), h.dtype(), h.dims()))
        }
        (_, Some(FromFormat::Npy), ..) => {
            return usage("--from npy takes one FILE.npy and -o FILE")
        }
        (None, None, ..) => return usage("give --to FORMAT or --from FORMAT"),
    };
    bar.finish();
    // with `-o -` standard output carries the data: the summary goes to
    // standard error
    let to_stdout = outs.iter().any(|o| idx_io::is_dash(o));
    match result {
        Ok(line) if to_stdout => {
            eprintln!("{line}");
            ExitStatus::SUCCESS
        }
        Ok(line) => {
            println!("{line}");
            ExitStatus::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            match &e {
                Error::Invalid { path, findings } => {
                    eprint!("{}", idx_cli::input::render_findings("", findings.iter()));
                    eprintln!(
                        "  = help: `idx-validate {}` shows each finding in context",
                        shown(path)
                    );
                }
                Error::Records {
                    problems, total, ..
                } => {
                    for p in problems {
                        eprintln!("  {p}");
                    }
                    let more = total.saturating_sub(problems.len() as u64);
                    if more > 0 {
                        eprintln!("  ... and {more} more");
                    }
                }
                _ => {}
            }
            ExitStatus::from(match e {
                Error::Invalid { .. }
                | Error::Unsupported { .. }
                | Error::Mismatch { .. }
                | Error::Records { .. }
                | Error::Npy { .. } => 1,
                _ => 2,
            })
        }
    }
}
