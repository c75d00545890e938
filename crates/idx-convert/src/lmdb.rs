//! IDX pair <-> Caffe LMDB of `Datum` records.
//!
//! The records are exactly those of Caffe's `convert_mnist_data`: one per
//! item, key = the item index formatted `%08d`, value = the serialised
//! `Datum{channels, height, width, data, label}`, committed every
//! [`BATCH`] records, in the unnamed database of an environment directory
//! (`data.mdb`, `lock.mdb`). The LMDB library is heed's bundled liblmdb,
//! 0.9.70 from the `mdb.master` branch, whose data format (version 1) is
//! that of the LMDB 0.9 releases Caffe and Python's `lmdb` package use.

use crate::datum::Datum;
use crate::error::{Error, RecordProblem};
use crate::input::{read_exact, IdxInput};
use crate::output::{NewDir, NewFile};
use crate::{Overwrite, Progress};
use heed::types::Bytes;
use heed::{CommitOrAbort, Database, Env, EnvFlags, EnvOpenOptions};
use idx::ElementType;
use prost::Message;
use std::io::Write;
use std::path::Path;

/// Records per write transaction, as in Caffe's converter.
pub const BATCH: u64 = 1000;

/// What a conversion to or from a Caffe LMDB handled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LmdbSummary {
    /// Number of records (= items).
    pub records: u64,
    /// The images' element type on the IDX side.
    pub images_dtype: ElementType,
    /// The images' dimensions on the IDX side, items first.
    pub images_dims: Vec<u32>,
    /// The labels' element type on the IDX side.
    pub labels_dtype: ElementType,
}

/// How the pixels travel in a Datum.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pixels {
    /// `data`, one byte per pixel (u8 images).
    Bytes,
    /// `float_data`, from this IDX element type (exactly representable).
    Floats(ElementType),
}

/// Opens an LMDB environment directory.
#[allow(unsafe_code)]
fn open_env(dir: &Path, map_size: Option<usize>, read_only: bool) -> Result<Env, Error> {
    let mut o = EnvOpenOptions::new();
    if let Some(m) = map_size {
        o.map_size(m);
    }
    if read_only {
        // SAFETY: READ_ONLY is not one of the unsafe flags (NO_SYNC,
        // NO_META_SYNC, NO_LOCK); it only forbids writes through this handle.
        unsafe {
            o.flags(EnvFlags::READ_ONLY);
        }
    }
    // SAFETY: the map must not be modified behind LMDB's back. Writing, the
    // directory is a fresh private temporary one nobody else knows of;
    // reading, every writer of an LMDB environment goes through its lock
    // file, which this handle uses too (no NO_LOCK), and the records are
    // copied out of the map before use.
    unsafe { o.open(dir) }.map_err(Error::lmdb(dir))
}

/// The map size for `n` records of `value_len` bytes: twice an upper bound
/// of their pages (inline records cost their size plus node headers;
/// larger ones whole overflow pages, counted as 64 KiB pages to be safe on
/// any page size) plus 256 MiB for branch pages and the free list. It is
/// address space only: the file grows with the pages actually written.
fn map_size(n: u64, value_len: u64) -> Result<usize, ()> {
    let per = if value_len <= 1900 {
        value_len + 64
    } else {
        (value_len + 16).div_ceil(65536) * 65536 + 64
    };
    let bytes = n
        .checked_mul(per)
        .and_then(|b| b.checked_mul(2))
        .and_then(|b| b.checked_add(256 << 20))
        .ok_or(())?;
    let mib = bytes.div_ceil(1 << 20).checked_mul(1 << 20).ok_or(())?;
    usize::try_from(mib).map_err(|_| ())
}

fn unsupported(path: &Path, reason: impl Into<String>) -> Error {
    Error::Unsupported {
        path: path.into(),
        reason: reason.into(),
    }
}

/// Converts an IDX pair (images, labels; gzipped or not) into a new Caffe
/// LMDB at `dest`.
///
/// Both inputs are validated in full first; an invalid one is refused with
/// its findings. u8 images of rank 3 (items x rows x cols, channels 1) or
/// rank 4 (items x channels x rows x cols) go to `data`; i8, i16 and f32
/// images, which a 32-bit float holds exactly, to `float_data`; i32 and
/// f64 images are refused (a float cannot hold every value). Labels must be
/// rank 1 integers (Datum's label is an int32) with one per image.
///
/// The database is built in a temporary directory beside `dest` and renamed
/// into place when complete.
///
/// # Errors
/// Any [`Error`]; nothing is left at `dest` (or beside it) on error.
///
/// # Memory
/// One item and one encoded record at a time, whatever the item count.
pub fn to_caffe_lmdb(
    images: &Path,
    labels: &Path,
    dest: &Path,
    overwrite: Overwrite,
    read: &idx::ReadOptions,
    progress: &mut dyn Progress,
) -> Result<LmdbSummary, Error> {
    let img = IdxInput::check(images, read, progress)?;
    let lab = IdxInput::check(labels, read, progress)?;
    let dims = img.header.dims();
    let (c, h, w) = match *dims {
        [_, h, w] => (1, h, w),
        [_, c, h, w] => (c, h, w),
        _ => {
            return Err(unsupported(
                images,
                format!(
                    "a Caffe Datum holds one item of channels x height x width: the images \
                     must have rank 3 (items x rows x cols) or 4 (items x channels x rows x \
                     cols), this file has rank {}",
                    dims.len()
                ),
            ))
        }
    };
    let (Ok(ci), Ok(hi), Ok(wi)) = (i32::try_from(c), i32::try_from(h), i32::try_from(w)) else {
        return Err(unsupported(
            images,
            format!("item shape {c} x {h} x {w}: Datum's channels, height and width are int32"),
        ));
    };
    let pixels = match img.header.dtype() {
        ElementType::U8 => Pixels::Bytes,
        t @ (ElementType::I8 | ElementType::I16 | ElementType::F32) => Pixels::Floats(t),
        t => {
            return Err(unsupported(
                images,
                format!(
                    "{t} images: Datum holds u8 pixels (data) or 32-bit floats (float_data), \
                     and a 32-bit float cannot hold every {t} value; convert the data to f32 \
                     first if rounding is acceptable"
                ),
            ))
        }
    };
    if lab.header.rank() != 1 {
        return Err(unsupported(
            labels,
            format!(
                "labels must have rank 1 (one label per item), this file has rank {}",
                lab.header.rank()
            ),
        ));
    }
    let ldt = lab.header.dtype();
    if !matches!(
        ldt,
        ElementType::U8 | ElementType::I8 | ElementType::I16 | ElementType::I32
    ) {
        return Err(unsupported(
            labels,
            format!("{ldt} labels: Datum's label is an int32"),
        ));
    }
    let n = img.items();
    if lab.items() != n {
        return Err(Error::Mismatch {
            reason: format!(
                "{} holds {n} images but {} holds {} labels; nothing was written",
                idx_io::escape::path(images),
                idx_io::escape::path(labels),
                lab.items()
            ),
        });
    }
    let item_len = usize::try_from(img.item_len())
        .map_err(|_| unsupported(images, "an item does not fit in memory"))?;

    // The encoded size of one record (labels at their longest varint).
    let mut datum = Datum {
        channels: Some(ci),
        height: Some(hi),
        width: Some(wi),
        label: Some(-1),
        ..Datum::default()
    };
    let value_len = match pixels {
        Pixels::Bytes => {
            datum.data = Some(vec![0; item_len]);
            datum.encoded_len()
        }
        Pixels::Floats(t) => {
            // Each float costs a 1-byte tag and 4 bytes, unpacked.
            datum.encoded_len() + 5 * (item_len / t.size())
        }
    };
    let map = map_size(n, value_len as u64)
        .map_err(|_| unsupported(images, "the database would not fit in the address space"))?;

    let ids: Vec<_> = [img.identity(), lab.identity()]
        .into_iter()
        .flatten()
        .collect();
    let dir = NewDir::create(dest, overwrite, &ids)?;
    let env = open_env(dir.path(), Some(map), false)?;
    let written = write_records(&env, &img, &lab, pixels, datum, item_len, dest, progress);
    env.prepare_for_closing().wait();
    let records = written?;
    dir.commit()?;
    Ok(LmdbSummary {
        records,
        images_dtype: img.header.dtype(),
        images_dims: dims.to_vec(),
        labels_dtype: ldt,
    })
}

#[allow(clippy::too_many_arguments)]
fn write_records(
    env: &Env,
    img: &IdxInput,
    lab: &IdxInput,
    pixels: Pixels,
    mut datum: Datum,
    item_len: usize,
    dest: &Path,
    progress: &mut dyn Progress,
) -> Result<u64, Error> {
    let err = |e| Error::lmdb(dest)(e);
    let wtxn = env.write_txn().map_err(err)?;
    let db: Database<Bytes, Bytes> = env
        .create_databases_and_commit(wtxn, |o, w| -> Result<_, heed::Error> {
            Ok(CommitOrAbort::<_, ()>::Commit(
                o.create_database::<Bytes, Bytes>(w, None)?,
            ))
        })
        .map_err(err)?
        .unwrap_commit();
    let n = img.items();
    let mut ir = img.payload()?;
    let mut lr = lab.payload()?;
    let lsize = lab.header.dtype().size();
    let ldt = lab.header.dtype();
    let mut pix = vec![0u8; item_len];
    let mut lbuf = [0u8; 4];
    let mut value = Vec::new();
    progress.start("writing records", n);
    let mut txn = env.write_txn().map_err(err)?;
    for i in 0..n {
        read_exact(&mut ir, &mut pix, &img.path)?;
        read_exact(&mut lr, &mut lbuf[..lsize], &lab.path)?;
        datum.label = Some(match ldt {
            ElementType::U8 => i32::from(lbuf[0]),
            ElementType::I8 => i32::from(lbuf[0] as i8),
            ElementType::I16 => i32::from(i16::from_be_bytes([lbuf[0], lbuf[1]])),
            _ => i32::from_be_bytes(lbuf),
        });
        match pixels {
            Pixels::Bytes => datum.data = Some(std::mem::take(&mut pix)),
            Pixels::Floats(t) => {
                datum.float_data.clear();
                datum.float_data.extend(be_to_f32(&pix, t));
            }
        }
        value.clear();
        datum.encode_raw(&mut value);
        if let Some(d) = datum.data.take() {
            pix = d;
        }
        let key = format!("{i:08}");
        db.put(&mut txn, key.as_bytes(), &value).map_err(err)?;
        if (i + 1) % BATCH == 0 {
            txn.commit().map_err(err)?;
            txn = env.write_txn().map_err(err)?;
            progress.advance(BATCH);
        }
    }
    txn.commit().map_err(err)?;
    progress.advance(n % BATCH);
    progress.finish();
    Ok(n)
}

/// Big-endian IDX elements of type `t` (i8, i16 or f32) as f32, exactly.
fn be_to_f32(bytes: &[u8], t: ElementType) -> impl Iterator<Item = f32> + '_ {
    let size = t.size();
    bytes.chunks_exact(size).map(move |c| match c {
        [b] => f32::from(*b as i8),
        [a, b] => f32::from(i16::from_be_bytes([*a, *b])),
        [a, b, c, d] => f32::from_be_bytes([*a, *b, *c, *d]),
        _ => 0.0, // unreachable: sizes are 1, 2 and 4 here
    })
}

/// The shape of a record's pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Shape {
    c: u32,
    h: u32,
    w: u32,
    floats: bool,
}

impl std::fmt::Display for Shape {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} x {} x {} ({})",
            self.c,
            self.h,
            self.w,
            if self.floats { "float_data" } else { "data" }
        )
    }
}

/// Checks one record; the shape of its pixels, its label, or what is wrong.
fn check_record(value: &[u8]) -> Result<(Shape, i32), String> {
    let d = Datum::decode(value).map_err(|e| format!("not a Datum: {e}"))?;
    if d.encoded == Some(true) {
        return Err(
            "encoded Datum (a compressed image in data): decode the images \
                    to raw pixels first"
                .into(),
        );
    }
    let dim = |v: Option<i32>, name: &str| match v {
        Some(x) if x > 0 => Ok(x as u32),
        Some(x) => Err(format!("{name} is {x}")),
        None => Err(format!("{name} is missing")),
    };
    let (c, h, w) = (
        dim(d.channels, "channels")?,
        dim(d.height, "height")?,
        dim(d.width, "width")?,
    );
    let want = u64::from(c) * u64::from(h) * u64::from(w);
    let data = d.data.as_deref().unwrap_or_default();
    let floats = match (data.is_empty(), d.float_data.is_empty()) {
        (false, false) => return Err("holds both data and float_data".into()),
        (true, true) => return Err("holds no pixels (neither data nor float_data)".into()),
        (false, true) => {
            if data.len() as u64 != want {
                return Err(format!(
                    "data holds {} bytes, channels x height x width = {c} x {h} x {w} = {want}",
                    data.len()
                ));
            }
            false
        }
        (true, false) => {
            if d.float_data.len() as u64 != want {
                return Err(format!(
                    "float_data holds {} values, channels x height x width = {c} x {h} x {w} = {want}",
                    d.float_data.len()
                ));
            }
            true
        }
    };
    // proto2: an unset label reads as its default, 0.
    Ok((Shape { c, h, w, floats }, d.label.unwrap_or(0)))
}

/// Converts a Caffe LMDB (as `convert_mnist_data` or `convert_imageset`
/// without `--encoded` writes it) back to an IDX pair: the images (u8 from
/// `data`, f32 from `float_data`; rank 3 when channels is 1, else rank 4)
/// and the labels (u8 when every label is in 0..=255, else i32), in key
/// order.
///
/// A first pass checks every record: one that is not a Datum, an encoded
/// Datum, or one whose shape differs from the first record's is reported
/// by its key ([`Error::Records`]), and nothing is written.
///
/// # Errors
/// Any [`Error`]; nothing is left at the destinations on error.
///
/// # Memory
/// One record at a time (LMDB maps the file; records are read in place).
pub fn from_caffe_lmdb(
    db_dir: &Path,
    images_dest: &Path,
    labels_dest: &Path,
    overwrite: Overwrite,
    progress: &mut dyn Progress,
) -> Result<LmdbSummary, Error> {
    if !db_dir.join("data.mdb").is_file() {
        return Err(unsupported(
            db_dir,
            "not an LMDB environment directory (no data.mdb in it)",
        ));
    }
    // the database's own files are inputs too
    let ids: Vec<_> = ["data.mdb", "lock.mdb"]
        .iter()
        .filter_map(|f| idx_io::Identity::of_path(&db_dir.join(f)))
        .collect();
    if images_dest == labels_dest
        || idx_io::Identity::of_path(images_dest)
            .is_some_and(|i| idx_io::Identity::of_path(labels_dest) == Some(i))
    {
        return Err(unsupported(
            labels_dest,
            "the images and the labels cannot be written to the same file",
        ));
    }
    let mut images_out = NewFile::create(images_dest, overwrite, &ids)?;
    let mut labels_out = NewFile::create(labels_dest, overwrite, &ids)?;
    let env = open_env(db_dir, None, true)?;
    let result = read_records(&env, db_dir, &mut images_out, &mut labels_out, progress);
    env.prepare_for_closing().wait();
    let summary = result?;
    images_out.commit()?;
    labels_out.commit()?;
    Ok(summary)
}

fn read_records(
    env: &Env,
    db_dir: &Path,
    images_out: &mut NewFile,
    labels_out: &mut NewFile,
    progress: &mut dyn Progress,
) -> Result<LmdbSummary, Error> {
    let err = |e| Error::lmdb(db_dir)(e);
    let rtxn = env.read_txn().map_err(err)?;
    let db: Database<Bytes, Bytes> = env
        .open_databases_and_commit(rtxn, |o, r| -> Result<_, heed::Error> {
            Ok(CommitOrAbort::<_, ()>::Commit(
                o.open_database::<Bytes, Bytes>(r, None)?,
            ))
        })
        .map_err(err)?
        .unwrap_commit()
        .ok_or_else(|| unsupported(db_dir, "the database has no unnamed database"))?;
    let rtxn = env.read_txn().map_err(err)?;
    let n = db.len(&rtxn).map_err(err)?;

    // Pass 1: every record checked, the first shape, the label range.
    let mut first: Option<Shape> = None;
    let mut problems = Vec::new();
    let mut bad = 0u64;
    let mut labels_fit_u8 = true;
    let mut count = 0u64;
    progress.start("checking records", n);
    for kv in db.iter(&rtxn).map_err(err)? {
        let (key, value) = kv.map_err(err)?;
        count += 1;
        let problem = match check_record(value) {
            Ok((shape, label)) => {
                labels_fit_u8 &= (0..=255).contains(&label);
                match first {
                    None => {
                        first = Some(shape);
                        None
                    }
                    Some(f) if f != shape => {
                        Some(format!("shape {shape} differs from the first record's {f}"))
                    }
                    Some(_) => None,
                }
            }
            Err(what) => Some(what),
        };
        if let Some(what) = problem {
            bad += 1;
            if problems.len() < Error::MAX_PROBLEMS {
                problems.push(RecordProblem {
                    key: key.to_vec(),
                    what,
                });
            }
        }
        if count % BATCH == 0 {
            progress.advance(BATCH);
        }
    }
    progress.advance(count % BATCH);
    progress.finish();
    if bad > 0 {
        return Err(Error::Records {
            path: db_dir.into(),
            problems,
            total: bad,
        });
    }
    let Some(shape) = first else {
        return Err(unsupported(db_dir, "the database holds no records"));
    };
    let items = u32::try_from(count).map_err(|_| {
        unsupported(
            db_dir,
            format!("{count} records: an IDX dimension holds at most 2^32 - 1"),
        )
    })?;
    let images_dtype = if shape.floats {
        ElementType::F32
    } else {
        ElementType::U8
    };
    let images_dims = if shape.c == 1 {
        vec![items, shape.h, shape.w]
    } else {
        vec![items, shape.c, shape.h, shape.w]
    };
    let labels_dtype = if labels_fit_u8 {
        ElementType::U8
    } else {
        ElementType::I32
    };
    let head = idx::Header::new(images_dtype, images_dims.clone())
        .ok_or_else(|| unsupported(db_dir, "the images would be larger than IDX can declare"))?
        .to_bytes();
    images_out
        .write_all(&head)
        .map_err(|e| Error::io(images_out.dest())(e))?;
    let lhead = idx::Header::new(labels_dtype, vec![items])
        .ok_or_else(|| unsupported(db_dir, "too many labels"))?
        .to_bytes();
    labels_out
        .write_all(&lhead)
        .map_err(|e| Error::io(labels_out.dest())(e))?;

    // Pass 2: the payloads, in key order.
    progress.start("writing IDX", count);
    let mut done = 0u64;
    let mut buf = Vec::new();
    for kv in db.iter(&rtxn).map_err(err)? {
        let (key, value) = kv.map_err(err)?;
        let d = Datum::decode(value).map_err(|e| Error::Records {
            path: db_dir.into(),
            problems: vec![RecordProblem {
                key: key.to_vec(),
                what: format!("not a Datum: {e}"),
            }],
            total: 1,
        })?;
        if shape.floats {
            buf.clear();
            for x in &d.float_data {
                buf.extend_from_slice(&x.to_be_bytes());
            }
            images_out.write_all(&buf)
        } else {
            images_out.write_all(d.data.as_deref().unwrap_or_default())
        }
        .map_err(|e| Error::io(images_out.dest())(e))?;
        let label = d.label.unwrap_or(0);
        let lb = label.to_be_bytes();
        let lbytes: &[u8] = if labels_fit_u8 { &lb[3..] } else { &lb };
        labels_out
            .write_all(lbytes)
            .map_err(|e| Error::io(labels_out.dest())(e))?;
        done += 1;
        if done % BATCH == 0 {
            progress.advance(BATCH);
        }
    }
    progress.advance(done % BATCH);
    progress.finish();
    if done != count {
        return Err(Error::Changed {
            path: db_dir.into(),
        });
    }
    Ok(LmdbSummary {
        records: count,
        images_dtype,
        images_dims,
        labels_dtype,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn map_size_covers_twice_the_records() {
        // MNIST: 60000 records of 800 bytes.
        let m = map_size(60000, 800).unwrap() as u64; // ok: unit test
        assert!(m >= 2 * 60000 * 864 + (256 << 20));
        assert_eq!(m % (1 << 20), 0);
        // Large records are counted in whole 64 KiB pages.
        let m = map_size(10, 150_000).unwrap() as u64; // ok: unit test
        assert!(m >= 2 * 10 * 3 * 65536);
        assert!(map_size(u64::MAX, 800).is_err());
    }

    #[test]
    fn be_to_f32_is_exact() {
        let v: Vec<f32> = be_to_f32(&[0x80, 0x7f, 0xff], ElementType::I8).collect();
        assert_eq!(v, [-128.0, 127.0, -1.0]);
        let v: Vec<f32> = be_to_f32(&[0x80, 0x00, 0x7f, 0xff], ElementType::I16).collect();
        assert_eq!(v, [-32768.0, 32767.0]);
        let v: Vec<f32> = be_to_f32(&[0x3f, 0x80, 0, 0], ElementType::F32).collect();
        assert_eq!(v, [1.0]);
    }

    #[test]
    fn check_record_locates_each_problem() {
        let ok = Datum {
            channels: Some(1),
            height: Some(2),
            width: Some(2),
            data: Some(vec![1, 2, 3, 4]),
            label: Some(3),
            ..Datum::default()
        };
        assert_eq!(
            check_record(&ok.encode_to_vec()),
            Ok((
                Shape {
                    c: 1,
                    h: 2,
                    w: 2,
                    floats: false
                },
                3
            ))
        );
        let enc = Datum {
            encoded: Some(true),
            ..ok.clone()
        };
        assert!(check_record(&enc.encode_to_vec())
            .unwrap_err()
            .starts_with("encoded Datum"));
        let short = Datum {
            data: Some(vec![1, 2, 3]),
            ..ok.clone()
        };
        assert_eq!(
            check_record(&short.encode_to_vec()).unwrap_err(),
            "data holds 3 bytes, channels x height x width = 1 x 2 x 2 = 4"
        );
        let none = Datum {
            data: None,
            ..ok.clone()
        };
        assert!(check_record(&none.encode_to_vec())
            .unwrap_err()
            .contains("no pixels"));
        let zero = Datum {
            width: Some(0),
            ..ok
        };
        assert_eq!(
            check_record(&zero.encode_to_vec()).unwrap_err(),
            "width is 0"
        );
        assert!(check_record(&[0xff, 0xff])
            .unwrap_err()
            .starts_with("not a Datum"));
    }
}
