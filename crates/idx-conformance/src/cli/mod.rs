//! The subcommands of the `idx-conformance` binary (not part of the
//! library): one file per subcommand.

pub(crate) mod differential;
pub(crate) mod generate;
pub(crate) mod matrix;
pub(crate) mod run;
