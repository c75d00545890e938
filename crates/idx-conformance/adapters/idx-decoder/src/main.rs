//! Conformance adapter (protocol 2, one-shot reader) for `idx-decoder`
//! 0.0.2: `idx-decoder-adapter FILE` reads the file with
//! `idx_decoder::IDXDecoder` and prints the content encoding, or an error
//! document and exits 1.
//!
//! The decoder's element type and rank are type parameters its user picks
//! for the file they expect, and `IDXDecoder::new` checks the file's type
//! and rank bytes against them; it iterates only ranks 1 (one element per
//! item) and 3 (one `Vec` of rows x cols elements per item). The adapter
//! picks the element type from the file's type byte (u8 when the byte is no
//! IDX type) and rank 3 when the rank byte is 3, rank 1 otherwise: a file of
//! another type code or rank is then refused by `new` itself (WrongType,
//! WrongDimensions). The iterator stops at the first element it cannot
//! read: what it returned is reported, [items] for rank 1 and [items, rows,
//! cols] (from `dimensions()`) for rank 3.

use idx_decoder::{types, IDXDecoder};
use std::process::ExitCode;

fn json_str(s: &str) -> String {
    let mut o = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            c if (c as u32) < 0x20 => o.push_str(&format!("\\u{:04x}", c as u32)),
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

trait Element {
    fn encode(&self) -> String;
}
macro_rules! int_element {
    ($($t:ty),*) => {$(impl Element for $t { fn encode(&self) -> String { self.to_string() } })*};
}
int_element!(u8, i8, i16, i32);
impl Element for f32 {
    fn encode(&self) -> String {
        format!("\"0x{:08x}\"", self.to_bits())
    }
}
impl Element for f64 {
    fn encode(&self) -> String {
        format!("\"0x{:016x}\"", self.to_bits())
    }
}

fn document(dtype: &str, shape: &[usize], data: &[String]) -> String {
    let shape: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
    format!(
        "{{\"dtype\": \"{dtype}\", \"shape\": [{}], \"data\": [{}]}}",
        shape.join(", "),
        data.join(", ")
    )
}

macro_rules! read_as {
    ($path:expr, $rank3:expr, $t:ty, $name:expr) => {{
        let file = std::fs::File::open($path).map_err(|e| e.to_string())?;
        if $rank3 {
            let decoder = IDXDecoder::<_, $t, nalgebra::U3>::new(std::io::BufReader::new(file))
                .map_err(|e| e.to_string())?;
            let dims = decoder.dimensions();
            let mut data = Vec::new();
            let mut items = 0usize;
            for item in decoder {
                items += 1;
                data.extend(item.iter().map(|x| x.encode()));
            }
            Ok(document(
                $name,
                &[items, dims[1] as usize, dims[2] as usize],
                &data,
            ))
        } else {
            let decoder = IDXDecoder::<_, $t, nalgebra::U1>::new(std::io::BufReader::new(file))
                .map_err(|e| e.to_string())?;
            let data: Vec<String> = decoder.map(|x| x.encode()).collect();
            Ok(document($name, &[data.len()], &data))
        }
    }};
}

fn read(path: &str) -> Result<String, String> {
    let head = {
        use std::io::Read;
        let mut head = [0u8; 4];
        let mut f = std::fs::File::open(path).map_err(|e| e.to_string())?;
        let n = f.read(&mut head).map_err(|e| e.to_string())?;
        if n < 4 {
            [0, 0, 0x08, 1]
        } else {
            head
        }
    };
    let rank3 = head[3] == 3;
    match head[2] {
        0x09 => read_as!(path, rank3, types::I8, "i8"),
        0x0b => read_as!(path, rank3, types::I16, "i16"),
        0x0c => read_as!(path, rank3, types::I32, "i32"),
        0x0d => read_as!(path, rank3, types::F32, "f32"),
        0x0e => read_as!(path, rank3, types::F64, "f64"),
        _ => read_as!(path, rank3, types::U8, "u8"),
    }
}

fn main() -> ExitCode {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: idx-decoder-adapter FILE");
        return ExitCode::from(2);
    };
    match read(&path) {
        Ok(doc) => {
            println!("{doc}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            println!("{{\"error\": {{\"message\": {}}}}}", json_str(&e));
            ExitCode::from(1)
        }
    }
}
