//! Invalid cases that are files of another format (spec 5.3): NumPy,
//! images, documents, archives, text, each a real-looking start.

use super::case::{invalid, Case};
use super::make::hx;

/// Called by [`invalid_cases`](super::invalid::invalid_cases), after the
/// compression cases.
pub(super) fn other_format_cases(out: &mut Vec<Case>) {
    let mut npy = b"\x93NUMPY\x01\x00".to_vec();
    let mut dict = "{'descr': '|u1', 'fortran_order': False, 'shape': (2, 3), }".to_string();
    while (10 + dict.len() + 1) % 64 != 0 {
        dict.push(' ');
    }
    dict.push('\n');
    npy.extend_from_slice(&(dict.len() as u16).to_le_bytes());
    npy.extend_from_slice(dict.as_bytes());
    npy.extend_from_slice(&[1, 2, 3, 4, 5, 6]);
    out.push(invalid(
        "invalid-npy",
        "a NumPy .npy file of u8 [2, 3]",
        npy,
        &[("IDX404", 0, 6)],
    ));
    // Not-IDX formats named by their magic (spec 5.3), each a real-looking start.
    type Format = (&'static str, &'static str, Vec<u8>, &'static str, u64, u64);
    let formats: &[Format] = &[
        ("invalid-png", "a PNG image (the start of a 1x1 greyscale PNG)",
            hx("89 50 4e 47 0d 0a 1a 0a  00 00 00 0d 49 48 44 52  00 00 00 01 00 00 00 01  08 00 00 00 00"),
            "IDX410", 0, 8),
        ("invalid-jpeg", "a JPEG image (JFIF start)",
            hx("ff d8 ff e0 00 10 4a 46  49 46 00 01 01 00 00 01"), "IDX410", 0, 3),
        ("invalid-gif", "a GIF image", hx("47 49 46 38 39 61 01 00  01 00 00 00 00"), "IDX410", 0, 6),
        ("invalid-bmp", "a BMP image (file header with zero reserved fields)",
            hx("42 4d 3a 00 00 00 00 00  00 00 36 00 00 00 28 00"), "IDX410", 0, 2),
        ("invalid-tiff", "a little-endian TIFF image", hx("49 49 2a 00 08 00 00 00  00 00"), "IDX410", 0, 4),
        ("invalid-webp", "a WebP image (RIFF container)",
            hx("52 49 46 46 24 00 00 00  57 45 42 50 56 50 38 20"), "IDX410", 0, 12),
        ("invalid-pdf", "a PDF document", b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n".to_vec(), "IDX411", 0, 5),
        ("invalid-pickle", "a protocol-4 Python pickle",
            hx("80 04 95 0b 00 00 00 00  00 00 00 7d 94 8c 01 61  94 4b 01 73 2e"), "IDX412", 0, 2),
        ("invalid-hdf5", "an HDF5 file (superblock signature)",
            hx("89 48 44 46 0d 0a 1a 0a  00 00 00 00 00 08 08 00"), "IDX413", 0, 8),
        ("invalid-tfrecord", "a TFRecord file: a record of length 3 whose length CRC is right",
            tfrecord(b"abc"), "IDX414", 0, 12),
        ("invalid-parquet", "a Parquet file", hx("50 41 52 31 15 04 15 10  15 14 4c 15"), "IDX415", 0, 4),
        ("invalid-elf", "an ELF executable (64-bit, little-endian)",
            hx("7f 45 4c 46 02 01 01 00  00 00 00 00 00 00 00 00  03 00 3e 00"), "IDX416", 0, 4),
        ("invalid-tar", "a POSIX tar archive holding train-images-idx3-ubyte", tar(), "IDX403", 257, 5),
        ("invalid-npz", "a NumPy .npz archive (a zip whose first member is a .npy)", npz(), "IDX403", 0, 4),
    ];
    for (id, what, bytes, rule, offset, length) in formats {
        out.push(invalid(
            id,
            what,
            bytes.clone(),
            &[(rule, *offset, *length)],
        ));
    }
    let html = b"<!DOCTYPE html>\n<html><head><title>404 Not Found</title></head>\n<body><h1>Not Found</h1><p>The requested URL was not found on this server.</p></body></html>\n".to_vec();
    let n = html.len() as u64;
    out.push(invalid(
        "invalid-html-error-page",
        "a saved HTML 404 page",
        html,
        &[("IDX405", 0, n)],
    ));
    let lfs = b"version https://git-lfs.github.com/spec/v1\noid sha256:ba891046e6505d7aadcbbe25680a0738ad16aec93bde7f9b65e87a2fc25776db\nsize 47040016\n".to_vec();
    let n = lfs.len() as u64;
    out.push(invalid(
        "invalid-git-lfs-pointer",
        "a Git LFS pointer in place of train-images-idx3-ubyte",
        lfs,
        &[("IDX405", 0, n)],
    ));
    let mut ad = hx("00 05 16 07  00 02 00 00");
    ad.extend_from_slice(b"Mac OS X        ");
    ad.extend(hx("00 02 00 00 00 09 00 00 00 32 00 00 0e b0"));
    out.push(invalid(
        "invalid-appledouble",
        "a macOS AppleDouble ._ file",
        ad,
        &[("IDX406", 0, 4)],
    ));
}

/// A TFRecord holding one record: length (u64 LE), masked CRC-32C of the
/// length, data, masked CRC-32C of the data.
fn tfrecord(data: &[u8]) -> Vec<u8> {
    fn crc32c(d: &[u8]) -> u32 {
        let mut crc = !0u32;
        for &b in d {
            crc ^= u32::from(b);
            for _ in 0..8 {
                crc = if crc & 1 == 1 {
                    (crc >> 1) ^ 0x82f6_3b78
                } else {
                    crc >> 1
                };
            }
        }
        !crc
    }
    let mask = |c: u32| c.rotate_right(15).wrapping_add(0xa282_ead8);
    let len = (data.len() as u64).to_le_bytes();
    let mut b = len.to_vec();
    b.extend_from_slice(&mask(crc32c(&len)).to_le_bytes());
    b.extend_from_slice(data);
    b.extend_from_slice(&mask(crc32c(data)).to_le_bytes());
    b
}

/// The first 512-byte header block of a POSIX tar archive.
fn tar() -> Vec<u8> {
    let mut b = b"train-images-idx3-ubyte".to_vec();
    b.resize(100, 0);
    b.extend_from_slice(b"0000644\0");
    b.resize(257, 0);
    b.extend_from_slice(b"ustar\x0000");
    b.resize(512, 0);
    b
}

/// The start of a NumPy .npz: a zip local file header for `x.npy`.
fn npz() -> Vec<u8> {
    let mut b = hx("50 4b 03 04 14 00 00 00  00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00  00 00 05 00 00 00");
    b.extend_from_slice(b"x.npy\x93NUMPY");
    b
}
