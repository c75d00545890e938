//! What the reference (the `idx` library, in process) says about an
//! input, and what an implementation did with it, as far as the classes
//! care.

use super::MAX_DECOMPRESSED;
use crate::content::Content;
use crate::runner::{self, Answer};
use idx::{Rule, Severity};
use std::io::Read;

/// What the reference (the `idx` library) found in an input.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Reference {
    /// Valid IDX, no warning: readers MUST accept it with this content.
    Valid,
    /// Valid, with portability warnings (their codes): implementation-defined.
    Warned(Vec<&'static str>),
    /// Valid IDX inside gzip: readers MAY decompress it.
    Gzip,
    /// Invalid; the code of the first error.
    Invalid(&'static str),
}

impl Reference {
    /// Whether disagreeing with it is a conformance failure (not
    /// implementation-defined).
    pub fn is_normative(&self) -> bool {
        matches!(self, Reference::Valid | Reference::Invalid(_))
    }
    /// Human text.
    pub fn text(&self) -> String {
        match self {
            Reference::Valid => "valid".into(),
            Reference::Warned(w) => format!("valid, warns {}", w.join(" ")),
            Reference::Gzip => "valid inside gzip".into(),
            Reference::Invalid(c) => {
                let name = Rule::find(c).map_or("", |r| r.name());
                format!("invalid: {c} {name}")
            }
        }
    }
}

/// The reference's judgement and, when valid, the content.
pub fn reference(bytes: &[u8]) -> (Reference, Option<Content>) {
    let opts = idx::Options::default()
        .with_decompress(true)
        .with_max_decompressed(Some(MAX_DECOMPRESSED));
    let report = idx::validate_with(bytes, &opts);
    if let Some(f) = report
        .findings
        .iter()
        .find(|f| f.severity() == Severity::Error && f.rule != idx::Rule::LikelyLittleEndian)
    {
        return (Reference::Invalid(f.rule.code()), None);
    }
    let gz = report.compression.is_some();
    let plain = if gz {
        gunzip(bytes)
    } else {
        Some(bytes.to_vec())
    };
    let content = plain
        .as_deref()
        .and_then(|p| idx::parse(p).ok())
        .map(|v| Content::of(&v.array()));
    if gz {
        return (Reference::Gzip, content);
    }
    let mut warned: Vec<&'static str> = report
        .findings
        .iter()
        // a readable file whose payload is (certainly) little-endian is
        // warned about: readers decode it as it is
        .filter(|f| f.severity() == Severity::Warning || f.rule == idx::Rule::LikelyLittleEndian)
        .map(|f| f.rule.code())
        .collect();
    warned.sort_unstable();
    warned.dedup();
    if warned.is_empty() {
        (Reference::Valid, content)
    } else {
        (Reference::Warned(warned), content)
    }
}

/// What an implementation did, as far as the classes care.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Did {
    /// Accepted with the reference's content (agreement, unless the
    /// reference rejects).
    AcceptedSame,
    /// Accepted an input the reference rejects (or has no content for).
    Accepted,
    /// Accepted a valid input with every element byte-swapped.
    AcceptedLittleEndian,
    /// Accepted with other content.
    WrongContent,
    /// Rejected (an error document).
    Rejected,
    /// Crashed: not the protocol, a signal, the memory limit.
    Crash,
    /// No answer by the deadline.
    Timeout,
}

impl Did {
    /// The word in reports.
    pub fn as_str(self) -> &'static str {
        match self {
            Did::AcceptedSame => "accepted (same content)",
            Did::Accepted => "accepted",
            Did::AcceptedLittleEndian => "accepted, elements byte-swapped",
            Did::WrongContent => "accepted, other content",
            Did::Rejected => "rejected",
            Did::Crash => "crash",
            Did::Timeout => "timeout",
        }
    }

    /// Crash for timeout and timeout for crash: which of the two a reader
    /// that allocates what a header declares shows depends on the machine's
    /// speed and load (see [`new_classes`](super::new_classes)).
    pub fn twin(self) -> Option<Did> {
        match self {
            Did::Crash => Some(Did::Timeout),
            Did::Timeout => Some(Did::Crash),
            _ => None,
        }
    }
}

/// Classifies an implementation's answer against the reference's. `None`
/// when they agree.
pub fn did(
    reference: &Reference,
    expected: Option<&Content>,
    answer: &Answer,
) -> Option<(Did, String)> {
    let d = match answer {
        Answer::Accepted(c) => match (reference, expected) {
            (Reference::Invalid(_), _) => (Did::Accepted, runner::describe(c)),
            (_, Some(e)) => match runner::compare(e, c) {
                Ok(()) => (Did::AcceptedSame, String::new()),
                Err(m) if m.byte_swapped => (Did::AcceptedLittleEndian, m.detail),
                Err(m) => (Did::WrongContent, m.detail),
            },
            (_, None) => (Did::Accepted, runner::describe(c)),
        },
        Answer::Rejected(m) => (Did::Rejected, m.clone()),
        Answer::Crash(why) => (Did::Crash, why.clone()),
        Answer::Timeout => (
            Did::Timeout,
            format!(
                "no answer by the deadline, nor by {} times the deadline when run again",
                runner::RETRY_FACTOR
            ),
        ),
        Answer::Wrote(_) => (Did::Crash, "a reader wrote bytes".into()),
    };
    let agrees = match reference {
        Reference::Invalid(_) => d.0 == Did::Rejected,
        _ => d.0 == Did::AcceptedSame,
    };
    (!agrees).then_some(d)
}

pub(super) fn gunzip(b: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    // the library's own opener and decoder, as every front end reads gzip
    // (its first MAX_DECOMPRESSED bytes: a bomb is mutated as its prefix;
    // a damaged stream is not decoded)
    let limits = idx::Limits::default().with_max_decompressed(Some(MAX_DECOMPRESSED));
    let mut s = idx::__private::open(b, true, limits).ok()?;
    s.by_ref()
        .take(MAX_DECOMPRESSED)
        .read_to_end(&mut out)
        .ok()?;
    s.damage().is_none().then_some(out)
}
