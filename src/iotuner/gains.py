"""The one rule for a gain over the default that iotuner prints.

A gain is printed only when it was earned: measured (the configuration against the
default measured on the same workload), or calibrated (the model's predicted gain read
through what held-out workloads measured for gains predicted alike:
models._calibrate), and the words say which. Otherwise it is "unknown". The ratio of
two raw model predictions is never printed as a gain: on the README's sweep such ratios
read x131 where about x3 was measured.

`earned_gain` makes the figure and its words; `outside` flags a measured gain outside
the interval it was promised. predict, search, tune's notes, show, advise and the report
all print through these, so the terminal and the report give one figure for the same
runs.
"""

import math
from dataclasses import dataclass

__all__ = ["EarnedGain", "earned_gain", "outside", "stated_gain"]

MEASURED = "measured"
CALIBRATED = "calibrated"
UNKNOWN = "unknown"


@dataclass(frozen=True)
class EarnedGain:
    """A gain over the default as iotuner prints it: `basis` is "measured", "calibrated"
    or "unknown"; `value` (None when unknown) with its 10-90 % interval when known."""

    basis: str
    value: float | None = None
    interval: tuple[float, float] | None = None

    @property
    def figure(self) -> str:
        """'x1.16', 'x1.30 [x1.10-x1.60]' or 'unknown'."""
        if self.value is None:
            return UNKNOWN
        figure = f"x{self.value:.2f}"
        if self.interval is not None:
            figure += f" [x{self.interval[0]:.2f}-x{self.interval[1]:.2f}]"
        return figure

    @property
    def words(self) -> str:
        """The figure with what it rests on, for a sentence."""
        if self.basis == MEASURED:
            return f"{self.figure} measured against the default on the same workload"
        if self.basis == CALIBRATED:
            return f"{self.figure} calibrated on held-out workloads (not measured here)"
        return "unknown (neither measured nor calibrated; a ratio of raw predictions is none)"


def earned_gain(
    measured: float | None = None,
    calibrated: tuple[float, float, float] | None = None,
    measured_interval: tuple[float, float] | None = None,
) -> EarnedGain:
    """The gain to print: `measured` (ratio to the default measured on the same workload,
    with its interval when repeats gave one) when there is one, else `calibrated` (low,
    middle, high ratios), else unknown. A value that is not a positive number counts as
    absent."""
    if _ratio(measured):
        interval = (
            measured_interval if measured_interval and all(map(_ratio, measured_interval)) else None
        )
        return EarnedGain(MEASURED, measured, interval)
    if calibrated is not None and all(_ratio(v) for v in calibrated):
        low, middle, high = calibrated
        return EarnedGain(CALIBRATED, middle, (low, high))
    return EarnedGain(UNKNOWN)


def stated_gain(
    basis: str | None, value: float | None, interval: tuple[float, float] | None
) -> EarnedGain:
    """The gain a table note or a tune choice states with its `basis` ("measured",
    "calibrated"; anything else, such as "predicted" for the ratio of two raw predictions,
    is unknown)."""
    if basis == MEASURED:
        return earned_gain(measured=value, measured_interval=interval)
    if basis == CALIBRATED and value is not None and interval is not None:
        return earned_gain(calibrated=(interval[0], value, interval[1]))
    return EarnedGain(UNKNOWN)


def outside(measured: float | None, interval: tuple[float, float] | None) -> str | None:
    """'measured x1.16, below the x1.24-x22.62 promised' when a measured gain lies outside
    the interval it was promised; None when inside, or when either is missing."""
    if not _ratio(measured) or interval is None:
        return None
    assert measured is not None
    low, high = interval
    if low <= measured <= high:
        return None
    side = "below" if measured < low else "above"
    return f"measured x{measured:.2f}, {side} the x{low:.2f}-x{high:.2f} promised"


def _ratio(value: float | None) -> bool:
    return value is not None and math.isfinite(value) and value > 0
