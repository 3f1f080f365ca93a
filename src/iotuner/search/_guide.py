"""What the model strategy takes from a performance model: an order and a veto.

The model (anything with tune.Predictor's predict_interval) predicts the bandwidth of
every configuration for the workload the program does, with an interval. The search then
measures the model's top configurations (by predicted median) first, and afterwards skips
every candidate whose predicted *upper* bound is below a fraction of the best predicted
median: a run of a configuration the model is confident is poor is a run wasted, but one
the model is unsure about is worth its run. The model only ranks; every value the search
reports is measured.

RATIONALE: the upper bound, not the median. In bench/search_compare.py a forest trained on
other sizes predicted the median of the two best configurations of the 4 MiB table at a
quarter of their measured value; a veto on the median skipped 230 of 324 configurations,
both best ones among them, while the forest's own spread (its trees' 90th percentile)
kept the best one in play.

The model predicts bandwidth (higher is better) whatever the objective; with a minimised
objective (wall time) its order is still used as is, since a program that moves its data
faster finishes sooner.
"""

from collections.abc import Sequence

import numpy as np
import pandas as pd

from iotuner.bench import parse_size
from iotuner.errors import ConfigError
from iotuner.measurement import CONFIG_PREFIX, Workload
from iotuner.search._common import SearchError
from iotuner.space import Configuration, Space, config_key
from iotuner.tune import Predictor

__all__ = ["ModelGuide", "parse_workload"]

MAX_ENUMERATED = 100_000
"""Largest space whose configurations the model, grid and gp strategies enumerate."""

_WORKLOAD_KEYS = ("nprocs", "nodes", "pattern", "op", "layout", "size", "block", "fill")


def parse_workload(text: str) -> Workload:
    """A workload from 'nprocs=4,pattern=collective,op=write,layout=contiguous,size=1m'
    (nodes default 1; block and fill for a strided layout)."""
    fields: dict[str, str] = {}
    for item in text.split(","):
        key, sep, value = item.partition("=")
        if not sep or key.strip() not in _WORKLOAD_KEYS:
            raise SearchError(
                f"a workload is KEY=VALUE items, keys {', '.join(_WORKLOAD_KEYS)}; "
                f"got {item!r} in {text!r}"
            )
        fields[key.strip()] = value.strip()
    missing = [k for k in ("nprocs", "pattern", "op", "layout", "size") if k not in fields]
    if missing:
        raise SearchError(f"the workload {text!r} lacks {', '.join(missing)}")
    try:
        return Workload(
            nprocs=int(fields["nprocs"]),
            nodes=int(fields.get("nodes", "1")),
            pattern=fields["pattern"],
            op=fields["op"],
            layout=fields["layout"],
            bytes_per_rank=parse_size(fields["size"]),
            block=parse_size(fields["block"]) if "block" in fields else 0,
            fill=float(fields.get("fill", "1")),
        )
    except (ValueError, ConfigError) as exc:
        raise SearchError(f"the workload {text!r} is not valid: {exc}") from None


class ModelGuide:
    """A model's predictions for one workload over a set of configurations.

    `configs` is the set to rank (the measured configurations of a table, or None for the
    whole space); `top_k` how many of the best predicted go first; `threshold` the fraction
    of the best predicted median that a candidate's upper bound must reach to be run.
    """

    def __init__(
        self,
        predictor: Predictor,
        workload: Workload,
        space: Space,
        configs: Sequence[Configuration] | None = None,
        *,
        top_k: int = 5,
        threshold: float = 0.5,
    ) -> None:
        if top_k < 0:
            raise SearchError(f"top_k must be an int >= 0, got {top_k}")
        if not 0 <= threshold < 1:
            raise SearchError(f"the model's threshold must be in [0, 1), got {threshold}")
        if configs is None and space.size > MAX_ENUMERATED:
            raise SearchError(
                f"the space has {space.size} configurations; the model strategy ranks them "
                f"all and takes at most {MAX_ENUMERATED}"
            )
        self.predictor = predictor
        self.workload = workload
        self.space = space
        self.top_k = top_k
        self.threshold = threshold
        ranked = list(configs) if configs is not None else list(space.configurations())
        medians, highs = self.predict(ranked)
        self._predicted = {
            config_key(c): (float(m), float(h))
            for c, m, h in zip(ranked, medians, highs, strict=True)
        }
        order = np.argsort(-medians, kind="stable")
        self.ranked = [ranked[i] for i in order]
        self.best_predicted = float(medians[order[0]])

    def predict(self, configs: Sequence[Configuration]) -> tuple[np.ndarray, np.ndarray]:
        """The predicted median and upper bound of the bandwidth (MiB/s) of each
        configuration for the workload."""
        rows = []
        for config in configs:
            row = self.workload.as_row()
            row.update({f"{CONFIG_PREFIX}{name}": value for name, value in config.items()})
            row["config"] = config_key(config)
            rows.append(row)
        median, _, high = self.predictor.predict_interval(pd.DataFrame(rows))
        return np.asarray(median, dtype=float), np.asarray(high, dtype=float)

    def predicted(self, config: Configuration) -> tuple[float, float]:
        """The predicted median and upper bound of one configuration."""
        key = config_key(config)
        if key not in self._predicted:
            median, high = self.predict([config])
            self._predicted[key] = (float(median[0]), float(high[0]))
        return self._predicted[key]

    def top(self) -> list[Configuration]:
        """The top_k configurations by predicted median, best first."""
        return self.ranked[: self.top_k]

    def veto(self, config: Configuration) -> str | None:
        """Why the configuration is not worth a run, or None when it is."""
        _, high = self.predicted(config)
        floor = self.threshold * self.best_predicted
        if high < floor:
            return (
                f"predicted at most {high:.3g} MiB/s, below {self.threshold:.0%} of the best "
                f"predicted median ({self.best_predicted:.3g})"
            )
        return None
