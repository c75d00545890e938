//! `idx write`: content JSON on standard input to IDX on standard output
//! (the runner's reference writer), streamed by [`idx_content::write`].

use super::fail;
use idx_io::ExitStatus;

/// Writes the IDX bytes of the content JSON on standard input to standard
/// output, or nothing: an error goes to standard error only (so
/// `idx write < bad.json > out.idx` leaves no JSON in `out.idx`), and,
/// with `error_document` (the conformance runner's writer protocol), also
/// as an error document on standard output.
pub(super) fn write(error_document: bool) -> ExitStatus {
    // the output is complete or absent: the writer spools, then copies
    let mut out = std::io::stdout().lock();
    match idx_content::write::write(std::io::stdin().lock(), &mut out) {
        Ok(()) => ExitStatus::SUCCESS,
        Err(idx_content::write::Error::Io(e)) => fail(e, 2),
        Err(idx_content::write::Error::Content(m)) => {
            drop(out);
            let msg = format!("bad content JSON: {m}");
            if error_document {
                println!(
                    "{}",
                    idx_content::protocol::error_document(None, None, &msg)
                );
            }
            fail(msg, 1)
        }
    }
}
