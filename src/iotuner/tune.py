"""`iotuner tune`: from a performance model to the tuning table the interposer reads.

For every case the table can tell apart at run time (scale, size group, pattern, read or
write, contiguous or strided), the model predicts every configuration of the space. An entry
changes what MPI does only with evidence that the chosen configuration beats the default:

* measured: where the training data measured the case, the measurements decide. A
  configuration beats the default when its worst repeat beats the default's best in every
  shape measured, and among those the one with the highest measured gain is chosen; where
  the repeats overlap there is no evidence, whatever the model says. A size group the
  sweep did not measure, between two that it did, gets their choice when both measured
  the same configuration beating the default and the model does not predict it slower
  there.
* calibrated: elsewhere, with a model calibrated on held-out workloads
  (iotuner.models._calibrate), the held-out configurations predicted to gain about as
  much over another configuration of their workload must have gained in the median, and
  nine in ten of them lost no more than the noise of the training data's own repeats
  (the median relative spread between their quartiles).
* uncalibrated (models from before calibration): the chosen configuration's lower bound
  must beat the default's upper bound, both bands at least as wide as that noise.

Among configurations with evidence the one with the highest prediction is chosen, so a
gain the data cannot tell from noise keeps the default.

Every entry written is reachable by a decision point of the interposer (formats/README.md):

* open (one entry per scale): the hints MPI reads only at open (cb_nodes, cb_config_list,
  striping) cannot change per access, so one assignment of them serves every case of the
  scale. It is the assignment with the highest summed predicted gain over the cases whose
  choices, made within it, are predicted slower than the default in no case beyond the
  noise; the access and view choices are then made within that assignment, so what runs is
  a configuration the model predicted.
* access (collective cases): the remaining keys per size group, op and layout; an entry
  with no hints keeps the default explicitly.
* view (independent access to a strided view): independent calls make no decision, so one
  configuration serves all independent strided cases of a scale, set when the program sets
  such a view. Independent access to a contiguous view gets nothing beyond the open entry:
  ROMIO's other keys (data sieving, independent buffers) only act on non-contiguous access.

Only size groups inside the range the model was trained on get entries from their own
predictions. Beyond it, up to EXTRAPOLATE_FACTOR times larger or smaller, a collective case
gets the nearest trained group's choice only when that choice was measured there beating
the default and the model predicts a gain and nothing slower beyond the noise here, or,
when it was chosen by the model, it still passes the evidence rule here with a noise band
widened for every doubling;
elsewhere no entry is written and the interposer's trace names the size group it had
nothing for (a `no_entry` record). A strided case is predicted for every strided shape
(block size, fill level) seen in training and the predictions are averaged in log space,
since the table cannot tell those shapes apart.

Spaces of any size. A space of up to ENUMERATION_LIMIT configurations is predicted whole
for every case. A larger one (numeric knobs as ranges: space.py) is optimised over the
model instead, scale by scale: for each case a seeded random pool of OPTIMISE_POOL
configurations (Space.sample), then a local search that moves one parameter at a time
(Space.neighbours) from the OPTIMISE_KEEP best by lower bound, for at most OPTIMISE_ROUNDS
rounds of at most OPTIMISE_ROUND_SIZE new configurations; then every case of the scale is
predicted at the union of the cases' best configurations, each also with its non-open keys
at their defaults, so that the rules above (one open assignment per scale, the access and
view choices made within it, evidence against the default) run unchanged on that candidate
set. Model evaluations are bounded by these numbers per case, and memory by predicting at
most PREDICT_BATCH rows at a time. A random pool with a local search, rather than an Optuna
study per case, because it asks the model for hundreds of configurations in one batch
(one call to predict) where a sampler proposes one at a time, and a table has hundreds of
cases. Progress (cases done) goes to stderr when asked for.
"""

import math
import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np
import pandas as pd
from rich.console import Console
from rich.table import Table

from iotuner._progress import progress_bar
from iotuner._tables import print_table, whole
from iotuner.bench import configurations_for, relevant
from iotuner.errors import ConfigError
from iotuner.formats import hint_vocabulary, size_groups
from iotuner.measurement import CONFIG_PREFIX, Workload
from iotuner.space import Configuration, Space, config_key
from iotuner.table import TableEntry

__all__ = [
    "ENUMERATION_LIMIT",
    "OPEN_ONLY_KEYS",
    "Choice",
    "NoteFigures",
    "Predictor",
    "TuneResult",
    "choice_note",
    "measurement_noise",
    "note_figures",
    "note_gain",
    "prediction_rows",
    "render_choices",
    "tune",
    "tune_method",
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


@dataclass(frozen=True)
class Choice:
    """The decision for one case, with what it rests on."""

    nprocs: int
    group: int
    pattern: str
    op: str
    layout: str
    config: Configuration
    hints: dict[str, str]
    kept_default: bool
    predicted: float
    low: float
    high: float
    default_predicted: float
    default_low: float
    reason: str
    extrapolated: int = 0  # doublings of the size beyond the trained range (0: inside it)


@dataclass(frozen=True)
class TuneResult:
    entries: list[TableEntry]
    choices: list[Choice]
    noise: float
    method: str = "enumerated"  # or "optimised"
    method_reason: str = ""
    predicted_rows: int = 0  # rows the model was asked to predict
    evidence_rule: str = ""  # what an entry needs, in words


def tune_method(space: Space) -> tuple[str, str]:
    """How tune searches a space ("enumerated" or "optimised") and why, in a sentence."""
    if space.size <= ENUMERATION_LIMIT:
        return "enumerated", (
            f"space {space.name!r} has {space.size:,} configurations (at most "
            f"{ENUMERATION_LIMIT:,}): every one is predicted for every case"
        )
    return "optimised", (
        f"space {space.name!r} has {space.size:.3g} configurations (more than "
        f"{ENUMERATION_LIMIT:,}): per case, {OPTIMISE_POOL} random configurations and a local "
        f"search of at most {OPTIMISE_ROUNDS} x {OPTIMISE_ROUND_SIZE} over the model's "
        "lower bound, then every case of a scale at the union of the cases' best"
    )


class _CountingPredictor:
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


def _measured(
    summary: pd.DataFrame, case: "_Case"
) -> dict[str, list[tuple[float, float, float] | None]]:
    """What `summary` measured of the case: per configuration key, per shape of the case
    (its workloads, in order) the worst, median and best repeat (see _Case.measured)."""
    first = case.first
    rows = summary[
        (summary["nprocs"] == first.nprocs)
        & (summary["pattern"] == first.pattern)
        & (summary["op"] == first.op)
        & (summary["layout"] == first.layout)
        & (summary["group"] == case.group)
    ]
    found: dict[str, list[tuple[float, float, float] | None]] = {}
    for number, workload in enumerate(case.workloads):
        shape = rows
        if workload.layout == "strided":
            shape = rows[(rows["block"] == workload.block) & (rows["fill"] == workload.fill)]
        for key, worst, middle, best in shape[
            ["config", "bw_min", "bw_median", "bw_max"]
        ].itertuples(index=False, name=None):
            if min(worst, middle, best) > 0:
                slots = found.setdefault(str(key), [None] * len(case.workloads))
                slots[number] = (float(worst), float(middle), float(best))
    return found


def _representative_bytes(group: int) -> int:
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


EXTRAPOLATE_FACTOR = 4
"""How far beyond the trained sizes (a factor on bytes per rank) a size group may inherit
the nearest trained group's choice."""

WIDEN_PER_DOUBLING = 0.5
"""How much wider (relative to the noise) the evidence band gets per doubling of the size
beyond the trained range."""

OpenKeys = tuple[tuple[str, str], ...]

EVIDENCE = "lower bound beats the default's upper bound"

GAIN_EVIDENCE = (
    "calibrated gain: held-out configurations predicted to gain as much gained in the "
    "median, and lost no more than the noise in nine of ten"
)

NO_EVIDENCE = "no evidence"

DEFAULT_UNMEASURED = (
    "gain unknown: the training data never measured the default configuration, so the "
    "model's prediction of it is an extrapolation"
)

MEASURED_EVIDENCE = (
    "measured in this case: its worst repeat beat the default's best in every shape measured"
)

GainBounds = Callable[[float], tuple[float, float, float] | None]
"""The calibrated 10 %, 50 % and 90 % quantiles (log) of the measured gain of one
configuration over another by the predicted log gain (TrainedModel.gain_bounds)."""


@dataclass
class _Case:
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

    def measured_verdict(self, index: int, versus: int = 0) -> bool | None:
        """Whether the measurements say `index` beats `versus`: in every shape where both
        were measured, its worst repeat above the other's best; None where no shape has
        both (the model decides then). Measured beats predicted: an overlap of the
        repeats is no evidence, whatever the model says."""
        mine = self.measured.get(config_key(self.configs[index]))
        theirs = self.measured.get(config_key(self.configs[versus]))
        if not mine or not theirs:
            return None
        both = [(a, b) for a, b in zip(mine, theirs, strict=True) if a and b]
        if not both:
            return None
        return all(a[0] > b[2] for a, b in both)

    def measured_gain(self, index: int, versus: int = 0) -> float | None:
        """The measured median of `index` over that of `versus`, geometric mean over the
        shapes where both were measured; None where none was."""
        mine = self.measured.get(config_key(self.configs[index])) or []
        theirs = self.measured.get(config_key(self.configs[versus])) or []
        ratios = [math.log(a[1] / b[1]) for a, b in zip(mine, theirs, strict=False) if a and b]
        return math.exp(sum(ratios) / len(ratios)) if ratios else None

    def calibrated_gain(self, index: int, versus: int = 0) -> tuple[float, float] | None:
        """The calibrated 10 % bound and median of the gain of `index` over `versus` (ratios:
        what held-out configurations predicted to gain as much over another of their workload
        measured); None without a calibration."""
        if self.gain_bounds is None:
            return None
        predicted = math.log(max(self.median[index], 1e-9) / max(self.median[versus], 1e-9))
        bounds = self.gain_bounds(predicted)
        if bounds is None:
            return None
        return math.exp(bounds[0]), math.exp(bounds[1])

    @property
    def first(self) -> Workload:
        return self.workloads[0]


def _open_keys(space: Space, config: Configuration) -> OpenKeys:
    return tuple(sorted((k, str(v)) for k, v in space.hints(config).items() if k in OPEN_ONLY_KEYS))


def _case(
    space: Space,
    workloads: list[Workload],
    group: int,
    distance: int,
    configs: list[Configuration],
    predictions: tuple[np.ndarray, np.ndarray, np.ndarray],
    predictor: "_CountingPredictor | None" = None,
) -> _Case:
    median, low, high = predictions
    keys = [_open_keys(space, c) for c in configs]
    case = _Case(workloads, group, distance, configs, median, low, high, keys)
    if predictor is not None:
        case.gain_bounds = predictor.gain_bounds
        case.default_unmeasured = predictor.default_unmeasured
    return case


def _evidence(case: _Case, index: int, noise: float, versus: int = 0) -> bool:
    """The configuration beats `versus` (the default): where the training data measured
    both in this case, by the measurements (_Case.measured_verdict); else, with a
    calibrated model, the
    held-out configurations predicted to gain as much gained in the median (above 1) and
    nine in ten of them lost no more than the noise (10 % bound at least 1 / (1 + noise),
    the noise widened per doubling beyond the trained sizes); without one, its lower bound beats the
    upper bound of `versus`, both bands at least the training noise wide (wider beyond
    the trained range)."""
    verdict = case.measured_verdict(index, versus)
    if verdict is not None:
        return verdict
    calibrated = case.calibrated_gain(index, versus)
    if calibrated is not None:
        low, middle = calibrated
        allowed = noise * (1 + WIDEN_PER_DOUBLING * case.distance)
        return middle > 1.0 and low >= 1.0 / (1.0 + allowed)
    band = noise * (1 + WIDEN_PER_DOUBLING * case.distance)
    low = min(case.low[index], case.median[index] / (1 + band))
    other_high = max(case.high[versus], case.median[versus] * (1 + band))
    return bool(low > other_high)


def _not_slower(case: _Case, index: int, noise: float) -> bool:
    """The configuration is not predicted slower than the default beyond the noise."""
    return bool(case.median[index] >= case.median[0] * (1 - noise))


def tune(
    predictor: Predictor,
    space: Space,
    summary: pd.DataFrame,
    *,
    scales: Sequence[int] | None = None,
    method: str | None = None,
    seed: int = 0,
    progress: Console | None = None,
) -> TuneResult:
    """The tuning table for the cases the training data covers (`summary`: the frame the
    model learned from, for its ranges, shapes and noise). `method` "enumerated" or
    "optimised" overrides tune_method's choice; `seed` seeds the optimisation; with a
    `progress` console (stderr), the cases done are shown on it."""
    if summary.empty:
        raise ConfigError("no training data: nothing to tune from")
    chosen, why = tune_method(space)
    if method is not None:
        if method not in ("enumerated", "optimised"):
            raise ConfigError(f"method must be enumerated or optimised, got {method!r}")
        if method == "enumerated" and chosen == "optimised":
            raise ConfigError(f"cannot enumerate: {why}")
        chosen, why = method, f"{method} as asked"
    counted = _CountingPredictor(predictor)
    rng = np.random.default_rng(seed)
    noise = measurement_noise(summary)
    low_bytes, high_bytes = summary["bytes_per_rank"].min(), summary["bytes_per_rank"].max()
    trained = [
        g.number
        for g in size_groups()
        if g.first <= high_bytes and (g.end is None or g.end > low_bytes)
    ]
    beyond = [
        g.number
        for g in size_groups()
        if g.number not in trained
        and low_bytes / EXTRAPOLATE_FACTOR
        <= _representative_bytes(g.number)
        <= high_bytes * EXTRAPOLATE_FACTOR
    ]
    strided = summary[summary["layout"] == "strided"][["block", "fill"]].drop_duplicates()
    nodes = int(summary["nodes"].max())
    choices: list[Choice] = []
    entries: list[TableEntry] = []
    combinations = sorted(
        summary[["pattern", "op", "layout"]].drop_duplicates().itertuples(index=False)
    )
    per_scale: list[list[tuple[list[Workload], int, int]]] = []
    for nprocs in scales or sorted(summary["nprocs"].unique()):
        pending: list[tuple[list[Workload], int, int]] = []
        for pattern, op, layout in combinations:
            shapes = (
                [(0, 1.0)]
                if layout == "contiguous"
                else list(strided.itertuples(index=False, name=None))
            )
            groups = trained + (beyond if pattern == "collective" else [])
            for group in sorted(groups):
                size = _representative_bytes(group)
                workloads = [
                    Workload(
                        nprocs=int(nprocs),
                        nodes=nodes,
                        pattern=pattern,
                        op=op,
                        layout=layout,
                        bytes_per_rank=max(int(block), size - size % int(block)) if block else size,
                        block=int(block),
                        fill=float(fill),
                        calls_per_open=_calls_per_open(summary, size),
                    )
                    for block, fill in shapes
                ]
                distance = (
                    0
                    if group in trained
                    else math.ceil(
                        abs(math.log2(size / (low_bytes if size < low_bytes else high_bytes)))
                    )
                )
                pending.append((workloads, group, distance))
        per_scale.append(pending)
    with _progress(progress, sum(map(len, per_scale)), chosen) as advance:
        for pending in per_scale:
            if chosen == "enumerated":
                cases = []
                for workloads, group, distance in pending:
                    cases.append(_predict(counted, space, workloads, group, distance))
                    advance()
            else:
                cases = _optimise_scale(counted, space, pending, rng, advance)
            for case in cases:
                case.measured = _measured(summary, case)
            scale_entries, scale_choices = _tune_scale(cases, space, noise, trained)
            entries += scale_entries
            choices += scale_choices
    rule = (
        "an entry needs held-out configurations predicted to gain as much to have gained in "
        "the median and lost no more than the noise in nine of ten"
        if counted.gain_bounds is not None
        else "an entry needs its lower bound above the default's upper bound"
    )
    return TuneResult(entries, choices, noise, chosen, why, counted.rows, rule)


@contextmanager
def _progress(console: Console | None, total: int, method: str) -> Iterator[Callable[[], None]]:
    """A function to call per case done, shown as a bar on `console` (none: no output)."""
    if console is None:
        yield lambda: None
        return
    bar = progress_bar(console)
    with bar:
        task = bar.add_task(f"tune ({method}): cases", total=total)
        yield lambda: bar.advance(task)


def _calls_per_open(summary: pd.DataFrame, size: int) -> int:
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


def _predict(
    predictor: _CountingPredictor,
    space: Space,
    workloads: list[Workload],
    group: int,
    distance: int,
) -> _Case:
    configs = configurations_for(space, workloads[0])
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
    """The configuration with the parameters that cannot matter to the workload (as
    bench.relevant says) at their defaults, as configurations_for has them."""
    return {
        p.name: config[p.name] if relevant(p, workload) else p.default for p in space.parameters
    }


def _search_case(
    predictor: _CountingPredictor,
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


def _optimise_scale(
    predictor: _CountingPredictor,
    space: Space,
    pending: list[tuple[list[Workload], int, int]],
    rng: np.random.Generator,
    advance: Callable[[], None],
) -> list[_Case]:
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
        configs: dict[str, Configuration] = {}
        for candidate in candidates.values():
            config = _relevant_only(space, workloads[0], candidate)
            configs.setdefault(config_key(config), config)
        # The default first, the rest in the order configurations_for has them, so that
        # ties between equal predictions break as they do when the space is enumerated.
        listed = [configs.pop(config_key(_relevant_only(space, workloads[0], default)))]
        listed += sorted(configs.values(), key=lambda c: _enumeration_order(space, c))
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


def _within(case: _Case, space: Space, keys: OpenKeys) -> list[int]:
    """The case's configurations that have these open keys. When the open keys cannot
    matter to the case (bench.relevant fixed them at their defaults), all of them: it runs
    with whatever the open entry sets, as predicted with the defaults."""
    inside = [i for i, k in enumerate(case.open_keys) if k == keys]
    if not inside and len(set(case.open_keys)) == 1:
        return list(range(len(case.configs)))
    return inside


def _access_default(case: _Case, space: Space, keys: OpenKeys) -> int | None:
    """The configuration with these open keys and every other key at its default."""
    default_rest = {
        k: v for k, v in space.hints(case.configs[0]).items() if k not in OPEN_ONLY_KEYS
    }
    for i in _within(case, space, keys):
        rest = {k: v for k, v in space.hints(case.configs[i]).items() if k not in OPEN_ONLY_KEYS}
        if rest == default_rest:
            return i
    return None


def _decide_case(case: _Case, space: Space, keys: OpenKeys, noise: float) -> tuple[int, str] | None:
    """What runs for a case under these open keys, and why; None when the nearest trained
    choice (beyond the range) has no evidence there, or nothing under the keys is safe."""
    inside = _within(case, space, keys)
    if not inside:
        return None
    if case.default_unmeasured:
        fallback = _access_default(case, space, keys)
        return None if fallback is None else (fallback, DEFAULT_UNMEASURED)
    best = _best_evidenced(case, inside, noise)
    measured = None if best is None else case.measured_gain(best)
    if best is not None and measured is not None:
        return best, (
            f"{MEASURED_EVIDENCE}: measured gain {measured - 1:+.0%} (predicted "
            f"{case.median[best] / max(case.median[0], 1e-9) - 1:+.0%})"
        )
    if best is not None:
        gain = case.median[best] / max(case.median[0], 1e-9) - 1
        calibrated = case.calibrated_gain(best)
        if calibrated is None:
            return best, f"{EVIDENCE}: predicted gain {gain:+.0%}"
        return best, (
            f"{GAIN_EVIDENCE}: predicted gain {gain:+.0%}, calibrated median "
            f"{calibrated[1] - 1:+.0%}, 10 % bound {calibrated[0] - 1:+.0%}"
        )
    fallback = _access_default(case, space, keys)
    if fallback is None or not _not_slower(case, fallback, noise):
        return None
    top = int(np.argmax(case.low))
    if case.measured_verdict(top) is not None:
        return fallback, (
            "measured in this case: no configuration's worst repeat beat the default's best"
        )
    if top == 0:
        return fallback, "the default has the best lower bound"
    gain = case.median[top] / max(case.median[0], 1e-9) - 1
    calibrated = case.calibrated_gain(top)
    if calibrated is not None:
        return fallback, (
            f"{NO_EVIDENCE}: best predicted gain {gain:+.0%}; held-out configurations "
            f"predicted alike gained {calibrated[1] - 1:+.0%} in the median and "
            f"{calibrated[0] - 1:+.0%} at the 10 % bound (noise {noise:.0%})"
        )
    return fallback, (
        f"{NO_EVIDENCE} beyond the noise ({noise:.0%}): best predicted gain {gain:+.0%}, "
        "whose lower bound does not beat the default's upper bound"
    )


def _best_evidenced(case: _Case, inside: list[int], noise: float) -> int | None:
    """The configuration to run instead of the default: among those the measurements of
    this case show beating it, the one with the highest measured gain; else, with a
    calibrated model, the one with the highest prediction among those with evidence;
    without, the one with the highest lower bound if it has evidence. None: keep the
    default."""
    measured = [i for i in inside if i != 0 and case.measured_verdict(i) is True]
    if measured:
        return max(measured, key=lambda i: case.measured_gain(i) or 0.0)
    if case.gain_bounds is not None:
        evidenced = [i for i in inside if i != 0 and _evidence(case, i, noise)]
        return max(evidenced, key=lambda i: case.median[i], default=None)
    best = max(inside, key=lambda i: case.low[i])
    return best if best != 0 and _evidence(case, best, noise) else None


def _aggregators(keys: OpenKeys, workload: Workload) -> tuple[int, tuple[tuple[str, str], ...]]:
    """What open keys make ROMIO do at a scale: the number of aggregators (cb_nodes, by
    default one per host, capped by cb_config_list's ranks per host: `*:1` by default,
    `*:*` all of them, and by the ranks), and every other open key as given."""
    given = dict(keys)
    hosts = max(1, int(workload.nodes or 1))
    ranks = max(1, int(workload.nprocs))
    per_host = max(1, ranks // hosts)
    listed = given.get("cb_config_list", "*:1")
    cap = per_host if listed == "*:*" else int(listed[2:]) if listed[2:].isdigit() else None
    wanted = given.get("cb_nodes", "default")
    count = hosts if wanted in ("default", "automatic") or not wanted.isdigit() else int(wanted)
    if cap is not None:
        count = min(count, hosts * cap)
    rest = tuple((k, v) for k, v in keys if k not in ("cb_nodes", "cb_config_list"))
    return min(count, ranks), rest


def _same_as_default(keys: OpenKeys, default_keys: OpenKeys, workload: Workload) -> bool:
    """The open keys act as the default's at the workload's scale (formats/hints.def:
    cb_nodes and cb_config_list only set how many ranks aggregate)."""
    if any(k == "cb_config_list" and not (v == "*:*" or v.startswith("*:")) for k, v in keys):
        return False  # a host list: not ours to reason about
    return _aggregators(keys, workload) == _aggregators(default_keys, workload)


def _tune_scale(
    cases: list[_Case], space: Space, noise: float, trained: list[int]
) -> tuple[list[TableEntry], list[Choice]]:
    inside = [c for c in cases if c.distance == 0]
    default_keys = _open_keys(space, space.default())
    first = (inside or cases)[0].first
    # An assignment that gives this scale the default's aggregators and nothing else is
    # the default here: neither written nor credited (a gain the model gives it is noise).
    candidates = sorted(
        {
            k
            for c in inside
            for k in c.open_keys
            if k == default_keys or not _same_as_default(k, default_keys, first)
        }
    )

    baseline = {id(case): _decide_case(case, space, default_keys, noise) for case in inside}

    def score(keys: OpenKeys) -> float | None:
        """Summed log gain over what the default open keys would run, credited only where
        it is beyond the noise; a predicted loss always counts. None: unsafe somewhere."""
        total = 0.0
        for case in inside:
            decided, base = _decide_case(case, space, keys, noise), baseline[id(case)]
            if decided is None or base is None:
                return None
            ratio = math.log(max(case.median[decided[0]], 1e-9) / max(case.median[base[0]], 1e-9))
            evidenced = _evidence(case, decided[0], noise, versus=base[0])
            total += ratio if evidenced else min(ratio, 0.0)
        return total

    scores = {keys: score(keys) for keys in candidates}
    keys = default_keys
    for candidate, value in scores.items():
        if value is not None and value > (scores.get(keys) or 0.0) + 1e-12:
            keys = candidate
    nprocs = inside[0].first.nprocs if inside else cases[0].first.nprocs
    entries: list[TableEntry] = []
    if keys != default_keys and keys:
        entries.append(
            TableEntry(
                at="open",
                nprocs=nprocs,
                hints=dict(keys),
                note=f"open-only hints with the most predicted gain at this scale "
                f"(summed log gain {scores[keys]:+.2f} over {len(inside)} cases)",
            )
        )
    choices: list[Choice] = []
    for case in cases:
        if case.first.pattern == "independent":
            continue
        decided = (
            _decide_case(case, space, keys, noise)
            if case.distance == 0
            else _extrapolate(case, cases, space, keys, noise, trained)
        )
        kept = decided is None or _rest(space, case.configs[decided[0]]) == _rest(
            space, case.configs[0]
        )
        if not case.measured and kept:
            decided = _between_measured(case, cases, space, keys, noise) or decided
        if decided is None:
            continue
        choice = _choice(case, space, *decided)
        choices.append(choice)
        entries.append(
            TableEntry(
                nprocs=choice.nprocs,
                group=choice.group,
                pattern=choice.pattern,
                op=choice.op,
                layout=choice.layout,
                hints=_rest(space, case.configs[decided[0]]),
                note=choice_note(choice),
            )
        )
    view = _view_choice(
        [c for c in inside if c.first.pattern == "independent" and c.first.layout == "strided"],
        space,
        keys,
        noise,
    )
    if view is not None:
        view_choices, hints, note = view
        choices += view_choices
        if hints:
            entries.append(
                TableEntry(at="view", nprocs=nprocs, layout="strided", hints=hints, note=note)
            )
    for case in inside:
        if case.first.pattern == "independent" and case.first.layout == "contiguous":
            fallback = _access_default(case, space, keys)
            index = fallback if fallback is not None else 0
            choices.append(
                _choice(
                    case,
                    space,
                    index,
                    "independent contiguous access: only the open entry's keys act on it",
                )
            )
    return entries, choices


def _rest(space: Space, config: Configuration) -> dict[str, str | int]:
    return {k: v for k, v in space.hints(config).items() if k not in OPEN_ONLY_KEYS}


def _between_measured(
    case: _Case, cases: list[_Case], space: Space, keys: OpenKeys, noise: float
) -> tuple[int, str] | None:
    """For a size the training data did not measure, between two sizes it did: the
    configuration the measurements of both neighbouring size groups (same pattern, op and
    layout) show beating the default, when both chose the same one and the model does not
    predict it slower than the default here beyond the noise; else None."""
    twins = [
        c
        for c in cases
        if c.measured
        and c.distance == 0
        and (c.first.pattern, c.first.op, c.first.layout)
        == (case.first.pattern, case.first.op, case.first.layout)
    ]
    below = max((c for c in twins if c.group < case.group), key=lambda c: c.group, default=None)
    above = min((c for c in twins if c.group > case.group), key=lambda c: c.group, default=None)
    if below is None or above is None:
        return None
    chosen = []
    for twin in (below, above):
        decided = _decide_case(twin, space, keys, noise)
        if decided is None or twin.measured_verdict(decided[0]) is not True:
            return None
        chosen.append(config_key(twin.configs[decided[0]]))
    if chosen[0] != chosen[1]:
        return None
    index = next((i for i, c in enumerate(case.configs) if config_key(c) == chosen[0]), None)
    if index is None or index == 0 or not _not_slower(case, index, noise):
        return None
    return index, (
        f"between size groups {below.group} and {above.group}, whose measurements both show "
        "it beating the default; the model does not predict it slower here"
    )


def _extrapolate(
    case: _Case,
    cases: list[_Case],
    space: Space,
    keys: OpenKeys,
    noise: float,
    trained: list[int],
) -> tuple[int, str] | None:
    """Beyond the trained range: the nearest trained group's choice, if it still has
    evidence here with the wider band; else nothing."""
    nearest = min(trained, key=lambda g: abs(g - case.group))
    twin = next(
        (
            c
            for c in cases
            if c.group == nearest
            and c.distance == 0
            and (c.first.pattern, c.first.op, c.first.layout)
            == (case.first.pattern, case.first.op, case.first.layout)
        ),
        None,
    )
    decided = None if twin is None else _decide_case(twin, space, keys, noise)
    if twin is None or decided is None or decided[0] == 0:
        return None
    config = twin.configs[decided[0]]
    index = next((i for i, c in enumerate(case.configs) if c == config), None)
    if index is None:
        return None
    if twin.measured_verdict(decided[0]) is True:
        # Measured at the nearest size: it carries over while the model, here, predicts
        # a gain and nothing slower than the default beyond the noise.
        calibrated = case.calibrated_gain(index)
        gain = calibrated[1] if calibrated is not None else case.median[index] / case.median[0]
        if gain > 1.0 and _not_slower(case, index, noise):
            return index, (
                f"group {nearest}'s measured choice, {case.distance} doublings beyond the "
                f"trained sizes: the model predicts {gain - 1:+.0%} here"
            )
        return None
    if not _evidence(case, index, noise):
        return None
    return index, (
        f"group {nearest}'s choice, {case.distance} doublings beyond the trained sizes: still "
        "predicted better than the default beyond the widened noise"
    )


def _view_choice(
    cases: list[_Case], space: Space, keys: OpenKeys, noise: float
) -> tuple[list[Choice], dict[str, str | int], str] | None:
    """One configuration for every independent strided case of a scale (a view entry), or
    None; it must be safe in every case and beat the default with evidence on average."""
    if not cases:
        return None
    options = {
        config_key(c.configs[i]): c.configs[i] for c in cases for i in _within(c, space, keys)
    }
    best_key, best_total = None, 0.0
    for key, config in options.items():
        total, evidence, safe = 0.0, 0, True
        for case in cases:
            index = next((i for i, c in enumerate(case.configs) if c == config), None)
            if index is None or not _not_slower(case, index, noise):
                safe = False
                break
            total += math.log(max(case.median[index], 1e-9) / max(case.median[0], 1e-9))
            evidence += _evidence(case, index, noise)
        if safe and evidence * 2 > len(cases) and total > best_total:
            best_key, best_total = key, total
    chosen = options.get(best_key) if best_key else None
    choices = []
    for case in cases:
        index = (
            next((i for i, c in enumerate(case.configs) if c == chosen), None) if chosen else None
        )
        if index is None:
            index = _access_default(case, space, keys) or 0
            why = (
                "no single configuration beats the default with evidence in most "
                "independent strided cases"
            )
        else:
            why = "the view entry's configuration, for every independent strided case of the scale"
        choices.append(_choice(case, space, index, why))
    if chosen is None:
        return choices, {}, ""
    hints = _rest(space, chosen)
    return (
        choices,
        hints,
        (
            f"independent access to strided views: summed log gain {best_total:+.2f} over "
            f"{len(cases)} cases, better than the default with evidence in most"
        ),
    )


def _choice(case: _Case, space: Space, index: int, reason: str) -> Choice:
    w = case.first
    config = case.configs[index]
    return Choice(
        nprocs=w.nprocs,
        group=case.group,
        pattern=w.pattern,
        op=w.op,
        layout=w.layout,
        config=config,
        hints=space.hints(config),
        kept_default=config == case.configs[0],
        predicted=float(case.median[index]),
        low=float(case.low[index]),
        high=float(case.high[index]),
        default_predicted=float(case.median[0]),
        default_low=float(case.low[0]),
        reason=reason,
        extrapolated=case.distance,
    )


# The note of an access entry is a two-way contract: tune writes it with choice_note, and
# whoever reads a table's predictions back (iotuner export ranks entries by gain, the report
# draws gains with their intervals) reads it with note_figures. Change the two together;
# tests/unit/test_hintexport.py checks the round trip.
_NUMBER = r"-?[0-9]+(?:\.[0-9]+)?"
_NOTE = re.compile(
    rf"^predicted (?P<predicted>{_NUMBER}) MiB/s \[(?P<low>{_NUMBER}), (?P<high>{_NUMBER})\] "
    rf"vs default (?P<default>{_NUMBER}); (?P<reason>.*)$",
    re.DOTALL,
)


@dataclass(frozen=True)
class NoteFigures:
    """What a note by choice_note states: predicted bandwidth and interval (MiB/s), the
    default's prediction, the gain (predicted / default) and why."""

    predicted: float
    low: float
    high: float
    default: float
    gain: float
    reason: str


def choice_note(c: Choice) -> str:
    """The `note` of the table entry written for a choice: "predicted X MiB/s [low, high]
    vs default Y; reason" (note_figures reads it back)."""
    return (
        f"predicted {c.predicted:.1f} MiB/s [{c.low:.1f}, {c.high:.1f}] vs default "
        f"{c.default_predicted:.1f}; {c.reason}"
    )


def note_figures(note: str | None) -> NoteFigures | None:
    """The figures a note by choice_note states, or None for any other note (hand-written
    tables, search winners, open and view entries, whose notes state no single prediction)
    and for a default predicted at 0, which has no gain."""
    found = _NOTE.match(note or "")
    if found is None:
        return None
    default = float(found.group("default"))
    if default <= 0:
        return None
    predicted = float(found.group("predicted"))
    return NoteFigures(
        predicted=predicted,
        low=float(found.group("low")),
        high=float(found.group("high")),
        default=default,
        gain=predicted / default,
        reason=found.group("reason"),
    )


def note_gain(note: str | None) -> float | None:
    """The predicted gain (predicted / default bandwidth) a note by choice_note states, or
    None where note_figures gives None."""
    figures = note_figures(note)
    return None if figures is None else figures.gain


def render_choices(result: TuneResult, console: Console, limit: int = 30) -> None:
    """The cases whose configuration differs from the default, best predicted gain first."""
    changed = sorted(
        (c for c in result.choices if not c.kept_default),
        key=lambda c: c.predicted / max(c.default_predicted, 1e-9),
        reverse=True,
    )
    if not changed:
        # An empty table says less than a sentence.
        console.print(
            f"every case keeps the default: no configuration is predicted to beat it by "
            f"more than the noise ({result.noise:.0%})"
        )
        return
    table = Table(title=f"configurations chosen over the default (noise {result.noise:.0%})")
    for column in (
        "scale",
        "group",
        "pattern",
        "op",
        "layout",
        "hints",
        "predicted MiB/s",
        "default MiB/s",
    ):
        table.add_column(column)
    for c in changed[:limit]:
        table.add_row(
            whole(str(c.nprocs)),
            whole(str(c.group)),
            c.pattern,
            c.op,
            c.layout,
            (", ".join(f"{k}={v}" for k, v in c.hints.items()) or "(default)")
            + (f" (nearest trained size's, x{2**c.extrapolated} away)" if c.extrapolated else ""),
            whole(f"{c.predicted:.1f} [{c.low:.1f}, {c.high:.1f}]"),
            whole(f"{c.default_predicted:.1f}"),
        )
    if len(changed) > limit:
        table.caption = f"{len(changed) - limit} more in the table's notes"
    print_table(console, [(table, None)])
