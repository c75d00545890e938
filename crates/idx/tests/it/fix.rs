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
    // random-looking data: the lint cannot tell, the statement can
    let a = Array::new(
        vec![40],
        Data::I32(
            (0..40)
                .map(|i: i32| i.wrapping_mul(0x9e37_79b9u32 as i32))
                .collect(),
        ),
    )
    .unwrap();
    let written = tech_report_writer(&a);
    assert!(validate(&written).findings.is_empty());
    let (report, out) = repair_bytes(&written, &stated_little());
    assert_eq!(out, to_bytes(&a).unwrap());
    assert_eq!(report.applied.len(), 1);
    assert_eq!(report.applied[0].rule, None);
    assert_eq!(report.applied[0].fix.applicability, Applicability::Safe);
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
