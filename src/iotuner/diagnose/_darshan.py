"""Findings from a Darshan log's counters (and its DXT trace when it has one).

diagnose_darshan(log) reads the plain data iotuner.ingest's reader returns
(_darshan_worker.read_log: job, names, frames of the POSIX, MPI-IO, STDIO, H5F, H5D,
PNETCDF_FILE, PNETCDF_VAR, DFS and DAOS records, Lustre stripes and storage targets, DXT
summaries) and says what in it costs time, each finding with the counters it rests on.
Thresholds: iotuner.diagnose._thresholds.

The modules differ in their counters' names, not in what is checked: MODULES says for each
which counters it keeps, and the checks of request sizes, collective calls, bytes and
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
(_Log.level); a time past the run's own is said to be an upper bound (_doubted).
"""

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pandas as pd

from iotuner.diagnose import _thresholds as T
from iotuner.diagnose._finding import LEVELS, Finding, ordered
from iotuner.ingest._darshan import is_system_file

__all__ = ["MODULES", "diagnose_darshan"]

_STREAMS = {"<STDIN>", "<STDOUT>", "<STDERR>"}
_BINS = ("0_100", "100_1K", "1K_10K", "10K_100K", "100K_1M")
"""Darshan's size bins under T.SMALL_REQUEST_BYTES (1 MiB)."""
_OPS = (("write", "WRITE", "WRITES", "WRITTEN"), ("read", "READ", "READS", "READ"))


@dataclass(frozen=True)
class _Module:
    """How one Darshan module's counters differ from the others'.

    name: the module (the key of the reader's frames); prefix: its counters' prefix;
    shown: the layer as findings name it; stack and depth: the I/O path its bytes take and
    its place on it (0 the lowest): the modules of one stack see the same bytes at their
    layers, so the path's bytes are its largest module's and its time its lowest's (an
    upper layer's time holds the waits of collective calls); sizes: its size histogram's
    counters ({op}, {b}: a bin), None without one; calls: its count of calls ({ops}), None
    where the histogram's sum is the count; shared_small: whether small calls on files all
    ranks share are a finding of their own (Drishti's); usage: how a finding names I/O
    through it that the POSIX and MPI-IO modules do not see, None for no such finding;
    independent, collective, nonblocking: its counters of calls by kind ({ops}), for the
    check of independent calls; collective_code and collective_action: that check's code
    prefix and advice ({op}: write or read; {verb}: put or get); collective_ranks: the
    fewest ranks for which collective calls apply.
    """

    name: str
    prefix: str
    shown: str
    stack: str
    depth: int
    sizes: str | None = None
    calls: str | None = None
    shared_small: bool = False
    usage: str | None = None
    independent: str | None = None
    collective: tuple[str, ...] = ()
    nonblocking: tuple[str, ...] = ()
    collective_code: str = ""
    collective_action: str = ""
    collective_ranks: int = 1

    def time(self, upper: str) -> str:
        """The counter of its seconds in `upper` (READ, WRITE, META) calls."""
        return f"{self.prefix}_F_{upper}_TIME"

    def moved(self, past: str) -> str:
        """The counter of its bytes `past` (READ, WRITTEN)."""
        return f"{self.prefix}_BYTES_{past}"


MODULES = (
    _Module("POSIX", "POSIX", "POSIX", "posix", 0, sizes="POSIX_SIZE_{op}_{b}",
            calls="POSIX_{ops}", shared_small=True),
    _Module(
        "MPI-IO", "MPIIO", "MPI-IO", "posix", 1, sizes="MPIIO_SIZE_{op}_AGG_{b}",
        independent="MPIIO_INDEP_{ops}", collective=("MPIIO_COLL_{ops}", "MPIIO_SPLIT_{ops}"),
        nonblocking=("MPIIO_NB_{ops}",), collective_code="mpiio",
        collective_action="use collective calls (MPI_File_{op}_all / _at_all) so MPI-IO can "
        "merge the ranks' requests through aggregators (then the cb_* hints apply)",
    ),
    _Module("H5D", "H5D", "HDF5", "posix", 2, sizes="H5D_SIZE_{op}_AGG_{b}", calls="H5D_{ops}"),
    _Module(
        "PNETCDF_VAR", "PNETCDF_VAR", "PnetCDF", "posix", 2,
        sizes="PNETCDF_VAR_SIZE_{op}_AGG_{b}", independent="PNETCDF_VAR_INDEP_{ops}",
        collective=("PNETCDF_VAR_COLL_{ops}",), collective_code="pnetcdf",
        collective_action="use the collective forms (ncmpi_{verb}_vara_all) or the "
        "nonblocking ones with ncmpi_wait_all, which merge requests",
        collective_ranks=2,
    ),
    _Module("STDIO", "STDIO", "STDIO", "stdio", 0),
    _Module("DAOS", "DAOS", "DAOS", "daos", 0, sizes="DAOS_SIZE_{op}_{b}",
            usage="DAOS objects"),
    _Module("DFS", "DFS", "DFS", "daos", 1, sizes="DFS_SIZE_{op}_{b}", usage="DAOS (DFS)"),
)  # fmt: skip
"""Every module the checks loop over, in the order their findings are made."""


@dataclass(frozen=True)
class _Log:
    nprocs: int
    run_time: float | None
    names: Mapping[int, str]
    frames: Mapping[str, pd.DataFrame]
    stripes: Mapping[int, tuple[int, int]]
    osts: Mapping[int, tuple[int, ...]]
    dxt: Mapping[str, Mapping[str, Any]]
    partial: list[str]

    def name(self, ident: Any) -> str:
        return str(self.names.get(int(ident), f"record {int(ident)}"))

    def frame(self, module: str, *, kind: str = "data") -> pd.DataFrame | None:
        """The module's records of `kind`: "data" (not streams, not system files),
        "system", or "all" (everything but streams)."""
        frame = self.frames.get(module)
        if frame is None or frame.empty:
            return None
        names = [self.name(i) for i in frame["id"]]
        if kind == "all":
            keep = [n not in _STREAMS for n in names]
        else:
            system = [is_system_file(n) for n in names]
            keep = [
                n not in _STREAMS and (s if kind == "system" else not s)
                for n, s in zip(names, system, strict=True)
            ]
        mine = frame[keep]
        return None if mine.empty else mine

    def level(self, seconds: float | None) -> str:
        """A finding's level from its time at stake: information under
        T.WARNING_FLOOR_SECONDS or when unknown; else by its share of the run (or, without
        a run time, by itself), and critical only from T.CRITICAL_FLOOR_CORE_HOURS at
        stake."""
        if seconds is None or seconds < T.WARNING_FLOOR_SECONDS:
            return "info"
        if self.run_time:
            share = seconds / self.run_time
            critical, warning = share >= T.SHARE_OF_RUN_CRITICAL, share >= T.SHARE_OF_RUN_WARNING
        else:
            critical, warning = seconds >= T.SECONDS_CRITICAL, seconds >= T.SECONDS_WARNING
        critical = critical and seconds * self.nprocs >= T.CRITICAL_FLOOR_CORE_HOURS * 3600
        return "critical" if critical else "warning" if warning else "info"

    def stack_bytes(self) -> dict[str, float]:
        """Each I/O path's bytes (streams included): its largest module's, as the modules
        of one path see the same bytes."""
        moved: dict[str, float] = {}
        for m in MODULES:
            here = _sum(self.frames.get(m.name), m.moved("READ"), m.moved("WRITTEN"))
            moved[m.stack] = max(moved.get(m.stack, 0.0), here)
        return moved

    def stack_times(self) -> dict[str, tuple[_Module, pd.DataFrame]]:
        """Each I/O path's lowest module with records (streams included): whose times are
        the path's."""
        lowest: dict[str, tuple[_Module, pd.DataFrame]] = {}
        for m in sorted(MODULES, key=lambda m: m.depth):
            frame = self.frame(m.name, kind="all")
            if frame is not None and m.stack not in lowest:
                lowest[m.stack] = (m, frame)
        return lowest


def _sum(frame: pd.DataFrame | None, *columns: str) -> float:
    """The columns' total; Darshan's -1 (a counter the log's version did not keep) is 0."""
    if frame is None:
        return 0.0
    return float(sum(frame[c].clip(lower=0).sum() for c in columns if c in frame))


def _column(frame: pd.DataFrame, column: str) -> pd.Series:
    """The column, negatives (-1: not kept) as 0; zeros where the log's version lacks it."""
    if column not in frame:
        return pd.Series(0.0, index=frame.index)
    return frame[column].clip(lower=0).astype(float)


def _counters(frame: pd.DataFrame | None, *columns: str) -> dict[str, float]:
    return {c: _sum(frame, c) for c in columns if frame is not None and c in frame}


def _pct(part: float, whole: float) -> str:
    return f"{100 * part / whole:.0f}%" if whole else "0%"


def _size(nbytes: float) -> str:
    for unit, scale in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if nbytes >= scale:
            return f"{nbytes / scale:.1f} {unit}"
    return f"{nbytes:.0f} B"


def _secs(seconds: float) -> str:
    return f"{seconds:.3g} s"


def diagnose_darshan(log: Mapping[str, Any]) -> list[Finding]:
    """The findings of one log read by iotuner.ingest's reader, most important first."""
    job = log.get("job", {})
    nprocs = int(job.get("nprocs") or 1)
    run_time = job.get("run_time")
    run = float(run_time) if run_time and float(run_time) > 0 else None
    ctx = _Log(
        nprocs=max(nprocs, 1),
        run_time=run,
        names=log.get("names", {}),
        frames=log.get("frames", {}),
        stripes=log.get("stripes", {}),
        osts=log.get("osts", {}),
        dxt=log.get("dxt", {}),
        partial=[m for m, flag in log.get("modules", {}).items() if flag],
    )
    findings: list[Finding] = []
    for check in _CHECKS:
        try:
            findings.extend(_doubted(ctx, _finite(f)) for f in check(ctx))
        except (KeyError, ValueError, TypeError, IndexError, ArithmeticError) as exc:
            # RATIONALE: a damaged log's counters can be anything (read_darshan's reason);
            # one check that cannot read them costs that check, said, not the advice.
            findings.append(
                Finding(
                    "job.unreadable",
                    "info",
                    "job",
                    "job",
                    f"the check {check.__name__.lstrip('_')} could not read the log's counters "
                    f"({type(exc).__name__}: {str(exc)[:100]})",
                    {},
                    "",
                    None,
                )
            )
    return ordered(findings)


def _doubted(ctx: _Log, finding: Finding) -> Finding:
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
        words=f"{finding.words}; {_secs(seconds)} is more than the whole {_secs(limit)} run, "
        "so these calls overlapped (threads, asynchronous I/O) or the clocks are off: an "
        "upper bound, not time lost",
    )


# --------------------------------------------------------------------------- job


def _io_call_times(ctx: _Log) -> dict[str, float]:
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
            counters.update({m.time(kind): _sum(frame, m.time(kind)) for kind in kinds})
            continue
        mpiio, posix = ctx.frame("MPI-IO", kind="all"), ctx.frame("POSIX", kind="all")
        if mpiio is None:
            counters.update(
                {f"POSIX_F_{kind}_TIME": _sum(posix, f"POSIX_F_{kind}_TIME") for kind in kinds}
            )
            continue
        counters.update(
            {f"MPIIO_F_{kind}_TIME": _sum(mpiio, f"MPIIO_F_{kind}_TIME") for kind in kinds}
        )
        if posix is not None:
            alone = posix[~posix["id"].isin(set(mpiio["id"]))]
            for kind in kinds:
                counters[f"POSIX_F_{kind}_TIME (files without MPI-IO)"] = _sum(
                    alone, f"POSIX_F_{kind}_TIME"
                )
    return counters


def _job(ctx: _Log) -> Iterable[Finding]:
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
            f"the I/O counters add to {_secs(per_rank)} for the mean rank, more than the whole "
            f"{_secs(ctx.run_time)} run: its calls overlapped (threads, asynchronous I/O) or "
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
        f"the mean rank spent {_secs(per_rank)} in I/O calls, {_pct(per_rank, ctx.run_time)} "
        f"of the {_secs(ctx.run_time)} run",
        counters,
        "",
        per_rank,
    )


# --------------------------------------------------------------------------- interfaces


def _interfaces(ctx: _Log) -> Iterable[Finding]:
    stdio = ctx.frames.get("STDIO")
    posix = ctx.frames.get("POSIX")
    mpiio = ctx.frames.get("MPI-IO")
    stdio_bytes = _sum(stdio, "STDIO_BYTES_READ", "STDIO_BYTES_WRITTEN")
    posix_bytes = _sum(posix, "POSIX_BYTES_READ", "POSIX_BYTES_WRITTEN")
    paths = ctx.stack_bytes()
    total = sum(paths.values())
    if stdio is not None and total and stdio_bytes / total > T.STDIO_SHARE:
        seconds = _sum(stdio, "STDIO_F_READ_TIME", "STDIO_F_WRITE_TIME") / ctx.nprocs
        top = stdio.assign(b=stdio["STDIO_BYTES_READ"] + stdio["STDIO_BYTES_WRITTEN"])
        subject = ctx.name(top.sort_values("b", ascending=False)["id"].iloc[0])
        yield Finding(
            "interface.stdio",
            ctx.level(seconds),
            "STDIO",
            subject,
            f"{_size(stdio_bytes)} ({_pct(stdio_bytes, total)} of all bytes) went through "
            f"STDIO (fread, fwrite, fprintf), most to {subject}",
            {
                "STDIO_BYTES_READ": _sum(stdio, "STDIO_BYTES_READ"),
                "STDIO_BYTES_WRITTEN": _sum(stdio, "STDIO_BYTES_WRITTEN"),
                "total_bytes": total,
                **{f"{path} bytes": float(n) for path, n in paths.items() if path != "stdio"},
            },
            "move bulk data to MPI-IO or a library over it (HDF5, PnetCDF); keep STDIO for "
            "logs and small text",
            seconds,
        )
    if mpiio is None and (posix is not None or stdio is not None):
        yield Finding(
            "interface.no_mpiio",
            "info",
            "job",
            "job",
            f"no file went through MPI-IO: {_size(max(posix_bytes, 0))} moved through POSIX "
            f"and {_size(stdio_bytes)} through STDIO, where MPI-IO hints cannot act",
            {"POSIX_BYTES": posix_bytes, "STDIO_BYTES": stdio_bytes},
            "for data shared by many ranks, MPI-IO (or HDF5/PnetCDF over it) lets the "
            "library aggregate and tune the accesses",
            None,
        )


# --------------------------------------------------------------------------- requests


def _op_time(frame: pd.DataFrame, p: str, upper: str, nprocs: int) -> float:
    return _sum(frame, f"{p}_F_{upper}_TIME") / nprocs


def _collective_already(ctx: _Log, ids: Iterable[Any], ops: str) -> str | None:
    """Where the files `ids` have MPI-IO records whose `ops` (WRITES, READS) are collective
    past T.COLLECTIVE_ALREADY_SHARE: the words saying so ("12,000 of 12,004 MPI-IO writes
    on these files were collective already"), else None. Their POSIX calls are then the
    aggregators' own, and advice to make the I/O collective would be advice to do what the
    program does (issue 42: 17 findings on 5 logs whose MPI-IO calls were 99.7 % or more
    collective)."""
    frame = ctx.frame("MPI-IO")
    if frame is None:
        return None
    mine = frame[frame["id"].isin(set(ids))]
    collective = _sum(mine, f"MPIIO_COLL_{ops}", f"MPIIO_SPLIT_{ops}")
    calls = collective + _sum(mine, f"MPIIO_INDEP_{ops}", f"MPIIO_NB_{ops}")
    if not calls or collective / calls < T.COLLECTIVE_ALREADY_SHARE:
        return None
    return (
        f"{collective:,.0f} of {calls:,.0f} MPI-IO {ops.lower()} on these files were "
        "collective already"
    )


def _aggregators_action(already: str, op: str) -> str:
    """Advice for POSIX calls that collective buffering made (_collective_already)."""
    return (
        f"{already}: these {op}s are collective buffering's own, so give it larger, aligned "
        "pieces: cb_buffer_size a multiple of the stripe size, and cb_nodes so that each "
        "aggregator writes whole stripes"
    )


def _small(ctx: _Log) -> Iterable[Finding]:
    """Small calls from the size histogram of each module that keeps one."""
    for m in MODULES:
        frame = ctx.frame(m.name)
        if frame is None or m.sizes is None:
            continue
        for op, upper, ops, _past in _OPS:
            bins = [m.sizes.format(op=upper, b=b) for b in _BINS]
            every = [c for c in frame.columns if c.startswith(m.sizes.format(op=upper, b=""))]
            small = _sum(frame, *bins)
            calls = _sum(frame, m.calls.format(ops=ops)) if m.calls else 0.0
            calls = max(calls, _sum(frame, *every))
            if not calls or small / calls <= T.SMALL_REQUEST_SHARE:
                continue
            if small <= T.SMALL_REQUEST_CALLS:
                continue
            share = small / calls
            seconds = _op_time(frame, m.prefix, upper, ctx.nprocs) * share
            per_file = frame.assign(s=frame[[b for b in bins if b in frame]].sum(axis=1))
            worst = per_file.groupby("id")["s"].sum().sort_values(ascending=False)
            subject = ctx.name(worst.index[0])
            already = (
                _collective_already(ctx, worst[worst > 0].index, ops) if m.name == "POSIX" else None
            )
            yield Finding(
                f"requests.small_{op}",
                ctx.level(seconds),
                m.shown,
                subject,
                f"{small:,.0f} of {calls:,.0f} {m.shown} {op} calls ({_pct(small, calls)}) "
                f"moved under {_size(T.SMALL_REQUEST_BYTES)} each, from the size histogram; "
                f"most in {subject}",
                {**_counters(frame, *bins), f"{op} calls": calls},
                _aggregators_action(already, op)
                if already
                else f"{op} fewer, larger blocks: buffer in memory, or let collective MPI-IO "
                "aggregate them (collective buffering, data sieving)",
                seconds,
            )
            if m.shared_small and m.calls:
                yield from _small_shared(ctx, m, frame, op, upper, m.calls.format(ops=ops), bins)


def _small_shared(
    ctx: _Log, m: _Module, frame: pd.DataFrame, op: str, upper: str, calls: str, bins: list[str]
) -> Iterable[Finding]:
    """Small calls on the files all ranks share (records of rank -1)."""
    shared = frame[frame["rank"] == -1]
    shared_small = _sum(shared, *bins)
    shared_calls = _sum(shared, calls)
    if (
        not shared_calls
        or shared_small / shared_calls <= T.SMALL_REQUEST_SHARE
        or shared_small <= T.SMALL_REQUEST_CALLS
    ):
        return
    sec = _op_time(shared, m.prefix, upper, ctx.nprocs) * shared_small / shared_calls
    worst = shared.assign(s=shared[bins].sum(axis=1)).sort_values("s", ascending=False)
    name = ctx.name(worst["id"].iloc[0])
    yield Finding(
        f"requests.small_shared_{op}",
        ctx.level(sec),
        m.shown,
        name,
        f"{shared_small:,.0f} of {shared_calls:,.0f} {m.shown} {op} calls on files all "
        f"ranks share moved under {_size(T.SMALL_REQUEST_BYTES)}; most in {name}",
        {**_counters(shared, *bins), calls: shared_calls},
        "small calls of many ranks on one file contend for its locks: make them "
        "collective (MPI_File_write_all) so aggregators issue large ones",
        sec,
    )


def _independent(ctx: _Log) -> Iterable[Finding]:
    """Independent calls where collective ones would let the library merge them, for each
    module that counts both."""
    for m in MODULES:
        frame = ctx.frame(m.name)
        if frame is None or m.independent is None or ctx.nprocs < m.collective_ranks:
            continue
        for op, upper, ops, _past in _OPS:
            column = m.independent.format(ops=ops)
            if column not in frame:
                continue
            collective = [c.format(ops=ops) for c in m.collective]
            nonblocking = [c.format(ops=ops) for c in m.nonblocking]
            indep = _sum(frame, column)
            coll = _sum(frame, *collective)
            calls = indep + coll + _sum(frame, *nonblocking)
            if not calls or indep <= T.INDEPENDENT_CALLS or indep / calls <= T.INDEPENDENT_SHARE:
                continue
            seconds = _op_time(frame, m.prefix, upper, ctx.nprocs) * indep / calls
            subject = ctx.name(frame.groupby("id")[column].sum().sort_values().index[-1])
            yield Finding(
                f"{m.collective_code}.independent_{op}",
                ctx.level(seconds),
                m.shown,
                subject,
                f"{indep:,.0f} of {calls:,.0f} {m.shown} {op} calls ({_pct(indep, calls)}) were "
                f"independent, {coll:,.0f} collective; most on {subject}",
                {column: indep, **_counters(frame, *collective, *nonblocking)},
                m.collective_action.format(op=op, verb="put" if op == "write" else "get"),
                seconds,
            )


# --------------------------------------------------------------------------- POSIX data


def _misaligned(ctx: _Log) -> Iterable[Finding]:
    frame = ctx.frame("POSIX")
    if frame is None:
        return
    calls = _sum(frame, "POSIX_READS", "POSIX_WRITES")
    if not calls:
        return
    io_time = _sum(frame, "POSIX_F_READ_TIME", "POSIX_F_WRITE_TIME") / ctx.nprocs
    for kind, column, align in (
        ("file", "POSIX_FILE_NOT_ALIGNED", "POSIX_FILE_ALIGNMENT"),
        ("memory", "POSIX_MEM_NOT_ALIGNED", "POSIX_MEM_ALIGNMENT"),
    ):
        off = _sum(frame, column)
        if off / calls <= T.MISALIGNED_SHARE:
            continue
        alignment = float(frame[align].max()) if align in frame else 0.0
        worst = frame.groupby("id")[column].sum().sort_values(ascending=False)
        subject = ctx.name(worst.index[0])
        seconds = io_time * off / calls
        what = "file offsets" if kind == "file" else "memory buffers"
        yield Finding(
            f"requests.misaligned_{kind}",
            ctx.level(seconds),
            "POSIX",
            subject,
            f"{off:,.0f} of {calls:,.0f} POSIX calls ({_pct(off, calls)}) had {what} off the "
            f"{alignment:,.0f}-byte alignment; most in {subject}",
            {column: off, align: alignment, "POSIX_READS+POSIX_WRITES": calls},
            (
                "start each rank's block on a stripe (or block) boundary: pad records, or set "
                "the HDF5 alignment (H5Pset_alignment) to the stripe size"
                if kind == "file"
                else f"allocate I/O buffers aligned to {alignment:,.0f} bytes (posix_memalign)"
            ),
            seconds,
        )


def _access(ctx: _Log) -> Iterable[Finding]:
    frame = ctx.frame("POSIX")
    if frame is None:
        return
    for op, upper, ops, _past in _OPS:
        calls = _sum(frame, f"POSIX_{ops}")
        if not calls:
            continue
        consec = _sum(frame, f"POSIX_CONSEC_{ops}")
        seq = _sum(frame, f"POSIX_SEQ_{ops}")
        random = max(calls - seq, 0.0)
        gapped = max(seq - consec, 0.0)
        counters = {f"POSIX_{ops}": calls, f"POSIX_SEQ_{ops}": seq, f"POSIX_CONSEC_{ops}": consec}
        op_time = _op_time(frame, "POSIX", upper, ctx.nprocs)
        if random / calls > T.RANDOM_SHARE and random > T.RANDOM_CALLS:
            seconds = op_time * random / calls
            rnd = frame.assign(r=frame[f"POSIX_{ops}"] - frame[f"POSIX_SEQ_{ops}"])
            by_file = rnd.groupby("id")["r"].sum().sort_values()
            subject = ctx.name(by_file.index[-1])
            already = _collective_already(ctx, by_file[by_file > 0].index, ops)
            yield Finding(
                f"access.random_{op}",
                ctx.level(seconds),
                "POSIX",
                subject,
                f"{random:,.0f} of {calls:,.0f} POSIX {op}s ({_pct(random, calls)}) went "
                f"backwards in the file (neither consecutive nor sequential); most in {subject}",
                counters,
                _aggregators_action(already, op)
                if already
                else f"sort the {op}s by offset, or gather them into one collective call over "
                "a file view, so the file system can stream",
                seconds,
            )
        elif gapped / calls > T.GAPPED_SHARE:
            yield Finding(
                f"access.strided_{op}",
                "info",
                "POSIX",
                "job",
                f"{gapped:,.0f} of {calls:,.0f} POSIX {op}s ({_pct(gapped, calls)}) moved "
                "forward with a gap after the one before (strided): "
                f"{consec:,.0f} were consecutive",
                counters,
                _aggregators_action(already, op)
                if (already := _collective_already(ctx, frame["id"], ops))
                else "a strided pattern: collective I/O over a file view (or data sieving) "
                "turns it into large contiguous accesses",
                None,
            )


def _traffic(ctx: _Log) -> Iterable[Finding]:
    frame = ctx.frame("POSIX")
    if frame is None:
        return
    for op, upper, _ops, past in _OPS:
        moved_col, max_col = f"POSIX_BYTES_{past}", f"POSIX_MAX_BYTE_{past}"
        per_file = frame.groupby("id").agg(moved=(moved_col, "sum"), top=(max_col, "max"))
        per_file = per_file[per_file["moved"] > 0]
        if per_file.empty:
            continue
        extent = per_file["top"].clip(lower=-1) + 1
        excess = (per_file["moved"] - extent).clip(lower=0)
        redundant = per_file[(excess > T.REDUNDANT_SHARE * extent) & (excess >= T.REDUNDANT_BYTES)]
        if not redundant.empty:
            extra = float(excess[redundant.index].sum())
            moved = float(per_file["moved"].sum())
            worst = excess[redundant.index].sort_values().index[-1]
            subject = ctx.name(worst)
            seconds = _op_time(frame, "POSIX", upper, ctx.nprocs) * extra / moved
            yield Finding(
                f"traffic.redundant_{op}",
                ctx.level(seconds),
                "POSIX",
                subject,
                f"{len(redundant)} file(s) had {_size(extra)} {past.lower()} "
                f"beyond their extent (the same bytes moved again), most {subject}: "
                f"{_size(per_file.loc[worst, 'moved'])} for {_size(extent[worst])}",
                {
                    moved_col: float(per_file.loc[worst, "moved"]),
                    max_col: float(per_file.loc[worst, "top"]),
                },
                (
                    "read shared input once (one rank, then MPI_Bcast) or cache it"
                    if op == "read"
                    else "write each region once: overwrites cost the full transfer again"
                ),
                seconds,
            )
        # Drishti's test, kept as information: the highest offset past the bytes moved.
        top, moved_all = float(frame[max_col].max()), _sum(frame, moved_col)
        if top + 1 > moved_all > 0:
            yield Finding(
                f"access.sparse_{op}",
                "info",
                "POSIX",
                "job",
                f"the highest offset {past.lower()} is {_size(top + 1)}, "
                f"{_size(top + 1 - moved_all)} past the {_size(moved_all)} {past.lower()} in "
                "all: parts of the files were skipped (or left as holes)",
                {max_col: top, moved_col: moved_all},
                "",
                None,
            )


def _metadata(ctx: _Log) -> Iterable[Finding]:
    frame = ctx.frame("POSIX", kind="all")
    if frame is None:
        return
    meta = _sum(frame, "POSIX_F_META_TIME")
    data = _sum(frame, "POSIX_F_READ_TIME", "POSIX_F_WRITE_TIME")
    slow = frame[frame["POSIX_F_META_TIME"] > T.METADATA_RECORD_SECONDS]
    per_rank = meta / ctx.nprocs
    heavy = meta + data > 0 and meta / (meta + data) > T.METADATA_SHARE
    if slow.empty and not (heavy and per_rank >= T.METADATA_SECONDS):
        return
    worst = frame.sort_values("POSIX_F_META_TIME", ascending=False)
    subject = ctx.name(worst["id"].iloc[0])
    system = ctx.frame("POSIX", kind="system")
    system_meta = _sum(system, "POSIX_F_META_TIME")
    yield Finding(
        "metadata.time",
        ctx.level(per_rank),
        "POSIX",
        subject,
        f"the mean rank spent {_secs(per_rank)} in metadata calls (open, stat, seek, sync) "
        f"against {_secs(data / ctx.nprocs)} reading and writing"
        + (f"; {len(slow)} record(s) over {T.METADATA_RECORD_SECONDS:g} s" if len(slow) else "")
        + (f"; {_pct(system_meta, meta)} on system files" if system_meta else "")
        + f"; most on {subject}",
        {
            "POSIX_F_META_TIME": meta,
            "POSIX_F_READ_TIME+POSIX_F_WRITE_TIME": data,
            "POSIX_OPENS": _sum(frame, "POSIX_OPENS"),
            "POSIX_STATS": _sum(frame, "POSIX_STATS"),
        },
        "open fewer files (aggregate per node or into one shared file), keep files open "
        "across steps, and avoid stat/seek storms; for Python imports, a packed "
        "environment (container, squashfs)",
        per_rank,
    )


def _system_files(ctx: _Log) -> Iterable[Finding]:
    frame = ctx.frame("POSIX", kind="system")
    if frame is None:
        return
    seconds = _sum(frame, "POSIX_F_READ_TIME", "POSIX_F_WRITE_TIME", "POSIX_F_META_TIME")
    seconds /= ctx.nprocs
    files = frame["id"].nunique()
    moved = _sum(frame, "POSIX_BYTES_READ", "POSIX_BYTES_WRITTEN")
    yield Finding(
        "files.system",
        ctx.level(seconds),
        "POSIX",
        "system files",
        f"{files} system file(s) (Python modules, libraries, /usr, /etc) took "
        f"{_sum(frame, 'POSIX_OPENS'):,.0f} opens and {_size(moved)}: "
        f"{_secs(seconds)} of the mean rank; left out of the data checks",
        {
            "POSIX_OPENS": _sum(frame, "POSIX_OPENS"),
            "POSIX_BYTES_READ": _sum(frame, "POSIX_BYTES_READ"),
            "POSIX_F_META_TIME": _sum(frame, "POSIX_F_META_TIME"),
        },
        "",
        seconds,
    )


# --------------------------------------------------------------------------- balance


def _imbalance(ctx: _Log) -> Iterable[Finding]:
    # Every file but the streams: ranks waiting on each other cost time whatever the
    # file (the subject names it, an MPI library's session file included).
    frame = ctx.frame("POSIX", kind="all")
    if frame is None:
        return
    yield from _shared_imbalance(ctx, frame)
    yield from _rank_imbalance(ctx, frame)


def _aggregated(ctx: _Log, shared: pd.DataFrame) -> pd.Series:
    """Per shared POSIX record: whether collective buffering explains an uneven spread of
    its bytes over the ranks. The file's MPI-IO record has collective calls and its ranks
    moved bytes within T.STRAGGLER_BYTES_SHARE of each other through MPI-IO: what reached
    POSIX unevenly went through the aggregators, which write for all ranks by design."""
    mpiio = ctx.frames.get("MPI-IO")
    if mpiio is None or mpiio.empty:
        return pd.Series(False, index=shared.index)
    mine = mpiio[mpiio["rank"] == -1].groupby("id").sum(numeric_only=True)
    coll = sum(_column(mine, f"MPIIO_{k}_{ops}") for k in ("COLL", "SPLIT") for ops in
               ("READS", "WRITES"))  # fmt: skip
    slow = _column(mine, "MPIIO_SLOWEST_RANK_BYTES")
    fast = _column(mine, "MPIIO_FASTEST_RANK_BYTES")
    even = (coll > 0) & (slow > 0) & ((slow - fast).abs() <= T.STRAGGLER_BYTES_SHARE * slow)
    return shared["id"].map(even).fillna(False).astype(bool)


@dataclass(frozen=True)
class _Spread:
    """Per shared POSIX record (one row each): how its time and bytes spread over the
    ranks, and whom the slowest rank is held against (_spread)."""

    shared: pd.DataFrame
    moved: pd.Series  # bytes read and written
    gap: pd.Series  # slowest rank's bytes less the fastest's
    uneven: pd.Series  # bytes unequal past T.STRAGGLER_BYTES_SHARE
    aggregated: pd.Series  # collective buffering explains the uneven bytes (_aggregated)
    by_aggregators: pd.Series  # ...and the slowest rank is held against the aggregators
    aggregators: pd.Series  # their count, by the slowest rank's share of the bytes
    among: pd.Series  # their mean time, at most the slowest rank's
    mean: pd.Series  # the mean rank's time
    variance: pd.Series
    lead: pd.Series  # the slowest rank's time past whom it is held against
    late: pd.Series  # a straggler


def _spread(ctx: _Log, shared: pd.DataFrame) -> _Spread:
    times = shared[["POSIX_F_READ_TIME", "POSIX_F_WRITE_TIME", "POSIX_F_META_TIME"]]
    total = times.clip(lower=0).sum(axis=1)
    slowest = shared["POSIX_F_SLOWEST_RANK_TIME"]
    spread = (slowest - shared["POSIX_F_FASTEST_RANK_TIME"]).abs()
    mean = total / ctx.nprocs
    variance = _column(shared, "POSIX_F_VARIANCE_RANK_TIME")
    cv = np.sqrt(variance) / mean.where(mean > 0)
    aggregated = _aggregated(ctx, shared)
    moved = _sum_rows(shared, "POSIX_BYTES_READ", "POSIX_BYTES_WRITTEN")
    gap = (shared["POSIX_SLOWEST_RANK_BYTES"] - shared["POSIX_FASTEST_RANK_BYTES"]).abs()
    uneven = (moved > 0) & (gap / moved.where(moved > 0) > T.STRAGGLER_BYTES_SHARE)
    # Per rank, at any scale: the fastest rank's time against the slowest's (issue 42: the
    # gap over the time summed over all ranks missed 85.5 s against 20.4 s at 2,048 ranks).
    late = (slowest > 0) & ((spread > T.STRAGGLER_TIME_SHARE * slowest) | (cv > T.VARIANCE_CV))
    # Under collective buffering the slowest rank is held against the aggregators, not
    # every rank: about moved / its bytes of them shared the file's time (the ranks that
    # are not aggregators spent some too, so their mean is if anything overstated, and is
    # held to the slowest rank's time). Where it comes out far above it, the count by bytes
    # is wrong (issue 42: 35,547 s against 264 s explained a straggler away), and every
    # rank is the measure.
    aggregators = (moved / shared["POSIX_SLOWEST_RANK_BYTES"].where(lambda b: b > 0)).round()
    among = total / aggregators.clip(lower=1).fillna(ctx.nprocs)
    by_aggregators = aggregated & (among <= T.AGGREGATOR_MEAN_SLACK * slowest)
    among = among.clip(upper=slowest)
    late_aggregator = slowest - among > T.STRAGGLER_TIME_SHARE * slowest
    lead = (slowest - mean).clip(lower=0).where(~by_aggregators, (slowest - among).clip(lower=0))
    late = late & (~by_aggregators | late_aggregator)
    return _Spread(shared, moved, gap, uneven, aggregated, by_aggregators, aggregators, among,
                   mean, variance, lead, late)  # fmt: skip


def _shared_imbalance(ctx: _Log, frame: pd.DataFrame) -> Iterable[Finding]:
    """Stragglers on files all ranks opened: slowest and fastest rank counters."""
    shared = frame[frame["rank"] == -1]
    if shared.empty or ctx.nprocs < 2:
        return
    s = _spread(ctx, shared)
    if s.late.any():
        yield _stragglers(ctx, s)
    if (s.uneven & ~s.aggregated).any():
        yield _unequal_bytes(ctx, s)
    if (s.uneven & s.aggregated & ~s.late).any():
        yield _aggregation(ctx, s)


def _stragglers(ctx: _Log, s: _Spread) -> Finding:
    hit = s.late
    worst = s.lead[hit].sort_values().index[-1]
    row = s.shared.loc[worst]
    subject = ctx.name(s.shared.at[worst, "id"])
    seconds = float(s.lead[hit].sum())
    return Finding(
        "imbalance.stragglers",
        ctx.level(seconds),
        "POSIX",
        subject,
        f"on {int(hit.sum())} shared file(s) the slowest rank took longer than the rest: "
        f"on {subject} rank {int(row['POSIX_SLOWEST_RANK'])} spent "
        f"{_secs(row['POSIX_F_SLOWEST_RANK_TIME'])}, rank {int(row['POSIX_FASTEST_RANK'])} "
        f"{_secs(row['POSIX_F_FASTEST_RANK_TIME'])}, "
        + (
            f"the mean of its about {s.aggregators[worst]:.0f} collective-buffering "
            f"aggregators {_secs(s.among[worst])}"
            if s.by_aggregators[worst]
            else f"the mean rank {_secs(s.mean[worst])}"
        ),
        {
            "POSIX_F_SLOWEST_RANK_TIME": float(row["POSIX_F_SLOWEST_RANK_TIME"]),
            "POSIX_F_FASTEST_RANK_TIME": float(row["POSIX_F_FASTEST_RANK_TIME"]),
            "POSIX_F_VARIANCE_RANK_TIME": float(s.variance[worst]),
            "POSIX_SLOWEST_RANK": float(row["POSIX_SLOWEST_RANK"]),
            "POSIX_FASTEST_RANK": float(row["POSIX_FASTEST_RANK"]),
        },
        "find why that rank is slow: more data than the others (the unequal-bytes "
        "finding, when there is one), a slow node or target, or I/O done by one rank "
        "while the rest wait",
        seconds,
    )


def _unequal_bytes(ctx: _Log, s: _Spread) -> Finding:
    hit = s.uneven & ~s.aggregated
    worst = (s.gap / s.moved.where(s.moved > 0))[hit].sort_values().index[-1]
    row = s.shared.loc[worst]
    subject = ctx.name(s.shared.at[worst, "id"])
    seconds = float(s.lead[worst])
    return Finding(
        "imbalance.bytes",
        ctx.level(seconds),
        "POSIX",
        subject,
        f"on {int(hit.sum())} shared file(s) ranks moved unequal bytes: on {subject} the "
        f"slowest rank moved {_size(row['POSIX_SLOWEST_RANK_BYTES'])}, the fastest "
        f"{_size(row['POSIX_FASTEST_RANK_BYTES'])}, of {_size(s.moved[worst])} in all",
        {
            "POSIX_SLOWEST_RANK_BYTES": float(row["POSIX_SLOWEST_RANK_BYTES"]),
            "POSIX_FASTEST_RANK_BYTES": float(row["POSIX_FASTEST_RANK_BYTES"]),
            "POSIX_F_VARIANCE_RANK_BYTES": float(row.get("POSIX_F_VARIANCE_RANK_BYTES", 0.0)),
            "POSIX_BYTES_READ+POSIX_BYTES_WRITTEN": float(s.moved[worst]),
        },
        "spread the data evenly over the ranks (or over more aggregators)",
        seconds,
    )


def _aggregation(ctx: _Log, s: _Spread) -> Finding:
    hit = s.uneven & s.aggregated & ~s.late
    worst = s.lead[hit].sort_values().index[-1]
    row = s.shared.loc[worst]
    subject = ctx.name(s.shared.at[worst, "id"])
    rank = int(row["POSIX_SLOWEST_RANK"])
    return Finding(
        "mpiio.aggregation",
        "info",
        "MPI-IO",
        subject,
        f"on {subject} the ranks moved even bytes through collective MPI-IO, while at "
        f"POSIX rank {rank} moved {_size(row['POSIX_SLOWEST_RANK_BYTES'])} of "
        f"{_size(s.moved[worst])} in {_secs(row['POSIX_F_SLOWEST_RANK_TIME'])}: collective "
        "buffering's aggregators write for all ranks by design, so this is not a "
        "straggler",
        {
            "POSIX_SLOWEST_RANK_BYTES": float(row["POSIX_SLOWEST_RANK_BYTES"]),
            "POSIX_F_SLOWEST_RANK_TIME": float(row["POSIX_F_SLOWEST_RANK_TIME"]),
            "POSIX_BYTES_READ+POSIX_BYTES_WRITTEN": float(s.moved[worst]),
        },
        "to spread the aggregators' work, give collective buffering more of them: a wider "
        "Lustre stripe (ROMIO takes one aggregator per stripe there) or the cb_nodes hint",
        None,
    )


def _sum_rows(frame: pd.DataFrame, *columns: str) -> pd.Series:
    return frame[list(columns)].clip(lower=0).sum(axis=1)


def _rank_imbalance(ctx: _Log, frame: pd.DataFrame) -> Iterable[Finding]:
    """Per-rank records: bytes of one file across the ranks that opened it, and each
    rank's total bytes and time over its own files."""
    own = frame[frame["rank"] >= 0]
    if own.empty:
        return
    for op, _upper, _ops, past in _OPS:
        column = f"POSIX_BYTES_{past}"
        per_file = own.groupby("id")[column].agg(["max", "min", "count"])
        per_file = per_file[(per_file["count"] > 1) & (per_file["max"] > 0)]
        share = (per_file["max"] - per_file["min"]) / per_file["max"]
        hit = share[share > T.RANK_BYTES_SHARE]
        if not hit.empty:
            worst = hit.sort_values().index[-1]
            subject = ctx.name(worst)
            yield Finding(
                "imbalance.rank_bytes",
                "info",
                "POSIX",
                subject,
                f"on {len(hit)} file(s) opened by some ranks, their {op} bytes differ: on "
                f"{subject} from {_size(per_file.loc[worst, 'min'])} to "
                f"{_size(per_file.loc[worst, 'max'])} per rank",
                {
                    f"{column} max": float(per_file.loc[worst, "max"]),
                    f"{column} min": float(per_file.loc[worst, "min"]),
                },
                "give each rank an equal share of the data",
                None,
            )
    ranks = own.groupby("rank")
    if ranks.ngroups < 2:
        return
    time = ranks[["POSIX_F_READ_TIME", "POSIX_F_WRITE_TIME", "POSIX_F_META_TIME"]].sum()
    per_rank = time.clip(lower=0).sum(axis=1)
    if ranks.ngroups < ctx.nprocs:
        per_rank = per_rank.reindex(range(ctx.nprocs), fill_value=0.0)
    slowest, mean = float(per_rank.max()), float(per_rank.mean())
    if slowest <= 0 or (slowest - mean) / slowest <= T.RANK_TIME_SHARE:
        return
    rank = int(str(per_rank.idxmax()))
    seconds = slowest - mean
    words = (
        f"rank {rank} spent {_secs(slowest)} in I/O on its own files, the mean rank "
        f"{_secs(mean)} and the fastest {_secs(float(per_rank.min()))} (over "
        f"{len(per_rank)} ranks)"
    )
    action = "balance the I/O across ranks, or overlap it with computation"
    mine = {t for i in own[own["rank"] == rank]["id"] for t in ctx.osts.get(int(i), ())}
    slow = [t for t in _slow_targets(ctx) if t.target in mine]
    if slow:
        where = ", ".join(f"OST {t.target}" for t in slow)
        words += f"; its files lie on {where}, a slow storage target (the finding on it says "
        words += "how slow)"
        action = (
            f"not the ranks' shares: {where} is slow, and the ranks whose files lie on it wait; "
            "see the finding on that storage target"
        )
    yield Finding(
        "imbalance.rank_time",
        ctx.level(seconds),
        "POSIX",
        f"rank {rank}",
        words,
        {
            "slowest rank POSIX_F_*_TIME": slowest,
            "mean rank POSIX_F_*_TIME": mean,
            "fastest rank POSIX_F_*_TIME": float(per_rank.min()),
        },
        action,
        seconds,
    )


# --------------------------------------------------------------------------- layout


def _layout(ctx: _Log) -> Iterable[Finding]:
    frame = ctx.frame("POSIX")
    if frame is None or ctx.nprocs < 2:
        return
    moved = frame.assign(b=_sum_rows(frame, "POSIX_BYTES_READ", "POSIX_BYTES_WRITTEN"))
    moved = moved[moved["b"] > 0]
    if moved.empty:
        return
    shared = moved[moved["rank"] == -1]
    own = moved[moved["rank"] >= 0]
    ranks_per_file = own.groupby("id")["rank"].nunique()
    single = ranks_per_file[ranks_per_file == 1]
    fpp_bytes = float(own[own["id"].isin(single.index)]["b"].sum())
    shared_bytes = float(shared["b"].sum())
    counters = {
        "files with a rank -1 record": float(shared["id"].nunique()),
        "files of one rank": float(len(single)),
        "ranks writing their own files": float(own[own["id"].isin(single.index)]["rank"].nunique()),
    }
    if fpp_bytes > shared_bytes:
        loud = ctx.nprocs >= T.FILE_PER_PROCESS_RANKS
        # At stake: the opens and creates of those files (their metadata time).
        singles = own[own["id"].isin(single.index)]
        seconds = _sum(singles, "POSIX_F_META_TIME") / ctx.nprocs if loud else None
        yield Finding(
            "files.per_process",
            ctx.level(seconds),
            "POSIX",
            "job",
            f"{len(single)} files were each opened by one rank ({_size(fpp_bytes)}), against "
            f"{shared['id'].nunique()} shared by all ranks ({_size(shared_bytes)}): a file "
            f"per process at {ctx.nprocs} ranks",
            counters,
            (
                "at this scale the creates load the metadata servers: write a shared file "
                "(collective MPI-IO) or one file per node"
                if loud
                else ""
            ),
            seconds,
        )
    elif shared_bytes:
        yield Finding(
            "files.shared",
            "info",
            "POSIX",
            "job",
            f"{shared['id'].nunique()} file(s) shared by all {ctx.nprocs} ranks moved "
            f"{_size(shared_bytes)}, {len(single)} file(s) of one rank {_size(fpp_bytes)}",
            counters,
            "",
            None,
        )


# --------------------------------------------------------------------------- Lustre


@dataclass(frozen=True)
class _SlowTarget:
    target: int
    files: int
    rate: float
    """Median seconds per byte of the files on it alone."""
    others: float
    """The same over the files on other targets."""
    targets: int
    """Targets with files of their own."""
    excess: float
    """The slowest of its files' seconds past what the others' rate gives for its bytes."""
    worst: int
    """That file's record id."""


def _slow_targets(ctx: _Log) -> list[_SlowTarget]:
    """Lustre storage targets (OSTs) whose files were slow, slowest first.

    Read from the records of one rank's file (rank >= 0, so a file's time is one rank's)
    that lie on a single target, as a file per process does: its seconds per byte against
    the files on the other targets. A file striped over many targets mixes them and is
    left out."""
    frame = ctx.frame("POSIX", kind="all")
    if frame is None or not ctx.osts:
        return []
    own = frame[frame["rank"] >= 0]
    files = pd.DataFrame(
        {
            "id": own["id"],
            "t": _sum_rows(own, "POSIX_F_READ_TIME", "POSIX_F_WRITE_TIME", "POSIX_F_META_TIME"),
            "b": _sum_rows(own, "POSIX_BYTES_READ", "POSIX_BYTES_WRITTEN"),
        }
    )
    files["target"] = [
        ctx.osts[int(i)][0] if len(ctx.osts.get(int(i), ())) == 1 else -1 for i in files["id"]
    ]
    # Files under a request's size are timed by their opens and call costs, not by the
    # target's bandwidth.
    files = files[(files["target"] >= 0) & (files["b"] >= T.SMALL_REQUEST_BYTES)]
    files = files[files["t"] > 0]
    if files.empty:
        return []
    rate = files["t"] / files["b"]
    per_target = rate.groupby(files["target"]).median()
    found = []
    for target, mine in files.groupby("target"):
        # Held against the median of the other targets' medians: one crowded target
        # among the others does not lower the bar.
        rest = per_target.drop(target)
        if len(rest) < T.SLOW_TARGET_FILES or len(mine) < T.SLOW_TARGET_FILES:
            continue
        others, here = float(rest.median()), float(per_target[target])
        if here < T.SLOW_TARGET_RATIO * others:
            continue
        excess = (mine["t"] - mine["b"] * others).to_numpy()
        worst = int(np.argmax(excess))
        found.append(_SlowTarget(int(str(target)), len(mine), here, others,
                                 len(per_target), float(excess[worst]),
                                 int(mine["id"].iloc[worst])))  # fmt: skip
    return sorted(found, key=lambda s: -s.excess)


def _lustre(ctx: _Log) -> Iterable[Finding]:
    for slow in _slow_targets(ctx):
        gib = 2**30
        yield Finding(
            "lustre.slow_target",
            ctx.level(slow.excess),
            "LUSTRE",
            f"OST {slow.target}",
            f"the {slow.files} file(s) on storage target OST {slow.target} took "
            f"{slow.rate * gib:.3g} s per GiB (median), {slow.rate / slow.others:.0f}x the "
            f"{slow.others * gib:.3g} s per GiB of the median of the other "
            f"{slow.targets - 1} targets; the slowest, {ctx.name(slow.worst)}, lost "
            f"{_secs(slow.excess)} to it",
            {
                "OST": float(slow.target),
                "files on it": float(slow.files),
                "s per GiB on it": slow.rate * gib,
                "s per GiB on the others": slow.others * gib,
                "targets": float(slow.targets),
            },
            f"report OST {slow.target} to the centre's storage staff; until it is fixed, "
            "create the files away from it (lfs setstripe -i with another start target, or "
            "a pool without it): balancing the ranks would not help",
            slow.excess,
        )
    frame = ctx.frame("POSIX")
    if frame is None or not ctx.stripes or ctx.nprocs < 2:
        return
    shared = frame[(frame["rank"] == -1) & frame["id"].isin(list(ctx.stripes))]
    moved_all = _sum_rows(shared, "POSIX_BYTES_READ", "POSIX_BYTES_WRITTEN")
    slowest = _column(shared, "POSIX_F_SLOWEST_RANK_TIME")
    for ident, moved, seconds in zip(
        shared["id"].tolist(), moved_all.tolist(), slowest.tolist(), strict=True
    ):
        count, size = ctx.stripes[int(ident)]
        if count != 1 or moved <= 0:
            continue
        subject = ctx.name(ident)
        yield Finding(
            "lustre.one_stripe",
            ctx.level(seconds),
            "LUSTRE",
            subject,
            f"{subject}, shared by {ctx.nprocs} ranks, moved {_size(moved)} on one Lustre "
            f"stripe of {_size(size)}: one storage target serves every rank (the slowest "
            f"rank spent {_secs(seconds)} on it)",
            {
                "LUSTRE_COMP_STRIPE_COUNT": float(count),
                "LUSTRE_COMP_STRIPE_SIZE": float(size),
                "POSIX_F_SLOWEST_RANK_TIME": seconds,
            },
            "stripe the file over more targets (lfs setstripe -c, or the striping_factor "
            "hint at create), at least one per aggregator",
            seconds,
        )
    hosts = {h for d in ctx.dxt.values() for h in d.get("hosts", {}).values()}
    for ident in shared["id"].tolist():
        count, _stripe = ctx.stripes[int(ident)]
        if len(hosts) > 1 and 1 < count < len(hosts):
            subject = ctx.name(ident)
            yield Finding(
                "lustre.stripes_below_nodes",
                "info",
                "LUSTRE",
                subject,
                f"{subject} lies on {count} stripes while the job ran on {len(hosts)} nodes "
                "(host names from DXT): with one aggregator per node, some share a target",
                {"LUSTRE_COMP_STRIPE_COUNT": float(count), "DXT hosts": float(len(hosts))},
                "set the stripe count to the node count (or a multiple) when creating it",
                None,
            )


# --------------------------------------------------------------------------- MPI-IO and layers


def _blocking(ctx: _Log) -> Iterable[Finding]:
    frame = ctx.frame("MPI-IO")
    if frame is None:
        return
    calls = _sum(frame, "MPIIO_INDEP_READS", "MPIIO_INDEP_WRITES", "MPIIO_COLL_READS",
                 "MPIIO_COLL_WRITES", "MPIIO_SPLIT_READS", "MPIIO_SPLIT_WRITES")  # fmt: skip
    nb = _sum(frame, "MPIIO_NB_READS", "MPIIO_NB_WRITES")
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


def _usage(ctx: _Log) -> Iterable[Finding]:
    """I/O through modules POSIX and MPI-IO do not see (DAOS), each said with its bytes."""
    for m in MODULES:
        frame = ctx.frame(m.name)
        if frame is None or m.usage is None:
            continue
        read, written = _sum(frame, m.moved("READ")), _sum(frame, m.moved("WRITTEN"))
        seconds = _sum(frame, *(m.time(k) for k in ("READ", "WRITE", "META"))) / ctx.nprocs
        yield Finding(
            f"{m.name.lower()}.usage",
            "info",
            m.name,
            "job",
            f"{_size(written)} written and {_size(read)} read through {m.usage} in "
            f"{frame['id'].nunique()} file(s)/object(s), {_secs(seconds)} of the mean rank: "
            "POSIX and MPI-IO do not see this I/O",
            {
                m.moved("WRITTEN"): written,
                m.moved("READ"): read,
                f"{m.prefix}_F_*_TIME": seconds * ctx.nprocs,
            },
            "",
            seconds,
        )


def _hdf5(ctx: _Log) -> Iterable[Finding]:
    datasets = ctx.frame("H5D")
    files = ctx.frame("H5F")
    if datasets is None and files is None:
        return
    written = _sum(datasets, "H5D_BYTES_WRITTEN")
    read = _sum(datasets, "H5D_BYTES_READ")
    meta = _sum(files, "H5F_F_META_TIME") + _sum(datasets, "H5D_F_META_TIME")
    data_time = _sum(datasets, "H5D_F_READ_TIME", "H5D_F_WRITE_TIME")
    subject = ctx.name(files["id"].iloc[0]) if files is not None else "HDF5 files"
    yield Finding(
        "hdf5.usage",
        "info",
        "HDF5",
        subject,
        f"{_size(written)} written and {_size(read)} read through HDF5 in "
        f"{0 if datasets is None else datasets['id'].nunique()} dataset(s) of "
        f"{0 if files is None else files['id'].nunique()} file(s); "
        f"{_secs(meta / ctx.nprocs)} of the mean rank in HDF5 metadata",
        {
            "H5D_BYTES_WRITTEN": written,
            "H5D_BYTES_READ": read,
            "H5F_F_META_TIME+H5D_F_META_TIME": meta,
            "H5D_F_READ_TIME+H5D_F_WRITE_TIME": data_time,
        },
        "",
        (meta + data_time) / ctx.nprocs,
    )
    if files is not None and datasets is not None and _sum(files, "H5F_USE_MPIIO") > 0:
        moved = datasets[_sum_rows(datasets, "H5D_BYTES_READ", "H5D_BYTES_WRITTEN") > 0]
        independent = moved[moved["H5D_USE_MPIIO_COLLECTIVE"] <= 0]
        if not independent.empty and ctx.nprocs > 1:
            seconds = _sum(independent, "H5D_F_READ_TIME", "H5D_F_WRITE_TIME") / ctx.nprocs
            name = ctx.name(independent["id"].iloc[0])
            yield Finding(
                "hdf5.independent",
                ctx.level(seconds),
                "HDF5",
                name,
                f"{independent['id'].nunique()} of {moved['id'].nunique()} HDF5 dataset(s) "
                f"with data were accessed with independent MPI-IO transfers (the file is "
                f"opened with MPI-IO), such as {name}",
                {"H5D_USE_MPIIO_COLLECTIVE": 0.0, "H5F_USE_MPIIO": _sum(files, "H5F_USE_MPIIO")},
                "set collective transfers: H5Pset_dxpl_mpio(dxpl, H5FD_MPIO_COLLECTIVE), and "
                "collective metadata (H5Pset_all_coll_metadata_ops)",
                seconds,
            )
    if meta and data_time and meta / (meta + data_time) > T.METADATA_SHARE:
        per_rank = meta / ctx.nprocs
        if per_rank >= T.METADATA_SECONDS:
            yield Finding(
                "hdf5.metadata",
                ctx.level(per_rank),
                "HDF5",
                subject,
                f"HDF5 metadata took {_secs(per_rank)} of the mean rank against "
                f"{_secs(data_time / ctx.nprocs)} in dataset reads and writes",
                {
                    "H5F_F_META_TIME+H5D_F_META_TIME": meta,
                    "H5D_F_READ_TIME+H5D_F_WRITE_TIME": data_time,
                },
                "raise the metadata cache, use collective metadata writes "
                "(H5Pset_coll_metadata_write), and open datasets once",
                per_rank,
            )


def _pnetcdf(ctx: _Log) -> Iterable[Finding]:
    variables = ctx.frame("PNETCDF_VAR")
    files = ctx.frame("PNETCDF_FILE")
    if variables is None and files is None:
        return
    written = _sum(variables, "PNETCDF_VAR_BYTES_WRITTEN") or _sum(
        files, "PNETCDF_FILE_BYTES_WRITTEN"
    )
    read = _sum(variables, "PNETCDF_VAR_BYTES_READ") or _sum(files, "PNETCDF_FILE_BYTES_READ")
    subject = ctx.name(files["id"].iloc[0]) if files is not None else "PnetCDF files"
    yield Finding(
        "pnetcdf.usage",
        "info",
        "PnetCDF",
        subject,
        f"{_size(written)} written and {_size(read)} read through PnetCDF in "
        f"{0 if variables is None else variables['id'].nunique()} variable(s)",
        {"PNETCDF_VAR_BYTES_WRITTEN": written, "PNETCDF_VAR_BYTES_READ": read},
        "",
        None,
    )


# --------------------------------------------------------------------------- DXT


def _dxt(ctx: _Log) -> Iterable[Finding]:
    posix = ctx.frames.get("POSIX")
    alignment = T.DXT_ALIGNMENT
    if posix is not None and "POSIX_FILE_ALIGNMENT" in posix and len(posix):
        alignment = int(posix["POSIX_FILE_ALIGNMENT"].max()) or T.DXT_ALIGNMENT
    for module, trace in ctx.dxt.items():
        shown = "DXT " + module.removeprefix("DXT_").replace("MPIIO", "MPI-IO")
        ranks = {int(r): v for r, v in trace.get("ranks", {}).items()}
        if trace.get("capped"):
            yield Finding(
                "dxt.capped",
                "info",
                "DXT",
                module,
                f"{shown} holds {trace['total']:,} segments; the first "
                f"{len(trace['segments']):,} were kept for the segment checks (the per-rank "
                "sums cover all)",
                {"segments": float(trace["total"]), "kept": float(len(trace["segments"]))},
                "",
                None,
            )
        if len(ranks) > 1:
            busy = pd.Series({r: v[2] for r, v in ranks.items()})
            if len(busy) < ctx.nprocs:
                busy = busy.reindex(range(ctx.nprocs), fill_value=0.0)
            slowest, mean = float(busy.max()), float(busy.mean())
            if slowest > 0 and (slowest - mean) / slowest > T.DXT_SPREAD_SHARE:
                rank = int(str(busy.idxmax()))
                yield Finding(
                    "dxt.rank_spread",
                    ctx.level(slowest - mean),
                    "DXT",
                    f"rank {rank}",
                    f"{shown}: rank {rank} was busy in traced calls for {_secs(slowest)}, "
                    f"the mean rank {_secs(mean)}, the least busy {_secs(float(busy.min()))}",
                    {
                        "slowest rank busy": slowest,
                        "mean rank busy": mean,
                        "ranks traced": float(len(ranks)),
                    },
                    "balance the ranks' I/O (the trace shows which calls of that rank)",
                    slowest - mean,
                )
        segments = trace.get("segments")
        if segments is None or len(segments) == 0:
            continue
        lengths = np.asarray(segments["length"])
        small = int((lengths < T.SMALL_REQUEST_BYTES).sum())
        if small / len(lengths) > T.DXT_SMALL_SHARE:
            yield Finding(
                "dxt.small",
                "info",
                "DXT",
                module,
                f"{shown}: {small:,} of {len(lengths):,} traced calls moved under "
                f"{_size(T.SMALL_REQUEST_BYTES)} (median {_size(float(np.median(lengths)))})",
                {"small segments": float(small), "segments": float(len(lengths))},
                "",
                None,
            )
        if module == "DXT_POSIX":
            offsets = np.asarray(segments["offset"])
            unaligned = int((offsets % alignment != 0).sum())
            if unaligned / len(offsets) > T.DXT_UNALIGNED_SHARE:
                yield Finding(
                    "dxt.unaligned",
                    "info",
                    "DXT",
                    module,
                    f"{shown}: {unaligned:,} of {len(offsets):,} traced calls started off a "
                    f"{alignment:,}-byte boundary",
                    {
                        "unaligned segments": float(unaligned),
                        "segments": float(len(offsets)),
                        "alignment": float(alignment),
                    },
                    "",
                    None,
                )


_CHECKS: tuple[Callable[[_Log], Iterable[Finding]], ...] = (
    _job,
    _interfaces,
    _small,
    _misaligned,
    _access,
    _traffic,
    _metadata,
    _system_files,
    _imbalance,
    _layout,
    _lustre,
    _independent,
    _blocking,
    _usage,
    _hdf5,
    _pnetcdf,
    _dxt,
)


def _finite(finding: Finding) -> Finding:
    """The finding with NaN and infinite values dropped (a damaged log's counters can be
    anything; JSON has no NaN)."""
    counters = {k: float(v) for k, v in finding.counters.items() if math.isfinite(float(v))}
    seconds = finding.seconds
    if seconds is not None and not math.isfinite(seconds):
        seconds = None
    return replace(finding, counters=counters, seconds=seconds)
