"""What the knowledge base says of the run's workload: its measurements per
configuration, and the model's calibration on held-out workloads."""

from typing import Any

import numpy as np

from iotuner.measurement import Workload
from iotuner.space import Space, SpaceError, config_key

__all__ = ["CALIBRATION_FOLDS", "measured_runs", "quick_calibration"]

CALIBRATION_FOLDS = 24
"""Workloads held out, one at a time, to calibrate the refitted model (a few seconds).

RATIONALE: the 10 % bound of a large predicted gain rests on the few held-out pairs
predicted alike; with 12 folds it swung between 0.82 and 0.97 as one traced run was added
to the real-programs knowledge base (bench/real_programs.py), with 24 it moves less and
costs 2.3 s instead of 1.5 s there."""


def measured_runs(
    frame: Any, space: Space, workload: Workload, keys: list[str]
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Median, first and third quartile of the workload's measurements per configuration,
    and the number of runs (NaN and 0 where a configuration never ran the workload; one
    run is its own median and quartiles)."""
    row = workload.as_row()
    same = np.ones(len(frame), dtype=bool)
    for column in ("nprocs", "pattern", "op", "layout", "bytes_per_rank", "block", "fill"):
        if row.get(column) is not None and column in frame:
            same &= (frame[column] == row[column]).to_numpy()
    median, low, high = (np.full(len(keys), np.nan) for _ in range(3))
    runs = np.zeros(len(keys))
    counts: dict[str, int] = {}
    for _, r in frame[same & (frame["n"] >= 1).to_numpy()].iterrows():
        # A run without an entry for a knob ran with its default ("default" in the frame).
        config = {p.name: r.get(f"cfg:{p.name}", "default") for p in space.parameters}
        config = {k: v for k, v in config.items() if v != "default"}
        try:
            key = config_key(space.validate(config))
        except SpaceError:
            continue  # a value outside the space
        # Runs without an entry and with the default named are one configuration: the
        # row with more runs speaks for it.
        if key in keys and not counts.get(key, 0) > r["n"]:
            counts[key] = int(r["n"])
            i = keys.index(key)
            median[i], runs[i] = r["bw_median"], r["n"]
            low[i], high[i] = (
                (r["bw_q1"], r["bw_q3"]) if r["n"] >= 2 else (r["bw_median"], r["bw_median"])
            )
    return median, low, high, runs


def quick_calibration(frame: Any, space: Space, name: str) -> Any:
    """The model's calibration on held-out workloads (a quick one: at most
    CALIBRATION_FOLDS folds), or None with fewer than two workloads."""
    from iotuner.models._calibrate import calibrate
    from iotuner.models._evaluate import model_choices

    (candidate,) = [c for c in model_choices([name], quick=True) if c.name == name]
    return calibrate(frame, space, candidate, max_folds=CALIBRATION_FOLDS)
