//! Round trip: every array that `idx write` (content JSON) and `idx
//! convert --from npy` write is read back by every front end of this
//! workspace with no error: validation (what `idx-validate` reports: no
//! error, so it exits 0), `idx info` and `idx dump` (exit 0, and the dump
//! is the array written), and the library's reader (what idxkit and the
//! C ABI call: the array, with at most the byte-order test's IDX501
//! warning). A property over arbitrary arrays of every type: any bit
//! pattern, small values stored byte-swapped (which the byte-order test
//! may warn of, never refuse), ramps, constants, ranks 0 to 3 with empty
//! dimensions.

use crate::support::IDX;
use quickcheck::{Arbitrary, Gen};
use test_support::payloads::Rng;
use test_support::Cmd;

/// IDX type codes and the numpy type of each (big-endian).
const TYPES: [(u8, &str, &str, usize); 6] = [
    (0x08, "u8", "|u1", 1),
    (0x09, "i8", "|i1", 1),
    (0x0b, "i16", "i2", 2),
    (0x0c, "i32", "i4", 4),
    (0x0d, "f32", "f4", 4),
    (0x0e, "f64", "f8", 8),
];

/// An array to write: its type, shape and elements' bit patterns
/// (big-endian bytes of each element).
#[derive(Debug, Clone)]
struct Case {
    t: usize,
    shape: Vec<usize>,
    elems: Vec<Vec<u8>>,
    /// The npy file stores the elements little-endian.
    npy_little: bool,
}

impl Arbitrary for Case {
    fn arbitrary(g: &mut Gen) -> Case {
        let t = usize::arbitrary(g) % TYPES.len();
        let rank = usize::arbitrary(g) % 4;
        let shape: Vec<usize> = (0..rank).map(|_| usize::arbitrary(g) % 7).collect();
        let n: usize = shape.iter().product();
        let size = TYPES[t].3;
        let mut rng = Rng(u64::arbitrary(g) | 1);
        let style = u8::arbitrary(g) % 5;
        let k = u64::arbitrary(g) % 4;
        let elems = (0..n as u64)
            .map(|i| {
                let v: u64 = match style {
                    0 => rng.next_u64(),                                         // any bit pattern
                    1 => (rng.next_u64() % 256).swap_bytes() >> (64 - 8 * size), // small, swapped
                    2 => (rng.next_u64() % 200).wrapping_sub(100), // small, both signs
                    3 => i * [1, 3, 256, 65536][k as usize],       // ramps
                    _ => [0, 1, 256, 1 << 16][k as usize],         // constants
                };
                v.to_be_bytes()[8 - size..].to_vec()
            })
            .collect();
        Case {
            t,
            shape,
            elems,
            npy_little: bool::arbitrary(g),
        }
    }
}

impl Case {
    /// The content JSON `idx dump` writes and `idx write` reads.
    fn content(&self) -> String {
        let (_, name, _, size) = TYPES[self.t];
        let data: Vec<String> = self
            .elems
            .iter()
            .map(|e| {
                let mut b = [0u8; 8];
                b[8 - size..].copy_from_slice(e);
                let u = u64::from_be_bytes(b);
                match name {
                    "u8" => u.to_string(),
                    "i8" => (u as u8 as i8).to_string(),
                    "i16" => (u as u16 as i16).to_string(),
                    "i32" => (u as u32 as i32).to_string(),
                    "f32" => format!("\"0x{u:08x}\""),
                    _ => format!("\"0x{u:016x}\""),
                }
            })
            .collect();
        serde_json::json!({"dtype": name, "shape": self.shape, "data": []})
            .to_string()
            .replace("\"data\":[]", &format!("\"data\":[{}]", data.join(",")))
    }

    /// The array as an npy file (version 1.0).
    fn npy(&self) -> Vec<u8> {
        let (_, _, descr, size) = TYPES[self.t];
        let descr = if size == 1 {
            descr.to_string()
        } else {
            format!("{}{descr}", if self.npy_little { '<' } else { '>' })
        };
        let shape = match self.shape.len() {
            1 => format!("({},)", self.shape[0]),
            _ => format!(
                "({})",
                self.shape
                    .iter()
                    .map(|d| d.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        };
        let mut dict =
            format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape}, }}");
        while (10 + dict.len() + 1) % 64 != 0 {
            dict.push(' ');
        }
        dict.push('\n');
        let mut out = b"\x93NUMPY\x01\x00".to_vec();
        out.extend((dict.len() as u16).to_le_bytes());
        out.extend(dict.as_bytes());
        for e in &self.elems {
            let mut e = e.clone();
            if self.npy_little {
                e.reverse();
            }
            out.extend(e);
        }
        out
    }
}

/// Every front end reads `file` (written for `case`) with no error.
fn read_back(case: &Case, file: &std::path::Path, what: &str) -> Result<(), String> {
    let bytes = std::fs::read(file).map_err(|e| format!("{what}: {e}"))?;
    let report = idx::validate_with(&bytes, &idx::Options::default());
    if let Some(e) = report.errors().next() {
        return Err(format!("{what}: validation: {e:?}"));
    }
    let path = file.to_str().ok_or("a temporary path is UTF-8")?;
    let info = Cmd::new(IDX).args(["info", path]).out();
    if info.code != 0 {
        return Err(format!(
            "{what}: idx info exit {}: {}",
            info.code, info.stderr
        ));
    }
    let dump = Cmd::new(IDX).args(["dump", path]).out();
    if dump.code != 0 {
        return Err(format!(
            "{what}: idx dump exit {}: {}",
            dump.code, dump.stderr
        ));
    }
    let got: serde_json::Value = serde_json::from_str(&dump.stdout).map_err(|e| e.to_string())?;
    let want: serde_json::Value =
        serde_json::from_str(&case.content()).map_err(|e| e.to_string())?;
    if got != want {
        return Err(format!("{what}: idx dump gave {got}, written {want}"));
    }
    match idx::Reader::new(&bytes[..], &idx::ReadOptions::default())
        .and_then(idx::Reader::read_array)
    {
        Ok((_, warnings)) => {
            if let Some(w) = warnings.iter().find(|w| {
                w.rule != idx::Rule::LikelyLittleEndian || w.severity() == idx::Severity::Error
            }) {
                return Err(format!("{what}: reader: {w:?}"));
            }
        }
        Err(e) => return Err(format!("{what}: reader: {e}")),
    }
    Ok(())
}

fn round_trip(case: Case) -> Result<(), String> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?; // test scratch directory
    let written = Cmd::new(IDX)
        .args(["write"])
        .stdin(Some(case.content().as_bytes()))
        .out();
    if written.code != 0 {
        return Err(format!(
            "idx write exit {}: {}",
            written.code, written.stderr
        ));
    }
    let w = dir.path().join("w.idx");
    std::fs::write(&w, &written.stdout_bytes).map_err(|e| e.to_string())?;
    read_back(&case, &w, "idx write")?;

    let npy = dir.path().join("a.npy");
    std::fs::write(&npy, case.npy()).map_err(|e| e.to_string())?;
    let c = dir.path().join("c.idx");
    let (npy_s, c_s) = (npy.to_str().ok_or("utf-8")?, c.to_str().ok_or("utf-8")?);
    let converted = Cmd::new(IDX)
        .args(["convert", "--from", "npy", npy_s, "-o", c_s])
        .out();
    if converted.code != 0 {
        return Err(format!(
            "idx convert exit {}: {}",
            converted.code, converted.stderr
        ));
    }
    read_back(&case, &c, "idx convert --from npy")
}

#[test]
fn every_array_written_is_read_back_by_every_front_end() {
    test_support::quickcheck(
        "every_array_written_is_read_back_by_every_front_end",
        40,
        (|case: Case| match round_trip(case.clone()) {
            Ok(()) => quickcheck::TestResult::passed(),
            Err(e) => quickcheck::TestResult::error(format!("{case:?}: {e}")),
        }) as fn(Case) -> quickcheck::TestResult,
    );
}
