"""Names are data (issue 24, item 7): a program, file, glob or host name from a trace log,
a tuning table or the knowledge base that holds control characters (an ESC sequence that
retitles, clears or recolours the terminal, a C1 CSI) or rich markup ("[bold]x") is
printed escaped (\\x1b) and literally by every command that shows it. Each case runs the
command line on real files."""

import json
import re
from pathlib import Path

import pytest

from iotuner.cli import main

DATA = Path(__file__).resolve().parent.parent / "data"
SAMPLE_LOG = DATA / "ior-20250101-120000-4242-0123456789ab.iotrace.jsonl"

RETITLE = "\x1b]0;pwned\x07"
CLEAR = "\x1b[2J"
C1_CSI = "\x9b31m"
PROGRAM = f"{RETITLE}ior[bold]x"
FILE = f"{CLEAR}out{C1_CSI}.dat"
HOST = "node\x1b[31m01"

CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f]")
"""What must not reach the terminal: every C0 but the newline, DEL and C1."""


@pytest.fixture(autouse=True)
def _wide(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rich wraps at 80 columns without a terminal; the tests match whole names."""
    monkeypatch.setenv("COLUMNS", "300")
    monkeypatch.delenv("IOTUNER_DB", raising=False)


def _printed(capsys: pytest.CaptureFixture[str]) -> str:
    captured = capsys.readouterr()
    printed = captured.out + captured.err
    assert CONTROL.search(printed) is None, repr(printed)
    return printed


@pytest.fixture
def hostile_log(tmp_path: Path) -> Path:
    """The sample trace log with a hostile program, file and host name."""
    lines = []
    for line in SAMPLE_LOG.read_text().splitlines():
        record = json.loads(line)
        if record.get("record") == "job":
            record.update(program=PROGRAM, host=HOST)
        if record.get("file") == "out.dat":
            record["file"] = FILE
        lines.append(json.dumps(record))
    path = tmp_path / "logs" / SAMPLE_LOG.name
    path.parent.mkdir()
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.fixture
def hostile_table(tmp_path: Path) -> Path:
    entries = [
        {"format": "iotuner-table", "version": 1},
        {"at": "open", "file": f"{RETITLE}*.dat", "hints": {"striping_factor": "16"}},
        {"at": "open", "program": f"other{C1_CSI}", "hints": {"romio_cb_write": "enable"}},
        {"at": "open", "hints": {"romio_cb_write": "enable"}},
    ]
    path = tmp_path / "table.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in entries))
    return path


def test_show_escapes_the_names_of_a_trace(
    hostile_log: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["show", str(hostile_log)]) == 0
    printed = _printed(capsys)
    assert "\\x1b]0;pwned\\x07ior[bold]x" in printed  # the markup printed as it is
    assert "\\x1b[2Jout\\x9b31m.dat" in printed
    assert "node\\x1b[31m01" in printed


@pytest.mark.parametrize("mechanism", ["romio-hints", "cray", "lfs", "mca", "iotuner"])
def test_export_escapes_the_names_of_a_table(
    mechanism: str, hostile_table: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # --verbose: every dropped entry is named (by default they are counted per reason).
    main(["export", str(hostile_table), "--to", mechanism, "--nprocs", "2", "--verbose"])
    printed = _printed(capsys)
    if mechanism != "iotuner":  # the table itself, in JSON: \u001b
        assert "\\x1b]0;pwned\\x07*.dat" in printed or "other\\x9b31m" in printed


def test_export_never_writes_a_control_character_into_a_setting(
    hostile_table: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Cray's MPICH_MPIIO_HINTS cannot carry one: the file pattern is dropped, with the
    reason, instead of written into the job's environment."""
    output = tmp_path / "cray.txt"
    assert main(["export", str(hostile_table), "--to", "cray", "-o", str(output)]) == 0
    assert "a control character in a pattern" in _printed(capsys)
    assert CONTROL.search(output.read_text()) is None
    assert "romio_cb_write=enable" in output.read_text()


def test_table_check_and_derive_escape_names(
    hostile_table: Path, hostile_log: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    main(["table", "check", str(hostile_table)])
    _printed(capsys)
    derived = tmp_path / "derived.jsonl"
    assert main(["table", "derive", str(hostile_table), str(hostile_log), "-o", str(derived)]) == 0
    _printed(capsys)


def test_ingest_and_db_status_escape_names(
    hostile_log: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "kb.sqlite")
    assert main(["ingest", str(hostile_log), "--db", db]) == 0
    _printed(capsys)
    assert main(["db", "status", "--db", db]) == 0
    assert "host node\\x1b[31m01" in _printed(capsys)


def test_an_error_naming_a_file_escapes_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / f"{CLEAR}missing.jsonl"
    assert main(["show", str(missing)]) == 2
    assert "\\x1b[2Jmissing.jsonl" in _printed(capsys)


def _no_raw_control(path: Path) -> str:
    """The text of a file iotuner wrote for people: no ESC, BEL or other control byte but
    the line breaks, and the hostile names shown escaped."""
    text = path.read_text()
    assert CONTROL.search(text) is None, [m.group(0) for m in CONTROL.finditer(text)][:5]
    return text


def test_log2csv_escapes_the_names_in_its_cells(
    hostile_log: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    output = tmp_path / "ops.csv"
    assert main(["log2csv", str(hostile_log), "-o", str(output)]) == 0
    assert "\\x1b[2Jout\\x9b31m.dat" in _no_raw_control(output)


def test_the_report_and_the_archive_pages_escape_the_names(
    hostile_log: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The report's page of a program, its link text on the index, and an archive run's
    pages, with a program and a log named with ESC and BEL (a dangling link)."""
    report = tmp_path / "report.html"
    assert main(["report", "--logs", str(hostile_log), "-o", str(report)]) == 0
    pages = sorted(tmp_path.glob("report*.html"))
    assert len(pages) == 2  # the index and the program's page
    for page in pages:
        assert "\\x1b]0;pwned\\x07ior[bold]x" in _no_raw_control(page)
    (hostile_log.parent / f"gone{RETITLE}.darshan").symlink_to(tmp_path / "nowhere")
    html = tmp_path / "archive"
    assert main(["advise", str(hostile_log.parent), "--jobs", "1", "--html", str(html)]) == 0
    index = _no_raw_control(html / "index.html")
    assert "\\x1b]0;pwned\\x07ior[bold]x" in index  # the program's link text
    assert "gone\\x1b]0;pwned\\x07.darshan" in index  # the error row
    for page in (html / "programs").iterdir():
        _no_raw_control(page)
