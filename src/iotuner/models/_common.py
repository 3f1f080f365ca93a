"""What the model modules share: their error, checks of a summary frame, and the reading of
configuration cells (str or int, "default" where a parameter was not set)."""

import math
import re
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
import pandas as pd

from iotuner.errors import IotunerError
from iotuner.measurement import CONFIG_PREFIX, NOT_SET, WORKLOAD_COLUMNS
from iotuner.space import Space

__all__ = [
    "BANDWIDTH_STATS",
    "NOT_SET",
    "PATTERN_COLUMNS",
    "ModelError",
    "Value",
    "cell_value",
    "config_columns",
    "default_mask",
    "positive_rows",
    "require_columns",
    "single_system",
]


BANDWIDTH_STATS = ("bw_min", "bw_q1", "bw_median", "bw_q3", "bw_max")
"""The summary-frame columns a model may learn or judge by (MiB/s)."""

PATTERN_COLUMNS = ("system", *WORKLOAD_COLUMNS)
"""What identifies a workload (SCTuner's "I/O pattern", Kunkel's "configuration"): the
system and every workload column; only the configuration varies within one."""

Value = str | int
"""A configuration value, as iotuner.space spells it."""

_INT_TEXT = re.compile(r"[+-]?\d+")


class ModelError(IotunerError):
    """A frame, schema or saved model cannot be used (missing columns, unknown values, ...)."""


def require_columns(frame: pd.DataFrame, columns: Sequence[str], what: str) -> None:
    """ModelError naming the columns of `columns` that `frame` lacks, for `what`."""
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise ModelError(
            f"{what} needs the column(s) {', '.join(missing)}; the frame has "
            f"{', '.join(map(str, frame.columns)) or 'no columns'}"
        )


def config_columns(frame: pd.DataFrame) -> list[str]:
    """The cfg:<parameter> columns of a frame, in frame order."""
    return [str(c) for c in frame.columns if str(c).startswith(CONFIG_PREFIX)]


def cell_value(value: object) -> Value:
    """A configuration cell as the space spells values: an int, or text.

    Integers stored as floats or as digit strings (after a trip through CSV or SQL) become
    ints; a missing cell (None, NaN) means the parameter was not set, so it reads NOT_SET.
    """
    if value is None:
        return NOT_SET
    if isinstance(value, bool | np.bool_):
        return str(bool(value)).lower()
    if isinstance(value, int | np.integer):
        return int(value)
    if isinstance(value, float | np.floating):
        number = float(value)
        if math.isnan(number):
            return NOT_SET
        return int(number) if number.is_integer() else str(value)
    text = str(value).strip()
    return int(text) if _INT_TEXT.fullmatch(text) else text


def default_mask(frame: pd.DataFrame, space: Space | None) -> npt.NDArray[np.bool_]:
    """True for the rows measured with the default configuration.

    A parameter is at its default when its cell is NOT_SET or, given the space, equals the
    parameter's declared default. A frame without cfg columns has no default rows.
    """
    columns = config_columns(frame)
    if not columns:
        return np.zeros(len(frame), dtype=bool)
    mask = np.ones(len(frame), dtype=bool)
    for column in columns:
        name = column[len(CONFIG_PREFIX) :]
        declared: str | None = None
        if space is not None and any(p.name == name for p in space.parameters):
            declared = str(space.parameter(name).default)
        cells = [cell_value(v) for v in frame[column].tolist()]
        mask &= np.array(
            [c == NOT_SET or (declared is not None and str(c) == declared) for c in cells],
            dtype=bool,
        )
    return mask


def positive_rows(frame: pd.DataFrame, stat: str) -> npt.NDArray[np.bool_]:
    """True for the rows whose `stat` is a finite bandwidth above zero (it can be logged)."""
    values: npt.NDArray[np.float64] = pd.to_numeric(frame[stat], errors="coerce").to_numpy(
        dtype=float
    )
    return np.isfinite(values) & (values > 0)


def single_system(frame: pd.DataFrame, what: str) -> list[str]:
    """The system of a frame, as a one-element list; ModelError when it mixes systems.

    RATIONALE: a model has no system feature, so results from two systems would be averaged
    into one that describes neither (DESIGN: results from different systems are never mixed).
    """
    systems = sorted({str(s) for s in frame["system"].tolist()})
    if len(systems) > 1:
        raise ModelError(
            f"{what} works on one system at a time; the frame holds {len(systems)} "
            f"({', '.join(systems)}): select the rows of one system first"
        )
    return systems


def usable_rows(
    frame: pd.DataFrame, target: str, purpose: str = "evaluation"
) -> tuple[pd.DataFrame, int]:
    """The rows of one system with a positive target (reindexed), and how many were not;
    ModelError, naming the `purpose` (training, evaluation), for fewer than 10."""
    if target not in BANDWIDTH_STATS:
        raise ModelError(f"the target must be one of {', '.join(BANDWIDTH_STATS)}, got {target!r}")
    require_columns(frame, ["system", target], purpose)
    single_system(frame, purpose)
    good = positive_rows(frame, target)
    data = frame.loc[good].reset_index(drop=True)
    if len(data) < 10:
        raise ModelError(
            f"{purpose} needs at least 10 rows with a positive {target}, got {len(data)}"
        )
    return data, int((~good).sum())
