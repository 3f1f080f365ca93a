"""The job as a whole: whether the log is complete, and the time its ranks spent in I/O.

Reads: the job's run time and ranks; the modules Darshan ran out of memory for; the
seconds (*_F_READ_TIME, *_F_WRITE_TIME, *_F_META_TIME) of each I/O path's lowest module,
MPI-IO's for files it has records of (it holds the POSIX calls under it).
Finds: records left out (the findings after it may undercount); I/O time past the run's
own (every time after it is an upper bound); the mean rank's I/O time.
Codes: job.partial, job.time_doubtful, job.io_time.
"""

from collections.abc import Iterable

from iotuner.diagnose import _thresholds as T
from iotuner.diagnose._finding import Finding
from iotuner.diagnose.checks._helpers import Check, Log, as_pct, as_secs, summed


def _io_call_times(ctx: Log) -> dict[str, float]:
    """The seconds the ranks spent in I/O calls, by counter, each call counted once: a
    file with MPI-IO records by their time (which holds the POSIX calls under them and the
    waits of collective calls, as the program sees them), every other file by its POSIX
    time; the other paths (STDIO, DAOS) by their lowest module's. RATIONALE: the POSIX
    time alone made "the mean rank spent 4.54 s in I/O calls, 1 %" of a job whose MPI-IO
    counters gave 608 s per rank, 92 % (issue 42)."""
    counters: dict[str, float] = {}
    kinds = ("READ", "WRITE", "META")
    for m, frame in ctx.stack_times().values():
        if m.stack != "posix":
            counters.update({m.time(kind): summed(frame, m.time(kind)) for kind in kinds})
            continue
        mpiio, posix = ctx.frame("MPI-IO", kind="all"), ctx.frame("POSIX", kind="all")
        if mpiio is None:
            counters.update(
                {f"POSIX_F_{kind}_TIME": summed(posix, f"POSIX_F_{kind}_TIME") for kind in kinds}
            )
            continue
        counters.update(
            {f"MPIIO_F_{kind}_TIME": summed(mpiio, f"MPIIO_F_{kind}_TIME") for kind in kinds}
        )
        if posix is not None:
            alone = posix[~posix["id"].isin(set(mpiio["id"]))]
            for kind in kinds:
                counters[f"POSIX_F_{kind}_TIME (files without MPI-IO)"] = summed(
                    alone, f"POSIX_F_{kind}_TIME"
                )
    return counters


def _job(ctx: Log) -> Iterable[Finding]:
    if ctx.partial:
        yield Finding(
            "job.partial",
            "warning",
            "job",
            "job",
            f"Darshan ran out of memory for records in {', '.join(ctx.partial)}: the counters "
            "miss some files, and every finding below may undercount",
            {},
            "raise DARSHAN_MODMEM (or DARSHAN_MOD_MEM) for the next run",
            None,
        )
    counters = _io_call_times(ctx)
    if not counters or not ctx.run_time:
        return
    per_rank = sum(counters.values()) / ctx.nprocs
    counters["run_time"] = ctx.run_time
    if per_rank > ctx.run_time + T.OVERLAP_SLACK_SECONDS:
        yield Finding(
            "job.time_doubtful",
            "warning",
            "job",
            "job",
            f"the I/O counters add to {as_secs(per_rank)} for the mean rank, more than the whole "
            f"{as_secs(ctx.run_time)} run: its calls overlapped (threads, asynchronous I/O) or "
            "the clocks are off, so every time below is an upper bound",
            dict(counters),
            "",
            None,
        )
    yield Finding(
        "job.io_time",
        "info",
        "job",
        "job",
        f"the mean rank spent {as_secs(per_rank)} in I/O calls, {as_pct(per_rank, ctx.run_time)} "
        f"of the {as_secs(ctx.run_time)} run",
        counters,
        "",
        per_rank,
    )


JOB = Check(
    "job",
    _job,
    {
        "job.partial": "Darshan ran out of memory for records: every finding may undercount",
        "job.time_doubtful": "the I/O counters add to more than the run: every time is an "
        "upper bound",
        "job.io_time": "the mean rank's seconds in I/O calls, and their share of the run",
    },
)
