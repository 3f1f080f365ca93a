"""Lustre: slow storage targets, and shared files on too few stripes.

Reads: the LUSTRE module's stripes (count, size) and storage targets (OSTs) per file;
POSIX times and bytes of the files of one rank on a single target; the slowest rank's time
of shared files (POSIX_F_SLOWEST_RANK_TIME); the host names of a DXT trace.
Finds: a target whose files took T.SLOW_TARGET_RATIO times the seconds per byte of the
others (T.SLOW_TARGET_FILES); a shared file on one stripe; a shared file on fewer stripes
than the job's nodes (as information).
Codes: lustre.slow_target, lustre.one_stripe, lustre.stripes_below_nodes.
"""

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from iotuner.diagnose import _thresholds as T
from iotuner.diagnose._finding import Finding
from iotuner.diagnose.checks._helpers import Check, Log, as_secs, as_size, counter_column, row_sums


@dataclass(frozen=True)
class SlowTarget:
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


def slow_targets(ctx: Log) -> list[SlowTarget]:
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
            "t": row_sums(own, "POSIX_F_READ_TIME", "POSIX_F_WRITE_TIME", "POSIX_F_META_TIME"),
            "b": row_sums(own, "POSIX_BYTES_READ", "POSIX_BYTES_WRITTEN"),
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
        found.append(SlowTarget(int(str(target)), len(mine), here, others,
                                 len(per_target), float(excess[worst]),
                                 int(mine["id"].iloc[worst])))  # fmt: skip
    return sorted(found, key=lambda s: -s.excess)


def _lustre(ctx: Log) -> Iterable[Finding]:
    yield from _slow_target_findings(ctx)
    frame = ctx.frame("POSIX")
    if frame is None or not ctx.stripes or ctx.nprocs < 2:
        return
    shared = frame[(frame["rank"] == -1) & frame["id"].isin(list(ctx.stripes))]
    yield from _one_stripe(ctx, shared)
    yield from _stripes_below_nodes(ctx, shared)


def _slow_target_findings(ctx: Log) -> Iterable[Finding]:
    for slow in slow_targets(ctx):
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
            f"{as_secs(slow.excess)} to it",
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


def _one_stripe(ctx: Log, shared: pd.DataFrame) -> Iterable[Finding]:
    """Files all ranks share, with bytes, on a single stripe."""
    moved_all = row_sums(shared, "POSIX_BYTES_READ", "POSIX_BYTES_WRITTEN")
    slowest = counter_column(shared, "POSIX_F_SLOWEST_RANK_TIME")
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
            f"{subject}, shared by {ctx.nprocs} ranks, moved {as_size(moved)} on one Lustre "
            f"stripe of {as_size(size)}: one storage target serves every rank (the slowest "
            f"rank spent {as_secs(seconds)} on it)",
            {
                "LUSTRE_COMP_STRIPE_COUNT": float(count),
                "LUSTRE_COMP_STRIPE_SIZE": float(size),
                "POSIX_F_SLOWEST_RANK_TIME": seconds,
            },
            "stripe the file over more targets (lfs setstripe -c, or the striping_factor "
            "hint at create), at least one per aggregator",
            seconds,
        )


def _stripes_below_nodes(ctx: Log, shared: pd.DataFrame) -> Iterable[Finding]:
    """Files all ranks share on fewer stripes than the nodes DXT names."""
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


LUSTRE = Check(
    "lustre",
    _lustre,
    {
        "lustre.slow_target": "a storage target's files took many times the others' time per byte",
        "lustre.one_stripe": "a file shared by the ranks lies on one Lustre stripe",
        "lustre.stripes_below_nodes": "a shared file lies on fewer stripes than the job's nodes",
    },
)
