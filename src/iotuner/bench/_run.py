"""Running a plan: one kernel job per workload, its result lines parsed as they come and
appended to the results file (see iotuner.bench)."""

import contextlib
import os
import random
import signal
import subprocess
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from rich.console import Console
from rich.progress import Progress, ProgressColumn, Task, TaskID
from rich.table import Column
from rich.text import Text

from iotuner._fileio import create_private_file
from iotuner._printable import terminal
from iotuner._progress import progress_bar
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
from iotuner.errors import ConfigError
from iotuner.measurement import (
    Measurement,
    System,
    Workload,
    measurement_from_json,
    measurement_to_json,
)
from iotuner.openmpi import program_hints_for
from iotuner.runner import (
    GRACE_SECONDS,
    build_config,
    find_program,
    interposer_env,
    make_log_dir,
    preload_ranks_only,
    stop_group,
)
from iotuner.space import Configuration, config_key
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


def read_results(results: Path) -> list[Measurement]:
    """The measurements of a results file (none when it does not exist); ConfigError
    naming the line that is not a bench result."""
    return [m for m, _, _ in read_result_records(results)]


def read_result_records(results: Path) -> list["Record"]:
    """The measurements of a results file with the system each was made on and its
    space's name (none when the file does not exist); ConfigError naming the line that is
    not a bench result."""
    if not results.exists():
        return []
    records = []
    for number, line in enumerate(results.read_text().splitlines(), start=1):
        if not line.strip():
            continue
        try:
            records.append(measurement_from_json(line))
        except ValueError as exc:
            raise ConfigError(f"{results} line {number}: {exc}") from None
    return records


def repair_results(results: Path) -> str:
    """Cut off the last line of `results` when a kill tore it (no newline at its end, and
    not a whole bench result): its measurement is not kept and is measured again. Returns
    what was done, in a sentence ("" when the file was whole).

    RATIONALE: lines are appended; one left torn would be glued to the next line written,
    and the file would then hold a line that is neither, which stops every later resume
    and ingest. A whole line without its newline only gets the newline."""
    if not results.exists():
        return ""
    with results.open("rb+") as file:
        data = file.read()
        if not data or data.endswith(b"\n"):
            return ""
        start = data.rfind(b"\n") + 1
        try:
            measurement_from_json(data[start:].decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            file.truncate(start)
            _sync(file)
            return (
                f"{results}: removed a partial last line ({len(data) - start} bytes, written "
                f"when a run was killed): its measurement is made again"
            )
        file.write(b"\n")
        _sync(file)
    return ""


def _sync(file: IO[Any]) -> None:
    """Flush `file` and make it durable: the results file is the record of what was
    measured, written before the knowledge base (see _Sweep._job)."""
    file.flush()
    os.fsync(file.fileno())


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


def _clock(seconds: float) -> str:
    seconds = max(0, round(seconds))
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


Line = tuple[Configuration, int]


class _Sweep:
    """One run of a plan: its state, pace, budget and progress, and the kernel jobs."""

    def __init__(
        self,
        plan: BenchPlan,
        system: System,
        work: Path,
        log_dir: Path,
        results: Path,
        previous: list[Measurement],
        after_workload: Callable[[list["Record"]], object] | None,
    ) -> None:
        self.plan = plan
        self.system = system
        self.work = work
        self.log_dir = log_dir
        self.results = results
        self.after_workload = after_workload
        # The system is part of a measurement's identity: the same sweep on another file
        # system (or MPI, or host) measures something else, and its results must not be
        # taken for the first one's when both go into one knowledge base (nor resume it).
        self.prefix = f"{plan.sweep_id}:{system.fingerprint}"
        mine = [m for m in previous if m.uid.startswith(self.prefix + ":")]
        self.state = SweepState(plan, mine)
        self.pace = Pace.from_measurements(mine)
        order = [workload_key(w) for w in plan.workloads]
        random.Random(plan.seed).shuffle(order)
        self.order = {key: n for n, key in enumerate(order)}
        self.deadline: float | None = None
        self.budget: float | None = None
        self.limit: float | None = None  # the seconds one measurement may take
        self.progress: Progress | None = None
        self.task = TaskID(0)
        self.added = 0
        self.rounds = 0
        self.out_of_time = ""  # why the budget stopped measuring, once it has
        self.too_costly: dict[str, str] = {}  # left out: one measurement is past its share
        self.dropped: list[Any] = []  # their planned measurements (SweepState's _Planned)

    def left(self) -> float | None:
        return None if self.deadline is None else self.deadline - time.monotonic()

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

    def _fitting(self, workload: Workload, lines: list[Line]) -> list[Line]:
        """The first of `lines` that end within the budget at the pace so far."""
        left, each = self.left(), self.pace.estimate(workload)
        if left is None:
            return lines
        if self.limit is not None and each is not None and each > self.limit:
            self._too_costly(workload, f"one measurement takes about {duration_text(each)}")
            return []
        if each is None or each <= 0:
            each = 0.0  # nothing measured yet: the first measurement tells
            fits = len(lines) if left > 0 else 0
        else:
            fits = max(0, min(len(lines), int(left // each)))
        if fits < len(lines):
            self._out_of_time(workload, left - fits * each, each)
        return lines[:fits]

    def _too_costly(self, workload: Workload, why: str) -> None:
        """Leaves `workload` out of the rest of this run: its measurements cost more than
        their share of the budget (a case of the logs is then said to be unmeasured, not
        measured in another shape)."""
        assert self.budget is not None and self.limit is not None
        key = workload_key(workload)
        self.too_costly[key] = (
            f"{why}, more than the {duration_text(self.limit)} one measurement may take of "
            f"the {duration_text(self.budget)} budget (--measurement-limit); a smaller "
            f"--open-size or a larger limit measures it"
        )
        planned = self.state.workloads.pop(key, None)
        if planned is not None:
            self.dropped.append(planned)
        self._advance(f"left out {key}")

    def _out_of_time(self, workload: Workload, left: float, each: float) -> None:
        if self.out_of_time:
            return
        assert self.budget is not None
        budget = f"the time budget ({duration_text(self.budget)})"
        if left <= 0 or each <= 0:
            self.out_of_time = f"{budget} is used up"
        else:
            self.out_of_time = (
                f"{budget} has {duration_text(left)} left, and the next measurement "
                f"({workload_key(workload)}) takes about {duration_text(each)}"
            )

    def _eta(self) -> str:
        """The progress bar's time left: the rest of the plan at the pace so far, or the
        budget's end when that comes first."""
        counts = {}
        for key, p in self.state.workloads.items():
            made = sum(len(r) for r in p.measured.values())
            counts[key] = (p.workload, len(p.configs) * self.plan.repeats - made)
        estimate, left = self.pace.total(counts), self.left()
        if left is not None and (estimate is None or estimate > left):
            return f"eta {_clock(left)} budget"
        return "eta -:--:--" if estimate is None else f"eta {_clock(estimate)}"

    def _advance(self, label: str) -> None:
        if self.progress is not None:
            self.progress.update(
                self.task, completed=self.state.measured, description=label, left=self._eta()
            )

    def _plan_file(
        self, workload: Workload, chosen: list[Line], prefix: str
    ) -> tuple[dict[str, Line], Path]:
        """The kernel's plan of `chosen`, shuffled, written to the work folder: its lines
        by plan id (c<configuration>r<repeat>), and the file."""
        index = {
            config_key(c): i
            for i, c in enumerate(self.state.workloads[workload_key(workload)].configs)
        }
        lines = {f"c{index[config_key(c)]}r{r}": (c, r) for c, r in chosen}
        ids = list(lines)
        random.Random(f"{self.plan.seed}:{prefix}").shuffle(ids)
        plan_file = self.work / "plan.txt"
        # Measurements keep the space's keys (the concepts); the kernel passes them as this
        # MPI takes them (Open MPI's OMPIO: its own keys).
        mpiexec = build_config().mpiexec
        plan_file.write_text(
            "".join(
                " ".join(
                    [
                        plan_id,
                        *(
                            f"{k}={v}"
                            for k, v in program_hints_for(
                                self.plan.space.hints(lines[plan_id][0]), mpiexec
                            ).items()
                        ),
                    ]
                )
                + "\n"
                for plan_id in ids
            )
        )
        return lines, plan_file

    def _job(
        self, workload: Workload, chosen: list[Line], how: str, added: list[Measurement]
    ) -> None:
        """One MPI job: `chosen` (configuration, repeat) pairs of the workload, shuffled;
        appends to `added` each measurement it adds to the results file, as it adds it (so
        the caller has them when the job fails or is interrupted)."""
        prefix = f"{self.prefix}:{workload_key(workload)}"
        lines, plan_file = self._plan_file(workload, chosen, prefix)
        label = f"round {self.rounds}: {workload_key(workload)}"
        self._advance(label)
        tag = uuid.uuid4().hex[:12]
        env = interposer_env("trace", None, self.log_dir, "table", tag)
        command, env = preload_ranks_only(
            kernel_command(workload, self.work / "data", "--plan", str(plan_file)),
            env,
            os.environ.get("LD_PRELOAD"),
        )
        stopped = threading.Event()  # set when the budget stopped the job
        create_private_file(self.results)  # measurements and paths: the logs' policy
        with (
            self.results.open("a", encoding="utf-8") as out,
            subprocess.Popen(
                command,
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                process_group=0,
            ) as job,
        ):

            def stop() -> None:
                if job.poll() is not None:
                    return  # it ended on its own
                stopped.set()
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(job.pid, signal.SIGTERM)

            last = time.monotonic()
            overran: list[float] = []  # the seconds of a measurement stopped past its share
            watchdog = self._watch(stop, lambda: last, overran)
            # stderr is read on a thread while stdout is parsed: a kernel that writes more
            # than a pipe holds to stderr (rank warnings) would otherwise block forever.
            errors: list[str] = []
            drain = threading.Thread(target=lambda: errors.extend(job.stderr or ()), daemon=True)
            drain.start()
            try:
                assert job.stdout is not None
                for line in job.stdout:
                    measurement = _parse_line(line, lines, prefix, workload, tag)
                    if measurement is None:
                        continue
                    now, measurement_began = time.monotonic(), last
                    self.pace.add(workload, now - last)
                    measurement.provenance.update(
                        wall_seconds=round(now - last, 6), round=self.rounds, chosen=how
                    )
                    last = now
                    self._keep(measurement, out, added, label)
                    if self._past_limit(now - measurement_began, overran) or (
                        len(added) < len(lines) and self._next_too_late(workload)
                    ):
                        stop()
                        break
            except BaseException:
                stop_group(job)
                raise
            finally:
                watchdog.set()
            if stopped.is_set():
                stop_group(job)
                self._stopped(workload, overran, unfinished=len(added) < len(lines))
            drain.join(timeout=GRACE_SECONDS if stopped.is_set() else None)
            stderr = "".join(errors)
        if job.returncode != 0 and not stopped.is_set():
            raise ConfigError(
                f"the kernel failed on {workload_key(workload)} (exit {job.returncode}):\n{stderr}"
            )

    def _past_limit(self, seconds: float, overran: list[float]) -> bool:
        """Whether a measurement that ended took more than the limit: kept, but its
        workload costs more than its share (its seconds go into `overran`)."""
        if self.limit is None or seconds <= self.limit:
            return False
        overran.append(seconds)
        return True

    def _next_too_late(self, workload: Workload) -> bool:
        """Whether the measurement the kernel has begun would not end in time."""
        left, each = self.left(), self.pace.estimate(workload)
        if left is None or not each or each <= left:
            return False
        self._out_of_time(workload, left, each)
        return True

    def _keep(self, measurement: Measurement, out: IO[str], added: list[Measurement],
              label: str) -> None:  # fmt: skip
        """One measurement into the results file, then counted.

        RATIONALE: write-ahead: the line is on storage before the measurement is counted,
        and long before the knowledge base gets it (when the job ends); a run killed in
        between leaves it in the results file, from which the next run stores it
        (iotuner.cli bench, store_unstored)."""
        out.write(measurement_to_json(measurement, self.system, self.plan.space.name) + "\n")
        _sync(out)
        self.state.add(measurement)
        added.append(measurement)
        self.added += 1
        self._advance(label)

    def _stopped(self, workload: Workload, overran: list[float], unfinished: bool) -> None:
        """Why a job was stopped: a measurement past its limit (the workload is left out,
        the rest of the budget goes elsewhere), else the budget's end."""
        if overran:
            self._too_costly(workload, f"one measurement took {duration_text(overran[0])}")
        elif not self.out_of_time and unfinished:
            assert self.budget is not None
            self.out_of_time = (
                f"the time budget ({duration_text(self.budget)}) ended during a measurement "
                f"of {workload_key(workload)}, which was stopped and not kept"
            )

    def _watch(
        self, stop: Callable[[], None], since: Callable[[], float], overran: list[float]
    ) -> threading.Event:
        """A thread that calls `stop` when the budget ends, or when the measurement under
        way (begun at `since()`) has taken more than its share of the budget (its seconds
        then go into `overran`, and the caller leaves the workload out: _too_costly); set
        the returned event to end it."""
        done = threading.Event()
        if self.budget is None or self.limit is None:
            return done
        share = self.limit

        def watch() -> None:
            while not done.wait(WATCH_SECONDS):
                left = self.left()
                taken = time.monotonic() - since()
                if taken > share:
                    overran.append(taken)
                if taken > share or (left is not None and left <= 0):
                    stop()
                    return

        threading.Thread(target=watch, daemon=True).start()
        return done


WATCH_SECONDS = 0.2
"""How often a job's watchdog looks at the clock."""


def _count(jobs: dict[str, list[Line]]) -> str:
    return f"{sum(len(v) for v in jobs.values()):,}"


def _span(sizes: list[int]) -> str:
    return f"{sizes[0]}" if sizes[0] == sizes[-1] else f"{sizes[0]}-{sizes[-1]}"


def _parse_line(
    line: str,
    lines: dict[str, tuple[Configuration, int]],
    prefix: str,
    workload: Workload,
    tag: str,
) -> Measurement | None:
    """A measurement from one `iokernel: id=... op=... bytes=... seconds=... data_s=...`
    line: the data calls' time and bandwidth, open and close times in the provenance."""
    if not line.startswith("iokernel: id="):
        return None
    fields = dict(part.split("=", 1) for part in line.split()[1:])
    if fields["id"] not in lines or fields["op"] != workload.op:
        return None  # the untimed preparation of a read plan
    wanted = ("data_s", "data_mib_s", "open_s", "close_s", "calls")
    if any(name not in fields for name in wanted):
        raise ConfigError(
            f"the kernel's result line lacks {', '.join(n for n in wanted if n not in fields)} "
            f"(an iokernel older than this iotuner? rebuild and install it): {line.strip()}"
        )
    if int(fields["calls"]) != workload.calls_per_open:
        raise ConfigError(
            f"the kernel made {fields['calls']} calls per open, the workload says "
            f"{workload.calls_per_open}: {line.strip()}"
        )
    config, repeat = lines[fields["id"]]
    return Measurement(
        uid=f"{prefix}:{config_key(config)}:{repeat}",
        workload=workload,
        config=dict(config),
        bandwidth=float(fields["data_mib_s"]),
        seconds=float(fields["data_s"]),
        bytes=int(fields["bytes"]),
        repeat=repeat,
        provenance={
            "bench_run": prefix.split(":")[0],
            "plan_id": fields["id"],
            "job_tag": tag,
            "open_seconds": float(fields["open_s"]),
            "close_seconds": float(fields["close_s"]),
            "total_seconds": float(fields["seconds"]),
        },
    )
