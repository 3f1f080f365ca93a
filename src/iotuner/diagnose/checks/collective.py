"""Collective against independent calls, and blocking against nonblocking, at MPI-IO and PnetCDF.

Reads: each module's counts of calls by kind (MODULES' independent, collective and
nonblocking: MPIIO_INDEP_*, MPIIO_COLL_*, MPIIO_SPLIT_*, MPIIO_NB_*, PNETCDF_VAR_INDEP_*,
PNETCDF_VAR_COLL_*) and its read and write times.
Finds: independent calls past T.INDEPENDENT_SHARE and T.INDEPENDENT_CALLS, where collective
ones would let the library merge them; MPI-IO data calls all blocking.
Codes: mpiio.independent_write, mpiio.independent_read, pnetcdf.independent_write,
pnetcdf.independent_read, mpiio.blocking.
"""

from collections.abc import Iterable

from iotuner.diagnose import _thresholds as T
from iotuner.diagnose._counters import MODULES, OPS
from iotuner.diagnose._finding import Finding
from iotuner.diagnose.checks._helpers import Check, Log, as_pct, counters_of, mean_op_time, summed


def _independent(ctx: Log) -> Iterable[Finding]:
    """Independent calls where collective ones would let the library merge them, for each
    module that counts both."""
    for m in MODULES:
        frame = ctx.frame(m.name)
        if frame is None or m.independent is None or ctx.nprocs < m.collective_ranks:
            continue
        for op, upper, ops, _past in OPS:
            column = m.independent.format(ops=ops)
            if column not in frame:
                continue
            collective = [c.format(ops=ops) for c in m.collective]
            nonblocking = [c.format(ops=ops) for c in m.nonblocking]
            indep = summed(frame, column)
            coll = summed(frame, *collective)
            calls = indep + coll + summed(frame, *nonblocking)
            if not calls or indep <= T.INDEPENDENT_CALLS or indep / calls <= T.INDEPENDENT_SHARE:
                continue
            seconds = mean_op_time(frame, m.prefix, upper, ctx.nprocs) * indep / calls
            subject = ctx.name(frame.groupby("id")[column].sum().sort_values().index[-1])
            yield Finding(
                f"{m.collective_code}.independent_{op}",
                ctx.level(seconds),
                m.shown,
                subject,
                f"{indep:,.0f} of {calls:,.0f} {m.shown} {op} calls ({as_pct(indep, calls)}) were "
                f"independent, {coll:,.0f} collective; most on {subject}",
                {column: indep, **counters_of(frame, *collective, *nonblocking)},
                m.collective_action.format(op=op, verb="put" if op == "write" else "get"),
                seconds,
            )


def _blocking(ctx: Log) -> Iterable[Finding]:
    frame = ctx.frame("MPI-IO")
    if frame is None:
        return
    calls = summed(frame, "MPIIO_INDEP_READS", "MPIIO_INDEP_WRITES", "MPIIO_COLL_READS",
                 "MPIIO_COLL_WRITES", "MPIIO_SPLIT_READS", "MPIIO_SPLIT_WRITES")  # fmt: skip
    nb = summed(frame, "MPIIO_NB_READS", "MPIIO_NB_WRITES")
    if calls and not nb:
        yield Finding(
            "mpiio.blocking",
            "info",
            "MPI-IO",
            "job",
            f"all {calls:,.0f} MPI-IO data calls were blocking (none nonblocking)",
            {"MPIIO_NB_READS": 0.0, "MPIIO_NB_WRITES": 0.0, "MPI-IO calls": calls},
            "where computation could go on meanwhile, MPI_File_iwrite_all / iread_all (or "
            "HDF5's async VOL) overlap the I/O with it",
            None,
        )


INDEPENDENT = Check(
    "independent",
    _independent,
    {
        "mpiio.independent_write": "most MPI-IO writes were independent, not collective",
        "mpiio.independent_read": "most MPI-IO reads were independent, not collective",
        "pnetcdf.independent_write": "most PnetCDF writes were independent, not collective",
        "pnetcdf.independent_read": "most PnetCDF reads were independent, not collective",
    },
)
BLOCKING = Check(
    "blocking",
    _blocking,
    {"mpiio.blocking": "every MPI-IO data call was blocking (none nonblocking)"},
)
