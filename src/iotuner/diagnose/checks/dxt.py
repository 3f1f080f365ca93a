"""The DXT trace: its bounds, the ranks' busy time, and the traced calls' sizes and offsets.

Reads: each DXT module's summary (DXT_POSIX, DXT_MPIIO: the kept segments' lengths and
offsets, the per-rank busy seconds, whether segments were left out) and the file
alignment (POSIX_FILE_ALIGNMENT, else T.DXT_ALIGNMENT).
Finds: a trace capped for the segment checks; a busy rank past T.DXT_SPREAD_SHARE; small
segments past T.DXT_SMALL_SHARE; POSIX segments off the alignment past
T.DXT_UNALIGNED_SHARE (all as information but the busy rank).
Codes: dxt.capped, dxt.rank_spread, dxt.small, dxt.unaligned.
"""

from collections.abc import Iterable
from typing import Any

import numpy as np
import pandas as pd

from iotuner.diagnose import _thresholds as T
from iotuner.diagnose._finding import Finding
from iotuner.diagnose.checks._helpers import Check, Log, as_secs, as_size


def _dxt(ctx: Log) -> Iterable[Finding]:
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
        yield from _rank_spread(ctx, shown, ranks)
        yield from _segments(ctx, module, shown, trace.get("segments"), alignment)


def _rank_spread(ctx: Log, shown: str, ranks: dict[int, Any]) -> Iterable[Finding]:
    """The busiest rank in traced calls against the mean rank."""
    if len(ranks) <= 1:
        return
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
            f"{shown}: rank {rank} was busy in traced calls for {as_secs(slowest)}, "
            f"the mean rank {as_secs(mean)}, the least busy {as_secs(float(busy.min()))}",
            {
                "slowest rank busy": slowest,
                "mean rank busy": mean,
                "ranks traced": float(len(ranks)),
            },
            "balance the ranks' I/O (the trace shows which calls of that rank)",
            slowest - mean,
        )


def _segments(
    ctx: Log, module: str, shown: str, segments: Any, alignment: int
) -> Iterable[Finding]:
    """The kept segments' sizes, and (DXT_POSIX) their offsets against the alignment."""
    if segments is None or len(segments) == 0:
        return
    lengths = np.asarray(segments["length"])
    small = int((lengths < T.SMALL_REQUEST_BYTES).sum())
    if small / len(lengths) > T.DXT_SMALL_SHARE:
        yield Finding(
            "dxt.small",
            "info",
            "DXT",
            module,
            f"{shown}: {small:,} of {len(lengths):,} traced calls moved under "
            f"{as_size(T.SMALL_REQUEST_BYTES)} (median {as_size(float(np.median(lengths)))})",
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


DXT = Check(
    "dxt",
    _dxt,
    {
        "dxt.capped": "the trace holds more segments than were kept for the segment checks",
        "dxt.rank_spread": "one rank was busy in traced calls longer than the mean rank",
        "dxt.small": "many traced calls moved under SMALL_REQUEST_BYTES",
        "dxt.unaligned": "many traced POSIX calls started off the file alignment",
    },
)
