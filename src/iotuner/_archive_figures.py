"""The figures of an archive run's rows (iotuner.archive):

* I/O time of a Darshan log (io_seconds_of_log): the slowest rank's time in reads, writes and
  metadata calls, as `darshan-parser --perf` estimates it: for files one rank opened, each rank's
  *_F_READ_TIME + *_F_WRITE_TIME + *_F_META_TIME summed over its files, the largest rank's sum;
  for files all ranks opened (rank -1 records), *_F_SLOWEST_RANK_TIME. Each file is counted in one
  module (MPI-IO where it has a record there, else POSIX, else STDIO) so a POSIX call made under an
  MPI-IO call is not counted twice; the modules' times are added. A trace log of ours: the slowest
  rank's time in the data calls of each group (no metadata time), added over the groups. The row
  says which (`io_basis`). Core-hours in I/O: nprocs x I/O seconds / 3600 (all wait the slowest).
* Core-hours at stake in a finding: nprocs x the finding's seconds / 3600 (what the mean rank could
  save or the slowest rank's lead: all ranks wait them); None when the log gives it no time.
* Core-hours to save: only from a recommendation that changes hints and carries a predicted gain
  interval: the group's time x (1 - 1 / the interval's lower bound), times its ranks (none when
  the lower bound is at most 1). No such recommendation: "unknown" (None), never a guess."""

import math
from typing import Any

import numpy as np

__all__ = [
    "MEAN_BASIS",
    "SLOWEST_BASIS",
    "TRACE_BASIS",
    "core_hours_to_save",
    "finding_core_hours",
    "io_seconds_of_log",
]

_MODULES = (("MPI-IO", "MPIIO"), ("POSIX", "POSIX"), ("STDIO", "STDIO"))
"""The modules whose time is counted, in the order a file is taken from."""

SLOWEST_BASIS = (
    "slowest rank: per-rank *_F_READ_TIME + *_F_WRITE_TIME + *_F_META_TIME for files of "
    "one rank, *_F_SLOWEST_RANK_TIME for shared files"
)
MEAN_BASIS = (
    "mean rank: *_F_READ_TIME + *_F_WRITE_TIME + *_F_META_TIME of shared files divided by "
    "the ranks (the log keeps no slowest-rank time)"
)
TRACE_BASIS = "trace: the slowest rank's time in the data calls (no metadata time)"


def io_seconds_of_log(frames: dict[str, Any], nprocs: int) -> tuple[float, str]:
    """The log's I/O time in seconds and the words of its basis (the module docstring):
    the slowest rank's, or the mean rank's where shared files lack the slowest-rank
    counter."""
    taken: set[int] = set()
    total = 0.0
    basis = SLOWEST_BASIS
    for module, prefix in _MODULES:
        frame = frames.get(module)
        if frame is None or frame.empty:
            continue
        ids = frame["id"].astype("int64")
        records = frame[~ids.isin(taken)]
        taken.update(int(i) for i in ids)
        columns = [f"{prefix}_F_{t}_TIME" for t in ("READ", "WRITE", "META")]
        ranks = records["rank"].to_numpy()
        times = np.zeros(len(records))
        for column in columns:
            if column in records:
                times += records[column].to_numpy(dtype=float).clip(0)
        shared = ranks == -1
        slowest = f"{prefix}_F_SLOWEST_RANK_TIME"
        if shared.any():
            if slowest in records:
                total += float(records[slowest].to_numpy(dtype=float)[shared].clip(0).sum())
            else:
                total += float(times[shared].sum()) / nprocs
                basis = MEAN_BASIS
        if not shared.all():
            own = ranks[~shared]
            _, index = np.unique(own, return_inverse=True)
            total += float(np.bincount(index, weights=times[~shared]).max())
    return total, basis


def core_hours_to_save(advice: Any) -> float | None:
    """Core-hours the advice saves at least (the module docstring), None when no
    recommendation changes hints with a predicted gain interval."""
    saved: float | None = None
    for r in advice.recommendations:
        interval = r.interval
        if not r.hints or interval is None or r.group.seconds is None:
            continue
        low = float(interval[0])
        fraction = 1.0 - 1.0 / low if low > 1.0 else 0.0
        saved = (saved or 0.0) + r.group.workload.nprocs * r.group.seconds * fraction / 3600
    return saved


def finding_core_hours(finding: dict[str, Any], nprocs: int) -> float | None:
    """The core-hours at stake in a finding of a log of `nprocs` ranks (the module
    docstring), None when the finding has no time."""
    seconds = finding.get("seconds")
    if not isinstance(seconds, int | float) or not math.isfinite(seconds):
        return None
    return nprocs * max(float(seconds), 0.0) / 3600
