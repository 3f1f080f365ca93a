"""iotuner.tracelog: a valid log is read whole; a broken one is refused with its line."""

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from iotuner.errors import TraceLogError
from iotuner.tracelog import dominant_workload, read_tracelog

Records = list[dict[str, Any]]


def test_reads_the_sample_log(sample_log: Path) -> None:
    log = read_tracelog(sample_log)
    assert log.job["program"] == "ior"
    assert log.job["nprocs"] == 4
    assert [h["seq"] for h in log.hints] == [0, 1]
    assert len(log.ops) == 4
    assert [f["file"] for f in log.files] == ["out.dat", "log.txt"]
    assert [m["operation"] for m in log.metas] == ["MPI_File_open", "MPI_File_close"]
    assert log.end is not None and log.end["rows"] == 4


def test_hints_for_an_op(sample_log: Path) -> None:
    log = read_tracelog(sample_log)
    found = [log.hints_for(op) for op in log.ops]
    assert [None if h is None else (h["file"], h["seq"]) for h in found] == [
        ("out.dat", 0),
        ("out.dat", 1),
        ("out.dat", 1),
        None,  # hint_set -1
    ]


def _write(tmp_path: Path, sample_log: Path, edit: Callable[[Records], Records]) -> Path:
    records = [json.loads(line) for line in sample_log.read_text().splitlines()]
    path = tmp_path / "broken.iotrace.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in edit(records)))
    return path


def _set(index: int, key: str, value: Any) -> Callable[[Records], Records]:
    def edit(records: Records) -> Records:
        records[index][key] = value
        return records

    return edit


def _drop_key(index: int, key: str) -> Callable[[Records], Records]:
    def edit(records: Records) -> Records:
        del records[index][key]
        return records

    return edit


@pytest.mark.parametrize(
    ("edit", "line", "message"),
    [
        (lambda r: r[1:], 1, "expected the 'job' record, got a 'hints' record"),
        (lambda r: [*r[:3], r[0], *r[3:]], 4, "expected one 'job' record, on line 1"),
        (_set(0, "format", "darshan"), 1, "expected format 'iotuner-trace' version 1"),
        (_set(0, "version", 2), 1, "got 'iotuner-trace' version 2"),
        (
            _set(3, "record", "row"),
            4,
            "'record' must be one of op, job, hints, file, meta, no_entry, end",
        ),
        (_drop_key(3, "record"), 4, "'record' must be one of"),
        (_drop_key(3, "bytes"), 4, "op record: 'bytes' is missing"),
        (_set(3, "bytes", "12"), 4, "op record: 'bytes' must be an integer, got \"12\""),
        (_set(3, "summary", False), 4, "op record: 'summary' must be an integer, got false"),
        (_set(3, "duration", None), 4, "'duration' must be an integer or a number, got null"),
        (_set(3, "colour", "red"), 4, "op record: unknown key(s) 'colour'"),
        (_drop_key(0, "mpi_library"), 1, "job record: 'mpi_library' is missing"),
        (_set(7, "reduced", 1), 8, "file record: 'reduced' must be true or false, got 1"),
        (_set(1, "unhonoured", ["cb_nodes"]), 2, "'unhonoured' items must be {\"key\""),
        (_set(1, "unhonoured", [{"key": "a", "reason": 1}]), 2, "'unhonoured' items must"),
        (_set(11, "warnings", [1]), 12, "end record: 'warnings' must be a list of strings"),
        (_set(2, "seq", 0), 3, "a second hints record for file 'out.dat' seq 0"),
        (_set(3, "hint_set", 7), 4, "hint_set 7 of file 'out.dat' names no hints record"),
        (_set(6, "hint_set", 0), 7, "hint_set 0 of file 'log.txt' names no hints record"),
        (lambda r: [*r, r[9]], 13, "nothing may follow the 'end' record"),
    ],
)
def test_a_broken_log_is_refused_with_file_line_and_expectation(
    tmp_path: Path,
    sample_log: Path,
    edit: Callable[[Records], Records],
    line: int,
    message: str,
) -> None:
    path = _write(tmp_path, sample_log, edit)
    with pytest.raises(TraceLogError) as info:
        read_tracelog(path)
    assert str(info.value).startswith(f"{path} line {line}: ")
    assert message in str(info.value)


def test_a_line_that_is_not_json(tmp_path: Path, sample_log: Path) -> None:
    path = tmp_path / "cut.iotrace.jsonl"
    path.write_text(sample_log.read_text()[:-20])
    with pytest.raises(TraceLogError, match=r"line 12: not valid JSON \("):
        read_tracelog(path)


def test_a_log_without_end_is_incomplete(tmp_path: Path, sample_log: Path) -> None:
    path = _write(tmp_path, sample_log, lambda r: r[:-1])
    with pytest.raises(TraceLogError, match="incomplete log, expected an 'end' record"):
        read_tracelog(path)
    log = read_tracelog(path, allow_incomplete=True)
    assert log.end is None
    assert len(log.ops) == 4


def test_an_empty_or_missing_log(tmp_path: Path) -> None:
    empty = tmp_path / "empty.iotrace.jsonl"
    empty.write_text("")
    with pytest.raises(TraceLogError, match="empty file, expected a 'job' record"):
        read_tracelog(empty)
    with pytest.raises(TraceLogError, match="cannot read"):
        read_tracelog(tmp_path / "absent.iotrace.jsonl")


# ---------------------------------------------------------------- the workload of each op


def test_each_op_knows_its_line_and_workload(sample_log: Path) -> None:
    log = read_tracelog(sample_log)
    assert log.op_lines == [4, 5, 6, 7]
    first = log.workload_of(0)
    # nprocs and nodes from the file's record; two collective writes of one size in one open.
    assert (first.nprocs, first.nodes, first.pattern, first.op, first.layout) == (
        4,
        2,
        "collective",
        "write",
        "contiguous",
    )
    assert first.bytes_per_rank == 1607876 and first.calls_per_open == 2
    # The independent read summed 4 calls by 4 ranks: one per rank.
    assert log.workload_of(2).calls_per_open == 1
    # log.txt was opened by one rank: the file's communicator, not the job's 4 ranks.
    assert log.workload_of(3).nprocs == 1 and log.workload_of(3).nodes == 1


def _op(time_stamp: float, calls: int = 2, pattern: str = "collective") -> dict[str, Any]:
    return {
        "record": "op",
        "group": 20,
        "time_stamp": time_stamp,
        "operation": "MPI_File_write_at_all",
        "bytes": 2048 * calls,
        "duration": 0.01,
        "bandwidth": 1.0,
        "file": "ckpt.dat",
        "pattern": pattern,
        "kind": "write",
        "calls": calls,
        "ranks": 2,
        "bytes_per_rank": 2048,
        "summary": 0,
        "hint_set": -1,
    }


def _file(opened_at: float, closed_at: float, contiguous: bool = True) -> dict[str, Any]:
    return {
        "record": "file",
        "file": "ckpt.dat",
        "nprocs": 2,
        "opened_at": opened_at,
        "closed_at": closed_at,
        "bytes_read": 0,
        "bytes_written": 8192,
        "pattern": {
            "nodes": 1,
            "ranks_per_node": 2,
            "ranks_with_io": 2,
            "burst_bytes": 2048,
            "first_offset": 0,
            "contiguous": contiguous,
        },
        "reduced": True,
        "complete": True,
    }


def test_a_file_opened_twice_counts_calls_per_open(tmp_path: Path, sample_log: Path) -> None:
    """Three collective writes in the first open, one in the second, and the second open's
    strided view: each row takes its figures from the open it falls into."""

    def edit(records: Records) -> Records:
        job, end = records[0], records[-1]
        job["nprocs"] = 2
        ops = [_op(0.1), _op(0.2), _op(0.3), _op(1.5)]
        files = [_file(1.0, 2.0, contiguous=False), _file(0.0, 0.9)]
        end["rows"] = len(ops) + len(files)
        return [job, *ops, *files, end]

    log = read_tracelog(_write(tmp_path, sample_log, edit))
    first, second = log.workload_of(0), log.workload_of(3)
    assert [log.workload_of(i).calls_per_open for i in range(4)] == [3, 3, 3, 1]
    assert first.layout == "contiguous" and second.layout == "strided"
    assert log.op_lines == [2, 3, 4, 5]


def test_one_rank_opening_a_name_twice_while_another_holds_it(
    tmp_path: Path, sample_log: Path
) -> None:
    """Was (test_odd_logs, now and then): rank 1 opened a name twice on MPI_COMM_SELF
    while rank 0 held its own open of it, so three single-rank opens overlapped rank 0's,
    its row's workload had 3 ranks in a 2-rank job, and ingest refused the whole log."""

    def one_rank(opened_at: float, closed_at: float) -> dict[str, Any]:
        return {**_file(opened_at, closed_at), "nprocs": 1}

    def edit(records: Records) -> Records:
        job, end = records[0], records[-1]
        job["nprocs"] = 2
        ops = [{**_op(0.15, calls=1, pattern="independent"), "ranks": 1}]
        files = [one_rank(0.1, 0.5), one_rank(0.2, 0.25), one_rank(0.3, 0.35)]
        end["rows"] = len(ops) + len(files)
        return [job, *ops, *files, end]

    workload = read_tracelog(_write(tmp_path, sample_log, edit)).workload_of(0)
    assert (workload.nprocs, workload.files) == (2, 1)


def test_an_op_that_is_no_workload_is_refused_with_its_line(
    tmp_path: Path, sample_log: Path
) -> None:
    log = read_tracelog(_write(tmp_path, sample_log, _set(3, "pattern", "sideways")))
    with pytest.raises(TraceLogError, match=r"line 4: not a workload iotuner knows: pattern"):
        log.workload_of(0)
    assert log.workload_of(1).pattern == "collective"  # the other rows are still read


def test_the_dominant_workload_of_a_run(sample_log: Path) -> None:
    log = read_tracelog(sample_log)
    workload = dominant_workload([log, log])
    assert workload is not None
    assert (workload.pattern, workload.op, workload.nprocs) == ("collective", "write", 4)
    assert workload.bytes_per_rank == 1607876 and workload.calls_per_open == 2
    empty = read_tracelog(sample_log)
    empty.ops.clear()
    assert dominant_workload([empty]) is None
