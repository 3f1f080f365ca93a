"""Models judged as they are used: on workloads (and programs) they have never seen.

A tuner asks a model about a workload it has not measured and acts on the model's order of
that workload's configurations. So a model is judged by holding out whole workloads:

* ``workload`` (leave-one-workload-out): a workload is one value of the frame's workload
  columns (iotuner.measurement.WORKLOAD_COLUMNS); every configuration of the held-out
  workload leaves the training rows together. With more workloads than `max_folds`, that
  many are held out one at a time, spread evenly over the sorted workloads from a seeded
  offset.
* ``program`` (leave-one-program-out): every workload of one program (the ``program``
  column) is held out at once, so the model has seen nothing of the application. Only when
  the frame names at least two programs; rows of an unknown program always train.

For each held-out workload, with bandwidth the frame's `target` statistic:

* MdAPE: the median absolute percentage error of the predicted bandwidth over its
  configurations (how far the numbers are off).
* Spearman: the rank correlation of predicted and measured bandwidth over its
  configurations (scipy.stats.spearmanr); only with at least 3 configurations whose
  measured and predicted values are not constant.
* pick: the measured bandwidth of the model's top configuration over the best measured
  (the zero-trial recommendation; 1.0 is the best).
* trials: how many trials a search the model orders takes until one measures at least
  `target_fraction` (95 %) of the best: trial 1 is the model's pick; after each trial the
  measured value updates the model's belief about this workload
  (iotuner.models._online.WorkloadBelief, prior: the model's prediction and spread) and
  the belief names the next trial. Capped at `budget` trials; None when not reached.
  `static_trials` is the same count for the plain model order without updates.

Coverage (per model and scheme): the share of held-out rows inside the 10-90 % interval a
calibration from the *other* held-out workloads gives (iotuner.models._calibrate, what
`train` ships), over all rows, over pairs of configurations of one workload (the gain
interval) and per held-out workload; 80 % is calibrated.

Aggregates over the held-out workloads (Figures): median MdAPE, median and mean Spearman,
median and mean pick, mean trials of the workloads that reach the target and the fraction
that reach it within the budget. Random order is the baseline on the same workloads,
computed exactly: its pick is the mean bandwidth over the best, and with K of N
configurations at the target, P(first hit at trial t) = prod_{i<t-1} (N-K-i)/(N-i) x
K/(N-t+1).

Model spread (the prior's std, log scale): the spread of a forest's trees, or of an
estimator's own `predict_std`; for other estimators the standard deviation of the
training rows' log bandwidth around their workload's mean (how much configurations of one
workload differ), a prior that trusts the order only as much as the data's own spread.
"""

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd
from threadpoolctl import threadpool_limits

from iotuner._progress import Steps
from iotuner._quiet import converging
from iotuner.measurement import WORKLOAD_COLUMNS
from iotuner.models._common import (
    ModelError,
    cell_value,
    usable_rows,
)
from iotuner.models._features import FeatureSchema, infer_schema
from iotuner.models._figures import (
    DEFAULT_BUDGET,
    SCHEMES,
    TARGET_FRACTION,
    Evaluation,
    Figures,
    SchemeResult,
    WorkloadScore,
    figures_of,
    random_order_figures,
    score_workload,
)
from iotuner.models._ranking import RANKING_NAMES, configure, ranking_candidates
from iotuner.models._zoo import AVERAGE_BEST, CANDIDATE_NAMES, Candidate, candidates
from iotuner.space import Space

__all__ = [
    "DEFAULT_MAX_FOLDS",
    "evaluate_models",
    "fit_estimator",
    "model_choices",
    "model_names",
    "usable_rows",
    "workload_keys",
    "workload_labels",
]

DEFAULT_MAX_FOLDS = 40
"""Workloads (or programs) held out at most, one at a time."""

PROGRAM_COLUMN = "program"

DEFAULT_RANKING = ("relative_forest", "relative_boosting")
"""The ranking models (iotuner.models._ranking) compared by default. lambdarank is there by
name only: it did not beat relative_boosting on the figures (bench/transfer.py) and needs
lightgbm, which iotuner does not depend on."""

QUICK_RANKING = ("relative_forest",)
"""The ranking models of the quick comparison (a demo that trains in seconds)."""


def model_names() -> tuple[str, ...]:
    """Every model evaluate and train know: the zoo's, then the ranking models'."""
    return (*CANDIDATE_NAMES, *RANKING_NAMES)


def model_choices(
    names: Sequence[str] | None = None,
    *,
    quick: bool = False,
    rf_max_depth: int | None = None,
    rf_criterion: str = "squared_error",
) -> list[Candidate]:
    """The candidates named (default: the zoo and DEFAULT_RANKING, or QUICK_RANKING with
    quick, and the average_best baseline), the forest baseline always first. ModelError for
    an unknown name or a ranking model whose library is missing."""
    ranking = ranking_candidates(quick)
    default = [*CANDIDATE_NAMES, *(QUICK_RANKING if quick else DEFAULT_RANKING), AVERAGE_BEST]
    wanted = default if names is None else list(dict.fromkeys(names))
    unknown = [n for n in wanted if n not in model_names()]
    if unknown:
        raise ModelError(
            f"unknown model(s) {', '.join(unknown)}; choose from {', '.join(model_names())}"
        )
    missing = [n for n in wanted if n in RANKING_NAMES and n not in ranking]
    if missing and names is not None:
        raise ModelError(f"model(s) {', '.join(missing)} need lightgbm (pip install lightgbm)")
    zoo = [n for n in wanted if n in CANDIDATE_NAMES]
    chosen = candidates(
        zoo if names is not None else None,
        quick=quick,
        rf_max_depth=rf_max_depth,
        rf_criterion=rf_criterion,
    )
    return chosen + [ranking[n] for n in wanted if n in ranking]


def workload_keys(frame: pd.DataFrame) -> tuple[list[str], list[tuple[str, ...]]]:
    """The workload columns the frame has, and each row's workload as a tuple of texts
    (unknown cells read as "default", so they group together)."""
    columns = [c for c in WORKLOAD_COLUMNS if c in frame.columns]
    if PROGRAM_COLUMN in frame.columns and PROGRAM_COLUMN not in columns:
        columns.append(PROGRAM_COLUMN)
    cells = [[str(cell_value(v)) for v in frame[c].tolist()] for c in columns]
    return columns, list(zip(*cells, strict=True)) if cells else [() for _ in range(len(frame))]


def fit_estimator(estimator: Any, X: npt.NDArray[np.float64], y: npt.NDArray[np.float64]) -> Any:
    """`estimator` fitted on one thread (fair times; no OpenMP threads against MPI ranks)."""
    # A fit that stops at its iteration limit is said once, by model, at the end of the
    # command (iotuner._quiet), not as scikit-learn's warning per fit.
    with converging(estimator), threadpool_limits(limits=1):
        estimator.fit(X, y)
    return estimator


def evaluate_models(
    frame: pd.DataFrame,
    space: Space | None,
    models: Sequence[Candidate],
    *,
    target: str = "bw_min",
    schemes: Sequence[str] = SCHEMES,
    budget: int = DEFAULT_BUDGET,
    max_folds: int = DEFAULT_MAX_FOLDS,
    seed: int = 0,
    target_fraction: float = TARGET_FRACTION,
    belief: bool = True,
    progress: Steps | None = None,
) -> Evaluation:
    """Judge each of `models` on `frame` by the `schemes` (see the module text).

    ModelError for a bad target, budget or fold count, too few rows or workloads, or a
    frame with several systems. A scheme the frame cannot give (one workload; no program
    column or one program) is left out and `notes` says why.
    """
    _check_arguments(models, schemes, budget, max_folds, target_fraction)
    data, dropped = usable_rows(frame, target)
    schema = infer_schema(data, space)
    rows = _HeldOutRows(
        data,
        schema.transform(data),
        np.log(data[target].to_numpy(dtype=float)),
        budget=budget,
        target_fraction=target_fraction,
        seed=seed,
        belief=belief,
    )
    plans: dict[str, list[list[int]]] = {}
    notes: dict[str, str] = {}
    for scheme in schemes:
        folds, note = _fold_plan(scheme, data, rows.workload_of, max_folds, seed)
        notes[scheme] = note
        if folds:
            plans[scheme] = folds
    results: list[SchemeResult] = []
    random: dict[str, Figures] = {}
    total = sum(len(folds) for folds in plans.values()) * len(models)
    done = 0
    for scheme, folds in plans.items():
        held_workloads = sorted({w for fold in folds for w in fold})
        random[scheme] = random_order_figures(
            [rows.y[rows.workload_of == w] for w in held_workloads], budget, target_fraction
        )
        for candidate in models:
            results.append(rows.judge(candidate, schema, scheme, folds, (progress, done, total)))
            done += len(folds)
    return Evaluation(
        target=target,
        rows=len(data),
        dropped=dropped,
        budget=budget,
        target_fraction=target_fraction,
        max_folds=max_folds,
        seed=seed,
        belief=(
            "the model's order, updated after each trial by what the trial measured"
            if belief
            else "the plain model order (no update after trials)"
        ),
        notes=notes,
        results=results,
        random=random,
    )


def _check_arguments(
    models: Sequence[Candidate],
    schemes: Sequence[str],
    budget: int,
    max_folds: int,
    target_fraction: float,
) -> None:
    """ModelError for an argument of evaluate_models out of its range."""
    unknown = sorted(set(schemes) - set(SCHEMES))
    if unknown or not schemes:
        raise ModelError(f"schemes must be some of {', '.join(SCHEMES)}, got {list(schemes)!r}")
    if budget < 1:
        raise ModelError(f"the budget must be an int >= 1, got {budget!r}")
    if max_folds < 1:
        raise ModelError(f"max_folds must be an int >= 1, got {max_folds!r}")
    if not 0 < target_fraction <= 1:
        raise ModelError(f"target_fraction must be in (0, 1], got {target_fraction!r}")
    if not models:
        raise ModelError("no model to evaluate")


class _HeldOutRows:
    """The usable rows of an evaluation (X, log bandwidth y, each row's workload code,
    label and program) and how a model is judged on folds of them."""

    def __init__(
        self,
        data: pd.DataFrame,
        X: npt.NDArray[np.float64],
        y: npt.NDArray[np.float64],
        *,
        budget: int,
        target_fraction: float,
        seed: int,
        belief: bool,
    ) -> None:
        self.X, self.y = X, y
        _, keys = workload_keys(data)
        self.workload_of = _codes(keys)
        self.labels = _labels(data, keys)
        self.programs = _programs(data)
        self.budget, self.target_fraction = budget, target_fraction
        self.seed, self.belief = seed, belief

    def judge(
        self,
        candidate: Candidate,
        schema: FeatureSchema,
        scheme: str,
        folds: Sequence[Sequence[int]],
        progress: tuple[Steps | None, int, int],
    ) -> SchemeResult:
        """`candidate` fitted without each fold in turn and scored on the fold's workloads,
        with the coverage of the interval calibrated on the other held-out workloads.
        `progress` is (Steps, folds done before this model's first, folds in all)."""
        # The calibration reads evaluate's folds and helpers: imported here, not at the top.
        from iotuner.models._calibrate import held_out_coverage

        X, y, workload_of = self.X, self.y, self.workload_of
        scores: list[WorkloadScore] = []
        residuals: list[npt.NDArray[np.float64]] = []
        residual_names: list[str] = []
        for number, fold in enumerate(folds, start=1):
            steps, done, total = progress
            if steps is not None:
                steps(f"{candidate.name}, {scheme} {number}/{len(folds)}", done + number - 1, total)
            test = np.isin(workload_of, fold)
            estimator = configure(candidate.make(self.seed), schema)
            fit_estimator(estimator, X[~test], y[~test])
            fallback = _within_workload_std(y[~test], workload_of[~test])
            for w in fold:
                rows = np.flatnonzero(workload_of == w)
                with threadpool_limits(limits=1):
                    predicted = np.asarray(estimator.predict(X[rows]), dtype=float)
                residuals.append(y[rows] - predicted)
                residual_names.append(self.labels[w])
                scores.append(
                    score_workload(
                        estimator,
                        X[rows],
                        predicted,
                        y[rows],
                        self.labels[w],
                        self.programs[rows[0]],
                        budget=self.budget,
                        target_fraction=self.target_fraction,
                        fallback_std=fallback,
                        belief=self.belief,
                    )
                )
        coverage = held_out_coverage(residuals, residual_names, seed=self.seed)
        return SchemeResult(
            candidate.name,
            candidate.description,
            scheme,
            len(folds),
            figures_of(scores),
            scores,
            coverage.to_dict() if coverage is not None else None,
        )


def _codes(keys: Sequence[tuple[str, ...]]) -> npt.NDArray[np.intp]:
    """Each row's workload as a number: the rank of its key among the sorted keys."""
    order = {key: i for i, key in enumerate(sorted(set(keys)))}
    return np.array([order[k] for k in keys], dtype=np.intp)


def _labels(data: pd.DataFrame, keys: Sequence[tuple[str, ...]]) -> dict[int, str]:
    """Each workload's name by its code (see workload_labels)."""
    names = workload_labels(data, keys)
    codes = _codes(keys)
    return {int(code): name for code, name in zip(codes, names, strict=True)}


def workload_labels(data: pd.DataFrame, keys: Sequence[tuple[str, ...]] | None = None) -> list[str]:
    """Each row's workload as text: column=value for the workload columns that vary."""
    columns, found = workload_keys(data)
    keys = found if keys is None else keys
    varying = [i for i in range(len(columns)) if len({k[i] for k in keys}) > 1] or [0]
    if not columns:
        return ["all"] * len(keys)
    return [" ".join(f"{columns[i]}={k[i]}" for i in varying) for k in keys]


def _programs(data: pd.DataFrame) -> list[str | None]:
    if PROGRAM_COLUMN not in data.columns:
        return [None] * len(data)
    return [_program_name(v) for v in data[PROGRAM_COLUMN].tolist()]


def _program_name(value: object) -> str | None:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    text = str(value).strip()
    return text or None


def _fold_plan(
    scheme: str,
    data: pd.DataFrame,
    workload_of: npt.NDArray[np.intp],
    max_folds: int,
    seed: int,
) -> tuple[list[list[int]], str]:
    """The folds of a scheme (each a list of workload codes held out together) and a note."""
    if scheme == "workload":
        count = int(workload_of.max()) + 1
        if count < 2:
            return [], "one workload: no leave-one-workload-out scheme"
        chosen = _spread(count, max_folds, seed)
        words = "all" if len(chosen) == count else f"{len(chosen)} of"
        return (
            [[w] for w in chosen],
            f"leave-one-workload-out: {words} {count} workloads held out one at a time",
        )
    if PROGRAM_COLUMN not in data.columns:
        return [], "the frame has no program column: no leave-one-program-out scheme"
    programs = _programs(data)
    names = sorted({p for p in programs if p is not None})
    if len(names) < 2:
        what = f"one program ({names[0]})" if names else "no program named"
        return [], f"{what}: no leave-one-program-out scheme (needs 2 or more)"
    chosen = _spread(len(names), max_folds, seed)
    folds = []
    for i in chosen:
        rows = [r for r, p in enumerate(programs) if p == names[i]]
        folds.append(sorted({int(workload_of[r]) for r in rows}))
    words = "all" if len(chosen) == len(names) else f"{len(chosen)} of"
    return (
        folds,
        f"leave-one-program-out: {words} {len(names)} programs held out one at a time "
        f"({', '.join(names[i] for i in chosen)})",
    )


def _spread(count: int, limit: int, seed: int) -> list[int]:
    """`limit` of range(count) spread evenly from a seeded offset (all when count <= limit)."""
    if count <= limit:
        return list(range(count))
    step = count / limit
    offset = np.random.default_rng(seed).uniform(0.0, step)
    return sorted({int(offset + i * step) for i in range(limit)})


def _within_workload_std(y: npt.NDArray[np.float64], workload_of: npt.NDArray[np.intp]) -> float:
    """The standard deviation of log bandwidth around each workload's mean."""
    frame = pd.DataFrame({"y": y, "w": workload_of})
    centred = frame["y"] - frame.groupby("w")["y"].transform("mean")
    std = float(centred.std(ddof=0))
    return std if math.isfinite(std) and std > 0 else 0.1
