"""A search over our MPI-IO kernel at 2 ranks, measured from its trace."""

from pathlib import Path

import numpy as np
import pandas as pd

from iotuner.measurement import Workload
from iotuner.runner import build_config, find_program
from iotuner.search import RunObjective, SearchSettings, run_search, winner_entry
from iotuner.space import parse_space
from iotuner.tracelog import read_tracelog

SPACE = """
name = "cb-write"
description = "collective buffering for writes: 3 configurations"

[hints.romio_cb_write]
values = ["automatic", "disable", "enable"]
default = "automatic"
"""


def test_grid_over_iokernel_at_two_ranks(tmp_path: Path) -> None:
    space = parse_space(SPACE, "test space")
    command = [
        build_config().mpiexec,
        "-n",
        "2",
        str(find_program("iokernel")),
        "--file",
        str(tmp_path / "data-{trial}.dat"),
        "--size",
        "64k",
        "--layout",
        "strided",
        "--block",
        "4k",
        "--fill",
        "0.5",
        "--delete",
    ]
    objective = RunObjective(command, space, log_dir=tmp_path / "logs", timeout=120)
    result = run_search(objective, SearchSettings("grid", repeats=1, top=1))
    assert len(result.trials) == 3
    assert all(t.value is not None and t.value > 0 for t in result.trials)
    assert (result.program, result.nprocs) == ("iokernel", 2)
    for trial in result.trials:
        (log,) = [read_tracelog(p) for p in trial.outcome.logs]
        requested = log.hints[0]["requested"]
        wanted = space.hints(trial.config)
        assert {k: v for k, v in requested.items() if k in wanted} == wanted
    # The best and the default, once each (one line when the default was the best).
    assert [r.is_default for r in result.remeasured].count(True) == 1
    assert all(len(r.values) == 1 for r in result.remeasured)
    assert result.winner is not None
    entry = winner_entry(result, result.program or "", result.nprocs or 0)
    assert (entry.program, entry.nprocs) == ("iokernel", 2)
    assert not list(tmp_path.glob("data-*.dat"))  # --delete: the kernel removed its files


class _PreferEnable:
    """A model that predicts romio_cb_write=enable best, and records what it was asked."""

    def __init__(self) -> None:
        self.frames: list[pd.DataFrame] = []

    def predict_interval(self, frame: pd.DataFrame) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        self.frames.append(frame)
        values = np.where(frame["cfg:romio_cb_write"] == "enable", 100.0, 10.0)
        return values, values, values


def test_model_strategy_reads_the_workload_from_the_default_run(tmp_path: Path) -> None:
    space = parse_space(SPACE, "test space")
    command = [
        build_config().mpiexec,
        "-n",
        "2",
        str(find_program("iokernel")),
        "--file",
        str(tmp_path / "data-{trial}.dat"),
        "--size",
        "64k",
        "--delete",
    ]
    objective = RunObjective(command, space, log_dir=tmp_path / "logs", timeout=120)
    predictor = _PreferEnable()
    settings = SearchSettings("model", budget=2, repeats=0, model_top_k=1)
    result = run_search(objective, settings, predictor=predictor)
    assert [t.config["romio_cb_write"] for t in result.trials] == ["automatic", "enable"]
    assert result.workload == Workload(2, 1, "collective", "write", "contiguous", 65536)
    assert (predictor.frames[0]["bytes_per_rank"] == 65536).all()
