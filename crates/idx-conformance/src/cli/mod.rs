//! The subcommands of the `idx-conformance` binary (not part of the
//! library): one file per subcommand, and the writer of their outputs.

pub(crate) mod differential;
pub(crate) mod generate;
pub(crate) mod matrix;
pub(crate) mod run;

use idx_io::output::{self, OutputError, Policy};
use std::path::Path;

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
