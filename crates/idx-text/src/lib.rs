//! Text shared by the IDX toolkit's library and front ends: the words of
//! its messages ([`plural`]) and the bitmap font of its pictures
//! ([`font`]). No dependencies, no I/O.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod font;
pub mod plural;
