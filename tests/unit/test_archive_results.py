"""The results file of an archive run: rows read back by log, a torn last line cut, a
damaged line before it refused."""

import json
from pathlib import Path

import pytest

from iotuner.archive import ArchiveError, ResultsFile, advise_log, log_key, read_results


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
    with pytest.raises(ArchiveError, match=r"line 1 .*out of range or missing: nprocs"):
        ResultsFile(path)


OK_ROW = {"path": "/a/x", "size": 1, "mtime_ns": 2, "status": "ok", "program": "p",
          "nprocs": 2, "io_seconds": 1.0, "io_core_hours": 1.0, "io_basis": "b",
          "findings": [], "advice": []}  # fmt: skip


@pytest.mark.parametrize(
    ("changed", "field"),
    [
        ({"io_seconds": 10**400}, "io_seconds"),
        ({"save_core_hours": -(10**400)}, "save_core_hours"),
        ({"size": 10**400}, "size"),
        ({"size": -5}, "size"),
        ({"mtime_ns": 10**30}, "mtime_ns"),
        ({"nprocs": 10**400}, "nprocs"),
        ({"io_core_hours": float("nan")}, "io_core_hours"),
        ({"run_seconds": float("inf")}, "run_seconds"),
        ({"size": -1, "mtime_ns": -1}, "size"),  # not stat'ed: only an error row says so
        ({"advice": [{"group": "g", "op": "write", "interval": ["a", "b"]}]}, "advice"),
        ({"findings": [{"code": "c", "level": "info", "seconds": 10**400}]}, "findings"),
        ({"findings": [{"code": "c", "level": None, "counters": {"X": "1"}}]}, "findings"),
    ],
)
def test_a_figure_out_of_range_is_refused_with_its_line_and_field(
    tmp_path: Path, changed: dict[str, object], field: str
) -> None:
    path = tmp_path / "rows.jsonl"
    path.write_text(json.dumps({**OK_ROW, **changed}) + "\n" + json.dumps(row("one")) + "\n")
    with pytest.raises(ArchiveError, match=rf"rows.jsonl: line 1 .*out of range.*: {field}\b"):
        ResultsFile(path)
    with pytest.raises(ArchiveError, match=rf"line 1 .*: {field}\b"):
        read_results(path)
    # As the last line too: a whole JSON line is no torn write, and is not cut unsaid.
    path.write_text(json.dumps(row("one")) + "\n" + json.dumps({**OK_ROW, **changed}) + "\n")
    with pytest.raises(ArchiveError, match=rf"line 2 .*: {field}\b"):
        ResultsFile(path)
    assert len(path.read_text().splitlines()) == 2


def test_every_row_advise_log_writes_is_read_back(tmp_path: Path) -> None:
    """Logs that cannot be advised (a dangling link, a missing path, a directory, an empty
    file, a file that is no log): each an error row with its reason, which the results file
    takes back, and which a rerun finds by the same key."""
    (tmp_path / "dangling.darshan").symlink_to(tmp_path / "nowhere")
    (tmp_path / "empty.darshan").write_bytes(b"")
    (tmp_path / "text.darshan").write_text("not a log\n")
    (tmp_path / "folder.darshan").mkdir()
    logs = [tmp_path / n for n in ("dangling", "missing", "empty", "text", "folder")]
    logs = [p.with_suffix(".darshan") for p in logs]
    path = tmp_path / "rows.jsonl"
    results = ResultsFile(path)
    written = [advise_log(log) for log in logs]
    for written_row in written:
        assert written_row["status"] == "error" and written_row["error"]
        results.append(written_row)
    results.close()
    assert read_results(path) == written
    assert set(ResultsFile(path).rows) == {log_key(log) for log in logs}
