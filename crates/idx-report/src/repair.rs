//! What `--fix` or `--diff` did to one input, for the renderers. The
//! repair itself is the library's ([`idx::prepare`]); writing it is the
//! front end's.

use idx::{AppliedFix, FixReport};
use std::path::PathBuf;

/// What happened to one input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// No fix applied; nothing written.
    Unchanged,
    /// The file was replaced by its repaired version (the path written,
    /// the symlink's target for a link).
    Rewritten(PathBuf),
    /// The repaired copy was written to `--output`.
    WrittenTo(PathBuf),
    /// Standard input was repaired to standard output.
    Stdout,
    /// `--diff`: these fixes would be applied; nothing was written.
    WouldRewrite,
    /// The repair failed; the input is unchanged.
    Failed(String),
}

/// The repair of one input, for the renderers.
#[derive(Debug, Clone)]
pub struct Repair {
    /// The fixes applied (or, for `--diff`, that would be).
    pub applied: Vec<AppliedFix>,
    /// Bytes dropped by truncations.
    pub dropped_bytes: u64,
    /// The first bytes of the stream before and after (header dumps).
    pub head_before: Vec<u8>,
    /// See `head_before`.
    pub head_after: Vec<u8>,
    /// What was written.
    pub action: Action,
    /// The rules the stream broke before the fixes (with `--diff` the file
    /// on disk is still that stream).
    pub before: Vec<(idx::Rule, idx::Severity)>,
    /// Fixes asked for but not applied, and why.
    pub declined: Vec<String>,
}

impl Repair {
    /// What `r` says was applied, and what was written (`action`).
    pub fn from_report(r: &FixReport, action: Action) -> Self {
        Repair {
            applied: r.applied.clone(),
            dropped_bytes: r.dropped_bytes,
            head_before: r.before.head.clone(),
            head_after: r.after.head.clone(),
            declined: r.declined.clone(),
            action,
            before: r
                .before
                .findings
                .iter()
                .map(|f| (f.rule, f.severity()))
                .collect(),
        }
    }

    /// True when the repair failed.
    pub fn failed(&self) -> bool {
        matches!(self.action, Action::Failed(_))
    }
}
