"""The system a trace log's files were on: host, MPI library, file system type, driver
and mount point, as ingest stores a trace's rows under.

A trace does not record the file system; for a log from this host the mount table here
tells, so that traces and bench runs of the same machine land on the same system.
"""

import os
import socket
from pathlib import Path

from iotuner.measurement import System


def trace_system(
    host: str, mpi_library: str, driver: str, file: str, cwd: str | None = None
) -> System:
    """The system of a trace row. A trace does not record the file system; when the log
    comes from this host and names an absolute path (or a relative one and the job's
    working directory), the mount table here tells, so traces and bench runs of the same
    machine land on the same system."""
    here = socket.gethostname().split(".")[0]
    if not os.path.isabs(file) and cwd and os.path.isabs(cwd):
        file = os.path.join(cwd, file)
    if host == here and os.path.isabs(file):
        detected = System.detect(Path(file), mpi_library, driver)
        return System(host, detected.mpi_library, detected.fs_type, driver, detected.fs_mount)
    return System(host, mpi_library, "unknown", driver, "unknown")
