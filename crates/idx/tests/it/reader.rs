//! `idx::Reader`: the one way to read an input, and the one verdict of
//! spec 6.1 on every one of its paths.

use idx::lint::byteorder::score;
use idx::{ByteOrder, ElementType, Options, ReadError, ReadOptions, Reader, Rule, Severity};
use std::io::Read;
use std::num::NonZeroUsize;
use test_support::payloads::{big_endian, little_endian_twin, Kind, Type};

/// The README's technical-report writer: `arange(24)` as f32 `[2, 3, 4]`,
/// header big-endian, elements in native (little-endian) order.
fn report_writer_file() -> Vec<u8> {
    let mut b = vec![0, 0, 0x0d, 3, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4];
    for i in 0..24 {
        b.extend_from_slice(&(i as f32).to_le_bytes());
    }
    b
}

fn opts(stated: Option<ByteOrder>) -> ReadOptions {
    ReadOptions::default().with_byte_order(stated)
}

/// `IDX501=error`: the byte-order test's warning made a refusal.
fn strict(o: ReadOptions) -> ReadOptions {
    o.with_severity("IDX501=error".parse().unwrap()) // ok: test
}

type Found = (Rule, Severity, u64, String);

/// What one path gives: the values and its warnings, or its error.
type PathResult = Result<(Vec<f32>, Vec<Found>), Found>;

fn found(f: &idx::Finding) -> Found {
    (f.rule, f.severity(), f.offset, f.message.clone())
}

/// Every way the reader decodes a payload, each as f32 values with the
/// warnings it reports, or the error.
fn every_path(bytes: &[u8], read: &ReadOptions) -> Vec<PathResult> {
    let err = |e: ReadError| match e {
        ReadError::Invalid(e) => found(e.finding()),
        other => panic!("{other}"),
    };
    let warned = |w: Vec<idx::Finding>| w.iter().map(found).collect::<Vec<_>>();
    let mut out = Vec::new();
    // read_array
    out.push(
        Reader::new(bytes, read)
            .and_then(Reader::read_array)
            .map(|(a, w)| match a.data() {
                idx::Data::F32(v) => (v.clone(), warned(w)),
                _ => unreachable!(),
            })
            .map_err(err),
    );
    // read_into
    out.push(
        Reader::new(bytes, read)
            .and_then(|r| {
                let mut v = vec![0f32; r.header().element_count() as usize];
                r.read_into(bytemuck::cast_slice_mut(&mut v))
                    .map(|w| (v, warned(w)))
            })
            .map_err(err),
    );
    // read_into_parallel, one and four threads
    for threads in [1usize, 4] {
        out.push(
            Reader::at(bytes, read)
                .and_then(|r| {
                    assert!(r.output_buffer_size().unwrap().is_some());
                    let mut v = vec![0f32; r.header().element_count() as usize];
                    r.read_into_parallel(
                        bytemuck::cast_slice_mut(&mut v),
                        NonZeroUsize::new(threads).unwrap(),
                    )
                    .map(|w| (v, warned(w)))
                })
                .map_err(err),
        );
    }
    // decode_in_place, on the payload's stored bytes
    out.push({
        let r = Reader::new(bytes, read).unwrap();
        let h = r.header().clone();
        let mut payload = bytes[h.header_len()..].to_vec();
        Reader::decode_in_place(&h, &mut payload, read, NonZeroUsize::MIN)
            .map(|w| {
                let v = payload
                    .chunks(4)
                    .map(|c| f32::from_ne_bytes([c[0], c[1], c[2], c[3]]))
                    .collect();
                (v, warned(w))
            })
            .map_err(err)
    });
    // validate, then stream
    let (report, validated) = Reader::validate(bytes, Some(bytes.len() as u64), read).unwrap();
    out.push(match validated {
        Some(v) => {
            let mut b = Vec::new();
            v.payload(bytes).unwrap().read_to_end(&mut b).unwrap();
            // (the stream is big-endian, whatever the stated order)
            Ok((
                b.chunks(4)
                    .map(|c| f32::from_be_bytes([c[0], c[1], c[2], c[3]]))
                    .collect(),
                report.findings.iter().map(found).collect(),
            ))
        }
        None => Err(found(report.errors().next().unwrap())),
    });
    out
}

/// One file, one verdict: validation calls the writer's file little-endian
/// with an IDX501 warning (a statistical test proves nothing), and every
/// reading path decodes it as IDX says with that same warning; with
/// `IDX501=error` every path refuses it with that finding; stated
/// little-endian, every path decodes `0..24` with no finding; stated
/// big-endian, every path decodes the bytes as IDX says, untested.
#[test]
fn every_path_gives_the_technical_report_writers_file_one_verdict() {
    let file = report_writer_file();
    let report = idx::validate(&file);
    assert!(report.is_valid(), "a warning, not an error");
    let f = report.findings.first().expect("an IDX501 warning");
    assert_eq!(
        (f.rule, f.severity()),
        (Rule::LikelyLittleEndian, Severity::Warning)
    );
    assert!(
        f.message.contains("score") && f.message.contains("not a proof"),
        "{}",
        f.message
    );
    let as_is: Vec<u32> = file[16..]
        .chunks(4)
        .map(|c| u32::from_be_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    for got in every_path(&file, &ReadOptions::default()) {
        let (v, w) = got.unwrap();
        assert_eq!((bits(&v), w), (as_is.clone(), vec![found(f)]));
    }
    let refused = (f.rule, Severity::Error, f.offset, f.message.clone());
    for got in every_path(&file, &strict(ReadOptions::default())) {
        assert_eq!(got, Err(refused.clone()));
    }
    let values: Vec<f32> = (0..24).map(|i| i as f32).collect();
    for read in [
        opts(Some(ByteOrder::Little)),
        strict(opts(Some(ByteOrder::Little))),
    ] {
        for got in every_path(&file, &read) {
            assert_eq!(got, Ok((values.clone(), vec![])));
        }
    }
    for got in every_path(&file, &strict(opts(Some(ByteOrder::Big)))) {
        let (v, w) = got.unwrap();
        assert_eq!((bits(&v), w), (as_is.clone(), vec![]));
    }
}

/// A little-endian payload that is also cut short or followed by more
/// bytes: validation orders its findings by offset, and the byte-order
/// finding (at the payload's start, judged on the whole elements present)
/// comes before the truncation or the trailing bytes: by default it is a
/// warning and every path refuses the file for its length, as validation;
/// made an error (`IDX501=error`), every path refuses it for its byte
/// order first, raw and gzip alike.
#[test]
fn a_little_endian_payload_cut_short_or_followed_by_more_is_refused_for_its_byte_order_first() {
    use std::io::Write;
    let file = report_writer_file();
    let gz = |b: &[u8]| {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(b).unwrap(); // ok: test
        e.finish().unwrap() // ok: test
    };
    let mut cases: Vec<(String, Vec<u8>)> = Vec::new();
    for cut in [1, 3, 9, 40] {
        cases.push((format!("cut {cut}"), file[..file.len() - cut].to_vec()));
        let z = gz(&file[..file.len() - cut]);
        cases.push((format!("gzip, cut {cut}"), z));
    }
    let mut more = file.clone();
    more.extend_from_slice(&[1, 2, 3]);
    cases.push(("3 bytes more".into(), more.clone()));
    cases.push(("gzip, 3 bytes more".into(), gz(&more)));
    let z = gz(&file);
    cases.push((
        "gzip cut inside its payload".into(),
        z[..z.len() - 12].to_vec(),
    ));
    for ((what, bytes), strictly) in cases
        .iter()
        .flat_map(|c| [(c.clone(), false), (c.clone(), true)])
    {
        let what = format!("{what}, IDX501=error: {strictly}");
        let severity: idx::Severities = if strictly {
            "IDX501=error".parse().unwrap() // ok: test
        } else {
            Default::default()
        };
        let opts = Options::default()
            .with_decompress(true)
            .with_severity(severity.clone());
        let report = idx::validate_with(&bytes, &opts);
        let first = report
            .errors()
            .next()
            .map(|f| (f.rule, f.offset, f.message.clone()));
        assert_eq!(
            first
                .as_ref()
                .map(|f| f.0 == Rule::LikelyLittleEndian && f.1 == 16),
            Some(strictly),
            "{what}: validation"
        );
        assert!(
            report
                .findings
                .iter()
                .any(|f| f.rule == Rule::LikelyLittleEndian),
            "{what}: the warning is there either way"
        );
        let err = |r: Result<(), ReadError>| match r {
            Err(ReadError::Invalid(e)) => Some((e.rule(), e.offset(), e.finding().message.clone())),
            other => panic!("{what}: {other:?}"),
        };
        let read = ReadOptions::default().with_severity(severity);
        let array = Reader::new(&bytes[..], &read)
            .and_then(Reader::read_array)
            .map(drop);
        assert_eq!(err(array), first, "{what}: read_array");
        let into = Reader::new(&bytes[..], &read).and_then(|r| {
            let mut v = vec![0u8; r.header().payload_len() as usize];
            r.read_into(&mut v).map(drop)
        });
        assert_eq!(err(into), first, "{what}: read_into");
        for threads in [1usize, 4] {
            let parallel = Reader::at(&bytes[..], &read).and_then(|r| {
                let mut v = vec![0u8; r.header().payload_len() as usize];
                r.read_into_parallel(&mut v, NonZeroUsize::new(threads).unwrap())
                    .map(drop) // ok: test
            });
            assert_eq!(
                err(parallel),
                first,
                "{what}: read_into_parallel({threads})"
            );
        }
        if !bytes.starts_with(&[0x1f, 0x8b]) && !strictly {
            let parsed = idx::parse(&bytes).map(drop).map_err(ReadError::Invalid);
            assert_eq!(err(parsed), first, "{what}: parse");
        }
    }
}

/// A stated byte order the evidence contradicts is used as stated, with
/// the same warning on every path (a refusal with `IDX501=error`): a
/// correct big-endian payload stated little-endian.
#[test]
fn a_contradicted_statement_is_warned_of_everywhere() {
    let mut file = vec![0, 0, 0x0d, 1, 0, 0, 0x03, 0xe8];
    file.extend(big_endian(Kind::Normal, Type::F32, 1000, 1));
    assert!(idx::validate(&file).is_valid());
    for got in every_path(&file, &opts(Some(ByteOrder::Little))) {
        let (_, warnings) = got.unwrap();
        let [(rule, severity, offset, message)] = &warnings[..] else {
            panic!("{warnings:?}")
        };
        assert_eq!(
            (*rule, *severity, *offset),
            (Rule::LikelyLittleEndian, Severity::Warning, 8)
        );
        assert!(message.contains("stated little-endian"), "{message}");
    }
    for got in every_path(&file, &strict(opts(Some(ByteOrder::Little)))) {
        let (rule, severity, offset, _) = got.unwrap_err();
        assert_eq!(
            (rule, severity, offset),
            (Rule::LikelyLittleEndian, Severity::Error, 8)
        );
    }
    for got in every_path(&file, &ReadOptions::default()) {
        assert_eq!(got.unwrap().1, vec![]);
    }
}

/// The byte-order test is symmetric: a payload with every element
/// byte-swapped scores the mirror of the payload's score, for every kind
/// of the benchmark (so a stated swap and a second run agree), unless one
/// of the two was settled at a checkpoint (decisively big-endian on its
/// first distinct values: fewer elements scored); then the other reads
/// little-endian.
#[test]
fn swapping_every_element_mirrors_the_score() {
    use idx::fuzzing::STOP_BITS;
    for &kind in Kind::ALL {
        for &t in kind.types() {
            let et = ElementType::from_code(t.code()).unwrap();
            let p = big_endian(kind, t, 700, 2);
            let (a, b) = (
                score(et, &p).unwrap(),
                score(et, &little_endian_twin(t, &p)).unwrap(),
            );
            let what = format!("{} {}: {a:?} {b:?}", kind.label(), t.name());
            if a.elements == b.elements {
                assert_eq!(a.mirrored(), b, "{what}");
            } else {
                let (settled, other) = if a.elements < b.elements {
                    (a, b)
                } else {
                    (b, a)
                };
                assert!(settled.bits <= -STOP_BITS && other.bits > 0.0, "{what}");
            }
        }
    }
}

/// Damaged gzip and the decompression limit are the located findings
/// IDX701 and IDX702 on every path, where validation locates them.
#[test]
fn gzip_damage_and_the_limit_are_located_findings() {
    let mut raw = vec![0, 0, 0x08, 1, 0, 1, 0, 0];
    raw.extend((0..65536u32).map(|i| (i * 7 % 251) as u8));
    let gz = test_support::gzip(&raw);
    let cut = &gz[..gz.len() / 2];
    let vopts = Options::default()
        .with_decompress(true)
        .with_max_decompressed(Some(idx::DEFAULT_MAX_DECOMPRESSED));
    let v = idx::validate_with(cut, &vopts);
    let f = v.errors().find(|f| f.rule == Rule::GzipDamaged).unwrap();
    let e = Reader::new(cut, &ReadOptions::default())
        .and_then(Reader::read_array)
        .unwrap_err();
    match e {
        ReadError::Invalid(e) => assert_eq!((e.rule(), e.offset()), (f.rule, f.offset)),
        other => panic!("{other}"),
    }
    let limited = ReadOptions::default().with_max_decompressed(Some(1000));
    let e = Reader::new(&gz[..], &limited)
        .and_then(Reader::read_array)
        .unwrap_err();
    match e {
        ReadError::Invalid(e) => {
            assert_eq!((e.rule(), e.offset()), (Rule::DecompressionLimit, 1000))
        }
        other => panic!("{other}"),
    }
    // a limit inside the header too
    let e = Reader::new(
        &gz[..],
        &ReadOptions::default().with_max_decompressed(Some(5)),
    )
    .unwrap_err();
    assert!(matches!(e, ReadError::Invalid(e) if e.rule() == Rule::DecompressionLimit));
    // and the whole stream within the limit reads
    let a = Reader::new(&gz[..], &ReadOptions::default())
        .and_then(Reader::read_array)
        .unwrap();
    assert_eq!(a.0.dims(), &[65536]);
}

/// A payload stated little-endian streams as big-endian elements through
/// any read sizes, partial elements included.
#[test]
fn a_stated_little_endian_payload_streams_big_endian_in_any_pieces() {
    let mut file = vec![0, 0, 0x0c, 1, 0, 0, 0, 100];
    let values: Vec<i32> = (0..100).map(|i| i * 1000 - 7).collect();
    for v in &values {
        file.extend_from_slice(&v.to_le_bytes());
    }
    let canonical: Vec<u8> = values.iter().flat_map(|v| v.to_be_bytes()).collect();
    for piece in [1usize, 3, 4, 7, 4096] {
        let (_, v) = Reader::validate(&file[..], None, &opts(Some(ByteOrder::Little))).unwrap();
        let mut p = v.unwrap().payload(&file[..]).unwrap();
        let mut got = Vec::new();
        let mut buf = vec![0u8; piece];
        loop {
            let k = p.read(&mut buf).unwrap();
            if k == 0 {
                break;
            }
            got.extend_from_slice(&buf[..k]);
        }
        assert_eq!(got, canonical, "pieces of {piece}");
    }
}

/// The Reader's first error (or none) against validation's, for `bytes`
/// read with `limit` (the same limit both ways): rule, offset and message,
/// by `read_array` and by `read_into` (which `read_into_parallel` uses for
/// gzip).
fn first_errors_agree(name: &str, bytes: &[u8], limit: u64) -> Result<(), String> {
    let opts = Options::default()
        .with_decompress(true)
        .with_max_decompressed(Some(limit));
    let report = idx::validate_with(bytes, &opts);
    let first = report
        .errors()
        .next()
        .map(|f| (f.rule.code(), f.offset, f.message.clone()));
    let read = ReadOptions::default().with_max_decompressed(Some(limit));
    let outcome = |r: Result<(), ReadError>| match r {
        Ok(()) => Ok(None),
        Err(ReadError::Invalid(e)) => Ok(Some((
            e.rule().code(),
            e.offset(),
            e.finding().message.clone(),
        ))),
        Err(other) => Err(other.to_string()),
    };
    let array = outcome(
        Reader::new(bytes, &read)
            .and_then(Reader::read_array)
            .map(drop),
    );
    let into = outcome(Reader::new(bytes, &read).and_then(|r| {
        // a buffer of the header's size, but never more than the input
        // could hold decompressed (a damaged header may declare any size)
        match usize::try_from(r.header().payload_len()) {
            Ok(n) if n <= 1 << 24 => r.read_into(&mut vec![0u8; n]).map(drop),
            _ => r.read_array().map(drop),
        }
    }));
    for (path, got) in [("read_array", array), ("read_into", into)] {
        if got != Ok(first.clone()) {
            return Err(format!("{name}: validation {first:?}, {path} {got:?}"));
        }
    }
    Ok(())
}

#[test]
fn the_readers_first_error_is_validations_on_damaged_gzip_and_at_the_limit() {
    // damage after a finding the decoded bytes already show (bad magic,
    // trailing bytes, a refused payload) leaves that finding first, as
    // validation orders them; damage that cuts what the reader needs is
    // IDX701; a payload that ends at the limit of a longer stream is IDX702
    use std::io::Write;
    let gz = |b: &[u8]| {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(b).unwrap(); // ok: test
        e.finish().unwrap() // ok: test
    };
    let mut bad = Vec::new();
    let mut n = 0;
    for dir in ["valid", "invalid"] {
        let d = test_support::root().join("corpus").join(dir);
        let mut paths: Vec<_> = std::fs::read_dir(&d)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .collect(); // ok: test
        paths.sort();
        for p in paths {
            let name = p.file_name().unwrap().to_string_lossy().to_string(); // ok: test
            let raw = std::fs::read(&p).unwrap(); // ok: test
            if raw.len() > 1 << 16 {
                continue;
            }
            let z = if raw.starts_with(&[0x1f, 0x8b]) {
                raw.clone()
            } else {
                gz(&raw)
            };
            let mut cases: Vec<(String, Vec<u8>, u64)> = Vec::new();
            for k in (1..8).filter(|_| z.len() > 18) {
                let cut = 10 + (z.len() - 10) * k / 8;
                cases.push((format!("{name} cut at {cut}"), z[..cut].to_vec(), 1 << 30));
            }
            let mut junk = z.clone();
            junk.extend_from_slice(b"junk");
            cases.push((format!("{name} + junk"), junk, 1 << 30));
            if z.len() > 20 {
                let mut flipped = z.clone();
                flipped[z.len() - 6] ^= 0x10; // the trailer's CRC: damage at the end
                cases.push((format!("{name} CRC flipped"), flipped, 1 << 30));
            }
            // the limit: at the stream's length with one byte more after it
            let mut more = raw.clone();
            more.push(0);
            if !raw.starts_with(&[0x1f, 0x8b]) {
                cases.push((
                    format!("{name} + 1 byte, limit at its length"),
                    gz(&more),
                    raw.len() as u64,
                ));
            }
            for (what, bytes, limit) in cases {
                n += 1;
                if let Err(e) = first_errors_agree(&what, &bytes, limit) {
                    bad.push(e);
                }
            }
        }
    }
    assert!(n > 1000, "{n} inputs");
    assert!(
        bad.is_empty(),
        "{} of {n} disagree:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

/// On every corpus file the reader's first error is validation's first
/// error (gzip decompressed within the default limit, no byte order
/// stated): one verdict, one finding.
#[test]
fn the_readers_first_error_is_validations_on_the_whole_corpus() {
    let opts = Options::default()
        .with_decompress(true)
        .with_max_decompressed(Some(idx::DEFAULT_MAX_DECOMPRESSED));
    let mut n = 0;
    for dir in ["valid", "invalid", "implementation-defined"] {
        let d = test_support::root().join("corpus").join(dir);
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            let name = p.file_name().unwrap().to_string_lossy().to_string();
            if !(name.ends_with(".idx") || name.ends_with(".gz")) {
                continue;
            }
            let bytes = std::fs::read(&p).unwrap();
            let report = idx::validate_with(&bytes, &opts);
            let first = report.errors().next().map(|f| (f.rule, f.offset));
            let got = Reader::new(&bytes[..], &ReadOptions::default()).and_then(Reader::read_array);
            match (first, got) {
                (None, Ok(_)) => {}
                (Some(f), Err(ReadError::Invalid(e))) => {
                    assert_eq!((e.rule(), e.offset()), f, "{name}")
                }
                (f, g) => panic!(
                    "{name}: validation {f:?}, reader {:?}",
                    g.map(|a| a.0.dims().to_vec())
                ),
            }
            n += 1;
        }
    }
    assert!(n > 150, "{n}");
}

/// The validate-then-read path: an input that changed between validation
/// and the second read (cut short, its gzip stream damaged) is an error of
/// the payload stream, never a short payload taken for the whole.
#[test]
fn a_validated_input_that_ends_early_on_the_second_read_is_an_error() {
    use std::io::Write;
    let mut file = vec![0, 0, 0x0b, 1, 0, 0, 0x03, 0xe8];
    file.extend(big_endian(Kind::Normal, Type::I16, 1000, 7));
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(&file).unwrap(); // ok: test
    let gz = gz.finish().unwrap(); // ok: test
    let mut longer = file.clone();
    longer.extend_from_slice(&[1, 2, 3]);
    for (what, whole, later) in [
        ("raw, cut", &file[..], &file[..file.len() - 101]),
        ("raw, bytes appended", &file[..], &longer[..]),
        ("gzip, cut", &gz[..], &gz[..gz.len() * 2 / 3]),
        ("gzip, trailer damaged", &gz[..], &gz[..gz.len() - 3]),
    ] {
        for stated in [None, Some(ByteOrder::Little)] {
            let (report, validated) = Reader::validate(whole, None, &opts(stated)).unwrap(); // ok: test
            let v = validated.unwrap_or_else(|| panic!("{what}: {report:?}"));
            let mut out = Vec::new();
            let e = v.payload(later).unwrap().read_to_end(&mut out).unwrap_err(); // ok: test
            assert_eq!(e.kind(), std::io::ErrorKind::InvalidData, "{what}: {e}");
            assert!(
                e.to_string().contains("changed since it was validated"),
                "{what}: {e}"
            );
        }
    }
    // and the swapping path (stated little-endian): a little-endian twin
    let mut le = vec![0, 0, 0x0b, 1, 0, 0, 0x03, 0xe8];
    le.extend(little_endian_twin(
        Type::I16,
        &big_endian(Kind::Normal, Type::I16, 1000, 7),
    ));
    let stated = opts(Some(ByteOrder::Little));
    let (_, v) = Reader::validate(&le[..], None, &stated).unwrap(); // ok: test
    let mut out = Vec::new();
    let e = v
        .expect("valid when stated")
        .payload(&le[..le.len() - 101])
        .unwrap() // ok: test
        .read_to_end(&mut out)
        .unwrap_err();
    assert!(e.to_string().contains("ends 101 bytes before"), "{e}");
}

/// A source's own error (here of kind `InvalidData`, as a network or FUSE
/// file system may give) while a gzip stream is read is that I/O error on
/// every path, as validation reports it, and never taken for damage of the
/// gzip stream (IDX701).
#[test]
fn a_sources_own_error_inside_a_gzip_stream_is_an_io_error_not_damage() {
    use std::io::Write;
    struct Failing<'a>(&'a [u8]);
    impl Read for Failing<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            if self.0.is_empty() {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::InvalidData,
                    "the disk failed",
                ));
            }
            let k = buf.len().min(self.0.len()).min(7);
            buf[..k].copy_from_slice(&self.0[..k]);
            self.0 = &self.0[k..];
            Ok(k)
        }
    }
    let mut file = vec![0, 0, 0x0b, 1, 0, 0, 0x03, 0xe8];
    file.extend(big_endian(Kind::Normal, Type::I16, 1000, 3));
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(&file).unwrap(); // ok: test
    let gz = gz.finish().unwrap(); // ok: test
    let half = &gz[..gz.len() / 2];
    let e = Reader::new(Failing(half), &ReadOptions::default())
        .and_then(Reader::read_array)
        .unwrap_err();
    assert!(
        matches!(&e, ReadError::Io(io) if io.to_string() == "the disk failed"),
        "{e:?}"
    );
    let v = idx::validate_reader(Failing(half), &Options::default().with_decompress(true));
    assert_eq!(v.unwrap_err().to_string(), "the disk failed");
}

/// A byte order stated little-endian on a payload that barely
/// distinguishes the two orders (random bit patterns: hashes) is used as
/// stated, and every path says so in a note with the score (severity
/// info, which `IDX501=error` does not change: the read succeeds), the
/// note validation reports too; a payload that reads little-endian, as
/// stated, gets no note.
#[test]
fn a_statement_on_a_payload_that_barely_distinguishes_the_orders_is_noted() {
    let mut file = vec![0, 0, 0x0d, 1, 0, 0, 0x02, 0x00];
    file.extend(big_endian(Kind::Hashes, Type::F32, 512, 3));
    let s = score(ElementType::F32, &file[8..]).unwrap();
    assert!(
        s.verdict() == idx::lint::Verdict::None
            && s.mirrored().verdict() != idx::lint::Verdict::Certain,
        "{s:?}"
    );
    let note = format!(
        "the f32 payload barely distinguishes the byte orders (score {:.1} bits); the stated order, little-endian, is used",
        (s.bits * 10.0).trunc() / 10.0
    );
    for o in [
        opts(Some(ByteOrder::Little)),
        strict(opts(Some(ByteOrder::Little))),
    ] {
        for got in every_path(&file, &o) {
            let (_, mut warnings) = got.unwrap();
            warnings.retain(|w| w.0 == Rule::LikelyLittleEndian); // (IDX502: random bits hold NaN)
            assert_eq!(
                warnings,
                vec![(Rule::LikelyLittleEndian, Severity::Info, 8, note.clone())]
            );
        }
    }
    let v = idx::validate_with(
        &file,
        &Options::default().with_byte_order(Some(ByteOrder::Little)),
    );
    let found: Vec<Found> = v
        .findings
        .iter()
        .filter(|f| f.rule == Rule::LikelyLittleEndian) // (random bits hold NaN: IDX502)
        .map(found)
        .collect();
    assert_eq!(
        found,
        vec![(Rule::LikelyLittleEndian, Severity::Info, 8, note.clone())]
    );
    // nothing stated: nothing to say (the test reads neither order)
    for got in every_path(&file, &ReadOptions::default()) {
        let (_, mut warnings) = got.unwrap();
        warnings.retain(|w| w.0 == Rule::LikelyLittleEndian);
        assert_eq!(warnings, vec![]);
    }
    // a payload that reads little-endian, as stated: no note
    for got in every_path(&report_writer_file(), &opts(Some(ByteOrder::Little))) {
        assert_eq!(got.unwrap().1, vec![]);
    }
}

/// A payload stated little-endian, read in pieces smaller than an element,
/// from a source cut inside an element: the read fails and says how many
/// payload bytes are missing, counted from the element it could not finish.
#[test]
fn a_cut_inside_an_element_read_in_small_pieces_says_how_many_bytes_are_missing() {
    let mut file = vec![0, 0, 0x0c, 1, 0, 0, 0, 100];
    for i in 0..100i32 {
        file.extend_from_slice(&(i * 1000 - 7).to_le_bytes());
    }
    let stated = opts(Some(ByteOrder::Little));
    let (_, v) = Reader::validate(&file[..], None, &stated).unwrap(); // ok: test
    let v = v.expect("valid when stated");
    for cut in [2usize, 6, 7] {
        let mut p = v.payload(&file[..file.len() - cut]).unwrap(); // ok: test
        let mut one = [0u8; 1];
        let e = loop {
            match p.read(&mut one) {
                Ok(0) => panic!("cut by {cut}: the payload ended without an error"),
                Ok(_) => {}
                Err(e) => break e,
            }
        };
        assert_eq!(
            e.kind(),
            std::io::ErrorKind::InvalidData,
            "cut by {cut}: {e}"
        );
        assert!(
            e.to_string()
                .contains(&format!("ends {cut} bytes before its payload does")),
            "cut by {cut}: {e}"
        );
    }
}

/// Bytes after a validated payload that were not there when it was
/// validated are named as such, not as a payload that ends early.
#[test]
fn bytes_appended_since_validation_are_named_as_bytes_after_the_payload() {
    let file = [0, 0, 0x08, 1, 0, 0, 0, 3, 1, 2, 3];
    let (_, v) = Reader::validate(&file[..], None, &ReadOptions::default()).unwrap(); // ok: test
    let mut longer = file.to_vec();
    longer.push(9);
    let mut out = Vec::new();
    let e = v
        .expect("valid")
        .payload(&longer[..])
        .unwrap() // ok: test
        .read_to_end(&mut out)
        .unwrap_err();
    assert!(e.to_string().contains("bytes follow its payload"), "{e}");
}

/// `Payload::skip_items` skips whole items, however many reads that takes
/// (items longer than its buffer), and stops at the payload's end;
/// `remaining` counts what is left.
#[test]
fn skipping_items_skips_exactly_their_bytes_even_past_one_buffer() {
    let (n, item) = (3u32, 10_000u32);
    let mut file = vec![0, 0, 0x08, 2];
    file.extend_from_slice(&n.to_be_bytes());
    file.extend_from_slice(&item.to_be_bytes());
    file.extend((0..n * item).map(|i| (i % 251) as u8));
    let (_, v) = Reader::validate(&file[..], None, &ReadOptions::default()).unwrap(); // ok: test
    let v = v.expect("valid");
    let mut p = v.payload(&file[..]).unwrap(); // ok: test
    assert_eq!(p.remaining(), u64::from(n * item));
    p.skip_items(0).unwrap(); // ok: test
    assert_eq!(p.remaining(), u64::from(n * item));
    p.skip_items(1).unwrap(); // ok: test
    assert_eq!(p.remaining(), u64::from((n - 1) * item));
    let mut next = [0u8; 3];
    p.read_exact(&mut next).unwrap(); // ok: test
    let at = item as usize;
    assert_eq!(
        next,
        [
            (at % 251) as u8,
            ((at + 1) % 251) as u8,
            ((at + 2) % 251) as u8
        ]
    );
    p.skip_items(5).unwrap(); // ok: test
    assert_eq!(p.remaining(), 0);
}

/// The builders of `ReadOptions` reach the reader: decompression off
/// reports gzip (IDX402), a limit stops a stream past it (IDX702), and
/// the reader says which container it read.
#[test]
fn read_options_builders_decide_how_gzip_is_read() {
    use std::io::Write;
    let mut file = vec![0, 0, 0x08, 1, 0, 0, 0x10, 0];
    file.resize(8 + 4096, 7);
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(&file).unwrap(); // ok: test
    let gz = gz.finish().unwrap(); // ok: test
    let r = Reader::new(&gz[..], &ReadOptions::default()).unwrap(); // ok: test
    assert_eq!(r.compression(), Some(idx::Compression::Gzip));
    assert_eq!(r.read_array().unwrap().0.dims(), &[4096]); // ok: test
    let raw = Reader::new(&file[..], &ReadOptions::default()).unwrap(); // ok: test
    assert_eq!(raw.compression(), None);
    let first_rule = |e: ReadError| match e {
        ReadError::Invalid(f) => f.rule().code(),
        other => panic!("{other}"),
    };
    let off = ReadOptions::default().with_decompress(false);
    assert_eq!(
        first_rule(Reader::new(&gz[..], &off).unwrap_err()),
        "IDX402"
    );
    let small = ReadOptions::default().with_limits(idx::Limits::from_setting(Some(1000)));
    let r = Reader::new(&gz[..], &small).unwrap(); // ok: test
    assert_eq!(first_rule(r.read_array().unwrap_err()), "IDX702");
}

/// `decode_in_place` in parallel parts converts every element, whatever
/// the number of threads, also when the parts do not split evenly into
/// elements of four bytes.
#[test]
fn decoding_in_place_in_parallel_parts_converts_every_element() {
    use idx::__private::MIN_BYTES_PER_THREAD;
    let n = 2 * MIN_BYTES_PER_THREAD / 4 + 10;
    let values: Vec<i32> = (0..n as i32).map(|i| i.wrapping_mul(7919) - 3).collect();
    let stored: Vec<u8> = values.iter().flat_map(|v| v.to_be_bytes()).collect();
    let header = idx::Header::new(ElementType::I32, vec![n as u32]).unwrap(); // ok: test
    let stated = ReadOptions::default().with_byte_order(Some(ByteOrder::Big));
    for threads in [1usize, 2, 3, 8] {
        let mut payload = stored.clone();
        let t = NonZeroUsize::new(threads).unwrap(); // ok: test
        Reader::decode_in_place(&header, &mut payload, &stated, t).unwrap(); // ok: test
        let got: Vec<i32> = payload
            .chunks_exact(4)
            .map(|c| i32::from_ne_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        assert!(got == values, "{threads} threads");
    }
}

/// `output_buffer_size` is the payload's length when the source holds it
/// whole (raw), and `None` for gzip or a source cut short.
#[test]
fn the_output_buffer_size_is_the_payload_length_of_a_whole_raw_source() {
    use std::io::Write;
    let mut file = vec![0, 0, 0x0b, 2, 0, 0, 0, 3, 0, 0, 0, 5];
    file.extend((0..30u8).map(|i| i.wrapping_mul(37)));
    let r = Reader::at(&file[..], &ReadOptions::default()).unwrap(); // ok: test
    assert_eq!(r.output_buffer_size().unwrap(), Some(30)); // ok: test
    let cut = Reader::at(&file[..file.len() - 1], &ReadOptions::default()).unwrap(); // ok: test
    assert_eq!(cut.output_buffer_size().unwrap(), None); // ok: test
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(&file).unwrap(); // ok: test
    let gz = gz.finish().unwrap(); // ok: test
    let g = Reader::at(&gz[..], &ReadOptions::default()).unwrap(); // ok: test
    assert_eq!(g.output_buffer_size().unwrap(), None); // ok: test
}

/// What a reading path says of an input, as findings: the first error, or
/// the warnings of a read that succeeded.
type Said = Result<Vec<idx::Finding>, Box<idx::Finding>>;

/// What `read_array`, `read_into` and `read_into_parallel` (one thread and
/// four; gzip is read as `read_into` reads it) say of `bytes` under `read`,
/// and `decode_in_place` of a raw input that holds its payload exactly.
fn reader_says(bytes: &[u8], read: &ReadOptions) -> Vec<Said> {
    let err = |e: ReadError| match e {
        ReadError::Invalid(e) => Box::new(e.finding().clone()),
        other => panic!("{other}"),
    };
    let array = Reader::new(bytes, read)
        .and_then(Reader::read_array)
        .map(|(_, w)| w)
        .map_err(err);
    let into = Reader::new(bytes, read)
        .and_then(|r| {
            let mut v = vec![0u8; r.header().payload_len() as usize];
            r.read_into(&mut v)
        })
        .map_err(err);
    let mut said = vec![array, into];
    if let Ok(r) = Reader::new(bytes, read) {
        let h = r.header().clone();
        if r.compression().is_none() && h.file_len() == Some(bytes.len() as u64) {
            let mut payload = bytes[h.header_len()..].to_vec();
            said.push(
                Reader::decode_in_place(&h, &mut payload, read, NonZeroUsize::MIN).map_err(err),
            );
        }
    }
    for threads in [1, 4] {
        let threads = NonZeroUsize::new(threads).unwrap(); // ok: test
        let parallel = Reader::at(bytes, read)
            .and_then(|r| {
                let mut v = vec![0u8; r.header().payload_len() as usize];
                r.read_into_parallel(&mut v, threads)
            })
            .map_err(err);
        said.push(parallel);
    }
    said
}

/// What validation says of `bytes` with the reading paths' checks (the
/// spec's rules and the byte-order test, no advisory lint): its first
/// error, or all its findings (none of the header's portability warnings
/// here, which reading leaves to validation).
fn validation_says(bytes: &[u8], read: &ReadOptions) -> Said {
    let checks = read.validate.clone().with_lints(false);
    let report = idx::validate_with(bytes, &checks);
    let first = report.errors().next().cloned();
    match first {
        Some(e) => Err(Box::new(e)),
        None => Ok(report.findings),
    }
}

/// The reader is a loop over the validation engine: on inputs whose
/// findings only the engine makes whole (the element-width hint on a
/// payload cut short or followed by more, another file's magic after it,
/// the byte-order test's finding with its every field, the suggested
/// fixes), `read_array`, `read_into`, `decode_in_place` and
/// `read_into_parallel` give validation's first error, or its warnings,
/// finding for finding: rule, severity, offset, message, expected and
/// found, hint, fix. Payloads of 10 MiB are decoded in parallel in several
/// parts, then judged: cut short, followed by more, a stated order
/// contradicted, zeros that the byte-order test and the width sample look
/// at to the end, a constant that fills the width sample long before the
/// byte-order test has its sample, and the width hint's sample found at
/// the end with the byte-order test off.
#[test]
fn the_reader_says_what_validation_says_finding_for_finding() {
    use std::io::Write;
    let gz = |b: &[u8]| {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(b).unwrap(); // ok: test
        e.finish().unwrap() // ok: test
    };
    // i16 [8] holding i32 [8] (twice the bytes: the width hint on IDX203)
    let mut wider = vec![0, 0, 0x0b, 1, 0, 0, 0, 8];
    wider.extend((1..=8i32).flat_map(i32::to_be_bytes));
    // i32 [8] holding i16 [8] (half the bytes: the width hint on IDX202)
    let mut narrower = vec![0, 0, 0x0c, 1, 0, 0, 0, 8];
    narrower.extend((1..=8i16).flat_map(i16::to_be_bytes));
    let writer = report_writer_file();
    let mut writer_more = writer.clone();
    writer_more.extend_from_slice(&[0, 0, 0x0d, 1]);
    let cases: Vec<(&str, Vec<u8>, ReadOptions)> = vec![
        ("twice the bytes", wider.clone(), ReadOptions::default()),
        ("gzip, twice the bytes", gz(&wider), ReadOptions::default()),
        ("half the bytes", narrower, ReadOptions::default()),
        ("little-endian f32", writer.clone(), ReadOptions::default()),
        (
            "little-endian f32, strict",
            writer,
            strict(ReadOptions::default()),
        ),
        (
            "little-endian f32, another file after it",
            writer_more,
            ReadOptions::default(),
        ),
    ];
    // f32 [n], 10 MiB of a smooth signal, little-endian or big-endian
    let n = 10 << 18;
    let f32_file = |values: &mut dyn Iterator<Item = [u8; 4]>| {
        let mut b = vec![0, 0, 0x0d, 1];
        b.extend_from_slice(&(n as u32).to_be_bytes());
        b.extend(values.flatten());
        b
    };
    let signal = |i: usize| (i as f32 / 100.0).sin() * 3.0;
    let big_le = f32_file(&mut (0..n).map(|i| signal(i).to_le_bytes()));
    let big_be = f32_file(&mut (0..n).map(|i| signal(i).to_be_bytes()));
    // zeros but for the last 1000 elements (little-endian)
    let zeros = f32_file(&mut (0..n).map(|i| {
        let v = if i + 1000 < n { 0.0 } else { signal(i) };
        v.to_le_bytes()
    }));
    // a constant over the first 512 KiB (the width sample full, the
    // byte-order test not), then little-endian
    let constant = f32_file(&mut (0..n).map(|i| {
        let v = if i < 1 << 17 { 1.5 } else { signal(i) };
        v.to_le_bytes()
    }));
    // i32 [n] holding half its bytes, i16 values, zeros but for the last
    // 1000 (the width hint's sample at the end), stated big-endian (the
    // byte-order test off)
    let mut half = vec![0, 0, 0x0c, 1];
    half.extend_from_slice(&(n as u32).to_be_bytes());
    half.extend((0..n).flat_map(|i| {
        let v = if i + 1000 < n {
            0
        } else {
            (i % 200) as i16 + 1
        };
        v.to_be_bytes()
    }));
    let mut big_more = big_le.clone();
    big_more.extend_from_slice(&[0, 0, 0x0d, 1]);
    let cases = cases.into_iter().chain([
        (
            "10 MiB little-endian f32",
            big_le.clone(),
            ReadOptions::default(),
        ),
        (
            "10 MiB little-endian f32, strict",
            big_le.clone(),
            strict(ReadOptions::default()),
        ),
        (
            "10 MiB little-endian f32, 5 bytes short",
            big_le[..big_le.len() - 5].to_vec(),
            ReadOptions::default(),
        ),
        (
            "10 MiB little-endian f32, another file after it",
            big_more,
            ReadOptions::default(),
        ),
        (
            "10 MiB big-endian f32 stated little-endian",
            big_be,
            opts(Some(ByteOrder::Little)),
        ),
        (
            "10 MiB f32, a constant, then little-endian",
            constant,
            ReadOptions::default(),
        ),
        (
            "10 MiB i32 holding i16 zeros, then values, stated big-endian",
            half,
            opts(Some(ByteOrder::Big)),
        ),
        (
            "10 MiB of zeros, then little-endian f32",
            zeros.clone(),
            ReadOptions::default(),
        ),
        (
            "10 MiB of zeros, then little-endian f32, a byte short",
            zeros[..zeros.len() - 1].to_vec(),
            ReadOptions::default(),
        ),
    ]);
    for (what, bytes, read) in cases {
        let (bytes, read) = (&bytes, &read);
        let plain = if bytes.starts_with(&[0x1f, 0x8b]) {
            let mut d = Vec::new();
            flate2::read::GzDecoder::new(&bytes[..])
                .read_to_end(&mut d)
                .unwrap(); // ok: test
            d
        } else {
            bytes.clone()
        };
        let want = validation_says(&plain, read);
        assert!(
            match &want {
                Ok(w) => !w.is_empty(),
                Err(_) => true,
            },
            "{what}: a finding to compare"
        );
        for got in reader_says(bytes, read) {
            assert_eq!(got, want, "{what}");
        }
    }
}

/// A source that hands out its pieces in turn: bytes, or an error.
#[derive(Debug)]
struct Pieces(std::collections::VecDeque<Result<&'static [u8], std::io::ErrorKind>>);

impl Read for Pieces {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        match self.0.pop_front() {
            None => Ok(0),
            Some(Err(kind)) => Err(kind.into()),
            Some(Ok(bytes)) => {
                let n = bytes.len().min(buf.len());
                buf[..n].copy_from_slice(&bytes[..n]);
                if n < bytes.len() {
                    self.0.push_front(Ok(&bytes[n..]));
                }
                Ok(n)
            }
        }
    }
}

/// An input that is not IDX is judged by the bytes its source gave before
/// it failed (what validation says of them), not by what a retry would
/// read; an interruption is retried.
#[test]
fn a_not_idx_input_whose_source_fails_is_judged_by_the_bytes_before_the_failure() {
    use std::io::ErrorKind::{Interrupted, Other};
    let rest: &[u8] = b"\x24\0\0\0WEBPVP8 ";
    let first_error = |bytes: &[u8]| {
        let report = idx::validate(bytes);
        let f = report
            .findings
            .iter()
            .find(|f| f.severity() == Severity::Error);
        f.map(|f| f.rule).expect("an error") // ok: test
    };
    let rule_of = |pieces: Vec<Result<&'static [u8], std::io::ErrorKind>>| {
        match Reader::new(Pieces(pieces.into()), &ReadOptions::default()) {
            Err(ReadError::Invalid(e)) => e.rule(),
            other => panic!("{other:?}"), // ok: test
        }
    };
    // "RIFF" alone is not recognised; with the rest it is a WebP picture
    assert_ne!(first_error(b"RIFF"), Rule::ImageFile);
    assert_eq!(first_error(b"RIFF\x24\0\0\0WEBPVP8 "), Rule::ImageFile);
    assert_eq!(
        rule_of(vec![Ok(b"RIFF"), Err(Other), Ok(rest)]),
        first_error(b"RIFF")
    );
    assert_eq!(
        rule_of(vec![Ok(b"RIFF"), Err(Interrupted), Ok(rest)]),
        Rule::ImageFile
    );
}

/// A read judges the spec's errors and the byte-order test only: the
/// header's portability warnings (IDX3xx, here a rank-0 file's) are
/// validation's to report, never a read's warning or refusal, whatever
/// their severity override.
#[test]
fn a_read_neither_returns_nor_refuses_for_portability_warnings() {
    // u8, rank 0: one element
    let bytes = [0, 0, 0x08, 0, 42];
    let strict = ReadOptions::default().with_severity("IDX301=error".parse().unwrap()); // ok: test
    let v = idx::validate_with(&bytes, &strict.validate);
    assert!(v
        .findings
        .iter()
        .any(|f| f.rule.code() == "IDX301" && f.severity() == Severity::Error));
    for o in [ReadOptions::default(), strict] {
        let (a, warnings) = Reader::new(&bytes[..], &o).unwrap().read_array().unwrap(); // ok: test
        assert!(a.dims().is_empty());
        assert!(warnings.is_empty(), "{warnings:?}");
        let mut out = [0u8; 1];
        let warnings = Reader::new(&bytes[..], &o)
            .unwrap()
            .read_into(&mut out)
            .unwrap(); // ok: test
        assert_eq!((out, warnings.len()), ([42], 0));
    }
}

/// A header of an unknown element type is refused on its magic alone: the
/// reader takes no more of the source than those four bytes.
#[test]
fn an_unknown_element_type_is_refused_after_the_magic_alone() {
    // type 0x07, rank 1, a dimension, then data
    let bytes = [0, 0, 0x07, 1, 0, 0, 0, 2, 9, 9];
    let mut r = &bytes[..];
    match idx::__private::read_header(&mut r) {
        Err(ReadError::Invalid(e)) => assert_eq!(e.rule().code(), "IDX102"),
        other => panic!("{other:?}"), // ok: test
    }
    assert_eq!(r.len(), bytes.len() - 4);
}

#[test]
fn a_payload_cut_inside_an_element_long_before_its_end_is_truncated_where_it_was_cut() {
    // f64 [1000000] (8 MB declared, many chunks' worth), cut 5 bytes into
    // its 1001st element, and the same of i16 cut inside its 40001st
    let f64s = {
        let mut b = vec![0, 0, 0x0e, 1];
        b.extend(1_000_000u32.to_be_bytes());
        b.extend((0..1000).flat_map(|i| f64::from(i).to_be_bytes()));
        b.extend([0x40, 0, 0, 0, 0]);
        b
    };
    let i16s = {
        let mut b = vec![0, 0, 0x0b, 1];
        b.extend(1_000_000u32.to_be_bytes());
        b.extend((0..40_000).flat_map(|i| ((i % 3000) as i16).to_be_bytes()));
        b.push(1);
        b
    };
    for bytes in [f64s, i16s] {
        let first = idx::validate(&bytes).findings.into_iter().next();
        let first = first.map(|f| (f.rule, f.offset));
        assert_eq!(
            first.map(|(r, _)| r.code()),
            Some("IDX202"),
            "validation says truncated"
        );
        let array = Reader::new(&bytes[..], &ReadOptions::default()).and_then(Reader::read_array);
        match array {
            Err(ReadError::Invalid(e)) => assert_eq!(Some((e.rule(), e.offset())), first),
            other => panic!("{other:?}"),
        }
    }
}

#[test]
fn bytes_after_a_payload_of_several_chunks_are_counted_as_validation_counts_them() {
    // u8 [300 KiB] (more than one 256 KiB chunk) and 300 KiB after it; and
    // the same of i16: the read's error is validation's, its count, length
    // and words included, through every reading path
    for (code, size) in [(0x08u8, 1usize), (0x0b, 2)] {
        let n = (300 << 10) / size;
        let mut bytes = vec![0, 0, code, 1];
        bytes.extend((n as u32).to_be_bytes());
        bytes.extend((0..n * size).map(|i| (i % 7) as u8));
        bytes.extend((0..300 << 10).map(|i| (i % 5) as u8));
        let first = idx::validate(&bytes).findings.into_iter().next();
        let first = first.expect("a finding");
        assert_eq!(first.rule.code(), "IDX203");
        let want = (
            first.rule,
            first.offset,
            first.length,
            first.message.clone(),
        );
        let got = |r: Result<(), ReadError>| match r {
            Err(ReadError::Invalid(e)) => {
                let f = e.finding();
                (f.rule, f.offset, f.length, f.message.clone())
            }
            other => panic!("{other:?}"),
        };
        let read = ReadOptions::default();
        let array = Reader::new(&bytes[..], &read).and_then(Reader::read_array);
        assert_eq!(got(array.map(drop)), want, "read_array, size {size}");
        let into = Reader::new(&bytes[..], &read).and_then(|r| {
            let mut v = vec![0u8; r.header().payload_len() as usize];
            r.read_into(&mut v).map(drop)
        });
        assert_eq!(got(into), want, "read_into, size {size}");
    }
}

/// A source that counts the reads that ask it for nothing.
struct CountsEmptyReads<'a> {
    bytes: &'a [u8],
    empty: &'a std::cell::Cell<usize>,
}

impl Read for CountsEmptyReads<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if buf.is_empty() {
            self.empty.set(self.empty.get() + 1);
        }
        self.bytes.read(buf)
    }
}

#[test]
fn no_read_asks_its_source_for_nothing() {
    // (a read of 0 bytes is not free: a BufReader over a pipe fills its
    // buffer first, and so waits for input the reader did not ask for)
    let mut valid = vec![0, 0, 0x08, 1, 0, 0, 0, 3, 1, 2, 3];
    let inputs: Vec<(&str, Vec<u8>)> = vec![
        (
            "a PNG",
            b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR and then some more bytes".to_vec(),
        ),
        ("text", b"label,pixel0,pixel1\n5,0,0\n".repeat(40)),
        ("a short text", b"hi".to_vec()),
        ("valid", valid.clone()),
        ("truncated", valid[..9].to_vec()),
        ("trailing", {
            valid.extend([9; 5]);
            valid
        }),
        ("rank 0", vec![0, 0, 0x08, 0, 42]),
    ];
    for (what, bytes) in inputs {
        let empty = std::cell::Cell::new(0);
        let src = CountsEmptyReads {
            bytes: &bytes,
            empty: &empty,
        };
        let _ = Reader::new(src, &ReadOptions::default()).and_then(Reader::read_array);
        assert_eq!(empty.get(), 0, "{what}: read_array");
        let src = CountsEmptyReads {
            bytes: &bytes,
            empty: &empty,
        };
        let _ = Reader::new(src, &ReadOptions::default()).and_then(|r| {
            let mut v = vec![0u8; r.header().payload_len() as usize];
            r.read_into(&mut v)
        });
        assert_eq!(empty.get(), 0, "{what}: read_into");
    }
}
