"""The access pattern at POSIX: random and strided calls, bytes moved twice, files skipped.

Reads: POSIX_READS/WRITES, POSIX_SEQ_*, POSIX_CONSEC_* (random: not sequential; strided:
sequential, not consecutive), POSIX_BYTES_* against POSIX_MAX_BYTE_* per file, and the
read and write times; the MPI-IO calls of the same files, to tell collective buffering's.
Finds: random calls past T.RANDOM_SHARE and T.RANDOM_CALLS, else strided ones past
T.GAPPED_SHARE; files whose bytes moved pass their extent (T.REDUNDANT_SHARE,
T.REDUNDANT_BYTES); a highest offset past the bytes moved (Drishti's, as information).
Codes: access.random_write, access.random_read, access.strided_write,
access.strided_read, traffic.redundant_write, traffic.redundant_read,
access.sparse_write, access.sparse_read.
"""

from collections.abc import Iterable

from iotuner.diagnose import _thresholds as T
from iotuner.diagnose._counters import OPS
from iotuner.diagnose._finding import Finding
from iotuner.diagnose.checks._helpers import (
    Check,
    Log,
    aggregators_action,
    as_pct,
    as_size,
    collective_already,
    mean_op_time,
    summed,
)


def _access(ctx: Log) -> Iterable[Finding]:
    frame = ctx.frame("POSIX")
    if frame is None:
        return
    for op, upper, ops, _past in OPS:
        calls = summed(frame, f"POSIX_{ops}")
        if not calls:
            continue
        consec = summed(frame, f"POSIX_CONSEC_{ops}")
        seq = summed(frame, f"POSIX_SEQ_{ops}")
        random = max(calls - seq, 0.0)
        gapped = max(seq - consec, 0.0)
        counters = {f"POSIX_{ops}": calls, f"POSIX_SEQ_{ops}": seq, f"POSIX_CONSEC_{ops}": consec}
        op_time = mean_op_time(frame, "POSIX", upper, ctx.nprocs)
        if random / calls > T.RANDOM_SHARE and random > T.RANDOM_CALLS:
            seconds = op_time * random / calls
            rnd = frame.assign(r=frame[f"POSIX_{ops}"] - frame[f"POSIX_SEQ_{ops}"])
            by_file = rnd.groupby("id")["r"].sum().sort_values()
            subject = ctx.name(by_file.index[-1])
            already = collective_already(ctx, by_file[by_file > 0].index, ops)
            yield Finding(
                f"access.random_{op}",
                ctx.level(seconds),
                "POSIX",
                subject,
                f"{random:,.0f} of {calls:,.0f} POSIX {op}s ({as_pct(random, calls)}) went "
                f"backwards in the file (neither consecutive nor sequential); most in {subject}",
                counters,
                aggregators_action(already, op)
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
                f"{gapped:,.0f} of {calls:,.0f} POSIX {op}s ({as_pct(gapped, calls)}) moved "
                "forward with a gap after the one before (strided): "
                f"{consec:,.0f} were consecutive",
                counters,
                aggregators_action(already, op)
                if (already := collective_already(ctx, frame["id"], ops))
                else "a strided pattern: collective I/O over a file view (or data sieving) "
                "turns it into large contiguous accesses",
                None,
            )


def _traffic(ctx: Log) -> Iterable[Finding]:
    frame = ctx.frame("POSIX")
    if frame is None:
        return
    for op, upper, _ops, past in OPS:
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
            seconds = mean_op_time(frame, "POSIX", upper, ctx.nprocs) * extra / moved
            yield Finding(
                f"traffic.redundant_{op}",
                ctx.level(seconds),
                "POSIX",
                subject,
                f"{len(redundant)} file(s) had {as_size(extra)} {past.lower()} "
                f"beyond their extent (the same bytes moved again), most {subject}: "
                f"{as_size(per_file.loc[worst, 'moved'])} for {as_size(extent[worst])}",
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
        top, moved_all = float(frame[max_col].max()), summed(frame, moved_col)
        if top + 1 > moved_all > 0:
            yield Finding(
                f"access.sparse_{op}",
                "info",
                "POSIX",
                "job",
                f"the highest offset {past.lower()} is {as_size(top + 1)}, "
                f"{as_size(top + 1 - moved_all)} past the {as_size(moved_all)} {past.lower()} in "
                "all: parts of the files were skipped (or left as holes)",
                {max_col: top, moved_col: moved_all},
                "",
                None,
            )


ACCESS = Check(
    "access",
    _access,
    {
        "access.random_write": "many POSIX writes went backwards in the file (random)",
        "access.random_read": "many POSIX reads went backwards in the file (random)",
        "access.strided_write": "most POSIX writes moved forward with a gap (strided)",
        "access.strided_read": "most POSIX reads moved forward with a gap (strided)",
    },
)
TRAFFIC = Check(
    "traffic",
    _traffic,
    {
        "traffic.redundant_write": "files had more bytes written than their extent",
        "traffic.redundant_read": "files had more bytes read than their extent",
        "access.sparse_write": "the highest offset written lies past the bytes written",
        "access.sparse_read": "the highest offset read lies past the bytes read",
    },
)
