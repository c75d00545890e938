//! Reports a maintainer can act on (`corpus/reports/<name>.md`): for one
//! implementation, one section per failure class ([`Class`]: a mode, a
//! status and what the class is about), each with
//! the smallest corpus case that shows it in hex, what the implementation
//! returned, what the spec says with the rule code, and a suggested fix in
//! one sentence: text to paste into that project's issue tracker.

use crate::cases::{Case, Verdict};
use crate::page;
use crate::runner::{Mode, Outcome, Report, Status, QUIETED};
use std::fmt::Write as _;

/// The toolkit's repository (the workspace's `repository` field): the
/// reports link into it, since a maintainer reads them outside it.
pub const REPOSITORY: &str = env!("CARGO_PKG_REPOSITORY");

/// `spec/idx.md` in [`REPOSITORY`], as GitHub serves it.
pub const SPEC_URL: &str = concat!(env!("CARGO_PKG_REPOSITORY"), "/blob/main/spec/idx.md");

/// `corpus/` in [`REPOSITORY`].
pub const CORPUS_URL: &str = concat!(env!("CARGO_PKG_REPOSITORY"), "/tree/main/corpus");

/// A rule's code linked to its section of the spec.
fn rule_link(r: idx::Rule) -> String {
    format!("[{}]({SPEC_URL}#{})", r.code(), r.anchor())
}

/// The phrase of a crash's detail when an allocation failed under the
/// runner's address-space limit (see `runner::answer`).
const MEMORY_LIMIT: &str = "the memory limit (";

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
    /// Whether the implementation decompresses gzip ([`decompresses`]):
    /// when not, a gzip case is filed under the rule its stored bytes break.
    pub decompresses: bool,
    /// The address-space limit the run had, in MiB.
    pub memory_mib: Option<u64>,
}

/// The range of the rules that say the data is not IDX at all.
pub const NOT_IDX: &str = "IDX401-IDX420";

/// Whether the implementation decompresses gzip: it accepted a gzip case
/// (valid or implementation-defined) with the content inside. A reader that
/// does not reads a gzip case's bytes as they are stored, so it meets the
/// rule those bytes break, not the one of the stream inside.
pub fn decompresses(cases: &[Case], reports: &[&Report]) -> bool {
    reports.iter().any(|r| {
        r.mode == Mode::Reader
            && r.outcomes.iter().any(|o| {
                matches!(o.status, Status::Pass | Status::Accepted)
                    && cases
                        .iter()
                        .any(|c| c.id == o.id && c.compression().is_some() && c.content.is_some())
            })
    })
}

/// The rule of a case's bytes as stored (gzip not decompressed): its first
/// error finding, else its first finding.
pub fn stored_rule(case: &Case) -> Option<idx::Rule> {
    let opts = crate::corpus::options(case).with_decompress(false);
    let report = idx::validate_with(&case.bytes, &opts);
    report
        .findings
        .iter()
        .find(|f| f.severity() == idx::Severity::Error)
        .or(report.findings.first())
        .map(|f| f.rule)
}

/// The rule a reader meets in a case: the case's own
/// ([`page::primary_rule`]), or, for a gzip case and a reader that does
/// not decompress, that of the bytes as stored ([`stored_rule`]).
pub fn rule_met(case: &Case, decompresses: bool) -> Option<idx::Rule> {
    if case.compression().is_some() && !decompresses {
        stored_rule(case)
    } else {
        page::primary_rule(case)
    }
}

fn class_key(case: &Case, o: &Outcome, rule: Option<idx::Rule>) -> String {
    match (case.verdict, o.status) {
        (Verdict::Invalid, Status::AcceptedInvalid) => match rule {
            Some(r) if r.means_not_idx() => NOT_IDX.to_string(),
            Some(r) => r.code().to_string(),
            None => "invalid".to_string(),
        },
        (Verdict::Invalid, Status::Crash) if o.detail.contains(MEMORY_LIMIT) => {
            "memory".to_string()
        }
        (Verdict::Invalid, _) => "invalid".to_string(),
        (_, Status::WrongContent) => {
            let d = &o.detail;
            if d.starts_with("dtype") {
                "dtype"
            } else if d.starts_with("shape") {
                "shape"
            } else if d.contains("little-endian") {
                "byte order"
            } else if d.starts_with(QUIETED) {
                "signalling NaNs"
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
    let gzip = decompresses(cases, reports);
    let mut out: Vec<Class<'a>> = Vec::new();
    for r in reports {
        for o in r.outcomes.iter().filter(|o| o.failed) {
            let Some(c) = cases.iter().find(|c| c.id == o.id) else {
                continue;
            };
            let rule = rule_met(c, gzip || r.mode == Mode::Writer);
            let key = class_key(c, o, rule);
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
                        decompresses: gzip,
                        memory_mib: r.memory_mib,
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
        "invalid" | "memory" => format!("on invalid files ({})", codes()),
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
        "invalid" | "memory" => " ",
        _ => ": ",
    };
    if k.key == "memory" {
        return format!(
            "{} runs out of memory under the runner's limit {on}",
            k.mode.as_str()
        );
    }
    if k.key == "signalling NaNs" {
        return format!(
            "{} returns signalling NaNs quiet (their quiet bit set) in valid files",
            k.mode.as_str()
        );
    }
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
        Status::WrongContent if k.key == "signalling NaNs" => "Copy the float elements' bits into the array as they are (a typed array or array view over the bytes, byte-swapped as integers where needed) instead of reading each element into a wider float and storing it back: that round trip sets a signalling NaN's quiet bit.".into(),
        Status::WrongContent if detail.contains("0x7f") || detail.contains("0xff") => "Copy float elements bit for bit (no conversion through another float type), so NaN payloads and signalling NaNs survive.".into(),
        Status::Crash if k.key == "memory" => "Compare the size the header declares (dimensions times element size, with overflow-checked arithmetic) with the bytes actually present before allocating, and reject the file with an error when they differ.".into(),
        Status::WrongContent => "Return the elements exactly as stored, in row-major order.".into(),
        Status::WrongBytes => "Write the 4-byte magic, one big-endian 4-byte count per dimension and the elements big-endian, bit for bit, and nothing else.".into(),
        Status::Crash | Status::Timeout => "Check the declared sizes against the bytes actually present (with overflow-checked arithmetic) before allocating or looping, and reject the file with an error instead.".into(),
        _ => "Follow the spec for this case.".into(),
    }
}

/// What the spec says of the class's cases.
fn spec_says(k: &Class<'_>, case: &Case) -> String {
    let rule_text = |r: idx::Rule| {
        format!(
            "{} ({}, {}): {}. ",
            rule_link(r),
            r.name(),
            r.severity().as_str(),
            r.title()
        )
    };
    match case.verdict {
        Verdict::Invalid if case.compression().is_some() && !k.decompresses => {
            let rule = stored_rule(case).map_or(String::new(), rule_text);
            format!(
                "As stored, the file is gzip data, which this reader does not decompress (it accepted \
                 no gzip case's content): {rule}The file is not valid IDX; a conforming reader rejects \
                 it. Inside the gzip stream, the exact findings: {}.",
                page::findings_lines(case).join("; ")
            )
        }
        Verdict::Invalid => {
            let rule = page::primary_rule(case).map_or(String::new(), rule_text);
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

/// Why a class's cases crashed or came back as they did, when the detail
/// alone does not say it to a maintainer.
fn why(k: &Class<'_>, case: &Case) -> Option<String> {
    match k.key.as_str() {
        "memory" => Some(format!(
            "an allocation failed under the address-space limit the runner sets ({}, `ulimit -v`), \
             which stands in for the memory of the machine: the reader allocates the size the \
             header declares before checking that the file, here {}, holds it. Without the limit \
             it would take that memory, or fail later.",
            k.memory_mib
                .map_or("none".to_string(), |m| format!("{m} MiB")),
            idx_text::plural::count(case.bytes.len() as u64, "byte")
        )),
        "signalling NaNs" => Some(
            "every element that differs is a signalling NaN returned with its quiet bit set (the \
             same NaN otherwise): the reader converts the floats, for instance reading each f32 \
             into a double and storing it back, and that conversion quiets a signalling NaN."
                .into(),
        ),
        _ => None,
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
    let stale: Vec<String> = reports
        .iter()
        .flat_map(|r| {
            r.notes
                .iter()
                .filter_map(|n| n.strip_prefix(page::STALE))
                .map(move |n| format!("{} {}: {n}", r.version, r.mode.as_str()))
        })
        .collect();
    let mut s = String::new();
    let _ = writeln!(
        s,
        "# {} against the IDX conformance corpus{}\n",
        first.name,
        if stale.is_empty() {
            ""
        } else {
            " (stale results)"
        }
    );
    if !stale.is_empty() {
        let _ = writeln!(
            s,
            "> **Stale results: do not file this report yet.** The results below were made on \
             another corpus than the current one ({}). Rerun them, then regenerate this report.\n",
            stale.join("; ")
        );
    }
    let _ = writeln!(
        s,
        "Generated by `idx-conformance matrix --reports` from a real run; do not edit by hand. \
         Each section below is one class of failure (not one case), with the smallest corpus \
         case that shows it, and is written to be pasted into the project's issue tracker. \
         The rules are those of the [IDX specification]({SPEC_URL}) of the \
         [IDX toolkit]({REPOSITORY}); the corpus files and their manifests are in its \
         [`corpus/`]({CORPUS_URL}) folder.\n"
    );
    for r in reports {
        let failed = r.outcomes.iter().filter(|o| o.failed).count();
        let _ = writeln!(
            s,
            "- {} {}: {} of {} cases failed",
            r.version,
            r.mode.as_str(),
            failed,
            r.outcomes.len(),
        );
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
        if let Some(w) = why(k, case) {
            let _ = writeln!(s, "**Why**: {w}\n");
        }
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
