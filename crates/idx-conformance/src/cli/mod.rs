//! The subcommands of the `idx-conformance` binary (not part of the
//! library): one file per subcommand, the writer of their outputs and the
//! error that stops them.
//!
//! A subcommand returns `Result<ExitStatus, CliError>`: its verdict
//! (success 0, failure 1) when it ran to the end, else the error that
//! stopped it, passed up with `?` and reported once by `main` as
//! `error: <message>` with exit status 2.

pub(crate) mod differential;
pub(crate) mod generate;
pub(crate) mod matrix;
pub(crate) mod run;

use idx_io::output::{self, OutputError, Policy};
use std::fmt;
use std::path::Path;

/// An error of the run itself (an input or a description it cannot read,
/// an output it cannot write, an adapter that cannot read the simplest
/// case, arguments that do not fit together), not a verdict: `main`
/// prints it once as `error: <message>` and exits 2. The message names
/// the file it is about, escaped (`idx_io::escape::path`).
#[derive(Debug)]
pub(crate) struct CliError(String);

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<String> for CliError {
    fn from(message: String) -> CliError {
        CliError(message)
    }
}

impl From<&str> for CliError {
    fn from(message: &str) -> CliError {
        CliError(message.to_string())
    }
}

impl From<OutputError> for CliError {
    /// The writer's message, which names the file.
    fn from(e: OutputError) -> CliError {
        CliError(e.to_string())
    }
}

/// The command line, parsed: a usage error is printed with the values
/// given escaped (clap prints them as given) and ends the process, as
/// clap's own `parse` does; `--help` and `--version` print and exit.
pub(crate) fn parse<C: clap::Parser>() -> C {
    match C::try_parse() {
        Ok(cli) => cli,
        Err(e) if idx_io::escape::quotes_input(&e) => {
            let code = e.exit_code();
            eprint!(
                "{}",
                idx_io::escape::clap_text(&idx_io::escape::clap_values(e))
            );
            std::process::exit(code)
        }
        Err(e) => e.exit(),
    }
}

/// Writes one of the tool's outputs (a report, a results file, an
/// expected-failures file, a page, a picture) through the workspace's one
/// atomic writer. An existing file is replaced, as it always was, and no
/// input is protected: `differential --check R --out R` rewrites the
/// report it compared with. The folder must exist (`--results` and
/// `--reports` create theirs).
///
/// # Errors
/// The writer's, naming the file.
pub(crate) fn write_output(dest: &Path, bytes: &[u8]) -> Result<(), OutputError> {
    output::write(dest, Policy::Overwrite, &[], bytes)
}

#[cfg(test)]
mod tests {
    use super::write_output;

    /// The text of each `eprintln!(...)` and `eprint!(...)` call in
    /// `source`, from the macro's name to its closing parenthesis (string
    /// literals skipped while matching parentheses), in source order.
    fn eprintln_calls(source: &str) -> Vec<&str> {
        let mut calls = Vec::new();
        let mut starts: Vec<usize> = ["eprintln!(", "eprint!("]
            .iter()
            .flat_map(|m| source.match_indices(m).map(|(i, _)| i))
            .collect();
        starts.sort_unstable();
        for start in starts {
            let mut depth = 0usize;
            let mut in_string = false;
            let mut escaped = false;
            for (i, c) in source[start..].char_indices() {
                match (in_string, escaped, c) {
                    (true, true, _) => escaped = false,
                    (true, false, '\\') => escaped = true,
                    (true, false, '"') => in_string = false,
                    (true, false, _) => {}
                    (false, _, '"') => in_string = true,
                    (false, _, '(') => depth += 1,
                    (false, _, ')') => {
                        depth -= 1;
                        if depth == 0 {
                            calls.push(&source[start..=start + i]);
                            break;
                        }
                    }
                    _ => {}
                }
            }
        }
        calls
    }

    #[test]
    fn no_subcommand_ends_the_run_or_reports_an_error_itself() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/cli");
        let mut scanned = 0;
        let entries = std::fs::read_dir(&dir).unwrap(); // ok: unit test
        for entry in entries {
            let path = entry.unwrap().path(); // ok: unit test
            let file = path.file_name().unwrap().to_string_lossy(); // ok: unit test
            if !file.ends_with(".rs") || file == "mod.rs" {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap(); // ok: unit test
            scanned += 1;
            // a subcommand returns its verdict or its error, never a code
            for exit in [
                "ExitCode",
                "process::exit",
                "ExitStatus::Error",
                "ExitStatus::from",
            ] {
                assert!(
                    !text.contains(exit),
                    "cli/{file} uses {exit}: return Ok(ExitStatus::Success or Failure) or Err(CliError)"
                );
            }
            // what it prints on standard error is a verdict or progress;
            // an error goes up with `?` and main prints it (standard error
            // only through the macros scanned here, not a handle)
            assert!(
                !text.contains("stderr"),
                "cli/{file} writes to a standard error handle: use eprintln!, which this scan reads"
            );
            for call in eprintln_calls(&text) {
                for error in ["\"error", "\"warning", "{e}", "{e:", "{err", "{error"] {
                    assert!(
                        !call.contains(error),
                        "cli/{file} reports an error itself ({error} in {call}): return Err(CliError) instead"
                    );
                }
            }
        }
        assert!(scanned >= 4, "only {scanned} subcommand files in {dir:?}");
        // and main reports it, once
        let main = include_str!("../main.rs");
        let calls = eprintln_calls(main);
        assert_eq!(calls, ["eprintln!(\"error: {e}\")"], "main.rs");
        assert_eq!(main.matches("ExitStatus::Error").count(), 1, "main.rs");
    }

    #[test]
    fn the_scan_finds_each_call_whole() {
        let source = "eprintln!(\"a (\\\" {e})\", f(x));\n    eprintln!(\n        \"b\"\n    ); eprint!(\"c {e}\");";
        assert_eq!(
            eprintln_calls(source),
            [
                "eprintln!(\"a (\\\" {e})\", f(x))",
                "eprintln!(\n        \"b\"\n    )",
                "eprint!(\"c {e}\")"
            ]
        );
    }

    #[test]
    fn every_file_a_subcommand_writes_goes_through_the_atomic_writer() {
        for (file, text) in [
            ("differential.rs", include_str!("differential.rs")),
            ("generate.rs", include_str!("generate.rs")),
            ("matrix.rs", include_str!("matrix.rs")),
            ("run.rs", include_str!("run.rs")),
        ] {
            for direct in ["fs::write", "File::create", "OpenOptions"] {
                assert!(
                    !text.contains(direct),
                    "cli/{file} writes with {direct}: use write_output"
                );
            }
        }
    }

    #[test]
    fn an_output_replaces_the_file_it_names_and_leaves_nothing_beside_it() {
        let dir = tempfile::tempdir().unwrap(); // ok: unit test
        let p = dir.path().join("MATRIX.md");
        std::fs::write(&p, b"old").unwrap(); // ok: unit test
        write_output(&p, b"new").unwrap(); // ok: unit test
        assert_eq!(std::fs::read(&p).unwrap(), b"new"); // ok: unit test
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1); // ok: unit test
        let e = write_output(dir.path(), b"x").unwrap_err(); // ok: unit test
        assert!(e.to_string().contains("is a directory"), "{e}");
    }
}
