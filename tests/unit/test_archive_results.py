"""The results file of an archive run: rows read back by log, a torn last line cut, a
damaged line before it refused."""

import json
from pathlib import Path

import pytest

from iotuner.archive import ArchiveError, ResultsFile


def row(name: str) -> dict[str, object]:
    return {"path": f"/a/{name}", "size": 10, "mtime_ns": 5, "status": "ok"}


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
