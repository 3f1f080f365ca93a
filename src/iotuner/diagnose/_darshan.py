"""Findings from a Darshan log's counters (and its DXT trace when it has one).

diagnose_darshan(log) reads the plain data iotuner.ingest's reader returns
(_darshan_worker.read_log: job, names, frames of the POSIX, MPI-IO, STDIO, H5F, H5D,
PNETCDF_FILE, PNETCDF_VAR, DFS and DAOS records, Lustre stripes, DXT summaries) and says
what in it costs time, each finding with the counters it rests on. Thresholds:
iotuner.diagnose._thresholds.

Which records a check reads. Streams (<STDOUT> ...) count only for the STDIO share.
System files (iotuner.ingest.is_system_file: Python modules, libraries, /usr, /etc) count
for metadata time and get one finding of their own ("files.system"), not the data checks:
a thousand .pyc imports are small reads, but not the program's data layout. A record of
rank -1 is a file all ranks opened; Darshan summed its counters and its times over the
ranks, and keeps the slowest and fastest rank's bytes and time and their variances.

Time at stake (Finding.seconds) is per mean rank unless said: a module's summed time over
the records divided by nprocs, scaled by the share of calls the finding is about; for an
imbalance, the slowest rank's time past the mean's.
"""

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pandas as pd

from iotuner.diagnose import _thresholds as T
from iotuner.diagnose._finding import Finding, ordered
from iotuner.ingest._darshan import is_system_file

__all__ = ["diagnose_darshan"]

_STREAMS = {"<STDIN>", "<STDOUT>", "<STDERR>"}
_BINS = ("0_100", "100_1K", "1K_10K", "10K_100K", "100K_1M")
"""Darshan's size bins under T.SMALL_REQUEST_BYTES (1 MiB)."""
_OPS = (("write", "WRITE", "WRITES", "WRITTEN"), ("read", "READ", "READS", "READ"))
_LAYER_NAMES = {
    "H5D": "HDF5",
    "H5F": "HDF5",
    "PNETCDF_VAR": "PnetCDF",
    "PNETCDF_FILE": "PnetCDF",
    "DFS": "DFS",
    "DAOS": "DAOS",
}


@dataclass(frozen=True)
class _Log:
    nprocs: int
    run_time: float | None
    names: Mapping[int, str]
    frames: Mapping[str, pd.DataFrame]
    stripes: Mapping[int, tuple[int, int]]
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

    def level(self, seconds: float | None, *, floor: str = "info") -> str:
        """A finding's level from its time at stake (see _thresholds); `floor` is the
        quietest it may be."""
        if seconds is None:
            level = "warning"
        elif self.run_time:
            share = seconds / self.run_time
            level = (
                "critical"
                if share >= T.SHARE_OF_RUN_CRITICAL
                else "warning"
                if share >= T.SHARE_OF_RUN_WARNING
                else "info"
            )
        else:
            level = (
                "critical"
                if seconds >= T.SECONDS_CRITICAL
                else "warning"
                if seconds >= T.SECONDS_WARNING
                else "info"
            )
        order = ("info", "warning", "critical")
        return level if order.index(level) >= order.index(floor) else floor


def _sum(frame: pd.DataFrame | None, *columns: str) -> float:
    """The columns' total; Darshan's -1 (a counter the log's version did not keep) is 0."""
    if frame is None:
        return 0.0
    return float(sum(frame[c].clip(lower=0).sum() for c in columns if c in frame))


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
        dxt=log.get("dxt", {}),
        partial=[m for m, flag in log.get("modules", {}).items() if flag],
    )
    findings: list[Finding] = []
    for check in _CHECKS:
        try:
            findings.extend(_finite(f) for f in check(ctx))
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


# --------------------------------------------------------------------------- job


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
    spent = 0.0
    found = False
    counters: dict[str, float] = {}
    for module, p in (("POSIX", "POSIX"), ("STDIO", "STDIO"), ("DFS", "DFS"), ("DAOS", "DAOS")):
        frame = ctx.frame(module, kind="all")
        if frame is None:
            continue
        found = True
        for kind in ("READ", "WRITE", "META"):
            column = f"{p}_F_{kind}_TIME"
            counters[column] = _sum(frame, column)
            spent += counters[column]
    if not found or not ctx.run_time:
        return
    per_rank = spent / ctx.nprocs
    counters["run_time"] = ctx.run_time
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
    mpiio_bytes = _sum(mpiio, "MPIIO_BYTES_READ", "MPIIO_BYTES_WRITTEN")
    # POSIX sees the bytes MPI-IO moved too: the POSIX-only bytes are the difference.
    total = stdio_bytes + max(posix_bytes - mpiio_bytes, 0.0) + mpiio_bytes
    if stdio is not None and total and stdio_bytes / total > T.STDIO_SHARE:
        seconds = _sum(stdio, "STDIO_F_READ_TIME", "STDIO_F_WRITE_TIME") / ctx.nprocs
        top = stdio.assign(b=stdio["STDIO_BYTES_READ"] + stdio["STDIO_BYTES_WRITTEN"])
        subject = ctx.name(top.sort_values("b", ascending=False)["id"].iloc[0])
        yield Finding(
            "interface.stdio",
            ctx.level(seconds, floor="warning"),
            "STDIO",
            subject,
            f"{_size(stdio_bytes)} ({_pct(stdio_bytes, total)} of all bytes) went through "
            f"STDIO (fread, fwrite, fprintf), most to {subject}",
            {
                "STDIO_BYTES_READ": _sum(stdio, "STDIO_BYTES_READ"),
                "STDIO_BYTES_WRITTEN": _sum(stdio, "STDIO_BYTES_WRITTEN"),
                "total_bytes": total,
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


# --------------------------------------------------------------------------- POSIX data


def _op_time(frame: pd.DataFrame, p: str, upper: str, nprocs: int) -> float:
    return _sum(frame, f"{p}_F_{upper}_TIME") / nprocs


def _small(ctx: _Log) -> Iterable[Finding]:
    """Small calls from the size histograms of each layer that keeps one."""
    layers = (
        ("POSIX", "POSIX", "POSIX_SIZE_{op}_{b}", "POSIX_{ops}"),
        ("MPI-IO", "MPIIO", "MPIIO_SIZE_{op}_AGG_{b}", None),
        ("H5D", "H5D", "H5D_SIZE_{op}_AGG_{b}", "H5D_{ops}"),
        ("PNETCDF_VAR", "PNETCDF_VAR", "PNETCDF_VAR_SIZE_{op}_AGG_{b}", None),
        ("DFS", "DFS", "DFS_SIZE_{op}_{b}", None),
        ("DAOS", "DAOS", "DAOS_SIZE_{op}_{b}", None),
    )
    for module, p, pattern, calls_pattern in layers:
        frame = ctx.frame(module)
        if frame is None:
            continue
        shown = "MPI-IO" if module == "MPI-IO" else _LAYER_NAMES.get(module, module)
        for op, upper, ops, _past in _OPS:
            bins = [pattern.format(op=upper, b=b) for b in _BINS]
            every = [c for c in frame.columns if c.startswith(pattern.format(op=upper, b=""))]
            small = _sum(frame, *bins)
            calls = _sum(frame, calls_pattern.format(ops=ops)) if calls_pattern else 0.0
            calls = max(calls, _sum(frame, *every))
            if not calls or small / calls <= T.SMALL_REQUEST_SHARE:
                continue
            if small <= T.SMALL_REQUEST_CALLS:
                continue
            share = small / calls
            seconds = _op_time(frame, p, upper, ctx.nprocs) * share
            per_file = frame.assign(s=frame[[b for b in bins if b in frame]].sum(axis=1))
            worst = per_file.groupby("id")["s"].sum().sort_values(ascending=False)
            subject = ctx.name(worst.index[0])
            yield Finding(
                f"requests.small_{op}",
                ctx.level(seconds),
                shown,
                subject,
                f"{small:,.0f} of {calls:,.0f} {shown} {op} calls ({_pct(small, calls)}) moved "
                f"under {_size(T.SMALL_REQUEST_BYTES)} each, from the size histogram; most in "
                f"{subject}",
                {**_counters(frame, *bins), f"{op} calls": calls},
                f"{op} fewer, larger blocks: buffer in memory, or let collective MPI-IO "
                "aggregate them (collective buffering, data sieving)",
                seconds,
            )
            if module != "POSIX":
                continue
            shared = frame[frame["rank"] == -1]
            shared_small = _sum(shared, *bins)
            shared_calls = _sum(shared, f"POSIX_{ops}")
            if (
                shared_calls
                and shared_small / shared_calls > T.SMALL_REQUEST_SHARE
                and shared_small > T.SMALL_REQUEST_CALLS
            ):
                sec = _op_time(shared, p, upper, ctx.nprocs) * shared_small / shared_calls
                worst_shared = shared.assign(s=shared[bins].sum(axis=1)).sort_values(
                    "s", ascending=False
                )
                name = ctx.name(worst_shared["id"].iloc[0])
                yield Finding(
                    f"requests.small_shared_{op}",
                    ctx.level(sec),
                    "POSIX",
                    name,
                    f"{shared_small:,.0f} of {shared_calls:,.0f} POSIX {op} calls on files all "
                    f"ranks share moved under {_size(T.SMALL_REQUEST_BYTES)}; most in {name}",
                    {**_counters(shared, *bins), f"POSIX_{ops}": shared_calls},
                    "small calls of many ranks on one file contend for its locks: make them "
                    "collective (MPI_File_write_all) so aggregators issue large ones",
                    sec,
                )


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
            subject = ctx.name(rnd.groupby("id")["r"].sum().sort_values().index[-1])
            yield Finding(
                f"access.random_{op}",
                ctx.level(seconds),
                "POSIX",
                subject,
                f"{random:,.0f} of {calls:,.0f} POSIX {op}s ({_pct(random, calls)}) went "
                f"backwards in the file (neither consecutive nor sequential); most in {subject}",
                counters,
                f"sort the {op}s by offset, or gather them into one collective call over a "
                "file view, so the file system can stream",
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
                "a strided pattern: collective I/O over a file view (or data sieving) "
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
                ctx.level(seconds, floor="warning"),
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
        ctx.level(per_rank, floor="warning"),
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
    yield from _shared_imbalance(ctx, frame, "POSIX")
    yield from _rank_imbalance(ctx, frame)


def _shared_imbalance(ctx: _Log, frame: pd.DataFrame, module: str) -> Iterable[Finding]:
    """Stragglers on files all ranks opened: slowest and fastest rank counters."""
    p = module
    shared = frame[frame["rank"] == -1]
    if shared.empty or ctx.nprocs < 2:
        return
    times = shared[[f"{p}_F_READ_TIME", f"{p}_F_WRITE_TIME", f"{p}_F_META_TIME"]].clip(lower=0)
    total = times.sum(axis=1)
    spread = (shared[f"{p}_F_SLOWEST_RANK_TIME"] - shared[f"{p}_F_FASTEST_RANK_TIME"]).abs()
    mean = total / ctx.nprocs
    variance = shared.get(f"{p}_F_VARIANCE_RANK_TIME", pd.Series(0.0, index=shared.index))
    cv = np.sqrt(variance.clip(lower=0)) / mean.where(mean > 0)
    hit = (total > 0) & ((spread / total > T.STRAGGLER_TIME_SHARE) | (cv > T.VARIANCE_CV))
    if hit.any():
        rows = shared[hit]
        lead = (shared[f"{p}_F_SLOWEST_RANK_TIME"] - mean).clip(lower=0)[hit]
        worst = lead.sort_values().index[-1]
        row = shared.loc[worst]
        subject = ctx.name(shared.at[worst, "id"])
        seconds = float(lead.sum())
        yield Finding(
            "imbalance.stragglers",
            ctx.level(seconds),
            module,
            subject,
            f"on {len(rows)} shared file(s) the slowest rank took longer than the rest: on "
            f"{subject} rank {int(row[f'{p}_SLOWEST_RANK'])} spent "
            f"{_secs(row[f'{p}_F_SLOWEST_RANK_TIME'])}, rank {int(row[f'{p}_FASTEST_RANK'])} "
            f"{_secs(row[f'{p}_F_FASTEST_RANK_TIME'])}, the mean rank {_secs(mean[worst])}",
            {
                f"{p}_F_SLOWEST_RANK_TIME": float(row[f"{p}_F_SLOWEST_RANK_TIME"]),
                f"{p}_F_FASTEST_RANK_TIME": float(row[f"{p}_F_FASTEST_RANK_TIME"]),
                f"{p}_F_VARIANCE_RANK_TIME": float(variance[worst]),
                f"{p}_SLOWEST_RANK": float(row[f"{p}_SLOWEST_RANK"]),
                f"{p}_FASTEST_RANK": float(row[f"{p}_FASTEST_RANK"]),
            },
            "find why that rank is slow: more data than the others (see imbalance.bytes), "
            "a slow node or target, or I/O done by one rank while the rest wait",
            seconds,
        )
    moved = _sum_rows(shared, f"{p}_BYTES_READ", f"{p}_BYTES_WRITTEN")
    gap = (shared[f"{p}_SLOWEST_RANK_BYTES"] - shared[f"{p}_FASTEST_RANK_BYTES"]).abs()
    hit = (moved > 0) & (gap / moved.where(moved > 0) > T.STRAGGLER_BYTES_SHARE)
    if hit.any():
        worst = (gap / moved.where(moved > 0))[hit].sort_values().index[-1]
        row = shared.loc[worst]
        subject = ctx.name(shared.at[worst, "id"])
        yield Finding(
            "imbalance.bytes",
            "warning",
            module,
            subject,
            f"on {int(hit.sum())} shared file(s) ranks moved unequal bytes: on {subject} the "
            f"slowest rank moved {_size(row[f'{p}_SLOWEST_RANK_BYTES'])}, the fastest "
            f"{_size(row[f'{p}_FASTEST_RANK_BYTES'])}, of {_size(moved[worst])} in all",
            {
                f"{p}_SLOWEST_RANK_BYTES": float(row[f"{p}_SLOWEST_RANK_BYTES"]),
                f"{p}_FASTEST_RANK_BYTES": float(row[f"{p}_FASTEST_RANK_BYTES"]),
                f"{p}_F_VARIANCE_RANK_BYTES": float(row.get(f"{p}_F_VARIANCE_RANK_BYTES", 0.0)),
                f"{p}_BYTES_READ+{p}_BYTES_WRITTEN": float(moved[worst]),
            },
            "spread the data evenly over the ranks (or over more aggregators)",
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
                "warning",
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
    if slowest > 0 and (slowest - mean) / slowest > T.RANK_TIME_SHARE:
        rank = int(str(per_rank.idxmax()))
        seconds = slowest - mean
        yield Finding(
            "imbalance.rank_time",
            ctx.level(seconds),
            "POSIX",
            f"rank {rank}",
            f"rank {rank} spent {_secs(slowest)} in I/O on its own files, the mean rank "
            f"{_secs(mean)} and the fastest {_secs(float(per_rank.min()))} (over "
            f"{len(per_rank)} ranks)",
            {
                "slowest rank POSIX_F_*_TIME": slowest,
                "mean rank POSIX_F_*_TIME": mean,
                "fastest rank POSIX_F_*_TIME": float(per_rank.min()),
            },
            "balance the I/O across ranks, or overlap it with computation",
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
        yield Finding(
            "files.per_process",
            "warning" if loud else "info",
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
            None,
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


def _lustre(ctx: _Log) -> Iterable[Finding]:
    frame = ctx.frame("POSIX")
    if frame is None or not ctx.stripes or ctx.nprocs < 2:
        return
    shared = frame[(frame["rank"] == -1) & frame["id"].isin(list(ctx.stripes))]
    moved_all = _sum_rows(shared, "POSIX_BYTES_READ", "POSIX_BYTES_WRITTEN")
    for ident, moved in zip(shared["id"].tolist(), moved_all.tolist(), strict=True):
        count, size = ctx.stripes[int(ident)]
        if count != 1 or moved <= 0:
            continue
        subject = ctx.name(ident)
        yield Finding(
            "lustre.one_stripe",
            "warning",
            "LUSTRE",
            subject,
            f"{subject}, shared by {ctx.nprocs} ranks, moved {_size(moved)} on one Lustre "
            f"stripe of {_size(size)}: one storage target serves every rank",
            {"LUSTRE_COMP_STRIPE_COUNT": float(count), "LUSTRE_COMP_STRIPE_SIZE": float(size)},
            "stripe the file over more targets (lfs setstripe -c, or the striping_factor "
            "hint at create), at least one per aggregator",
            None,
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


# --------------------------------------------------------------------------- MPI-IO


def _mpiio(ctx: _Log) -> Iterable[Finding]:
    frame = ctx.frame("MPI-IO")
    if frame is None:
        return
    for op, upper, ops, _past in _OPS:
        indep = _sum(frame, f"MPIIO_INDEP_{ops}")
        coll = _sum(frame, f"MPIIO_COLL_{ops}", f"MPIIO_SPLIT_{ops}")
        nb = _sum(frame, f"MPIIO_NB_{ops}")
        calls = indep + coll + nb
        if not calls or indep <= T.INDEPENDENT_CALLS or indep / calls <= T.INDEPENDENT_SHARE:
            continue
        seconds = _op_time(frame, "MPIIO", upper, ctx.nprocs) * indep / calls
        worst = frame.groupby("id")[f"MPIIO_INDEP_{ops}"].sum().sort_values().index[-1]
        subject = ctx.name(worst)
        yield Finding(
            f"mpiio.independent_{op}",
            ctx.level(seconds, floor="warning"),
            "MPI-IO",
            subject,
            f"{indep:,.0f} of {calls:,.0f} MPI-IO {op} calls ({_pct(indep, calls)}) were "
            f"independent, {coll:,.0f} collective; most on {subject}",
            {
                f"MPIIO_INDEP_{ops}": indep,
                f"MPIIO_COLL_{ops}": _sum(frame, f"MPIIO_COLL_{ops}"),
                f"MPIIO_SPLIT_{ops}": _sum(frame, f"MPIIO_SPLIT_{ops}"),
                f"MPIIO_NB_{ops}": nb,
            },
            f"use collective calls (MPI_File_{op}_all / _at_all) so MPI-IO can merge the "
            "ranks' requests through aggregators (then the cb_* hints apply)",
            seconds,
        )
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


# --------------------------------------------------------------------------- layers


def _layers(ctx: _Log) -> Iterable[Finding]:
    yield from _hdf5(ctx)
    yield from _pnetcdf(ctx)
    for module in ("DFS", "DAOS"):
        frame = ctx.frame(module)
        if frame is None:
            continue
        read = _sum(frame, f"{module}_BYTES_READ")
        written = _sum(frame, f"{module}_BYTES_WRITTEN")
        seconds = _sum(frame, f"{module}_F_READ_TIME", f"{module}_F_WRITE_TIME",
                       f"{module}_F_META_TIME") / ctx.nprocs  # fmt: skip
        shown = "DAOS (DFS)" if module == "DFS" else "DAOS objects"
        yield Finding(
            f"{module.lower()}.usage",
            "info",
            module,
            "job",
            f"{_size(written)} written and {_size(read)} read through {shown} in "
            f"{frame['id'].nunique()} file(s)/object(s), {_secs(seconds)} of the mean rank: "
            "POSIX and MPI-IO do not see this I/O",
            {
                f"{module}_BYTES_WRITTEN": written,
                f"{module}_BYTES_READ": read,
                f"{module}_F_*_TIME": seconds * ctx.nprocs,
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
                ctx.level(seconds, floor="warning"),
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
                ctx.level(per_rank, floor="warning"),
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
    if variables is None:
        return
    for op, upper, ops, _past in _OPS:
        indep = _sum(variables, f"PNETCDF_VAR_INDEP_{ops}")
        coll = _sum(variables, f"PNETCDF_VAR_COLL_{ops}")
        if indep + coll == 0 or indep <= T.INDEPENDENT_CALLS:
            continue
        if indep / (indep + coll) <= T.INDEPENDENT_SHARE or ctx.nprocs < 2:
            continue
        seconds = _op_time(variables, "PNETCDF_VAR", upper, ctx.nprocs) * indep / (indep + coll)
        yield Finding(
            f"pnetcdf.independent_{op}",
            ctx.level(seconds, floor="warning"),
            "PnetCDF",
            subject,
            f"{indep:,.0f} of {indep + coll:,.0f} PnetCDF {op} calls were independent "
            "(ncmpi_*_vara, not the _all forms)",
            {f"PNETCDF_VAR_INDEP_{ops}": indep, f"PNETCDF_VAR_COLL_{ops}": coll},
            f"use the collective forms (ncmpi_{'put' if op == 'write' else 'get'}_vara_all) "
            "or the nonblocking ones with ncmpi_wait_all, which merge requests",
            seconds,
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
    _mpiio,
    _layers,
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
