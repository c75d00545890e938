//! The conformance protocol's error document: how a reader or writer says
//! it refuses an input (`{"error": {"rule", "offset", "message"}}` on
//! standard output, exit status 1), written by the reference adapter
//! (`idx dump --error-document`, `idx write`) and read by the runner.

use serde_json::{json, Value};

/// The error document of a refusal; `rule` and `offset` when known.
pub fn error_document(rule: Option<&str>, offset: Option<u64>, message: &str) -> Value {
    json!({"error": {"rule": rule, "offset": offset, "message": message}})
}

/// The message of an error document (`{"error": "..."}` or
/// `{"error": {"message": "...", ...}}`), or `None` when `v` is not one:
/// an error object without a `message` string is not one.
pub fn error_message(v: &Value) -> Option<String> {
    let e = v.as_object().filter(|o| o.len() == 1)?.get("error")?;
    match e {
        Value::String(s) => Some(s.clone()),
        Value::Object(o) => o.get("message").and_then(Value::as_str).map(str::to_string),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_document_reads_back_as_its_message() {
        let d = error_document(Some("IDX202"), Some(10), "the file ends early");
        assert_eq!(error_message(&d).as_deref(), Some("the file ends early"));
        assert_eq!(d["error"]["rule"], "IDX202");
        assert_eq!(
            error_message(&json!({"error": "plain"})).as_deref(),
            Some("plain")
        );
        assert_eq!(error_message(&json!({"dtype": "u8"})), None);
        assert_eq!(error_message(&json!({"error": 3})), None);
        // the message is required (corpus/README.md)
        assert_eq!(error_message(&json!({"error": {}})), None);
        assert_eq!(error_message(&json!({"error": {"rule": "IDX202"}})), None);
    }
}
