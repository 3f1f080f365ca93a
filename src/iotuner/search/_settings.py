"""How to search: the settings of one search and the rules they must keep.

Every setting is checked when SearchSettings is made, so a search that could not give an
answer (a verdict that can never pass, a budget of nothing) is refused before any run.
"""

import itertools
import math
from dataclasses import dataclass, field
from pathlib import Path

from iotuner.search._common import SearchError
from iotuner.search._strategies import StrategyOptions

__all__ = ["MIN_REPEATS", "SIGNIFICANCE", "SearchSettings"]

SIGNIFICANCE = 0.05
"""The level of the verdict's rank test (divided by the number of candidates re-measured)."""

MIN_REPEATS = 3
"""Fewest re-measures of the default and of each candidate for a verdict: below 3 and 3
the exact rank test cannot reach p <= 0.05 however far apart they are."""


@dataclass(frozen=True)
class SearchSettings:
    """How to search. `budget` None: the strategy's default. `storage` None: in memory
    (nothing survives the process). `repeats` and `top`: the verdict (re-measures of the
    default and of each of the `top` best, at least MIN_REPEATS; 0 repeats: no verdict).
    `stop_at_target`: offline, stop once a trial reaches `target_fraction` of the table's
    best (for benchmarks of the strategies). `trace`: trace logs of the program to read
    its accesses from (instead of a traced run of the default); `all_parameters`: search
    every parameter, even those its accesses cannot reach."""

    strategy: str = "ga"
    budget: int | None = None
    # Not in the repr: a URL may hold a password (_secrets); messages use display_url.
    storage: str | None = field(default=None, repr=False)
    study: str | None = None
    seed: int | None = None
    parallel: int = 1
    repeats: int = 5
    top: int = 1
    target_fraction: float = 0.95
    stop_at_target: bool = False
    model_top_k: int = 1
    model_threshold: float = 1.0
    """The model strategy skips a candidate whose upper bound is below this fraction of the
    best value measured so far (at most 1; 0: none is skipped; _guide)."""
    options: StrategyOptions = field(default_factory=StrategyOptions)
    trace: tuple[Path, ...] = ()
    all_parameters: bool = False
    core_hours: float | None = None
    """The budget in core-hours (cores x wall time of each trial, summed; _batch); None:
    none."""

    def __post_init__(self) -> None:
        if self.budget is not None and self.budget < 1:
            raise SearchError(f"the budget must be an int >= 1, got {self.budget}")
        if self.core_hours is not None and not (
            isinstance(self.core_hours, int | float) and 0 < self.core_hours < math.inf
        ):
            raise SearchError(
                f"--budget-core-hours must be a positive number of core-hours, got "
                f"{self.core_hours!r}"
            )
        if self.parallel < 1:
            raise SearchError(f"--parallel must be an int >= 1, got {self.parallel}")
        if self.repeats < 0 or self.top < 1:
            raise SearchError(
                f"repeats must be >= 0 and top >= 1, got repeats={self.repeats} top={self.top}"
            )
        if 0 < self.repeats < MIN_REPEATS:
            raise SearchError(
                f"the verdict needs at least {MIN_REPEATS} re-measures of the default and of "
                f"the winner (or 0: no verdict), got repeats={self.repeats}"
            )
        if self.repeats and 1 / math.comb(2 * self.repeats, self.repeats) > SIGNIFICANCE / self.top:
            # Even every re-measure of a candidate beating every one of the default
            # would not pass: the verdict would keep the default whatever was measured.
            enough = next(
                r
                for r in itertools.count(MIN_REPEATS)
                if 1 / math.comb(2 * r, r) <= SIGNIFICANCE / self.top
            )
            raise SearchError(
                f"with {self.top} candidates to re-measure, {self.repeats} repeats can never "
                f"show one better than the default at level {SIGNIFICANCE}/{self.top}: use "
                f"--repeats {enough} or more, or fewer --top"
            )
        if not 0 < self.target_fraction <= 1:
            raise SearchError(f"the target fraction must be in (0, 1], got {self.target_fraction}")
