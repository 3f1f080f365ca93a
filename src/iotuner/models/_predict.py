"""`iotuner predict`: a saved model's bandwidth for one workload (predict_workload).

Every configuration of the model's space is ranked (a seeded sample of PREDICT_LIMIT of a
larger space, and one of those that behave alike on the workload, iotuner.acting), or the
one given; each with the model's 10-90 % interval and, where the model's calibration
bounds it, the gain over the default. On another file system or host than the model
learned on the answer is the order alone. The answer is a plain record (Prediction): the
command line prints it or writes it as JSON. model_space is the space a model predicts
over.
"""

import math
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from iotuner.errors import ConfigError
from iotuner.gains import earned_gain

if TYPE_CHECKING:
    import pandas as pd

    from iotuner.measurement import Workload
    from iotuner.models._calibrate import Calibration
    from iotuner.models._saved import TrainedModel
    from iotuner.space import Configuration, Space

__all__ = ["PREDICT_LIMIT", "Prediction", "model_space", "predict_workload"]

PREDICT_LIMIT = 20_000
"""Configurations predict ranks at most; a larger space is ranked on a seeded sample."""


@dataclass(frozen=True)
class Prediction:
    """What predict_workload found: `record`, the answer as `predict --json` prints it
    (model, space, workload, the default, the system asked about and the predictions
    shown), and what the printed answer says beside it."""

    record: dict[str, Any]
    unmeasured: bool
    """Whether the training data never measured the default (no gain over it is known)."""
    elsewhere: str | None
    """TrainedModel.other_system for the folder asked about: why it is another system,
    "" for the one the model learned on, None when not asked or not recorded."""
    far: str
    """Why the first prediction beyond the calibrated data is there ("" for none)."""


def predict_workload(
    model: "TrainedModel",
    space: "Space",
    workload: "Workload",
    *,
    config: "Configuration | None" = None,
    top: int = 10,
    folder: Path | None = None,
) -> Prediction:
    """The predictions of `model` for `workload` over `space`: the configurations ranked
    by predicted bandwidth, the `top` of them kept (every one for a given `config`, which
    is the only one predicted); `folder` is where the workload's files will be."""
    import numpy as np

    from iotuner.measurement import System
    from iotuner.space import config_key

    configs, note = _candidates(space, workload, config)
    frame = _prediction_frame(workload, configs)
    point = model.predict(frame)
    bounds = model.predict_quantiles(frame, (0.1, 0.9))
    order = np.argsort(-point, kind="stable")
    keys = [config_key(c) for c in configs]
    default_key = config_key(space.default())
    default_bw = next((float(point[i]) for i, k in enumerate(keys) if k == default_key), None)
    # A gain rests on the default's prediction; where the training data never measured the
    # default configuration, that prediction is an extrapolation and the gain is unknown.
    calibration = model.calibration
    unmeasured = calibration is not None and calibration.default_rows == 0
    if unmeasured:
        default_bw = None
    far = model.far_from_data(frame)
    # Another file system or host than the model learned on: no interval or gain holds
    # there (its calibration is the learned system's), so the answer is the order alone.
    elsewhere = None
    if folder is not None:
        here = System.detect(folder, "", "")
        elsewhere = model.other_system(here.host, here.fs_type)
    if elsewhere:
        far = [f"{elsewhere}; {f}" if f else elsewhere for f in far]
        default_bw = None
    trained = model.metadata.get("trained_values")
    ranked = []
    for rank, i in enumerate(order, start=1):
        gain = _calibrated_gain(calibration, default_bw, float(point[i]), far[i])
        ranked.append(
            {
                "rank": rank,
                "config": dict(configs[i]),
                "key": keys[i],
                "predicted": float(point[i]),
                "low": None if elsewhere else float(bounds[i, 0]),
                "high": None if elsewhere else float(bounds[i, 1]),
                # The ratio of two raw predictions: for ranking, never printed as a gain.
                "predicted_ratio": float(point[i] / default_bw) if default_bw else None,
                "calibrated_gain": gain,
                "gain": _gain_record(gain),
                "far_from_data": far[i] or None,
                "untrained_values": _untrained(trained, configs[i]),
            }
        )
    shown = ranked if config is not None else ranked[:top]
    default = {
        "key": default_key,
        "predicted": default_bw,
        "gain": _gain_basis(unmeasured, elsewhere),
    }
    record = {
        "model": model.name,
        "space": space.name,
        "target": model.target,
        "workload": workload.as_row(),
        "configurations": len(configs),
        "note": note,
        "default": default,
        "system": _system_record(model.metadata.get("system"), folder, elsewhere),
        "predictions": shown,
    }
    return Prediction(record, unmeasured, elsewhere, next((f for f in far if f), ""))


def _candidates(
    space: "Space", workload: "Workload", given: "Configuration | None"
) -> tuple[list["Configuration"], str]:
    """The configurations to rank and a note on how they were chosen: `given` alone, else
    the space (a seeded sample of a large one) with its default, one of each set that
    behaves alike on the workload."""
    import numpy as np

    from iotuner.acting import distinct_configurations
    from iotuner.space import config_key

    if given is not None:
        return [given], ""
    note = ""
    if space.size <= PREDICT_LIMIT:
        configs = list(space.configurations())
    else:
        configs = space.sample(PREDICT_LIMIT, np.random.default_rng(0))
        note = f"a sample of {len(configs)} of the space's {space.size} configurations"
    default = space.default()
    if config_key(default) not in {config_key(c) for c in configs}:
        configs.append(default)
    # Configurations that differ only in keys that cannot act on this workload (a read
    # key on a write, cb_nodes giving the default's aggregators) behave alike: one of
    # them is ranked, the one with the fewest keys changed (iotuner.acting).
    distinct = distinct_configurations(space, configs, workload)
    if len(distinct) < len(configs):
        alike = f"{len(configs) - len(distinct)} differing only in keys that cannot act here"
        note = f"{note}; {alike}" if note else alike
    return distinct, note


def _prediction_frame(workload: "Workload", configs: list["Configuration"]) -> "pd.DataFrame":
    """One row per configuration: the workload's fields, the configuration's cfg: columns
    and its key."""
    import pandas as pd

    from iotuner.measurement import CONFIG_PREFIX
    from iotuner.space import config_key

    rows = []
    for config in configs:
        row = workload.as_row()
        row.update({f"{CONFIG_PREFIX}{name}": value for name, value in config.items()})
        row["config"] = config_key(config)
        rows.append(row)
    return pd.DataFrame(rows)


def _calibrated_gain(
    calibration: "Calibration | None", default_bw: float | None, predicted: float, far: str
) -> list[float] | None:
    """The calibrated bounds of the gain over the default of a prediction, or None."""
    # The held-out pairs that bound a gain were all inside the calibrated scales and
    # sizes: beyond them those bounds say nothing, so none is given.
    # Nor over a default the training data never measured (calibration.default_rows 0):
    # its prediction is an extrapolation, and so is any gain over it.
    if default_bw is None or calibration is None or far or calibration.default_rows == 0:
        return None
    found = calibration.gain_bounds(math.log(predicted / default_bw))
    return None if found is None else [math.exp(v) for v in found]


def _untrained(trained: object, config: "Configuration") -> list[str]:
    """The values of `config` no training row had (models trained before this was kept:
    not known, none)."""
    if not isinstance(trained, dict):
        return []
    return [
        f"{k}={v}"
        for k, v in config.items()
        if isinstance(trained.get(k), list) and str(v) not in trained[k]
    ]


def _gain_record(calibrated: list[float] | None) -> dict[str, object]:
    """The earned gain (iotuner.gains) of a prediction, for --json: calibrated or unknown."""
    gain = earned_gain(
        calibrated=(calibrated[0], calibrated[1], calibrated[2]) if calibrated else None
    )
    return {
        "basis": gain.basis,
        "value": gain.value,
        "interval": list(gain.interval) if gain.interval else None,
        "figure": gain.figure,
    }


def _gain_basis(unmeasured: bool, elsewhere: str | None) -> str:
    """What the gains over the default rest on, or why they are unknown."""
    if unmeasured:
        return "unknown: the training data never measured the default configuration"
    if elsewhere:
        return f"unknown: another system ({elsewhere})"
    return "over the default's prediction for this workload"


def _system_record(learned: object, folder: Path | None, elsewhere: str | None) -> dict[str, Any]:
    """The system the model learned on, the folder asked about, and what that means for
    the answer."""
    if folder is None:
        answer = "not checked (no --dir)"
    elif elsewhere is None:
        answer = "not checked: the model does not record the system it learned on"
    elif elsewhere:
        answer = f"order only, no interval or gain: {elsewhere}"
    else:
        answer = "the system the model learned on"
    return {
        "learned": learned,
        "asked": str(folder) if folder is not None else None,
        "answer": answer,
    }


def model_space(path: Path, metadata: dict[str, Any], given: str | None) -> "Space":
    """The space to predict over: `given` (--space), else the one the model was trained on,
    from its own definition in the metadata (so a space from a file needs no file), else
    from its name (a model saved before it kept the definition)."""
    from iotuner.space import SpaceError, load_space, space_from_dict

    if given:
        return load_space(given)
    definition = metadata.get("space_definition")
    if definition is not None:
        return space_from_dict(definition, f"{path}: the model's space")
    name = metadata.get("space")
    if not name:
        raise ConfigError(f"{path}: the model names no space; give one with --space")
    try:
        return load_space(str(name))
    except SpaceError as exc:
        raise ConfigError(
            f"{path}: the model was trained on space {name!r} and keeps only its name, which "
            f"is no shipped space or file here ({exc}); give the space with --space FILE, or "
            "train the model again (a model trained now keeps its space)"
        ) from None
