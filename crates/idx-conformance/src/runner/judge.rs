//! The verdict on an answer: what a reader or writer did with a case,
//! against the case's verdict.

use super::{compare, describe, Answer, Status, RETRY_FACTOR};
use crate::cases::{Case, Verdict};
use crate::process::cut;
use std::time::Duration;

/// The detail of a timeout: a [`Session`](super::Session) gives a timed-out input a second
/// try with [`RETRY_FACTOR`] times the deadline.
pub fn no_answer(timeout: Duration) -> String {
    super::session::no_answer_in(timeout, timeout * RETRY_FACTOR)
}

/// The verdict on a reader's answer.
pub fn judge_reader(case: &Case, answer: &Answer, timeout: Duration) -> (Status, String) {
    let imp = case.verdict == Verdict::ImplementationDefined;
    match answer {
        Answer::Timeout => (Status::Timeout, no_answer(timeout)),
        Answer::Crash(why) => (Status::Crash, why.clone()),
        Answer::Wrote(_) => (Status::Crash, "a reader answered like a writer".into()),
        Answer::Rejected(m) => {
            let m = format!("rejected: {}", cut(m, 200));
            match case.verdict {
                Verdict::Invalid => (Status::Pass, m),
                Verdict::Valid => (Status::RejectedValid, m),
                Verdict::ImplementationDefined => (Status::Rejected, m),
            }
        }
        Answer::Accepted(got) => {
            if case.verdict == Verdict::Invalid {
                return (
                    Status::AcceptedInvalid,
                    format!("returned {}", describe(got)),
                );
            }
            let Some(expected) = &case.content else {
                return (Status::Crash, "case has no content".into());
            };
            match compare(expected, got) {
                Ok(()) if imp => (Status::Accepted, "the content as the spec reads it".into()),
                Ok(()) => (Status::Pass, "the content as the spec reads it".into()),
                Err(m) if imp && m.byte_swapped => (
                    Status::AcceptedLittleEndian,
                    "matched the little-endian reading (every element byte-swapped from the spec's big-endian reading)".into(),
                ),
                Err(m) => (Status::WrongContent, m.detail),
            }
        }
    }
}

/// The verdict on a writer's answer.
pub fn judge_writer(case: &Case, answer: &Answer, timeout: Duration) -> (Status, String) {
    let imp = case.verdict == Verdict::ImplementationDefined;
    match answer {
        Answer::Timeout => (Status::Timeout, no_answer(timeout)),
        Answer::Crash(why) => (Status::Crash, why.clone()),
        Answer::Accepted(_) => (Status::Crash, "a writer answered like a reader".into()),
        Answer::Rejected(m) => {
            let m = format!("refused: {}", cut(m, 200));
            (
                if imp {
                    Status::Rejected
                } else {
                    Status::RejectedValid
                },
                m,
            )
        }
        Answer::Wrote(out) if *out == case.bytes => (
            if imp { Status::Accepted } else { Status::Pass },
            format!("the golden {} bytes", out.len()),
        ),
        Answer::Wrote(out) => (
            Status::WrongBytes,
            byte_swapped(out, case).unwrap_or_else(|| bytes_difference(out, &case.bytes, case)),
        ),
    }
}

/// When `out` is the file the writer was asked for with every payload
/// element's bytes in reverse order (the header right): the detail, which
/// names the byte order. The runner knows the values it asked for, so this
/// is a comparison of bytes, not a guess from their statistics.
fn byte_swapped(out: &[u8], case: &Case) -> Option<String> {
    let c = case.content.as_ref()?;
    let size = c.dtype.size();
    let payload = c.payload();
    let header = case.bytes.len().checked_sub(payload.len())?;
    if size < 2 || out.len() != case.bytes.len() || out[..header] != case.bytes[..header] {
        return None;
    }
    let got = out[header..].chunks(size);
    let asked = case.bytes[header..].chunks(size);
    let mut first = None;
    for (i, (g, a)) in got.zip(asked).enumerate() {
        if !g.iter().eq(a.iter().rev()) {
            return None;
        }
        if first.is_none() && g != a {
            first = Some((i, g, a));
        }
    }
    let (i, g, a) = first?;
    let hex = |b: &[u8]| b.iter().map(|x| format!("{x:02x}")).collect::<String>();
    Some(format!(
        "wrote the payload little-endian: every element's bytes are in reverse order \
         (element {i} is 0x{} instead of 0x{}, the value asked for written big-endian, \
         as the format requires)",
        hex(g),
        hex(a)
    ))
}

fn bytes_difference(out: &[u8], golden: &[u8], case: &Case) -> String {
    let at = out
        .iter()
        .zip(golden)
        .position(|(a, b)| a != b)
        .unwrap_or(out.len().min(golden.len()));
    let byte = |b: &[u8]| {
        b.get(at)
            .map_or("end of output".into(), |x| format!("0x{x:02x}"))
    };
    let header = golden.len() - case.content.as_ref().map_or(0, |c| c.payload().len());
    let place = if at < header {
        "in the header".to_string()
    } else {
        let size = case.content.as_ref().map_or(1, |c| c.dtype.size());
        format!("in payload element {}", (at - header) / size)
    };
    format!(
        "byte {at} ({place}) is {} instead of {}; {} written, {} expected",
        byte(out),
        byte(golden),
        idx_text::plural::count(out.len() as u64, "byte"),
        golden.len()
    )
}
