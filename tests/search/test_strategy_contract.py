"""The contract every search strategy keeps, run over all of them (STRATEGIES), as
optuna.testing runs one suite over every sampler.

A strategy proposes configurations of the space it was given (and, when it chooses from a
list, only of that list), within the budget, goes on past failed trials, gives the same
trials for the same seed, and carries on a study an earlier search began and was interrupted in.
"""

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from optuna.samplers import BaseSampler

from iotuner.measurement import Workload
from iotuner.search import (
    STRATEGIES,
    ModelGuide,
    OfflineObjective,
    OfflineTable,
    SearchError,
    SearchResult,
    SearchSettings,
    make_strategy,
    run_search,
    storage_url,
)
from iotuner.search._common import TrialOutcome
from iotuner.search._strategies import Strategy
from iotuner.space import Configuration, Space, config_key

from .conftest import write_csv

WORKLOAD = Workload(2, 1, "collective", "write", "contiguous", 1 << 20)
B_SCORE = {"x": 0.0, "y": 5.0, "z": 2.0}


def _value(a: int, b: str, c: int) -> float:
    return 10.0 * a + B_SCORE[b] - abs(c - 32) / 8


class _Formula:
    """A model that predicts the tables' own formula (the model strategy needs one)."""

    def predict_interval(self, frame: pd.DataFrame) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        values = np.array(
            [
                _value(int(a), str(b), int(c))
                for a, b, c in zip(frame["cfg:a"], frame["cfg:b"], frame["cfg:c"], strict=True)
            ]
        )
        return values, 0.9 * values, 1.1 * values


@pytest.fixture
def failing_table(tmp_path: Path) -> Path:
    """4 x 3 x 4 = 48 configurations, every one measured; those with b=z all failed runs."""
    rows: list[list[object]] = [
        [a, b, c, "fail" if b == "z" else _value(a, b, c)]
        for a in (1, 2, 3, 4)
        for b in ("x", "y", "z")
        for c in (8, 16, 32, 64)
    ]
    return write_csv(tmp_path / "failing.csv", ["a", "b", "c", "bandwidth"], rows)


@pytest.fixture
def sparse_table(tmp_path: Path) -> Path:
    """A sample of 20 of the 48 configurations (no failures): a list to choose from."""
    configs = [(a, b, c) for a in (1, 2, 3, 4) for b in ("x", "y", "z") for c in (8, 16, 32, 64)]
    rows: list[list[object]] = [[a, b, c, _value(a, b, c)] for a, b, c in configs[::5]]
    rows += [[a, b, c, _value(a, b, c)] for a, b, c in configs[1::12]]
    return write_csv(tmp_path / "sparse.csv", ["a", "b", "c", "bandwidth"], rows)


def _strategy(
    name: str, space: Space, seed: int, candidates: list[Configuration] | None = None
) -> Strategy:
    """The strategy as run_search makes it (the model strategy with the formula's guide)."""
    guide = ModelGuide(_Formula(), WORKLOAD, space, candidates, threshold=0.0)
    return make_strategy(name, space, seed=seed, candidates=candidates, guide=guide)


def _search(objective: OfflineObjective, strategy: str, **settings: object) -> SearchResult:
    return run_search(
        objective,
        SearchSettings(strategy, model_threshold=0.0, **settings),
        predictor=_Formula(),
        workload=WORKLOAD,
    )


@pytest.mark.parametrize("name", STRATEGIES)
def test_it_is_made_from_its_name(name: str, failing_table: Path) -> None:
    space = OfflineTable(failing_table).space
    strategy = _strategy(name, space, seed=1)
    assert strategy.name == name
    assert isinstance(strategy.sampler, BaseSampler)
    assert strategy.default_budget >= 1
    assert strategy.pool_size is None or 1 <= strategy.pool_size <= space.size
    assert all(space.validate(c) == c for c in strategy.first)


@pytest.mark.parametrize("name", STRATEGIES)
def test_proposals_are_configurations_of_the_space(name: str, failing_table: Path) -> None:
    objective = OfflineObjective(OfflineTable(failing_table))
    result = _search(objective, name, budget=20, seed=2)
    space = objective.space
    assert result.trials
    for trial in result.trials:
        assert space.validate(trial.config) == trial.config
        for p in space.parameters:
            assert trial.config[p.name] in p.values
    keys = [config_key(t.config) for t in result.trials]
    assert len(keys) == len(set(keys))  # each measured once; repeats are answered


@pytest.mark.parametrize("name", STRATEGIES)
def test_a_strategy_keeps_to_the_configurations_a_table_measured(
    name: str, sparse_table: Path
) -> None:
    """Offline every trial is a configuration the table measured: a strategy that chooses
    from a list is given them, one that proposes from the whole product (ga, tpe) has a
    proposal the table did not measure replaced by the nearest one it did. A budget of
    every measured configuration is spent on them; a larger one is refused."""
    table = OfflineTable(sparse_table)
    objective = OfflineObjective(table)
    size = len(table.measured)
    strategy = _strategy(name, table.space, 3, objective.candidates())
    assert strategy.pool_size is None or strategy.pool_size == size
    result = _search(objective, name, budget=size, seed=3)
    assert result.offline is not None and result.offline.nearest_answers == 0
    assert result.budget == size
    assert {config_key(t.config) for t in result.trials} <= set(table.measured)
    assert len(result.trials) == size or _ended_on_its_own(name, result)
    with pytest.raises(SearchError, match=f"--budget 60 is more than the {size} configurations"):
        _search(objective, name, budget=60, seed=3)


def _ended_on_its_own(name: str, result: SearchResult) -> bool:
    """A search ends at the budget, when nothing new is proposed, or (the GA) after its
    generations: budget / population rounded up, repeats answered from the cache included,
    so a converged GA may run fewer than the budget (as the thesis' IO_Search)."""
    generations = math.ceil(result.budget / 10) * 10
    return "nothing new to try" in result.stopped or (
        name == "ga" and result.stopped == f"the generations are done ({generations} proposals)"
    )


@pytest.mark.parametrize("name", STRATEGIES)
def test_the_budget_is_kept(name: str, failing_table: Path) -> None:
    objective = OfflineObjective(OfflineTable(failing_table))
    result = _search(objective, name, budget=12, seed=4)
    assert result.budget == 12
    assert len(result.trials) == 12 or _ended_on_its_own(name, result)
    assert result.stopped == "budget reached" or _ended_on_its_own(name, result)
    assert result.proposals >= len(result.trials)


@pytest.mark.parametrize("name", STRATEGIES)
def test_failed_trials_are_measured_and_passed(name: str, failing_table: Path) -> None:
    objective = OfflineObjective(OfflineTable(failing_table))
    result = _search(objective, name, budget=24, seed=5)
    failed = [t for t in result.trials if t.failed]
    assert failed, "the search never proposed a configuration whose runs failed"
    assert all(t.config["b"] == "z" and t.value is None for t in failed)
    # A failure uses up a run and the search goes on.
    assert len(result.trials) == 24 or _ended_on_its_own(name, result)
    assert result.best is not None and not result.best.failed and result.best.config["b"] != "z"


@pytest.mark.parametrize("name", STRATEGIES)
def test_the_same_seed_gives_the_same_trials(name: str, failing_table: Path) -> None:
    objective = OfflineObjective(OfflineTable(failing_table))
    first = _search(objective, name, budget=15, seed=6)
    again = _search(objective, name, budget=15, seed=6)
    assert [t.config for t in first.trials] == [t.config for t in again.trials]


class _StoppedAtTheFifth(OfflineObjective):
    """Interrupted (Ctrl-C) while answering its fifth trial."""

    def __init__(self, table: OfflineTable, direction: str) -> None:
        super().__init__(table, direction)
        self.calls = 0

    def evaluate(self, config: Configuration, label: str, *, trace: bool = False) -> TrialOutcome:
        self.calls += 1
        if self.calls == 5:
            raise KeyboardInterrupt
        return super().evaluate(config, label, trace=trace)


@pytest.mark.parametrize(
    "name", [STRATEGIES[0], *(pytest.param(n, marks=pytest.mark.slow) for n in STRATEGIES[1:])]
)
def test_an_interrupted_study_goes_on(name: str, failing_table: Path, tmp_path: Path) -> None:
    table = OfflineTable(failing_table)
    storage = storage_url(str(tmp_path / f"{name}.db"))
    with pytest.raises(KeyboardInterrupt):
        _search(_StoppedAtTheFifth(table, "minimize"), name, budget=8, seed=7, storage=storage)
    resumed = _search(OfflineObjective(table, "minimize"), name, budget=12, seed=7, storage=storage)
    assert resumed.recovered == 1  # the trial that was running is marked, not measured
    assert [t.new for t in resumed.trials[:4]] == [False] * 4
    assert all(t.new for t in resumed.trials[4:])
    keys = [config_key(t.config) for t in resumed.trials]
    assert len(keys) == len(set(keys))
    assert len(resumed.trials) == 12 or _ended_on_its_own(name, resumed)
