//! The corpus's JSON text: manifests, the index and protocol requests.

use serde_json::Value;

/// Pretty JSON with a final newline.
pub fn to_text(v: &Value) -> String {
    // invariant: serialising a Value cannot fail
    let mut s = serde_json::to_string_pretty(v).expect("serialise JSON"); // invariant: a Value always serialises
    s.push('\n');
    s
}
