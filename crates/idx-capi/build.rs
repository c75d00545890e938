//! Gives the shared library its SONAME on Linux, `libidxc.so.ABI`: a
//! program linked with it records that name (its `NEEDED` entry) and
//! loads any libidxc of the same ABI, so that `scripts/install-capi.sh`
//! installs `libidxc.so.VERSION` with the links `libidxc.so.ABI` (what
//! programs load) and `libidxc.so` (what `-lidxc` finds).
#![forbid(unsafe_code)]

/// The ABI's version: raised whenever a change breaks programs built
/// against an older header (a function's parameters, a struct's fields or
/// an enum's values changed or removed), whatever the crate's version.
const ABI: u32 = 1;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libidxc.so.{ABI}");
    }
}
