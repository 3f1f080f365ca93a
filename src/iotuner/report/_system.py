"""The system section: what the knowledge base measured, how noisy it is, and which
parameters matter (effect sizes, SCTuner's analysis, Kunkel's trees)."""

import warnings
from typing import Any

import numpy as np
import pandas as pd

from iotuner._units import format_size
from iotuner.errors import IotunerError
from iotuner.learn import TrainingData
from iotuner.measurement import CONFIG_PREFIX
from iotuner.models import PATTERN_COLUMNS, analyze, kunkel_report
from iotuner.report import _plots
from iotuner.tune import measurement_noise

__all__ = ["system_section", "workload_family", "workload_label"]

MAX_CONFIGS_PLOTTED = 30
"""Configurations drawn in the spread and five-number plots at most (the rest are in the
tables' counts): beyond that the labels no longer fit a page."""


def workload_family(row: pd.Series | dict[str, Any]) -> str:
    """The family a workload belongs to: pattern, operation and layout."""
    return f"{row['pattern']} {row['op']} {row['layout']}"


def workload_label(row: pd.Series | dict[str, Any]) -> str:
    """A workload in a few words: scale, access and size per rank per call."""
    shape = str(row["layout"])
    if shape == "strided":
        shape += f" {format_size(int(row['block']))} blocks at {float(row['fill']):.0%}"
    return (
        f"{row['nprocs']} ranks, {row['pattern']} {row['op']}, {shape}, "
        f"{format_size(int(row['bytes_per_rank']))} per rank per call"
    )


def system_section(data: TrainingData) -> dict[str, Any]:
    """The figures and plots of the system section for one system and space."""
    frame = data.frame
    return {
        "system": data.system,
        "space": data.space.name,
        "dropped": data.dropped_rows,
        "measured": _measured(frame),
        "noise": _noise(frame),
        "effects": _effects(frame),
        "analysis": _analysis(data),
        "kunkel": _kunkel(data),
    }


def _measured(frame: pd.DataFrame) -> dict[str, Any]:
    keys = [c for c in PATTERN_COLUMNS if c in frame]
    workloads = []
    for _, group in frame.groupby(keys, sort=True, dropna=False):
        first = group.iloc[0]
        workloads.append(
            {
                "label": workload_label(first),
                "program": str(first["program"]),
                "configs": int(group["config"].nunique()),
                "measurements": int(group["n"].sum()),
                "repeats": int(group["n"].median()),
            }
        )
    return {
        "rows": len(frame),
        "workloads": workloads,
        "configs": int(frame["config"].nunique()),
        "measurements": int(frame["n"].sum()),
        "repeats_min": int(frame["n"].min()),
        "repeats_max": int(frame["n"].max()),
    }


def _noise(frame: pd.DataFrame) -> dict[str, Any]:
    """The relative quartile spread of each repeated case, per configuration, and the
    median over all of them: the noise tune.measurement_noise uses to judge a gain."""
    repeated = frame[frame["n"] > 1]
    noise = measurement_noise(frame)
    if repeated.empty:
        return {"noise": noise, "repeated": 0, "rows": [], "plot": None, "shown": 0}
    spread = (repeated["bw_q3"] - repeated["bw_q1"]) / repeated["bw_median"].clip(lower=1e-9)
    # A plain dict of the groups: get_group on a grouper Series fails for some keys
    # ("default" in the demo's knowledge base) in pandas 2.
    spreads = {
        str(config): group for config, group in spread.groupby(repeated["config"].astype(str))
    }
    order = sorted(spreads, key=lambda c: float(spreads[c].median()), reverse=True)
    rows = [
        {
            "config": config,
            "median": float(spreads[config].median()),
            "max": float(spreads[config].max()),
            "cases": int(spreads[config].size),
        }
        for config in order
    ]
    shown = order[:MAX_CONFIGS_PLOTTED]
    plot = _plots.spread_boxes({c: spreads[c].tolist() for c in shown[::-1]}, noise)
    return {
        "noise": noise,
        "repeated": len(repeated),
        "rows": rows,
        "plot": plot,
        "shown": len(shown),
    }


def _effects(frame: pd.DataFrame) -> dict[str, Any]:
    """Each parameter's effect: every row's bandwidth as a fraction of the best of its
    workload (as SCTuner normalises), averaged per value of the parameter; the effect size
    is the best value's mean less the worst's (0: the parameter changes nothing seen)."""
    keys = [c for c in PATTERN_COLUMNS if c in frame]
    values = frame["bw_median"].astype(float)
    best = values.groupby([frame[k] for k in keys], dropna=False).transform("max")
    normalised = values / best.clip(lower=1e-9)
    parameters: list[dict[str, Any]] = []
    for column in (c for c in frame.columns if c.startswith(CONFIG_PREFIX)):
        means = normalised.groupby(frame[column].astype(str)).mean().sort_values(ascending=False)
        if len(means) < 2:
            continue
        parameters.append(
            {
                "name": column[len(CONFIG_PREFIX) :],
                "effect": float(means.iloc[0] - means.iloc[-1]),
                "values": [(str(value), float(mean)) for value, mean in means.items()],
            }
        )
    parameters.sort(key=lambda p: -p["effect"])
    plot = (
        _plots.bars(
            {p["name"]: p["effect"] for p in parameters},
            "effect: best value's mean fraction of the workload's best less the worst value's",
            "effect size per parameter",
        )
        if parameters
        else None
    )
    return {"parameters": parameters, "plot": plot}


def _analysis(data: TrainingData) -> dict[str, Any]:
    """SCTuner's analysis (models/_analyze.py), or why it could not run."""
    try:
        report = analyze(data.frame, data.space)
    except IotunerError as exc:
        return {"error": str(exc)}
    shown = report.configs[:MAX_CONFIGS_PLOTTED]
    plot = _plots.five_numbers(
        [(c.config, c.minimum, c.q1, c.median, c.q3, c.maximum, c.cluster) for c in shown],
        "normalised five-number summaries per configuration, coloured by cluster",
    )
    return {"error": None, "report": report, "plot": plot, "shown": len(shown)}


def _kunkel(data: TrainingData) -> dict[str, Any]:
    """Kunkel et al.'s trees and the choices judged (models/_kunkel.py), or why not."""
    try:
        # numpy's "Mean of empty slice" for a configuration no judged workload measured is
        # expected there (the choice is then left out), not news for the reader.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            report = kunkel_report(data.frame, data.space)
    except (IotunerError, ValueError) as exc:
        # ValueError: scikit-learn refuses a tree on too few workloads (e.g. one class).
        return {"error": str(exc)}
    best_arithmetic = max((c.arithmetic for c in report.choices), default=float("nan"))
    return {
        "error": None,
        "report": report,
        "best_arithmetic": best_arithmetic if np.isfinite(best_arithmetic) else None,
    }
