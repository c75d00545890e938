//! `idx write`: content JSON on standard input to IDX on standard output
//! (the runner's reference writer), streamed by [`idx_content::write`].

use super::fail;
use idx_io::ExitStatus;

pub(super) fn write() -> ExitStatus {
    // the output is complete or absent: the writer spools, then copies
    let mut out = std::io::stdout().lock();
    match idx_content::write::write(std::io::stdin().lock(), &mut out) {
        Ok(()) => ExitStatus::SUCCESS,
        Err(idx_content::write::Error::Io(e)) => fail(e, 2),
        Err(idx_content::write::Error::Content(m)) => {
            drop(out);
            refuse(format!("bad content JSON: {m}"))
        }
    }
}

/// A writer's refusal under the conformance protocol (version 2): an error
/// document on stdout and exit status 1 (the message also on stderr).
fn refuse(msg: String) -> ExitStatus {
    println!(
        "{}",
        idx_content::protocol::error_document(None, None, &msg)
    );
    fail(msg, 1)
}
