//! What an adapter printed, read as an [`Answer`]: a one-shot process's
//! exit status and output, or a persistent adapter's answer line.

use super::{Answer, Mode};
use crate::content::Content;
use crate::process::{self, cut, Ending, HeadTail};
use idx_content::protocol::error_message;
use serde_json::Value;

pub(super) fn ending_text(e: &Ending) -> String {
    match e {
        Ending::Code(c) => format!("exited with status {c}"),
        Ending::Signal(s) => format!("was killed by {s}"),
        Ending::Timeout => "stopped answering".into(),
        Ending::SpawnError(e) => format!("could not run: {e}"),
    }
}

/// Words in standard error that mean an allocation failed.
const MEMORY_WORDS: [&str; 8] = [
    "MemoryError",
    "bad_alloc",
    "memory allocation of",
    "Cannot allocate memory",
    "out of memory",
    "allocation failed",
    "failed to allocate",
    "capacity overflow",
];

/// `; stderr: ...` and, when an allocation failed under the limit, says so.
pub(super) fn stderr_note(err: &HeadTail, memory_mib: Option<u64>) -> String {
    let mut s = String::new();
    if !err.is_empty() {
        s.push_str("; stderr: ");
        s.push_str(&err.summary());
    }
    let text = err.text();
    if let Some(w) = MEMORY_WORDS.iter().find(|w| text.contains(*w)) {
        match memory_mib {
            Some(m) => s.push_str(&format!(
                "; an allocation failed ({w}): the memory limit ({m} MiB of address space) was the cause"
            )),
            None => s.push_str(&format!("; an allocation failed ({w})")),
        }
    }
    s
}

pub(super) fn quote(b: &[u8]) -> String {
    if b.is_empty() {
        return "nothing".into();
    }
    format!("{:?}", cut(&String::from_utf8_lossy(b), 80))
}

pub(super) fn one_shot_answer(f: &process::Finished, mode: Mode, mem: Option<u64>) -> Answer {
    let note = || stderr_note(&f.stderr, mem);
    match &f.ending {
        Ending::Timeout => Answer::Timeout,
        Ending::SpawnError(e) => Answer::Crash(format!("could not run: {e}")),
        Ending::Signal(s) => Answer::Crash(format!("killed by {s}{}", note())),
        Ending::Code(0) => match mode {
            Mode::Writer => Answer::Wrote(f.stdout.clone()),
            Mode::Reader => match parse_content(&f.stdout) {
                Ok(c) => Answer::Accepted(c),
                Err(e) => Answer::Crash(format!(
                    "exit 0, but the output is not the content encoding ({e}): {}{}",
                    quote(&f.stdout),
                    note()
                )),
            },
        },
        Ending::Code(1) => {
            let doc = serde_json::from_slice::<Value>(&f.stdout)
                .ok()
                .map_or(Ok(None), |v| rejection(&v));
            match doc {
                Ok(Some(m)) => Answer::Rejected(m),
                Ok(None) => Answer::Crash(format!(
                    "exit 1 without an error document on stdout (got {}){}",
                    quote(&f.stdout),
                    note()
                )),
                Err(why) => Answer::Crash(format!("exit 1, but {why}{}", note())),
            }
        }
        Ending::Code(c) => Answer::Crash(format!("exit status {c}{}", note())),
    }
}

fn parse_content(out: &[u8]) -> Result<Content, String> {
    let v: Value = serde_json::from_slice(out).map_err(|e| format!("not JSON: {e}"))?;
    if !matches!(rejection(&v), Ok(None)) {
        return Err("an error document with exit status 0".into());
    }
    Content::from_json(&v)
}

/// A persistent adapter's answer line (`v`, parsed from `line`), its
/// request ID taken out.
pub(super) fn persistent_answer(v: &Value, line: &[u8], mode: Mode) -> Result<Answer, String> {
    if let Some(m) = rejection(v)? {
        return Ok(Answer::Rejected(m));
    }
    match mode {
        Mode::Reader => Content::from_json(v).map(Answer::Accepted).map_err(|e| {
            format!(
                "the answer is not the content encoding ({e}): {}",
                quote(line)
            )
        }),
        Mode::Writer => {
            let h = v
                .get("idx")
                .and_then(Value::as_str)
                .ok_or_else(|| format!("the answer has no \"idx\" hex string: {}", quote(line)))?;
            unhex(h)
                .map(Answer::Wrote)
                .ok_or_else(|| format!("\"idx\" is not hex: {}", quote(line)))
        }
    }
}

/// The message of an error document; `Ok(None)` when `v` is not one, and
/// `Err` when it is an object whose only key is `error` without a message
/// (`{"error": {}}`): the protocol requires one, and a reader that cannot
/// say why it refuses has not answered.
pub(super) fn rejection(v: &Value) -> Result<Option<String>, String> {
    if let Some(m) = error_message(v) {
        return Ok(Some(m));
    }
    match v
        .as_object()
        .filter(|o| o.len() == 1)
        .and_then(|o| o.get("error"))
    {
        Some(e) => Err(format!(
            "an error document needs a \"message\" string (or a string as \"error\"): {}",
            cut(&e.to_string(), 80)
        )),
        None => Ok(None),
    }
}

fn unhex(s: &str) -> Option<Vec<u8>> {
    if s.len() % 2 != 0 {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| s.get(i..i + 2).and_then(|h| u8::from_str_radix(h, 16).ok()))
        .collect()
}
