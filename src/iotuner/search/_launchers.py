"""How a trial's command is started: the extension point for batch systems.

A Launcher turns the command the user gave after `--` into the command that is run, adds
what the environment needs, and says how many trials may run at once. The search never
builds a shell line: the command stays a list of arguments from start to end.

Only LocalLauncher exists today: it runs the user's command as given (which starts with
their own launcher, e.g. `mpiexec -n 4`) on this machine. A Slurm launcher would subclass
Launcher, wrap the command in `srun --exact -n N ...` inside an allocation (or `sbatch
--wait`), pass the IOTUNER_* variables through `--export`, and allow as many trials at
once as the allocation has room for.
"""

import os
from collections.abc import Mapping, Sequence

from iotuner.search._common import SearchError

__all__ = ["Launcher", "LocalLauncher"]


class Launcher:
    """Base class: starts trial commands. Subclasses override what differs."""

    name = "base"

    def command(self, argv: Sequence[str], nprocs: int | None = None) -> list[str]:
        """The command to run for one trial, from the user's (placeholders already filled).

        `nprocs` is the number of ranks when the search knows it (a batch launcher needs it
        to size the job step); None otherwise.
        """
        raise NotImplementedError

    def env(self, variables: Mapping[str, str]) -> dict[str, str]:
        """The variables to add to the trial's environment, given the trial's own ones
        (application parameters); the IOTUNER_* variables are added by the runner."""
        return dict(variables)

    def slots(self, requested: int) -> int:
        """How many trials may run at once when `requested` are asked for (at least 1)."""
        if requested < 1:
            raise SearchError(f"the number of parallel trials must be >= 1, got {requested}")
        return 1


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
