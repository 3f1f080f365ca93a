"""What the knowledge base says of the run's workload: its measurements per
configuration, and the model's calibration on held-out workloads."""

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from iotuner._fileio import atomic_write_text
from iotuner.acting import acting_config
from iotuner.measurement import WORKLOAD_COLUMNS, Workload
from iotuner.space import Space, SpaceError, config_key

__all__ = [
    "CALIBRATION_FOLDS",
    "LOAD_WINDOW_RUNS",
    "PREDICTIONS_KEPT",
    "ModelEvidence",
    "SavedModel",
    "acting_key",
    "measured_runs",
    "model_evidence",
    "quick_calibration",
    "runs_by_config",
]

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
    run is its own median and quartiles).

    The workload is the run's own, every column alike (its program, calls per open,
    interleaving): a configuration is measured by the program's runs, never by the
    sweep's kernel on a case that only resembles it. RATIONALE: on IOR's 4 KiB
    independent reads from tmpfs (bench/real_programs.py), the kernel's 1,024 calls per
    open measured 6,300-8,300 MiB/s and IOR's traced 4,096 calls 4,700 with the same
    hints; pooled as one workload, every configuration only the kernel ran looked x1.3-1.4
    faster than the one in force, the learner took two of them as "measured", and its
    runs fell below every default run. The sweep's rows speak through the model."""
    row = workload.as_row()
    same = np.ones(len(frame), dtype=bool)
    for column, value in row.items():
        if column not in frame:
            continue
        cells = frame[column]
        same &= (cells.isna() if value is None else cells == value).to_numpy(dtype=bool)
    median, low, high = (np.full(len(keys), np.nan) for _ in range(3))
    runs = np.zeros(len(keys))
    counts: dict[str, int] = {}
    for _, r in frame[same & (frame["n"] >= 1).to_numpy()].iterrows():
        # A run without an entry for a knob ran with its default ("default" in the frame).
        config = {p.name: r.get(f"cfg:{p.name}", "default") for p in space.parameters}
        config = {k: v for k, v in config.items() if v != "default"}
        try:
            key = acting_key(space, config, workload)
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


LOAD_WINDOW_RUNS = 24
"""The program's latest runs (of its file and scale) that measure its configurations for
the learner. RATIONALE: the learner compares runs made the way it judges them (learning
runs, traced alike) and near in time (a machine's load moves over hours); on two programs
it went back to the default after "measured x2.93" against the one run traced before the
sweep, at another load (issue 41). Rows of other traced runs speak through the model."""


def runs_by_config(
    runs: Sequence[tuple[str, float]], keys: list[str]
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """As measured_runs, from the program's own learning runs: (configuration key,
    MiB/s) each, the latest LOAD_WINDOW_RUNS of them; quartiles as the knowledge base's
    summaries (numpy's linear percentile), one run its own median and quartiles."""
    median, low, high = (np.full(len(keys), np.nan) for _ in range(3))
    counts = np.zeros(len(keys))
    by_key: dict[str, list[float]] = {}
    for key, bandwidth in runs[-LOAD_WINDOW_RUNS:]:
        by_key.setdefault(key, []).append(bandwidth)
    for key, values in by_key.items():
        if key in keys:
            i = keys.index(key)
            low[i], median[i], high[i] = np.percentile(values, [25, 50, 75])
            counts[i] = len(values)
    return median, low, high, counts


def acting_key(space: Space, config: dict[str, Any], workload: Workload) -> str:
    """The key of `config` with every key that cannot act on `workload` at its default
    (iotuner.acting): what the run measured. SpaceError for a value outside the space.

    RATIONALE: a read run's entry keeps the file's write keys (table_writing.entry_for), so
    its runs were stored under a configuration that names them. Keyed whole, a try rolled
    back on IOR's interleaved 4 KiB collective reads was not recognised in the candidate
    that sets only its read keys, and was tried again the run after its rollback
    (bench/real_programs.py, both file systems); its runs never counted as the
    candidate's either."""
    return config_key(acting_config(space, space.validate(config), workload))


def quick_calibration(frame: Any, space: Space, name: str, cache: Path | None = None) -> Any:
    """The model's calibration on held-out workloads (a quick one: at most
    CALIBRATION_FOLDS folds), or None with fewer than two workloads. With `cache` (a
    file), the one computed for the same cells is read instead.

    RATIONALE: the calibration says how the model errs on workloads it did not see; a
    program's next run of a configuration it ran before adds no cell (workload and
    configuration), and the calibration of the cells it had stands. It cost 2-3 s of
    each learn step; a new cell (a try, a new workload) computes it again."""
    from iotuner.models import Calibration, calibrate, model_choices

    key = _cells_key(frame, space, name)
    if cache is not None and cache.exists():
        stored = json.loads(cache.read_text(encoding="utf-8"))
        if stored.get("key") == key:
            found = stored.get("calibration")
            return None if found is None else Calibration.from_dict(found)
    (candidate,) = [c for c in model_choices([name], quick=True) if c.name == name]
    result = calibrate(frame, space, candidate, max_folds=CALIBRATION_FOLDS)
    if cache is not None:
        text = json.dumps({"key": key, "calibration": None if result is None else result.to_dict()})
        atomic_write_text(cache, text)
    return result


PREDICTIONS_KEPT = 64
"""Workloads whose predictions by a saved model the cache keeps (the most recent)."""


class SavedModel:
    """`train`'s saved model as the learner uses it: its metadata, read at once, and its
    predictions, kept in `cache` (a JSON file next to the table) for the workloads it
    predicted before; the estimator is loaded only for a workload it has not.

    RATIONALE: a saved model does not change between runs, nor do its predictions for
    the program's workload; loading it imports scikit-learn and SciPy, 2-3 s of a learn
    step of 3.5 s on the walk-through's knowledge base (issue 31: a step takes at most 2
    s; docs/measurements.md)."""

    def __init__(self, directory: Path, cache: Path | None = None) -> None:
        from iotuner.models import read_metadata

        self.directory = directory
        self.metadata = read_metadata(directory)[1]
        self.cache = cache

    @property
    def name(self) -> str:
        return str(self.metadata["model"])

    @property
    def calibration(self) -> Any:
        """The calibration `train` gave it, or None."""
        from iotuner.models import Calibration

        data = self.metadata.get("calibration")
        return Calibration.from_dict(data) if isinstance(data, dict) else None

    def predict_interval(self, rows: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Median, 10 % and 90 % predictions (MiB/s) of `rows` (a prediction frame)."""
        key = hashlib.sha256(
            json.dumps([self.metadata.get("estimator_sha256"), rows.to_json()]).encode()
        ).hexdigest()
        kept = self._read_cache()
        if key in kept:
            median, low, high = (np.asarray(a, dtype=float) for a in kept[key])
            if len(median) == len(rows):
                return median, low, high
        from iotuner.models import load_model

        found = tuple(
            np.asarray(a, dtype=float) for a in load_model(self.directory).predict_interval(rows)
        )
        if self.cache is not None:
            kept.pop(key, None)
            kept[key] = [a.tolist() for a in found]
            recent = dict(list(kept.items())[-PREDICTIONS_KEPT:])
            atomic_write_text(self.cache, json.dumps(recent))
        return found[0], found[1], found[2]

    def _read_cache(self) -> dict[str, Any]:
        """The cache's predictions by key; {} when there is none or it cannot be read (it
        is only a cache: the model predicts again)."""
        if self.cache is None or not self.cache.exists():
            return {}
        try:
            kept = json.loads(self.cache.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return kept if isinstance(kept, dict) else {}


def _cells_key(frame: Any, space: Space, name: str) -> str:
    """A digest of what a calibration rests on: the space, the model and the knowledge
    base's cells (workload and configuration), not how often each ran."""
    columns = [c for c in (*WORKLOAD_COLUMNS, "config") if c in frame]
    cells = sorted(set(frame[columns].astype(str).itertuples(index=False, name=None)))
    text = json.dumps([space.name, name, CALIBRATION_FOLDS, cells])
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass
class ModelEvidence:
    """The model's word on the workload's configurations: predicted median, 10 % and 90 %
    (MiB/s), its calibration on held-out workloads (None: none) and what it is."""

    median: np.ndarray
    low: np.ndarray
    high: np.ndarray
    calibration: Any
    kind: str
    """The model's kind, and "saved" when it is `train`'s model as saved, not refitted."""


def model_evidence(
    frame: Any, space: Space, workload: Workload, configs: list[dict[str, Any]],
    kind: str, saved: Any = None, cache: Path | None = None,
) -> ModelEvidence:  # fmt: skip
    """`saved` (the model `train` chose, for this space and system) predicts as it is,
    with the calibration train gave it: nothing is refitted. Without it, `kind` is fitted
    anew on `frame` and calibrated quickly (quick_calibration, read from `cache` when its
    cells are the same).

    RATIONALE: the program's own runs move the model's predictions (risk.gains_over) and
    decide by themselves once measured (the measured rule), so the model need not have
    seen them; refitting and calibrating after every run took 5-50 s."""
    from iotuner.tune import prediction_rows

    rows = prediction_rows([workload], configs)
    if saved is not None:
        median, low, high = (np.asarray(a, dtype=float) for a in saved.predict_interval(rows))
        return ModelEvidence(median, low, high, saved.calibration, f"{saved.name} (saved)")
    from iotuner.models import fit_model

    trained = fit_model(frame, space, kind)
    median, low, high = (np.asarray(a, dtype=float) for a in trained.predict_interval(rows))
    return ModelEvidence(
        median, low, high, quick_calibration(frame, space, kind, cache), trained.name
    )
