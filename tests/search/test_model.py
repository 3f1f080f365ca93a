"""The model strategy: the model's top configurations first, predicted-poor ones skipped."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from iotuner.measurement import Workload
from iotuner.search import (
    OfflineObjective,
    OfflineTable,
    SearchError,
    SearchSettings,
    parse_workload,
    run_search,
)
from iotuner.space import config_key

from .conftest import GRID_BEST

WORKLOAD = Workload(2, 1, "collective", "write", "contiguous", 1 << 20)


class TablePredictor:
    """Predicts the grid table's own formula, scaled by `skew` for b=y (a model that is
    right, or wrong about one parameter)."""

    def __init__(self, skew: float = 1.0) -> None:
        self.skew = skew
        self.frames: list[pd.DataFrame] = []

    def predict_interval(self, frame: pd.DataFrame) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        self.frames.append(frame)
        b = frame["cfg:b"].map({"x": 0.0, "y": 5.0, "z": 2.0})
        median = 10.0 * frame["cfg:a"].astype(float) + b * np.where(
            frame["cfg:b"] == "y", self.skew, 1
        )
        values = median.to_numpy(dtype=float)
        return values, 0.9 * values, 1.1 * values


def test_top_predicted_go_first_and_poor_ones_are_skipped(grid_table: Path) -> None:
    predictor = TablePredictor()
    settings = SearchSettings("model", budget=9, seed=0, model_top_k=2, model_threshold=0.9)
    objective = OfflineObjective(OfflineTable(grid_table))
    result = run_search(objective, settings, predictor=predictor, workload=WORKLOAD)
    assert result.trials[0].config == GRID_BEST
    assert result.trials[1].config == {"a": 3, "b": "z"}
    assert result.offline is not None and result.offline.trials_to_target == 1
    # a=3,b=x: predicted 30 (at most 33), not below 90 % of the best predicted (31.5): run.
    # Every other is predicted at most 27.5: skipped, never run.
    assert [t.config for t in result.trials[2:]] == [{"a": 3, "b": "x"}]
    assert result.vetoed > 0
    assert "nothing new to try" in result.stopped
    frame = predictor.frames[0]
    assert (frame["nprocs"] == 2).all() and (frame["op"] == "write").all()
    assert set(frame["config"]) == {config_key(c) for c in objective.candidates()}


def test_a_wrong_model_costs_runs_but_not_the_answer(grid_table: Path) -> None:
    predictor = TablePredictor(skew=0.0)  # blind to b=y, the best value of b
    settings = SearchSettings("model", budget=9, seed=0, model_top_k=3, model_threshold=0.0)
    objective = OfflineObjective(OfflineTable(grid_table))
    result = run_search(objective, settings, predictor=predictor, workload=WORKLOAD)
    assert result.best is not None and result.best.config == GRID_BEST
    assert result.trials[0].config == {"a": 3, "b": "z"}


def test_without_a_model_it_is_tpe_and_says_so(grid_table: Path) -> None:
    result = run_search(
        OfflineObjective(OfflineTable(grid_table)), SearchSettings("model", budget=5)
    )
    assert any("plain TPE" in note for note in result.notes)
    assert len(result.trials) == 5


def test_offline_needs_the_workload(grid_table: Path) -> None:
    with pytest.raises(SearchError, match="--workload"):
        run_search(
            OfflineObjective(OfflineTable(grid_table)),
            SearchSettings("model"),
            predictor=TablePredictor(),
        )


def test_parse_workload() -> None:
    workload = parse_workload(
        "nprocs=4,pattern=collective,op=write,layout=strided,size=1m,block=4k"
    )
    assert (workload.nprocs, workload.bytes_per_rank, workload.block) == (4, 1 << 20, 4096)
    with pytest.raises(SearchError, match="lacks size"):
        parse_workload("nprocs=4,pattern=collective,op=write,layout=contiguous")
    with pytest.raises(SearchError, match="not valid: op must be one of"):
        parse_workload("nprocs=4,pattern=collective,op=append,layout=contiguous,size=1")
