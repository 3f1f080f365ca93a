"""Keep or roll back: after a change, the program's runs with the new entry against its
runs with the old one."""

import itertools
import math
import statistics
from typing import Any

import numpy as np

from iotuner.online.events import same_stream

__all__ = [
    "FAR_SPREADS",
    "GUARD_P",
    "GUARD_RUNS",
    "SETTLED_RUNS",
    "UNKNOWN_SPREAD",
    "awaiting_judgement",
    "rank_test_p",
    "rollback_event",
    "spread",
]

GUARD_RUNS = 3
"""Runs with the new entry before the rank test judges a change."""
GUARD_P = 0.05
"""The rank test's level (one-sided, exact): 3 slower runs out of 3 against 3 give 0.05."""
FAR_SPREADS = 2.5
"""How many spreads of the program's runs (log) a first run must fall below the median
before it, every run with the change that far, to roll back before the rank test."""
UNKNOWN_SPREAD = math.log1p(0.25)
"""The spread (log) taken where the program's runs give none: one run before a change and
one after. RATIONALE: one run against one says nothing of how the program's runs vary,
and the knowledge base's noise (the sweep's repeats, 5-10 %) made a drop of 12 % after one
run a rollback (issue 41); a program's runs here vary by -18 to +35 % (docs/measurements.md,
tracing costs), so only a run below 57 % of the one before, on both clocks, is clear
harm before more runs are in."""
SETTLED_RUNS = 6
"""Runs with the new entry at which the guard decides: the change stays when the median of
its runs is not below the median of the runs before it, and is no longer judged after (the
chance of a rollback under noise does not grow with the program's life)."""


def rollback_event(
    history: list[dict[str, Any]], program: str, nprocs: int, file: str | None = None
) -> dict[str, Any] | None:
    """A rollback event when the last change of the program's entries for `file` made its
    runs slower, else None."""
    mine = [e for e in history if same_stream(e, program, nprocs, file)]
    changes = [i for i, e in enumerate(mine) if e["event"] in ("change", "rollback")]
    if not changes or mine[changes[-1]]["event"] != "change":
        return None
    change = mine[changes[-1]]
    old, new = change["old"], change["new"]
    runs_before = [e for e in mine[: changes[-1]] if e["event"] == "run" and e["hints"] == old]
    runs_before = runs_before[-4 * GUARD_RUNS :]  # the recent runs with the old entry
    runs_after = [e for e in mine[changes[-1] :] if e["event"] == "run" and e["hints"] == new]
    before = [e["bandwidth"] for e in runs_before]
    after = [e["bandwidth"] for e in runs_after]
    if not before or not after or len(after) > SETTLED_RUNS:
        return None
    noise = float(change.get("noise") or 0.0)
    sigma = spread(before, after, noise)
    reason = _far_below(before, after, sigma)
    if reason is not None:
        reason = _clock_agrees(runs_before, runs_after, noise, reason)
    # The runs it rests on, by their trace logs (each run event names its own).
    extra: dict[str, Any] = {"spread": sigma, "runs_before": _logs_of(runs_before),
                             "runs_after": _logs_of(runs_after)}  # fmt: skip
    if reason is None:
        reason, p = _slower_by_rank(before, after)
        extra["p"] = p
    if reason is None:
        reason = _slower_phase(runs_before, runs_after)
    if reason is None and len(after) == SETTLED_RUNS:
        reason = _not_earned(before, after)
    if reason is None:
        return None
    return {"event": "rollback", "program": program, "nprocs": nprocs, "old": new,
            "new": old, "reason": reason, "after": after, "before": before,
            "entries_before": change.get("entries_before"), **extra}  # fmt: skip


def _logs_of(runs: list[dict[str, Any]]) -> list[str]:
    """The first trace log of each run (a run event lists its logs), '' where none."""
    return [str((e.get("logs") or [""])[0]) for e in runs]


def awaiting_judgement(
    history: list[dict[str, Any]], program: str, nprocs: int, file: str | None = None
) -> str | None:
    """Why nothing new is tried yet: the last change of the program's entries for `file`
    has run fewer than GUARD_RUNS times and was not rolled back. None when the guard has
    judged it (or there is none).

    RATIONALE: a refit after every run chose a new try before the guard could judge the
    last one: each try was judged by one run (only a far fall rolls back then), and in
    the real-programs bench 9 of 36 learning runs fell below every default run, where 5
    are expected by chance. One try at a time, judged by the rank test, caps the runs a
    learner risks."""
    mine = [e for e in history if same_stream(e, program, nprocs, file)]
    changes = [i for i, e in enumerate(mine) if e["event"] in ("change", "rollback")]
    if not changes or mine[changes[-1]]["event"] != "change":
        return None
    new = mine[changes[-1]]["new"]
    runs = sum(e["event"] == "run" and e["hints"] == new for e in mine[changes[-1] :])
    if runs >= GUARD_RUNS:
        return None
    return (
        f"the last change has run {runs} of the {GUARD_RUNS} times the guard needs to "
        "judge it: nothing else is tried before"
    )


def spread(before: list[float], after: list[float], noise: float) -> float:
    """The spread (standard deviation, log) of the program's runs: each side's runs around
    their own mean, pooled; at least the knowledge base's noise, log(1 + noise).

    RATIONALE: a program's own runs may vary far more than the sweep's repeats (another
    job on the node, a cold cache): the guard judges a run against the runs of the same
    program, never against a noise measured elsewhere alone."""
    logs = [np.log(np.asarray(side, dtype=float)) for side in (before, after)]
    squares = sum(float(np.sum((x - x.mean()) ** 2)) for x in logs)
    dof = sum(len(x) - 1 for x in logs)
    own = math.sqrt(squares / dof) if dof > 0 else UNKNOWN_SPREAD
    return max(own, math.log1p(max(noise, 0.0)))


def _far_below(before: list[float], after: list[float], sigma: float) -> str | None:
    """Why a change is rolled back after its first runs, before the rank test can judge:
    every run with it fell below the median of the runs before it by more than
    FAR_SPREADS spreads. None otherwise.

    RATIONALE: a tried configuration several times slower costs one run, not
    GUARD_RUNS; a run within the spread of the program's runs is what noise does and
    waits for the rank test and the decision at SETTLED_RUNS. Simulated with 25 %
    log-normal noise, 2 runs before a change, 400 seeds (tests/models/test_online_guard.py
    has 10): the rule before ("below the slowest run before by more than the sweep's
    noise", then the rank test alone) rolled back a true x0.7 in 49 % and a true x1.25
    at its first run in 2 %; these rules roll back the x0.7 in 97 %, the x1.25 in 12 %
    (mostly at the decision), and never a x2."""
    if len(after) >= GUARD_RUNS:
        return None
    level = statistics.median(before)
    floor = level * math.exp(-FAR_SPREADS * sigma)
    if max(after) >= floor:
        return None
    return (
        f"{len(after)} run(s) with it at {max(after):.1f} MiB/s or less, below the median "
        f"of {len(before)} run(s) before ({level:.1f} MiB/s) by more than {FAR_SPREADS:g} "
        f"times the spread of the program's runs ({math.expm1(sigma):.0%})"
    )


def _clock_agrees(
    runs_before: list[dict[str, Any]], runs_after: list[dict[str, Any]], noise: float, reason: str
) -> str | None:
    """An early rollback's reason when the program's own clock (each run's
    `phase_bandwidth`: the file's bytes over its open-to-close seconds) fell as far too,
    else None: the rank test judges after GUARD_RUNS runs. Runs recorded before the
    phase was known keep the trace's bandwidth alone.

    RATIONALE: the trace's bandwidth sums the seconds inside the calls; on reads from the
    page cache it swung by 2.5 spreads from one run to the next (1,232 against 2,002
    MiB/s; 2,317 against 7,538) while IOR's own open-to-close figure of the same runs
    hardly moved, and three cells of bench/real_programs.py rolled a try back after one
    such run."""
    phases_before = [e.get("phase_bandwidth") for e in runs_before]
    phases_after = [e.get("phase_bandwidth") for e in runs_after]
    known = [float(b) for b in phases_before if b], [float(a) for a in phases_after if a]
    if len(known[0]) < len(phases_before) or len(known[1]) < len(phases_after):
        return reason
    if _far_below(*known, spread(*known, noise)) is None:
        return None
    return f"{reason}; the program's open-to-close bandwidth fell as far"


def _slower_by_rank(before: list[float], after: list[float]) -> tuple[str | None, float | None]:
    """From GUARD_RUNS runs with the change: its runs slower than those before by an exact
    one-sided rank test at GUARD_P, their median below the median before. With few runs
    before, the test cannot reach GUARD_P until the change has run more often: the fewer
    the runs known, the more it takes to roll back."""
    if len(after) < GUARD_RUNS:
        return None, None
    p = rank_test_p(after, before)
    if not (statistics.median(after) < statistics.median(before) and p <= GUARD_P):
        return None, p
    return (
        f"{len(after)} runs with it at median {statistics.median(after):.1f} MiB/s against "
        f"{statistics.median(before):.1f} MiB/s in {len(before)} runs before "
        f"(rank test p = {p:.3f})"
    ), p


def _slower_phase(
    runs_before: list[dict[str, Any]], runs_after: list[dict[str, Any]]
) -> str | None:
    """Why a change is rolled back for one phase of the file (a workload the run event's
    `phases` names) when the main one is not slower: from GUARD_RUNS runs with the change
    and as many before that recorded the phase, its runs slower by the rank test
    (_slower_by_rank). None otherwise, and for runs recorded before phases were.

    RATIONALE: judging the run's largest workload alone, a phase of the same program 200
    times slower under a change stayed through every learning run (issue 41). The table's
    entries act on the whole file, so undoing the change for that phase is undoing it."""
    found = []
    phases_before = [e.get("phases") or {} for e in runs_before]
    phases_after = [e.get("phases") or {} for e in runs_after]
    for key in sorted(set().union(*phases_after) if phases_after else ()):
        before = [float(p[key]) for p in phases_before if p.get(key)]
        after = [float(p[key]) for p in phases_after if p.get(key)]
        if len(before) < GUARD_RUNS or len(after) < GUARD_RUNS:
            continue  # too few runs of this phase to judge it
        reason, _ = _slower_by_rank(before, after)
        if reason is not None:
            found.append(f"its {key} phase: {reason}")
    return "; ".join(found) if found else None


def rank_test_p(after: list[float], before: list[float]) -> float:
    """The exact one-sided p-value of the Mann-Whitney rank test that `after` is smaller
    than `before`: the share of all ways to split the pooled runs into groups of their
    sizes whose U statistic (pairs where the `after` run is larger, ties a half) is at
    most the observed one. Equal to scipy.stats.mannwhitneyu(after, before,
    alternative="less", method="exact") without ties (tests/models/test_online_guard.py).

    RATIONALE: by hand, because importing scipy.stats takes 1.2 s of a learn step that
    must take at most 2 s (issue 31); the guard's samples are small (at most SETTLED_RUNS
    against 4 x GUARD_RUNS runs: 18,564 splits), so the exact count is quick."""
    pooled = [*after, *before]
    # U of a group is the sum of its members' ranks (ties: their mean rank) less the least
    # such sum; comparing rank sums is comparing U.
    ranks = [sum(b < a for b in pooled) + (sum(b == a for b in pooled) + 1) / 2 for a in pooled]
    observed = sum(ranks[: len(after)])
    splits = itertools.combinations(ranks, len(after))
    at_most = total = 0
    for group in splits:
        total += 1
        at_most += sum(group) <= observed + 1e-9
    return at_most / total


def _not_earned(before: list[float], after: list[float]) -> str | None:
    """At SETTLED_RUNS runs with the change: back when their median is below the median of
    the runs before it (a change that gained nothing measurable is not worth its risk)."""
    if statistics.median(after) >= statistics.median(before):
        return None
    return (
        f"{len(after)} runs with it at median {statistics.median(after):.1f} MiB/s, below "
        f"the median {statistics.median(before):.1f} MiB/s of {len(before)} runs before"
    )
