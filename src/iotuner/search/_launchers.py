"""How a trial's command is started: the extension point for batch systems.

A Launcher turns the command the user gave after `--` into the command that is run, adds
what the environment needs, and says how many trials may run at once. The search never
builds a shell line: the command stays a list of arguments from start to end. LAUNCHERS
lists every implementation by name; tests/search/test_launcher_contract.py holds each of
them to the contract below.

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

Only LocalLauncher exists today: it runs the user's command as given (which starts with
their own launcher, e.g. `mpiexec -n 4`) on this machine. A Slurm launcher would subclass
Launcher, wrap the command in `srun --exact -n N ...` inside an allocation (or `sbatch
--wait`), give the interposer to the ranks through `--export`, allow as many trials at
once as the allocation has room for, say in unavailable() when there is no allocation,
and be added to LAUNCHERS.
"""

import os
from collections.abc import Mapping, Sequence

from iotuner.search._common import SearchError

__all__ = ["LAUNCHERS", "Launcher", "LocalLauncher"]


class Launcher:
    """Base class: starts trial commands. Subclasses override what differs."""

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


LAUNCHERS: dict[str, type[Launcher]] = {LocalLauncher.name: LocalLauncher}
"""Every launcher by name (the registry the contract test runs over)."""
