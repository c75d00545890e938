//! Child processes with deadlines that hold: each adapter runs in its own
//! process group under an optional address-space limit, every pipe is read
//! by a thread that hands chunks over a channel, and every wait is bounded by
//! the deadline. When the adapter exits, its whole process group is killed,
//! so a background process that keeps stdout open cannot make a case wait;
//! a persistent adapter's exit is watched while its answer is awaited, for
//! the same reason.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use wait_timeout::ChildExt;

/// Most bytes kept of an adapter's standard output.
pub const STDOUT_MAX: usize = 256 << 20;
/// Bytes kept of the start and of the end of standard error.
pub const STDERR_KEEP: usize = 4096;

/// The head and tail of a stream, bounded whatever its length.
#[derive(Debug, Default, Clone)]
pub struct HeadTail {
    head: Vec<u8>,
    tail: Vec<u8>,
    total: u64,
}

impl HeadTail {
    fn push(&mut self, mut b: &[u8]) {
        self.total += b.len() as u64;
        let room = STDERR_KEEP.saturating_sub(self.head.len());
        let n = room.min(b.len());
        self.head.extend_from_slice(&b[..n]);
        b = &b[n..];
        if b.is_empty() {
            return;
        }
        self.tail.extend_from_slice(b);
        if self.tail.len() > STDERR_KEEP {
            let cut = self.tail.len() - STDERR_KEEP;
            self.tail.drain(..cut);
        }
    }

    /// Whether nothing was written.
    pub fn is_empty(&self) -> bool {
        self.total == 0
    }

    /// All kept text, lossily decoded (head, a gap marker, tail).
    pub fn text(&self) -> String {
        let mut s = String::from_utf8_lossy(&self.head).into_owned();
        if !self.tail.is_empty() {
            if self.total > (self.head.len() + self.tail.len()) as u64 {
                s.push_str("\n…\n");
            }
            s.push_str(&String::from_utf8_lossy(&self.tail));
        }
        s
    }

    /// One line for a report: the first two and the last two non-empty lines
    /// (a Rust panic's message is at the top, a Python exception's at the
    /// bottom), each cut at 160 characters with an ellipsis.
    pub fn summary(&self) -> String {
        let text = self.text();
        let lines: Vec<&str> = text
            .lines()
            .map(str::trim)
            // a Python traceback's carets under the failing expression
            .filter(|l| l.chars().any(|c| !matches!(c, '^' | '~' | ' ')))
            .collect();
        let picked: Vec<&str> = if lines.len() <= 4 {
            lines
        } else {
            let mut v = lines[..2].to_vec();
            v.push("…");
            v.extend_from_slice(&lines[lines.len() - 2..]);
            v
        };
        picked
            .iter()
            .map(|l| cut(l, 160))
            .collect::<Vec<_>>()
            .join(" ⏎ ")
    }

    fn clear(&mut self) {
        *self = HeadTail::default();
    }
}

/// `s` cut to at most `n` characters, ending with an ellipsis when cut.
pub fn cut(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(n.saturating_sub(1)).collect();
        t.push('…');
        t
    }
}

/// How a process ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ending {
    /// Exited with this status.
    Code(i32),
    /// Killed by this signal (name, e.g. `SIGSEGV`).
    Signal(String),
    /// Still running at the deadline (then killed).
    Timeout,
    /// Could not be started.
    SpawnError(String),
}

/// What a one-shot run produced.
#[derive(Debug, Clone)]
pub struct Finished {
    /// How it ended.
    pub ending: Ending,
    /// Standard output (at most [`STDOUT_MAX`] bytes).
    pub stdout: Vec<u8>,
    /// Standard error's head and tail.
    pub stderr: HeadTail,
    /// Wall time.
    pub elapsed: Duration,
}

/// The command line that runs `args` in its own process group under the
/// address-space limit.
fn command(args: &[String], memory_mib: Option<u64>) -> Command {
    let mut cmd = match memory_mib {
        Some(mib) => {
            let mut c = Command::new("sh");
            c.arg("-c")
                .arg(format!("ulimit -v {} && exec \"$@\"", mib * 1024))
                .arg("sh")
                .args(args);
            c
        }
        None => {
            let mut c = Command::new(&args[0]);
            c.args(&args[1..]);
            c
        }
    };
    cmd.env(
        "IDX_CONFORMANCE_PROTOCOL",
        crate::runner::PROTOCOL.to_string(),
    );
    // Its own process group, so that its children are killed with it.
    std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
    cmd
}

fn kill_group(child: &mut Child) {
    if let Ok(pid) = i32::try_from(child.id()) {
        if pid > 1 {
            let _ = nix::sys::signal::killpg(
                nix::unistd::Pid::from_raw(pid),
                nix::sys::signal::Signal::SIGKILL,
            );
        }
    }
    let _ = child.kill();
}

fn ending_of(status: ExitStatus) -> Ending {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(c), _) => Ending::Code(c),
        (None, Some(s)) => Ending::Signal(signal_name(s)),
        (None, None) => Ending::Signal("an unknown signal".into()),
    }
}

/// `SIGSEGV` for 11, and so on.
pub fn signal_name(sig: i32) -> String {
    nix::sys::signal::Signal::try_from(sig)
        .map(|s| s.as_str().to_string())
        .unwrap_or_else(|_| format!("signal {sig}"))
}

/// Reads a pipe on a thread, sending chunks; ends at EOF or an error.
fn pump(mut r: impl Read + Send + 'static) -> Receiver<Vec<u8>> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut buf = vec![0u8; 64 << 10];
        loop {
            match r.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    if tx.send(buf[..n].to_vec()).is_err() {
                        break;
                    }
                }
            }
        }
    });
    rx
}

/// Drains `rx` into `out` until the sender is gone or `deadline` passes.
fn drain(rx: &Receiver<Vec<u8>>, deadline: Instant, mut sink: impl FnMut(&[u8])) {
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok(chunk) => sink(&chunk),
            Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => break,
        }
    }
}

/// Runs `args` once, with `stdin` (or none), bounded by `timeout`: a child
/// that is still running is killed with its process group; one that exited
/// has its process group killed too, and its pipes are read only until the
/// deadline.
pub fn run_once(
    args: &[String],
    stdin: Option<Vec<u8>>,
    timeout: Duration,
    memory_mib: Option<u64>,
) -> Finished {
    let started = Instant::now();
    let deadline = started + timeout;
    let finish = |ending, stdout, stderr| Finished {
        ending,
        stdout,
        stderr,
        elapsed: started.elapsed(),
    };
    if args.is_empty() {
        return finish(
            Ending::SpawnError("empty command".into()),
            vec![],
            HeadTail::default(),
        );
    }
    let mut cmd = command(args, memory_mib);
    cmd.stdin(if stdin.is_some() {
        Stdio::piped()
    } else {
        Stdio::null()
    })
    .stdout(Stdio::piped())
    .stderr(Stdio::piped());
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => {
            return finish(
                Ending::SpawnError(format!("{}: {e}", args[0])),
                vec![],
                HeadTail::default(),
            )
        }
    };
    if let (Some(data), Some(mut s)) = (stdin, child.stdin.take()) {
        // A writer that never reads must not block the runner.
        std::thread::spawn(move || {
            let _ = s.write_all(&data);
        });
    }
    let out_rx = child.stdout.take().map(pump);
    let err_rx = child.stderr.take().map(pump);
    let mut stdout = Vec::new();
    let mut stderr = HeadTail::default();
    let collect = |deadline: Instant, stdout: &mut Vec<u8>, stderr: &mut HeadTail| {
        if let Some(rx) = &out_rx {
            drain(rx, deadline, |c| {
                let room = STDOUT_MAX.saturating_sub(stdout.len());
                stdout.extend_from_slice(&c[..room.min(c.len())]);
            });
        }
        if let Some(rx) = &err_rx {
            drain(rx, deadline, |c| stderr.push(c));
        }
    };
    // Read while waiting, so that a chatty child never fills a pipe: poll the
    // channels in short slices until the child exits or the deadline passes.
    let status = loop {
        match child.wait_timeout(Duration::from_millis(5)) {
            Ok(Some(s)) => break Some(s),
            Ok(None) if Instant::now() >= deadline => break None,
            Ok(None) => {
                if let Some(rx) = &out_rx {
                    while let Ok(c) = rx.try_recv() {
                        let room = STDOUT_MAX.saturating_sub(stdout.len());
                        stdout.extend_from_slice(&c[..room.min(c.len())]);
                    }
                }
                if let Some(rx) = &err_rx {
                    while let Ok(c) = rx.try_recv() {
                        stderr.push(&c);
                    }
                }
            }
            Err(e) => {
                kill_group(&mut child);
                let _ = child.wait();
                return finish(Ending::SpawnError(e.to_string()), stdout, stderr);
            }
        }
    };
    kill_group(&mut child);
    let Some(status) = status else {
        let _ = child.wait();
        collect(
            Instant::now() + Duration::from_millis(100),
            &mut stdout,
            &mut stderr,
        );
        return finish(Ending::Timeout, stdout, stderr);
    };
    collect(deadline, &mut stdout, &mut stderr);
    finish(ending_of(status), stdout, stderr)
}

/// One answer from a persistent adapter.
#[derive(Debug, Clone)]
pub enum Reply {
    /// One line (without its newline).
    Line(Vec<u8>),
    /// The process ended (its ending) before answering.
    Ended(Ending),
    /// No answer by the deadline.
    Timeout,
    /// The answer line exceeded [`STDOUT_MAX`].
    TooLong,
}

/// A persistent adapter: started once, one request line in, one answer line
/// out.
#[derive(Debug)]
pub struct Persistent {
    child: Child,
    stdin: Option<ChildStdin>,
    /// Batches of lines: every complete line one read of standard output
    /// brought, so that two lines written at once arrive together.
    lines: Receiver<Vec<Line>>,
    /// Lines received and not yet taken.
    pending: VecDeque<Line>,
    stderr: Arc<Mutex<HeadTail>>,
    /// Disconnected when standard error is at its end (every holder gone).
    stderr_end: Receiver<()>,
    reaped: bool,
}

/// One line of a persistent adapter's standard output (without its
/// newline), or `Err` when it exceeded [`STDOUT_MAX`].
type Line = Result<Vec<u8>, ()>;

/// How often a persistent adapter's exit is looked for while waiting.
const POLL: Duration = Duration::from_millis(10);

/// How long, after a persistent adapter's exit (its process group then
/// killed), a last line or the rest of standard error is waited for.
const AFTER_EXIT: Duration = Duration::from_secs(1);

impl Persistent {
    /// Starts `args`.
    ///
    /// # Errors
    /// When it cannot be started.
    pub fn start(args: &[String], memory_mib: Option<u64>) -> Result<Persistent, String> {
        if args.is_empty() {
            return Err("empty command".into());
        }
        let mut cmd = command(args, memory_mib);
        cmd.stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = cmd.spawn().map_err(|e| format!("{}: {e}", args[0]))?;
        let stdin = child.stdin.take();
        let (tx, lines) = mpsc::channel();
        if let Some(out) = child.stdout.take() {
            std::thread::spawn(move || {
                let mut r = BufReader::new(out);
                loop {
                    // every complete line already read goes in one batch
                    let mut batch = Vec::new();
                    let mut end = false;
                    loop {
                        let mut line = Vec::new();
                        match (&mut r)
                            .take(STDOUT_MAX as u64 + 1)
                            .read_until(b'\n', &mut line)
                        {
                            Ok(0) | Err(_) => end = true,
                            Ok(_) if line.len() > STDOUT_MAX => {
                                batch.push(Err(()));
                                end = true;
                            }
                            Ok(_) => {
                                if line.last() == Some(&b'\n') {
                                    line.pop();
                                }
                                batch.push(Ok(line));
                            }
                        }
                        if end || !r.buffer().contains(&b'\n') {
                            break;
                        }
                    }
                    if (!batch.is_empty() && tx.send(batch).is_err()) || end {
                        break;
                    }
                }
            });
        }
        let stderr = Arc::new(Mutex::new(HeadTail::default()));
        let (end_tx, stderr_end) = mpsc::channel::<()>();
        if let Some(err) = child.stderr.take() {
            let log = Arc::clone(&stderr);
            let rx = pump(err);
            std::thread::spawn(move || {
                // dropped at the end of standard error
                let _end = end_tx;
                while let Ok(c) = rx.recv() {
                    if let Ok(mut l) = log.lock() {
                        l.push(&c);
                    }
                }
            });
        }
        Ok(Persistent {
            child,
            stdin,
            lines,
            pending: VecDeque::new(),
            stderr,
            stderr_end,
            reaped: false,
        })
    }

    /// Sends one request line (if any) and waits for one answer line until
    /// `deadline`.
    pub fn ask(&mut self, request: Option<&[u8]>, deadline: Instant) -> Reply {
        if let Some(req) = request {
            let sent = self.stdin.as_mut().map(|s| {
                s.write_all(req)
                    .and_then(|()| s.write_all(b"\n"))
                    .and_then(|()| s.flush())
            });
            if !matches!(sent, Some(Ok(()))) {
                return Reply::Ended(self.ending_soon(deadline));
            }
        }
        // Wait for a line in short slices, watching the process's exit (as
        // run_once does): a child of it can hold stdout open after it died.
        loop {
            if let Some(line) = self.pending.pop_front() {
                return reply(line);
            }
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left.min(POLL)) {
                Ok(batch) => {
                    self.pending.extend(batch);
                    continue;
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Reply::Ended(self.ending_soon(deadline))
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
            if let Ok(Some(status)) = self.child.try_wait() {
                self.reaped = true;
                return self.after_exit(status);
            }
            if Instant::now() >= deadline {
                return Reply::Timeout;
            }
        }
    }

    /// It exited while a line was awaited: its process group is killed, so
    /// that a child holding its pipes lets them close, and then a line it
    /// wrote before it exited and the rest of its standard error are read.
    fn after_exit(&mut self, status: ExitStatus) -> Reply {
        kill_group(&mut self.child);
        if self.pending.is_empty() {
            if let Ok(batch) = self.lines.recv_timeout(AFTER_EXIT) {
                self.pending.extend(batch);
            }
        }
        let reply = match self.pending.pop_front() {
            Some(line) => reply(line),
            None => Reply::Ended(ending_of(status)),
        };
        self.stderr_at_end();
        reply
    }

    /// Waits (at most [`AFTER_EXIT`]) until standard error is read to its
    /// end.
    fn stderr_at_end(&self) {
        let _ = self.stderr_end.recv_timeout(AFTER_EXIT);
    }

    /// Its exit, waited for until `deadline` (it closed its stdout), then
    /// the rest of its standard error.
    fn ending_soon(&mut self, deadline: Instant) -> Ending {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.child.wait_timeout(left.max(Duration::from_millis(50))) {
            Ok(Some(s)) => {
                self.reaped = true;
                kill_group(&mut self.child);
                self.stderr_at_end();
                ending_of(s)
            }
            _ => Ending::Timeout,
        }
    }

    /// Standard error so far, then forgets it (each case reports its own).
    pub fn take_stderr(&self) -> HeadTail {
        self.stderr
            .lock()
            .map(|mut l| {
                let h = l.clone();
                l.clear();
                h
            })
            .unwrap_or_default()
    }

    /// A line it printed that no request has taken yet: after an answer,
    /// a line too many.
    pub fn waiting(&mut self) -> Option<Reply> {
        while let Ok(batch) = self.lines.try_recv() {
            self.pending.extend(batch);
        }
        self.pending.pop_front().map(reply)
    }

    /// Closes its standard input (the end of the requests), then collects
    /// every line it still prints until its standard output ends (it
    /// exited) or `deadline` passes, and kills it and its process group.
    /// After its last answer, any such line is a line too many.
    pub fn finish(mut self, deadline: Instant) -> Vec<Reply> {
        self.stdin = None;
        let mut out: Vec<Reply> = self.pending.drain(..).map(reply).collect();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left.min(POLL)) {
                Ok(batch) => out.extend(batch.into_iter().map(reply)),
                Err(RecvTimeoutError::Disconnected) => break,
                Err(RecvTimeoutError::Timeout) => {}
            }
            if let Ok(Some(_)) = self.child.try_wait() {
                self.reaped = true;
                // a child of it may hold stdout: what was written is read
                kill_group(&mut self.child);
                let end = Instant::now() + AFTER_EXIT.min(left);
                while let Ok(batch) = self
                    .lines
                    .recv_timeout(end.saturating_duration_since(Instant::now()))
                {
                    out.extend(batch.into_iter().map(reply));
                }
                break;
            }
            if Instant::now() >= deadline {
                break;
            }
        }
        self.shut();
        out
    }

    /// Kills it and its process group.
    pub fn kill(mut self) {
        self.shut();
    }

    fn shut(&mut self) {
        self.stdin = None;
        // Its process group outlives it while a child of it runs; a group ID
        // is not reused while the group exists.
        kill_group(&mut self.child);
        if !self.reaped {
            let _ = self.child.wait();
            self.reaped = true;
        }
    }
}

fn reply(line: Line) -> Reply {
    match line {
        Ok(l) => Reply::Line(l),
        Err(()) => Reply::TooLong,
    }
}

impl Drop for Persistent {
    fn drop(&mut self) {
        self.shut();
    }
}
