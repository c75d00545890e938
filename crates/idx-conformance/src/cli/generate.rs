//! `generate`: write the corpus from its recipes, or compare it.

use super::CliError;
use idx_conformance::{cases, corpus};
use idx_io::ExitStatus;
use std::path::Path;

/// Writes the corpus under `root` (with the on-demand cases when `large`),
/// or with `check` compares it and writes nothing: a difference is the
/// failure verdict, each problem on standard error.
///
/// # Errors
/// The corpus cannot be written.
pub(crate) fn generate(root: &Path, check: bool, large: bool) -> Result<ExitStatus, CliError> {
    let cases = cases::all();
    if check {
        let problems = corpus::check(root, &cases);
        for p in &problems {
            eprintln!("{p}");
        }
        if problems.is_empty() {
            println!(
                "corpus at {} matches its {}",
                idx_io::escape::path(root),
                idx_text::plural::count(cases.len() as u64, "recipe")
            );
            Ok(ExitStatus::Success)
        } else {
            eprintln!("run `cargo run -p idx-conformance -- generate` to update it");
            Ok(ExitStatus::Failure)
        }
    } else {
        let cases = if large {
            cases::with_on_demand()
        } else {
            cases
        };
        let n = corpus::generate(root, &cases).map_err(|e| {
            format!(
                "cannot write the corpus under {}: {e}",
                idx_io::escape::path(root)
            )
        })?;
        println!(
            "wrote {} for {} under {}",
            idx_text::plural::count(n as u64, "file"),
            idx_text::plural::count(cases.len() as u64, "case"),
            idx_io::escape::path(root)
        );
        Ok(ExitStatus::Success)
    }
}
