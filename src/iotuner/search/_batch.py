"""What a search on a batch system adds to the loop: trials it submitted are collected,
not submitted again, when the search is started again; and a budget in core-hours.


The journal (trial_journal), collecting (collect_submitted) and the core-hour budget
(core_budget_stop) each say their rules beside their code.
"""

import threading
import time
import warnings
from collections.abc import Callable, Iterable
from typing import cast

import optuna
from optuna.trial import FrozenTrial, TrialState

from iotuner.search._common import LOGS_AT
from iotuner.search._objectives import Objective
from iotuner.search._result import TrialRecord
from iotuner.search._slurm import SUBMITTED
from iotuner.search._study import (
    ABANDONED,
    GRACE_SECONDS,
    _heartbeat_interval,
    heartbeat,
    outcome_attrs,
)

__all__ = ["COLLECTED", "collect_submitted", "core_budget_stop", "core_seconds", "trial_journal"]

COLLECTED = "iotuner:collected_from"
"""Trial attribute: the number of the trial (left running by a search that died) whose
submitted job this trial's outcome was collected from."""


def trial_journal(study: optuna.Study, lock: threading.Lock) -> Callable[[str, str, object], None]:
    """Objective.journal for `study`: (label, key, value) sets the user attribute `key` of
    the running trial numbered `label`. For a label that is no running trial's number (a
    re-measure, the traced run of the default before it is recorded) only LOGS_AT is
    kept, in a study attribute of its own per run (`LOGS_AT:<tag>`, so that workers never
    write the same one), the rest is ignored.

    **The journal.** While a trial runs, its launcher may keep facts about it in the study
    (trial_journal: a trial user attribute; the Slurm launcher keeps its job id the moment
    the job is submitted).
    """

    def note(label: str, key: str, value: object) -> None:
        if key == LOGS_AT and not _running(label) and isinstance(value, dict):
            with lock:
                study.set_user_attr(f"{LOGS_AT}:{value.get('tag')}", value)
            return
        if not label.isdigit():
            return
        with lock:
            # RATIONALE: Trial.set_user_attr needs the Trial object, which the loop keeps
            # in another frame; the storage's own call sets the same attribute by id.
            storage = study._storage
            try:
                trial_id = storage.get_trial_id_from_study_id_trial_number(
                    study._study_id, int(label)
                )
                if storage.get_trial(trial_id).state == TrialState.RUNNING:
                    storage.set_trial_user_attr(trial_id, key, value)
            except (KeyError, RuntimeError):
                return

    def _running(label: str) -> bool:
        if not label.isdigit():
            return False
        with lock:
            storage = study._storage
            try:
                trial_id = storage.get_trial_id_from_study_id_trial_number(
                    study._study_id, int(label)
                )
                return bool(storage.get_trial(trial_id).state == TrialState.RUNNING)
            except (KeyError, RuntimeError):
                return False

    return note


def collect_submitted(study: optuna.Study, objective: Objective) -> list[str]:
    """Collect the jobs of trials left running with a submitted job (below); what was
    collected, one line each ("trial 3: Slurm job 12 COMPLETED").

    **Collecting.** A search started again after its driver was killed finds the trials
    left running that hold a submitted job (collect_submitted, before the interrupted ones
    are failed): it waits for each job and reads its result (Objective.collect), and keeps
    it as a measured trial of the study (a new trial with the same configuration and the
    job's record; the old one is failed). The job is not submitted again, and no trial is
    lost. With many workers on one study (heartbeats, _study) a trial is collected only once
    its worker is dead: a search started again at once waits up to the grace period (12 s)
    for that, then beats for the trial while it waits for its job, so that no other worker
    fails it and runs it again. A trial the objective cannot collect (its job was
    cancelled), or that its search abandoned on an exception (^C, which cancels the job), is
    left to be marked interrupted (its configuration proposed again).
    """
    lines = []
    running = study.get_trials(deepcopy=False, states=(TrialState.RUNNING,))
    for old in running:
        submitted = old.user_attrs.get(SUBMITTED)
        if not isinstance(submitted, dict) or old.user_attrs.get(ABANDONED):
            continue  # ABANDONED: stopped by an exception (^C) in its search, job cancelled
        if not _taken_over(study, old):
            continue  # its worker is alive, or another one took it
        config = objective.space.validate(old.params)
        with heartbeat(study, cast(optuna.Trial, old)):
            outcome = objective.collect(config, str(old.number), submitted)
        if outcome is None:
            continue
        study.enqueue_trial(dict(old.params))
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message="Heartbeat of storage")
            trial = study.ask(dict(old.distributions))
        for name, value in outcome_attrs(outcome).items():
            trial.set_user_attr(name, value)
        trial.set_user_attr(SUBMITTED, submitted)
        trial.set_user_attr(COLLECTED, old.number)
        if outcome.value is None:
            study.tell(trial, state=TrialState.FAIL)
        else:
            study.tell(trial, outcome.value)
        study.tell(old.number, state=TrialState.FAIL)
        state = "failed: " + (outcome.reason or "") if outcome.failed else f"{outcome.value:.4g}"
        lines.append(
            f"trial {old.number}: job {submitted.get('job')} collected as trial "
            f"{trial.number} ({state})"
        )
    return lines


def _taken_over(study: optuna.Study, old: FrozenTrial) -> bool:
    """Whether this search may collect `old`, a trial running in the study: always without
    heartbeats (one search per study); with them (_study: many workers) once its worker is
    dead (no heartbeat for the grace period, so waiting up to that long), and then this
    search beats for it, so no other worker fails it and runs it again meanwhile."""
    interval = _heartbeat_interval(study)
    if interval is None:
        return True
    # RATIONALE: Optuna tells stale trials only by failing them (fail_stale_trials), which
    # would queue the configuration again; its storage's own test is read instead.
    storage = study._storage
    deadline = time.monotonic() + GRACE_SECONDS + 4 * interval
    while time.monotonic() < deadline:
        if storage.get_trial(old._trial_id).state != TrialState.RUNNING:
            return False  # its worker finished it, or another failed it
        if old._trial_id in storage._get_stale_trial_ids(study._study_id):  # type: ignore[attr-defined]
            storage.record_heartbeat(old._trial_id)  # type: ignore[attr-defined]
            return storage.get_trial(old._trial_id).state == TrialState.RUNNING
        time.sleep(1.0)
    return False


def core_seconds(records: Iterable[TrialRecord], cores: int) -> float:
    """Core-seconds the measured trials took (cores x wall seconds each)."""
    return sum(max(r.outcome.seconds, 0.0) for r in records) * cores


def core_budget_stop(
    records: Iterable[TrialRecord], cores: int, running: int, budget_hours: float
) -> str | None:
    """Why no further trial may start within `budget_hours` core-hours, or None.

    **Core-hours.** `--budget-core-hours H`: every measured trial of the study costs its
    cores (Objective.cores) x its wall seconds; before asking for a trial, the search stops
    when what was spent, plus the longest trial so far for each trial running and for the
    next one, would exceed H (core_budget_stop). The verdict's re-measures come after and
    are counted in what the report says was spent.
    """
    measured = list(records)
    spent = core_seconds(measured, cores)
    longest = max((r.outcome.seconds for r in measured), default=0.0) * cores
    if spent + (running + 1) * longest <= budget_hours * 3600:
        return None
    return (
        f"the core-hour budget: {spent / 3600:.3g} of {budget_hours:g} core-hours spent, and "
        f"the next trial may take {longest / 3600:.3g} (the longest so far, {cores} cores)"
    )
