//! SARIF 2.1.0 with binary regions (`byteOffset`, `byteLength`).
//!
//! GitHub code scanning rejects results whose region has no `startLine`,
//! even for binary files; `--sarif-github` adds `startLine: 1` to every
//! region so the upload is accepted (the byte region stays exact).
//!
//! A gzip file's offsets are in its decompressed stream, not in the file's
//! bytes, which SARIF's `region.byteOffset` is about (spec 5.2). So the
//! run's `artifacts` list the `.gz` file and, nested in it (`parentIndex`),
//! its decompressed stream; a finding's location is that nested artifact
//! (`artifactLocation.index`) with the byte region in the stream. GitHub
//! code scanning needs a `uri` in every location, which a nested artifact
//! has not: with `--sarif-github` the location is the `.gz` file (`uri` and
//! `index`) with no byte region, only `startLine: 1`. In both, the result's
//! `properties.decompressed` holds `{byteOffset, byteLength}` in the stream.

use super::{spec_link, Context};
use crate::check::FileResult;
use idx::{Rule, Severity};
use serde_json::{json, Value};

fn level(s: Severity, deny_warnings: bool) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning if deny_warnings => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

/// Small edits (header bytes, truncations) as a SARIF `fix` with
/// `artifactChanges`: each edit a `replacement` of a byte region
/// (`deletedRegion`), with base64 `insertedContent` for replaced bytes.
/// SARIF 2.1.0 requires at least one artifact change in a fix, so a payload
/// byte swap (as large as the payload) is not a SARIF fix: its description
/// is in the result's `properties.fix`. Only for uncompressed files: the
/// offsets are in the IDX stream, which for gzip is not the file.
fn sarif_fix(x: &idx::Fix, uri: &str) -> Option<Value> {
    let mut replacements = Vec::new();
    for e in &x.edits {
        match e {
            idx::Edit::Replace { offset, bytes } => replacements.push(json!({
                "deletedRegion": {"byteOffset": offset, "byteLength": bytes.len()},
                "insertedContent": {"binary": base64(bytes)},
            })),
            idx::Edit::Delete { offset, length } => replacements.push(json!({
                "deletedRegion": {"byteOffset": offset, "byteLength": length},
            })),
            _ => return None,
        }
    }
    Some(json!({
        "description": {"text": format!("{} ({})", x.description, x.applicability)},
        "artifactChanges": [{
            "artifactLocation": {"uri": uri},
            "replacements": replacements,
        }],
    }))
}

/// Standard base64 (RFC 4648) with padding.
fn base64(bytes: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut s = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for c in bytes.chunks(3) {
        let n = (u32::from(c[0]) << 16)
            | (u32::from(*c.get(1).unwrap_or(&0)) << 8)
            | u32::from(*c.get(2).unwrap_or(&0));
        for k in 0..4 {
            if k <= c.len() {
                s.push(A[(n >> (18 - 6 * k) & 63) as usize] as char);
            } else {
                s.push('=');
            }
        }
    }
    s
}

/// Renders one SARIF log.
pub fn render(results: &[FileResult], ctx: &Context) -> String {
    let rules: Vec<Value> = Rule::ALL
        .iter()
        .map(|r| {
            // the rule's whole spec section, so the log reads well without a link
            let text = crate::explain(r.code())
                .unwrap_or_else(|| format!("{} {}: {}", r.code(), r.name(), r.title()));
            let mut v = json!({
                "id": r.code(),
                "name": r.name(),
                "shortDescription": {"text": r.title()},
                "fullDescription": {"text": text.trim()},
                "help": {"text": text.trim(), "markdown": text.trim()},
                "defaultConfiguration": {"level": level(r.severity(), false)},
            });
            // the rule's page, or its section of the spec release given
            // with --spec-url (the user's own choice wins)
            v["helpUri"] = json!(spec_link(ctx, *r).unwrap_or_else(|| crate::rule_url(*r)));
            v
        })
        .collect();
    let mut out = Vec::new();
    let mut notes = Vec::new();
    // every gzip input: the .gz file and, nested in it, its decompressed
    // stream, by the path as shown (which is also how a pair's related
    // location names the other file): (index of the .gz, of the stream)
    let mut artifacts: Vec<Value> = Vec::new();
    let mut streams: std::collections::HashMap<String, (usize, usize)> =
        std::collections::HashMap::new();
    for r in results {
        if let Ok(c) = &r.outcome {
            // a file named twice is one artifact pair
            if c.report.compression.is_some() && !streams.contains_key(&r.source.display()) {
                let uri = super::uri(r);
                let parent = artifacts.len();
                artifacts.push(json!({
                    "location": {"uri": uri},
                    "mimeType": "application/gzip",
                    "roles": ["analysisTarget"],
                }));
                artifacts.push(json!({
                    "parentIndex": parent,
                    "mimeType": "application/octet-stream",
                    "description": {"text": format!("the IDX stream decompressed from {uri}")},
                }));
                streams.insert(r.source.display(), (parent, parent + 1));
            }
        }
    }
    // a physical location of a byte range of the file `uri` (shown as
    // `shown`): in the file itself, or in its decompressed stream
    let locate = |uri: &str, shown: &str, offset: u64, length: u64| -> Value {
        match streams.get(shown) {
            None => {
                let mut region = json!({"byteOffset": offset, "byteLength": length});
                if ctx.sarif_github {
                    region["startLine"] = json!(1);
                }
                json!({"artifactLocation": {"uri": uri}, "region": region})
            }
            Some(&(parent, _)) if ctx.sarif_github => json!({
                "artifactLocation": {"uri": uri, "index": parent},
                "region": {"startLine": 1},
            }),
            Some(&(_, stream)) => json!({
                "artifactLocation": {"index": stream},
                "region": {"byteOffset": offset, "byteLength": length},
            }),
        }
    };
    for r in results {
        let uri = super::uri(r);
        let shown = r.source.display();
        let nested = streams.contains_key(&shown);
        match &r.outcome {
            Err(e) => notes.push(json!({
                "level": "error",
                "message": {"text": format!("{uri}: cannot read: {e}")},
            })),
            Ok(c) => {
                for f in &c.report.findings {
                    let location = locate(&uri, &shown, f.offset, f.length);
                    let mut text = f.message.clone();
                    if c.report.compression.is_some() {
                        text.push_str(" (offset in the decompressed stream)");
                    }
                    let mut props =
                        json!({"expected": f.expected, "found": f.found, "hint": f.hint});
                    if nested {
                        props["decompressed"] =
                            json!({"byteOffset": f.offset, "byteLength": f.length});
                    }
                    if let Some(s) = &f.byte_order {
                        props["byteOrder"] = super::json::byte_order(s);
                    }
                    let mut fixes = Vec::new();
                    if let Some(x) = &f.fix {
                        props["fix"] = super::json::fix(x);
                        if c.report.compression.is_none() {
                            fixes.extend(sarif_fix(x, &uri));
                        }
                    }
                    let mut result = json!({
                        "ruleId": f.rule.code(),
                        "ruleIndex": Rule::ALL.iter().position(|x| *x == f.rule),
                        "level": level(f.severity(), ctx.deny_warnings),
                        "message": {"text": text},
                        "locations": [{"physicalLocation": location}],
                        "properties": props,
                    });
                    if !fixes.is_empty() {
                        result["fixes"] = Value::Array(fixes);
                    }
                    if let Some(o) = &f.related {
                        let other = super::path_uri(std::path::Path::new(&o.path));
                        result["relatedLocations"] = json!([{
                            "id": 1,
                            "physicalLocation": locate(&other, &o.path, o.offset, o.length),
                            "message": {"text": "the other file of the pair"},
                        }]);
                    }
                    out.push(result);
                }
            }
        }
    }
    let mut doc = json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "idx-validate",
                "version": env!("CARGO_PKG_VERSION"),
                "informationUri": "https://example.invalid/idx-toolkit",
                "rules": rules,
            }},
            "invocations": [{
                "executionSuccessful": notes.is_empty(),
                "toolExecutionNotifications": notes,
            }],
            "results": out,
        }],
    });
    if !artifacts.is_empty() {
        doc["runs"][0]["artifacts"] = Value::Array(artifacts);
    }
    // invariant: serialising a Value cannot fail
    let mut s = serde_json::to_string_pretty(&doc).expect("serialise JSON"); // invariant: a Value always serialises
    s.push('\n');
    // a name's bidi overrides and C1 controls as \u escapes: the same value
    idx_io::escape::json(&s).into_owned()
}

#[cfg(test)]
mod tests {
    #[test]
    fn base64_matches_rfc_4648_vectors() {
        for (plain, coded) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(super::base64(plain.as_bytes()), coded);
        }
        assert_eq!(super::base64(&[0, 0, 0x0d, 2]), "AAANAg==");
    }
}
