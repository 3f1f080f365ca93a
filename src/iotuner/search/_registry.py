"""Every launcher, by the name --launcher gives it: the one list of them.

RATIONALE: a launcher is listed here, not by registering itself when its module is
imported, so what exists does not hang on what happened to be imported first;
tests/search/test_launcher_contract.py holds every launcher listed here to the contract
of iotuner.search._launchers.
"""

from iotuner.search._launchers import Launcher, LocalLauncher
from iotuner.search._slurm import SlurmLauncher

__all__ = ["LAUNCHERS"]

LAUNCHERS: dict[str, type[Launcher]] = {
    launcher.name: launcher for launcher in (LocalLauncher, SlurmLauncher)
}
"""Every launcher by name (the registry the contract test runs over)."""
