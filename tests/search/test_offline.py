"""Searches answered from tables of measured results: no program runs."""

import itertools
import math
import statistics
from pathlib import Path

import optuna
import pytest
from optuna.samplers import NSGAIISampler

from iotuner.search import (
    OfflineObjective,
    OfflineTable,
    SearchError,
    SearchSettings,
    StrategyOptions,
    make_strategy,
    parse_filters,
    run_search,
    storage_url,
)
from iotuner.space import config_key, parse_space

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


@pytest.fixture
def hill_table(tmp_path: Path) -> Path:
    """512 configurations, all measured once: three numeric knobs of 8 values each (as a
    table records them: 0-14 in steps of 2, 1-22 in steps of 3, 10-17), the value falling
    off smoothly with the distance from one peak, at steps (5, 2, 6). Only the peak reaches
    95 % of the best, so a strategy that ignores the structure needs (512 + 1) / 2 = 256.5
    trials on average to find it."""
    rows: list[list[object]] = []
    for a, b, c in itertools.product(range(8), repeat=3):
        distance = (a - 5) ** 2 + (b - 2) ** 2 + (c - 6) ** 2
        rows.append([2 * a, 3 * b + 1, 10 + c, round(1000 * math.exp(-distance / 8), 3)])
    return write_csv(tmp_path / "hill.csv", ["stripe", "buffer", "nodes", "bandwidth"], rows)


def _trials_to_target(objective: OfflineObjective, strategy: str, seed: int, budget: int) -> int:
    """Trials until one reaches 95 % of the table's best (budget + 1 when none did)."""
    settings = SearchSettings(strategy, budget=budget, seed=seed, stop_at_target=True)
    result = run_search(objective, settings)
    assert result.offline is not None
    keys = [config_key(t.config) for t in result.trials]
    assert len(keys) == len(set(keys))  # the cache: no configuration measured twice
    reached = result.offline.trials_to_target
    return reached if reached is not None else budget + 1


SEEDS = range(5)


@pytest.mark.parametrize("strategy", ["gp", "tpe", "ga"])
def test_strategies_that_use_the_structure_need_far_fewer_trials(
    hill_table: Path, strategy: str
) -> None:
    """The median over five seeds of the trials to the target: at most 64 (an eighth of
    the table) for a strategy that models or evolves, where random order needs about 256.
    A strategy that proposes in random order passes with a chance of about 2 %."""
    table = OfflineTable(hill_table)
    objective = OfflineObjective(table)
    size = len(table.measured)
    best = table.best("maximize").value or 0.0
    assert sum(1 for m in table.measured.values() if (m.value or 0) >= 0.95 * best) == 1
    randomly = statistics.median(_trials_to_target(objective, "random", s, size) for s in SEEDS)
    assert randomly >= (size + 1) / 2 / 2  # random order needs many: the table is hard
    needed = statistics.median(_trials_to_target(objective, strategy, s, size // 4) for s in SEEDS)
    assert needed <= size / 8, f"{strategy} needed {needed} trials (median), random {randomly}"


def test_ga_defaults_are_the_dissertations(hill_table: Path, tmp_path: Path) -> None:
    """IO_Search's settings, from Bağbaba's dissertation (HLRS 2023), §4.2.1 "IO_Optimizer:
    Configuration Search", and Bağbaba & Wang (IPDPSW 2021), §III-D: a population of 10;
    30 generations, "so that the maximum of 300 runs" of the program; a mutation rate of
    15 %; and the best individuals of a generation ("elite members") transferred to the
    next. NSGA-II transfers them as parents: the parents of generation g are the best
    `population_size` of generation g-1 together with g-1's own parents."""
    options = StrategyOptions()
    assert (options.population, options.generations, options.mutation) == (10, 30, 0.15)
    table = OfflineTable(hill_table)
    objective = OfflineObjective(table)
    strategy = make_strategy("ga", table.space)
    assert isinstance(strategy.sampler, NSGAIISampler)
    assert strategy.sampler.population_size == 10
    assert strategy.parameters["generations"] == 30
    assert strategy.parameters["mutation_prob"] == 0.15
    assert strategy.default_budget == 300
    # 512 configurations: the budget is the GA's own, 10 x 30 runs, not the table's size.
    quick = run_search(objective, SearchSettings("ga", seed=0, stop_at_target=True))
    assert quick.budget == 300 and len(quick.trials) < 300

    storage = storage_url(str(tmp_path / "ga.db"))
    result = run_search(objective, SearchSettings("ga", budget=25, seed=0, storage=storage))
    study = optuna.load_study(study_name=result.study, storage=storage)
    sampler = NSGAIISampler(population_size=10)
    generations = []
    for generation in itertools.count():
        population = sampler.get_population(study, generation)
        if len(population) < 10:
            break
        generations.append(population)
    assert len(generations) >= 3  # 25 runs, and the proposals answered from the cache
    assert sampler.get_parent_population(study, 0) == []
    for g in range(1, len(generations)):
        parents = sampler.get_parent_population(study, g)
        pool = {
            t.number: t for t in generations[g - 1] + sampler.get_parent_population(study, g - 1)
        }
        elite = sorted((t.value or 0.0 for t in pool.values()), reverse=True)[:10]
        assert len(parents) == 10
        assert sorted((t.value or 0.0 for t in parents), reverse=True) == elite


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

    # A search never makes a trial of it (test_offline_trials_are_only_configurations...):
    # random, grid and gp choose among the measured configurations only.
    for strategy in ("random", "gp"):
        chosen = run_search(objective, SearchSettings(strategy, budget=20, seed=1))
        assert chosen.offline is not None and chosen.offline.nearest_answers == 0
        assert chosen.replaced == 0


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


@pytest.fixture
def measured_outputs_table(tmp_path: Path) -> Path:
    """A table as benchmarks write it: two configuration columns (a hint and a buffer size,
    each value repeated), the bandwidth, and measured outputs beside it (the seconds the
    run took, the bytes it moved per second as a second figure)."""
    rows: list[list[object]] = []
    for i, (cb, buf) in enumerate(itertools.product(("enable", "disable"), (1, 2, 4))):
        for repeat in range(2):
            bw = 100.0 * buf + (50 if cb == "enable" else 0) + repeat * 0.37 + i * 0.011
            rows.append([cb, buf * 1048576, round(bw, 3), round(8.0 / bw, 6), round(bw * 1.048, 4)])
    header = ["romio_cb_write", "cb_buffer_size", "bandwidth", "seconds", "mb_s"]
    return write_csv(tmp_path / "outputs.csv", header, rows)


def test_offline_parameters_leave_out_measured_outputs_and_say_so(
    measured_outputs_table: Path,
) -> None:
    table = OfflineTable(measured_outputs_table)
    assert table.param_columns == ["romio_cb_write", "cb_buffer_size"]
    assert "seconds" in table.columns_note and "mb_s" in table.columns_note
    assert "--param-columns" in table.columns_note
    result = run_search(OfflineObjective(table), SearchSettings("grid"))
    assert len(result.trials) == 6  # not one per row: the outputs are no parameters
    assert any("seconds" in note for note in result.notes)


def test_offline_parameters_default_to_the_columns_the_space_names(
    measured_outputs_table: Path,
) -> None:
    space = parse_space(
        """
name = "cb"
description = "collective buffering"
[hints.romio_cb_write]
values = ["automatic", "disable", "enable"]
default = "automatic"
[hints.romio_ds_write]
values = ["automatic", "disable"]
default = "automatic"
""",
        "cb space",
    )
    table = OfflineTable(measured_outputs_table, space=space)
    assert table.param_columns == ["romio_cb_write"]
    assert "romio_ds_write" in table.columns_note  # named by the space, not in the table
    chosen = OfflineTable(measured_outputs_table, space=space, param_columns=["cb_buffer_size"])
    assert chosen.param_columns == ["cb_buffer_size"]  # --param-columns wins
    other = parse_space(
        'name = "x"\ndescription = "x"\n[hints.romio_ds_read]\nvalues = ["enable", "disable"]\n'
        'default = "enable"\n',
        "x space",
    )
    with pytest.raises(
        SearchError,
        match=r"none of the parameters of space 'x' \(romio_ds_read\) is a column.*"
        r"columns: romio_cb_write, cb_buffer_size, bandwidth, seconds, mb_s.*--param-columns",
    ):
        OfflineTable(measured_outputs_table, space=other)


def test_a_table_of_measured_outputs_only_is_an_error_listing_its_columns(tmp_path: Path) -> None:
    path = write_csv(
        tmp_path / "outputs.csv",
        ["seconds", "bandwidth"],
        [[0.5 + i / 7, 10.0 + i] for i in range(12)],
    )
    with pytest.raises(SearchError, match=r"no configuration column.*seconds.*--param-columns"):
        OfflineTable(path)


@pytest.mark.slow  # CI's
def test_the_ga_ends_after_its_generations(hill_table: Path, tmp_path: Path) -> None:
    """A converged GA proposes children it already measured; they are answered from the
    cache, but each is a study trial. The GA ends after budget / population generations
    of proposals (here 10 of 10), so the study holds at most 100 trials, however many of
    them were repeats (before: 100 runs made about 660 trials, and 300 runs took minutes)."""
    storage = storage_url(str(tmp_path / "ga.db"))
    objective = OfflineObjective(OfflineTable(hill_table))
    result = run_search(objective, SearchSettings("ga", budget=100, seed=0, storage=storage))
    study = optuna.load_study(study_name=result.study, storage=storage)
    assert len(study.trials) <= 100
    assert 0 < len(result.trials) <= 100
    assert "generations are done" in result.stopped or len(result.trials) == 100


@pytest.fixture
def benchmark_outputs_table(tmp_path: Path) -> Path:
    """Two settings (a stripe size and collective buffering, 6 configurations, each run 3
    times) and, beside the bandwidth, what each run measured: times in seconds (`*_s`,
    rounded to tenths, so they repeat), volumes (`*_GB`, the same whole number in every
    row; `bytes`) and a second bandwidth figure. Their cells do not look measured (few
    distinct values, or integers); their names say what they are."""
    rows: list[list[object]] = []
    for i, (stripe, cb) in enumerate(itertools.product((1, 4, 16), ("enable", "disable"))):
        for repeat in range(3):
            bandwidth = 100.0 * stripe + (40 if cb == "enable" else 0) + repeat
            write_s = round(0.2 + 0.1 * (i % 2), 1)
            rows.append([stripe, cb, write_s, 4, 0.1, 0.1, 4, 0.3, 4 << 30, 512, bandwidth])
    header = ["stripe", "cb", "write_s", "read_GB", "open_s", "close_s", "write_GB", "read_s"]
    header += ["bytes", "read_MBps", "bandwidth"]
    return write_csv(tmp_path / "bench-outputs.csv", header, rows)


def test_measured_outputs_are_no_parameters_by_their_names(
    benchmark_outputs_table: Path,
) -> None:
    table = OfflineTable(benchmark_outputs_table)
    assert table.param_columns == ["stripe", "cb"]
    assert len(table.measured) == 6
    assert table.columns_note.startswith("parameters: the columns stripe, cb;")
    outputs = ["write_s", "read_GB", "open_s", "close_s", "write_GB", "read_s", "bytes"]
    for column in [*outputs, "read_MBps"]:
        assert column in table.columns_note
    assert "--param-columns" in table.columns_note
    # Named with --param-columns, an output column is a parameter all the same.
    chosen = OfflineTable(benchmark_outputs_table, param_columns=["stripe", "write_GB"])
    assert chosen.param_columns == ["stripe", "write_GB"]
    result = run_search(OfflineObjective(table), SearchSettings("grid"))
    assert len(result.trials) == 6
    assert all(set(t.config) == {"stripe", "cb"} for t in result.trials)


def _order(path: Path, seed: int, filters: dict[str, str] | None = None) -> list[int]:
    """The random strategy's trials over the whole table, as indices of the table's
    measured configurations in canonical order."""
    offline = OfflineTable(path, filters=filters)
    settings = SearchSettings("random", budget=len(offline.measured), seed=seed)
    result = run_search(OfflineObjective(offline), settings)
    keys = [config_key(c) for c in offline.configurations]
    order = [keys.index(config_key(t.config)) for t in result.trials]
    assert sorted(order) == list(range(len(keys)))
    return order


def test_the_random_order_depends_on_the_seed_and_the_problem(tmp_path: Path) -> None:
    """Two tables of 12 configurations each: one seed gives each its own order (it gave
    both the same sequence of indices); the same table and seed the same order, wherever
    the file lies; two problems of one file (filters) with the same configurations, their
    own orders."""
    first = write_csv(
        tmp_path / "first.csv",
        ["a", "b", "bandwidth"],
        [[a, b, 10 * a + len(b)] for a in (1, 2, 3, 4) for b in ("x", "yy", "zzz")],
    )
    second = write_csv(
        tmp_path / "second.csv",
        ["stripe", "cb", "bandwidth"],
        [[s, cb, s / 7 + (cb == "on")] for s in (1, 2, 4, 8, 16, 32) for cb in ("on", "off")],
    )
    (tmp_path / "elsewhere").mkdir()
    copy = tmp_path / "elsewhere" / "first.csv"
    copy.write_bytes(first.read_bytes())
    assert _order(first, 3) != _order(second, 3)
    assert _order(first, 3) == _order(first, 3) == _order(copy, 3)
    assert _order(first, 3) != _order(first, 4)
    problems = write_csv(
        tmp_path / "problems.csv",
        ["problem", "a", "b", "bandwidth"],
        [[p, a, b, p * a + len(b)] for p in (1, 2) for a in (1, 2, 3, 4) for b in ("x", "yy")],
    )
    one = _order(problems, 3, filters={"problem": "1"})
    assert one != _order(problems, 3, filters={"problem": "2"})
    assert one == _order(problems, 3, filters={"problem": "1"})


@pytest.mark.parametrize("strategy", ["ga", "tpe"])
def test_offline_trials_are_only_configurations_the_table_measured(
    sampled_table: Path, strategy: str
) -> None:
    """ga and tpe propose from the whole product of the table's values; a proposal the
    table never measured is no trial: the nearest measured configuration not tried yet is
    measured instead, and the budget is spent on measured configurations only."""
    table = OfflineTable(sampled_table, value_column="bw", filters={"problem": "large"})
    objective = OfflineObjective(table)
    assert table.space.size > 2 * len(table.measured)  # a sample, not a grid
    result = run_search(objective, SearchSettings(strategy, budget=20, seed=1))
    keys = [config_key(t.config) for t in result.trials]
    assert all(key in table.measured for key in keys)
    assert all(t.outcome.answered_by is None for t in result.trials)
    assert len(keys) == len(set(keys))
    assert result.offline is not None and result.offline.nearest_answers == 0
    if strategy == "ga":  # it ends after its generations, repeats answered from the cache
        assert len(keys) == 20 or "generations are done" in result.stopped
    else:
        assert len(keys) == 20 and result.stopped == "budget reached"
    assert result.replaced > 0  # the proposals of unmeasured ones, no trials
    assert result.proposals >= len(keys)


def test_an_offline_budget_of_every_measured_configuration_measures_them_all(
    sampled_table: Path,
) -> None:
    table = OfflineTable(sampled_table, value_column="bw", filters={"problem": "large"})
    objective = OfflineObjective(table)
    size = len(table.measured)
    result = run_search(objective, SearchSettings("tpe", budget=size, seed=2))
    assert {config_key(t.config) for t in result.trials} == set(table.measured)
    assert len(result.trials) == size
    with pytest.raises(
        SearchError,
        match=rf"--budget {size + 1} .*the {size} configurations the objective measures",
    ):
        run_search(objective, SearchSettings("tpe", budget=size + 1, seed=2))
