"""Running a plan (run_sweep, see iotuner.bench): the probe of the system, then rounds of
kernel jobs (_Sweep, on iotuner.bench._jobs.KernelJobs) until the plan is done, nothing left
is worth its time, or the budget ends; the outcome (SweepOutcome) and the time a resumed
sweep has left (resume_estimate).

kernel_command, the command of every kernel job and of the probe, is looked up here at each
call, so that what replaces it here (a test's wrapper) runs in every job."""

import subprocess
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from rich.console import Console
from rich.progress import ProgressColumn, Task
from rich.table import Column
from rich.text import Text

from iotuner._printable import terminal
from iotuner._progress import progress_bar
from iotuner.bench._jobs import KernelJobs, Line
from iotuner.bench._order import (
    UPPER_QUANTILE,
    SweepState,
    first_configurations,
    neighbour_picks,
    next_choice,
    next_workload,
)
from iotuner.bench._pace import Pace, duration_text, moved_bytes
from iotuner.bench._plan import BenchPlan, workload_key
from iotuner.bench._results import read_results, repair_results
from iotuner.errors import ConfigError
from iotuner.measurement import Measurement, System, Workload
from iotuner.runner import build_config, find_program, interposer_env, make_log_dir
from iotuner.space import config_key
from iotuner.tracelog import read_tracelog

if TYPE_CHECKING:
    from iotuner.store import Record


def kernel_command(workload: Workload, target: Path, *extra: str) -> list[str]:
    """The command that runs our kernel at the workload's scale, doing the workload on
    `target` and deleting it afterwards; `extra` are more kernel options (--plan, --hint).
    The workload's calls per open are the kernel's segments (--repeat)."""
    command = [
        build_config().mpiexec,
        "-n",
        str(workload.nprocs),
        str(find_program("iokernel")),
        "--file",
        str(target),
        "--op",
        workload.op,
        "--pattern",
        workload.pattern,
        "--size",
        str(workload.bytes_per_rank),
        "--repeat",
        str(workload.calls_per_open),
        "--delete",
    ]
    if workload.layout == "strided":
        command += [
            "--layout",
            "strided",
            "--block",
            str(workload.block),
            "--fill",
            f"{workload.fill:g}",
        ]
    if workload.memory_block:
        command += ["--memory-block", str(workload.memory_block)]
    return [*command, *extra]


def probe_system(data_dir: Path, log_dir: Path) -> System:
    """This system's fingerprint, from one tiny traced run (MPI library, MPI-IO driver)."""
    tag = "probe" + uuid.uuid4().hex[:8]
    env = interposer_env("trace", None, log_dir, "table", tag)
    tiny = Workload(1, 1, "collective", "write", "contiguous", 1024)
    command = kernel_command(tiny, data_dir / "iotuner-probe.dat")
    completed = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    logs = sorted(log_dir.glob(f"*-{tag}.iotrace.jsonl"))
    if completed.returncode != 0 or not logs:
        raise ConfigError(f"the probe run in {data_dir} failed:\n{completed.stderr}")
    log = read_tracelog(logs[0])
    driver = log.hints[0]["driver"] if log.hints else "unknown"
    return System.detect(data_dir, log.job["mpi_library"], driver or "unknown")


def resume_estimate(plan: BenchPlan, results: Path) -> tuple[int, float | None]:
    """How many of the plan's measurements `results` holds already (from any system), and
    the seconds the rest would take at their pace (None when none is measured)."""
    prefix = plan.sweep_id + ":"
    mine = [m for m in read_results(results) if m.uid.startswith(prefix)]
    state = SweepState(plan, mine)
    if not state.measured:
        return 0, None
    rest = {key: (state.workloads[key].workload, len(v)) for key, v in state.rest().items()}
    return state.measured, Pace.from_measurements(mine).total(rest)


SHARE_OF_BUDGET = 0.05
"""The most of a budget one measurement may take (issue 41: one measurement of a stand-in
took 9.1 GB and minutes to delete, and a 10-minute sweep was on measurement 6 of 654)."""
SHARE_FLOOR = 10.0
"""Seconds one measurement may always take, however small the budget (a start-up)."""


def measurement_share(budget: float) -> float:
    """The seconds one measurement may take within `budget` (SHARE_OF_BUDGET, at least
    SHARE_FLOOR)."""
    return max(SHARE_OF_BUDGET * budget, SHARE_FLOOR)


STOP_PLAN = "plan"
STOP_CONFIDENT = "confident"
STOP_BUDGET = "budget"


@dataclass(frozen=True)
class SweepOutcome:
    """How a run of a plan ended: `added` new measurements, `measured` of `planned` in the
    results file now, after `rounds` rounds and `seconds`; `stop` is STOP_PLAN (every
    planned measurement made), STOP_CONFIDENT (none left worth its time) or STOP_BUDGET,
    and `reason` says it in a sentence."""

    added: int
    measured: int
    planned: int
    rounds: int
    seconds: float
    stop: str
    reason: str
    # Workloads left out of this run because one measurement of them takes more than its
    # share of the budget (measurement_share): workload key -> why, in a sentence.
    too_costly: tuple[tuple[str, str], ...] = ()


def run_bench(
    plan: BenchPlan,
    data_dir: Path,
    results: Path,
    console: Console,
    after_workload: Callable[[list["Record"]], object] | None = None,
    *,
    budget: float | None = None,
) -> int:
    """run_sweep's number of new measurements (without a budget: the whole plan)."""
    return run_sweep(plan, data_dir, results, console, after_workload, budget=budget).added


def run_sweep(
    plan: BenchPlan,
    data_dir: Path,
    results: Path,
    console: Console,
    after_workload: Callable[[list["Record"]], object] | None = None,
    *,
    budget: float | None = None,
    since: float | None = None,
    limit: float | None = None,
) -> SweepOutcome:
    """Measure what `results` does not hold yet, in rounds (iotuner.bench._order), within
    `budget` seconds (None: no limit) from `since` (a time.monotonic(); default now), no
    measurement longer than `limit` seconds (default: measurement_share of the budget;
    a workload past it is left out of the run: SweepOutcome.too_costly).

    First the programs' cases (plan.cases, the most I/O time at stake first): their
    first configurations, then model rounds among them (half the time left at most).
    Then the first round of every other
    workload, nearest the cases first (next_workload). Then, when the rest of the plan
    fits in the time left at the pace so far (always without a budget), the rest,
    cheapest workload first; else rounds a model chooses (next_choice), the largest
    expected gain first, until it finds nothing worth measuring. No measurement starts
    that the pace says cannot end within the budget, and a job still running at its end
    is stopped (its unfinished measurement is not kept). Rounds and what they measure are
    printed on `console`; the progress bar (done/planned, and the time left: the pace's
    estimate for the rest of the plan, or the budget's end when that comes first) goes to
    stderr.

    `after_workload(records)` runs after each kernel job with the measurements it added to
    `results` (e.g. to store them in the knowledge base without reading the growing file
    again), also after a job that failed or was interrupted. Interrupting (Ctrl-C) stops
    the running job; what it measured so far is kept. Each line is on storage (fsync)
    before the next measurement is counted; a run killed before `after_workload` leaves
    lines the caller has not seen, which it finds in `results` (read_result_records). A
    last line torn by a kill is cut off first (repair_results, said on `console`).
    """
    if not data_dir.is_dir():
        raise ConfigError(f"the data directory {data_dir} does not exist")
    repaired = repair_results(results)
    if repaired:
        console.print(repaired)
    started = time.monotonic() if since is None else since
    work = data_dir / f"iotuner-bench-{plan.sweep_id}"
    log_dir = results.parent / f"{results.stem}-logs"
    work.mkdir(mode=0o700, exist_ok=True)
    make_log_dir(log_dir)  # private, like every trace log directory
    try:
        previous = read_results(results)
        system = probe_system(work, log_dir)
        sweep = _Sweep(plan, system, work, log_dir, results, previous, after_workload)
        sweep.deadline = None if budget is None else started + budget
        sweep.budget = budget
        sweep.limit = limit if limit is not None or budget is None else measurement_share(budget)
        # On stderr: stdout holds the plan and the result lines.
        bar = console if console.stderr else terminal(stderr=True)
        with progress_bar(
            bar, _LeftColumn(table_column=Column(no_wrap=True)), transient=False, eta=False
        ) as progress:
            sweep.progress = progress
            sweep.task = progress.add_task(
                "bench", total=sweep.state.planned, completed=sweep.state.measured, left=""
            )
            stop, reason = sweep.run(console)
    finally:
        for leftover in work.iterdir():
            leftover.unlink()
        work.rmdir()
    dropped = sweep.dropped
    return SweepOutcome(
        sweep.added,
        sweep.state.measured + sum(len(r) for p in dropped for r in p.measured.values()),
        sweep.state.planned + sum(len(p.configs) for p in dropped) * plan.repeats,
        sweep.rounds,
        time.monotonic() - started,
        stop,
        reason,
        tuple(sweep.too_costly.items()),
    )


class _LeftColumn(ProgressColumn):
    """The time left, as the sweep works it out (the `left` field of the task)."""

    def render(self, task: Task) -> Text:
        return Text(str(task.fields.get("left") or "eta -:--:--"), style="progress.remaining")


class _Sweep(KernelJobs):
    """One run of a plan: the rounds (run_sweep) that choose the kernel jobs."""

    def command(self, workload: Workload, target: Path, *extra: str) -> list[str]:
        """kernel_command's. RATIONALE: looked up in this module at each job, so that what
        replaces iotuner.bench._run.kernel_command (a test's wrapper) runs in every job."""
        return kernel_command(workload, target, *extra)

    def run(self, console: Console) -> tuple[str, str]:
        """The rounds (see run_sweep); the stop and its reason."""
        cases = [workload_key(w) for w in self.plan.cases]
        if self._cases_first(console, cases):
            return STOP_BUDGET, self.out_of_time
        first = {}
        for w in self.plan.workloads:
            key = workload_key(w)
            if key not in cases:
                first[key] = self.state.missing(key, first_configurations(self.plan, w))
        first = {key: lines for key, lines in first.items() if lines}
        if first:
            sizes = sorted({len({config_key(c) for c, _ in lines}) for lines in first.values()})
            order = (
                "those nearest the programs' cases first"
                if cases
                else "those like the workloads where the configurations differed most first"
            )
            console.print(
                f"round {self.rounds + 1}: {_count(first)} measurements of {len(first)} "
                f"workload(s), {order}: each one's default and the configurations that try "
                f"every value of the parameters that matter to it ({_span(sizes)} per workload)"
            )
            self._round(first, "first", order="nearest")
            if self.out_of_time:
                return STOP_BUDGET, self.out_of_time
        while True:
            rest = self.state.rest()
            if not rest:
                return STOP_PLAN, "every planned measurement is made" + (
                    f", but those of the {len(self.too_costly)} workload(s) left out (below)"
                    if self.too_costly
                    else ""
                )
            counts = {key: (self.state.workloads[key].workload, len(v)) for key, v in rest.items()}
            estimate = self.pace.total(counts)
            left = self.left()
            if left is None or (estimate is not None and estimate <= left):
                about = "" if estimate is None else f", about {duration_text(estimate)}"
                within = "" if left is None else f" (within the {duration_text(left)} left)"
                console.print(
                    f"round {self.rounds + 1}: the rest of the plan, {_count(rest)} "
                    f"measurements of {len(rest)} workload(s){about}{within}"
                )
                jobs = rest
                how = "rest"
            else:
                choice = next_choice(self.state)
                if not choice.picks:
                    return STOP_CONFIDENT, (
                        f"confident: of the {choice.unmeasured:,} configurations not measured, "
                        f"none may beat its workload's best measured bandwidth by more than "
                        f"the spread between repeats (by the upper end of a random forest's "
                        f"{UPPER_QUANTILE:.0%} interval)"
                    )
                jobs = {
                    workload_key(p.workload): self.state.missing(
                        workload_key(p.workload), p.configs
                    )
                    for p in choice.picks
                }
                top = max(p.gain for p in choice.picks)
                console.print(
                    f"round {self.rounds + 1}: {_count(jobs)} measurements of {len(jobs)} "
                    f"workload(s) where a model of what is measured knows least or expects "
                    f"most: {choice.unsure:,} of {choice.unmeasured:,} unmeasured "
                    f"configurations may beat their workload's best by more than the noise"
                    + (f" (by up to {top - 1:.0%})" if 1 < top < 100 else "")
                    if choice.unsure
                    else f"round {self.rounds + 1}: {_count(jobs)} measurements that finish "
                    f"configurations begun before (their missing repeats)"
                )
                how = "model"
            order = "cheapest" if how == "rest" else "given"
            if self._round(jobs, how, order=order) == 0 and not self.out_of_time:
                raise ConfigError(
                    f"round {self.rounds} measured nothing of what it planned ({self.results})"
                )
            if self.out_of_time:
                return STOP_BUDGET, self.out_of_time

    def _cases_first(self, console: Console, cases: list[str]) -> bool:
        """The programs' cases, the most I/O time at stake first (the plan's order): each
        one's first configurations (the default and a cover of every value), so that a
        budget cut leaves every case compared; then model rounds among the cases alone
        (next_choice) and, when the model expects nothing more, a local search around
        each case's best (neighbour_picks), until neither finds anything to measure or
        the cases have used half the time the cover left (the generic plan gets the
        rest). Whether the budget ran out.

        RATIONALE: every configuration that can act on a case, measured case by case,
        was 7,752 measurements with romio-ufs: it filled any budget, and the generic plan
        never began."""
        jobs = {}
        cases = [key for key in cases if key in self.state.workloads]
        for key in cases:
            planned = self.state.workloads[key]
            jobs[key] = self.state.missing(key, first_configurations(self.plan, planned.workload))
        jobs = {key: lines for key, lines in jobs.items() if lines}
        if jobs:
            console.print(
                f"round {self.rounds + 1}: {_count(jobs)} measurements of the programs' "
                f"{len(jobs)} case(s) in the logs, the most I/O time first: each one's default "
                "and the configurations that try every value of the parameters that matter to it"
            )
            self._round(jobs, "program", order="given")
            if self.out_of_time:
                return True
        left = self.left()
        share_end = None if left is None else time.monotonic() + left / 2
        while cases and (share_end is None or time.monotonic() < share_end):
            cases = [key for key in cases if key in self.state.workloads]
            if not cases:
                return False
            choice = next_choice(self.state, only=set(cases))
            picks = choice.picks or neighbour_picks(self.state, cases)
            if not picks:
                return False
            jobs = {
                workload_key(p.workload): self.state.missing(workload_key(p.workload), p.configs)
                for p in picks
            }
            why = (
                f"where a model of what is measured knows least or expects most "
                f"({choice.unsure:,} of their {choice.unmeasured:,} unmeasured configurations "
                "may beat the best measured by more than the noise)"
                if choice.picks
                else "around each one's best measured configuration: every value of one "
                "parameter at a time"
            )
            console.print(
                f"round {self.rounds + 1}: {_count(jobs)} measurements of the programs' "
                f"{len(jobs)} case(s) {why}"
            )
            if self._round(jobs, "program", order="given") == 0 or self.out_of_time:
                return bool(self.out_of_time)
        return False

    def _round(self, jobs: dict[str, list[Line]], how: str, order: str) -> int:
        """One round: a kernel job per workload; returns the measurements it added.
        `order`: "given" (the order of `jobs`), "cheapest" (the least time a measurement
        first: once one does not fit the budget, neither does the rest) or "nearest"
        (next_workload)."""
        self.rounds += 1
        added = 0
        pending = list(jobs)
        while pending:
            pending = [key for key in pending if key in self.state.workloads]
            if not pending:
                break  # the rest was left out as too costly
            if order == "cheapest":
                key = min(pending, key=self._cost)
            elif order == "nearest":
                key = next_workload(self.state, pending, self.plan.cases, self.order)
            else:
                key = pending[0]
            pending.remove(key)
            workload = self.state.workloads[key].workload
            lines = self._fitting(workload, jobs[key])
            if not lines:
                if order == "cheapest":
                    break  # what comes next costs more
                continue
            new: list[Measurement] = []
            try:
                self._job(workload, lines, how, new)
            finally:
                # Also when the job failed or was interrupted (Ctrl-C): what it measured
                # is in the results file, and goes into the knowledge base now.
                added += len(new)
                if self.after_workload is not None and new:
                    self.after_workload([(m, self.system, self.plan.space.name) for m in new])
            if self.out_of_time and order == "cheapest":
                break  # what comes next costs more
        return added

    def _cost(self, key: str) -> tuple[float, int, int]:
        workload = self.state.workloads[key].workload
        each = self.pace.estimate(workload)
        return (each or 0.0, moved_bytes(workload), self.order[key])


def _count(jobs: dict[str, list[Line]]) -> str:
    return f"{sum(len(v) for v in jobs.values()):,}"


def _span(sizes: list[int]) -> str:
    return f"{sizes[0]}" if sizes[0] == sizes[-1] else f"{sizes[0]}-{sizes[-1]}"
