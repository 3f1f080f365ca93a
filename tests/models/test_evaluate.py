"""iotuner.models._evaluate: models judged on workloads and programs they have not seen."""

import json

import numpy as np
import pandas as pd
import pytest

from iotuner.models import ModelError, build_features
from iotuner.models._evaluate import (
    evaluate_models,
    model_choices,
    model_names,
    workload_keys,
)
from iotuner.models._figures import random_order_figures
from iotuner.models._ranking import (
    AverageBestRegressor,
    RelativeTargetRegressor,
    configure,
    ranking_candidates,
)
from iotuner.space import Space

from .conftest import BAD, GOOD


def _programs(frame: pd.DataFrame) -> pd.DataFrame:
    """The frame with one program per scale (a: 1 rank, b: 2, c: 4)."""
    names = {1: "a", 2: "b", 4: "c"}
    return frame.assign(program=[names[n] for n in frame["nprocs"]])


def test_workloads_held_out_score_high_on_a_frame_with_one_best_config(
    summary: pd.DataFrame, space: Space
) -> None:
    result = evaluate_models(
        summary, space, model_choices(["decision_tree"], quick=True), max_folds=6
    )
    assert result.schemes == ["workload"]
    assert result.notes["workload"] == (
        "leave-one-workload-out: 6 of 36 workloads held out one at a time"
    )
    assert "program" in result.notes and "no leave-one-program-out" in result.notes["program"]
    assert result.models == ["random_forest", "decision_tree"]
    forest = result.result("random_forest", "workload")
    assert forest.folds == 6 and forest.figures.workloads == 6
    assert all(s.configurations == 18 for s in forest.workloads)
    # GOOD is the best configuration of every workload: the model picks it with no trial.
    assert forest.figures.pick_mean > 0.95
    assert forest.figures.spearman_median is not None and forest.figures.spearman_median > 0.8
    assert forest.figures.reached == 1.0
    assert forest.figures.trials_mean is not None and forest.figures.trials_mean <= 2
    random = result.random["workload"]
    assert random.workloads == 6 and random.mdape_median is None
    assert random.pick_mean < forest.figures.pick_mean
    assert random.trials_mean is not None and random.trials_mean > forest.figures.trials_mean


def test_the_held_out_workload_is_not_in_training(summary: pd.DataFrame, space: Space) -> None:
    """One workload's order is the reverse of every other's: a model that saw it would
    pick its best (a forest fits its training rows), one that did not picks its worst."""
    frame = summary.copy()
    odd = (frame["nprocs"] == 2) & (frame["pattern"] == "collective")
    odd &= frame["bytes_per_rank"] == 65536
    frame.loc[odd, "bw_min"] = 1e6 / frame.loc[odd, "bw_min"]
    result = evaluate_models(frame, space, model_choices(["random_forest"]), max_folds=100)
    (score,) = [
        s
        for s in result.result("random_forest", "workload").workloads
        if "nprocs=2" in s.workload and "collective" in s.workload and "=65536" in s.workload
    ]
    assert score.pick < 0.5
    assert score.spearman is not None and score.spearman < 0
    assert score.static_trials is None or score.static_trials > 1


def test_leave_one_program_out_holds_out_every_workload_of_a_program(
    summary: pd.DataFrame, space: Space
) -> None:
    result = evaluate_models(
        _programs(summary),
        space,
        model_choices(["decision_tree"], quick=True),
        schemes=["program"],
        max_folds=2,
    )
    assert result.schemes == ["program"]
    assert result.notes["program"].startswith("leave-one-program-out: 2 of 3 programs")
    tree = result.result("decision_tree", "program")
    assert tree.folds == 2
    held = {s.program for s in tree.workloads}
    assert len(held) == 2 and held <= {"a", "b", "c"}
    assert tree.figures.workloads == 24  # 12 workloads per program
    for score in tree.workloads:
        assert f"nprocs={ {'a': 1, 'b': 2, 'c': 4}[score.program or ''] }" in score.workload


def test_no_program_scheme_without_programs(summary: pd.DataFrame, space: Space) -> None:
    plain = summary.drop(columns=["program"], errors="ignore")
    result = evaluate_models(
        plain, space, model_choices(["random_forest"], quick=True), max_folds=2
    )
    assert result.notes["program"] == (
        "the frame has no program column: no leave-one-program-out scheme"
    )
    one = summary.assign(program="iokernel")
    result = evaluate_models(one, space, model_choices(["random_forest"], quick=True), max_folds=2)
    assert result.notes["program"].startswith("one program (iokernel)")
    with pytest.raises(ModelError, match="schemes must be"):
        evaluate_models(summary, space, model_choices(), schemes=["config"])


def test_random_order_is_computed_exactly() -> None:
    # One of four configurations reaches 95 % of the best: it shows at trial 1..4 with
    # probability 1/4 each; its pick is the mean over the best.
    log_bw = np.log(np.array([1.0, 1.0, 1.0, 10.0]))
    figures = random_order_figures([log_bw], budget=10)
    assert figures.pick_mean == pytest.approx(13 / 4 / 10)
    assert figures.trials_mean == pytest.approx(2.5)
    assert figures.reached == pytest.approx(1.0)
    two = random_order_figures([log_bw], budget=2)
    assert two.reached == pytest.approx(0.5)
    assert two.trials_mean == pytest.approx(1.5)
    # Three of four good: the first trial hits with 3/4, the second with 1/4 x 3/3.
    good = random_order_figures([np.log(np.array([1.0, 10.0, 10.0, 9.6]))], budget=10)
    assert good.trials_mean == pytest.approx(1.25)


def test_the_result_is_plain_json(summary: pd.DataFrame, space: Space) -> None:
    result = evaluate_models(
        summary, space, model_choices(["random_forest"], quick=True), max_folds=3, budget=4
    )
    data = json.loads(json.dumps(result.to_dict(), allow_nan=False))
    assert data["budget"] == 4 and data["target"] == "bw_min"
    assert {r["scheme"] for r in data["results"]} == {"workload"}
    first = data["results"][0]
    assert first["model"] == "random_forest" and len(first["workloads"]) == 3
    assert set(first["figures"]) >= {"mdape_median", "spearman_mean", "pick_mean", "reached"}
    assert data["random"]["workload"]["workloads"] == 3


def test_bad_arguments_are_refused(summary: pd.DataFrame, space: Space) -> None:
    with pytest.raises(ModelError, match="unknown model"):
        model_choices(["oracle"])
    with pytest.raises(ModelError, match="budget"):
        evaluate_models(summary, space, model_choices(["random_forest"]), budget=0)
    with pytest.raises(ModelError, match="target"):
        evaluate_models(summary, space, model_choices(["random_forest"]), target="bw")
    with pytest.raises(ModelError, match="one system at a time"):
        mixed = summary.assign(system=["x", "y"] * (len(summary) // 2))
        evaluate_models(mixed, space, model_choices(["random_forest"]))
    assert "relative_forest" in model_names()


def test_workload_keys_group_every_configuration_of_a_workload(summary: pd.DataFrame) -> None:
    columns, keys = workload_keys(summary)
    assert "nprocs" in columns and "bytes_per_rank" in columns
    assert len(set(keys)) == 36
    assert pd.Series(keys).value_counts().eq(18).all()


def test_relative_target_predicts_bandwidth_and_orders_by_the_configuration(
    summary: pd.DataFrame, space: Space
) -> None:
    X, schema = build_features(summary, space)
    y = np.log(summary["bw_min"].to_numpy())
    model = ranking_candidates(quick=True)["relative_forest"].make(0)
    with pytest.raises(ValueError, match="configure"):
        model.fit(X, y)
    configure(model, schema).fit(X, y)
    assert isinstance(model, RelativeTargetRegressor)
    predicted = model.predict(X)
    assert np.median(np.abs(np.exp(predicted) / np.exp(y) - 1)) < 0.1
    assert np.all(model.predict_std(X) >= 0)
    one = (summary["nprocs"] == 4) & (summary["bytes_per_rank"] == 65536)
    one &= summary["pattern"] == "collective"
    rows = summary[one]
    assert rows["config"].iloc[int(np.argmax(model.predict(X[one.to_numpy()])))] == GOOD


def test_average_best_orders_every_workload_alike(summary: pd.DataFrame, space: Space) -> None:
    """The baseline "best configuration on average": each configuration's mean log bandwidth
    relative to its training workloads' medians, the same order for every workload.
    On collective writes, where every key of demo-small acts, so each configuration has
    its own features (on independent ones cb_* keys are encoded as not set)."""
    summary = summary[summary["pattern"] == "collective"].reset_index(drop=True)
    X, schema = build_features(summary, space)
    y = np.log(summary["bw_min"].to_numpy())
    model = ranking_candidates(quick=True)["average_best"].make(0)
    with pytest.raises(ValueError, match="configure"):
        model.fit(X, y)
    train = (summary["nprocs"] != 4).to_numpy()
    configure(model, schema).fit(X[train], y[train])
    assert isinstance(model, AverageBestRegressor)
    # The score is the plain mean of (log bandwidth - the workload's median) over the
    # training rows of the configuration.
    _, keys = workload_keys(summary)
    workloads = [k for k, t in zip(keys, train, strict=True) if t]
    seen = summary[train].assign(y=y[train], workload=workloads)
    seen["relative"] = seen["y"] - seen.groupby("workload")["y"].transform("median")
    expected = seen.groupby("config")["relative"].mean()
    held = summary[~train].assign(relative=model.relative(X[~train]))
    assert np.allclose(held["relative"], expected.loc[held["config"]].to_numpy())
    # Workload-independent: one score per configuration whatever the held-out workload,
    # so GOOD is first and BAD last in every one of them.
    assert held.groupby("config")["relative"].nunique().eq(1).all()
    predicted = model.predict(X[~train])
    assert np.all(np.isfinite(predicted))
    for _, rows in held.assign(p=predicted).groupby(["pattern", "bytes_per_rank"]):
        assert rows["config"].iloc[int(np.argmax(rows["p"]))] == GOOD
        assert rows["config"].iloc[int(np.argmin(rows["p"]))] == BAD
    # The bandwidth is level + score, in the right range (the level forest's job).
    assert np.median(np.abs(np.exp(predicted) / np.exp(y[~train]) - 1)) < 1.0
    # A configuration never measured in training sits at the workload's median (0).
    without = train & (summary["config"] != GOOD).to_numpy()
    other = configure(ranking_candidates(quick=True)["average_best"].make(0), schema)
    other.fit(X[without], y[without])
    good = (summary["config"] == GOOD).to_numpy()
    assert np.all(other.relative(X[good]) == 0.0)


def test_every_model_is_judged_on_the_same_held_out_workloads(
    summary: pd.DataFrame, space: Space
) -> None:
    """What lets train compare a candidate with the baselines workload by workload."""
    models = model_choices(["decision_tree", "average_best"], quick=True)
    assert [m.name for m in models] == ["random_forest", "decision_tree", "average_best"]
    assert "average_best" in model_names() and "average_best" in [
        m.name for m in model_choices(quick=True)
    ]
    result = evaluate_models(summary, space, models, schemes=["workload"], max_folds=5)
    held = {m: [w.workload for w in result.result(m, "workload").workloads] for m in result.models}
    assert len(held["random_forest"]) == 5
    assert held["decision_tree"] == held["random_forest"] == held["average_best"]
    # On this frame one configuration is the best of every workload: the baseline finds it.
    assert result.result("average_best", "workload").figures.pick_mean > 0.95
