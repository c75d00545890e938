//! The matrix's HTML page, its PNG and the per-implementation reports,
//! from a real `matrix` run of the synthetic adapter `tests/adapters/fake.py`
//! in two behaviours: `accept-all` (fails every invalid case) and
//! `accept-all@invalid-trailing-byte` (fails that one case only). The page
//! in a browser is tested by `tests/browser/matrix_page.mjs` (in `.ci/run`).

use crate::support::fake;
use idx_conformance::runner::{self, Mode, Report};
use idx_conformance::{cases, page, picture};
use std::path::Path;
use std::process::Command;
use test_support::assert_contains;

fn describe(dir: &Path, name: &str, behaviour: &str) {
    let toml = format!(
        "name = \"{name}\"\nsummary = \"the test adapter\"\nversion = [\"echo\", \"{name} 1.0\"]\n\
         timeout = 5\n\n[reader]\ncommand = [\"python3\", \"{f}\", \"{behaviour}\"]\n\
         persistent = [\"python3\", \"{f}\", \"{behaviour}\", \"--persistent\"]\n",
        f = fake()
    );
    std::fs::write(dir.join(format!("{name}.toml")), toml).unwrap();
}

fn matrix(dir: &Path) -> String {
    // Test-only: the binary is built by cargo for this test.
    let out = Command::new(env!("CARGO_BIN_EXE_idx-conformance"))
        .arg("matrix")
        // fake.py knows a case by its committed bytes
        .arg("--no-variants")
        .arg("--adapters")
        .arg(dir)
        .arg("--envs")
        .arg(dir.join("envs"))
        .arg("--results")
        .arg(dir.join("results"))
        .arg("--html")
        .arg(dir.join("matrix.html"))
        .arg("--png")
        .arg(dir.join("matrix.png"))
        .arg("--reports")
        .arg(dir.join("reports"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

fn load(dir: &Path, name: &str) -> Report {
    let p = dir.join("results").join(format!("{name}-reader.json"));
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap();
    Report::from_json(&v).unwrap()
}

/// One matrix run shared by the tests below (it takes a few seconds).
fn shared_run() -> &'static (tempfile::TempDir, String) {
    static RUN: std::sync::OnceLock<(tempfile::TempDir, String)> = std::sync::OnceLock::new();
    RUN.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        describe(dir.path(), "all", "accept-all");
        describe(dir.path(), "one", "accept-all@invalid-trailing-byte");
        let out = matrix(dir.path());
        (dir, out)
    })
}

#[test]
fn the_page_is_self_contained_and_has_a_cell_with_a_status_per_case_and_run() {
    let (dir, _) = shared_run();
    let html = std::fs::read_to_string(dir.path().join("matrix.html")).unwrap();
    // nothing outside the page: links are fragments; no loads ("https://"
    // does occur, in the text of a Git LFS pointer case's bytes)
    for outside in ["<link", " src=", "@import", "url(", "<iframe", "<img"] {
        assert!(
            !html.contains(outside),
            "the page refers outside: {outside}"
        );
    }
    for (i, _) in html.match_indices("href=\"") {
        assert_eq!(&html[i + 6..i + 7], "#", "{}", &html[i..i + 40]);
    }
    let all = cases::all();
    let rows: Vec<&cases::Case> = all
        .iter()
        .filter(|c| runner::applies(c, Mode::Reader).is_ok())
        .collect();
    assert_eq!(html.matches("<tr class=\"case-row\"").count(), rows.len());
    assert_eq!(html.matches("<td class=\"c s-").count(), rows.len() * 2);
    // the cell of the one case "one" fails, then its panel row
    assert!(html.contains(
        "<td class=\"c s-accepted-invalid\" data-col=\"1\" data-status=\"accepted-invalid\" \
         title=\"one reader: accepted-invalid: returned u8 shape [10]: 0, 0, 8, 1, 0, 0, 0, 1, …\">\
         <a href=\"#r-invalid-trailing-byte-1\">AI</a></td>"
    ));
    assert!(html.contains("<section class=\"case\" id=\"c-invalid-trailing-byte\">"));
    assert!(
        html.contains("00000000: 00000801 00000001 2a00"),
        "hex dump"
    );
    assert!(html.contains("IDX203 at offset 9, length 1 (trailing-bytes, error)"));
    // cases are grouped by rule, the group of plain valid files first
    let first = html.find("<tbody data-rule=\"\">").unwrap();
    let idx101 = html.find("<tbody data-rule=\"IDX101\">").unwrap();
    let idx203 = html.find("<tbody data-rule=\"IDX203\">").unwrap();
    assert!(first < idx101 && idx101 < idx203);
    let in_203 = &html[idx203..html[idx203..].find("</tbody>").unwrap() + idx203];
    assert!(in_203.contains("data-case=\"invalid-trailing-byte\""));
    // a legend entry (and filter) per status, with its count
    for (st, _) in page::STATUS_COLOURS {
        assert!(
            html.contains(&format!("data-status=\"{}\"", st.as_str())),
            "{st:?}"
        );
    }
    assert!(html.contains("<span class=\"sw s-accepted-invalid\" data-legend=\"accepted-invalid\"></span>accepted-invalid (105)"));
    // the column headings stay at the top, the case IDs at the left, both
    // opaque (tests/browser/matrix_page.mjs scrolls under them in chromium)
    assert_contains(
        &html,
        "#grid thead th{position:sticky;top:0;z-index:2;background:#fff}",
    );
    assert_contains(
        &html,
        "#grid th.id{position:sticky;left:0;z-index:1;background:#fff;",
    );
}

#[test]
fn the_png_has_each_cell_in_its_status_colour() {
    let (dir, _) = shared_run();
    let reports = vec![load(dir.path(), "all"), load(dir.path(), "one")];
    let all = cases::all();
    let g = page::grid(&all, &reports);
    let l = picture::layout(&g);
    let (width, height, buf) = decode_png(&std::fs::read(dir.path().join("matrix.png")).unwrap());
    assert_eq!((width, height), (l.width, l.height));
    let px = |x: u32, y: u32| {
        let i = ((y * width + x) * 3) as usize;
        [buf[i], buf[i + 1], buf[i + 2]]
    };
    let rows: Vec<&page::Row<'_>> = g.groups.iter().flat_map(|x| &x.rows).collect();
    let mut seen = std::collections::BTreeSet::new();
    for (r, row) in rows.iter().enumerate() {
        for (c, report) in reports.iter().enumerate() {
            // the status from the results file, not from the grid
            let st = report
                .outcomes
                .iter()
                .find(|o| o.id == row.case.id)
                .map(|o| o.status);
            seen.insert(page::status_word(st));
            let (x, y) = (l.xs[r] + 2, l.ys[c] + 5);
            assert_eq!(px(x, y), page::colour(st), "{} column {c}", row.case.id);
        }
    }
    assert!(seen.contains("accepted-invalid") && seen.contains("pass"));
    // the legend strip, one swatch per status then not-run
    for (i, st) in picture::legend().into_iter().enumerate() {
        assert_eq!(px(l.legend_xs[i] + 5, l.legend_y + 5), page::colour(st));
    }
    // each band is labelled: ink left of the first stripe, in every band
    for (c, _) in reports.iter().enumerate() {
        let ink = (picture::MARGIN..l.xs[0])
            .flat_map(|x| (l.ys[c]..l.ys[c] + picture::CELL_H).map(move |y| (x, y)))
            .filter(|&(x, y)| px(x, y) == [0x22, 0x22, 0x22])
            .count();
        assert!(ink > 20, "band {c} has no label");
    }
    // each rule group is labelled: ink above the bands, over the group's
    // first stripe (the picture had no group labels)
    let mut first = 0;
    for grp in &g.groups {
        let x0 = l.xs[first];
        let ink = (x0..x0 + 7)
            .flat_map(|x| (0..l.ys[0]).map(move |y| (x, y)))
            .filter(|&(x, y)| px(x, y) == [0x22, 0x22, 0x22])
            .count();
        assert!(ink > 10, "group {:?} has no label", grp.code);
        first += grp.rows.len();
    }
    // the colours are distinct
    let mut colours: Vec<[u8; 3]> = picture::legend().into_iter().map(page::colour).collect();
    colours.sort_unstable();
    colours.dedup();
    assert_eq!(colours.len(), picture::legend().len());
}

#[test]
fn a_report_per_failing_implementation_has_one_section_per_failure_class() {
    let (dir, out) = shared_run();
    let reports = dir.path().join("reports");
    assert_contains(out, "reports/all.md");
    let one = std::fs::read_to_string(reports.join("one.md")).unwrap();
    assert_eq!(one.matches("\n## ").count(), 1, "one failure class:\n{one}");
    for want in [
        "# one against the IDX conformance corpus",
        "- one 1.0 reader: 1 of 181 cases failed",
        "## reader accepts invalid files: IDX203 trailing-bytes (bytes follow the end of the declared payload)",
        "Seen on 1 case of the corpus (status `accepted-invalid`). The smallest, `invalid-trailing-byte` (10 bytes): one byte after the payload",
        "```\n00000000: 00000801 00000001 2a00               ........*.\n```",
        "**What it returned** (one 1.0): returned u8 shape [10]: 0, 0, 8, 1, 0, 0, 0, 1, …",
        "**What the spec says**: [IDX203](https://example.invalid/idx-toolkit/blob/main/spec/idx.md#idx203-trailing-bytes) (trailing-bytes, error): bytes follow the end of the declared payload. The file is not valid IDX; a conforming reader rejects it.",
        // the spec and the corpus linked, for a maintainer outside this
        // repository
        "The rules are those of the [IDX specification](https://example.invalid/idx-toolkit/blob/main/spec/idx.md)",
        "[`corpus/`](https://example.invalid/idx-toolkit/tree/main/corpus)",
        "**Suggested fix**: Compare the file length with the header length plus the product of the dimensions times the element size, and reject a file with bytes left over.",
    ] {
        assert!(one.contains(want), "missing {want:?} in:\n{one}");
    }
    // nothing of the machine that ran it: no adapter command or path
    for noise in [
        "fake.py",
        "python3",
        "driven by",
        "/tmp/",
        "of the IDX toolkit;",
    ] {
        assert!(!one.contains(noise), "{noise:?} in:\n{one}");
    }
    // accept-all: one section per class, not per case; the smallest case
    // of each; the formats that are not IDX are one class
    let all = std::fs::read_to_string(reports.join("all.md")).unwrap();
    let sections: Vec<&str> = all.lines().filter(|l| l.starts_with("## ")).collect();
    assert_eq!(
        sections,
        [
            "## reader accepts invalid files: IDX101 reserved-bytes (the first two bytes of the magic must be 0x00)",
            "## reader accepts invalid files: IDX102 unknown-type (byte 2 must be a known element type code)",
            "## reader accepts invalid files: IDX103 truncated-magic (the file is shorter than the 4-byte magic)",
            "## reader accepts invalid files: IDX104 truncated-dimensions (the file ends inside the dimension list)",
            "## reader accepts invalid files: IDX201 size-overflow (the declared payload size overflows 64 bits)",
            "## reader accepts invalid files: IDX202 truncated-payload (the payload is shorter than the header declares)",
            "## reader accepts invalid files: IDX203 trailing-bytes (bytes follow the end of the declared payload)",
            "## reader accepts invalid files: IDX401-IDX420 (data that is not IDX: a byte-swapped header, compressed or archived data, another file format)",
        ]
    );
    // fake.py does not decompress gzip: the damaged gzip streams are data
    // that is not IDX to it (IDX402 as stored), not IDX701, which it never
    // meets
    assert!(!all.contains("IDX701"), "{all}");
    assert_contains(&all, "`invalid-gzip-header-cut`");
    assert!(all.contains("The smallest, `invalid-short-stream-reserved` (2 bytes)"));
    assert_eq!(all.matches("**Suggested fix**").count(), sections.len());
    assert!(!reports.join("reference.md").exists());
}

#[test]
fn a_report_is_removed_when_its_implementation_no_longer_fails() {
    let dir = tempfile::tempdir().unwrap();
    describe(dir.path(), "one", "accept-all@invalid-trailing-byte");
    matrix(dir.path());
    let report = dir.path().join("reports/one.md");
    assert!(report.is_file());
    describe(dir.path(), "one", "correct");
    let out = matrix(dir.path());
    assert!(!report.exists(), "{out}");
    assert_contains(&out, "one.md (no failures)");
}

#[test]
fn the_hex_dump_is_cut_and_aligned() {
    assert_eq!(
        page::hex_dump(&[0, 0, 8, 1, 0, 0, 0, 1, 42, 0]),
        "00000000: 00000801 00000001 2a00               ........*.\n"
    );
    let long: Vec<u8> = (0..=255u8).cycle().take(page::HEX_SHOWN + 3).collect();
    let d = page::hex_dump(&long);
    assert_eq!(d.lines().count(), page::HEX_SHOWN / 16 + 1);
    assert!(d.ends_with("… 3 more bytes\n"), "{d}");
    let full = page::hex_dump(&long[..16]);
    assert_eq!(
        full,
        "00000000: 00010203 04050607 08090a0b 0c0d0e0f  ................\n"
    );
}

fn outcome(id: &str, status: runner::Status, detail: &str) -> runner::Outcome {
    let all = cases::all();
    let c = all.iter().find(|c| c.id == id).unwrap();
    runner::Outcome {
        id: id.into(),
        verdict: c.verdict,
        status,
        detail: detail.into(),
        failed: true,
        expected_failure: false,
        some_variants: false,
        committed_failed: None,
        elapsed: std::time::Duration::ZERO,
    }
}

#[test]
fn crashes_on_any_rule_are_one_class_and_wrong_content_is_split_by_what_differs() {
    use idx_conformance::reports;
    use runner::Status::{AcceptedInvalid, Crash, WrongContent};
    let r = Report {
        name: "x".into(),
        version: "x 1".into(),
        mode: Mode::Reader,
        command: vec!["x".into()],
        persistent: false,
        timeout: std::time::Duration::from_secs(1),
        memory_mib: None,
        outcomes: vec![
            outcome("invalid-hostile-4gib-u8", Crash, "MemoryError"),
            outcome("invalid-size-overflow-f64", Crash, "MemoryError"),
            outcome("invalid-reserved-byte0", AcceptedInvalid, "returned u8"),
            outcome("invalid-pdf", AcceptedInvalid, "returned u8"),
            outcome("invalid-png", AcceptedInvalid, "returned u8"),
            outcome(
                "valid-u8-rank2",
                WrongContent,
                "shape [2] instead of [2, 3]",
            ),
            outcome(
                "valid-u8-rank4",
                WrongContent,
                "shape [2] instead of [2, 3, 4, 5]",
            ),
            outcome("valid-i16-rank1", WrongContent, "dtype u8 instead of i16"),
        ],
        skipped: vec![],
        notes: vec![],
        elapsed: std::time::Duration::ZERO,
    };
    let all = cases::all();
    let ks = reports::classes(&all, &[&r]);
    let headings: Vec<String> = ks.iter().map(reports::heading).collect();
    assert_eq!(
        headings,
        [
            "reader accepts invalid files: IDX101 reserved-bytes (the first two bytes of the magic must be 0x00)",
            "reader accepts invalid files: IDX401-IDX420 (data that is not IDX: a byte-swapped header, compressed or archived data, another file format)",
            "reader returns the wrong dtype of valid files",
            "reader returns the wrong shape of valid files",
            "reader crashes on invalid files (IDX201, IDX202)",
        ]
    );
    assert_eq!(ks[3].cases[0].0.id, "valid-u8-rank2", "the smallest first");
    assert_eq!(
        reports::suggested_fix(&ks[3]),
        "Take the shape from the header's dimension list instead of assuming one."
    );
}

fn report(outcomes: Vec<runner::Outcome>, notes: Vec<String>) -> Report {
    Report {
        name: "x".into(),
        version: "x 1".into(),
        mode: Mode::Reader,
        command: vec!["/home/me/src/x/target/debug/x-adapter".into()],
        persistent: false,
        timeout: std::time::Duration::from_secs(1),
        memory_mib: Some(4096),
        outcomes,
        skipped: vec![],
        notes,
        elapsed: std::time::Duration::ZERO,
    }
}

#[test]
// Before: a gzip case was filed under the rule of the stream inside it even
// for a reader that never decompresses (idx-lib's "IDX103 truncated-magic"
// was a gzip of an empty file); a crash under the runner's memory limit and
// a quieted signalling NaN got the generic sentences; a report of stale
// results read as current; the adapter's path was in it.
fn a_report_says_what_the_reader_met() {
    use idx_conformance::reports;
    use runner::Status::{Accepted, AcceptedInvalid, Crash, WrongContent};
    let all = cases::all();
    let gz = |decompressed: bool| {
        let status = if decompressed { Accepted } else { WrongContent };
        let mut o = outcome("impl-gzip-u8-4x5", status, "shape [] instead of [4, 5]");
        o.failed = false;
        vec![
            o,
            outcome(
                "invalid-gzip-of-empty",
                AcceptedInvalid,
                "returned u8 shape []: 0",
            ),
            outcome(
                "invalid-gzip-header-cut",
                AcceptedInvalid,
                "returned u8 shape []: 0",
            ),
        ]
    };
    let raw = report(gz(false), vec![]);
    let headings: Vec<String> = reports::classes(&all, &[&raw])
        .iter()
        .map(reports::heading)
        .collect();
    assert_eq!(
        headings,
        ["reader accepts invalid files: IDX401-IDX420 (data that is not IDX: a byte-swapped header, compressed or archived data, another file format)"]
    );
    let md = reports::render(&all, &[&raw]).unwrap();
    assert_contains(
        &md,
        "**What the spec says**: As stored, the file is gzip data, which this reader does not \
             decompress (it accepted no gzip case's content): [IDX402](",
    );
    let inflating = report(gz(true), vec![]);
    let headings: Vec<String> = reports::classes(&all, &[&inflating])
        .iter()
        .map(reports::heading)
        .collect();
    assert_eq!(
        headings,
        [
            "reader accepts invalid files: IDX103 truncated-magic (the file is shorter than the 4-byte magic)",
            "reader accepts invalid files: IDX701 gzip-damaged (the gzip stream is damaged)",
        ]
    );
    let memory =
        "exit status 3; stderr: crash: MemoryError: ; an allocation failed (MemoryError): \
                  the memory limit (4096 MiB of address space) was the cause";
    let quiet = "signalling NaNs come back quiet: element 14 is 0x7fc00001 (NaN) instead of \
                 0x7f800001 (NaN), the same NaN with its quiet bit set (2 of 17 elements differ; \
                 f32 shape [17])";
    let r = report(
        vec![
            outcome("invalid-hostile-4gib-u8", Crash, memory),
            outcome("invalid-trailing-byte", Crash, "killed by SIGSEGV"),
            outcome("valid-edge-f32", WrongContent, quiet),
        ],
        vec![format!(
            "{}the results are of another corpus (169 cases; the current one has 185, or other bytes): rerun them",
            page::STALE
        )],
    );
    let ks = reports::classes(&all, &[&r]);
    let headings: Vec<String> = ks.iter().map(reports::heading).collect();
    assert_eq!(
        headings,
        [
            "reader returns signalling NaNs quiet (their quiet bit set) in valid files",
            "reader crashes on invalid files (IDX203)",
            "reader runs out of memory under the runner's limit on invalid files (IDX202)",
        ]
    );
    let md = reports::render(&all, &[&r]).unwrap();
    for want in [
        "# x against the IDX conformance corpus (stale results)\n\n> **Stale results: do not file this report yet.** \
         The results below were made on another corpus than the current one (x 1 reader: the results are of another corpus",
        "**Why**: an allocation failed under the address-space limit the runner sets (4096 MiB, `ulimit -v`)",
        "**Why**: every element that differs is a signalling NaN returned with its quiet bit set",
        "**Suggested fix**: Copy the float elements' bits into the array as they are",
    ] {
        assert!(md.contains(want), "missing {want:?} in:\n{md}");
    }
    assert!(!md.contains("x-adapter"), "{md}");
}

/// Decodes the PNG `picture::encode_png` writes (8-bit RGB, unfiltered
/// rows), checking every chunk's CRC against an independent table-driven
/// CRC-32, and returns the width, the height and the pixels.
fn decode_png(b: &[u8]) -> (u32, u32, Vec<u8>) {
    use std::io::Read as _;
    assert_eq!(&b[..8], b"\x89PNG\r\n\x1a\n");
    let table: Vec<u32> = (0..256u32)
        .map(|n| {
            (0..8).fold(n, |c, _| {
                if c & 1 == 1 {
                    0xedb8_8320 ^ (c >> 1)
                } else {
                    c >> 1
                }
            })
        })
        .collect();
    let crc = |d: &[u8]| {
        !d.iter().fold(!0u32, |c, &x| {
            table[((c ^ u32::from(x)) & 0xff) as usize] ^ (c >> 8)
        })
    };
    let (mut p, mut w, mut h, mut idat, mut kinds) = (8, 0, 0, Vec::new(), Vec::new());
    while p < b.len() {
        let len = u32::from_be_bytes(b[p..p + 4].try_into().unwrap()) as usize;
        let body = &b[p + 4..p + 8 + len];
        let want = u32::from_be_bytes(b[p + 8 + len..p + 12 + len].try_into().unwrap());
        assert_eq!(crc(body), want, "chunk CRC");
        let (kind, data) = body.split_at(4);
        kinds.push(String::from_utf8_lossy(kind).into_owned());
        match kind {
            b"IHDR" => {
                w = u32::from_be_bytes(data[0..4].try_into().unwrap());
                h = u32::from_be_bytes(data[4..8].try_into().unwrap());
                assert_eq!(&data[8..], [8, 2, 0, 0, 0], "8-bit RGB");
            }
            b"IDAT" => idat.extend_from_slice(data),
            _ => {}
        }
        p += 12 + len;
    }
    assert_eq!(kinds, ["IHDR", "IDAT", "IEND"]);
    let mut raw = Vec::new();
    flate2::read::ZlibDecoder::new(&idat[..])
        .read_to_end(&mut raw)
        .unwrap();
    let stride = w as usize * 3;
    assert_eq!(raw.len(), (stride + 1) * h as usize);
    let mut px = Vec::with_capacity(stride * h as usize);
    for row in raw.chunks(stride + 1) {
        assert_eq!(row[0], 0, "unfiltered rows");
        px.extend_from_slice(&row[1..]);
    }
    (w, h, px)
}
