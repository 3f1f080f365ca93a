"""advise's rules on their own: which command lines of a Darshan log run here
(iotuner.program_command) and which workloads a training frame covers (iotuner.coverage).
The end-to-end checks, with real logs and runs, are tests/integration/test_advise_coverage.py."""

import os
import sys
from pathlib import Path

import pandas as pd
import pytest

from iotuner.coverage import SCALE_FACTOR, Coverage
from iotuner.measurement import System, Workload
from iotuner.program_command import from_darshan_exe, from_trace_program


@pytest.mark.parametrize(
    ("exe", "words"),
    [
        ("", "no command line"),
        ("   ", "no command line"),
        ("160345792", "anonymised (the number 160345792"),
        ("/bin/sh -c true <unknown args>", "<unknown args>"),
        ("/bin/sh " + "x " * 10 + "<TRUNCATED>", "<TRUNCATED>"),
        ("/no/such/program --in a.cfg", "not on this machine"),
        ("no-such-program-on-path --in a.cfg", "not on this machine"),
    ],
)
def test_a_command_line_that_cannot_run_is_none(exe: str, words: str) -> None:
    command = from_darshan_exe(exe)
    assert command.argv == ()
    assert words in command.words


def test_a_command_line_that_runs_keeps_its_path_and_arguments(tmp_path: Path) -> None:
    assert from_darshan_exe(f"{sys.executable} train.py --epochs 3").argv == (
        sys.executable,
        "train.py",
        "--epochs",
        "3",
    )
    assert from_darshan_exe(f"{sys.executable} train.py").python
    assert from_darshan_exe("sh -c true").argv == ("sh", "-c", "true")  # found on PATH
    # A relative path is resolved against the directory advise runs in.
    program = tmp_path / "app"
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        assert from_darshan_exe("./app in.cfg").argv == (str(program), "in.cfg")
    finally:
        os.chdir(cwd)


def test_a_trace_names_no_command() -> None:
    command = from_trace_program("iokernel")
    assert command.argv == () and "name (iokernel)" in command.words


def frame(scales: list[int], sizes: list[int]) -> pd.DataFrame:
    rows = [
        {"nprocs": n, "bytes_per_rank": b, "pattern": "collective", "op": "write",
         "layout": "contiguous"}
        for n in scales
        for b in sizes
    ]  # fmt: skip
    return pd.DataFrame(rows)


def workload(nprocs: int, size: int, op: str = "write") -> Workload:
    return Workload(nprocs=nprocs, nodes=1, pattern="collective", op=op, layout="contiguous",
                    bytes_per_rank=size)  # fmt: skip


SYSTEM = System("vm", "MPICH", "ext4", "ufs", "/")


def test_coverage_of_scale_system_size_and_access() -> None:
    coverage = Coverage.of(frame([1, 2, 16], [65536, 524288]), SYSTEM)
    assert coverage.gap(workload(2, 524288), "ext4", None) is None
    assert coverage.gap(workload(4, 524288), "ext4", "vm.example.org") is None  # 2x from 2
    # Inside the range but more than SCALE_FACTOR from any trained scale: 5 ranks, 2.5x
    # from 2 and 3.2x from 16.
    assert SCALE_FACTOR < 2.5
    between = coverage.gap(workload(5, 524288), "ext4", None) or ""
    assert "it ran 5 ranks, more than 2x from the nearest trained scale (2)" in between
    gap = coverage.gap(workload(512, 524288), "lustre", None)
    assert gap is not None
    assert gap.startswith(
        "not covered by the knowledge base (trained at 1, 2 and 16 ranks on ext4 "
    )
    assert "its files are on lustre" in gap and "it ran 512 ranks, outside" in gap
    assert "does not tell the file system" in (coverage.gap(workload(2, 524288), "unknown",
                                                            None) or "")  # fmt: skip
    assert "host other" in (coverage.gap(workload(2, 524288), "ext4", "other") or "")
    assert "collective reads (contiguous), never measured" in (
        coverage.gap(workload(2, 524288, op="read"), "ext4", None) or ""
    )
    # Collective sizes: up to tune's EXTRAPOLATE_FACTOR beyond the trained ones, not further.
    assert coverage.gap(workload(2, 2 * 524288), "ext4", None) is None
    assert "128 MiB per call" in (coverage.gap(workload(2, 128 << 20), "ext4", None) or "")
