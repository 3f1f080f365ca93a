"""What the model predicts for each case the table can tell apart (scale, size group,
pattern, read or write, layout): the configurations of the space (enumerated, or optimised
over the model for a space too large to enumerate), their predicted bandwidth and band, the
calibrated gain curve of the model, and what the training data measured of the case.
"""

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np
import pandas as pd

from iotuner.acting import acting_config, distinct_configurations
from iotuner.bench import configurations_for
from iotuner.formats import hint_vocabulary, size_groups
from iotuner.measurement import CONFIG_PREFIX, NOT_SET, WORKLOAD_COLUMNS, Workload
from iotuner.models import cell_value
from iotuner.space import Configuration, Space, SpaceError, config_key

__all__ = [
    "ENUMERATION_LIMIT",
    "OPEN_ONLY_KEYS",
    "OPTIMISE_KEEP",
    "OPTIMISE_POOL",
    "OPTIMISE_ROUNDS",
    "OPTIMISE_ROUND_SIZE",
    "PREDICT_BATCH",
    "Case",
    "CountingPredictor",
    "GainBounds",
    "OpenKeys",
    "Predictor",
    "calls_per_open",
    "comparing_workload",
    "measured_in_summary",
    "measurement_noise",
    "memory_pieces",
    "open_keys",
    "optimise_scale",
    "predict_case",
    "prediction_rows",
    "representative_bytes",
]

ENUMERATION_LIMIT = 20_000
"""Spaces of up to this many configurations are predicted whole for every case; larger
ones are optimised over the model (see the module docstring)."""

OPTIMISE_POOL = 512
"""Random configurations predicted per case before the local search."""

OPTIMISE_KEEP = 6
"""The best configurations per case (by lower bound) the local search starts from and the
candidate set keeps."""

OPTIMISE_ROUNDS = 6
"""Rounds of local search per case at most (it stops earlier when the best stay the same)."""

OPTIMISE_ROUND_SIZE = 256
"""New configurations predicted per case and round at most."""

PREDICT_BATCH = 16_384
"""Rows handed to the model at once."""

OPEN_ONLY_KEYS = tuple(key for key, hint in hint_vocabulary().items() if hint.when == "OPEN")
"""Hints MPI reads only when a file is opened (formats/hints.def: OPEN): open entries only."""


class Predictor(Protocol):
    """What tune needs of a model: bandwidth predictions with an uncertainty band."""

    def predict_interval(self, frame: pd.DataFrame) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Median, lower and upper predicted bandwidth (MiB/s) for each row."""
        ...


class CountingPredictor:
    """Predicts in batches of at most PREDICT_BATCH rows and counts the rows asked for."""

    def __init__(self, predictor: Predictor) -> None:
        self.predictor = predictor
        self.rows = 0
        # A calibrated model bounds the measured gain of one configuration over another
        # by the predicted gain (iotuner.models._calibrate); None for predictors without
        # (the evidence rule then compares the two bandwidths' intervals).
        bounds = getattr(predictor, "gain_bounds", None)
        # A model whose training data never measured the default configuration predicts
        # the default by extrapolation: no gain over it is known (None: not said).
        calibration = getattr(predictor, "calibration", None)
        self.default_unmeasured = getattr(calibration, "default_rows", None) == 0
        self.gain_bounds: GainBounds | None = (
            bounds if callable(bounds) and bounds(0.0) is not None else None
        )

    def predict(
        self, workloads: Sequence[Workload], configs: Sequence[Configuration]
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Median, low and high per configuration, averaged over the workloads (shapes) in
        log space: the table cannot tell those shapes apart."""
        per_batch = max(1, PREDICT_BATCH // max(1, len(workloads)))
        parts: list[tuple[np.ndarray, ...]] = []
        for start in range(0, len(configs), per_batch):
            chunk = configs[start : start + per_batch]
            self.rows += len(chunk) * len(workloads)
            predicted = self.predictor.predict_interval(prediction_rows(workloads, chunk))
            logs = [
                np.log(np.clip(np.asarray(a, dtype=float), 1e-9, None)).reshape(
                    len(workloads), len(chunk)
                )
                for a in predicted
            ]
            parts.append(tuple(np.exp(x.mean(axis=0)) for x in logs))
        if not parts:
            return np.zeros(0), np.zeros(0), np.zeros(0)
        median, low, high = (np.concatenate([p[i] for p in parts]) for i in range(3))
        return median, low, high


def measurement_noise(summary: pd.DataFrame) -> float:
    """The median relative interquartile spread of the repeats: what counts as noise."""
    spread = (summary["bw_q3"] - summary["bw_q1"]) / summary["bw_median"].clip(lower=1e-9)
    spread = spread[summary["n"] > 1]
    return float(spread.median()) if len(spread) else 0.1


def measured_in_summary(
    summary: pd.DataFrame, case: "Case", space: Space
) -> dict[str, list[tuple[float, float, float] | None]]:
    """What `summary` measured of the case: per configuration key (as the case's
    configurations are keyed: a knob not set ran at its default, and one that cannot
    matter to the case is at its default), per shape of the case (its workloads, in
    order) the worst, median and best repeat (see Case.measured), from the one workload
    that compared the most configurations in that shape (comparing_workload). A row whose
    settings are not the space's is left out; two rows of one configuration keep the one
    with more repeats."""
    first = case.first
    rows = summary[
        (summary["nprocs"] == first.nprocs)
        & (summary["pattern"] == first.pattern)
        & (summary["op"] == first.op)
        & (summary["layout"] == first.layout)
        & (summary["group"] == case.group)
    ]
    found: dict[str, list[tuple[float, float, float] | None]] = {}
    repeats: dict[tuple[str, int], int] = {}
    columns = [f"{CONFIG_PREFIX}{p.name}" for p in space.parameters]
    present = [c for c in columns if c in rows.columns]
    for number, workload in enumerate(case.workloads):
        shape = rows
        if workload.layout == "strided":
            shape = rows[(rows["block"] == workload.block) & (rows["fill"] == workload.fill)]
        shape = shape[_same_memory(shape, workload)]
        for _, row in comparing_workload(shape).iterrows():
            worst, middle, best = (float(row[c]) for c in ("bw_min", "bw_median", "bw_max"))
            key = _summary_key(row, space, workload, present)
            if key is None or min(worst, middle, best) <= 0:
                continue
            n = int(row["n"]) if "n" in row and pd.notna(row["n"]) else 1
            if repeats.get((key, number), -1) >= n:
                continue
            repeats[key, number] = n
            slots = found.setdefault(key, [None] * len(case.workloads))
            slots[number] = (worst, middle, best)
    return found


def _same_memory(rows: pd.DataFrame, workload: Workload) -> "pd.Series[bool]":
    """The rows measured with `workload`'s memory layout: pieces of the same size, or
    contiguous where the case is contiguous or does not tell (a Darshan log, a trace from
    before the shape columns: as every kernel row was before --memory-block).

    RATIONALE: a program's phase from noncontiguous memory took 0.45 s per call where the
    kernel's contiguous calls took 0.002 s under one hint; a gain measured on the
    contiguous case is not the program's (issue 41)."""
    return memory_pieces(rows) == (workload.memory_block or 0)


def memory_pieces(rows: pd.DataFrame) -> "pd.Series[int]":
    """Each row's memory piece size: its memory_block, 0 where memory was contiguous or
    the row does not tell (a Darshan log, a trace or frame from before the column)."""
    if "memory_block" not in rows.columns:
        return pd.Series(0, index=rows.index, dtype=int)
    return pd.to_numeric(rows["memory_block"], errors="coerce").fillna(0).astype(int)


def comparing_workload(rows: pd.DataFrame) -> pd.DataFrame:
    """The rows of the one workload (every workload column alike: the program, its calls
    per open, its size...) that measured the most configurations among `rows`; ties go to
    the one with more repeats, then to the first in order.

    RATIONALE: a traced run of a program measures one configuration (its default) many
    times over (one row per call batch), with the spread of a program's calls; taken with
    the sweep's kernel rows, that default's best repeat outran every configuration the
    sweep had measured beating the kernel's default, and one traced run kept the default
    (issue 31). A comparison is only between configurations measured on one workload."""
    columns = [c for c in WORKLOAD_COLUMNS if c in rows.columns]
    if rows.empty or not columns:
        return rows
    groups = [frame for _, frame in rows.groupby(columns, dropna=False, sort=True)]
    chosen: pd.DataFrame = max(groups, key=lambda g: (g["config"].nunique(), g["n"].sum()))
    return chosen


def _summary_key(
    row: pd.Series, space: Space, workload: Workload, present: list[str]
) -> str | None:
    """The key of a summary row's configuration as the case's configurations are keyed."""
    config = {}
    for parameter in space.parameters:
        column = f"{CONFIG_PREFIX}{parameter.name}"
        cell = cell_value(row[column]) if column in present else NOT_SET
        config[parameter.name] = parameter.default if cell == NOT_SET else cell
    try:
        return config_key(_relevant_only(space, workload, space.validate(config)))
    except SpaceError:
        return None


def representative_bytes(group: int) -> int:
    """A size inside a group: the geometric middle of its bounds."""
    g = next(g for g in size_groups() if g.number == group)
    first = max(g.first, 1)
    end = g.end if g.end is not None else 2 * first
    return int(math.sqrt(first * end))


def prediction_rows(
    workloads: Sequence[Workload], configs: Sequence[Configuration]
) -> pd.DataFrame:
    """The rows a model predicts: every configuration for each workload, workload-major
    (built by columns: tune asks for tens of thousands of rows). Online tuning asks the
    same question for one workload."""
    names = list(configs[0]) if configs else []
    settings = {f"{CONFIG_PREFIX}{name}": [c[name] for c in configs] for name in names}
    keys = [config_key(c) for c in configs]
    parts = []
    for workload in workloads:
        columns: dict[str, object] = {
            name: [value] * len(configs) for name, value in workload.as_row().items()
        }
        parts.append(pd.DataFrame({**columns, **settings, "config": keys}))
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()


OpenKeys = tuple[tuple[str, str], ...]

GainBounds = Callable[[float], tuple[float, float, float] | None]
"""The calibrated 10 %, 50 % and 90 % quantiles (log) of the measured gain of one
configuration over another by the predicted log gain (TrainedModel.gain_bounds)."""


@dataclass
class Case:
    """One case the table can tell apart, with every configuration's prediction."""

    workloads: list[Workload]
    group: int
    distance: int  # doublings of the size beyond the trained range, rounded up (0: inside)
    configs: list[Configuration]
    median: np.ndarray
    low: np.ndarray
    high: np.ndarray
    open_keys: list[OpenKeys] = field(default_factory=list)  # per configuration
    # The calibrated bounds (log) of the measured gain by the predicted one, None: none.
    gain_bounds: GainBounds | None = None
    default_unmeasured: bool = False  # the training data never measured the default
    # What the training data measured of this case: per configuration key, per shape
    # (workload) its (worst, median, best) repeat in MiB/s, None where not measured.
    measured: dict[str, list[tuple[float, float, float] | None]] = field(default_factory=dict)

    def _measured_pairs(
        self, index: int, versus: int
    ) -> list[tuple[tuple[float, float, float], tuple[float, float, float]]]:
        """(worst, median, best) of `index` and of `versus` in each shape where both were
        measured."""
        if self.unmeasured_shapes(index, versus):
            return []
        mine = self.measured.get(config_key(self.configs[index])) or []
        theirs = self.measured.get(config_key(self.configs[versus])) or []
        return [(a, b) for a, b in zip(mine, theirs, strict=False) if a and b]

    def unmeasured_shapes(self, index: int, versus: int = 0) -> list[Workload]:
        """The case's shapes where the training data measured one of `index` and `versus`
        but not the other: a program's traced phase (its default alone) beside the sweep's
        case of another memory layout. Where there is one, no measurement of the case
        decides or is called measured (the model's evidence decides: a guess); a shape
        neither was measured in says nothing, nor does a configuration never measured."""
        mine = self.measured.get(config_key(self.configs[index])) or []
        theirs = self.measured.get(config_key(self.configs[versus])) or []
        if not any(mine) or not any(theirs):
            return []  # never measured at all: nothing measured is claimed
        return [
            w for w, a, b in zip(self.workloads, mine, theirs, strict=False) if bool(a) != bool(b)
        ]

    def _log_gain(self, index: int, versus: int) -> float:
        """The predicted log gain of `index` over `versus`."""
        return math.log(max(self.median[index], 1e-9) / max(self.median[versus], 1e-9))

    def measured_verdict(self, index: int, versus: int = 0) -> bool | None:
        """Whether the measurements say `index` beats `versus`: in every shape where both
        were measured, its worst repeat above the other's best; None where no shape has
        both (the model decides then). Measured beats predicted: an overlap of the
        repeats is no evidence, whatever the model says."""
        both = self._measured_pairs(index, versus)
        return all(a[0] > b[2] for a, b in both) if both else None

    def measured_gain(self, index: int, versus: int = 0) -> float | None:
        """The measured median of `index` over that of `versus`, geometric mean over the
        shapes where both were measured; None where none was."""
        both = self._measured_pairs(index, versus)
        return math.exp(sum(math.log(a[1] / b[1]) for a, b in both) / len(both)) if both else None

    def calibrated_gain(self, index: int, versus: int = 0) -> tuple[float, float] | None:
        """The calibrated 10 % bound and median of the gain of `index` over `versus` (ratios:
        what held-out configurations predicted to gain as much over another of their workload
        measured); None without a calibration."""
        bounds = self.gain_bounds(self._log_gain(index, versus)) if self.gain_bounds else None
        return None if bounds is None else (math.exp(bounds[0]), math.exp(bounds[1]))

    def gain_interval(self, index: int) -> tuple[float, float] | None:
        """The 10-90 % interval of the gain of `index` over the default (ratios): what the
        measurements of this case show (the worst repeat over the default's best, the best
        over its worst, geometric mean over the shapes) where both were measured, else
        what the calibration says of gains predicted alike; None without either."""
        both = self._measured_pairs(index, 0)
        if both:
            low = sum(math.log(a[0] / b[2]) for a, b in both) / len(both)
            high = sum(math.log(a[2] / b[0]) for a, b in both) / len(both)
            return math.exp(low), math.exp(high)
        bounds = self.gain_bounds(self._log_gain(index, 0)) if self.gain_bounds else None
        return None if bounds is None else (math.exp(bounds[0]), math.exp(bounds[2]))

    def gain_estimate(self, index: int) -> float | None:
        """The gain of `index` over the default that goes with gain_interval, so it lies
        inside it: the measured gain where both were measured, else the calibrated
        median; None without either (the model's ratio of predictions stands then)."""
        if self._measured_pairs(index, 0):
            return self.measured_gain(index, 0)
        calibrated = self.calibrated_gain(index, 0)
        return None if calibrated is None else calibrated[1]

    def gain_basis(self, index: int) -> str | None:
        """What gain_estimate and gain_interval rest on: "measured", "calibrated", or None
        without either."""
        if self._measured_pairs(index, 0):
            return "measured"
        return "calibrated" if self.calibrated_gain(index, 0) is not None else None

    @property
    def first(self) -> Workload:
        return self.workloads[0]


def open_keys(space: Space, config: Configuration) -> OpenKeys:
    return tuple(sorted((k, str(v)) for k, v in space.hints(config).items() if k in OPEN_ONLY_KEYS))


def _case(
    space: Space,
    workloads: list[Workload],
    group: int,
    distance: int,
    configs: list[Configuration],
    predictions: tuple[np.ndarray, np.ndarray, np.ndarray],
    predictor: "CountingPredictor | None" = None,
) -> Case:
    median, low, high = predictions
    keys = [open_keys(space, c) for c in configs]
    case = Case(workloads, group, distance, configs, median, low, high, keys)
    if predictor is not None:
        case.gain_bounds = predictor.gain_bounds
        case.default_unmeasured = predictor.default_unmeasured
    return case


def calls_per_open(summary: pd.DataFrame, size: int) -> int:
    """The calls per open to predict a size for: the median the training data made at its
    nearest size (bench makes many small calls per open and few large ones, as programs
    do), 1 for data from before the field."""
    if "calls_per_open" not in summary:
        return 1
    sizes = summary["bytes_per_rank"].clip(lower=1).astype(float)
    distance = np.abs(np.log(sizes.to_numpy()) - math.log(max(size, 1)))
    nearest = summary.loc[distance == distance.min(), "calls_per_open"]
    values = pd.to_numeric(nearest, errors="coerce").dropna()
    return max(1, int(values.median())) if len(values) else 1


def predict_case(
    predictor: CountingPredictor,
    space: Space,
    workloads: list[Workload],
    group: int,
    distance: int,
) -> Case:
    configs = distinct_configurations(space, configurations_for(space, workloads[0]), workloads[0])
    return _case(
        space,
        workloads,
        group,
        distance,
        configs,
        predictor.predict(workloads, configs),
        predictor,
    )


def _relevant_only(space: Space, workload: Workload, config: Configuration) -> Configuration:
    """The configuration with the parameters that cannot act on the workload (its access,
    or a value that is the default's at its scale: iotuner.acting) at their defaults."""
    return acting_config(space, config, workload)


def _search_case(
    predictor: CountingPredictor,
    space: Space,
    workloads: list[Workload],
    rng: np.random.Generator,
) -> list[Configuration]:
    """The OPTIMISE_KEEP configurations with the highest predicted lower bound found by a
    random pool and a local search (see the module docstring), best first."""
    workload = workloads[0]
    seen: dict[str, float] = {}
    configs: dict[str, Configuration] = {}

    def evaluate(batch: list[Configuration]) -> None:
        fresh: dict[str, Configuration] = {}
        for config in batch:
            config = _relevant_only(space, workload, config)
            key = config_key(config)
            if key not in seen and key not in fresh:
                fresh[key] = config
        if not fresh:
            return
        _, low, _ = predictor.predict(workloads, list(fresh.values()))
        for (key, config), value in zip(fresh.items(), low, strict=True):
            seen[key], configs[key] = float(value), config

    def best() -> list[str]:
        return sorted(seen, key=lambda k: seen[k], reverse=True)[:OPTIMISE_KEEP]

    evaluate([space.default(), *space.sample(OPTIMISE_POOL, rng)])
    top = best()
    for _ in range(OPTIMISE_ROUNDS):
        moves = [n for key in top for n in space.neighbours(configs[key])]
        moves = [n for n in moves if config_key(_relevant_only(space, workload, n)) not in seen]
        if len(moves) > OPTIMISE_ROUND_SIZE:
            picked = rng.choice(len(moves), OPTIMISE_ROUND_SIZE, replace=False)
            moves = [moves[int(i)] for i in sorted(picked)]
        evaluate(moves)
        if best() == top:
            break
        top = best()
    return [configs[key] for key in top]


def _enumeration_order(space: Space, config: Configuration) -> tuple[tuple[int, int], ...]:
    """A sort key giving Space.configurations()' order: per parameter, its listed values in
    order, then the rest of its range ascending."""
    key = []
    for p in space.parameters:
        value = config[p.name]
        listed = next((i for i, v in enumerate(p.values) if v == value), None)
        key.append((0, listed) if listed is not None else (1, int(value)))
    return tuple(key)


def optimise_scale(
    predictor: CountingPredictor,
    space: Space,
    pending: list[tuple[list[Workload], int, int]],
    rng: np.random.Generator,
    advance: Callable[[], None],
) -> list[Case]:
    """The cases of one scale, each predicted at the same candidate set: the default, the
    best configurations the search found for any case, and each of them with its non-open
    keys at their defaults (what an open entry alone would run)."""
    candidates: dict[str, Configuration] = {config_key(space.default()): space.default()}
    default = space.default()
    for workloads, _, _ in pending:
        for config in _search_case(predictor, space, workloads, rng):
            open_only = {
                name: value if name in OPEN_ONLY_KEYS else default[name]
                for name, value in config.items()
            }
            for candidate in (config, open_only):
                candidates.setdefault(config_key(candidate), candidate)
        advance()
    cases = []
    for workloads, group, distance in pending:
        # One per behaviour on the workload (iotuner.acting); the default first, the rest in
        # the order configurations_for has them, so that ties between equal predictions
        # break as they do when the space is enumerated.
        ordered = sorted(candidates.values(), key=lambda c: _enumeration_order(space, c))
        listed = distinct_configurations(space, [default, *ordered], workloads[0])
        cases.append(
            _case(
                space,
                workloads,
                group,
                distance,
                listed,
                predictor.predict(workloads, listed),
                predictor,
            )
        )
    return cases
