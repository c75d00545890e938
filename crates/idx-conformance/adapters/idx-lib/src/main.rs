//! Conformance adapter (protocol 2, one-shot reader) for `idx-lib` 0.0.2:
//! `idx-lib-adapter FILE` calls `idx_lib::read_idx` on the opened file and
//! prints the content encoding, or an error document and exits 1.

use idx_lib::IdxData;
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

fn main() -> ExitCode {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: idx-lib-adapter FILE");
        return ExitCode::from(2);
    };
    let result = std::fs::File::open(&path)
        .map_err(|e| e.to_string())
        .and_then(|mut f| idx_lib::read_idx(&mut f).map_err(|e| e.to_string()));
    let arr = match result {
        Ok(a) => a,
        Err(e) => {
            println!("{{\"error\": {{\"message\": {}}}}}", json_str(&e));
            return ExitCode::from(1);
        }
    };
    // idx-lib returns an array of IdxData (one enum per element) with no
    // element type of its own: the adapter names the type from the first
    // element, and, for an array without elements, from the type byte of
    // the file (offset 2), which idx-lib has already checked.
    let dtype = match arr.iter().next() {
        Some(IdxData::UnsignedByte(_)) => "u8",
        Some(IdxData::SignedByte(_)) => "i8",
        Some(IdxData::Short(_)) => "i16",
        Some(IdxData::Int(_)) => "i32",
        Some(IdxData::Float(_)) => "f32",
        Some(IdxData::Double(_)) => "f64",
        Some(IdxData::None) => "none",
        None => match std::fs::read(&path).ok().and_then(|b| b.get(2).copied()) {
            Some(0x08) => "u8",
            Some(0x09) => "i8",
            Some(0x0b) => "i16",
            Some(0x0c) => "i32",
            Some(0x0d) => "f32",
            Some(0x0e) => "f64",
            _ => "none",
        },
    };
    let data: Vec<String> = arr
        .iter()
        .map(|v| match v {
            IdxData::UnsignedByte(x) => x.to_string(),
            IdxData::SignedByte(x) => x.to_string(),
            IdxData::Short(x) => x.to_string(),
            IdxData::Int(x) => x.to_string(),
            IdxData::Float(x) => format!("\"0x{:08x}\"", x.to_bits()),
            IdxData::Double(x) => format!("\"0x{:016x}\"", x.to_bits()),
            IdxData::None => "null".into(),
        })
        .collect();
    let shape: Vec<String> = arr.shape().iter().map(|d| d.to_string()).collect();
    println!(
        "{{\"dtype\": \"{dtype}\", \"shape\": [{}], \"data\": [{}]}}",
        shape.join(", "),
        data.join(", ")
    );
    ExitCode::SUCCESS
}
