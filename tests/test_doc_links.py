"""Every relative link of the README and docs/ resolves (issue 36): a markdown link `[text](path)`
or `[text](path#anchor)` names a file or folder of the repository, and an anchor names a heading
of that page (GitHub's anchors: lower case, punctuation dropped, spaces as hyphens)."""
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
LINK = re.compile(r"(?<!!)\[[^\]\n]*\]\(([^)\s]+)\)|!\[[^\]\n]*\]\(([^)\s]+)\)")


def anchors(page: Path) -> set[str]:
    text = page.read_text()
    heads = re.findall(r"^#{1,6} (.*)$", text, re.M)
    return ({"".join(ch for ch in h.lower() if ch.isalnum() or ch in "-_ ").replace(" ", "-") for h in heads}
            | set(re.findall(r'<a id="([^"]+)"></a>', text)))


def links(page: Path):
    text = re.sub(r"```.*?```", "", page.read_text(), flags=re.S)
    text = re.sub(r"^\s*>.*$", "", text, flags=re.M)   # quoted paper text (LaTeX), not our links
    for m in LINK.finditer(text):
        target = m.group(1) or m.group(2)
        if not re.match(r"^[a-z]+:", target):   # http:, mailto: are not ours
            yield target


def test_the_walker_sees_links_and_anchors(tmp_path):
    page = tmp_path / "a.md"
    page.write_text("# A title, here\n[x](b.md#part) ![i](c.png) `[no](link)` [w](https://x.y)\n"
                    "  > \\Big[a](y)\n<a id=\"k\"></a>\n")
    assert list(links(page)) == ["b.md#part", "c.png", "link"]
    assert anchors(page) == {"a-title-here", "k"}


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(page):
    broken = []
    for target in links(page):
        path, _, anchor = target.partition("#")
        dest = (page.parent / path).resolve() if path else page
        if not dest.exists():
            broken.append(target)
        elif anchor and dest.is_file() and dest.suffix == ".md" and anchor not in anchors(dest):
            broken.append(target)
    assert not broken, f"{page.relative_to(ROOT)}: broken links {broken}"
