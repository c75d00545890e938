//! Minimising a class's reproducer by delta debugging on bytes.

use super::scratch::Scratch;
use super::{did, reference, ClassKey};
use crate::runner::Session;

/// Delta debugging (ddmin, Zeller and Hildebrandt) on bytes: a smallest
/// input found within `max_runs` runs that still falls in `key`.
pub(super) fn minimise(
    bytes: &[u8],
    key: &ClassKey,
    session: &mut Session,
    scratch: &Scratch,
    max_runs: usize,
) -> (Vec<u8>, String) {
    let mut runs = 0;
    let mut test = |candidate: &[u8], runs: &mut usize| -> Option<String> {
        *runs += 1;
        let (r, content) = reference(candidate);
        if r != key.reference {
            return None;
        }
        let path = scratch.write(candidate).ok()?;
        let a = session.read(&path);
        match did(&r, content.as_ref(), &a.answer) {
            Some((d, detail)) if d == key.did => Some(detail),
            _ => None,
        }
    };
    let mut best = bytes.to_vec();
    let mut detail = match test(&best, &mut runs) {
        Some(d) => d,
        // not reproducible (flaky implementation): keep the input as is
        None => return (best, "not reproduced when run again".into()),
    };
    // Chunks of halving size; each sweep removes every chunk it can, in
    // place, before the chunk shrinks (restarting from the front after each
    // removal, as plain ddmin does, spends the run budget on the header).
    let mut chunk = best.len().div_ceil(2).max(1);
    while best.len() >= 2 && runs < max_runs {
        let mut reduced = false;
        let mut a = 0;
        while a < best.len() && runs < max_runs {
            let b = (a + chunk).min(best.len());
            let mut c = best[..a].to_vec();
            c.extend_from_slice(&best[b..]);
            if let Some(d) = test(&c, &mut runs) {
                // the next chunk has moved to `a`
                best = c;
                detail = d;
                reduced = true;
            } else {
                a = b;
            }
        }
        if !reduced {
            if chunk == 1 {
                break;
            }
            chunk = chunk.div_ceil(2);
        }
    }
    (best, detail)
}
