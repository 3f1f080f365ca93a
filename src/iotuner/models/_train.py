"""`iotuner train`: compare the model zoo on a summary frame, choose one by a fixed rule, fit
it on all the rows and save it.

Evaluation
----------
Only rows whose target is a positive bandwidth are used (the others are counted). Every
candidate (iotuner.models._zoo, _ranking) and both baselines (below) are scored with the
dissertation's metrics (R, MAPE, RMSPE, MAE, RMSE in MiB/s, build and test time) under two
schemes:

* split: a random 70/30 train/test split of the rows, repeated with seeds 0 .. seeds-1
  (the dissertation used one 70/30 split); mean and standard deviation over the seeds.
* group: leave-one-group-out. The groups are whole scales (nprocs values) when the frame
  has more than one scale, else whole size groups (the `group` column). Each fold trains
  on all other groups and tests on the held-out one, so the score says how a model does
  on a scale or size it has never seen, which is what a tuner meets. When there are more
  groups than `max_group_folds` (12, or 6 with quick), that many groups spread evenly over
  the sorted values, smallest and largest included, are held out one at a time. With one
  scale and one size group there is no group scheme. Mean and std are over the folds.

Selection rule (SELECTION_RULE)
-------------------------------
A model is chosen by what a tuner does with it: order the configurations of a workload it
has not measured (iotuner.models._evaluate, leave-one-workload-out, at most
`max_workload_folds` workloads held out). Every model is judged on the same held-out
workloads, beside two baselines (iotuner.models._zoo.BASELINES) that are always judged,
whatever `models` names: the random forest on log bandwidth (the dissertation's model, and
iotuner's default until the ranking candidates of iotuner.models._ranking) and
average_best, the best configuration on average (one order of the configurations for
every workload: their mean log bandwidth relative to each training workload's median).

1. Admissible: a model whose mean zero-trial pick (measured bandwidth of the model's first
   choice over the workload's best) is at least each baseline's; when the data names two
   programs or more, its mean pick under leave-one-program-out too (the question a user
   asks: a program the model never saw). A candidate that picks worse than a baseline is
   never shipped; when every candidate does, the baseline with the best pick is.
2. Among the admissible, the highest mean pick leads; every one whose mean pick is at least
   the leader's minus the leader's standard error (over the held-out workloads) is tied
   with it.
3. Stability: among the tied, the highest worst held-out pick (the pick on the workload
   where the model did worst) leads, and those within the same standard error tie.
4. Among those, the highest mean Spearman correlation within a workload leads, again with
   those within its standard error tied.
5. Among those, the lowest median MdAPE wins.

The pick comes first because it is the recommendation a user gets with no trial at all; a
model that is as good on average but fails badly on one workload is the one a user meets
on that workload, so the worst pick comes next; the order (Spearman) decides how soon a
search the model guides gets there; the error of the bandwidth itself matters least,
since a tuner compares configurations of one workload. The reason (and `train`'s output,
`--json` too) gives the baselines' mean pick beside the chosen model's, the candidates
left out below them, and whether a baseline was shipped because every candidate lost to
it (Selection). With one workload there is no such scheme and the earlier rule decides
among all models, baselines included: the lowest mean leave-one-group-out MAPE (within
one standard deviation), then the lowest mean 70/30 MAPE (within one standard
deviation), then the lowest mean test time. The MAPE tables of both schemes above are
still computed and reported, for the baselines too.
"""

import math
import time
import warnings
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd
from sklearn.model_selection import train_test_split
from threadpoolctl import threadpool_limits

from iotuner._progress import Steps
from iotuner._quiet import converging
from iotuner.measurement import CONFIG_PREFIX, System
from iotuner.models._calibrate import calibrate
from iotuner.models._common import (
    BANDWIDTH_STATS,
    ModelError,
    cell_value,
    positive_rows,
    require_columns,
    single_system,
)
from iotuner.models._evaluate import Evaluation, SchemeResult, evaluate_models, model_choices
from iotuner.models._features import FeatureSchema, infer_schema
from iotuner.models._metrics import Metrics, regression_metrics
from iotuner.models._ranking import configure
from iotuner.models._saved import TrainedModel, new_metadata, save_model
from iotuner.models._zoo import AVERAGE_BEST, BASELINE, BASELINES, Candidate
from iotuner.space import Space

__all__ = [
    "SELECTION_RULE",
    "Comparison",
    "FoldScore",
    "ModelScore",
    "PickFigures",
    "Selection",
    "TrainReport",
    "choose_model",
    "compare_models",
    "fit_model",
    "select_model",
    "train_command",
]

SELECTION_RULE = (
    "only a model whose mean zero-trial pick under leave-one-workload-out is at least both "
    "baselines' (random_forest and average_best, on the same held-out workloads), and with "
    "two programs or more under leave-one-program-out too (else the best baseline is "
    "shipped); of those, the highest mean pick, models within one standard "
    "error of it tied; then the highest worst held-out pick (within the same standard "
    "error); then the highest mean Spearman within a workload (within one standard error); "
    "then the lowest median MdAPE; with one workload: the lowest leave-one-group-out MAPE, "
    "then 70/30 MAPE (within one standard deviation), then the lowest test time"
)

FALLBACK_RULE = "lowest group MAPE, then 70/30 MAPE, then test time"

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


@dataclass(frozen=True)
class PickFigures:
    """One model's zero-trial pick over the held-out workloads: mean, worst (lowest) and
    standard deviation."""

    mean: float
    worst: float
    std: float


@dataclass(frozen=True)
class Selection:
    """What choose_model decided and what it compared.

    `by` is "figures" (leave-one-workload-out, SELECTION_RULE) or "error" (one workload:
    the MAPE of the comparison). `workloads` held out, the same for every model judged;
    `compared` every model judged, `baselines` those of them that are baselines
    (iotuner.models._zoo.BASELINES); `picks` every model's PickFigures (empty by error);
    `left_out` the candidates whose mean pick is below a baseline's (never shipped);
    `candidates_lost` when every candidate is, so a baseline is shipped.
    """

    chosen: str
    reason: str
    by: str
    workloads: int
    compared: tuple[str, ...]
    baselines: tuple[str, ...]
    picks: dict[str, PickFigures]
    left_out: tuple[str, ...]
    baseline_shipped: bool
    candidates_lost: bool

    def compared_text(self) -> str:
        """What was compared, in one sentence: the baselines' mean pick beside the chosen
        model's, and whether a baseline was shipped because the candidates lost to it."""
        others = len([m for m in self.compared if m not in self.baselines])
        models = f"{others} candidate{'s' if others != 1 else ''}"
        if self.by != "figures":
            return (
                f"{models} and the baselines {', '.join(self.baselines) or 'none'} by their "
                "MAPE (one workload: no held-out workloads to compare zero-trial picks on)"
            )
        chosen = self.picks[self.chosen]
        text = (
            f"{models} and the baselines on the same {self.workloads} held-out workloads; "
            f"mean zero-trial pick: "
            + ", ".join(f"{b} {self.picks[b].mean:.3f}" for b in self.baselines)
            + f"; chosen {self.chosen} {chosen.mean:.3f} (worst {chosen.worst:.3f})"
        )
        if self.candidates_lost:
            text += "; every candidate picked worse than a baseline, so the baseline is shipped"
        elif self.baseline_shipped:
            text += "; a baseline is shipped: no candidate did better than it by the rule"
        if self.left_out and not self.candidates_lost:
            text += f"; {len(self.left_out)} below a baseline, never shipped"
        return text

    def to_dict(self) -> dict[str, Any]:
        return {
            "chosen": self.chosen,
            "by": self.by,
            "workloads": self.workloads,
            "compared": list(self.compared),
            "baselines": {
                b: (_pick_dict(self.picks[b]) if b in self.picks else None) for b in self.baselines
            },
            "chosen_pick": (
                _pick_dict(self.picks[self.chosen]) if self.chosen in self.picks else None
            ),
            "picks": {m: _pick_dict(f) for m, f in self.picks.items()},
            "left_out": list(self.left_out),
            "baseline_shipped": self.baseline_shipped,
            "candidates_lost": self.candidates_lost,
            "text": self.compared_text(),
        }


def _pick_dict(figures: PickFigures) -> dict[str, float | None]:
    return {
        name: (value if math.isfinite(value) else None)
        for name, value in (("mean", figures.mean), ("worst", figures.worst), ("std", figures.std))
    }


@dataclass(frozen=True)
class TrainReport:
    """What train_command did: the comparison, the model chosen and why, where it went."""

    comparison: Comparison
    chosen: str
    reason: str
    path: Path
    metadata: dict[str, Any]
    evaluation: Evaluation | None = None

    @property
    def selection(self) -> Selection:
        """What the choice compared (choose_model on the report's own figures)."""
        return choose_model(self.comparison.scores, self.evaluation)

    def to_dict(self) -> dict[str, Any]:
        """Plain data for `train --json`: the choice, the rule, what the choice compared
        (Selection.to_dict), the MAPE table of both schemes and the figures of the
        evaluation (see iotuner.models._evaluate)."""
        return {
            "chosen": self.chosen,
            "reason": self.reason,
            "rule": SELECTION_RULE,
            "baseline": BASELINE,
            "baselines": list(BASELINES),
            "selection": self.selection.to_dict(),
            "path": str(self.path),
            "target": self.comparison.target,
            "rows": self.comparison.rows,
            "dropped": self.comparison.dropped,
            "group_note": self.comparison.group_note,
            "table": self.comparison.table(),
            "evaluation": self.evaluation.to_dict() if self.evaluation is not None else None,
        }


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
    data, dropped = _usable_rows(frame, target)
    if seeds < 1:
        raise ModelError(f"seeds must be an int >= 1, got {seeds!r}")
    zoo = model_choices(
        _with_baselines(models), quick=quick, rf_max_depth=rf_max_depth, rf_criterion=rf_criterion
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


def select_model(
    scores: Sequence[ModelScore], evaluation: Evaluation | None = None
) -> tuple[str, str]:
    """The name of the model SELECTION_RULE picks, and the reason in one sentence.

    With an evaluation that has a leave-one-workload-out scheme the figures decide among
    the models of `scores`; without one the MAPE of the comparison does. See choose_model
    for what was compared.
    """
    selection = choose_model(scores, evaluation)
    return selection.chosen, selection.reason


def choose_model(scores: Sequence[ModelScore], evaluation: Evaluation | None = None) -> Selection:
    """SELECTION_RULE's choice among the models of `scores`, with what it compared: the
    baselines' mean zero-trial pick beside the chosen model's (see Selection)."""
    if not scores:
        raise ModelError("no model scores to choose from")
    if evaluation is not None:
        names = {s.model for s in scores}
        results = [r for r in evaluation.results if r.scheme == "workload" and r.model in names]
        programs = [r for r in evaluation.results if r.scheme == "program" and r.model in names]
        if results:
            return _select_by_figures(results, programs)
    chosen, reason = _select_by_error(scores)
    return Selection(
        chosen=chosen,
        reason=reason,
        by="error",
        workloads=0,
        compared=tuple(s.model for s in scores),
        baselines=tuple(s.model for s in scores if s.model in BASELINES),
        picks={},
        left_out=(),
        baseline_shipped=chosen in BASELINES,
        candidates_lost=False,
    )


def _pick_values(r: SchemeResult) -> list[float]:
    return [s.pick for s in r.workloads]


def _pick_figures(r: SchemeResult) -> PickFigures:
    picks = _pick_values(r)
    if not picks:
        return PickFigures(math.nan, math.nan, math.nan)
    return PickFigures(
        float(np.mean(picks)),
        float(np.min(picks)),
        float(np.std(picks, ddof=1)) if len(picks) > 1 else 0.0,
    )


def _select_by_figures(
    results: Sequence[SchemeResult], programs: Sequence[SchemeResult] = ()
) -> Selection:
    # The rule (SELECTION_RULE): only a model whose mean pick reaches every baseline's may
    # be chosen (the best baseline always does); among those, the best mean pick where
    # models within the leader's standard error count as equal; among those, the highest
    # worst held-out pick (within the same standard error); then the best mean Spearman
    # (within its standard error); then the lowest median MdAPE. The sentence names a tie
    # only when two or more models tie.
    def spearman(r: SchemeResult) -> list[float]:
        return [s.spearman for s in r.workloads if s.spearman is not None]

    figures = {r.model: _pick_figures(r) for r in results}

    def mean_pick(r: SchemeResult) -> float:
        return _finite_low(figures[r.model].mean)

    def worst_pick(r: SchemeResult) -> float:
        return _finite_low(figures[r.model].worst)

    baselines = [r for r in results if r.model in BASELINES]
    bar = max((mean_pick(r) for r in baselines), default=-math.inf)
    # With two programs or more, the question users ask (a program the model never saw)
    # has its own held-out figures: a model must reach the baselines there too.
    program_pick = {r.model: float(np.mean(_pick_values(r))) for r in programs if r.workloads}
    program_bar = max((v for m, v in program_pick.items() if m in BASELINES), default=-math.inf)

    def on_programs(r: SchemeResult) -> bool:
        return program_pick.get(r.model, math.inf) >= program_bar

    admissible = [r for r in results if mean_pick(r) >= bar and on_programs(r)]
    if not admissible:  # no model reaches every baseline on both: the baselines decide
        admissible = [max(baselines, key=lambda r: (mean_pick(r), r.model))]
    left_out = [r for r in results if r not in admissible and r.model not in BASELINES]
    leader = max(admissible, key=lambda r: (mean_pick(r), r.model))
    error = _standard_error(_pick_values(leader))
    tied = [r for r in admissible if mean_pick(r) >= mean_pick(leader) - error]
    steps = [_step("mean zero-trial pick", results, tied, mean_pick, ".3f")]
    if len(tied) > 1:
        before = tied
        best = max(worst_pick(r) for r in tied)
        tied = [r for r in tied if worst_pick(r) >= best - error]
        within = "the pick's standard error"
        steps.append(_step("worst held-out pick", before, tied, worst_pick, ".3f", within))
    if len(tied) > 1:
        before = tied
        tied = _within_error(tied, spearman)
        steps.append(_step("mean Spearman", before, tied, _mean_of(spearman), ".2f"))
    chosen = min(
        tied,
        key=lambda r: (_finite(_or_nan(r.figures.mdape_median)), r.model),
    )
    if len(tied) > 1:
        steps.append("the lowest median MdAPE of them")
    candidates = [r for r in results if r.model not in BASELINES]
    lost = bool(candidates) and all(r not in admissible for r in candidates)
    own = figures[chosen.model]
    label = chosen.model + (" (baseline)" if chosen.model in BASELINES else "")
    reason = (
        f"{label}: "
        + "; ".join(steps)
        + f" (pick {own.mean:.3f}, worst {own.worst:.3f}, std {own.std:.3f}, Spearman "
        f"{_or_nan(chosen.figures.spearman_mean):.2f}, MdAPE "
        f"{_or_nan(chosen.figures.mdape_median):.1f} %)"
    )
    if baselines:
        shown = ", ".join(f"{r.model} {figures[r.model].mean:.3f}" for r in baselines)
        reason += (
            f"; baselines' mean pick on the same {len(leader.workloads)} held-out "
            f"workloads: {shown}"
        )
    if lost:
        best_candidate = max(candidates, key=lambda r: (mean_pick(r), r.model))
        reason += (
            f"; no candidate reached them (best {best_candidate.model} "
            f"{figures[best_candidate.model].mean:.3f}), so a baseline is shipped"
        )
    elif left_out:
        below = sorted(left_out, key=lambda r: (-mean_pick(r), r.model))
        reason += "; below them, never shipped: " + ", ".join(
            f"{r.model} {figures[r.model].mean:.3f}"
            + ("" if on_programs(r) else f" (held-out programs {program_pick[r.model]:.3f})")
            for r in below
        )
    if program_pick:
        shown = ", ".join(f"{m} {v:.3f}" for m, v in sorted(program_pick.items()) if m in BASELINES)
        reason += f"; on held-out programs the baselines pick {shown}"
    return Selection(
        chosen=chosen.model,
        reason=reason,
        by="figures",
        workloads=len(leader.workloads),
        compared=tuple(r.model for r in results),
        baselines=tuple(r.model for r in baselines),
        picks=figures,
        left_out=tuple(r.model for r in left_out),
        baseline_shipped=chosen.model in BASELINES,
        candidates_lost=lost,
    )


def _mean_of(values_of: Any) -> Any:
    def mean(r: SchemeResult) -> float:
        values = values_of(r)
        return float(np.mean(values)) if values else math.nan

    return mean


def _step(
    figure: str,
    among: Sequence[SchemeResult],
    tied: Sequence[SchemeResult],
    value: Any,
    form: str,
    within: str = "the best's standard error",
) -> str:
    """One step of the choice in words: the best `figure`, with the runners-up for scale
    when it stands alone, or the models that tie with it (within `within`)."""
    ranked = sorted(among, key=lambda r: (-_finite_low(value(r)), r.model))
    if len(among) == 1:
        return f"the only model judged ({figure} {value(among[0]):{form}})"
    if len(tied) == 1:
        others = [r for r in ranked if r.model != tied[0].model][:2]
        after = "; ".join(f"{r.model} {value(r):{form}}" for r in others)
        return f"best {figure} ({value(tied[0]):{form}}" + (f"; {after})" if after else ")")
    names = {r.model for r in tied}
    shown = ", ".join(f"{r.model} {value(r):{form}}" for r in ranked if r.model in names)
    return f"{len(tied)} models tie on {figure}, within {within} ({shown})"


def _finite_low(value: float) -> float:
    return value if math.isfinite(value) else -math.inf


def _standard_error(values: Sequence[float]) -> float:
    return float(np.std(values, ddof=1) / math.sqrt(len(values))) if len(values) > 1 else 0.0


def _within_error(results: Sequence[SchemeResult], values_of: Any) -> list[SchemeResult]:
    """The results whose mean is at least the best mean less the best's standard error."""

    def mean(r: SchemeResult) -> float:
        values = values_of(r)
        return float(np.mean(values)) if values else -math.inf

    best = max(results, key=lambda r: (mean(r), r.model))
    error = _standard_error(values_of(best))
    return [r for r in results if mean(r) >= mean(best) - error]


def _or_nan(value: float | None) -> float:
    return math.nan if value is None else value


def _select_by_error(scores: Sequence[ModelScore]) -> tuple[str, str]:
    # Models within one standard deviation of the best mean MAPE count as equal; a tie is
    # named only when two or more models tie.
    tied = list(scores)
    steps = []
    if all(s.group_mean is not None for s in scores):
        tied = _within_one_std(tied, lambda s: s.group_mean, lambda s: s.group_std)
        steps.append(_error_step("leave-one-group-out MAPE", tied))
    if len(tied) > 1:
        tied = _within_one_std(tied, lambda s: s.split_mean, lambda s: s.split_std)
        steps.append(_error_step("70/30 MAPE", tied))
    chosen = min(tied, key=lambda s: (_finite(s.split_mean.test_seconds), s.model))
    if len(tied) > 1:
        steps.append("the fastest to test of them")
    return chosen.model, f"{chosen.model}: " + "; ".join(steps)


def _error_step(figure: str, tied: Sequence[ModelScore]) -> str:
    if len(tied) == 1:
        return f"lowest {figure}"
    return (
        f"{len(tied)} models tie on {figure}, within the best's standard deviation ({_names(tied)})"
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
    data, _ = _usable_rows(frame, target)
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


def train_command(
    frame: pd.DataFrame,
    space: Space | None,
    out_path: Path,
    *,
    target: str = "bw_min",
    seeds: int = 10,
    quick: bool = False,
    models: Sequence[str] | None = None,
    rf_max_depth: int | None = None,
    rf_criterion: str = "squared_error",
    max_workload_folds: int | None = None,
    progress: Steps | None = None,
    system: System | None = None,
) -> TrainReport:
    """`iotuner train`: compare the zoo, choose by SELECTION_RULE, refit the choice on all
    rows and save it in the directory `out_path` (see iotuner.models.load_model).

    `quick` shrinks the zoo and uses at most 3 seeds and 8 held-out workloads (else 20),
    for a demo that trains in seconds. `system`, the system the frame was measured on, is
    kept in the metadata ("system": host, file system, MPI), so that a question about
    another system is known as one (TrainedModel.other_system).
    """
    if quick:
        seeds = min(seeds, 3)
    comparison = compare_models(
        frame,
        space,
        target=target,
        seeds=seeds,
        quick=quick,
        models=models,
        rf_max_depth=rf_max_depth,
        rf_criterion=rf_criterion,
        progress=progress,
    )
    evaluation = _evaluate_for_selection(
        frame,
        space,
        target=target,
        quick=quick,
        models=models,
        rf_max_depth=rf_max_depth,
        rf_criterion=rf_criterion,
        max_folds=max_workload_folds if max_workload_folds is not None else (8 if quick else 20),
        progress=progress,
    )
    chosen, reason = select_model(comparison.scores, evaluation)
    trained = fit_model(
        frame,
        space,
        chosen,
        target=target,
        quick=quick,
        rf_max_depth=rf_max_depth,
        rf_criterion=rf_criterion,
        residuals=comparison.residuals[chosen],
    )
    # The interval every decision rests on, calibrated on held-out workloads
    # (iotuner.models._calibrate): the chosen model refitted once per fold.
    zoo = model_choices([chosen], quick=quick, rf_max_depth=rf_max_depth, rf_criterion=rf_criterion)
    calibration = calibrate(frame, space, next(c for c in zoo if c.name == chosen), target=target)
    if calibration is not None:
        trained.metadata["calibration"] = calibration.to_dict()
    if system is not None:
        trained.metadata["system"] = asdict(system)
    trained.metadata["selection"] = {"rule": SELECTION_RULE, "reason": reason}
    trained.metadata["evaluation"] = {
        "rows": comparison.rows,
        "dropped": comparison.dropped,
        "seeds": comparison.seeds,
        "test_size": TEST_SIZE,
        "group_by": comparison.group_by,
        "groups_held_out": comparison.groups_held_out,
        "group_note": comparison.group_note,
        "baseline": BASELINE,
        "table": comparison.table(),
        "figures": evaluation.to_dict() if evaluation is not None else None,
    }
    save_model(trained, Path(out_path))
    return TrainReport(comparison, chosen, reason, Path(out_path), trained.metadata, evaluation)


def _evaluate_for_selection(
    frame: pd.DataFrame,
    space: Space | None,
    *,
    target: str,
    quick: bool,
    models: Sequence[str] | None,
    rf_max_depth: int | None,
    rf_criterion: str,
    max_folds: int,
    progress: Steps | None,
) -> Evaluation | None:
    """Leave-one-workload-out figures of the models and both baselines (on the same held-out
    workloads: evaluate_models holds out the same folds for every model), or None with one
    workload."""
    evaluation = evaluate_models(
        frame,
        space,
        model_choices(
            _with_baselines(models),
            quick=quick,
            rf_max_depth=rf_max_depth,
            rf_criterion=rf_criterion,
        ),
        target=target,
        schemes=("workload", "program"),
        max_folds=max_folds,
        progress=progress,
    )
    return evaluation if evaluation.results else None


def _with_baselines(models: Sequence[str] | None) -> list[str] | None:
    """`models` with both baselines (None, the default choice, holds them already; the
    forest is always added by model_choices)."""
    if models is None:
        return None
    return list(dict.fromkeys([*models, BASELINE, AVERAGE_BEST]))


def _usable_rows(frame: pd.DataFrame, target: str) -> tuple[pd.DataFrame, int]:
    """The rows with a positive target (reindexed) and how many were dropped."""
    if target not in BANDWIDTH_STATS:
        raise ModelError(f"the target must be one of {', '.join(BANDWIDTH_STATS)}, got {target!r}")
    require_columns(frame, ["system", target], "training")
    single_system(frame, "training")
    good = positive_rows(frame, target)
    data = frame.loc[good].reset_index(drop=True)
    if len(data) < 10:
        raise ModelError(
            f"training needs at least 10 rows with a positive {target}, got {len(data)}"
        )
    return data, int((~good).sum())


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


def _within_one_std(
    scores: Sequence[ModelScore],
    mean_of: Any,
    std_of: Any,
) -> list[ModelScore]:
    """The scores whose mean MAPE is at most the best mean plus the best's std."""
    best = min(scores, key=lambda s: (_finite(mean_of(s).mape), s.model))
    limit = _finite(mean_of(best).mape) + _finite(std_of(best).mape)
    return [s for s in scores if _finite(mean_of(s).mape) <= limit]


def _finite(value: float) -> float:
    return value if math.isfinite(value) else math.inf


def _names(scores: Sequence[ModelScore]) -> str:
    return ", ".join(s.model for s in scores)
