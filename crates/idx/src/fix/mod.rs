//! Repairs: the streaming repair of an input by the fixes attached to its
//! findings (the fixes as data are `edit.rs`; which finding gets which fix,
//! `suggest.rs`).
//!
//! Validation attaches a [`Fix`] to every finding the spec says can be
//! repaired (`spec/idx.md`, "Fixes"): an [`Applicability`], a description
//! and the [`Edit`]s, in stream offsets. [`repair`] applies them: it plans
//! on the input's report (from its header and length alone, unless IDX501's
//! guess is taken or a header is rewritten, which need the payload read),
//! selects the fixes the [`FixOptions`] allow, and streams the input through
//! the edits into the output, validating the output as it goes, so the
//! [`FixReport`] says what was fixed and what remains. Memory is bounded by a
//! fixed buffer whatever the length of the input. Between passes it checks
//! that the input's length and first 1024 bytes (and, when it was read whole
//! more than once, all of it) did not change; callers that own files should
//! also compare the file's size and modification time before replacing it.
//!
//! ```
//! // the IDX technical report's writer: dimensions big-endian, elements native
//! let mut bytes = vec![0x00, 0x00, 0x0b, 0x01, 0, 0, 0, 64];
//! for v in 0..64i16 { bytes.extend_from_slice(&(v * 100).to_le_bytes()); }
//! let opts = idx::FixOptions::default().with_assume_byte_order(Some(idx::ByteOrder::Little));
//! let mut out = Vec::new();
//! let report = idx::repair(std::io::Cursor::new(&bytes), &mut out, &opts)?;
//! assert!(report.changed());
//! assert!(report.after.findings.is_empty());
//! assert_eq!(idx::parse(&out)?.array().get::<i16>(3), Some(300));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod options;
mod plan;
mod repair;
mod report;
mod select;
mod stream;

pub use options::FixOptions;
pub use plan::{plan, prepare, Planned};
pub use repair::repair;
pub use report::{AppliedFix, FixError, FixReport};
