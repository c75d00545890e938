//! Logical content: the language-neutral JSON encoding of an array.
//!
//! `{"dtype": "f32", "shape": [2, 3], "data": [...]}`, data flat in row-major
//! order, integers as JSON numbers, floats as their exact bit patterns in
//! lowercase hex strings (`"0x7fc00001"`, 8 digits for f32, 16 for f64). Large
//! arrays give `"data_sha256"` instead of `"data"`: the SHA-256 of the elements
//! encoded big-endian back to back (that is, of the IDX payload).

use idx::ElementType;
use serde_json::{json, Map, Value};
use sha2::{Digest, Sha256};

/// Arrays with more elements than this give a digest instead of the data.
pub const INLINE_MAX: usize = 4096;

/// Element values, exactly.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Values {
    /// Integer types, widened.
    Int(Vec<i64>),
    /// f32 bit patterns.
    F32(Vec<u32>),
    /// f64 bit patterns.
    F64(Vec<u64>),
}

impl Values {
    /// Number of elements.
    pub fn len(&self) -> usize {
        match self {
            Values::Int(v) => v.len(),
            Values::F32(v) => v.len(),
            Values::F64(v) => v.len(),
        }
    }
    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// An array's logical content.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Content {
    /// Element type.
    pub dtype: ElementType,
    /// Shape, outermost first.
    pub shape: Vec<u32>,
    /// Elements in row-major order.
    pub values: Values,
}

impl Content {
    /// The big-endian payload, encoded independently of the `idx` writer
    /// (so the corpus can test the writer).
    pub fn payload(&self) -> Vec<u8> {
        let mut out = Vec::new();
        match &self.values {
            Values::Int(v) => {
                for &x in v {
                    match self.dtype {
                        ElementType::U8 | ElementType::I8 => out.push(x as u8),
                        ElementType::I16 => out.extend_from_slice(&(x as i16).to_be_bytes()),
                        _ => out.extend_from_slice(&(x as i32).to_be_bytes()),
                    }
                }
            }
            Values::F32(v) => v
                .iter()
                .for_each(|b| out.extend_from_slice(&b.to_be_bytes())),
            Values::F64(v) => v
                .iter()
                .for_each(|b| out.extend_from_slice(&b.to_be_bytes())),
        }
        out
    }

    /// The whole file: header and payload, encoded by hand.
    pub fn golden_bytes(&self) -> Vec<u8> {
        let mut out = vec![0, 0, self.dtype.code(), self.shape.len() as u8];
        for d in &self.shape {
            out.extend_from_slice(&d.to_be_bytes());
        }
        out.extend(self.payload());
        out
    }

    /// The JSON encoding (with `data`, or `data_sha256` when large and
    /// `allow_digest`).
    pub fn to_json(&self, allow_digest: bool) -> Value {
        let mut m = Map::new();
        m.insert("dtype".into(), json!(self.dtype.name()));
        m.insert("shape".into(), json!(self.shape));
        if allow_digest && self.values.len() > INLINE_MAX {
            m.insert(
                "data_sha256".into(),
                json!(hex(&Sha256::digest(self.payload()))),
            );
        } else {
            let data: Vec<Value> = match &self.values {
                Values::Int(v) => v.iter().map(|&x| json!(x)).collect(),
                Values::F32(v) => v.iter().map(|&b| json!(format!("0x{b:08x}"))).collect(),
                Values::F64(v) => v.iter().map(|&b| json!(format!("0x{b:016x}"))).collect(),
            };
            m.insert("data".into(), Value::Array(data));
        }
        Value::Object(m)
    }

    /// Parses the JSON encoding (with `data`; a digest cannot be decoded).
    pub fn from_json(v: &Value) -> Result<Content, String> {
        let dtype = v
            .get("dtype")
            .and_then(Value::as_str)
            .and_then(ElementType::from_name)
            .ok_or("missing or unknown \"dtype\"")?;
        let shape = v
            .get("shape")
            .and_then(Value::as_array)
            .ok_or("missing \"shape\"")?
            .iter()
            .map(|d| {
                d.as_u64()
                    .and_then(|d| u32::try_from(d).ok())
                    .ok_or("bad dimension")
            })
            .collect::<Result<Vec<u32>, _>>()?;
        let data = v
            .get("data")
            .and_then(Value::as_array)
            .ok_or("missing \"data\"")?;
        let bits = |x: &Value, digits: usize| -> Result<u64, String> {
            let s = x
                .as_str()
                .ok_or("float elements must be hex bit-pattern strings")?;
            let h = s
                .strip_prefix("0x")
                .ok_or("float bit pattern must start with 0x")?;
            if h.len() != digits {
                return Err(format!(
                    "float bit pattern {s:?} must have {digits} hex digits"
                ));
            }
            u64::from_str_radix(h, 16).map_err(|e| e.to_string())
        };
        let values = match dtype {
            ElementType::F32 => Values::F32(
                data.iter()
                    .map(|x| bits(x, 8).map(|b| b as u32))
                    .collect::<Result<_, _>>()?,
            ),
            ElementType::F64 => {
                Values::F64(data.iter().map(|x| bits(x, 16)).collect::<Result<_, _>>()?)
            }
            _ => {
                let (lo, hi) = match dtype {
                    ElementType::U8 => (0, 255),
                    ElementType::I8 => (-128, 127),
                    ElementType::I16 => (i16::MIN as i64, i16::MAX as i64),
                    _ => (i32::MIN as i64, i32::MAX as i64),
                };
                Values::Int(
                    data.iter()
                        .map(|x| {
                            x.as_i64()
                                .filter(|v| (lo..=hi).contains(v))
                                .ok_or("integer element out of range")
                        })
                        .collect::<Result<_, _>>()?,
                )
            }
        };
        // exact element count (0 when any dimension is 0), from the library
        let n = idx::__private::payload_len(ElementType::U8, &shape);
        if n != Some(values.len() as u64) {
            return Err(format!(
                "shape {shape:?} does not hold {}",
                idx_text::plural::count(values.len() as u64, "element")
            ));
        }
        Ok(Content {
            dtype,
            shape,
            values,
        })
    }

    /// The content of a parsed array.
    pub fn of(view: &idx::ArrayView<'_>) -> Content {
        let b = view.bytes();
        let values = match view.dtype() {
            ElementType::U8 => Values::Int(b.iter().map(|&x| x as i64).collect()),
            ElementType::I8 => Values::Int(b.iter().map(|&x| x as i8 as i64).collect()),
            ElementType::I16 => Values::Int(
                b.chunks_exact(2)
                    .map(|c| i16::from_be_bytes([c[0], c[1]]) as i64)
                    .collect(),
            ),
            ElementType::I32 => Values::Int(
                b.chunks_exact(4)
                    .map(|c| i32::from_be_bytes([c[0], c[1], c[2], c[3]]) as i64)
                    .collect(),
            ),
            ElementType::F32 => Values::F32(
                b.chunks_exact(4)
                    .map(|c| u32::from_be_bytes([c[0], c[1], c[2], c[3]]))
                    .collect(),
            ),
            ElementType::F64 => Values::F64(
                b.chunks_exact(8)
                    .map(|c| u64::from_be_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]))
                    .collect(),
            ),
        };
        Content {
            dtype: view.dtype(),
            shape: view.dims().to_vec(),
            values,
        }
    }
}

/// Lowercase hex of bytes, no separators.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

impl Content {
    /// The content as an owned `idx` array (for the reference writer).
    ///
    /// # Errors
    /// When the shape does not hold the data.
    pub fn to_array(&self) -> Result<idx::Array, idx::ShapeError> {
        let dims: Vec<usize> = self.shape.iter().map(|&d| d as usize).collect();
        let data = match (&self.values, self.dtype) {
            (Values::Int(v), ElementType::U8) => {
                idx::Data::U8(v.iter().map(|&x| x as u8).collect())
            }
            (Values::Int(v), ElementType::I8) => {
                idx::Data::I8(v.iter().map(|&x| x as i8).collect())
            }
            (Values::Int(v), ElementType::I16) => {
                idx::Data::I16(v.iter().map(|&x| x as i16).collect())
            }
            (Values::Int(v), _) => idx::Data::I32(v.iter().map(|&x| x as i32).collect()),
            (Values::F32(v), _) => idx::Data::F32(v.iter().map(|&b| f32::from_bits(b)).collect()),
            (Values::F64(v), _) => idx::Data::F64(v.iter().map(|&b| f64::from_bits(b)).collect()),
        };
        idx::Array::new(dims, data)
    }
}
