//! Structure checks that read the sources: the one way in stays the one
//! way in. The gzip magic is recognised inside the library alone (its
//! validator and reader, the decoder and the IDX402 finding beside them),
//! no other crate sniffs gzip, and the decompression limit's default lives
//! in `idx` alone, so no front end can read gzip its own way or forget the
//! limit.

use std::path::{Path, PathBuf};

/// Every file under `dir` whose name ends with one of `exts`, the folders
/// named in `skip` (and build outputs, hidden folders) left out.
fn files(dir: &Path, exts: &[&str], skip: &[&str], out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        let name = e.file_name().to_string_lossy().to_string();
        if p.is_dir() {
            let built = matches!(name.as_str(), "node_modules" | "target" | "__pycache__");
            if !built && !name.starts_with('.') && !skip.contains(&name.as_str()) {
                files(&p, exts, skip, out);
            }
        } else if exts.iter().any(|x| name.ends_with(x)) {
            out.push(p);
        }
    }
}

/// Every source file of the workspace's crates (tests aside), the Python
/// package, the page and the npm package, as (path from the root, text).
fn sources() -> Vec<(String, String)> {
    let root = test_support::root();
    let mut paths = Vec::new();
    for (dir, exts) in [
        ("crates", &["rs"][..]),
        ("python/idxkit", &["py"][..]),
        ("web", &["js", "mjs"][..]),
        ("npm", &["js", "mjs", "ts"][..]),
    ] {
        files(&root.join(dir), exts, &["tests", "snapshots"], &mut paths);
    }
    let mut out: Vec<(String, String)> = paths
        .into_iter()
        .filter(|p| !p.components().any(|c| c.as_os_str() == "tests"))
        .map(|p| {
            (
                p.strip_prefix(&root)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/"),
                std::fs::read_to_string(&p).unwrap_or_default(),
            )
        })
        .collect();
    out.sort();
    assert!(out.len() > 100, "{} sources", out.len());
    out
}

/// Lines of `text` outside comments (`//`, `#`, `*` doc lines).
fn code_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines().enumerate().filter(|(_, l)| {
        let t = l.trim_start();
        !(t.starts_with("//") || t.starts_with('#') && !t.starts_with("#[") || t.starts_with('*'))
    })
}

#[test]
fn the_gzip_magic_is_recognised_by_the_reader_alone() {
    // where the magic may appear: the decoder with `is_gzip` (which the
    // reader calls), the IDX402 finding, the fuzz harnesses that build gzip
    // streams, and the corpus recipes that write gzip cases
    let allowed = [
        "crates/idx/src/gzip.rs",
        "crates/idx/src/sniff/mod.rs",
        "crates/idx/src/fuzzing.rs",
        "crates/idx-conformance/src/cases/",
        // the runner's variants rewrite a gzip case's header (a file name
        // field), as the recipes write gzip
        "crates/idx-conformance/src/runner/variant.rs",
    ];
    let needles = [
        "0x1f, 0x8b",
        "0x1f,0x8b",
        "\\x1f\\x8b",
        "[31, 139]",
        "0x8b1f",
        "1f 8b 08",
    ];
    let mut found = Vec::new();
    for (path, text) in sources() {
        if allowed.iter().any(|a| path.starts_with(a)) {
            continue;
        }
        for (n, line) in code_lines(&text) {
            if needles
                .iter()
                .any(|x| line.to_ascii_lowercase().contains(x))
            {
                found.push(format!("{path}:{}: {}", n + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "the gzip magic outside the reader:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_decompression_limit_has_its_default_in_idx_alone() {
    // front ends take the limit from `idx::ReadOptions` (whose default is
    // the safe one); none computes or re-exports a default of its own
    let needles = [
        "decompression_limit(",
        "DEFAULT_MAX_DECOMPRESSED",
        "64 << 30",
    ];
    let mut found = Vec::new();
    for (path, text) in sources() {
        if path.starts_with("crates/idx/") {
            continue;
        }
        for (n, line) in code_lines(&text) {
            if needles.iter().any(|x| line.contains(x)) && !line.contains("\"64") {
                found.push(format!("{path}:{}: {}", n + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "a decompression default outside idx:\n{}",
        found.join("\n")
    );
}

/// The code lines of the files under `dir` (relative to the root) whose
/// names end with `.rs`, tests aside, as (path, line number, line).
fn rust_code_under(dir: &str) -> Vec<(String, usize, String)> {
    sources()
        .into_iter()
        .filter(|(p, _)| p.starts_with(dir) && p.ends_with(".rs"))
        .flat_map(|(p, text)| {
            code_lines(&text)
                .map(|(n, l)| (p.clone(), n + 1, l.to_string()))
                .collect::<Vec<_>>()
        })
        .collect()
}

#[test]
fn the_library_knows_nothing_of_paths_terminals_or_processes() {
    // ARCHITECTURE.md: `idx` never prints and knows nothing of paths,
    // terminals or processes; the one file type it names is the positioned
    // source `ReadAt` is implemented for
    let needles = [
        "println!",
        "eprintln!",
        "print!(",
        "eprint!(",
        "dbg!(",
        "std::process",
        "std::env",
        "io::stdout",
        "io::stderr",
        "io::stdin",
        "Path",
        "std::fs::",
        "fs::read",
        "fs::write",
        "process::",
        "env::",
        "stdout(",
        "stderr(",
        "stdin(",
        "IsTerminal",
        "use std::{",
        "File::open",
        "File::create",
    ];
    let allowed = |p: &str, l: &str| p == "crates/idx/src/read/at.rs" && l.contains("fs::File");
    let found: Vec<String> = rust_code_under("crates/idx/src/")
        .into_iter()
        .filter(|(p, _, l)| needles.iter().any(|x| l.contains(x)) && !allowed(p, l))
        .map(|(p, n, l)| format!("{p}:{n}: {}", l.trim()))
        .collect();
    assert!(
        found.is_empty(),
        "the library prints or knows of paths:\n{}",
        found.join("\n")
    );
}

#[test]
fn unsafe_code_is_the_lmdb_opener_and_the_c_abi_alone() {
    // ARCHITECTURE.md: the workspace's only `unsafe` is idx-convert's
    // `open_env` and idx-capi's C functions (`src/ffi.rs`, and the fuzz
    // body that calls them), each block with its safety argument
    // above it and each `unsafe fn` with its `# Safety` contract
    let mut found = Vec::new();
    let mut lmdb = 0;
    let mut capi = 0;
    for (path, text) in sources() {
        if !path.ends_with(".rs") {
            continue;
        }
        let lines: Vec<&str> = text.lines().collect();
        for (n, line) in code_lines(&text) {
            let blocks = [
                "unsafe {",
                "unsafe{",
                "#[unsafe(",
                "unsafe fn",
                "unsafe impl",
                "unsafe extern",
                "unsafe trait",
            ];
            if !blocks.iter().any(|x| line.contains(x)) {
                continue;
            }
            let argued = lines[..n]
                .iter()
                .rev()
                .take_while(|l| l.trim_start().starts_with("//"))
                .any(|l| l.contains("SAFETY:"));
            let opener = lines[..n].iter().rev().find(|l| l.contains("fn "));
            // an `unsafe fn`'s contract is the `# Safety` section of its
            // doc comment, above its attributes
            let contracted = lines[..n]
                .iter()
                .rev()
                .skip_while(|l| l.trim_start().starts_with("#["))
                .take_while(|l| l.trim_start().starts_with("///"))
                .any(|l| l.contains("# Safety"));
            let is_fn = line.contains("unsafe fn") || line.contains("unsafe extern");
            let capi_file = [
                "crates/idx-capi/src/ffi.rs",
                "crates/idx-capi/src/fuzzing.rs",
            ]
            .iter()
            .any(|p| path.starts_with(p));
            if path == "crates/idx-convert/src/lmdb.rs"
                && argued
                && opener.is_some_and(|l| l.contains("fn open_env("))
            {
                lmdb += 1;
            } else if capi_file && (if is_fn { contracted } else { argued }) {
                capi += 1;
            } else {
                found.push(format!("{path}:{}: {}", n + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "unsafe code outside the LMDB opener and the C ABI, or without its SAFETY argument:\n{}",
        found.join("\n")
    );
    assert_eq!(lmdb, 2, "the LMDB opener's unsafe blocks");
    assert!(capi > 0, "the C ABI's unsafe code was not seen");
}

#[test]
fn the_binaries_main_is_one_line() {
    // ARCHITECTURE.md: `idx_validate::run` and `idx_cli::run` are the entry
    // points; the binaries only hand them the arguments
    let root = test_support::root();
    for (krate, call) in [
        ("idx-cli", "idx_cli::run("),
        ("idx-validate", "idx_validate::run("),
    ] {
        let text =
            std::fs::read_to_string(root.join("crates").join(krate).join("src/main.rs")).unwrap(); // ok: test
        let body: Vec<&str> = code_lines(&text)
            .map(|(_, l)| l.trim())
            .filter(|l| !l.is_empty() && !l.starts_with("fn main(") && *l != "}")
            .collect();
        assert!(
            body.len() == 1 && body[0].starts_with(call),
            "{krate}'s main: {body:?}"
        );
    }
}

#[test]
fn each_package_has_one_integration_test_crate() {
    // ARCHITECTURE.md: `tests/it/` is the one integration test crate of
    // each package; read_alloc.rs (its own global allocator) is the exception
    let root = test_support::root();
    let mut extra = Vec::new();
    let mut crates = 0;
    for e in std::fs::read_dir(root.join("crates")).unwrap().flatten() {
        // ok: test
        let tests = e.path().join("tests");
        let Ok(rd) = std::fs::read_dir(&tests) else {
            continue;
        };
        crates += 1;
        for f in rd.flatten() {
            let name = f.file_name().to_string_lossy().to_string();
            let rel = format!("{}/tests/{name}", e.file_name().to_string_lossy());
            if name.ends_with(".rs") && rel != "idx/tests/read_alloc.rs" {
                extra.push(rel);
            }
        }
        if tests.join("it").is_dir() {
            assert!(tests.join("it/main.rs").is_file(), "{}", tests.display());
        }
    }
    assert!(crates >= 5, "{crates} packages with tests");
    assert!(
        extra.is_empty(),
        "integration tests outside tests/it/: {extra:?}"
    );
}

#[test]
fn idx_text_has_no_dependencies() {
    // ARCHITECTURE.md: so every crate can use it
    let root = test_support::root();
    let toml = std::fs::read_to_string(root.join("crates/idx-text/Cargo.toml")).unwrap(); // ok: test
    let deps: Vec<&str> = toml
        .split("[dependencies]")
        .nth(1)
        .unwrap_or("")
        .lines()
        .take_while(|l| !l.starts_with('['))
        .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .collect();
    assert!(deps.is_empty(), "idx-text depends on {deps:?}");
    assert!(!toml.contains("[dependencies."), "{toml}");
    assert!(
        !toml.contains("[build-dependencies]") && !toml.contains("[target."),
        "{toml}"
    );
}

#[test]
fn every_property_test_runs_from_a_fixed_printed_seed() {
    // ARCHITECTURE.md: Rust properties run through
    // `test_support::quickcheck` (which prints its seed); Python's hypothesis
    // tests take the derandomized profile of conftest.py
    let root = test_support::root();
    let mut paths = Vec::new();
    files(&root.join("crates"), &[".rs"], &[], &mut paths);
    files(&root.join("python/tests"), &[".py"], &[], &mut paths);
    let mut found = Vec::new();
    let mut seeded = 0;
    for p in paths {
        let rel = p
            .strip_prefix(&root)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/"); // ok: test
        let text = std::fs::read_to_string(&p).unwrap_or_default();
        for (n, line) in code_lines(&text) {
            seeded += usize::from(line.contains("test_support::quickcheck("));
            let rust = [
                "QuickCheck::new",
                "quickcheck!",
                "#[quickcheck]",
                "proptest!",
                "rand::thread_rng",
                "from_entropy",
            ];
            let python = ["derandomize=False", "@seed(", "random.seed("];
            if rel.starts_with("crates/test-support/")
                || rel == "python/tests/conftest.py"
                || rel == "crates/idx/tests/it/structure.rs"
            {
                continue;
            }
            if rust.iter().chain(&python).any(|x| line.contains(x)) {
                found.push(format!("{rel}:{}: {}", n + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "a property test not on the fixed, printed seed:\n{}",
        found.join("\n")
    );
    assert!(
        seeded >= 5,
        "{seeded} properties through test_support::quickcheck"
    );
}

#[test]
fn ci_fuzzing_is_reproducible() {
    // docs/contributing/fuzzing.md: by default fuzz/run.sh fixes libFuzzer's
    // seed and each target's number of inputs, starts from the seeds alone,
    // and turns off what made two runs at one seed diverge (the timed
    // corpus reload, address randomisation); exploring is asked for
    let text = std::fs::read_to_string(test_support::root().join("fuzz/run.sh")).unwrap();
    for needle in [
        "seed=\"${FUZZ_SEED:-1}\"",
        "-seed=\"$t_seed\" -runs=\"$runs\" -reload=0",
        "setarch \"$(uname -m)\" -R",
        "${pin[@]+\"${pin[@]}\"} cargo +nightly fuzz run",
        "dir=\"target/seeded-corpus/$t\"",
    ] {
        assert!(text.contains(needle), "fuzz/run.sh lost `{needle}`");
    }
    let ci = std::fs::read_to_string(test_support::root().join(".ci/run")).unwrap();
    assert!(
        ci.contains("fuzz/run.sh") && !ci.contains("FUZZ_SEED"),
        ".ci/run fuzzes with fuzz/run.sh's fixed default seed"
    );
}

#[test]
fn no_crate_but_idx_sniffs_gzip() {
    // the one sniff is the validator's (and the reader's, inside idx): a
    // front end asks `Validator::compression` or `Reader::compression`,
    // never a function of its own (`isGzip` was the page's)
    let needles = ["is_gzip(", "isGzip(", "is_gzip ="];
    let mut found = Vec::new();
    for (path, text) in sources() {
        if path.starts_with("crates/idx/") {
            continue;
        }
        for (n, line) in code_lines(&text) {
            if needles.iter().any(|x| line.contains(x)) {
                found.push(format!("{path}:{}: {}", n + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "a gzip sniff outside idx:\n{}",
        found.join("\n")
    );
}

/// The lines of a Python file outside its docstrings (prose and doctests
/// name dtypes as a user would) and comments.
fn python_code_lines(text: &str) -> Vec<(usize, &str)> {
    let mut inside = false;
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let quotes = line.matches("\"\"\"").count();
        if !inside && quotes == 0 && !line.trim_start().starts_with('#') {
            out.push((n, line));
        }
        inside ^= quotes % 2 == 1;
    }
    out
}

#[test]
fn the_numpy_type_table_is_idx_alone() {
    // `ElementType::numpy_dtype` is the one table from IDX element types to
    // numpy's type strings: idxkit builds its dtypes from the native
    // module's `NUMPY_DTYPES`, the .npy writer and the byte-order hint ask
    // the library; no second table (a `"i2"`, `">f4"`, `'<i4'` literal)
    // appears anywhere else. The conformance crate's adapters and cases
    // stand alone by design (they describe what other tools write).
    let mut needles = Vec::new();
    for t in ["u1", "i1", "i2", "i4", "f4", "f8"] {
        for order in ["", "<", ">", "|", "="] {
            for q in ['"', '\''] {
                needles.push(format!("{q}{order}{t}{q}"));
            }
        }
    }
    let mut found = Vec::new();
    for (path, text) in sources() {
        if path == "crates/idx/src/dtype.rs" || path.starts_with("crates/idx-conformance/") {
            continue;
        }
        let lines: Vec<(usize, &str)> = if path.ends_with(".py") {
            python_code_lines(&text)
        } else {
            // inline unit tests aside: they pin what a table gives
            let code = text.split("#[cfg(test)]").next().unwrap_or_default();
            code_lines(code).collect()
        };
        for (n, line) in lines {
            if needles.iter().any(|x| line.contains(x.as_str()))
                || line.contains("numpy::dtype::<i")
                || line.contains("numpy::dtype::<f")
            {
                found.push(format!("{path}:{}: {}", n + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "an IDX-to-numpy type table outside ElementType::numpy_dtype:\n{}",
        found.join("\n")
    );
}

#[test]
fn inside_idx_the_validator_alone_sniffs_gzip() {
    // one sniff inside the library too: `Validator::sniff` is the one caller
    // of the magic test; the reader's opener and the repair planner ask the
    // validator (the planner reads the container off its report)
    let mut found = Vec::new();
    for (path, text) in sources() {
        if !path.starts_with("crates/idx/src/") {
            continue;
        }
        for (n, line) in code_lines(&text) {
            let defined = path == "crates/idx/src/gzip.rs" && line.contains("fn is_gzip(");
            if line.contains("is_gzip(")
                && !defined
                && path != "crates/idx/src/validate/validator.rs"
            {
                found.push(format!("{path}:{}: {}", n + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "a gzip sniff in idx outside the validator:\n{}",
        found.join("\n")
    );
    let validator =
        std::fs::read_to_string(test_support::root().join("crates/idx/src/validate/validator.rs"))
            .unwrap();
    assert_eq!(
        code_lines(&validator)
            .filter(|(_, l)| l.contains("is_gzip("))
            .count(),
        1,
        "the validator's sniff is one call"
    );
}

#[test]
fn inside_idx_the_gzip_engine_alone_applies_the_limit_and_decodes() {
    // one engine: `gzip::Stage` is the one caller of zlib's decoder, and the
    // limit's arithmetic is a private function of its module (`gzip::cut`),
    // so the compiler keeps it there; the validator pushes into the stage,
    // every reader pulls through it (`gzip::Members`)
    let mut found = Vec::new();
    for (path, text) in sources() {
        if !path.starts_with("crates/idx/src/") {
            continue;
        }
        for (n, line) in code_lines(&text) {
            let zlib = line.contains("Decompress::new");
            let cut = line.contains("fn cut(") && line.contains("Limits");
            if (zlib || cut) && path != "crates/idx/src/gzip.rs" {
                found.push(format!("{path}:{}: {}", n + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "the limit or gzip decoding outside the one engine:\n{}",
        found.join("\n")
    );
    let gzip =
        std::fs::read_to_string(test_support::root().join("crates/idx/src/gzip.rs")).unwrap();
    let lines = |needle: &str| -> Vec<String> {
        code_lines(&gzip)
            .filter(|(_, l)| l.contains(needle))
            .map(|(_, l)| l.trim().to_string())
            .collect()
    };
    assert_eq!(lines("Decompress::new").len(), 1, "one decoder");
    assert_eq!(
        lines("fn cut("),
        ["fn cut(limits: Limits, done: u64, n: usize) -> (usize, Option<u64>) {"],
        "one limit, private to the engine"
    );
    assert_eq!(lines("cut(self.limits").len(), 1, "applied in one place");
}
