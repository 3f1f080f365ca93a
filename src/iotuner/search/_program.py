"""What the program does, read before the first trial, and which parameters that leaves.

Before the first trial the search reads the program's data accesses (collective or
independent, reads or writes) from a trace the user gives, or from one traced run of the
default configuration (Objective.evaluate with `trace`; when the objective traces every
trial that run is the first trial, otherwise it is an extra run, not a trial, since a
traced run is not what the program does untraced). Hint parameters that act on none of
those accesses (hints.def's `ops`) are fixed at their defaults and not searched
(_relevance); the result says which and why. The accesses are kept in the study, so a
resumed search fixes the same parameters without that run. An objective that runs nothing
(Objective.runs_program false) shows nothing: every parameter is searched.
"""

from dataclasses import dataclass, field
from pathlib import Path

import optuna

from iotuner.errors import TraceLogError
from iotuner.formats import HINT_OPS, hint_vocabulary
from iotuner.measurement import Workload
from iotuner.search._common import SearchError, TrialOutcome
from iotuner.search._loop import SearchLoop
from iotuner.search._objectives import Objective, trace_identity, workload_from_logs
from iotuner.search._relevance import Relevance, accesses_from_logs, relevance
from iotuner.search._settings import SearchSettings
from iotuner.search._study import store_accesses, store_identity, stored_accesses, stored_identity
from iotuner.space import Space
from iotuner.tracelog import TraceLog, read_tracelog

__all__ = ["Program", "identity", "read_program", "searched_parameters", "workload_from"]


@dataclass
class Program:
    """What the search knows of what the program does, and from where.

    `accesses` None: unknown. `logs` the traces read; `trial` the traced run of the
    default when it is also a trial (the objective traces every trial), to be recorded once
    the parameters to search are known; `extra_logs` that run's logs when it is not a
    trial."""

    accesses: frozenset[tuple[str, str]] | None = None
    source: str = ""
    logs: list[TraceLog] = field(default_factory=list)
    trial: TrialOutcome | None = None
    extra_logs: list[Path] = field(default_factory=list)
    failure: str | None = None


def read_program(loop: SearchLoop, settings: SearchSettings, need_workload: bool) -> Program:
    """The program's accesses: from the given trace, the study (a resumed search), the
    default's trial of a resumed search, or one traced run of the default (module doc).

    The run is made only when its answer can change the search: some parameter might be
    fixed, or the model strategy needs the workload."""
    objective, study = loop.objective, loop.study
    if not objective.runs_program:
        return Program()
    if settings.trace:
        logs = []
        for path in settings.trace:
            try:
                logs.append(read_tracelog(path))
            except TraceLogError as exc:
                raise SearchError(f"cannot read the trace {path}: {exc}") from None
        return _remember(study, Program(accesses_from_logs(logs), "from the given trace", logs))
    stored = stored_accesses(study)
    if stored is not None and not need_workload:
        return Program(stored, "read when this study began")
    if not (need_workload or _could_fix(objective.space, settings)):
        return Program()
    default = objective.space.default()
    known = loop.known(default)
    trial: TrialOutcome | None = None
    extra: list[Path] = []
    if known is not None and known.logs:
        outcome = known  # a resumed search measured the default, traced
    else:
        # As a trial it is the study's next trial (recorded once the parameters to search
        # are known, before any other is asked); otherwise it has a label of its own.
        label = str(len(study.trials)) if objective.traces_trials else "default-traced"
        outcome = objective.evaluate(default, label, trace=True)
        if objective.traces_trials:
            trial = outcome  # the same run a trial would be: it is one
        else:
            extra = list(outcome.logs)
    logs = []
    for path in outcome.logs:
        try:
            logs.append(read_tracelog(path))
        except TraceLogError:
            continue
    source = "from a traced run of the default" + (
        "" if objective.traces_trials else ", not a trial"
    )
    failure = None
    accesses: frozenset[tuple[str, str]] | None = accesses_from_logs(logs) if logs else None
    if outcome.failed or not logs:
        failure = outcome.reason or "no trace log"
        source = f"the traced run of the default gave no trace ({failure})"
        accesses = None
    program = Program(accesses, source, logs, trial, extra, failure)
    return _remember(study, program) if accesses is not None else program


def searched_parameters(
    objective: Objective, program: Program, settings: SearchSettings
) -> Relevance:
    """The parameters to search: those the program's accesses can reach (_relevance), or
    all of them when the objective runs nothing."""
    if not objective.runs_program:
        return Relevance(objective.space)
    return relevance(
        objective.space,
        program.accesses,
        enabled=not settings.all_parameters,
        source=program.source,
        scale=_scale(program.logs),
    )


def _scale(logs: list[TraceLog]) -> tuple[int, int] | None:
    """(ranks, hosts) of the program's traced runs when they agree, else None."""
    scales = {(int(log.job["nprocs"]), int(log.job.get("nodes") or 1)) for log in logs}
    return scales.pop() if len(scales) == 1 else None


def _remember(study: optuna.Study, program: Program) -> Program:
    """Keep the accesses and the program's name and scale in the study, for a resume."""
    if program.accesses is not None:
        store_accesses(study, program.accesses)
    if program.logs:
        job = program.logs[0].job
        store_identity(study, str(job["program"]), int(job["nprocs"]))
    return program


def _could_fix(space: Space, settings: SearchSettings) -> bool:
    """Whether some parameter could be fixed for some program (else no run is needed)."""
    if settings.all_parameters or any(p.kind == "app" for p in space.parameters):
        return False
    vocabulary = hint_vocabulary()
    return any(
        p.kind == "hint" and p.name in vocabulary and len(vocabulary[p.name].ops) < len(HINT_OPS)
        for p in space.parameters
        if p.count > 1
    )


def workload_from(objective: Objective, program: Program) -> Workload:
    """The workload of the model strategy, from the program's trace."""
    if not objective.runs_program:
        raise SearchError(
            "the objective runs nothing, so no trace shows the workload: give it with --workload"
        )
    if not program.logs or program.failure is not None:
        why = f" ({program.failure})" if program.failure else ""
        raise SearchError(
            f"the default configuration's run gave no trace to read the workload from{why}; "
            "give it with --workload"
        )
    return workload_from_logs(program.logs)


def identity(logs: list[Path], study: optuna.Study) -> tuple[str | None, int | None]:
    """The program's name and number of ranks: from a trial's trace, else the study's."""
    program, nprocs = trace_identity(logs)
    if program is None:
        return stored_identity(study)
    return program, nprocs
