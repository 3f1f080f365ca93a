"""A trained performance model: its estimator, its feature schema and its metadata, kept on
disk as a directory with two files.

```
model/
  model.joblib   the fitted scikit-learn estimator (joblib pickle)
  model.json     metadata: format, schema, target, space, systems, metrics, versions, ...
```

RATIONALE: the JSON sidecar can be read without unpickling anything (to list or compare
models), and it records the SHA-256 of the pickle, which load_model checks before
unpickling. A pickle runs code when loaded: load only models you made or trust.
"""

import hashlib
import json
import math
import os
import platform
import stat
import uuid
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd

from iotuner import __version__
from iotuner._fileio import PRIVATE_FILE, atomic_write_text, make_private_dirs
from iotuner._safejson import loads_json
from iotuner.models._calibrate import Calibration
from iotuner.models._common import ModelError
from iotuner.models._features import FeatureSchema

__all__ = [
    "ESTIMATOR_FILE",
    "METADATA_FILE",
    "MODEL_FORMAT",
    "TrainedModel",
    "load_model",
    "new_metadata",
    "save_model",
]

MODEL_FORMAT = "iotuner-model"
"""The `format` of a model's metadata file."""

ESTIMATOR_FILE = "model.joblib"
METADATA_FILE = "model.json"

_RESIDUAL_GRID = np.linspace(0.0, 1.0, 101)
_REQUIRED = ("format", "version", "model", "target", "schema", "uncertainty", "versions")


class TrainedModel:
    """A fitted estimator with the schema that encodes its rows and its metadata.

    The estimator predicts the natural logarithm of the target statistic; `predict` returns
    MiB/s. With `metadata["calibration"]` (iotuner.models._calibrate: what `train` adds),
    `predict_quantiles` adds the residual quantiles of held-out workloads to the prediction,
    and `gain_shifts` bounds the ratio of two configurations of one workload. Without it
    (models from before), `metadata["uncertainty"]` says how quantiles are made: "trees" (a
    forest: the spread of its trees' predictions) or "residuals" (the held-out relative
    errors of the model's own 70/30 evaluation, applied around its prediction).
    """

    def __init__(self, estimator: Any, schema: FeatureSchema, metadata: Mapping[str, Any]) -> None:
        self.estimator = estimator
        self.schema = schema
        self.metadata = dict(metadata)
        self._calibration: tuple[Mapping[str, Any], Calibration] | None = None

    @property
    def name(self) -> str:
        return str(self.metadata["model"])

    @property
    def target(self) -> str:
        return str(self.metadata["target"])

    @property
    def calibration(self) -> Calibration | None:
        """The calibration on held-out workloads, or None for a model trained without."""
        data = self.metadata.get("calibration")
        if not isinstance(data, Mapping):
            return None
        if self._calibration is None or self._calibration[0] is not data:
            self._calibration = (data, Calibration.from_dict(data))
        return self._calibration[1]

    def gain_shifts(self, low: float = 0.1, high: float = 0.9) -> tuple[float, float] | None:
        """The `low` and `high` quantiles (log scale) of the error of a predicted gain, the
        ratio of two configurations of one workload: the true log gain lies between the
        predicted one plus these. None without a calibration of gains."""
        calibration = self.calibration
        if calibration is None or calibration.gain is None:
            return None
        lower, upper = calibration.shifts((low, high), "gain")
        return float(lower), float(upper)

    def gain_bounds(self, predicted: float) -> tuple[float, float, float] | None:
        """The 10 %, 50 % and 90 % quantiles (log) of the measured gain of a configuration
        predicted to gain `predicted` (log) over another of the same workload (the default,
        or the one in force), as held-out workloads showed (Calibration.gain_bounds); None
        without a calibration."""
        calibration = self.calibration
        return None if calibration is None else calibration.gain_bounds(predicted)

    def far_from_data(self, frame: pd.DataFrame) -> list[str]:
        """Per row, why it lies beyond the scales and sizes the model was calibrated on
        ("" inside, and for every row of a model without a calibration)."""
        calibration = self.calibration
        return [""] * len(frame) if calibration is None else calibration.far_from_data(frame)

    def other_system(self, host: str, fs_type: str) -> str | None:
        """Why a question about data on `fs_type` at `host` lies beyond the system the
        model learned from ("its files are on fuse.glusterfs; the model learned on ext4
        (host vm)"), "" when it is that system, None when the model does not say which
        system it learned from (trained before it kept one). A model has no feature for
        the system, and its calibration comes from the same system's workloads: on
        another, neither its order nor its interval has been checked."""
        trained = self.metadata.get("system")
        if not isinstance(trained, Mapping):
            return None
        problems = []
        if fs_type != trained.get("fs_type"):
            problems.append(f"its files are on {fs_type}")
        if host.split(".")[0] != str(trained.get("host", "")).split(".")[0]:
            problems.append(f"it runs on host {host}")
        if not problems:
            return ""
        return (
            f"{'; '.join(problems)}; the model learned on {trained.get('fs_type')} "
            f"(host {trained.get('host')})"
        )

    def predict(self, frame: pd.DataFrame) -> npt.NDArray[np.float64]:
        """The predicted target statistic (MiB/s) for each row of `frame`.

        The frame needs the schema's workload and cfg: columns; other columns are ignored.
        """
        log_bw: npt.NDArray[np.float64] = np.asarray(
            self.estimator.predict(self.schema.transform(frame)), dtype=float
        )
        return np.exp(log_bw)

    def predict_quantiles(
        self, frame: pd.DataFrame, quantiles: Sequence[float] = (0.1, 0.9)
    ) -> npt.NDArray[np.float64]:
        """Quantiles of the prediction (MiB/s), shape (rows, len(quantiles)).

        Calibrated (see the class text): the prediction plus the held-out workloads'
        residual quantiles; a row beyond the calibrated scales and sizes gets the wider of
        those and the extrapolation folds' quantiles, or, with no such folds, the interval
        widened by its own width per doubling beyond the range. Uncalibrated: for a forest,
        the quantiles of its trees' predictions (how much the trees disagree); for other
        models, the prediction times the quantiles of the 70/30 ratio actual/predicted.
        """
        q = np.asarray(quantiles, dtype=float)
        if q.ndim != 1 or q.size == 0 or np.any((q < 0) | (q > 1)):
            raise ModelError(f"quantiles must be numbers in [0, 1], got {list(quantiles)!r}")
        X = self.schema.transform(frame)
        calibration = self.calibration
        if calibration is not None:
            return _calibrated(self.estimator, X, frame, calibration, q)
        kind = self.metadata["uncertainty"]["kind"]
        if kind == "trees":
            per_tree: npt.NDArray[np.float64] = np.stack(
                [tree.predict(X) for tree in self.estimator.estimators_]
            )
            spread: npt.NDArray[np.float64] = np.exp(np.quantile(per_tree, q, axis=0).T)
            return spread
        grid = self.metadata["uncertainty"].get("residual_quantiles")
        if not grid:
            raise ModelError(
                f"model {self.name!r} has no held-out residuals: train it with an "
                "evaluation (train_command) to get quantiles"
            )
        shift = np.interp(q, _RESIDUAL_GRID, np.asarray(grid, dtype=float))
        center: npt.NDArray[np.float64] = np.asarray(self.estimator.predict(X), dtype=float)
        around: npt.NDArray[np.float64] = np.exp(center[:, None] + shift[None, :])
        return around

    def predict_interval(
        self, frame: pd.DataFrame, low: float = 0.1, high: float = 0.9
    ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """Median, `low` and `high` quantiles of the prediction (MiB/s) for each row: what
        iotuner.tune.Predictor asks of a model (see predict_quantiles)."""
        q = self.predict_quantiles(frame, (0.5, low, high))
        return q[:, 0], q[:, 1], q[:, 2]


def _calibrated(
    estimator: Any,
    X: npt.NDArray[np.float64],
    frame: pd.DataFrame,
    calibration: Calibration,
    q: npt.NDArray[np.float64],
) -> npt.NDArray[np.float64]:
    center = np.asarray(estimator.predict(X), dtype=float)
    shift = calibration.shifts(q)
    shifts = np.tile(shift, (len(center), 1))
    doublings = calibration.doublings(frame)
    far = doublings > 0
    if np.any(far):
        if calibration.beyond is not None:
            beyond = calibration.shifts(q, "beyond")
            wider = np.where(np.abs(beyond) > np.abs(shift), beyond, shift)
            shifts[far] = wider
        else:
            shifts[far] = shift[None, :] * (1.0 + doublings[far][:, None])
    calibrated: npt.NDArray[np.float64] = np.exp(center[:, None] + shifts)
    return calibrated


def new_metadata(
    *,
    estimator: Any,
    model: str,
    description: str,
    target: str,
    schema: FeatureSchema,
    space: str | None,
    systems: Sequence[str],
    training_rows: int,
    residuals: Sequence[float] | None,
    space_definition: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The metadata of a freshly fitted model (evaluation and selection are added later).

    `space_definition` is the space itself (iotuner.space.Space.to_dict), so a model trained
    on a space from a file finds it again without the file (iotuner.space.space_from_dict).
    """
    import sklearn
    from sklearn.ensemble import ExtraTreesRegressor, RandomForestRegressor

    is_forest = isinstance(estimator, RandomForestRegressor | ExtraTreesRegressor)
    grid = (
        [float(v) for v in np.quantile(np.asarray(residuals, dtype=float), _RESIDUAL_GRID)]
        if residuals is not None and len(residuals) > 0
        else None
    )
    return {
        "format": MODEL_FORMAT,
        "version": 1,
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
        "model": model,
        "description": description,
        "target": target,
        "target_transform": "natural log: the estimator predicts log(MiB/s)",
        "space": space,
        "space_definition": dict(space_definition) if space_definition is not None else None,
        "systems": list(systems),
        "training_rows": int(training_rows),
        "schema": schema.to_dict(),
        "uncertainty": {
            "kind": "trees" if is_forest else "residuals",
            "residual_quantiles": grid,
        },
        "versions": {
            "iotuner": __version__,
            "sklearn": sklearn.__version__,
            "numpy": np.__version__,
            "python": platform.python_version(),
        },
    }


def save_model(model: TrainedModel, path: Path) -> Path:
    """Write `model` into the directory `path` (created if needed); return the metadata file.

    Both files are replaced atomically; the metadata records the pickle's SHA-256.
    """
    path = Path(path)
    if path.exists() and not path.is_dir():
        raise ModelError(f"{path} exists and is not a directory; a model is saved as one")
    make_private_dirs(path)  # private, as everything iotuner writes (_fileio)
    estimator_path = path / ESTIMATOR_FILE
    tmp = path / f".{ESTIMATOR_FILE}.{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp"
    try:
        import joblib

        # Made 0600 before joblib writes into it; a replaced estimator keeps its mode.
        mode = stat.S_IMODE(estimator_path.stat().st_mode) if estimator_path.exists() else None
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_FILE)
        with os.fdopen(fd, "wb") as out:
            if mode is not None:
                os.fchmod(out.fileno(), mode)
            joblib.dump(model.estimator, out)
        os.replace(tmp, estimator_path)
    finally:
        tmp.unlink(missing_ok=True)
    metadata = dict(model.metadata)
    metadata["estimator_file"] = ESTIMATOR_FILE
    metadata["estimator_sha256"] = _sha256(estimator_path)
    model.metadata = metadata
    metadata_path = path / METADATA_FILE
    text = json.dumps(_jsonable(metadata), indent=2, sort_keys=True, allow_nan=False)
    atomic_write_text(metadata_path, text + "\n")
    return metadata_path


def read_metadata(path: Path) -> tuple[Path, dict[str, Any]]:
    """The model.json of the model saved in directory `path` (or named by it): its path and
    its checked content. ModelError when it is not a model's metadata. Reads no estimator
    (and imports no scikit-learn: iotuner.online keeps predictions of a saved model)."""
    path = Path(path)
    metadata_path = path / METADATA_FILE if path.is_dir() else path
    if not path.exists():
        raise ModelError(f"no model at {path}: train one with `iotuner train -o {path}`")
    try:
        metadata = loads_json(metadata_path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ModelError(f"cannot read model metadata {metadata_path}: {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise ModelError(f"{metadata_path}: not valid JSON ({exc.msg})") from None
    if not isinstance(metadata, dict) or metadata.get("format") != MODEL_FORMAT:
        raise ModelError(f'{metadata_path}: expected model metadata ("format": "{MODEL_FORMAT}")')
    if metadata.get("version") != 1:
        raise ModelError(f"{metadata_path}: expected version 1, got {metadata.get('version')!r}")
    missing = [key for key in _REQUIRED if key not in metadata]
    if missing:
        raise ModelError(f"{metadata_path}: missing {', '.join(missing)}")
    return metadata_path, metadata


def load_model(path: Path) -> TrainedModel:
    """The model saved in directory `path` (or named by its model.json).

    ModelError when the metadata is not a model's, the pickle does not match its recorded
    checksum, or it was made by another scikit-learn major.minor release (retrain then).
    """
    import joblib
    import sklearn

    metadata_path, metadata = read_metadata(path)
    saved = str(metadata["versions"].get("sklearn", "?"))
    if saved.split(".")[:2] != sklearn.__version__.split(".")[:2]:
        raise ModelError(
            f"{metadata_path}: made with scikit-learn {saved}, this is "
            f"{sklearn.__version__}; retrain the model (iotuner train)"
        )
    estimator_path = metadata_path.parent / str(metadata.get("estimator_file", ESTIMATOR_FILE))
    if not estimator_path.is_file():
        raise ModelError(f"{metadata_path}: the estimator file {estimator_path} is missing")
    if _sha256(estimator_path) != metadata.get("estimator_sha256"):
        raise ModelError(
            f"{estimator_path} does not match the checksum in {metadata_path}; "
            "not loading it (retrain or restore both files together)"
        )
    schema = FeatureSchema.from_dict(metadata["schema"])
    estimator = joblib.load(estimator_path)
    expected = len(schema.feature_names)
    if getattr(estimator, "n_features_in_", expected) != expected:
        raise ModelError(
            f"{estimator_path}: the estimator takes {estimator.n_features_in_} features, "
            f"the schema has {expected}"
        )
    return TrainedModel(estimator, schema, metadata)


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _jsonable(value: Any) -> Any:
    """`value` with numpy scalars made plain and NaN or infinity made null (strict JSON)."""
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, float | np.floating):
        number = float(value)
        return number if math.isfinite(number) else None
    if isinstance(value, Path):
        return str(value)
    return value
