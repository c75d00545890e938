//! The matrix as a picture: every case a row (grouped by rule), every
//! implementation a column, one colour per status. [`grid`] lays it out
//! once; [`render_html`] writes the self-contained page (`corpus/matrix.html`)
//! and [`crate::picture`] the PNG of the same grid.
//!
//! The page loads nothing: styles and the filter script are inline, there
//! are no fonts, images or links outside it. The column headings stay at the
//! top and the case IDs at the left while the grid scrolls under them. Each cell links to the case's
//! panel (its bytes in hex, the expected content or findings, and what
//! every implementation returned), shown with CSS `:target`, so the
//! details work without the script too.

use crate::cases::{Case, Verdict};
use crate::runner::{self, Mode, Outcome, Report, Status};
use std::fmt::Write as _;

/// The colour of each status (RGB), in [`Status::ALL`] order; the page's
/// legend, its cells and the PNG use these.
pub const STATUS_COLOURS: [(Status, [u8; 3]); 10] = [
    (Status::Pass, [0x2e, 0x9e, 0x44]),
    (Status::AcceptedInvalid, [0xd7, 0x30, 0x1f]),
    (Status::RejectedValid, [0xf0, 0x8c, 0x00]),
    (Status::WrongContent, [0xb0, 0x17, 0x9d]),
    (Status::WrongBytes, [0x6a, 0x3d, 0x9a]),
    (Status::Crash, [0x1a, 0x1a, 0x1a]),
    (Status::Timeout, [0x8c, 0x56, 0x2d]),
    (Status::Accepted, [0xa6, 0xdb, 0xa0]),
    (Status::AcceptedLittleEndian, [0x4a, 0x9f, 0xd8]),
    (Status::Rejected, [0xb8, 0xbe, 0xc6]),
];

/// The colour of a cell whose case does not apply (or was not run).
pub const NOT_RUN_COLOUR: [u8; 3] = [0xf2, 0xf2, 0xf2];

/// The colour of a status.
pub fn colour(s: Option<Status>) -> [u8; 3] {
    s.and_then(|s| STATUS_COLOURS.iter().find(|(x, _)| *x == s))
        .map_or(NOT_RUN_COLOUR, |(_, c)| *c)
}

/// The status word of a cell: the status, or `not-run`.
pub fn status_word(s: Option<Status>) -> &'static str {
    s.map_or("not-run", Status::as_str)
}

fn abbreviation(s: Option<Status>) -> &'static str {
    match s {
        None => "",
        Some(Status::Pass) => "",
        Some(Status::AcceptedInvalid) => "AI",
        Some(Status::RejectedValid) => "RV",
        Some(Status::WrongContent) => "WC",
        Some(Status::WrongBytes) => "WB",
        Some(Status::Crash) => "C",
        Some(Status::Timeout) => "T",
        Some(Status::Accepted) => "a",
        Some(Status::AcceptedLittleEndian) => "le",
        Some(Status::Rejected) => "r",
    }
}

/// The start of a merged report's note when its results are of another
/// corpus (`matrix` adds it; the page and the reports show it).
pub const STALE: &str = "STALE (saved results of another corpus): ";

/// One column: an implementation in one mode.
#[derive(Debug, Clone)]
pub struct Column {
    /// Implementation name.
    pub name: String,
    /// Reader or writer.
    pub mode: Mode,
    /// Its version line.
    pub version: String,
    /// Its results are of another corpus (saved results not rerun).
    pub stale: bool,
}

impl Column {
    /// `numpy reader`, `torchvision reader (stale)`.
    pub fn label(&self) -> String {
        format!(
            "{} {}{}",
            self.name,
            self.mode.as_str(),
            if self.stale { " (stale)" } else { "" }
        )
    }
}

/// A case and its outcome in every column (`None`: not applicable or not
/// run).
#[derive(Debug, Clone)]
pub struct Row<'a> {
    /// The case.
    pub case: &'a Case,
    /// One per column.
    pub cells: Vec<Option<&'a Outcome>>,
}

/// The cases of one rule.
#[derive(Debug, Clone)]
pub struct Group<'a> {
    /// The rule code, or empty for valid cases without findings.
    pub code: &'static str,
    /// `IDX203 trailing-bytes: bytes follow ...`, or `valid, no findings`.
    pub title: String,
    /// Its cases, in corpus order.
    pub rows: Vec<Row<'a>>,
}

/// The laid-out matrix.
#[derive(Debug, Clone)]
pub struct Grid<'a> {
    /// The columns, in report order.
    pub columns: Vec<Column>,
    /// The groups, the rule-less group first, then by rule code.
    pub groups: Vec<Group<'a>>,
}

/// The rule a case is filed under: its first error finding, else its first
/// finding, else none.
pub fn primary_rule(case: &Case) -> Option<idx::Rule> {
    let rules: Vec<idx::Rule> = case
        .findings
        .iter()
        .filter_map(|f| idx::Rule::find(f.0))
        .collect();
    rules
        .iter()
        .copied()
        .find(|r| r.severity() == idx::Severity::Error)
        .or_else(|| rules.first().copied())
}

/// `IDX203 trailing-bytes: bytes follow the end of the declared payload`.
pub fn rule_title(rule: Option<idx::Rule>) -> String {
    match rule {
        Some(r) => format!("{} {}: {}", r.code(), r.name(), r.title()),
        None => "no findings: plain valid files".to_string(),
    }
}

/// Lays out the matrix: the cases readers run (those that need validator
/// options are left out, as in `MATRIX.md`), one column per report.
pub fn grid<'a>(cases: &'a [Case], reports: &'a [Report]) -> Grid<'a> {
    let columns = reports
        .iter()
        .map(|r| Column {
            name: r.name.clone(),
            mode: r.mode,
            version: r.version.clone(),
            stale: r.notes.iter().any(|n| n.starts_with(STALE)),
        })
        .collect();
    let mut groups: Vec<Group<'a>> = Vec::new();
    for c in cases {
        if runner::applies(c, Mode::Reader).is_err() {
            continue;
        }
        let rule = primary_rule(c);
        let code = rule.map_or("", idx::Rule::code);
        let row = Row {
            case: c,
            cells: reports
                .iter()
                .map(|r| r.outcomes.iter().find(|o| o.id == c.id))
                .collect(),
        };
        match groups.iter_mut().find(|g| g.code == code) {
            Some(g) => g.rows.push(row),
            None => groups.push(Group {
                code,
                title: rule_title(rule),
                rows: vec![row],
            }),
        }
    }
    groups.sort_by_key(|g| g.code);
    Grid { columns, groups }
}

/// HTML-escapes text.
pub fn esc(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&#39;"),
            c if c.is_control() && c != '\n' => o.push('\u{fffd}'),
            c => o.push(c),
        }
    }
    o
}

fn css_colour(c: [u8; 3]) -> String {
    format!("#{:02x}{:02x}{:02x}", c[0], c[1], c[2])
}

/// Text colour readable on a background.
fn ink(c: [u8; 3]) -> &'static str {
    let l = 0.299 * f64::from(c[0]) + 0.587 * f64::from(c[1]) + 0.114 * f64::from(c[2]);
    if l > 150.0 {
        "#111"
    } else {
        "#fff"
    }
}

/// At most this many bytes of a case are shown in hex.
pub const HEX_SHOWN: usize = 512;

/// An `xxd`-style dump of the first [`HEX_SHOWN`] bytes.
pub fn hex_dump(bytes: &[u8]) -> String {
    let mut s = String::new();
    for (i, chunk) in bytes.chunks(16).take(HEX_SHOWN / 16).enumerate() {
        let _ = write!(s, "{:08x}:", i * 16);
        for (j, b) in chunk.iter().enumerate() {
            if j % 4 == 0 {
                s.push(' ');
            }
            let _ = write!(s, "{b:02x}");
        }
        let pad = 36 - (chunk.len() * 2 + chunk.len().div_ceil(4));
        s.push_str(&" ".repeat(pad + 2));
        for b in chunk {
            s.push(if b.is_ascii_graphic() || *b == b' ' {
                char::from(*b)
            } else {
                '.'
            });
        }
        s.push('\n');
    }
    if bytes.len() > HEX_SHOWN {
        let _ = writeln!(
            s,
            "… {}",
            idx_text::plural::count((bytes.len() - HEX_SHOWN) as u64, "more byte")
        );
    }
    s
}

/// What a conforming reader does with a case, in words: the content, or
/// the findings.
pub fn expected_text(case: &Case) -> String {
    let mut s = String::new();
    match (&case.content, case.verdict) {
        (Some(c), Verdict::Valid) => {
            let _ = write!(s, "accept, returning {}", runner::describe(c));
        }
        (Some(c), _) => {
            let _ = write!(
                s,
                "implementation-defined: a reader may reject it; if it accepts, the content is {}",
                runner::describe(c)
            );
        }
        (None, _) => s.push_str("reject"),
    }
    s
}

/// The findings, one line each: `IDX203 at offset 11, length 1: title`.
pub fn findings_lines(case: &Case) -> Vec<String> {
    case.findings
        .iter()
        .map(|(code, off, len)| {
            let title = idx::Rule::find(code).map_or(String::new(), |r| {
                format!(" ({}, {}): {}", r.name(), r.severity().as_str(), r.title())
            });
            format!("{code} at offset {off}, length {len}{title}")
        })
        .collect()
}

const STYLE: &str = r#"
body{font:13px/1.4 system-ui,-apple-system,"Segoe UI",sans-serif;margin:16px;color:#111;background:#fff}
h1{font-size:20px;margin:0 0 6px}
.controls{display:flex;flex-wrap:wrap;gap:12px;margin:8px 0}
fieldset{border:1px solid #ccc;padding:4px 8px}
fieldset label{display:inline-block;margin:2px 8px 2px 0;white-space:nowrap}
.sw{display:inline-block;width:12px;height:12px;vertical-align:-2px;border:1px solid #888;margin:0 3px}
#grid{border-collapse:collapse}
#grid thead th{position:sticky;top:0;z-index:2;background:#fff}
#grid thead th:first-child{left:0;z-index:3}
#grid th.col{vertical-align:bottom;padding:2px 0;font-weight:normal;max-width:22px}
#grid th.col div{writing-mode:vertical-rl;transform:rotate(180deg);white-space:nowrap;margin:0 auto}
#grid tr.group th{text-align:left;background:#e8ecf1;padding:3px 6px;font-weight:600}
#grid th.id{position:sticky;left:0;z-index:1;background:#fff;text-align:left;font-weight:normal;padding:0 6px 0 0;white-space:nowrap;font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12px}
#grid th.id a{color:#124}
#grid td.v{font-size:11px;color:#555;padding:0 6px 0 0}
#grid td.c{width:20px;height:16px;padding:0;border:1px solid #fff;text-align:center;font-size:9px;font-weight:700}
#grid td.c a{display:block;width:100%;height:100%;text-decoration:none;color:inherit;line-height:16px}
#grid td.dim{opacity:.15}
#shown{color:#555}
.case{display:none;position:fixed;z-index:10;top:0;right:0;width:min(46em,60%);height:100%;overflow:auto;background:#fff;border-left:2px solid #444;box-shadow:-4px 0 12px rgba(0,0,0,.2);padding:10px 16px;box-sizing:border-box}
.case:target,.case:has(tr:target){display:block}
.case pre{background:#f6f6f6;padding:6px;overflow:auto;font-size:12px}
.case table{border-collapse:collapse;width:100%}
.case td{border-top:1px solid #ddd;padding:3px 4px;vertical-align:top}
.case tr:target{outline:3px solid #124}
.case td.st{white-space:nowrap;font-weight:600}
.close{float:right}
"#;

const SCRIPT: &str = r#"
(function(){
  function checked(sel, key){
    var out = {};
    document.querySelectorAll(sel + ' input').forEach(function(i){ if (i.checked) out[i.dataset[key]] = true; });
    return out;
  }
  function apply(){
    var st = checked('#status-filter', 'status');
    var cols = checked('#impl-filter', 'col');
    document.querySelectorAll('#grid [data-col]').forEach(function(c){ c.hidden = !cols[c.dataset.col]; });
    var shown = 0, total = 0;
    document.querySelectorAll('#grid tbody').forEach(function(g){
      var any = false;
      g.querySelectorAll('tr.case-row').forEach(function(r){
        var show = false;
        r.querySelectorAll('td.c').forEach(function(c){
          var on = !!st[c.dataset.status];
          c.classList.toggle('dim', !on);
          if (on && !c.hidden && c.dataset.status !== 'not-run') show = true;
        });
        r.hidden = !show; total++;
        if (show) { shown++; any = true; }
      });
      g.hidden = !any;
    });
    document.getElementById('shown').textContent = shown + ' of ' + total + ' cases shown';
  }
  document.querySelectorAll('.controls input').forEach(function(i){ i.addEventListener('change', apply); });
  document.querySelectorAll('button[data-set]').forEach(function(b){
    b.addEventListener('click', function(){
      var want = b.dataset.set;
      document.querySelectorAll('#status-filter input').forEach(function(i){
        i.checked = want === 'all' || (want === 'failures' && i.dataset.failure === '1');
      });
      apply();
    });
  });
  apply();
})();
"#;

/// The failure statuses (those a normative case fails with).
pub fn is_failure_status(s: Status) -> bool {
    matches!(
        s,
        Status::AcceptedInvalid
            | Status::RejectedValid
            | Status::WrongContent
            | Status::WrongBytes
            | Status::Crash
            | Status::Timeout
    )
}

/// The self-contained HTML page.
pub fn render_html(cases: &[Case], reports: &[Report]) -> String {
    let g = grid(cases, reports);
    let mut s = String::new();
    s.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    s.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    s.push_str("<title>IDX conformance matrix</title>\n<style>");
    s.push_str(STYLE);
    for (st, c) in STATUS_COLOURS {
        let _ = writeln!(
            s,
            ".s-{}{{background:{};color:{}}}",
            st.as_str(),
            css_colour(c),
            ink(c)
        );
    }
    let _ = writeln!(
        s,
        ".s-not-run{{background:{};color:#111}}",
        css_colour(NOT_RUN_COLOUR)
    );
    s.push_str("</style>\n</head>\n<body>\n");
    let n_rows: usize = g.groups.iter().map(|x| x.rows.len()).sum();
    let _ = writeln!(
        s,
        "<h1>IDX conformance matrix</h1>\n<p>Generated by <code>idx-conformance matrix --html</code> from the runner's results \
         (the data of <code>corpus/MATRIX.md</code>); do not edit by hand. {} cases (rows, grouped by the rule they exercise) \
         by {} (columns). Click a cell for the case's bytes, what a conforming reader does, and what each implementation returned. \
         <span id=\"shown\"></span></p>",
        n_rows,
        idx_text::plural::count(g.columns.len() as u64, "implementation run")
    );
    // legend and filters
    s.push_str("<div class=\"controls\">\n<fieldset id=\"status-filter\"><legend>Statuses (legend and filter)</legend>\n");
    let count = |st: Option<Status>| {
        g.groups
            .iter()
            .flat_map(|x| &x.rows)
            .flat_map(|r| &r.cells)
            .filter(|c| c.map(|o| o.status) == st)
            .count()
    };
    let mut legend: Vec<Option<Status>> = Status::ALL.iter().copied().map(Some).collect();
    legend.push(None);
    for st in legend {
        let w = status_word(st);
        let _ = writeln!(
            s,
            "<label><input type=\"checkbox\" checked data-status=\"{w}\" data-failure=\"{}\"><span class=\"sw s-{w}\" data-legend=\"{w}\"></span>{w} ({})</label>",
            u8::from(st.is_some_and(is_failure_status)),
            count(st)
        );
    }
    s.push_str("<button type=\"button\" data-set=\"failures\">failures only</button> <button type=\"button\" data-set=\"all\">all</button>\n</fieldset>\n");
    s.push_str("<fieldset id=\"impl-filter\"><legend>Implementations</legend>\n");
    for (i, c) in g.columns.iter().enumerate() {
        let _ = writeln!(
            s,
            "<label title=\"{}\"><input type=\"checkbox\" checked data-col=\"{i}\" data-name=\"{}\" data-mode=\"{}\">{}</label>",
            esc(&c.version),
            esc(&c.name),
            c.mode.as_str(),
            esc(&c.label())
        );
    }
    s.push_str("</fieldset>\n</div>\n");
    let notes: Vec<String> = reports
        .iter()
        .flat_map(|r| {
            r.notes
                .iter()
                .map(move |n| format!("{} {}: {n}", r.name, r.mode.as_str()))
        })
        .collect();
    if !notes.is_empty() {
        s.push_str("<details><summary>Notes from the runs</summary><ul>");
        for n in notes {
            let _ = write!(s, "<li>{}</li>", esc(&n));
        }
        s.push_str("</ul></details>\n");
    }
    // the grid
    s.push_str("<table id=\"grid\">\n<thead><tr><th></th><th></th>");
    for (i, c) in g.columns.iter().enumerate() {
        let _ = write!(
            s,
            "<th class=\"col\" data-col=\"{i}\" title=\"{}\"><div>{}</div></th>",
            esc(&format!("{} ({})", c.label(), c.version)),
            esc(&c.label())
        );
    }
    s.push_str("</tr></thead>\n");
    let width = g.columns.len() + 2;
    for grp in &g.groups {
        let _ = writeln!(
            s,
            "<tbody data-rule=\"{}\"><tr class=\"group\"><th colspan=\"{width}\">{} ({})</th></tr>",
            grp.code,
            esc(&grp.title),
            idx_text::plural::count(grp.rows.len() as u64, "case")
        );
        for row in &grp.rows {
            let id = &row.case.id;
            let _ = write!(
                s,
                "<tr class=\"case-row\" data-case=\"{id}\"><th class=\"id\"><a href=\"#c-{id}\">{id}</a></th><td class=\"v\" title=\"{}\">{}</td>",
                row.case.verdict.as_str(),
                match row.case.verdict {
                    Verdict::ImplementationDefined => "impl.",
                    v => v.as_str(),
                }
            );
            for (i, cell) in row.cells.iter().enumerate() {
                let st = cell.map(|o| o.status);
                let w = status_word(st);
                let title = match cell {
                    Some(o) => format!("{}: {w}: {}", g.columns[i].label(), o.detail),
                    None => format!("{}: does not apply", g.columns[i].label()),
                };
                let href = if cell.is_some() {
                    format!("#r-{id}-{i}")
                } else {
                    format!("#c-{id}")
                };
                let _ = write!(
                    s,
                    "<td class=\"c s-{w}\" data-col=\"{i}\" data-status=\"{w}\" title=\"{}\"><a href=\"{href}\">{}</a></td>",
                    esc(&title),
                    abbreviation(st)
                );
            }
            s.push_str("</tr>\n");
        }
        s.push_str("</tbody>\n");
    }
    s.push_str("</table>\n");
    // one panel per case
    for grp in &g.groups {
        for row in &grp.rows {
            let c = row.case;
            let id = &c.id;
            let _ = writeln!(
                s,
                "<section class=\"case\" id=\"c-{id}\"><a class=\"close\" href=\"#\">close</a><h2>{id}</h2>\n<p>{} · {} · {}</p>\n<p>{}</p>",
                c.verdict.as_str(),
                esc(&c.file_name()),
                idx_text::plural::count(c.bytes.len() as u64, "byte"),
                esc(&c.description)
            );
            let _ = writeln!(
                s,
                "<h3>A conforming reader</h3><p>{}</p>",
                esc(&expected_text(c))
            );
            let f = findings_lines(c);
            if !f.is_empty() {
                s.push_str("<h3>Findings</h3><ul>");
                for l in f {
                    let _ = write!(s, "<li>{}</li>", esc(&l));
                }
                s.push_str("</ul>\n");
            }
            if let Some(z) = c.compression() {
                let _ = writeln!(s, "<p>compression: {z} (bytes below as stored)</p>");
            }
            let _ = writeln!(
                s,
                "<h3>Bytes</h3><pre>{}</pre>\n<h3>Results</h3><table>",
                esc(&hex_dump(&c.bytes))
            );
            for (i, cell) in row.cells.iter().enumerate() {
                let st = cell.map(|o| o.status);
                let w = status_word(st);
                let detail = cell.map_or("does not apply (or not run)".to_string(), |o| {
                    let mut d = o.detail.clone();
                    if o.failed && o.expected_failure {
                        d.push_str(" (an expected failure)");
                    }
                    d
                });
                let _ = writeln!(
                    s,
                    "<tr id=\"r-{id}-{i}\"><td>{}</td><td class=\"st s-{w}\">{w}</td><td>{}</td></tr>",
                    esc(&g.columns[i].label()),
                    esc(&detail)
                );
            }
            s.push_str("</table></section>\n");
        }
    }
    s.push_str("<script>");
    s.push_str(SCRIPT);
    s.push_str("</script>\n</body>\n</html>\n");
    s
}
