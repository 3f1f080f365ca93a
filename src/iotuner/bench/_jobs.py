"""A sweep's kernel jobs (KernelJobs, the base of iotuner.bench._run's _Sweep): the state,
pace and budget of one run of a plan, and one MPI job per workload of a round. A job runs the
kernel on a shuffled plan file, parses each result line as it comes, appends it to the results
file (synced before it is counted: write-ahead) and stops the job when the budget ends or a
measurement takes more than its share (a watchdog thread); stderr is drained on a thread.

The kernel's command comes from the subclass (command): iotuner.bench._run.kernel_command."""

import contextlib
import os
import random
import signal
import subprocess
import threading
import time
import uuid
from abc import ABC, abstractmethod
from collections.abc import Callable
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from rich.progress import Progress, TaskID

from iotuner._fileio import create_private_file
from iotuner.bench._order import SweepState
from iotuner.bench._pace import Pace, duration_text
from iotuner.bench._plan import BenchPlan, workload_key
from iotuner.bench._results import sync
from iotuner.errors import ConfigError
from iotuner.measurement import Measurement, System, Workload, measurement_to_json
from iotuner.openmpi import program_hints_for
from iotuner.runner import (
    GRACE_SECONDS,
    build_config,
    interposer_env,
    preload_ranks_only,
    stop_group,
)
from iotuner.space import Configuration, config_key

if TYPE_CHECKING:
    from iotuner.store import Record


__all__ = ["WATCH_SECONDS", "KernelJobs", "Line"]

Line = tuple[Configuration, int]


class KernelJobs(ABC):
    """One run of a plan: its state, pace, budget and progress, and the kernel jobs (the
    rounds that choose what they measure: iotuner.bench._run._Sweep)."""

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

    @abstractmethod
    def command(self, workload: Workload, target: Path, *extra: str) -> list[str]:
        """The command of a kernel job doing `workload` on `target` (kernel_command)."""

    def left(self) -> float | None:
        return None if self.deadline is None else self.deadline - time.monotonic()

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
            self.command(workload, self.work / "data", "--plan", str(plan_file)),
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
        sync(out)
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


def _clock(seconds: float) -> str:
    seconds = max(0, round(seconds))
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


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
