"""The model section: what was chosen and why, its evaluation figures as model.json keeps
them (models/_train.py), and its predictions against the knowledge base's measurements."""

from typing import Any

import numpy as np

from iotuner.learn import TrainingData
from iotuner.models import TrainedModel
from iotuner.report import _plots
from iotuner.report._system import workload_family

__all__ = ["model_section"]

FIGURE_KEYS = ("pick_mean", "spearman_mean", "mdape_median", "trials_mean", "workloads")
"""The held-out figures `iotuner evaluate` reports, in its order."""


def model_section(model: TrainedModel, data: TrainingData | None) -> dict[str, Any]:
    metadata = model.metadata
    evaluation = metadata.get("evaluation") or {}
    return {
        "name": model.name,
        "description": str(metadata.get("description", "")),
        "target": model.target,
        "space": metadata.get("space"),
        "training_rows": metadata.get("training_rows"),
        "created": metadata.get("created"),
        "selection": metadata.get("selection") or {},
        "comparison": _comparison(evaluation.get("table")),
        "figures": _figures(evaluation.get("figures")),
        "scatter": _scatter(model, data) if data is not None else None,
    }


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and np.isfinite(value) else None


def _comparison(table: Any) -> list[dict[str, Any]]:
    """The train comparison's rows (70/30 split and leave-one-group-out), as kept."""
    if not isinstance(table, list):
        return []
    return [
        {
            "model": str(row.get("model")),
            "scheme": str(row.get("scheme")),
            "mape": _number(row.get("mape_mean")),
            "r": _number(row.get("r_mean")),
        }
        for row in table
        if isinstance(row, dict)
    ]


def _figures(figures: Any) -> dict[str, Any] | None:
    """The held-out figures per model and scheme, with random order as the reference."""
    if not isinstance(figures, dict):
        return None
    rows = []
    for result in figures.get("results") or []:
        if isinstance(result, dict) and isinstance(result.get("figures"), dict):
            values = result["figures"]
            rows.append(
                {
                    "model": str(result.get("model")),
                    "scheme": str(result.get("scheme")),
                    **{key: _number(values.get(key)) for key in FIGURE_KEYS},
                }
            )
    for scheme, values in (figures.get("random") or {}).items():
        if isinstance(values, dict):
            rows.append(
                {
                    "model": "random order",
                    "scheme": str(scheme),
                    **{key: _number(values.get(key)) for key in FIGURE_KEYS},
                }
            )
    notes = figures.get("notes") or {}
    return {
        "rows": rows,
        "notes": [str(n) for n in notes.values()] if isinstance(notes, dict) else [],
        "budget": figures.get("budget"),
    }


def _scatter(model: TrainedModel, data: TrainingData) -> dict[str, Any] | None:
    """Predicted against measured over the knowledge base's rows, per workload family,
    with each family's median absolute percentage error."""
    frame = data.frame
    target = model.target
    if target not in frame or frame.empty:
        return None
    measured = frame[target].to_numpy(dtype=float)
    predicted = model.predict(frame)
    keep = (measured > 0) & (predicted > 0)
    families: dict[str, tuple[list[float], list[float]]] = {}
    for index in np.flatnonzero(keep):
        family = workload_family(frame.iloc[index])
        pair = families.setdefault(family, ([], []))
        pair[0].append(float(measured[index]))
        pair[1].append(float(predicted[index]))
    if not families:
        return None
    rows = [
        {
            "family": family,
            "cases": len(m),
            "mdape": float(np.median(np.abs(np.array(p) - np.array(m)) / np.array(m)) * 100),
        }
        for family, (m, p) in sorted(families.items())
    ]
    plot = _plots.predicted_vs_measured(
        dict(sorted(families.items())),
        f"predicted against measured {target} (MiB/s, log axes) per workload family",
    )
    return {"rows": rows, "plot": plot}
