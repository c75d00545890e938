//! The site's rule pages, generated: `docs/rules/<CODE>.md` for every rule
//! of `idx::Rule::ALL`, and `docs/rules/index.md` listing them. A page says
//! what the rule list, the spec (`spec/idx.md`), the corpus and the
//! conformance matrix (`corpus/MATRIX.md`) say about its rule, shows the
//! smallest corpus example in hex, and the output of this package's binary,
//! run here, on it (and of `--diff` when the rule has a fix). Only the
//! advice to writers (`WRITERS`) is written by hand.
//!
//! The pages are committed (rust-analyzer's habit): `rule_pages_are_current`
//! regenerates every page and fails when a committed one differs, lacks or
//! is left over, after writing the new pages so that a second run passes:
//! review the difference and commit it.

use crate::support::{run, run_in};
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;
use test_support::root;

/// What a writer should change so that a file no longer breaks the rule.
const WRITERS: &[(&str, &str)] = &[
    ("IDX101", "Write `00 00` first: the magic is the four bytes `00 00 <type> <rank>`. A writer that prepends bytes of its own, writes a shifted header, or writes the magic as one little-endian 32-bit integer breaks this."),
    ("IDX102", "Use one of the six type codes: `0x08` u8, `0x09` i8, `0x0B` i16, `0x0C` i32, `0x0D` f32, `0x0E` f64. IDX has no 64-bit integers, no unsigned 16- or 32-bit integers and no 16-bit floats: cast the array to a type IDX has before writing (numpy's default `int64` is the usual culprit)."),
    ("IDX103", "Write the whole file before anyone reads it: write to a temporary name, close it, then rename it. A file of fewer than 4 bytes is an interrupted write or download."),
    ("IDX104", "Write one 4-byte dimension per axis: the rank byte is the number of dimensions that follow. An interrupted write or download also leaves this."),
    ("IDX201", "Write each dimension as an unsigned 32-bit big-endian integer (`struct.pack('>I', d)`, `htonl` in C). No real file is this large: the dimensions were written little-endian (the hint says when that reading fits the file exactly) or the header is damaged."),
    ("IDX202", "Write all `product(dims) * size` bytes of the payload and close the file (a `with` block in Python); when items are streamed, set dimension 0 to the number of items actually written. A cut download leaves the same file: fetch it again."),
    ("IDX203", "Write exactly `product(dims)` elements after the header and nothing else: no padding, no footer, no second array appended (open the file with `\"wb\"`, not `\"ab\"`). When more items were written than dimension 0 says, the header's count is what is wrong."),
    ("IDX301", "Write a scalar as a rank-1 array of one element (shape `[1]`) unless every reader the file will meet accepts rank 0."),
    ("IDX302", "Avoid exchanging empty arrays; when an empty split is meant, say so beside the file, since many readers reject a zero dimension."),
    ("IDX303", "Split the data along dimension 0 into several files, each with every dimension under 2^31, when the readers the file will meet keep sizes in signed 32-bit integers."),
    ("IDX304", "Merge axes (reshape) down to at most 32 dimensions: numpy before 2.0 cannot hold more."),
    ("IDX401", "Write the magic and every dimension big-endian: `struct.pack('>4B', 0, 0, code, rank)` and `struct.pack('>I', d)` (or `htonl` in C). `'<I'`, `'I'` (native order) and `tofile` on an integer header write little-endian on x86 and ARM."),
    ("IDX402", "Nothing, when the gzip is meant: name the file `.gz`, and decompress before handing it to a reader of raw IDX (`idx-validate`, `idx` and `idxkit` decompress by themselves). A gzip stream inside a decompressed one was compressed twice."),
    ("IDX403", "Extract the archive or decompress the stream first: IDX files are distributed raw or gzip-compressed."),
    ("IDX404", "Save with an IDX writer (`idxkit.save`) rather than `numpy.save`, or convert the file: `idx convert --from npy file.npy -o file.idx`."),
    ("IDX405", "The file is text saved under the data's name, often an HTML error page or a Git LFS pointer: fetch the real file (`git lfs pull` for a pointer) and make the download script check the HTTP status."),
    ("IDX406", "Delete the `._*` files macOS writes beside files on other file systems and into archives (`find . -name '._*' -delete`; `COPYFILE_DISABLE=1 tar ...` makes archives without them)."),
    ("IDX410", "An image is not an IDX array: decode the images into one array and save it with an IDX writer, or point the reader at the right file."),
    ("IDX411", "A PDF saved under the data's name: fetch the data file itself."),
    ("IDX412", "A Python pickle (`pickle.dump`, `torch.save`): load it in Python and save the array with an IDX writer (`idxkit.save`)."),
    ("IDX413", "An HDF5 file: read the dataset (h5py) and save the array with an IDX writer."),
    ("IDX414", "A TFRecord file: parse its records and save the decoded array with an IDX writer."),
    ("IDX415", "A Parquet table: read it (pandas, pyarrow) and save the array with an IDX writer."),
    ("IDX416", "An executable or a shared library, not data: a wrong path or a mixed-up build artefact."),
    ("IDX420", "Not IDX, nor a format recognised: when the hint says the first byte is lost, something dropped bytes from the start of the file; a writer writes the magic `00 00 <type> <rank>` first."),
    ("IDX501", "Write multi-byte elements big-endian: in numpy `a.astype(a.dtype.newbyteorder('>')).tobytes()` (or the dtypes `'>i2'`, `'>i4'`, `'>f4'`, `'>f8'`), never `a.tofile(f)` or `a.tobytes()` on a native-order array; in C, swap each element (`htonl`, `htons`). IDX501 is a statistical test, so it warns and never fails a run by itself; to gate your writer's output in CI, make it fail (`idx-validate --severity IDX501=error out/`, or `severity = { IDX501 = \"error\" }` in `idx-validate.toml`), and, when you know the values' range, state it: `idx-validate --expect-range 0..9 labels.idx` (or `--classes 10`) proves a byte-swapped payload, an error whatever the flags, and makes the `--fix` byte swap safe."),
    ("IDX502", "Nothing, when NaN or infinity is meant (IDX keeps every bit pattern). Otherwise look for a division by zero or an overflow in the step that made the data."),
    ("IDX503", "Name the file for what it holds: in `<prefix>-idx<R>-<word>`, `R` is the rank and the word the type (`ubyte` u8, `byte` i8, `short` i16, `int` i32, `float` f32, `double` f64), or write the rank and type the name promises."),
    ("IDX601", "Cast the array to the expected type before writing (`a.astype(numpy.uint8)`), or correct `--expect-dtype` when the file is right."),
    ("IDX602", "Reshape to the expected shape before writing (items first: `[N, 28, 28]`), or correct `--expect-shape` when the file is right."),
    ("IDX701", "Finish the gzip stream: close the writer so that its trailer is written (`with gzip.open(path, \"wb\") as f:` in Python). A damaged download must be fetched again."),
    ("IDX702", "Nothing, when the data really is that large: raise the limit (`--max-decompressed`, `max-decompressed` in the configuration). Otherwise the file is a decompression bomb: do not use it."),
    ("IDX703", "Write the gzip file without padding after its last member (tape and block tools and preallocating writers leave zero bytes); truncate the file after the last member."),
    ("IDX801", "Write the images and labels of a split from the same list of items, with dimension 0 of both set to the number written."),
    ("IDX802", "Write labels as rank-1 integers, one per item (`labels.astype(numpy.uint8)` for up to 256 classes); a labels file holding floats or images is usually a mixed-up file name."),
    ("IDX803", "Map the classes to 0..N-1 before writing, and give the right number of classes to `--classes`."),
    ("IDX804", "Nothing, when a subset of the classes is meant (then pass `--classes N`); otherwise check that the labels file belongs to this dataset and that no class was dropped."),
    ("IDX805", "Write the training and test images with the same element type and item shape: the same preprocessing for both splits."),
    ("IDX806", "Ship each images file beside its labels file, with the same prefix: `train-images-idx3-ubyte` with `train-labels-idx1-ubyte`."),
];

/// Rules no corpus case shows: a corpus file checked under another name
/// (the rule is about names), in a scratch directory.
const RENAMED: &[(&str, &str, &str)] = &[(
    "IDX503",
    "corpus/valid/valid-u8-rank2.idx",
    "train-images-idx3-ubyte",
)];

/// Bytes shown in hex in full up to this size; the first `HEX_HEAD` beyond.
const HEX_ALL: usize = 256;
const HEX_HEAD: usize = 128;

fn read(rel: &str) -> String {
    std::fs::read_to_string(root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

fn json(rel: &str) -> Value {
    serde_json::from_str(&read(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// One example: a corpus case (a file or a dataset directory), or a corpus
/// file under another name.
struct Example {
    id: String,
    description: String,
    /// Files shown in hex: the name shown and the path in the repository.
    files: Vec<(String, PathBuf)>,
    /// The arguments of `idx-validate`, and the directory it runs in
    /// (`None`: the repository root).
    args: Vec<String>,
    dir: Option<(tempfile::TempDir, String)>,
    /// The rules of the case, and its verdict.
    rules: Vec<String>,
    verdict: String,
    size: u64,
}

fn options_args(m: &Value) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(o) = m.get("options").and_then(Value::as_object) {
        for (k, v) in o {
            let flag = format!("--{}", k.replace('_', "-"));
            let value = match v {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            out.push(flag);
            out.push(value);
        }
    }
    out
}

/// Every corpus case, file or dataset, as an example.
fn corpus_examples() -> Vec<Example> {
    let index = json("corpus/index.json");
    let mut out = Vec::new();
    for c in index["cases"].as_array().unwrap() {
        let m = json(&format!("corpus/{}", c["manifest"].as_str().unwrap()));
        let path = format!("corpus/{}", c["path"].as_str().unwrap());
        let size = std::fs::metadata(root().join(&path)).unwrap().len();
        let mut args = options_args(&m);
        args.push(path.clone());
        out.push(Example {
            id: c["id"].as_str().unwrap().into(),
            description: m["description"].as_str().unwrap_or_default().into(),
            files: vec![(path.clone(), root().join(&path))],
            args,
            dir: None,
            rules: strings(&m["rules"]),
            verdict: m["verdict"].as_str().unwrap().into(),
            size,
        });
    }
    for d in index["datasets"].as_array().unwrap() {
        let m = json(&format!("corpus/{}", d["manifest"].as_str().unwrap()));
        let dir = format!("corpus/{}", d["directory"].as_str().unwrap());
        let files: Vec<(String, PathBuf)> = strings(&m["files"])
            .into_iter()
            .map(|f| (format!("{dir}/{f}"), root().join(&dir).join(f)))
            .collect();
        let size = files
            .iter()
            .map(|(_, p)| std::fs::metadata(p).unwrap().len())
            .sum();
        let mut args = Vec::new();
        if let Some(n) = m["classes"].as_u64() {
            args.extend(["--classes".to_string(), n.to_string()]);
        }
        args.push(dir.clone());
        out.push(Example {
            id: d["id"].as_str().unwrap().into(),
            description: m["description"].as_str().unwrap_or_default().into(),
            files,
            args,
            dir: None,
            rules: strings(&m["rules"]),
            verdict: m["verdict"].as_str().unwrap().into(),
            size,
        });
    }
    out
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

/// The smallest example of `code`: a case whose only rule it is if there
/// is one, else any case naming it; the smaller, then the first by ID.
fn smallest(code: &str, all: &[Example]) -> Option<usize> {
    let mut best: Option<(bool, u64, &str, usize)> = None;
    for (i, e) in all.iter().enumerate() {
        if !e.rules.iter().any(|r| r == code) {
            continue;
        }
        let key = (e.rules.len() != 1, e.size, e.id.as_str(), i);
        if best.is_none_or(|b| (key.0, key.1, key.2) < (b.0, b.1, b.2)) {
            best = Some(key);
        }
    }
    best.map(|b| b.3)
}

fn renamed_example(code: &str) -> Option<Example> {
    let (_, src, name) = RENAMED.iter().find(|(c, _, _)| *c == code)?;
    let t = tempfile::tempdir().unwrap();
    std::fs::copy(root().join(src), t.path().join(name)).unwrap();
    let size = std::fs::metadata(root().join(src)).unwrap().len();
    Some(Example {
        id: src.to_string(),
        description: format!(
            "no corpus case shows this rule (it is about file names): the corpus \
             file `{src}` saved as `{name}`"
        ),
        files: vec![(name.to_string(), root().join(src))],
        args: vec![name.to_string()],
        dir: Some((t, name.to_string())),
        rules: vec![code.to_string()],
        verdict: "valid".into(),
        size,
    })
}

/// `xxd`-style rows, as the human output shows bytes.
fn hex(bytes: &[u8]) -> String {
    let mut s = String::new();
    for (row, chunk) in bytes.chunks(16).enumerate() {
        let _ = write!(s, "{:08x} ", row * 16);
        for i in 0..16 {
            if i == 8 {
                s.push(' ');
            }
            match chunk.get(i) {
                Some(b) => {
                    let _ = write!(s, " {b:02x}");
                }
                None => s.push_str("   "),
            }
        }
        s.push_str("  |");
        for b in chunk {
            s.push(if b.is_ascii_graphic() || *b == b' ' {
                *b as char
            } else {
                '.'
            });
        }
        s.push_str("|\n");
    }
    s
}

/// A command line as a user types it (single quotes around `*`).
fn shell(args: &[String]) -> String {
    let mut s = String::from("idx-validate");
    for a in args {
        s.push(' ');
        if a.contains(['*', ' ', '\'']) {
            let _ = write!(s, "'{a}'");
        } else {
            s.push_str(a);
        }
    }
    s
}

/// The binary's output on `args` in the example's directory: the command,
/// what it printed (standard output, then standard error) and its status.
fn console(ex: &Example, args: &[String]) -> String {
    let argv: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = match &ex.dir {
        Some((t, _)) => run_in(t.path(), &argv),
        None => run(&argv),
    };
    let mut s = format!("$ {}\n{}", shell(args), o.stdout);
    if !o.stderr.is_empty() {
        s.push_str(&o.stderr);
    }
    if !s.ends_with('\n') {
        s.push('\n');
    }
    let _ = writeln!(s, "$ echo $?\n{}", o.code);
    s
}

/// The matrix's case grid: column names (`numpy reader`) and, per case,
/// each column's status.
struct Matrix {
    columns: Vec<String>,
    cases: BTreeMap<String, Vec<String>>,
}

fn matrix() -> Matrix {
    let text = read("corpus/MATRIX.md");
    let grid = text
        .split("\n## Cases\n")
        .nth(1)
        .expect("corpus/MATRIX.md has a Cases section");
    let mut rows = grid
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'));
    let cells = |l: &str| -> Vec<String> {
        l.trim_matches('|')
            .split('|')
            .map(|c| c.trim().trim_matches('*').to_string())
            .collect()
    };
    let head = cells(rows.next().unwrap());
    assert_eq!(head[..2], ["case", "verdict"], "{head:?}");
    let columns = head[2..].to_vec();
    let mut cases = BTreeMap::new();
    for l in rows.skip(1) {
        let c = cells(l);
        cases.insert(c[0].clone(), c[2..].to_vec());
    }
    assert!(cases.len() > 100, "{} cases in the matrix", cases.len());
    Matrix { columns, cases }
}

/// Statuses that read the case as the spec says (for an implementation-
/// defined case, either way).
fn right(status: &str) -> bool {
    matches!(status, "pass" | "accepted")
}

/// "Who gets it wrong": the matrix's results on every case naming `code`.
fn who(code: &str, all: &[Example], m: &Matrix) -> String {
    // the cases that break this rule alone, when there are any: a reader
    // that mishandles a case breaking several rules is not telling which
    let naming: Vec<&Example> = all
        .iter()
        .filter(|e| e.rules.iter().any(|r| r == code) && m.cases.contains_key(&e.id))
        .collect();
    let alone: Vec<&Example> = naming
        .iter()
        .copied()
        .filter(|e| e.rules.len() == 1)
        .collect();
    let (cases, how) = if alone.is_empty() {
        (naming, "name this rule")
    } else {
        (alone, "show this rule alone")
    };
    if cases.is_empty() {
        return "The [conformance matrix](../matrix.md) runs readers and writers on one \
                file at a time, without validator options: it runs none on this rule's \
                cases.\n"
            .into();
    }
    let mut wrong = Vec::new();
    let mut good = Vec::new();
    for (col, name) in m.columns.iter().enumerate() {
        // this toolkit's own rows (the reference, its WebAssembly build and
        // its C library)
        if name.starts_with("reference ") || name.starts_with("wasm ") || name.starts_with("idxc ")
        {
            continue;
        }
        let mut by: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        let mut ran = 0;
        for e in &cases {
            let st = m.cases[&e.id][col].as_str();
            if st == "-" || st.is_empty() {
                continue;
            }
            ran += 1;
            if !right(st) {
                by.entry(st).or_default().push(&e.id);
            }
        }
        let (imp, mode) = name.rsplit_once(' ').unwrap_or((name, ""));
        let label = implementation(imp, mode);
        if ran == 0 {
            continue;
        }
        if by.is_empty() {
            good.push(label);
            continue;
        }
        let parts: Vec<String> = by
            .iter()
            .map(|(st, ids)| {
                let shown: Vec<String> = ids.iter().take(4).map(|i| format!("`{i}`")).collect();
                let more = if ids.len() > 4 {
                    format!(" and {} more", ids.len() - 4)
                } else {
                    String::new()
                };
                format!(
                    "{st} on {} of {ran} ({}{more})",
                    ids.len(),
                    shown.join(", ")
                )
            })
            .collect();
        wrong.push(format!("- {label}: {}", parts.join("; ")));
    }
    let n = cases.len();
    let (noun, it) = if n == 1 {
        ("case", "it")
    } else {
        ("cases", "them")
    };
    let how = if n == 1 {
        how.replace("show", "shows").replace("name ", "names ")
    } else {
        how.to_string()
    };
    let portable = cases.iter().all(|e| e.verdict == "implementation-defined");
    let what = if portable {
        format!(
            "reject or misread {it} (implementation-defined cases: valid bytes that \
             readers treat differently, which is what this rule warns about)"
        )
    } else {
        format!("do not read {it} as the spec says")
    };
    let mut s = format!(
        "{n} corpus {noun} {how}; in the [conformance matrix](../matrix.md) the \
         implementations below {what} (statuses as in \
         [the corpus README](../../corpus/README.md#statuses)):\n\n"
    );
    if wrong.is_empty() {
        s = format!(
            "{n} corpus {noun} {how}, and every implementation in the \
             [conformance matrix](../matrix.md) reads {it} as the spec says.\n"
        );
    } else {
        for w in &wrong {
            s.push_str(w);
            s.push('\n');
        }
    }
    if !good.is_empty() && !wrong.is_empty() {
        let _ = write!(s, "\nRight on every one: {}.\n", good.join(", "));
    }
    s
}

/// `numpy` (reader), linked to the implementation's report when it has one.
fn implementation(name: &str, mode: &str) -> String {
    let report = format!("corpus/reports/{name}.md");
    let n = if root().join(&report).exists() {
        format!("[{name}](../../{report})")
    } else {
        format!("**{name}**")
    };
    format!("{n} ({mode})")
}

/// The spec's fix for `code` (§10.3's table row: applicability, fix).
fn spec_fix(code: &str) -> (String, String) {
    let spec = read("spec/idx.md");
    let row = spec
        .lines()
        .find(|l| l.starts_with(&format!("| {code} ")))
        .unwrap_or_else(|| panic!("{code} has no row in spec/idx.md §10.3"));
    let cells: Vec<&str> = row.trim_matches('|').split('|').map(str::trim).collect();
    (cells[1].to_string(), cells[2].to_string())
}

fn writer_advice(code: &str) -> &'static str {
    WRITERS
        .iter()
        .find(|(c, _)| *c == code)
        .unwrap_or_else(|| panic!("{code} has no advice to writers in WRITERS"))
        .1
}

/// The spec's section for the rule, as `--explain` prints it, without its
/// heading; the rule's own headings become the page's subsections.
fn spec_text(rule: idx::Rule) -> String {
    let text = idx_validate::explain(rule.code()).unwrap();
    let body = text.split_once('\n').unwrap().1.trim();
    format!("{body}\n")
}

const GENERATED: &str = "<!-- generated by crates/idx-validate/tests/it/rule_pages.rs \
     (cargo test -p idx-validate --test it rule_pages::): edit that file, not this one -->";

fn page(rule: idx::Rule, all: &[Example], m: &Matrix) -> String {
    let code = rule.code();
    let mut s = String::new();
    let _ = writeln!(s, "{GENERATED}\n");
    let _ = writeln!(s, "# {code} {}\n", rule.name());
    let _ = writeln!(s, "**{}**\n", rule.title());
    let _ = writeln!(s, "| code | name | severity | fix |");
    let _ = writeln!(s, "|---|---|---|---|");
    let _ = writeln!(
        s,
        "| {code} | {} | {} | {} |\n",
        rule.name(),
        rule.severity(),
        fix_words(rule)
    );
    let _ = writeln!(s, "## What the spec says\n");
    s.push_str(&spec_text(rule));
    let _ = writeln!(
        s,
        "\nFrom [spec/idx.md](../../spec/idx.md#{}); `idx-validate --explain {code}` prints it.\n",
        rule.anchor()
    );
    let _ = writeln!(s, "## Who gets it wrong\n");
    s.push_str(&who(code, all, m));

    let owned;
    let ex = match smallest(code, all) {
        Some(i) => &all[i],
        None => {
            owned = renamed_example(code)
                .unwrap_or_else(|| panic!("{code}: no corpus case names it; add one (or RENAMED)"));
            &owned
        }
    };
    let _ = writeln!(s, "\n## Example\n");
    let bytes = format!(
        "{} {}",
        ex.size,
        if ex.size == 1 { "byte" } else { "bytes" }
    );
    if ex.dir.is_some() {
        let _ = writeln!(s, "An example: {} ({bytes}):\n", ex.description);
    } else {
        let _ = writeln!(
            s,
            "The smallest corpus example, `{}`: {} ({bytes}):\n",
            ex.id, ex.description
        );
    }
    for (shown, path) in &ex.files {
        let b = std::fs::read(path).unwrap();
        let _ = writeln!(s, "`{shown}`:\n\n```text");
        if b.is_empty() {
            s.push_str("(empty)\n");
        } else if b.len() <= HEX_ALL {
            s.push_str(&hex(&b));
        } else {
            s.push_str(&hex(&b[..HEX_HEAD]));
            let _ = writeln!(s, "... ({} bytes in all)", b.len());
        }
        let _ = writeln!(s, "```\n");
    }
    let _ = writeln!(s, "`idx-validate` on it:\n\n```console");
    s.push_str(&console(ex, &ex.args));
    let _ = writeln!(s, "```\n");

    let _ = writeln!(s, "## Fix\n");
    let (applicability, fix) = spec_fix(code);
    if rule.fixes().is_empty() {
        let _ = writeln!(s, "`idx-validate --fix` has no fix for this rule: {fix}.\n");
    } else {
        let _ = writeln!(
            s,
            "`idx-validate --fix` ({applicability}; `--unsafe-fixes` takes the unsafe \
             one): {fix}. See [Repairing files](../guide/fix.md).\n"
        );
        let mut args = vec!["--diff".to_string(), "--unsafe-fixes".to_string()];
        args.extend(ex.args.iter().cloned());
        let _ = writeln!(
            s,
            "What it would do to the example (`--diff` writes nothing):\n\n```console"
        );
        s.push_str(&console(ex, &args));
        let _ = writeln!(s, "```\n");
    }
    let _ = writeln!(s, "**In the writer**: {}", writer_advice(code));
    s
}

/// `--list-rules`'s fix column in words (a `|` would end a table cell).
fn fix_words(rule: idx::Rule) -> String {
    match idx_validate::fix_column(rule).as_str() {
        "-" => "none".into(),
        f => f.replace('|', " or "),
    }
}

fn index() -> String {
    let mut s = String::new();
    let _ = writeln!(s, "{GENERATED}\n");
    let _ = writeln!(s, "# Rules\n");
    let _ = writeln!(
        s,
        "Every check has a stable code (never renumbered, never reused; the families \
         are in [Rule codes](../../spec/README.md#rule-codes)). Each rule's page has the \
         spec's text, which readers get it wrong, the smallest corpus example with \
         `idx-validate`'s output on it, and how to fix the file and the writer. \
         `idx-validate --list-rules` prints this table, and a finding's \
         `= rule:` line, SARIF `helpUri` and JSON `url` lead to its page.\n"
    );
    let _ = writeln!(s, "| code | name | severity | fix | what |");
    let _ = writeln!(s, "|---|---|---|---|---|");
    for r in idx::Rule::ALL {
        let _ = writeln!(
            s,
            "| [{c}]({c}.md) | {} | {} | {} | {} |",
            r.name(),
            r.severity(),
            fix_words(*r),
            r.title(),
            c = r.code()
        );
    }
    s
}

/// Every page this module generates: path under `docs/rules/`, content.
fn generate() -> BTreeMap<String, String> {
    let all = corpus_examples();
    let m = matrix();
    let mut out = BTreeMap::new();
    out.insert("index.md".to_string(), index());
    for r in idx::Rule::ALL {
        out.insert(format!("{}.md", r.code()), page(*r, &all, &m));
    }
    out
}

fn rules_dir() -> PathBuf {
    root().join("docs/rules")
}

/// rust-analyzer's `ensure_file_contents`: a stale file is rewritten and
/// named, and the test fails.
#[test]
fn rule_pages_are_current() {
    let pages = generate();
    let dir = rules_dir();
    std::fs::create_dir_all(&dir).unwrap();
    let mut stale = Vec::new();
    for (name, text) in &pages {
        let path = dir.join(name);
        if std::fs::read_to_string(&path).ok().as_deref() != Some(text) {
            std::fs::write(&path, text).unwrap();
            stale.push(name.clone());
        }
    }
    for e in std::fs::read_dir(&dir).unwrap() {
        let name = e.unwrap().file_name().to_string_lossy().into_owned();
        if !pages.contains_key(&name) {
            std::fs::remove_file(dir.join(&name)).unwrap();
            stale.push(format!("{name} (removed: no such rule)"));
        }
    }
    assert!(
        stale.is_empty(),
        "docs/rules/ was out of date and has been regenerated: {stale:?}; \
         review the difference and commit it"
    );
}

#[test]
fn one_page_per_listed_rule() {
    let o = run(&["--list-rules"]);
    assert_eq!(o.code, 0);
    let listed: Vec<&str> = o.stdout.lines().map(|l| &l[..6]).collect();
    let pages: Vec<String> = std::fs::read_dir(rules_dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("IDX") && n.ends_with(".md"))
        .collect();
    assert_eq!(listed.len(), pages.len(), "{listed:?} {pages:?}");
    for code in listed {
        assert!(
            pages.contains(&format!("{code}.md")),
            "{code} has no page in docs/rules/"
        );
    }
}

#[test]
fn every_rule_has_advice_to_writers_and_no_advice_is_for_an_unknown_rule() {
    for r in idx::Rule::ALL {
        assert!(!writer_advice(r.code()).is_empty());
    }
    for (code, _) in WRITERS {
        assert!(idx::Rule::find(code).is_some(), "{code} is not a rule");
    }
    for (code, _, _) in RENAMED {
        assert!(
            !corpus_examples()
                .iter()
                .any(|e| e.rules.iter().any(|r| r == code)),
            "{code} has a corpus case now: drop it from RENAMED"
        );
    }
}

#[test]
fn hex_rows_look_like_the_human_output() {
    assert_eq!(
        hex(&[0, 0, 7, 1, 0, 0, 0, 2, 0x0a, 0x0b]),
        "00000000  00 00 07 01 00 00 00 02  0a 0b                    |..........|\n"
    );
}

#[test]
fn the_matrix_grid_is_read_whole() {
    let m = matrix();
    assert!(
        m.columns.iter().any(|c| c == "numpy reader"),
        "{:?}",
        m.columns
    );
    let row = &m.cases["invalid-reserved-byte0"];
    assert_eq!(row.len(), m.columns.len());
    let numpy = m.columns.iter().position(|c| c == "numpy reader").unwrap();
    assert_eq!(row[numpy], "accepted-invalid");
}

/// The site path of a rule link (`rules/IDX203.html`) is the page
/// generated from `docs/rules/IDX203.md`: the links the tools print resolve
/// in a clone, with no network.
fn page_of_link(url: &str) -> PathBuf {
    let path = url
        .strip_prefix(idx_validate::DOCS_URL)
        .unwrap_or_else(|| panic!("{url} is not under {}", idx_validate::DOCS_URL));
    let md = path
        .strip_suffix(".html")
        .unwrap_or_else(|| panic!("{url}: not a page"));
    root().join("docs").join(format!("{md}.md"))
}

#[test]
fn rule_links_in_sarif_json_jsonl_and_explain_lead_to_the_rule_pages() {
    assert!(
        idx_validate::DOCS_URL.starts_with("https://") && idx_validate::DOCS_URL.ends_with('/'),
        "{}",
        idx_validate::DOCS_URL
    );
    for r in idx::Rule::ALL {
        let url = idx_validate::rule_url(*r);
        assert!(page_of_link(&url).is_file(), "{url}: no page");
        // --explain ends with the link
        let o = run(&["--explain", r.code()]);
        assert_eq!(o.code, 0);
        assert!(
            o.stdout.trim_end().ends_with(&url),
            "{}: {}",
            r.code(),
            o.stdout
        );
    }
    let file = "corpus/invalid/invalid-trailing-byte.idx";
    let want = idx_validate::rule_url(idx::Rule::find("IDX203").unwrap());
    let o = run(&["--isolated", "--format", "json", file]);
    let v: Value = serde_json::from_str(&o.stdout).unwrap();
    assert_eq!(v["files"][0]["findings"][0]["url"], want.as_str());
    let o = run(&["--isolated", "--format", "jsonl", file]);
    let v: Value = serde_json::from_str(o.stdout.lines().next().unwrap()).unwrap();
    assert_eq!(v["url"], want.as_str());
    let o = run(&["--isolated", "--format", "sarif", file]);
    let v: Value = serde_json::from_str(&o.stdout).unwrap();
    for rule in v["runs"][0]["tool"]["driver"]["rules"].as_array().unwrap() {
        let url = rule["helpUri"].as_str().unwrap();
        assert!(page_of_link(url).is_file(), "{url}: no page");
    }
}

/// `mkdocs.yml` serves the site at the workspace's `homepage`, the base of
/// every rule link.
#[test]
fn the_site_url_is_the_docs_url() {
    let yml = read("mkdocs.yml");
    let site = yml
        .lines()
        .find_map(|l| l.strip_prefix("site_url: "))
        .expect("mkdocs.yml sets site_url");
    assert_eq!(site.trim(), idx_validate::DOCS_URL);
    assert!(
        yml.contains("use_directory_urls: false"),
        "rule pages are <code>.html"
    );
}
