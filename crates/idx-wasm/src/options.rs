//! The options of a run, as JSON from JavaScript, turned into what the
//! command line builds from its flags: the same defaults and the same
//! parsers (`idx_io::size::parse_size`,
//! `idx_validate::config::parse_rule_selector`, `idx_validate::parse_shape`,
//! `idx::Severities`' parser, `idx_validate::config::parse_range`,
//! `idx::ByteOrder::from_name`).
//!
//! ```json
//! {"select": ["IDX2"], "ignore": ["IDX503"], "maxDecompressed": "4GiB",
//!  "maxFindings": 10, "denyWarnings": false, "classes": 10,
//!  "pairs": [["train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz"]],
//!  "expectDtype": "u8", "expectShape": "*,28,28",
//!  "severity": {"IDX501": "error"}, "assumeByteOrder": "little",
//!  "expectRange": "0..9"}
//! ```
//! Every key is optional; an unknown key is an error (a misspelt option
//! never silently weakens a check).
//!
//! `severity` is the configuration file's table (`severity = { IDX501 =
//! "error" }`) as an object, or `--severity`'s `CODE=SEVERITY` text
//! (comma-separated), or a list of such texts applied in order (as repeated
//! `--severity` flags). `assumeByteOrder` is `--assume-byte-order`
//! (`"little"` or `"big"`): the checks' stated byte order and the repair's;
//! `expectRange` is `--expect-range` (`"LO..HI"`).

use idx_validate::check::Settings;
use idx_validate::config::RuleFilter;
use idx_validate::dataset::DatasetSettings;
use serde_json::Value;
use std::path::PathBuf;

/// Everything a run needs besides its inputs.
#[derive(Debug, Clone)]
pub struct RunOptions {
    /// How each input is checked.
    pub settings: Settings,
    /// `select`/`ignore`.
    pub filter: RuleFilter,
    /// `classes`/`pairs`.
    pub dataset: DatasetSettings,
    /// Warnings fail the run.
    pub deny_warnings: bool,
    /// `assumeByteOrder`: the byte order the writer used, for the checks
    /// (already in `settings`) and for a repair (`idx::FixOptions`).
    pub assume_byte_order: Option<idx::ByteOrder>,
}

impl RunOptions {
    /// The repair's options, as `idx-validate --fix` builds them from the
    /// same flags: the safe fixes only, the stated byte order, and the
    /// checks' options (severity overrides, expected range...) for the
    /// input `name`.
    pub fn fix_options(&self, name: &str) -> idx::FixOptions {
        let path = std::path::Path::new(name);
        let mut opts = idx::FixOptions::default().with_assume_byte_order(self.assume_byte_order);
        opts.validate =
            idx_validate::dataset::scan_options(path, self.settings.options.clone(), &self.dataset);
        opts.validate.file_name = path.file_name().map(|n| n.to_string_lossy().into_owned());
        opts
    }
}

impl Default for RunOptions {
    fn default() -> Self {
        // ok: a constant, never user input; `parse` accepts the empty
        // object (every key is optional), as its unit tests show
        parse("{}").unwrap_or_else(|_| unreachable!("the empty options parse"))
    }
}

const KEYS: [&str; 12] = [
    "select",
    "ignore",
    "maxDecompressed",
    "maxFindings",
    "denyWarnings",
    "classes",
    "pairs",
    "expectDtype",
    "expectShape",
    "severity",
    "assumeByteOrder",
    "expectRange",
];

/// `severity`: `{"IDX501": "error"}` (the configuration file's table),
/// `"IDX501=error"` (`--severity`'s text) or a list of such texts (repeated
/// flags, applied in order by `idx_validate::resolve::severities`).
fn severities(v: &Value) -> Result<idx::Severities, String> {
    let parse = |s: &str| -> Result<idx::Severities, String> {
        s.parse().map_err(|e: String| format!("severity: {e}"))
    };
    let bad =
        || "severity: an object like {\"IDX501\": \"error\"}, or \"IDX501=error\"".to_string();
    match v.get("severity") {
        None | Some(Value::Null) => Ok(idx::Severities::default()),
        Some(Value::String(s)) => parse(s),
        Some(Value::Object(m)) => {
            // as the configuration file's table is read (config::load)
            let pairs = m
                .iter()
                .map(|(k, v)| v.as_str().map(|v| format!("{k}={v}")).ok_or_else(bad))
                .collect::<Result<Vec<_>, _>>()?;
            parse(&pairs.join(","))
        }
        Some(Value::Array(a)) => {
            let each = a
                .iter()
                .map(|x| x.as_str().ok_or_else(bad).and_then(parse))
                .collect::<Result<Vec<_>, _>>()?;
            Ok(idx_validate::resolve::severities(
                &idx::Severities::default(),
                &each,
            ))
        }
        Some(_) => Err(bad()),
    }
}

fn strings(v: &Value, key: &str) -> Result<Vec<String>, String> {
    match v.get(key) {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(a)) => a
            .iter()
            .map(|x| {
                x.as_str()
                    .map(str::to_string)
                    .ok_or_else(|| format!("{key}: a list of strings"))
            })
            .collect(),
        Some(_) => Err(format!("{key}: a list of strings")),
    }
}

fn u64_of(v: &Value, key: &str) -> Result<Option<u64>, String> {
    match v.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(x) => x
            .as_u64()
            .map(Some)
            .ok_or_else(|| format!("{key}: a whole number >= 0")),
    }
}

/// Parses the options (a JSON object).
///
/// # Errors
/// The message for a value the command line would refuse too, or an
/// unknown key.
pub fn parse(json: &str) -> Result<RunOptions, String> {
    let v: Value = serde_json::from_str(json).map_err(|e| format!("options: {e}"))?;
    let Value::Object(map) = &v else {
        return Err("options: a JSON object".into());
    };
    if let Some(k) = map.keys().find(|k| !KEYS.contains(&k.as_str())) {
        return Err(format!(
            "options: unknown key {k:?} (one of {})",
            KEYS.join(", ")
        ));
    }
    let selectors = |key| -> Result<Vec<String>, String> {
        strings(&v, key)?
            .iter()
            .map(|s| {
                idx_validate::config::parse_rule_selector(s).map_err(|e| format!("{key}: {e}"))
            })
            .collect()
    };
    let filter = RuleFilter {
        select: selectors("select")?,
        ignore: selectors("ignore")?,
    };
    let max_decompressed = match v.get("maxDecompressed") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => {
            Some(idx_io::size::parse_size(s).map_err(|e| format!("maxDecompressed: {e}"))?)
        }
        Some(_) => Some(
            u64_of(&v, "maxDecompressed")?.unwrap_or_default(), // present and not null
        ),
    };
    let expect_dtype = match v.get("expectDtype") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(
            idx::ElementType::from_name(s)
                .ok_or_else(|| format!("expectDtype {s:?}: one of u8, i8, i16, i32, f32, f64"))?,
        ),
        Some(_) => return Err("expectDtype: a string".into()),
    };
    let expect_shape = match v.get("expectShape") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(
            idx_validate::parse_shape(s)
                .map_err(|e| format!("expectShape: {e}"))?
                .0,
        ),
        Some(_) => return Err("expectShape: a string like \"*,28,28\"".into()),
    };
    let assume_byte_order = match v.get("assumeByteOrder") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(
            idx::ByteOrder::from_name(s)
                .ok_or_else(|| format!("assumeByteOrder {s:?}: \"little\" or \"big\""))?,
        ),
        Some(_) => return Err("assumeByteOrder: \"little\" or \"big\"".into()),
    };
    let expect_range = match v.get("expectRange") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => {
            Some(idx_validate::config::parse_range(s).map_err(|e| format!("expectRange: {e}"))?)
        }
        Some(_) => return Err("expectRange: a string like \"0..1023\"".into()),
    };
    let severity = severities(&v)?;
    let max_findings = u64_of(&v, "maxFindings")?.unwrap_or(10);
    let settings = Settings {
        options: idx::Options::default()
            .with_decompress(true)
            .with_limits(idx::Limits::from_setting(max_decompressed))
            // the one verdict (spec 6.1), as idx-validate builds it
            .with_byte_order(assume_byte_order)
            .with_severity(severity)
            .with_expect_range(expect_range)
            .with_expect_dtype(expect_dtype)
            .with_expect_shape(expect_shape),
        structure_only: false,
        max_findings: usize::try_from(max_findings).unwrap_or(usize::MAX),
    };
    let classes = match u64_of(&v, "classes")? {
        None => None,
        Some(n) => Some(u32::try_from(n).map_err(|_| "classes: at most 2^32 - 1".to_string())?),
    };
    let pairs = match v.get("pairs") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(a)) => a
            .iter()
            .map(|p| match p.as_array().map(Vec::as_slice) {
                Some([Value::String(i), Value::String(l)]) => {
                    Ok((PathBuf::from(i), PathBuf::from(l)))
                }
                _ => Err("pairs: a list of [images, labels] name pairs".to_string()),
            })
            .collect::<Result<_, _>>()?,
        Some(_) => return Err("pairs: a list of [images, labels] name pairs".into()),
    };
    let deny_warnings = match v.get("denyWarnings") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => return Err("denyWarnings: true or false".into()),
    };
    Ok(RunOptions {
        settings,
        filter,
        dataset: DatasetSettings { classes, pairs },
        deny_warnings,
        assume_byte_order,
    })
}

#[cfg(test)]
mod tests {
    use super::parse;

    #[test]
    fn defaults_are_the_command_lines() {
        let o = parse("{}").unwrap(); // ok: unit test
        assert_eq!(o.settings.max_findings, 10);
        assert!(o.settings.options.decompress);
        assert_eq!(
            o.settings.options.limits.max_decompressed,
            idx::Limits::default().max_decompressed
        );
        assert!(o.filter.select.is_empty() && o.filter.ignore.is_empty());
        assert!(!o.deny_warnings);
        assert_eq!(o.settings.options.byte_order, None);
        assert_eq!(o.settings.options.severity, idx::Severities::default());
        assert_eq!(o.settings.options.expect_range, None);
        assert_eq!(o.assume_byte_order, None);
    }

    #[test]
    fn byte_order_options_are_the_command_lines() {
        let want: idx::Severities = "IDX501=error".parse().unwrap(); // ok: unit test
        for json in [
            r#"{"severity":{"IDX501":"error"}}"#,
            r#"{"severity":{"likely-little-endian":"error"}}"#,
            r#"{"severity":"IDX501=error"}"#,
            r#"{"severity":["IDX501=warning","IDX501=error"]}"#,
        ] {
            let o = parse(json).unwrap(); // ok: unit test
            assert_eq!(o.settings.options.severity, want, "{json}");
        }
        let o = parse(r#"{"assumeByteOrder":"little","expectRange":"0..1023"}"#).unwrap(); // ok: unit test
        assert_eq!(o.settings.options.byte_order, Some(idx::ByteOrder::Little));
        assert_eq!(o.assume_byte_order, Some(idx::ByteOrder::Little));
        assert_eq!(o.settings.options.expect_range, Some((0, 1023)));
        let f = o.fix_options("dir/a.idx");
        assert_eq!(f.assume_byte_order, Some(idx::ByteOrder::Little));
        assert_eq!(f.validate.expect_range, Some((0, 1023)));
        assert_eq!(f.validate.file_name.as_deref(), Some("a.idx"));
        let o = parse(r#"{"assumeByteOrder":"big"}"#).unwrap(); // ok: unit test
        assert_eq!(o.settings.options.byte_order, Some(idx::ByteOrder::Big));
    }

    #[test]
    fn values_go_through_the_command_lines_parsers() {
        let o = parse(
            r#"{"select":["IDX2"],"ignore":["trailing-bytes"],"maxDecompressed":"1KiB",
                "maxFindings":0,"classes":10,"pairs":[["a","b"]],"denyWarnings":true,
                "expectDtype":"f32","expectShape":"*,28,28"}"#,
        )
        .unwrap(); // ok: unit test
        assert_eq!(o.settings.options.limits.max_decompressed, Some(1024));
        assert_eq!(o.settings.max_findings, 0);
        assert_eq!(o.dataset.classes, Some(10));
        assert_eq!(o.dataset.pairs.len(), 1);
        assert!(o.deny_warnings);
        assert_eq!(o.settings.options.expect_dtype, Some(idx::ElementType::F32));
        // 0 means no limit, as on the command line
        let o = parse(r#"{"maxDecompressed":0}"#).unwrap(); // ok: unit test
        assert_eq!(o.settings.options.limits.max_decompressed, None);
    }

    #[test]
    fn the_pages_repair_has_the_limit_of_its_check() {
        // a repair is read within the same limit as the check, the
        // library's default when none is given
        let o = parse("{}").unwrap(); // ok: unit test
        assert_eq!(
            o.fix_options("a.idx.gz").validate.limits,
            idx::Limits::default()
        );
        let o = parse(r#"{"maxDecompressed":"1KiB"}"#).unwrap(); // ok: unit test
        let f = o.fix_options("a.idx.gz");
        assert_eq!(f.validate.limits.max_decompressed, Some(1024));
        // a bomb repaired with them stops at the limit (IDX702)
        let mut raw = vec![0, 0, 8, 1, 0, 1, 0, 0];
        raw.resize(8 + (1 << 16), 0);
        let bomb = test_support::gzip_fast(&raw);
        let mut out = Vec::new();
        let r = idx::repair(std::io::Cursor::new(&bomb), &mut out, &f).unwrap(); // ok: unit test
        let first = r.before.errors().next().map(|e| (e.rule.code(), e.offset));
        assert_eq!(first, Some(("IDX702", 1024)));
        assert!(!r.changed() && out.len() <= bomb.len(), "never expanded");
    }

    #[test]
    fn what_the_command_line_refuses_is_refused() {
        for bad in [
            r#"{"select":["IDX9"]}"#,
            r#"{"select":"IDX2"}"#,
            r#"{"maxDecompressed":"lots"}"#,
            r#"{"expectDtype":"u16"}"#,
            r#"{"expectShape":"a,b"}"#,
            r#"{"pairs":[["a"]]}"#,
            r#"{"severity":{"IDX501":"fatal"}}"#,
            r#"{"severity":"IDX101=warning"}"#,
            r#"{"severity":{"IDX501":1}}"#,
            r#"{"severity":7}"#,
            r#"{"assumeByteOrder":"middle"}"#,
            r#"{"assumeByteOrder":true}"#,
            r#"{"expectRange":"9..0"}"#,
            r#"{"expectRange":[0,9]}"#,
            r#"{"selct":["IDX2"]}"#,
            r#"[]"#,
            "not json",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }
}
