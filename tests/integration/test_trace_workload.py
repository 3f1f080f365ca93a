"""A traced run's workload is the one the program ran: two real ranks under the real
interposer write 4 KiB calls either in turn (each rank's calls spaced apart by the other
rank's data) or each in its own region, and the trace tells the two apart, with the volume
(calls per open) of each; with holes in the file (a view, or calls spaced further) it is
strided with iokernel's block and fill.

iokernel's contiguous layout with --repeat R and --size 4k makes exactly the interleaved
case without a file view: repetition p of rank w writes 4 KiB at (p * nprocs + w) * 4096,
with explicit offsets. --calls C cuts one region per rank into C calls instead.
"""

from pathlib import Path

import pytest

from iotuner.cli import main
from iotuner.tracelog import TraceLog

from .conftest import Mpi, one_log

CALLS = 8
BLOCK = 4096


def _kernel(mpi: Mpi, path: Path, pattern: str, *args: str) -> TraceLog:
    return one_log(mpi.run(2, "iokernel", "--file", str(path), "--pattern", pattern, *args))


def _data_rows(log: TraceLog) -> list[int]:
    return [i for i, op in enumerate(log.ops) if op["kind"] == "write"]


@pytest.mark.parametrize("pattern", ["independent", "collective"])
def test_blocks_in_turn_between_ranks_are_interleaved(
    mpi: Mpi, tmp_path: Path, pattern: str
) -> None:
    log = _kernel(mpi, tmp_path / "data", pattern, "--size", "4k", "--repeat", str(CALLS))
    (record,) = log.files
    assert record["bytes_written"] == 2 * CALLS * BLOCK
    shape = record["pattern"]
    assert (shape["stride_min"], shape["stride_max"]) == (2 * BLOCK, 2 * BLOCK)
    assert (shape["gap_min"], shape["gap_max"]) == (BLOCK, BLOCK)
    assert (shape["first_offset"], shape["first_offset_max"]) == (0, BLOCK)
    rows = _data_rows(log)
    assert rows
    for index in rows:
        workload = log.workload_of(index)
        assert workload.interleaved is True
        # Each call is one piece and the ranks' calls tile the file: iokernel's contiguous
        # layout, as a bench row of this very run says it.
        assert (workload.layout, workload.block, workload.fill) == ("contiguous", 0, 1.0)
        assert (workload.bytes_per_rank, workload.calls_per_open) == (BLOCK, CALLS)
        assert workload.bytes_per_rank * workload.calls_per_open * 2 == record["bytes_written"]
        assert (workload.nprocs, workload.files, workload.ranks_per_node) == (2, 1, 2)
        assert workload.program == "iokernel"


@pytest.mark.parametrize("pattern", ["independent", "collective"])
def test_each_rank_in_its_own_region_is_contiguous(mpi: Mpi, tmp_path: Path, pattern: str) -> None:
    volume = CALLS * BLOCK
    log = _kernel(mpi, tmp_path / "data", pattern, "--size", str(volume), "--calls", str(CALLS))
    (record,) = log.files
    shape = record["pattern"]
    assert (shape["gap_min"], shape["gap_max"]) == (0, 0)
    assert (shape["first_offset"], shape["first_offset_max"]) == (0, volume)
    for index in _data_rows(log):
        workload = log.workload_of(index)
        assert workload.layout == "contiguous" and workload.interleaved is False
        assert (workload.block, workload.fill) == (0, 1.0)
        assert (workload.bytes_per_rank, workload.calls_per_open) == (BLOCK, CALLS)


def test_one_call_per_rank_side_by_side_is_not_interleaved(mpi: Mpi, tmp_path: Path) -> None:
    log = _kernel(mpi, tmp_path / "data", "collective", "--size", "64k")
    shape = log.files[0]["pattern"]
    assert shape["stride_min"] is None and shape["gap_max"] is None
    workload = log.workload_of(_data_rows(log)[0])
    assert (workload.layout, workload.interleaved, workload.calls_per_open) == (
        "contiguous",
        False,
        1,
    )


@pytest.mark.parametrize("calls", ["1", "8"])
def test_the_kernels_strided_layout_reads_back_as_bench_describes_it(
    mpi: Mpi, tmp_path: Path, calls: str
) -> None:
    """iokernel --layout strided (a view: one block resized to its period): the trace finds
    the --block and --fill the kernel was given, as bench rows of that run say them, from
    the view alone (one call of 8 blocks) or also from the offsets (8 calls of one)."""
    log = _kernel(
        mpi,
        tmp_path / "data",
        "collective",
        *("--layout", "strided", "--block", "4k", "--fill", "0.5"),
        *("--size", "32k", "--calls", calls),
    )
    shape = log.files[0]["pattern"]
    assert (shape["view_block"], shape["view_extent"]) == (BLOCK, 2 * 2 * BLOCK)
    workload = log.workload_of(_data_rows(log)[0])
    assert (workload.layout, workload.block, workload.fill) == ("strided", BLOCK, 0.5)
    assert workload.interleaved is True and workload.calls_per_open == int(calls)


def test_show_prints_a_new_trace(
    mpi: Mpi, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    result = mpi.run(
        2, "iokernel", "--file", str(tmp_path / "data"), "--size", "4k", "--repeat", "4"
    )
    assert main(["show", str(result.logs[0])]) == 0
    out = capsys.readouterr().out
    assert "MPI_File_write_at_all" in out and "gap_min=4096" in out


def test_a_relative_file_name_lands_on_the_system_of_the_working_directory(
    mpi: Mpi, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The trace keeps the name the program gave (out.dat); the job's working directory
    (`cwd` in the job record) places it, so its measurements join the bench runs of the
    same file system instead of a system of unknown file system."""
    from iotuner.measurement import System
    from iotuner.store import open_store

    monkeypatch.chdir(tmp_path)
    log = _kernel(mpi, Path("out.dat"), "collective", "--size", "64k")
    assert log.job["cwd"] == str(tmp_path)
    assert log.ops[0]["file"] == "out.dat"
    with open_store(tmp_path / "kb.sqlite") as store:
        from iotuner.ingest import ingest_trace

        ingest_trace(store, log.path)
        (system,) = store.systems()
    assert system.fs_type == System.detect(tmp_path, "", "").fs_type != "unknown"
