//! Turning arrays into pictures: grey levels scaled by min/max, terminal
//! grids (Unicode half blocks in 24-bit grey, or an ASCII ramp), PNG contact
//! sheets, and histograms for label files.

use idx::{ArrayView, ElementType};
use std::fmt::Write;

/// The values of a view as f64 (NaN stays NaN).
pub fn values(v: &ArrayView<'_>) -> Vec<f64> {
    match v.dtype() {
        ElementType::U8 => v.iter::<u8>().map(|i| i.map(f64::from).collect()),
        ElementType::I8 => v.iter::<i8>().map(|i| i.map(f64::from).collect()),
        ElementType::I16 => v.iter::<i16>().map(|i| i.map(f64::from).collect()),
        ElementType::I32 => v.iter::<i32>().map(|i| i.map(f64::from).collect()),
        ElementType::F32 => v.iter::<f32>().map(|i| i.map(f64::from).collect()),
        ElementType::F64 => v.iter::<f64>().map(|i| i.collect()),
    }
    .unwrap_or_default()
}

/// A grey image, 8 bits per pixel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grey {
    /// Width in pixels.
    pub width: usize,
    /// Height in pixels.
    pub height: usize,
    /// Row-major pixels.
    pub pixels: Vec<u8>,
}

/// The 2-D items to show: for rank 3 the first `n` items, for rank 2 the
/// array itself; scaled together so that min is 0 and max is 255 (u8 data
/// is shown as is). `None` for other ranks.
pub fn items(v: &ArrayView<'_>, n: usize) -> Option<Vec<Grey>> {
    let (views, h, w): (Vec<ArrayView<'_>>, usize, usize) = match v.dims() {
        [h, w] => (vec![*v], *h as usize, *w as usize),
        [_, h, w] => (v.items().take(n).collect(), *h as usize, *w as usize),
        _ => return None,
    };
    let raw: Vec<Vec<f64>> = views.iter().map(values).collect();
    let (lo, hi) = if v.dtype() == ElementType::U8 {
        (0.0, 255.0)
    } else {
        raw.iter()
            .flatten()
            .filter(|x| x.is_finite())
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &x| {
                (a.min(x), b.max(x))
            })
    };
    let scale = |x: f64| -> u8 {
        if !x.is_finite() || hi <= lo {
            return 0;
        }
        (((x - lo) / (hi - lo)) * 255.0).round().clamp(0.0, 255.0) as u8
    };
    Some(
        raw.into_iter()
            .map(|r| Grey {
                width: w,
                height: h,
                pixels: r.into_iter().map(scale).collect(),
            })
            .collect(),
    )
}

/// Lays items out in a grid of `cols` columns with a 1-pixel black gap.
pub fn contact_sheet(items: &[Grey], cols: usize) -> Grey {
    let Some(first) = items.first() else {
        return Grey {
            width: 0,
            height: 0,
            pixels: vec![],
        };
    };
    let cols = cols.clamp(1, items.len());
    let rows = items.len().div_ceil(cols);
    let (w, h) = (first.width, first.height);
    let width = cols * (w + 1) - 1;
    let height = rows * (h + 1) - 1;
    let mut pixels = vec![0u8; width * height];
    for (k, it) in items.iter().enumerate() {
        let (ox, oy) = ((k % cols) * (w + 1), (k / cols) * (h + 1));
        for y in 0..h {
            let row = &it.pixels[y * w..(y + 1) * w];
            pixels[(oy + y) * width + ox..(oy + y) * width + ox + w].copy_from_slice(row);
        }
    }
    Grey {
        width,
        height,
        pixels,
    }
}

/// Encodes a grey image as PNG.
///
/// # Errors
/// The PNG encoder's errors.
pub fn png(img: &Grey) -> Result<Vec<u8>, png::EncodingError> {
    let mut out = Vec::new();
    let mut e = png::Encoder::new(&mut out, img.width as u32, img.height as u32);
    e.set_color(png::ColorType::Grayscale);
    e.set_depth(png::BitDepth::Eight);
    let mut w = e.write_header()?;
    w.write_image_data(&img.pixels)?;
    w.finish()?;
    Ok(out)
}

/// The terminal picture: with `color`, two pixel rows per text row as `▀`
/// with 24-bit grey foreground (upper) and background (lower); otherwise
/// one character per pixel from an ASCII ramp.
pub fn terminal(img: &Grey, color: bool) -> String {
    let mut s = String::new();
    let px = |x: usize, y: usize| {
        if y < img.height {
            img.pixels[y * img.width + x]
        } else {
            0
        }
    };
    if color {
        for y in (0..img.height).step_by(2) {
            for x in 0..img.width {
                let (a, b) = (px(x, y), px(x, y + 1));
                let _ = write!(s, "\x1b[38;2;{a};{a};{a}m\x1b[48;2;{b};{b};{b}m\u{2580}");
            }
            s.push_str("\x1b[0m\n");
        }
    } else {
        const RAMP: &[u8] = b" .:-=+*#%@";
        for y in 0..img.height {
            for x in 0..img.width {
                let i = usize::from(px(x, y)) * (RAMP.len() - 1) / 255;
                s.push(RAMP[i] as char);
            }
            s.push('\n');
        }
    }
    s
}

/// The histogram of a rank-1 array: see [`Histogram`].
pub fn histogram_rows(v: &ArrayView<'_>) -> HistogramRows {
    let mut h = Histogram::new(v.dtype());
    let bytes = v.bytes();
    h.scan(bytes);
    if h.needs_bins() {
        h.bin(bytes);
    }
    h.rows()
}

/// The most distinct values listed one by one; more are binned.
const MAX_DISTINCT: usize = 64;
/// The most bins of a binned histogram.
const BINS: usize = 16;

/// A histogram built from big-endian payload bytes in fixed memory: in one
/// pass ([`Histogram::scan`]) when the data holds at most 64 distinct
/// values (one row per value, floats included: an all-zero file is one row,
/// `0`), in two otherwise ([`Histogram::bin`]: at most 16 bins of equal
/// width between the finite minimum and maximum the first pass found; an
/// integer bin holds a whole number of values).
#[derive(Debug, Clone)]
pub struct Histogram {
    dtype: ElementType,
    lo: f64,
    hi: f64,
    finite: u64,
    other: u64,
    /// Value counts by [`order_key`], while there are at most 64.
    distinct: Option<std::collections::BTreeMap<i64, (f64, u64)>>,
    bins: Option<Vec<u64>>,
}

/// What a histogram shows: its rows (a label and a count each) and what
/// it says of the data.
#[derive(Debug, Clone, PartialEq)]
pub struct HistogramRows {
    /// One per distinct value, or per bin: the value or the bin's range
    /// (`[-3.85, -3.39)`, `[0, 99]` for integers), and its count.
    pub rows: Vec<(String, u64)>,
    /// The finite values counted.
    pub values: u64,
    /// The NaN and infinite values, which no row holds.
    pub other: u64,
    /// The bins' width as shown, when the values are binned.
    pub bin_width: Option<String>,
}

impl HistogramRows {
    /// What the histogram shows, in words: `10 values, 7 distinct`,
    /// `1000 values in 16 bins of width 0.463`, and the NaN and infinite
    /// values left out, if any.
    pub fn summary(&self) -> String {
        let mut s = count(self.values, "value");
        match &self.bin_width {
            Some(w) => {
                s += &format!(" in {} of width {w}", count(self.rows.len() as u64, "bin"));
            }
            None if self.values > 0 => {
                s += &format!(", {} distinct", self.rows.len());
            }
            None => {}
        }
        if self.other > 0 {
            s += &format!(", {} not shown", count(self.other, "NaN or infinite value"));
        }
        s
    }
}

fn count(n: u64, what: &str) -> String {
    idx_text::plural::count(n, what)
}

/// A key whose integer order is the numeric order of finite floats (the
/// bits of a negative float reversed), so that values sort as numbers.
fn order_key(x: f64) -> i64 {
    let b = x.to_bits() as i64;
    b ^ (((b >> 63) as u64) >> 1) as i64
}

impl Histogram {
    /// An empty histogram of `dtype` elements.
    pub fn new(dtype: ElementType) -> Self {
        Histogram {
            dtype,
            lo: f64::INFINITY,
            hi: f64::NEG_INFINITY,
            finite: 0,
            other: 0,
            distinct: Some(Default::default()),
            bins: None,
        }
    }

    /// First pass: whole big-endian elements (a trailing partial element
    /// is ignored).
    pub fn scan(&mut self, bytes: &[u8]) {
        if self.dtype.size() == 1 {
            // one-byte elements: a count per byte value, then one update
            // per value present
            let mut counts = [0u64; 256];
            for &b in bytes {
                counts[usize::from(b)] += 1;
            }
            for (b, &c) in counts.iter().enumerate().filter(|(_, &c)| c > 0) {
                let x = match self.dtype {
                    ElementType::I8 => f64::from(b as u8 as i8),
                    _ => b as f64,
                };
                self.add(x, c);
            }
            return;
        }
        for x in decoded(self.dtype, bytes) {
            self.add(x, 1);
        }
    }

    fn add(&mut self, x: f64, n: u64) {
        if !x.is_finite() {
            self.other += n;
            return;
        }
        self.finite += n;
        self.lo = self.lo.min(x);
        self.hi = self.hi.max(x);
        if let Some(d) = &mut self.distinct {
            d.entry(order_key(x)).or_insert((x, 0)).1 += n;
            if d.len() > MAX_DISTINCT {
                self.distinct = None;
            }
        }
    }

    /// True when a second pass ([`Histogram::bin`]) over the same bytes is
    /// needed.
    pub fn needs_bins(&self) -> bool {
        self.distinct.is_none() && self.finite > 0
    }

    /// The bins: their number, and the width of one (a whole number for
    /// integers). Only when binning (more than 64 distinct values, so the
    /// maximum exceeds the minimum).
    fn layout(&self) -> (usize, f64) {
        if self.dtype.is_float() {
            return (BINS, self.hi / BINS as f64 - self.lo / BINS as f64);
        }
        // integers: exact in f64 (at most 32 bits)
        let span = self.hi - self.lo + 1.0;
        let width = (span / BINS as f64).ceil();
        ((span / width).ceil() as usize, width)
    }

    /// The bin of a finite value.
    fn bin_of(&self, x: f64, bins: usize, width: f64) -> usize {
        let k = if self.dtype.is_float() {
            // (x - lo) / width without overflowing at the ends of f64
            ((x / 2.0 - self.lo / 2.0) / (width / 2.0)) as usize
        } else {
            ((x - self.lo) / width) as usize
        };
        k.min(bins - 1)
    }

    /// Second pass: counts the same elements into the bins.
    pub fn bin(&mut self, bytes: &[u8]) {
        let (n, width) = self.layout();
        let mut counts = self.bins.take().unwrap_or_else(|| vec![0; n]);
        for x in decoded(self.dtype, bytes).filter(|x| x.is_finite()) {
            counts[self.bin_of(x, n, width)] += 1;
        }
        self.bins = Some(counts);
    }

    /// The rows, the counts and, when binned, the bins' width.
    pub fn rows(&self) -> HistogramRows {
        let mut out = HistogramRows {
            rows: Vec::new(),
            values: self.finite,
            other: self.other,
            bin_width: None,
        };
        if let Some(d) = &self.distinct {
            out.rows = d.values().map(|&(x, c)| (self.value_text(x), c)).collect();
        } else if let Some(counts) = &self.bins {
            let (n, width) = self.layout();
            let edge = |k: usize| {
                if !self.dtype.is_float() {
                    self.lo + width * k as f64
                } else if k == n {
                    self.hi
                } else {
                    // in halves: `width * k` alone overflows across f64
                    (self.lo / 2.0 + width / 2.0 * k as f64) * 2.0
                }
            };
            if self.dtype.is_float() {
                let decimals = decimals(width);
                let text = |x: f64| plain(x, decimals, self.lo, self.hi);
                for (k, &c) in counts.iter().enumerate() {
                    let close = if k + 1 == n { ']' } else { ')' };
                    out.rows.push((
                        format!("[{}, {}{close}", text(edge(k)), text(edge(k + 1))),
                        c,
                    ));
                }
                out.bin_width = Some(text(width));
            } else {
                for (k, &c) in counts.iter().enumerate() {
                    let last = (edge(k + 1) - 1.0).min(self.hi);
                    out.rows.push((format!("[{}, {}]", edge(k), last), c));
                }
                out.bin_width = Some(format!("{width}"));
            }
        }
        out
    }

    /// A value as it was stored: an integer as one, a float by the
    /// shortest text that reads back to it at its own width (`0.1` for
    /// the f32 nearest 0.1).
    fn value_text(&self, x: f64) -> String {
        match self.dtype {
            ElementType::F32 => format!("{}", x as f32),
            ElementType::F64 => format!("{x}"),
            _ => format!("{}", x as i64),
        }
    }
}

/// Decimals enough to tell bin edges `width` apart: 2 significant digits
/// of the width (0.463 gives 2 decimals, 6233.1 gives none).
fn decimals(width: f64) -> usize {
    if width.is_nan() || width <= 0.0 {
        return 0;
    }
    (1.0 - width.log10().floor()).clamp(0.0, 12.0) as usize
}

/// `x` as a plain decimal number with `decimals` decimals (no `-0.00`),
/// or in scientific notation when plain digits cannot show the data's
/// range (`lo`, `hi`): beyond 1e9 in magnitude, or bins narrower than 12
/// decimals show.
fn plain(x: f64, decimals: usize, lo: f64, hi: f64) -> String {
    let big = lo.abs().max(hi.abs()) >= 1e9;
    let tiny = decimals >= 12;
    if big || tiny {
        return format!("{x:.3e}");
    }
    let s = format!("{x:.decimals$}");
    if s.trim_start_matches('-')
        .bytes()
        .all(|b| b == b'0' || b == b'.')
    {
        s.trim_start_matches('-').to_string()
    } else {
        s
    }
}

/// Whole big-endian elements of `dtype` as f64.
fn decoded(dtype: ElementType, bytes: &[u8]) -> impl Iterator<Item = f64> + '_ {
    bytes.chunks_exact(dtype.size()).map(move |c| match dtype {
        ElementType::U8 => f64::from(c[0]),
        ElementType::I8 => f64::from(c[0] as i8),
        ElementType::I16 => f64::from(i16::from_be_bytes([c[0], c[1]])),
        ElementType::I32 => f64::from(i32::from_be_bytes([c[0], c[1], c[2], c[3]])),
        ElementType::F32 => f64::from(f32::from_be_bytes([c[0], c[1], c[2], c[3]])),
        ElementType::F64 => f64::from_be_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]),
    })
}

/// A histogram of a rank-1 array as text (see [`histogram_text`]).
pub fn histogram(v: &ArrayView<'_>, width: usize) -> String {
    histogram_text(&histogram_rows(v), width)
}

/// A histogram as text: a `value | count` heading, one row per value or
/// bin (the label right-aligned, a bar of at most `width` `#`, the count),
/// then [`HistogramRows::summary`].
pub fn histogram_text(h: &HistogramRows, width: usize) -> String {
    let most = h.rows.iter().map(|r| r.1).max().unwrap_or(0).max(1);
    let label = h
        .rows
        .iter()
        .map(|r| r.0.len())
        .max()
        .unwrap_or(0)
        .max("value".len());
    let mut s = String::new();
    if !h.rows.is_empty() {
        let _ = writeln!(s, "{:>label$} | count", "value");
    }
    for (l, c) in &h.rows {
        let bar = "#".repeat(bar_len(*c, most, width as u64) as usize);
        let _ = writeln!(s, "{l:>label$} | {bar} {c}");
    }
    let _ = writeln!(s, "{}", h.summary());
    s
}

/// A bar's length for `c` of at most `most`, `full` long at `most`: at
/// least 1 for a count that is not 0.
fn bar_len(c: u64, most: u64, full: u64) -> u64 {
    if c == 0 {
        0
    } else {
        (u128::from(c) * u128::from(full) / u128::from(most)).max(1) as u64
    }
}

/// A histogram as a picture, laid out as the text is: a `VALUE` and a
/// `COUNT` heading, then per row its label right-aligned left of a
/// vertical axis, a grey bar (the longest 200 pixels) and its count, then
/// the summary; black on white, in the 5 x 7 font of [`idx_text::font`].
/// `None` when there is no row (no finite value).
pub fn histogram_picture(h: &HistogramRows) -> Option<Grey> {
    use idx_text::font;
    const MARGIN: u32 = 6;
    const ROW: u32 = font::H + 4;
    const BAR: u64 = 200;
    const GAP: u32 = 6;
    if h.rows.is_empty() {
        return None;
    }
    let most = h.rows.iter().map(|r| r.1).max().unwrap_or(0).max(1);
    let label_w = h
        .rows
        .iter()
        .map(|r| font::width(&r.0))
        .chain([font::width("VALUE")])
        .max()
        .unwrap_or(0);
    let count_w = h
        .rows
        .iter()
        .map(|r| font::width(&r.1.to_string()))
        .max()
        .unwrap_or(0);
    let summary = h.summary();
    let axis = MARGIN + label_w + GAP;
    let bar_x = axis + 3;
    let rows = h.rows.len() as u32;
    let top = MARGIN + ROW + 3;
    let width = (bar_x + BAR as u32 + GAP + count_w + MARGIN)
        .max(MARGIN * 2 + font::width(&summary))
        .max(bar_x + font::width("COUNT") + MARGIN);
    let height = top + rows * ROW + 3 + ROW + MARGIN;
    let mut img = Grey {
        width: width as usize,
        height: height as usize,
        pixels: vec![255; (width * height) as usize],
    };
    let mut ink = |x: u32, y: u32, v: u8| {
        if x < width && y < height {
            img.pixels[(y * width + x) as usize] = v;
        }
    };
    font::draw(
        "VALUE",
        axis - GAP - font::width("VALUE"),
        MARGIN,
        |x, y| ink(x, y, 0),
    );
    font::draw("COUNT", bar_x, MARGIN, |x, y| ink(x, y, 0));
    // the axis: a vertical line beside the labels, from the heading's
    // rule to the last row
    for y in top - 2..top + rows * ROW {
        ink(axis, y, 0);
    }
    for x in MARGIN..width - MARGIN {
        ink(x, top - 2, 0);
    }
    for (k, (label, c)) in h.rows.iter().enumerate() {
        let y = top + k as u32 * ROW + 2;
        font::draw(label, axis - GAP - font::width(label), y, |x, y| {
            ink(x, y, 0)
        });
        let len = bar_len(*c, most, BAR) as u32;
        for by in y..y + font::H {
            for bx in bar_x..bar_x + len {
                ink(bx, by, 128);
            }
        }
        let cx = bar_x + len + GAP;
        font::draw(&c.to_string(), cx, y, |x, y| ink(x, y, 0));
    }
    font::draw(&summary, MARGIN, top + rows * ROW + 3, |x, y| ink(x, y, 0));
    Some(img)
}

/// Columns of a near-square grid of `n` items: the ceiling of its square
/// root (64 items: 8 x 8; 10 items: 4 columns, 3 rows).
pub fn square_cols(n: usize) -> usize {
    let mut c = 1;
    while c * c < n {
        c += 1;
    }
    c
}

/// `img` enlarged `k` times in each direction (nearest neighbour).
pub fn scaled(img: &Grey, k: usize) -> Grey {
    let k = k.max(1);
    let (width, height) = (img.width * k, img.height * k);
    let mut pixels = Vec::with_capacity(width * height);
    for y in 0..height {
        let row = &img.pixels[(y / k) * img.width..(y / k + 1) * img.width];
        for &p in row {
            pixels.extend(std::iter::repeat_n(p, k));
        }
    }
    Grey {
        width,
        height,
        pixels,
    }
}

/// The caption line above a terminal grid row: the item number of each
/// column (`#12`), left-aligned over its item, `item_width` characters wide
/// plus a 1-character gap (cut when it does not fit).
pub fn caption(first: usize, count: usize, item_width: usize) -> String {
    let mut s = String::new();
    for k in 0..count {
        let mut label = format!("#{}", first + k);
        label.truncate(item_width);
        s.push_str(&format!("{label:<item_width$}"));
        if k + 1 < count {
            s.push(' ');
        }
    }
    s.trim_end().to_string() + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows_of(dtype: ElementType, bytes: &[u8]) -> HistogramRows {
        let mut h = Histogram::new(dtype);
        h.scan(bytes);
        if h.needs_bins() {
            h.bin(bytes);
        }
        h.rows()
    }

    #[test]
    fn the_whole_range_of_f64_is_binned_without_overflow() {
        let mut v = vec![f64::MIN, f64::MAX, f64::NAN];
        v.extend((0..100).map(f64::from));
        let bytes: Vec<u8> = v.iter().flat_map(|x| x.to_be_bytes()).collect();
        let h = rows_of(ElementType::F64, &bytes);
        assert_eq!((h.rows.len(), h.values, h.other), (16, 102, 1));
        assert_eq!(h.rows.iter().map(|r| r.1).sum::<u64>(), 102);
        assert_eq!(
            (h.rows[0].1, h.rows[7].1, h.rows[8].1, h.rows[15].1),
            (1, 0, 100, 1)
        );
        for (label, _) in &h.rows {
            assert!(!label.contains("inf") && !label.contains("NaN"), "{label}");
        }
        assert_eq!(h.rows[15].0, "[1.573e308, 1.798e308]");
    }

    #[test]
    fn numbers_are_plain_and_never_minus_zero() {
        assert_eq!(plain(-0.001, 2, -1.0, 1.0), "0.00");
        assert_eq!(plain(-3.8496, 2, -4.0, 4.0), "-3.85");
        assert_eq!(plain(6233.0, 0, 0.0, 1e5), "6233");
        assert_eq!((decimals(0.463), decimals(6.2), decimals(62.0)), (2, 1, 0));
        // distinct floats by the shortest text of their own width
        let bytes: Vec<u8> = [0.1f32, -0.0, 0.0, 0.1]
            .iter()
            .flat_map(|x| x.to_be_bytes())
            .collect();
        let h = rows_of(ElementType::F32, &bytes);
        let rows: Vec<(&str, u64)> = h.rows.iter().map(|(l, c)| (l.as_str(), *c)).collect();
        assert_eq!(rows, [("-0", 1), ("0", 1), ("0.1", 2)]);
        assert_eq!(h.summary(), "4 values, 3 distinct");
    }
}
