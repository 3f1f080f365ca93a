"""Sampled rows stay estimates on a busy machine (issue 42).

A summed row of short calls times one call in 8 and estimates the rest from them
(formats/README.md). On a busy machine one preempted call of milliseconds among calls of
microseconds, standing for 8, moved a row to 0.29x-3.0x the program's own timing of the
same loop (every call timed: 0.99-1.03x). Now an outlier ends the sampling (it counts
once and every later call is timed), and the row carries its estimate's error bound. With
CPU hogs on every core beside the program, the row's time stays within 10 % of the
program's own timing of its data calls, run after run.
"""

import re
from pathlib import Path

from .conftest import Mpi, one_log

CALLS = 20_000


def _own_data_seconds(stdout: str) -> float:
    """iokernel's data_s: the slowest rank's time in its data calls."""
    found = re.search(r"\bdata_s=([0-9.]+)", stdout)
    assert found, stdout
    return float(found.group(1))


def test_a_sampled_row_stays_within_10_percent_of_the_program_s_own_timing_under_load(
    mpi: Mpi, tmp_path: Path, hogs: None
) -> None:
    kernel = ["--size", str(CALLS * 512), "--calls", str(CALLS), "--pattern", "independent"]
    kernel += ["--op", "write", "--no-sync"]
    ratios = []
    for run in range(3):
        result = mpi.run(
            2, "iokernel", "--file", str(tmp_path / f"data{run}"), *kernel,
            log_dir=tmp_path / f"logs{run}",
        )  # fmt: skip
        (row,) = [op for op in one_log(result).ops if op["operation"] == "MPI_File_write_at"]
        assert row["calls"] == 2 * CALLS
        own = _own_data_seconds(result.stdout)
        ratios.append(row["duration"] / own)
        if row["summary"] == 2:
            assert 0 <= row["duration_error"] < row["duration"]
        else:
            assert row["duration_error"] == 0
    assert all(0.9 <= r <= 1.1 for r in ratios), ratios
