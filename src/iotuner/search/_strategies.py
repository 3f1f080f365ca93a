"""Search strategies by name: which Optuna sampler proposes the configurations, and what
goes before it.

| name | proposes | default budget |
| --- | --- | --- |
| ga | the dissertation's IO_Search genetic algorithm (_ga) | population x generations = 300 |
| random | uniformly at random (offline: the measured configurations, without replacement) | 50 |
| grid | every configuration once, the default first (offline: every measured one) | all |
| tpe | Optuna's tree-structured Parzen estimator | 50 |
| gp | a Gaussian process with expected improvement over the finite set (iotuner's, _gp) | 50 |
| model | a model's choice, its prediction updated after every trial (_model; _guide) | 50 |

make_strategy builds each by name (_BUILDERS, one entry per name of STRATEGIES);
tests/search/test_strategy_contract.py holds every one of them to the same contract.
"""

import hashlib
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
from optuna.samplers import BaseSampler, NSGAIISampler, RandomSampler, TPESampler
from optuna.samplers.nsgaii import UniformCrossover

from iotuner._choices import STRATEGIES  # defined there: the CLI parser needs no Optuna
from iotuner.search._common import SearchError
from iotuner.search._gp import GaussianProcessSampler
from iotuner.search._guide import MAX_ENUMERATED, ModelGuide, Recommendation
from iotuner.search._samplers import ModelSampler, OrderedSampler
from iotuner.space import Configuration, Space

__all__ = ["STRATEGIES", "Strategy", "StrategyOptions", "make_strategy", "problem_seed"]

_DEFAULT_BUDGET = 50


@dataclass(frozen=True)
class StrategyOptions:
    """Settings of the strategies; the GA's defaults are the dissertation's."""

    population: int = 10
    generations: int = 30
    mutation: float = 0.15
    crossover: float = 0.9
    swapping: float = 0.5
    n_startup: int = 10
    """Random configurations before TPE and the Gaussian process use a model."""

    def __post_init__(self) -> None:
        if self.population < 2:
            raise SearchError(f"the population must be an int >= 2, got {self.population}")
        if self.generations < 1:
            raise SearchError(f"the generations must be an int >= 1, got {self.generations}")
        for name in ("mutation", "crossover", "swapping"):
            value = getattr(self, name)
            if not 0 <= value <= 1:
                raise SearchError(f"the {name} rate must be in [0, 1], got {value}")
        if self.n_startup < 1:
            raise SearchError(f"n_startup must be an int >= 1, got {self.n_startup}")


@dataclass
class Strategy:
    """A sampler and what goes with it; what the search asks of a strategy.

    `first`: configurations to measure before the sampler is asked (enqueued in the study);
    `veto`: says why a proposed configuration is skipped without a run (or None to run it);
    `default_budget`: trials when the user gives no budget; `pool_size`: how many
    configurations it can propose when it chooses from a list (grid; random and gp over
    a table's configurations), None when it proposes from the whole space (the budget can
    be at most whichever it is); `parameters`: the settings its sampler was made with;
    `notes`: what the user should know about how the strategy runs; `recommendation`: the
    model's zero-trial pick with its predicted gain (model strategy only); `generation`:
    the GA's population, when the strategy ends after its generations (see the loop).

    A budget is at most the number of distinct configurations there are to measure, since a
    search measures a configuration once (run_search refuses a larger --budget, and caps a
    strategy's default budget there, saying so): a strategy that chooses from a list says how
    many it holds itself (Strategy.pool_size, the list's length); the others propose from the
    whole searched space, or offline from the product of the table's values, of which only
    the measured configurations are trials (_offline).
    """

    name: str
    sampler: BaseSampler
    default_budget: int
    first: list[Configuration] = field(default_factory=list)
    veto: Callable[[Configuration], str | None] | None = None
    notes: list[str] = field(default_factory=list)
    pool_size: int | None = None
    parameters: dict[str, int | float] = field(default_factory=dict)
    recommendation: Recommendation | None = None
    generation: int | None = None


def _enumerated(space: Space, candidates: Sequence[Configuration] | None, name: str) -> list:
    if candidates is not None:
        return list(candidates)
    if space.size > MAX_ENUMERATED:
        raise SearchError(
            f"the space has {space.size} configurations; the {name} strategy enumerates "
            f"them and takes at most {MAX_ENUMERATED}"
        )
    return list(space.configurations())


def problem_seed(seed: int | None, problem: str | None) -> int | None:
    """The seed a strategy draws from: `seed` mixed with a stable hash of `problem` by
    numpy's SeedSequence (a 32-bit seed), the same for the same seed and problem, unrelated
    for another; `seed` itself without a problem, None (fresh entropy) without a seed.

    The seed: every random choice of a strategy (random's order, the first random proposals
    of gp, tpe and ga) is drawn from the seed mixed with the problem the search solves
    (`problem`, Objective.problem_key; problem_seed), so one seed draws the same for the same
    problem and independently for two problems: two tables of the same size used to get the
    same order of indices from one seed.
    """
    if seed is None or problem is None:
        return seed
    digest = int.from_bytes(hashlib.sha256(problem.encode()).digest(), "big")
    state = np.random.SeedSequence([seed % 2**64, digest]).generate_state(1)
    return int(state[0])


def make_strategy(
    name: str,
    space: Space,
    *,
    seed: int | None = None,
    candidates: Sequence[Configuration] | None = None,
    options: StrategyOptions | None = None,
    guide: ModelGuide | None = None,
    problem: str | None = None,
) -> Strategy:
    """The strategy `name` (one of STRATEGIES) over `space`.

    `candidates` restricts the strategies that choose among a list (grid, random, gp, and
    the model's ranking) to those configurations, e.g. the ones a table measured; ga and
    tpe always propose from the whole cartesian product. `guide` is the model for the
    `model` strategy; without one it runs as TPE and says so in its notes. `problem`
    names the problem (Objective.problem_key): the strategy draws from the seed mixed
    with it (problem_seed).
    """
    build = _BUILDERS.get(name)
    if build is None:
        raise SearchError(f"the strategy must be one of {', '.join(STRATEGIES)}, got {name!r}")
    return build(
        space, problem_seed(seed, problem), candidates, options or StrategyOptions(), guide
    )


def _ga(
    space: Space,
    seed: int | None,
    candidates: Sequence[Configuration] | None,
    options: StrategyOptions,
    guide: ModelGuide | None,
) -> Strategy:
    """The dissertation's GA as Optuna's NSGAIISampler.

    IO_Search (thesis §4.2.1; Bağbaba & Wang 2021) evolves a population of 10 for 30
    generations with 15 % mutation, carries its elite members over, and stops after at most
    300 runs. `ga` is NSGAIISampler with a single objective, set up as follows:

    * population 10: `population_size=10`; the first generation is drawn at random, as in
      IO_Search.
    * 30 generations: NSGA-II counts a generation as `population_size` completed trials, so
      the default budget is 10 x 30 = 300 trials.
    * fitness = bandwidth: the objective's value (with one objective NSGA-II's non-dominated
      sorting is ordering by value; crowding distance only breaks ties).
    * elite members carried over: NSGA-II's survivor selection takes as the parents of a
      generation the best `population_size` of the previous generation together with its
      parents, so the best configurations found stay in the mating pool until better ones
      displace them. IO_Search copies its elite into the next generation; here they are kept
      as parents and not run again (a run of a configuration already measured would be
      answered from the search's cache anyway). The thesis does not say how many are elite.
    * reproduction (selection by fitness): binary tournament, the better of two parents
      drawn at random.
    * crossover (members mated at random): uniform crossover, each parameter from either
      parent with probability 0.5, applied with probability 0.9 (otherwise the child copies
      one parent). The thesis names neither the operator nor the rate.
    * mutation 15 %: `mutation_prob=0.15`, which Optuna applies to each parameter of each
      child (the parameter is redrawn uniformly from its values). The thesis applies mutation
      to 15 % of the population, that is per individual; with p parameters Optuna's rate
      mutates a child with probability 1 - 0.85^p (39 % for the thesis' three parameters).
      To match the thesis per individual, set the mutation rate to 1 - 0.85^(1/p).
    * a child identical to a configuration already measured is answered from the cache and
      does not use up the budget, so 300 is an upper bound on runs, as in the thesis.
    * the GA ends after its generations: budget / population of them (30 by default), each
      `population` proposals, measured or answered from the cache. A converged GA proposes
      the same children again and again; each is an Optuna trial that every later proposal
      reads, so without this end a 300-run search of a 512-row table spent minutes proposing
      repeats (100 runs: 560 repeats, 10 s; 300 runs: over 1,000 s).
    """
    parameters: dict[str, int | float] = {
        "population_size": options.population,
        "generations": options.generations,
        "mutation_prob": options.mutation,
        "crossover_prob": options.crossover,
        "swapping_prob": options.swapping,
    }
    sampler = NSGAIISampler(
        population_size=options.population,
        mutation_prob=options.mutation,
        crossover=UniformCrossover(options.swapping),
        crossover_prob=options.crossover,
        swapping_prob=options.swapping,
        seed=seed,
    )
    budget = options.population * options.generations
    return Strategy("ga", sampler, budget, parameters=parameters, generation=options.population)


def _random(
    space: Space,
    seed: int | None,
    candidates: Sequence[Configuration] | None,
    options: StrategyOptions,
    guide: ModelGuide | None,
) -> Strategy:
    if candidates is None:
        return Strategy("random", RandomSampler(seed=seed), _DEFAULT_BUDGET)
    pool = list(candidates)
    random.Random(seed).shuffle(pool)
    sampler = OrderedSampler(space, pool, seed)
    return Strategy("random", sampler, _DEFAULT_BUDGET, pool_size=len(pool))


def _grid(
    space: Space,
    seed: int | None,
    candidates: Sequence[Configuration] | None,
    options: StrategyOptions,
    guide: ModelGuide | None,
) -> Strategy:
    pool = _enumerated(space, candidates, "grid")
    return Strategy("grid", OrderedSampler(space, pool, seed), len(pool), pool_size=len(pool))


def _tpe(
    space: Space,
    seed: int | None,
    candidates: Sequence[Configuration] | None,
    options: StrategyOptions,
    guide: ModelGuide | None,
) -> Strategy:
    sampler = TPESampler(seed=seed, n_startup_trials=options.n_startup)
    return Strategy("tpe", sampler, _DEFAULT_BUDGET, parameters={"n_startup": options.n_startup})


def _gp(
    space: Space,
    seed: int | None,
    candidates: Sequence[Configuration] | None,
    options: StrategyOptions,
    guide: ModelGuide | None,
) -> Strategy:
    pool = _enumerated(space, candidates, "gp")
    sampler = GaussianProcessSampler(space, pool, n_startup=options.n_startup, seed=seed)
    return Strategy(
        "gp",
        sampler,
        _DEFAULT_BUDGET,
        pool_size=len(pool),
        parameters={"n_startup": options.n_startup},
    )


def _model(
    space: Space,
    seed: int | None,
    candidates: Sequence[Configuration] | None,
    options: StrategyOptions,
    guide: ModelGuide | None,
) -> Strategy:
    """The model strategy: its first trial is the model's zero-trial pick (the configuration it
    predicts best; Strategy.recommendation carries its predicted gain over the default and an
    interval); after each trial a Gaussian process on the residuals (measured - predicted)
    updates the prediction of every candidate, and the next trial is the untried candidate
    with the highest expected improvement (models.WorkloadBelief, _guide); a candidate whose
    calibrated upper bound is below the measured lower bound of the best so far is skipped
    while others are left, and run once none is (_guide). The model stays in
    charge until the budget ends: it used to run its top five and hand over to TPE, and a
    model that ranked the best configuration eleventh then never reached it in four runs of
    five.
    """
    if guide is None:
        strategy = _tpe(space, seed, candidates, options, guide)
        strategy.name = "model"
        strategy.notes = ["no model was given: the model strategy runs as plain TPE"]
        return strategy
    sampler = ModelSampler(space, guide, seed)
    recommendation = guide.recommendation()
    first = "the prior's best" if guide.top_k <= 1 else f"the prior's {guide.top_k} best in order"
    notes = [
        recommendation.describe(),
        f"model: {first} first, then after each trial the untried configuration with the "
        "highest expected improvement under the model's prediction updated by every measured "
        "trial; "
        + (
            "none is skipped"
            if guide.threshold == 0
            else "none is skipped (the model has no calibration of gains)"
            if not guide.calibrated
            else "configurations whose calibrated upper bound (90th percentile) is below "
            + ("" if guide.threshold == 1 else f"{guide.threshold:.0%} of ")
            + "the measured lower bound of the best so far are skipped while others are "
            "left to run"
        ),
    ]
    if guide.sampled:
        notes.append(
            f"model: the space has {guide.searched.size:.3g} configurations; the model "
            f"chooses among the default and {len(guide.candidates) - 1} drawn at random"
        )
    return Strategy(
        "model",
        sampler,
        _DEFAULT_BUDGET,
        veto=guide.veto,
        notes=notes,
        pool_size=len(set(sampler.keys)),
        parameters={"top_k": guide.top_k, "threshold": guide.threshold},
        recommendation=recommendation,
    )


_BUILDERS: dict[str, Callable[..., Strategy]] = {
    "ga": _ga,
    "random": _random,
    "grid": _grid,
    "tpe": _tpe,
    "gp": _gp,
    "model": _model,
}
"""How each strategy of STRATEGIES is made (from the space, the seed, the candidates, the
options and the model's guide)."""
