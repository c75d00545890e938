"""MkDocs hooks: the site is `docs/` plus files kept elsewhere in the
repository, mounted as they are (never copied into `docs/`), and every
relative link resolved the way it resolves in the repository.

- MOUNTS: repository files and folders that become site pages or assets at
  the same path (`spec/idx.md` is the site's `spec/idx.md`).
- Links. Every page, in `docs/` or mounted, is written with links relative
  to its own place in the repository, so it reads right on the forge too.
  A link to a file in `docs/` or a mounted file becomes the relative link
  between the two site pages; a link to any other file of the repository
  (source code, a folder) becomes an absolute link to it on the forge
  (`repo_url`); a link to a path that exists nowhere stops the build.
"""

from __future__ import annotations

import posixpath
import re
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File

ROOT = Path(__file__).resolve().parents[2]

# repository path -> site path; a folder mounts its files by `pattern`
MOUNTS = {
    "ARCHITECTURE.md": "ARCHITECTURE.md",
    "BENCHMARKS.md": "BENCHMARKS.md",
    "spec/idx.md": "spec/idx.md",
    "spec/README.md": "spec/README.md",
    "spec/kaitai.md": "spec/kaitai.md",
    "spec/idx.ksy": "spec/idx.ksy",
    "corpus/README.md": "corpus/README.md",
    "corpus/MATRIX.md": "corpus/MATRIX.md",
    "corpus/DIFFERENTIAL.md": "corpus/DIFFERENTIAL.md",
    "corpus/matrix.html": "corpus/matrix.html",
    "corpus/matrix.png": "corpus/matrix.png",
    "crates/idx-validate/schema/idx-validate.schema.json": "schema/idx-validate.schema.json",
}
MOUNTED_DIRS = {"corpus/reports": ("corpus/reports", "*.md")}

_TARGET = r"(<[^>]+>|[^)\s]+)((?:\s+\"[^\"]*\")?\))"
# an image, then a link whose text may hold an image (a linked picture)
IMAGE = re.compile(r"(!\[[^\]]*\]\()" + _TARGET)
LINK = re.compile(r"((?<!!)\[(?:[^\]\[]|!\[[^\]]*\]\([^)]*\)|\[[^\]]*\])*\]\()" + _TARGET)
FENCE = re.compile(r"^([ \t]*(?:```|~~~))", re.M)


def _mounts():
    out = dict(MOUNTS)
    for src, (dest, pattern) in MOUNTED_DIRS.items():
        for p in sorted((ROOT / src).glob(pattern)):
            out[f"{src}/{p.name}"] = f"{dest}/{p.name}"
    return out


def on_files(files, config):
    for src, dest in _mounts().items():
        if not (ROOT / src).is_file():
            raise PluginError(f"mounted file {src} does not exist")
        files.append(File.generated(config, dest, abs_src_path=str(ROOT / src)))
    return files


def _repo_path(page) -> str:
    """The page's file, relative to the repository root."""
    return Path(page.file.abs_src_path).resolve().relative_to(ROOT).as_posix()


def _site_path(repo_path: str, docs_dir: str) -> str | None:
    mounts = _mounts()
    if repo_path in mounts:
        return mounts[repo_path]
    if repo_path.startswith(docs_dir + "/"):
        return repo_path[len(docs_dir) + 1 :]
    return None


def _rewrite(target: str, here_repo: str, here_site: str, config) -> str:
    if target.startswith("<") and target.endswith(">"):
        target = target[1:-1]
    if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith(("#", "/")):
        return target
    path, hash_, frag = target.partition("#")
    docs_dir = Path(config["docs_dir"]).resolve().relative_to(ROOT).as_posix()
    repo = posixpath.normpath(posixpath.join(posixpath.dirname(here_repo), path))
    if repo.startswith("../") or not (ROOT / repo).exists():
        raise PluginError(f"{here_repo}: link to {target!r}: {repo} does not exist")
    site = _site_path(repo, docs_dir) if (ROOT / repo).is_file() else None
    if site is None:
        kind = "tree" if (ROOT / repo).is_dir() else "blob"
        return f"{config['repo_url'].rstrip('/')}/{kind}/main/{repo}{hash_}{frag}"
    rel = posixpath.relpath(site, posixpath.dirname(here_site) or ".")
    return f"{rel}{hash_}{frag}"


def on_page_markdown(markdown, page, config, files):
    here_repo = _repo_path(page)
    here_site = page.file.src_uri
    parts = FENCE.split(markdown)
    # split keeps the fence markers: text, marker, code, marker, text, ...
    out, inside = [], False
    for chunk in parts:
        if FENCE.fullmatch(chunk):
            inside = not inside
            out.append(chunk)
        elif inside:
            out.append(chunk)
        else:
            def sub(m):
                return m.group(1) + _rewrite(m.group(2), here_repo, here_site, config) + m.group(3)

            out.append(LINK.sub(sub, IMAGE.sub(sub, chunk)))
    return "".join(out)


COMMAND = "build"


def on_startup(command, dirty):
    global COMMAND
    COMMAND = command


def on_config(config):
    # the site's URL is the workspace's `homepage` (Cargo.toml), the base of
    # every rule link the tools print; refuse to build a site that disagrees
    # (`mkdocs serve` puts its own address there)
    cargo = (ROOT / "Cargo.toml").read_text()
    m = re.search(r'^homepage\s*=\s*"([^"]+)"', cargo, re.M)
    if COMMAND != "serve" and (not m or m.group(1) != config["site_url"]):
        raise PluginError(f"mkdocs.yml site_url {config['site_url']!r} is not Cargo.toml's homepage")
    m = re.search(r'^repository\s*=\s*"([^"]+)"', cargo, re.M)
    if not m or m.group(1) != config["repo_url"].rstrip("/"):
        raise PluginError(f"mkdocs.yml repo_url {config['repo_url']!r} is not Cargo.toml's repository")
    return config
