"""When a configuration beats the default in a case, and what runs there (see the package
text: measured, calibrated, or the bands of an uncalibrated model); the words each rule
leaves in the table's notes.
"""

import numpy as np

from iotuner.space import Space
from iotuner.tune._cases import OPEN_ONLY_KEYS, Case, OpenKeys

__all__ = [
    "DEFAULT_UNMEASURED",
    "EVIDENCE",
    "GAIN_EVIDENCE",
    "MEASURED_EVIDENCE",
    "NO_EVIDENCE",
    "SIMILAR_ONLY",
    "WIDEN_PER_DOUBLING",
    "access_default",
    "decide_case",
    "has_evidence",
    "not_slower",
    "within_open_keys",
]

WIDEN_PER_DOUBLING = 0.5
"""How much wider (relative to the noise) the evidence band gets per doubling of the size
beyond the trained range."""

EVIDENCE = "lower bound beats the default's upper bound"

GAIN_EVIDENCE = (
    "calibrated gain: held-out configurations predicted to gain as much gained in the "
    "median, and lost no more than the noise in nine of ten"
)

NO_EVIDENCE = "no evidence"

DEFAULT_UNMEASURED = (
    "gain unknown: the training data never measured the default configuration, so the "
    "model's prediction of it is an extrapolation"
)

SIMILAR_ONLY = "measured on similar cases only, so the model decides (a guess)"

MEASURED_EVIDENCE = (
    "measured in this case: its worst repeat beat the default's best in every shape measured"
)


def has_evidence(case: Case, index: int, noise: float, versus: int = 0) -> bool:
    """The configuration beats `versus` (the default): where the training data measured
    both in this case, by the measurements (Case.measured_verdict); else, with a
    calibrated model, the
    held-out configurations predicted to gain as much gained in the median (above 1) and
    nine in ten of them lost no more than the noise (10 % bound at least 1 / (1 + noise),
    the noise widened per doubling beyond the trained sizes); without one, its lower bound beats the
    upper bound of `versus`, both bands at least the training noise wide (wider beyond
    the trained range)."""
    verdict = case.measured_verdict(index, versus)
    if verdict is not None:
        return verdict
    calibrated = case.calibrated_gain(index, versus)
    if calibrated is not None:
        low, middle = calibrated
        allowed = noise * (1 + WIDEN_PER_DOUBLING * case.distance)
        return middle > 1.0 and low >= 1.0 / (1.0 + allowed)
    band = noise * (1 + WIDEN_PER_DOUBLING * case.distance)
    low = min(case.low[index], case.median[index] / (1 + band))
    other_high = max(case.high[versus], case.median[versus] * (1 + band))
    return bool(low > other_high)


def not_slower(case: Case, index: int, noise: float) -> bool:
    """The configuration is not predicted slower than the default beyond the noise."""
    return bool(case.median[index] >= case.median[0] * (1 - noise))


def within_open_keys(case: Case, space: Space, keys: OpenKeys) -> list[int]:
    """The case's configurations that have these open keys. When the open keys cannot
    matter to the case (bench.relevant fixed them at their defaults), all of them: it runs
    with whatever the open entry sets, as predicted with the defaults."""
    inside = [i for i, k in enumerate(case.open_keys) if k == keys]
    if not inside and len(set(case.open_keys)) == 1:
        return list(range(len(case.configs)))
    return inside


def access_default(case: Case, space: Space, keys: OpenKeys) -> int | None:
    """The configuration with these open keys and every other key at its default."""
    default_rest = {
        k: v for k, v in space.hints(case.configs[0]).items() if k not in OPEN_ONLY_KEYS
    }
    for i in within_open_keys(case, space, keys):
        rest = {k: v for k, v in space.hints(case.configs[i]).items() if k not in OPEN_ONLY_KEYS}
        if rest == default_rest:
            return i
    return None


def decide_case(case: Case, space: Space, keys: OpenKeys, noise: float) -> tuple[int, str] | None:
    """What runs for a case under these open keys, and why; None when the nearest trained
    choice (beyond the range) has no evidence there, or nothing under the keys is safe.
    Where the measurements of the case miss one of its shapes (a program's own phase, see
    Case.unmeasured_shapes), the reason says which: the choice is a guess there."""
    decided = _decide(case, space, keys, noise)
    if decided is None:
        return None
    index, reason = decided
    others = [i for i in within_open_keys(case, space, keys) if i != 0]
    missing = list(
        {
            str(w): w
            for i in ([index] if index != 0 else others)
            for w in case.unmeasured_shapes(i)
        }.values()
    )
    if missing:
        reason += f"; {SIMILAR_ONLY}: not in {missing[0].describe_shape()}" + (
            f" (and {len(missing) - 1} more)" if len(missing) > 1 else ""
        )
    return index, reason


def _decide(case: Case, space: Space, keys: OpenKeys, noise: float) -> tuple[int, str] | None:
    inside = within_open_keys(case, space, keys)
    if not inside:
        return None
    if case.default_unmeasured:
        fallback = access_default(case, space, keys)
        return None if fallback is None else (fallback, DEFAULT_UNMEASURED)
    best = _best_evidenced(case, inside, noise)
    measured = None if best is None else case.measured_gain(best)
    if best is not None and measured is not None:
        return best, (
            f"{MEASURED_EVIDENCE}: measured gain {measured - 1:+.0%} (predicted "
            f"{case.median[best] / max(case.median[0], 1e-9) - 1:+.0%})"
        )
    if best is not None:
        gain = case.median[best] / max(case.median[0], 1e-9) - 1
        calibrated = case.calibrated_gain(best)
        if calibrated is None:
            return best, f"{EVIDENCE}: predicted gain {gain:+.0%}"
        return best, (
            f"{GAIN_EVIDENCE}: predicted gain {gain:+.0%}, calibrated median "
            f"{calibrated[1] - 1:+.0%}, 10 % bound {calibrated[0] - 1:+.0%}"
        )
    fallback = access_default(case, space, keys)
    if fallback is None or not not_slower(case, fallback, noise):
        return None
    top = int(np.argmax(case.low))
    if any(case.measured_verdict(i) is not None for i in inside if i != 0):
        return fallback, (
            "measured in this case: no configuration's worst repeat beat the default's best"
        )
    if top == 0:
        return fallback, "the default has the best lower bound"
    gain = case.median[top] / max(case.median[0], 1e-9) - 1
    calibrated = case.calibrated_gain(top)
    if calibrated is not None:
        return fallback, (
            f"{NO_EVIDENCE}: best predicted gain {gain:+.0%}; held-out configurations "
            f"predicted alike gained {calibrated[1] - 1:+.0%} in the median and "
            f"{calibrated[0] - 1:+.0%} at the 10 % bound (noise {noise:.0%})"
        )
    return fallback, (
        f"{NO_EVIDENCE} beyond the noise ({noise:.0%}): best predicted gain {gain:+.0%}, "
        "whose lower bound does not beat the default's upper bound"
    )


def _best_evidenced(case: Case, inside: list[int], noise: float) -> int | None:
    """The configuration to run instead of the default: among those the measurements of
    this case show beating it, the one with the highest measured gain; else, with a
    calibrated model, the one with the highest prediction among those with evidence;
    without, the one with the highest lower bound if it has evidence. None: keep the
    default."""
    measured = [i for i in inside if i != 0 and case.measured_verdict(i) is True]
    if measured:
        return max(measured, key=lambda i: case.measured_gain(i) or 0.0)
    if case.gain_bounds is not None:
        evidenced = [i for i in inside if i != 0 and has_evidence(case, i, noise)]
        return max(evidenced, key=lambda i: case.median[i], default=None)
    best = max(inside, key=lambda i: case.low[i])
    return best if best != 0 and has_evidence(case, best, noise) else None
