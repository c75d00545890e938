//! Text for messages: byte counts, dimension lists, bytes in hex.

/// A dimension list as `[2, 3]`.
pub(crate) fn dims_str(dims: &[u32]) -> String {
    let parts: Vec<String> = dims.iter().map(u32::to_string).collect();
    format!("[{}]", parts.join(", "))
}

/// `1 byte`, `2 bytes`.
pub(crate) fn bytes(n: u64) -> String {
    if n == 1 {
        "1 byte".into()
    } else {
        format!("{n} bytes")
    }
}

/// Bytes as lowercase hex pairs separated by spaces.
pub(crate) fn hex(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() * 3);
    for (i, b) in bytes.iter().enumerate() {
        if i > 0 {
            s.push(' ');
        }
        s.push_str(&format!("{b:02x}"));
    }
    s
}
