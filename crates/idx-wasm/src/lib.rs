//! The IDX validator compiled to WebAssembly, for the web page (`web/`) and
//! the npm package `idx-validate` (`npm/`): a thin binding, like the Python
//! one, with no rule of its own. Inputs are checked by
//! `idx_validate::check::check_reader`, the command's own path; the rules
//! over several files, `select`/`ignore` and the exit status are the
//! command's functions; reports are rendered by `idx-report`, so a finding
//! here is byte for byte the finding of `idx-validate --format json`.
//!
//! - [`Command`]: the command on its arguments (the npm command): parsed,
//!   resolved and reported by `idx_validate::Args`, its configuration
//!   found and its directories walked by the command's own code over the
//!   caller's file system ([`host`]), its files and standard input read by
//!   the caller; [`Exit`] is what it prints and exits with.
//! - [`Checker`]: one run over several inputs, each read synchronously at
//!   offsets through a JavaScript callback ([`source::JsSource`]), given as
//!   bytes, or pushed in chunks; then `render(format)`, `findingTexts(i)`
//!   (each finding of input `i` as the human report shows it),
//!   `fileTexts(i)` (its verdict line, why it is unreadable, its notes of
//!   findings not shown), `summary()` (the report's last line) and
//!   `exitStatus()`.
//! - [`explain`], [`list_rules`], [`rules`]: the rules and their text.
//! - [`repair()`]: the safe fixes, written chunk by chunk to a callback.
//! - [`picture()`]: the first items of an image file as grey pixels, read
//!   as `idx show` reads them ([`picture::read`]).
#![forbid(unsafe_code)]
#![deny(clippy::print_stdout, clippy::print_stderr)]

pub mod host;
pub mod options;
pub mod picture;
pub mod run;
pub mod source;

use js_sys::{Function, Object, Reflect, Uint8Array};
use source::{JsSink, JsSource};
use wasm_bindgen::prelude::*;

/// A length from JavaScript (a number of bytes); negative, fractional or
/// non-finite numbers are refused.
fn length(n: f64) -> Result<u64, JsError> {
    if n.is_finite() && n >= 0.0 && n.fract() == 0.0 && n <= 2f64.powi(53) {
        Ok(n as u64)
    } else {
        Err(JsError::new(&format!("{n} is not a length in bytes")))
    }
}

/// One run over several inputs, as one `idx-validate` invocation.
#[wasm_bindgen]
#[derive(Debug)]
pub struct Checker {
    run: run::Run,
}

#[wasm_bindgen]
impl Checker {
    /// A run with `options` (a JSON object, see [`options`]; `"{}"` for the
    /// command's defaults).
    #[wasm_bindgen(constructor)]
    pub fn new(options: &str) -> Result<Checker, JsError> {
        let o = options::parse(options).map_err(|e| JsError::new(&e))?;
        Ok(Checker {
            run: run::Run::new(o),
        })
    }

    /// Checks the input `name` of `size` bytes, read through
    /// `readAt(offset, target: Uint8Array) -> number` ([`source::JsSource`]);
    /// returns its index.
    #[wasm_bindgen(js_name = checkSource)]
    pub fn check_source(
        &mut self,
        name: &str,
        size: f64,
        read_at: Function,
    ) -> Result<usize, JsError> {
        let len = length(size)?;
        Ok(self.run.check(name, JsSource::new(read_at, len), Some(len)))
    }

    /// Checks the input `name` held in `bytes`; returns its index.
    #[wasm_bindgen(js_name = checkBytes)]
    pub fn check_bytes(&mut self, name: &str, bytes: &[u8]) -> usize {
        self.run
            .check(name, std::io::Cursor::new(bytes), Some(bytes.len() as u64))
    }

    /// Records an input that could not be read (`why`); returns its index.
    /// An input started with [`Checker::begin`] and not ended is dropped
    /// (this is it: its reading failed part way).
    pub fn unreadable(&mut self, name: &str, why: &str) -> usize {
        self.run.unreadable(name, why)
    }

    /// Starts an input whose bytes come in chunks ([`Checker::push`]).
    pub fn begin(&mut self, name: &str) {
        self.run.begin(name);
    }

    /// The next chunk of the input started by [`Checker::begin`].
    pub fn push(&mut self, chunk: &[u8]) {
        self.run.push(chunk);
    }

    /// Ends the input started by [`Checker::begin`]; returns its index.
    pub fn end(&mut self) -> Option<usize> {
        self.run.end()
    }

    /// The offsets of the 16-byte rows of excerpts that input `index`'s
    /// report did not keep (an input pushed in chunks, whose source cannot
    /// be read again here): read them and give them to
    /// [`Checker::add_excerpt`], so the human report shows them as the
    /// command does.
    #[wasm_bindgen(js_name = excerptRows)]
    pub fn excerpt_rows(&self, index: usize) -> Vec<f64> {
        self.run
            .excerpt_rows(index)
            .into_iter()
            .map(|r| r as f64)
            .collect()
    }

    /// The bytes at `row` of input `index` (one of
    /// [`Checker::excerpt_rows`]).
    #[wasm_bindgen(js_name = addExcerpt)]
    pub fn add_excerpt(&mut self, index: usize, row: f64, bytes: &[u8]) -> Result<(), JsError> {
        self.run.add_excerpt(index, length(row)?, bytes);
        Ok(())
    }

    /// The report of every input so far in a format of the command:
    /// `human`, `short`, `json`, `jsonl`, `sarif`, `junit` or `github`.
    pub fn render(&mut self, format: &str) -> Result<String, JsError> {
        self.run.render(format).map_err(|e| JsError::new(&e))
    }

    /// Each finding of input `index`, in order, as the `human` report
    /// shows it (from its `error[IDX...]:` line to its `= rule:` line, the
    /// blank line after it left out): the page shows these.
    #[wasm_bindgen(js_name = findingTexts)]
    pub fn finding_texts(&mut self, index: usize) -> Vec<String> {
        self.run.finding_texts(index)
    }

    /// What the `human` report says of input `index` besides its
    /// findings, each line without its line feed: `{verdict: {line, path,
    /// tag, rest}, unreadable, suppressed}`: the verdict line (`PATH: OK u8
    /// [10] (1 warning)`; `line` is `path + ": " + tag + rest`), why the
    /// input could not be read (`error: cannot read PATH: WHY`, else
    /// `undefined`) and a note per rule whose findings the cap left out.
    /// `undefined` for an index out of range. The page's file cards show
    /// these.
    #[wasm_bindgen(js_name = fileTexts)]
    pub fn file_texts(&mut self, index: usize) -> Result<JsValue, JsError> {
        let Some(t) = self.run.file_texts(index) else {
            return Ok(JsValue::UNDEFINED);
        };
        let verdict = Object::new();
        let texts = Object::new();
        let suppressed: js_sys::Array = t.suppressed.into_iter().map(JsValue::from).collect();
        let set = |o: &Object, k: &str, v: JsValue| {
            Reflect::set(o, &JsValue::from_str(k), &v).map(|_| ())
        };
        set(&verdict, "line", t.verdict_line.into())
            .and_then(|()| set(&verdict, "path", t.verdict.path.into()))
            .and_then(|()| set(&verdict, "tag", t.verdict.tag.into()))
            .and_then(|()| set(&verdict, "rest", t.verdict.rest.into()))
            .and_then(|()| set(&texts, "verdict", verdict.into()))
            .and_then(|()| {
                set(
                    &texts,
                    "unreadable",
                    t.unreadable.map_or(JsValue::UNDEFINED, JsValue::from),
                )
            })
            .and_then(|()| set(&texts, "suppressed", suppressed.into()))
            .map_err(|_| JsError::new("cannot build the file's texts"))?;
        Ok(texts.into())
    }

    /// The `human` report's last line for the inputs so far, without its
    /// line feed: `N files checked: V valid, I invalid, U unreadable`.
    pub fn summary(&mut self) -> String {
        self.run.summary()
    }

    /// The command's exit status for the inputs so far: 0 valid, 1 invalid,
    /// 2 unreadable.
    #[wasm_bindgen(js_name = exitStatus)]
    pub fn exit_status(&mut self) -> u8 {
        self.run.exit_status()
    }
}

/// What a run of the command printed and exits with.
#[wasm_bindgen]
#[derive(Debug)]
pub struct Exit(idx_validate::Output);

#[wasm_bindgen]
impl Exit {
    /// Standard output's bytes.
    #[wasm_bindgen(getter)]
    pub fn stdout(&self) -> Vec<u8> {
        self.0.stdout.clone()
    }

    /// Standard error's bytes.
    #[wasm_bindgen(getter)]
    pub fn stderr(&self) -> Vec<u8> {
        self.0.stderr.clone()
    }

    /// The exit status: 0 valid, 1 invalid, 2 unreadable or misused.
    #[wasm_bindgen(getter)]
    pub fn status(&self) -> u8 {
        self.0.status.code()
    }
}

/// The `idx-validate` command on an argument list (without the program
/// name), parsed and resolved by the command's own code: the npm command
/// is this. The configuration file is found and read, and directories
/// walked, by the command's own code over the caller's file system
/// ([`host::Host`]); the caller then reads each of [`Command::inputs`]
/// (a file at offsets with [`Command::check_source`], standard input in
/// chunks with [`Command::begin_stdin`]), in order.
#[wasm_bindgen]
#[derive(Debug)]
pub struct Command {
    state: Result<Session, idx_validate::Output>,
}

/// A command that checks its inputs.
#[derive(Debug)]
struct Session {
    run: run::Run,
    /// Every input, in the command's order (walked files, `-`, paths that
    /// cannot be walked).
    inputs: Vec<idx_validate::walk::Input>,
    /// The next of `inputs` to record.
    next: usize,
    /// What the walk printed (its notes, its empty directories).
    messages: String,
    walked: Vec<usize>,
    empty: Vec<String>,
}

impl Session {
    /// Records the inputs before the next one the caller reads that the
    /// walk found unreadable (as the command does).
    fn skip_unreadable(&mut self) {
        while let Some(Err((p, why))) = self.inputs.get(self.next) {
            self.run.unreadable(&p.to_string_lossy(), why);
            self.next += 1;
        }
    }

    /// The next input is read by the caller.
    fn advance(&mut self) -> &mut run::Run {
        self.skip_unreadable();
        self.next += 1;
        &mut self.run
    }
}

/// Resolves the command line as the native command does, reading its
/// configuration and walking its directories through `host`.
fn session(argv: Vec<String>, host: &host::Host) -> Result<Session, idx_validate::Output> {
    let argv = std::iter::once("idx-validate".to_string()).chain(argv);
    let args = idx_validate::Args::parse(argv).map_err(|e| e.output())?;
    if let Some(out) = args.informational() {
        return Err(out);
    }
    let error = |e: String| idx_validate::Output::error(&e);
    if let Some(flag) = args.writing_flag() {
        return Err(error(format!(
            "{flag} needs the native idx-validate (this one reads its inputs and writes nothing)"
        )));
    }
    let checks = args.checks_in(host).map_err(error)?;
    if checks.fix_on {
        return Err(error(
            "the configuration's `fix = true` needs the native idx-validate (this one writes nothing; --no-fix reports without fixing)".into(),
        ));
    }
    let mut ex = idx_validate::walk::expand_in(args.paths(), &args.walk_options(&checks), host)
        .map_err(error)?;
    args.add_pairs(&mut ex);
    let messages = args.walk_messages(&ex);
    Ok(Session {
        run: run::Run::new(options::RunOptions { args, checks }),
        inputs: ex.inputs,
        next: 0,
        messages,
        walked: ex.walked,
        empty: ex.empty,
    })
}

#[wasm_bindgen]
impl Command {
    /// Parses `argv` (the arguments after the program name) and resolves
    /// it, with the file system of `host` (see [`host`]; `undefined`: none,
    /// so no configuration is found and every path is a file).
    #[wasm_bindgen(constructor)]
    pub fn new(argv: Vec<String>, host: JsValue) -> Command {
        Command {
            state: session(argv, &host::Host::new(host)),
        }
    }

    /// What the command printed without checking anything (help, the
    /// version, a usage error, the rule list...), or `undefined` when it
    /// checks [`Command::inputs`].
    pub fn done(&self) -> Option<Exit> {
        self.state.as_ref().err().map(|o| Exit(o.clone()))
    }

    /// The inputs the caller reads, in order: `{path, stdin}` (`stdin`:
    /// `-`, read with [`Command::begin_stdin`]); the files a walk found
    /// unreadable are not among them (the command records them).
    pub fn inputs(&self) -> Vec<JsValue> {
        let Ok(s) = &self.state else {
            return Vec::new();
        };
        s.inputs
            .iter()
            .filter_map(|i| {
                let (path, stdin) = match i {
                    Ok(idx_report::check::Source::File(p)) => {
                        (p.to_string_lossy().into_owned(), false)
                    }
                    Ok(idx_report::check::Source::Stdin) => ("-".to_string(), true),
                    Err(_) => return None,
                };
                let o = Object::new();
                let _ = Reflect::set(&o, &"path".into(), &path.into());
                let _ = Reflect::set(&o, &"stdin".into(), &stdin.into());
                Some(o.into())
            })
            .collect()
    }

    /// Checks the input `name` of `size` bytes, read through
    /// `readAt(offset, target: Uint8Array) -> number`.
    #[wasm_bindgen(js_name = checkSource)]
    pub fn check_source(
        &mut self,
        name: &str,
        size: f64,
        read_at: Function,
    ) -> Result<(), JsError> {
        let len = length(size)?;
        if let Ok(s) = &mut self.state {
            s.advance()
                .check(name, JsSource::new(read_at, len), Some(len));
        }
        Ok(())
    }

    /// Records an input that could not be read (`why`, as the native
    /// command words the system's error).
    pub fn unreadable(&mut self, name: &str, why: &str) {
        if let Ok(s) = &mut self.state {
            s.advance().unreadable(name, why);
        }
    }

    /// Starts standard input (`-`), whose bytes come in chunks
    /// ([`Command::push`], then [`Command::end`]).
    #[wasm_bindgen(js_name = beginStdin)]
    pub fn begin_stdin(&mut self) {
        if let Ok(s) = &mut self.state {
            s.advance().begin_stdin();
        }
    }

    /// The next chunk of standard input.
    pub fn push(&mut self, chunk: &[u8]) {
        if let Ok(s) = &mut self.state {
            s.run.push(chunk);
        }
    }

    /// Ends standard input.
    pub fn end(&mut self) {
        if let Ok(s) = &mut self.state {
            s.run.end();
        }
    }

    /// What the command prints and exits with once every input is checked.
    pub fn finish(&mut self) -> Exit {
        match &mut self.state {
            Ok(s) => {
                s.skip_unreadable();
                let mut out = s.run.output_walked(&s.walked, &s.empty);
                let mut stderr = s.messages.clone().into_bytes();
                stderr.append(&mut out.stderr);
                out.stderr = stderr;
                Exit(out)
            }
            Err(out) => Exit(out.clone()),
        }
    }
}

/// The spec's text of a rule (by code or name), as `idx-validate --explain`.
#[wasm_bindgen]
pub fn explain(rule: &str) -> Option<String> {
    idx_report::explain(rule)
}

/// The address of a rule's page in the documentation (by code or name),
/// as `idx-validate --explain` ends with it.
#[wasm_bindgen(js_name = ruleUrl)]
pub fn rule_url(rule: &str) -> Option<String> {
    idx::Rule::find(rule).map(idx_report::rule_url)
}

/// The rule table, as `idx-validate --list-rules`.
#[wasm_bindgen(js_name = listRules)]
pub fn list_rules() -> String {
    idx_validate::help::list_rules()
}

/// Every rule as JSON: `[{"code", "name", "severity", "title"}]`.
#[wasm_bindgen]
pub fn rules() -> String {
    let all: Vec<serde_json::Value> = idx::Rule::ALL
        .iter()
        .map(|r| {
            serde_json::json!({
                "code": r.code(),
                "name": r.name(),
                "severity": r.severity().as_str(),
                "title": r.title(),
            })
        })
        .collect();
    serde_json::Value::Array(all).to_string()
}

/// The version of the library (and of `idx-validate`).
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").into()
}

/// Repairs the input `name` of `size` bytes (read through `readAt`) with
/// the safe fixes, as `idx-validate --fix` does with the run's `options`
/// (the JSON of [`Checker::new`]; `undefined` for the defaults): the same
/// checks, and `assumeByteOrder` as `--assume-byte-order`. The repaired
/// stream is handed to `write(Uint8Array)` chunk by chunk (gzip input is
/// compressed again). Returns the repair as the JSON report's `repair`
/// object, with `"action": "written"` when anything was fixed and
/// `"unchanged"` (nothing useful written) otherwise.
#[wasm_bindgen]
pub fn repair(
    name: &str,
    size: f64,
    read_at: Function,
    write: Function,
    options: Option<String>,
) -> Result<String, JsError> {
    let len = length(size)?;
    let run = options::parse(options.as_deref().unwrap_or("{}")).map_err(|e| JsError::new(&e))?;
    let opts = run.checks.fix_options(std::path::Path::new(name));
    let report = idx::repair(JsSource::new(read_at, len), JsSink::new(write), &opts)
        .map_err(|e| JsError::new(&e.to_string()))?;
    let action = if report.changed() {
        idx_report::repair::Action::WrittenTo(name.into())
    } else {
        idx_report::repair::Action::Unchanged
    };
    let rep = idx_report::repair::Repair::from_report(&report, action);
    Ok(idx_report::render::json::repair(&rep).to_string())
}

/// The first `maxItems` items of an image file (`size` bytes read through
/// `readAt`) as grey pixels: `{width, height, count, pixels: Uint8Array}`,
/// or `undefined` when the file holds no pictures. The file is read as
/// `idx show` reads it, with the run's `options` (the JSON of
/// [`Checker::new`]; `undefined` for the defaults): validated by the
/// library with the options its checks use (`maxDecompressed`,
/// `noDecompress`, `assumeByteOrder`, the severities), then its payload
/// read, so a file the library finds an error in has no picture, even one
/// the run's `select`/`ignore` hide (see [`picture::read`]). The whole
/// input is validated again for it (a gzip file decompressed a second time),
/// as `idx show` does.
#[wasm_bindgen]
pub fn picture(
    size: f64,
    read_at: Function,
    max_items: u32,
    options: Option<String>,
) -> Result<JsValue, JsError> {
    let len = length(size)?;
    let run = options::parse(options.as_deref().unwrap_or("{}")).map_err(|e| JsError::new(&e))?;
    let opened = || JsSource::new(read_at.clone(), len);
    let Some(p) = picture::read(opened, len, max_items, &run.read_options())
        .map_err(|e| JsError::new(&e.to_string()))?
    else {
        return Ok(JsValue::UNDEFINED);
    };
    let o = Object::new();
    let set = |k: &str, v: JsValue| Reflect::set(&o, &JsValue::from_str(k), &v).map(|_| ());
    set("width", p.width.into())
        .and_then(|()| set("height", p.height.into()))
        .and_then(|()| set("count", p.count.into()))
        .and_then(|()| set("pixels", Uint8Array::from(&p.pixels[..]).into()))
        .map_err(|_| JsError::new("cannot build the picture object"))?;
    Ok(o.into())
}

/// The conformance runner's reader (protocol 2), as the reference's
/// `idx dump --error-document`: the input `name` of `size` bytes (read
/// through `readAt`; gzip decompressed) validated by the library; when it
/// is well formed, its content JSON is handed to `write(Uint8Array)` in
/// pieces and 0 returned; otherwise the error document (its first error's
/// rule, offset and message) is handed to `write` and 1 returned.
#[wasm_bindgen(js_name = dumpContent)]
pub fn dump_content(
    name: &str,
    size: f64,
    read_at: Function,
    write: Function,
) -> Result<u8, JsError> {
    use std::io::{Read, Seek, SeekFrom, Write};
    let len = length(size)?;
    let io = |e: std::io::Error| JsError::new(&format!("{name}: {e}"));
    let mut opts = idx::ReadOptions::default();
    opts.validate = opts.validate.with_lints(false).with_file_name(
        std::path::Path::new(name)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned()),
    );
    let mut src = JsSource::new(read_at, len);
    let (report, validated) = idx::Reader::validate(&mut src, Some(len), &opts).map_err(io)?;
    let mut out = std::io::BufWriter::with_capacity(256 * 1024, JsSink::new(write));
    let (Some(h), Some(v)) = (
        report.header.clone().filter(|_| report.is_valid()),
        validated,
    ) else {
        let e = report.errors().next();
        let doc = idx_content::protocol::error_document(
            e.map(|f| f.rule.code()),
            e.map(|f| f.offset),
            e.map_or("", |f| f.message.as_str()),
        );
        writeln!(out, "{doc}")
            .and_then(|()| out.flush())
            .map_err(io)?;
        return Ok(1);
    };
    src.seek(SeekFrom::Start(0)).map_err(io)?;
    let payload = v
        .payload(src)
        .map_err(|e| JsError::new(&format!("{name}: {e}")))?;
    let mut stream = std::io::Cursor::new(h.to_bytes()).chain(payload);
    idx_content::dump::dump(&mut stream, &h, &mut out)
        .and_then(|()| out.flush())
        .map_err(io)?;
    Ok(0)
}
