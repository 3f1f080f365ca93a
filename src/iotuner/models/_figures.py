"""The figures of models judged on held-out workloads (iotuner.models._evaluate): one
held-out workload's score (score_workload: MdAPE, Spearman, zero-trial pick, trials to the
target with and without the belief update), their aggregates over a scheme's workloads
(figures_of), random order's exact figures on the same workloads (random_order_figures),
and the records an evaluation returns (Evaluation, SchemeResult, Figures, WorkloadScore).
The definitions of every figure are in _evaluate's module text.
"""

import math
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt
from scipy.stats import spearmanr
from threadpoolctl import threadpool_limits

from iotuner.models._common import ModelError
from iotuner.models._online import WorkloadBelief

__all__ = [
    "DEFAULT_BUDGET",
    "SCHEMES",
    "TARGET_FRACTION",
    "Evaluation",
    "Figures",
    "SchemeResult",
    "WorkloadScore",
    "figures_of",
    "log_spread",
    "random_order_figures",
    "score_workload",
]

SCHEMES = ("workload", "program")
"""leave-one-workload-out and leave-one-program-out."""

DEFAULT_BUDGET = 10
"""Trials a simulated search may take before a workload counts as not reached."""

TARGET_FRACTION = 0.95
"""A trial reaches the target when it measures this fraction of the workload's best."""


@dataclass(frozen=True)
class WorkloadScore:
    """One held-out workload as one model saw it (see the module text)."""

    workload: str
    program: str | None
    configurations: int
    mdape: float
    spearman: float | None
    pick: float
    trials: int | None
    static_trials: int | None


@dataclass(frozen=True)
class Figures:
    """The aggregates over held-out workloads; None where a figure does not apply (random
    order predicts nothing) or no workload gives it."""

    workloads: int
    mdape_median: float | None
    spearman_median: float | None
    spearman_mean: float | None
    spearman_workloads: int
    pick_median: float
    pick_mean: float
    trials_mean: float | None
    reached: float
    static_trials_mean: float | None = None
    static_reached: float | None = None


@dataclass(frozen=True)
class SchemeResult:
    """One model under one scheme: the figures and every held-out workload's score."""

    model: str
    description: str
    scheme: str
    folds: int
    figures: Figures
    workloads: list[WorkloadScore] = field(repr=False)
    coverage: dict[str, Any] | None = None  # Coverage.to_dict() of the 10-90 % interval


@dataclass(frozen=True)
class Evaluation:
    """The result of evaluate_models: per model and scheme, and random order per scheme.

    `notes` says per scheme which folds were held out, or why there is no such scheme.
    """

    target: str
    rows: int
    dropped: int
    budget: int
    target_fraction: float
    max_folds: int
    seed: int
    belief: str
    notes: dict[str, str]
    results: list[SchemeResult]
    random: dict[str, Figures]

    @property
    def schemes(self) -> list[str]:
        return [s for s in SCHEMES if s in self.random]

    @property
    def models(self) -> list[str]:
        return list(dict.fromkeys(r.model for r in self.results))

    def result(self, model: str, scheme: str) -> SchemeResult:
        for result in self.results:
            if result.model == model and result.scheme == scheme:
                return result
        raise ModelError(f"no result for model {model!r} under scheme {scheme!r}")

    def to_dict(self) -> dict[str, Any]:
        """Plain data (JSON-ready: NaN and infinity become None)."""
        plain: dict[str, Any] = _plain(asdict(self))
        return plain


def random_order_figures(
    workloads: Sequence[npt.NDArray[np.float64]],
    budget: int,
    target_fraction: float = TARGET_FRACTION,
) -> Figures:
    """The figures of trying each workload's configurations in random order (exact
    expectations; `workloads` holds each workload's log bandwidths)."""
    picks, reach, weighted = [], [], []
    for log_bw in workloads:
        bw = np.exp(np.asarray(log_bw, dtype=float))
        best = float(bw.max())
        n, k = len(bw), int(np.sum(bw >= target_fraction * best))
        picks.append(float(bw.mean() / best))
        p_t = _first_hit_probabilities(n, k, min(budget, n))
        reach.append(float(p_t.sum()))
        weighted.append(float(np.sum(np.arange(1, len(p_t) + 1) * p_t)))
    reached = float(np.mean(reach)) if reach else math.nan
    return Figures(
        workloads=len(picks),
        mdape_median=None,
        spearman_median=None,
        spearman_mean=None,
        spearman_workloads=0,
        pick_median=float(np.median(picks)) if picks else math.nan,
        pick_mean=float(np.mean(picks)) if picks else math.nan,
        trials_mean=float(sum(weighted) / sum(reach)) if sum(reach) > 0 else None,
        reached=reached,
    )


def _first_hit_probabilities(n: int, k: int, horizon: int) -> npt.NDArray[np.float64]:
    """P(the first of k good among n shows at trial t), t = 1 .. horizon, drawing without
    replacement."""
    p = np.zeros(horizon)
    miss = 1.0
    for t in range(1, horizon + 1):
        remaining = n - t + 1
        p[t - 1] = miss * k / remaining
        miss *= (remaining - k) / remaining
    return p


def score_workload(
    estimator: Any,
    X: npt.NDArray[np.float64],
    predicted: npt.NDArray[np.float64],
    log_bw: npt.NDArray[np.float64],
    label: str,
    program: str | None,
    *,
    budget: int,
    target_fraction: float,
    fallback_std: float,
    belief: bool,
) -> WorkloadScore:
    spread = log_spread(estimator, X)
    prior_std = spread if spread is not None else np.full(len(predicted), fallback_std)
    bw, guess = np.exp(log_bw), np.exp(predicted)
    best = float(bw.max())
    goal = math.log(target_fraction * best)
    order = np.argsort(-predicted, kind="stable")
    static = next((t for t, i in enumerate(order[:budget], 1) if log_bw[i] >= goal), None)
    trials = _belief_trials(X, predicted, prior_std, log_bw, goal, budget) if belief else static
    return WorkloadScore(
        workload=label,
        program=program,
        configurations=len(bw),
        mdape=float(np.median(np.abs(guess - bw) / bw) * 100.0),
        spearman=_spearman(predicted, log_bw),
        pick=float(bw[order[0]] / best),
        trials=trials,
        static_trials=static,
    )


def _belief_trials(
    X: npt.NDArray[np.float64],
    prior_mean: npt.NDArray[np.float64],
    prior_std: npt.NDArray[np.float64],
    log_bw: npt.NDArray[np.float64],
    goal: float,
    budget: int,
) -> int | None:
    """Trials until one reaches `goal` when WorkloadBelief picks each after the first."""
    # An unknown workload field (NaN) is the same in every row of one workload, so 0 in
    # its place changes no distance between the workload's configurations.
    features = np.nan_to_num(X, nan=0.0)
    belief = WorkloadBelief(features, prior_mean, np.maximum(prior_std, 1e-6))
    tried: list[int] = []
    index = int(np.argmax(prior_mean))
    for trial in range(1, min(budget, len(log_bw)) + 1):
        if trial > 1:
            index = int(belief.next_index(exclude=tried))
        tried.append(index)
        if log_bw[index] >= goal:
            return trial
        belief.observe(index, float(log_bw[index]))
    return None


def _spearman(
    predicted: npt.NDArray[np.float64], measured: npt.NDArray[np.float64]
) -> float | None:
    if len(measured) < 3 or np.ptp(measured) == 0 or np.ptp(predicted) == 0:
        return None
    rho = float(spearmanr(predicted, measured).statistic)
    return rho if math.isfinite(rho) else None


def figures_of(scores: Sequence[WorkloadScore]) -> Figures:
    """The aggregates over some held-out workloads (all of a scheme, or one program's)."""
    rhos = [s.spearman for s in scores if s.spearman is not None]
    hits = [s.trials for s in scores if s.trials is not None]
    static = [s.static_trials for s in scores if s.static_trials is not None]
    return Figures(
        workloads=len(scores),
        mdape_median=float(np.median([s.mdape for s in scores])),
        spearman_median=float(np.median(rhos)) if rhos else None,
        spearman_mean=float(np.mean(rhos)) if rhos else None,
        spearman_workloads=len(rhos),
        pick_median=float(np.median([s.pick for s in scores])),
        pick_mean=float(np.mean([s.pick for s in scores])),
        trials_mean=float(np.mean(hits)) if hits else None,
        reached=len(hits) / len(scores),
        static_trials_mean=float(np.mean(static)) if static else None,
        static_reached=len(static) / len(scores),
    )


def log_spread(estimator: Any, X: npt.NDArray[np.float64]) -> npt.NDArray[np.float64] | None:
    """The spread (std, log scale) of a fitted estimator's prediction per row: its own
    `predict_std`, or the spread of a forest's trees; None when it has neither."""
    own = getattr(estimator, "predict_std", None)
    if callable(own):
        return np.asarray(own(X), dtype=float)
    members = getattr(estimator, "estimators_", None)
    if isinstance(members, list) and members and hasattr(members[0], "predict"):
        with threadpool_limits(limits=1):
            per_tree = np.stack([np.asarray(m.predict(X), dtype=float) for m in members])
        spread: npt.NDArray[np.float64] = per_tree.std(axis=0)
        return spread
    return None


def _plain(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, float | np.floating):
        number = float(value)
        return number if math.isfinite(number) else None
    return value
