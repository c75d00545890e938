//! `idx show`: terminal grids, PNG contact sheets and histograms, reading
//! only what is drawn.

use super::{fail, Color};
use idx_cli::input::{self, Input};
use idx_cli::picture;
use idx_io::escape::path as shown;
use idx_io::ExitStatus;
use std::io::{IsTerminal, Read, Write};
use std::path::Path;

/// What `idx show` draws and how.
pub(super) struct Picture<'a> {
    pub(super) n: usize,
    pub(super) start: usize,
    pub(super) cols: Option<usize>,
    pub(super) png: Option<&'a Path>,
    /// `--force`: the PNG may replace an existing file (never an input).
    pub(super) png_policy: idx_io::Policy,
    pub(super) scale: usize,
    pub(super) color: Color,
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
                    idx_text::plural::count(d0 as u64, "item")
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
                    idx_text::plural::count(count as u64, "item"),
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

pub(super) fn show(path: &Path, opts: idx::ReadOptions, p: &Picture<'_>) -> ExitStatus {
    let mut input = match Input::open(path, opts) {
        Ok(i) => i,
        Err(e) => return fail(format!("{}: {e}", shown(path)), 2),
    };
    // A PNG destination is checked before any work: never an input, never
    // an existing file without --force.
    let ids: Vec<idx_io::Identity> = input.identity().into_iter().collect();
    if let Some(png) = p.png.filter(|png| !idx_io::is_dash(png)) {
        if let Err(e) = idx_io::output::check(png, p.png_policy, &ids) {
            return fail(e, 2);
        }
    }
    // The header first, so that what cannot be drawn is refused before the
    // payload is read; an input that is not valid IDX is reported below
    // with every finding.
    let early = input.header();
    if let Some(h) = &early {
        if let Err(code) = drawable(&input.name, h, p) {
            return code;
        }
    }
    let report = match input.validate() {
        Ok(r) => r,
        Err(e) => return fail(format!("{}: {e}", input.name), 2),
    };
    if !report.is_valid() {
        eprint!("{}", input::render_errors(&input.name, &report));
        eprintln!("(run idx-validate for every finding, warnings included)");
        return ExitStatus::from(1);
    }
    let Some(h) = report.header.clone() else {
        return fail(format!("{}: no header", input.name), 1);
    };
    eprint!("{}", input::render_byte_order_warning(&input.name, &report));
    let (first, count) = match drawable(&input.name, &h, p) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let dims = h.dims().to_vec();
    let mut out = std::io::stdout().lock();
    if dims.len() == 1 {
        let hist = match histogram_of(&mut input, &h) {
            Ok(x) => x,
            Err(e) => return fail(format!("{}: {e}", input.name), 2),
        };
        let Some(png_out) = p.png else {
            let _ = out.write_all(picture::histogram_text(&hist, 50).as_bytes());
            return ExitStatus::SUCCESS;
        };
        let Some(img) = picture::histogram_picture(&hist) else {
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
                idx_text::plural::count(hist.rows.len() as u64, "row")
            ),
        );
    }
    // Read only what is drawn: the items [start, start + n) of a rank-3
    // file (the header of those items alone says how many bytes), the
    // image of a rank-2 one (both bounded by `drawable`).
    let (part_header, first_item) = if dims.len() == 3 {
        (
            u32::try_from(count).ok().and_then(|c| h.with_items(c)),
            first as u64,
        )
    } else {
        (Some(h.clone()), 0)
    };
    let Some(part_header) = part_header else {
        return fail(format!("{}: too many items to draw", input.name), 2);
    };
    let mut part = Vec::new();
    let read = input.payload().and_then(|mut payload| {
        payload.skip_items(first_item)?;
        payload
            .take(part_header.payload_len())
            .read_to_end(&mut part)
    });
    if let Err(e) = read {
        return fail(format!("{}: {e}", input.name), 2);
    }
    let Some(array) = idx::ArrayView::new(&part_header, &part) else {
        return fail(
            format!("{}: the input ended before the items drawn", input.name),
            2,
        );
    };
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
fn histogram_of(input: &mut Input, h: &idx::Header) -> std::io::Result<picture::HistogramRows> {
    let mut hist = picture::Histogram::new(h.dtype());
    let size = h.dtype().size();
    let step = (256 << 10) / size * size;
    let mut buf = Vec::with_capacity(step);
    for pass in 0..2 {
        if pass == 1 && !hist.needs_bins() {
            break;
        }
        let mut s = input.payload()?;
        let mut left = h.payload_len();
        while left > 0 {
            let want = usize::try_from(left).unwrap_or(usize::MAX).min(step);
            buf.clear();
            let n = (&mut s).take(want as u64).read_to_end(&mut buf)?;
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
    let size = format!("{} x {} pixels: {what}", img.width, img.height);
    // `--png -` is standard output, as `-` is wherever a stream goes; what
    // was drawn is then said on standard error
    if idx_io::is_dash(path) {
        if let Err(e) = out.write_all(&bytes).and_then(|()| out.flush()) {
            return fail(format!("cannot write standard output: {e}"), 2);
        }
        eprintln!("wrote the PNG to standard output ({size})");
        return ExitStatus::SUCCESS;
    }
    match idx_io::output::write(path, policy, inputs, &bytes) {
        Ok(()) => {
            let _ = writeln!(out, "wrote {} ({size})", shown(path));
            ExitStatus::SUCCESS
        }
        Err(e) => fail(e, 2),
    }
}
