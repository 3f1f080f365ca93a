"""The results file of an archive run: rows read back by log, a torn last line cut, a
damaged line before it refused."""

import json
from pathlib import Path

import pytest

from iotuner.archive import ArchiveError, ResultsFile


def row(name: str) -> dict[str, object]:
    return {"path": f"/a/{name}", "size": 10, "mtime_ns": 5, "status": "error", "error": "x"}


def test_rows_come_back_and_a_torn_last_line_is_cut(tmp_path: Path) -> None:
    path = tmp_path / "rows.jsonl"
    results = ResultsFile(path)
    results.append(row("one.darshan"))
    results.append(row("two.darshan"))
    results.close()
    whole = path.read_bytes()
    for torn in (b'{"path": "/a/thr', b'{"path": "/a/three.darshan", "size": 10, "mtime_ns": 5}'):
        path.write_bytes(whole + torn)  # no newline: the write did not finish
        again = ResultsFile(path)
        again.close()
        assert set(again.rows) == {("/a/one.darshan", 10, 5), ("/a/two.darshan", 10, 5)}
        assert path.read_bytes() == whole
    path.write_bytes(whole + b"\x00\x00\x00\n")  # a last line the crash filled with zeros
    ResultsFile(path).close()
    assert path.read_bytes() == whole


def test_a_damaged_line_before_the_last_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "rows.jsonl"
    path.write_text("not json\n" + json.dumps(row("one.darshan")) + "\n")
    with pytest.raises(ArchiveError, match="line 1 is not a row"):
        ResultsFile(path)


def test_a_row_whose_fields_the_ranking_cannot_read_is_refused(tmp_path: Path) -> None:
    """A row with the key fields but an "ok" status without its figures (or with a figure
    of the wrong type) would fail the ranking or a page later: refused when read."""
    path = tmp_path / "rows.jsonl"
    ok = {"path": "/a/x", "size": 1, "mtime_ns": 2, "status": "ok", "program": "p",
          "nprocs": 0, "io_seconds": 1.0, "io_core_hours": 1.0, "io_basis": "b",
          "findings": [], "advice": []}  # fmt: skip
    path.write_text(json.dumps(ok) + "\n" + json.dumps(row("one.darshan")) + "\n")
    with pytest.raises(ArchiveError, match=r"line 1 .*wrong or missing: nprocs"):
        ResultsFile(path)
