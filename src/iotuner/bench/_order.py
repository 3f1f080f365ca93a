"""The order a sweep measures in (see iotuner.bench): what comes first, what next, and
when more measurements are not worth their time.

First round: every workload's default configuration and a few configurations that between
them give every parameter that matters to the workload each of its planned values
(first_configurations: a greedy cover of the (parameter, value) pairs, ties broken by the
seed), each repeated as the plan says: the programs' cases first (plan.cases; model rounds
restricted to them, and a local search around each one's best, neighbour_picks, follow their
first round), then the workload next_workload says. A sweep cut short after it still tells a
model how each knob acts on each workload. Further rounds: next_choice.
"""

import math
import random
import statistics
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from iotuner.bench._plan import BenchPlan, _sample_seed, workload_key
from iotuner.measurement import CONFIG_PREFIX, Measurement, Workload
from iotuner.space import Configuration, config_key

__all__ = [
    "NOISE_FLOOR",
    "ROUND_PICKS",
    "UPPER_QUANTILE",
    "Choice",
    "Pick",
    "SweepState",
    "first_configurations",
    "measured_spread",
    "neighbour_picks",
    "next_choice",
    "next_workload",
    "workload_distance",
]

ROUND_PICKS = 3
"""Configurations per workload per model round: few, so the next round learns from them,
but enough that the rounds' model fits and job starts stay a small part of the time."""

UPPER_QUANTILE = 0.9
"""The level of the interval whose upper end is what a configuration might reach: the
trees' mean plus NormalDist().inv_cdf(UPPER_QUANTILE) (1.28) standard deviations.

RATIONALE: the interval is the trees' mean plus 1.28 (the normal 90 % quantile) of their
standard deviation, not the 90 % quantile of the trees themselves: every leaf of a tree is
an average of measured bandwidths, so that quantile never exceeds what was measured and
hardly ever expects a workload to beat its own best. Replayed on the development sweeps
(bench/devdata, 24 workloads x 9-16 configurations x 3 repeats, tests/unit/
test_bench_order.py): the quantile stopped after 37-46 % of the measurements with the best
configuration found at 94-96 % of the true best on average and 63-83 % for the worst
workload; mean + 1.28 sd stopped after 65-70 % with 98-99 % on average and 83-94 % for the
worst (a random sample of 67 % of each workload's configurations: 97 % and 69-79 %)."""

NOISE_FLOOR = math.log(1.05)
"""The least noise assumed (5 %, as log bandwidth): a gain smaller than this is not worth a
measurement even when the repeats happened to agree, or were not repeated."""

TREES = 64


def first_configurations(plan: BenchPlan, workload: Workload) -> list[Configuration]:
    """The first round's configurations of a workload: the default, then configurations
    chosen greedily from the planned ones until every value of every parameter that varies
    among them appears at least once (the one covering most missing values next; ties by
    the plan's seed). For romio-ufs and a collective write: the default and 3 more."""
    candidates = plan.configurations(workload)
    names = sorted({n for c in candidates for n in c})
    varying = [n for n in names if len({str(c.get(n)) for c in candidates}) > 1]

    def pairs(config: Configuration) -> set[tuple[str, str]]:
        return {(n, str(config.get(n))) for n in varying}

    missing = set().union(*(pairs(c) for c in candidates)) - pairs(candidates[0])
    chosen = [candidates[0]]
    left = list(range(1, len(candidates)))
    rng = random.Random(f"{plan.seed}:first:{_sample_seed(workload)}")
    while missing and left:
        scores = {i: len(pairs(candidates[i]) & missing) for i in left}
        best = max(scores.values())
        if best == 0:
            break
        index = rng.choice([i for i in left if scores[i] == best])
        chosen.append(candidates[index])
        missing -= pairs(candidates[index])
        left.remove(index)
    return chosen


@dataclass
class _Planned:
    """One workload of the plan: its configurations and what is measured of them."""

    workload: Workload
    configs: list[Configuration]
    index: dict[str, int]  # configuration key -> position in configs
    measured: dict[str, dict[int, float]] = field(default_factory=dict)  # key -> repeat -> MiB/s


class SweepState:
    """What is measured of a plan (from the results file and as measurements come): per
    workload, per planned configuration, the bandwidth of each repeat made."""

    def __init__(self, plan: BenchPlan, measurements: Iterable[Measurement] = ()) -> None:
        self.plan = plan
        self.workloads: dict[str, _Planned] = {}
        for w in plan.workloads:
            configs = plan.configurations(w)
            index = {config_key(c): i for i, c in enumerate(configs)}
            self.workloads[workload_key(w)] = _Planned(w, configs, index)
        for m in measurements:
            self.add(m)

    def add(self, m: Measurement) -> bool:
        """Counts a measurement; False (and nothing counted) when it is not of the plan."""
        planned = self.workloads.get(workload_key(m.workload))
        key = config_key(m.config)
        if planned is None or key not in planned.index or not 0 <= m.repeat < self.plan.repeats:
            return False
        planned.measured.setdefault(key, {})[m.repeat] = m.bandwidth
        return True

    @property
    def planned(self) -> int:
        return sum(len(p.configs) for p in self.workloads.values()) * self.plan.repeats

    @property
    def measured(self) -> int:
        return sum(len(r) for p in self.workloads.values() for r in p.measured.values())

    def missing(
        self, key: str, configs: Iterable[Configuration]
    ) -> list[tuple[Configuration, int]]:
        """The (configuration, repeat) pairs of `configs` of workload `key` not measured yet,
        configuration by configuration."""
        planned = self.workloads[key]
        return [
            (config, repeat)
            for config in configs
            for repeat in range(self.plan.repeats)
            if repeat not in planned.measured.get(config_key(config), {})
        ]

    def rest(self) -> dict[str, list[tuple[Configuration, int]]]:
        """Every planned (configuration, repeat) pair not measured yet, by workload key."""
        rest = {key: self.missing(key, p.configs) for key, p in self.workloads.items()}
        return {key: lines for key, lines in rest.items() if lines}

    def noise(self, key: str) -> float:
        """The spread between repeats of workload `key`: the median, over its configurations
        measured more than once, of max - min of their log bandwidths; where it has none,
        the same over every workload; at least NOISE_FLOOR."""
        own = _spreads([self.workloads[key]])
        spreads = own or _spreads(self.workloads.values())
        return max(NOISE_FLOOR, statistics.median(spreads)) if spreads else NOISE_FLOOR


def _logs(repeats: dict[int, float]) -> list[float]:
    return [math.log(b) for b in repeats.values() if b > 0]


def _spreads(planned: Iterable[_Planned]) -> list[float]:
    spreads = []
    for p in planned:
        for repeats in p.measured.values():
            logs = _logs(repeats)
            if len(logs) > 1:
                spreads.append(max(logs) - min(logs))
    return spreads


def workload_distance(a: Workload, b: Workload) -> float:
    """How far apart two workloads are, for what a configuration does to them: one for
    each of pattern, operation and layout that differs, plus the doublings between their
    scales and the decades between their sizes per call."""
    return (
        (a.pattern != b.pattern)
        + (a.op != b.op)
        + (a.layout != b.layout)
        + abs(math.log2(a.nprocs / b.nprocs))
        + abs(math.log10(a.bytes_per_rank / b.bytes_per_rank))
    )


def measured_spread(state: SweepState, key: str) -> float | None:
    """How much the configurations measured of workload `key` differ: the log of its best
    configuration's median bandwidth over its worst's; None under two configurations."""
    medians = [
        statistics.median(logs)
        for repeats in state.workloads[key].measured.values()
        if (logs := _logs(repeats))
    ]
    return max(medians) - min(medians) if len(medians) > 1 else None


def next_workload(
    state: SweepState, pending: Iterable[str], near: Sequence[Workload], order: Mapping[str, int]
) -> str:
    """Which of the `pending` workloads (keys) to measure next, after the programs' cases
    (`near`): the nearest to a case (workload_distance) first; among equally near ones,
    the one whose nearest measured workload showed the widest spread between its
    configurations; then by `order` (the plan's seeded shuffle).

    RATIONALE: the programs' cases are where a gain matters to the user, and the table
    carries a measured choice to the size groups between and beside the measured ones,
    so their neighbours come first. Without cases (or at an equal distance), a workload
    like one where the configurations made a large difference is where the largest gain
    is likeliest; nothing measured yet, the seeded order spreads the first ones over the
    plan. Cheapest first (before issue 31) spent a cut sweep on the smallest sizes."""
    spreads = {
        key: spread
        for key in state.workloads
        if (spread := measured_spread(state, key)) is not None
    }

    def priority(key: str) -> tuple[float, float, int]:
        workload = state.workloads[key].workload
        to_case = min((workload_distance(workload, c) for c in near), default=0.0)
        nearest = min(
            spreads,
            key=lambda k: workload_distance(workload, state.workloads[k].workload),
            default=None,
        )
        return round(to_case, 6), -(spreads[nearest] if nearest else 0.0), order[key]

    return min(pending, key=priority)


@dataclass(frozen=True)
class Pick:
    """What a round measures of one workload: `configs` in order (those begun and not
    finished first, then by upper bound), and `gain`, the highest upper bound over the
    workload's best measured bandwidth (a ratio; 1.0 when it only finishes what was begun)."""

    workload: Workload
    configs: list[Configuration]
    gain: float


@dataclass(frozen=True)
class Choice:
    """The next round: one Pick per workload with something worth measuring, the largest
    gain first; none when the sweep is done. `unsure` counts the configurations whose
    upper bound beats their workload's best by more than the noise, `unmeasured` those
    not measured at all."""

    picks: list[Pick]
    unsure: int
    unmeasured: int


def next_choice(
    state: SweepState, picks: int = ROUND_PICKS, only: Collection[str] | None = None
) -> Choice:
    """The next round's measurements, from what `state` holds; `only`: the workloads
    (keys) it may choose among (the model learns from all).

    A random forest of log bandwidth over what is measured (the median of each
    configuration's repeats; features: the workload's fields and the configuration's
    parameters, encoded as the models encode them, iotuner.models.infer_schema) predicts
    every unmeasured planned configuration. The upper end of a 90 % interval
    (UPPER_QUANTILE) of its trees' predictions is what the configuration might reach: high
    where the trees disagree (the model is unsure) and where they expect much. For each
    workload the configurations whose upper end beats the workload's best measured bandwidth
    by more than the noise between repeats are worth measuring, the highest ROUND_PICKS
    first. None left: the intervals are tight enough, the sweep is done (confident).
    Everything is seeded: the same measurements and seed give the same choices.
    """
    plan = state.plan
    rows: list[tuple[str, Configuration, float]] = []  # workload key, config, median log bw
    candidates: list[tuple[str, Configuration]] = []
    begun: dict[str, list[Configuration]] = {}
    for key, p in state.workloads.items():
        for config in p.configs:
            repeats = p.measured.get(config_key(config), {})
            logs = _logs(repeats)
            if logs:
                rows.append((key, config, statistics.median(logs)))
            if only is not None and key not in only:
                continue
            if not repeats:
                candidates.append((key, config))
            elif len(repeats) < plan.repeats:
                begun.setdefault(key, []).append(config)
    upper = _upper_bounds(state, rows, candidates)
    best: dict[str, float] = {}
    for key, _, value in rows:
        best[key] = max(best.get(key, -math.inf), value)
    noise = {key: state.noise(key) for key in state.workloads}
    worth: dict[str, list[tuple[float, float, int, Configuration]]] = {}
    for number, ((key, config), bound) in enumerate(zip(candidates, upper, strict=True)):
        excess = bound - best.get(key, -math.inf)
        if excess > noise[key]:
            worth.setdefault(key, []).append((excess, bound, number, config))
    chosen = []
    for key in state.workloads:
        ranked = sorted(worth.get(key, []), key=lambda item: (-item[0], -item[1], item[2]))
        ranked = ranked[:picks]
        if not ranked and key not in begun:
            continue
        gain = math.exp(min(ranked[0][0], 50.0)) if ranked else 1.0
        configs = [*begun.get(key, []), *(item[3] for item in ranked)]
        chosen.append(Pick(state.workloads[key].workload, configs, gain))
    # Finishing what was begun first, then the largest expected gain.
    chosen.sort(key=lambda pick: (pick.gain > 1.0, -pick.gain))
    return Choice(chosen, sum(len(v) for v in worth.values()), len(candidates))


def neighbour_picks(state: SweepState, only: Iterable[str]) -> list[Pick]:
    """For each workload of `only` (keys), the planned configurations not measured yet
    that differ from its best measured one (median of its repeats) in one parameter: a
    local search around the incumbent.

    RATIONALE: the forest's upper bounds skip a value that only pays beside another (IOR's
    strided-view reads: a 16 MiB sieving buffer with collective buffering off, 1.4x over
    the 1 MiB one the sweep kept, was never measured, and the table reached 0.72 of the
    best, bench/real_programs.py); the programs' cases are few, so their neighbourhoods
    are affordable."""
    picks = []
    for key in only:
        planned = state.workloads[key]
        levels = {k: statistics.median(_logs(r)) for k, r in planned.measured.items() if _logs(r)}
        if not levels:
            continue
        best = planned.configs[planned.index[max(levels, key=lambda k: levels[k])]]
        near = [
            c for c in planned.configs
            if config_key(c) not in planned.measured
            and sum(c[name] != value for name, value in best.items()) == 1
        ]  # fmt: skip
        if near:
            picks.append(Pick(planned.workload, near, 1.0))
    return picks


def _upper_bounds(
    state: SweepState,
    rows: list[tuple[str, Configuration, float]],
    candidates: list[tuple[str, Configuration]],
) -> list[float]:
    """The upper end of each candidate's interval (log bandwidth; see the module text);
    infinite for all while fewer than two configurations are measured (nothing to learn
    from: every candidate is worth a look)."""
    if not candidates:
        return []
    if len(rows) < 2:
        return [math.inf] * len(candidates)
    import numpy as np
    import pandas as pd
    from sklearn.ensemble import RandomForestRegressor

    from iotuner.models import infer_schema

    def frame(items: Iterable[tuple[str, Configuration]]) -> pd.DataFrame:
        return pd.DataFrame(
            [
                {
                    **state.workloads[key].workload.as_row(),
                    **{CONFIG_PREFIX + name: value for name, value in config.items()},
                }
                for key, config in items
            ]
        )

    measured = frame((key, config) for key, config, _ in rows)
    schema = infer_schema(measured, state.plan.space)
    x = np.nan_to_num(schema.transform(measured), nan=-1.0)
    y = np.array([value for _, _, value in rows])
    forest = RandomForestRegressor(
        n_estimators=TREES, max_features=0.5, random_state=state.plan.seed, n_jobs=1
    ).fit(x, y)
    wanted = np.nan_to_num(schema.transform(frame(candidates)), nan=-1.0)
    trees = np.stack([tree.predict(wanted) for tree in forest.estimators_])
    z = statistics.NormalDist().inv_cdf(UPPER_QUANTILE)
    return [float(v) for v in trees.mean(axis=0) + z * trees.std(axis=0)]
