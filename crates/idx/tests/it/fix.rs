//! Repairs: exactness against the canonical writer, the guarantees
//! (idempotent, never worse, safe fixes keep decoded arrays) on arbitrary
//! inputs, streaming and the input-changed check.

use idx::fuzzing::{check_repair, repair_bytes};
use idx::{
    parse, to_bytes, validate, Applicability, Array, ByteOrder, Data, Edit, ElementType, FixError,
    FixOptions, Rule,
};
use quickcheck::{Arbitrary, Gen, TestResult};
use std::io::{self, Cursor, Read, Seek, SeekFrom};

/// Smooth data of every type, as real data is (so the byte-order lint
/// sees its statistic): a ramp for integers, a sine for floats.
fn smooth(dtype: ElementType, n: usize) -> Data {
    match dtype {
        ElementType::U8 => Data::U8((0..n).map(|i| (i % 251) as u8).collect()),
        ElementType::I8 => Data::I8((0..n).map(|i| ((i % 200) as i16 - 100) as i8).collect()),
        ElementType::I16 => Data::I16((0..n).map(|i| (i % 800) as i16 * 37 - 500).collect()),
        ElementType::I32 => Data::I32(
            (0..n)
                .map(|i| (i % 1_000_000) as i32 * 1013 - 70_000)
                .collect(),
        ),
        ElementType::F32 => Data::F32((0..n).map(|i| (i as f32 * 0.05).sin() * 100.0).collect()),
        ElementType::F64 => Data::F64((0..n).map(|i| (i as f64 * 0.05).sin() * 1e3).collect()),
    }
}

/// The IDX technical report's writer, run as it is written:
/// `f.write(dim.to_bytes(4, 'big'))` for the magic and each dimension, then
/// `data_array.tofile(f)`: the elements in native order, little-endian on
/// the machines it runs on.
fn tech_report_writer(array: &Array) -> Vec<u8> {
    let mut f = Vec::new();
    let magic = u32::from(array.dtype().code()) << 8 | array.dims().len() as u32;
    f.extend_from_slice(&magic.to_be_bytes());
    for &d in array.dims() {
        f.extend_from_slice(&(d as u32).to_be_bytes());
    }
    match array.data() {
        Data::U8(v) => f.extend(v.iter().flat_map(|x| x.to_le_bytes())),
        Data::I8(v) => f.extend(v.iter().flat_map(|x| x.to_le_bytes())),
        Data::I16(v) => f.extend(v.iter().flat_map(|x| x.to_le_bytes())),
        Data::I32(v) => f.extend(v.iter().flat_map(|x| x.to_le_bytes())),
        Data::F32(v) => f.extend(v.iter().flat_map(|x| x.to_le_bytes())),
        Data::F64(v) => f.extend(v.iter().flat_map(|x| x.to_le_bytes())),
    }
    f
}

/// A writer that stored the whole header little-endian (IDX401), and the
/// elements too.
fn little_endian_header_writer(array: &Array) -> Vec<u8> {
    let mut f = tech_report_writer(array);
    let rank = array.dims().len();
    for k in 0..=rank {
        f[4 * k..4 * k + 4].reverse();
    }
    f
}

fn array(dtype: ElementType) -> Array {
    Array::new(vec![12, 5, 10], smooth(dtype, 600)).unwrap()
}

fn unsafe_fixes() -> FixOptions {
    FixOptions::default().with_unsafe_fixes(true)
}

fn stated_little() -> FixOptions {
    FixOptions::default().with_assume_byte_order(Some(ByteOrder::Little))
}

fn fixed(bytes: &[u8], opts: &FixOptions) -> Vec<u8> {
    check_repair(bytes, opts);
    repair_bytes(bytes, opts).1
}

#[test]
fn technical_report_writer_is_repaired_exactly_for_every_type() {
    for t in ElementType::ALL {
        let a = array(t);
        let canonical = to_bytes(&a).unwrap();
        let written = tech_report_writer(&a);
        if t.size() > 1 {
            // valid, with the byte-order lint (and NaNs read the wrong way round)
            let r = validate(&written);
            assert!(r.is_well_formed(), "{t}: {:#?}", r.findings);
            let f = r
                .findings
                .iter()
                .find(|f| f.rule == Rule::LikelyLittleEndian);
            let fix = f.and_then(|f| f.fix.as_ref()).expect("IDX501 with a fix");
            assert_eq!(fix.applicability, Applicability::Unsafe);
            // safe fixes alone do not guess the byte order
            assert_eq!(fixed(&written, &FixOptions::default()), written, "{t}");
        }
        assert_eq!(
            fixed(&written, &unsafe_fixes()),
            canonical,
            "{t}: --unsafe-fixes"
        );
        // the repair follows the verdict: the repaired file has no IDX501
        let after = validate(&fixed(&written, &unsafe_fixes()));
        assert!(
            after.is_valid()
                && after
                    .findings
                    .iter()
                    .all(|f| f.rule != Rule::LikelyLittleEndian),
            "{t}: {:#?}",
            after.findings
        );
        assert_eq!(
            fixed(&written, &stated_little()),
            canonical,
            "{t}: --assume-byte-order little"
        );
        // stating big-endian keeps the payload as it is
        let big = FixOptions::default()
            .with_unsafe_fixes(true)
            .with_assume_byte_order(Some(ByteOrder::Big));
        assert_eq!(
            fixed(&written, &big),
            written,
            "{t}: --assume-byte-order big"
        );
    }
}

#[test]
fn stated_little_endian_is_exact_without_the_lint() {
    // five distinct labels: too few for the lint, the statement decides
    let a = Array::new(vec![6], Data::I32(vec![3, 1, 4, 1, 5, 9])).unwrap();
    let written = tech_report_writer(&a);
    assert!(validate(&written).findings.is_empty());
    let (report, out) = repair_bytes(&written, &stated_little());
    assert_eq!(out, to_bytes(&a).unwrap());
    assert_eq!(report.applied.len(), 1);
    assert_eq!(report.applied[0].rule, None);
    assert_eq!(report.applied[0].fix.applicability, Applicability::Safe);
    // and a second run swaps nothing back
    let (again, out2) = repair_bytes(&out, &stated_little());
    assert!(again.applied.is_empty(), "{:?}", again.applied);
    assert_eq!(out2, out);
    assert_eq!(again.declined.len(), 1, "{:?}", again.declined);
}

/// A byte order stated little-endian that the payload contradicts is not
/// applied (and never called safe): a correct big-endian f32 file of
/// normal values, certain big-endian, is left as it is, with the reason.
#[test]
fn a_contradicted_statement_is_declined_not_applied() {
    let mut state = 7u64;
    let v: Vec<f32> = (0..1000)
        .map(|_| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((state >> 40) as f32 / (1u64 << 24) as f32 - 0.5) * 4.0
        })
        .collect();
    let good = to_bytes(&Array::new(vec![1000], Data::F32(v)).unwrap()).unwrap();
    let (report, out) = repair_bytes(&good, &stated_little());
    assert!(report.applied.is_empty(), "{:?}", report.applied);
    assert_eq!(out, good);
    assert_eq!(report.declined.len(), 1);
    assert!(
        report.declined[0].contains("it reads big-endian (strongly"),
        "{:?}",
        report.declined
    );
}

#[test]
fn little_endian_header_is_repaired_exactly() {
    for t in ElementType::ALL {
        let a = array(t);
        let canonical = to_bytes(&a).unwrap();
        let written = little_endian_header_writer(&a);
        let r = validate(&written);
        assert_eq!(r.findings[0].rule, Rule::ByteSwappedHeader);
        let fix = r.findings[0].fix.as_ref().unwrap();
        assert_eq!(fix.applicability, Applicability::Safe);
        // the safe fix rewrites the header; the payload stays as written
        let safe = fixed(&written, &FixOptions::default());
        assert_eq!(&safe[..16], &canonical[..16], "{t}");
        assert_eq!(&safe[16..], &written[16..], "{t}");
        assert_eq!(fixed(&written, &unsafe_fixes()), canonical, "{t}");
        assert_eq!(fixed(&written, &stated_little()), canonical, "{t}");
    }
}

#[test]
fn little_endian_dimensions_are_repaired_safely() {
    for t in ElementType::ALL {
        let a = Array::new(vec![7, 3], smooth(t, 21)).unwrap();
        let canonical = to_bytes(&a).unwrap();
        let mut written = canonical.clone();
        written[4..8].reverse();
        written[8..12].reverse();
        let r = validate(&written);
        let f = r.findings.iter().find(|f| f.fix.is_some()).unwrap();
        assert_eq!(
            f.fix.as_ref().unwrap().applicability,
            Applicability::Safe,
            "{t}"
        );
        assert_eq!(fixed(&written, &FixOptions::default()), canonical, "{t}");
    }
    // no length proof (one more byte): nothing safe, only the unsafe truncation
    let mut bytes =
        to_bytes(&Array::new(vec![7, 3], smooth(ElementType::U8, 21)).unwrap()).unwrap();
    bytes[4..8].reverse();
    bytes.push(0);
    let (r, out) = repair_bytes(&bytes, &FixOptions::default());
    assert!(!r.changed());
    assert_eq!(out, bytes);
}

#[test]
fn trailing_bytes_are_dropped_and_counted() {
    for t in ElementType::ALL {
        let a = array(t);
        let canonical = to_bytes(&a).unwrap();
        let mut written = canonical.clone();
        written.extend_from_slice(b"junk\n");
        let (r, out) = repair_bytes(&written, &FixOptions::default());
        assert!(!r.changed(), "{t}: trailing bytes are an unsafe fix");
        assert_eq!(out, written);
        let (r, out) = repair_bytes(&written, &unsafe_fixes());
        assert_eq!(out, canonical, "{t}");
        assert_eq!(r.dropped_bytes, 5);
        assert!(r.applied[0].fix.description.contains("5 bytes"));
        check_repair(&written, &unsafe_fixes());
    }
}

#[test]
fn truncated_last_item_is_dropped() {
    for t in ElementType::ALL {
        let a = array(t);
        let written = to_bytes(&a).unwrap();
        let item = 50 * t.size();
        // cut inside the last item (and inside an element where elements have bytes)
        let cut = &written[..written.len() - item + 1 + t.size() / 2];
        let complete = Array::new(vec![11, 5, 10], {
            let (_, d) = a.clone().into_parts();
            match d {
                Data::U8(v) => Data::U8(v[..550].to_vec()),
                Data::I8(v) => Data::I8(v[..550].to_vec()),
                Data::I16(v) => Data::I16(v[..550].to_vec()),
                Data::I32(v) => Data::I32(v[..550].to_vec()),
                Data::F32(v) => Data::F32(v[..550].to_vec()),
                Data::F64(v) => Data::F64(v[..550].to_vec()),
            }
        })
        .unwrap();
        assert_eq!(
            fixed(cut, &unsafe_fixes()),
            to_bytes(&complete).unwrap(),
            "{t}"
        );
        assert_eq!(fixed(cut, &FixOptions::default()), cut, "{t}: unsafe");
    }
    // nothing complete: no fix (an empty array saves nothing)
    let bytes = to_bytes(&array(ElementType::U8)).unwrap();
    let r = validate(&bytes[..20]);
    assert!(r.findings.iter().all(|f| f.fix.is_none()));
}

#[test]
fn technical_report_writer_with_damage_is_repaired_exactly() {
    // little-endian payload, one item cut short, and trailing junk elsewhere
    let a = array(ElementType::F32);
    let written = tech_report_writer(&a);
    let cut = &written[..written.len() - 100];
    let complete = Array::new(vec![11, 5, 10], {
        let (_, d) = a.clone().into_parts();
        let Data::F32(v) = d else { unreachable!() };
        Data::F32(v[..550].to_vec())
    })
    .unwrap();
    assert_eq!(fixed(cut, &unsafe_fixes()), to_bytes(&complete).unwrap());
    let mut long = written.clone();
    long.extend_from_slice(&[1, 2, 3]);
    assert_eq!(fixed(&long, &unsafe_fixes()), to_bytes(&a).unwrap());
}

#[test]
fn reserved_bytes_only_when_everything_else_is_consistent() {
    let mut bytes = to_bytes(&array(ElementType::U8)).unwrap();
    bytes[1] = 0x01;
    let r = validate(&bytes);
    assert_eq!(r.findings[0].rule, Rule::ReservedBytes);
    assert_eq!(
        r.findings[0].fix.as_ref().unwrap().applicability,
        Applicability::Unsafe
    );
    let mut canonical = bytes.clone();
    canonical[1] = 0;
    assert_eq!(fixed(&bytes, &unsafe_fixes()), canonical);
    assert_eq!(fixed(&bytes, &FixOptions::default()), bytes);
    // with an unknown type nothing else is consistent: no fix
    let mut bad = bytes.clone();
    bad[2] = 0x07;
    assert!(validate(&bad).findings.iter().all(|f| f.fix.is_none()));
    // with trailing bytes, both are fixed in one run
    let mut trailing = bytes.clone();
    trailing.push(9);
    assert_eq!(fixed(&trailing, &unsafe_fixes()), canonical);
}

#[test]
fn reserved_bytes_are_fixed_with_a_width_fix_that_answers_idx501() {
    // little-endian f32 elements under an f64 header (half the declared
    // payload) and a wrong reserved byte: IDX501's swap is the width fix's
    // to make, so the reserved bytes are consistent and fixed in the same
    // run (found by CI's fuzzing: a second run fixed them alone)
    let a = array(ElementType::F32);
    let mut written = tech_report_writer(&a);
    written[0] = 0x01;
    written[2] = ElementType::F64.code();
    let r = validate(&written);
    let rules: Vec<Rule> = r.findings.iter().map(|f| f.rule).collect();
    assert!(
        rules.contains(&Rule::LikelyLittleEndian) && rules.contains(&Rule::TruncatedPayload),
        "{rules:?}"
    );
    let reserved = r.findings.iter().find(|f| f.rule == Rule::ReservedBytes);
    assert!(reserved.and_then(|f| f.fix.as_ref()).is_some(), "{rules:?}");
    assert_eq!(fixed(&written, &unsafe_fixes()), to_bytes(&a).unwrap());
    check_repair(&written, &unsafe_fixes());
}

#[test]
fn gzip_input_keeps_its_compression() {
    use std::io::Write;
    let a = array(ElementType::I16);
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(&tech_report_writer(&a)).unwrap();
    let gz = enc.finish().unwrap();
    let (r, out) = repair_bytes(&gz, &unsafe_fixes());
    assert!(r.compressed_output && r.changed());
    let mut plain = Vec::new();
    flate2::read::MultiGzDecoder::new(&out[..])
        .read_to_end(&mut plain)
        .unwrap();
    assert_eq!(plain, to_bytes(&a).unwrap());
    let (_, out) = repair_bytes(&gz, &unsafe_fixes().with_keep_compression(false));
    assert_eq!(out, to_bytes(&a).unwrap());
    check_repair(&gz, &unsafe_fixes());
}

#[test]
fn payload_swap_across_read_buffers_with_unaligned_elements() {
    // rank 2 f64: the payload starts at 12, so 8-byte elements straddle
    // every 256 KiB read buffer boundary
    let n = 3 * 256 * 1024 / 8 + 5;
    let a = Array::new(vec![n, 1], smooth(ElementType::F64, n)).unwrap();
    let written = tech_report_writer(&a);
    assert_eq!(fixed(&written, &stated_little()), to_bytes(&a).unwrap());
}

#[test]
fn fixes_are_data_with_edits() {
    let mut bytes = to_bytes(&array(ElementType::U8)).unwrap();
    bytes.extend_from_slice(&[0, 0, 8, 1]);
    let r = validate(&bytes);
    let f = &r.findings[0];
    assert_eq!(f.rule, Rule::TrailingBytes);
    let fix = f.fix.as_ref().unwrap();
    assert_eq!(
        fix.edits,
        vec![Edit::Delete {
            offset: 616,
            length: 4
        }]
    );
    assert!(fix.description.contains("IDX magic"), "{}", fix.description);
}

/// A seekable reader whose bytes change after the first pass.
struct Changing {
    data: Vec<u8>,
    pos: usize,
    passes: usize,
}

impl Read for Changing {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = buf.len().min(self.data.len() - self.pos);
        buf[..n].copy_from_slice(&self.data[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

impl Seek for Changing {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        if let SeekFrom::Start(0) = to {
            self.passes += 1;
            if self.passes == 3 {
                let last = self.data.len() - 1;
                self.data[last] ^= 0xff; // someone writes to the file
            }
            self.pos = 0;
            return Ok(0);
        }
        Err(io::Error::other("only rewinds"))
    }
}

#[test]
fn input_changing_between_passes_is_an_error() {
    let mut bytes = to_bytes(&array(ElementType::U8)).unwrap();
    bytes.push(1);
    let input = Changing {
        data: bytes,
        pos: 0,
        passes: 0,
    };
    let mut out = Vec::new();
    match idx::repair(input, &mut out, &unsafe_fixes()) {
        Err(e @ FixError::InputChanged { .. }) => {
            assert!(e.to_string().contains("changed while it was read"))
        }
        other => panic!("expected InputChanged, got {other:?}"),
    }
}

#[test]
fn plan_writes_nothing_and_predicts_the_output() {
    let written = tech_report_writer(&array(ElementType::I32));
    let planned = idx::plan(Cursor::new(&written), &unsafe_fixes()).unwrap();
    let (done, _) = repair_bytes(&written, &unsafe_fixes());
    assert_eq!(planned.after.findings, done.after.findings);
    assert_eq!(planned.applied, done.applied);
}

// ---------------------------------------------------------------------------
// Properties on arbitrary inputs

#[derive(Debug, Clone)]
struct Damaged(Vec<u8>, u8);

impl Arbitrary for Damaged {
    fn arbitrary(g: &mut Gen) -> Self {
        let t = *g.choose(&ElementType::ALL).unwrap();
        let n0 = usize::arbitrary(g) % 20 + 1;
        let n1 = usize::arbitrary(g) % 8 + 1;
        let a = Array::new(vec![n0, n1], smooth(t, n0 * n1)).unwrap();
        let mut b = match u8::arbitrary(g) % 3 {
            0 => to_bytes(&a).unwrap(),
            1 => tech_report_writer(&a),
            _ => little_endian_header_writer(&a),
        };
        // some damage
        match u8::arbitrary(g) % 6 {
            0 => {
                let k = usize::arbitrary(g) % b.len();
                b.truncate(k);
            }
            1 => b.extend((0..u8::arbitrary(g) % 9).map(|_| u8::arbitrary(g))),
            2 if b.len() > 12 => {
                b[4..8].reverse();
                b[8..12].reverse();
            }
            3 => b[usize::arbitrary(g) % 2] = u8::arbitrary(g),
            4 => {
                let k = usize::arbitrary(g) % b.len();
                b[k] = u8::arbitrary(g);
            }
            _ => {}
        }
        Damaged(b, u8::arbitrary(g))
    }
}

fn property(d: Damaged) -> TestResult {
    idx::fuzzing::fix_target(&[&[d.1][..], &d.0].concat());
    TestResult::passed()
}

#[test]
fn repairs_are_idempotent_never_worse_and_safe_fixes_keep_arrays() {
    test_support::quickcheck(
        "fix::repairs_are_idempotent_never_worse_and_safe_fixes_keep_arrays",
        100,
        property as fn(Damaged) -> TestResult,
    );
    // and on arbitrary bytes
    fn bytes(mode: u8, b: Vec<u8>) -> TestResult {
        idx::fuzzing::fix_target(&[&[mode][..], &b].concat());
        TestResult::passed()
    }
    test_support::quickcheck(
        "fix::repairs_of_arbitrary_bytes",
        100,
        bytes as fn(u8, Vec<u8>) -> TestResult,
    );
}

#[test]
fn safe_fixes_never_change_a_decodable_file() {
    for t in ElementType::ALL {
        let bytes = to_bytes(&array(t)).unwrap();
        assert!(parse(&bytes).is_ok());
        let (r, out) = repair_bytes(&bytes, &FixOptions::default());
        assert!(!r.changed());
        assert_eq!(out, bytes);
    }
}

// ---------------------------------------------------------------------------
// Spec, code and findings agree

/// `code -> applicabilities` from the spec's Fixes table.
fn spec_fixes() -> std::collections::BTreeMap<String, Vec<Applicability>> {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../spec/idx.md");
    let text = std::fs::read_to_string(p).unwrap();
    let section = text
        .split("## 10. Fixes")
        .nth(1)
        .expect("spec has a Fixes section");
    let mut out = std::collections::BTreeMap::new();
    for line in section.lines().filter(|l| l.starts_with("| IDX")) {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let code = cells[1].split_whitespace().next().unwrap().to_string();
        let app = match cells[2] {
            "none" => vec![],
            "safe" => vec![Applicability::Safe],
            "unsafe" => vec![Applicability::Unsafe],
            "safe or unsafe" => vec![Applicability::Safe, Applicability::Unsafe],
            other => panic!("{code}: applicability {other:?}"),
        };
        // the spec's words are the ones the library prints (Display)
        for a in &app {
            assert!(
                cells[2].split(" or ").any(|w| w == a.to_string()),
                "{code}: {a} not in {:?}",
                cells[2]
            );
        }
        assert!(out.insert(code.clone(), app).is_none(), "{code} twice");
    }
    out
}

#[test]
fn spec_fixes_table_matches_the_code() {
    let spec = spec_fixes();
    for r in Rule::ALL {
        let want = spec
            .get(r.code())
            .unwrap_or_else(|| panic!("{} has no row in spec/idx.md §10 Fixes: add one", r.code()));
        assert_eq!(want.as_slice(), r.fixes(), "{}", r.code());
    }
    assert_eq!(spec.len(), Rule::ALL.len(), "a Fixes row names no rule");
}

#[test]
fn every_fix_on_the_corpus_is_one_the_table_allows() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus");
    let mut seen = std::collections::BTreeSet::new();
    for dir in ["valid", "invalid", "implementation-defined"] {
        for e in std::fs::read_dir(root.join(dir)).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "json") {
                continue;
            }
            let bytes = std::fs::read(&p).unwrap();
            let opts = idx::Options::default().with_decompress(true);
            for f in idx::validate_with(&bytes, &opts).findings {
                if let Some(fix) = &f.fix {
                    assert!(
                        f.rule.fixes().contains(&fix.applicability),
                        "{}: {} has a {} fix",
                        p.display(),
                        f.rule,
                        fix.applicability
                    );
                    seen.insert((f.rule, fix.applicability));
                }
            }
        }
    }
    // the corpus exercises fixes of every fixable rule it holds
    assert!(seen.len() >= 4, "{seen:?}");
}

#[test]
fn a_byte_swapped_header_says_whether_the_payload_is_swapped_too() {
    for t in [
        ElementType::I16,
        ElementType::I32,
        ElementType::F32,
        ElementType::F64,
    ] {
        let a = array(t);
        let both = little_endian_header_writer(&a);
        let f = validate(&both)
            .findings
            .into_iter()
            .find(|f| f.rule == Rule::ByteSwappedHeader)
            .unwrap();
        let hint = f.hint.unwrap();
        assert!(hint.contains("little-endian too"), "{t}: {hint}");
        // only the header swapped: the payload reads big-endian
        let mut header_only = to_bytes(&a).unwrap();
        for k in 0..=a.dims().len() {
            header_only[4 * k..4 * k + 4].reverse();
        }
        let f = validate(&header_only)
            .findings
            .into_iter()
            .find(|f| f.rule == Rule::ByteSwappedHeader)
            .unwrap();
        let hint = f.hint.unwrap();
        assert!(
            hint.contains("reads big-endian") && hint.contains("only the header"),
            "{t}: {hint}"
        );
    }
}

/// Every fix, on every corpus file and on every kind of the byte-order
/// benchmark written both ways: `--fix` twice equals `--fix` once, and a
/// repair that leaves the header fields alone never makes a file report
/// IDX501 that did not (a stated swap only when the payload reads more
/// plausibly little-endian, the lint's swap only when it is likely).
#[test]
fn fixes_are_idempotent_and_never_add_idx501_on_the_corpus_and_the_benchmark() {
    use test_support::payloads::{big_endian, little_endian_twin, Kind};
    let mut inputs: Vec<(String, Vec<u8>)> = Vec::new();
    for dir in ["valid", "invalid", "implementation-defined"] {
        let d = test_support::root().join("corpus").join(dir);
        let mut names: Vec<_> = std::fs::read_dir(&d)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .collect();
        names.sort();
        for p in names {
            let n = p.file_name().unwrap().to_string_lossy().to_string();
            if n.ends_with(".idx") || n.ends_with(".gz") {
                inputs.push((n, std::fs::read(&p).unwrap()));
            }
        }
    }
    for &kind in Kind::ALL {
        for &t in kind.types() {
            let be = big_endian(kind, t, 300, 5);
            let n = (be.len() / t.size()) as u32;
            for (order, payload) in [("be", be.clone()), ("le", little_endian_twin(t, &be))] {
                let mut f = vec![0, 0, t.code(), 1];
                f.extend_from_slice(&n.to_be_bytes());
                f.extend_from_slice(&payload);
                inputs.push((format!("{} {} {order}", kind.label(), t.name()), f));
            }
        }
    }
    // width mismatches written both ways: the type code's fix and a byte
    // order stated for the same file must not both swap
    let vals: Vec<f64> = (0..500)
        .map(|i| (f64::from(i) * 0.37).sin() * 3.0)
        .collect();
    for (name, code, payload) in [
        (
            "f64 under f32",
            0x0du8,
            vals.iter()
                .flat_map(|v| v.to_be_bytes())
                .collect::<Vec<u8>>(),
        ),
        (
            "little-endian f64 under f32",
            0x0d,
            vals.iter().flat_map(|v| v.to_le_bytes()).collect(),
        ),
        (
            "little-endian f32 under f64",
            0x0e,
            vals.iter()
                .flat_map(|&v| (v as f32).to_le_bytes())
                .collect(),
        ),
    ] {
        let n = if code == 0x0d { 1000u32 } else { 250 };
        inputs.push((name.to_string(), with_header(code, &[n], &payload)));
    }
    assert!(inputs.len() > 300, "{}", inputs.len());
    let little_read = idx::Options::default()
        .with_decompress(true)
        .with_byte_order(Some(ByteOrder::Little));
    let options = [
        FixOptions::default(),
        unsafe_fixes(),
        stated_little(),
        stated_little().with_unsafe_fixes(true),
        stated_little().with_validate(little_read.clone()),
        stated_little()
            .with_unsafe_fixes(true)
            .with_validate(little_read),
        FixOptions::default().with_assume_byte_order(Some(ByteOrder::Big)),
    ];
    let has_501 = |b: &[u8]| {
        idx::validate_with(b, &idx::Options::default().with_decompress(true))
            .findings
            .iter()
            .any(|f| f.rule == Rule::LikelyLittleEndian)
    };
    for (name, bytes) in &inputs {
        for opts in &options {
            let (first, once) = repair_bytes(bytes, opts);
            // a rewritten type, rank or dimension list: the next run looks
            // at the payload under the new header (spec 10.5)
            let header_rewritten = first.applied.iter().any(|a| {
                a.fix
                    .edits
                    .iter()
                    .any(|e| matches!(e, Edit::Replace { offset, .. } if *offset >= 2))
            });
            if !header_rewritten {
                let (_, twice) = repair_bytes(&once, opts);
                assert!(
                    twice == once,
                    "{name}: a second repair changed the file ({opts:?})"
                );
                if !has_501(bytes) {
                    assert!(
                        !has_501(&once),
                        "{name}: the repair added IDX501 ({opts:?})"
                    );
                }
            }
        }
    }
}

fn with_header(code: u8, dims: &[u32], payload: &[u8]) -> Vec<u8> {
    let mut b = vec![0, 0, code, dims.len() as u8];
    for d in dims {
        b.extend_from_slice(&d.to_be_bytes());
    }
    b.extend_from_slice(payload);
    b
}

/// An element-width mismatch the hint diagnoses gets the fix the hint
/// names, the type code with the same dimensions, never a truncation: the
/// repaired file holds the writer's array. A width IDX has no type for
/// (64-bit integers) gets no fix at all.
#[test]
fn a_width_mismatch_gets_the_type_code_the_hint_names() {
    let vals: Vec<f64> = (0..12).map(|i| f64::from(i) * 0.75 - 2.0).collect();
    let f64_be: Vec<u8> = vals.iter().flat_map(|v| v.to_be_bytes()).collect();
    let f64_le: Vec<u8> = vals.iter().flat_map(|v| v.to_le_bytes()).collect();
    let want = to_bytes(&Array::new(vec![3, 4], Data::F64(vals.clone())).unwrap()).unwrap();
    let i32s: Vec<i32> = (0..20).map(|i| i % 10).collect();
    let i32_be: Vec<u8> = i32s.iter().flat_map(|v| v.to_be_bytes()).collect();
    let want_i32 = to_bytes(&Array::new(vec![20], Data::I32(i32s)).unwrap()).unwrap();
    let f32s: Vec<f32> = (0..12).map(|i| i as f32 * 0.5 + 1.0).collect();
    let f32_be: Vec<u8> = f32s.iter().flat_map(|v| v.to_be_bytes()).collect();
    let want_f32 = to_bytes(&Array::new(vec![3, 4], Data::F32(f32s)).unwrap()).unwrap();
    for (name, bytes, want) in [
        ("f64 under f32", with_header(0x0d, &[3, 4], &f64_be), &want),
        (
            "little-endian f64 under f32",
            with_header(0x0d, &[3, 4], &f64_le),
            &want,
        ),
        (
            "i32 labels under u8",
            with_header(0x08, &[20], &i32_be),
            &want_i32,
        ),
        (
            "f32 under f64",
            with_header(0x0e, &[3, 4], &f32_be),
            &want_f32,
        ),
    ] {
        let r = validate(&bytes);
        let f = r
            .findings
            .iter()
            .find(|f| matches!(f.rule, Rule::TrailingBytes | Rule::TruncatedPayload))
            .unwrap();
        let fix = f.fix.as_ref().unwrap_or_else(|| panic!("{name}: no fix"));
        assert_eq!(fix.applicability, Applicability::Unsafe, "{name}");
        assert!(
            fix.description.starts_with("change the element type"),
            "{name}: {}",
            fix.description
        );
        assert!(
            !fix.edits.iter().any(|e| matches!(e, Edit::Delete { .. })),
            "{name}: a truncation"
        );
        let out = fixed(&bytes, &unsafe_fixes());
        assert_eq!(&out, want, "{name}");
        assert!(
            validate(&out).findings.is_empty(),
            "{name}: {:?}",
            validate(&out).findings
        );
    }
    let i64s: Vec<u8> = (0..10i64).flat_map(|v| v.to_le_bytes()).collect();
    let r = validate(&with_header(0x08, &[10], &i64s));
    let f = r
        .findings
        .iter()
        .find(|f| f.rule == Rule::TrailingBytes)
        .unwrap();
    assert!(f
        .hint
        .as_deref()
        .unwrap()
        .contains("no 64-bit integer type"));
    assert!(f.fix.is_none(), "{:?}", f.fix);
}

/// The width hint reads the payload's first non-zero words: a sparse
/// payload that starts with zeros is judged on its values, not on its
/// first 1024 bytes.
#[test]
fn the_width_hint_sees_a_sparse_payload_past_its_zeros() {
    let mut vals = vec![0f64; 600];
    for (k, i) in [300usize, 350, 420, 480, 555, 599].iter().enumerate() {
        vals[*i] = 1.5 + k as f64;
    }
    let payload: Vec<u8> = vals.iter().flat_map(|v| v.to_be_bytes()).collect();
    let bytes = with_header(0x0d, &[600], &payload);
    let r = validate(&bytes);
    let f = r
        .findings
        .iter()
        .find(|f| f.rule == Rule::TrailingBytes)
        .unwrap();
    assert!(
        f.hint
            .as_deref()
            .unwrap_or_default()
            .contains("f64 values written under an f32 header"),
        "{:?}",
        f.hint
    );
}

/// Dimensions stored little-endian that overflow the size: the hint also
/// says whether the payload is little-endian too (its first bytes scored).
#[test]
fn little_endian_dimensions_say_whether_the_payload_is_swapped_too() {
    let vals: Vec<f32> = (0..256).map(|i| i as f32 * 0.5 + 1.0).collect();
    let mut b = vec![0, 0, 0x0d, 2];
    b.extend_from_slice(&16u32.to_le_bytes());
    b.extend_from_slice(&16u32.to_le_bytes());
    let le: Vec<u8> = vals.iter().flat_map(|v| v.to_le_bytes()).collect();
    let be: Vec<u8> = vals.iter().flat_map(|v| v.to_be_bytes()).collect();
    for (payload, says) in [(le, "little-endian too"), (be, "reads big-endian")] {
        let mut f = b.clone();
        f.extend_from_slice(&payload);
        let r = validate(&f);
        let h = r
            .findings
            .iter()
            .find_map(|f| f.hint.as_deref().filter(|h| h.contains("byte-swapped")))
            .unwrap_or_else(|| panic!("{:?}", r.findings));
        assert!(h.contains(says), "{h}");
    }
}

/// A byte order stated little-endian for a file whose width is wrong is
/// not a second swap: the type code's fix (which swaps when the payload is
/// little-endian) decides, and the repaired array is the writer's.
#[test]
fn a_stated_byte_order_never_swaps_a_payload_twice() {
    let vals: Vec<f32> = (0..1000)
        .map(|i| (i as f32 * 0.01).cos() * 2.0 - 0.5)
        .collect();
    let le: Vec<u8> = vals.iter().flat_map(|v| v.to_le_bytes()).collect();
    // little-endian f32 data under an f64 header of the same dimension:
    // half the declared payload (IDX202), the width hint says f32
    let bytes = with_header(0x0e, &[1000], &le);
    let want = to_bytes(&Array::new(vec![1000], Data::F32(vals)).unwrap()).unwrap();
    for opts in [
        unsafe_fixes(),
        stated_little().with_unsafe_fixes(true),
        stated_little()
            .with_unsafe_fixes(true)
            .with_validate(idx::Options::default().with_byte_order(Some(ByteOrder::Little))),
    ] {
        let out = fixed(&bytes, &opts);
        assert_eq!(out, want, "{opts:?}");
    }
}

/// A repair whose validation options state little-endian (as a reader's
/// do) never swaps a payload that reads big-endian beyond doubt: the
/// IDX501 error then says the statement is contradicted, and carries no
/// swap.
#[test]
fn a_contradicted_statement_in_the_validation_options_carries_no_swap() {
    let mut state = 11u64;
    let v: Vec<f32> = (0..1000)
        .map(|_| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((state >> 40) as f32 / (1u64 << 24) as f32 - 0.5) * 4.0
        })
        .collect();
    let good = to_bytes(&Array::new(vec![1000], Data::F32(v)).unwrap()).unwrap();
    let read_little = idx::Options::default().with_byte_order(Some(ByteOrder::Little));
    let r = idx::validate_with(&good, &read_little);
    assert!(r.is_valid(), "a warning, not an error");
    let f = r
        .findings
        .iter()
        .find(|f| f.rule == Rule::LikelyLittleEndian)
        .expect("the statement is contradicted");
    assert!(f.message.contains("stated little-endian"), "{}", f.message);
    assert!(f.fix.is_none(), "{:?}", f.fix);
    for opts in [
        FixOptions::default().with_validate(read_little.clone()),
        stated_little()
            .with_unsafe_fixes(true)
            .with_validate(read_little.clone()),
    ] {
        let (report, out) = repair_bytes(&good, &opts);
        assert!(report.applied.is_empty(), "{:?}", report.applied);
        assert_eq!(out, good);
    }
}

/// With the advisory lints off (the readers' validation), the IDX501
/// finding covers the whole payload, as with them on, even though the test
/// stopped looking once it had scored all it scores.
#[test]
fn the_idx501_finding_covers_the_whole_payload_with_the_lints_off() {
    let n = 1_000_000usize;
    let mut le = with_header(0x0d, &[n as u32], &[]);
    for i in 0..n {
        le.extend_from_slice(&((i % 5000) as f32 * 0.01 + 1.0).to_le_bytes());
    }
    let full = idx::validate(&le);
    let lints_off = idx::Options::default().with_lints(false);
    let known_len = idx::validate_reader_len(&le[..], Some(le.len() as u64), &lints_off).unwrap();
    for r in [&full, &known_len] {
        let f = r
            .findings
            .iter()
            .find(|f| f.rule == Rule::LikelyLittleEndian)
            .unwrap();
        assert_eq!((f.offset, f.length), (8, 4 * n as u64));
        let fix = f.fix.as_ref().unwrap();
        assert!(
            fix.description.contains(&format!("{n} f32 elements")),
            "{}",
            fix.description
        );
    }
}

#[test]
fn reserved_bytes_are_repaired_consistently_while_a_stated_little_endian_order_is_contradicted() {
    // big-endian f32 data and a wrong reserved byte, read with a stated
    // little-endian order (as idx-validate --assume-byte-order little
    // validates and repairs): IDX501 warns that the statement is
    // contradicted, which no fix answers and which is no error, so the
    // reserved bytes are fixed with the rest, whether the header's type is
    // right (f32) or has the wrong width (f64, where the type-code fix
    // answers IDX202 in the same run); a second run changes nothing
    let a = array(ElementType::F32);
    let stated = idx::Options::default().with_byte_order(Some(ByteOrder::Little));
    let opts = unsafe_fixes()
        .with_assume_byte_order(Some(ByteOrder::Little))
        .with_validate(stated.clone());
    for code in [ElementType::F32.code(), ElementType::F64.code()] {
        let mut written = to_bytes(&a).unwrap();
        written[0] = 0x01;
        written[2] = code;
        let r = idx::validate_with(&written, &stated);
        let contradicted = r.findings.iter().any(|f| {
            f.rule == Rule::LikelyLittleEndian
                && f.severity() == idx::Severity::Warning
                && f.message.contains("stated little-endian")
        });
        assert!(contradicted, "type {code:#x}: {:#?}", r.findings);
        let reserved = r
            .findings
            .iter()
            .find(|f| f.rule == Rule::ReservedBytes)
            .unwrap();
        assert!(reserved.fix.is_some(), "type {code:#x}: {reserved:#?}");
        check_repair(&written, &opts);
    }
}

#[test]
fn a_prepared_repair_says_whether_it_would_change_the_file() {
    let valid = [0, 0, 0x08, 1, 0, 0, 0, 1, 42]; // u8 [1]: 42
    let trailing = [0, 0, 0x08, 1, 0, 0, 0, 1, 42, 0]; // one byte too many
    for opts in [FixOptions::default(), unsafe_fixes()] {
        let planned = idx::prepare(Cursor::new(&valid[..]), &opts).unwrap();
        assert!(!planned.changed(), "nothing to fix");
    }
    let planned = idx::prepare(Cursor::new(&trailing[..]), &unsafe_fixes()).unwrap();
    assert!(planned.changed(), "the trailing byte is dropped");
    let mut out = Vec::new();
    planned.write(Cursor::new(&trailing[..]), &mut out).unwrap();
    assert_eq!(out, valid);
}

/// A reader that counts the bytes read through it.
struct Counted<'a> {
    inner: Cursor<&'a [u8]>,
    read: u64,
}

impl Read for Counted<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read += n as u64;
        Ok(n)
    }
}

impl Seek for Counted<'_> {
    fn seek(&mut self, pos: SeekFrom) -> io::Result<u64> {
        self.inner.seek(pos)
    }
}

#[test]
fn a_repair_of_the_length_alone_is_planned_without_reading_the_payload() {
    // i16 [32768] (64 KiB of payload), then one byte too many; the byte
    // order stated big-endian, so no fix needs the payload's statistics
    let n = 32768u32;
    let mut b = vec![0, 0, 0x0b, 1];
    b.extend(n.to_be_bytes());
    b.extend((0..n).flat_map(|i| (i as i16).to_be_bytes()));
    b.push(0);
    let opts = unsafe_fixes().with_assume_byte_order(Some(ByteOrder::Big));
    let mut input = Counted {
        inner: Cursor::new(&b[..]),
        read: 0,
    };
    let planned = idx::prepare(&mut input, &opts).unwrap();
    assert!(planned.changed(), "the trailing byte is dropped");
    // the gzip sniff and at most the largest header: not the 64 KiB payload
    assert!(input.read < 2048, "{} bytes read to plan", input.read);
    let mut out = Vec::new();
    planned.write(Cursor::new(&b[..]), &mut out).unwrap();
    assert_eq!(out, b[..b.len() - 1]);
}

#[test]
fn planning_a_valid_file_reads_it_at_most_once() {
    // i16 [32768], valid: nothing to fix, so no second pass for `after`
    let n = 32768u32;
    let mut b = vec![0, 0, 0x0b, 1];
    b.extend(n.to_be_bytes());
    b.extend((0..n).flat_map(|i| (i as i16).to_be_bytes()));
    for opts in [FixOptions::default(), unsafe_fixes()] {
        let mut input = Counted {
            inner: Cursor::new(&b[..]),
            read: 0,
        };
        let report = idx::plan(&mut input, &opts).unwrap();
        assert!(!report.changed());
        // the gzip sniff and one pass at most, not a second for `after`
        let len = b.len() as u64;
        assert!(input.read < 2 * len, "{} bytes read of {len}", input.read);
    }
}

#[test]
fn input_changing_past_its_header_between_passes_is_an_error() {
    // u8 [2000] and a trailing byte: the byte that changes (the last) is
    // past the first kilobyte, where the header's checksum ends
    let mut bytes = vec![0, 0, 0x08, 1, 0, 0, 0x07, 0xd0];
    bytes.extend((0..2000u32).map(|i| i as u8));
    bytes.push(1);
    let input = Changing {
        data: bytes,
        pos: 0,
        passes: 0,
    };
    let mut out = Vec::new();
    match idx::repair(input, &mut out, &unsafe_fixes()) {
        Err(FixError::InputChanged { .. }) => {}
        other => panic!("expected InputChanged, got {other:?}"),
    }
}

/// A byte-order swap waits for the next round only when a chosen fix
/// deletes bytes it would swap. Trailing bytes cut after the payload leave
/// every element scored: the swap and the cut are chosen in the same round,
/// in file order, and the input is read once to plan and once to check.
#[test]
fn a_swap_that_ends_where_the_cut_begins_is_not_deferred() {
    // little-endian i16 [1000], then three bytes too many (IDX203)
    let vals: Vec<i16> = (0..1000).map(|i| (i % 800) as i16 * 37 - 500).collect();
    let mut payload: Vec<u8> = vals.iter().flat_map(|v| v.to_le_bytes()).collect();
    payload.extend([1, 2, 3]);
    let bytes = with_header(0x0b, &[1000], &payload);
    let len = bytes.len() as u64;
    // IDX501's swap, and the one a stated little-endian order asks for
    for opts in [unsafe_fixes(), stated_little().with_unsafe_fixes(true)] {
        let mut input = Counted {
            inner: Cursor::new(&bytes[..]),
            read: 0,
        };
        let report = idx::plan(&mut input, &opts).unwrap();
        let applied: Vec<_> = report
            .applied
            .iter()
            .map(|a| (a.offset, a.fix.edits.clone()))
            .collect();
        assert_eq!(
            applied,
            [
                (
                    8,
                    vec![Edit::SwapBytes {
                        offset: 8,
                        length: 2000,
                        element_size: 2
                    }]
                ),
                (
                    2008,
                    vec![Edit::Delete {
                        offset: 2008,
                        length: 3
                    }]
                ),
            ],
            "{opts:?}"
        );
        assert!(report.after.findings.is_empty(), "{opts:?}");
        // a deferred swap would cost a third pass
        assert!(input.read < 3 * len, "{} bytes read of {len}", input.read);
    }
}

/// A gzip stream that cannot be decompressed whole (here its CRC is
/// wrong: IDX701) holding what a fix would change (little-endian i16, the
/// writer's byte order stated): nothing inside it can be rewritten. Kept
/// compressed (the default), it is copied as it is, the fixes declined
/// with the reason; a plain copy cannot be written. (Found by fuzzing: the
/// repair refused the default, compressed copy.)
#[test]
fn a_damaged_gzip_stream_is_copied_as_it_is_its_fixes_declined() {
    let mut raw = vec![0, 0, 0x0b, 1, 0, 0, 0, 64];
    raw.extend((1..=64i16).flat_map(|v| (v * 3).to_le_bytes()));
    let mut gz = test_support::gzip_fast(&raw);
    let n = gz.len();
    gz[n - 8] ^= 0xff; // the CRC-32
    let checks = idx::Options::default().with_decompress(true);
    let before = idx::validate_with(&gz, &checks);
    let rules: Vec<idx::Rule> = before.findings.iter().map(|f| f.rule).collect();
    assert!(rules.contains(&idx::Rule::GzipDamaged), "{rules:?}");
    let kept = idx::FixOptions::default()
        .with_validate(checks)
        .with_assume_byte_order(Some(idx::ByteOrder::Little));
    let mut out = Vec::new();
    let r = idx::repair(std::io::Cursor::new(&gz), &mut out, &kept).unwrap();
    assert_eq!(out, gz, "copied as it is");
    assert!(r.applied.is_empty() && !r.changed());
    assert!(
        r.declined
            .iter()
            .any(|d| d.contains("cannot be decompressed whole")),
        "{:?}",
        r.declined
    );
    let plain = kept.with_keep_compression(false);
    match idx::repair(std::io::Cursor::new(&gz), &mut Vec::new(), &plain) {
        Err(idx::FixError::Incomplete(rule)) => assert_eq!(rule, idx::Rule::GzipDamaged),
        other => panic!("{other:?}"),
    }
}

/// Each way a repair fails says what failed; only an I/O error has a
/// source, the error it wraps.
#[test]
fn a_fix_error_says_what_failed_and_only_an_io_error_has_a_source() {
    use std::error::Error;
    let unplugged = FixError::from(io::Error::other("device unplugged"));
    assert!(matches!(unplugged, FixError::Io(_)));
    assert_eq!(unplugged.to_string(), "device unplugged");
    assert_eq!(
        unplugged.source().map(|e| e.to_string()).as_deref(),
        Some("device unplugged")
    );
    let damaged = FixError::Incomplete(Rule::GzipDamaged);
    assert_eq!(
        damaged.to_string(),
        "the gzip stream cannot be decompressed whole (IDX701): no plain copy can be written"
    );
    assert!(damaged.source().is_none());
    let changed = FixError::InputChanged {
        planned: (10, 0xab),
        found: (11, 0x1234_5678),
    };
    assert_eq!(
        changed.to_string(),
        "the input changed while it was read (10 bytes, CRC-32 000000ab when planned; 11 bytes, CRC-32 12345678 when written)"
    );
    assert!(changed.source().is_none());
}

/// A payload whose elements read the same either way (every i16 a pair of
/// equal bytes) scores 0 bits: it does not read more plausibly
/// little-endian, so a stated little-endian order swaps nothing, and says
/// why.
#[test]
fn a_statement_about_a_payload_that_reads_the_same_either_way_is_declined() {
    let payload: Vec<u8> = (1..=64u8).flat_map(|k| [k, k]).collect();
    let bytes = with_header(0x0b, &[64], &payload);
    let score = validate(&bytes).byte_order.expect("scored");
    assert_eq!(score.bits, 0.0);
    let (report, out) = repair_bytes(&bytes, &stated_little());
    assert!(report.applied.is_empty(), "{:?}", report.applied);
    assert_eq!(out, bytes);
    assert_eq!(report.declined.len(), 1, "{:?}", report.declined);
    assert!(
        report.declined[0].contains("it reads big-endian (no less plausibly than little-endian"),
        "{:?}",
        report.declined
    );
}

/// A stated little-endian order swaps only what has bytes to swap: nothing
/// in a one-byte payload or an empty one, and in a payload cut inside an
/// element only the whole elements.
#[test]
fn a_stated_byte_order_swaps_only_whole_multi_byte_elements() {
    let u8s = with_header(0x08, &[64], &(1..=64u8).collect::<Vec<_>>());
    let empty = with_header(0x0b, &[0], &[]);
    for bytes in [u8s, empty] {
        let (report, out) = repair_bytes(&bytes, &stated_little());
        assert!(report.applied.is_empty(), "{:?}", report.applied);
        assert_eq!(out, bytes);
    }
    // i32 [6], little-endian, cut 2 bytes into element 5: too few
    // elements for IDX501, so the statement's own swap
    let vals = [300i32, 1000, 40000, 123, 5555, 9];
    let le: Vec<u8> = vals.iter().flat_map(|v| v.to_le_bytes()).collect();
    let bytes = with_header(0x0c, &[6], &le[..22]);
    let report = idx::plan(Cursor::new(&bytes), &stated_little()).unwrap();
    let swaps: Vec<_> = report
        .applied
        .iter()
        .map(|a| (a.rule, a.fix.edits.clone()))
        .filter(|(_, e)| matches!(e[..], [Edit::SwapBytes { .. }]))
        .collect();
    assert_eq!(
        swaps,
        [(
            None,
            vec![Edit::SwapBytes {
                offset: 8,
                length: 20,
                element_size: 4
            }]
        )]
    );
}

/// IDX501's swap rests on a statistical test (an unsafe fix); the writer's
/// byte order stated little-endian makes the same swap safe, and its
/// description says why.
#[test]
fn a_stated_little_endian_order_makes_idx501s_swap_safe_and_says_so() {
    let written = tech_report_writer(&array(ElementType::I16));
    let idx501 = |opts: &FixOptions| {
        let report = idx::plan(Cursor::new(&written), opts).unwrap();
        report
            .applied
            .into_iter()
            .find(|a| a.rule == Some(Rule::LikelyLittleEndian))
            .expect("IDX501's fix applied")
            .fix
    };
    let tested = idx501(&unsafe_fixes());
    let stated = idx501(&stated_little());
    assert_eq!(tested.applicability, Applicability::Unsafe);
    assert_eq!(stated.applicability, Applicability::Safe);
    assert_eq!(stated.edits, tested.edits);
    assert_eq!(
        stated.description,
        format!(
            "{} (the writer's byte order was stated)",
            tested.description
        )
    );
}

/// Only the reserved bytes wait for every other error's fix: a fix the
/// options allow is applied though another error's fix is not allowed
/// (here IDX501's swap, safe under the stated order, beside trailing
/// bytes whose deletion is unsafe).
#[test]
fn an_allowed_fix_is_applied_though_another_errors_fix_is_not_allowed() {
    let mut written = tech_report_writer(&array(ElementType::I16));
    written.extend([1, 2, 3]);
    let report = idx::plan(Cursor::new(&written), &stated_little()).unwrap();
    let rules: Vec<_> = report.applied.iter().map(|a| a.rule).collect();
    assert_eq!(rules, [Some(Rule::LikelyLittleEndian)]);
    let left: Vec<_> = report.after.findings.iter().map(|f| f.rule).collect();
    assert_eq!(left, [Rule::TrailingBytes]);
}

/// The reserved bytes wait for every other error that has a fix: an
/// error no fix answers (a type other than the one expected) leaves them
/// fixable.
#[test]
fn reserved_bytes_do_not_wait_for_an_error_without_a_fix() {
    let mut bytes = to_bytes(&array(ElementType::U8)).unwrap();
    bytes[1] = 0x01;
    let expect_i16 = idx::Options::default()
        .with_decompress(true)
        .with_expect_dtype(Some(ElementType::I16));
    let opts = unsafe_fixes().with_validate(expect_i16);
    let report = idx::plan(Cursor::new(&bytes), &opts).unwrap();
    let found: Vec<_> = report
        .before
        .findings
        .iter()
        .map(|f| (f.rule, f.severity(), f.fix.is_some()))
        .collect();
    assert_eq!(
        found,
        [
            (Rule::ReservedBytes, idx::Severity::Error, true),
            (Rule::UnexpectedType, idx::Severity::Error, false)
        ]
    );
    let rules: Vec<_> = report.applied.iter().map(|a| a.rule).collect();
    assert_eq!(rules, [Some(Rule::ReservedBytes)]);
}

/// Trailing bytes whose fix is a deletion leave the element width as it
/// is: a stated little-endian order still swaps the payload (only a
/// length error answered by another type code puts the width in question).
#[test]
fn trailing_bytes_cut_off_leave_a_stated_swap_to_be_made() {
    let vals = [300i32, 1000, 40000, 123, 5555, 9];
    let mut payload: Vec<u8> = vals.iter().flat_map(|v| v.to_le_bytes()).collect();
    payload.extend([1, 2, 3]);
    let bytes = with_header(0x0c, &[6], &payload);
    let report = idx::plan(Cursor::new(&bytes), &stated_little()).unwrap();
    assert!(report.declined.is_empty(), "{:?}", report.declined);
    let applied: Vec<_> = report
        .applied
        .iter()
        .map(|a| (a.rule, a.fix.edits.clone()))
        .collect();
    assert_eq!(
        applied,
        [(
            None,
            vec![Edit::SwapBytes {
                offset: 8,
                length: 24,
                element_size: 4
            }]
        )]
    );
    // and with the trailing bytes cut too: the statement's swap is chosen
    // with the cut, in the same round (a swap put off to a round of its
    // own would cost a third pass over the input)
    let both = stated_little().with_unsafe_fixes(true);
    let mut input = Counted {
        inner: Cursor::new(&bytes[..]),
        read: 0,
    };
    let report = idx::plan(&mut input, &both).unwrap();
    let rules: Vec<_> = report.applied.iter().map(|a| a.rule).collect();
    assert_eq!(rules, [Some(Rule::TrailingBytes), None]);
    let len = bytes.len() as u64;
    assert!(input.read < 3 * len, "{} bytes read of {len}", input.read);
    // the trailing bytes kept (their deletion not allowed) are not swapped
    let be: Vec<u8> = vals.iter().flat_map(|v| v.to_be_bytes()).collect();
    let tail = [1, 2, 3, 4, 5];
    let with_tail = |p: &[u8]| with_header(0x0c, &[6], &[p, &tail[..]].concat());
    let (_, out) = repair_bytes(&with_tail(&payload[..24]), &stated_little());
    assert_eq!(out, with_tail(&be));
}

/// While the element width is in question (a length error whose fix is
/// another type code), a stated little-endian order swaps nothing and says
/// why; with no order stated nothing is declined.
#[test]
fn a_stated_swap_waits_while_the_element_width_is_in_question() {
    let vals: Vec<f64> = (0..12).map(|i| f64::from(i) * 0.75 - 2.0).collect();
    let f64_be: Vec<u8> = vals.iter().flat_map(|v| v.to_be_bytes()).collect();
    let bytes = with_header(0x0d, &[3, 4], &f64_be); // f64 under an f32 header
    let stated = idx::plan(Cursor::new(&bytes), &stated_little()).unwrap();
    assert!(stated.applied.is_empty(), "{:?}", stated.applied);
    assert_eq!(stated.declined.len(), 1, "{:?}", stated.declined);
    assert!(
        stated.declined[0].contains("its element width is in question"),
        "{:?}",
        stated.declined
    );
    for opts in [FixOptions::default(), unsafe_fixes()] {
        let report = idx::plan(Cursor::new(&bytes), &opts).unwrap();
        assert!(report.declined.is_empty(), "{:?}", report.declined);
    }
}

/// The payload under little-endian dimensions starts after all of them:
/// with rank 3 and a short payload, its first bytes are the payload's own.
#[test]
fn little_endian_dimensions_of_rank_3_score_the_payload_right_after_them() {
    let vals: Vec<f32> = (0..8).map(|i| i as f32 * 0.75 + 1.0).collect();
    let mut b = vec![0, 0, 0x0d, 3];
    for _ in 0..3 {
        b.extend_from_slice(&2u32.to_le_bytes());
    }
    b.extend(vals.iter().flat_map(|v| v.to_le_bytes()));
    let r = validate(&b);
    let h = r
        .findings
        .iter()
        .find_map(|f| f.hint.as_deref().filter(|h| h.contains("byte-swapped")))
        .unwrap_or_else(|| panic!("{:?}", r.findings));
    assert!(h.contains("[2, 2, 2]"), "{h}");
    assert!(h.contains("; its f32 payload"), "{h}");
}

/// The width's fix swaps exactly the payload the stream holds: little-endian
/// f32 values under an f64 header of the same dimension (half the declared
/// payload) get the type code f32 and a swap of their 4000 bytes.
#[test]
fn a_width_fix_swaps_exactly_the_payload_present() {
    let vals: Vec<f32> = (0..1000)
        .map(|i| (i as f32 * 0.01).cos() * 2.0 - 0.5)
        .collect();
    let le: Vec<u8> = vals.iter().flat_map(|v| v.to_le_bytes()).collect();
    let r = validate(&with_header(0x0e, &[1000], &le));
    let f = r
        .findings
        .iter()
        .find(|f| f.rule == Rule::TruncatedPayload)
        .unwrap();
    let fix = f.fix.as_ref().unwrap();
    assert_eq!(
        fix.edits,
        [
            Edit::Replace {
                offset: 2,
                bytes: vec![0x0d]
            },
            Edit::SwapBytes {
                offset: 8,
                length: 4000,
                element_size: 4
            }
        ]
    );
}

/// A whole header stored little-endian whose dimensions read the same
/// either way (here the one dimension 0) is still rewritten big-endian.
#[test]
fn a_byte_swapped_header_whose_dimensions_read_the_same_either_way_is_rewritten() {
    let bytes = [1, 0x08, 0, 0, 0, 0, 0, 0];
    let r = validate(&bytes);
    let f = r
        .findings
        .iter()
        .find(|f| f.rule == Rule::ByteSwappedHeader)
        .unwrap_or_else(|| panic!("{:?}", r.findings));
    let fix = f.fix.as_ref().unwrap_or_else(|| panic!("{f:?}"));
    assert_eq!(
        fix.edits,
        [Edit::Replace {
            offset: 0,
            bytes: vec![0, 0, 0x08, 1, 0, 0, 0, 0]
        }]
    );
}

/// A payload cut short keeps its complete items: the first dimension is
/// lowered to their count, and only the bytes of a partial item after them
/// are dropped (none when the cut falls between items).
#[test]
fn a_truncated_payloads_fix_drops_exactly_the_partial_item() {
    // u8 [4, 3]: items of 3 bytes after a 12-byte header
    let fix_of = |present: usize| {
        let bytes = with_header(0x08, &[4, 3], &vec![7u8; present]);
        let r = validate(&bytes);
        let f = r
            .findings
            .iter()
            .find(|f| f.rule == Rule::TruncatedPayload)
            .unwrap();
        f.fix.clone().unwrap()
    };
    let lower = Edit::Replace {
        offset: 4,
        bytes: vec![0, 0, 0, 2],
    };
    let cut = fix_of(8);
    assert_eq!(
        cut.edits,
        [
            lower.clone(),
            Edit::Delete {
                offset: 18,
                length: 2
            }
        ]
    );
    assert!(
        cut.description
            .ends_with("and drop the 2 bytes of the partial item"),
        "{}",
        cut.description
    );
    let between = fix_of(6);
    assert_eq!(between.edits, [lower]);
    assert!(
        !between.description.contains("partial"),
        "{}",
        between.description
    );
}

/// Under a whole header stored little-endian, the payload scored starts
/// after all the dimensions: with rank 3 and a short payload, its first
/// bytes are the payload's own.
#[test]
fn a_byte_swapped_header_of_rank_3_scores_the_payload_right_after_it() {
    let vals: Vec<f32> = (0..8).map(|i| i as f32 * 0.75 + 1.0).collect();
    let mut b = vec![3, 0x0d, 0, 0];
    for _ in 0..3 {
        b.extend_from_slice(&2u32.to_le_bytes());
    }
    b.extend(vals.iter().flat_map(|v| v.to_le_bytes()));
    let r = validate(&b);
    let f = r
        .findings
        .iter()
        .find(|f| f.rule == Rule::ByteSwappedHeader)
        .unwrap_or_else(|| panic!("{:?}", r.findings));
    let hint = f.hint.as_deref().unwrap_or_default();
    assert!(hint.contains("; its f32 payload"), "{hint}");
}

/// ... and over too few elements it says the order cannot be told, not
/// that the payload reads one way or the other.
#[test]
fn a_byte_swapped_header_over_too_few_elements_leaves_the_payloads_order_untold() {
    let mut b = vec![1, 0x0d, 0, 0];
    b.extend_from_slice(&2u32.to_le_bytes());
    b.extend([1.0f32, 2.0].iter().flat_map(|v| v.to_le_bytes()));
    let r = validate(&b);
    let f = r
        .findings
        .iter()
        .find(|f| f.rule == Rule::ByteSwappedHeader)
        .unwrap_or_else(|| panic!("{:?}", r.findings));
    let hint = f.hint.as_deref().unwrap_or_default();
    assert!(
        hint.contains("; the byte order of its f32 payload cannot be told from its first bytes"),
        "{hint}"
    );
}

#[test]
fn a_byte_swap_past_a_cut_is_decided_on_the_elements_kept() {
    // i16 [10, 3] written little-endian, cut one byte short: the last item
    // keeps 2 whole elements and a byte. The truncation drops that item;
    // the byte swap decided over all 29 whole elements waits a round and is
    // decided again over the 27 kept (a swap decided on elements a fix
    // deletes could read the other way once they are gone)
    let a = Array::new(vec![10, 3], Data::I16((1..=30).collect())).unwrap();
    let le = tech_report_writer(&a);
    let cut = &le[..le.len() - 1];
    let (report, out) = repair_bytes(cut, &unsafe_fixes());
    let kept = Array::new(vec![9, 3], Data::I16((1..=27).collect())).unwrap();
    assert_eq!(out, to_bytes(&kept).unwrap());
    let swaps: Vec<&Edit> = report
        .applied
        .iter()
        .flat_map(|f| &f.fix.edits)
        .filter(|e| matches!(e, Edit::SwapBytes { .. }))
        .collect();
    assert_eq!(
        swaps,
        [&Edit::SwapBytes {
            offset: 12,
            length: 54,
            element_size: 2
        }],
        "{report:#?}"
    );
    check_repair(cut, &unsafe_fixes());
}

/// A stated range (or number of classes) proves the byte order, and the
/// swap it makes safe is applied to a plain input of any length: the plan
/// read only the header of an input longer than its first 1024 bytes, where
/// the range is never seen, so 255 labels were left unfixed while 254 were
/// fixed.
#[test]
fn a_swap_proved_by_a_stated_range_is_applied_whatever_the_length() {
    for n in [100usize, 254, 255, 10_000] {
        let labels = Array::from_vec(
            vec![n],
            (0..n).map(|i| (i * 7 % 10) as i32).collect::<Vec<_>>(),
        )
        .unwrap(); // ok: test data
        let le = tech_report_writer(&labels);
        let want = to_bytes(&labels).unwrap(); // ok: test data
        let proofs = [
            idx::Options::default().with_expect_range(Some((0, 9))),
            idx::Options::default().with_scan_labels(Some(Some(10))),
        ];
        for stated in proofs {
            let opts = FixOptions::default().with_validate(stated.clone());
            let mut out = Vec::new();
            let r = idx::repair(Cursor::new(&le), &mut out, &opts).unwrap(); // ok: in memory
            assert!(out == want, "{n} labels, {stated:?}: {:?}", r.declined);
            assert!(r.after.findings.is_empty(), "{n}: {:?}", r.after.findings);
            let planned = idx::plan(Cursor::new(&le), &opts).unwrap(); // ok: in memory
            assert_eq!(planned.applied.len(), 1, "{n} labels, {stated:?}");
        }
    }
}

/// `plan` (what `idx-validate --diff` shows) reports what validation
/// reports when it plans nothing: the payload's findings too, IDX501's
/// warning among them, not the structure alone it planned from.
#[test]
fn a_plan_with_nothing_to_fix_reports_the_payload_findings_too() {
    let pixels = Array::from_vec(
        vec![784],
        (0..784).map(|i| (i % 251) as i16).collect::<Vec<_>>(),
    )
    .unwrap(); // ok: test data
    let le = tech_report_writer(&pixels);
    let r = idx::plan(Cursor::new(&le), &FixOptions::default()).unwrap(); // ok: in memory
    assert!(!r.changed());
    let rules = |f: &[idx::Finding]| f.iter().map(|f| f.rule).collect::<Vec<_>>();
    assert_eq!(rules(&r.after.findings), rules(&validate(&le).findings));
    assert_eq!(rules(&r.after.findings), [Rule::LikelyLittleEndian]);
}
