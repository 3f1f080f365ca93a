"""Leftover logs: the temporary logs of jobs killed while rank 0 wrote them.

A log is written as `.<program>-<YYYYmmdd-HHMMSS>-<pid>.tmp` and renamed into place once
whole; one that stays unmodified long enough, with no process of its pid on this host, no
job will finish. `leftover_logs` finds them, `remove_leftover` removes one unless it
changed since.
"""

import os
import re
import time
from dataclasses import dataclass
from pathlib import Path

from iotuner.errors import TraceLogError

TEMPORARY_LOG_NAME = re.compile(r"\.(?P<program>.+)-\d{8}-\d{6}-(?P<pid>\d+)\.tmp")
"""The name a log has while rank 0 writes it, `.<program>-<YYYYmmdd-HHMMSS>-<pid>.tmp`."""

STALE_AFTER_SECONDS = 10 * 60
"""A temporary log with data, unmodified this long, was left by a job killed writing it.

RATIONALE: rank 0 writes a log in one go at MPI_Finalize, each rank's text as soon as it
arrives, so its modification time never stands still for more than seconds while it is
written. Ten minutes is far beyond that, with room for a file system that stalls for a
while and for a file server's clock that runs ahead of this host's.
"""

EMPTY_STALE_AFTER_SECONDS = 24 * 60 * 60
"""An empty temporary log, unmodified this long, was left by a job killed writing it.

RATIONALE: the interposer creates the file before waiting at MPI_Finalize for the other
ranks to arrive, and writes nothing until they have, which lasts as long as the slowest
rank's remaining work; an empty file is no sign of a dead writer until much later (and it
takes no space meanwhile).
"""


@dataclass(frozen=True)
class LeftoverLog:
    """A temporary log that no job will finish: its size and when it was last written."""

    path: Path
    size: int
    modified: float
    """Unix seconds."""


def leftover_logs(directory: Path | str, *, now: float | None = None) -> list[LeftoverLog]:
    """The temporary logs in `directory` left by jobs killed while writing them, by name.

    A temporary log (TEMPORARY_LOG_NAME) is left over when it has not been modified for
    STALE_AFTER_SECONDS (EMPTY_STALE_AFTER_SECONDS when empty), and no process with the pid
    in its name runs on this host (that may be its writer). Complete logs, other files and
    symbolic links are never reported. TraceLogError when the directory cannot be listed.
    """
    directory = Path(directory)
    now = time.time() if now is None else now
    try:
        entries = sorted(os.scandir(directory), key=lambda e: e.name)
    except OSError as exc:
        raise TraceLogError(
            f"cannot list the log directory {directory}: {exc.strerror or exc}"
        ) from None
    leftovers = []
    for entry in entries:
        name = TEMPORARY_LOG_NAME.fullmatch(entry.name)
        try:
            if name is None or not entry.is_file(follow_symlinks=False):
                continue
            info = entry.stat(follow_symlinks=False)
        except OSError:
            continue  # renamed into place (or removed) since the listing
        leftover = LeftoverLog(Path(entry.path), info.st_size, info.st_mtime)
        if _is_stale(leftover, now) and not _process_runs(int(name["pid"])):
            leftovers.append(leftover)
    return leftovers


def remove_leftover(leftover: LeftoverLog) -> bool:
    """Remove a leftover temporary log unless it changed since it was found.

    False when it was modified, grew or is gone meanwhile (a writer after all, or another
    clean-up); OSError when it cannot be removed.
    """
    try:
        info = leftover.path.stat(follow_symlinks=False)
    except FileNotFoundError:
        return False
    if (info.st_size, info.st_mtime) != (leftover.size, leftover.modified):
        return False
    try:
        leftover.path.unlink()
    except FileNotFoundError:
        return False
    return True


def _is_stale(leftover: LeftoverLog, now: float) -> bool:
    limit = STALE_AFTER_SECONDS if leftover.size else EMPTY_STALE_AFTER_SECONDS
    return now - leftover.modified >= limit


def _process_runs(pid: int) -> bool:
    """Whether a process with this pid exists on this host (anyone's)."""
    if pid <= 0:
        return False  # 0 would ask about our own process group
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process
    except OverflowError:
        return False  # no pid is that large
    return True
