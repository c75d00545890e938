//! Running third-party readers and writers against the corpus.
//!
//! The protocol is written down in `corpus/README.md`.

use crate::cases::{Case, Verdict};
use crate::content::{hex, Content};
use globset::{Glob, GlobSet, GlobSetBuilder};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;
use wait_timeout::ChildExt;

/// Reader or writer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// `CMD ... FILE` prints the content or exits 1.
    Reader,
    /// `CMD ...` reads the content on stdin and writes IDX to stdout.
    Writer,
}

impl Mode {
    /// `reader` or `writer`.
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Reader => "reader",
            Mode::Writer => "writer",
        }
    }
}

/// The outcome of one case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Status {
    /// Did what the verdict requires.
    Pass,
    /// Accepted an invalid file.
    AcceptedInvalid,
    /// Rejected a valid file (or refused to write valid content).
    RejectedValid,
    /// Accepted, but the content differs from the manifest.
    WrongContent,
    /// The written bytes differ from the golden file.
    WrongBytes,
    /// Exit status other than 0 or 1, a signal, unparsable output, or the
    /// memory limit.
    Crash,
    /// Exceeded the per-case time limit.
    Timeout,
    /// Implementation-defined case accepted with the spec's content.
    Accepted,
    /// Implementation-defined case rejected.
    Rejected,
}

impl Status {
    /// The status word.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Pass => "pass",
            Status::AcceptedInvalid => "accepted-invalid",
            Status::RejectedValid => "rejected-valid",
            Status::WrongContent => "wrong-content",
            Status::WrongBytes => "wrong-bytes",
            Status::Crash => "crash",
            Status::Timeout => "timeout",
            Status::Accepted => "accepted",
            Status::Rejected => "rejected",
        }
    }
}

/// One case's result.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// Case ID.
    pub id: String,
    /// The case's verdict.
    pub verdict: Verdict,
    /// What happened.
    pub status: Status,
    /// A short explanation.
    pub detail: String,
    /// Whether it counts as a failure (not implementation-defined, not pass).
    pub failed: bool,
    /// Whether the expected-failures file lists it.
    pub expected_failure: bool,
}

/// How to run.
#[derive(Debug, Clone)]
pub struct Config {
    /// Corpus root (holding `valid/`, `invalid/`, ...).
    pub corpus: PathBuf,
    /// The command and its arguments.
    pub command: Vec<String>,
    /// Per-case time limit.
    pub timeout: Duration,
    /// Address-space limit for the child, in MiB (`ulimit -v`).
    pub memory_mib: Option<u64>,
    /// Only cases whose ID matches one of these globs (all when empty).
    pub run: Vec<String>,
    /// Skip cases whose ID matches one of these globs.
    pub skip: Vec<String>,
    /// Globs of IDs expected to fail.
    pub expected_failures: Vec<String>,
}

fn globset(globs: &[String]) -> Result<GlobSet, String> {
    let mut b = GlobSetBuilder::new();
    for g in globs {
        b.add(Glob::new(g).map_err(|e| format!("bad glob {g:?}: {e}"))?);
    }
    b.build().map_err(|e| e.to_string())
}

/// Reads an expected-failures file: one glob per line, `#` comments.
///
/// # Errors
/// I/O errors.
pub fn read_expected_failures(path: &Path) -> std::io::Result<Vec<String>> {
    let text = std::fs::read_to_string(path)?;
    Ok(text
        .lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect())
}

/// Whether a case applies to a mode: cases that need validator options are
/// about validators; writers get cases with content that are not gzip.
pub fn applies(case: &Case, mode: Mode) -> bool {
    if !case.options.is_empty() {
        return false;
    }
    match mode {
        Mode::Reader => true,
        Mode::Writer => case.content.is_some() && case.compression().is_none(),
    }
}

/// Runs every applicable case.
///
/// # Errors
/// Bad globs or an empty command.
pub fn run(cases: &[Case], mode: Mode, cfg: &Config) -> Result<Vec<Outcome>, String> {
    if cfg.command.is_empty() {
        return Err("no command given (use -- CMD [ARGS...])".into());
    }
    run_with(cases, mode, cfg, |case| match mode {
        Mode::Reader => run_reader(case, cfg),
        Mode::Writer => run_writer(case, cfg),
    })
}

/// Runs every applicable case selected by `cfg` (`run`, `skip`,
/// `expected_failures`; the command and limits are not used) through
/// `attempt`, which runs the implementation on one case and judges it with
/// [`judge_reader`] or [`judge_writer`]. The Python package uses it to test
/// readers and writers in-process.
///
/// # Errors
/// Bad globs.
pub fn run_with(
    cases: &[Case],
    mode: Mode,
    cfg: &Config,
    mut attempt: impl FnMut(&Case) -> (Status, String),
) -> Result<Vec<Outcome>, String> {
    let run = globset(&cfg.run)?;
    let skip = globset(&cfg.skip)?;
    let xfail = globset(&cfg.expected_failures)?;
    let mut out = Vec::new();
    for case in cases {
        if !applies(case, mode)
            || (!cfg.run.is_empty() && !run.is_match(&case.id))
            || skip.is_match(&case.id)
        {
            continue;
        }
        let (status, detail) = attempt(case);
        let failed = case.verdict != Verdict::ImplementationDefined && status != Status::Pass;
        out.push(Outcome {
            id: case.id.clone(),
            verdict: case.verdict,
            status,
            detail,
            failed,
            expected_failure: xfail.is_match(&case.id),
        });
    }
    Ok(out)
}

/// What a reader did with one case, however it was run.
#[derive(Debug, Clone)]
pub enum ReaderAnswer {
    /// It accepted the file and gave this content (or output that is not a
    /// content, with why).
    Accepted(Result<Content, String>),
    /// It rejected the file, with its reason.
    Rejected(String),
}

/// What a writer did with one case's content, however it was run.
#[derive(Debug, Clone)]
pub enum WriterAnswer {
    /// It wrote these bytes.
    Wrote(Vec<u8>),
    /// It refused, with its reason.
    Refused(String),
}

/// The status of a reader's answer on a case (`pass`, `accepted-invalid`,
/// `rejected-valid`, `wrong-content`, `accepted`, `rejected`).
pub fn judge_reader(case: &Case, answer: ReaderAnswer) -> (Status, String) {
    match answer {
        ReaderAnswer::Rejected(why) => match case.verdict {
            Verdict::Invalid => (Status::Pass, format!("rejected: {why}")),
            Verdict::Valid => (Status::RejectedValid, why),
            Verdict::ImplementationDefined => (Status::Rejected, why),
        },
        ReaderAnswer::Accepted(got) => {
            if case.verdict == Verdict::Invalid {
                return (Status::AcceptedInvalid, "accepted".into());
            }
            let Some(expected) = &case.content else {
                return (Status::Crash, "case has no content".into());
            };
            match got.and_then(|got| same_content(expected, &got)) {
                Ok(()) if case.verdict == Verdict::ImplementationDefined => {
                    (Status::Accepted, "content as the spec reads it".into())
                }
                Ok(()) => (Status::Pass, String::new()),
                Err(e) => (Status::WrongContent, e),
            }
        }
    }
}

/// The status of a writer's answer on a case (`pass`, `wrong-bytes`,
/// `rejected-valid`, `accepted`, `rejected`).
pub fn judge_writer(case: &Case, answer: WriterAnswer) -> (Status, String) {
    match answer {
        WriterAnswer::Wrote(out) => {
            if out == case.bytes {
                let s = if case.verdict == Verdict::ImplementationDefined {
                    Status::Accepted
                } else {
                    Status::Pass
                };
                (s, String::new())
            } else {
                let at = out
                    .iter()
                    .zip(&case.bytes)
                    .position(|(a, b)| a != b)
                    .unwrap_or(out.len().min(case.bytes.len()));
                (
                    Status::WrongBytes,
                    format!(
                        "{} written, {} expected; first difference at byte {at}",
                        idx::plural::count(out.len() as u64, "byte"),
                        case.bytes.len()
                    ),
                )
            }
        }
        WriterAnswer::Refused(why) => {
            let s = if case.verdict == Verdict::ImplementationDefined {
                Status::Rejected
            } else {
                Status::RejectedValid
            };
            (s, why)
        }
    }
}

enum Exit {
    Code(i32, Vec<u8>, Vec<u8>),
    Signal(Vec<u8>),
    Timeout,
    SpawnError(String),
}

fn execute(cfg: &Config, extra: Option<&Path>, stdin: Option<Vec<u8>>) -> Exit {
    let mut args: Vec<String> = cfg.command.clone();
    if let Some(p) = extra {
        args.push(p.display().to_string());
    }
    let mut cmd = match cfg.memory_mib {
        Some(mib) => {
            let mut c = Command::new("sh");
            c.arg("-c")
                .arg(format!("ulimit -v {} && exec \"$@\"", mib * 1024))
                .arg("sh")
                .args(&args);
            c
        }
        None => {
            let mut c = Command::new(&args[0]);
            c.args(&args[1..]);
            c
        }
    };
    // Its own process group, so a timeout kills its children too.
    std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
    cmd.stdin(if stdin.is_some() {
        Stdio::piped()
    } else {
        Stdio::null()
    })
    .stdout(Stdio::piped())
    .stderr(Stdio::piped());
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => return Exit::SpawnError(e.to_string()),
    };
    let feeder = stdin.and_then(|data| {
        child.stdin.take().map(|mut s| {
            std::thread::spawn(move || {
                let _ = s.write_all(&data);
            })
        })
    });
    let collect = |r: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            if let Some(r) = r {
                // at most 256 MiB of output is kept
                let _ = r.take(256 << 20).read_to_end(&mut buf);
            }
            buf
        })
    };
    let out = collect(
        child
            .stdout
            .take()
            .map(|s| Box::new(s) as Box<dyn Read + Send>),
    );
    let err = collect(
        child
            .stderr
            .take()
            .map(|s| Box::new(s) as Box<dyn Read + Send>),
    );
    let status = match child.wait_timeout(cfg.timeout) {
        Ok(Some(s)) => s,
        Ok(None) => {
            if let Ok(pid) = i32::try_from(child.id()) {
                if pid > 1 {
                    let pgid = nix::unistd::Pid::from_raw(pid);
                    let _ = nix::sys::signal::killpg(pgid, nix::sys::signal::Signal::SIGKILL);
                }
            }
            let _ = child.kill();
            let _ = child.wait();
            return Exit::Timeout;
        }
        Err(e) => return Exit::SpawnError(e.to_string()),
    };
    if let Some(f) = feeder {
        let _ = f.join();
    }
    let stdout = out.join().unwrap_or_default();
    let stderr = err.join().unwrap_or_default();
    match status.code() {
        Some(c) => Exit::Code(c, stdout, stderr),
        None => Exit::Signal(stderr),
    }
}

fn tail(bytes: &[u8]) -> String {
    let s = String::from_utf8_lossy(bytes);
    let s = s.trim();
    let last = s.lines().last().unwrap_or("");
    last.chars().take(160).collect()
}

fn case_path(case: &Case, cfg: &Config) -> PathBuf {
    cfg.corpus
        .join(case.verdict.as_str())
        .join(case.file_name())
}

fn run_reader(case: &Case, cfg: &Config) -> (Status, String) {
    let path = case_path(case, cfg);
    match execute(cfg, Some(&path), None) {
        Exit::Timeout => (Status::Timeout, format!("no answer in {:?}", cfg.timeout)),
        Exit::SpawnError(e) => (Status::Crash, format!("could not run: {e}")),
        Exit::Signal(err) => (Status::Crash, format!("killed by a signal: {}", tail(&err))),
        Exit::Code(1, out, err) => {
            let why = if out.is_empty() {
                tail(&err)
            } else {
                tail(&out)
            };
            judge_reader(case, ReaderAnswer::Rejected(why))
        }
        Exit::Code(0, out, _) => judge_reader(case, ReaderAnswer::Accepted(parse_output(&out))),
        Exit::Code(c, _, err) => (Status::Crash, format!("exit status {c}: {}", tail(&err))),
    }
}

/// A reader's output: the content encoding.
fn parse_output(out: &[u8]) -> Result<Content, String> {
    let v: Value = serde_json::from_slice(out).map_err(|e| format!("output is not JSON: {e}"))?;
    Content::from_json(&v)
}

/// Compares a reader's content with the expected content.
fn same_content(expected: &Content, got: &Content) -> Result<(), String> {
    if got.dtype != expected.dtype {
        return Err(format!("dtype {} instead of {}", got.dtype, expected.dtype));
    }
    if got.shape != expected.shape {
        return Err(format!(
            "shape {:?} instead of {:?}",
            got.shape, expected.shape
        ));
    }
    if got.values != expected.values {
        let a = Sha256::digest(got.payload());
        let b = Sha256::digest(expected.payload());
        let first = first_difference(got, expected);
        return Err(format!(
            "data differs (first at element {first}; sha256 {} vs {})",
            &hex(&a)[..12],
            &hex(&b)[..12]
        ));
    }
    Ok(())
}

fn first_difference(a: &Content, b: &Content) -> usize {
    let (pa, pb) = (a.payload(), b.payload());
    let size = a.dtype.size();
    pa.iter()
        .zip(&pb)
        .position(|(x, y)| x != y)
        .map_or(pa.len().min(pb.len()), |i| i)
        / size
}

fn run_writer(case: &Case, cfg: &Config) -> (Status, String) {
    let Some(content) = &case.content else {
        return (Status::Crash, "case has no content".into());
    };
    let input = crate::corpus::to_text(&content.to_json(false)).into_bytes();
    match execute(cfg, None, Some(input)) {
        Exit::Timeout => (Status::Timeout, format!("no answer in {:?}", cfg.timeout)),
        Exit::SpawnError(e) => (Status::Crash, format!("could not run: {e}")),
        Exit::Signal(err) => (Status::Crash, format!("killed by a signal: {}", tail(&err))),
        Exit::Code(0, out, _) => judge_writer(case, WriterAnswer::Wrote(out)),
        Exit::Code(1, out, err) => {
            let why = if out.is_empty() {
                tail(&err)
            } else {
                tail(&out)
            };
            judge_writer(case, WriterAnswer::Refused(why))
        }
        Exit::Code(c, _, err) => (Status::Crash, format!("exit status {c}: {}", tail(&err))),
    }
}

/// Unexpected failures: failed and not listed as expected.
pub fn unexpected(outcomes: &[Outcome]) -> usize {
    outcomes
        .iter()
        .filter(|o| o.failed && !o.expected_failure)
        .count()
}

/// Human-readable report.
pub fn render_human(outcomes: &[Outcome], mode: Mode) -> String {
    let mut s = String::new();
    for o in outcomes {
        let mark = match (o.failed, o.expected_failure) {
            (true, true) => "XFAIL",
            (true, false) => "FAIL ",
            (false, true) => "XPASS",
            (false, false) if o.verdict == Verdict::ImplementationDefined => "IMPL ",
            (false, false) => continue,
        };
        s.push_str(&format!(
            "{mark} {:<45} {:<16} {}\n",
            o.id,
            o.status.as_str(),
            o.detail
        ));
    }
    let pass = outcomes.iter().filter(|o| o.status == Status::Pass).count();
    let failed = outcomes.iter().filter(|o| o.failed).count();
    let xfail = outcomes
        .iter()
        .filter(|o| o.failed && o.expected_failure)
        .count();
    let imp = outcomes
        .iter()
        .filter(|o| o.verdict == Verdict::ImplementationDefined)
        .count();
    s.push_str(&format!(
        "{} {mode}: {pass} passed, {failed} failed ({xfail} expected), {imp} implementation-defined recorded\n",
        outcomes.len(),
        mode = mode.as_str()
    ));
    s
}

/// JSON report.
pub fn render_json(outcomes: &[Outcome], mode: Mode, command: &[String]) -> Value {
    let results: Vec<Value> = outcomes
        .iter()
        .map(|o| {
            json!({"id": o.id, "verdict": o.verdict.as_str(), "status": o.status.as_str(),
                   "detail": o.detail, "failed": o.failed, "expected_failure": o.expected_failure})
        })
        .collect();
    json!({
        "version": 1,
        "mode": mode.as_str(),
        "command": command,
        "results": results,
        "summary": {
            "cases": outcomes.len(),
            "passed": outcomes.iter().filter(|o| o.status == Status::Pass).count(),
            "failed": outcomes.iter().filter(|o| o.failed).count(),
            "unexpected_failures": unexpected(outcomes),
        }
    })
}
