"""WorkloadBelief: a model's prior for one workload, updated by measured trials."""

import numpy as np
import pytest

from iotuner.models import ModelError, WorkloadBelief, std_from_interval

GRID = np.array([(a, b) for a in range(10) for b in range(10)], dtype=float)
TRUE = 4.0 - ((GRID[:, 0] - 7) ** 2 + (GRID[:, 1] - 6) ** 2) / 20
"""A workload's measured log-bandwidth over two numeric knobs: best at a=7, b=6."""
BEST = int(np.argmax(TRUE))


def _prior(amplitude: float, width: float) -> np.ndarray:
    """The truth plus a smooth error: the model overrates the region around a=2, b=3."""
    distance = (GRID[:, 0] - 2) ** 2 + (GRID[:, 1] - 3) ** 2
    return TRUE + amplitude * np.exp(-distance / (2 * width**2))


def _rank(prior: np.ndarray, index: int) -> int:
    return int(np.sum(prior > prior[index])) + 1


def _trials_to(belief: WorkloadBelief, target: float, budget: int = 10) -> int:
    for trial in range(1, budget + 1):
        index = belief.next_index()
        belief.observe(index, float(TRUE[index]))
        if TRUE[index] >= target:
            return trial
    return budget + 1


@pytest.mark.parametrize(("acquisition", "to_best"), [("ei", 2), ("ucb", 4)])
def test_a_smooth_error_is_corrected_within_two_trials(acquisition: str, to_best: int) -> None:
    prior = _prior(1.4, 2.5)
    assert _rank(prior, BEST) == 11
    std = np.full(len(GRID), 0.3)
    belief = WorkloadBelief(GRID, prior, std, acquisition=acquisition)  # type: ignore[arg-type]
    assert belief.next_index() == int(np.argmax(prior))  # before any trial: the prior's pick
    assert _trials_to(belief, float(TRUE[BEST]) + np.log(0.95)) <= 2
    belief = WorkloadBelief(GRID, prior, std, acquisition=acquisition)  # type: ignore[arg-type]
    assert _trials_to(belief, float(TRUE[BEST])) <= to_best


@pytest.mark.parametrize(("amplitude", "width"), [(1.6, 2.0), (1.8, 2.0), (2.6, 1.5), (3.0, 1.5)])
def test_a_sharper_error_still_reaches_95_percent_within_three(
    amplitude: float, width: float
) -> None:
    prior = _prior(amplitude, width)
    assert _rank(prior, BEST) >= 9
    belief = WorkloadBelief(GRID, prior, np.full(len(GRID), 0.3))
    assert _trials_to(belief, float(TRUE[BEST]) + np.log(0.95)) <= 3


def test_without_the_update_the_prior_order_needs_eleven() -> None:
    """What the belief saves: the prior's own order reaches the best 11th."""
    prior = _prior(1.4, 2.5)
    assert list(np.argsort(-prior, kind="stable")).index(BEST) == 10


def test_a_measurement_that_confirms_the_prior_keeps_its_order() -> None:
    rng = np.random.default_rng(3)
    prior = TRUE + rng.normal(0, 0.2, len(TRUE))
    belief = WorkloadBelief(GRID, prior, np.full(len(GRID), 0.3))
    top = int(np.argmax(prior))
    belief.observe(top, float(prior[top]))
    mean, std = belief.mean_std()
    np.testing.assert_allclose(mean, prior, atol=1e-6)
    assert list(np.argsort(-mean, kind="stable")) == list(np.argsort(-prior, kind="stable"))
    # ... and makes the belief surer near the measured configuration than far from it.
    far = int(np.argmax(np.sum((GRID - GRID[top]) ** 2, axis=1)))
    assert std[top] < 0.1 < std[far] <= 0.3 + 1e-9


def test_one_measurement_moves_near_configurations_more_than_far_ones() -> None:
    prior = TRUE.copy()
    belief = WorkloadBelief(GRID, prior, np.full(len(GRID), 0.3))
    belief.observe(BEST, float(prior[BEST]) - 1.0)  # ran at e^-1 of what was predicted
    shift = belief.mean_std()[0] - prior
    distance = np.sum((GRID - GRID[BEST]) ** 2, axis=1)
    assert np.all(shift < 0)  # a shared offset: every configuration moves down
    near, far = np.argsort(distance)[1], int(np.argmax(distance))
    assert shift[BEST] < shift[near] < shift[far]


def test_next_index_skips_measured_and_excluded_ones() -> None:
    belief = WorkloadBelief(GRID, TRUE, np.full(len(GRID), 0.3))
    first = belief.next_index()
    assert first == BEST
    assert belief.next_index(exclude=[BEST]) != BEST
    belief.observe(BEST, float(TRUE[BEST]))
    assert belief.next_index() != BEST
    assert belief.observed == [BEST]
    with pytest.raises(ModelError, match="nothing left to propose"):
        belief.next_index(exclude=range(len(GRID)))


def test_a_large_set_is_answered() -> None:
    rng = np.random.default_rng(0)
    features = rng.normal(size=(30_000, 5))
    prior = features[:, 0]
    belief = WorkloadBelief(features, prior, np.full(len(prior), 0.3))
    for _ in range(3):
        index = belief.next_index()
        belief.observe(index, float(prior[index]) + 0.1)
    mean, std = belief.mean_std()
    assert mean.shape == std.shape == (30_000,)
    assert np.all(np.isfinite(mean)) and np.all(std > 0)


def test_bad_input_is_refused() -> None:
    with pytest.raises(ModelError, match=r"one number per candidate \(100\)"):
        WorkloadBelief(GRID, TRUE[:5], np.full(100, 0.3))
    with pytest.raises(ModelError, match="prior_std must be finite and >= 0"):
        WorkloadBelief(GRID, TRUE, np.full(100, -1.0))
    with pytest.raises(ModelError, match="features must be finite"):
        WorkloadBelief(np.full((100, 2), np.nan), TRUE, np.full(100, 0.3))
    with pytest.raises(ModelError, match="a row per candidate"):
        WorkloadBelief(np.zeros((0, 2)), np.zeros(0), np.zeros(0))
    with pytest.raises(ModelError, match="'ei' or 'ucb'"):
        WorkloadBelief(GRID, TRUE, np.full(100, 0.3), acquisition="best")  # type: ignore[arg-type]
    belief = WorkloadBelief(GRID, TRUE, np.full(100, 0.3))
    with pytest.raises(ModelError, match=r"outside 0\.\.99"):
        belief.observe(100, 1.0)
    with pytest.raises(ModelError, match="must be finite"):
        belief.observe(3, float("-inf"))
    with pytest.raises(ModelError, match="must be an int"):
        belief.observe(1.5, 1.0)  # type: ignore[arg-type]


def test_std_from_interval() -> None:
    # a 10 %-90 % interval of [e^-1.2816, e^1.2816] around 1 is one standard deviation
    std = std_from_interval([np.exp(-1.2816)], [np.exp(1.2816)])
    np.testing.assert_allclose(std, [1.0], atol=1e-4)
    with pytest.raises(ModelError, match="finite and positive"):
        std_from_interval([0.0], [1.0])
    with pytest.raises(ModelError, match="coverage"):
        std_from_interval([1.0], [2.0], coverage=1.0)
