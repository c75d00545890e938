#!/usr/bin/env python3
"""Fail if ARCHITECTURE.md names a file, test, module or item that is not there.

ARCHITECTURE.md backs each invariant with the test or command that checks
it, in backticks. This script resolves every backticked name, so a renamed
test or a deleted module makes the document fail CI instead of silently
pointing nowhere:

- a path (`tests/it/reader.rs`, `scripts/check-layers.py`, `web/test/page.mjs`)
  must exist; a path that starts with `tests/` or `src/` is the crate's
  whose section or bullet the sentence is in (`crates/idx` outside them);
  others are from the root, `crates/`, a crate's `src/` or `python/`; build
  outputs (`target/...`) are not checked;
- `path::name` and a following `::name` need a function, test, module or type
  of that name in that file;
- a module path (`lint::byteorder::contract`, `escape::tests`,
  `idx_validate::check::check_reader`) needs the module's file in some crate
  and the last name defined there (`tests` meaning `mod tests`);
- `Type::method` needs the method inside an `impl` block of the type;
- a lone name (`Reader`, `plan`, `ReadOptions`, `escape`) needs a
  definition (`fn`, `struct`, `mod`, `def`...) or a module file in the
  workspace or the Python package, or to be a crate or package name;
- a name followed by "in `.ci/run`" must appear in a command of
  `.ci/run` (not a comment or an `echo`);
- the crate table (the first ```text block: one line per crate, its name
  then the workspace crates its `Cargo.toml` `[dependencies]` name, `-` for
  none) lists every crate of the workspace with exactly those
  dependencies, so the picture is the crates' graph;
- the document is at most 160 lines.

Anything else in backticks (flags, values, prose) is counted, not checked.
Usage: scripts/check-architecture.py [ARCHITECTURE.md]
"""

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SPAN = re.compile(r"`([^`\n]+)`")
IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
EXTS = (".rs", ".py", ".mjs", ".js", ".sh", ".md", ".toml", ".ksy")
MAX_LINES = 160


def crate_dirs():
    return sorted(p for p in (ROOT / "crates").iterdir() if (p / "Cargo.toml").is_file())


def find_path(rel, crate="idx"):
    """The existing file or folder `rel` names, or None; `tests/...` and
    `src/...` are `crate`'s."""
    rel = rel.rstrip("/")
    if rel.startswith(("tests/", "src/")):
        p = ROOT / "crates" / crate / rel
        return p if p.exists() else None
    bases = [ROOT, ROOT / "python", ROOT / "python" / "tests", ROOT / "crates"]
    bases += crate_dirs() + [c / "src" for c in crate_dirs()] + [ROOT / "python" / "idxkit"]
    for base in bases:
        if (base / rel).exists():
            return base / rel
    return None


def defines(text, name):
    """True when `text` defines `name` (Rust or Python) or names it as a module."""
    pat = (
        rf"(?m)^\s*(pub(\([^)]*\))?\s+)?(async\s+)?(unsafe\s+)?"
        rf"(fn|struct|enum|trait|type|mod|const|static|def|class)\s+{re.escape(name)}\b"
        rf"|^\s*(export\s+)?(async\s+)?(function|const|class)\s+{re.escape(name)}\b"
        rf"|name\s*=\s*\"{re.escape(name)}\""
    )
    return re.search(pat, text) is not None


def rust_files(crate):
    return [p for p in crate.rglob("*.rs") if "target" not in p.parts]


def module_file(crate, segments):
    """The file of module `segments` in `crate` (src/ or tests/it/), or None."""
    for base in (crate / "src", crate / "tests" / "it", crate / "tests"):
        rel = Path(*segments)
        for cand in (base / (str(rel) + ".rs"), base / rel / "mod.rs"):
            if cand.is_file():
                return cand
    return None


def impl_blocks(text, ty):
    """The bodies of the `impl ... ty ... {` blocks of `text` (inherent or
    of a trait for `ty`), braces matched."""
    out = []
    head = re.compile(rf"(?m)^\s*impl\b[^{{;]*?\b{re.escape(ty)}\b[^{{;]*\{{")
    for m in head.finditer(text):
        depth, i = 1, m.end()
        while i < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        out.append(text[m.end():i])
    return out


def check_module_path(segments):
    """None when `a::b::c` resolves, else why not."""
    crates = crate_dirs()
    if segments[0].replace("_", "-") in {c.name for c in crates}:
        crates = [ROOT / "crates" / segments[0].replace("_", "-")]
        segments = segments[1:]
    if len(segments) == 1:
        name = segments[0]
        if any(defines(p.read_text(errors="replace"), name) for c in crates for p in rust_files(c)):
            return None
        return f"nothing defines {name}"
    if segments[0][:1].isupper():  # Type::method
        ty, method = segments[0], segments[-1]
        for c in crates:
            for p in rust_files(c):
                if any(re.search(rf"\bfn\s+{re.escape(method)}\b", b) for b in impl_blocks(p.read_text(errors="replace"), ty)):
                    return None
        return f"no impl block of {ty} has a method {method}"
    for c in crates:
        # the last name is an item of the module before it, or a module itself
        f = module_file(c, segments[:-1])
        if f and defines(f.read_text(errors="replace"), segments[-1]):
            return None
        if module_file(c, segments):
            return None
    return "no crate has this module and item"


# names of other people's APIs the document mentions: the browser's `File`,
# Python's `OSError` and `open`, the `ignore` crate, Rust's `unsafe`
EXTERNAL = {"File", "OSError", "open", "ignore", "unsafe"}


def check_lone(name):
    if name in EXTERNAL:
        return None
    if name.replace("_", "-") in {c.name for c in crate_dirs()} or name == "idxkit":
        return None
    files = [p for c in crate_dirs() for p in rust_files(c)]
    files += list((ROOT / "python").rglob("*.py"))
    if any(p.stem == name or (p.name == "mod.rs" and p.parent.name == name) for p in files):
        return None  # a module
    if any(defines(p.read_text(errors="replace"), name) for p in files):
        return None
    return f"nothing defines {name}"


def ci_commands():
    """The lines of `.ci/run` that run something (no comments, no echo)."""
    lines = (ROOT / ".ci" / "run").read_text().splitlines()
    return "\n".join(
        l for l in lines if not l.lstrip().startswith(("#", "echo "))
    )


def context(line, crate):
    """The crate a line of the document speaks of: a `## \`crates/X\``
    heading or a `- **\`X\`**` bullet starts one; other headings go back
    to `idx`."""
    m = re.match(r"## `crates/([\w-]+)`", line) or re.match(r"- \*\*`([\w-]+)`\*\*", line)
    if m and (ROOT / "crates" / m.group(1)).is_dir():
        return m.group(1)
    if line.startswith("#"):
        return "idx"
    return crate


def cargo_dependencies():
    """{crate: set of the workspace crates its [dependencies] name}."""
    import tomllib

    crates = {}
    for d in crate_dirs():
        manifest = tomllib.loads((d / "Cargo.toml").read_text())
        crates[manifest["package"]["name"]] = set(manifest.get("dependencies", {}))
    names = set(crates)
    return {c: deps & names for c, deps in crates.items()}


def check_crate_table(text, name):
    """Problems of the crate table (the first text block) against the
    Cargo.toml files."""
    m = re.search(r"```text\n(.*?)```", text, re.S)
    if not m:
        return [f"{name}: no crate table (a ```text block)"]
    actual = cargo_dependencies()
    listed, problems = {}, []
    for line in m.group(1).splitlines()[1:]:
        words = line.split()
        if not words:
            continue
        crate, deps = words[0], set()
        for w in words[1:]:
            if w == "-":
                break
            if w not in actual:
                break
            deps.add(w)
        listed[crate] = deps
    for crate in sorted(set(actual) | set(listed)):
        if crate not in actual:
            problems.append(f"{name}: the crate table lists {crate}, which is not a workspace crate")
        elif crate not in listed:
            problems.append(f"{name}: the crate table lacks {crate}")
        elif listed[crate] != actual[crate]:
            extra = sorted(listed[crate] - actual[crate])
            missing = sorted(actual[crate] - listed[crate])
            problems.append(
                f"{name}: the crate table says {crate} uses {sorted(listed[crate])}; "
                f"its Cargo.toml: {sorted(actual[crate])} (not: {extra}, also: {missing})"
            )
    return problems


def main():
    doc = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "ARCHITECTURE.md"
    text = doc.read_text()
    problems, checked, skipped = check_crate_table(text, doc.name), 0, 0
    lines = text.count("\n")
    if lines > MAX_LINES:
        problems.append(f"{doc.name} has {lines} lines (at most {MAX_LINES})")
    ci = ci_commands()
    last_file = None
    in_fence = False
    crate = "idx"
    for n, line in enumerate(text.splitlines(), 1):
        if line.startswith("```"):
            in_fence = not in_fence
            continue
        if in_fence:
            continue
        crate = context(line, crate)
        for m in SPAN.finditer(line):
            span = m.group(1).strip()
            why = "skip"
            after = line[m.end():m.end() + 16]
            if after.startswith(" in `.ci/run`"):
                why = None if span in ci else "not in .ci/run"
            elif re.fullmatch(r"[\w./\-\[\]]+(::" + IDENT + r")?", span) and (
                "/" in span or span.split("::")[0].endswith(EXTS)
            ):
                path, _, name = span.partition("::")
                if "[" in path or path.startswith("target/"):
                    why = "skip"
                else:
                    found = find_path(path, crate)
                    if not found:
                        why = f"no file {path}"
                    else:
                        last_file = found if found.is_file() else None
                        why = None
                        if name and not (found.is_file() and defines(found.read_text(), name)):
                            why = f"{path} has no {name}"
            elif re.fullmatch(r"::" + IDENT, span):
                name = span[2:]
                if last_file is None:
                    why = "::name with no file before it"
                else:
                    why = None if defines(last_file.read_text(), name) else f"{last_file.name} has no {name}"
            elif re.fullmatch(IDENT + r"(::" + IDENT + r")+", span):
                why = check_module_path(span.split("::"))
            elif re.fullmatch(IDENT, span):
                why = check_lone(span)
            if why == "skip":
                skipped += 1
            elif why is None:
                checked += 1
            else:
                problems.append(f"{doc.name}:{n}: `{span}`: {why}")
    print(f"{checked} names in {doc.name} resolve ({skipped} other spans not checked)")
    for p in problems:
        print(p)
    return 1 if problems or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
