//! A strict, zero-copy parser, writer and validator for the IDX file format
//! (the format of MNIST and its cousins), as specified in `spec/idx.md`.
//!
//! Read with [`Reader`]: any `Read` source (a file, standard input, a
//! socket), gzip decompressed within [`Limits`] (a safe default), the header
//! checked before the payload goes into your memory.
//!
//! ```
//! // u8 [2, 2], from any `Read`; gzip would be decompressed the same way
//! let file = [0, 0, 0x08, 2, 0, 0, 0, 2, 0, 0, 0, 2, 1, 2, 3, 4];
//! let reader = idx::Reader::new(&file[..], &idx::ReadOptions::default())?;
//! assert_eq!(reader.header().dims(), &[2, 2]);
//! let mut pixels = [0u8; 4];
//! let warnings = reader.read_into(&mut pixels)?; // the byte-order test's, if any
//! assert_eq!((pixels, warnings.len()), ([1, 2, 3, 4], 0));
//! # Ok::<(), idx::ReadError>(())
//! ```
//!
//! Bytes already in memory parse without a copy, and validate into every
//! violation, located:
//!
//! ```
//! // 00 00 08 01: u8, rank 1; dimension 3; payload 0a 0b 0c
//! let bytes = [0x00, 0x00, 0x08, 0x01, 0, 0, 0, 3, 0x0a, 0x0b, 0x0c];
//! let view = idx::parse(&bytes)?;
//! assert_eq!(view.dims(), &[3]);
//! assert_eq!(view.array().get::<u8>(2), Some(0x0c));
//!
//! // validate() collects every violation, each located.
//! let report = idx::validate(&bytes[..10]);
//! assert_eq!(report.findings[0].rule.code(), "IDX202");
//! assert_eq!(report.findings[0].offset, 10);
//! # Ok::<(), idx::Error>(())
//! ```
//!
//! The library never panics on any input, never allocates by a size read
//! from the input before checking that the bytes exist, and never prints.
//!
//! # Testing your own IDX code
//!
//! With the feature `arbitrary`, [`Array`] implements
//! `arbitrary::Arbitrary`: any element type, rank 0 to 4, dimensions 0 to 8
//! (at most 4096 elements), any bit patterns (NaN payloads, subnormals,
//! -0.0). [`to_bytes`] gives the canonical encoding a writer must produce
//! byte for byte (spec §3), and [`validate`] the verdict a reader must
//! follow. A `quickcheck` property of your writer (quickcheck's random
//! bytes drive `arbitrary`):
//!
//! ```
//! use arbitrary::{Arbitrary, Unstructured};
//!
//! fn my_writer(a: &idx::Array) -> Vec<u8> {
//!     idx::to_bytes(a).unwrap() // the writer under test
//! }
//!
//! fn writes_the_canonical_bytes(seed: Vec<u8>) -> bool {
//!     match idx::Array::arbitrary(&mut Unstructured::new(&seed)) {
//!         Ok(a) => my_writer(&a) == idx::to_bytes(&a).unwrap(),
//!         Err(_) => true, // too few bytes for an array
//!     }
//! }
//! // a fixed seed, so that every run checks the same inputs
//! quickcheck::QuickCheck::new()
//!     .rng(quickcheck::Gen::from_size_and_seed(100, 42))
//!     .quickcheck(writes_the_canonical_bytes as fn(Vec<u8>) -> bool);
//! ```
//!
//! The same with `cargo fuzz` (`idx = { version = "…", features =
//! ["arbitrary"] }` in the fuzz crate; libFuzzer then shrinks a failure
//! with `cargo fuzz tmin`):
//!
//! ```ignore
//! #![no_main]
//! libfuzzer_sys::fuzz_target!(|a: idx::Array| {
//!     assert_eq!(my_crate::to_idx(&a), idx::to_bytes(&a).unwrap());
//! });
//! ```
#![forbid(unsafe_code)]
#![deny(missing_docs, clippy::print_stdout, clippy::print_stderr)]

mod array;
mod buffer;
mod carry;
pub mod dataset;
mod dtype;
mod edit;
mod finding;
mod fix;
mod gzip;
mod header;
mod input;
mod label_scan;
mod limits;
pub mod lint;
mod parse;
mod read;
mod reader;
mod rules;
mod score;
mod sniff;
mod suggest;
mod text;
mod validate;
mod violations;
mod write;

#[cfg(feature = "fuzzing")]
pub mod fuzzing;

pub use array::{Array, Data, IntoData, ShapeError};
pub use dtype::{Element, ElementType};
pub use edit::{Applicability, ByteOrder, Edit, Fix};
pub use finding::{Compression, Finding, Related, Report};
pub use fix::{plan, prepare, repair, AppliedFix, FixError, FixOptions, FixReport, Planned};
pub use header::{Header, MAX_HEADER_LEN};
pub use limits::{Limits, DEFAULT_MAX_DECOMPRESSED};
pub use parse::{decode, parse, ArrayView, Elements, Error, Items, View};
pub use read::{ReadAt, ReadError};
pub use reader::{At, Payload, ReadOptions, Reader, Validated};
pub use rules::{Rule, Severities, Severity};
pub use validate::{
    validate, validate_reader, validate_reader_len, validate_with, Options, Validator,
};
pub use write::{to_bytes, write, write_slice, WriteError};

/// Workspace plumbing: what the workspace's front ends and tests share
/// with the library below its API. Not part of the API; it changes in any
/// release. Each item says who uses it.
#[doc(hidden)]
pub mod __private {
    /// The dataset convention's names and a file's role in a dataset
    /// (spec §11; idx-validate, the conformance tests).
    pub use crate::dataset::naming::{dataset_name, role, DatasetName, Role, Split};
    /// The exact payload size of a type and dimensions, none when it
    /// overflows (idx-content's writer and JSON reader).
    pub use crate::header::payload_len;
    /// The one "read until full or the end" loop (idx-content, idx-convert).
    pub use crate::input::fill;
    /// A stream opened by the validator's one gzip sniff within a limit:
    /// the differential fuzzer's gzip seeds (idx-conformance).
    pub use crate::input::{open, Stream};
    /// The label scan pushed piece by piece (idxkit's dataset check).
    pub use crate::label_scan::LabelScanner;
    /// What an MNIST-style name claims of the header (spec 6.3;
    /// idx-validate's fixes name the rename).
    pub use crate::lint::name::{name_claim, NameClaim};
    /// A header read alone (idx's benchmark examples and tests).
    pub use crate::read::read_header;
    /// The least payload worth a thread of its own (idxkit's parallel load).
    pub use crate::read::MIN_BYTES_PER_THREAD;
    /// Validation's structure-only mode (idx-validate `--structure-only`).
    pub use crate::validate::validate_structure;
    /// The cap on trailing bytes counted (the endless-input tests).
    pub use crate::validate::TRAILING_COUNT_LIMIT;
    /// A header's bytes alone (idx-content's writer, idxkit's conformance).
    pub use crate::write::encode_header;
    /// A payload written as given, unchecked (the size and convert tests).
    pub use crate::write::write_raw;
}
