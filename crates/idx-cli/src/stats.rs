//! One-pass payload statistics, streamed: memory is fixed whatever the size.

use idx::ElementType;
use std::fmt;

/// Running statistics of a payload.
#[derive(Debug, Clone, PartialEq)]
pub struct Stats {
    /// Elements seen.
    pub count: u64,
    /// Finite elements seen.
    pub finite: u64,
    /// NaN elements.
    pub nan: u64,
    /// Infinite elements.
    pub inf: u64,
    /// Zero elements.
    pub zeros: u64,
    /// Minimum finite value.
    pub min: f64,
    /// Maximum finite value.
    pub max: f64,
    mean: f64,
    m2: f64,
}

impl Default for Stats {
    fn default() -> Self {
        Stats {
            count: 0,
            finite: 0,
            nan: 0,
            inf: 0,
            zeros: 0,
            min: f64::INFINITY,
            max: f64::NEG_INFINITY,
            mean: 0.0,
            m2: 0.0,
        }
    }
}

impl Stats {
    /// Adds one value (Welford's update).
    pub fn push(&mut self, x: f64) {
        self.count += 1;
        if x.is_nan() {
            self.nan += 1;
            return;
        }
        if x.is_infinite() {
            self.inf += 1;
            return;
        }
        if x == 0.0 {
            self.zeros += 1;
        }
        self.finite += 1;
        self.min = self.min.min(x);
        self.max = self.max.max(x);
        let d = x - self.mean;
        self.mean += d / self.finite as f64;
        self.m2 += d * (x - self.mean);
    }

    /// Adds whole big-endian elements of `dtype`.
    pub fn push_bytes(&mut self, dtype: ElementType, bytes: &[u8]) {
        let n = dtype.size();
        for c in bytes.chunks_exact(n) {
            let x = match dtype {
                ElementType::U8 => f64::from(c[0]),
                ElementType::I8 => f64::from(c[0] as i8),
                ElementType::I16 => f64::from(i16::from_be_bytes([c[0], c[1]])),
                ElementType::I32 => f64::from(i32::from_be_bytes([c[0], c[1], c[2], c[3]])),
                ElementType::F32 => f64::from(f32::from_be_bytes([c[0], c[1], c[2], c[3]])),
                ElementType::F64 => {
                    f64::from_be_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]])
                }
            };
            self.push(x);
        }
    }

    /// Mean of the finite values.
    pub fn mean(&self) -> f64 {
        self.mean
    }

    /// Population standard deviation of the finite values.
    pub fn std(&self) -> f64 {
        if self.finite == 0 {
            0.0
        } else {
            (self.m2 / self.finite as f64).sqrt()
        }
    }
}

impl fmt::Display for Stats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "elements: {}", self.count)?;
        if self.finite > 0 {
            writeln!(f, "min:      {}", num(self.min))?;
            writeln!(f, "max:      {}", num(self.max))?;
            writeln!(f, "mean:     {}", num(self.mean()))?;
            writeln!(f, "std:      {}", num(self.std()))?;
        }
        writeln!(f, "zeros:    {}", self.zeros)?;
        if self.nan + self.inf > 0 {
            writeln!(f, "NaN:      {}", self.nan)?;
            writeln!(f, "infinite: {}", self.inf)?;
        }
        Ok(())
    }
}

/// Integers as integers, moderate numbers with 6 decimals, others in
/// scientific notation.
fn num(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{x:.0}")
    } else if x.abs() >= 1e6 || x.abs() < 1e-4 {
        format!("{x:.6e}")
    } else {
        format!("{x:.6}")
    }
}
