"""How `iotuner train` chooses its model (SELECTION_RULE): by what a tuner does with it.

A model is chosen by what a tuner does with it: order the configurations of a workload it
has not measured (iotuner.models._evaluate, leave-one-workload-out, at most
`max_workload_folds` workloads held out). Every model is judged on the same held-out
workloads, beside two baselines (iotuner.models._zoo.BASELINES) that are always judged,
whatever `models` names: the random forest on log bandwidth (the dissertation's model, and
iotuner's default until the ranking candidates of iotuner.models._ranking) and
average_best, the best configuration on average (one order of the configurations for
every workload: their mean log bandwidth relative to each training workload's median).
choose_model gives the choice with what it compared (Selection), select_model its name and
the reason in one sentence; the steps of the rule and their reasons are under SELECTION_RULE.
"""

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from iotuner.models._common import ModelError
from iotuner.models._compare import ModelScore
from iotuner.models._figures import Evaluation, SchemeResult
from iotuner.models._zoo import BASELINES

__all__ = [
    "SELECTION_RULE",
    "PickFigures",
    "Selection",
    "choose_model",
    "select_by_figures",
    "select_model",
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
"""The rule in one sentence (kept in a trained model's metadata). Its steps:

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
deviation), then the lowest mean test time. The MAPE tables of both schemes (split and
group, iotuner.models._compare) are still computed and reported, for the baselines too.
"""

FALLBACK_RULE = "lowest group MAPE, then 70/30 MAPE, then test time"


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
            return select_by_figures(results, programs)
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


def select_by_figures(
    results: Sequence[SchemeResult], programs: Sequence[SchemeResult] = ()
) -> Selection:
    """SELECTION_RULE's choice among leave-one-workload-out `results`, with `programs` the
    same models under leave-one-program-out (empty with fewer than two programs)."""
    # The rule (SELECTION_RULE): only a model whose mean pick reaches every baseline's may
    # be chosen (the best baseline always does); among those, the best mean pick where
    # models within the leader's standard error count as equal; among those, the highest
    # worst held-out pick (within the same standard error); then the best mean Spearman
    # (within its standard error); then the lowest median MdAPE. The sentence names a tie
    # only when two or more models tie.
    admission = _Admission(results, programs)
    leader, chosen, steps = _break_ties(results, admission)
    candidates = [r for r in results if r.model not in BASELINES]
    lost = bool(candidates) and all(r not in admission.admissible for r in candidates)
    return Selection(
        chosen=chosen.model,
        reason=_figures_reason(admission, leader, chosen, steps, candidates, lost),
        by="figures",
        workloads=len(leader.workloads),
        compared=tuple(r.model for r in results),
        baselines=tuple(r.model for r in admission.baselines),
        picks=admission.figures,
        left_out=tuple(r.model for r in admission.left_out),
        baseline_shipped=chosen.model in BASELINES,
        candidates_lost=lost,
    )


class _Admission:
    """Step 1 of the rule: which of `results` may be chosen, the models whose mean pick
    reaches every baseline's (on held-out programs too, when there are such figures)."""

    def __init__(self, results: Sequence[SchemeResult], programs: Sequence[SchemeResult]):
        self.figures = {r.model: _pick_figures(r) for r in results}
        self.baselines = [r for r in results if r.model in BASELINES]
        bar = max((self.mean_pick(r) for r in self.baselines), default=-math.inf)
        # With two programs or more, the question users ask (a program the model never saw)
        # has its own held-out figures: a model must reach the baselines there too.
        self.program_pick = {
            r.model: float(np.mean(_pick_values(r))) for r in programs if r.workloads
        }
        self.program_bar = max(
            (v for m, v in self.program_pick.items() if m in BASELINES), default=-math.inf
        )
        admissible = [r for r in results if self.mean_pick(r) >= bar and self.on_programs(r)]
        if not admissible:  # no model reaches every baseline on both: the baselines decide
            admissible = [max(self.baselines, key=lambda r: (self.mean_pick(r), r.model))]
        self.admissible = admissible
        self.left_out = [r for r in results if r not in admissible and r.model not in BASELINES]

    def mean_pick(self, r: SchemeResult) -> float:
        return _finite_low(self.figures[r.model].mean)

    def worst_pick(self, r: SchemeResult) -> float:
        return _finite_low(self.figures[r.model].worst)

    def on_programs(self, r: SchemeResult) -> bool:
        return self.program_pick.get(r.model, math.inf) >= self.program_bar


def _break_ties(
    results: Sequence[SchemeResult], admission: _Admission
) -> tuple[SchemeResult, SchemeResult, list[str]]:
    """Steps 2 to 5 of the rule among the admissible: the leader by mean pick, the model
    chosen, and each step that decided in words."""

    def spearman(r: SchemeResult) -> list[float]:
        return [s.spearman for s in r.workloads if s.spearman is not None]

    mean_pick, worst_pick = admission.mean_pick, admission.worst_pick
    admissible = admission.admissible
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
    return leader, chosen, steps


def _figures_reason(
    admission: _Admission,
    leader: SchemeResult,
    chosen: SchemeResult,
    steps: Sequence[str],
    candidates: Sequence[SchemeResult],
    lost: bool,
) -> str:
    """The reason for the choice in one sentence: the steps, the chosen model's figures,
    the baselines' mean pick, and the candidates below them."""
    figures, mean_pick = admission.figures, admission.mean_pick
    own = figures[chosen.model]
    label = chosen.model + (" (baseline)" if chosen.model in BASELINES else "")
    reason = (
        f"{label}: "
        + "; ".join(steps)
        + f" (pick {own.mean:.3f}, worst {own.worst:.3f}, std {own.std:.3f}, Spearman "
        f"{_or_nan(chosen.figures.spearman_mean):.2f}, MdAPE "
        f"{_or_nan(chosen.figures.mdape_median):.1f} %)"
    )
    if admission.baselines:
        shown = ", ".join(f"{r.model} {figures[r.model].mean:.3f}" for r in admission.baselines)
        reason += (
            f"; baselines' mean pick on the same {len(leader.workloads)} held-out "
            f"workloads: {shown}"
        )
    program_pick = admission.program_pick
    if lost:
        best_candidate = max(candidates, key=lambda r: (mean_pick(r), r.model))
        reason += (
            f"; no candidate reached them (best {best_candidate.model} "
            f"{figures[best_candidate.model].mean:.3f}), so a baseline is shipped"
        )
    elif admission.left_out:
        below = sorted(admission.left_out, key=lambda r: (-mean_pick(r), r.model))
        reason += "; below them, never shipped: " + ", ".join(
            f"{r.model} {figures[r.model].mean:.3f}"
            + (
                ""
                if admission.on_programs(r)
                else f" (held-out programs {program_pick[r.model]:.3f})"
            )
            for r in below
        )
    if program_pick:
        shown = ", ".join(f"{m} {v:.3f}" for m, v in sorted(program_pick.items()) if m in BASELINES)
        reason += f"; on held-out programs the baselines pick {shown}"
    return reason


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
