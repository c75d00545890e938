//! One run over several inputs, as one `idx-validate` invocation: each
//! input checked by `idx_validate::check::check_reader` (the command's own
//! path: gzip by its magic, the decompression limit, findings capped per
//! rule), then the dataset rules over all of them
//! (`idx_validate::dataset::apply`) and `select`/`ignore`
//! (`idx_validate::config::filter_result`), in the command's order; then
//! rendered by `idx-report`. Pure Rust over `Read`: the JavaScript sources
//! are in `source`.

use crate::options::RunOptions;
use idx_report::check::{cap, FileResult, Source};
use idx_validate::check::check_reader;
use idx_validate::{FormatName, Output};
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

/// An input fed in chunks (a stream whose bytes arrive one piece at a
/// time): each chunk goes into the library's `idx::Validator` as it comes,
/// plain IDX or gzip alike (the validator recognises gzip and decompresses
/// it within the limit itself), so memory stays bounded either way.
type Pushed = Box<idx::Validator>;

/// What the `human` report says of one input besides its findings
/// ([`Run::file_texts`]), each without its line feed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileTexts {
    /// Its verdict line, `PATH: OK u8 [10]`.
    pub verdict_line: String,
    /// The same line in its parts (path, tag, what follows the tag).
    pub verdict: idx_report::render::human::Verdict,
    /// `error: cannot read PATH: WHY`, for an unreadable input.
    pub unreadable: Option<String>,
    /// `note: N more RULE findings in PATH not shown (raise
    /// --max-findings)`, one per rule the cap left findings of.
    pub suppressed: Vec<String>,
}

/// A run in progress.
#[derive(Debug)]
pub struct Run {
    options: RunOptions,
    results: Vec<FileResult>,
    /// The input being pushed: its path (`None`: standard input).
    pushed: Option<(Option<PathBuf>, Pushed)>,
    /// The output once the rules over all inputs are applied.
    finished: Option<Output>,
    /// The results with those rules applied (to a copy: applied to
    /// `results`, a later input and a second report would add the
    /// dataset findings again).
    reported: Vec<FileResult>,
}

impl Run {
    /// A run with these options.
    pub fn new(options: RunOptions) -> Self {
        Run {
            options,
            results: Vec::new(),
            pushed: None,
            finished: None,
            reported: Vec::new(),
        }
    }

    /// The settings for the input named `name`: the labels of a dataset
    /// have their values scanned in the same pass
    /// (`idx_validate::dataset::scan_options`).
    fn settings_for(&self, name: &Path) -> idx_validate::check::Settings {
        self.options.checks.for_input(Some(name)).0
    }

    /// Each input's rule filter, in input order.
    fn filters(&self) -> Vec<idx_validate::config::RuleFilter> {
        self.results
            .iter()
            .map(|r| match &r.source {
                Source::File(p) => self.options.checks.for_input(Some(p)).1,
                Source::Stdin => self.options.checks.for_input(None).1,
            })
            .collect()
    }

    /// Checks the input `name` read from `reader` (`len` bytes when
    /// known); returns its index. The rows of the excerpts the report did
    /// not keep are read from `reader` afterwards, at their offsets (what
    /// the command reads from the file when it renders).
    pub fn check<R: Read + Seek>(&mut self, name: &str, mut reader: R, len: Option<u64>) -> usize {
        let path = PathBuf::from(name);
        let settings = self.settings_for(&path);
        let mut result = check_reader(Source::File(path), &mut reader, len, &settings);
        if let Ok(c) = &mut result.outcome {
            for row in idx_report::check::excerpt_rows(c) {
                let want = c.report.stream_len.saturating_sub(row).min(16) as usize;
                let mut bytes = vec![0u8; want];
                let read = reader
                    .seek(SeekFrom::Start(row))
                    .and_then(|_| reader.read_exact(&mut bytes));
                if read.is_ok() {
                    c.excerpts.insert(row, bytes);
                }
            }
        }
        self.results.push(result);
        self.finished = None;
        self.results.len() - 1
    }

    /// Records an input that could not be read at all (a missing file),
    /// as the command does: `unreadable`, with the reason. An input being
    /// pushed ([`Run::begin`]) is dropped: it is this one, whose reading
    /// failed part way.
    pub fn unreadable(&mut self, name: &str, why: &str) -> usize {
        self.pushed = None;
        self.results.push(FileResult {
            source: Source::File(PathBuf::from(name)),
            outcome: Err(why.to_string()),
        });
        self.finished = None;
        self.results.len() - 1
    }

    /// Starts an input fed with [`Run::push`], ended by [`Run::end`].
    pub fn begin(&mut self, name: &str) {
        let path = PathBuf::from(name);
        let mut opts = self.settings_for(&path).options;
        opts.file_name = path.file_name().map(|n| n.to_string_lossy().into_owned());
        self.pushed = Some((Some(path), Box::new(idx::Validator::new(opts))));
    }

    /// Starts standard input, fed with [`Run::push`], ended by
    /// [`Run::end`]: checked as the command checks it (no file name, no
    /// per-path override).
    pub fn begin_stdin(&mut self) {
        let opts = self.options.checks.for_input(None).0.options;
        self.pushed = Some((None, Box::new(idx::Validator::new(opts))));
    }

    /// The next bytes of the input started by [`Run::begin`].
    pub fn push(&mut self, chunk: &[u8]) {
        if let Some((_, v)) = &mut self.pushed {
            v.feed(chunk);
        }
    }

    /// Ends the input started by [`Run::begin`]; returns its index.
    pub fn end(&mut self) -> Option<usize> {
        let (path, v) = self.pushed.take()?;
        let settings = self.options.checks.for_input(path.as_deref()).0;
        self.results.push(FileResult {
            source: path.map_or(Source::Stdin, Source::File),
            outcome: Ok(cap(v.finish(), settings.max_findings)),
        });
        self.finished = None;
        Some(self.results.len() - 1)
    }

    /// The rows of the excerpts of input `index` that its report did not
    /// keep and that were not read yet ([`idx_report::check::excerpt_rows`]):
    /// for an input pushed in chunks, whose source the run cannot read
    /// again, the front end reads them and gives them to
    /// [`Run::add_excerpt`].
    pub fn excerpt_rows(&self, index: usize) -> Vec<u64> {
        match self.results.get(index).map(|r| &r.outcome) {
            Some(Ok(c)) => idx_report::check::excerpt_rows(c)
                .into_iter()
                .filter(|row| !c.excerpts.contains_key(row))
                .collect(),
            _ => Vec::new(),
        }
    }

    /// The bytes of the stream of input `index` at `row` (one of
    /// [`Run::excerpt_rows`]; at most 16 are kept).
    pub fn add_excerpt(&mut self, index: usize, row: u64, bytes: &[u8]) {
        if let Some(Ok(c)) = self.results.get_mut(index).map(|r| &mut r.outcome) {
            c.excerpts
                .insert(row, bytes[..bytes.len().min(16)].to_vec());
            self.finished = None;
        }
    }

    /// Applies the rules over all inputs (the dataset rules, then
    /// `select`/`ignore`), once, as the command does after checking
    /// (`idx_validate::Args::report`), and keeps what it reported.
    fn finish(&mut self) -> &Output {
        let out = match self.finished.take() {
            Some(out) => out,
            None => {
                let filters = self.filters();
                let mut reported = self.results.clone();
                let out = self.options.args.report(
                    &self.options.checks,
                    &mut reported,
                    &filters,
                    &[],
                    &[],
                );
                self.reported = reported;
                out
            }
        };
        self.finished.insert(out)
    }

    /// The inputs the options name (`idx_validate::Args::inputs`).
    pub fn inputs(&self) -> Vec<PathBuf> {
        self.options.args.inputs()
    }

    /// The results so far, with the rules over all inputs applied.
    pub fn results(&mut self) -> &[FileResult] {
        self.finish();
        &self.reported
    }

    /// What the command prints and exits with for the inputs so far: the
    /// report in the options' `--format`, the notes, the exit status.
    pub fn output(&mut self) -> Output {
        self.finish().clone()
    }

    /// [`Run::output`] of a run whose inputs at `walked` were found by
    /// walking a directory and whose directories `empty` held no IDX file:
    /// the dataset rules and the exit status see them as the command does.
    pub fn output_walked(&mut self, walked: &[usize], empty: &[String]) -> Output {
        let filters = self.filters();
        let mut reported = self.results.clone();
        let out =
            self.options
                .args
                .report(&self.options.checks, &mut reported, &filters, walked, empty);
        self.reported = reported;
        self.finished = Some(out.clone());
        out
    }

    /// The report in a format of the command (`human`, `json`, `sarif`, ...).
    ///
    /// # Errors
    /// An unknown format.
    pub fn render(&mut self, format: &str) -> Result<String, String> {
        let format: FormatName = format.parse()?;
        self.finish();
        Ok(idx_validate::render_results(
            format,
            false,
            &self.reported,
            &self.options.checks.ctx,
            &[],
        ))
    }

    /// Each finding of input `index`, in order, as the report in the
    /// `human` format shows it (`idx_report::render::human::findings`,
    /// the rules over all inputs applied): the text of a finding on the
    /// page. Nothing for an index out of range or an unreadable input.
    pub fn finding_texts(&mut self, index: usize) -> Vec<String> {
        self.finish();
        self.reported
            .get(index)
            .map(|r| idx_report::render::human::findings(r, &self.options.checks.ctx))
            .unwrap_or_default()
    }

    /// What the `human` report says of input `index` besides its findings
    /// (`idx_report::render::human`'s [`verdict`], [`unreadable`] and
    /// [`suppressed`], the rules over all inputs applied): the page shows
    /// these in a file's card. `None` for an index out of range.
    ///
    /// [`verdict`]: idx_report::render::human::verdict
    /// [`unreadable`]: idx_report::render::human::unreadable
    /// [`suppressed`]: idx_report::render::human::suppressed
    pub fn file_texts(&mut self, index: usize) -> Option<FileTexts> {
        self.finish();
        let ctx = &self.options.checks.ctx;
        self.reported.get(index).map(|r| {
            let verdict = idx_report::render::human::verdict(r, ctx);
            FileTexts {
                verdict_line: verdict.line(ctx.color),
                verdict,
                unreadable: idx_report::render::human::unreadable(r, ctx),
                suppressed: idx_report::render::human::suppressed(r),
            }
        })
    }

    /// The `human` report's last line for the inputs so far
    /// (`idx_report::render::human::summary`): `N files checked: ...`.
    pub fn summary(&mut self) -> String {
        self.finish();
        idx_report::render::human::summary(&self.reported, &self.options.checks.ctx)
    }

    /// The command's exit status for these results: 0 valid, 1 invalid,
    /// 2 unreadable (`idx_validate::resolve::exit_status`).
    pub fn exit_status(&mut self) -> u8 {
        self.finish().status.code()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;
    use test_support::gzip_fast;

    fn mnist_labels() -> Vec<u8> {
        let mut b = vec![0, 0, 8, 1, 0, 0, 0, 10];
        b.extend(0..10u8);
        b
    }

    #[test]
    fn pushed_chunks_give_the_report_of_the_whole_input() {
        let mut bad = mnist_labels();
        bad.extend([7, 7, 7]); // trailing bytes
        let zipped = gzip_fast(&mnist_labels());
        let mut damaged = zipped.clone();
        let n = damaged.len();
        damaged[n - 6] ^= 0xff; // the CRC
        let cut = zipped[..zipped.len() - 3].to_vec();
        let mut padded = zipped.clone();
        padded.extend([0; 3]);
        let inputs = [
            mnist_labels(),
            bad,
            vec![0],
            vec![],
            vec![0x1f],
            vec![0x1f, 0],
            zipped,
            damaged,
            cut,
            padded,
        ];
        for input in inputs {
            let mut whole = Run::new(RunOptions::default());
            whole.check(
                "t10k-labels-idx1-ubyte",
                Cursor::new(&input[..]),
                Some(input.len() as u64),
            );
            for size in [1, 2, 5, 64] {
                let mut pushed = Run::new(RunOptions::default());
                pushed.begin("t10k-labels-idx1-ubyte");
                for c in input.chunks(size) {
                    pushed.push(c);
                }
                pushed.end();
                assert_eq!(
                    pushed.render("json").unwrap(), // ok: unit test
                    whole.render("json").unwrap(),  // ok: unit test
                    "{input:?} in chunks of {size}"
                );
            }
        }
    }

    #[test]
    fn a_pushed_gzip_bomb_stops_at_the_limit() {
        // 4 MiB of zeros under a u8 [4 Mi] header, compressed to a few KiB,
        // pushed in 1 KiB chunks against a 64 KiB limit: IDX702 at the limit
        let mut raw = vec![0, 0, 8, 1, 0, 0x40, 0, 0];
        raw.resize(8 + (4 << 20), 0);
        let bomb = gzip_fast(&raw);
        let opts = crate::options::parse(r#"{"maxDecompressed": "64KiB"}"#).unwrap(); // ok: unit test
        let mut run = Run::new(opts);
        run.begin("bomb.idx.gz");
        for c in bomb.chunks(1024) {
            run.push(c);
        }
        run.end();
        let json: serde_json::Value = serde_json::from_str(&run.render("json").unwrap()).unwrap(); // ok: unit test
        let text = json.to_string();
        assert!(text.contains("\"IDX702\""), "{text}");
        assert!(text.contains(&format!("\"offset\":{}", 64 << 10)), "{text}");
    }

    /// f32 [1000], element i = i / 1000 but for a NaN at element 500 (byte
    /// 2008): far from a report's kept head (1024 bytes) and tail (64).
    fn f32_with_a_nan_at_500() -> Vec<u8> {
        let mut b = vec![0, 0, 0x0D, 1, 0, 0, 0x03, 0xE8];
        for i in 0..1000u32 {
            let x: f32 = if i == 500 {
                f32::NAN
            } else {
                i as f32 / 1000.0
            };
            b.extend(x.to_be_bytes());
        }
        b
    }

    #[test]
    fn reporting_between_inputs_adds_the_dataset_findings_once() {
        // MNIST-named labels (10) and images (9): the dataset rules find
        // the counts unequal; a report after each input, then a third
        // input, and the pair's findings are the same as in one report
        let mut images = vec![0, 0, 8, 3, 0, 0, 0, 9, 0, 0, 0, 2, 0, 0, 0, 2];
        images.extend([1; 36]);
        let inputs = [
            ("t10k-labels-idx1-ubyte", mnist_labels()),
            ("t10k-images-idx3-ubyte", images),
            ("other.idx", mnist_labels()),
        ];
        let mut once = Run::new(RunOptions::default());
        for (name, b) in &inputs {
            once.check(name, Cursor::new(&b[..]), Some(b.len() as u64));
        }
        let mut often = Run::new(RunOptions::default());
        for (name, b) in &inputs {
            often.check(name, Cursor::new(&b[..]), Some(b.len() as u64));
            often.render("json").unwrap(); // ok: unit test
        }
        let want = once.render("json").unwrap(); // ok: unit test
        assert!(want.contains("IDX8"), "{want}");
        assert_eq!(often.render("json").unwrap(), want); // ok: unit test
    }

    #[test]
    fn excerpts_beyond_the_kept_bytes_are_read_from_the_source() {
        // f32 [1000] with a NaN at element 500 (byte 2008): far from the
        // report's kept head (1024 bytes) and tail (64)
        let b = f32_with_a_nan_at_500();
        let mut r = Run::new(RunOptions::default());
        r.check("a.idx", Cursor::new(&b[..]), Some(b.len() as u64));
        let human = r.render("human").unwrap(); // ok: unit test
        assert!(human.contains("000007d0  "), "{human}");
        assert!(!human.contains("bytes not shown"), "{human}");
    }

    #[test]
    fn a_pushed_input_takes_its_excerpts_from_the_front_end() {
        let b = f32_with_a_nan_at_500();
        let mut whole = Run::new(RunOptions::default());
        whole.check("a.idx", Cursor::new(&b[..]), Some(b.len() as u64));
        let mut r = Run::new(RunOptions::default());
        r.begin("a.idx");
        for c in b.chunks(100) {
            r.push(c);
        }
        let i = r.end().unwrap(); // ok: unit test
        assert_eq!(r.excerpt_rows(i), [0x7d0]);
        r.add_excerpt(i, 0x7d0, &b[0x7d0..0x7e0]);
        assert!(r.excerpt_rows(i).is_empty());
        assert_eq!(r.render("human").unwrap(), whole.render("human").unwrap()); // ok: unit test
    }

    #[test]
    fn each_findings_text_is_its_block_of_the_human_report() {
        let b = f32_with_a_nan_at_500();
        let mut r = Run::new(RunOptions::default());
        r.check("a.idx", Cursor::new(&b[..]), Some(b.len() as u64));
        r.check("b.idx", Cursor::new([0u8, 0, 9, 1, 0, 0, 0, 1, 7, 7]), None);
        let human = r.render("human").unwrap(); // ok: unit test
        let mut blocks = Vec::new();
        for i in 0..2 {
            let texts = r.finding_texts(i);
            assert!(!texts.is_empty(), "input {i}: no finding");
            let all: String = texts.iter().map(|t| format!("{t}\n")).collect();
            assert!(human.contains(&all), "{all}\n---\n{human}");
            blocks.extend(texts);
        }
        for t in &blocks {
            let first = t.lines().next().unwrap_or_default();
            assert!(
                ["error[", "warning[", "info["]
                    .iter()
                    .any(|s| first.starts_with(s)),
                "{t}"
            );
        }
        assert!(
            blocks.iter().any(|t| t.contains("000007d0  ")),
            "{blocks:?}"
        );
        assert!(r.finding_texts(2).is_empty());
    }

    #[test]
    fn the_human_report_is_the_texts_of_each_input_then_the_summary() {
        // valid, gzip, warnings beyond the cap (rank 12, every dimension
        // zero: 12 IDX302), invalid, unreadable: the report in the human
        // format is each input's texts in order, then the summary line
        let mut zeros = vec![0, 0, 8, 12];
        zeros.extend([0u8; 48]);
        let mut r = Run::new(RunOptions::default());
        r.check("a.idx", Cursor::new(mnist_labels()), None);
        r.check("b.idx.gz", Cursor::new(gzip_fast(&mnist_labels())), None);
        r.check("zeros.idx", Cursor::new(zeros), None);
        r.check(
            "bad.idx",
            Cursor::new([0u8, 0, 9, 1, 0, 0, 0, 1, 7, 7]),
            None,
        );
        r.unreadable("gone.idx", "no such file");
        let mut want = String::new();
        let mut texts = Vec::new();
        for i in 0..5 {
            let t = r.file_texts(i).unwrap(); // ok: unit test
            if let Some(u) = &t.unreadable {
                want.push_str(&format!("{u}\n\n"));
            }
            for f in r.finding_texts(i) {
                want.push_str(&format!("{f}\n"));
            }
            for n in &t.suppressed {
                want.push_str(&format!("{n}\n\n"));
            }
            let v = &t.verdict;
            assert_eq!(t.verdict_line, format!("{}: {}{}", v.path, v.tag, v.rest));
            want.push_str(&format!("{}\n", t.verdict_line));
            texts.push(t);
        }
        want.push_str(&format!("{}\n", r.summary()));
        assert_eq!(r.render("human").unwrap(), want); // ok: unit test
        assert!(r.file_texts(5).is_none());
        let lines: Vec<&str> = texts.iter().map(|t| t.verdict_line.as_str()).collect();
        assert_eq!(
            lines,
            [
                "a.idx: OK u8 [10]",
                "b.idx.gz: OK u8 [10] (gzip; offsets are in the decompressed stream)",
                "zeros.idx: OK u8 [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] (12 warnings)",
                "bad.idx: INVALID: 1 error",
                "gone.idx: UNREADABLE",
            ]
        );
        assert_eq!(
            texts[2].suppressed,
            ["note: 2 more IDX302 findings in zeros.idx not shown (raise --max-findings)"]
        );
        assert_eq!(
            texts[4].unreadable.as_deref(),
            Some("error: cannot read gone.idx: no such file")
        );
        assert!(texts[..4].iter().all(|t| t.unreadable.is_none()));
        assert_eq!(
            r.summary(),
            "5 files checked: 3 valid, 1 invalid, 1 unreadable; \
             1 more finding with an unsafe fix (--fix --unsafe-fixes)"
        );
    }

    #[test]
    fn pushed_standard_input_is_checked_as_the_command_checks_it() {
        // no file name (the name lints see none), named `<stdin>`, as
        // `idx_validate::check::check_reader` on `Source::Stdin`
        let mut bad = mnist_labels();
        bad.extend([7, 7]);
        let o = RunOptions::default();
        let settings = o.checks.for_input(None).0;
        let want = idx_report::render::json::render(
            &[check_reader(Source::Stdin, &bad[..], None, &settings)],
            &o.checks.ctx,
        );
        let mut r = Run::new(o);
        r.begin_stdin();
        for c in bad.chunks(3) {
            r.push(c);
        }
        r.end();
        let got = r.render("json").unwrap(); // ok: unit test
        assert!(got.contains("\"path\": \"<stdin>\""), "{got}");
        assert_eq!(got, want);
    }

    #[test]
    fn an_input_whose_reading_failed_part_way_is_unreadable_alone() {
        let mut r = Run::new(RunOptions::default());
        r.begin("a.idx");
        r.push(&mnist_labels()[..5]);
        assert_eq!(r.unreadable("a.idx", "not found"), 0);
        assert_eq!(r.end(), None);
        r.push(&[1, 2, 3]);
        assert_eq!(r.results().len(), 1);
        assert_eq!(r.exit_status(), 2);
    }

    #[test]
    fn the_exit_status_is_the_commands() {
        let mut r = Run::new(RunOptions::default());
        r.check("a.idx", Cursor::new(mnist_labels()), None);
        assert_eq!(r.exit_status(), 0);
        r.check("b.idx", Cursor::new([0u8, 0, 9]), None);
        assert_eq!(r.exit_status(), 1);
        r.unreadable("c.idx", "no such file");
        assert_eq!(r.exit_status(), 2);
        assert!(r.render("yaml").is_err());
    }
}
