"""`iotuner tune`: from a performance model to the tuning table the interposer reads.

For every case the table can tell apart at run time (scale, size group, pattern, read or
write, contiguous or strided), the model predicts every configuration of the space, and
the table gets the one that stays good: the highest *lower* quantile of the prediction, not
the highest point estimate, because a configuration that is best on average but sometimes
poor is the wrong thing to apply blindly. (Since the default's own lower quantile is among
those compared, the choice is never predicted to be worse than the default at that
quantile.) When its predicted median does not beat the default's by more than the noise of
the measurements (the median relative spread between the quartiles of the repeats the
model learned from), the default is kept and the entry says so.

Only size groups inside the range the model was trained on get entries: outside it the
model extrapolates, and the interposer's fallback (no entry: the library's defaults) is
the honest choice. A strided case is predicted for every strided shape (block size, fill
level) seen in training and the predictions are averaged in log space, since the table
cannot tell those shapes apart.

Hints that MPI reads only at open (cb_nodes, cb_config_list, striping) cannot change at a
collective access; they go into one `"at": "open"` entry per scale: the value the access
entries of that scale chose most often.
"""

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np
import pandas as pd
from rich.console import Console
from rich.table import Table

from iotuner.bench import configurations_for
from iotuner.errors import ConfigError
from iotuner.formats import hint_vocabulary, size_groups
from iotuner.measurement import CONFIG_PREFIX, Workload
from iotuner.space import Configuration, Space, config_key
from iotuner.table import TableEntry

__all__ = [
    "OPEN_ONLY_KEYS",
    "Choice",
    "Predictor",
    "TuneResult",
    "measurement_noise",
    "render_choices",
    "tune",
]

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


@dataclass(frozen=True)
class TuneResult:
    entries: list[TableEntry]
    choices: list[Choice]
    noise: float


def measurement_noise(summary: pd.DataFrame) -> float:
    """The median relative interquartile spread of the repeats: what counts as noise."""
    spread = (summary["bw_q3"] - summary["bw_q1"]) / summary["bw_median"].clip(lower=1e-9)
    spread = spread[summary["n"] > 1]
    return float(spread.median()) if len(spread) else 0.1


def _representative_bytes(group: int) -> int:
    """A size inside a group: the geometric middle of its bounds."""
    g = next(g for g in size_groups() if g.number == group)
    first = max(g.first, 1)
    end = g.end if g.end is not None else 2 * first
    return int(math.sqrt(first * end))


def _frame(workloads: Sequence[Workload], configs: Sequence[Configuration]) -> pd.DataFrame:
    rows = []
    for workload in workloads:
        for config in configs:
            row = workload.as_row()
            row.update({f"{CONFIG_PREFIX}{name}": value for name, value in config.items()})
            row["config"] = config_key(config)
            rows.append(row)
    return pd.DataFrame(rows)


def tune(
    predictor: Predictor,
    space: Space,
    summary: pd.DataFrame,
    *,
    scales: Sequence[int] | None = None,
) -> TuneResult:
    """The tuning table for the cases the training data covers (`summary`: the frame the
    model learned from, for its ranges, shapes and noise)."""
    if summary.empty:
        raise ConfigError("no training data: nothing to tune from")
    noise = measurement_noise(summary)
    low_bytes, high_bytes = summary["bytes_per_rank"].min(), summary["bytes_per_rank"].max()
    groups = [
        g.number
        for g in size_groups()
        if g.first <= high_bytes and (g.end is None or g.end > low_bytes)
    ]
    strided = summary[summary["layout"] == "strided"][["block", "fill"]].drop_duplicates()
    nodes = int(summary["nodes"].max())
    choices: list[Choice] = []
    for nprocs in scales or sorted(summary["nprocs"].unique()):
        for pattern, op, layout in sorted(
            summary[["pattern", "op", "layout"]].drop_duplicates().itertuples(index=False)
        ):
            shapes = (
                [(0, 1.0)]
                if layout == "contiguous"
                else list(strided.itertuples(index=False, name=None))
            )
            for group in groups:
                size = _representative_bytes(group)
                workloads = [
                    Workload(
                        int(nprocs),
                        nodes,
                        pattern,
                        op,
                        layout,
                        max(int(block), size - size % int(block)) if block else size,
                        int(block),
                        float(fill),
                    )
                    for block, fill in shapes
                ]
                choices.append(_choose(predictor, space, workloads, group, noise))
    return TuneResult(_entries(choices, space), choices, noise)


def _choose(
    predictor: Predictor, space: Space, workloads: list[Workload], group: int, noise: float
) -> Choice:
    configs = configurations_for(space, workloads[0])
    median, low, high = (
        np.asarray(a, dtype=float) for a in predictor.predict_interval(_frame(workloads, configs))
    )

    def per_config(values: np.ndarray) -> np.ndarray:
        # Rows are workload-major; average each configuration over the shapes in log space.
        logs = np.log(np.clip(values, 1e-9, None)).reshape(len(workloads), len(configs))
        return np.asarray(np.exp(logs.mean(axis=0)), dtype=float)

    median, low, high = per_config(median), per_config(low), per_config(high)
    best = int(np.argmax(low))
    gain = median[best] / median[0] - 1 if median[0] > 0 else math.inf
    if best == 0:
        reason = "the default has the best lower quantile"
    elif gain <= noise:
        reason = (
            f"no configuration beats the default by more than the noise ({noise:.0%}): "
            f"best predicted gain {gain:+.0%}"
        )
        best = 0
    else:
        reason = f"predicted gain {gain:+.0%}, and the best lower quantile"
    w = workloads[0]
    return Choice(
        nprocs=w.nprocs,
        group=group,
        pattern=w.pattern,
        op=w.op,
        layout=w.layout,
        config=configs[best],
        hints=space.hints(configs[best]),
        kept_default=best == 0,
        predicted=float(median[best]),
        low=float(low[best]),
        high=float(high[best]),
        default_predicted=float(median[0]),
        default_low=float(low[0]),
        reason=reason,
    )


def _entries(choices: list[Choice], space: Space) -> list[TableEntry]:
    entries: list[TableEntry] = []
    for nprocs in sorted({c.nprocs for c in choices}):
        votes = Counter(
            tuple(sorted((k, v) for k, v in space.hints(c.config).items() if k in OPEN_ONLY_KEYS))
            for c in choices
            if c.nprocs == nprocs and not c.kept_default
        )
        if votes and votes.most_common(1)[0][0]:
            hints: dict[str, str | int] = dict(votes.most_common(1)[0][0])
            entries.append(
                TableEntry(
                    at="open",
                    nprocs=nprocs,
                    hints=hints,
                    note="open-only hints most often chosen at this scale",
                )
            )
    for c in choices:
        hints = {k: v for k, v in space.hints(c.config).items() if k not in OPEN_ONLY_KEYS}
        note = (
            f"predicted {c.predicted:.1f} MiB/s [{c.low:.1f}, {c.high:.1f}] vs default "
            f"{c.default_predicted:.1f}; {c.reason}"
        )
        entries.append(
            TableEntry(
                nprocs=c.nprocs,
                group=c.group,
                pattern=c.pattern,
                op=c.op,
                layout=c.layout,
                hints=dict(hints),
                note=note,
            )
        )
    return entries


def render_choices(result: TuneResult, console: Console, limit: int = 30) -> None:
    """The cases whose configuration differs from the default, best predicted gain first."""
    changed = sorted(
        (c for c in result.choices if not c.kept_default),
        key=lambda c: c.predicted / max(c.default_predicted, 1e-9),
        reverse=True,
    )
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
            str(c.nprocs),
            str(c.group),
            c.pattern,
            c.op,
            c.layout,
            ", ".join(f"{k}={v}" for k, v in c.hints.items()) or "(default)",
            f"{c.predicted:.1f} [{c.low:.1f}, {c.high:.1f}]",
            f"{c.default_predicted:.1f}",
        )
    if len(changed) > limit:
        table.caption = f"{len(changed) - limit} more in the table's notes"
    console.print(table)
