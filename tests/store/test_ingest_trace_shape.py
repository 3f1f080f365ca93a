"""A traced run's shape reaches the knowledge base: 4 KiB calls of two real ranks taking
turns are stored as interleaved, with their calls per open, the program and the
ranks per node; a log from before the trace recorded offsets keeps interleaving unknown."""

import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from iotuner.ingest import ingest_trace
from iotuner.runner import build_config, find_program
from iotuner.store import Store

from .conftest import SAMPLE_LOG

CALLS = 8


@pytest.fixture(scope="module", params=["summed", "call-rows"])
def interleaved_log(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Path, bool]:
    """iokernel on 2 ranks: repetition p of rank w writes 4 KiB at (p * 2 + w) * 4096; its
    collective calls summed (the default: True) or a row each (run --call-rows)."""
    work = tmp_path_factory.mktemp("interleaved-log")
    iotuner = Path(sys.executable).parent / "iotuner"
    launch = [build_config().mpiexec, "-n", "2", str(find_program("iokernel"))]
    kernel_args = ["--file", str(work / "F"), "--size", "4k", "--repeat", str(CALLS)]
    rows = ["--call-rows"] if request.param == "call-rows" else []
    command = [str(iotuner), "run", *rows, "--log-dir", str(work / "logs"), "--"]
    done = subprocess.run(
        [*command, *launch, *kernel_args], capture_output=True, text=True, timeout=180, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    (log,) = (work / "logs").glob("*.iotrace.jsonl")
    return log, not rows


def test_an_interleaved_run_is_stored_as_such(
    store: Store, interleaved_log: tuple[Path, bool]
) -> None:
    log, summed = interleaved_log
    assert ingest_trace(store, log).added == (1 if summed else CALLS)
    frame = store.measurements()
    assert set(frame["layout"]) == {"contiguous"}  # as a bench row of the run says it
    assert set(frame["block"]) == {0} and set(frame["fill"]) == {1.0}
    assert frame["interleaved"].astype(bool).all()
    assert set(frame["calls_per_open"]) == {CALLS} and set(frame["bytes_per_rank"]) == {4096}
    assert set(frame["files"]) == {1} and set(frame["ranks_per_node"]) == {2}
    assert set(frame["program"]) == {"iokernel"}


def test_an_old_log_keeps_interleaving_unknown(store: Store) -> None:
    ingest_trace(store, SAMPLE_LOG)
    frame = store.measurements()
    assert frame["interleaved"].map(pd.isna).all()
    assert set(frame["program"]) == {"ior"} and set(frame["files"]) == {1}
