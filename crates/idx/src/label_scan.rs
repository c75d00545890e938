//! The values of a labels file as data: a [`LabelScan`], and the
//! [`LabelScanner`] that builds one as the payload streams by (the validator
//! feeds it during its single pass; the dataset rules read the scan).

use crate::carry::Carry;
use crate::dtype::ElementType;
use crate::header::Header;

/// Values tracked one by one for the gap check: 0..TRACKED (a fixed bound).
const TRACKED: usize = 1 << 16;

/// What a labels file's values are: the class column of a rank-1 file, or
/// column 0 of a rank-2 (QMNIST-style extended) file.
///
/// ```
/// // scanned in the validation pass, against 10 classes
/// let labels = idx::to_bytes(&idx::Array::from_vec(vec![5], vec![3u8, 0, 12, 3, 1])?)?;
/// let opts = idx::Options::default().with_scan_labels(Some(Some(10)));
/// let scan = idx::validate_with(&labels, &opts).labels.unwrap();
/// assert_eq!((scan.count, scan.min_max), (5, Some((0, 12))));
/// assert_eq!((scan.out_of_range, scan.first_out_of_range), (1, Some((10, 12))));
/// assert_eq!(scan.gaps(), Some(vec![2, 4, 5, 6, 7, 8, 9, 10, 11]));
/// assert!(scan.seen(3) && !scan.seen(2));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LabelScan {
    /// The header of the labels file.
    pub header: Header,
    /// Label values examined.
    pub count: u64,
    /// The smallest and largest value, if any.
    pub min_max: Option<(i64, i64)>,
    /// The first value outside `0..classes` (or negative), with its byte
    /// offset in the stream.
    pub first_out_of_range: Option<(u64, i64)>,
    /// How many values are outside `0..classes` (or negative).
    pub out_of_range: u64,
    /// `classes` the scan was made for.
    pub classes: Option<u32>,
    seen: Vec<u64>,
}

impl LabelScan {
    /// True when `v` (in `0..65536`) occurs.
    pub fn seen(&self, v: i64) -> bool {
        usize::try_from(v)
            .ok()
            .filter(|&v| v < TRACKED)
            .is_some_and(|v| self.seen[v / 64] >> (v % 64) & 1 == 1)
    }

    /// The values in `0..=max` that never occur (`None` when the maximum is
    /// negative or too large to track).
    pub fn gaps(&self) -> Option<Vec<i64>> {
        let (_, max) = self.min_max?;
        if !(0..TRACKED as i64).contains(&max) {
            return None;
        }
        Some((0..=max).filter(|&v| !self.seen(v)).collect())
    }
}

/// True when a labels header is one the dataset rules accept: rank 1 of an
/// integer type, or rank 2 of an integer type (QMNIST's extended labels,
/// i32 `[N, 8]`, whose column 0 is the class).
pub fn labels_shape_ok(h: &Header) -> bool {
    !h.dtype().is_float() && matches!(h.rank(), 1 | 2) && (h.rank() == 1 || h.dims()[1] > 0)
}

/// Scans label values as the payload streams by, in chunks of any size (the
/// validator feeds it during its single pass over a labels file; see
/// [`crate::Options::scan_labels`]). Memory is fixed: an 8 KiB table and an
/// element's bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LabelScanner {
    scan: LabelScan,
    dtype: ElementType,
    stride: u64,
    start: u64,
    total: u64,
    index: u64,
    carry: Carry,
}

impl LabelScanner {
    /// A scanner for the payload of a file with header `h`, or `None` when
    /// the header is not a labels header ([`labels_shape_ok`]).
    pub fn new(h: &Header, classes: Option<u32>) -> Option<Self> {
        if !labels_shape_ok(h) {
            return None;
        }
        let stride = if h.rank() == 2 {
            u64::from(h.dims()[1])
        } else {
            1
        };
        Some(LabelScanner {
            dtype: h.dtype(),
            stride,
            start: h.header_len() as u64,
            total: h.element_count(),
            index: 0,
            carry: Carry::default(),
            scan: LabelScan {
                count: 0,
                min_max: None,
                first_out_of_range: None,
                out_of_range: 0,
                classes,
                seen: vec![0; TRACKED / 64],
                header: h.clone(),
            },
        })
    }

    /// True once every element of the payload was seen.
    pub fn complete(&self) -> bool {
        self.index >= self.total
    }

    /// Feeds the next payload bytes; bytes past the payload are ignored.
    pub fn feed(&mut self, bytes: &[u8]) {
        let size = self.dtype.size();
        let (first, bytes) = self.carry.split(size, bytes);
        if let Some(e) = first {
            self.element(&e[..size]);
        }
        if size == 1 && self.stride == 1 && bytes.len() >= 256 {
            let n = bytes
                .len()
                .min(usize::try_from(self.total - self.index).unwrap_or(usize::MAX));
            self.bytes_at_once(&bytes[..n]);
            return;
        }
        for e in bytes.chunks_exact(size) {
            if self.complete() {
                return;
            }
            self.element(e);
        }
    }

    /// One-byte labels (u8, i8 rank 1), many at once: a histogram per
    /// chunk instead of a table update per element (a gzip labels file of
    /// a gigabyte is scanned at memory speed).
    fn bytes_at_once(&mut self, chunk: &[u8]) {
        let mut hist = [0u64; 256];
        for &b in chunk {
            hist[usize::from(b)] += 1;
        }
        let out = |s: &LabelScan, v: i64| v < 0 || s.classes.is_some_and(|c| v >= i64::from(c));
        let start = self.start + self.index;
        if self.scan.first_out_of_range.is_none() {
            if let Some(i) = chunk
                .iter()
                .position(|&b| out(&self.scan, value(self.dtype, &[b])))
            {
                self.scan.first_out_of_range =
                    Some((start + i as u64, value(self.dtype, &[chunk[i]])));
            }
        }
        for (b, &k) in hist.iter().enumerate() {
            if k == 0 {
                continue;
            }
            let v = value(self.dtype, &[b as u8]); // b < 256
            self.scan.count += k;
            self.scan.min_max = Some(match self.scan.min_max {
                None => (v, v),
                Some((a, c)) => (a.min(v), c.max(v)),
            });
            if let Ok(i) = usize::try_from(v) {
                self.scan.seen[i / 64] |= 1 << (i % 64);
            }
            if out(&self.scan, v) {
                self.scan.out_of_range += k;
            }
        }
        self.index += chunk.len() as u64;
    }

    fn element(&mut self, e: &[u8]) {
        if self.complete() {
            return;
        }
        if self.index % self.stride == 0 {
            let v = value(self.dtype, e);
            let offset = self.start + self.index * self.dtype.size() as u64;
            self.scan.note(v, offset);
        }
        self.index += 1;
    }

    /// The scan of the values seen (a payload cut short is scanned as far
    /// as it goes).
    pub fn finish(self) -> LabelScan {
        self.scan
    }
}

fn value(t: ElementType, e: &[u8]) -> i64 {
    match (t, e) {
        (ElementType::U8, [a]) => i64::from(*a),
        (ElementType::I8, [a]) => i64::from(*a as i8),
        (ElementType::I16, [a, b]) => i64::from(i16::from_be_bytes([*a, *b])),
        (ElementType::I32, [a, b, c, d]) => i64::from(i32::from_be_bytes([*a, *b, *c, *d])),
        _ => 0, // unreachable: labels_shape_ok admits integer types only, and chunks have the element size
    }
}

impl LabelScan {
    fn note(&mut self, v: i64, offset: u64) {
        self.count += 1;
        self.min_max = Some(match self.min_max {
            None => (v, v),
            Some((a, b)) => (a.min(v), b.max(v)),
        });
        if let Ok(i) = usize::try_from(v) {
            if i < TRACKED {
                self.seen[i / 64] |= 1 << (i % 64);
            }
        }
        let out = v < 0 || self.classes.is_some_and(|c| v >= i64::from(c));
        if out {
            self.out_of_range += 1;
            if self.first_out_of_range.is_none() {
                self.first_out_of_range = Some((offset, v));
            }
        }
    }
}
