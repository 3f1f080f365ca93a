"""Optuna samplers that choose from a finite list of configurations.

Optuna's own samplers propose values parameter by parameter over the whole cartesian
product. Three of our strategies need something else: `grid` walks a list (the whole space,
or the configurations a table measured) and never repeats, `random` over a table draws
from its measured configurations without replacement, and `model` asks a model's belief
(_guide.ModelGuide) after each trial. PoolSampler keeps the list and what the study has
already tried; OrderedSampler proposes the list in order; ModelSampler proposes what the
guide chooses.
"""

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from optuna.distributions import BaseDistribution, CategoricalDistribution
from optuna.samplers import BaseSampler, RandomSampler
from optuna.study import Study, StudyDirection
from optuna.trial import FrozenTrial, TrialState

from iotuner.search._common import SearchError
from iotuner.space import Configuration, Space, config_key

if TYPE_CHECKING:  # _guide imports _gp, which imports this module
    from iotuner.search._guide import ModelGuide

__all__ = [
    "INTERRUPTED",
    "PROPOSED_BY",
    "ModelSampler",
    "OrderedSampler",
    "PoolSampler",
    "distributions",
]

PROPOSED_BY = "iotuner:proposed_by"
"""Trial system attribute: which sampler proposed the trial's configuration ("model"),
with `iotuner:predicted` (the belief's median and upper bound, MiB/s, when proposed)."""

INTERRUPTED = "iotuner:interrupted"
"""Study user attribute: the numbers of the trials that were running when an earlier
search stopped (they never finished). Studies made before it was a study attribute carry
it as a user attribute of each such trial (True); both are read."""

_SEEN_STATES = (TrialState.COMPLETE, TrialState.FAIL, TrialState.PRUNED, TrialState.RUNNING)


MAX_CHOICES = 100_000
"""Most values one parameter (a range) may take in a search."""


def distributions(space: Space) -> dict[str, BaseDistribution]:
    """Each parameter of the space as a categorical distribution over its values: the
    listed ones, and for a range every point of it (Parameter.points), so that a
    configuration drawn from a range (the model strategy's sample of a large space) is one
    Optuna can hold; SearchError for a range of more than MAX_CHOICES points."""
    result: dict[str, BaseDistribution] = {}
    for p in space.parameters:
        if p.count > MAX_CHOICES:
            raise SearchError(
                f"{p.name} takes {p.count} values; a search takes at most {MAX_CHOICES} per "
                "parameter (give its range a larger step)"
            )
        result[p.name] = CategoricalDistribution(tuple(p.points()))
    return result


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
        self.keys = self._keys
        """The config_key of each configuration of the pool, in order."""
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
    """Proposes the pool's configurations in the pool's order, each once.

    RATIONALE: Optuna's GridSampler calls `study.stop()` once its grid is exhausted, which
    raises outside `study.optimize`, and the search drives Optuna through ask and tell.
    """

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


class ModelSampler(PoolSampler):
    """Proposes, for each trial, what a model's belief chooses after learning every trial
    completed so far (_guide.ModelGuide.propose); the model stays in charge to the end.

    The pool is the guide's candidates restricted to the parameters of `space` (the
    searched ones). When every candidate has been tried, it proposes nothing (a random
    draw, which the search answers from its cache without a run).
    """

    def __init__(self, space: Space, guide: "ModelGuide", seed: int | None) -> None:
        names = [p.name for p in space.parameters]
        pool = [{n: c[n] for n in names} for c in guide.candidates]
        super().__init__(space, pool, seed)
        self.guide = guide
        self._learned: set[int] = set()
        self.proposed: list[tuple[int, str]] = []
        """(trial number, config_key) of every proposal, in order."""

    def learn(self, study: Study) -> None:
        """Give the belief the value of each trial completed since the last call.

        How the belief hears of a trial's value: the search asks the study for a trial
        (`study.ask`), runs it and tells the study its value (`study.tell`) before it asks again,
        so when Optuna calls the sampler's `sample_relative` for the next trial, every trial told
        so far is among the study's COMPLETE trials. ModelSampler reads those it has not read
        before and gives their values to the belief, then proposes. With parallel trials, the
        ones still running are RUNNING: they are not proposed again and are learned from once
        they complete.
        """
        minimise = study.direction == StudyDirection.MINIMIZE
        for t in study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,)):
            if t.number in self._learned or t.value is None:
                continue
            self._learned.add(t.number)
            # A configuration measured already (a cached answer, a repeat) adds nothing.
            if self.guide.index(t.params) in self.guide.belief.observed:
                continue
            worst = t.user_attrs.get("iotuner:worst")
            self.guide.observe(
                t.params,
                float(t.value),
                minimise=minimise,
                worst=float(worst) if isinstance(worst, int | float) else None,
            )

    def sample_relative(
        self, study: Study, trial: FrozenTrial, search_space: dict[str, BaseDistribution]
    ) -> dict[str, Any]:
        if not search_space:
            return {}
        self.learn(study)
        tried = self.tried(study)
        blocked = {i for i, key in enumerate(self._keys) if key in tried}
        index = self.guide.propose(blocked)
        if index is None:
            return {}
        median, high = self.guide.posterior(index)
        storage = study._storage
        storage.set_trial_system_attr(trial._trial_id, PROPOSED_BY, "model")
        storage.set_trial_system_attr(
            trial._trial_id,
            "iotuner:predicted",
            [float(np.round(median, 6)), float(np.round(high, 6))],
        )
        self.proposed.append((trial.number, self._keys[index]))
        return dict(self._pool[index])
