//! The options of a run, as JSON from JavaScript: a view of the command's
//! flags, read by the command's own parser (`idx_validate::Args`) and
//! resolved by its own function (`idx_validate::Args::checks`), so every
//! name, value, default and error is the command line's.
//!
//! Each key is a flag's name, in camelCase or as the flag and the
//! configuration file spell it (`maxDecompressed` or `max-decompressed` is
//! `--max-decompressed`); its value is the flag's:
//!
//! ```json
//! {"select": ["IDX2"], "ignore": ["IDX503"], "maxDecompressed": "4GiB",
//!  "maxFindings": 10, "denyWarnings": true, "classes": 10,
//!  "pair": [["train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz"]],
//!  "expectDtype": "u8", "expectShape": "*,28,28",
//!  "severity": {"IDX501": "error"}, "assumeByteOrder": "little",
//!  "expectRange": "0..9"}
//! ```
//!
//! `true` gives a switch, `false` and `null` leave it out; a string or a
//! number is the flag's value; a list repeats the flag (`pair`: a list of
//! `[images, labels]`); an object gives `KEY=VALUE` values (`severity`, as
//! the configuration file's table). An unknown key is the command line's
//! unknown flag: an error (a misspelt option never silently weakens a
//! check). Flags that write files or read other files than the inputs
//! (`fix`, `diff`, `output`, `outputFile`, `config`) are refused.

use idx_validate::{Args, Checks};
use serde_json::Value;

/// Everything a run needs besides its inputs: the parsed flags and what
/// the command resolves them into.
#[derive(Debug)]
pub struct RunOptions {
    /// The flags, as the command parsed them.
    pub args: Args,
    /// What they resolve into.
    pub checks: Checks,
}

impl RunOptions {
    /// Resolves parsed flags, refusing those this module cannot honour.
    ///
    /// # Errors
    /// A flag that needs the file system, or an invalid configuration.
    pub fn from_args(args: Args) -> Result<RunOptions, String> {
        if let Some(flag) = args.file_system_flag() {
            return Err(format!(
                "{flag} needs the native idx-validate (this one reads its inputs and writes nothing else)"
            ));
        }
        let checks = args.checks()?;
        Ok(RunOptions { args, checks })
    }

    /// The library's reading options of this run: the options its checks
    /// validate an input with (the decompression limit, `noDecompress`,
    /// the byte order stated, the severities and expectations), the
    /// advisory lints off, as `idx` reads an input.
    pub fn read_options(&self) -> idx::ReadOptions {
        let mut opts = idx::ReadOptions::default();
        opts.validate = self.checks.for_input(None).0.options.with_lints(false);
        opts
    }
}

impl Default for RunOptions {
    fn default() -> Self {
        // ok: a constant, never user input; no flag parses and resolves
        // (every flag is optional), as the unit tests show
        parse("{}").unwrap_or_else(|_| unreachable!("the empty options parse"))
    }
}

/// `maxDecompressed` as `max-decompressed`.
fn kebab(key: &str) -> String {
    let mut out = String::with_capacity(key.len() + 4);
    for c in key.chars() {
        if c.is_ascii_uppercase() {
            out.push('-');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// A scalar as a flag's value.
fn scalar(key: &str, v: &Value) -> Result<String, String> {
    match v {
        Value::String(s) => Ok(s.clone()),
        Value::Number(n) => Ok(n.to_string()),
        _ => Err(format!("{key}: a string or a number")),
    }
}

/// The flags the JSON object `json` stands for, key by key.
///
/// # Errors
/// Not an object, or a value of no flag's shape.
pub fn keyed_flags(json: &str) -> Result<Vec<(String, Vec<String>)>, String> {
    let v: Value = serde_json::from_str(json).map_err(|e| format!("options: {e}"))?;
    let Value::Object(map) = v else {
        return Err("options: a JSON object".into());
    };
    let mut all = Vec::new();
    for (key, value) in &map {
        // `pairs`: the npm package's name for `pair` before its options were
        // the flags by name, still taken
        let name = if key == "pairs" { "pair" } else { key.as_str() };
        let flag = format!("--{}", kebab(name));
        let mut out = Vec::new();
        match value {
            Value::Null | Value::Bool(false) => {}
            Value::Bool(true) => out.push(flag),
            Value::Array(items) => {
                for item in items {
                    match item {
                        // `pair`: [images, labels], the flag's two values,
                        // and nothing else: a list in a list is no other
                        // flag's shape, and a value that starts with `-`
                        // would be read as a flag
                        Value::Array(values) => {
                            if flag != "--pair" || values.len() != 2 {
                                return Err(format!(
                                    "{key}: a list in a list is only `pair`'s [images, labels]"
                                ));
                            }
                            out.push(flag.clone());
                            for v in values {
                                let path = scalar(key, v)?;
                                if path.starts_with('-') {
                                    return Err(format!(
                                        "{key}: {path:?} starts with '-' (write it as ./{path})"
                                    ));
                                }
                                out.push(path);
                            }
                        }
                        v => out.push(format!("{flag}={}", scalar(key, v)?)),
                    }
                }
            }
            Value::Object(table) => {
                for (k, v) in table {
                    out.push(format!("{flag}={k}={}", scalar(key, v)?));
                }
            }
            v => out.push(format!("{flag}={}", scalar(key, v)?)),
        }
        all.push((key.clone(), out));
    }
    Ok(all)
}

/// The flags the JSON object `json` stands for.
///
/// # Errors
/// As [`keyed_flags`].
pub fn flags(json: &str) -> Result<Vec<String>, String> {
    Ok(keyed_flags(json)?
        .into_iter()
        .flat_map(|(_, f)| f)
        .collect())
}

/// Parses the options (a JSON object) with the command's parser and
/// resolves them as the command does.
///
/// # Errors
/// The command line's message for a value it refuses, after the key that
/// gave it; an unknown key.
pub fn parse(json: &str) -> Result<RunOptions, String> {
    let keyed = keyed_flags(json)?;
    let all: Vec<&String> = keyed.iter().flat_map(|(_, f)| f).collect();
    let args = Args::parse_flags(all).map_err(|whole| {
        // the key whose flags the parser refuses alone, else (flags that
        // conflict) the parser's message
        keyed
            .iter()
            .find_map(|(key, f)| {
                let e = Args::parse_flags(f).err()?;
                Some(if e.starts_with("unexpected argument") {
                    format!(
                        "options: unknown key {key:?} (the flags' names: see idx-validate --help)"
                    )
                } else {
                    format!("options: {key}: {e}")
                })
            })
            .unwrap_or_else(|| format!("options: {whole}"))
    })?;
    RunOptions::from_args(args).map_err(|e| format!("options: {e}"))
}

#[cfg(test)]
mod tests {
    use super::{flags, parse};
    use std::path::Path;

    #[test]
    fn pairs_is_still_taken_for_pair() {
        let got = flags(r#"{"pairs":[["a","b"]]}"#).unwrap(); // ok: unit test, a constant
        assert_eq!(got, ["--pair", "a", "b"]);
    }

    #[test]
    fn keys_are_the_flags_names() {
        assert_eq!(
            flags(
                r#"{"maxDecompressed":"1KiB","deny-warnings":true,"quiet":false,"select":["IDX2","IDX5"],
                    "pair":[["a","b"]],"severity":{"IDX501":"error"},"classes":10,"expectRange":"-5..9"}"#
            )
            .unwrap(), // ok: unit test
            [
                "--max-decompressed=1KiB",
                "--deny-warnings",
                "--select=IDX2",
                "--select=IDX5",
                "--pair",
                "a",
                "b",
                "--severity=IDX501=error",
                "--classes=10",
                "--expect-range=-5..9",
            ]
        );
    }

    #[test]
    fn defaults_are_the_command_lines() {
        let o = parse("{}").unwrap(); // ok: unit test
        let s = &o.checks.settings;
        assert_eq!(s.max_findings, 10);
        assert!(s.options.decompress);
        assert_eq!(s.options.limits, idx::Limits::default());
        assert!(o.checks.filter.select.is_empty() && o.checks.filter.ignore.is_empty());
        assert!(!o.checks.ctx.deny_warnings);
        assert_eq!(s.options.byte_order, None);
        assert_eq!(s.options.severity, idx::Severities::default());
        assert_eq!(s.options.expect_range, None);
        assert_eq!(o.checks.byte_order, None);
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
            assert_eq!(o.checks.settings.options.severity, want, "{json}");
        }
        let o = parse(r#"{"assumeByteOrder":"little","expectRange":"0..1023"}"#).unwrap(); // ok: unit test
        assert_eq!(
            o.checks.settings.options.byte_order,
            Some(idx::ByteOrder::Little)
        );
        assert_eq!(o.checks.byte_order, Some(idx::ByteOrder::Little));
        assert_eq!(o.checks.settings.options.expect_range, Some((0, 1023)));
        let f = o.checks.fix_options(Path::new("dir/a.idx"));
        assert_eq!(f.assume_byte_order, Some(idx::ByteOrder::Little));
        assert_eq!(f.validate.expect_range, Some((0, 1023)));
        assert_eq!(f.validate.file_name.as_deref(), Some("a.idx"));
        let o = parse(r#"{"assumeByteOrder":"big"}"#).unwrap(); // ok: unit test
        assert_eq!(
            o.checks.settings.options.byte_order,
            Some(idx::ByteOrder::Big)
        );
    }

    #[test]
    fn values_go_through_the_command_lines_parsers() {
        let o = parse(
            r#"{"select":["IDX2"],"ignore":["trailing-bytes"],"maxDecompressed":"1KiB",
                "maxFindings":0,"classes":10,"pair":[["a","b"]],"denyWarnings":true,
                "expectDtype":"f32","expectShape":"*,28,28"}"#,
        )
        .unwrap(); // ok: unit test
        let s = &o.checks.settings;
        assert_eq!(s.options.limits.max_decompressed, Some(1024));
        assert_eq!(s.max_findings, 0);
        assert_eq!(o.checks.dataset.classes, Some(10));
        assert_eq!(o.checks.dataset.pairs.len(), 1);
        assert!(o.checks.ctx.deny_warnings);
        assert_eq!(s.options.expect_dtype, Some(idx::ElementType::F32));
        // 0 means no limit, as on the command line
        let o = parse(r#"{"maxDecompressed":0}"#).unwrap(); // ok: unit test
        assert_eq!(o.checks.settings.options.limits.max_decompressed, None);
    }

    #[test]
    fn the_pages_repair_has_the_limit_of_its_check() {
        // a repair is read within the same limit as the check, the
        // library's default when none is given
        let o = parse("{}").unwrap(); // ok: unit test
        assert_eq!(
            o.checks.fix_options(Path::new("a.idx.gz")).validate.limits,
            idx::Limits::default()
        );
        let o = parse(r#"{"maxDecompressed":"1KiB"}"#).unwrap(); // ok: unit test
        let f = o.checks.fix_options(Path::new("a.idx.gz"));
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
    fn the_pictures_read_options_are_the_checks() {
        // the picture reads an input as the run checks it: its limit,
        // decompression, stated byte order and severities, lints off
        let o = parse(
            r#"{"maxDecompressed":"1KiB","noDecompress":true,"assumeByteOrder":"little",
                "severity":{"IDX501":"error"}}"#,
        )
        .unwrap(); // ok: unit test
        let r = o.read_options();
        assert_eq!(r.validate.limits.max_decompressed, Some(1024));
        assert!(!r.validate.decompress);
        assert_eq!(r.validate.byte_order, Some(idx::ByteOrder::Little));
        assert_eq!(r.validate.severity, o.checks.settings.options.severity);
        assert!(!r.validate.lints);
        let d = parse("{}").unwrap().read_options(); // ok: unit test
        assert!(d.validate.decompress && d.validate.byte_order.is_none());
        assert_eq!(d.validate.limits, idx::Limits::default());
    }

    #[test]
    fn what_the_command_line_refuses_is_refused() {
        for bad in [
            r#"{"select":["IDX9"]}"#,
            r#"{"select":true}"#,
            r#"{"maxDecompressed":"lots"}"#,
            r#"{"expectDtype":"u16"}"#,
            r#"{"expectShape":"a,b"}"#,
            r#"{"pair":[["a"]]}"#,
            r#"{"pair":[["a","b","c"]]}"#,
            r#"{"pair":[["a","--deny-warnings"]]}"#,
            r#"{"select":[["IDX1","x"]]}"#,
            r#"{"severity":{"IDX501":"fatal"}}"#,
            r#"{"severity":"IDX101=warning"}"#,
            r#"{"severity":{"IDX501":[1]}}"#,
            r#"{"severity":7}"#,
            r#"{"assumeByteOrder":"middle"}"#,
            r#"{"assumeByteOrder":true}"#,
            r#"{"expectRange":"9..0"}"#,
            r#"{"selct":["IDX2"]}"#,
            r#"{"fix":true}"#,
            r#"{"outputFile":"report.txt"}"#,
            r#"[]"#,
            "not json",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
        // the key is named as given
        let e = parse(r#"{"assumeByteOrder":"middle"}"#).unwrap_err(); // ok: unit test
        assert!(
            e.starts_with("options: assumeByteOrder: invalid value 'middle'"),
            "{e}"
        );
        let e = parse(r#"{"selct":["IDX2"]}"#).unwrap_err(); // ok: unit test
        assert!(e.starts_with("options: unknown key \"selct\""), "{e}");
    }
}
