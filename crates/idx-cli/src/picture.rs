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
    let vals = values(v);
    let finite: Vec<f64> = vals.iter().copied().filter(|x| x.is_finite()).collect();
    let mut rows: Vec<(String, usize)> = Vec::new();
    let mut distinct: Vec<f64> = finite.clone();
    distinct.sort_by(f64::total_cmp);
    distinct.dedup();
    if !v.dtype().is_float() && distinct.len() <= 64 {
        for d in &distinct {
            rows.push((format!("{d}"), finite.iter().filter(|&&x| x == *d).count()));
        }
    } else if let (Some(&lo), Some(&hi)) = (distinct.first(), distinct.last()) {
        let bins = 16;
        let mut counts = vec![0usize; bins];
        for &x in &finite {
            let k = if hi > lo {
                (((x - lo) / (hi - lo)) * bins as f64) as usize
            } else {
                0
            };
            counts[k.min(bins - 1)] += 1;
        }
        for (k, c) in counts.into_iter().enumerate() {
            let a = lo + (hi - lo) * k as f64 / bins as f64;
            rows.push((format!("{a:.4e}"), c));
        }
    }
    (rows, vals.len() - finite.len())
}

/// A histogram of a rank-1 array as text: one row per bin of
/// [`histogram_bins`], bars up to `width` characters.
pub fn histogram(v: &ArrayView<'_>, width: usize) -> String {
    let (rows, other) = histogram_bins(v);
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
