"""Optuna samplers that choose from a finite list of configurations.

Optuna's own samplers propose values parameter by parameter over the whole cartesian
product. Two of our strategies need something else: `grid` walks a list (the whole space,
or the configurations a table measured) and never repeats, and `random` over a table draws
from its measured configurations without replacement. PoolSampler keeps the list and what
the study has already tried; OrderedSampler proposes the list in order.

RATIONALE: Optuna's GridSampler calls `study.stop()` once its grid is exhausted, which
raises outside `study.optimize`, and the search drives Optuna through ask and tell.
"""

from collections.abc import Sequence
from typing import Any

from optuna.distributions import BaseDistribution, CategoricalDistribution
from optuna.samplers import BaseSampler, RandomSampler
from optuna.study import Study
from optuna.trial import FrozenTrial, TrialState

from iotuner.space import Configuration, Space, config_key

__all__ = ["INTERRUPTED", "OrderedSampler", "PoolSampler", "distributions"]

INTERRUPTED = "iotuner:interrupted"
"""Study user attribute: the numbers of the trials that were running when an earlier
search stopped (they never finished). Studies made before it was a study attribute carry
it as a user attribute of each such trial (True); both are read."""

_SEEN_STATES = (TrialState.COMPLETE, TrialState.FAIL, TrialState.PRUNED, TrialState.RUNNING)


def distributions(space: Space) -> dict[str, BaseDistribution]:
    """Each parameter of the space as a categorical distribution over its values."""
    return {p.name: CategoricalDistribution(p.values) for p in space.parameters}


class PoolSampler(BaseSampler):
    """Base: proposes whole configurations from `pool`, knowing which the study has tried.

    Subclasses implement `choose(study, untried)` and return one configuration of `untried`
    (or None to fall back to a uniform random draw of each parameter). A trial counts as
    tried once it has all its parameters, whatever its state, except a trial marked
    interrupted (INTERRUPTED: it never finished, so its configuration may be proposed
    again).
    """

    def __init__(self, space: Space, pool: Sequence[Configuration], seed: int | None) -> None:
        self._distributions = distributions(space)
        self._pool = list(pool)
        self._keys = [config_key(c) for c in self._pool]
        self._random = RandomSampler(seed=seed)
        self._seen: set[int] = set()
        self._tried: set[str] = set()

    def infer_relative_search_space(
        self, study: Study, trial: FrozenTrial
    ) -> dict[str, BaseDistribution]:
        return dict(self._distributions)

    def tried(self, study: Study) -> set[str]:
        """The config_key of every configuration a trial of the study has had."""
        interrupted: set[int] | None = None
        for t in study.get_trials(deepcopy=False, states=_SEEN_STATES):
            if t.number in self._seen or len(t.params) < len(self._distributions):
                continue
            if interrupted is None:  # read once per call, and only when a trial is new
                interrupted = set(study.user_attrs.get(INTERRUPTED, []))
            self._seen.add(t.number)
            if t.number not in interrupted and not t.user_attrs.get(INTERRUPTED):
                self._tried.add(config_key(t.params))
        return self._tried

    def untried(self, study: Study) -> list[Configuration]:
        """The configurations of the pool that no trial of the study has had yet."""
        tried = self.tried(study)
        return [c for c, k in zip(self._pool, self._keys, strict=True) if k not in tried]

    def sample_relative(
        self, study: Study, trial: FrozenTrial, search_space: dict[str, BaseDistribution]
    ) -> dict[str, Any]:
        if not search_space:
            return {}
        choice = self.choose(study, self.untried(study))
        return dict(choice) if choice is not None else {}

    def choose(self, study: Study, untried: list[Configuration]) -> Configuration | None:
        """One configuration of `untried`, or None for a random draw."""
        raise NotImplementedError

    def sample_independent(
        self,
        study: Study,
        trial: FrozenTrial,
        param_name: str,
        param_distribution: BaseDistribution,
    ) -> Any:
        return self._random.sample_independent(study, trial, param_name, param_distribution)


class OrderedSampler(PoolSampler):
    """Proposes the pool's configurations in the pool's order, each once."""

    def __init__(self, space: Space, pool: Sequence[Configuration], seed: int | None) -> None:
        super().__init__(space, pool, seed)
        self._next = 0

    def sample_relative(
        self, study: Study, trial: FrozenTrial, search_space: dict[str, BaseDistribution]
    ) -> dict[str, Any]:
        # RATIONALE: a pointer instead of untried(): a grid over thousands of
        # configurations would otherwise cost the square of their number.
        tried = self.tried(study)
        while self._next < len(self._pool) and self._keys[self._next] in tried:
            self._next += 1
        return dict(self._pool[self._next]) if search_space and self._next < len(self._pool) else {}
