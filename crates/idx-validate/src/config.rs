//! Configuration files: `idx-validate.toml`, or `[tool.idx-validate]` in
//! `pyproject.toml`, found from the current directory upward (in each
//! directory `idx-validate.toml` wins over `pyproject.toml`; the nearest
//! directory holding either wins; `--config FILE` names one, `--isolated`
//! reads none). Command-line flags win over the file.
//!
//! An invalid file is an error naming the file, the line and the key.

use crate::check::{FileResult, Settings};
use globset::{Glob, GlobSet, GlobSetBuilder};
use idx::{ElementType, Rule};
use serde::Deserialize;
use std::ops::Range;
use std::path::{Path, PathBuf};
use toml::Spanned;

/// `LO..HI` (inclusive, integers, either may be negative): the range every
/// element of an integer payload lies in (`--expect-range`, spec 6.1).
pub fn parse_range(s: &str) -> Result<(i64, i64), String> {
    let bad = || format!("{s:?} is not a range LO..HI of integers (e.g. 0..1023)");
    let (lo, hi) = s.trim().split_once("..").ok_or_else(bad)?;
    let (lo, hi): (i64, i64) = (
        lo.trim().parse().map_err(|_| bad())?,
        hi.trim()
            .trim_start_matches('=')
            .parse()
            .map_err(|_| bad())?,
    );
    if lo > hi {
        return Err(format!("{s:?} is empty: LO is above HI"));
    }
    Ok((lo, hi))
}

/// An element type's name (`u8`, ..., `f64`): `--expect-dtype`, the
/// configuration's `expect-dtype` and the Python `expect_dtype=` (which
/// takes numpy's types and passes their IDX names).
///
/// # Errors
/// A name that is no element type's, as the command says it.
pub fn parse_dtype(s: &str) -> Result<ElementType, String> {
    ElementType::from_name(s).ok_or_else(|| {
        let names: Vec<&str> = ElementType::ALL.iter().map(|t| t.name()).collect();
        format!("unknown type {s:?}: one of {}", names.join(", "))
    })
}

/// The file name searched for.
pub const FILE_NAME: &str = "idx-validate.toml";

/// The keys of the configuration (also those of `[tool.idx-validate]`).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct Raw {
    select: Option<Vec<Spanned<String>>>,
    ignore: Option<Vec<Spanned<String>>>,
    deny_warnings: Option<bool>,
    max_findings: Option<usize>,
    exclude: Option<Vec<Spanned<String>>>,
    classes: Option<u32>,
    expect_dtype: Option<Spanned<String>>,
    expect_shape: Option<Spanned<String>>,
    max_decompressed: Option<Spanned<SizeValue>>,
    spec_url: Option<Spanned<String>>,
    fix: Option<bool>,
    unsafe_fixes: Option<bool>,
    severity: Option<Spanned<std::collections::BTreeMap<String, String>>>,
    expect_range: Option<Spanned<String>>,
    #[serde(default)]
    overrides: Vec<RawOverride>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
enum SizeValue {
    Int(u64),
    Text(String),
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawOverride {
    paths: Spanned<Vec<String>>,
    select: Option<Vec<Spanned<String>>>,
    ignore: Option<Vec<Spanned<String>>>,
    expect_dtype: Option<Spanned<String>>,
    expect_shape: Option<Spanned<String>>,
}

#[derive(Debug, Deserialize)]
struct Pyproject {
    tool: Option<Tool>,
}

#[derive(Debug, Deserialize)]
struct Tool {
    #[serde(rename = "idx-validate")]
    idx_validate: Option<Raw>,
}

/// Which rules a run reports: `select` (all when empty) minus `ignore`.
/// Entries are codes (`IDX203`), names (`trailing-bytes`) or code prefixes
/// (`IDX5`, a family).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RuleFilter {
    /// Only these (empty: every rule).
    pub select: Vec<String>,
    /// Never these.
    pub ignore: Vec<String>,
}

fn matches(entry: &str, r: Rule) -> bool {
    let e = entry.to_ascii_uppercase();
    r.name() == entry || r.code().starts_with(&e)
}

/// True when `entry` names at least one rule.
pub fn is_rule_selector(entry: &str) -> bool {
    let e = entry.to_ascii_uppercase();
    (e.starts_with("IDX") && e.len() >= 3 || Rule::find(entry).is_some())
        && Rule::ALL.iter().any(|&r| matches(entry, r))
}

/// An entry of `--select`/`--ignore` (or of the Python `select=`/`ignore=`),
/// checked: the entry itself when it names at least one rule, else the
/// command's error message.
///
/// # Errors
/// An entry that is no rule code, name or code prefix.
pub fn parse_rule_selector(entry: &str) -> Result<String, String> {
    if is_rule_selector(entry) {
        Ok(entry.to_string())
    } else {
        Err(format!(
            "{entry:?} is no rule code, name or code prefix (see --list-rules)"
        ))
    }
}

impl RuleFilter {
    /// True when findings of `r` are reported.
    pub fn allows(&self, r: Rule) -> bool {
        (self.select.is_empty() || self.select.iter().any(|s| matches(s, r)))
            && !self.ignore.iter().any(|s| matches(s, r))
    }
}

/// Settings for the files matching some globs.
#[derive(Debug, Clone)]
pub struct Override {
    /// The globs, as written.
    pub paths: Vec<String>,
    set: GlobSet,
    /// Replaces the run's `select`, if given.
    pub select: Option<Vec<String>>,
    /// Replaces the run's `ignore`, if given.
    pub ignore: Option<Vec<String>>,
    /// Replaces `expect-dtype`, if given.
    pub expect_dtype: Option<ElementType>,
    /// Replaces `expect-shape`, if given (`"*"` alone: any shape, no check).
    pub expect_shape: Option<Option<Vec<Option<u32>>>>,
}

impl Override {
    /// True when the override applies to `path` (as given or walked).
    pub fn applies(&self, path: &Path) -> bool {
        let s = path.to_string_lossy();
        self.set.is_match(s.trim_start_matches("./")) || self.set.is_match(path)
    }
}

/// A validated configuration.
#[derive(Debug, Clone, Default)]
pub struct Config {
    /// The file it came from.
    pub file: Option<PathBuf>,
    /// `select` and `ignore`.
    pub filter: RuleFilter,
    /// `deny-warnings`.
    pub deny_warnings: Option<bool>,
    /// `max-findings`.
    pub max_findings: Option<usize>,
    /// `exclude` globs for walks.
    pub exclude: Vec<String>,
    /// `classes`.
    pub classes: Option<u32>,
    /// `expect-dtype`.
    pub expect_dtype: Option<ElementType>,
    /// `expect-shape`.
    pub expect_shape: Option<Vec<Option<u32>>>,
    /// `max-decompressed` (bytes).
    pub max_decompressed: Option<u64>,
    /// `spec-url`: the absolute URL of `spec/idx.md`.
    pub spec_url: Option<String>,
    /// `[[overrides]]`, in file order (later ones win).
    pub overrides: Vec<Override>,
    /// `fix`: as `--fix` (repair files; see "Repairing files" in the documentation, docs/guide/fix.md).
    pub fix: Option<bool>,
    /// `unsafe-fixes`: as `--unsafe-fixes`.
    pub unsafe_fixes: Option<bool>,
    /// `severity = { IDX501 = "error" }`: as `--severity IDX501=error`.
    pub severity: idx::Severities,
    /// `expect-range = "LO..HI"`: as `--expect-range LO..HI`.
    pub expect_range: Option<(i64, i64)>,
}

impl Config {
    /// The settings and rule filter for one input: the run's, with every
    /// override whose globs match `path` applied in file order. Options the
    /// command line gave (`cli_dtype`, `cli_shape`) are not overridden.
    pub fn for_path(
        &self,
        path: Option<&Path>,
        base: &Settings,
        filter: &RuleFilter,
        cli_dtype: bool,
        cli_shape: bool,
    ) -> (Settings, RuleFilter) {
        let mut s = base.clone();
        let mut f = filter.clone();
        let Some(path) = path else { return (s, f) };
        for o in self.overrides.iter().filter(|o| o.applies(path)) {
            if let (Some(t), false) = (o.expect_dtype, cli_dtype) {
                s.options.expect_dtype = Some(t);
            }
            if let (Some(shape), false) = (&o.expect_shape, cli_shape) {
                s.options.expect_shape = shape.clone();
            }
            if let Some(sel) = &o.select {
                f.select = sel.clone();
            }
            if let Some(ign) = &o.ignore {
                f.ignore = ign.clone();
            }
        }
        (s, f)
    }
}

/// Drops the findings (and suppressed counts) of rules the filter does not
/// report.
pub fn filter_result(r: &mut FileResult, f: &RuleFilter) {
    if let Ok(c) = &mut r.outcome {
        c.report.findings.retain(|x| f.allows(x.rule));
        c.suppressed.retain(|rule, _| f.allows(*rule));
    }
}

/// Where configuration files are read from: the file system for the
/// binary ([`FileSystem`]); a front end's callbacks where the command runs
/// without one (the npm command in WebAssembly), so that the discovery and
/// the parse stay this module's.
pub trait ConfigFiles {
    /// The current directory, where discovery starts (`None`: no discovery).
    fn current_dir(&self) -> Option<PathBuf>;
    /// True when `path` is a regular file (symbolic links followed).
    fn is_file(&self, path: &Path) -> bool;
    /// The text of the file at `path`.
    ///
    /// # Errors
    /// As `std::fs::read_to_string`'s (their message is reported).
    fn read_to_string(&self, path: &Path) -> std::io::Result<String>;
}

/// The process's file system and current directory.
#[derive(Debug, Clone, Copy, Default)]
pub struct FileSystem;

impl ConfigFiles for FileSystem {
    fn current_dir(&self) -> Option<PathBuf> {
        std::env::current_dir().ok()
    }
    fn is_file(&self, path: &Path) -> bool {
        path.is_file()
    }
    fn read_to_string(&self, path: &Path) -> std::io::Result<String> {
        std::fs::read_to_string(path)
    }
}

/// Finds the configuration file for `start` (the current directory):
/// `idx-validate.toml`, or a `pyproject.toml` holding `[tool.idx-validate]`,
/// in `start` or its nearest ancestor holding one.
pub fn discover(start: &Path) -> Option<PathBuf> {
    discover_in(start, &FileSystem)
}

/// [`discover`], reading through `files`.
pub fn discover_in(start: &Path, files: &dyn ConfigFiles) -> Option<PathBuf> {
    for dir in start.ancestors() {
        let own = dir.join(FILE_NAME);
        if files.is_file(&own) {
            return Some(own);
        }
        let py = dir.join("pyproject.toml");
        if let Ok(text) = files.read_to_string(&py) {
            // The table counts when it is there, valid or not: an invalid
            // table is found, so that `load` reports it (exit 2) instead of
            // the run going on without the configuration. A file that is
            // not TOML at all counts when it names the table.
            let has_table = match toml::from_str::<toml::Table>(&text) {
                Ok(t) => t
                    .get("tool")
                    .and_then(toml::Value::as_table)
                    .is_some_and(|t| t.contains_key("idx-validate")),
                Err(_) => text.contains("idx-validate"),
            };
            if has_table {
                return Some(py);
            }
        }
    }
    None
}

/// Reads and validates a configuration file.
///
/// # Errors
/// A message naming the file, the line and the key (or the I/O error).
pub fn load(path: &Path) -> Result<Config, String> {
    load_in(path, &FileSystem)
}

/// [`load`], reading through `files`.
///
/// # Errors
/// As [`load`].
pub fn load_in(path: &Path, files: &dyn ConfigFiles) -> Result<Config, String> {
    let text = files
        .read_to_string(path)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let is_pyproject = path.file_name().is_some_and(|n| n == "pyproject.toml");
    let raw = if is_pyproject {
        toml::from_str::<Pyproject>(&text)
            .map_err(|e| located(path, &text, e.span(), e.message()))?
            .tool
            .and_then(|t| t.idx_validate)
            .unwrap_or_default()
    } else {
        toml::from_str::<Raw>(&text).map_err(|e| located(path, &text, e.span(), e.message()))?
    };
    let err = |span: Range<usize>, msg: String| located(path, &text, Some(span), &msg);
    let rules = |list: &Option<Vec<Spanned<String>>>| -> Result<Option<Vec<String>>, String> {
        let Some(list) = list else { return Ok(None) };
        let mut out = Vec::new();
        for s in list {
            if !is_rule_selector(s.get_ref()) {
                return Err(err(
                    s.span(),
                    format!(
                        "{:?} is no rule code, name or code prefix (see --list-rules)",
                        s.get_ref()
                    ),
                ));
            }
            out.push(s.get_ref().clone());
        }
        Ok(Some(out))
    };
    let dtype = |v: &Option<Spanned<String>>| -> Result<Option<ElementType>, String> {
        let Some(v) = v else { return Ok(None) };
        parse_dtype(v.get_ref())
            .map(Some)
            .map_err(|e| err(v.span(), e))
    };
    let shape = |v: &Option<Spanned<String>>| -> Result<Option<Option<Vec<Option<u32>>>>, String> {
        let Some(v) = v else { return Ok(None) };
        if v.get_ref().trim() == "*" {
            return Ok(Some(None));
        }
        crate::parse_shape(v.get_ref())
            .map(|s| Some(Some(s.0)))
            .map_err(|e| err(v.span(), e))
    };
    let mut exclude = Vec::new();
    for g in raw.exclude.iter().flatten() {
        Glob::new(g.get_ref()).map_err(|e| err(g.span(), e.kind().to_string()))?;
        exclude.push(g.get_ref().clone());
    }
    let max_decompressed = match &raw.max_decompressed {
        None => None,
        Some(v) => Some(match v.get_ref() {
            SizeValue::Int(n) => *n,
            SizeValue::Text(t) => idx_io::size::parse_size(t).map_err(|e| err(v.span(), e))?,
        }),
    };
    let mut overrides = Vec::new();
    for o in &raw.overrides {
        let mut b = GlobSetBuilder::new();
        for g in o.paths.get_ref() {
            b.add(Glob::new(g).map_err(|e| err(o.paths.span(), format!("{g:?}: {}", e.kind())))?);
        }
        overrides.push(Override {
            paths: o.paths.get_ref().clone(),
            set: b.build().map_err(|e| err(o.paths.span(), e.to_string()))?,
            select: rules(&o.select)?,
            ignore: rules(&o.ignore)?,
            expect_dtype: dtype(&o.expect_dtype)?,
            expect_shape: shape(&o.expect_shape)?,
        });
    }
    Ok(Config {
        file: Some(path.to_path_buf()),
        filter: RuleFilter {
            select: rules(&raw.select)?.unwrap_or_default(),
            ignore: rules(&raw.ignore)?.unwrap_or_default(),
        },
        deny_warnings: raw.deny_warnings,
        severity: match &raw.severity {
            None => idx::Severities::default(),
            Some(m) => idx::Severities::from_pairs(
                m.get_ref().iter().map(|(k, v)| (k.as_str(), v.as_str())),
            )
            .map_err(|e| err(m.span(), e))?,
        },
        expect_range: match &raw.expect_range {
            None => None,
            Some(r) => Some(parse_range(r.get_ref()).map_err(|e| err(r.span(), e))?),
        },
        fix: raw.fix,
        unsafe_fixes: raw.unsafe_fixes,
        max_findings: raw.max_findings,
        exclude,
        classes: raw.classes,
        expect_dtype: dtype(&raw.expect_dtype)?,
        expect_shape: shape(&raw.expect_shape)?.flatten(),
        max_decompressed,
        spec_url: match &raw.spec_url {
            None => None,
            Some(u) if u.get_ref().contains("://") => Some(u.get_ref().clone()),
            Some(u) => {
                return Err(err(
                    u.span(),
                    format!("{:?} is not an absolute URL", u.get_ref()),
                ))
            }
        },
        overrides,
    })
}

/// `FILE:LINE: key `K`: MESSAGE`, the key read from the line the span starts on.
fn located(path: &Path, text: &str, span: Option<Range<usize>>, msg: &str) -> String {
    let Some(span) = span else {
        return format!("{}: {msg}", path.display());
    };
    let start = span.start.min(text.len());
    let line_no = text[..start].bytes().filter(|&b| b == b'\n').count() + 1;
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let line = text[line_start..].lines().next().unwrap_or("");
    let key = line
        .split_once('=')
        .map(|(k, _)| k.trim().trim_matches('"').to_string())
        .filter(|k| !k.is_empty() && !k.starts_with('['));
    let msg = msg.trim().trim_end_matches('\n');
    match key {
        Some(k) => format!("{}:{line_no}: key `{k}`: {msg}", path.display()),
        None => format!("{}:{line_no}: {msg}", path.display()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load_str(name: &str, text: &str) -> Result<Config, String> {
        let d = tempfile::tempdir().unwrap(); // ok: unit test
        let p = d.path().join(name);
        std::fs::write(&p, text).unwrap(); // ok: unit test
        load(&p).map_err(|e| e.replace(&d.path().display().to_string(), "DIR"))
    }

    #[test]
    fn errors_name_file_line_and_key() {
        let e = load_str(FILE_NAME, "deny-warnings = true\nmax-findings = \"ten\"\n").unwrap_err();
        assert!(
            e.starts_with("DIR/idx-validate.toml:2: key `max-findings`:"),
            "{e}"
        );
        let e = load_str(FILE_NAME, "\n\nselct = [\"IDX101\"]\n").unwrap_err();
        assert!(
            e.starts_with("DIR/idx-validate.toml:3: key `selct`: unknown field"),
            "{e}"
        );
        let e = load_str(FILE_NAME, "select = [\"IDX101\", \"IDX999\"]\n").unwrap_err();
        assert!(e.contains(":1: key `select`: \"IDX999\" is no rule"), "{e}");
        let e = load_str(
            "pyproject.toml",
            "[project]\nname = \"x\"\n\n[tool.idx-validate]\nexpect-dtype = \"u9\"\n",
        )
        .unwrap_err();
        assert!(
            e.starts_with("DIR/pyproject.toml:5: key `expect-dtype`: unknown type"),
            "{e}"
        );
        let e = load_str(
            FILE_NAME,
            "[[overrides]]\nexpect-shape = \"*,x\"\npaths = [\"a\"]\n",
        )
        .unwrap_err();
        assert!(
            e.starts_with("DIR/idx-validate.toml:2: key `expect-shape`: bad dimension"),
            "{e}"
        );
        let e = load_str(FILE_NAME, "max-decompressed = \"12 parsecs\"\n").unwrap_err();
        assert!(e.contains(":1: key `max-decompressed`:"), "{e}");
    }

    #[test]
    fn keys_are_read() {
        let c = load_str(
            FILE_NAME,
            r#"
select = ["IDX1", "IDX2", "trailing-bytes"]
ignore = ["IDX203"]
deny-warnings = true
max-findings = 3
exclude = ["old/**"]
classes = 10
max-decompressed = "1GiB"

[[overrides]]
paths = ["**/*labels*"]
expect-shape = "*"
"#,
        )
        .unwrap(); // ok: unit test
        assert!(c.filter.allows(Rule::ReservedBytes));
        assert!(!c.filter.allows(Rule::TrailingBytes));
        assert!(!c.filter.allows(Rule::RankZero));
        assert_eq!(c.max_findings, Some(3));
        assert_eq!(c.max_decompressed, Some(1 << 30));
        assert_eq!(c.overrides[0].expect_shape, Some(None));
        assert!(c.overrides[0].applies(Path::new("data/train-labels-idx1-ubyte.gz")));
        assert!(!c.overrides[0].applies(Path::new("data/train-images-idx3-ubyte.gz")));
    }

    #[test]
    fn an_invalid_discovered_table_is_found_so_that_it_fails() {
        let d = tempfile::tempdir().unwrap(); // ok: unit test
        let py = d.path().join("pyproject.toml");
        std::fs::write(&py, "[tool.idx-validate]\ndeny-warnings = \"yes\"\n").unwrap(); // ok: unit test
        assert_eq!(discover(d.path()), Some(py.clone()));
        let e = load(&py).unwrap_err(); // ok: unit test
        assert!(e.contains("pyproject.toml:2"), "{e}");
        std::fs::write(&py, "[tool.idx-validate\n").unwrap(); // ok: unit test
        assert_eq!(discover(d.path()), Some(py.clone()));
        assert!(load(&py).is_err());
        std::fs::write(&py, "[tool.black]\nline-length = 88\n").unwrap(); // ok: unit test
        assert_eq!(discover(d.path()), None);
    }

    #[test]
    fn discovery_prefers_the_own_file_and_the_nearest_directory() {
        let d = tempfile::tempdir().unwrap(); // ok: unit test
        let sub = d.path().join("a/b");
        std::fs::create_dir_all(&sub).unwrap(); // ok: unit test
        assert_eq!(discover(&sub), None);
        std::fs::write(
            d.path().join("pyproject.toml"),
            "[tool.idx-validate]\nclasses = 3\n",
        )
        .unwrap(); // ok: unit test
        assert_eq!(discover(&sub), Some(d.path().join("pyproject.toml")));
        // a pyproject.toml without the table does not count
        std::fs::write(
            d.path().join("a/pyproject.toml"),
            "[project]\nname = \"x\"\n",
        )
        .unwrap(); // ok: unit test
        assert_eq!(discover(&sub), Some(d.path().join("pyproject.toml")));
        std::fs::write(d.path().join(FILE_NAME), "").unwrap(); // ok: unit test
        assert_eq!(discover(&sub), Some(d.path().join(FILE_NAME)));
        std::fs::write(d.path().join("a").join(FILE_NAME), "").unwrap(); // ok: unit test
        assert_eq!(discover(&sub), Some(d.path().join("a").join(FILE_NAME)));
    }
}
