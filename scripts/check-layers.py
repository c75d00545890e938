#!/usr/bin/env python3
"""Fail if two modules of crates/idx need each other, directly or round a loop.

Reads every `crate::...` and `super::...` path in crates/idx/src/**/*.rs,
comments and string literals left out, and builds the graph of the crate's
modules and submodules (`fix::plan`, `fix::repair`: a folder's files are
nodes of their own, its `mod.rs` the folder's node). A name re-exported by
lib.rs (`crate::Report`) counts as the module it comes from. lib.rs itself
is not a node: it only declares the modules and re-exports their items.
Fails on a cycle, and on an edge against the layer table (LAYERS, the
layers of ARCHITECTURE.md: a module uses its own layer or lower ones).

Prints the edges with one place each comes from, then every cycle found, and
exits 1 if there is one. Usage: scripts/check-layers.py [--cycles-only] [SRC_DIR]

`--cycles-only` checks cycles alone, for the other crates (the layer table
is the idx crate's): `.ci/run` runs it on every crate's src/ but idx's.
"""

import os
import re
import sys
from pathlib import Path

TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|::|[{}();,*]|\S")


def code_tokens(text):
    """(token, line) pairs of Rust source, comments and literals removed."""
    out, i, line, n = [], 0, 1, len(text)
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
        elif c.isspace():
            i += 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if text.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif text.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    line += text[i] == "\n"
                    i += 1
        elif c == "r" and re.match(r'r#*"', text[i:]) and not re.match(r"\w", text[i - 1 : i] or " "):
            hashes = re.match(r"r(#*)\"", text[i:]).group(1)
            end = text.find('"' + hashes, i + 2 + len(hashes))
            end = n if end < 0 else end + 1 + len(hashes)
            line += text.count("\n", i, end)
            i = end
        elif c == '"':
            i += 1
            while i < n and text[i] != '"':
                line += text[i] == "\n"
                i += 2 if text[i] == "\\" else 1
            i += 1
        elif c == "'":
            m = re.match(r"'(?:[^'\\]|\\[^']*)'", text[i:])
            i += m.end() if m else 1  # a char literal, or a lifetime's quote
        else:
            m = TOKEN.match(text, i)
            out.append((m.group(), line))
            i = m.end()
    return out


def group_heads(toks, k):
    """First names of the items of a `{ ... }` use group opening at toks[k]."""
    heads, depth, start = [], 0, True
    for tok, line in toks[k:]:
        if tok == "{":
            depth += 1
            if depth == 1:
                continue
        elif tok == "}":
            depth -= 1
            if depth == 0:
                break
        elif tok == "," and depth == 1:
            start = True
            continue
        if depth == 1 and start and re.match(r"\w+$", tok):
            heads.append((tok, line))
        start = False
    return heads


def references(toks, mod_path):
    """(first name after the crate root, line) for each path reaching it."""
    refs, stack, pending = [], [], None
    for k, (tok, line) in enumerate(toks):
        if tok == "mod" and k + 2 < len(toks) and toks[k + 2][0] == "{":
            pending = toks[k + 1][0]
        if tok == "{":
            stack.append(pending)
            pending = None
        elif tok == "}":
            if stack:
                stack.pop()
        if k and toks[k - 1][0] == "::":
            continue  # only paths that start here
        if tok == "crate":
            up = None
        elif tok == "super":
            here = mod_path + [m for m in stack if m]
            ups, j = 0, k
            while j + 1 < len(toks) and toks[j][0] == "super" and toks[j + 1][0] == "::":
                ups, j = ups + 1, j + 2
            up = len(here) - ups
            if up < 0:
                continue
            k = j - 2  # so that toks[k+1] is the `::` before the name
        else:
            continue
        if k + 2 >= len(toks) or toks[k + 1][0] != "::":
            continue
        base = [] if up is None else (mod_path + [m for m in stack if m])[:up] if tok == "super" else []
        # the path's names: `a::b::c` or `a::b::{c, d}` (each head a path)
        j, names = k + 2, []
        while j < len(toks) and re.match(r"\w+$", toks[j][0]):
            names.append(toks[j][0])
            if j + 1 < len(toks) and toks[j + 1][0] == "::":
                j += 2
            else:
                break
        if j < len(toks) and toks[j][0] == "{":
            for head, hline in group_heads(toks, j):
                refs.append((base + names + [head], hline))
        elif names:
            refs.append((base + names, line))
    return refs


def reexports(lib_text):
    """name -> module, for lib.rs's `pub use module::...;` lines."""
    names = {}
    toks = [t for t, _ in code_tokens(lib_text)]
    for k, tok in enumerate(toks):
        if tok == "use" and k + 2 < len(toks) and toks[k + 2] == "::":
            end = toks.index(";", k)
            for name in toks[k + 3 : end]:  # `a::{B, C}`, `a::b as c`: all from a
                if re.match(r"\w+$", name) and name not in ("as", "self"):
                    names.setdefault(name, toks[k + 1])
    return names


def module_of(p, src):
    parts = list(p.relative_to(src).parts)
    parts[-1] = parts[-1].removesuffix(".rs")
    if parts[-1] == "mod":
        parts.pop()
    return parts


def graph(src):
    """Nodes are modules and submodules (`fix::plan`): a folder module's
    `mod.rs` is the folder's node, each other file its own."""
    files = sorted(p for p in src.rglob("*.rs") if p.name != "lib.rs" or p.parent != src)
    nodes = {"::".join(module_of(p, src)) for p in files}
    names = reexports((src / "lib.rs").read_text())
    edges = {}
    for p in files:
        rel = p.relative_to(src)
        parts = module_of(p, src)
        node = "::".join(parts)
        for path, line in references(code_tokens(p.read_text()), parts):
            if path and path[0] not in {n.split("::")[0] for n in nodes}:
                m = names.get(path[0])
                if not m:
                    continue
                path = [m] + path[1:]
            # the deepest module the path names
            target = None
            for i in range(len(path), 0, -1):
                cand = "::".join(path[:i])
                if cand in nodes:
                    target = cand
                    break
            if target and target != node and not node.startswith(target + "::") and not target.startswith(node + "::"):
                edges.setdefault(node, {}).setdefault(target, f"{rel}:{line}")
    return nodes, edges


# The layers of ARCHITECTURE.md: a module may use modules of its own layer
# or below, never above (a submodule belongs to its top module's layer).
LAYERS = {
    "rules": 0, "limits": 0, "dtype": 0, "header": 0, "array": 0, "score": 0, "label_scan": 0, "carry": 0, "edit": 0, "finding": 0,
    "buffer": 1, "text": 1,
    "violations": 2, "sniff": 2, "lint": 2, "suggest": 2,
    "gzip": 3, "input": 3, "validate": 3, "fix": 3, "parse": 3, "read": 3, "reader": 3, "write": 3,
    "dataset": 4, "fuzzing": 5,
}


def layer_violations(nodes, edges):
    out = []
    for a, targets in sorted(edges.items()):
        for b, where in sorted(targets.items()):
            la, lb = LAYERS.get(a.split("::")[0]), LAYERS.get(b.split("::")[0])
            if la is None or lb is None:
                out.append(f"  {a} -> {b} ({where}): a module missing from the layer table")
            elif lb > la:
                out.append(f"  {a} (layer {la}) -> {b} (layer {lb}) ({where}): a lower layer uses a higher one")
    return out


def cycles(modules, edges, limit=200):
    """Every elementary cycle, each listed once from its smallest node."""
    found = []

    def walk(start, path, seen):
        for nxt in sorted(edges.get(path[-1], {})):
            if nxt == start:
                found.append(path + [start])
            elif nxt > start and nxt not in seen and len(found) < limit:
                walk(start, path + [nxt], seen | {nxt})

    for m in sorted(modules):
        walk(m, [m], {m})
    return sorted(found, key=lambda c: (len(c), c))


def main():
    args = sys.argv[1:]
    cycles_only = "--cycles-only" in args
    args = [a for a in args if a != "--cycles-only"]
    src = Path(args[0] if args else Path(__file__).parent.parent / "crates/idx/src")
    modules, edges = graph(src)
    src = os.path.relpath(src)
    found = cycles(modules, edges)
    for node in sorted(modules):
        needs = sorted(edges.get(node, {}))
        print(f"{node:>18} -> {', '.join(needs) if needs else '(nothing)'}")
    bad = [] if cycles_only else layer_violations(modules, edges)
    if bad:
        print(f"\n{len(bad)} edge(s) against the layer table:")
        print("\n".join(bad))
    if found:
        print(f"\n{len(found)} import cycle(s) between the modules of {src}:")
        for c in found:
            steps = ", ".join(f"{a} -> {b} ({edges[a][b]})" for a, b in zip(c, c[1:]))
            print(f"  {' -> '.join(c)}: {steps}")
    if found or bad:
        return 1
    what = "no import cycle" if cycles_only else "no import cycle and no edge against the layers"
    print(f"{what} between the {len(modules)} modules and submodules of {src}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
