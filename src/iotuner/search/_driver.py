"""The search loop: ask Optuna for a configuration, measure it, tell Optuna the value.

* **Storage and resume.** The study lives in Optuna's storage (an RDB URL such as
  `sqlite:///iotuner-search.db`, or in memory). Run the same search again (same study
  name) and it goes on where it stopped: trials already measured are not run again, a
  trial that was running when the search stopped is marked interrupted and may be
  proposed again, and the budget counts every measured trial of the study, old and new.
* **The cache.** A configuration is measured at most once per search. When a sampler
  proposes one already measured (or being measured by a parallel trial), the study is
  told the known value and the trial does not use up the budget. A search whose sampler
  makes 3 x the budget (at least 100) proposals in a row without anything new ends there.
* **Parallel trials.** With `parallel` > 1, that many threads each ask, run and tell;
  asking and telling are serialised, only the runs overlap.
* **Noise.** When the objective runs the program, the best configurations found and the
  default are re-measured at the end, `repeats` times each, interleaved, one at a time;
  the best is compared with the default by a one-sided Mann-Whitney U test. The winner is
  the best re-measured configuration when it beats the default significantly (p < 0.05),
  else the default, and the result says which and why.
* **Offline.** With an OfflineObjective the result also says how many trials reached a
  fraction of the table's best and how many were answered by a nearest configuration.
"""

import hashlib
import json
import statistics
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path

import optuna
from optuna.distributions import BaseDistribution
from optuna.study import StudyDirection
from optuna.trial import FrozenTrial, TrialState
from scipy.stats import mannwhitneyu

from iotuner.measurement import Workload
from iotuner.search._common import SearchError, TrialOutcome, better
from iotuner.search._guide import ModelGuide
from iotuner.search._objectives import (
    Objective,
    OfflineObjective,
    RunObjective,
    trace_identity,
    workload_from_logs,
)
from iotuner.search._samplers import INTERRUPTED, distributions
from iotuner.search._strategies import Strategy, StrategyOptions, make_strategy
from iotuner.space import Configuration, Space, config_key
from iotuner.table import TableEntry, read_table, write_table
from iotuner.tracelog import read_tracelog
from iotuner.tune import Predictor

__all__ = [
    "Comparison",
    "OfflineSummary",
    "Remeasured",
    "SearchProgress",
    "SearchResult",
    "SearchSettings",
    "TrialRecord",
    "default_study_name",
    "merge_winner",
    "run_search",
    "storage_url",
    "winner_entry",
]

SIGNIFICANCE = 0.05
"""The p-value below which the best configuration counts as better than the default."""

MIN_IDLE_PROPOSALS = 100
"""A search ends after max(this, 3 x budget) proposals in a row that brought nothing new
(measured or vetoed already): enough for a converged GA to find new children by mutation,
finite for a space (or a veto) that has nothing left."""

_KIND = "iotuner:kind"  # "run": measured; "cached": answered from the cache; "vetoed"
_ATTRS = ("reason", "seconds", "logs", "returncode", "answered_by", "repeats")
_SIGNATURE = "iotuner:signature"
_ENQUEUED = "iotuner:enqueued"
_WORKLOAD = "iotuner:workload"


@dataclass(frozen=True)
class SearchSettings:
    """How to search. `budget` None: the strategy's default. `storage` None: in memory
    (nothing survives the process). `repeats` and `top`: the noise step (0 repeats: skip
    it). `stop_at_target`: offline, stop once a trial reaches `target_fraction` of the
    table's best (for benchmarks of the strategies)."""

    strategy: str = "ga"
    budget: int | None = None
    storage: str | None = None
    study: str | None = None
    seed: int | None = None
    parallel: int = 1
    repeats: int = 5
    top: int = 3
    target_fraction: float = 0.95
    stop_at_target: bool = False
    model_top_k: int = 5
    model_threshold: float = 0.5
    options: StrategyOptions = field(default_factory=StrategyOptions)

    def __post_init__(self) -> None:
        if self.budget is not None and self.budget < 1:
            raise SearchError(f"the budget must be an int >= 1, got {self.budget}")
        if self.parallel < 1:
            raise SearchError(f"--parallel must be an int >= 1, got {self.parallel}")
        if self.repeats < 0 or self.top < 1:
            raise SearchError(
                f"repeats must be >= 0 and top >= 1, got repeats={self.repeats} top={self.top}"
            )
        if not 0 < self.target_fraction <= 1:
            raise SearchError(f"the target fraction must be in (0, 1], got {self.target_fraction}")


@dataclass(frozen=True)
class TrialRecord:
    """One measured trial (not the cached duplicates nor the vetoed proposals)."""

    number: int
    config: Configuration
    outcome: TrialOutcome
    new: bool
    """Measured by this call of run_search (False: by an earlier, resumed one)."""

    @property
    def value(self) -> float | None:
        return self.outcome.value

    @property
    def failed(self) -> bool:
        return self.outcome.failed


@dataclass(frozen=True)
class SearchProgress:
    """Where a search stands, for a progress display."""

    done: int
    budget: int
    failed: int
    best: float | None
    best_config: str | None
    elapsed: float
    eta: float | None


@dataclass(frozen=True)
class Remeasured:
    """The re-measurements of one configuration in the noise step."""

    config: Configuration
    is_default: bool
    search_value: float | None
    values: list[float]
    failures: list[str]
    logs: list[Path]

    @property
    def median(self) -> float | None:
        return statistics.median(self.values) if self.values else None


@dataclass(frozen=True)
class Comparison:
    """The best re-measured configuration against the default."""

    best: Configuration
    p_value: float | None
    significant: bool
    message: str


@dataclass(frozen=True)
class OfflineSummary:
    """How an offline search did against the table it was answered from."""

    rows: int
    configurations: int
    repeated: int
    table_best: float
    table_best_config: Configuration
    target_fraction: float
    target: float
    trials_to_target: int | None
    nearest_answers: int


@dataclass
class SearchResult:
    """Everything a search found and did, for reports, the knowledge base and the table.

    `trials` are the measured trials of the whole study in order, each with its
    configuration, value or failure, and (running the program) its trace logs; the
    re-measurements of the noise step are in `remeasured`, with their logs too.
    """

    study: str
    storage: str | None
    strategy: str
    objective: str
    direction: str
    space: Space
    command: list[str] | None
    budget: int
    trials: list[TrialRecord]
    proposals: int
    duplicates: int
    vetoed: int
    recovered: int
    stopped: str
    notes: list[str] = field(default_factory=list)
    remeasured: list[Remeasured] = field(default_factory=list)
    comparison: Comparison | None = None
    winner: Configuration | None = None
    winner_reason: str = ""
    offline: OfflineSummary | None = None
    program: str | None = None
    nprocs: int | None = None
    workload: Workload | None = None

    @property
    def best(self) -> TrialRecord | None:
        """The measured trial with the best value (None when every trial failed)."""
        ok = [t for t in self.trials if t.value is not None]
        if not ok:
            return None
        best = ok[0]
        for t in ok[1:]:
            if better(t.value or 0.0, best.value or 0.0, self.direction):
                best = t
        return best


def storage_url(text: str) -> str:
    """An Optuna storage URL from a URL or a plain file path (taken as SQLite)."""
    return text if "://" in text else f"sqlite:///{text}"


def default_study_name(objective: Objective, strategy: str) -> str:
    """A study name that is the same for the same command (or table and filters),
    objective, space and strategy, so running the same search again resumes it."""
    signature = _signature(objective)
    digest = hashlib.sha256(json.dumps(signature, sort_keys=True).encode()).hexdigest()[:10]
    if isinstance(objective, RunObjective):
        what = f"{Path(_program_guess(objective.command)).name}-{objective.space.name}"
    else:
        what = objective.space.name.removeprefix("table:")
    return f"{what}-{strategy}-{digest}"


def _program_guess(command: Sequence[str]) -> str:
    """The program in a launcher command: the first argument after the launcher's options
    (an option's value is skipped when it is a number)."""
    launchers = {"mpiexec", "mpirun", "srun", "aprun", "mpiexec.hydra", "orterun"}
    args = list(command)
    if args and Path(args[0]).name in launchers:
        rest = args[1:]
        i = 0
        while i < len(rest):
            if rest[i].startswith("-"):
                i += 2 if i + 1 < len(rest) and rest[i + 1].isdigit() else 1
                continue
            return rest[i]
    return args[0] if args else "command"


def _signature(objective: Objective) -> dict[str, object]:
    space = objective.space
    signature: dict[str, object] = {
        "space": {p.name: [str(v) for v in p.values] for p in space.parameters},
        "objective": objective.description,
        "direction": objective.direction,
    }
    if isinstance(objective, RunObjective):
        signature["command"] = objective.command
    elif isinstance(objective, OfflineObjective):
        signature["table"] = str(objective.table.path.absolute())
        signature["filters"] = objective.table.filters
    return signature


class _Search:
    """The state of one call of run_search (see the module doc)."""

    def __init__(
        self,
        objective: Objective,
        settings: SearchSettings,
        study: optuna.Study,
        strategy: Strategy,
        on_progress: Callable[[SearchProgress], None] | None,
    ) -> None:
        self.objective = objective
        self.settings = settings
        self.study = study
        self.strategy = strategy
        self.on_progress = on_progress
        self.space = objective.space
        self.distributions: dict[str, BaseDistribution] = distributions(self.space)
        self.lock = threading.Lock()
        self.cache: dict[str, Future[TrialOutcome]] = {}
        self.records: dict[int, TrialRecord] = {}
        self.proposals = self.duplicates = self.vetoed = self.inflight = self.idle = 0
        self.stop = ""
        self.error: BaseException | None = None
        self.started = time.monotonic()
        self.target: float | None = None
        self.recovered = self._recover()
        self.budget = 0

    def _recover(self) -> int:
        """Mark trials left running by an earlier search interrupted; load what it measured."""
        recovered = 0
        for t in self.study.get_trials(deepcopy=False, states=(TrialState.RUNNING,)):
            # RATIONALE: the storage call sets an attribute on a trial this process did not
            # ask for; Study.tell alone cannot, and the mark keeps its value out of the cache.
            self.study._storage.set_trial_user_attr(t._trial_id, INTERRUPTED, True)
            self.study.tell(t.number, state=TrialState.FAIL)
            recovered += 1
        for t in self.study.get_trials(
            deepcopy=False, states=(TrialState.COMPLETE, TrialState.FAIL)
        ):
            if t.user_attrs.get(_KIND) == "run":
                record = _record_from_trial(t, self.space)
                self.records[t.number] = record
                future: Future[TrialOutcome] = Future()
                future.set_result(record.outcome)
                self.cache[config_key(record.config)] = future
        return recovered

    @property
    def measured(self) -> int:
        return len(self.records)

    def enqueue(self, configs: Sequence[Configuration]) -> None:
        """Put configurations first in the study's queue (once per study)."""
        if not configs or self.study.user_attrs.get(_ENQUEUED):
            return
        for config in configs:
            self.study.enqueue_trial(dict(config), skip_if_exists=True)
        self.study.set_user_attr(_ENQUEUED, True)

    def step(self) -> bool:
        """Ask, run (or answer) and tell one trial; False when the search is over."""
        with self.lock:
            if self.stop:
                return False
            if self.measured + self.inflight >= self.budget:
                self.stop = self.stop or "budget reached"
                return False
            if self.idle >= max(MIN_IDLE_PROPOSALS, 3 * self.budget):
                self.stop = (
                    f"the last {self.idle} proposals were all measured or vetoed already: "
                    "nothing new to try"
                )
                return False
            trial = self.study.ask(self.distributions)
            self.proposals += 1
            self.idle += 1
            config = self.space.validate(trial.params)
            key = config_key(config)
            veto = self.strategy.veto(config) if self.strategy.veto else None
            if veto is not None:
                trial.set_user_attr(_KIND, "vetoed")
                trial.set_user_attr("iotuner:reason", veto)
                self.study.tell(trial, state=TrialState.PRUNED)
                self.vetoed += 1
                return True
            future = self.cache.get(key)
            fresh = future is None
            if future is None:
                future = Future()
                self.cache[key] = future
                self.inflight += 1
                self.idle = 0
        if not fresh:
            outcome = future.result()
            with self.lock:
                trial.set_user_attr(_KIND, "cached")
                self._tell(trial, outcome)
                self.duplicates += 1
            return True
        try:
            outcome = self.objective.evaluate(config, str(trial.number))
        except BaseException as exc:
            with self.lock:
                del self.cache[key]
                self.inflight -= 1
                self.stop = self.stop or f"stopped: {type(exc).__name__}"
            future.set_exception(exc)
            raise
        with self.lock:
            trial.set_user_attr(_KIND, "run")
            for name in _ATTRS:
                value = getattr(outcome, name)
                if name == "logs":
                    value = [str(p) for p in value]
                trial.set_user_attr(f"iotuner:{name}", value)
            self._tell(trial, outcome)
            self.records[trial.number] = TrialRecord(trial.number, config, outcome, True)
            self.inflight -= 1
            future.set_result(outcome)
            if (
                self.target is not None
                and outcome.value is not None
                and not better(self.target, outcome.value, self.objective.direction)
            ):
                self.stop = "the target was reached"
            self._progress()
        return True

    def _tell(self, trial: optuna.Trial, outcome: TrialOutcome) -> None:
        if outcome.value is None:
            self.study.tell(trial, state=TrialState.FAIL)
        else:
            self.study.tell(trial, outcome.value)

    def _progress(self) -> None:
        if self.on_progress is None:
            return
        done = [r for r in self.records.values() if r.value is not None]
        best = None
        for r in done:
            if best is None or better(r.value or 0.0, best.value or 0.0, self.objective.direction):
                best = r
        new = sum(1 for r in self.records.values() if r.new)
        elapsed = time.monotonic() - self.started
        left = max(self.budget - self.measured, 0)
        eta = elapsed / new * left if new else None
        self.on_progress(
            SearchProgress(
                done=self.measured,
                budget=self.budget,
                failed=self.measured - len(done),
                best=best.value if best else None,
                best_config=config_key(best.config) if best else None,
                elapsed=elapsed,
                eta=eta,
            )
        )

    def run(self, slots: int) -> None:
        """Run trials until the budget, too many idle proposals or a stop; `slots` at once."""
        self._progress()
        if slots == 1:
            while self.step():
                pass
            return

        def worker() -> None:
            try:
                while self.step():
                    pass
            except BaseException as exc:
                with self.lock:
                    self.error = self.error or exc
                    self.stop = self.stop or f"stopped: {type(exc).__name__}"

        threads = [threading.Thread(target=worker, daemon=True) for _ in range(slots)]
        for thread in threads:
            thread.start()
        try:
            while any(thread.is_alive() for thread in threads):
                for thread in threads:
                    thread.join(0.2)
        except BaseException:
            with self.lock:
                self.stop = self.stop or "interrupted"
            raise
        if self.error is not None:
            raise self.error


def _record_from_trial(trial: FrozenTrial, space: Space) -> TrialRecord:
    attrs = trial.user_attrs
    outcome = TrialOutcome(
        value=trial.value if trial.state == TrialState.COMPLETE else None,
        reason=attrs.get("iotuner:reason") if trial.state != TrialState.COMPLETE else None,
        seconds=float(attrs.get("iotuner:seconds", 0.0)),
        logs=tuple(Path(p) for p in attrs.get("iotuner:logs", [])),
        returncode=attrs.get("iotuner:returncode"),
        answered_by=attrs.get("iotuner:answered_by"),
        repeats=int(attrs.get("iotuner:repeats", 1)),
    )
    if outcome.value is None and outcome.reason is None:
        outcome = TrialOutcome(None, "failed (no reason recorded)", outcome.seconds, outcome.logs)
    return TrialRecord(trial.number, space.validate(trial.params), outcome, False)


def _check_signature(study: optuna.Study, objective: Objective, name: str) -> None:
    signature = _signature(objective)
    stored = study.user_attrs.get(_SIGNATURE)
    if stored is None:
        if study.trials:
            raise SearchError(f"the study {name!r} exists but was not made by iotuner search")
        study.set_user_attr(_SIGNATURE, signature)
    elif stored != signature:
        differs = sorted(
            k for k in set(stored) | set(signature) if stored.get(k) != signature.get(k)
        )
        raise SearchError(
            f"the study {name!r} in this storage was made for another search (its "
            f"{', '.join(differs)} differ); give another --study name or storage"
        )


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
    its predictions are for. Without a workload, a RunObjective's first trial is the
    default configuration and the workload is read from its trace; an OfflineObjective
    needs one. Optuna's own log lines (one per trial) are silenced meanwhile: the result and
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
    candidates = objective.candidates()
    name = settings.study or default_study_name(objective, settings.strategy)
    notes: list[str] = []
    strategy = make_strategy(
        settings.strategy,
        objective.space,
        seed=settings.seed,
        candidates=candidates,
        options=settings.options,
    )
    try:
        study = optuna.create_study(
            storage=settings.storage,
            study_name=name,
            direction=(
                StudyDirection.MAXIMIZE
                if objective.direction == "maximize"
                else StudyDirection.MINIMIZE
            ),
            sampler=strategy.sampler,
            load_if_exists=True,
        )
    except (ValueError, ImportError, RuntimeError) as exc:
        raise SearchError(f"cannot open the study {name!r} in {settings.storage}: {exc}") from None
    if study.direction.name.lower() != objective.direction:
        raise SearchError(
            f"the study {name!r} was made to {study.direction.name.lower()}, this search "
            f"would {objective.direction}; give another --study name"
        )
    _check_signature(study, objective, name)
    search = _Search(objective, settings, study, strategy, on_progress)
    launcher_slots = (
        objective.launcher.slots(settings.parallel) if isinstance(objective, RunObjective) else 1
    )
    if launcher_slots < settings.parallel:
        why = "the launcher's limit" if isinstance(objective, RunObjective) else "nothing runs"
        notes.append(f"{launcher_slots} trial(s) at once ({why}), not {settings.parallel}")

    if settings.strategy == "model" and predictor is not None:
        workload = workload or _stored_workload(study)
        if workload is None:
            workload = _probe_workload(search, objective)
            notes.append(f"workload read from the trace of the default configuration: {workload}")
        study.set_user_attr(_WORKLOAD, _workload_dict(workload))
        guide = ModelGuide(
            predictor,
            workload,
            objective.space,
            candidates,
            top_k=settings.model_top_k,
            threshold=settings.model_threshold,
        )
        strategy = make_strategy(
            "model",
            objective.space,
            seed=settings.seed,
            candidates=candidates,
            options=settings.options,
            guide=guide,
        )
        study.sampler = strategy.sampler
        search.strategy = strategy
    notes.extend(strategy.notes)
    proposable = (
        len(candidates)
        if candidates is not None and _chooses_from_list(settings.strategy)
        else objective.space.size
    )
    search.budget = min(settings.budget or strategy.default_budget, proposable)
    offline_table = objective.table if isinstance(objective, OfflineObjective) else None
    if offline_table is not None and settings.stop_at_target:
        search.target = _target(
            offline_table.best(objective.direction).value or 0.0,
            settings.target_fraction,
            objective.direction,
        )
    search.enqueue(strategy.first)
    search.run(launcher_slots)

    trials = [search.records[n] for n in sorted(search.records)]
    result = SearchResult(
        study=name,
        storage=settings.storage,
        strategy=settings.strategy,
        objective=objective.description,
        direction=objective.direction,
        space=objective.space,
        command=objective.command if isinstance(objective, RunObjective) else None,
        budget=search.budget,
        trials=trials,
        proposals=search.proposals,
        duplicates=search.duplicates,
        vetoed=search.vetoed,
        recovered=search.recovered,
        stopped=search.stop or "budget reached",
        notes=notes,
        workload=workload,
    )
    if isinstance(objective, RunObjective):
        result.program, result.nprocs = trace_identity(
            [p for t in trials if not t.failed for p in t.outcome.logs]
        )
        _noise_step(objective, settings, result)
    elif isinstance(objective, OfflineObjective):
        result.offline = _offline_summary(objective, settings, trials)
        best = result.best
        result.winner = best.config if best else None
        result.winner_reason = "the best configuration the search measured (offline)"
    return result


def _chooses_from_list(strategy: str) -> bool:
    """Whether the strategy proposes only from its list of candidates."""
    return strategy in ("random", "grid", "gp")


def _target(best: float, fraction: float, direction: str) -> float:
    return best * fraction if direction == "maximize" else best / fraction


def _stored_workload(study: optuna.Study) -> Workload | None:
    data = study.user_attrs.get(_WORKLOAD)
    return Workload(**data) if isinstance(data, dict) else None


def _workload_dict(workload: Workload) -> dict[str, object]:
    return {
        "nprocs": workload.nprocs,
        "nodes": workload.nodes,
        "pattern": workload.pattern,
        "op": workload.op,
        "layout": workload.layout,
        "bytes_per_rank": workload.bytes_per_rank,
        "block": workload.block,
        "fill": workload.fill,
    }


def _probe_workload(search: _Search, objective: Objective) -> Workload:
    """Measure the default configuration as the first trial and read the workload from
    its trace (the model strategy without a given workload)."""
    if not isinstance(objective, RunObjective):
        raise SearchError(
            "the model strategy needs the workload its predictions are for "
            "(--workload nprocs=..,pattern=..,op=..,layout=..,size=..) with an offline table"
        )
    default = objective.space.default()
    key = config_key(default)
    if key not in search.cache:
        search.study.enqueue_trial(dict(default))
        search.budget = search.measured + 1
        search.step()
        search.stop = ""
    outcome = search.cache[key].result()
    if outcome.failed or not outcome.logs:
        raise SearchError(
            f"the default configuration's run gave no trace to read the workload from "
            f"({outcome.reason or 'no trace log'}); give it with --workload"
        )
    return workload_from_logs([read_tracelog(p) for p in outcome.logs])


def _offline_summary(
    objective: OfflineObjective, settings: SearchSettings, trials: list[TrialRecord]
) -> OfflineSummary:
    table = objective.table
    best = table.best(objective.direction)
    table_best = best.value or 0.0
    target = _target(table_best, settings.target_fraction, objective.direction)
    reached = next(
        (
            i
            for i, t in enumerate(trials, start=1)
            if t.value is not None and not better(target, t.value, objective.direction)
        ),
        None,
    )
    return OfflineSummary(
        rows=table.rows,
        configurations=len(table.measured),
        repeated=table.repeated,
        table_best=table_best,
        table_best_config=best.config,
        target_fraction=settings.target_fraction,
        target=target,
        trials_to_target=reached,
        nearest_answers=sum(1 for t in trials if t.outcome.answered_by is not None),
    )


def _noise_step(objective: RunObjective, settings: SearchSettings, result: SearchResult) -> None:
    """Re-measure the top configurations and the default; compare; choose the winner."""
    ranked = sorted(
        (t for t in result.trials if t.value is not None),
        key=lambda t: -(t.value or 0.0) if objective.direction == "maximize" else (t.value or 0.0),
    )
    if not ranked:
        result.winner_reason = "every trial failed: no winner"
        return
    if settings.repeats == 0:
        result.winner = ranked[0].config
        result.winner_reason = "the best trial (not re-measured: repeats 0)"
        return
    default = objective.space.default()
    chosen: list[tuple[Configuration, float | None]] = [
        (t.config, t.value) for t in ranked[: settings.top]
    ]
    searched = {config_key(t.config): t.value for t in result.trials}
    if all(config_key(c) != config_key(default) for c, _ in chosen):
        chosen.insert(0, (default, searched.get(config_key(default))))
    values: list[list[float]] = [[] for _ in chosen]
    failures: list[list[str]] = [[] for _ in chosen]
    logs: list[list[Path]] = [[] for _ in chosen]
    for repeat in range(settings.repeats):
        for index, (config, _) in enumerate(chosen):
            outcome = objective.evaluate(config, f"remeasure-{index}-{repeat}")
            logs[index].extend(outcome.logs)
            if outcome.value is None:
                failures[index].append(outcome.reason or "failed")
            else:
                values[index].append(outcome.value)
    result.remeasured = [
        Remeasured(
            config=config,
            is_default=config_key(config) == config_key(default),
            search_value=value,
            values=values[i],
            failures=failures[i],
            logs=logs[i],
        )
        for i, (config, value) in enumerate(chosen)
    ]
    result.comparison = _compare(result.remeasured, objective.direction, settings.repeats)
    if result.comparison is not None and result.comparison.significant:
        result.winner = result.comparison.best
        result.winner_reason = result.comparison.message
    else:
        result.winner = default
        result.winner_reason = (
            result.comparison.message if result.comparison else "nothing re-measured"
        ) + "; the default is kept"


def _compare(remeasured: list[Remeasured], direction: str, repeats: int) -> Comparison | None:
    """The best re-measured configuration against the default (one-sided Mann-Whitney U)."""
    default = next((r for r in remeasured if r.is_default), None)
    ok = [r for r in remeasured if r.values]
    if default is None or not ok:
        return None
    sign = 1.0 if direction == "maximize" else -1.0
    best = max(ok, key=lambda r: sign * (r.median or 0.0))
    if best.is_default:
        return Comparison(
            best.config, None, False, "the default is the best configuration re-measured"
        )
    if not default.values:
        return Comparison(best.config, None, False, "every re-measurement of the default failed")
    alternative = "greater" if direction == "maximize" else "less"
    p = float(mannwhitneyu(best.values, default.values, alternative=alternative).pvalue)
    ratio = (best.median or 0.0) / (default.median or 1.0)
    gain = f"median {ratio:.2f}x the default's"
    if p < SIGNIFICANCE:
        message = (
            f"the best ({config_key(best.config)}) is significantly "
            f"{'better' if direction == 'maximize' else 'lower'} than the default: {gain}, "
            f"one-sided Mann-Whitney U p = {p:.3g}"
        )
        return Comparison(best.config, p, True, message)
    message = (
        f"the best ({config_key(best.config)}) is NOT significantly better than the "
        f"default: {gain}, p = {p:.3g} (needs < {SIGNIFICANCE})"
    )
    if len(best.values) < 4 or len(default.values) < 4:
        message += (
            "; with fewer than 4 measurements of each the test cannot reach "
            f"p < {SIGNIFICANCE}: use --repeats 4 or more"
        )
    return Comparison(best.config, p, False, message)


def winner_entry(result: SearchResult, program: str, nprocs: int) -> TableEntry:
    """The tuning-table entry for the search's winner: its hints at open for this program
    (its file name) and scale. A table cannot set application parameters: the note names
    the winner's, for the user to set."""
    if result.winner is None:
        raise SearchError("the search has no winner (every trial failed)")
    note = (
        f"iotuner search ({result.strategy}, {len(result.trials)} trials): {result.winner_reason}"
    )
    app = result.space.app_values(result.winner)
    if app:
        shown = ", ".join(f"{name}={value}" for name, value in app.items())
        note += f"; application parameters (set them yourself): {shown}"
    return TableEntry(
        at="open",
        program=Path(program).name,
        nprocs=nprocs,
        hints=dict(result.space.hints(result.winner)),
        note=note,
    )


def merge_winner(path: Path | str, entry: TableEntry) -> None:
    """Put `entry` into the tuning table at `path` (created when missing), replacing an
    entry for the same decision point, program, file and scale in its place."""
    path = Path(path)
    entries = read_table(path) if path.exists() else []
    same = [
        i
        for i, e in enumerate(entries)
        if (e.at, e.program, e.nprocs, e.file, e.group, e.pattern, e.op, e.layout)
        == (
            entry.at,
            entry.program,
            entry.nprocs,
            entry.file,
            entry.group,
            entry.pattern,
            entry.op,
            entry.layout,
        )
    ]
    if same:
        entries[same[0]] = entry
        entries = [e for i, e in enumerate(entries) if i not in same[1:]]
    else:
        entries.append(entry)
    write_table(path, entries)
