"""Keep or roll back: after a change, the program's runs with the new entry against its
runs with the old one."""

import statistics
from typing import Any

import numpy as np
from scipy.stats import mannwhitneyu

from iotuner.online.events import same_stream

__all__ = ["GUARD_P", "GUARD_RUNS", "rollback_event"]

GUARD_RUNS = 3
"""Runs with the new entry, and with the old one, before the guard judges a change."""
GUARD_P = 0.05
"""The rank test's level: 3 slower runs out of 3 against 3 give exactly 0.05."""


def rollback_event(
    history: list[dict[str, Any]], program: str, nprocs: int
) -> dict[str, Any] | None:
    """A rollback event when the program's last change made its runs slower, else None."""
    mine = [e for e in history if same_stream(e, program, nprocs)]
    changes = [i for i, e in enumerate(mine) if e["event"] in ("change", "rollback")]
    if not changes or mine[changes[-1]]["event"] != "change":
        return None
    change = mine[changes[-1]]
    old, new = change["old"], change["new"]
    before = [
        e["bandwidth"] for e in mine[: changes[-1]] if e["event"] == "run" and e["hints"] == old
    ]
    after = [
        e["bandwidth"] for e in mine[changes[-1] :] if e["event"] == "run" and e["hints"] == new
    ]
    before = before[-4 * GUARD_RUNS :]  # the recent runs with the old entry
    reason = _first_runs_below(before, after, float(change.get("noise") or 0.0))
    extra: dict[str, Any] = {}
    if reason is None:
        reason, p = _slower_by_rank(before, after, new)
        extra = {"p": p}
    if reason is None:
        return None
    return {"event": "rollback", "program": program, "nprocs": nprocs, "old": new,
            "new": old, "reason": reason, "after": after, "before": before, **extra}  # fmt: skip


def _slower_by_rank(
    before: list[float], after: list[float], new: dict[str, Any]
) -> tuple[str | None, float | None]:
    """Once both sides have GUARD_RUNS runs: the new runs' median below the old ones' lower
    quartile, and an exact one-sided rank test at GUARD_P."""
    if len(before) < GUARD_RUNS or len(after) < GUARD_RUNS:
        return None, None
    q1 = float(np.percentile(before, 25))
    p = float(mannwhitneyu(after, before, alternative="less", method="exact").pvalue)
    if not (statistics.median(after) < q1 and p <= GUARD_P):
        return None, p
    return (
        f"{len(after)} runs with {new} at median {statistics.median(after):.1f} MiB/s, "
        f"below the lower quartile {q1:.1f} MiB/s of {len(before)} runs before "
        f"(rank test p = {p:.3f})"
    ), p


def _first_runs_below(before: list[float], after: list[float], noise: float) -> str | None:
    """Why a change is rolled back after its first runs (before the rank test can judge):
    every run with it fell below the slowest run before it by more than the noise (the
    knowledge base's, or the earlier runs' own spread when wider). None otherwise.

    RATIONALE: a tried configuration that is slower costs one run, not GUARD_RUNS: the
    promise is that no run is slower than the default beyond the noise, and one run
    that far below every earlier one is evidence enough to go back to what was measured.
    """
    if not before or not after or len(after) >= GUARD_RUNS:
        return None
    spread = max(before) / min(before) - 1 if min(before) > 0 else 0.0
    floor = min(before) / (1 + max(noise, spread))
    if max(after) >= floor:
        return None
    return (
        f"{len(after)} run(s) with it at {max(after):.1f} MiB/s or less, below the slowest "
        f"of {len(before)} run(s) before ({min(before):.1f} MiB/s) by more than the noise "
        f"({max(noise, spread):.0%})"
    )
