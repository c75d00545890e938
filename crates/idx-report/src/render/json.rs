//! `json` (one document) and `jsonl` (one finding per line). The schema is
//! `schema/idx-validate.schema.json`, version 1.

use super::{totals, Context};
use crate::check::FileResult;
use idx::Finding;
use serde_json::{json, Value};

/// Version of the JSON output.
pub const VERSION: u32 = 1;

/// One finding as JSON, with its rule's page (`url`); `fix` only when the
/// finding has one.
pub fn finding(f: &Finding) -> Value {
    let mut v = json!({
        "rule": f.rule.code(),
        "severity": f.severity().as_str(),
        "offset": f.offset,
        "length": f.length,
        "message": f.message,
        "expected": f.expected,
        "found": f.found,
        "hint": f.hint,
        "url": crate::rule_url(f.rule),
    });
    if let Some(o) = &f.related {
        v["related"] = json!({"path": o.path, "offset": o.offset, "length": o.length});
    }
    if let Some(x) = &f.fix {
        v["fix"] = fix(x);
    }
    if let Some(s) = &f.byte_order {
        v["byte_order"] = byte_order(s);
    }
    v
}

/// The byte-order test's score (IDX501) as JSON, with its thresholds: the
/// numbers the finding's message shows ([`idx::lint::ByteOrderScore::shown`]).
pub fn byte_order(s: &idx::lint::ByteOrderScore) -> Value {
    let s = s.shown();
    json!({
        "score_bits": s.bits,
        "z": s.z,
        "big_endian_bits": s.big_bits,
        "little_endian_bits": s.little_bits,
        "elements": s.elements,
        "likely_bits": idx::lint::LIKELY_BITS,
        "certain_bits": idx::lint::CERTAIN_BITS,
    })
}

/// A fix as JSON: `{applicability, description, edits}`; each edit is
/// `{kind: replace, offset, bytes (hex)}`, `{kind: delete, offset, length}`
/// or `{kind: swap, offset, length, element_size}`.
pub fn fix(x: &idx::Fix) -> Value {
    let edits: Vec<Value> = x
        .edits
        .iter()
        .map(|e| match e {
            idx::Edit::Replace { offset, bytes } => json!({
                "kind": "replace",
                "offset": offset,
                "bytes": bytes.iter().map(|b| format!("{b:02x}")).collect::<Vec<_>>().join(" "),
            }),
            idx::Edit::Delete { offset, length } => {
                json!({"kind": "delete", "offset": offset, "length": length})
            }
            idx::Edit::SwapBytes {
                offset,
                length,
                element_size,
            } => json!({
                "kind": "swap",
                "offset": offset,
                "length": length,
                "element_size": element_size,
            }),
            _ => json!({"kind": "unknown"}),
        })
        .collect();
    json!({
        "applicability": x.applicability.as_str(),
        "description": x.description,
        "edits": edits,
    })
}

/// What `--fix` or `--diff` did to one file.
pub fn repair(rep: &crate::repair::Repair) -> Value {
    use crate::repair::Action;
    let (action, path, error) = match &rep.action {
        Action::Unchanged => ("unchanged", None, None),
        Action::Rewritten(p) => ("rewritten", Some(p.display().to_string()), None),
        Action::WrittenTo(p) => ("written", Some(p.display().to_string()), None),
        Action::Stdout => ("stdout", None, None),
        Action::WouldRewrite => ("would-rewrite", None, None),
        Action::Failed(e) => ("failed", None, Some(e.clone())),
    };
    json!({
        "action": action,
        "path": path,
        "error": error,
        "dropped_bytes": rep.dropped_bytes,
        "declined": rep.declined,
        "applied": rep.applied.iter().map(|a| json!({
            "rule": a.rule.map(|r| r.code()),
            "offset": a.offset,
            "message": a.message,
            "fix": fix(&a.fix),
        })).collect::<Vec<_>>(),
    })
}

/// `{"path": ...}`, plus `path_bytes` when the path is not valid UTF-8:
/// `path` is then the name with U+FFFD in place of the bytes UTF-8 cannot
/// hold, and `path_bytes` the exact bytes as lower-case hex pairs
/// separated by spaces (as a fix's `bytes`), so no name is lost.
pub fn path_fields(r: &FileResult) -> Value {
    let mut v = json!({"path": r.source.display()});
    if let Some(b) = super::non_utf8_path(r) {
        v["path_bytes"] = json!(b
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect::<Vec<_>>()
            .join(" "));
    }
    v
}

/// One file as JSON.
pub fn file(r: &FileResult, ctx: &Context) -> Value {
    let mut v = path_fields(r);
    v["verdict"] = json!(r.verdict(ctx.deny_warnings));
    match &r.outcome {
        Err(e) => {
            v["compression"] = Value::Null;
            v["header"] = Value::Null;
            v["findings"] = json!([]);
            v["error"] = json!(e);
        }
        Ok(c) => {
            let rep = &c.report;
            v["compression"] = json!(rep.compression.map(|c| c.as_str()));
            v["header"] = rep.header.as_ref().map_or(Value::Null, |h| {
                json!({"dtype": h.dtype().name(), "shape": h.dims(), "header_len": h.header_len(), "payload_len": h.payload_len()})
            });
            v["stream_len"] = json!(rep.stream_len);
            v["findings"] = Value::Array(rep.findings.iter().map(finding).collect());
            if let Some(r) = &c.repair {
                v["repair"] = repair(r);
            }
            v["suppressed"] = Value::Object(
                c.suppressed
                    .iter()
                    .map(|(r, n)| (r.code().to_string(), json!(n)))
                    .collect(),
            );
        }
    }
    v
}

/// The whole document.
pub fn render(results: &[FileResult], ctx: &Context) -> String {
    let t = totals(results, ctx.deny_warnings);
    let f = super::fix_totals(results, ctx.unsafe_fixes);
    let mut doc = json!({
        "version": VERSION,
        "files": results.iter().map(|r| file(r, ctx)).collect::<Vec<_>>(),
        "summary": {
            "files": t.files, "valid": t.valid, "invalid": t.invalid, "unreadable": t.unreadable,
            "errors": t.errors, "warnings": t.warnings, "infos": t.infos,
        },
    });
    // fix counts only when there is something to count
    if f.fixable + f.unsafe_fixable + f.fixed + f.repair_failed > 0 {
        doc["summary"]["fixable"] = json!(f.fixable);
        doc["summary"]["unsafe_fixable"] = json!(f.unsafe_fixable);
        doc["summary"]["fixed"] = json!(f.fixed);
        doc["summary"]["repair_failed"] = json!(f.repair_failed);
    }
    // invariant: serialising a Value cannot fail
    let mut s = serde_json::to_string_pretty(&doc).expect("serialise JSON"); // invariant: a Value always serialises
    s.push('\n');
    // a name's bidi overrides and C1 controls as \u escapes: the same value
    idx_io::escape::json(&s).into_owned()
}

/// One line per finding (`{"path", ...finding}`), and one per unreadable
/// file (`{"path", "error"}`).
pub fn render_lines(results: &[FileResult], _ctx: &Context) -> String {
    let mut s = String::new();
    for r in results {
        match &r.outcome {
            Err(e) => {
                let mut v = path_fields(r);
                v["error"] = json!(e);
                s.push_str(&v.to_string());
            }
            Ok(c) => {
                for f in &c.report.findings {
                    // offsets are in the decompressed stream when set (5.2)
                    let mut v = path_fields(r);
                    v["compression"] = json!(c.report.compression.map(|c| c.as_str()));
                    if let (Value::Object(a), Value::Object(b)) = (&mut v, finding(f)) {
                        a.extend(b);
                    }
                    s.push_str(&v.to_string());
                    s.push('\n');
                }
                continue;
            }
        }
        s.push('\n');
    }
    // a name's bidi overrides and C1 controls as \u escapes: the same value
    idx_io::escape::json(&s).into_owned()
}
