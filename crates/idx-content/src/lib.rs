//! The content encoding of the IDX toolkit: the language-neutral JSON form
//! of an array (`{"dtype": "f32", "shape": [2, 3], "data": [...]}`, floats
//! as their exact bit patterns), in one place.
//!
//! - [`Content`] and [`Values`]: an array's logical content in memory, to
//!   and from JSON (the corpus manifests, the conformance runner);
//! - [`dump`](mod@dump): the encoding of a payload streamed element by element
//!   (`idx dump`, the runner's reference reader);
//! - [`write`](mod@write): the JSON parsed element by element into IDX bytes (`idx
//!   write`, the runner's reference writer);
//! - [`protocol`]: the conformance protocol's error document.
//!
//! A leaf: it depends on the `idx` library only, so the `idx` command and
//! the Python package use it without linking the conformance runner.

pub mod dump;
mod json;
pub mod protocol;
pub mod write;

pub use json::{hex, Content, Values, INLINE_MAX};
