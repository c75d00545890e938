//! SARIF 2.1.0 with binary regions (`byteOffset`, `byteLength`).
//!
//! GitHub code scanning rejects results whose region has no `startLine`,
//! even for binary files; `--sarif-github` adds `startLine: 1` to every
//! region so the upload is accepted (the byte region stays exact).

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
            if let Some(url) = spec_link(ctx, *r) {
                v["helpUri"] = json!(url);
            }
            v
        })
        .collect();
    let mut out = Vec::new();
    let mut notes = Vec::new();
    for r in results {
        let uri = super::uri(r);
        match &r.outcome {
            Err(e) => notes.push(json!({
                "level": "error",
                "message": {"text": format!("{uri}: cannot read: {e}")},
            })),
            Ok(c) => {
                for f in &c.report.findings {
                    let mut region = json!({"byteOffset": f.offset, "byteLength": f.length});
                    if ctx.sarif_github {
                        region["startLine"] = json!(1);
                    }
                    let mut text = f.message.clone();
                    if c.report.compression.is_some() {
                        text.push_str(" (offset in the decompressed stream)");
                    }
                    let mut result = json!({
                        "ruleId": f.rule.code(),
                        "ruleIndex": Rule::ALL.iter().position(|x| *x == f.rule),
                        "level": level(f.severity(), ctx.deny_warnings),
                        "message": {"text": text},
                        "locations": [{"physicalLocation": {
                            "artifactLocation": {"uri": uri},
                            "region": region,
                        }}],
                        "properties": {"expected": f.expected, "found": f.found, "hint": f.hint},
                    });
                    if let Some(o) = &f.related {
                        let mut region = json!({"byteOffset": o.offset, "byteLength": o.length});
                        if ctx.sarif_github {
                            region["startLine"] = json!(1);
                        }
                        result["relatedLocations"] = json!([{
                            "id": 1,
                            "physicalLocation": {
                                "artifactLocation": {"uri": o.path.replace('\\', "/").trim_start_matches("./")},
                                "region": region,
                            },
                            "message": {"text": "the other file of the pair"},
                        }]);
                    }
                    out.push(result);
                }
            }
        }
    }
    let doc = json!({
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
    // invariant: serialising a Value cannot fail
    let mut s = serde_json::to_string_pretty(&doc).expect("serialise JSON"); // invariant: a Value always serialises
    s.push('\n');
    s
}
