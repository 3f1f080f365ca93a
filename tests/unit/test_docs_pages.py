"""The README is a page a newcomer reads in ten minutes (issue 43, item 4): short, the two
commands on its first screen, its walk-through near the top, no measured figures (those
live in docs/measurements.md, with their dates), and every docs/ page linked from it, so
that tests/test_readme.py, which runs the pages in the order the README links them,
finds each."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
COMMANDS = """```sh
./setup.sh && .venv/bin/iotuner demo              # set up, then run the end-to-end demo
./setup.sh && .venv/bin/python -m pytest          # set up, then run the tests
```"""
FIGURE = re.compile(r"\d+(?:[.,]\d+)? ?(?:ns|µs|ms|s|min|minutes|seconds)\b|MiB/s|%")
"""A time or a bandwidth: what changes with every measurement."""


def test_the_readme_is_short_and_starts_with_the_commands_and_the_walk_through() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) < 300
    assert COMMANDS in "\n".join(lines[:25]), "the two commands are on the first screen"
    walk = [n for n, line in enumerate(lines, 1) if line.startswith("## A walk-through")]
    assert walk and walk[0] <= 60, "the walk-through starts within the first 60 lines"


def test_the_readme_quotes_no_measured_figure() -> None:
    found = FIGURE.findall(README.read_text(encoding="utf-8"))
    assert not found, f"figures belong in docs/measurements.md: {found}"


def test_every_docs_page_is_linked_from_the_readme() -> None:
    readme = README.read_text(encoding="utf-8")
    pages = sorted(p.name for p in DOCS.glob("*.md"))
    assert "measurements.md" in pages and "how-it-fits.md" in pages
    missing = [name for name in pages if f"](docs/{name})" not in readme]
    assert not missing, f"docs pages the README does not link: {missing}"


def test_the_docs_pages_link_pages_that_exist() -> None:
    broken = []
    for page in DOCS.glob("*.md"):
        for target in re.findall(r"\]\(([^)#]+)\)", page.read_text(encoding="utf-8")):
            if "://" not in target and not (page.parent / target).exists():
                broken.append(f"{page.name}: {target}")
    assert not broken, f"links to nothing: {broken}"
