"""What Open MPI's OMPIO takes only for a whole job, added by `iotuner run` (issue 11).

The interposer puts a table's ROMIO keys in OMPIO's terms file by file
(formats/ompio_map.def). Collective buffering *on* has no per-file OMPIO key: it is the
`fcoll` MCA parameter, read once at MPI_Init, so only the launcher's environment can carry
it (formats/ompio_job.def, with the measurements).
"""

import functools
import os
import re
import subprocess
from collections.abc import Mapping
from pathlib import Path

from iotuner.formats import ompio_job_settings, ompio_map
from iotuner.table import read_table

__all__ = [
    "is_open_mpi_library",
    "ompio_job_env",
    "ompio_selected",
    "open_mpi_major",
    "program_hints_for",
]

_OPEN_MPI_LIBRARY = re.compile(r"libmpi\.so\.40(\.|$)")
"""Open MPI's C library: soname 40 from 3.0 to 5.0 (MPICH's is 12, the ABI's 1)."""


def is_open_mpi_library(mpi_libraries: frozenset[Path]) -> bool:
    """True when these MPI libraries (runner's ldd view of the interposer) are Open MPI's."""
    return any(_OPEN_MPI_LIBRARY.search(p.name) for p in mpi_libraries)


def ompio_selected(env: Mapping[str, str]) -> bool:
    """Whether Open MPI will pick OMPIO under this environment's `io` selection: OMPIO has
    the highest priority, so it runs unless the list excludes it or names only others."""
    selection = env.get("OMPI_MCA_io", "")
    if not selection:
        return True
    if selection.startswith("^"):
        return "ompio" not in selection[1:].split(",")
    return "ompio" in selection.split(",")


def ompio_job_env(table: Path | str, env: Mapping[str, str]) -> tuple[dict[str, str], list[str]]:
    """The OMPI_MCA_ variables the table asks for that are safe to add (ompio_job.def) and
    `env` does not already set, and one line for each job-level setting the table asks
    for, saying whether it was added and why not."""
    wanted = {
        (key, str(value)) for entry in read_table(table) for key, value in entry.hints.items()
    }
    added: dict[str, str] = {}
    lines = []
    for setting in ompio_job_settings():
        variable = f"OMPI_MCA_{setting.parameter}"
        if (setting.key, setting.value) not in wanted:
            continue
        asked = (
            f"the table asks for {setting.key}={setting.value}, which Open MPI's OMPIO sets "
            f"only per job ({variable}={setting.mca_value})"
        )
        if not setting.safe:
            lines.append(
                f"{asked}; not added: {setting.evidence} (formats/hint_safety.md), so OMPIO "
                "keeps its own choice"
            )
        elif variable not in env and variable not in added:
            added[variable] = setting.mca_value
            lines.append(f"{asked}: added for every file of this job")
    return added, lines


@functools.cache
def open_mpi_major(mpiexec: str) -> int:
    """Open MPI's major version from its launcher ("mpiexec (OpenRTE) 4.1.4", "mpiexec
    (Open MPI) 5.0.11"); 0 when it is not Open MPI's or does not say."""
    try:
        version = subprocess.run(
            [mpiexec, "--version"], capture_output=True, text=True, timeout=30, check=False
        ).stdout
    except (OSError, subprocess.TimeoutExpired):
        return 0
    found = re.search(r"\((?:OpenRTE|Open MPI)\) (\d+)\.", version)
    return int(found.group(1)) if found else 0


def program_hints_for(hints: Mapping[str, str], mpiexec: str) -> dict[str, str]:
    """A configuration's hints as the program should pass them to the MPI `mpiexec`
    launches: unchanged, but under Open MPI's OMPIO put in its terms as the interposer puts
    a table's (formats/ompio_map.def), since OMPIO ignores ROMIO's keys. What OMPIO sets
    only per job (ompio_job.def) cannot vary between the lines of one kernel run: it is
    left out, and the measurement shows OMPIO's default for it."""
    major = open_mpi_major(mpiexec)
    if major == 0 or not ompio_selected(os.environ):
        return dict(hints)
    rows = ompio_map()
    passed: dict[str, str] = {}
    for key, value in hints.items():
        row = rows.get((key, str(value))) or rows.get((key, "*"))
        if row is None:
            continue
        ompio_key, ompio_value = row
        if ompio_value == "@off":  # Open MPI 4 reads any value but "false" as off
            ompio_value = "true" if major < 5 else "false"
        passed[ompio_key] = str(value) if ompio_value == "*" else ompio_value
    return passed
