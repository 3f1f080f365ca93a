"""The comparison of `iotuner train`: every model of the zoo scored on a summary frame
(compare_models), and the chosen one fitted on all the rows (fit_model).

Only rows whose target is a positive bandwidth are used (the others are counted). Every
candidate (iotuner.models._zoo, _ranking) and both baselines (iotuner.models._zoo.BASELINES)
are scored with the dissertation's metrics (R, MAPE, RMSPE, MAE, RMSE in MiB/s, build and
test time) under two schemes:

* split: a random 70/30 train/test split of the rows, repeated with seeds 0 .. seeds-1
  (the dissertation used one 70/30 split); mean and standard deviation over the seeds.
* group: leave-one-group-out over whole scales (nprocs values) when the frame has more
  than one, else whole size groups (the `group` column): how a model does on a scale or
  size it has never seen. With more groups than `max_group_folds` (12, or 6 with quick),
  that many spread evenly over the sorted values, smallest and largest included, are held
  out one at a time; with one scale and one size group there is no group scheme.
"""

import time
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd
from sklearn.model_selection import train_test_split
from threadpoolctl import threadpool_limits

from iotuner._progress import Steps
from iotuner._quiet import converging
from iotuner.measurement import CONFIG_PREFIX
from iotuner.models._common import (
    ModelError,
    cell_value,
    single_system,
    usable_rows,
)
from iotuner.models._evaluate import model_choices
from iotuner.models._features import FeatureSchema, infer_schema
from iotuner.models._metrics import Metrics, regression_metrics
from iotuner.models._ranking import configure
from iotuner.models._saved import TrainedModel, new_metadata
from iotuner.models._zoo import AVERAGE_BEST, BASELINE, Candidate
from iotuner.space import Space

__all__ = [
    "TEST_SIZE",
    "Comparison",
    "FoldScore",
    "ModelScore",
    "compare_models",
    "fit_model",
    "with_baselines",
]

TEST_SIZE = 0.3
"""The held-out fraction of the split scheme (the dissertation's 70/30)."""


@dataclass(frozen=True)
class FoldScore:
    """One model scored on one fold: scheme "split" (fold "seed=3") or "group"
    (fold "nprocs=64" or "group=17")."""

    model: str
    scheme: str
    fold: str
    n_train: int
    n_test: int
    metrics: Metrics


@dataclass(frozen=True)
class ModelScore:
    """One model's metrics, mean and standard deviation, per scheme (group: None if none)."""

    model: str
    description: str
    baseline: bool
    split_mean: Metrics
    split_std: Metrics
    group_mean: Metrics | None
    group_std: Metrics | None

    def records(self) -> list[dict[str, Any]]:
        """Plain rows, one per scheme: model, scheme, <metric>_mean and <metric>_std."""
        rows = []
        for scheme, mean, std in (
            ("split", self.split_mean, self.split_std),
            ("group", self.group_mean, self.group_std),
        ):
            if mean is None or std is None:
                continue
            row: dict[str, Any] = {"model": self.model, "scheme": scheme}
            for name, value in mean.as_dict().items():
                row[f"{name}_mean"] = value
                row[f"{name}_std"] = std.as_dict()[name]
            rows.append(row)
        return rows


@dataclass(frozen=True)
class Comparison:
    """The result of compare_models.

    `rows` were used, `dropped` had no positive target. `group_by` is "nprocs", "group" or
    None; `groups_held_out` are the group values tested one at a time; `group_note` says so
    in words. `residuals` holds, per model, the log(actual/predicted) of every split-scheme
    test row (the basis of a non-forest model's quantiles).
    """

    target: str
    rows: int
    dropped: int
    seeds: int
    quick: bool
    group_by: str | None
    groups_held_out: list[int]
    group_note: str
    scores: list[ModelScore]
    folds: list[FoldScore]
    residuals: dict[str, list[float]] = field(repr=False)
    schema: FeatureSchema = field(repr=False)

    def score(self, model: str) -> ModelScore:
        for score in self.scores:
            if score.model == model:
                return score
        raise ModelError(f"no model {model!r} in the comparison")

    def table(self) -> list[dict[str, Any]]:
        """The per-model table as plain records (see ModelScore.records)."""
        return [row for score in self.scores for row in score.records()]


def compare_models(
    frame: pd.DataFrame,
    space: Space | None = None,
    *,
    target: str = "bw_min",
    seeds: int = 10,
    quick: bool = False,
    models: Sequence[str] | None = None,
    rf_max_depth: int | None = None,
    rf_criterion: str = "squared_error",
    max_group_folds: int | None = None,
    progress: Steps | None = None,
) -> Comparison:
    """Score the zoo (or `models`, plus both baselines: BASELINES) on a summary frame of
    one system.

    ModelError for a bad target, seeds < 1, too few rows, or a frame with several systems.
    """
    data, dropped = usable_rows(frame, target, "training")
    if seeds < 1:
        raise ModelError(f"seeds must be an int >= 1, got {seeds!r}")
    zoo = model_choices(
        with_baselines(models), quick=quick, rf_max_depth=rf_max_depth, rf_criterion=rf_criterion
    )
    schema = infer_schema(data, space)
    X = schema.transform(data)
    y = np.log(data[target].to_numpy(dtype=float))
    folds: list[FoldScore] = []
    residuals: dict[str, list[float]] = {c.name: [] for c in zoo}
    limit = max_group_folds if max_group_folds is not None else (6 if quick else 12)
    group_by, held_out, note = _group_plan(data, limit)
    total = (seeds + len(held_out)) * len(zoo)
    for seed in range(seeds):
        train, test = train_test_split(np.arange(len(y)), test_size=TEST_SIZE, random_state=seed)
        for candidate in zoo:
            if progress is not None:
                progress(f"{candidate.name}, split {seed + 1}/{seeds}", len(folds), total)
            score, logs = _fit_and_score(candidate, schema, seed, X, y, train, test)
            folds.append(FoldScore(candidate.name, "split", f"seed={seed}", *score))
            residuals[candidate.name].extend(logs)
    if group_by is not None:
        values = np.array([cell_value(v) for v in data[group_by].tolist()])
        for number, held in enumerate(held_out, start=1):
            test = np.flatnonzero(values == held)
            train = np.flatnonzero(values != held)
            for candidate in zoo:
                if progress is not None:
                    what = f"{candidate.name}, {group_by} {number}/{len(held_out)}"
                    progress(what, len(folds), total)
                score, _ = _fit_and_score(candidate, schema, 0, X, y, train, test)
                folds.append(FoldScore(candidate.name, "group", f"{group_by}={held}", *score))
    scores = [_model_score(c, folds) for c in zoo]
    return Comparison(
        target=target,
        rows=len(data),
        dropped=dropped,
        seeds=seeds,
        quick=quick,
        group_by=group_by,
        groups_held_out=[int(v) for v in held_out],
        group_note=note,
        scores=scores,
        folds=folds,
        residuals=residuals,
        schema=schema,
    )


def fit_model(
    frame: pd.DataFrame,
    space: Space | None,
    model: str,
    *,
    target: str = "bw_min",
    quick: bool = False,
    rf_max_depth: int | None = None,
    rf_criterion: str = "squared_error",
    residuals: Sequence[float] | None = None,
) -> TrainedModel:
    """`model` of the zoo fitted on every usable row of `frame` (seed 0).

    `residuals` (held-out log(actual/predicted)) give a non-forest model its quantiles.
    """
    data, _ = usable_rows(frame, target, "training")
    systems = single_system(data, "training")
    zoo = model_choices([model], quick=quick, rf_max_depth=rf_max_depth, rf_criterion=rf_criterion)
    (candidate,) = [c for c in zoo if c.name == model]
    schema = infer_schema(data, space)
    estimator = configure(candidate.make(0), schema)
    _fit(estimator, schema.transform(data), np.log(data[target].to_numpy(dtype=float)))
    metadata = new_metadata(
        estimator=estimator,
        model=model,
        description=candidate.description,
        target=target,
        schema=schema,
        space=space.name if space is not None else None,
        space_definition=space.to_dict() if space is not None else None,
        systems=systems,
        training_rows=len(data),
        residuals=residuals,
    )
    # Which values of each parameter the rows had: predict marks a configuration that sets
    # another (a tree extrapolates there, and ranked `automatic` first on data of only
    # enable and disable).
    metadata["trained_values"] = {
        column.removeprefix(CONFIG_PREFIX): sorted({str(cell_value(v)) for v in data[column]})
        for column in data.columns
        if column.startswith(CONFIG_PREFIX)
    }
    return TrainedModel(estimator, schema, metadata)


def with_baselines(models: Sequence[str] | None) -> list[str] | None:
    """`models` with both baselines (None, the default choice, holds them already; the
    forest is always added by model_choices)."""
    if models is None:
        return None
    return list(dict.fromkeys([*models, BASELINE, AVERAGE_BEST]))


def _fit(estimator: Any, X: npt.NDArray[np.float64], y: npt.NDArray[np.float64]) -> None:
    # One thread: fair build times across models, and no OpenMP threads spinning against
    # MPI ranks or other work on a small machine (seen: a 10 s fit took 6 minutes).
    # A fit that stops at its iteration limit is said once, by model, at the end of the
    # command (iotuner._quiet), not as scikit-learn's warning per fit.
    with converging(estimator), threadpool_limits(limits=1):
        estimator.fit(X, y)


def _fit_and_score(
    candidate: Candidate,
    schema: FeatureSchema,
    seed: int,
    X: npt.NDArray[np.float64],
    y: npt.NDArray[np.float64],
    train: npt.NDArray[np.intp],
    test: npt.NDArray[np.intp],
) -> tuple[tuple[int, int, Metrics], list[float]]:
    """Fit on `train`, predict `test`; the fold's (n_train, n_test, metrics) and the test
    rows' log residuals."""
    estimator = configure(candidate.make(seed), schema)
    start = time.perf_counter()
    _fit(estimator, X[train], y[train])
    built = time.perf_counter() - start
    start = time.perf_counter()
    with threadpool_limits(limits=1):
        predicted = np.asarray(estimator.predict(X[test]), dtype=float)
    tested = time.perf_counter() - start
    metrics = regression_metrics(
        np.exp(y[test]), np.exp(predicted), build_seconds=built, test_seconds=tested
    )
    return (len(train), len(test), metrics), [float(v) for v in y[test] - predicted]


def _group_plan(data: pd.DataFrame, limit: int) -> tuple[str | None, list[int], str]:
    """Which column groups the rows, the values held out one at a time, and a note."""
    if limit < 2:
        raise ModelError(f"max_group_folds must be an int >= 2, got {limit!r}")
    for column, words in (("nprocs", "scales (nprocs)"), ("group", "size groups")):
        values = sorted({int(cell_value(v)) for v in data[column].tolist()})
        if len(values) < 2:
            continue
        if len(values) <= limit:
            return column, values, f"leave-one-group-out over all {len(values)} {words}"
        picks = sorted({round(i) for i in np.linspace(0, len(values) - 1, limit)})
        held = [values[i] for i in picks]
        note = (
            f"leave-one-group-out over {len(held)} of {len(values)} {words}, spread evenly "
            "from the smallest to the largest"
        )
        return column, held, note
    return None, [], "one scale and one size group: no leave-one-group-out scheme"


def _model_score(candidate: Candidate, folds: Sequence[FoldScore]) -> ModelScore:
    split = [f.metrics for f in folds if f.model == candidate.name and f.scheme == "split"]
    group = [f.metrics for f in folds if f.model == candidate.name and f.scheme == "group"]
    split_mean, split_std = _mean_std(split)
    group_mean, group_std = _mean_std(group) if group else (None, None)
    return ModelScore(
        candidate.name,
        candidate.description,
        candidate.baseline,
        split_mean,
        split_std,
        group_mean,
        group_std,
    )


def _mean_std(metrics: Sequence[Metrics]) -> tuple[Metrics, Metrics]:
    """Mean and sample standard deviation (0 for one value) of each metric, NaN-aware."""
    names = [f.name for f in fields(Metrics)]
    table = np.array([[getattr(m, n) for n in names] for m in metrics], dtype=float)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", category=RuntimeWarning)
        mean = np.nanmean(table, axis=0)
        std = np.nanstd(table, axis=0, ddof=1) if len(metrics) > 1 else np.zeros(len(names))
    return Metrics(*map(float, mean)), Metrics(*map(float, np.nan_to_num(std)))
