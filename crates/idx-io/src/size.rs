//! Sizes with suffixes, wherever a size is taken: `1024`, `10K`, `10M`,
//! `64G`, `1T` (powers of 1000), `64KiB`, `10MiB`, `64GiB`, `1TiB` (powers
//! of 1024); a trailing `B` is allowed (`10MB`, `64GiB`), case is ignored,
//! and a space may separate the number from the unit.

/// Parses a size in bytes.
///
/// # Errors
/// A message saying what is accepted.
pub fn parse_size(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return Err(format!(
            "bad size {s:?}: a whole number of bytes with an optional unit (K, M, G, T, KiB, MiB, GiB, TiB)"
        ));
    }
    let n: u64 = t[..digits]
        .parse()
        .map_err(|_| format!("bad size {s:?}: too large"))?;
    let unit = t[digits..].trim().to_ascii_lowercase();
    let unit = unit.strip_suffix('b').unwrap_or(&unit);
    let mult: u64 = match unit {
        "" => 1,
        "k" => 1_000,
        "m" => 1_000_000,
        "g" => 1_000_000_000,
        "t" => 1_000_000_000_000,
        "ki" => 1 << 10,
        "mi" => 1 << 20,
        "gi" => 1 << 30,
        "ti" => 1 << 40,
        _ => {
            return Err(format!(
                "bad size {s:?}: unknown unit {:?} (K, M, G, T, KiB, MiB, GiB, TiB; B optional)",
                t[digits..].trim()
            ))
        }
    };
    n.checked_mul(mult)
        .ok_or_else(|| format!("bad size {s:?}: more than 2^64 bytes"))
}

#[cfg(test)]
mod tests {
    use super::parse_size;

    #[test]
    fn sizes() {
        for (s, n) in [
            ("0", 0),
            ("1024", 1024),
            ("10K", 10_000),
            ("10M", 10_000_000),
            ("10MB", 10_000_000),
            ("64GiB", 64 << 30),
            ("64 gib", 64 << 30),
            ("1TiB", 1 << 40),
            ("3kib", 3072),
            ("512B", 512),
        ] {
            assert_eq!(parse_size(s), Ok(n), "{s}");
        }
        for s in [
            "",
            "G",
            "1.5G",
            "-1",
            "10 parsecs",
            "99999999999999999999",
            "20000000TiB",
        ] {
            assert!(parse_size(s).is_err(), "{s}");
        }
    }
}
