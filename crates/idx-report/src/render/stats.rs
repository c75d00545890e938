//! `--statistics`: how many findings each rule produced over the run
//! (suppressed findings included), most frequent first.

use crate::check::FileResult;
use idx::Rule;
use serde_json::json;
use std::collections::BTreeMap;
use std::fmt::Write;

/// Counts per rule.
pub fn counts(results: &[FileResult]) -> Vec<(Rule, usize)> {
    let mut m: BTreeMap<Rule, usize> = BTreeMap::new();
    for r in results {
        if let Ok(c) = &r.outcome {
            for f in &c.report.findings {
                *m.entry(f.rule).or_default() += 1;
            }
            for (rule, n) in &c.suppressed {
                *m.entry(*rule).or_default() += n;
            }
        }
    }
    let mut v: Vec<(Rule, usize)> = m.into_iter().collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    v
}

/// An aligned table (`COUNT  CODE    SEVERITY  NAME`), or a JSON array.
pub fn render(results: &[FileResult], as_json: bool) -> String {
    let v = counts(results);
    if as_json {
        let arr: Vec<_> = v
            .iter()
            .map(|(r, n)| json!({"rule": r.code(), "name": r.name(), "severity": r.severity().as_str(), "count": n}))
            .collect();
        return format!("{}\n", serde_json::Value::Array(arr));
    }
    let w = v
        .iter()
        .map(|(_, n)| n.to_string().len())
        .max()
        .unwrap_or(1);
    let mut s = String::new();
    for (r, n) in &v {
        let _ = writeln!(
            s,
            "{n:>w$}  {}  {:<7}  {}",
            r.code(),
            r.severity().as_str(),
            r.name()
        );
    }
    let unreadable = results.iter().filter(|r| r.outcome.is_err()).count();
    if unreadable > 0 {
        let _ = writeln!(s, "{unreadable:>w$}  (unreadable)");
    }
    s
}
