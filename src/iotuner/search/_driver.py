"""The search loop: ask Optuna for a configuration, measure it, tell Optuna the value.

* **Storage and resume.** The study lives in Optuna's storage (an RDB URL such as
  `sqlite:///iotuner-search.db`, or in memory). Run the same search again (same study
  name) and it goes on where it stopped: trials already measured are not run again, a
  trial that was running when the search stopped is marked interrupted and may be
  proposed again, and the budget counts every measured trial of the study, old and new.
* **The budget counts runs.** A configuration is measured at most once per search. When
  a sampler proposes one already measured (or being measured by a parallel trial), the
  study is told the known value and the trial does not use up the budget; a candidate the
  model strategy skips (predicted poor) is not run, is reported as skipped with the
  reason, and does not use up the budget either. A search whose sampler makes 3 x the
  budget (at least 100) proposals in a row without anything new ends there.
* **What the program does.** Before the first trial the search reads the program's data
  accesses (collective or independent, reads or writes) from a trace the user gives, or
  from one traced run of the default configuration (with the bandwidth objective that run
  is the first trial; otherwise it is an extra run, not a trial, since a traced run is
  not what the program does untraced). Hint parameters that act on none of those
  accesses (hints.def's `ops`) are fixed at their defaults and not searched (_relevance);
  the result says which and why. The accesses are kept in the study, so a resumed search
  fixes the same parameters without that run.
* **Parallel trials.** With `parallel` > 1, that many threads each ask, run and tell;
  asking and telling are serialised, only the runs overlap.
* **The verdict.** When the objective runs the program, the `top` best configurations
  found (other than the default) and the default are re-measured at the end, `repeats`
  (at least 3) times each, one at a time, interleaved: default, best, default, best, ...
  with the order reversed every other round, so a drift of the machine (page cache,
  other jobs) falls on both alike. The candidate with the best re-measured median is
  compared with the default by the exact one-sided Mann-Whitney U test (a rank test),
  at level 0.05 divided by the number of candidates re-measured (Bonferroni: the best of
  several is chosen from the same measurements). It wins only when p <= that level and
  its median is better; otherwise the default is kept. The result gives every
  configuration's median, min, max and spread, the ratio of the medians and the p-value.

  RATIONALE: a rank test, not a threshold on one ratio: the noise of a run is not known
  in advance and differs between programs and machines (one re-measure of the default
  gave 1.10x and, minutes later, 2.91x for the same program), so the test judges the
  winner against the spread of the default's own re-measures, without assuming a
  distribution. Exact, so that three of each can decide at all: with 3 and 3 the
  smallest p is 1/20 = 0.05, which is reached only when every re-measure of the winner
  beats every re-measure of the default (winner's worst better than the default's best);
  with more repeats some overlap is tolerated.
* **Offline.** With an OfflineObjective the result also says how many trials reached a
  fraction of the table's best and how many were answered by a nearest configuration.
"""

import hashlib
import itertools
import json
import math
import statistics
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path

import optuna
from optuna.distributions import BaseDistribution
from optuna.samplers import RandomSampler
from optuna.study import StudyDirection
from optuna.trial import FrozenTrial, TrialState
from scipy.stats import mannwhitneyu

from iotuner.errors import TraceLogError
from iotuner.formats import HINT_OPS, hint_vocabulary
from iotuner.measurement import Workload
from iotuner.search._common import SearchError, TrialOutcome, better
from iotuner.search._guide import MAX_ENUMERATED, ModelGuide
from iotuner.search._objectives import (
    Objective,
    OfflineObjective,
    RunObjective,
    trace_identity,
    workload_from_logs,
)
from iotuner.search._relevance import Relevance, accesses_from_logs, relevance
from iotuner.search._samplers import INTERRUPTED, distributions
from iotuner.search._strategies import Strategy, StrategyOptions, make_strategy
from iotuner.space import Configuration, Space, config_key
from iotuner.table import TableEntry, read_table, write_table
from iotuner.tracelog import TraceLog, read_tracelog
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
"""The level of the verdict's rank test (divided by the number of candidates re-measured)."""

MIN_REPEATS = 3
"""Fewest re-measures of the default and of each candidate for a verdict: below 3 and 3
the exact rank test cannot reach p <= 0.05 however far apart they are."""

EXACT_UP_TO = 50
"""Re-measures of both together up to which the rank test's p-value is exact (beyond, the
normal approximation, which is close there and cheaper)."""

MIN_IDLE_PROPOSALS = 100
"""A search ends after max(this, 3 x budget) proposals in a row that brought nothing new
(measured or vetoed already): enough for a converged GA to find new children by mutation,
finite for a space (or a veto) that has nothing left."""

_KIND = "iotuner:kind"  # "run": measured; "cached": answered from the cache; "vetoed"
_ATTRS = ("reason", "seconds", "logs", "returncode", "answered_by", "repeats")
_SIGNATURE = "iotuner:signature"
_ENQUEUED = "iotuner:enqueued"
_WORKLOAD = "iotuner:workload"
_ACCESSES = "iotuner:accesses"
_IDENTITY = "iotuner:identity"


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
    storage: str | None = None
    study: str | None = None
    seed: int | None = None
    parallel: int = 1
    repeats: int = 5
    top: int = 1
    target_fraction: float = 0.95
    stop_at_target: bool = False
    model_top_k: int = 5
    model_threshold: float = 0.5
    options: StrategyOptions = field(default_factory=StrategyOptions)
    trace: tuple[Path, ...] = ()
    all_parameters: bool = False

    def __post_init__(self) -> None:
        if self.budget is not None and self.budget < 1:
            raise SearchError(f"the budget must be an int >= 1, got {self.budget}")
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

    @property
    def spread(self) -> float | None:
        """(max - min) / median of the re-measures: the noise, as a fraction."""
        median = self.median
        if not self.values or not median:
            return None
        return (max(self.values) - min(self.values)) / abs(median)


@dataclass(frozen=True)
class Comparison:
    """The best re-measured configuration against the default: the medians, the rank
    test's p-value and the level it had to reach (None when there was nothing to test)."""

    best: Configuration
    p_value: float | None
    significant: bool
    message: str
    level: float | None = None
    ratio: float | None = None


@dataclass(frozen=True)
class Skipped:
    """A candidate the strategy skipped without running it (the model predicted it poor)."""

    config: Configuration
    reason: str


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
    fixed: dict[str, str] = field(default_factory=dict)
    """Parameters fixed at their defaults because no access of the program reaches them."""
    searched_size: int | None = None
    """Configurations left to search once the fixed parameters are taken out."""
    relevance_note: str = ""
    probe_logs: list[Path] = field(default_factory=list)
    """Trace logs of the traced run of the default made only to read the accesses (not a
    trial; empty when that run was the first trial, or none was needed)."""
    skipped: list[Skipped] = field(default_factory=list)
    trial_mode: str | None = None
    """The interposer's mode of the trials and re-measures (run objectives)."""

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
        self.skipped: list[Skipped] = []
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

    def narrow(self, searched: Space) -> None:
        """Propose only the parameters of `searched`; the others keep their defaults.

        RATIONALE: fixed parameters are left out of Optuna's distributions rather than
        given one value: Optuna refuses a parameter whose choices change within a study,
        and space.validate() completes every proposal with the defaults."""
        self.distributions = distributions(searched)

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
            searched = {k: v for k, v in config.items() if k in self.distributions}
            self.study.enqueue_trial(searched, skip_if_exists=True)
        self.study.set_user_attr(_ENQUEUED, True)

    def record(self, config: Configuration, outcome: TrialOutcome) -> None:
        """Keep a run made outside the loop (the traced run of the default, with the
        bandwidth objective) as a measured trial of the study."""
        key = config_key(config)
        if key in self.cache:
            return
        with self.lock:
            self.study.enqueue_trial({k: v for k, v in config.items() if k in self.distributions})
            trial = self.study.ask(self.distributions)
            self.proposals += 1
            future: Future[TrialOutcome] = Future()
            future.set_result(outcome)
            self.cache[key] = future
            self._finish(trial, config, outcome)

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
                # Not run, so not a trial: it uses no budget, and the result lists it.
                trial.set_user_attr(_KIND, "vetoed")
                trial.set_user_attr("iotuner:reason", veto)
                self.study.tell(trial, state=TrialState.PRUNED)
                self.vetoed += 1
                if all(config_key(s.config) != key for s in self.skipped):
                    self.skipped.append(Skipped(config, veto))
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
            self.inflight -= 1
            future.set_result(outcome)
            self._finish(trial, config, outcome)
        return True

    def _finish(self, trial: optuna.Trial, config: Configuration, outcome: TrialOutcome) -> None:
        """Tell the study a run's outcome and keep it (the lock is held)."""
        trial.set_user_attr(_KIND, "run")
        for name in _ATTRS:
            value = getattr(outcome, name)
            if name == "logs":
                value = [str(p) for p in value]
            trial.set_user_attr(f"iotuner:{name}", value)
        self._tell(trial, outcome)
        self.records[trial.number] = TrialRecord(trial.number, config, outcome, True)
        if (
            self.target is not None
            and outcome.value is not None
            and not better(self.target, outcome.value, self.objective.direction)
        ):
            self.stop = "the target was reached"
        self._progress()

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
    try:
        study = optuna.create_study(
            storage=settings.storage,
            study_name=name,
            direction=(
                StudyDirection.MAXIMIZE
                if objective.direction == "maximize"
                else StudyDirection.MINIMIZE
            ),
            # The strategy's sampler replaces it once the parameters to search are known.
            sampler=RandomSampler(seed=settings.seed),
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
    search = _Search(objective, settings, study, Strategy("none", study.sampler, 0), on_progress)
    launcher_slots = (
        objective.launcher.slots(settings.parallel) if isinstance(objective, RunObjective) else 1
    )
    if launcher_slots < settings.parallel:
        why = "the launcher's limit" if isinstance(objective, RunObjective) else "nothing runs"
        notes.append(f"{launcher_slots} trial(s) at once ({why}), not {settings.parallel}")

    use_model = settings.strategy == "model" and predictor is not None
    workload = workload or (_stored_workload(study) if use_model else None)
    program = _Program()
    if isinstance(objective, RunObjective):
        program = _read_program(search, objective, settings, use_model and workload is None)
    chosen = (
        relevance(
            objective.space,
            program.accesses,
            enabled=not settings.all_parameters,
            source=program.source,
        )
        if isinstance(objective, RunObjective)
        else Relevance(objective.space)
    )
    search.narrow(chosen.searched)

    guide = None
    if use_model:
        assert predictor is not None
        if workload is None:
            workload = _workload_from(program)
            notes.append(f"workload read from the trace of the default configuration: {workload}")
        study.set_user_attr(_WORKLOAD, _workload_dict(workload))
        ranked = candidates
        if ranked is None and chosen.fixed and chosen.searched.size <= MAX_ENUMERATED:
            ranked = [objective.space.validate(c) for c in chosen.searched.configurations()]
        guide = ModelGuide(
            predictor,
            workload,
            objective.space,
            ranked,
            top_k=settings.model_top_k,
            threshold=settings.model_threshold,
        )
    strategy = make_strategy(
        settings.strategy,
        chosen.searched,
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
        else chosen.searched.size
    )
    search.budget = min(settings.budget or strategy.default_budget, proposable)
    if program.trial is not None:
        search.record(objective.space.default(), program.trial)
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
        fixed=dict(chosen.fixed),
        searched_size=chosen.searched.size,
        relevance_note=chosen.note,
        probe_logs=list(program.extra_logs),
        skipped=list(search.skipped),
    )
    if isinstance(objective, RunObjective):
        result.trial_mode = objective.mode()
        result.program, result.nprocs = _identity(
            [p for t in trials if not t.failed for p in t.outcome.logs], study
        )
        _noise_step(objective, settings, result)
    elif isinstance(objective, OfflineObjective):
        result.offline = _offline_summary(objective, settings, trials)
        best = result.best
        result.winner = best.config if best else None
        result.winner_reason = "the best configuration the search measured (offline)"
    return result


@dataclass
class _Program:
    """What the search knows of what the program does, and from where.

    `accesses` None: unknown. `logs` the traces read; `trial` the traced run of the
    default when it is also a trial (bandwidth objective), to be recorded once the
    parameters to search are known; `extra_logs` that run's logs when it is not a trial."""

    accesses: frozenset[tuple[str, str]] | None = None
    source: str = ""
    logs: list[TraceLog] = field(default_factory=list)
    trial: TrialOutcome | None = None
    extra_logs: list[Path] = field(default_factory=list)
    failure: str | None = None


def _read_program(
    search: _Search, objective: RunObjective, settings: SearchSettings, need_workload: bool
) -> _Program:
    """The program's accesses: from the given trace, the study (a resumed search), the
    default's trial of a resumed search, or one traced run of the default (module doc).

    The run is made only when its answer can change the search: some parameter might be
    fixed, or the model strategy needs the workload."""
    study = search.study
    if settings.trace:
        logs = []
        for path in settings.trace:
            try:
                logs.append(read_tracelog(path))
            except TraceLogError as exc:
                raise SearchError(f"cannot read the trace {path}: {exc}") from None
        return _remember(study, _Program(accesses_from_logs(logs), "from the given trace", logs))
    stored = study.user_attrs.get(_ACCESSES)
    if isinstance(stored, list) and not need_workload:
        kept = frozenset((str(a[0]), str(a[1])) for a in stored)
        return _Program(kept, "read when this study began")
    if not (need_workload or _could_fix(objective.space, settings)):
        return _Program()
    default = objective.space.default()
    known = search.cache.get(config_key(default))
    trial: TrialOutcome | None = None
    extra: list[Path] = []
    if known is not None and known.result().logs:
        outcome = known.result()  # a resumed search measured the default, traced
    else:
        # As a trial it is the study's next trial (recorded once the parameters to search
        # are known, before any other is asked); otherwise it has a label of its own.
        label = str(len(study.trials)) if objective.traced else "default-traced"
        outcome = objective.evaluate(default, label, trace=True)
        if objective.traced:
            trial = outcome  # the same run a trial would be: it is one
        else:
            extra = list(outcome.logs)
    logs = []
    for path in outcome.logs:
        try:
            logs.append(read_tracelog(path))
        except TraceLogError:
            continue
    source = "from a traced run of the default" + ("" if objective.traced else ", not a trial")
    failure = None
    accesses: frozenset[tuple[str, str]] | None = accesses_from_logs(logs) if logs else None
    if outcome.failed or not logs:
        failure = outcome.reason or "no trace log"
        source = f"the traced run of the default gave no trace ({failure})"
        accesses = None
    program = _Program(accesses, source, logs, trial, extra, failure)
    return _remember(study, program) if accesses is not None else program


def _remember(study: optuna.Study, program: _Program) -> _Program:
    """Keep the accesses and the program's name and scale in the study, for a resume."""
    if program.accesses is not None:
        study.set_user_attr(_ACCESSES, sorted([list(a) for a in program.accesses]))
    if program.logs:
        job = program.logs[0].job
        study.set_user_attr(_IDENTITY, [str(job["program"]), int(job["nprocs"])])
    return program


def _could_fix(space: Space, settings: SearchSettings) -> bool:
    """Whether some parameter could be fixed for some program (else no run is needed)."""
    if settings.all_parameters or any(p.kind == "app" for p in space.parameters):
        return False
    vocabulary = hint_vocabulary()
    return any(
        p.kind == "hint" and p.name in vocabulary and len(vocabulary[p.name].ops) < len(HINT_OPS)
        for p in space.parameters
        if len(p.values) > 1
    )


def _workload_from(program: _Program) -> Workload:
    """The workload of the model strategy, from the program's trace."""
    if not program.logs or program.failure is not None:
        why = f" ({program.failure})" if program.failure else ""
        raise SearchError(
            f"the default configuration's run gave no trace to read the workload from{why}; "
            "give it with --workload"
        )
    return workload_from_logs(program.logs)


def _identity(logs: Sequence[Path], study: optuna.Study) -> tuple[str | None, int | None]:
    """The program's name and number of ranks: from a trial's trace, else the study's."""
    program, nprocs = trace_identity(logs)
    if program is None:
        stored = study.user_attrs.get(_IDENTITY)
        if isinstance(stored, list) and len(stored) == 2:
            return str(stored[0]), int(stored[1])
    return program, nprocs


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
    """Re-measure the default and the best candidates, interleaved; judge; choose the winner
    (the module doc's "The verdict")."""
    ranked = sorted(
        (t for t in result.trials if t.value is not None),
        key=lambda t: -(t.value or 0.0) if objective.direction == "maximize" else (t.value or 0.0),
    )
    if not ranked:
        result.winner_reason = "every trial failed: no winner"
        return
    if settings.repeats == 0:
        result.winner = ranked[0].config
        result.winner_reason = "the best trial (not re-measured: repeats 0, no verdict)"
        return
    default = objective.space.default()
    others = [t for t in ranked if config_key(t.config) != config_key(default)]
    if not others:
        result.winner = default
        result.winner_reason = "only the default was measured: the default is kept"
        return
    searched = {config_key(t.config): t.value for t in result.trials}
    chosen: list[tuple[Configuration, float | None]] = [
        (default, searched.get(config_key(default)))
    ] + [(t.config, t.value) for t in others[: settings.top]]
    values: list[list[float]] = [[] for _ in chosen]
    failures: list[list[str]] = [[] for _ in chosen]
    logs: list[list[Path]] = [[] for _ in chosen]
    for repeat in range(settings.repeats):
        # Reversed every other round (default, best, best, default, ...): a drift of the
        # machine over the rounds then weighs on the default and the candidates alike.
        order = range(len(chosen)) if repeat % 2 == 0 else reversed(range(len(chosen)))
        for index in order:
            outcome = objective.evaluate(chosen[index][0], f"remeasure-{index}-{repeat}")
            logs[index].extend(outcome.logs)
            if outcome.value is None:
                failures[index].append(outcome.reason or "failed")
            else:
                values[index].append(outcome.value)
    result.remeasured = [
        Remeasured(
            config=config,
            is_default=i == 0,
            search_value=value,
            values=values[i],
            failures=failures[i],
            logs=logs[i],
        )
        for i, (config, value) in enumerate(chosen)
    ]
    result.comparison = _compare(result.remeasured, objective.direction)
    if result.comparison is not None and result.comparison.significant:
        result.winner = result.comparison.best
        result.winner_reason = result.comparison.message
    else:
        result.winner = default
        result.winner_reason = (
            result.comparison.message if result.comparison else "nothing re-measured"
        ) + "; the default is kept"


def _range(r: Remeasured) -> str:
    if not r.values:
        return "no value"
    spread = f", spread {r.spread:.0%}" if r.spread is not None else ""
    return (
        f"median {r.median:.4g} (min {min(r.values):.4g}, max {max(r.values):.4g}, "
        f"n {len(r.values)}{spread})"
    )


def rank_test(
    better_values: Sequence[float], worse_values: Sequence[float], direction: str
) -> float:
    """One-sided p-value that the first sample is better than the second in `direction`
    (Mann-Whitney U; exact up to EXACT_UP_TO values together)."""
    exact = len(better_values) + len(worse_values) <= EXACT_UP_TO
    return float(
        mannwhitneyu(
            better_values,
            worse_values,
            alternative="greater" if direction == "maximize" else "less",
            method="exact" if exact else "asymptotic",
        ).pvalue
    )


def _compare(remeasured: list[Remeasured], direction: str) -> Comparison | None:
    """The candidate with the best re-measured median against the default (module doc)."""
    default = next((r for r in remeasured if r.is_default), None)
    candidates = [r for r in remeasured if not r.is_default]
    ok = [r for r in candidates if r.values]
    if default is None or not ok:
        return None
    sign = 1.0 if direction == "maximize" else -1.0
    best = max(ok, key=lambda r: sign * (r.median or 0.0))
    label = config_key(best.config)
    if len(default.values) < MIN_REPEATS or len(best.values) < MIN_REPEATS:
        return Comparison(
            best.config,
            None,
            False,
            f"too few successful re-measures to judge (default {len(default.values)}, "
            f"{label} {len(best.values)}; the verdict needs {MIN_REPEATS} of each)",
        )
    level = SIGNIFICANCE / len(candidates)
    p = rank_test(best.values, default.values, direction)
    ratio = (best.median or 0.0) / default.median if default.median else None
    gain = (
        f"{ratio:.2f}x the default's median" if ratio is not None else "the default's median is 0"
    )
    figures = f"{label}: {_range(best)}; default: {_range(default)}"
    test = f"one-sided exact Mann-Whitney U p = {p:.3g}, needs <= {level:.3g}"
    if len(candidates) > 1:
        test += f" (0.05 / {len(candidates)} candidates)"
    ahead = sign * ((best.median or 0.0) - (default.median or 0.0)) > 0
    if p <= level and ahead:
        word = "better" if direction == "maximize" else "lower"
        message = f"the winner is significantly {word} than the default: {gain}; {figures}; {test}"
        return Comparison(best.config, p, True, message, level, ratio)
    message = (
        f"the best candidate is NOT better than the default beyond the noise: {gain}; "
        f"{figures}; {test}"
    )
    if len(best.values) == MIN_REPEATS == len(default.values):
        message += (
            f"; with {MIN_REPEATS} of each only complete separation passes: more --repeats "
            "tolerate some overlap"
        )
    return Comparison(best.config, p, False, message, level, ratio)


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
