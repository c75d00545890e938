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

use clap::{Parser, Subcommand, ValueEnum};
use idx_cli::{picture, stats::Stats};
use idx_conformance::content::Content;
use std::io::{IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "idx",
    version,
    about = "Look at IDX files and convert them to and from JSON"
)]
struct Cli {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Color {
    Auto,
    Always,
    Never,
}

#[derive(Subcommand)]
enum Cmd {
    /// Draw the first items (rank 3), the image (rank 2) or a histogram (rank 1).
    Show {
        /// The IDX file (gzip is decompressed).
        file: PathBuf,
        /// How many items of a rank-3 file.
        #[arg(long, default_value_t = 16)]
        items: usize,
        /// Items per row of the grid (default: as many as fit 80 columns).
        #[arg(long)]
        cols: Option<usize>,
        /// Write a PNG contact sheet here instead of drawing in the terminal.
        #[arg(long, value_name = "OUT.png")]
        png: Option<PathBuf>,
        /// 24-bit grey half blocks (auto: on a terminal without NO_COLOR), else an ASCII ramp.
        #[arg(long, value_enum, default_value_t = Color::Auto)]
        color: Color,
    },
    /// The header field by field, with offsets, and payload statistics.
    Info {
        /// The IDX file (gzip is decompressed).
        file: PathBuf,
    },
    /// Print the content as JSON: {"dtype", "shape", "data"}, floats as bit patterns.
    Dump {
        /// The IDX file.
        file: PathBuf,
    },
    /// Read content JSON on stdin and write the IDX bytes to stdout.
    Write,
    /// Convert to and from Caffe LMDB (Datum records) and NumPy (.npy, .npz).
    Convert(convert::ConvertArgs),
}

fn main() -> ExitCode {
    run_command(std::env::args_os())
}

/// The whole command on an argument list whose first item is the program
/// name. `idx_cli::run` (the library) calls it for the Python package.
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
    match cli.command {
        Cmd::Show {
            file,
            items,
            cols,
            png,
            color,
        } => show(&file, items, cols, png.as_deref(), color),
        Cmd::Info { file } => info(&file),
        Cmd::Dump { file } => dump(&file),
        Cmd::Write => write(),
        Cmd::Convert(args) => convert::run(args),
    }
}

fn fail(msg: impl std::fmt::Display, code: u8) -> ExitCode {
    eprintln!("error: {msg}");
    ExitCode::from(code)
}

/// The whole (decompressed) file in memory.
fn load(path: &Path) -> std::io::Result<Vec<u8>> {
    let raw = std::fs::read(path)?;
    if raw.starts_with(&[0x1f, 0x8b]) {
        let mut out = Vec::new();
        flate2::read::MultiGzDecoder::new(&raw[..]).read_to_end(&mut out)?;
        Ok(out)
    } else {
        Ok(raw)
    }
}

fn show(
    path: &Path,
    n: usize,
    cols: Option<usize>,
    png_out: Option<&Path>,
    color: Color,
) -> ExitCode {
    let bytes = match load(path) {
        Ok(b) => b,
        Err(e) => return fail(format!("{}: {e}", path.display()), 2),
    };
    let view = match idx::parse(&bytes) {
        Ok(v) => v,
        Err(e) => {
            return fail(
                format!(
                    "{}: {e} (run idx-validate for every finding)",
                    path.display()
                ),
                1,
            )
        }
    };
    let array = view.array();
    let mut out = std::io::stdout().lock();
    if array.dims().len() == 1 {
        let _ = out.write_all(picture::histogram(&array, 50).as_bytes());
        return ExitCode::SUCCESS;
    }
    let Some(items) = picture::items(&array, n) else {
        return fail(
            format!(
                "show draws rank 1, 2 or 3; this file has rank {} (see idx info)",
                array.dims().len()
            ),
            2,
        );
    };
    let w = items.first().map_or(1, |g| g.width);
    let cols = cols.unwrap_or_else(|| (81 / (w + 1)).max(1));
    let sheet = picture::contact_sheet(&items, cols);
    if let Some(p) = png_out {
        return match picture::png(&sheet)
            .map_err(|e| e.to_string())
            .and_then(|b| std::fs::write(p, b).map_err(|e| e.to_string()))
        {
            Ok(()) => {
                let _ = writeln!(
                    out,
                    "wrote {} ({} x {} pixels, {})",
                    p.display(),
                    sheet.width,
                    sheet.height,
                    idx::plural::count(items.len() as u64, "item")
                );
                ExitCode::SUCCESS
            }
            Err(e) => fail(format!("{}: {e}", p.display()), 2),
        };
    }
    let color = match color {
        Color::Always => true,
        Color::Never => false,
        Color::Auto => {
            std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                && std::io::stdout().is_terminal()
        }
    };
    let _ = out.write_all(picture::terminal(&sheet, color).as_bytes());
    ExitCode::SUCCESS
}

fn info(path: &Path) -> ExitCode {
    let opts = idx::Options::default()
        .with_decompress(true)
        .with_lints(false);
    let report = match std::fs::File::open(path).and_then(|f| idx::validate_reader(f, &opts)) {
        Ok(r) => r,
        Err(e) => return fail(format!("{}: {e}", path.display()), 2),
    };
    let mut s = String::new();
    s.push_str(&format!(
        "{}{}\n",
        path.display(),
        if report.compression.is_some() {
            " (gzip; offsets in the decompressed stream)"
        } else {
            ""
        }
    ));
    let head = &report.head;
    if head.len() >= 4 {
        s.push_str(&format!(
            "0x0000  {:02x} {:02x}        reserved\n",
            head[0], head[1]
        ));
        let t = idx::ElementType::from_code(head[2]).map_or("unknown".into(), |t| {
            format!("{t} ({} each)", idx::plural::count(t.size() as u64, "byte"))
        });
        s.push_str(&format!(
            "0x0002  {:02x}           element type {t}\n",
            head[2]
        ));
        s.push_str(&format!(
            "0x0003  {:02x}           rank {}\n",
            head[3], head[3]
        ));
        for (k, d) in head[4..]
            .chunks_exact(4)
            .take(usize::from(head[3]))
            .enumerate()
        {
            s.push_str(&format!(
                "{:#06x}  {:02x} {:02x} {:02x} {:02x}  dimension {k} = {}\n",
                4 + 4 * k,
                d[0],
                d[1],
                d[2],
                d[3],
                u32::from_be_bytes([d[0], d[1], d[2], d[3]])
            ));
        }
    }
    let errors: Vec<_> = report
        .errors()
        .map(|f| format!("{}: {}", f.rule.code(), f.message))
        .collect();
    let mut out = std::io::stdout().lock();
    let Some(h) = report.header.clone().filter(|_| errors.is_empty()) else {
        let _ = out.write_all(s.as_bytes());
        for e in &errors {
            let _ = writeln!(out, "invalid: {e}");
        }
        return ExitCode::from(1);
    };
    s.push_str(&format!(
        "{:#06x}  payload: {}, {}\n\n",
        h.header_len(),
        idx::plural::count(h.payload_len(), "byte"),
        idx::plural::count(h.element_count(), "element")
    ));
    // Stream the payload for statistics: fixed memory whatever the size.
    let mut stats = Stats::default();
    let stream: Box<dyn Read> = match std::fs::File::open(path) {
        Ok(f) if report.compression.is_some() => Box::new(flate2::read::MultiGzDecoder::new(f)),
        Ok(f) => Box::new(f),
        Err(e) => return fail(format!("{}: {e}", path.display()), 2),
    };
    let mut stream = stream.take(h.header_len() as u64 + h.payload_len());
    let mut buf = vec![0u8; 256 * 1024];
    let mut skip = h.header_len();
    let mut carry = 0usize;
    loop {
        let k = match stream.read(&mut buf[carry..]) {
            Ok(0) => break,
            Ok(k) => k,
            Err(e) => return fail(format!("{}: {e}", path.display()), 2),
        };
        let have = carry + k;
        let from = skip.min(have);
        skip -= from;
        let whole = from + (have - from) / h.dtype().size() * h.dtype().size();
        stats.push_bytes(h.dtype(), &buf[from..whole]);
        buf.copy_within(whole..have, 0);
        carry = have - whole;
    }
    s.push_str(&stats.to_string());
    let _ = out.write_all(s.as_bytes());
    ExitCode::SUCCESS
}

fn dump(path: &Path) -> ExitCode {
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) => return fail(format!("{}: {e}", path.display()), 2),
    };
    let mut out = std::io::stdout().lock();
    match idx::parse(&bytes) {
        Ok(view) => {
            let _ = writeln!(out, "{}", Content::of(&view.array()).to_json(false));
            ExitCode::SUCCESS
        }
        Err(e) => {
            let _ = writeln!(
                out,
                "{}",
                serde_json::json!({"error": {"rule": e.rule().code(), "offset": e.offset(), "message": e.to_string()}})
            );
            ExitCode::from(1)
        }
    }
}

fn write() -> ExitCode {
    let mut input = Vec::new();
    if let Err(e) = std::io::stdin().read_to_end(&mut input) {
        return fail(format!("stdin: {e}"), 2);
    }
    let array = match serde_json::from_slice(&input)
        .map_err(|e| e.to_string())
        .and_then(|v| Content::from_json(&v))
        .and_then(|c| c.to_array().map_err(|e| e.to_string()))
    {
        Ok(a) => a,
        Err(e) => return fail(format!("bad content JSON: {e}"), 1),
    };
    let mut out = std::io::stdout().lock();
    match idx::write(&mut out, &array).map(|_| out.flush()) {
        Ok(Ok(())) => ExitCode::SUCCESS,
        Ok(Err(e)) => fail(e, 2),
        Err(e) => fail(e, 1),
    }
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    #[test]
    fn clap_definition_is_consistent() {
        super::Cli::command().debug_assert();
    }
}
