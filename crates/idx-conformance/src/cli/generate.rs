//! `generate`: write the corpus from its recipes, or compare it.

use idx_conformance::{cases, corpus};
use std::path::Path;
use std::process::ExitCode;

/// Writes the corpus under `root` (with the on-demand cases when `large`),
/// or with `check` compares it and writes nothing.
pub(crate) fn generate(root: &Path, check: bool, large: bool) -> ExitCode {
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
            ExitCode::SUCCESS
        } else {
            eprintln!("run `cargo run -p idx-conformance -- generate` to update it");
            ExitCode::FAILURE
        }
    } else {
        let cases = if large {
            cases::with_on_demand()
        } else {
            cases
        };
        match corpus::generate(root, &cases) {
            Ok(n) => {
                println!(
                    "wrote {} for {} under {}",
                    idx_text::plural::count(n as u64, "file"),
                    idx_text::plural::count(cases.len() as u64, "case"),
                    idx_io::escape::path(root)
                );
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::from(2)
            }
        }
    }
}
