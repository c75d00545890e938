#!/usr/bin/env python3
"""Fail if a public item of the idx crate has no tested example in its docs.

Reads the documentation `cargo doc -p idx --no-deps` built: the public items
are the ones `target/doc/idx/all.html` lists (what a user of the crate sees:
the re-exported items of private modules included, `#[doc(hidden)]` ones
left out), and an item has an example when the documentation at the top of
its page holds a Rust code block that `cargo test --doc` runs (a block marked
`ignore` or `compile_fail` does not count; rustdoc's HTML does not tell
`no_run` apart, so the crate avoids it). Methods are counted and reported,
not required.

Why not rustdoc's own measure: `--show-coverage` and the
`missing_doc_code_examples` lint (nightly) only look at items whose
definition is public where it stands, so the items `lib.rs` re-exports from
private modules, most of the API, are not counted at all.

The public API is also kept small enough to hold in mind: more than
MAX_ITEMS items fails, so a new public item means hiding or merging another.

Usage: scripts/check-doc-examples.py [DOC_DIR]
(default target/doc/idx).
"""

import re
import sys
from pathlib import Path


MAX_ITEMS = 65
ITEM = re.compile(r'<li><a href="([^"]+)">([^<]+)</a></li>')
TOP_DOC = re.compile(r'<details class="toggle top-doc" open>(.*?)</details>', re.S)
METHOD = re.compile(
    r'<section id="method\.([\w]+)" class="method">.*?</section></summary>'
    r'<div class="docblock">(.*?)</div></details>',
    re.S,
)
EXAMPLE = re.compile(r'<div class="example-wrap( [\w ]+)?">(?:<a [^>]*>[^<]*</a>)?<pre class="rust rust-example-rendered')


def tested_example(html):
    """True when `html` holds a Rust example that doctests run."""
    return any(
        not m.group(1) or not ({"ignore", "compile_fail"} & set(m.group(1).split()))
        for m in EXAMPLE.finditer(html)
    )


def main():
    doc = Path(sys.argv[1] if len(sys.argv) > 1 else "target/doc/idx")
    listed = ITEM.findall((doc / "all.html").read_text())
    if not listed:
        print(f"no items in {doc / 'all.html'}: run cargo doc -p idx --no-deps first")
        return 1
    missing, methods, methods_with = [], 0, 0
    for href, name in listed:
        page = (doc / href).read_text()
        top = TOP_DOC.search(page)
        has = bool(top) and tested_example(top.group(1))
        if not has:
            missing.append(f"  {name} ({href})")
        if not href.split("/")[-1].startswith("fn."):
            for _, block in METHOD.findall(page):
                methods += 1
                methods_with += tested_example(block)
    total = len(listed)
    print(
        f"{total - len(missing)} of {total} public items of idx have a tested example;"
        f" {methods_with} of {methods} documented methods"
    )
    failed = False
    if total > MAX_ITEMS:
        print(f"idx has {total} public items, more than {MAX_ITEMS}: hide or merge some")
        failed = True
    if missing:
        print(f"{len(missing)} public item(s) with no tested example at the top of its docs:")
        print("\n".join(missing))
        failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
