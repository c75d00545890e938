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

/// The bins of a histogram of a rank-1 array: one per value for integer
/// data with at most 64 distinct values, else 16 equal bins between min and
/// max; each is (label, count). Also the number of NaN or infinite values,
/// which no bin holds.
pub fn histogram_bins(v: &ArrayView<'_>) -> (Vec<(String, usize)>, usize) {
    let mut h = Histogram::new(v.dtype());
    let bytes = v.bytes();
    h.scan(bytes);
    if h.needs_bins() {
        h.bin(bytes);
    }
    h.rows()
}

/// The most distinct integer values listed one by one; more are binned.
const MAX_DISTINCT: usize = 64;
/// Bins of a float (or many-valued) histogram.
const BINS: usize = 16;

/// A histogram built from big-endian payload bytes in fixed memory, in one
/// pass ([`Histogram::scan`]) for integers with at most 64 distinct values
/// (one row per value) and two otherwise ([`Histogram::bin`]: 16 bins
/// between the finite minimum and maximum the first pass found).
#[derive(Debug, Clone)]
pub struct Histogram {
    dtype: ElementType,
    lo: f64,
    hi: f64,
    finite: usize,
    other: usize,
    distinct: Option<std::collections::BTreeMap<i64, usize>>,
    bins: Option<Vec<usize>>,
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
            distinct: (!dtype.is_float()).then(Default::default),
            bins: None,
        }
    }

    /// First pass: whole big-endian elements (a trailing partial element
    /// is ignored).
    pub fn scan(&mut self, bytes: &[u8]) {
        if self.dtype.size() == 1 {
            // one-byte elements: a count per byte value, then one update
            // per value present
            let mut counts = [0usize; 256];
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

    fn add(&mut self, x: f64, n: usize) {
        {
            if !x.is_finite() {
                self.other += n;
                return;
            }
            self.finite += n;
            self.lo = self.lo.min(x);
            self.hi = self.hi.max(x);
            if let Some(d) = &mut self.distinct {
                // integer types only: every value is an exact i64
                *d.entry(x as i64).or_insert(0) += n;
                if d.len() > MAX_DISTINCT {
                    self.distinct = None;
                }
            }
        }
    }

    /// True when a second pass ([`Histogram::bin`]) over the same bytes is
    /// needed.
    pub fn needs_bins(&self) -> bool {
        self.distinct.is_none() && self.finite > 0
    }

    /// Second pass: counts the same elements into 16 bins.
    pub fn bin(&mut self, bytes: &[u8]) {
        let (lo, hi) = (self.lo, self.hi);
        let counts = self.bins.get_or_insert_with(|| vec![0; BINS]);
        for x in decoded(self.dtype, bytes).filter(|x| x.is_finite()) {
            let k = if hi > lo {
                (((x - lo) / (hi - lo)) * BINS as f64) as usize
            } else {
                0
            };
            counts[k.min(BINS - 1)] += 1;
        }
    }

    /// The rows (label, count) and the number of NaN or infinite values.
    pub fn rows(&self) -> (Vec<(String, usize)>, usize) {
        let mut rows = Vec::new();
        if let Some(d) = &self.distinct {
            rows.extend(d.iter().map(|(v, c)| (format!("{v}"), *c)));
        } else if let Some(counts) = &self.bins {
            let (lo, hi) = (self.lo, self.hi);
            for (k, &c) in counts.iter().enumerate() {
                let a = lo + (hi - lo) * k as f64 / BINS as f64;
                rows.push((format!("{a:.4e}"), c));
            }
        }
        (rows, self.other)
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

/// A histogram of a rank-1 array as text: one row per bin of
/// [`histogram_bins`], bars up to `width` characters.
pub fn histogram(v: &ArrayView<'_>, width: usize) -> String {
    let (rows, other) = histogram_bins(v);
    histogram_text(&rows, other, width)
}

/// Histogram rows as text bars of at most `width` characters.
pub fn histogram_text(rows: &[(String, usize)], other: usize, width: usize) -> String {
    let most = rows.iter().map(|r| r.1).max().unwrap_or(0).max(1);
    let label = rows.iter().map(|r| r.0.len()).max().unwrap_or(0);
    let mut s = String::new();
    for (l, c) in rows {
        let bar = "#".repeat(c * width / most);
        let _ = writeln!(s, "{l:>label$} | {bar} {c}");
    }
    if other > 0 {
        let _ = writeln!(s, "{other} NaN or infinite values not shown");
    }
    s
}

/// A histogram as a picture: one white bar per bin, 8 pixels wide with a
/// 1-pixel gap, heights scaled so the largest count is 100 pixels, on black.
/// `None` when there is no bin (no finite value).
pub fn histogram_picture(bins: &[(String, usize)]) -> Option<Grey> {
    const BAR: usize = 8;
    const HEIGHT: usize = 100;
    if bins.is_empty() {
        return None;
    }
    let most = bins.iter().map(|b| b.1).max().unwrap_or(0).max(1);
    let width = bins.len() * (BAR + 1) - 1;
    let mut pixels = vec![0u8; width * HEIGHT];
    for (k, (_, c)) in bins.iter().enumerate() {
        let h = (c * HEIGHT).div_ceil(most);
        for y in HEIGHT - h..HEIGHT {
            let x0 = k * (BAR + 1);
            pixels[y * width + x0..y * width + x0 + BAR].fill(255);
        }
    }
    Some(Grey {
        width,
        height: HEIGHT,
        pixels,
    })
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
