//! End-to-end conversions on the real MNIST files and on hand-made inputs,
//! including every refusal: each must leave nothing behind.

use heed::types::Bytes;
use heed::{CommitOrAbort, Database, EnvOpenOptions};
use idx::ElementType;
use idx_convert::{
    from_caffe_lmdb, from_npy, to_caffe_lmdb, to_npy, to_npz, Datum, Error, LmdbSummary,
    NoProgress, Overwrite, Progress,
};
use prost::Message;
use std::fs;
use std::path::{Path, PathBuf};
use test_support::{gunzip_file, mnist, npy, root};

/// The names in a directory (to check that nothing was left behind).
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = fs::read_dir(dir)
        .unwrap() // test directory: just created
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned()) // as above
        .collect();
    v.sort();
    v
}

/// Where a test's images, labels and LMDB directory go in `dir`: `i.idx`,
/// `l.idx`, `db`.
fn pair_and_db(dir: &Path) -> (PathBuf, PathBuf, PathBuf) {
    (dir.join("i.idx"), dir.join("l.idx"), dir.join("db"))
}

fn write_idx(path: &Path, t: ElementType, dims: &[usize], payload: &[u8]) {
    let mut out = Vec::new();
    idx::__private::write_raw(&mut out, t, dims, payload).unwrap(); // test data: consistent by construction
    fs::write(path, out).unwrap(); // test directory: writable
}

/// `to_caffe_lmdb` with the default read options, reporting to `progress`.
fn lmdb_reporting(
    images: &Path,
    labels: &Path,
    db: &Path,
    o: Overwrite,
    progress: &mut dyn Progress,
) -> Result<LmdbSummary, Error> {
    to_caffe_lmdb(
        images,
        labels,
        db,
        o,
        &idx::ReadOptions::default(),
        progress,
    )
}

/// `to_caffe_lmdb` with the default read options and no progress report.
fn lmdb(images: &Path, labels: &Path, db: &Path, o: Overwrite) -> Result<LmdbSummary, Error> {
    lmdb_reporting(images, labels, db, o, &mut NoProgress)
}

/// `to_npy` with the default read options, reporting to `progress`.
fn npy_file_reporting(
    input: &Path,
    dest: &Path,
    o: Overwrite,
    progress: &mut dyn Progress,
) -> Result<idx::Header, Error> {
    to_npy(input, dest, o, &idx::ReadOptions::default(), progress)
}

/// `to_npy` with the default read options and no progress report.
fn npy_file(input: &Path, dest: &Path, o: Overwrite) -> Result<idx::Header, Error> {
    npy_file_reporting(input, dest, o, &mut NoProgress)
}

/// `to_npz` with the default read options and no progress report.
fn npz(
    images: &Path,
    labels: &Path,
    z: &Path,
    o: Overwrite,
) -> Result<(idx::Header, idx::Header), Error> {
    to_npz(
        images,
        labels,
        z,
        o,
        &idx::ReadOptions::default(),
        &mut NoProgress,
    )
}

#[test]
fn mnist_to_caffe_lmdb_and_back_is_byte_identical() {
    // MNIST's test set, the pair the repository carries
    let t = tempfile::tempdir().unwrap(); // test scratch directory
    let (images, labels, n) = (
        "t10k-images-idx3-ubyte.gz",
        "t10k-labels-idx1-ubyte.gz",
        10000,
    );
    let db = t.path().join(format!("{n}-lmdb"));
    let s = lmdb(&mnist(images), &mnist(labels), &db, Overwrite::Refuse).unwrap(); // the real MNIST pair is valid
    assert_eq!(s.records, n);
    assert_eq!(s.images_dims, [n as u32, 28, 28]);
    assert_eq!(names(&db), ["data.mdb", "lock.mdb"]);
    let (i, l) = (t.path().join("i.idx"), t.path().join("l.idx"));
    let back = from_caffe_lmdb(&db, &i, &l, Overwrite::Force, &mut NoProgress).unwrap(); // just written
    assert_eq!(back, s);
    // test outputs
    assert!(
        fs::read(&i).unwrap() == gunzip_file(&mnist(images)),
        "{images}"
    );
    assert!(
        fs::read(&l).unwrap() == gunzip_file(&mnist(labels)),
        "{labels}"
    );
}

/// Reads every record of an LMDB directory with heed directly (not through
/// the converter), in key order.
#[allow(unsafe_code)]
fn records(db: &Path) -> Vec<(Vec<u8>, Datum)> {
    // SAFETY: a test database nobody else writes.
    let env = unsafe { EnvOpenOptions::new().open(db) }.unwrap();
    let rtxn = env.read_txn().unwrap(); // test database
    let d: Database<Bytes, Bytes> = env
        .open_databases_and_commit(rtxn, |o, r| -> Result<_, heed::Error> {
            Ok(CommitOrAbort::<_, ()>::Commit(o.open_database(r, None)?))
        })
        .unwrap() // test database
        .unwrap_commit()
        .unwrap(); // the unnamed database always exists
    let rtxn = env.read_txn().unwrap(); // test database
    let v = d
        .iter(&rtxn)
        .unwrap() // test database
        .map(|kv| {
            let (k, v) = kv.unwrap(); // test database
            (k.to_vec(), Datum::decode(v).unwrap()) // written by the converter
        })
        .collect();
    drop(rtxn);
    env.prepare_for_closing().wait();
    v
}

/// Writes raw records into a new LMDB directory.
#[allow(unsafe_code)]
fn make_lmdb(dir: &Path, recs: &[(&[u8], Vec<u8>)]) {
    fs::create_dir(dir).unwrap(); // test directory
                                  // SAFETY: a fresh test directory nobody else opens.
    let env = unsafe { EnvOpenOptions::new().map_size(1 << 24).open(dir) }.unwrap();
    let wtxn = env.write_txn().unwrap(); // test database
    let d: Database<Bytes, Bytes> = env
        .create_databases_and_commit(wtxn, |o, w| -> Result<_, heed::Error> {
            Ok(CommitOrAbort::<_, ()>::Commit(o.create_database(w, None)?))
        })
        .unwrap() // test database
        .unwrap_commit();
    let mut w = env.write_txn().unwrap(); // test database
    for (k, v) in recs {
        d.put(&mut w, k, v).unwrap(); // test database
    }
    w.commit().unwrap(); // test database
    env.prepare_for_closing().wait();
}

#[test]
fn records_are_caffes_rank4_channels_and_signed_labels() {
    let t = tempfile::tempdir().unwrap(); // test scratch directory
    let (i, l, db) = pair_and_db(t.path());
    // 3 items of 2 channels x 1 x 2; labels as i16, one negative.
    write_idx(
        &i,
        ElementType::U8,
        &[3, 2, 1, 2],
        &(0..12).collect::<Vec<u8>>(),
    );
    write_idx(&l, ElementType::I16, &[3], &[0, 0, 0xff, 0xff, 0x01, 0x00]);
    lmdb(&i, &l, &db, Overwrite::Refuse).unwrap(); // valid pair
    let r = records(&db);
    let keys: Vec<&[u8]> = r.iter().map(|(k, _)| k.as_slice()).collect();
    assert_eq!(keys, [b"00000000", b"00000001", b"00000002"]);
    assert_eq!(
        r[1].1,
        Datum {
            channels: Some(2),
            height: Some(1),
            width: Some(2),
            data: Some(vec![4, 5, 6, 7]),
            label: Some(-1),
            ..Datum::default()
        }
    );
    assert_eq!(r[2].1.label, Some(256));
    // Back: rank 4 (channels 2), labels out of u8 range become i32.
    let (i2, l2) = (t.path().join("i2.idx"), t.path().join("l2.idx"));
    let s = from_caffe_lmdb(&db, &i2, &l2, Overwrite::Refuse, &mut NoProgress).unwrap(); // just written
    assert_eq!(s.images_dims, [3, 2, 1, 2]);
    assert_eq!(s.labels_dtype, ElementType::I32);
    assert_eq!(fs::read(&i2).unwrap(), fs::read(&i).unwrap()); // test outputs
    let (labels, _) = idx::Reader::new(fs::File::open(&l2).unwrap(), &Default::default())
        .and_then(idx::Reader::read_array)
        .unwrap(); // just written, valid
    assert_eq!(labels.data(), &idx::Data::I32(vec![0, -1, 256]));
}

#[test]
fn exact_small_types_go_to_float_data_and_others_are_refused() {
    let t = tempfile::tempdir().unwrap(); // test scratch directory
    let (i, l, db) = pair_and_db(t.path());
    write_idx(&l, ElementType::U8, &[2], &[7, 9]);
    // i16 images: -2 and 300 exactly in float_data.
    write_idx(&i, ElementType::I16, &[2, 1, 1], &[0xff, 0xfe, 0x01, 0x2c]);
    lmdb(&i, &l, &db, Overwrite::Refuse).unwrap(); // valid pair
    let r = records(&db);
    assert_eq!(r[0].1.float_data, [-2.0]);
    assert_eq!(r[1].1.float_data, [300.0]);
    assert_eq!(r[1].1.data, None);
    let (i2, l2) = (t.path().join("i2.idx"), t.path().join("l2.idx"));
    let s = from_caffe_lmdb(&db, &i2, &l2, Overwrite::Refuse, &mut NoProgress).unwrap(); // just written
    assert_eq!(s.images_dtype, ElementType::F32);
    assert_eq!(fs::read(&l2).unwrap(), fs::read(&l).unwrap()); // test outputs
    for (ty, size) in [(ElementType::I32, 4), (ElementType::F64, 8)] {
        write_idx(&i, ty, &[2, 1, 1], &vec![0; 2 * size]);
        let e = lmdb(&i, &l, &t.path().join("x"), Overwrite::Refuse).unwrap_err();
        assert!(
            matches!(&e, Error::Unsupported { reason, .. } if reason.contains("cannot hold every")),
            "{e}"
        );
    }
    write_idx(&i, ElementType::U8, &[2, 4], &[0; 8]);
    let e = lmdb(&i, &l, &t.path().join("x"), Overwrite::Refuse).unwrap_err();
    assert!(e.to_string().contains("rank 2"), "{e}");
    write_idx(&i, ElementType::U8, &[2, 1, 1], &[0; 2]);
    write_idx(&l, ElementType::F32, &[2], &[0; 8]);
    let e = lmdb(&i, &l, &t.path().join("x"), Overwrite::Refuse).unwrap_err();
    assert!(e.to_string().contains("label is an int32"), "{e}");
    assert_eq!(
        names(t.path()),
        ["db", "i.idx", "i2.idx", "l.idx", "l2.idx"]
    );
}

#[test]
fn bad_inputs_write_nothing() {
    let t = tempfile::tempdir().unwrap(); // test scratch directory
    let db = t.path().join("db");
    let images = mnist("t10k-images-idx3-ubyte.gz");
    let labels = mnist("t10k-labels-idx1-ubyte.gz");
    // MNIST's 10000 test images against 3 labels, in a folder of its own
    let other = tempfile::tempdir().unwrap(); // test scratch directory
    let three = other.path().join("three-labels.idx");
    write_idx(&three, ElementType::U8, &[3], &[7, 2, 1]);
    let before = names(t.path());

    // A mismatched pair.
    let e = lmdb(&images, &three, &db, Overwrite::Refuse).unwrap_err();
    assert!(
        matches!(&e, Error::Mismatch { reason } if reason.contains("10000 images but") && reason.contains("3 labels")),
        "{e}"
    );
    let e = npz(&images, &three, &t.path().join("x.npz"), Overwrite::Refuse).unwrap_err();
    assert!(matches!(e, Error::Mismatch { .. }), "{e}");

    // An invalid IDX file: refused with its findings.
    let truncated = root().join("corpus/invalid/invalid-truncated-payload.idx");
    let e = lmdb(&images, &truncated, &db, Overwrite::Refuse).unwrap_err();
    match &e {
        Error::Invalid { path, findings } => {
            assert_eq!(path, &truncated);
            assert_eq!(findings[0].rule.code(), "IDX202");
        }
        e => panic!("expected Invalid, got {e}"), // test failure report
    }
    let e = npy_file(&truncated, &t.path().join("x.npy"), Overwrite::Refuse).unwrap_err();
    assert!(matches!(e, Error::Invalid { .. }), "{e}");

    // An unwritable destination: its parent does not exist / is a file.
    let e = lmdb(
        &images,
        &labels,
        &t.path().join("no/such/dir/db"),
        Overwrite::Refuse,
    )
    .unwrap_err();
    assert!(matches!(e, Error::Io { .. }), "{e}");
    assert_eq!(names(t.path()), before, "nothing written by the refusals");

    // An existing database: refused, left as it was.
    let small = t.path().join("small");
    fs::create_dir(&small).unwrap(); // test directory
    let (i, l) = (small.join("i.idx"), small.join("l.idx"));
    write_idx(&i, ElementType::U8, &[1, 1, 1], &[5]);
    write_idx(&l, ElementType::U8, &[1], &[3]);
    lmdb(&i, &l, &db, Overwrite::Refuse).unwrap(); // valid pair
    let data = fs::read(db.join("data.mdb")).unwrap(); // just written
    write_idx(&l, ElementType::U8, &[1], &[4]);
    let e = lmdb(&i, &l, &db, Overwrite::Refuse).unwrap_err();
    assert!(matches!(e, Error::Exists { .. }), "{e}");
    assert_eq!(fs::read(db.join("data.mdb")).unwrap(), data); // untouched
                                                              // --force replaces an LMDB directory...
    lmdb(&i, &l, &db, Overwrite::Force).unwrap(); // valid pair
    assert_eq!(records(&db)[0].1.label, Some(4));
    // ...but nothing else.
    let e = lmdb(&i, &l, &small, Overwrite::Force).unwrap_err();
    assert!(e.to_string().contains("not an LMDB directory"), "{e}");
    let e = npy_file(&i, &l, Overwrite::Refuse).unwrap_err();
    assert!(matches!(e, Error::Exists { .. }), "{e}");
    assert_eq!(names(t.path()), ["db", "small"], "no temporary left behind");
    assert_eq!(names(&small), ["i.idx", "l.idx"]);
}

#[test]
fn bad_records_are_reported_by_key_and_nothing_is_written() {
    let t = tempfile::tempdir().unwrap(); // test scratch directory
    let good = |label| {
        Datum {
            channels: Some(1),
            height: Some(2),
            width: Some(2),
            data: Some(vec![1, 2, 3, 4]),
            label: Some(label),
            ..Datum::default()
        }
        .encode_to_vec()
    };
    let wide = Datum {
        width: Some(3),
        data: Some(vec![0; 6]),
        ..Datum::decode(&good(0)[..]).unwrap() // just encoded
    }
    .encode_to_vec();
    let jpeg = Datum {
        encoded: Some(true),
        data: Some(b"\xff\xd8\xff\xe0".to_vec()),
        ..Datum::default()
    }
    .encode_to_vec();
    let db = t.path().join("db");
    make_lmdb(
        &db,
        &[
            (b"00000000", good(1)),
            (b"00000001", wide),
            (b"00000002", jpeg),
            (b"00000003", b"\xff\xff\xff".to_vec()),
            (b"00000004", good(2)),
        ],
    );
    let (i, l) = (t.path().join("i.idx"), t.path().join("l.idx"));
    let e = from_caffe_lmdb(&db, &i, &l, Overwrite::Refuse, &mut NoProgress).unwrap_err();
    let Error::Records {
        problems, total, ..
    } = &e
    else {
        panic!("expected Records, got {e}"); // test failure report
    };
    assert_eq!(*total, 3);
    let shown: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
    assert_eq!(
        shown[0],
        "key \"00000001\": shape 1 x 2 x 3 (data) differs from the first record's 1 x 2 x 2 (data)"
    );
    assert!(
        shown[1].starts_with("key \"00000002\": encoded Datum"),
        "{}",
        shown[1]
    );
    assert!(
        shown[2].starts_with("key \"00000003\": not a Datum"),
        "{}",
        shown[2]
    );
    assert_eq!(names(t.path()), ["db"]);
    // Not a database at all.
    let e = from_caffe_lmdb(t.path(), &i, &l, Overwrite::Refuse, &mut NoProgress).unwrap_err();
    assert!(e.to_string().contains("no data.mdb"), "{e}");
}

#[test]
fn npy_round_trips_every_valid_corpus_file() {
    let t = tempfile::tempdir().unwrap(); // test scratch directory
    let mut n = 0;
    for e in fs::read_dir(root().join("corpus/valid")).unwrap() {
        let p = e.unwrap().path(); // test corpus
        if p.extension().is_none_or(|x| x != "idx") {
            continue;
        }
        let (a, b) = (t.path().join("a.npy"), t.path().join("b.idx"));
        let h = npy_file(&p, &a, Overwrite::Force).unwrap(); // valid corpus file
        let h2 = from_npy(&a, &b, Overwrite::Force, &mut NoProgress).unwrap(); // just written
        assert_eq!(h, h2, "{}", p.display());
        assert!(
            fs::read(&b).unwrap() == fs::read(&p).unwrap(),
            "{}",
            p.display()
        ); // test files
        n += 1;
    }
    assert!(n >= 30, "only {n} corpus files");
}

#[test]
fn npy_little_endian_on_disk_and_big_endian_input_converted() {
    let t = tempfile::tempdir().unwrap(); // test scratch directory
    let i = t.path().join("i.idx");
    write_idx(&i, ElementType::I16, &[2], &[0x01, 0x02, 0xff, 0xfe]);
    let a = t.path().join("a.npy");
    npy_file(&i, &a, Overwrite::Refuse).unwrap(); // valid input
    let bytes = fs::read(&a).unwrap(); // just written
    assert_eq!(bytes.len(), 128 + 4);
    assert_eq!(&bytes[128..], [0x02, 0x01, 0xfe, 0xff]);
    // A big-endian .npy (as numpy writes for dtype '>i2') converts too.
    let b = t.path().join("b.npy");
    fs::write(
        &b,
        npy(
            "{'descr': '>i2', 'fortran_order': False, 'shape': (2,), }",
            &[0x01, 0x02, 0xff, 0xfe],
        ),
    )
    .unwrap(); // test dir
    let o = t.path().join("o.idx");
    from_npy(&b, &o, Overwrite::Refuse, &mut NoProgress).unwrap(); // valid .npy
    assert_eq!(fs::read(&o).unwrap(), fs::read(&i).unwrap()); // test outputs
}

/// The elements of a C-order array (`data`, elements of `size` bytes, shape
/// `dims`) in Fortran order: the first index varies fastest.
fn fortran(dims: &[usize], size: usize, data: &[u8]) -> Vec<u8> {
    let total: usize = dims.iter().product();
    let mut out = Vec::with_capacity(total * size);
    let mut idx = vec![0usize; dims.len()];
    for _ in 0..total {
        let c = idx.iter().zip(dims).fold(0, |acc, (&i, &d)| acc * d + i);
        out.extend_from_slice(&data[c * size..(c + 1) * size]);
        for (i, &d) in idx.iter_mut().zip(dims) {
            *i += 1;
            if *i < d {
                break;
            }
            *i = 0;
        }
    }
    out
}

/// A Fortran-order `.npy` (what `np.save` writes for `np.asfortranarray(a)`
/// or `a.T`) converts to the IDX of the same array, row-major, in either
/// byte order, whatever the shape: unit axes, a long first or last axis,
/// rank 2 to 5, empty.
#[test]
fn npy_in_fortran_order_converts_to_the_same_array_row_major() {
    let t = tempfile::tempdir().unwrap(); // test scratch directory
    let shapes: [&[usize]; 9] = [
        &[2, 3],
        &[3, 1, 4],
        &[5, 3, 4],
        &[600, 3, 2],
        &[2, 3, 700],
        &[1, 7, 1, 9, 1],
        &[2, 3, 2, 3, 2],
        &[4, 0, 3],
        &[300, 301],
    ];
    for (k, dims) in shapes.iter().enumerate() {
        for (t_idx, descr, size, little) in [
            (ElementType::U8, "|u1", 1, false),
            (ElementType::I16, "<i2", 2, true),
            (ElementType::F64, ">f8", 8, false),
        ] {
            let total: usize = dims.iter().product();
            // big-endian C-order elements: element e's bytes are e, e+1, ...
            let c: Vec<u8> = (0..total * size).map(|i| (i * 7 % 251) as u8).collect();
            let mut f = fortran(dims, size, &c);
            if little {
                for e in f.chunks_exact_mut(size) {
                    e.reverse();
                }
            }
            let shape = dims.iter().map(|d| format!("{d}, ")).collect::<String>();
            let dict =
                format!("{{'descr': '{descr}', 'fortran_order': True, 'shape': ({shape}), }}");
            let p = t.path().join(format!("f{k}-{descr:?}.npy"));
            fs::write(&p, npy(&dict, &f)).unwrap(); // test directory
            let o = t.path().join("o.idx");
            let h = from_npy(&p, &o, Overwrite::Force, &mut NoProgress)
                .unwrap_or_else(|e| panic!("{dims:?} {descr}: {e}"));
            let want_dims: Vec<u32> = dims.iter().map(|&d| d as u32).collect();
            assert_eq!(h.dims(), want_dims, "{dims:?}");
            let i = t.path().join("want.idx");
            write_idx(&i, t_idx, dims, &c);
            assert!(
                fs::read(&o).unwrap() == fs::read(&i).unwrap(),
                "{dims:?} {descr}"
            ); // test outputs
        }
    }
}

#[test]
fn npy_refusals_are_clear_and_write_nothing() {
    let t = tempfile::tempdir().unwrap(); // test scratch directory
    let cases: [(&str, Vec<u8>, &str); 6] = [
        (
            "u2",
            npy(
                "{'descr': '<u2', 'fortran_order': False, 'shape': (1,), }",
                &[0, 0],
            ),
            "has no IDX element type",
        ),
        (
            "fortran-short",
            npy(
                "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }",
                &[0; 12],
            ),
            "ends before the 16 data bytes",
        ),
        (
            "short",
            npy(
                "{'descr': '|u1', 'fortran_order': False, 'shape': (4,), }",
                &[1, 2],
            ),
            "ends before the 4 data bytes",
        ),
        (
            "long",
            npy(
                "{'descr': '|u1', 'fortran_order': False, 'shape': (1,), }",
                &[1, 2],
            ),
            "bytes follow",
        ),
        (
            "idx",
            fs::read(root().join("corpus/valid/valid-edge-u8.idx")).unwrap(),
            "not a .npy file",
        ),
        (
            "huge",
            {
                let mut v = b"\x93NUMPY\x02\x00".to_vec();
                v.extend_from_slice(&u32::MAX.to_le_bytes());
                v
            },
            "at most 65536",
        ),
    ];
    for (name, bytes, want) in cases {
        let p = t.path().join(format!("{name}.npy"));
        fs::write(&p, bytes).unwrap(); // test directory
        let e = from_npy(
            &p,
            &t.path().join("out.idx"),
            Overwrite::Refuse,
            &mut NoProgress,
        )
        .unwrap_err();
        assert!(
            matches!(e, Error::Npy { .. }) && e.to_string().contains(want),
            "{name}: {e}"
        );
    }
    assert!(!t.path().join("out.idx").exists());
    assert_eq!(names(t.path()).len(), 6, "no temporary left behind");
}

#[test]
fn npz_holds_images_and_labels() {
    let t = tempfile::tempdir().unwrap(); // test scratch directory
    let (i, l, _) = pair_and_db(t.path());
    let z = t.path().join("d.npz");
    write_idx(&i, ElementType::U8, &[2, 1, 2], &[1, 2, 3, 4]);
    write_idx(&l, ElementType::U8, &[2], &[7, 8]);
    npz(&i, &l, &z, Overwrite::Refuse).unwrap(); // valid pair
    let bytes = fs::read(&z).unwrap(); // just written
                                       // Stored entries: each name is followed (after its local header) by the
                                       // .npy bytes verbatim.
    for (name, data) in [
        ("images.npy", &[1u8, 2, 3, 4][..]),
        ("labels.npy", &[7, 8][..]),
    ] {
        let at = bytes
            .windows(name.len())
            .position(|w| w == name.as_bytes())
            .unwrap(); // present
        let rest = &bytes[at + name.len()..];
        let start = rest.windows(6).position(|w| w == b"\x93NUMPY").unwrap(); // present
        let hlen = usize::from(u16::from_le_bytes([rest[start + 8], rest[start + 9]]));
        let at = start + 10 + hlen;
        assert_eq!((10 + hlen) % 64, 0);
        assert_eq!(&rest[at..at + data.len()], data, "{name}");
    }
}

/// Records what a conversion reports.
#[derive(Default)]
struct Recorder {
    phases: Vec<(String, u64, u64)>,
}

impl Progress for Recorder {
    fn start(&mut self, what: &str, total: u64) {
        self.phases.push((what.to_string(), total, 0));
    }
    fn advance(&mut self, n: u64) {
        if let Some(p) = self.phases.last_mut() {
            p.2 += n;
        }
    }
    fn finish(&mut self) {}
}

#[test]
fn progress_reaches_each_phase_total() {
    let t = tempfile::tempdir().unwrap(); // test scratch directory
    let (i, l, db) = pair_and_db(t.path());
    // 2500 items: two full batches and a partial one.
    write_idx(&i, ElementType::U8, &[2500, 1, 2], &vec![3; 5000]);
    write_idx(&l, ElementType::U8, &[2500], &vec![1; 2500]);
    let mut r = Recorder::default();
    lmdb_reporting(&i, &l, &db, Overwrite::Refuse, &mut r).unwrap(); // valid pair
    let v = |n: u64| ("validating (bytes)".to_string(), n, n);
    // The files: 4 + 3 * 4 header bytes + 5000, and 4 + 4 + 2500.
    assert_eq!(
        r.phases,
        [
            v(5016),
            v(2508),
            ("writing records".to_string(), 2500, 2500)
        ]
    );
    let mut r = Recorder::default();
    let (i2, l2) = (t.path().join("i2"), t.path().join("l2"));
    from_caffe_lmdb(&db, &i2, &l2, Overwrite::Refuse, &mut r).unwrap(); // just written
    assert_eq!(
        r.phases,
        [
            ("checking records".to_string(), 2500, 2500),
            ("writing IDX".to_string(), 2500, 2500)
        ]
    );
    let mut r = Recorder::default();
    npy_file_reporting(&i, &t.path().join("a.npy"), Overwrite::Refuse, &mut r).unwrap(); // valid input
    assert_eq!(
        r.phases,
        [v(5016), ("converting (bytes)".to_string(), 5000, 5000)]
    );
}

/// Truncates a file at the first progress report of the conversion proper
/// (after validation): the input fails in the middle of a conversion.
struct TruncateOnFirstAdvance(PathBuf, bool, bool);

impl Progress for TruncateOnFirstAdvance {
    fn start(&mut self, what: &str, _: u64) {
        self.2 = !what.starts_with("validating");
    }
    fn advance(&mut self, n: u64) {
        if n > 0 && self.2 && !self.1 {
            self.1 = true;
            let f = fs::OpenOptions::new().write(true).open(&self.0).unwrap(); // test file
            f.set_len(1000).unwrap(); // as above
        }
    }
    fn finish(&mut self) {}
}

#[test]
fn a_failure_in_the_middle_leaves_no_partial_output() {
    let t = tempfile::tempdir().unwrap(); // test scratch directory
    let (i, l) = (t.path().join("i.idx"), t.path().join("l.idx"));
    // 4000 items of 28 x 28: far more than one read buffer (256 KiB).
    write_idx(&i, ElementType::U8, &[4000, 28, 28], &vec![9; 4000 * 784]);
    write_idx(&l, ElementType::U8, &[4000], &vec![1; 4000]);
    let mut p = TruncateOnFirstAdvance(i.clone(), false, false);
    let e = lmdb_reporting(&i, &l, &t.path().join("db"), Overwrite::Refuse, &mut p).unwrap_err();
    assert!(matches!(e, Error::Changed { .. }), "{e}");
    assert!(p.1, "the input was cut after the first batch was committed");
    assert_eq!(
        names(t.path()),
        ["i.idx", "l.idx"],
        "no database, no temporary"
    );

    write_idx(&i, ElementType::U8, &[4000, 28, 28], &vec![9; 4000 * 784]);
    let mut p = TruncateOnFirstAdvance(i.clone(), false, false);
    let e = npy_file_reporting(&i, &t.path().join("a.npy"), Overwrite::Refuse, &mut p).unwrap_err();
    assert!(matches!(e, Error::Changed { .. }), "{e}");
    assert_eq!(names(t.path()), ["i.idx", "l.idx"], "no .npy, no temporary");
}
