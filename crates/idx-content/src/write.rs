//! `idx write`: the content JSON (`{"dtype", "shape", "data"}`, the corpus
//! encoding) to IDX bytes, streamed: the JSON is parsed element by element
//! (serde's visitor over the `data` sequence) and each element is encoded
//! straight into a spool file, so memory stays fixed whatever the size.
//! Only a complete, consistent document writes anything: the header, then
//! the spooled payload, go to the output at the end.
//!
//! `data` normally follows `dtype` and `shape` (as `idx dump` writes
//! them); when it comes first, its elements are spooled as they are and
//! encoded once the type is known.

use idx::ElementType;
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use std::fmt;
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Seek, SeekFrom, Write};

/// One element as written in the JSON: an integer, or a float's bit
/// pattern (`"0x..."`, with its number of hex digits).
#[derive(Debug, Clone, Copy, PartialEq)]
enum Elem {
    Int(i128),
    Bits(u64, u8),
}

impl Elem {
    const LEN: usize = 1 + 16 + 1;

    fn to_record(self) -> [u8; Elem::LEN] {
        let mut r = [0u8; Elem::LEN];
        match self {
            Elem::Int(v) => r[1..17].copy_from_slice(&v.to_le_bytes()),
            Elem::Bits(b, d) => {
                r[0] = 1;
                r[1..9].copy_from_slice(&b.to_le_bytes());
                r[17] = d;
            }
        }
        r
    }

    fn from_record(r: &[u8; Elem::LEN]) -> Elem {
        let mut v = [0u8; 16];
        v.copy_from_slice(&r[1..17]);
        if r[0] == 0 {
            Elem::Int(i128::from_le_bytes(v))
        } else {
            let mut b = [0u8; 8];
            b.copy_from_slice(&r[1..9]);
            Elem::Bits(u64::from_le_bytes(b), r[17])
        }
    }
}

struct ElemVisitor;

impl Visitor<'_> for ElemVisitor {
    type Value = Elem;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an integer, or a float's bit pattern as a \"0x...\" string")
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Elem, E> {
        Ok(Elem::Int(i128::from(v)))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Elem, E> {
        Ok(Elem::Int(i128::from(v)))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Elem, E> {
        Err(E::custom(format!(
            "{v} is not an integer: float elements are \"0x...\" bit-pattern strings"
        )))
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<Elem, E> {
        let h = s
            .strip_prefix("0x")
            .ok_or_else(|| E::custom(format!("float bit pattern {s:?} must start with 0x")))?;
        if h.len() != 8 && h.len() != 16 {
            return Err(E::custom(format!(
                "float bit pattern {s:?} must have 8 (f32) or 16 (f64) hex digits"
            )));
        }
        let b = u64::from_str_radix(h, 16)
            .map_err(|e| E::custom(format!("float bit pattern {s:?}: {e}")))?;
        Ok(Elem::Bits(b, h.len() as u8))
    }
}

impl<'de> de::Deserialize<'de> for Elem {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Elem, D::Error> {
        d.deserialize_any(ElemVisitor)
    }
}

/// Encodes `e`, element number `index`, as `t` (big-endian) into `out`.
fn encode(t: ElementType, index: u64, e: Elem, out: &mut impl Write) -> Result<(), String> {
    let range = |lo: i128, hi: i128| -> Result<i128, String> {
        match e {
            Elem::Int(v) if (lo..=hi).contains(&v) => Ok(v),
            Elem::Int(v) => Err(format!(
                "element {index} is {v}, outside the range of {t} ({lo}..={hi})"
            )),
            Elem::Bits(..) => Err(format!(
                "element {index} is a bit-pattern string, but {t} elements are integers"
            )),
        }
    };
    let bits = |digits: u8| -> Result<u64, String> {
        match e {
            Elem::Bits(b, d) if d == digits => Ok(b),
            Elem::Bits(_, d) => Err(format!(
                "element {index} has {d} hex digits; {t} bit patterns have {digits}"
            )),
            Elem::Int(v) => Err(format!(
                "element {index} is the number {v}; {t} elements are \"0x...\" bit-pattern strings"
            )),
        }
    };
    let w = |r: io::Result<()>| r.map_err(|e| format!("cannot spool the payload: {e}"));
    match t {
        ElementType::U8 => w(out.write_all(&[range(0, 255)? as u8])),
        ElementType::I8 => w(out.write_all(&[range(-128, 127)? as i8 as u8])),
        ElementType::I16 => {
            w(out.write_all(&(range(i16::MIN.into(), i16::MAX.into())? as i16).to_be_bytes()))
        }
        ElementType::I32 => {
            w(out.write_all(&(range(i32::MIN.into(), i32::MAX.into())? as i32).to_be_bytes()))
        }
        ElementType::F32 => w(out.write_all(&(bits(8)? as u32).to_be_bytes())),
        ElementType::F64 => w(out.write_all(&bits(16)?.to_be_bytes())),
    }
}

/// Where the elements go while the document is read.
struct Sink {
    dtype: Option<ElementType>,
    payload: BufWriter<File>,
    /// Elements seen before `dtype`, as records.
    early: Option<BufWriter<File>>,
    count: u64,
    /// The first encoding error (the rest of the document is still parsed,
    /// so a syntax error later is not hidden behind it).
    error: Option<String>,
}

impl Sink {
    fn push(&mut self, e: Elem) -> io::Result<()> {
        let index = self.count;
        self.count += 1;
        if self.error.is_some() {
            return Ok(());
        }
        match self.dtype {
            Some(t) => {
                if let Err(m) = encode(t, index, e, &mut self.payload) {
                    self.error = Some(m);
                }
            }
            None => {
                let w = match &mut self.early {
                    Some(w) => w,
                    None => self.early.insert(BufWriter::new(tempfile::tempfile()?)),
                };
                w.write_all(&e.to_record())?;
            }
        }
        Ok(())
    }
}

struct Data<'a>(&'a mut Sink);

impl<'de> DeserializeSeed<'de> for Data<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for Data<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the \"data\" array")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while let Some(e) = seq.next_element::<Elem>()? {
            self.0.push(e).map_err(de::Error::custom)?;
        }
        Ok(())
    }
}

/// What the top-level object held.
#[derive(Default)]
struct Doc {
    dtype: Option<String>,
    shape: Option<Vec<u64>>,
    data: bool,
}

struct Top<'a>(&'a mut Sink);

impl<'de> Visitor<'de> for Top<'_> {
    type Value = Doc;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object {\"dtype\", \"shape\", \"data\"}")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Doc, A::Error> {
        let mut doc = Doc::default();
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "dtype" => {
                    let name: String = map.next_value()?;
                    self.0.dtype = ElementType::from_name(&name);
                    doc.dtype = Some(name);
                }
                "shape" => doc.shape = Some(map.next_value()?),
                "data" => {
                    map.next_value_seed(Data(self.0))?;
                    doc.data = true;
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(doc)
    }
}

/// Reads the content JSON from `input` and writes the IDX file to `out`;
/// nothing is written unless the whole document is valid.
///
/// # Errors
/// A message for the user: JSON syntax (with line and column), a missing
/// or unknown field, an element out of its type's range (with its index,
/// value and the range), a shape that does not hold the elements.
pub fn write(input: impl Read, out: &mut impl Write) -> Result<(), Error> {
    let mut sink = Sink {
        dtype: None,
        payload: BufWriter::with_capacity(256 << 10, tempfile::tempfile().map_err(Error::Io)?),
        early: None,
        count: 0,
        error: None,
    };
    let mut de = serde_json::Deserializer::from_reader(BufReader::with_capacity(256 << 10, input));
    let doc = (&mut de)
        .deserialize_map(Top(&mut sink))
        .and_then(|d| de.end().map(|()| d))
        .map_err(|e| Error::Content(e.to_string()))?;
    if let Some(m) = sink.error.take() {
        return Err(Error::Content(m));
    }
    let name = doc
        .dtype
        .ok_or(Error::Content("missing \"dtype\"".into()))?;
    let t = ElementType::from_name(&name)
        .ok_or_else(|| Error::Content(format!("unknown \"dtype\" {name:?}")))?;
    let shape = doc
        .shape
        .ok_or(Error::Content("missing \"shape\"".into()))?;
    if !doc.data {
        return Err(Error::Content("missing \"data\"".into()));
    }
    let dims: Vec<usize> = shape
        .iter()
        .map(|&d| {
            u32::try_from(d)
                .map(|d| d as usize)
                .map_err(|_| Error::Content(format!("dimension {d} is larger than 2^32 - 1")))
        })
        .collect::<Result<_, _>>()?;
    // elements seen before the type: encoded now, in order
    if let Some(early) = sink.early.take() {
        let mut f = early.into_inner().map_err(|e| Error::Io(e.into_error()))?;
        f.seek(SeekFrom::Start(0)).map_err(Error::Io)?;
        let mut r = BufReader::new(f);
        let mut rec = [0u8; Elem::LEN];
        let mut index = 0u64;
        while idx::__private::fill(&mut r, &mut rec).map_err(Error::Io)? == Elem::LEN {
            encode(t, index, Elem::from_record(&rec), &mut sink.payload).map_err(Error::Content)?;
            index += 1;
        }
    }
    let want = idx::__private::payload_len(
        ElementType::U8,
        &shape.iter().map(|&d| d as u32).collect::<Vec<_>>(),
    );
    if want != Some(sink.count) {
        return Err(Error::Content(format!(
            "shape {shape:?} does not hold {}",
            idx_text::plural::count(sink.count, "element")
        )));
    }
    let header =
        idx::__private::encode_header(t, &dims).map_err(|e| Error::Content(e.to_string()))?;
    let mut payload = sink
        .payload
        .into_inner()
        .map_err(|e| Error::Io(e.into_error()))?;
    payload.seek(SeekFrom::Start(0)).map_err(Error::Io)?;
    out.write_all(&header).map_err(Error::Io)?;
    io::copy(&mut payload, out).map_err(Error::Io)?;
    out.flush().map_err(Error::Io)
}

/// Why `idx write` wrote nothing.
#[derive(Debug)]
pub enum Error {
    /// The document is not valid content JSON.
    Content(String),
    /// Spooling or writing failed.
    Io(io::Error),
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(json: &str) -> Result<Vec<u8>, String> {
        let mut out = Vec::new();
        write(json.as_bytes(), &mut out).map_err(|e| match e {
            Error::Content(m) => m,
            Error::Io(e) => e.to_string(),
        })?;
        Ok(out)
    }

    #[test]
    fn every_type_in_either_key_order() {
        let cases = [
            (
                r#"{"dtype":"u8","shape":[3],"data":[0,7,255]}"#,
                vec![0, 0, 8, 1, 0, 0, 0, 3, 0, 7, 255],
            ),
            (
                r#"{"data":[-1,2],"shape":[2],"dtype":"i16"}"#,
                vec![0, 0, 0x0b, 1, 0, 0, 0, 2, 0xff, 0xff, 0, 2],
            ),
            (
                r#"{"dtype":"f32","shape":[],"data":["0x7fc00001"]}"#,
                vec![0, 0, 0x0d, 0, 0x7f, 0xc0, 0, 1],
            ),
            (
                r#"{"shape":[1,1],"data":["0x8000000000000000"],"dtype":"f64","x":1}"#,
                vec![
                    0, 0, 0x0e, 2, 0, 0, 0, 1, 0, 0, 0, 1, 0x80, 0, 0, 0, 0, 0, 0, 0,
                ],
            ),
            (
                r#"{"dtype":"i8","shape":[0,5],"data":[]}"#,
                vec![0, 0, 9, 2, 0, 0, 0, 0, 0, 0, 0, 5],
            ),
            (
                r#"{"dtype":"i32","shape":[1],"data":[-2147483648]}"#,
                vec![0, 0, 0x0c, 1, 0, 0, 0, 1, 0x80, 0, 0, 0],
            ),
        ];
        for (json, want) in cases {
            assert_eq!(run(json).as_deref(), Ok(&want[..]), "{json}");
        }
    }

    #[test]
    fn errors_name_the_element_its_value_and_the_range() {
        let e = run(r#"{"dtype":"u8","shape":[3],"data":[1,2,300]}"#).unwrap_err();
        assert_eq!(e, "element 2 is 300, outside the range of u8 (0..=255)");
        let e = run(r#"{"data":[1,-129],"dtype":"i8","shape":[2]}"#).unwrap_err();
        assert_eq!(e, "element 1 is -129, outside the range of i8 (-128..=127)");
        let e = run(r#"{"dtype":"f32","shape":[1],"data":["0x0000000000000000"]}"#).unwrap_err();
        assert!(
            e.contains("element 0 has 16 hex digits; f32 bit patterns have 8"),
            "{e}"
        );
        let e = run(r#"{"dtype":"u8","shape":[2],"data":[1]}"#).unwrap_err();
        assert!(e.contains("does not hold 1 element"), "{e}");
        let e = run(r#"{"dtype":"u8","shape":[1],"data":[1.5]}"#).unwrap_err();
        assert!(
            e.contains("1.5 is not an integer") && e.contains("line 1"),
            "{e}"
        );
        let e = run(r#"{"dtype":"u9","shape":[1],"data":[1]}"#).unwrap_err();
        assert!(e.contains("unknown \"dtype\""), "{e}");
        assert!(run(r#"{"dtype":"u8","shape":[1],"data":[1]} x"#).is_err());
        assert!(run(r#"{"dtype":"u8","shape":[1]}"#)
            .unwrap_err()
            .contains("missing \"data\""));
    }
}
