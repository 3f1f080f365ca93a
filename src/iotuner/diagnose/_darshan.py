"""Findings from a Darshan log's counters (and its DXT trace when it has one).

diagnose_darshan(log) reads the plain data iotuner.ingest's reader returns
(_darshan_worker.read_log: job, names, frames of the POSIX, MPI-IO, STDIO, H5F, H5D,
PNETCDF_FILE, PNETCDF_VAR, DFS and DAOS records, Lustre stripes and storage targets, DXT
summaries) and says what in it costs time, each finding with the counters it rests on.
Thresholds: iotuner.diagnose._thresholds.

The checks live in iotuner.diagnose.checks, one module per concern, and run in the order
of its registry (CHECKS). The modules differ in their counters' names, not in what is
checked: MODULES (iotuner.diagnose._counters, with every counter the checks read) says for
each which counters it keeps, and the checks of request sizes, collective calls, bytes and
times loop over it.

Which records a check reads. Streams (<STDOUT> ...) count only for the STDIO share.
System files (iotuner.ingest.is_system_file: Python modules, libraries, /usr, /etc) count
for metadata time and get one finding of their own ("files.system"), not the data checks:
a thousand .pyc imports are small reads, but not the program's data layout. A record of
rank -1 is a file all ranks opened; Darshan summed its counters and its times over the
ranks, and keeps the slowest and fastest rank's bytes and time and their variances.

Time at stake (Finding.seconds) is per mean rank unless said: a module's summed time over
the records divided by nprocs, scaled by the share of calls the finding is about; for an
imbalance, the slowest rank's time past the mean's. A finding's level follows it
(checks.Log.level); a time past the run's own is said to be an upper bound (_doubted).
"""

import math
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from iotuner.diagnose import _thresholds as T
from iotuner.diagnose._counters import MODULES
from iotuner.diagnose._finding import LEVELS, Finding, ordered
from iotuner.diagnose.checks import CHECKS, Log
from iotuner.diagnose.checks._helpers import as_secs

__all__ = ["MODULES", "diagnose_darshan"]


def diagnose_darshan(log: Mapping[str, Any]) -> list[Finding]:
    """The findings of one log read by iotuner.ingest's reader, most important first."""
    ctx = Log.read(log)
    findings: list[Finding] = []
    for check in CHECKS:
        try:
            findings.extend(_doubted(ctx, _finite(f)) for f in check.run(ctx))
        except (KeyError, ValueError, TypeError, IndexError, ArithmeticError) as exc:
            # RATIONALE: a damaged log's counters can be anything (read_darshan's reason);
            # one check that cannot read them costs that check, said, not the advice.
            findings.append(
                Finding(
                    "job.unreadable",
                    "info",
                    "job",
                    "job",
                    f"the check {check.name} could not read the log's counters "
                    f"({type(exc).__name__}: {str(exc)[:100]})",
                    {},
                    "",
                    None,
                )
            )
    return ordered(findings)


def _doubted(ctx: Log, finding: Finding) -> Finding:
    """A finding whose time at stake passes the run's own: the calls it sums overlapped
    (threads, asynchronous I/O) or the clocks are off, so its time is an upper bound, said
    as one, held to the run time, and never critical (the log cannot show that much)."""
    limit = ctx.run_time
    seconds = finding.seconds
    if limit is None or seconds is None or seconds <= limit + T.OVERLAP_SLACK_SECONDS:
        return finding
    if finding.code == "job.io_time":
        return replace(finding, seconds=limit)  # job.time_doubtful says why
    # The quietest of: what it was, what the run time at stake gives, and a warning.
    level = LEVELS[max(LEVELS.index(finding.level), LEVELS.index(ctx.level(limit)), 1)]
    return replace(
        finding,
        level=level,
        seconds=limit,
        words=f"{finding.words}; {as_secs(seconds)} is more than the whole {as_secs(limit)} run, "
        "so these calls overlapped (threads, asynchronous I/O) or the clocks are off: an "
        "upper bound, not time lost",
    )


def _finite(finding: Finding) -> Finding:
    """The finding with NaN and infinite values dropped (a damaged log's counters can be
    anything; JSON has no NaN)."""
    counters = {k: float(v) for k, v in finding.counters.items() if math.isfinite(float(v))}
    seconds = finding.seconds
    if seconds is not None and not math.isfinite(seconds):
        seconds = None
    return replace(finding, counters=counters, seconds=seconds)
