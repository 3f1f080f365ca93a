"""Findings from a Darshan log's counters (and its DXT trace when it has one).

diagnose_darshan(log) reads the plain data iotuner.ingest's reader returns
(_darshan_worker.read_log), runs every check of iotuner.diagnose.checks.CHECKS on it, in
order, and returns what costs time, most important first. The counters the checks read:
iotuner.diagnose._counters; their thresholds: iotuner.diagnose._thresholds.

Streams (<STDOUT> ...) count only for the STDIO share; system files (Python modules,
libraries, /usr, /etc) for metadata time and "files.system", not the data checks. A record
of rank -1 is a file all ranks opened, its counters summed over them. Time at stake
(Finding.seconds) is per mean rank unless said; a finding's level follows it
(checks.Log.level), and a time past the run's own is said to be an upper bound (_doubted).
A check that raises on a damaged log's counters costs that check ("job.unreadable").
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
