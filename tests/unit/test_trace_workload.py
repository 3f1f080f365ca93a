"""TraceLog.workload_of on logs written here: the file record's pattern (its keys checked
like a record's), interleaving and volume from the offsets of each rank's first two
accesses, files opened one per rank, striping on lustre, and logs from before those keys.

The interposer's own logs of these shapes are checked in
tests/integration/test_trace_workload.py; these cover what a two-rank run on one host
cannot produce (many one-rank files at once, a lustre driver, disagreeing ranks).
"""

import json
from pathlib import Path
from typing import Any

import pytest

from iotuner.errors import TraceLogError
from iotuner.measurement import Workload
from iotuner.tracelog import read_tracelog

JOB = {
    "record": "job",
    "format": "iotuner-trace",
    "version": 1,
    "program": "app",
    "nprocs": 4,
    "nodes": 2,
    "ranks_per_node": 2,
    "mode": "trace",
    "table": "",
    "policy": "table",
    "host": "node01",
    "mpi_library": "MPICH",
    "start_time": 1.0,
    "job_tag": "",
}


def _pattern(**keys: Any) -> dict[str, Any]:
    """A pattern as the interposer writes it: 4 ranks writing 4 KiB calls."""
    return {
        "nodes": 2,
        "ranks_per_node": 2,
        "ranks_with_io": 4,
        "burst_bytes": 4096,
        "first_offset": 0,
        "first_offset_max": 12288,
        "stride_min": None,
        "stride_max": None,
        "gap_min": None,
        "gap_max": None,
        "view_block": None,
        "view_extent": None,
        "contiguous": True,
        **keys,
    }


def _file(name: str = "data", nprocs: int = 4, at: float = 0.0, **keys: Any) -> dict[str, Any]:
    return {
        "record": "file",
        "file": name,
        "nprocs": nprocs,
        "opened_at": at,
        "closed_at": at + 1.0,
        "bytes_read": 0,
        "bytes_written": 4 * 8 * 4096,
        "pattern": _pattern(),
        "reduced": True,
        "complete": True,
        **keys,
    }


def _op(name: str = "data", at: float = 0.5, ranks: int = 4, hint_set: int = -1) -> dict[str, Any]:
    """Eight independent 4 KiB writes of each rank, summed in one row."""
    return {
        "record": "op",
        "group": 13,
        "time_stamp": at,
        "operation": "MPI_File_write_at",
        "bytes": ranks * 8 * 4096,
        "duration": 0.01,
        "bandwidth": 1.0,
        "file": name,
        "pattern": "independent",
        "kind": "write",
        "calls": ranks * 8,
        "ranks": ranks,
        "bytes_per_rank": 4096,
        "summary": 1,
        "hint_set": hint_set,
    }


def _log(tmp_path: Path, *records: dict[str, Any]) -> Path:
    end = {"record": "end", "rows": len(records), "dropped_rows": 0, "warnings": []}
    path = tmp_path / "app-20250101-120000-1.iotrace.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in [JOB, *records, end]))
    return path


def _workload(tmp_path: Path, *records: dict[str, Any]) -> Workload:
    return read_tracelog(_log(tmp_path, *records)).workload_of(0)


# ------------------------------------------------------------------ interleaving


def test_ranks_taking_turns_are_interleaved(tmp_path: Path) -> None:
    """4 ranks writing 4 KiB each in turn: each rank's next call is 16 KiB on. Together
    they tile the file: contiguous, as iokernel's contiguous layout with --repeat."""
    pattern = _pattern(stride_min=16384, stride_max=16384, gap_min=12288, gap_max=12288)
    workload = _workload(tmp_path, _op(), _file(pattern=pattern))
    assert (workload.layout, workload.block, workload.fill) == ("contiguous", 0, 1.0)
    assert workload.interleaved is True
    assert (workload.bytes_per_rank, workload.calls_per_open) == (4096, 8)
    assert (workload.nprocs, workload.files, workload.program) == (4, 1, "app")
    assert (workload.nodes, workload.ranks_per_node) == (2, 2)


def test_spaced_calls_with_holes_cover_part_of_the_file(tmp_path: Path) -> None:
    """Ranks in turn, but every rank's next call 32 KiB on: the blocks cover half the file
    (iokernel's strided layout with --fill 0.5)."""
    pattern = _pattern(stride_min=32768, stride_max=32768, gap_min=28672, gap_max=28672)
    workload = _workload(tmp_path, _op(), _file(pattern=pattern))
    assert (workload.layout, workload.block, workload.fill) == ("strided", 4096, 0.5)
    assert workload.interleaved is True


def test_one_rank_skipping_bytes_is_strided_alone(tmp_path: Path) -> None:
    pattern = _pattern(ranks_with_io=1, stride_min=8192, stride_max=8192, gap_min=4096)
    pattern["gap_max"] = 4096
    workload = _workload(tmp_path, _op(ranks=1), _file(pattern=pattern))
    assert (workload.layout, workload.block, workload.fill) == ("strided", 4096, 0.5)
    assert workload.interleaved is False


def test_ranks_going_on_where_they_left_off_are_contiguous(tmp_path: Path) -> None:
    pattern = _pattern(
        first_offset_max=3 * 32768, stride_min=4096, stride_max=4096, gap_min=0, gap_max=0
    )
    workload = _workload(tmp_path, _op(), _file(pattern=pattern))
    assert (workload.layout, workload.block, workload.fill) == ("contiguous", 0, 1.0)
    assert workload.interleaved is False


@pytest.mark.parametrize(
    ("first_offset_max", "interleaved"),
    [(3 * 32768, False), (12288, None)],
    ids=["regions-side-by-side", "not-one-volume-apart"],
)
def test_one_access_per_rank(
    tmp_path: Path, first_offset_max: int, interleaved: bool | None
) -> None:
    """No rank made two accesses: regions one rank's volume apart are disjoint blocks;
    anything else is not known."""
    pattern = _pattern(first_offset_max=first_offset_max)
    workload = _workload(tmp_path, _op(), _file(pattern=pattern))
    assert workload.layout == "contiguous"
    assert workload.interleaved is interleaved


def test_ranks_that_disagree_leave_interleaving_unknown(tmp_path: Path) -> None:
    pattern = _pattern(stride_min=4096, stride_max=16384, gap_min=0, gap_max=12288)
    workload = _workload(tmp_path, _op(), _file(pattern=pattern))
    assert (workload.layout, workload.interleaved) == ("contiguous", None)


def test_a_view_with_holes_shared_by_ranks_is_interleaved(tmp_path: Path) -> None:
    """A view whose data is in several pieces (a subarray) says only that it has holes."""
    workload = _workload(tmp_path, _op(), _file(pattern=_pattern(contiguous=False)))
    assert (workload.layout, workload.block, workload.fill) == ("strided", 0, 1.0)
    assert workload.interleaved is True


def test_a_view_of_one_block_gives_block_and_fill(tmp_path: Path) -> None:
    """4 ranks, each a 4 KiB block resized to 64 KiB: the blocks cover a quarter."""
    pattern = _pattern(contiguous=False, view_block=4096, view_extent=65536)
    workload = _workload(tmp_path, _op(), _file(pattern=pattern))
    assert (workload.layout, workload.block, workload.fill) == ("strided", 4096, 0.25)


# ------------------------------------------------------------------ files


def test_one_file_per_rank_opened_at_once(tmp_path: Path) -> None:
    """Four one-rank opens of four files at the same time: four ranks, four files."""
    alone = _pattern(ranks_with_io=1, first_offset_max=0, stride_min=4096, stride_max=4096)
    alone.update(gap_min=0, gap_max=0)
    files = [_file(f"part.{r}", nprocs=1, at=0.01 * r, pattern=alone) for r in range(4)]
    log = read_tracelog(_log(tmp_path, _op("part.0", ranks=1), *files))
    workload = log.workload_of(0)
    assert (workload.nprocs, workload.files, workload.nodes) == (4, 4, 2)
    assert workload.ranks_per_node == 2 and workload.interleaved is False


def test_one_file_opened_by_every_rank_alone(tmp_path: Path) -> None:
    files = [_file("shared", nprocs=1, at=0.01 * r) for r in range(4)]
    workload = _workload(tmp_path, _op("shared", ranks=1), *files)
    assert (workload.nprocs, workload.files) == (4, 1)


def test_one_rank_files_one_after_the_other(tmp_path: Path) -> None:
    files = [_file(f"step.{s}", nprocs=1, at=2.0 * s) for s in range(3)]
    workload = _workload(tmp_path, _op("step.1", at=2.5, ranks=1), *files)
    assert (workload.nprocs, workload.files, workload.nodes, workload.ranks_per_node) == (
        1,
        1,
        1,
        1,
    )


# ------------------------------------------------------------------ striping


def _hints(driver: str) -> dict[str, Any]:
    effective = {"striping_factor": "8", "striping_unit": "1048576", "cb_nodes": "2"}
    return {
        "record": "hints",
        "file": "data",
        "seq": 0,
        "at": "open",
        "time_stamp": 0.0,
        "requested": {},
        "table": {},
        "app": {},
        "effective": effective,
        "driver": driver,
        "unhonoured": [],
    }


@pytest.mark.parametrize(("driver", "striping"), [("lustre", (8, 1048576)), ("ufs", (None, None))])
def test_striping_from_the_hints_mpi_reported_on_lustre(
    tmp_path: Path, driver: str, striping: tuple[int | None, int | None]
) -> None:
    workload = _workload(tmp_path, _op(hint_set=0), _hints(driver), _file())
    assert (workload.stripe_count, workload.stripe_size) == striping


# ------------------------------------------------------------------ the pattern's keys


def test_a_log_from_before_the_offsets_reads_with_unknowns(sample_log: Path) -> None:
    log = read_tracelog(sample_log)
    assert "gap_min" not in log.files[0]["pattern"]
    workload = log.workload_of(0)
    assert (workload.layout, workload.block, workload.fill) == ("contiguous", 0, 1.0)
    assert workload.interleaved is None
    assert (workload.files, workload.program, workload.ranks_per_node) == (1, "ior", 2)
    assert workload.stripe_count is None  # the ufs driver does not stripe


@pytest.mark.parametrize(
    ("pattern", "message"),
    [
        ({**_pattern(), "colour": "red"}, "'pattern': unknown key(s) 'colour'"),
        ({k: v for k, v in _pattern().items() if k != "burst_bytes"}, "'burst_bytes' is missing"),
        (_pattern(gap_min="0"), "'gap_min' must be an integer or null, got \"0\""),
        (_pattern(contiguous=1), "'contiguous' must be true or false, got 1"),
    ],
)
def test_a_bad_pattern_is_refused_with_its_line(
    tmp_path: Path, pattern: dict[str, Any], message: str
) -> None:
    path = _log(tmp_path, _op(), _file(pattern=pattern))
    with pytest.raises(TraceLogError) as info:
        read_tracelog(path)
    assert str(info.value).startswith(f"{path} line 3: file record's 'pattern': ")
    assert message in str(info.value)
