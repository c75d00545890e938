//! The results of a run: outcomes, counts, the human report and the JSON
//! results `matrix --merge` reads back.

use super::{Mode, Status, PROTOCOL};
use crate::cases::Verdict;
use serde_json::{json, Value};
use std::time::Duration;

/// One case's result.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// Case ID.
    pub id: String,
    /// The case's verdict.
    pub verdict: Verdict,
    /// What happened.
    pub status: Status,
    /// An explanation (never empty).
    pub detail: String,
    /// Whether it counts as a failure (not implementation-defined, not pass).
    pub failed: bool,
    /// Whether the expected-failures file lists it.
    pub expected_failure: bool,
    /// Whether the expected-failures file lists it as failed on some of
    /// its variants only (`~ID`): it may pass or fail a run.
    pub some_variants: bool,
    /// The result on the case's committed bytes, when this run's variant's
    /// disagreed with the expected failures and the committed bytes were
    /// run too: whether they failed.
    pub committed_failed: Option<bool>,
    /// Wall time.
    pub elapsed: Duration,
}

/// What an expected-failures file says of a case.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Listed {
    /// Not listed: it passes.
    No,
    /// Listed: it fails.
    Fails,
    /// Listed after `~`: it fails some of its variants.
    SomeVariants,
}

impl Outcome {
    /// A failure the expected failures do not list.
    pub fn unexpected_failure(&self) -> bool {
        self.failed && !self.expected_failure
    }

    /// A listed case that passed: not one listed as failing some variants,
    /// nor one whose committed bytes failed (a pass of one variant does not
    /// say the case passes).
    pub fn unexpected_pass(&self) -> bool {
        !self.failed
            && self.expected_failure
            && !self.some_variants
            && self.committed_failed != Some(true)
    }

    /// What the expected failures this run implies say of the case: a
    /// failure of a variant whose committed bytes pass, or a listing after
    /// `~`, is a failure of some variants; a failure, or a pass of a
    /// variant whose committed bytes fail, a failure.
    pub fn listed(&self) -> Listed {
        if self.some_variants || (self.failed && self.committed_failed == Some(false)) {
            Listed::SomeVariants
        } else if self.failed || self.committed_failed == Some(true) {
            Listed::Fails
        } else {
            Listed::No
        }
    }
}

/// A case not run, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skipped {
    /// Case ID.
    pub id: String,
    /// Why.
    pub reason: String,
}

/// The results of one run.
#[derive(Debug, Clone)]
pub struct Report {
    /// Implementation name.
    pub name: String,
    /// Implementation version.
    pub version: String,
    /// Reader or writer.
    pub mode: Mode,
    /// The command.
    pub command: Vec<String>,
    /// Persistent mode.
    pub persistent: bool,
    /// Per-case deadline.
    pub timeout: Duration,
    /// Memory limit.
    pub memory_mib: Option<u64>,
    /// Every case run.
    pub outcomes: Vec<Outcome>,
    /// Every case not run, with the reason.
    pub skipped: Vec<Skipped>,
    /// Things said once (start-up share of the deadline, restarts).
    pub notes: Vec<String>,
    /// Wall time of the whole run.
    pub elapsed: Duration,
}

fn verdict_from_name(s: &str) -> Option<Verdict> {
    [
        Verdict::Valid,
        Verdict::Invalid,
        Verdict::ImplementationDefined,
    ]
    .into_iter()
    .find(|v| v.as_str() == s)
}

/// Unexpected failures: failed and not listed as expected.
pub fn unexpected(outcomes: &[Outcome]) -> usize {
    outcomes.iter().filter(|o| o.unexpected_failure()).count()
}

/// Expected failures that passed.
pub fn unexpected_passes(outcomes: &[Outcome]) -> usize {
    outcomes.iter().filter(|o| o.unexpected_pass()).count()
}

impl Report {
    /// Counts per status.
    pub fn counts(&self) -> Vec<(Status, usize)> {
        Status::ALL
            .iter()
            .map(|&s| (s, self.outcomes.iter().filter(|o| o.status == s).count()))
            .filter(|&(_, n)| n > 0)
            .collect()
    }

    /// Human-readable report.
    pub fn render_human(&self) -> String {
        let mut s = String::new();
        for o in &self.outcomes {
            let mark = match (o.failed, o.expected_failure) {
                (true, true) => "XFAIL",
                (true, false) => "FAIL ",
                (false, true) if !o.unexpected_pass() => "XVAR ",
                (false, true) => "XPASS",
                (false, false) if o.verdict == Verdict::ImplementationDefined => "IMPL ",
                (false, false) => continue,
            };
            s.push_str(&format!(
                "{mark} {:<45} {:<16} {}\n",
                o.id,
                o.status.as_str(),
                o.detail
            ));
        }
        let mut reasons: Vec<(&str, usize)> = Vec::new();
        for k in &self.skipped {
            match reasons.iter_mut().find(|(r, _)| *r == k.reason) {
                Some(e) => e.1 += 1,
                None => reasons.push((&k.reason, 1)),
            }
        }
        for (r, n) in &reasons {
            let ids: Vec<&str> = self
                .skipped
                .iter()
                .filter(|k| k.reason == *r)
                .map(|k| k.id.as_str())
                .take(3)
                .collect();
            s.push_str(&format!(
                "SKIP  {n} case{}: {r} ({}{})\n",
                if *n == 1 { "" } else { "s" },
                ids.join(", "),
                if *n > 3 { ", …" } else { "" }
            ));
        }
        for n in &self.notes {
            s.push_str(&format!("NOTE  {n}\n"));
        }
        let pass = self
            .outcomes
            .iter()
            .filter(|o| o.status == Status::Pass)
            .count();
        let failed = self.outcomes.iter().filter(|o| o.failed).count();
        let xfail = self
            .outcomes
            .iter()
            .filter(|o| o.failed && o.expected_failure)
            .count();
        let imp = self
            .outcomes
            .iter()
            .filter(|o| o.verdict == Verdict::ImplementationDefined)
            .count();
        s.push_str(&format!(
            "{} {mode}: {pass} passed, {failed} failed ({xfail} expected), {imp} implementation-defined recorded, {} skipped\n",
            self.outcomes.len(),
            self.skipped.len(),
            mode = self.mode.as_str()
        ));
        s
    }

    /// JSON report (the format `matrix --merge` reads back).
    pub fn to_json(&self) -> Value {
        let results: Vec<Value> = self
            .outcomes
            .iter()
            .map(|o| {
                let mut v = json!({"id": o.id, "verdict": o.verdict.as_str(), "status": o.status.as_str(),
                       "detail": o.detail, "failed": o.failed, "expected_failure": o.expected_failure,
                       "seconds": (o.elapsed.as_secs_f64() * 1000.0).round() / 1000.0});
                // only when said: results without variants read as before
                if o.some_variants {
                    v["some_variants"] = json!(true);
                }
                if let Some(f) = o.committed_failed {
                    v["committed_failed"] = json!(f);
                }
                v
            })
            .collect();
        let counts: serde_json::Map<String, Value> = self
            .counts()
            .into_iter()
            .map(|(s, n)| (s.as_str().to_string(), json!(n)))
            .collect();
        json!({
            "version": 2,
            "protocol": PROTOCOL,
            "implementation": {"name": self.name, "version": self.version},
            "mode": self.mode.as_str(),
            "command": self.command,
            "persistent": self.persistent,
            "limits": {"timeout_seconds": self.timeout.as_secs_f64(), "memory_mib": self.memory_mib},
            "counts": counts,
            "summary": {
                "cases": self.outcomes.len(),
                "passed": self.outcomes.iter().filter(|o| o.status == Status::Pass).count(),
                "failed": self.outcomes.iter().filter(|o| o.failed).count(),
                "unexpected_failures": unexpected(&self.outcomes),
                "unexpected_passes": unexpected_passes(&self.outcomes),
                "skipped": self.skipped.len(),
                "seconds": (self.elapsed.as_secs_f64() * 100.0).round() / 100.0,
            },
            "notes": self.notes,
            "results": results,
            "skipped": self.skipped.iter().map(|k| json!({"id": k.id, "reason": k.reason})).collect::<Vec<_>>(),
        })
    }

    /// Reads back [`Report::to_json`].
    ///
    /// # Errors
    /// A missing or malformed field.
    pub fn from_json(v: &Value) -> Result<Report, String> {
        let s = |v: &Value, k: &str| -> Result<String, String> {
            v.get(k)
                .and_then(Value::as_str)
                .map(str::to_string)
                .ok_or_else(|| format!("missing string field {k:?}"))
        };
        if v.get("version").and_then(Value::as_u64) != Some(2) {
            return Err("not a version 2 results file".into());
        }
        let imp = v
            .get("implementation")
            .ok_or("missing \"implementation\"")?;
        let mode = Mode::from_name(&s(v, "mode")?).ok_or("bad \"mode\"")?;
        let limits = v.get("limits").ok_or("missing \"limits\"")?;
        let mut outcomes = Vec::new();
        for r in v
            .get("results")
            .and_then(Value::as_array)
            .ok_or("missing \"results\"")?
        {
            outcomes.push(Outcome {
                id: s(r, "id")?,
                verdict: verdict_from_name(&s(r, "verdict")?).ok_or("bad verdict")?,
                status: Status::from_name(&s(r, "status")?).ok_or("bad status")?,
                detail: s(r, "detail")?,
                failed: r
                    .get("failed")
                    .and_then(Value::as_bool)
                    .ok_or("bad \"failed\"")?,
                expected_failure: r
                    .get("expected_failure")
                    .and_then(Value::as_bool)
                    .unwrap_or(false),
                some_variants: r
                    .get("some_variants")
                    .and_then(Value::as_bool)
                    .unwrap_or(false),
                committed_failed: r.get("committed_failed").and_then(Value::as_bool),
                elapsed: super::seconds(r.get("seconds").and_then(Value::as_f64).unwrap_or(0.0)),
            });
        }
        let mut skipped = Vec::new();
        for k in v
            .get("skipped")
            .and_then(Value::as_array)
            .ok_or("missing \"skipped\"")?
        {
            skipped.push(Skipped {
                id: s(k, "id")?,
                reason: s(k, "reason")?,
            });
        }
        Ok(Report {
            name: s(imp, "name")?,
            version: s(imp, "version")?,
            mode,
            command: v
                .get("command")
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter_map(|x| x.as_str().map(str::to_string))
                        .collect()
                })
                .unwrap_or_default(),
            persistent: v
                .get("persistent")
                .and_then(Value::as_bool)
                .unwrap_or(false),
            timeout: super::seconds(
                limits
                    .get("timeout_seconds")
                    .and_then(Value::as_f64)
                    .unwrap_or(0.0),
            ),
            memory_mib: limits.get("memory_mib").and_then(Value::as_u64),
            outcomes,
            skipped,
            notes: v
                .get("notes")
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter_map(|x| x.as_str().map(str::to_string))
                        .collect()
                })
                .unwrap_or_default(),
            elapsed: super::seconds(
                v.pointer("/summary/seconds")
                    .and_then(Value::as_f64)
                    .unwrap_or(0.0),
            ),
        })
    }
}
