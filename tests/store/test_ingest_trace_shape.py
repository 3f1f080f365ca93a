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


@pytest.fixture(scope="module")
def interleaved_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """iokernel on 2 ranks: repetition p of rank w writes 4 KiB at (p * 2 + w) * 4096."""
    work = tmp_path_factory.mktemp("interleaved-log")
    iotuner = Path(sys.executable).parent / "iotuner"
    launch = [build_config().mpiexec, "-n", "2", str(find_program("iokernel"))]
    kernel_args = ["--file", str(work / "F"), "--size", "4k", "--repeat", str(CALLS)]
    command = [str(iotuner), "run", "--log-dir", str(work / "logs"), "--", *launch, *kernel_args]
    done = subprocess.run(command, capture_output=True, text=True, timeout=180, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    (log,) = (work / "logs").glob("*.iotrace.jsonl")
    return log


def test_an_interleaved_run_is_stored_as_such(store: Store, interleaved_log: Path) -> None:
    assert ingest_trace(store, interleaved_log).added == CALLS
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
