//! Helpers shared by the integration tests of the workspace's packages, as
//! cargo's `cargo-test-support` is for cargo: the repository's paths, gzip in
//! and out, and running a built binary to an [`Out`].
//!
//! A dev-dependency only (`publish = false`). Each package's tests are one
//! crate, `tests/it/main.rs`, whose `support` module holds what only that
//! package needs (such as the path of its own binary: `env!("CARGO_BIN_EXE_…")`
//! exists only in the package's own integration tests, so it is passed in).
//!
//! Test code only: every `unwrap` here is on the test's own files, data or
//! child process, and a failure is the calling test's failure (never
//! reached from a user's input).

pub mod payloads;

use std::ffi::OsStr;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The repository root (canonical).
pub fn root() -> PathBuf {
    canonical(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../.."))
}

/// `p` made canonical. Under WASI (the `idx` crate's tests on
/// wasm32-wasip1) the C library may have no `realpath`: the path is kept as
/// it is, absolute and with its `..`, which WASI resolves itself.
fn canonical(p: &Path) -> PathBuf {
    if cfg!(target_os = "wasi") {
        return p.to_path_buf();
    }
    p.canonicalize().unwrap() // ok: test helper, on the repository's own paths
}

/// The real MNIST test set the repository carries (`testdata/mnist`,
/// canonical: `t10k-images-idx3-ubyte.gz` and `t10k-labels-idx1-ubyte.gz`);
/// panics naming the path when it is missing, so that a test that needs it
/// never passes silently without it.
pub fn mnist_dir() -> PathBuf {
    let p = root().join("testdata/mnist");
    assert!(
        p.exists(),
        "the MNIST files are expected at {}",
        p.display()
    );
    canonical(&p)
}

/// One of the real MNIST files, by name (see [`mnist_dir`]).
pub fn mnist(name: &str) -> PathBuf {
    mnist_dir().join(name)
}

fn gzip_level(bytes: &[u8], level: flate2::Compression) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), level);
    e.write_all(bytes).unwrap(); // ok: test helper
    e.finish().unwrap() // ok: test helper
}

/// `bytes` as one gzip member, at the default compression level.
pub fn gzip(bytes: &[u8]) -> Vec<u8> {
    gzip_level(bytes, flate2::Compression::default())
}

/// `bytes` as one gzip member, at the fastest compression level.
pub fn gzip_fast(bytes: &[u8]) -> Vec<u8> {
    gzip_level(bytes, flate2::Compression::fast())
}

/// `bytes` as one gzip member in stored (uncompressed) blocks, so that the
/// payload's bytes sit at known offsets of the stream.
pub fn gzip_stored(bytes: &[u8]) -> Vec<u8> {
    gzip_level(bytes, flate2::Compression::none())
}

/// The decompressed bytes of every gzip member of `bytes`.
pub fn gunzip(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::MultiGzDecoder::new(bytes)
        .read_to_end(&mut out)
        .unwrap(); // test input: valid gzip
    out
}

/// The decompressed bytes of the gzip file at `path`.
pub fn gunzip_file(path: &Path) -> Vec<u8> {
    gunzip(&std::fs::read(path).unwrap()) // ok: test helper
}

/// Asserts that `text` (a command's output, an error's message) contains
/// `needle`, showing both when it does not.
#[track_caller]
pub fn assert_contains(text: &str, needle: &str) {
    assert!(text.contains(needle), "{needle:?} not found in:\n{text}");
}

/// A `.npy` file as NumPy writes it (format 1.0): the preamble, the header
/// `dict` padded with spaces to a 64-byte boundary and ended by a newline,
/// then `data`.
pub fn npy(dict: &str, data: &[u8]) -> Vec<u8> {
    let mut h = dict.as_bytes().to_vec();
    while (10 + h.len() + 1) % 64 != 0 {
        h.push(b' ');
    }
    h.push(b'\n');
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend_from_slice(&(h.len() as u16).to_le_bytes());
    out.extend_from_slice(&h);
    out.extend_from_slice(data);
    out
}

/// The command line `program args…` as a library's `run` takes it (the
/// program's name first, as `std::env::args_os` gives it).
fn argv(program: &str, args: &[&str]) -> Vec<std::ffi::OsString> {
    std::iter::once(program)
        .chain(args.iter().copied())
        .map(std::ffi::OsString::from)
        .collect()
}

/// Checks that `run`, a command as a library function (`idx_cli::run`,
/// `idx_validate::run`: what the Python package's console scripts call),
/// gives each case's exit status for the command line `program args…`.
pub fn assert_exit_statuses<S: Into<i32>>(
    program: &str,
    run: impl Fn(Vec<std::ffi::OsString>) -> S,
    cases: &[(&[&str], i32)],
) {
    for (args, want) in cases {
        assert_eq!(run(argv(program, args)).into(), *want, "{program} {args:?}");
    }
}

/// What a finished command gave.
#[derive(Debug)]
pub struct Out {
    /// The exit status; -1 when a signal ended the process.
    pub code: i32,
    /// Standard output as text (invalid UTF-8 replaced).
    pub stdout: String,
    /// Standard output as it was written (PNG, IDX, gzip).
    pub stdout_bytes: Vec<u8>,
    /// Standard error as text (invalid UTF-8 replaced).
    pub stderr: String,
}

impl From<Output> for Out {
    fn from(o: Output) -> Out {
        Out {
            code: o.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
            stdout_bytes: o.stdout,
        }
    }
}

/// Keeps a spawned command away from the user's own configuration: git's
/// global and system config and global excludes file, which
/// `idx-validate`'s directory walk reads as git does (`HOME`,
/// `XDG_CONFIG_HOME`, `GIT_CONFIG_GLOBAL`, `GIT_CONFIG_SYSTEM`), so a
/// test's result does not depend on whose machine runs it. `HOME` and
/// the rest point at a directory that does not exist.
pub fn without_user_config(c: &mut Command) -> &mut Command {
    let none = root().join("target").join("tests-have-no-home");
    c.env("HOME", &none)
        .env("XDG_CONFIG_HOME", &none)
        .env("GIT_CONFIG_SYSTEM", none.join("gitconfig"))
        .env_remove("GIT_CONFIG_GLOBAL")
}

/// A command to run to completion: by default from the repository root,
/// with `NO_COLOR` unset, none of the user's configuration
/// ([`without_user_config`]), standard input empty and both outputs
/// captured.
#[derive(Debug)]
pub struct Cmd {
    command: Command,
    stdin: Option<Vec<u8>>,
    stdin_file: Option<PathBuf>,
}

impl Cmd {
    /// `program` (a built binary: `env!("CARGO_BIN_EXE_…")`, or `sh`).
    pub fn new(program: impl AsRef<OsStr>) -> Cmd {
        let mut command = Command::new(program);
        command.current_dir(root()).env_remove("NO_COLOR");
        without_user_config(&mut command);
        Cmd {
            command,
            stdin: None,
            stdin_file: None,
        }
    }

    /// Adds arguments.
    pub fn args<I, S>(mut self, args: I) -> Cmd
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        self.command.args(args);
        self
    }

    /// Runs in `dir` instead of the repository root.
    pub fn dir(mut self, dir: impl AsRef<Path>) -> Cmd {
        self.command.current_dir(dir);
        self
    }

    /// Sets an environment variable.
    pub fn env(mut self, key: impl AsRef<OsStr>, value: impl AsRef<OsStr>) -> Cmd {
        self.command.env(key, value);
        self
    }

    /// Unsets an environment variable.
    pub fn env_remove(mut self, key: impl AsRef<OsStr>) -> Cmd {
        self.command.env_remove(key);
        self
    }

    /// Feeds `bytes` (when given) to standard input, from a thread, so that a
    /// command that writes before it has read everything cannot block.
    pub fn stdin(mut self, bytes: Option<&[u8]>) -> Cmd {
        self.stdin = bytes.map(<[u8]>::to_vec);
        self
    }

    /// Redirects standard input from the file at `path` (the shell's
    /// `< path`), so the command sees that file's device and inode.
    pub fn stdin_file(mut self, path: impl AsRef<Path>) -> Cmd {
        self.stdin_file = Some(path.as_ref().to_path_buf());
        self
    }

    /// Runs the command to its end.
    pub fn out(mut self) -> Out {
        if let Some(p) = self.stdin_file {
            let f = std::fs::File::open(p).unwrap(); // ok: test helper
            return self.command.stdin(f).output().unwrap().into(); // ok: test helper
        }
        let Some(data) = self.stdin else {
            return self.command.stdin(Stdio::null()).output().unwrap().into(); // ok: test helper
        };
        let mut child = self
            .command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap(); // ok: test helper
        let mut input = child.stdin.take().unwrap(); // ok: test helper
        let feeder = std::thread::spawn(move || {
            let _ = input.write_all(&data); // a command may stop reading early
        });
        let o = child.wait_with_output().unwrap(); // ok: test helper
        feeder.join().unwrap(); // ok: test helper
        o.into()
    }
}

/// Runs a quickcheck property with a fixed, printed seed: `IDX_TEST_SEED`
/// when set (to re-run a failure, or to explore), otherwise one derived
/// from `name`, so that every run of the test suite, in CI or not, checks
/// the same inputs. The seed is printed first (shown with a failure), and
/// `tests` cases are run (`QUICKCHECK_TESTS` overrides it, as quickcheck
/// does).
pub fn quickcheck<A: quickcheck::Testable>(name: &str, tests: u64, prop: A) {
    let seed = std::env::var("IDX_TEST_SEED")
        .ok()
        .and_then(|s| s.trim().parse::<u64>().ok())
        .unwrap_or_else(|| {
            // FNV-1a of the name: stable across platforms and releases
            name.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
                (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
            })
        });
    eprintln!("{name}: quickcheck seed {seed} (re-run with IDX_TEST_SEED={seed})");
    let tests = std::env::var("QUICKCHECK_TESTS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(tests);
    quickcheck::QuickCheck::new()
        .rng(quickcheck::Gen::from_size_and_seed(100, seed))
        .tests(tests)
        .max_tests(tests * 100)
        .quickcheck(prop);
}

/// A value no usage error may print as it is: an escape sequence (colour,
/// then a screen clear), a bell and a line break that forges an error line.
pub const HOSTILE_VALUE: &str = "1\u{1b}[31m\u{7}\nerror: forged\u{1b}[2J";

/// Asserts that a usage error's `stderr` quotes [`HOSTILE_VALUE`] escaped:
/// no escape, bell or forged line reaches the terminal, and the value is
/// shown (`\u{1b}`).
pub fn assert_escaped_usage_error(args: &[&str], code: i32, stderr: &str) {
    assert_eq!(code, 2, "{args:?}: {stderr}");
    assert!(
        !stderr.contains('\u{1b}') && !stderr.contains('\u{7}'),
        "{args:?}: {stderr:?}"
    );
    assert!(
        !stderr.lines().any(|l| l.starts_with("error: forged")),
        "{args:?}: {stderr:?}"
    );
    assert!(
        stderr.contains(r"\u{1b}[31m\u{7}\nerror: forged"),
        "{args:?}: {stderr:?}"
    );
}
