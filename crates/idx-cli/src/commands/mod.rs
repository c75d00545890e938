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

use clap::{CommandFactory, Parser, Subcommand, ValueEnum};
use idx_cli::input::{self, shown, Input};
use idx_cli::{picture, stats::Stats};
use idx_io::ExitStatus;
use std::io::{IsTerminal, Read, Write};
use std::path::{Path, PathBuf};

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
library's findings (rule code, offset, expected, found, hint), as
idx-validate reports them.

EXIT STATUS:
    0   success
    1   the input is not valid IDX (or bad content JSON for write)
    2   a usage error, or a file that could not be read or written";

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
        /// Write a PNG (contact sheet, image, or a histogram for rank 1) here instead of drawing in the terminal.
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
    },
    /// The header field by field, with offsets, and payload statistics.
    Info {
        /// The IDX file, gzip or not, or - for standard input.
        file: PathBuf,
    },
    /// Print the content as JSON: {"dtype", "shape", "data"}, floats as bit patterns.
    Dump {
        /// The IDX file, gzip or not, or - for standard input.
        file: PathBuf,
        /// For the conformance runner's reader protocol: an invalid input prints an error document ({"error": ...}) on stdout instead of the findings on stderr.
        #[arg(long)]
        error_document: bool,
    },
    /// Read content JSON on stdin and write the IDX bytes to stdout.
    Write,
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
            let _ = e.print();
            return ExitStatus::from(u8::try_from(e.exit_code()).unwrap_or(2));
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
        } => show(
            &file,
            &Picture {
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
        Cmd::Info { file } => info(&file),
        Cmd::Dump {
            file,
            error_document,
        } => dump(&file, error_document),
        Cmd::Write => write(),
        Cmd::Convert(args) => convert::run(args),
    }
}

fn fail(msg: impl std::fmt::Display, code: u8) -> ExitStatus {
    eprintln!("error: {msg}");
    ExitStatus::from(code)
}

/// What `idx show` draws and how.
struct Picture<'a> {
    n: usize,
    start: usize,
    cols: Option<usize>,
    png: Option<&'a Path>,
    /// `--force`: the PNG may replace an existing file (never an input).
    png_policy: idx_io::Policy,
    scale: usize,
    color: Color,
}

/// The terminal's width in columns: the terminal's own when stdout is one,
/// else `COLUMNS`, else 80.
fn terminal_width() -> usize {
    if let Some((terminal_size::Width(w), _)) = terminal_size::terminal_size() {
        return usize::from(w).max(1);
    }
    std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.trim().parse().ok())
        .filter(|&c: &usize| c > 0)
        .unwrap_or(80)
}

/// The longest side of one drawn item, in pixels.
const MAX_SIDE: u64 = 16_384;
/// The most source pixels one `show` reads and draws (items with their
/// separators): what it holds is about 17 bytes a pixel at most (the
/// elements, their values as f64, the grey level), so 64 MiB here.
const MAX_PIXELS: u64 = 1 << 22;
/// The most pixels of a PNG after `--scale`.
const MAX_SCALED_PIXELS: u64 = 1 << 26;

/// What `show` will read of a valid header: `(first, count)` items of a
/// rank-3 file, `(0, 1)` otherwise; refused (exit 2) before anything is
/// read when nothing drawable fits the limits.
fn drawable(name: &str, h: &idx::Header, p: &Picture<'_>) -> Result<(usize, usize), ExitStatus> {
    let dims = h.dims();
    if dims.is_empty() || dims.len() > 3 {
        return Err(fail(
            format!(
                "show draws rank 1, 2 or 3; this file has rank {} (see idx info)",
                dims.len()
            ),
            2,
        ));
    }
    let (first, count) = if let [d0, _, _] = dims[..] {
        let d0 = d0 as usize;
        if p.start >= d0 {
            return Err(fail(
                format!(
                    "--start {} is past the last item ({}, numbered from 0)",
                    p.start,
                    idx::plural::count(d0 as u64, "item")
                ),
                2,
            ));
        }
        (p.start, p.n.min(d0 - p.start))
    } else {
        (0, 1)
    };
    // No picture is sized by header numbers alone: a valid file may declare
    // [16, 4294967295, 0] (no payload at all), and drawing its items would
    // allocate by the 4294967295. Bound each side and the pixels in all.
    if let [.., ih, iw] = dims[..] {
        let (ih, iw) = (u64::from(ih), u64::from(iw));
        let scale = p.scale.max(1) as u64;
        let pixels = (count as u64)
            .saturating_mul(ih.saturating_add(1))
            .saturating_mul(iw.saturating_add(1));
        let scaled = pixels.saturating_mul(scale.saturating_mul(scale));
        if ih > MAX_SIDE || iw > MAX_SIDE || pixels > MAX_PIXELS || scaled > MAX_SCALED_PIXELS {
            let what = if dims.len() == 3 {
                format!(
                    "{} of {ih} x {iw} pixels {} too large to draw",
                    idx::plural::count(count as u64, "item"),
                    if count == 1 { "is" } else { "are" }
                )
            } else {
                format!("an image of {ih} x {iw} pixels is too large to draw")
            };
            let fewer = if dims.len() == 3 {
                "draw fewer items with --items, or a smaller --scale"
            } else {
                "a smaller --scale, if any"
            };
            return Err(fail(
                format!(
                    "{name}: {what} (at most {MAX_SIDE} pixels a side, {MAX_PIXELS} pixels read \
                     and {MAX_SCALED_PIXELS} pixels drawn; {fewer}); nothing was read"
                ),
                2,
            ));
        }
    }
    Ok((first, count))
}

fn show(path: &Path, p: &Picture<'_>) -> ExitStatus {
    let mut input = match Input::open(path) {
        Ok(i) => i,
        Err(e) => return fail(format!("{}: {e}", shown(path)), 2),
    };
    // A PNG destination is checked before any work: never an input, never
    // an existing file without --force.
    let ids: Vec<idx_io::Identity> = input.identity().into_iter().collect();
    if let Some(png) = p.png {
        if let Err(e) = idx_io::output::check(png, p.png_policy, &ids) {
            return fail(e, 2);
        }
    }
    // The header first, so that what cannot be drawn is refused before the
    // payload is read; an input that is not valid IDX is reported below
    // with every finding.
    let early = input
        .stream()
        .ok()
        .and_then(|mut s| idx::read_header(&mut s).ok());
    if let Some(h) = &early {
        if let Err(code) = drawable(&input.name, h, p) {
            return code;
        }
    }
    let report = match input.validate() {
        Ok(r) => r,
        Err(e) => return fail(format!("{}: {e}", input.name), 2),
    };
    if input::has_errors(&report) {
        eprint!("{}", input::render_errors(&input.name, &report));
        eprintln!("(run idx-validate for every finding, warnings included)");
        return ExitStatus::from(1);
    }
    let Some(h) = report.header.clone() else {
        return fail(format!("{}: no header", input.name), 1);
    };
    let (first, count) = match drawable(&input.name, &h, p) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let dims = h.dims().to_vec();
    let mut out = std::io::stdout().lock();
    if dims.len() == 1 {
        let (rows, other) = match histogram_of(&mut input, &h) {
            Ok(x) => x,
            Err(e) => return fail(format!("{}: {e}", input.name), 2),
        };
        let Some(png_out) = p.png else {
            let _ = out.write_all(picture::histogram_text(&rows, other, 50).as_bytes());
            return ExitStatus::SUCCESS;
        };
        let Some(img) = picture::histogram_picture(&rows) else {
            return fail(
                format!(
                    "{}: no finite value to draw a histogram of; nothing written",
                    input.name
                ),
                1,
            );
        };
        let img = picture::scaled(&img, p.scale);
        return write_png(
            &mut out,
            png_out,
            p.png_policy,
            &ids,
            &img,
            &format!(
                "a histogram of {}",
                idx::plural::count(rows.len() as u64, "bin")
            ),
        );
    }
    // Read only what is drawn: the items [start, start + n) of a rank-3
    // file, the image of a rank-2 one (both bounded by `drawable`).
    let item_len = if dims.len() == 3 {
        h.payload_len() / u64::from(dims[0].max(1))
    } else {
        h.payload_len()
    };
    let skip = h.header_len() as u64 + first as u64 * item_len;
    let take = count as u64 * item_len;
    let mut part = Vec::new();
    let read = input.stream().and_then(|s| {
        let mut s = s.take(skip + take);
        std::io::copy(&mut (&mut s).take(skip), &mut std::io::sink())?;
        s.read_to_end(&mut part)
    });
    if let Err(e) = read {
        return fail(format!("{}: {e}", input.name), 2);
    }
    let mut shape: Vec<usize> = dims.iter().map(|&d| d as usize).collect();
    if shape.len() == 3 {
        shape[0] = count;
    }
    let mut bytes = idx::encode_header(h.dtype(), &shape).unwrap_or_default();
    bytes.extend_from_slice(&part);
    drop(part);
    let view = match idx::parse(&bytes) {
        Ok(v) => v,
        Err(e) => return fail(format!("{}: {e}", input.name), 2),
    };
    let array = view.array();
    let Some(items) = picture::items(&array, count) else {
        return fail("show draws rank 1, 2 or 3", 2);
    };
    let w = items.first().map_or(1, |g| g.width);
    if let Some(png_out) = p.png {
        let cols = p.cols.unwrap_or_else(|| picture::square_cols(items.len()));
        let sheet = picture::scaled(&picture::contact_sheet(&items, cols), p.scale);
        let cols = cols.clamp(1, items.len().max(1));
        let what = if dims.len() == 3 {
            format!(
                "items {}..{} in a {} x {} grid, row by row",
                first,
                first + items.len() - 1,
                cols,
                items.len().div_ceil(cols)
            )
        } else {
            "the image".to_string()
        };
        return write_png(&mut out, png_out, p.png_policy, &ids, &sheet, &what);
    }
    let color = match p.color {
        Color::Always => true,
        Color::Never => false,
        Color::Auto => {
            std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                && std::io::stdout().is_terminal()
        }
    };
    let cols = p
        .cols
        .unwrap_or_else(|| ((terminal_width() + 1) / (w + 1)).max(1))
        .max(1);
    let mut text = String::new();
    for (r, row) in items.chunks(cols).enumerate() {
        if dims.len() == 3 {
            text.push_str(&picture::caption(first + r * cols, row.len(), w));
        }
        text.push_str(&picture::terminal(
            &picture::contact_sheet(row, cols),
            color,
        ));
    }
    let _ = out.write_all(text.as_bytes());
    ExitStatus::SUCCESS
}

/// The histogram of a rank-1 payload, streamed through a fixed buffer (a
/// second pass when the values are binned): memory does not grow with the
/// file.
fn histogram_of(
    input: &mut Input,
    h: &idx::Header,
) -> std::io::Result<(Vec<(String, usize)>, usize)> {
    let mut hist = picture::Histogram::new(h.dtype());
    let size = h.dtype().size();
    let mut buf = vec![0u8; (256 << 10) / size * size];
    for pass in 0..2 {
        if pass == 1 && !hist.needs_bins() {
            break;
        }
        let mut s = input.stream()?;
        std::io::copy(
            &mut (&mut s).take(h.header_len() as u64),
            &mut std::io::sink(),
        )?;
        let mut left = h.payload_len();
        while left > 0 {
            let want = usize::try_from(left).unwrap_or(usize::MAX).min(buf.len());
            let n = input::fill(&mut s, &mut buf[..want])?;
            if n == 0 {
                break;
            }
            if pass == 0 {
                hist.scan(&buf[..n]);
            } else {
                hist.bin(&buf[..n]);
            }
            left -= n as u64;
        }
    }
    Ok(hist.rows())
}

fn write_png(
    out: &mut impl Write,
    path: &Path,
    policy: idx_io::Policy,
    inputs: &[idx_io::Identity],
    img: &picture::Grey,
    what: &str,
) -> ExitStatus {
    let bytes = match picture::png(img) {
        Ok(b) => b,
        Err(e) => return fail(format!("{}: {e}", shown(path)), 2),
    };
    match idx_io::output::write(path, policy, inputs, &bytes) {
        Ok(()) => {
            let _ = writeln!(
                out,
                "wrote {} ({} x {} pixels: {what})",
                shown(path),
                img.width,
                img.height,
            );
            ExitStatus::SUCCESS
        }
        Err(e) => fail(e, 2),
    }
}

fn info(path: &Path) -> ExitStatus {
    let mut input = match Input::open(path) {
        Ok(i) => i,
        Err(e) => return fail(format!("{}: {e}", shown(path)), 2),
    };
    let report = match input.validate() {
        Ok(r) => r,
        Err(e) => return fail(format!("{}: {e}", input.name), 2),
    };
    let mut s = String::new();
    s.push_str(&format!(
        "{}{}\n",
        input.name,
        if report.compression.is_some() {
            " (gzip; offsets in the decompressed stream)"
        } else {
            ""
        }
    ));
    let head = &report.head;
    // the fields of something that is not IDX (a PNG, a byte-swapped
    // header) would be noise: only the findings are shown
    if head.len() >= 4 && report.looks_like_idx() {
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
    let mut out = std::io::stdout().lock();
    let Some(h) = report
        .header
        .clone()
        .filter(|_| !input::has_errors(&report))
    else {
        // The fields that could be read (none when it is not IDX at all),
        // then the findings on stderr.
        if report.looks_like_idx() {
            let _ = out.write_all(s.as_bytes());
        }
        let _ = out.flush();
        eprint!("{}", input::render_errors(&input.name, &report));
        return ExitStatus::from(1);
    };
    s.push_str(&format!(
        "{:#06x}  payload: {}, {}\n\n",
        h.header_len(),
        idx::plural::count(h.payload_len(), "byte"),
        idx::plural::count(h.element_count(), "element")
    ));
    // Stream the payload for statistics: fixed memory whatever the size.
    let mut stats = Stats::default();
    let name = input.name.clone();
    let stream = match input.stream() {
        Ok(s) => s,
        Err(e) => return fail(format!("{name}: {e}"), 2),
    };
    let mut stream = stream.take(h.header_len() as u64 + h.payload_len());
    let mut buf = vec![0u8; 256 * 1024];
    let mut skip = h.header_len();
    let mut carry = 0usize;
    loop {
        let k = match stream.read(&mut buf[carry..]) {
            Ok(0) => break,
            Ok(k) => k,
            Err(e) => return fail(format!("{name}: {e}"), 2),
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
    ExitStatus::SUCCESS
}

fn dump(path: &Path, error_document: bool) -> ExitStatus {
    let mut input = match Input::open(path) {
        Ok(i) => i,
        Err(e) => return fail(format!("{}: {e}", shown(path)), 2),
    };
    let report = match input.validate() {
        Ok(r) => r,
        Err(e) => return fail(format!("{}: {e}", input.name), 2),
    };
    let header = report
        .header
        .clone()
        .filter(|_| !input::has_errors(&report));
    let Some(h) = header else {
        if error_document {
            let e = report.errors().next();
            let _ = writeln!(
                std::io::stdout().lock(),
                "{}",
                serde_json::json!({"error": {
                    "rule": e.map(|f| f.rule.code()),
                    "offset": e.map(|f| f.offset),
                    "message": e.map(|f| f.message.clone()),
                }})
            );
        } else {
            eprint!("{}", input::render_errors(&input.name, &report));
        }
        return ExitStatus::from(1);
    };
    let name = input.name.clone();
    let mut out = std::io::BufWriter::with_capacity(256 * 1024, std::io::stdout().lock());
    match input
        .stream()
        .and_then(|mut s| idx_cli::dump::dump(&mut s, &h, &mut out))
    {
        Ok(()) => ExitStatus::SUCCESS,
        Err(e) => fail(format!("{name}: {e}"), 2),
    }
}

fn write() -> ExitStatus {
    // the output is complete or absent: the writer spools, then copies
    let mut out = std::io::stdout().lock();
    match idx_cli::write::write(std::io::stdin().lock(), &mut out) {
        Ok(()) => ExitStatus::SUCCESS,
        Err(idx_cli::write::Error::Io(e)) => fail(e, 2),
        Err(idx_cli::write::Error::Content(m)) => {
            drop(out);
            refuse(format!("bad content JSON: {m}"))
        }
    }
}

/// A writer's refusal under the conformance protocol (version 2): an error
/// document on stdout and exit status 1 (the message also on stderr).
fn refuse(msg: String) -> ExitStatus {
    println!("{}", serde_json::json!({"error": {"message": msg}}));
    fail(msg, 1)
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    #[test]
    fn clap_definition_is_consistent() {
        super::Cli::command().debug_assert();
    }
}
