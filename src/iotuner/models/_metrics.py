"""The dissertation's measures of a performance model (Tables 6.1, 6.2), on MiB/s.

All errors are computed on the original scale (MiB/s), not on the logarithms the models
learn, so they read like the dissertation's. Percentages are in percent (5.2 means 5.2 %).
"""

import math
from dataclasses import dataclass, fields

import numpy as np
import numpy.typing as npt

__all__ = ["METRICS", "Metrics", "regression_metrics"]

METRICS = ("r", "mape", "rmspe", "mae", "rmse", "build_seconds", "test_seconds")
"""The fields of Metrics, in table order."""


@dataclass(frozen=True)
class Metrics:
    """How well one fitted model predicted one test set.

    `r`: Pearson correlation coefficient of actual and predicted bandwidth (NaN when either
    is constant). `mape`: mean absolute percentage error. `rmspe`: root mean square
    percentage error. `mae`, `rmse`: mean absolute and root mean square error in MiB/s.
    `build_seconds`, `test_seconds`: wall time to fit and to predict the test set.
    """

    r: float
    mape: float
    rmspe: float
    mae: float
    rmse: float
    build_seconds: float = 0.0
    test_seconds: float = 0.0

    def as_dict(self) -> dict[str, float]:
        return {f.name: float(getattr(self, f.name)) for f in fields(self)}


def regression_metrics(
    actual: npt.ArrayLike,
    predicted: npt.ArrayLike,
    *,
    build_seconds: float = 0.0,
    test_seconds: float = 0.0,
) -> Metrics:
    """The metrics of `predicted` against `actual` (both MiB/s, same length, actual > 0)."""
    y = np.asarray(actual, dtype=float)
    p = np.asarray(predicted, dtype=float)
    if y.shape != p.shape or y.ndim != 1 or y.size == 0:
        raise ValueError(
            f"actual and predicted must be non-empty 1-d arrays of one length, "
            f"got shapes {y.shape} and {p.shape}"
        )
    if np.any(y <= 0):
        raise ValueError("actual bandwidths must be > 0 for percentage errors")
    error = p - y
    relative = error / y
    return Metrics(
        r=_pearson(y, p),
        mape=float(np.mean(np.abs(relative)) * 100.0),
        rmspe=float(math.sqrt(np.mean(relative**2)) * 100.0),
        mae=float(np.mean(np.abs(error))),
        rmse=float(math.sqrt(np.mean(error**2))),
        build_seconds=float(build_seconds),
        test_seconds=float(test_seconds),
    )


def _pearson(y: npt.NDArray[np.float64], p: npt.NDArray[np.float64]) -> float:
    dy, dp = y - y.mean(), p - p.mean()
    denominator = math.sqrt(float(np.sum(dy**2)) * float(np.sum(dp**2)))
    return float(np.sum(dy * dp) / denominator) if denominator > 0 else math.nan
