"""The centre's pages of an archive run say what to do: every finding of a program's logs in
the words and with the do: line the terminal's `advise` prints, the most core-hours at
stake first, no internal code as text; a ranking chart where every program is a bar; and
where the saving is unknown, why and the sweep that would make it known.

The archive: the Darshan logs the `darshan` wheel ships and our trace log (make_archive),
advised without a model by `iotuner advise DIR --html` and written again by `iotuner report
--archive`. What each page must hold is read from the same logs by advise in this process
(the findings the terminal prints, iotuner.cli._advise.print_findings) and, for one log,
from the terminal's own output."""

import base64
import html
import io
import json
import re
from collections import defaultdict
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image

from iotuner.advise import advise, read_source
from iotuner.report._archive import program_page_name

from ._browser import LAYOUT_SCRIPT, layout_check
from .test_archive import make_archive, rows_of
from .test_cli import iotuner

BAR = (0x1F, 0x77, 0xB4)
"""The bars' colour (iotuner.report._plots.PALETTE[0])."""


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The archive's rows, its --html pages and the report's pages (the module text)."""
    folder = tmp_path_factory.mktemp("pages")
    make_archive(folder / "archive")
    results = folder / "rows.jsonl"
    iotuner("advise", str(folder / "archive"), "--jobs", "1", "--results", str(results),
            "--html", str(folder / "html"))  # fmt: skip
    iotuner("report", "--archive", str(results), "-o", str(folder / "report.html"))
    return {"folder": folder, "rows": [r for r in rows_of(results) if r["status"] == "ok"]}


class _Page(HTMLParser):
    """A page's text (what a reader sees: no attributes), its findings' rows (data-code and
    cell texts) and the text of the to-save section."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text: list[str] = []
        self.findings: list[tuple[str, list[str]]] = []
        self.to_save: list[str] = []
        self._in_to_save = False
        self._in_finding = False
        self._cell: list[str] | None = None
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "tr":
            self._in_finding = values.get("class") == "finding"
            if self._in_finding:
                self.findings.append((str(values["data-code"]), []))
        elif tag == "td" and self._in_finding and self._cell is None:
            self._cell = []
        if tag == "h2":
            self._in_to_save = values.get("id") == "to-save"

    def handle_endtag(self, tag: str) -> None:
        if tag == "td" and self._cell is not None:
            self.findings[-1][1].append("".join(self._cell).strip())
            self._cell = None
        if tag in ("tr", "table"):
            self._in_finding = False

    def handle_data(self, data: str) -> None:
        self.text.append(data)
        if self._cell is not None:
            self._cell.append(data)
        if self._in_to_save:
            self.to_save.append(data)


@pytest.fixture(scope="module")
def expected(pages: dict[str, Any]) -> dict[str, dict[tuple[str, str], Any]]:
    """Per program, its findings as the terminal's advise has them for each of its logs, by
    (code, module): the actions and words seen, and the core-hours at stake (the
    seconds x ranks / 3600, summed; None when no log gives a time)."""
    found: dict[str, dict[tuple[str, str], Any]] = defaultdict(dict)
    for row in pages["rows"]:
        for f in advise(read_source(row["path"]), None, None, None).findings:
            entry = found[row["program"]].setdefault(
                (f.code, f.module), {"actions": set(), "words": set(), "hours": None}
            )
            entry["actions"].add(f.action)
            entry["words"].add(f.words)
            if f.seconds is not None:
                entry["hours"] = (entry["hours"] or 0.0) + f.seconds * row["nprocs"] / 3600
    return found


def program_pages(pages: dict[str, Any]) -> dict[str, list[_Page]]:
    """Each program's page of the archive's --html and of the report (the same part)."""
    folder = pages["folder"]
    report_pages = {}
    for page in folder.glob("report.*.html"):
        text = page.read_text()
        report_pages[html.unescape(text.split("<h1>", 1)[1].split("</h1>", 1)[0])] = text
    programs = {r["program"] for r in pages["rows"]}
    return {
        p: [
            _Page((folder / "html" / "programs" / program_page_name(p)).read_text()),
            _Page(report_pages[p]),
        ]
        for p in programs
    }


def test_every_finding_is_in_words_with_its_do_line(
    pages: dict[str, Any], expected: dict[str, dict[tuple[str, str], Any]]
) -> None:
    checked = 0
    for program, views in program_pages(pages).items():
        for page in views:
            codes = sorted(code for code, _ in page.findings)
            assert codes == sorted(code for code, _ in expected[program]), program
            text = " ".join(cell for _, cells in page.findings for cell in cells)
            for entry in expected[program].values():
                for action in entry["actions"] - {""}:
                    assert f"do: {action}" in text, (program, action)
                    checked += 1
                assert any(words in text for words in entry["words"]), program
    assert checked > 20
    # More than five findings of one log reach its page (the row kept five before).
    assert max(len(e) for e in expected.values()) > 5


def test_the_do_lines_are_the_terminals(pages: dict[str, Any]) -> None:
    """The do: lines of ior's costliest log as `iotuner advise LOG` prints them, each on
    ior's page."""
    log = next(r for r in pages["rows"] if r["program"] == "ior" and r["kind"] == "darshan"
               and r["nprocs"] == 4)  # fmt: skip
    printed = iotuner("advise", log["path"], columns=2000).stdout
    said = [line.strip()[len("do: ") :] for line in printed.splitlines() if "do: " in line]
    assert len(said) >= 5
    for page in program_pages(pages)["ior"]:
        text = " ".join("".join(page.text).split())
        for action in said:
            assert f"do: {action}" in text, action


def test_findings_are_ordered_by_core_hours_at_stake(
    pages: dict[str, Any], expected: dict[str, dict[tuple[str, str], Any]]
) -> None:
    reordered = 0
    for program, views in program_pages(pages).items():
        hours = [e["hours"] for e in expected[program].values()]
        known = sorted((h for h in hours if h is not None), reverse=True)
        for page in views:
            shown = [cells[0] for _, cells in page.findings]
            assert shown[len(known) :] == ["\u2013"] * (len(hours) - len(known)), program
            # Three significant digits on the page.
            assert [float(s) for s in shown[: len(known)]] == pytest.approx(known, rel=6e-3)
            levels = [cells[1] for _, cells in page.findings]
            reordered += levels != sorted(levels, key=["critical", "warning", "info"].index)
    # ior's info "job.io_time" (19 core-hours) leads its warnings of a 4-rank test (1e-4):
    # an order by level would have put them first.
    assert reordered > 0


def test_no_finding_code_is_shown_as_text(
    pages: dict[str, Any], expected: dict[str, dict[tuple[str, str], Any]]
) -> None:
    """The pages' own text (the terminal's words and do: lines left out, which may name a
    finding) holds no finding code; the codes stay in the rows' data-code attribute."""
    codes = {code for program in expected.values() for code, _ in program}
    folder = pages["folder"]
    paths = [folder / "html" / "index.html", *(folder / "html" / "programs").glob("*.html")]
    paths += list(folder.glob("report*.html"))
    words = {w for e in expected.values() for x in e.values() for w in x["words"] | x["actions"]}
    for path in paths:
        text = "".join(_Page(path.read_text()).text)
        for sentence in sorted(words, key=len, reverse=True):
            text = text.replace(sentence, "")
        shown = {code for code in codes if re.search(rf"(?<![\w.]){re.escape(code)}\b", text)}
        assert not shown, (path.name, shown)


def bar_bands(uri: str) -> int:
    """How many horizontal bands of the bars' colour the PNG holds (one per bar drawn at
    least two pixels wide)."""
    image = Image.open(io.BytesIO(base64.b64decode(uri.split(",", 1)[1]))).convert("RGB")
    pixels = np.asarray(image)
    wide = (pixels == BAR).all(axis=2).sum(axis=1) >= 2
    return int(np.count_nonzero(wide[1:] & ~wide[:-1]) + wide[0])


def test_every_program_of_the_chart_is_a_visible_bar(pages: dict[str, Any]) -> None:
    """The programs' core-hours span ten decades (ior 443, app_read 5e-8): each is a bar."""
    programs = {r["program"] for r in pages["rows"]}
    hours = defaultdict(float)
    for row in pages["rows"]:
        hours[row["program"]] += row["io_core_hours"]
    assert max(hours.values()) / min(hours.values()) > 1e6
    for page in (pages["folder"] / "html" / "index.html", pages["folder"] / "report.html"):
        (uri,) = re.findall(
            r'<img src="(data:image/png;base64,[^"]*)" alt="core-hours', page.read_text()
        )
        assert bar_bands(uri) == len(programs), page.name


def test_an_unknown_saving_names_the_sweep_that_would_make_it_known(
    pages: dict[str, Any],
) -> None:
    views = program_pages(pages)
    index = (pages["folder"] / "html" / "index.html").read_text()
    for program in views:
        assert f'href="programs/{program_page_name(program)}#to-save">unknown</a>' in index
    ior = next(r for r in pages["rows"] if r["program"] == "ior" and r["kind"] == "darshan"
               and r["nprocs"] == 4)  # fmt: skip
    for page in views["ior"]:
        said = " ".join("".join(page.to_save).split())
        # ior's 4-rank Darshan log goes through MPI-IO on Lustre (so does our 4-rank trace
        # of it); its 2048-rank log does not.
        assert "the archive run had no model" in said
        bench = re.search(
            r"iotuner bench --from-logs (.*?) --nprocs (\S+) --dir (\S+) --db kb.sqlite", said
        )
        assert bench, said
        assert ior["path"] in bench[1].split() and bench[2] == "4", bench[0]
        assert bench[3] == "/global/cscratch1/iotuner-sweep"
        assert "lustre file system at /global/cscratch1" in said
        assert "iotuner train --db kb.sqlite -o model" in said
        assert "1 of its 3 logs has no file group through MPI-IO" in said
    for page in views["app_write"]:  # POSIX only: no sweep helps, and the page says so
        said = " ".join("".join(page.to_save).split())
        assert "none of its file groups goes through MPI-IO" in said
        assert "iotuner bench" not in said
    # The rows say what the explanation rests on.
    row = json.dumps(ior)
    assert '"through_mpiio": true' in row and '"modelled": false' in row


def test_the_pages_fit_1400_px_without_breaking_a_name(
    pages: dict[str, Any], tmp_path: Path
) -> None:
    """Was: counter names broken mid-word in a narrow column (code { word-break:
    break-all }). Each program page, as Chromium lays it out 1,400 px wide: no wider than
    the window, and every name in its tables on one line."""
    folder = pages["folder"]
    checked = 0
    for page in sorted((folder / "html" / "programs").glob("*.html"))[:4]:
        probe = tmp_path / page.name
        probe.write_text(page.read_text().replace("</body>", LAYOUT_SCRIPT + "</body>"))
        found = layout_check(probe, tmp_path / f"profile-{page.stem}", 1400)
        assert found["width"] <= 1400 and found["broken"] == [], (page.name, found)
        checked += int(found["codes"])  # type: ignore[call-overload]
    assert checked > 20
