"""Every internal link and anchor of the built site resolves, offline.

    python3 check_links.py SITE_DIR [--page PATH]...

Reads every HTML file of SITE_DIR (mkdocs build's output) and checks each
`href` and `src` that is not an absolute URL: the file it names exists in
the site, and its `#fragment`, if any, is an `id` (or `name`) in that file.
`--page PATH` (site-relative, e.g. `rules/IDX203.html`) must exist: the
pages the tools link to. Exit 1 naming every broken link.
"""

from __future__ import annotations

import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit


class Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.links: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag, attrs):
        for k, v in attrs:
            if v is None:
                continue
            if k == "id" or (k == "name" and tag == "a"):
                self.ids.add(v)
            if k in ("href", "src"):
                self.links.append(v)


def parse(path: Path) -> Page:
    p = Page()
    p.feed(path.read_text(encoding="utf-8", errors="replace"))
    return p


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    site = Path(argv[0]).resolve()
    must = [argv[i + 1] for i, a in enumerate(argv) if a == "--page"]
    pages = {p: parse(p) for p in sorted(site.rglob("*.html"))}
    if not pages:
        print(f"{site}: no HTML files", file=sys.stderr)
        return 1
    broken: list[str] = []
    links = anchors = 0
    for page, parsed in pages.items():
        for link in parsed.links:
            u = urlsplit(link)
            if u.scheme or u.netloc or link.startswith(("data:", "javascript:", "mailto:")):
                continue
            links += 1
            if not u.path:
                target = page
            elif u.path.startswith("/"):  # the site's root (site_url's path is /)
                target = (site / unquote(u.path).lstrip("/")).resolve()
            else:
                target = (page.parent / unquote(u.path)).resolve()
            if target.is_dir():
                target = target / "index.html"
            where = f"{page.relative_to(site)}: {link}"
            if not target.is_file() or site not in target.parents:
                broken.append(f"{where}: no file {target}")
                continue
            if u.fragment:
                anchors += 1
                ids = pages[target].ids if target in pages else None
                if ids is None:
                    broken.append(f"{where}: an anchor into a file that is not HTML")
                elif unquote(u.fragment) not in ids:
                    broken.append(f"{where}: no anchor #{u.fragment} in {target.relative_to(site)}")
    for p in must:
        if not (site / p).is_file():
            broken.append(f"{p}: the tools link to it, and it is not in the site")
    for b in broken:
        print(f"broken link: {b}", file=sys.stderr)
    if broken:
        return 1
    print(f"links: ok: {links} internal links ({anchors} with an anchor) in {len(pages)} pages, {len(must)} linked pages present")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
