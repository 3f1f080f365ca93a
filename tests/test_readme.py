"""The command blocks of the README and of its docs/ pages, run as written, in order, in one
shell, the way a newcomer runs them after `./setup.sh`: so the pages cannot drift from what
works.

Every ```sh block runs, except one right after an HTML comment that starts with
"<!-- not run by tests/test_readme.py:" and says why (the setup and test commands
themselves, a rebuild for another MPI). The README's blocks run first; then each docs page's,
the pages in the order the README first links them, since they go on from the README's
walk-through (its folder, `$app`, knowledge base, model, tables and logs). The shell starts
in the checkout with HOME in a temporary folder, so `~` and iotuner's default folders (logs,
knowledge base) are the test's own; it stops at the first failing command and the test shows
its output and the page it was on.
"""

import os
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
SKIP = "<!-- not run by tests/test_readme.py:"
PAGE_MARK = "== the blocks of "
TIMEOUT = 900
"""Seconds for every block together (about 3 minutes on the 2-core development machine)."""
REPR = re.compile(r"\b[A-Za-z_]\w*\(\w+=|=None\b|\bNone\b|<[\w.]+ object at 0x")
"""A dataclass's repr (Workload(nprocs=2, ...)), a Python None, an object's default repr."""


def command_blocks(text: str) -> tuple[list[str], list[str]]:
    """The ```sh blocks to run, and the reasons given for the others, in order."""
    run, skipped = [], []
    for match in re.finditer(r"(?ms)^```sh\n(.*?)^```$", text):
        before = text[: match.start()].rstrip().rsplit("\n\n", 1)[-1].strip()
        if before.startswith(SKIP) and before.endswith("-->"):
            skipped.append(before[len(SKIP) : -3].strip())
        else:
            run.append(match.group(1))
    return run, skipped


def pages() -> list[Path]:
    """The README, then the docs pages in the order the README first links them (a page it
    does not link comes last, and tests/unit/test_docs_pages.py fails on it)."""
    readme = README.read_text()
    found = sorted(DOCS.glob("*.md"))

    def first_link(page: Path) -> int:
        at = readme.find(f"](docs/{page.name})")
        return at if at >= 0 else len(readme)

    return [README, *sorted(found, key=first_link)]


def test_every_skipped_block_says_why() -> None:
    readme_run, _ = command_blocks(README.read_text())
    assert len(readme_run) >= 3, "the README's walk-through blocks are found"
    run: list[str] = []
    skipped: list[str] = []
    for page in pages():
        page_run, page_skipped = command_blocks(page.read_text())
        run += page_run
        skipped += page_skipped
    assert len(run) >= 7, "the usage blocks of the README and its pages are found"
    assert skipped and all(len(reason) > 20 for reason in skipped)


@pytest.mark.skipif(not (ROOT / ".venv" / "bin" / "activate").exists(), reason="no .venv")
def test_the_readme_blocks_run_as_written(tmp_path: Path) -> None:
    script = "set -eo pipefail\n"
    for page in pages():
        run, _ = command_blocks(page.read_text())
        if run:  # a line per page, so that a failure can name the page it was on
            script += f"echo '{PAGE_MARK}{page.relative_to(ROOT)}'\n" + "\n".join(run)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("IOTUNER_", "XDG_"))}
    env.update(HOME=str(tmp_path), PATH=env.get("PATH", "/usr/bin:/bin"))
    env.pop("VIRTUAL_ENV", None)
    completed = subprocess.run(
        ["bash", "-c", script],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )
    on_page = completed.stdout.rsplit(PAGE_MARK, 1)[-1].split("\n", 1)[0]
    assert completed.returncode == 0, (
        f"a command of {on_page} failed (exit {completed.returncode}); its output ends:\n"
        + completed.stdout[-4000:]
        + "\n--- stderr ---\n"
        + completed.stderr[-6000:]
    )
    # What a newcomer sees on the way (issue 25's first hour): the traced default run is
    # the sweep's default in analyze, not a configuration of its own; each export counts
    # the entries that keep the defaults in one line; the report has the program's page.
    said = completed.stdout + completed.stderr
    assert "default (default)" not in said
    assert "keeps the default, nothing to carry" not in said
    assert "entries that keep the defaults" in said
    # No Python repr reaches the reader (issue 32, item 7): search's note printed
    # "Workload(nprocs=2, ...)" and show "stride_min=None".
    repr_found = REPR.search(said)
    assert repr_found is None, f"a Python repr in the output: {repr_found.group()!r}"
    walk = tmp_path / "iotuner-try"
    assert (walk / "report.html").is_file() and (walk / "report.iokernel.html").is_file()
    assert 'href="report.iokernel.html"' in (walk / "report.html").read_text()
