//! The `idx` command: pictures checked pixel by pixel and by snapshot, and
//! `dump`/`write` as the conformance runner's reference adapters.

use crate::support::IDX;
use idx_conformance::cases;
use idx_conformance::runner::{self, Config, Mode};
use std::time::Duration;
use test_support::{assert_contains, Cmd};

fn idx(args: &[&str]) -> (i32, String) {
    let o = Cmd::new(IDX).args(args).out();
    (o.code, o.stdout)
}

#[test]
fn png_contact_sheet_decodes_to_the_right_pixels() {
    // 3 items of 2 x 3 u8, values 10*item + index
    let data: Vec<u8> = (0..3u8)
        .flat_map(|k| (0..6u8).map(move |i| 10 * k + i + 1))
        .collect();
    let bytes = idx::to_bytes(&idx::Array::from_vec(vec![3, 2, 3], data).unwrap()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("x-idx3-ubyte");
    std::fs::write(&input, bytes).unwrap();
    let out = dir.path().join("sheet.png");
    let (code, text) = idx(&[
        "show",
        "--cols",
        "2",
        "--png",
        out.to_str().unwrap(),
        input.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{text}");
    let decoder = png::Decoder::new(std::fs::File::open(&out).unwrap());
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!(
        (info.width, info.height),
        (2 * 4 - 1, 2 * 3 - 1),
        "2 columns, 2 rows, 1-pixel gaps"
    );
    assert_eq!(info.color_type, png::ColorType::Grayscale);
    let px = |x: usize, y: usize| buf[y * info.width as usize + x];
    assert_eq!(
        (px(0, 0), px(2, 0), px(0, 1), px(2, 1)),
        (1, 3, 4, 6),
        "item 0 as is (u8 is not rescaled)"
    );
    assert_eq!(px(3, 0), 0, "gap column");
    assert_eq!((px(4, 0), px(6, 1)), (11, 16), "item 1");
    assert_eq!((px(0, 3), px(2, 4)), (21, 26), "item 2 on the second row");
    assert_eq!(px(4, 3), 0, "empty cell");
}

#[test]
fn floats_are_scaled_by_min_and_max() {
    let bytes =
        idx::to_bytes(&idx::Array::from_vec(vec![1, 3], vec![-1.0f32, 0.0, 1.0]).unwrap()).unwrap();
    let v = idx::parse(&bytes).unwrap();
    let items = idx_cli::picture::items(&v.array(), 1).unwrap();
    assert_eq!(items[0].pixels, [0, 128, 255]);
}

#[test]
fn terminal_pictures() {
    let f = "corpus/valid/valid-mnist-images-u8-3x28x28.idx";
    let (code, ascii) = idx(&["show", "--items", "2", "--color", "never", f]);
    assert_eq!(code, 0);
    insta::assert_snapshot!("show_ascii", ascii);
    let (_, colour) = idx(&["show", "--items", "1", "--color", "always", f]);
    assert_eq!(
        colour.lines().count(),
        15,
        "the item number, then 28 pixel rows in 14 half-block rows"
    );
    assert!(
        colour.starts_with("#0\n\x1b[38;2;0;0;0m\x1b[48;2;3;3;3m\u{2580}"),
        "{:?}",
        &colour[..40]
    );
    let (_, auto) = idx(&["show", "--items", "1", f]);
    assert!(
        !auto.contains('\x1b'),
        "no colour when stdout is not a terminal"
    );
    let (_, hist) = idx(&["show", "corpus/valid/valid-mnist-labels-u8-10.idx"]);
    insta::assert_snapshot!("show_histogram", hist);
    let (code, _) = idx(&["show", "corpus/valid/valid-u8-rank4.idx"]);
    assert_eq!(code, 2, "rank 4 cannot be drawn");
    let (code, _) = idx(&["show", "corpus/invalid/invalid-trailing-byte.idx"]);
    assert_eq!(code, 1);
}

#[test]
fn info_prints_fields_and_statistics() {
    let (code, text) = idx(&["info", "corpus/valid/valid-edge-f32.idx"]);
    assert_eq!(code, 0);
    insta::assert_snapshot!("info_edge_f32", text);
    let (code, text) = idx(&[
        "info",
        "corpus/implementation-defined/impl-gzip-u8-4x5.idx.gz",
    ]);
    assert_eq!(code, 0);
    assert!(
        text.contains("(gzip; offsets in the decompressed stream)")
            && text.contains("elements: 20"),
        "{text}"
    );
    let (code, text) = idx(&["info", "corpus/invalid/invalid-truncated-payload.idx"]);
    assert_eq!(code, 1);
    assert!(
        text.contains("element type u8") && !text.contains("IDX202"),
        "the fields on stdout, the findings on stderr (tests/it/level.rs): {text}"
    );
}

fn reference(mode: Mode, args: &[&str]) -> Vec<runner::Outcome> {
    let mut command = vec![env!("CARGO_BIN_EXE_idx").to_string()];
    command.extend(args.iter().map(|s| s.to_string()));
    let cfg = Config {
        adapter: runner::Adapter {
            command,
            persistent: false,
            timeout: Duration::from_secs(20),
            memory_mib: None,
            startup: runner::STARTUP_MIN,
        },
        run: vec![],
        skip: vec![],
        expected_failures: vec![],
        seed: 1,
        variants: true,
    };
    runner::run(&cases::all(), mode, &cfg).unwrap().outcomes
}

#[test]
fn dump_and_write_pass_the_whole_conformance_suite() {
    for (mode, command, at_least) in [(Mode::Reader, "dump", 80), (Mode::Writer, "write", 40)] {
        let r = reference(mode, &[command, "--error-document"]);
        assert!(r.len() > at_least, "{command}: {} cases", r.len());
        let failed: Vec<_> = r
            .iter()
            .filter(|o| o.failed)
            .map(|o| (&o.id, o.status.as_str(), &o.detail))
            .collect();
        assert!(failed.is_empty(), "{command}: {failed:?}");
    }
}

#[test]
fn write_refuses_with_an_error_document_when_asked() {
    // Protocol 2 of the conformance runner: a refusal is an error document
    // on stdout with exit status 1, else the runner counts a crash.
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_idx"))
        .args(["write", "--error-document"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write as _;
        let mut stdin = child.stdin.take().unwrap();
        stdin
            .write_all(br#"{"dtype": "u8", "shape": [3], "data": [1, 2]}"#)
            .unwrap();
    }
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("bad content JSON"),
        "{v}"
    );
}

/// A payload certainly written little-endian fails validation (IDX501 is
/// an error then), and `idx` refuses it with that finding, as every front
/// end does; told its byte order, it reads it that way.
#[test]
fn a_little_endian_payload_is_read_as_idx_says_unless_its_byte_order_is_stated() {
    let file = "corpus/implementation-defined/impl-little-endian-i16-labels.idx";
    // unstated: as IDX says (label 1 written little-endian reads 256), with
    // the byte-order test's warning on standard error
    let o = Cmd::new(IDX).args(["dump", file]).out();
    assert_eq!(o.code, 0, "{o:?}");
    assert_contains(&o.stdout, "256");
    assert!(
        o.stderr.contains("warning[IDX501]") && o.stderr.contains("score"),
        "{}",
        o.stderr
    );
    // stated big: label 1 written little-endian reads 256
    let (code, out) = idx(&["dump", file, "--assume-byte-order", "big"]);
    assert_eq!(code, 0, "{out}");
    assert_contains(&out, "256");
    // stated little: the labels 0..9
    let (code, out) = idx(&["dump", file, "--assume-byte-order", "little"]);
    assert_eq!(code, 0, "{out}");
    assert_contains(&out, "[0,1,2,3,4,5,6,7,8,9]");
}
