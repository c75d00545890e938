//! The I/O conventions every front end of the IDX toolkit shares (the
//! `idx-validate` and `idx` commands, `idx convert`, the Python module), in
//! one place, as ripgrep's `grep-cli` does for its tools:
//!
//! - [`escape`]: the one way text that can hold a file name or file content
//!   reaches a terminal (control characters, bidirectional overrides and
//!   invalid UTF-8 shown escaped, never interpreted), and the escapes of
//!   GitHub's workflow commands;
//! - [`Input`]: an input named by a path, `-` being standard input (spooled
//!   to an anonymous temporary file, so it can be read twice in bounded
//!   memory), with its file identity; its bytes are read as stored, and
//!   read as IDX (gzip recognised, the limit applied) by [`idx::Reader`]
//!   alone;
//! - [`output`]: the one atomic writer. A temporary file in the
//!   destination's directory, permissions from the umask for a new file
//!   (or those of the file it replaces), fsync of the file and of the
//!   directory, rename. It refuses a destination that is one of the run's
//!   inputs (same device and inode: through symlinks and hard links) unless
//!   the command is a repair, and an existing destination unless the
//!   command's overwrite flag was given.
//!
//! The `idx` library itself never opens a file by name; this crate does,
//! and nothing else in the workspace does it on its own.

pub mod escape;
mod input;
pub mod output;
pub mod size;
mod status;

pub use input::{is_dash, Identity, Input};
pub use output::{AtomicFile, OutputError, Policy};
pub use status::ExitStatus;
