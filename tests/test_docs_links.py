"""The documentation's relative links lead somewhere: every `[text](target)` in README.md, docs/*.md
and experiments/README.md names an existing file or folder, and a `#anchor` names a heading of its
page by GitHub's rules. Links inside fenced code blocks are not links."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted([ROOT / "README.md", ROOT / "experiments" / "README.md", *(ROOT / "docs").glob("*.md")])
README_LINES = 250

LINK = re.compile(r"\[[^\]]*\]\(([^()\s]+)(?:\s+\"[^\"]*\")?\)")
FENCE = re.compile(r"^\s*(```|~~~)")
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$")


def prose_lines(text: str) -> list[str]:
    """The page's lines outside fenced code blocks."""
    lines, fenced = [], False
    for line in text.splitlines():
        if FENCE.match(line):
            fenced = not fenced
        elif not fenced:
            lines.append(line)
    return lines


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lowercase, markup and punctuation other than - and _ dropped,
    spaces to hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link in a heading keeps its text
    text = text.lower().replace("`", "")
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    """Every heading's anchor; a repeated heading gets -1, -2, ..."""
    seen: Counter[str] = Counter()
    found = set()
    for line in prose_lines(page.read_text(encoding="utf-8")):
        match = HEADING.match(line)
        if match:
            base = slug(match.group(1))
            found.add(f"{base}-{seen[base]}" if seen[base] else base)
            seen[base] += 1
    return found


def relative_links(page: Path) -> list[str]:
    text = "\n".join(prose_lines(page.read_text(encoding="utf-8")))
    text = re.sub(r"`[^`\n]*`", "", text)  # inline code is not a link either
    return [target for target in LINK.findall(text)
            if not re.match(r"^[a-z][a-z0-9+.-]*:", target, re.IGNORECASE)]  # http:, https:, mailto:


def broken_links(page: Path) -> list[str]:
    broken = []
    for target in relative_links(page):
        path, _, anchor = target.partition("#")
        linked = (page.parent / path).resolve() if path else page
        if not linked.exists():
            broken.append(f"{target}: no such file")
        elif anchor and linked.suffix == ".md" and anchor not in anchors(linked):
            broken.append(f"{target}: no heading #{anchor} in {linked.name}")
    return broken


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_relative_links_lead_somewhere(page: Path) -> None:
    assert broken_links(page) == []


def test_readme_is_short() -> None:
    lines = len((ROOT / "README.md").read_text(encoding="utf-8").splitlines())
    assert lines <= README_LINES, f"README.md has {lines} lines, at most {README_LINES}"


def test_slugs_follow_github() -> None:
    assert slug("Runs: `stratpol run`") == "runs-stratpol-run"
    assert slug("Results: the GENEX paper's Table 1") == "results-the-genex-papers-table-1"
    assert slug("In parallel, and on a cluster") == "in-parallel-and-on-a-cluster"


def test_broken_links_are_found(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("# Top\n[a](#top) [b](#bottom) [c](missing.md) [d](https://example.org)\n"
                    "```\n[e](missing.md)\n```\n", encoding="utf-8")
    assert broken_links(page) == ["#bottom: no heading #bottom in page.md", "missing.md: no such file"]


def test_repeated_headings_are_numbered(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("# A\n## Results\n```\n## Results\n```\n## Results\n", encoding="utf-8")
    assert anchors(page) == {"a", "results", "results-1"}
