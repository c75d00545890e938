//! Conformance adapter (protocol 2, one-shot reader) for `nuvec-io` 0.5.0:
//! `nuvec-io-adapter FILE` calls `nuvec_io::read_idx` and prints the
//! content encoding, or an error document and exits 1.

use nuvec_core::{Array, DType};
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

fn content(a: &Array) -> Result<String, String> {
    let e = |e: nuvec_core::Error| e.to_string();
    let (name, data): (&str, Vec<String>) = match a.dtype() {
        DType::U8 => ("u8", a.to_vec::<u8>().map_err(e)?.iter().map(|x| x.to_string()).collect()),
        DType::I8 => ("i8", a.to_vec::<i8>().map_err(e)?.iter().map(|x| x.to_string()).collect()),
        DType::I16 => ("i16", a.to_vec::<i16>().map_err(e)?.iter().map(|x| x.to_string()).collect()),
        DType::I32 => ("i32", a.to_vec::<i32>().map_err(e)?.iter().map(|x| x.to_string()).collect()),
        DType::F32 => (
            "f32",
            a.to_vec::<f32>().map_err(e)?.iter().map(|x| format!("\"0x{:08x}\"", x.to_bits())).collect(),
        ),
        DType::F64 => (
            "f64",
            a.to_vec::<f64>().map_err(e)?.iter().map(|x| format!("\"0x{:016x}\"", x.to_bits())).collect(),
        ),
        other => return Err(format!("nuvec-io returned dtype {other:?}, which IDX cannot hold")),
    };
    // nuvec shapes are i32: a dimension above 2^31-1 comes back negative,
    // and is printed as such (the runner then reports the output as not the
    // content encoding).
    let shape: Vec<String> = a.shape().iter().map(|d| d.to_string()).collect();
    Ok(format!(
        "{{\"dtype\": \"{name}\", \"shape\": [{}], \"data\": [{}]}}",
        shape.join(", "),
        data.join(", ")
    ))
}

fn main() -> ExitCode {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: nuvec-io-adapter FILE");
        return ExitCode::from(2);
    };
    match nuvec_io::read_idx(&path).map_err(|e| e.to_string()).and_then(|a| content(&a)) {
        Ok(s) => {
            println!("{s}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            println!("{{\"error\": {{\"message\": {}}}}}", json_str(&e));
            ExitCode::from(1)
        }
    }
}
