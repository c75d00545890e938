// The tests call the C functions as C does: through raw pointers (the
// manifest's reason), each block with its SAFETY argument.
#![allow(unsafe_code)]

mod abi;
mod header;
