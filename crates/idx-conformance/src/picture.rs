//! A PNG of the whole matrix grid, drawn here (no browser): the page's grid
//! turned on its side so it fits a README, one horizontal band per
//! implementation run (in the page's column order, top to bottom) and one
//! vertical stripe per case (in the page's row order, left to right, a wider
//! gap between rule groups), each cell in its status colour
//! ([`crate::page::STATUS_COLOURS`]), each band labelled on the left, each
//! rule group labelled above its first stripe (its code, reading upwards;
//! `VALID` for plain valid files), then a legend strip: one swatch per
//! status in [`crate::runner::Status::ALL`] order, then not-run, each with
//! its name (in [`crate::font`]).

use crate::cases::Case;
use crate::font;
use crate::page::{self, Grid};
use crate::runner::{Report, Status};

/// Width of a case's stripe, in pixels.
pub const CELL_W: u32 = 5;
/// Height of an implementation's band.
pub const CELL_H: u32 = 12;
/// Space between cells.
pub const GAP: u32 = 1;
/// Extra space between rule groups.
pub const GROUP_GAP: u32 = 4;
/// Border around everything.
pub const MARGIN: u32 = 6;
/// Legend swatch size.
pub const SWATCH: u32 = 12;

const BACKGROUND: [u8; 3] = [0xff, 0xff, 0xff];
const INK: [u8; 3] = [0x22, 0x22, 0x22];

/// The label of a rule group: its rule code, `VALID` for the group
/// without one.
pub fn group_label(g: &page::Group<'_>) -> &'static str {
    if g.code.is_empty() {
        "VALID"
    } else {
        g.code
    }
}

/// The caption left of the group labels.
pub const GROUPS_CAPTION: &str = "CASES BY RULE";

/// Where things are in the picture.
#[derive(Debug, Clone)]
pub struct Layout {
    /// Bottom edge (exclusive) of the group labels, which read upwards from
    /// it, each at its group's first stripe.
    pub labels_bottom: u32,
    /// Left edge of each case stripe, in the grid's row order.
    pub xs: Vec<u32>,
    /// Top edge of each implementation band, in the grid's column order.
    pub ys: Vec<u32>,
    /// Top edge of the legend strip.
    pub legend_y: u32,
    /// Left edge of each legend swatch, in [`legend`] order.
    pub legend_xs: Vec<u32>,
    /// Picture width.
    pub width: u32,
    /// Picture height.
    pub height: u32,
}

/// The legend's statuses, left to right.
pub fn legend() -> Vec<Option<Status>> {
    let mut v: Vec<Option<Status>> = Status::ALL.iter().copied().map(Some).collect();
    v.push(None);
    v
}

/// Lays the grid out.
pub fn layout(g: &Grid<'_>) -> Layout {
    let label_w = g
        .columns
        .iter()
        .map(|c| font::width(&c.label()))
        .max()
        .unwrap_or(0)
        .max(font::width(GROUPS_CAPTION));
    let mut xs = Vec::new();
    let mut x = MARGIN + label_w + MARGIN;
    for (k, grp) in g.groups.iter().enumerate() {
        if k > 0 {
            x += GROUP_GAP;
        }
        for _ in &grp.rows {
            xs.push(x);
            x += CELL_W + GAP;
        }
    }
    let labels_h = g
        .groups
        .iter()
        .map(|grp| font::height_up(group_label(grp)))
        .max()
        .unwrap_or(0)
        .max(font::H);
    let labels_bottom = MARGIN + labels_h;
    let top = labels_bottom + GAP + 2;
    let ys: Vec<u32> = (0..g.columns.len() as u32)
        .map(|i| top + i * (CELL_H + GAP))
        .collect();
    let grid_bottom = top + g.columns.len() as u32 * (CELL_H + GAP);
    let legend_y = grid_bottom + MARGIN;
    let mut legend_xs = Vec::new();
    let mut lx = MARGIN;
    for st in legend() {
        legend_xs.push(lx);
        lx += SWATCH + 4 + font::width(page::status_word(st)) + 14;
    }
    let width = (x + MARGIN).max(lx + MARGIN);
    Layout {
        labels_bottom,
        xs,
        ys,
        legend_y,
        legend_xs,
        width,
        height: legend_y + SWATCH + MARGIN,
    }
}

/// RGB pixels of the picture, row-major, and its layout.
pub fn pixels(g: &Grid<'_>) -> (Layout, Vec<u8>) {
    let l = layout(g);
    let mut px: Vec<u8> = BACKGROUND
        .iter()
        .copied()
        .cycle()
        .take((l.width * l.height * 3) as usize)
        .collect();
    let mut fill = |x0: u32, y0: u32, w: u32, h: u32, c: [u8; 3]| {
        for y in y0..(y0 + h).min(l.height) {
            for x in x0..(x0 + w).min(l.width) {
                let i = ((y * l.width + x) * 3) as usize;
                px[i..i + 3].copy_from_slice(&c);
            }
        }
    };
    for (c, col) in g.columns.iter().enumerate() {
        font::draw(
            &col.label(),
            MARGIN,
            l.ys[c] + (CELL_H - font::H) / 2,
            |x, y| {
                fill(x, y, 1, 1, INK);
            },
        );
    }
    // each group's label above its first stripe, the caption at the left
    let mut first = 0;
    for grp in &g.groups {
        if let Some(&x) = l.xs.get(first) {
            font::draw_up(group_label(grp), x, l.labels_bottom, |x, y| {
                fill(x, y, 1, 1, INK);
            });
        }
        first += grp.rows.len();
    }
    font::draw(GROUPS_CAPTION, MARGIN, l.labels_bottom - font::H, |x, y| {
        fill(x, y, 1, 1, INK);
    });
    let rows: Vec<&page::Row<'_>> = g.groups.iter().flat_map(|x| &x.rows).collect();
    for (r, row) in rows.iter().enumerate() {
        for (c, cell) in row.cells.iter().enumerate() {
            fill(
                l.xs[r],
                l.ys[c],
                CELL_W,
                CELL_H,
                page::colour(cell.map(|o| o.status)),
            );
        }
    }
    for (i, st) in legend().into_iter().enumerate() {
        let x = l.legend_xs[i];
        fill(x, l.legend_y, SWATCH, SWATCH, [0x88, 0x88, 0x88]);
        fill(
            x + 1,
            l.legend_y + 1,
            SWATCH - 2,
            SWATCH - 2,
            page::colour(st),
        );
        font::draw(
            page::status_word(st),
            x + SWATCH + 4,
            l.legend_y + (SWATCH - font::H) / 2,
            |x, y| fill(x, y, 1, 1, INK),
        );
    }
    (l, px)
}

/// The PNG file of the grid of `reports` over `cases`.
///
/// # Errors
/// Compression errors (none expected for an in-memory buffer).
pub fn render_png(cases: &[Case], reports: &[Report]) -> Result<Vec<u8>, String> {
    let g = page::grid(cases, reports);
    let (l, px) = pixels(&g);
    encode_png(l.width, l.height, &px)
}

/// A PNG file of 8-bit RGB pixels (row-major), every row unfiltered, the
/// data zlib-compressed with the workspace's flate2. Written here rather
/// than with the `png` crate, whose default features switch flate2's
/// backend for every crate built with it (and with it how `idx` reads a
/// damaged gzip stream).
///
/// # Errors
/// Compression errors (none expected for an in-memory buffer).
pub fn encode_png(width: u32, height: u32, rgb: &[u8]) -> Result<Vec<u8>, String> {
    use std::io::Write as _;
    let stride = width as usize * 3;
    if rgb.len() != stride * height as usize {
        return Err(format!(
            "{} bytes of pixels for {width} x {height}",
            rgb.len()
        ));
    }
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
    for row in rgb.chunks(stride.max(1)) {
        z.write_all(&[0]).map_err(|e| e.to_string())?;
        z.write_all(row).map_err(|e| e.to_string())?;
    }
    let idat = z.finish().map_err(|e| e.to_string())?;
    let mut ihdr = Vec::with_capacity(13);
    ihdr.extend_from_slice(&width.to_be_bytes());
    ihdr.extend_from_slice(&height.to_be_bytes());
    // bit depth 8, colour type 2 (RGB), deflate, adaptive filtering, no interlace
    ihdr.extend_from_slice(&[8, 2, 0, 0, 0]);
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    for (kind, data) in [
        (b"IHDR", &ihdr[..]),
        (b"IDAT", &idat[..]),
        (b"IEND", &[][..]),
    ] {
        let len = u32::try_from(data.len()).map_err(|_| "a PNG chunk over 4 GiB".to_string())?;
        out.extend_from_slice(&len.to_be_bytes());
        let start = out.len();
        out.extend_from_slice(kind);
        out.extend_from_slice(data);
        let crc = crc32(&out[start..]);
        out.extend_from_slice(&crc.to_be_bytes());
    }
    Ok(out)
}

/// CRC-32 (ISO-HDLC, as PNG chunks use).
pub fn crc32(bytes: &[u8]) -> u32 {
    let mut c = 0xffff_ffffu32;
    for &b in bytes {
        c ^= u32::from(b);
        for _ in 0..8 {
            c = if c & 1 == 1 {
                0xedb8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
        }
    }
    !c
}
