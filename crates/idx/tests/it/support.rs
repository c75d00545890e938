//! Helpers shared by several of `idx`'s test modules.

use idx::ReadError;

/// Spaced hex (`"00 00 08 01"`) as bytes.
pub fn hx(s: &str) -> Vec<u8> {
    s.split_whitespace()
        .map(|b| u8::from_str_radix(b, 16).unwrap_or_else(|_| panic!("bad hex {b:?}")))
        .collect()
}

/// A read's outcome as comparable data: the dimensions and the native-endian
/// bytes of the elements, or the first error's rule and offset.
pub type Outcome = Result<(Vec<usize>, Vec<u8>), (String, u64)>;

/// A read error as the comparable part of an [`Outcome`].
pub fn outcome_of(e: ReadError) -> (String, u64) {
    match e {
        ReadError::Invalid(e) => (e.rule().code().to_string(), e.offset()),
        e => ("io".into(), e.to_string().len() as u64),
    }
}

/// `bytes` through `read_header` and `read_array_into` (the destination
/// sized from the header, as a caller that checked the source's length).
pub fn via_read_into(bytes: &[u8]) -> Outcome {
    let mut r = bytes;
    let h = idx::__private::read_header(&mut r).map_err(outcome_of)?;
    let mut out = vec![0u8; usize::try_from(h.payload_len()).unwrap()]; // ok: test sizes
    idx::fuzzing::read_array_into(&mut r, &h, &mut out).map_err(outcome_of)?;
    Ok((h.dims().iter().map(|&d| d as usize).collect(), out))
}
