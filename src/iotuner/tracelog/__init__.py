"""Trace logs (formats/README.md, "Trace log"): read and check one log of one job, say
which workload each of its operations was, the configuration, driver and system in force
for it, and find the temporary logs that jobs killed while writing them left behind.

This is the one reading of a trace: ingest, trace history, online tuning and the search
take records, line numbers, workloads and configurations from `TraceLog`, so they cannot
disagree on where, say, an operation's `nprocs` comes from.

The modules, one part each: `_records` (TraceLog, OpRows, the op columns of each writer's
generation), `_reading` (read_tracelog), `_checks` (what the format allows), `_workloads`
(the workload of each op row), `_in_force` (the configuration and driver of each hint
set), `_system` (the system a file was on) and `_leftovers` (logs of killed jobs).
"""

from iotuner.tracelog._in_force import configs_in_force
from iotuner.tracelog._leftovers import (
    EMPTY_STALE_AFTER_SECONDS,
    STALE_AFTER_SECONDS,
    TEMPORARY_LOG_NAME,
    LeftoverLog,
    leftover_logs,
    remove_leftover,
)
from iotuner.tracelog._reading import TRACE_LOG_MAX_BYTES, read_tracelog
from iotuner.tracelog._records import FORMAT, VERSION, OpRows, TraceLog
from iotuner.tracelog._system import trace_system
from iotuner.tracelog._workloads import dominant_workload

__all__ = [
    "EMPTY_STALE_AFTER_SECONDS",
    "FORMAT",
    "STALE_AFTER_SECONDS",
    "TEMPORARY_LOG_NAME",
    "TRACE_LOG_MAX_BYTES",
    "VERSION",
    "LeftoverLog",
    "OpRows",
    "TraceLog",
    "configs_in_force",
    "dominant_workload",
    "leftover_logs",
    "read_tracelog",
    "remove_leftover",
    "trace_system",
]

# The public names are this package's, wherever they are defined (help, reprs, pickles).
for _public in (
    LeftoverLog,
    OpRows,
    TraceLog,
    configs_in_force,
    dominant_workload,
    leftover_logs,
    read_tracelog,
    remove_leftover,
    trace_system,
):
    _public.__module__ = __name__
del _public
