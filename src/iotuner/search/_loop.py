"""The search loop: ask Optuna for a configuration, measure it, tell Optuna the value.

Each rule of the loop stands beside its code: the budget counts runs (SearchLoop.step),
only what the objective measures is a trial (_replace), parallel trials (run), resume
(SearchLoop) and many workers sharing one study (_sync).
"""

import dataclasses
import threading
import time
import warnings
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from typing import Literal

import optuna
from optuna.distributions import BaseDistribution
from optuna.trial import TrialState

from iotuner.search._batch import core_budget_stop
from iotuner.search._common import TrialOutcome, better
from iotuner.search._objectives import Objective
from iotuner.search._result import SearchProgress, Skipped, TrialRecord, best_trial
from iotuner.search._samplers import INTERRUPTED, distributions
from iotuner.search._strategies import Strategy
from iotuner.search._study import (
    ABANDONED,
    ENQUEUED,
    KIND,
    fail_stale,
    first_beat,
    heartbeat,
    mark_interrupted,
    measured_trials,
    outcome_attrs,
    record_from_trial,
)
from iotuner.space import Configuration, Space, config_key

__all__ = ["MIN_IDLE_PROPOSALS", "SearchLoop"]

MIN_IDLE_PROPOSALS = 100
"""A search ends after max(this, 3 x budget) proposals in a row that brought nothing new
(measured or vetoed already): enough for a converged GA to find new children by mutation,
finite for a space (or a veto) that has nothing left."""
WAIT_SECONDS = 1.0
"""How often a worker waiting for other workers' trials reads the study again."""


class SearchLoop:
    """The state of one call of run_search: the study, what was measured, what runs.

    Made with the study's earlier trials loaded and its interrupted ones marked; the
    driver then sets `strategy`, `budget` and `target` and calls run().

    **Resume.** The trials an earlier search of the study measured are loaded first
    (_study), so a configuration is not measured again.
    """

    def __init__(
        self,
        objective: Objective,
        study: optuna.Study,
        strategy: Strategy,
        on_progress: Callable[[SearchProgress], None] | None,
    ) -> None:
        self.objective = objective
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
        self.replaced = 0
        self.stand_ins: set[str] = set()
        """The configurations queued in place of proposals the objective does not measure,
        not asked yet."""
        self.stop = ""
        self.error: BaseException | None = None
        self.started = time.monotonic()
        self.target: float | None = None
        self.budget = 0
        self.max_proposals: int | None = None
        self.core_hours: float | None = None
        """The budget in core-hours (None: none); each trial holds `cores` (_batch)."""
        self.cores = 1
        self.mine: set[int] = set()
        """The trials this search is running now."""
        self.recovered = mark_interrupted(study)
        for record in measured_trials(study, self.space):
            self.records[record.number] = record
            self.cache[config_key(record.config)] = _done(record.outcome)

    def _sync(self) -> int:
        """Take the trials other workers measured since; how many run elsewhere now (the
        lock is held). Trials measured meanwhile are new to this search too, so its
        knowledge base gets their logs even when their worker died (ingesting is
        idempotent).

        **Many workers, one study.** Other searches may share the study (an RDB storage). Before
        each trial the loop reads the study: trials the others finished are taken as known, the
        budget counts every measured trial of the study, and a trial running elsewhere that
        would fill the budget is waited for (it may fail, or its worker die: _study.fail_stale),
        not stopped at. After asking, a trial yields to a lower-numbered one running elsewhere
        with the same configuration, or that fills the budget first (a tie between workers that
        asked at the same moment is settled by the trial number, with no lock between them).
        """
        self.recovered += fail_stale(self.study)
        running = 0
        for t in self.study.get_trials(deepcopy=False):
            if t.state == TrialState.RUNNING:
                running += t.number not in self.mine
            elif (
                t.number not in self.records
                and t.state in (TrialState.COMPLETE, TrialState.FAIL)
                and t.user_attrs.get(KIND) == "run"
            ):
                record = dataclasses.replace(record_from_trial(t, self.space), new=True)
                self.records[t.number] = record
                self.cache.setdefault(config_key(record.config), _done(record.outcome))
        return running

    def _yields(self, number: int, key: str) -> str | None:
        """Why the trial just asked must not run: another worker measured the same
        configuration, or runs it in a lower-numbered trial, or those trials fill the
        budget first (the lock is held).

        RATIONALE: one read of the study answers all three: a trial another worker
        finished between _sync and here is seen finished, and one it still runs is seen
        running; reading the cache and then the running trials could miss it between."""
        done = 0
        ahead = []
        for t in self.study.get_trials(
            deepcopy=False, states=(TrialState.RUNNING, TrialState.COMPLETE, TrialState.FAIL)
        ):
            if t.state != TrialState.RUNNING:
                if t.user_attrs.get(KIND) == "run":
                    done += 1
                    if config_key(self.space.validate(t.params)) == key:
                        return "measured elsewhere"
            elif t.number < number and t.number not in self.mine:
                ahead.append(t)
        if any(config_key(self.space.validate(t.params)) == key for t in ahead):
            return "running elsewhere"
        if done + self.inflight + len(ahead) >= self.budget:
            return "the budget is filled by trials running elsewhere"
        return None

    def narrow(self, searched: Space) -> None:
        """Propose only the parameters of `searched`; the others keep their defaults.

        RATIONALE: fixed parameters are left out of Optuna's distributions rather than
        given one value: Optuna refuses a parameter whose choices change within a study,
        and space.validate() completes every proposal with the defaults."""
        self.distributions = distributions(searched)

    @property
    def measured(self) -> int:
        return len(self.records)

    def known(self, config: Configuration) -> TrialOutcome | None:
        """The outcome of a configuration measured already (by this search or the study)."""
        future = self.cache.get(config_key(config))
        return future.result() if future is not None and future.done() else None

    def trials(self) -> list[TrialRecord]:
        """The measured trials of the study, in order."""
        return [self.records[n] for n in sorted(self.records)]

    def enqueue(self, configs: Sequence[Configuration]) -> None:
        """Put configurations first in the study's queue (once per study)."""
        if not configs or self.study.user_attrs.get(ENQUEUED):
            return
        for config in configs:
            self.study.enqueue_trial(self._searched(config), skip_if_exists=True)
        self.study.set_user_attr(ENQUEUED, True)

    def _searched(self, config: Configuration) -> dict[str, str | int]:
        return {k: v for k, v in config.items() if k in self.distributions}

    def record(self, config: Configuration, outcome: TrialOutcome) -> None:
        """Keep a run made outside the loop (the traced run of the default, with the
        bandwidth objective) as a measured trial of the study."""
        key = config_key(config)
        with self.lock:
            self._sync()  # another worker may have measured it meanwhile
            if key in self.cache:
                return
            self.study.enqueue_trial(self._searched(config))
            trial = self._ask()
            self.proposals += 1
            self._sync()
            # Another worker may have taken the queued default (this trial is then some
            # other proposal), or be recording its own: the run stays out of the study.
            clash = (
                "another worker took the queued configuration"
                if config_key(self.space.validate(trial.params)) != key
                else "measured elsewhere"
                if key in self.cache
                else self._yields(trial.number, key)
            )
            if clash is not None:
                self._yield(trial, clash)
                return
            self.cache[key] = _done(outcome)
            self._finish(trial, config, outcome)

    def step(self) -> bool:
        """Ask, run (or answer) and tell one trial; False when the search is over.

        **The budget counts runs.** A configuration is measured at most once per search. When
        a sampler proposes one already measured (or being measured by a parallel trial), the
        study is told the known value and the trial does not use up the budget; a candidate the
        model strategy skips (predicted poor) is not run, is reported as skipped with the
        reason, and does not use up the budget either. A search whose sampler makes 3 x the
        budget (at least 100) proposals in a row without anything new ends there, and a GA
        ends after its generations (`max_proposals`, whatever they brought: _strategies).
        """
        with self.lock:
            room = self._room()
        if room == "over":
            return False
        if room == "wait":
            time.sleep(WAIT_SECONDS)
            return True
        with self.lock:
            if self._out_of_proposals():
                return False
            trial, config, key = self._propose()
            if self._ended_unrun(trial, config, key):
                return True
            cached = self.cache.get(key)
            future = self._claim(trial, key) if cached is None else cached
        if cached is not None:
            self._answer_from_cache(trial, cached)
        else:
            self._measure(trial, config, key, future)
        return True

    def _room(self) -> Literal["over", "wait", "ask"]:
        """Whether the budget leaves room for one more trial (the lock is held): "over" when
        the search is over (a stop, the core-hours spent, the budget measured or running
        here: self.stop says why), "wait" while the budget's last trials run elsewhere (they
        may fail), else "ask"."""
        if self.stop:
            return "over"
        if self.core_hours is not None:
            spent = core_budget_stop(
                self.records.values(), self.cores, self.inflight, self.core_hours
            )
            if spent is not None:
                self.stop = spent
                return "over"
        elsewhere = self._sync()
        if self.measured + self.inflight >= self.budget:
            self.stop = self.stop or "budget reached"
            return "over"
        return "wait" if self.measured + self.inflight + elsewhere >= self.budget else "ask"

    def _out_of_proposals(self) -> bool:
        """True when the search is over before asking (the lock is held): a stop, the
        generations done, or too many idle proposals in a row (self.stop says why)."""
        if self.stop:
            return True
        if self.stand_ins and not self.study.get_trials(
            deepcopy=False, states=(TrialState.WAITING,)
        ):
            self.stand_ins.clear()  # another worker of the study took them
        if (
            self.max_proposals is not None
            and self.proposals >= self.max_proposals
            and not self.stand_ins
        ):
            self.stop = f"the generations are done ({self.proposals} proposals)"
            return True
        if self.idle >= max(MIN_IDLE_PROPOSALS, 3 * self.budget):
            self.stop = (
                f"the last {self.idle} proposals were all measured or vetoed already: "
                "nothing new to try"
            )
            return True
        return False

    def _propose(self) -> tuple[optuna.Trial, Configuration, str]:
        """Ask for a trial and count its proposal (the lock is held): a stand-in queued in
        place of a proposal counted already is not counted again."""
        trial = self._ask()
        config = self.space.validate(trial.params)
        key = config_key(config)
        if key in self.stand_ins:
            self.stand_ins.discard(key)  # in place of a proposal counted already
        else:
            self.proposals += 1
        self.idle += 1
        self._sync()
        return trial, config, key

    def _ended_unrun(self, trial: optuna.Trial, config: Configuration, key: str) -> bool:
        """End a proposal this worker does not run (the lock is held), and say so: one that
        yields to a trial elsewhere, one the objective does not measure, one the strategy
        vetoes. A configuration measured or running already is none of these."""
        clash = self._yields(trial.number, key) if key not in self.cache else None
        if clash is not None:
            self._yield(trial, clash)
            return True
        if key not in self.cache and not self.objective.measures(config):
            self._replace(trial, config)
            return True
        veto = self.strategy.veto(config) if self.strategy.veto else None
        if veto is not None:
            self._veto(trial, config, key, veto)
            return True
        return False

    def _veto(self, trial: optuna.Trial, config: Configuration, key: str, veto: str) -> None:
        """End a proposal the strategy vetoes (the lock is held), listed as skipped once."""
        # Not run, so not a trial: it uses no budget, and the result lists it.
        trial.set_user_attr(KIND, "vetoed")
        trial.set_user_attr("iotuner:reason", veto)
        self.study.tell(trial, state=TrialState.PRUNED)
        self.vetoed += 1
        if all(config_key(s.config) != key for s in self.skipped):
            self.skipped.append(Skipped(config, veto))

    def _claim(self, trial: optuna.Trial, key: str) -> "Future[TrialOutcome]":
        """Make a configuration this worker's to run (the lock is held): the future of its
        outcome, for the proposals of it meanwhile."""
        future: Future[TrialOutcome] = Future()
        self.cache[key] = future
        self.inflight += 1
        self.mine.add(trial.number)
        self.idle = 0
        return future

    def _answer_from_cache(self, trial: optuna.Trial, future: "Future[TrialOutcome]") -> None:
        """Tell a trial of a configuration measured (or running) already its outcome, once
        there is one: a duplicate, no budget used."""
        outcome = future.result()
        with self.lock:
            trial.set_user_attr(KIND, "cached")
            self._tell(trial, outcome)
            self.duplicates += 1

    def _measure(
        self, trial: optuna.Trial, config: Configuration, key: str, future: "Future[TrialOutcome]"
    ) -> None:
        """Run a claimed trial (the lock not held) and tell its outcome; a run that raises
        gives up its claim and stops the search."""
        try:
            with heartbeat(self.study, trial):
                outcome = self.objective.evaluate(config, str(trial.number))
        except BaseException as exc:
            with self.lock:
                del self.cache[key]
                self.inflight -= 1
                self.mine.discard(trial.number)
                # Failed at once by the next search, not after the heartbeat's grace.
                trial.set_user_attr(ABANDONED, True)
                self.stop = self.stop or f"stopped: {type(exc).__name__}"
            future.set_exception(exc)
            raise
        with self.lock:
            self.inflight -= 1
            self.mine.discard(trial.number)
            future.set_result(outcome)
            self._finish(trial, config, outcome)

    def _replace(self, trial: optuna.Trial, config: Configuration) -> None:
        """End a proposal of a configuration the objective does not measure (the lock is
        held): no trial and no budget; queue the nearest one it measures that is not
        measured, running or queued already (below).

        **Only what the objective measures is a trial.** A proposal of a configuration the
        objective does not measure (Objective.measures: offline, one the table does not hold,
        proposed by ga or tpe from the product of the table's values) is no trial and uses no
        budget: the study is told it failed (kind `unmeasured`: the samplers learn nothing from
        it), and the nearest configuration the objective measures that is not measured, running
        or queued already (Objective.stand_in) goes into the study's queue, to be the next
        trial, in place of the proposal (it is not counted as a proposal of its own, and a GA's
        generations wait for it). The result counts these proposals (`replaced`).
        """
        stand_in = self.objective.stand_in(config, set(self.cache) | self.stand_ins)
        trial.set_user_attr(KIND, "unmeasured")
        trial.set_user_attr(
            "iotuner:reason",
            "the objective does not measure it: "
            + (
                f"{config_key(stand_in)} measured instead"
                if stand_in is not None
                else "every configuration it measures is tried already"
            ),
        )
        # RATIONALE: FAIL, not PRUNED: TPE reads pruned trials as bad ones; NSGA-II, the
        # Gaussian process and the model's belief learn from complete ones only. A failed
        # one teaches none of them anything about a configuration nobody measured.
        self.study.tell(trial, state=TrialState.FAIL)
        self.replaced += 1
        if stand_in is not None:
            self.stand_ins.add(config_key(stand_in))
            self.study.enqueue_trial(self._searched(stand_in))

    def _yield(self, trial: optuna.Trial, reason: str) -> None:
        """End a trial this worker does not run (the lock is held): proposable again
        (PoolSampler), and no budget used."""
        trial.set_user_attr(KIND, "yielded")
        trial.set_user_attr(INTERRUPTED, True)
        trial.set_user_attr("iotuner:reason", reason)
        self.study.tell(trial, state=TrialState.PRUNED)

    def _ask(self) -> optuna.Trial:
        with warnings.catch_warnings():
            # Optuna warns that heartbeats are meant for Study.optimize; the loop beats
            # itself (_study.heartbeat).
            warnings.filterwarnings("ignore", message="Heartbeat of storage")
            trial = self.study.ask(self.distributions)
        first_beat(self.study, trial)
        return trial

    def _finish(self, trial: optuna.Trial, config: Configuration, outcome: TrialOutcome) -> None:
        """Tell the study a run's outcome and keep it (the lock is held)."""
        for name, value in outcome_attrs(outcome).items():
            trial.set_user_attr(name, value)
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
        records = list(self.records.values())
        best = best_trial(records, self.objective.direction)
        new = sum(1 for r in records if r.new)
        elapsed = time.monotonic() - self.started
        left = max(self.budget - self.measured, 0)
        self.on_progress(
            SearchProgress(
                done=self.measured,
                budget=self.budget,
                failed=sum(1 for r in records if r.failed),
                best=best.value if best else None,
                best_config=config_key(best.config) if best else None,
                elapsed=elapsed,
                eta=elapsed / new * left if new else None,
            )
        )

    def run(self, slots: int) -> None:
        """Run trials until the budget, too many idle proposals or a stop; `slots` at once.

        **Parallel trials.** With `slots` > 1, that many threads each ask, run and tell;
        asking and telling are serialised, only the runs overlap.
        """
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


def _done(outcome: TrialOutcome) -> "Future[TrialOutcome]":
    future: Future[TrialOutcome] = Future()
    future.set_result(outcome)
    return future
