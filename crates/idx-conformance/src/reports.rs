//! Reports a maintainer can act on (`corpus/reports/<name>.md`): for one
//! implementation, one section per failure class ([`Class`]: a mode, a
//! status and what the class is about), each with
//! the smallest corpus case that shows it in hex, what the implementation
//! returned, what the spec says with the rule code, and a suggested fix in
//! one sentence: text to paste into that project's issue tracker.

use crate::cases::{Case, Verdict};
use crate::page;
use crate::runner::{Mode, Outcome, Report, Status};
use std::fmt::Write as _;

/// One failure class of one implementation.
#[derive(Debug, Clone)]
pub struct Class<'a> {
    /// Reader or writer.
    pub mode: Mode,
    /// The status every case of the class has.
    pub status: Status,
    /// What the class is about, for accepted invalid files the rule (a code,
    /// or `IDX401-IDX420` for data that is not IDX: one missing check of the
    /// magic, whatever the format); for crashes and hangs on invalid files
    /// `invalid` (one missing check of sizes, whatever the rule); for valid
    /// files `valid`, or for wrong content what differs (`dtype`, `shape`,
    /// `byte order`, `elements`).
    pub key: String,
    /// The rules the class's cases are filed under, in code order.
    pub rules: Vec<idx::Rule>,
    /// The cases with their outcomes, smallest file first.
    pub cases: Vec<(&'a Case, &'a Outcome)>,
}

/// The range of the rules that say the data is not IDX at all.
pub const NOT_IDX: &str = "IDX401-IDX420";

fn class_key(case: &Case, o: &Outcome) -> String {
    let rule = page::primary_rule(case);
    match (case.verdict, o.status) {
        (Verdict::Invalid, Status::AcceptedInvalid) => match rule {
            Some(r) if r.means_not_idx() => NOT_IDX.to_string(),
            Some(r) => r.code().to_string(),
            None => "invalid".to_string(),
        },
        (Verdict::Invalid, _) => "invalid".to_string(),
        (_, Status::WrongContent) => {
            let d = &o.detail;
            if d.starts_with("dtype") {
                "dtype"
            } else if d.starts_with("shape") {
                "shape"
            } else if d.contains("little-endian") {
                "byte order"
            } else {
                "elements"
            }
            .to_string()
        }
        _ => "valid".to_string(),
    }
}

/// The failure classes of `reports` (all of one implementation), in mode,
/// status and key order.
pub fn classes<'a>(cases: &'a [Case], reports: &[&'a Report]) -> Vec<Class<'a>> {
    let mut out: Vec<Class<'a>> = Vec::new();
    for r in reports {
        for o in r.outcomes.iter().filter(|o| o.failed) {
            let Some(c) = cases.iter().find(|c| c.id == o.id) else {
                continue;
            };
            let key = class_key(c, o);
            let rule = page::primary_rule(c);
            let k = match out
                .iter_mut()
                .position(|k| k.mode == r.mode && k.status == o.status && k.key == key)
            {
                Some(i) => &mut out[i],
                None => {
                    out.push(Class {
                        mode: r.mode,
                        status: o.status,
                        key,
                        rules: vec![],
                        cases: vec![],
                    });
                    out.last_mut().expect("just pushed") // invariant: pushed on the line above; no input reaches it
                }
            };
            k.cases.push((c, o));
            if let Some(rule) = rule.filter(|r| !k.rules.contains(r)) {
                k.rules.push(rule);
            }
        }
    }
    for k in &mut out {
        k.cases
            .sort_by(|a, b| (a.0.bytes.len(), &a.0.id).cmp(&(b.0.bytes.len(), &b.0.id)));
        k.rules.sort();
    }
    out.sort_by(|a, b| (a.mode, a.status, &a.key).cmp(&(b.mode, b.status, &b.key)));
    out
}

/// The class's heading: what goes wrong, on what.
pub fn heading(k: &Class<'_>) -> String {
    let what = match k.status {
        Status::AcceptedInvalid => "accepts invalid files",
        Status::RejectedValid if k.mode == Mode::Writer => "refuses to write valid content",
        Status::RejectedValid => "rejects valid files",
        Status::WrongContent => "returns the wrong content",
        Status::WrongBytes => "writes the wrong bytes",
        Status::Crash => "crashes",
        Status::Timeout => "hangs",
        _ => "differs",
    };
    let codes = || {
        k.rules
            .iter()
            .filter(|r| r.severity() == idx::Severity::Error)
            .map(|r| r.code())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let on = match k.key.as_str() {
        NOT_IDX => format!(
            "{NOT_IDX} (data that is not IDX: a byte-swapped header, compressed or archived data, another file format)"
        ),
        "invalid" => format!("on invalid files ({})", codes()),
        "valid" => String::new(),
        "dtype" | "shape" | "byte order" | "elements" => {
            format!("the {} of valid files", k.key)
        }
        code => match idx::Rule::find(code) {
            Some(r) => format!("{} {} ({})", r.code(), r.name(), r.title()),
            None => code.to_string(),
        },
    };
    let sep = match k.key.as_str() {
        "valid" => "",
        "invalid" => " ",
        _ => ": ",
    };
    if k.status == Status::WrongContent {
        return format!(
            "{} returns the wrong {}",
            k.mode.as_str(),
            on.trim_start_matches("the ")
        );
    }
    format!("{} {what}{sep}{on}", k.mode.as_str())
}

/// The one-sentence fix suggested for a class.
pub fn suggested_fix(k: &Class<'_>) -> String {
    let detail = k.cases.first().map_or("", |(_, o)| o.detail.as_str());
    let code = k.key.as_str();
    match k.status {
        Status::AcceptedInvalid => match code {
            "IDX101" => "Reject a file whose first two magic bytes are not both 0x00.".into(),
            "IDX102" => "Reject any type code other than 0x08, 0x09, 0x0B, 0x0C, 0x0D and 0x0E.".into(),
            "IDX103" | "IDX104" => "Check that the file holds the whole magic and dimension list before reading them, and reject it when it does not.".into(),
            "IDX201" => "Multiply the dimensions and the element size with overflow checks and reject a size that does not fit in 64 bits.".into(),
            "IDX202" => "Compare the bytes present with the product of the dimensions times the element size, and reject a file with fewer.".into(),
            "IDX203" => "Compare the file length with the header length plus the product of the dimensions times the element size, and reject a file with bytes left over.".into(),
            "IDX701" => "Read a gzip stream to its end so the decompressor's CRC and length checks run, and reject the file when they fail.".into(),
            NOT_IDX => "Check the magic (two 0x00 bytes, a known type code, a rank) and the size it implies before reading anything else, so files of other formats are rejected.".into(),
            _ => format!("Reject the file: the spec makes it invalid ({code})."),
        },
        Status::RejectedValid if k.mode == Mode::Writer => "Write every element type (u8, i8, i16, i32, f32, f64) and every rank from 1 up the spec allows, instead of refusing them.".into(),
        Status::RejectedValid => "Accept every element type (u8, i8, i16, i32, f32, f64) and every rank the spec allows, taking the shape from the header instead of expecting a fixed layout.".into(),
        Status::WrongContent if k.key == "byte order" => "Read multi-byte elements big-endian, as the spec requires (in numpy, a dtype with '>').".into(),
        Status::WrongContent if k.key == "dtype" => "Map each type code to its element type (0x08 u8, 0x09 i8, 0x0B i16, 0x0C i32, 0x0D f32, 0x0E f64) instead of assuming one.".into(),
        Status::WrongContent if k.key == "shape" => "Take the shape from the header's dimension list instead of assuming one.".into(),
        Status::WrongContent if detail.contains("0x7f") || detail.contains("0xff") => "Copy float elements bit for bit (no conversion through another float type), so NaN payloads and signalling NaNs survive.".into(),
        Status::WrongContent => "Return the elements exactly as stored, in row-major order.".into(),
        Status::WrongBytes => "Write the 4-byte magic, one big-endian 4-byte count per dimension and the elements big-endian, bit for bit, and nothing else.".into(),
        Status::Crash | Status::Timeout => "Check the declared sizes against the bytes actually present (with overflow-checked arithmetic) before allocating or looping, and reject the file with an error instead.".into(),
        _ => "Follow the spec for this case.".into(),
    }
}

/// What the spec says of the class's cases.
fn spec_says(k: &Class<'_>, case: &Case) -> String {
    match case.verdict {
        Verdict::Invalid => {
            let rule = page::primary_rule(case).map_or(String::new(), |r| {
                format!(
                    "{} ({}, {}): {}. ",
                    r.code(),
                    r.name(),
                    r.severity().as_str(),
                    r.title()
                )
            });
            format!(
                "{rule}The file is not valid IDX; a conforming reader rejects it. The exact findings: {}.",
                page::findings_lines(case).join("; ")
            )
        }
        _ if k.mode == Mode::Writer => format!(
            "The content is valid IDX content ({}); a conforming writer writes exactly the {} bytes above.",
            case.content
                .as_ref()
                .map_or(String::new(), crate::runner::describe),
            case.bytes.len()
        ),
        _ => {
            let mut s = format!(
                "The file is valid IDX; a conforming reader must {}.",
                page::expected_text(case)
            );
            let f = page::findings_lines(case);
            if !f.is_empty() {
                let _ = write!(s, " (Not errors: {}.)", f.join("; "));
            }
            s
        }
    }
}

/// The report for one implementation (its reports: reader and/or writer),
/// or `None` when it has no failures.
pub fn render(cases: &[Case], reports: &[&Report]) -> Option<String> {
    let ks = classes(cases, reports);
    if ks.is_empty() {
        return None;
    }
    let first = reports.first()?;
    let mut s = String::new();
    let _ = writeln!(s, "# {} against the IDX conformance corpus\n", first.name);
    s.push_str(
        "Generated by `idx-conformance matrix --reports` from a real run; do not edit by hand. \
         Each section below is one class of failure (not one case), with the smallest corpus \
         case that shows it, and is written to be pasted into the project's issue tracker. \
         The spec is `spec/idx.md` of the IDX toolkit; the corpus files and their manifests \
         are in its `corpus/` folder.\n\n",
    );
    for r in reports {
        let failed = r.outcomes.iter().filter(|o| o.failed).count();
        let _ = writeln!(
            s,
            "- {} {}: {} of {} cases failed; driven by `{}`",
            r.version,
            r.mode.as_str(),
            failed,
            r.outcomes.len(),
            r.command
                .iter()
                .map(|a| short_path(a))
                .collect::<Vec<_>>()
                .join(" ")
        );
        for n in r.notes.iter().filter(|n| n.starts_with(page::STALE)) {
            let _ = writeln!(s, "  - {n}");
        }
    }
    let _ = writeln!(
        s,
        "\n{}:\n",
        idx_text::plural::count_as(ks.len() as u64, "failure class", "failure classes")
    );
    for (i, k) in ks.iter().enumerate() {
        let _ = writeln!(s, "{}. {}", i + 1, heading(k));
    }
    for k in &ks {
        let (case, outcome) = k.cases[0];
        let _ = writeln!(s, "\n## {}\n", heading(k));
        let version = reports
            .iter()
            .find(|r| r.mode == k.mode)
            .map_or("", |r| r.version.as_str());
        let _ = writeln!(
            s,
            "Seen on {} of the corpus (status `{}`). The smallest, `{}` ({}{}): {}\n",
            idx_text::plural::count(k.cases.len() as u64, "case"),
            k.status.as_str(),
            case.id,
            idx_text::plural::count(case.bytes.len() as u64, "byte"),
            case.compression()
                .map_or(String::new(), |z| format!(", {z}")),
            case.description
        );
        let _ = writeln!(s, "```\n{}```\n", page::hex_dump(&case.bytes));
        let _ = writeln!(
            s,
            "**What it {}** ({version}): {}\n",
            if k.mode == Mode::Writer {
                "wrote"
            } else {
                "returned"
            },
            outcome.detail.replace('\n', " ")
        );
        let _ = writeln!(s, "**What the spec says**: {}\n", spec_says(k, case));
        let _ = writeln!(s, "**Suggested fix**: {}", suggested_fix(k));
        if k.cases.len() > 1 {
            let ids: Vec<&str> = k.cases.iter().skip(1).map(|(c, _)| c.id.as_str()).collect();
            let _ = writeln!(
                s,
                "\nThe other cases of this class: {}.",
                crate::matrix::fold_ids(&ids)
            );
        }
    }
    Some(s)
}

/// A path argument without the folders of the machine that ran it.
fn short_path(a: &str) -> String {
    if a.contains('/') {
        let p = std::path::Path::new(a);
        let tail: Vec<_> = p.components().rev().take(2).collect();
        let parts: Vec<String> = tail
            .iter()
            .rev()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        parts.join("/")
    } else {
        a.to_string()
    }
}

/// Every third-party implementation's report: `(name, Markdown)` for each
/// name in `reports` other than `reference` that has failures.
pub fn all(cases: &[Case], reports: &[Report]) -> Vec<(String, String)> {
    let mut names: Vec<&str> = Vec::new();
    for r in reports {
        if r.name != "reference" && !names.contains(&r.name.as_str()) {
            names.push(&r.name);
        }
    }
    names
        .into_iter()
        .filter_map(|n| {
            let rs: Vec<&Report> = reports.iter().filter(|r| r.name == n).collect();
            render(cases, &rs).map(|md| (n.to_string(), md))
        })
        .collect()
}
