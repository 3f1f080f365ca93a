"""run_search: one search from its settings to its result, through the parts that do it.

1. The study (_study): opened or resumed, refused when it was made for another search;
   the jobs its trials submitted to a batch system collected (_batch), its measured
   trials loaded, its interrupted ones marked.
2. What the program does (_program): which parameters its accesses can reach; the rest
   stay at their defaults.
3. The strategy (_strategies): its sampler over the parameters left, seeded for this
   problem (Objective.problem_key), the model's guide when there is one; the budget
   (_set_budget).
4. The loop (_loop): ask, measure or answer, tell; as many trials at once as the objective
   allows (Objective.slots); a configuration the objective does not measure (offline: one
   the table does not hold) is no trial, the nearest one it measures is measured instead.
5. The verdict (_verdict): the best re-measured against the default when the objective
   can measure again; what the objective knows beyond its answers (Objective.summary).
"""

import dataclasses
import math
from collections.abc import Callable

import optuna

from iotuner._secrets import display_url
from iotuner.measurement import Workload
from iotuner.search._batch import collect_submitted, core_seconds, trial_journal
from iotuner.search._common import SearchError, target_value
from iotuner.search._guide import MAX_ENUMERATED, ModelGuide
from iotuner.search._loop import SearchLoop
from iotuner.search._objectives import Objective
from iotuner.search._program import (
    Program,
    identity,
    read_program,
    searched_parameters,
    workload_from,
)
from iotuner.search._relevance import Relevance
from iotuner.search._result import SearchProgress, SearchResult, Skipped, Spent
from iotuner.search._settings import SearchSettings
from iotuner.search._strategies import Strategy, make_strategy
from iotuner.search._study import (
    default_study_name,
    open_study,
    store_workload,
    stored_workload,
    unrecorded_logs,
)
from iotuner.search._verdict import choose_winner
from iotuner.space import Configuration, config_key
from iotuner.tune import Predictor

__all__ = ["run_search"]


def run_search(
    objective: Objective,
    settings: SearchSettings,
    *,
    predictor: Predictor | None = None,
    workload: Workload | None = None,
    on_progress: Callable[[SearchProgress], None] | None = None,
) -> SearchResult:
    """Search `objective`'s space with the settings' strategy and return what was found.

    `predictor` and `workload` are for the `model` strategy: the model, and the workload
    its predictions are for. Without a workload, an objective that runs the program reads
    it from the trace of the default configuration; one that runs nothing needs it given.
    Optuna's own log lines (one per trial) are silenced meanwhile: the result and
    `on_progress` say what happened.
    """
    verbosity = optuna.logging.get_verbosity()
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    try:
        return _run_search(objective, settings, predictor, workload, on_progress)
    finally:
        optuna.logging.set_verbosity(verbosity)


def _run_search(
    objective: Objective,
    settings: SearchSettings,
    predictor: Predictor | None,
    workload: Workload | None,
    on_progress: Callable[[SearchProgress], None] | None,
) -> SearchResult:
    """run_search's steps, in the order of the module docstring.

    The driver asks the objective and the strategy only what their base classes declare.
    """
    candidates = objective.candidates()
    measured_by = f"the objective measures ({objective.description})"
    if candidates is not None:
        _check_budget(settings.budget, len(candidates), measured_by)
    _check_budget(settings.budget, objective.space.size, f"in space {objective.space.name}")
    name = settings.study or default_study_name(objective, settings.strategy, settings.seed)
    notes: list[str] = objective.notes()
    study = open_study(objective, name, settings.storage, settings.seed)
    cores = objective.cores()
    if settings.core_hours is not None and cores is None:
        raise SearchError("--budget-core-hours needs a search that runs the program")
    collected = collect_submitted(study, objective)
    notes.extend(f"collected from an earlier search: {line}" for line in collected)
    loop = SearchLoop(objective, study, Strategy("none", study.sampler, 0), on_progress)
    objective.journal = trial_journal(study, loop.lock)
    loop.core_hours, loop.cores = settings.core_hours, cores or 1
    slots, limit = objective.slots(settings.parallel)
    if slots < settings.parallel:
        notes.append(f"{slots} trial(s) at once ({limit}), not {settings.parallel}")

    use_model = settings.strategy == "model" and predictor is not None
    workload = workload or (stored_workload(study) if use_model else None)
    program = read_program(loop, settings, use_model and workload is None)
    chosen = searched_parameters(objective, program, settings)
    loop.narrow(chosen.searched)
    guide = None
    if use_model:
        assert predictor is not None
        if workload is None:
            workload = _default_workload(objective, program, notes)
        store_workload(study, workload)
        guide = _model_guide(objective, settings, predictor, workload, chosen, candidates)
    strategy = _install_strategy(loop, settings, chosen, candidates, guide)
    notes.extend(strategy.notes)
    proposable, what = _proposable(objective, chosen, candidates, measured_by, strategy)
    _check_budget(settings.budget, proposable, what)
    _set_budget(loop, settings.budget, strategy, proposable, what, notes)
    _start(loop, objective, settings, program, strategy)
    loop.run(slots)

    result = _search_result(objective, settings, name, study, loop, program, chosen, notes)
    result.workload = workload
    result.skipped = _skipped(loop.skipped, guide)
    choose_winner(objective, settings.repeats, settings.top, result)
    objective.journal = None
    if cores is not None:
        result.spent = _spent(result, cores, settings.core_hours, collected)
    return result


def _install_strategy(
    loop: SearchLoop,
    settings: SearchSettings,
    chosen: Relevance,
    candidates: list[Configuration] | None,
    guide: ModelGuide | None,
) -> Strategy:
    """The settings' strategy over the parameters left, seeded for the problem, made the
    study's sampler and the loop's strategy."""
    strategy = make_strategy(
        settings.strategy,
        chosen.searched,
        seed=settings.seed,
        candidates=candidates,
        options=settings.options,
        guide=guide,
        problem=loop.objective.problem_key(),
    )
    loop.study.sampler = strategy.sampler
    loop.strategy = strategy
    return strategy


def _default_workload(objective: Objective, program: Program, notes: list[str]) -> Workload:
    """The workload the model predicts for when none was given or stored: read from the
    trace of the default configuration, and a note says so."""
    workload = workload_from(objective, program)
    notes.append(f"workload read from the trace of the default configuration: {workload}")
    return workload


def _model_guide(
    objective: Objective,
    settings: SearchSettings,
    predictor: Predictor,
    workload: Workload,
    chosen: Relevance,
    candidates: list[Configuration] | None,
) -> ModelGuide:
    """The model's guide for the `model` strategy. It ranks the objective's candidates, or
    every configuration of the parameters left when some are fixed and they are few enough
    to enumerate (else the guide ranks what the strategy proposes)."""
    ranked = candidates
    if ranked is None and chosen.fixed and chosen.searched.size <= MAX_ENUMERATED:
        ranked = [objective.space.validate(c) for c in chosen.searched.configurations()]
    return ModelGuide(
        predictor,
        workload,
        objective.space,
        ranked,
        top_k=settings.model_top_k,
        threshold=settings.model_threshold,
        searched=chosen.searched,
        seed=settings.seed,
    )


def _proposable(
    objective: Objective,
    chosen: Relevance,
    candidates: list[Configuration] | None,
    measured_by: str,
    strategy: Strategy,
) -> tuple[int, str]:
    """The fewest configurations there are to measure, and what they are: of the
    parameters left to search, the objective's candidates, the strategy's list."""
    searched = f"in space {objective.space.name}"
    if chosen.fixed:
        searched = (
            f"left to search in space {objective.space.name} (parameters fixed at their "
            f"defaults: {', '.join(chosen.fixed)}; --all-parameters searches them too)"
        )
    there = [(chosen.searched.size, searched)]
    if candidates is not None:
        there.append((len(candidates), measured_by))
    if strategy.pool_size is not None:
        there.append((strategy.pool_size, f"the {strategy.name} strategy chooses among"))
    return min(there, key=lambda t: t[0])


def _set_budget(
    loop: SearchLoop,
    budget: int | None,
    strategy: Strategy,
    proposable: int,
    what: str,
    notes: list[str],
) -> None:
    """The loop's budget: the one asked for, else the strategy's default capped at the
    `proposable` configurations `what` says (a note says so); a strategy that proposes by
    generations proposes whole generations.

    The budget: a --budget larger than the configurations there are to measure (of the
    space, the parameters left, the objective's candidates, the strategy's list) is refused,
    before any run when the space or the candidates already show it: a search measures each
    configuration once (the loop answers a repeated proposal from the study, and only the
    verdict re-measures), so such a budget could never be spent. A strategy's default budget
    is capped there, and a note says so.
    """
    loop.budget = budget or min(strategy.default_budget, proposable)
    if loop.budget < (budget or strategy.default_budget):
        notes.append(
            f"a budget of {loop.budget} runs: the {proposable} configurations {what} (the "
            f"{strategy.name} strategy's default budget is {strategy.default_budget})"
        )
    if strategy.generation is not None:
        loop.max_proposals = strategy.generation * math.ceil(loop.budget / strategy.generation)


def _start(
    loop: SearchLoop,
    objective: Objective,
    settings: SearchSettings,
    program: Program,
    strategy: Strategy,
) -> None:
    """Ready the loop: the traced run of the default recorded when it is a trial, the
    target to stop at (--stop-at-target, when the best is known), the strategy's first
    configurations queued."""
    if program.trial is not None:
        loop.record(objective.space.default(), program.trial)
    known = objective.best_known()
    if known is not None and settings.stop_at_target:
        loop.target = target_value(known[1], settings.target_fraction, objective.direction)
    loop.enqueue(strategy.first)


def _search_result(
    objective: Objective,
    settings: SearchSettings,
    name: str,
    study: optuna.Study,
    loop: SearchLoop,
    program: Program,
    chosen: Relevance,
    notes: list[str],
) -> SearchResult:
    """What the loop did as a SearchResult, before the verdict: its trials (each with what
    the objective says of it), counts, notes, and the program and scale they ran."""
    trials = [dataclasses.replace(t, note=objective.describe(t.outcome)) for t in loop.trials()]
    result = SearchResult(
        study=name,
        # Shown and written in the record: never with the storage's password.
        storage=display_url(settings.storage) if settings.storage is not None else None,
        strategy=settings.strategy,
        objective=objective.description,
        direction=objective.direction,
        space=objective.space,
        command=objective.command,
        budget=loop.budget,
        trials=trials,
        proposals=loop.proposals,
        duplicates=loop.duplicates,
        vetoed=loop.vetoed,
        replaced=loop.replaced,
        recovered=loop.recovered,
        stopped=loop.stop or "budget reached",
        notes=notes,
        fixed=dict(chosen.fixed),
        searched_size=chosen.searched.size,
        relevance_note=chosen.note,
        probe_logs=list(program.extra_logs),
        unrecorded_logs=unrecorded_logs(study),
        trial_mode=objective.trial_mode,
        offline=objective.summary(trials, settings.target_fraction),
        recommendation=loop.strategy.recommendation,
    )
    logs = [p for t in trials if not t.failed for p in t.outcome.logs]
    result.program, result.nprocs = identity(logs, study)
    return result


def _spent(
    result: SearchResult, cores: int, core_hours: float | None, collected: list[str]
) -> Spent:
    """The core-hours the trials and the verdict's re-measures took, against the budget."""
    return Spent(
        cores,
        core_seconds(result.trials, cores) / 3600,
        sum(r.seconds for r in result.remeasured) * cores / 3600,
        core_hours,
        collected,
    )


SKIPPED_LISTED = 50
"""Candidates the model's veto still skips at the end, listed in the result at most."""


def _skipped(proposed: list[Skipped], guide: ModelGuide | None) -> list[Skipped]:
    """The proposals the loop skipped, then the candidates the model's veto skips at the
    end, never proposed (the best predicted first, at most SKIPPED_LISTED)."""
    listed = list(proposed)
    if guide is not None:
        seen = {config_key(s.config) for s in listed}
        listed += [
            Skipped(config, reason)
            for config, reason in guide.skipped(SKIPPED_LISTED)
            if config_key(config) not in seen
        ]
    return listed


def _check_budget(budget: int | None, there: int, what: str) -> None:
    """SearchError when the budget asked for is more than the `there` configurations
    `what` says: a search measures a configuration once, so it could never be spent."""
    if budget is not None and budget > there:
        raise SearchError(
            f"--budget {budget} is more than the {there} configurations {what}: a search "
            "measures each configuration once (a proposal of one measured already is "
            "answered from the study, and the verdict's re-measures, --repeats, come after "
            f"the budget), so {budget} runs could never be made; give --budget {there} or less"
        )
