"""What to try next on the run's main workload (every run teaches: the configuration a refit
chooses is measured by the next run, and judged by the guard). choose_next holds the rules,
in order.

Only configurations whose keys can act on the workload are candidates (can_act).
"""

import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import cached_property, partial
from pathlib import Path
from typing import Any

import numpy as np

from iotuner.measurement import Workload
from iotuner.online.evidence import acting_key, measured_runs, model_evidence, runs_by_config
from iotuner.online.guard import GUARD_RUNS
from iotuner.online.risk import (
    best_measured,
    closest_words,
    gains_over,
    measured_ahead,
    risk_budget,
)
from iotuner.online.table_writing import entry_for
from iotuner.space import Space, SpaceError, config_key

__all__ = ["DEFAULT_MODEL", "choose_next"]

DEFAULT_MODEL = "random_forest"
MIN_TRY_GAIN = 0.05
"""The least calibrated median gain a try must promise (the sweep's least noise, as
iotuner.bench's NOISE_FLOOR): a smaller one is worth no run the guard must then judge."""
MEASURED = "the workload's measurements"


@dataclass
class Situation:
    """The workload's candidate configurations and what its runs measured of them."""

    space: Space
    workload: Workload
    configs: list[dict[str, Any]]
    keys: list[str]
    current: dict[str, str | int]
    """The program's entry now ({}: none of its own)."""
    in_force: dict[str, str]
    app_keys: Collection[str]
    cur: int
    """The configuration the run had: the one the next runs are judged against."""
    default: int
    banned: set[str]
    """Configurations rolled back before: never chosen again."""
    median: np.ndarray
    low: np.ndarray
    high: np.ndarray
    runs: np.ndarray
    base: dict[str, Any]
    """What every event of the refit says: the noise, the knowledge base's size, the workload."""

    @property
    def noise(self) -> float:
        return float(self.base["noise"])

    def change(self, best: int, gain: float | None, interval: list[float] | None,
               **why: Any) -> dict[str, Any]:  # fmt: skip
        new = entry_for(
            self.space,
            self.configs[best],
            self.current,
            self.in_force,
            self.app_keys,
            self.workload,
        )
        return {"event": "change", "old": dict(self.current), "new": new, "gain": gain,
                "interval": interval, **self.base, **why}  # fmt: skip

    def keep(self, reason: str, **why: Any) -> dict[str, Any]:
        return {"event": "keep", "reason": reason, **self.base, **why}

    def measured_change(self, best: int, **why: Any) -> dict[str, Any]:
        """A change to `best` with the gain its runs measured over the ones in force."""
        m, lo, hi, cur = self.median, self.low, self.high, self.cur
        return self.change(
            best,
            float(m[best] / m[cur]),
            [float(lo[best] / hi[cur]), float(hi[best] / lo[cur])],
            **{"model": MEASURED, **why},
        )

    def candidate(self, i: int) -> bool:
        """Whether configuration `i` may be chosen for the workload (candidates)."""
        return i in self._candidates

    @cached_property
    def _candidates(self) -> frozenset[int]:
        return frozenset(i for i, c in enumerate(self.configs) if self._acts(c))

    def _acts(self, config: dict[str, Any]) -> bool:
        """Every key the configuration sets away from the default can act on the workload
        (can_act), and its open keys do not act as the default's at the workload's scale
        (cb_nodes=2 for 2 ranks on one host: one aggregator, as the default; tune.
        same_as_default): such a configuration is the default's, or another's, twice."""
        from iotuner.tune import open_keys, same_as_default

        if not can_act(self.space, config, self.workload):
            return False
        mine = open_keys(self.space, config)
        return mine == self._default_open or not same_as_default(
            mine, self._default_open, self.workload
        )

    @cached_property
    def _default_open(self) -> Any:
        from iotuner.tune import open_keys

        return open_keys(self.space, self.configs[self.default])


def choose_next(
    frame: Any,
    space: Space,
    workload: Workload,
    current: dict[str, str | int],
    in_force: dict[str, str],
    rejected: list[dict[str, Any]],
    model: str | None,
    runs: Sequence[float] = (),
    app_keys: Collection[str] = (),
    saved: Any = None,
    calibration_cache: Path | None = None,
    own_runs: Sequence[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """The change (or keep) event of a refit, by the first of these rules that applies:

    1. measured: a configuration whose runs beat the ones in force is taken (the program's
       own learning runs, the latest evidence.LOAD_WINDOW_RUNS: measured as the runs the
       guard judges, never one traced run from before the sweep);
    2. calibrated: else the untried configuration with the best calibrated bound is tried,
       within the risk the program's runs have earned (iotuner.online.risk);
    3. then, when nothing is tried and the default never ran the workload in those runs
       while another configuration is in force, one run measures the default;
    4. uncalibrated (one workload in the knowledge base): the model's bands must not overlap;
    5. sparse: where the model keeps what is in force for want of evidence (too little data,
       or an uncalibrated model's overlapping bands), the configuration the program's own
       earlier traced runs (a search's, the knowledge base's rows of its workload) measured
       beating the one in force is tried, else the one the sweep measured beating it on the
       program's own shape: a guess the guard judges, its gain unknown (another load window).

    `runs`: the bandwidths of the program's runs so far at this scale (this one included),
    which set how much a try may risk (risk_budget). `app_keys`: the hints the program
    passes itself. `model`: the kind to refit; `saved`: `train`'s model, used as it is;
    `calibration_cache`: where a refitted model's calibration is kept between runs
    (evidence.model_evidence). `own_runs`: the program's `run` events (the learner's), which
    alone measure its configurations (evidence.LOAD_WINDOW_RUNS); None takes the frame's
    rows of the workload instead (a caller
    without a history)."""
    s = _situation(frame, space, workload, current, in_force, rejected, app_keys, own_runs)
    found = partial(model_evidence, saved=saved, cache=calibration_cache)
    return _measured_rule(s) or _model_rules(s, frame, model, runs, found)


def _situation(
    frame: Any,
    space: Space,
    workload: Workload,
    current: dict[str, str | int],
    in_force: dict[str, str],
    rejected: list[dict[str, Any]],
    app_keys: Collection[str],
    own_runs: Sequence[dict[str, Any]] | None,
) -> Situation:
    from iotuner.tune import measurement_noise

    configs = list(space.configurations())
    keys = [config_key(c) for c in configs]
    names = {p.name for p in space.parameters}

    def key_of(hints: dict[str, Any]) -> str:
        # Keys outside the space are not the space's to choose, and values outside it
        # cannot be chosen again (a rollback's, from before a repair): both left out.
        readable = {
            k for k in names & set(hints) if space.parameter(k).value_of(hints[k]) is not None
        }
        return acting_key(space, {k: hints[k] for k in readable}, workload)

    rows = int(frame["n"].sum()) if "n" in frame else len(frame)
    if own_runs is None:
        median, low, high, runs = measured_runs(frame, space, workload, keys)
    else:
        row = workload.as_row()
        mine = [
            (key_of(e.get("in_force") or e.get("hints") or {}), float(e["bandwidth"]))
            for e in own_runs
            if e.get("workload") == row and e.get("bandwidth")
        ]
        median, low, high, runs = runs_by_config(mine, keys)
    return Situation(
        space=space,
        workload=workload,
        configs=configs,
        keys=keys,
        current=current,
        in_force=in_force,
        app_keys=app_keys,
        # What the run had (the table's generic entries when the program has none of
        # its own), not the program's entry.
        cur=keys.index(key_of(in_force or current)),
        default=keys.index(config_key(space.default())),
        banned={key_of(r) for r in rejected},
        median=median,
        low=low,
        high=high,
        runs=runs,
        base={
            "noise": measurement_noise(frame),
            "measurements": rows,
            "workload": workload.as_row(),
        },
    )


def _measured_rule(s: Situation) -> dict[str, Any] | None:
    """A configuration whose runs on this workload have their lower quartile above the
    upper quartile of the runs in force (two runs or more each: quartiles that say
    something about the spread), and whose median is ahead by more than the noise, is
    taken, the best by median.

    RATIONALE: with two runs each, the quartiles of two configurations that behave alike
    (romio_ds_write enable and automatic) are apart in one draw of six; the noise margin
    keeps such a draw from changing the table."""
    judged = s.runs >= 2
    noise = float(s.base["noise"] or 0.0)
    margin = 1.0 + (noise if math.isfinite(noise) else 0.0)
    beating = [
        i for i in range(len(s.keys))
        if s.candidate(i) and s.keys[i] not in s.banned and judged[i] and judged[s.cur]
        and s.low[i] > s.high[s.cur] and s.median[i] > s.median[s.cur] * margin
    ]  # fmt: skip
    if not beating:
        return None
    best = max(beating, key=lambda i: s.median[i])
    return s.measured_change(
        best, evidence="measured: the lower quartile of its runs above the upper quartile in force"
    )


def _measure_default(s: Situation) -> dict[str, Any] | None:
    """One run with the default when it never ran this workload in the program's
    learning runs while another configuration is in force (the table's, chosen without
    trial runs), once that one has GUARD_RUNS runs: it measures what that configuration
    gains, and a run with the default is never slower than the default. The guard judges
    it against those runs, and the measured rule keeps the better of the two.

    RATIONALE: the default is measured as the runs it is compared with (issue 41); with
    fewer runs in force the guard's rank test could not undo a slower default before
    SETTLED_RUNS runs."""
    if s.cur == s.default or np.isfinite(s.median[s.default]) or s.keys[s.default] in s.banned:
        return None
    if s.runs[s.cur] < GUARD_RUNS:
        return None
    event = s.change(
        s.default,
        None,
        None,
        purpose="measure the default",
        model=MEASURED,
        evidence="the default never ran this workload in the program's learning runs: one "
        "run with it measures what the configuration in force gains",
    )
    if event["new"] == dict(s.current):
        return None  # the program's own values are its default: nothing to measure
    return event


def _model_rules(
    s: Situation, frame: Any, model: str | None, runs: Sequence[float], evidence: Any
) -> dict[str, Any]:
    """The model's rules: calibrated when the model has a calibration on held-out
    workloads, else its bands. With too little data for a model (a program's first runs,
    no sweep) the workload's own measurements are all there is."""
    from iotuner.models import ModelError

    try:
        found = evidence(frame, s.space, s.workload, s.configs, model or DEFAULT_MODEL)
    except ModelError as exc:
        return (
            _measure_default(s)
            or _earlier_runs_rule(s, frame)
            or _shape_rule(s, frame)
            or s.keep(
                "no configuration's measured runs beat the ones in force",
                model=f"{MEASURED} ({exc})",
            )
        )
    if found.calibration is not None and found.calibration.gain_curve:
        return _calibrated_rule(s, found.median, found.calibration, found.kind, runs)
    event = _uncalibrated_rule(s, found.median, found.low, found.high, found.kind)
    if event["event"] == "keep" and "within the noise" in event["reason"]:
        return _earlier_runs_rule(s, frame) or _shape_rule(s, frame) or event
    return event


SHAPE_COLUMNS = ("nprocs", "pattern", "op", "layout", "block", "fill", "group")
"""What the sweep's rows must share with the run's workload to speak for its shape (with
the memory layout: memory_block)."""


def _earlier_runs_rule(s: Situation, frame: Any) -> dict[str, Any] | None:
    """A try of the configuration the program's earlier traced runs (the knowledge
    base's rows of its very workload: a search's, traced runs before the sweep) measured
    beating the one in force, as the measured rule judges, two runs or more each. Made
    at another time and load than the learning runs, they suggest a try and measure no
    gain: the program's runs measure it, the guard judges it."""
    median, low, high, runs = measured_runs(frame, s.space, s.workload, s.keys)
    if runs[s.cur] < 2:
        return None
    margin = 1.0 + (s.noise if math.isfinite(s.noise) else 0.0)
    beating = [
        i for i in range(len(s.keys))
        if i != s.cur and s.candidate(i) and s.keys[i] not in s.banned and runs[i] >= 2
        and low[i] > high[s.cur] and median[i] > median[s.cur] * margin
    ]  # fmt: skip
    if not beating:
        return None
    best = max(beating, key=lambda i: median[i])
    event = s.change(
        best,
        None,
        None,
        purpose="try what the program's earlier runs measured",
        model="the program's earlier traced runs",
        evidence=f"its earlier traced runs measured it x{median[best] / median[s.cur]:.2f} "
        f"over the configuration in force ({int(runs[best])} and {int(runs[s.cur])} runs, "
        "the lower quartile above the upper), at another time and load than the learning "
        "runs: a guess the program's runs measure and the guard judges",
    )
    return None if event["new"] == dict(s.current) else event


def _shape_rule(s: Situation, frame: Any) -> dict[str, Any] | None:
    """A try of the configuration the sweep measured beating the one in force on the
    program's own shape (SHAPE_COLUMNS and the memory layout; rows of other programs,
    the kernel's), on the workload that compared the most configurations there: its
    worst repeat above the best of the one in force, two repeats or more each, its
    median ahead by more than the noise. The gain stays unknown (the program's runs
    measure it; the guard judges it); None when the sweep measured no such thing.

    RATIONALE: on ext4, 21 learning runs over 7 programs tried nothing ("predicted within
    the noise ... by an uncalibrated model") while the sweep had measured the program's
    own shape (issue 41): a learner with little data must still learn from what it has."""
    from iotuner.tune import comparing_workload, memory_pieces

    w = s.workload
    same = np.ones(len(frame), dtype=bool)
    for column in SHAPE_COLUMNS:
        if column in frame:
            same &= (frame[column] == getattr(w, column)).to_numpy(dtype=bool)
    same &= (memory_pieces(frame) == (w.memory_block or 0)).to_numpy(dtype=bool)
    if "program" in frame and w.program:
        same &= (frame["program"] != w.program).to_numpy(dtype=bool)
    rows = comparing_workload(frame[same])
    if rows.empty:
        return None
    stats: dict[int, tuple[float, float, float]] = {}
    for _, r in rows[rows["n"] >= 2].iterrows():
        config = {p.name: r.get(f"cfg:{p.name}", "default") for p in s.space.parameters}
        try:
            key = acting_key(s.space, {k: v for k, v in config.items() if v != "default"}, w)
        except SpaceError:
            continue
        if key in s.keys:
            stats[s.keys.index(key)] = (r["bw_min"], r["bw_median"], r["bw_max"])
    if s.cur not in stats:
        return None
    margin = 1.0 + (s.noise if math.isfinite(s.noise) else 0.0)
    _, median_cur, best_cur = stats[s.cur]
    beating = [
        i for i, (worst, median, _) in stats.items()
        if i != s.cur and s.candidate(i) and s.keys[i] not in s.banned
        and worst > best_cur and median > median_cur * margin
    ]  # fmt: skip
    if not beating:
        return None
    best = max(beating, key=lambda i: stats[i][1])
    event = s.change(
        best,
        None,
        None,
        purpose="try the sweep's best on this shape",
        model="the sweep's measurements of the program's shape",
        evidence=f"the sweep measured it x{stats[best][1] / median_cur:.2f} over the "
        f"configuration in force on this shape ({int(rows['n'].max())} repeats or fewer, "
        "another program's calls): a guess the program's runs measure and the guard judges",
    )
    return None if event["new"] == dict(s.current) else event


def _calibrated_rule(
    s: Situation, predicted: np.ndarray, calibration: Any, kind: str, runs: Sequence[float]
) -> dict[str, Any]:
    """The untried configuration with the best calibrated bound of its gain over the best
    measured one, when held-out configurations predicted alike gained more than
    MIN_TRY_GAIN in the median and, in nine of ten, lost no more below the default than
    the program's runs have earned.

    RATIONALE: a try expected to gain next to nothing risks runs for nothing the guard
    could tell (bench/real_programs.py: IOR's 16 MiB independent writes tried
    romio_ds_write=enable at a calibrated x1.01, and 3 of their 5 learning runs fell below
    every default run). The floor is the default's: a base measured ahead of the default leaves
    room for a try whose bound over it is below 1, as long as the try stays above the
    default but for the noise (a conservative bandit). The calibration bounds gains over
    a workload's default; over another configuration it is the same curve.
    """
    tried = {i for i in range(len(s.keys)) if s.runs[i] >= 1}
    banned = {s.keys.index(k) for k in s.banned if k in s.keys}
    ref = best_measured(s.median, tried - banned, s.cur, s.noise)
    gains, offset = gains_over(predicted, s.median, tried, ref)
    bounds = [calibration.gain_bounds(float(g)) for g in gains]
    ahead = measured_ahead(s.low[ref], s.high[s.default]) if ref != s.default else 0.0
    level = s.median[s.default] if np.isfinite(s.median[s.default]) else s.median[s.cur]
    budget = risk_budget(runs, float(level), s.noise)
    untried = [
        i for i in range(len(s.keys))
        if s.candidate(i) and i != ref and i not in tried and s.keys[i] not in s.banned
    ]  # fmt: skip
    worth = math.log1p(MIN_TRY_GAIN)
    admissible = [
        i for i in untried
        if bounds[i] is not None and bounds[i][1] > worth and bounds[i][0] >= -budget - ahead
    ]  # fmt: skip
    if admissible:
        best = _fewest_keys_first(s, admissible, bounds, gains)
        low_b, mid_b, high_b = bounds[best]
        return s.change(
            best,
            float(math.exp(mid_b)),
            [float(math.exp(low_b)), float(math.exp(high_b))],
            predicted=float(math.exp(gains[best])),
            evidence=_try_words(s, ref, tried, offset, ahead, budget, runs),
            risk=float(-math.expm1(-budget)),
            model=kind,
            calibrated=True,
            base="in force" if ref == s.cur else "best measured",
        )
    if ref != s.cur and min(s.runs[ref], s.runs[s.cur]) >= 2:
        # Nothing untried is worth a run, and a configuration this workload ran before
        # did better than the one in force (the last try), two runs or more each: back to
        # it. RATIONALE: one run against one ("measured x2.93", an interval of 1.47-1.47)
        # is no measurement of a difference; the guard stops a try that harms clearly.
        return s.measured_change(
            ref,
            purpose="back to the best measured",
            evidence=f"measured: {int(s.runs[ref])} run(s) at median {s.median[ref]:.1f} "
            f"MiB/s against {int(s.runs[s.cur])} at {s.median[s.cur]:.1f} MiB/s in force, "
            "and no untried configuration's calibrated bound stays within the risk the "
            "runs have earned",
        )
    return _measure_default(s) or s.keep(
        "no untried configuration's calibrated 10 % bound stays within the risk the runs "
        f"have earned ({-math.expm1(-budget - ahead):.0%} below the default; noise "
        f"{s.noise:.0%})" + closest_words(bounds, untried, s.keys)
        + ", and no measured one beats it",
        model=kind,
        calibrated=True,
    )  # fmt: skip


def _fewest_keys_first(
    s: Situation, admissible: list[int], bounds: list[Any], gains: np.ndarray
) -> int:
    """The best bound; ties (knobs the model finds no effect of) go to the fewest keys
    changed from the default: an entry that sets only what it was predicted on."""
    defaults = s.space.default()
    return max(
        admissible,
        key=lambda i: (
            bounds[i][0],
            gains[i],
            -sum(s.configs[i][k] != defaults[k] for k in defaults),
        ),
    )


def _try_words(
    s: Situation,
    ref: int,
    tried: set[int],
    offset: float,
    ahead: float,
    budget: float,
    runs: Sequence[float],
) -> str:
    """A try's evidence: what the calibration says, and what moved its base."""
    words = (
        f"calibrated: held-out configurations predicted alike gained more than "
        f"{MIN_TRY_GAIN:.0%} in the median and, in nine of ten, lost no more than the "
        "program's runs have earned"
    )
    if tried and abs(offset) > 1e-12:
        words += (
            f", over {'the one in force' if ref == s.cur else 'the best measured'}, the "
            f"predictions moved x{math.exp(offset):.2f} by {len(tried)} measured "
            "configuration(s) of the workload"
        )
    if ahead > 0:
        words += (
            f", counted from the default's measured runs (the base is x{math.exp(ahead):.2f} "
            "ahead of them)"
        )
    return words + (
        f"; the try may risk {-math.expm1(-budget):.0%} below the default "
        f"({len(runs)} run(s) so far)"
    )


def _uncalibrated_rule(
    s: Situation, median: np.ndarray, low: np.ndarray, high: np.ndarray, kind: str
) -> dict[str, Any]:
    """One workload in the knowledge base: the best configuration (highest lower bound)
    must beat the one in force by its lower bound above the current's upper bound, both
    bands at least the noise wide."""
    lows = np.minimum(low, median / (1 + s.noise))
    highs = np.maximum(high, median * (1 + s.noise))
    order = [
        i for i in np.argsort(-lows)
        if (s.candidate(i) or i == s.cur) and s.keys[i] not in s.banned and np.isfinite(lows[i])
    ]  # fmt: skip
    best, cur = (int(order[0]) if order else s.cur), s.cur
    evidence = {
        "model": kind,
        "predicted": {
            s.keys[i]: [float(median[i]), float(lows[i]), float(highs[i])] for i in {best, cur}
        },
    }
    if best == cur:
        return s.keep("the entry in force is predicted best", **evidence)
    # The model's ratio is no earned gain (nothing calibrates it here): it decides, the
    # event keeps it as `predicted`, and the gain stays unknown until the runs measure it.
    if not lows[best] > highs[cur]:
        return s.keep(
            f"{config_key(s.configs[best])} predicted within the noise ({s.noise:.0%}) of the "
            "entry in force by an uncalibrated model: its lower bound does not beat the upper "
            "bound in force",
            candidate=dict(s.space.hints(s.configs[best])),
            **evidence,
        )
    return s.change(
        best,
        None,
        None,
        evidence="an uncalibrated model's lower bound above the upper bound in force",
        **evidence,
    )


def can_act(space: Space, config: dict[str, Any], workload: Workload) -> bool:
    """Whether every key `config` sets away from the space's default can act on the
    workload (formats/hints.def's `ops` and phases, read by iotuner.acting): no
    romio_cb_write for reads or independent writes, no read keys for a program that only
    writes."""
    from iotuner.acting import acting_config

    acting = acting_config(space, config, workload)
    return all(acting.get(k, v) == v for k, v in config.items())
