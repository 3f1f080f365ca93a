"""Intervals that hold on workloads a model never saw: conformal calibration on held-out
workloads.

A forest's trees agree with one another far more than the forest agrees with a workload it
never measured, so the spread of the trees is no interval to act on. Instead, each
workload of the training data is held out in turn (at most MAX_FOLDS, spread evenly), the
model is fitted on the others and predicts every configuration of the held-out one. Two
kinds of residual (log scale) come out of those folds:

* absolute: log(measured) - log(predicted) of each row. Its quantiles, added to a
  prediction, give the interval of a bandwidth.
* gain: for pairs of configurations (a, b) of one held-out workload,
  (log m_a - log m_b) - (log p_a - log p_b). Its quantiles, added to a predicted gain (the
  ratio of two configurations of one workload), give the interval of that gain. What the
  model gets wrong about a workload as a whole (its level) cancels in a ratio, which is why
  a gain is known far better than either bandwidth, and why decisions between two
  configurations of one workload (the search's skipping) rest on it.
* gain curve, by predicted gain: the same pairs; along their predicted log gain, the
  10 %, 50 % and 90 % quantiles of the measured log gain of the pairs predicted nearest.
  So the table's evidence rule (a configuration over the default) and online tuning's
  (an untried one over the one in force) ask the question they mean: of the
  configurations held-out workloads were predicted to gain about this much over another,
  how much did they gain in the median, and how little did nine in ten gain? A model
  that predicts +30 % where the measurements scatter around 0 gets no entry from it; one
  whose predicted doublings held up does. The bounds are made monotone in the predicted
  gain (a running maximum), since a larger predicted gain is never weaker evidence. The
  curve is the local counterpart of the gain residuals above: it bounds a gain by what
  gains predicted alike measured, so a model that is right about large gains and wrong
  about small ones acts on the large ones.

Each held-out workload weighs the same, whatever its number of configurations, and the
levels asked for get split conformal prediction's finite-sample correction with the number
of held-out workloads as the sample size (the workloads, not the rows, are what is
exchangeable: rows of one workload share its error). The coverage reported is honest: a
held-out workload's rows are checked against the interval calibrated on the *other*
held-out workloads.

Beyond the data: folds that hold out the largest and the smallest scale (nprocs) and size
(bytes per rank), when there are at least three of each, give residuals of extrapolation.
A question outside the trained ranges gets the wider of the two intervals and is flagged
(`far_from_data`); with no such folds its interval is widened by one width per doubling
beyond the range, and it says so.

RATIONALE for writing this rather than using MAPIE: MAPIE's cross-conformal regressors
refit and keep one model per fold for prediction and offer conformity scores of single
rows; the gain score pairs two rows of one group, which none of its scores does. The
folds are the train command's own, and the conformal step is a weighted quantile.
"""

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt
import pandas as pd

from iotuner.formats import size_groups
from iotuner.measurement import CONFIG_PREFIX
from iotuner.models._common import NOT_SET, ModelError, cell_value
from iotuner.space import Space

if TYPE_CHECKING:
    from iotuner.models._zoo import Candidate

__all__ = [
    "CALIBRATION_METHOD",
    "CURVE_POINTS",
    "GRID",
    "MAX_FOLDS",
    "MAX_PAIRS",
    "MIN_PAIRS",
    "NEIGHBOURS",
    "Calibration",
    "Coverage",
    "calibrate",
    "corrected_levels",
    "held_out_coverage",
]

CALIBRATION_METHOD = (
    "group conformal: residuals of leave-one-workload-out folds, every held-out workload "
    "weighing the same, with the finite-sample correction over held-out workloads"
)

MAX_FOLDS = 40
"""Workloads held out at most, one at a time."""

MAX_PAIRS = 2000
"""Pairs of configurations per held-out workload for the gain residuals at most."""

CURVE_POINTS = 41
"""Predicted gains at which the bounds of the measured gain over the default are kept."""

NEIGHBOURS = 25
"""Held-out pairs (configuration, default) whose measured gains bound a predicted one, at
least; a tenth of the pairs when that is more. Few enough that the largest predicted
gains are judged by pairs predicted alike, not by the bulk near no gain."""

MIN_PAIRS = 10
"""Held-out pairs (configuration, default) a gain curve needs at least; with fewer than
NEIGHBOURS the curve is flat (every pair is every point's neighbour)."""

GRID = np.linspace(0.0, 1.0, 201)
"""The levels at which a calibration keeps its residual quantiles."""

RANGE_COLUMNS = ("nprocs", "bytes_per_rank")
"""Workload columns whose trained range says whether a question is far from the data."""


@dataclass(frozen=True)
class Coverage:
    """The share of held-out rows (and pairs) inside the interval calibrated on the other
    held-out workloads, over all and per held-out workload, and how wide those intervals
    are: the ratio high / low of a bandwidth's interval (`width`, the median over held-out
    workloads; per workload in `width_per_workload`) and of a gain's (`gain_width`). A
    coverage is only worth its width: 93 % of rows inside intervals 9x wide tells a user
    little about which configuration to run."""

    level: float
    rows: float
    gains: float | None
    per_workload: dict[str, float]
    width: float | None = None
    gain_width: float | None = None
    width_per_workload: dict[str, float] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "level": self.level,
            "rows": self.rows,
            "gains": self.gains,
            "per_workload": dict(self.per_workload),
            "worst_workload": min(self.per_workload.values()) if self.per_workload else None,
            "width": self.width,
            "gain_width": self.gain_width,
            "width_per_workload": dict(self.width_per_workload),
        }


@dataclass(frozen=True)
class Calibration:
    """Residual quantiles (log scale) at GRID's levels, and what they came from."""

    workloads: int
    absolute: list[float]
    gain: list[float] | None
    beyond: list[float] | None
    ranges: dict[str, list[float]]
    gain_curve: dict[str, list[float]] | None = None
    default_rows: int | None = None  # training rows measured with the default (None: no space)
    coverage: Coverage | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "method": CALIBRATION_METHOD,
            "workloads": self.workloads,
            "absolute": self.absolute,
            "gain": self.gain,
            "beyond": self.beyond,
            "ranges": self.ranges,
            "gain_curve": self.gain_curve,
            "default_rows": self.default_rows,
            "coverage": self.coverage.to_dict() if self.coverage is not None else None,
        }

    def gain_bounds(self, predicted: float) -> tuple[float, float, float] | None:
        """The 10 %, 50 % and 90 % quantiles (log) of the measured gain of a configuration
        predicted to gain `predicted` (log) over another of the same workload, read off the
        curve of held-out pairs (flat beyond its ends); None without such a curve."""
        curve = self.gain_curve
        if not curve:
            return None
        low, middle, high = (
            float(np.interp(predicted, curve["predicted"], curve[k]))
            for k in ("low", "median", "high")
        )
        return low, middle, high

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> "Calibration":
        def grid(name: str) -> list[float] | None:
            values = data.get(name)
            if values is None:
                return None
            if not isinstance(values, list) or len(values) != len(GRID):
                raise ModelError(
                    f"calibration {name!r}: expected {len(GRID)} quantiles, got {values!r:.60}"
                )
            return [float(v) for v in values]

        absolute = grid("absolute")
        workloads = data.get("workloads")
        if absolute is None or not isinstance(workloads, int) or workloads < 1:
            raise ModelError("calibration: expected 'absolute' quantiles and 'workloads' >= 1")
        ranges = data.get("ranges") or {}
        curve = data.get("gain_curve")
        if curve is not None and not (
            isinstance(curve, Mapping)
            and all(isinstance(curve.get(k), list) for k in _CURVE_KEYS)
            and len({len(curve[k]) for k in _CURVE_KEYS}) == 1
            and len(curve["predicted"]) > 0
        ):
            raise ModelError(
                f"calibration 'gain_curve': expected lists {', '.join(_CURVE_KEYS)} of "
                f"one length, got {curve!r:.80}"
            )
        default_rows = data.get("default_rows")
        if default_rows is not None and (not isinstance(default_rows, int) or default_rows < 0):
            raise ModelError(
                f"calibration 'default_rows': expected an int >= 0, got {default_rows!r}"
            )
        return Calibration(
            default_rows=default_rows,
            workloads=workloads,
            absolute=absolute,
            gain=grid("gain"),
            beyond=grid("beyond"),
            ranges={str(k): [float(v[0]), float(v[1])] for k, v in ranges.items()},
            gain_curve=(
                {k: [float(v) for v in curve[k]] for k in _CURVE_KEYS}
                if curve is not None
                else None
            ),
        )

    def shifts(
        self, levels: Sequence[float] | npt.NDArray[np.float64], kind: str = "absolute"
    ) -> npt.NDArray[np.float64]:
        """The log-scale shifts at `levels` (each corrected for the number of held-out
        workloads): prediction + shift is that quantile of the truth."""
        values = {"absolute": self.absolute, "gain": self.gain, "beyond": self.beyond}[kind]
        if values is None:
            raise ModelError(f"this calibration has no {kind} residuals")
        corrected = corrected_levels(levels, self.workloads)
        shifted: npt.NDArray[np.float64] = np.interp(
            corrected, GRID, np.asarray(values, dtype=float)
        )
        return shifted

    def far_from_data(self, frame: pd.DataFrame) -> list[str]:
        """Per row, why it lies beyond what the model was calibrated on ("" inside)."""
        reasons = [""] * len(frame)
        for column, (low, high) in self.ranges.items():
            if column not in frame.columns:
                continue
            values = pd.to_numeric(frame[column], errors="coerce").to_numpy(dtype=float)
            for i, value in enumerate(values):
                if math.isfinite(value) and not low <= value <= high:
                    said = f"{column} {value:g} beyond the measured {low:g}-{high:g}"
                    reasons[i] = f"{reasons[i]}; {said}" if reasons[i] else said
        return reasons

    def doublings(self, frame: pd.DataFrame) -> npt.NDArray[np.float64]:
        """Per row, how many doublings the furthest of its range columns lies outside."""
        out = np.zeros(len(frame))
        for column, (low, high) in self.ranges.items():
            if column not in frame.columns or low <= 0:
                continue
            values = pd.to_numeric(frame[column], errors="coerce").to_numpy(dtype=float)
            with np.errstate(divide="ignore", invalid="ignore"):
                above = np.where(values > high, np.log2(values / high), 0.0)
                below = np.where((values < low) & (values > 0), np.log2(low / values), 0.0)
            out = np.maximum(out, np.nan_to_num(np.maximum(above, below)))
        return out


_CURVE_KEYS = ("predicted", "low", "median", "high")


def corrected_levels(
    levels: Sequence[float] | npt.NDArray[np.float64], groups: int
) -> npt.NDArray[np.float64]:
    """Split conformal's finite-sample correction: a level q >= 0.5 becomes
    min(1, q (1 + 1/n)) and a level below 0.5 its mirror, n the held-out groups."""
    q = np.asarray(levels, dtype=float)
    if np.any((q < 0) | (q > 1)):
        raise ModelError(f"levels must be in [0, 1], got {list(levels)!r}")
    factor = 1.0 + 1.0 / max(groups, 1)
    upper = np.minimum(1.0, q * factor)
    lower = np.maximum(0.0, 1.0 - (1.0 - q) * factor)
    return np.where(q >= 0.5, upper, lower)


def calibrate(
    frame: pd.DataFrame,
    space: Space | None,
    candidate: "Candidate",
    *,
    target: str = "bw_min",
    seed: int = 0,
    level: float = 0.8,
    max_folds: int = MAX_FOLDS,
) -> Calibration | None:
    """The calibration of `candidate` on `frame` (see the module text), or None when the
    frame has fewer than two workloads (nothing can be held out)."""
    # Here, not at the top: Calibration alone (a learn step's cached one) needs no
    # scikit-learn or SciPy, which take seconds to import.
    from iotuner.models._evaluate import fit_estimator, usable_rows, workload_keys, workload_labels
    from iotuner.models._features import infer_schema
    from iotuner.models._ranking import configure

    data, _ = usable_rows(frame, target)
    schema = infer_schema(data, space)
    X = schema.transform(data)
    y = np.log(data[target].to_numpy(dtype=float))
    _, keys = workload_keys(data)
    order = {key: i for i, key in enumerate(sorted(set(keys)))}
    workload_of = np.array([order[k] for k in keys], dtype=np.intp)
    count = len(order)
    if count < 2:
        return None
    labels = dict(zip(workload_of.tolist(), workload_labels(data, keys), strict=True))
    rng = np.random.default_rng(seed)
    held = _spread(count, max_folds, rng)
    absolute: list[npt.NDArray[np.float64]] = []
    gains: list[npt.NDArray[np.float64]] = []
    names: list[str] = []
    pairs: list[tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]] = []
    is_default = _default_rows(data, space)
    for w in held:
        test = workload_of == w
        estimator = configure(candidate.make(seed), schema)
        fit_estimator(estimator, X[~test], y[~test])
        predicted = np.asarray(estimator.predict(X[test]), dtype=float)
        residual = y[test] - predicted
        absolute.append(residual)
        first, second = _pairs(len(residual), rng)
        gains.append(_both_ways(residual[first] - residual[second]))
        names.append(labels[int(w)])
        pairs.append(
            (
                _both_ways(predicted[first] - predicted[second]),
                _both_ways(y[test][first] - y[test][second]),
            )
        )
    beyond = _beyond_residuals(data, X, y, schema, candidate, seed)
    alpha = (1.0 - level) / 2.0
    coverage = _coverage(absolute, gains, names, (alpha, 1.0 - alpha), level)
    gain_grid = _grid(gains) if any(len(g) for g in gains) else None
    return Calibration(
        workloads=len(held),
        absolute=_grid(absolute),
        gain=gain_grid,
        beyond=_grid(beyond) if beyond else None,
        ranges=_ranges(data),
        gain_curve=_gain_curve(pairs, np.array([alpha, 0.5, 1.0 - alpha])),
        default_rows=int(is_default.sum()) if space is not None else None,
        coverage=coverage,
    )


def _gain_curve(
    pairs: Sequence[tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]],
    levels: npt.NDArray[np.float64],
) -> dict[str, list[float]] | None:
    """The measured gain's quantiles at `levels` along the predicted gain (a local
    estimate: no finite-sample correction, which a window of a few dozen pairs would push
    to its extremes), over the pairs of configurations of the held-out workloads (each
    part: one workload's predicted and measured log gains): at CURVE_POINTS predicted gains
    spread over the pairs', the weighted quantiles of the pairs predicted nearest
    (NEIGHBOURS, or a tenth of them), made non-decreasing along the curve. None with
    fewer pairs than MIN_PAIRS."""
    parts = [
        (p[keep], t[keep], np.full(int(keep.sum()), 1.0 / max(int(keep.sum()), 1)))
        for p, t in pairs
        for keep in [np.abs(p) + np.abs(t) > 0]
    ]
    predicted = np.concatenate([p for p, _, _ in parts]) if parts else np.zeros(0)
    if len(predicted) < MIN_PAIRS:
        return None
    measured = np.concatenate([t for _, t, _ in parts])
    weights = np.concatenate([w for _, _, w in parts])
    points = np.unique(np.quantile(predicted, np.linspace(0.0, 1.0, CURVE_POINTS)))
    neighbours = min(len(predicted), max(NEIGHBOURS, len(predicted) // 10))
    low, middle, high = [], [], []
    for point in points:
        nearest = np.argsort(np.abs(predicted - point), kind="stable")[:neighbours]
        bounds = np.quantile(
            measured[nearest], levels, weights=weights[nearest], method="inverted_cdf"
        )
        low.append(float(bounds[0]))
        middle.append(float(bounds[1]))
        high.append(float(bounds[2]))
    return {
        "predicted": [float(v) for v in points],
        "low": [float(v) for v in np.maximum.accumulate(low)],
        "median": [float(v) for v in np.maximum.accumulate(middle)],
        "high": [float(v) for v in np.maximum.accumulate(high)],
    }


def held_out_coverage(
    residuals: Sequence[npt.NDArray[np.float64]],
    names: Sequence[str],
    level: float = 0.8,
    seed: int = 0,
) -> Coverage | None:
    """The coverage a calibration from these held-out workloads' residuals (log measured
    minus log predicted, one array per workload) would have: each workload's rows, and
    pairs of its configurations, against the interval calibrated on the others (None with
    fewer than three workloads). What `evaluate` reports per model."""
    rng = np.random.default_rng(seed)
    gains = []
    for residual in residuals:
        first, second = _pairs(len(residual), rng)
        gains.append(_both_ways(residual[first] - residual[second]))
    alpha = (1.0 - level) / 2.0
    return _coverage(residuals, gains, names, (alpha, 1.0 - alpha), level)


def _spread(count: int, limit: int, rng: np.random.Generator) -> list[int]:
    """All of 0 .. count-1, or `limit` of them spread evenly from a random offset."""
    if count <= limit:
        return list(range(count))
    offset = float(rng.uniform(0, count / limit))
    return sorted({int(offset + i * count / limit) % count for i in range(limit)})


def _pairs(
    rows: int, rng: np.random.Generator
) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]:
    """Pairs (a, b), a < b, of a workload's rows: all, or MAX_PAIRS drawn at random."""
    first, second = np.triu_indices(rows, k=1)
    if len(first) > MAX_PAIRS:
        pick = rng.choice(len(first), MAX_PAIRS, replace=False)
        first, second = first[pick], second[pick]
    return first, second


def _both_ways(difference: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """A log gain of a over b and of b over a: the pairs carry no order."""
    return np.concatenate([difference, -difference])


def _weighted_quantiles(
    parts: Sequence[npt.NDArray[np.float64]], levels: npt.NDArray[np.float64]
) -> npt.NDArray[np.float64]:
    """Quantiles of the pooled values where every non-empty part weighs the same."""
    kept = [p for p in parts if len(p)]
    values = np.concatenate(kept)
    weights = np.concatenate([np.full(len(p), 1.0 / len(p)) for p in kept])
    return np.asarray(
        np.quantile(values, levels, weights=weights, method="inverted_cdf"), dtype=float
    )


def _grid(parts: Sequence[npt.NDArray[np.float64]]) -> list[float]:
    return [float(v) for v in _weighted_quantiles(parts, GRID)]


def _coverage(
    absolute: Sequence[npt.NDArray[np.float64]],
    gains: Sequence[npt.NDArray[np.float64]],
    names: Sequence[str],
    levels: tuple[float, float],
    level: float,
) -> Coverage | None:
    """Each held-out workload against the interval calibrated on the others."""
    if len(absolute) < 3:
        return None
    inside_rows, inside_pairs, pairs_total, per_workload = 0, 0, 0, {}
    widths: dict[str, float] = {}
    gain_widths: list[float] = []
    corrected = corrected_levels(levels, len(absolute) - 1)
    for i, name in enumerate(names):
        others = [a for j, a in enumerate(absolute) if j != i]
        low, high = _weighted_quantiles(others, corrected)
        inside = int(np.sum((absolute[i] >= low) & (absolute[i] <= high)))
        inside_rows += inside
        per_workload[name] = inside / len(absolute[i])
        widths[name] = math.exp(high - low)  # the interval is a shift: one width per workload
        other_gains = [g for j, g in enumerate(gains) if j != i and len(g)]
        if len(gains[i]) and other_gains:
            low, high = _weighted_quantiles(other_gains, corrected)
            inside_pairs += int(np.sum((gains[i] >= low) & (gains[i] <= high)))
            pairs_total += len(gains[i])
            gain_widths.append(math.exp(high - low))
    rows = sum(len(a) for a in absolute)
    return Coverage(
        level=level,
        rows=inside_rows / rows,
        gains=inside_pairs / pairs_total if pairs_total else None,
        per_workload=per_workload,
        width=float(np.median(list(widths.values()))),
        gain_width=float(np.median(gain_widths)) if gain_widths else None,
        width_per_workload=widths,
    )


def _beyond_residuals(
    data: pd.DataFrame,
    X: npt.NDArray[np.float64],
    y: npt.NDArray[np.float64],
    schema: Any,
    candidate: "Candidate",
    seed: int,
) -> list[npt.NDArray[np.float64]]:
    """Residuals of folds that hold out the largest and the smallest value of a range
    column (at least three values), each fold one part."""
    from iotuner.models._evaluate import fit_estimator
    from iotuner.models._ranking import configure

    parts = []
    for column in RANGE_COLUMNS:
        if column not in data.columns:
            continue
        values = pd.to_numeric(data[column], errors="coerce").to_numpy(dtype=float)
        distinct = np.unique(values[np.isfinite(values)])
        if len(distinct) < 3:
            continue
        for edge in (distinct[0], distinct[-1]):
            test = values == edge
            estimator = configure(candidate.make(seed), schema)
            fit_estimator(estimator, X[~test], y[~test])
            parts.append(y[test] - np.asarray(estimator.predict(X[test]), dtype=float))
    return parts


def _default_rows(data: pd.DataFrame, space: Space | None) -> npt.NDArray[np.bool_]:
    """The rows measured with the space's default configuration: every parameter at its
    default, or not set (a run that left a knob alone ran with its default)."""
    rows = np.ones(len(data), dtype=bool) if space is not None else np.zeros(len(data), bool)
    for parameter in space.parameters if space is not None else ():
        column = f"{CONFIG_PREFIX}{parameter.name}"
        if column in data.columns:
            cells = [cell_value(v) for v in data[column].tolist()]
            rows &= np.array([c in (parameter.default, NOT_SET) for c in cells], dtype=bool)
    return rows


def _ranges(data: pd.DataFrame) -> dict[str, list[float]]:
    """The trained range of each RANGE_COLUMNS column; for sizes, the bounds of the size
    groups the sizes fall in (the table and the interposer tell sizes apart by group)."""
    ranges = {}
    for column in RANGE_COLUMNS:
        if column not in data.columns:
            continue
        values = pd.to_numeric(
            pd.Series([cell_value(v) for v in data[column].tolist()]), errors="coerce"
        ).dropna()
        if not len(values):
            continue
        low, high = float(values.min()), float(values.max())
        if column == "bytes_per_rank":
            for group in size_groups():
                end = group.end if group.end is not None else math.inf
                if group.first <= low < end:
                    low = float(max(group.first, 1))
                if group.first <= high < end and math.isfinite(end):
                    high = float(end - 1)
        ranges[column] = [low, high]
    return ranges
