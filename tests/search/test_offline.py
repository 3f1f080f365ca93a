"""Searches answered from tables of measured results: no program runs."""

from pathlib import Path

import pytest

from iotuner.search import (
    OfflineObjective,
    OfflineTable,
    SearchError,
    SearchSettings,
    parse_filters,
    run_search,
)
from iotuner.space import config_key

from .conftest import GRID_BEST, write_csv


def test_grid_over_a_3x3_table_finds_the_true_best(grid_table: Path) -> None:
    result = run_search(OfflineObjective(OfflineTable(grid_table)), SearchSettings("grid"))
    assert len(result.trials) == 9
    assert result.best is not None
    assert result.best.config == GRID_BEST
    assert result.best.value == 35
    assert result.winner == GRID_BEST
    assert result.offline is not None
    assert result.offline.table_best == 35
    assert result.offline.nearest_answers == 0
    assert result.offline.trials_to_target is not None
    assert result.trials[result.offline.trials_to_target - 1].value == 35


def test_grid_minimising_finds_the_smallest(grid_table: Path) -> None:
    objective = OfflineObjective(OfflineTable(grid_table), "minimize")
    result = run_search(objective, SearchSettings("grid"))
    assert result.best is not None and result.best.config == {"a": 1, "b": "x"}


@pytest.mark.parametrize("strategy", ["ga", "tpe", "random", "gp"])
def test_strategies_reach_the_target_within_budget(grid_table: Path, strategy: str) -> None:
    objective = OfflineObjective(OfflineTable(grid_table))
    result = run_search(objective, SearchSettings(strategy, budget=9, seed=3))
    assert result.offline is not None
    assert result.offline.trials_to_target is not None
    assert result.best is not None and result.best.config == GRID_BEST
    # The cache: no configuration was measured twice.
    keys = [config_key(t.config) for t in result.trials]
    assert len(keys) == len(set(keys))


def test_ga_defaults_are_the_dissertations(grid_table: Path) -> None:
    objective = OfflineObjective(OfflineTable(grid_table))
    result = run_search(objective, SearchSettings("ga", seed=0))
    # 10 x 30 = 300 runs at most, capped by the 9 configurations there are.
    assert result.budget == 9
    assert len(result.trials) == 9
    assert result.duplicates > 0  # children equal to measured ones: answered, not run


def test_filter_median_and_failed_rows(sampled_table: Path) -> None:
    table = OfflineTable(sampled_table, value_column="bw", filters={"problem": "large"})
    assert table.param_columns == ["stripe", "buffer"]
    rows = [r for r in sampled_table.read_text().splitlines()[1:] if r.startswith("large,")]
    assert table.rows == len(rows)
    assert table.repeated > 0
    # The repeats of a configuration are summarised by their median, with their count.
    repeated = next(m for m in table.measured.values() if m.rows == 3)
    assert repeated.low is not None and repeated.high is not None
    assert repeated.low < (repeated.value or 0) < repeated.high
    # A row with an empty value is a failed run; a configuration with only failed rows fails.
    assert any(m.failed_rows == 1 and m.value is not None for m in table.measured.values())
    objective = OfflineObjective(table)
    only_failed = next(m for m in table.measured.values() if m.value is None)
    outcome = objective.evaluate(only_failed.config, "0")
    assert outcome.failed and "failed runs" in (outcome.reason or "")
    # The other problem's rows are not in the table.
    small = OfflineTable(sampled_table, value_column="bw", filters={"problem": "small"})
    assert (small.best("maximize").value or 0) <= 110 < (table.best("maximize").value or 0)


def test_unmeasured_configurations_are_answered_by_the_nearest(sampled_table: Path) -> None:
    table = OfflineTable(sampled_table, value_column="bw", filters=parse_filters(["problem=large"]))
    objective = OfflineObjective(table)
    assert table.space.size > len(table.measured)  # a sample, not a grid
    measured = table.configurations[0]
    stripes = table.space.parameter("stripe").values
    unmeasured = next(
        {"stripe": s, "buffer": measured["buffer"]}
        for s in stripes
        if config_key({"stripe": s, "buffer": measured["buffer"]}) not in table.measured
    )
    outcome = objective.evaluate(table.space.validate(unmeasured), "1")
    assert outcome.answered_by is not None
    assert outcome.answered_by in table.measured
    nearest = table.measured[outcome.answered_by].config
    assert nearest["buffer"] == measured["buffer"] or outcome.failed

    # GA proposes from the whole product: some trials are answered by a neighbour, counted.
    result = run_search(objective, SearchSettings("ga", budget=40, seed=1))
    assert result.offline is not None
    assert 0 < result.offline.nearest_answers <= len(result.trials)
    assert result.offline.nearest_answers == sum(
        1 for t in result.trials if t.outcome.answered_by is not None
    )
    # random, grid and gp choose among the measured configurations only.
    for strategy in ("random", "gp"):
        chosen = run_search(objective, SearchSettings(strategy, budget=20, seed=1))
        assert chosen.offline is not None and chosen.offline.nearest_answers == 0


def test_trials_to_target_counts_measured_trials(sampled_table: Path) -> None:
    table = OfflineTable(sampled_table, value_column="bw", filters={"problem": "small"})
    settings = SearchSettings("random", seed=5, target_fraction=0.9, stop_at_target=True)
    result = run_search(OfflineObjective(table), settings)
    assert result.offline is not None
    reached = result.offline.trials_to_target
    assert reached == len(result.trials)
    assert result.trials[-1].value is not None
    assert result.trials[-1].value >= 0.9 * result.offline.table_best


def test_table_errors_say_what_was_expected(tmp_path: Path, grid_table: Path) -> None:
    with pytest.raises(SearchError, match="no value column 'speed'"):
        OfflineTable(grid_table, value_column="speed")
    with pytest.raises(SearchError, match="no column 'scale' to filter on"):
        OfflineTable(grid_table, filters={"scale": "4"})
    with pytest.raises(SearchError, match="no row matches"):
        OfflineTable(grid_table, filters={"a": "7"})
    with pytest.raises(SearchError, match="COLUMN=VALUE"):
        parse_filters(["nprocs"])
    bad = write_csv(tmp_path / "bad.csv", ["a", "bandwidth"], [[1, "fast"]])
    with pytest.raises(SearchError, match=r"line 2: bandwidth must be a number"):
        OfflineTable(bad)
    with pytest.raises(SearchError, match="the parameter columns must be columns"):
        OfflineTable(grid_table, param_columns=["a", "c"])


def test_filter_matches_numbers_written_differently(tmp_path: Path) -> None:
    path = write_csv(
        tmp_path / "scales.csv",
        ["nprocs", "a", "bandwidth"],
        [["64", 1, 5.0], ["64.0", 2, 7.0], ["128", 1, 9.0]],
    )
    table = OfflineTable(path, filters={"nprocs": "64"})
    assert table.rows == 2
    assert table.param_columns == ["a"]
