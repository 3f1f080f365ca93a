"""The verdict: the default and the best re-measured, interleaved, at least three times each,
and the best kept only when a rank test puts it beyond the noise; the trials' interposer
mode; skipped candidates outside the budget."""

from pathlib import Path

import pytest

from iotuner.search import (
    OfflineObjective,
    OfflineTable,
    Remeasured,
    RunObjective,
    SearchError,
    SearchSettings,
    parse_measure,
    rank_test,
    run_search,
)
from iotuner.search._verdict import judge
from iotuner.space import Space, config_key

from .conftest import records
from .test_model import WORKLOAD, TablePredictor


def _objective(command: list[str], space: Space, tmp_path: Path, measure: str) -> RunObjective:
    kind, pattern = parse_measure(measure)
    return RunObjective(command, space, measure=kind, pattern=pattern, log_dir=tmp_path / "logs")


def test_the_verdict_interleaves_three_of_each(
    fake_program: list[str], fake_space: Space, tmp_path: Path
) -> None:
    record = tmp_path / "record.jsonl"
    command = [*fake_program, str(record), "{x}", "run-{trial}"]
    run = _objective(command, fake_space, tmp_path, "regex:^value=(\\d+)$")
    result = run_search(run, SearchSettings("grid", budget=6, repeats=3))
    # The grid's first six: x 1-3 and buf 1/4 with romio_cb_write at its default; the best
    # is x=3, buf=4 (12), the default gives 1.
    labels = [r["args"][2] for r in records(record)][6:]
    assert labels == [
        "run-remeasure-0-0",
        "run-remeasure-1-0",
        "run-remeasure-1-1",
        "run-remeasure-0-1",
        "run-remeasure-0-2",
        "run-remeasure-1-2",
    ]
    default, best = result.remeasured
    assert default.is_default and default.values == [1.0, 1.0, 1.0]
    assert not best.is_default and best.values == [12.0, 12.0, 12.0]
    assert best.config == {"romio_cb_write": "automatic", "x": 3, "buf": 4}
    verdict = result.verdict
    assert verdict is not None and verdict.significant
    assert verdict.p_value == pytest.approx(0.05) and verdict.level == pytest.approx(0.05)
    assert verdict.ratio == pytest.approx(12.0)
    assert "median 12 (min 12, max 12, n 3" in verdict.message
    assert result.winner == best.config


def test_fewer_than_three_or_too_few_for_the_candidates_are_refused() -> None:
    for repeats in (1, 2):
        with pytest.raises(SearchError, match="at least 3 re-measures"):
            SearchSettings(repeats=repeats)
    with pytest.raises(SearchError, match="--repeats 4 or more"):
        SearchSettings(repeats=3, top=2)
    SearchSettings(repeats=4, top=3)
    SearchSettings(repeats=0, top=5)


def _remeasured(values: list[float], default: bool = False) -> Remeasured:
    return Remeasured({"k": "default" if default else str(values)}, default, None, values, [], [])


def test_only_a_winner_beyond_the_noise_wins() -> None:
    default = _remeasured([100.0, 90.0, 110.0], default=True)
    # Every re-measure of the candidate above every one of the default: p = 1/20.
    assert rank_test([111.0, 120.0, 115.0], default.values, "maximize") == pytest.approx(0.05)
    clear = judge([default, _remeasured([111.0, 120.0, 115.0])], "maximize")
    assert clear is not None and clear.significant
    # One overlap: a higher median, but within the default's own spread.
    overlap = judge([default, _remeasured([105.0, 150.0, 160.0])], "maximize")
    assert overlap is not None and not overlap.significant
    assert overlap.p_value == pytest.approx(0.1)
    assert "only complete separation passes" in overlap.message
    assert "default: median 100 (min 90, max 110, n 3, spread 20%)" in overlap.message
    # Wall time: lower is better, and the test turns round.
    faster = judge([default, _remeasured([50.0, 60.0, 55.0])], "minimize")
    assert faster is not None and faster.significant
    slower = judge([default, _remeasured([111.0, 120.0, 115.0])], "minimize")
    assert slower is not None and not slower.significant
    # Two candidates: the best of them is tested at 0.05 / 2, which 3 and 3 cannot reach.
    two = judge(
        [default, _remeasured([111.0, 120.0, 115.0]), _remeasured([101.0, 102.0, 103.0])],
        "maximize",
    )
    assert two is not None and not two.significant and two.level == pytest.approx(0.025)
    failed = judge([_remeasured([100.0, 90.0], default=True), _remeasured([200.0] * 3)], "x")
    assert failed is not None and not failed.significant and "needs 3 of each" in failed.message


def test_trials_are_traced_only_when_the_objective_reads_the_trace(
    fake_program: list[str], fake_space: Space, tmp_path: Path
) -> None:
    record = tmp_path / "record.jsonl"
    command = [*fake_program, str(record), "{x}"]
    for measure in ("walltime", "regex:^value=(\\d+)$"):
        run = _objective(command, fake_space, tmp_path, measure)
        assert run.mode() == "tune" and run.mode(trace=True) == "tune,trace"
        result = run_search(run, SearchSettings("random", budget=3, seed=1, repeats=0))
        assert result.trial_mode == "tune"
    runs = records(record)
    assert len(runs) == 6
    assert {r["mode"] for r in runs} == {"tune"}
    # One open entry holding every key of the configuration.
    assert all(len(r["entries"]) == 1 and r["entries"][0]["at"] == "open" for r in runs)
    assert all(r["entries"][0]["hints"] == r["hints"] for r in runs)
    traced = _objective(command, fake_space, tmp_path, "bandwidth")
    outcome = traced.evaluate(fake_space.validate({"x": 2}), "b")
    assert records(record)[-1]["mode"] == "tune,trace"
    assert outcome.failed and "no trace log" in (outcome.reason or "")  # the script has no MPI


def test_skipped_candidates_do_not_use_the_budget(grid_table: Path) -> None:
    # The model puts a=1 (calibrated at most 16.5) below half the best measured (35, its
    # first pick): those three are skipped while the six others are left; a budget of 6
    # runs the six, and lists the three as skipped.
    predictor = TablePredictor()
    settings = SearchSettings("model", budget=6, seed=3, model_top_k=1, model_threshold=0.5)
    objective = OfflineObjective(OfflineTable(grid_table))
    result = run_search(objective, settings, predictor=predictor, workload=WORKLOAD)
    assert len(result.trials) == 6 and result.stopped == "budget reached"
    assert all(t.config["a"] != 1 for t in result.trials)
    assert sorted(config_key(s.config) for s in result.skipped) == ["a=1,b=x", "a=1,b=y", "a=1,b=z"]
    assert all(
        "below 50% of the lower bound of the best measured so far (35" in s.reason
        for s in result.skipped
    )
    # With budget left once only skipped ones remain, they run, the best predicted first:
    # a skip never ends a search (it used to stop here after six runs of nine).
    settings = SearchSettings("model", budget=9, seed=3, model_top_k=1, model_threshold=0.5)
    result = run_search(objective, settings, predictor=predictor, workload=WORKLOAD)
    assert len(result.trials) == 9 and result.stopped == "budget reached"
    assert [t.config for t in result.trials[6:]] == [
        {"a": 1, "b": "y"},
        {"a": 1, "b": "z"},
        {"a": 1, "b": "x"},
    ]
    assert not result.skipped
