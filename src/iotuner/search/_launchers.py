"""How a trial's command is started: the extension point for batch systems.

A Launcher turns the command the user gave after `--` into the command that is run, adds
what the environment needs, and says how many trials may run at once. The search never
builds a shell line: the command stays a list of arguments from start to end. LAUNCHERS
(_registry) lists every implementation by name; tests/search/test_launcher_contract.py holds each of
them to the contract (Launcher).

LocalLauncher runs the user's command as given (which starts with their own launcher, e.g.
`mpiexec -n 4`) on this machine; SlurmLauncher (_slurm) runs the program as a Slurm job
step with `srun` inside an allocation, or submits each trial as a job with `sbatch`.
"""

import os
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from iotuner.runner import RunResult, new_tag, run
from iotuner.search._common import LOGS_AT, SearchError

__all__ = ["LAUNCHER_NAMES", "Journal", "Launched", "Launcher", "LocalLauncher"]

LAUNCHER_NAMES = frozenset(
    {"mpiexec", "mpirun", "srun", "aprun", "mpiexec.hydra", "mpirun.hydra", "orterun"}
)
"""The first words of a command that name an MPI launcher rather than the program."""

Journal = Callable[[str, object], None]
"""Keeps one fact about the running trial in the study (a trial user attribute), so that a
search started again after this one died can find it (e.g. the Slurm job it submitted)."""


@dataclass(frozen=True)
class Launched:
    """One trial's run: the runner's result, its wall seconds (of the program itself, not
    of waiting in a queue), and why it failed beyond its exit status (`failure`: e.g. a
    job Slurm stopped at its time limit) or what ran it (`job`: "Slurm job 12")."""

    result: RunResult
    seconds: float
    failure: str | None = None
    job: str | None = None
    failure_local: bool = False
    """Whether the failure is the search's own doing (its timeout stopped the run)."""


def ranks_in(argv: Sequence[str]) -> tuple[list[str], int | None]:
    """The program of a command and its number of ranks: a leading MPI launcher
    (mpiexec, mpirun, srun) with `-n N` / `-np N` / `--ntasks N` is taken off, and N is
    the ranks (None when the command names no launcher or no count). Another option of
    the launcher is refused (SearchError): its meaning would be lost."""
    args = list(argv)
    if not args or Path(args[0]).name not in LAUNCHER_NAMES:
        return args, None
    ranks: int | None = None
    i = 1
    while i < len(args) and args[i].startswith("-"):
        option, _, value = args[i].partition("=")
        if option not in ("-n", "-np", "--np", "--ntasks"):
            raise SearchError(
                f"the launcher's option {args[i]!r} in {' '.join(args[:3])} ... cannot be "
                "passed on: give the program alone (with --nprocs N), or `mpiexec -n N "
                "PROGRAM ...`; give Slurm's own options with --slurm-option"
            )
        if not value:
            i += 1
            value = args[i] if i < len(args) else ""
        if not value.isdigit() or int(value) < 1:
            raise SearchError(f"{option} needs a number of ranks >= 1, got {value!r}")
        ranks = int(value)
        i += 1
    if i >= len(args):
        raise SearchError(f"no program after {' '.join(args)}: give the program to run")
    return args[i:], ranks


class Launcher:
    """Base class: starts trial commands. Subclasses override what differs.

    What the search relies on (the contract):

    * `command(argv)` keeps the user's arguments as they are, in order, one argument each
      (placeholders are already filled; none is split, joined or quoted), and refuses an
      empty command with a SearchError;
    * `env(variables)` passes the trial's own variables (application parameters) to the ranks
      with their values, and sets none of LD_PRELOAD and IOTUNER_*: the runner sets those,
      and gives the interposer to the ranks only (runner.preload_ranks_only: `-genv` for
      MPICH's hydra, `-x` for Open MPI), never to the launcher itself;
    * `slots(requested)` is between 1 and `requested`, never fewer for more requested, and
      refuses `requested` < 1;
    * a trial started through it that runs past the objective's timeout is stopped whole
      (launcher and ranks) and is a failed trial (runner.run_child stops the process group).

    * `run(...)` starts one trial and waits for it (the base class: runner.run, on this
      machine); `collect(submitted, timeout)` waits for a trial that an earlier search
      submitted and did not see end (None: the launcher cannot, and the trial is run again);
      `cores(argv)` is how many cores one trial holds (for --budget-core-hours).
    """

    name = "base"

    @classmethod
    def unavailable(cls) -> str | None:
        """Why this launcher cannot start trials here (e.g. no batch allocation), or None
        when it can."""
        return None

    def command(self, argv: Sequence[str], nprocs: int | None = None) -> list[str]:
        """The command to run for one trial, from the user's (placeholders already filled).

        `nprocs` is the number of ranks when the search knows it (a batch launcher needs it
        to size the job step); None otherwise.
        """
        raise NotImplementedError

    def program(self, argv: Sequence[str]) -> str:
        """The executable of the user's command that this launcher starts itself, so the
        one that must exist before the first trial: the command's first word, as given
        (a launcher that takes the user's own `mpiexec -n N` off names the program)."""
        if not argv:
            raise SearchError("no command to run: give it after '--', e.g. -- mpiexec -n 2 ./app")
        return argv[0]

    def env(self, variables: Mapping[str, str]) -> dict[str, str]:
        """The variables to add to the trial's environment, given the trial's own ones
        (application parameters); the IOTUNER_* variables are added by the runner."""
        return dict(variables)

    def slots(self, requested: int) -> int:
        """How many trials may run at once when `requested` are asked for (at least 1)."""
        if requested < 1:
            raise SearchError(f"the number of parallel trials must be >= 1, got {requested}")
        return 1

    def cores(self, argv: Sequence[str]) -> int:
        """How many cores one trial of `argv` (the user's command) holds: the ranks its
        launcher's `-n` asks for, else 1."""
        try:
            return ranks_in(argv)[1] or 1
        except SearchError:
            return 1

    def run(
        self,
        argv: Sequence[str],
        *,
        mode: str,
        table: Path,
        log_dir: Path,
        policy: str,
        extra_env: Mapping[str, str],
        timeout: float | None,
        journal: Journal | None = None,
    ) -> Launched:
        """Run one trial's command (from command()) under the interposer and wait for it.
        The base class runs it here (runner.run); RunError when it cannot be run or runs
        past `timeout` seconds (then it is stopped whole)."""
        started = time.monotonic()
        tag = new_tag()
        if journal is not None:
            journal(LOGS_AT, {"tag": tag, "log_dir": str(log_dir.absolute())})
        result = run(
            argv,
            mode=mode,
            table=table,
            log_dir=log_dir,
            policy=policy,
            capture=True,
            extra_env=extra_env,
            timeout=timeout,
            tag=tag,
        )
        return Launched(result, time.monotonic() - started)

    def collect(self, submitted: Mapping[str, object], timeout: float | None) -> Launched | None:
        """Wait for a trial an earlier search started (`submitted`: what run() kept through
        its journal) and read its result; None when this launcher cannot (the trial is
        then run again)."""
        return None


class LocalLauncher(Launcher):
    """Runs the user's command as given, on this machine.

    Trials may run side by side up to the number of CPUs of this machine; the user's
    command decides how many ranks each uses, so K parallel trials of N ranks want K x N
    cores, and trials that share the file system also share its bandwidth: parallel
    trials are for programs whose run time is not dominated by I/O contention, or for
    exploring quickly before the final re-measurement (which runs one at a time).
    """

    name = "local"

    def command(self, argv: Sequence[str], nprocs: int | None = None) -> list[str]:
        if not argv:
            raise SearchError("no command to run: give it after '--', e.g. -- mpiexec -n 2 ./app")
        return list(argv)

    def slots(self, requested: int) -> int:
        super().slots(requested)
        return min(requested, os.cpu_count() or 1)
