"""Hostile trace logs (issue 24, items 1, 2 and 8): every malformed log is one
TraceLogError naming the file, the line, what was expected and what came, never another
exception, from the reader or from any command that reads logs; and a large log is read in
memory that grows with its rows, not with its text.

The first cases are those the testers found on main (a job record with "nprocs": 0 or -2
gave a KeyError in the workloads, a line {"record": ["op"]} a TypeError); the others are
the format's other rules, one case each.
"""

import json
import math
import os
import re
import threading
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from iotuner import tracelog
from iotuner.cli import main
from iotuner.errors import TraceLogError
from iotuner.formats import op_fields
from iotuner.tracelog import dominant_workload, read_tracelog

Records = list[dict[str, Any]]
Edit = Callable[[Records], Records]

# The sample log's lines: 1 job, 2-3 hints, 4-7 op, 8-9 file, 10-11 meta, 12 end.
JOB, HINTS, OP, FILE, META, END = 0, 1, 3, 7, 9, 11


def _records(sample_log: Path) -> Records:
    return [json.loads(line) for line in sample_log.read_text().splitlines()]


def _write_lines(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / "hostile-20250101-120000-1.iotrace.jsonl"
    path.write_text(
        "".join(line + "\n" for line in lines), encoding="utf-8", errors="surrogatepass"
    )
    return path


def _edited(tmp_path: Path, sample_log: Path, edit: Edit) -> Path:
    return _write_lines(tmp_path, [json.dumps(r) for r in edit(_records(sample_log))])


def _set(index: int, key: str, value: Any) -> Edit:
    def edit(records: Records) -> Records:
        records[index][key] = value
        return records

    return edit


def _set_in(index: int, outer: str, key: str, value: Any) -> Edit:
    def edit(records: Records) -> Records:
        records[index][outer][key] = value
        return records

    return edit


def _replace(index: int, record: Any) -> Edit:
    def edit(records: Records) -> Records:
        records[index] = record
        return records

    return edit


def _add_no_entry(**changes: Any) -> Edit:
    def edit(records: Records) -> Records:
        entry = {
            "record": "no_entry",
            "file": "out.dat",
            "at": "access",
            "time_stamp": 0.2,
            "nprocs": 4,
            "group": 35,
            "pattern": "collective",
            "op": "write",
            "layout": "contiguous",
        }
        return [*records[:END], {**entry, **changes}, records[END]]

    return edit


def _pattern(**changes: Any) -> Edit:
    def edit(records: Records) -> Records:
        records[FILE]["pattern"].update(changes)
        return records

    return edit


REPORTED: list[tuple[str, Edit, int, str]] = [
    ("job nprocs 0", _set(JOB, "nprocs", 0), 1, "job record: 'nprocs' must be at least 1, got 0"),
    ("job nprocs -2", _set(JOB, "nprocs", -2), 1, "'nprocs' must be at least 1, got -2"),
    (
        "record names a list",
        _replace(OP, {"record": ["op"]}),
        4,
        "'record' must be one of op, job, hints, file, meta, no_entry, end, got [\"op\"]",
    ),
    (
        "file nprocs 0",
        _set(FILE, "nprocs", 0),
        8,
        "file record: 'nprocs' must be between 1 and 4 (the job's nprocs), got 0",
    ),
    ("file nprocs -2", _set(FILE, "nprocs", -2), 8, "'nprocs' must be between 1 and 4"),
]
"""The cases the testers found on main, each a traceback there."""

RULES: list[tuple[str, Edit, int, str]] = [
    ("record is a list", _replace(OP, ["op"]), 4, 'expected a JSON object, got a list: ["op"]'),
    ("record is a number", _replace(OP, 7), 4, "expected a JSON object, got an integer: 7"),
    ("record is an object", _replace(OP, {"record": {}}), 4, "'record' must be one of"),
    ("op with no columns", _replace(OP, {"record": "op"}), 4, "op record: 'group' is missing"),
    ("job nodes 0", _set(JOB, "nodes", 0), 1, "'nodes' must be between 1 and 4"),
    ("job nodes > nprocs", _set(JOB, "nodes", 9), 1, "'nodes' must be between 1 and 4"),
    ("job ranks_per_node 0", _set(JOB, "ranks_per_node", 0), 1, "'ranks_per_node' must be"),
    ("job policy", _set(JOB, "policy", "mine"), 1, "'policy' must be 'app' or 'table', got"),
    ("job start NaN", _set(JOB, "start_time", math.nan), 1, "must be a finite number, got NaN"),
    ("job hint_map list", _set(JOB, "hint_map", []), 1, "'hint_map' must be an object, got []"),
    ("hint_map value", _set(JOB, "hint_map", {"a": 1}), 1, "'a' must be a string or null, got 1"),
    ("op ranks > nprocs", _set(OP, "ranks", 7), 4, "'ranks' must be between 0 and 4"),
    ("op ranks -1", _set(OP, "ranks", -1), 4, "'ranks' must be between 0 and 4"),
    ("op calls 0", _set(OP, "calls", 0), 4, "op record: 'calls' must be at least 1, got 0"),
    ("op group 0", _set(OP, "group", 0), 4, "'group' must be between 1 and 56, got 0"),
    ("op group 57", _set(OP, "group", 57), 4, "'group' must be between 1 and 56, got 57"),
    ("op bytes -1", _set(OP, "bytes", -1), 4, "'bytes' must be at least 0, got -1"),
    ("op summary 3", _set(OP, "summary", 3), 4, "'summary' must be between 0 and 2, got 3"),
    ("op hint_set -2", _set(OP, "hint_set", -2), 4, "'hint_set' must be at least -1, got -2"),
    ("op duration -1", _set(OP, "duration", -1.5), 4, "'duration' must be at least 0"),
    ("op duration inf", _set(OP, "duration", math.inf), 4, "finite number, got Infinity"),
    ("op bytes 2^64", _set(OP, "bytes", 2**64), 4, "'bytes' must be an integer of at most 64"),
    ("op real 2^70", _set(OP, "duration", 2**70), 4, "'duration' must be an integer of at most"),
    ("op bytes a list", _set(OP, "bytes", [1]), 4, "'bytes' must be an integer, got [1]"),
    ("op file an object", _set(OP, "file", {}), 4, "'file' must be a string, got {}"),
    ("op file NUL", _set(OP, "file", "a\x00b"), 4, 'without NUL characters, got "a\\u0000b"'),
    ("op file surrogate", _set(OP, "file", "a\ud800"), 4, "no lone surrogate"),
    ("hints seq -1", _set(HINTS, "seq", -1), 2, "hints record: 'seq' must be at least 0"),
    ("hints at", _set(HINTS, "at", "later"), 2, "'at' must be 'access' or 'open' or"),
    ("hints requested list", _set(HINTS, "requested", ["cb_nodes"]), 2, "must be an object"),
    (
        "hints value a number",
        _set_in(HINTS, "requested", "cb_nodes", 2),
        2,
        "hints record's 'requested': 'cb_nodes' must be a string, got 2",
    ),
    ("hints key NUL", _set_in(HINTS, "effective", "a\x00", "1"), 2, "a key must be text"),
    ("file pattern list", _set(FILE, "pattern", [1]), 8, "'pattern' must be an object or null"),
    (
        "file pattern nodes 0",
        _set_in(FILE, "pattern", "nodes", 0),
        8,
        "file record's 'pattern': 'nodes' must be between 1 and 4",
    ),
    (
        "stride_min > stride_max",
        _pattern(stride_min=9, stride_max=1),
        8,
        "'stride_min' (9) must not exceed 'stride_max' (1)",
    ),
    ("meta rank 4", _set(META, "rank", 4), 10, "'rank' must be between 0 and 3 (the job's last"),
    ("meta calls 0", _set(META, "calls", 0), 10, "meta record: 'calls' must be at least 1"),
    ("meta result -1", _set(META, "result", -1), 10, "'result' must be at least 0, got -1"),
    ("end rows -1", _set(END, "rows", -1), 12, "end record: 'rows' must be at least 0"),
    ("end warnings NUL", _set(END, "warnings", ["\x00"]), 12, "'warnings' must be a list of"),
    ("no_entry group 99", _add_no_entry(group=99), 12, "'group' must be between 1 and 56"),
    ("no_entry op", _add_no_entry(op="both"), 12, "'op' must be 'read' or 'write', got \"both\""),
    ("no_entry nprocs 0", _add_no_entry(nprocs=0), 12, "'nprocs' must be between 1 and 4"),
]
"""One case per rule of the format beyond the types (and a few of the types)."""


@pytest.mark.parametrize(
    ("edit", "line", "message"),
    [pytest.param(*case[1:], id=case[0]) for case in REPORTED + RULES],
)
def test_a_hostile_log_is_one_error_with_file_line_and_expectation(
    tmp_path: Path, sample_log: Path, edit: Edit, line: int, message: str
) -> None:
    path = _edited(tmp_path, sample_log, edit)
    with pytest.raises(TraceLogError) as info:
        read_tracelog(path)
    assert str(info.value).startswith(f"{path} line {line}: ")
    assert message in str(info.value)


@pytest.mark.parametrize(
    ("lines", "line", "message"),
    [
        pytest.param(["{"], 1, "not valid JSON (", id="cut JSON"),
        pytest.param(
            ['{"record": "job", "nprocs": 1' + "0" * 5000 + "}"],
            1,
            "not valid JSON (",
            id="5000 digits",
        ),
        pytest.param(["[" * 100_000], 1, "not valid JSON (expected at most", id="deep nesting"),
        pytest.param(["", "{}"], 1, "not valid JSON (", id="empty first line"),
        pytest.param(
            ['{"record": "job"} {"record": "job"}'], 1, "not valid JSON (", id="two on a line"
        ),
        pytest.param(["\ufeff{}"], 1, "not valid JSON (", id="byte order mark"),
    ],
)
def test_lines_that_are_no_record(
    tmp_path: Path, lines: list[str], line: int, message: str
) -> None:
    path = _write_lines(tmp_path, lines)
    with pytest.raises(TraceLogError) as info:
        read_tracelog(path)
    assert str(info.value).startswith(f"{path} line {line}: ")
    assert message in str(info.value)


def test_a_line_that_is_not_utf8(tmp_path: Path, sample_log: Path) -> None:
    path = tmp_path / "bytes.iotrace.jsonl"
    text = sample_log.read_bytes().split(b"\n")
    text[4] = text[4].replace(b"out.dat", b"out\xff.dat")
    path.write_bytes(b"\n".join(text))
    with pytest.raises(
        TraceLogError, match=rf"^{path} line 5: expected UTF-8 text, got byte b'\\xff'"
    ):
        read_tracelog(path)


def test_nan_in_the_text_of_a_row(tmp_path: Path, sample_log: Path) -> None:
    lines = sample_log.read_text().splitlines()
    lines[OP] = lines[OP].replace('"duration": 0.05', '"duration": NaN')
    path = _write_lines(tmp_path, lines)
    with pytest.raises(
        TraceLogError, match="line 4: op record: 'duration' must be a finite number"
    ):
        read_tracelog(path)


def test_what_is_no_regular_file_is_refused_up_front(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.iotrace.jsonl"
    os.mkfifo(fifo)
    outcome: list[BaseException | None] = []

    def read() -> None:
        try:
            read_tracelog(fifo)
            outcome.append(None)
        except BaseException as exc:
            outcome.append(exc)

    # On main, opening the FIFO waited for a writer forever: the test gives it 10 s, then
    # plays the writer to let it go.
    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(timeout=10)
    hung = reader.is_alive()
    if hung:
        os.close(os.open(fifo, os.O_WRONLY))
        reader.join(timeout=10)
    assert not hung, "reading a FIFO waited for a writer"
    assert isinstance(outcome[0], TraceLogError)
    assert re.search(r"cannot read .*pipe.iotrace.jsonl: a FIFO", str(outcome[0]))
    with pytest.raises(TraceLogError, match="a directory, not a regular file"):
        read_tracelog(tmp_path)


def test_a_log_over_the_size_limit_is_refused_up_front(
    tmp_path: Path, sample_log: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tracelog._reading, "TRACE_LOG_MAX_BYTES", 100)
    with pytest.raises(TraceLogError, match=r"larger than the 100 bytes read for a trace log"):
        read_tracelog(sample_log)


def test_a_stride_of_zero_with_gaps_divides_nothing_by_zero(
    tmp_path: Path, sample_log: Path
) -> None:
    """Gaps > 0 with a stride of 0 (no log of the interposer's, but in range) divided by
    zero on main; now the stride is no spacing and the layout what the rest says."""
    path = _edited(tmp_path, sample_log, _pattern(gap_min=4, gap_max=4, stride_min=0, stride_max=0))
    workload = read_tracelog(path).workload_of(0)
    assert workload.layout == "contiguous"


# ------------------------------------------------------------------ every command reading logs


def _commands(log: Path, tmp_path: Path) -> dict[str, list[str]]:
    db = str(tmp_path / "kb.sqlite")
    return {
        "ingest": ["ingest", "--db", db, str(log)],
        "show": ["show", str(log)],
        "log2csv": ["log2csv", str(log)],
        "advise": ["advise", "--db", db, str(log)],
        "report": ["report", "--logs", str(log), "-o", str(tmp_path / "report.html")],
        "table derive": [
            "table",
            "derive",
            "-o",
            str(tmp_path / "t.jsonl"),
            str(tmp_path / "t0.jsonl"),
            str(log),
        ],
    }


@pytest.mark.parametrize("case", [pytest.param(c, id=c[0]) for c in REPORTED[:3]])
@pytest.mark.parametrize(
    "command", ["ingest", "show", "log2csv", "advise", "report", "table derive"]
)
def test_no_command_gives_a_traceback_on_a_hostile_log(
    tmp_path: Path,
    sample_log: Path,
    capsys: pytest.CaptureFixture[str],
    case: tuple[str, Edit, int, str],
    command: str,
) -> None:
    _, edit, line, _ = case
    path = _edited(tmp_path, sample_log, edit)
    (tmp_path / "t0.jsonl").write_text('{"format": "iotuner-table", "version": 1}\n')
    status = main(_commands(path, tmp_path)[command])
    err = capsys.readouterr().err
    assert status != 0
    assert "Traceback" not in err
    assert f"line {line}:" in " ".join(err.split())


# ------------------------------------------------------------------ a large log


def _large_log(tmp_path: Path, sample_log: Path, rows: int) -> Path:
    """The sample log with `rows` collective writes in its first open, stamped apart."""
    records = _records(sample_log)
    op = records[OP]
    lines = [json.dumps(r) for r in records[:OP]]
    for i in range(rows):
        lines.append(json.dumps({**op, "time_stamp": 0.02 + i * 1e-6}))
    lines += [json.dumps(r) for r in records[OP + 4 :]]
    return _write_lines(tmp_path, lines)


def test_a_large_log_is_read_in_memory_for_its_rows_not_its_text(
    tmp_path: Path, sample_log: Path
) -> None:
    """Its op rows are kept as columns: on main, as one dict each (and the whole text at
    once), a row took some 2,000 bytes; now under 300."""
    rows = 20_000
    path = _large_log(tmp_path, sample_log, rows)
    tracemalloc.start()
    try:
        log = read_tracelog(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(log.ops) == rows
    assert peak / rows < 300, f"{peak / rows:.0f} bytes per row"


def test_the_rows_of_a_large_log_read_back_as_written(tmp_path: Path, sample_log: Path) -> None:
    path = _large_log(tmp_path, sample_log, 500)
    # The sample is a log from before the access shape's columns: they read as -1.
    unknown = {f.name: -1 for f in op_fields() if f.optional}
    written = [{**unknown, **json.loads(line)} for line in path.read_text().splitlines()[3:503]]
    log = read_tracelog(path)
    assert list(log.ops) == written
    assert log.ops[7] == written[7] and log.ops[-1] == written[-1]
    assert log.ops[1:3] == written[1:3]
    assert log.op_lines[:2] == [4, 5]
    # Every row of the one open: 500 collective calls of 4 ranks, one workload.
    assert {log.workload_of(i).calls_per_open for i in range(500)} == {500}
    workload = dominant_workload([log])
    assert workload is not None and workload.calls_per_open == 500


def test_op_rows_have_the_added_columns_in_the_order_they_came(
    tmp_path: Path, sample_log: Path
) -> None:
    """The sample log is from before the access shape's columns (they read as -1). A row of
    the writer that added them but not yet duration_error reads, that one as -1; a row
    with a later column but not an earlier one is no log iotuner wrote, and says which it
    lacks."""
    added = {f.name: 1 for f in op_fields() if f.optional}
    whole = _edited(tmp_path, sample_log, _replace(OP, {**_records(sample_log)[OP], **added}))
    assert read_tracelog(whole).ops[0]["file_piece"] == 1
    shape_only = {k: v for k, v in added.items() if k != "duration_error"}
    earlier = _edited(
        tmp_path, sample_log, _replace(OP, {**_records(sample_log)[OP], **shape_only})
    )
    row = read_tracelog(earlier).ops[0]
    assert row["file_piece"] == 1 and row["duration_error"] == -1
    partial = dict(added)
    del partial["mem_piece"]
    path = _edited(tmp_path, sample_log, _replace(OP, {**_records(sample_log)[OP], **partial}))
    with pytest.raises(TraceLogError, match=r"in the order they were added .* without 'mem_piece'"):
        read_tracelog(path)
