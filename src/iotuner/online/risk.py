"""How far a try may go: the risk the program's runs have earned, the base a try is
measured against and the predictions moved by what the workload measured."""

import math
from collections.abc import Sequence

import numpy as np

__all__ = [
    "MAX_TRY_LOSS",
    "best_measured",
    "closest_words",
    "gains_over",
    "measured_ahead",
    "risk_budget",
]

MAX_TRY_LOSS = 0.5
"""The most a try may risk at its calibrated 10 % bound: a run at half the default's
bandwidth (see risk_budget)."""


def closest_words(
    bounds: Sequence[tuple[float, float, float] | None], open_: Sequence[int], keys: list[str]
) -> str:
    """Of the untried candidates `open_`, the one that came closest (highest calibrated
    10 % bound), for a keep's reason: what would have been tried with a larger budget. Its
    gain is the calibrated one, never the model's raw point."""
    found = [i for i in open_ if bounds[i] is not None and bounds[i][1] > 0]  # type: ignore[index]
    if not found:
        return ""
    best = max(found, key=lambda i: bounds[i][0])  # type: ignore[index]
    low, middle, _ = bounds[best]  # type: ignore[misc]
    return (
        f"; the closest, {keys[best]}, calibrated x{math.exp(middle):.2f} with its 10 % bound "
        f"at x{math.exp(low):.2f}"
    )


def best_measured(m_median: np.ndarray, tried: set[int], cur: int, noise: float) -> int:
    """The configuration to improve on: the best by median of those the workload ran,
    when it beats the one in force by more than the noise; else the one in force.

    RATIONALE: a run within the noise of another says nothing of which is faster; going
    "back" on it made the learner alternate a change and a rollback on tmpfs (issue 31).
    The guard judges the one in force over its own runs."""
    if not np.isfinite(m_median[cur]):
        return cur
    floor = m_median[cur] * (1 + noise)
    return max((i for i in tried if m_median[i] > floor), key=lambda i: m_median[i],
               default=cur)  # fmt: skip


def gains_over(
    predicted: np.ndarray, m_median: np.ndarray, tried: set[int], ref: int
) -> tuple[np.ndarray, float]:
    """The predicted gain (log) of every configuration over `ref`, and the shift applied.

    The model's predictions are moved by the median residual (measured over predicted,
    log) of the configurations the workload ran, and compared with `ref`'s measured
    bandwidth. With one measured configuration this is the model's own ratio; with more,
    a model that overrated the last try (measured below its prediction while the others
    met theirs) leaves the next candidates ahead of it, so the learner goes on down the
    ranking instead of stopping at the model's favourite.

    RATIONALE: the shared part of the residual is the model being off on this machine
    or program as a whole (the constant term of iotuner.models._online's belief); a
    configuration's own excess over it is what its measurement says about it alone.
    The calibration's curve is read at these moved gains: an approximation (it was
    fitted on unmoved predictions), which the guard's rollback bounds.
    """
    log_pred = np.log(np.clip(predicted, 1e-9, None))
    residuals = [math.log(m_median[i]) - log_pred[i] for i in tried if m_median[i] > 0]
    offset = float(np.median(residuals)) if residuals else 0.0
    if np.isfinite(m_median[ref]) and m_median[ref] > 0:
        level = math.log(m_median[ref])
    else:
        level = float(log_pred[ref]) + offset
    return log_pred + offset - level, offset


def risk_budget(runs: Sequence[float], level: float, noise: float) -> float:
    """How far (log) below the default the next run may fall if a try goes wrong: the
    budget of a conservative bandit (Wu et al., "Conservative Bandits", ICML 2016) whose
    runs together must stay within the noise of as many runs at the default.

    Each run, the next one included, earns the noise, log(1 + noise); each run so far
    adds what it measured over the default's level `level` (a run at the default adds
    about nothing, a try that lost spends its loss, a lead over the default is earned);
    at most a run at MAX_TRY_LOSS of the default's bandwidth, however long the program ran
    well.

    RATIONALE: one run's noise (the rule before) let nothing be tried on real programs:
    the calibrated 10 % bound of the best candidates was -16 to -18 % against a noise of
    9 % (IOR's strided-view reads, bench/real_programs.py), while their calibrated median
    was x2.5-x2.8. A try is judged by the one run that makes it (the guard rolls it back
    after one run far below), so its price is one run; the budget makes the program pay
    for it with runs that were not slower, and stops trying after tries that lost until
    runs at the baseline have earned it again. With no runs known, one run's noise.
    The cap is the one thing a single run is promised: a try's 10 % bound never lies
    below half the default's bandwidth (a try predicted x2.5 on IOR's interleaved 4 KiB
    collective reads had its bound at -30 %: with a 9 % noise, four runs earn it).
    """
    per_run = math.log1p(noise)
    earned = 0.0
    if math.isfinite(level) and level > 0:
        earned = sum(math.log(b / level) for b in runs if b > 0)
    budget = (len(runs) + 1) * per_run + earned
    return max(0.0, min(budget, -math.log1p(-MAX_TRY_LOSS)))


def measured_ahead(low_in_force: float, high_default: float) -> float:
    """How far (log) the configuration in force is measured ahead of the default on the
    workload: its lower quartile over the default's upper quartile; 0 when unknown or
    not ahead."""
    if not (np.isfinite(low_in_force) and np.isfinite(high_default)) or high_default <= 0:
        return 0.0
    return max(0.0, math.log(low_in_force / high_default))
