"""Request sizes and alignment: small calls, and calls off the file's or memory's alignment.

Reads: each module's size histogram (MODULES' sizes: the calls in the bins under
SMALL_REQUEST_BYTES against the histogram's sum, or its count of calls where larger), on
all files and on the files all ranks share (POSIX, rank -1); POSIX_FILE_NOT_ALIGNED,
POSIX_MEM_NOT_ALIGNED and their alignments; the MPI-IO calls of the same files, to tell
collective buffering's own POSIX calls.
Finds: small calls past T.SMALL_REQUEST_SHARE and T.SMALL_REQUEST_CALLS; misaligned calls
past T.MISALIGNED_SHARE.
Codes: requests.small_write, requests.small_read, requests.small_shared_write,
requests.small_shared_read, requests.misaligned_file, requests.misaligned_memory.
"""

from collections.abc import Iterable

import pandas as pd

from iotuner.diagnose import _thresholds as T
from iotuner.diagnose._counters import MODULES, OPS, SMALL_BINS, Module
from iotuner.diagnose._finding import Finding
from iotuner.diagnose.checks._helpers import (
    Check,
    Log,
    aggregators_action,
    as_pct,
    as_size,
    collective_already,
    counters_of,
    mean_op_time,
    summed,
)


def _small(ctx: Log) -> Iterable[Finding]:
    """Small calls from the size histogram of each module that keeps one."""
    for m in MODULES:
        frame = ctx.frame(m.name)
        if frame is None or m.sizes is None:
            continue
        for op, upper, ops, _past in OPS:
            bins = [m.sizes.format(op=upper, b=b) for b in SMALL_BINS]
            every = [c for c in frame.columns if c.startswith(m.sizes.format(op=upper, b=""))]
            small = summed(frame, *bins)
            calls = summed(frame, m.calls.format(ops=ops)) if m.calls else 0.0
            calls = max(calls, summed(frame, *every))
            if not calls or small / calls <= T.SMALL_REQUEST_SHARE:
                continue
            if small <= T.SMALL_REQUEST_CALLS:
                continue
            share = small / calls
            seconds = mean_op_time(frame, m.prefix, upper, ctx.nprocs) * share
            per_file = frame.assign(s=frame[[b for b in bins if b in frame]].sum(axis=1))
            worst = per_file.groupby("id")["s"].sum().sort_values(ascending=False)
            subject = ctx.name(worst.index[0])
            already = (
                collective_already(ctx, worst[worst > 0].index, ops) if m.name == "POSIX" else None
            )
            yield Finding(
                f"requests.small_{op}",
                ctx.level(seconds),
                m.shown,
                subject,
                f"{small:,.0f} of {calls:,.0f} {m.shown} {op} calls ({as_pct(small, calls)}) "
                f"moved under {as_size(T.SMALL_REQUEST_BYTES)} each, from the size histogram; "
                f"most in {subject}",
                {**counters_of(frame, *bins), f"{op} calls": calls},
                aggregators_action(already, op)
                if already
                else f"{op} fewer, larger blocks: buffer in memory, or let collective MPI-IO "
                "aggregate them (collective buffering, data sieving)",
                seconds,
            )
            if m.shared_small and m.calls:
                yield from _small_shared(ctx, m, frame, op, upper, m.calls.format(ops=ops), bins)


def _small_shared(
    ctx: Log, m: Module, frame: pd.DataFrame, op: str, upper: str, calls: str, bins: list[str]
) -> Iterable[Finding]:
    """Small calls on the files all ranks share (records of rank -1)."""
    shared = frame[frame["rank"] == -1]
    shared_small = summed(shared, *bins)
    shared_calls = summed(shared, calls)
    if (
        not shared_calls
        or shared_small / shared_calls <= T.SMALL_REQUEST_SHARE
        or shared_small <= T.SMALL_REQUEST_CALLS
    ):
        return
    sec = mean_op_time(shared, m.prefix, upper, ctx.nprocs) * shared_small / shared_calls
    worst = shared.assign(s=shared[bins].sum(axis=1)).sort_values("s", ascending=False)
    name = ctx.name(worst["id"].iloc[0])
    yield Finding(
        f"requests.small_shared_{op}",
        ctx.level(sec),
        m.shown,
        name,
        f"{shared_small:,.0f} of {shared_calls:,.0f} {m.shown} {op} calls on files all "
        f"ranks share moved under {as_size(T.SMALL_REQUEST_BYTES)}; most in {name}",
        {**counters_of(shared, *bins), calls: shared_calls},
        "small calls of many ranks on one file contend for its locks: make them "
        "collective (MPI_File_write_all) so aggregators issue large ones",
        sec,
    )


def _misaligned(ctx: Log) -> Iterable[Finding]:
    frame = ctx.frame("POSIX")
    if frame is None:
        return
    calls = summed(frame, "POSIX_READS", "POSIX_WRITES")
    if not calls:
        return
    io_time = summed(frame, "POSIX_F_READ_TIME", "POSIX_F_WRITE_TIME") / ctx.nprocs
    for kind, column, align in (
        ("file", "POSIX_FILE_NOT_ALIGNED", "POSIX_FILE_ALIGNMENT"),
        ("memory", "POSIX_MEM_NOT_ALIGNED", "POSIX_MEM_ALIGNMENT"),
    ):
        off = summed(frame, column)
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
            f"{off:,.0f} of {calls:,.0f} POSIX calls ({as_pct(off, calls)}) had {what} off the "
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


SMALL = Check(
    "small",
    _small,
    {
        "requests.small_write": "many write calls moved under SMALL_REQUEST_BYTES each",
        "requests.small_read": "many read calls moved under SMALL_REQUEST_BYTES each",
        "requests.small_shared_write": "many small write calls on files all ranks share",
        "requests.small_shared_read": "many small read calls on files all ranks share",
    },
)
MISALIGNED = Check(
    "misaligned",
    _misaligned,
    {
        "requests.misaligned_file": "many POSIX calls started off the file system's alignment",
        "requests.misaligned_memory": "many POSIX calls used buffers off the memory alignment",
    },
)
