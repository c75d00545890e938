//! The `idx` command at the level of `idx-validate`: gzip
//! and standard input everywhere, findings on stderr, `dump` in bounded
//! memory, `show` sized to the terminal with item numbers, near-square PNG
//! grids, scaling and histogram pictures, completions and a man page.

use crate::support::IDX;
use std::io::Write;
use std::path::Path;
use std::process::Command;
use test_support::{assert_contains, gzip_fast, root, Cmd, Out};

/// Runs `idx ARGS` in the repository root, with `stdin` as its input and
/// the environment variables `env`.
fn run_env(args: &[&str], stdin: &[u8], env: &[(&str, &str)]) -> Out {
    let mut c = Cmd::new(IDX)
        .args(args)
        .env_remove("COLUMNS")
        .stdin(Some(stdin));
    for (k, v) in env {
        c = c.env(k, v);
    }
    c.out()
}

fn run_idx(args: &[&str]) -> Out {
    run_env(args, b"", &[])
}

/// `n` items of `h` x `w` u8, item k's pixel i = 10 k + i + 1 (mod 256).
fn images(n: usize, h: usize, w: usize) -> Vec<u8> {
    let data: Vec<u8> = (0..n)
        .flat_map(|k| (0..h * w).map(move |i| ((10 * k + i + 1) % 256) as u8))
        .collect();
    idx::to_bytes(&idx::Array::from_vec(vec![n, h, w], data).unwrap()).unwrap()
}

fn png_of(path: &Path) -> (u32, u32, Vec<u8>) {
    let decoder = png::Decoder::new(std::fs::File::open(path).unwrap());
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf)
}

#[test]
fn every_subcommand_reads_gzip_and_standard_input() {
    let dir = tempfile::tempdir().unwrap();
    let raw = std::fs::read(root().join("corpus/valid/valid-mnist-images-u8-3x28x28.idx")).unwrap();
    let plain = dir.path().join("x.idx");
    let gz = dir.path().join("x.idx.gz");
    std::fs::write(&plain, &raw).unwrap();
    std::fs::write(&gz, gzip_fast(&raw)).unwrap();
    let (p, g) = (plain.to_str().unwrap(), gz.to_str().unwrap());
    for args in [
        &["dump"][..],
        &["show", "--color", "never"][..],
        &["info"][..],
    ] {
        let with = |file: &str, stdin: &[u8]| {
            let mut a = args.to_vec();
            a.push(file);
            let o = run_env(&a, stdin, &[]);
            assert_eq!(o.code, 0, "{a:?}: {}", o.stderr);
            // info names its input on the first line; the rest must agree
            let t = o.stdout;
            if args[0] == "info" {
                t.lines().skip(1).collect::<Vec<_>>().join("\n")
            } else {
                t
            }
        };
        let base = with(p, b"");
        assert!(!base.is_empty());
        assert_eq!(with(g, b""), base, "{args:?} on gzip");
        assert_eq!(with("-", &raw), base, "{args:?} on stdin");
        assert_eq!(with("-", &gzip_fast(&raw)), base, "{args:?} on gzip stdin");
    }
    let o = run_env(&["info", "-"], &gzip_fast(&raw), &[]);
    assert!(
        o.stdout
            .starts_with("<stdin> (gzip; offsets in the decompressed stream)"),
        "{}",
        o.stdout
    );
}

#[test]
fn the_command_prints_a_finding_in_the_librarys_one_text_form() {
    // what `idx` prints for an invalid input is the library's Display of
    // each error finding, its alternate form (`{:#}`: the expected, found
    // and help lines), after the input's name; the Python `str(finding)`
    // is its first line (python/tests/test_same_as_cli.py)
    let f = "corpus/invalid/invalid-truncated-payload.idx";
    let bytes = std::fs::read(root().join(f)).unwrap();
    let report = idx::validate(&bytes);
    let errors: Vec<&idx::Finding> = report
        .findings
        .iter()
        .filter(|x| x.severity() == idx::Severity::Error)
        .collect();
    assert!(!errors.is_empty() && errors[0].details().count() >= 2);
    let want: String = errors.iter().map(|e| format!("{f}: {e:#}\n")).collect();
    let o = run_env(&["dump", f], &[], &[]);
    assert_eq!(o.code, 1);
    assert_eq!(o.stderr, want);
}

#[test]
fn invalid_inputs_get_the_findings_on_stderr_and_nothing_on_stdout() {
    let f = "corpus/invalid/invalid-truncated-payload.idx";
    let bytes = std::fs::read(root().join(f)).unwrap();
    for args in [
        vec!["dump", f],
        vec!["show", f],
        vec!["show", "--png", "/nonexistent/never-written.png", f],
        vec!["dump", "-"],
    ] {
        let o = run_env(&args, &bytes, &[]);
        assert_eq!(o.code, 1, "{args:?}");
        assert!(o.stdout.is_empty(), "{args:?}: {}", o.stdout);
        assert!(
            o.stderr.contains("error[IDX202]")
                && o.stderr.contains("(at offset 0x")
                && o.stderr.contains("  = expected: ")
                && o.stderr.contains("  = help: "),
            "{args:?}: {}",
            o.stderr
        );
    }
    // gzip: offsets in the decompressed stream, said so
    let o = run_env(&["dump", "-"], &gzip_fast(&bytes), &[]);
    assert_eq!(o.code, 1);
    assert!(
        o.stderr.contains("<stdin>: error[IDX202]")
            && o.stderr.contains("offsets are in the decompressed stream"),
        "{}",
        o.stderr
    );
    // info prints the fields it could read on stdout, the findings on stderr
    let o = run_idx(&["info", f]);
    assert_eq!(o.code, 1);
    assert!(o.stdout.contains("element type u8") && !o.stdout.contains("IDX202"));
    assert_contains(&o.stderr, "error[IDX202]");
    // the conformance runner's protocol, on request only
    let o = run_idx(&["dump", "--error-document", f]);
    assert_eq!(o.code, 1);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout_bytes).unwrap();
    assert_eq!(v["error"]["rule"], "IDX202");
    // unreadable: exit 2, a message naming the file
    let o = run_idx(&["dump", "no/such/file.idx"]);
    assert_eq!(o.code, 2);
    assert_contains(&o.stderr, "no/such/file.idx");
}

#[test]
fn dump_output_is_the_content_encoding_for_every_valid_corpus_file() {
    let mut seen = 0;
    for e in std::fs::read_dir(root().join("corpus/valid")).unwrap() {
        let path = e.unwrap().path();
        if path.extension().is_none_or(|x| x != "idx") {
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        let want = idx_conformance::content::Content::of(&idx::parse(&bytes).unwrap().array())
            .to_json(false)
            .to_string()
            + "\n";
        let o = run_idx(&["dump", path.to_str().unwrap()]);
        assert_eq!(o.code, 0, "{}: {}", path.display(), o.stderr);
        assert_eq!(o.stdout, want, "{}", path.display());
        seen += 1;
    }
    assert!(seen > 10, "{seen} files");
}

/// An 8 MiB file dumped under a 160 MiB address-space limit: the old
/// dump, which built the whole JSON document in memory, needed hundreds of
/// MiB for this (3.7 GB for the 47 MB MNIST training images).
#[cfg(target_os = "linux")]
#[test]
fn dump_streams_in_bounded_memory() {
    let dir = tempfile::tempdir().unwrap();
    let n = 8 << 20;
    let data: Vec<u8> = (0..n).map(|i| (i % 251) as u8).collect();
    let file = dir.path().join("big.idx");
    std::fs::write(
        &file,
        idx::to_bytes(&idx::Array::from_vec(vec![n], data).unwrap()).unwrap(),
    )
    .unwrap();
    let o = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v 163840 && exec '{}' dump '{}'",
            env!("CARGO_BIN_EXE_idx"),
            file.display()
        ))
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(text.starts_with("{\"dtype\":\"u8\",\"shape\":[8388608],\"data\":[0,1,2,"));
    assert!(text.ends_with(&format!(",{}]}}\n", (n - 1) % 251)));
    assert_eq!(
        text.matches(',').count(),
        n + 1,
        "n - 1 commas in the data, 2 in the head"
    );
}

#[test]
fn show_numbers_items_from_start_and_fits_the_terminal_width() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("x-idx3-ubyte");
    std::fs::write(&file, images(12, 5, 7)).unwrap();
    let f = file.to_str().unwrap();
    // COLUMNS when stdout is not a terminal: (60 + 1) / (7 + 1) = 7 per row
    let o = run_env(
        &[
            "show", "--items", "9", "--start", "2", "--color", "never", f,
        ],
        b"",
        &[("COLUMNS", "60")],
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    let lines: Vec<String> = o.stdout.lines().map(str::to_string).collect();
    assert_eq!(
        lines[0],
        "#2      #3      #4      #5      #6      #7      #8"
    );
    assert_eq!(lines[6], "#9      #10");
    assert!(lines[6].len() <= 60 && lines[1].len() <= 60);
    assert_eq!(lines.len(), 12, "2 grid rows of a caption and 5 pixel rows");
    let wide = run_env(
        &["show", "--items", "9", "--color", "never", f],
        b"",
        &[("COLUMNS", "200")],
    );
    assert!(
        wide.stdout.lines().next().unwrap().ends_with("#8"),
        "9 fit in 200 columns"
    );
    // --start past the end is a clear error
    let o = run_idx(&["show", "--start", "12", f]);
    assert_eq!(o.code, 2);
    assert_contains(&o.stderr, "--start 12 is past the last item (12 items");
}

#[test]
fn png_sheets_are_near_square_scaled_and_start_where_asked() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("x-idx3-ubyte");
    std::fs::write(&file, images(70, 2, 3)).unwrap();
    let out = dir.path().join("sheet.png");
    let (f, p) = (file.to_str().unwrap(), out.to_str().unwrap());
    let o = run_idx(&["show", "--items", "64", "--png", p, f]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_contains(&o.stdout, "items 0..63 in a 8 x 8 grid");
    let (w, h, _) = png_of(&out);
    assert_eq!(
        (w, h),
        (8 * 4 - 1, 8 * 3 - 1),
        "8 x 8 items of 3 x 2 with gaps"
    );
    // --start 5 --items 2, scaled 3 times: item 5 first
    let o = run_idx(&[
        "show", "--start", "5", "--items", "2", "--scale", "3", "--force", "--png", p, f,
    ]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let (w, h, px) = png_of(&out);
    assert_eq!((w, h), (3 * (2 * 4 - 1), 3 * 2));
    let at = |x: u32, y: u32| px[(y * w + x) as usize];
    assert_eq!(
        (at(0, 0), at(2, 2), at(3, 0)),
        (51, 51, 52),
        "item 5 pixel 0, scaled, then pixel 1"
    );
    assert_eq!(at(12, 0), 61, "item 6 after the 3-pixel gap");
    let o = run_idx(&["show", "--scale", "0", "--png", p, f]);
    assert_eq!(o.code, 2, "scale 0 is a usage error");
}

/// True when `text`, drawn in the 5 x 7 font of `idx_text::font` black
/// on white, appears somewhere in the picture: its glyphs' set pixels 0,
/// the rest of each cell 255 (a reader of the PNG that knows the font).
/// Asserts that the picture `px` (`w` x `h`) shows each of `texts`.
#[track_caller]
fn assert_shows(w: u32, h: u32, px: &[u8], texts: &[&str]) {
    for text in texts {
        assert!(shows_text(w, h, px, text), "{text:?} is not in the picture");
    }
}

/// Runs `idx show --png PNG INPUT`, checks it succeeds, and returns the
/// picture written (see [`png_of`]).
fn show_png(png: &Path, input: &Path) -> (u32, u32, Vec<u8>) {
    let o = run_idx(&[
        "show",
        "--png",
        png.to_str().unwrap(),
        input.to_str().unwrap(),
    ]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    png_of(png)
}

fn shows_text(w: u32, h: u32, px: &[u8], text: &str) -> bool {
    use idx_text::font;
    let tw = font::width(text);
    if tw > w || font::H > h {
        return false;
    }
    (0..=h - font::H).any(|y0| {
        (0..=w - tw).any(|x0| {
            text.chars().enumerate().all(|(i, c)| {
                let gx = x0 + i as u32 * font::ADVANCE;
                font::glyph(c).iter().enumerate().all(|(dy, row)| {
                    row.bytes().enumerate().all(|(dx, b)| {
                        let p = px[((y0 + dy as u32) * w + gx + dx as u32) as usize];
                        p == if b == b'#' { 0 } else { 255 }
                    })
                })
            })
        })
    })
}

#[test]
fn labels_with_png_write_a_histogram_picture_or_fail_clearly() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("hist.png");
    let p = out.to_str().unwrap();
    let o = run_idx(&[
        "show",
        "--png",
        p,
        "corpus/valid/valid-mnist-labels-u8-10.idx",
    ]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let (w, h, px) = png_of(&out);
    assert_contains(&o.stdout, "a histogram of 7 rows");
    // the axis labels, each value and its count, the summary
    assert_shows(
        w,
        h,
        &px,
        &[
            "VALUE",
            "COUNT",
            "0",
            "9",
            "1",
            "2",
            "10 VALUES, 7 DISTINCT",
        ],
    );
    assert!(!shows_text(w, h, &px, "3"), "3 is not a label");
    // only NaN: nothing to draw, a clear error and no file
    let nan = idx::to_bytes(&idx::Array::from_vec(vec![3], vec![f32::NAN; 3]).unwrap()).unwrap();
    let none = dir.path().join("none.png");
    let o = run_env(&["show", "--png", none.to_str().unwrap(), "-"], &nan, &[]);
    assert_eq!(o.code, 1);
    assert_contains(&o.stderr, "no finite value to draw a histogram of");
    assert!(!none.exists());
}

/// Histograms read as numbers: bins as plain intervals (`[-5.00, -4.38)`,
/// not `-4.4941e0`), a `value | count` heading, each count, a summary; an
/// all-zero f32 file is one row, `0`, not 16 bins labelled `0.0000e0`; the
/// PNG shows the same labels, counts and axis.
#[test]
fn show_histograms_are_plain_numbers_with_counts_and_axis_labels() {
    let dir = tempfile::tempdir().unwrap();
    let zeros = dir.path().join("zeros.idx");
    std::fs::write(
        &zeros,
        idx::to_bytes(&idx::Array::from_vec(vec![50], vec![0f32; 50]).unwrap()).unwrap(),
    )
    .unwrap();
    let o = run_idx(&["show", zeros.to_str().unwrap()]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(
        o.stdout,
        format!(
            "value | count\n    0 | {} 50\n50 values, 1 distinct\n",
            "#".repeat(50)
        )
    );
    // 100 distinct f32 values from -5 to 4.9: 16 bins of width 0.62
    let ramp: Vec<f32> = (0..100).map(|i| i as f32 / 10.0 - 5.0).collect();
    let floats = dir.path().join("ramp.idx");
    std::fs::write(
        &floats,
        idx::to_bytes(&idx::Array::from_vec(vec![100], ramp).unwrap()).unwrap(),
    )
    .unwrap();
    let o = run_idx(&["show", floats.to_str().unwrap()]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let lines: Vec<&str> = o.stdout.lines().collect();
    assert_eq!(lines.len(), 1 + 16 + 1, "{}", o.stdout);
    assert_eq!(lines[0].trim_start(), "value | count");
    assert!(lines[1].starts_with("[-5.00, -4.38) | "), "{}", lines[1]);
    assert!(
        lines[16].trim_start().starts_with("[4.28, 4.90] | "),
        "{}",
        lines[16]
    );
    assert_eq!(lines[17], "100 values in 16 bins of width 0.62");
    assert!(
        !o.stdout.contains("e0") && !o.stdout.contains("e-"),
        "{}",
        o.stdout
    );
    let total: u64 = lines[1..17]
        .iter()
        .map(|l| l.rsplit(' ').next().unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(total, 100);
    // integers beyond 64 distinct values: whole-number bins, inclusive
    let ints: Vec<i32> = (0..1000).collect();
    let file = dir.path().join("ints.idx");
    std::fs::write(
        &file,
        idx::to_bytes(&idx::Array::from_vec(vec![1000], ints).unwrap()).unwrap(),
    )
    .unwrap();
    let o = run_idx(&["show", file.to_str().unwrap()]);
    let lines: Vec<&str> = o.stdout.lines().collect();
    assert!(
        lines[1].trim_start().starts_with("[0, 62] | "),
        "{}",
        o.stdout
    );
    assert!(
        lines[16].trim_start().starts_with("[945, 999] | "),
        "{}",
        o.stdout
    );
    assert_eq!(lines[17], "1000 values in 16 bins of width 63");
    // the picture of the same: axis labels, interval labels, counts
    let png = dir.path().join("ramp.png");
    let (w, h, px) = show_png(&png, &floats);
    assert_shows(
        w,
        h,
        &px,
        &[
            "VALUE",
            "COUNT",
            "[-5.00, -4.38)",
            "[4.28, 4.90]",
            "100 VALUES IN 16 BINS OF WIDTH 0.62",
        ],
    );
    let png = dir.path().join("zeros.png");
    let (w, h, px) = show_png(&png, &zeros);
    assert_shows(w, h, &px, &["0", "50", "50 VALUES, 1 DISTINCT"]);
}

#[test]
fn completions_and_man_page() {
    for shell in ["bash", "zsh", "fish"] {
        let o = run_idx(&["--completions", shell]);
        assert_eq!(o.code, 0, "{shell}");
        assert!(
            o.stdout.contains("dump") && o.stdout.contains("start"),
            "{shell}"
        );
    }
    let o = run_idx(&["--man"]);
    assert_eq!(o.code, 0);
    assert!(o.stdout.starts_with(".ie \\n(.g .ds Aq"));
    let committed = std::fs::read_to_string(root().join("docs/idx.1")).unwrap();
    assert_eq!(committed, o.stdout, "regenerate: idx --man > docs/idx.1");
    let o = run_idx(&[]);
    assert_eq!(o.code, 2, "no subcommand: help and a usage error");
}

#[test]
fn show_never_sizes_a_picture_by_header_numbers_alone() {
    // u8 [16, 4294967295, 0]: valid (warnings only), no payload; drawing
    // it used to allocate 16 x 4294967296 rows. Under a 512 MiB address
    // space the old binary aborted; now it refuses with exit 2.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("wide.idx");
    std::fs::write(
        &file,
        [
            0x00, 0x00, 0x08, 0x03, // magic: u8, rank 3
            0x00, 0x00, 0x00, 0x10, // 16 items
            0xff, 0xff, 0xff, 0xff, // 4294967295 rows
            0x00, 0x00, 0x00, 0x00, // 0 columns
        ],
    )
    .unwrap();
    let png = dir.path().join("out.png");
    for extra in [format!("--png '{}'", png.display()), String::new()] {
        let o = Command::new("sh")
            .arg("-c")
            .arg(format!(
                "ulimit -v 524288 && exec '{}' show {extra} '{}'",
                env!("CARGO_BIN_EXE_idx"),
                file.display()
            ))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{extra}: {err}");
        assert_contains(&err, "too large to draw");
    }
    assert!(!png.exists(), "nothing is written");
}

/// Runs `sh -c "SETUP; exec idx ARGS"`: an address-space limit or a umask.
fn run_sh(setup: &str, args: &[&str]) -> Out {
    let quoted: Vec<String> = args
        .iter()
        .map(|a| format!("'{}'", a.replace('\'', "'\\''")))
        .collect();
    Cmd::new("sh")
        .args([
            "-c",
            &format!("{setup} && exec '{IDX}' {}", quoted.join(" ")),
        ])
        .out()
}

/// A sparse u8 file of `dims` (header written, payload a hole).
fn sparse(path: &Path, dims: &[u32]) {
    let mut head = vec![0, 0, 0x08, dims.len() as u8];
    for d in dims {
        head.extend(d.to_be_bytes());
    }
    let n: u64 = dims.iter().map(|&d| u64::from(d)).product();
    let f = std::fs::File::create(path).unwrap();
    f.write_all_at(&head, 0).unwrap();
    f.set_len(head.len() as u64 + n).unwrap();
}

use std::os::unix::fs::FileExt;

#[test]
fn show_draws_a_large_label_histogram_in_bounded_memory() {
    // 768 Mi u8 labels (sparse): the histogram streams the payload; the
    // old show decoded it whole (about 27 bytes an element)
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("labels-idx1-ubyte");
    sparse(&file, &[768 << 20]);
    let o = run_sh("ulimit -v 262144", &["show", file.to_str().unwrap()]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(
        o.stdout,
        format!(
            "value | count\n    0 | {} {n}\n{n} values, 1 distinct\n",
            "#".repeat(50),
            n = 768 << 20
        )
    );
}

#[test]
fn show_refuses_what_it_cannot_draw_before_reading_and_names_the_real_flag() {
    // a 2 GiB rank-2 image (sparse): refused from the header alone
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("wide.idx");
    sparse(&file, &[1, 1 << 31]);
    let o = run_sh("ulimit -v 262144", &["show", file.to_str().unwrap()]);
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert_contains(&o.stderr, "too large to draw");
    assert_contains(&o.stderr, "nothing was read");
    // one big item: "1 item ... is", and the option is --items, not -n
    let file = dir.path().join("big-items.idx");
    sparse(&file, &[3, 4096, 4096]);
    let o = run_idx(&["show", "--items", "1", file.to_str().unwrap()]);
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert_contains(&o.stderr, "1 item of 4096 x 4096 pixels is too large");
    let o = run_idx(&["show", file.to_str().unwrap()]);
    assert_contains(&o.stderr, "3 items of 4096 x 4096 pixels are too large");
    assert_contains(&o.stderr, "--items");
    assert!(!o.stderr.contains(" -n "), "{}", o.stderr);
}

#[test]
fn show_png_never_replaces_an_input_nor_an_existing_file_without_force() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("x-idx3-ubyte");
    let bytes = images(4, 2, 3);
    std::fs::write(&file, &bytes).unwrap();
    let f = file.to_str().unwrap();
    let hard = dir.path().join("hard.png");
    std::fs::hard_link(&file, &hard).unwrap();
    let soft = dir.path().join("soft.png");
    std::os::unix::fs::symlink(&file, &soft).unwrap();
    for dest in [&file, &hard, &soft] {
        for force in [&[][..], &["--force"][..]] {
            let mut args = vec!["show", "--png", dest.to_str().unwrap()];
            args.extend(force);
            args.push(f);
            let o = run_idx(&args);
            assert_eq!(o.code, 2, "{args:?}: {}", o.stderr);
            assert_eq!(std::fs::read(&file).unwrap(), bytes, "{args:?}");
        }
    }
    let o = run_idx(&["show", "--force", "--png", hard.to_str().unwrap(), f]);
    assert_contains(&o.stderr, "is one of the inputs");
    // an existing file that is not an input: only with --force
    let other = dir.path().join("other.png");
    std::fs::write(&other, "keep").unwrap();
    let o = run_idx(&["show", "--png", other.to_str().unwrap(), f]);
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert_contains(&o.stderr, "already exists");
    assert_eq!(std::fs::read(&other).unwrap(), b"keep");
    let o = run_idx(&["show", "--force", "--png", other.to_str().unwrap(), f]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(png_of(&other).0, 2 * 4 - 1);
}

/// `--png -` is standard output, as `-` is wherever a stream goes: the
/// PNG on stdout, what was drawn on stderr, no file named `-`.
#[test]
fn show_png_dash_writes_the_picture_to_standard_output() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("x-idx3-ubyte");
    std::fs::write(&file, images(4, 2, 3)).unwrap();
    let labels = dir.path().join("x-idx1-ubyte");
    std::fs::write(
        &labels,
        idx::to_bytes(&idx::Array::from_vec(vec![5], vec![1u8, 2, 2, 3, 3]).unwrap()).unwrap(),
    )
    .unwrap();
    for f in [&file, &labels] {
        let o = Cmd::new(IDX)
            .args(["show", "--png", "-", f.to_str().unwrap()])
            .dir(dir.path())
            .out();
        assert_eq!(o.code, 0, "{}", o.stderr);
        assert!(
            o.stdout_bytes.starts_with(b"\x89PNG\r\n\x1a\n"),
            "{:?}",
            o.stdout
        );
        let decoder = png::Decoder::new(std::io::Cursor::new(&o.stdout_bytes));
        assert!(decoder.read_info().is_ok());
        assert!(
            o.stderr.starts_with("wrote the PNG to standard output ("),
            "{}",
            o.stderr
        );
        assert!(!dir.path().join("-").exists(), "no file named -");
    }
}

#[test]
fn new_files_take_their_mode_from_the_umask() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("x-idx3-ubyte");
    std::fs::write(&file, images(4, 2, 3)).unwrap();
    for (umask, mode) in [("022", 0o644), ("077", 0o600), ("002", 0o664)] {
        let png = dir.path().join(format!("u{umask}.png"));
        let o = run_sh(
            &format!("umask {umask}"),
            &[
                "show",
                "--png",
                png.to_str().unwrap(),
                file.to_str().unwrap(),
            ],
        );
        assert_eq!(o.code, 0, "{}", o.stderr);
        let m = std::fs::metadata(&png).unwrap().permissions().mode() & 0o777;
        assert_eq!(m, mode, "umask {umask}");
    }
}

#[test]
fn info_on_something_that_is_not_idx_prints_no_header_breakdown() {
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("picture.png");
    // a PNG signature and the start of its IHDR chunk
    std::fs::write(
        &png,
        b"\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR\x00\x00\x00\x1c\x00\x00\x00\x1c\x08\x00\x00\x00\x00",
    )
    .unwrap();
    let o = run_idx(&["info", png.to_str().unwrap()]);
    assert_eq!(o.code, 1, "{}", o.stderr);
    assert_eq!(o.stdout, "", "nothing on stdout");
    assert_contains(&o.stderr, "IDX410");
}

#[test]
fn write_streams_the_json_in_bounded_memory() {
    // 24 Mi u8 elements (48 MiB of JSON): the old write held the parsed
    // document (a JSON value per element), gigabytes for MNIST
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("big.json");
    let n: usize = 24 << 20;
    {
        let mut f = std::io::BufWriter::new(std::fs::File::create(&json).unwrap());
        write!(f, "{{\"dtype\":\"u8\",\"shape\":[{n}],\"data\":[").unwrap();
        let chunk = "7,".repeat(1 << 16);
        for _ in 0..(n - 1) / (1 << 16) {
            f.write_all(chunk.as_bytes()).unwrap();
        }
        for _ in 0..(n - 1) % (1 << 16) {
            f.write_all(b"7,").unwrap();
        }
        f.write_all(b"9]}").unwrap();
    }
    let out = dir.path().join("out.idx");
    let o = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v 262144 && exec '{}' write < '{}' > '{}'",
            env!("CARGO_BIN_EXE_idx"),
            json.display(),
            out.display()
        ))
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let b = std::fs::read(&out).unwrap();
    assert_eq!(b.len(), 8 + n);
    assert_eq!(&b[..8], &[0, 0, 8, 1, 0x01, 0x80, 0, 0]);
    assert_eq!((b[8], b[b.len() - 1]), (7, 9));
}

#[test]
fn write_names_the_element_out_of_range_and_writes_nothing() {
    let o = run_env(
        &["write"],
        br#"{"dtype":"i16","shape":[3],"data":[1,40000,2]}"#,
        &[],
    );
    assert_eq!(o.code, 1);
    assert_contains(
        &o.stderr,
        "element 1 is 40000, outside the range of i16 (-32768..=32767)",
    );
    // stdout holds nothing: `idx write < bad.json > out.idx` leaves no
    // JSON in out.idx (the error document is for the runner's protocol,
    // `--error-document`)
    assert_eq!(o.stdout_bytes, b"", "{}", o.stdout);
    assert!(
        o.stderr.starts_with("error: bad content JSON: "),
        "{}",
        o.stderr
    );
    let o = run_env(
        &["write", "--error-document"],
        br#"{"dtype":"i16","shape":[3],"data":[1,40000,2]}"#,
        &[],
    );
    assert_eq!(o.code, 1);
    assert!(o.stdout.starts_with("{\"error\""), "{}", o.stdout);
}

#[test]
fn no_name_reaches_a_terminal_raw_in_any_subcommand() {
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().unwrap();
    // ESC, a newline, a bidi override and a byte that is not UTF-8
    let raw: &[u8] = b"x\x1b[31m\n\xe2\x80\xae\xff";
    let name = |suffix: &str| {
        let mut b = raw.to_vec();
        b.extend(suffix.as_bytes());
        dir.path().join(std::ffi::OsStr::from_bytes(&b))
    };
    let good = name("-idx1-ubyte");
    std::fs::write(&good, [0, 0, 8, 1, 0, 0, 0, 2, 1, 2]).unwrap();
    let bad = name("-bad.idx");
    std::fs::write(&bad, [0, 0, 7, 1, 0, 0, 0, 1, 5]).unwrap();
    let missing = name("-missing.idx");
    let png = name(".png");
    let npy = name(".npy");
    let to_npy = |input: &std::path::Path| -> Vec<std::ffi::OsString> {
        vec![
            "convert".into(),
            "--to".into(),
            "npy".into(),
            input.into(),
            "-o".into(),
            npy.clone().into(),
        ]
    };
    let runs: Vec<Vec<std::ffi::OsString>> = vec![
        vec!["show".into(), bad.clone().into()],
        vec!["show".into(), missing.clone().into()],
        vec![
            "show".into(),
            "--png".into(),
            png.clone().into(),
            good.clone().into(),
        ],
        vec!["info".into(), bad.clone().into()],
        vec!["info".into(), good.clone().into()],
        vec!["dump".into(), bad.clone().into()],
        to_npy(&good),
        to_npy(&bad),
        to_npy(&good),
    ];
    for args in runs {
        let o = Command::new(env!("CARGO_BIN_EXE_idx"))
            .args(&args)
            .output()
            .unwrap();
        for (what, out) in [("stdout", &o.stdout), ("stderr", &o.stderr)] {
            for needle in [&b"\x1b"[..], b"\xe2\x80\xae", b"\xff", b"[31m\n"] {
                assert!(
                    !out.windows(needle.len()).any(|w| w == needle),
                    "{args:?} {what}: {:?}",
                    String::from_utf8_lossy(out)
                );
            }
        }
        let text =
            String::from_utf8_lossy(&o.stderr).into_owned() + &String::from_utf8_lossy(&o.stdout);
        assert!(
            text.contains("x\\u{1b}[31m\\n\\u{202e}\\xff"),
            "{args:?}: {text}"
        );
    }
}

#[test]
fn info_and_convert_run_in_bounded_memory_on_a_large_sparse_file() {
    // u8 [16, 4096, 2048]: 128 MiB, a hole on disk, under 64 MiB of
    // address space
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("big-images-idx3-ubyte");
    sparse(&file, &[16, 4096, 2048]);
    let f = file.to_str().unwrap();
    let o = run_sh("ulimit -v 65536", &["info", f]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_contains(&o.stdout, "134217728 elements");
    let npy = dir.path().join("big.npy");
    let o = run_sh(
        "ulimit -v 65536",
        &["convert", "--to", "npy", f, "-o", npy.to_str().unwrap()],
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    let back = dir.path().join("back.idx");
    let o = run_sh(
        "ulimit -v 65536",
        &[
            "convert",
            "--from",
            "npy",
            npy.to_str().unwrap(),
            "-o",
            back.to_str().unwrap(),
        ],
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(std::fs::metadata(&back).unwrap().len(), 16 + (128 << 20));
}

/// A usage error quotes the value given escaped (clap printed it as given).
#[test]
fn usage_errors_show_the_values_given_escaped() {
    use test_support::{assert_escaped_usage_error, HOSTILE_VALUE};
    let unknown = format!("--x{HOSTILE_VALUE}");
    for args in [
        vec!["dump", "--max-decompressed", HOSTILE_VALUE, "x.idx"],
        vec!["info", unknown.as_str(), "x.idx"],
        vec![HOSTILE_VALUE],
    ] {
        let o = Command::new(env!("CARGO_BIN_EXE_idx"))
            .args(&args)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_escaped_usage_error(&args, o.status.code().unwrap(), &stderr);
        // the usage is the command's own, its lines kept
        if args.len() == 1 {
            assert_contains(&stderr, "Usage: idx [OPTIONS]\n       idx <COMMAND>\n");
        }
    }
}
