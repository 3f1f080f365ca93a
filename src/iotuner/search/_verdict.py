"""The verdict: re-measure the best found against the default, and keep it only when it is
better beyond the noise; then the winner as tuning-table entries.

choose_winner decides (remeasure, then judge with rank_test, where the objective can
measure again); winner_entries and merge_winner give the winner as tuning-table entries.
"""

import dataclasses
from collections.abc import Collection, Sequence
from pathlib import Path

from scipy.stats import mannwhitneyu

from iotuner.formats import hint_vocabulary
from iotuner.search._common import SearchError
from iotuner.search._objectives import Objective
from iotuner.search._result import Remeasured, SearchResult, Verdict, best_trial
from iotuner.search._settings import MIN_REPEATS, SIGNIFICANCE
from iotuner.space import Configuration, config_key
from iotuner.table import TableEntry, merge_entries, read_table, table_fs_type, write_table

__all__ = [
    "WINNER_ACCESSES",
    "choose_winner",
    "judge",
    "merge_winner",
    "rank_test",
    "winner_entries",
]

EXACT_UP_TO = 50
"""Re-measures of both together up to which the rank test's p-value is exact (beyond, the
normal approximation, which is close there and cheaper)."""


def choose_winner(objective: Objective, repeats: int, top: int, result: SearchResult) -> None:
    """Set the result's winner and why: by the verdict when the objective can measure
    again and `repeats` asks for one, else the best trial.

    An objective that would answer the same again (a table) gets no verdict: its best trial
    wins.
    """
    best = best_trial(result.trials, objective.direction)
    if best is None:
        result.winner_reason = "every trial failed: no winner"
        return
    if not objective.remeasurable:
        result.winner = best.config
        result.winner_reason = (
            "the best configuration the search measured (the objective would give the same "
            "value again: no verdict)"
        )
        return
    if repeats == 0:
        result.winner = best.config
        result.winner_reason = "the best trial (not re-measured: repeats 0, no verdict)"
        return
    default = objective.space.default()
    sign = 1.0 if objective.direction == "maximize" else -1.0
    others = sorted(
        (
            t
            for t in result.trials
            if t.value is not None and config_key(t.config) != config_key(default)
        ),
        key=lambda t: -sign * (t.value or 0.0),
    )
    if not others:
        result.winner = default
        result.winner_reason = "only the default was measured: the default is kept"
        return
    searched = {config_key(t.config): t.value for t in result.trials}
    chosen = [(default, searched.get(config_key(default)))]
    chosen += [(t.config, t.value) for t in others[:top]]
    result.remeasured = remeasure(objective, chosen, repeats)
    result.verdict = judge(result.remeasured, objective.direction)
    if result.verdict is not None and result.verdict.significant:
        result.winner = result.verdict.best
        result.winner_reason = result.verdict.message
    else:
        result.winner = default
        why = result.verdict.message if result.verdict else "nothing re-measured"
        result.winner_reason = f"{why}; the default is kept"


def remeasure(
    objective: Objective, chosen: Sequence[tuple[Configuration, float | None]], repeats: int
) -> list[Remeasured]:
    """Measure each chosen configuration `repeats` times, interleaved; the first is the
    default. Each pair is a configuration and its value in the search.

    When the objective gives a new measurement each time it is asked
    (Objective.remeasurable: it runs the program), the `top` best configurations found
    (other than the default) and the default are re-measured at the end, `repeats` (at least
    3) times each, one at a time, interleaved: default, best, default, best, ... with the
    order reversed every other round, so a drift of the machine (page cache, other jobs)
    falls on both alike.
    """
    values: list[list[float]] = [[] for _ in chosen]
    failures: list[list[str]] = [[] for _ in chosen]
    logs: list[list[Path]] = [[] for _ in chosen]
    seconds = [0.0 for _ in chosen]
    for repeat in range(repeats):
        # Reversed every other round (default, best, best, default, ...): a drift of the
        # machine over the rounds then weighs on the default and the candidates alike.
        order = range(len(chosen)) if repeat % 2 == 0 else reversed(range(len(chosen)))
        for index in order:
            outcome = objective.evaluate(chosen[index][0], f"remeasure-{index}-{repeat}")
            logs[index].extend(outcome.logs)
            seconds[index] += outcome.seconds
            if outcome.value is None:
                failures[index].append(outcome.reason or "failed")
            else:
                values[index].append(outcome.value)
    return [
        Remeasured(config, i == 0, value, values[i], failures[i], logs[i], seconds[i])
        for i, (config, value) in enumerate(chosen)
    ]


def _range(r: Remeasured) -> str:
    if not r.values:
        return "no value"
    spread = f", spread {r.spread:.0%}" if r.spread is not None else ""
    return (
        f"median {r.median:.4g} (min {min(r.values):.4g}, max {max(r.values):.4g}, "
        f"n {len(r.values)}{spread})"
    )


def rank_test(
    better_values: Sequence[float], worse_values: Sequence[float], direction: str
) -> float:
    """One-sided p-value that the first sample is better than the second in `direction`
    (Mann-Whitney U; exact up to EXACT_UP_TO values together).

    RATIONALE: a rank test, not a threshold on one ratio: the noise of a run is not known in
    advance and differs between programs and machines (one re-measure of the default gave
    1.10x and, minutes later, 2.91x for the same program), so the test judges the winner
    against the spread of the default's own re-measures, without assuming a distribution.
    Exact, so that three of each can decide at all: with 3 and 3 the smallest p is 1/20 =
    0.05, which is reached only when every re-measure of the winner beats every re-measure
    of the default (winner's worst better than the default's best); with more repeats some
    overlap is tolerated.
    """
    exact = len(better_values) + len(worse_values) <= EXACT_UP_TO
    return float(
        mannwhitneyu(
            better_values,
            worse_values,
            alternative="greater" if direction == "maximize" else "less",
            method="exact" if exact else "asymptotic",
        ).pvalue
    )


def judge(remeasured: list[Remeasured], direction: str) -> Verdict | None:
    """The candidate with the best re-measured median against the default (below);
    None when the default or every candidate has no re-measure.

    The candidate with the best re-measured median is compared with the default by the exact
    one-sided Mann-Whitney U test (a rank test), at level 0.05 divided by the number of
    candidates re-measured (Bonferroni: the best of several is chosen from the same
    measurements). It wins only when p <= that level and its median is better; otherwise the
    default is kept. The result gives every configuration's median, min, max and spread, the
    ratio of the medians and the p-value.
    """
    default = next((r for r in remeasured if r.is_default), None)
    candidates = [r for r in remeasured if not r.is_default]
    ok = [r for r in candidates if r.values]
    if default is None or not ok:
        return None
    sign = 1.0 if direction == "maximize" else -1.0
    best = max(ok, key=lambda r: sign * (r.median or 0.0))
    label = config_key(best.config)
    if len(default.values) < MIN_REPEATS or len(best.values) < MIN_REPEATS:
        return Verdict(
            best.config,
            None,
            False,
            f"too few successful re-measures to judge (default {len(default.values)}, "
            f"{label} {len(best.values)}; the verdict needs {MIN_REPEATS} of each)",
        )
    level = SIGNIFICANCE / len(candidates)
    p = rank_test(best.values, default.values, direction)
    ratio = (best.median or 0.0) / default.median if default.median else None
    gain = (
        f"{ratio:.2f}x the default's median" if ratio is not None else "the default's median is 0"
    )
    figures = f"{label}: {_range(best)}; default: {_range(default)}"
    test = f"one-sided exact Mann-Whitney U p = {p:.3g}, needs <= {level:.3g}"
    if len(candidates) > 1:
        test += f" (0.05 / {len(candidates)} candidates)"
    ahead = sign * ((best.median or 0.0) - (default.median or 0.0)) > 0
    if p <= level and ahead:
        word = "better" if direction == "maximize" else "lower"
        message = f"the winner is significantly {word} than the default: {gain}; {figures}; {test}"
        return Verdict(best.config, p, True, message, level, ratio)
    message = (
        f"the best candidate is NOT better than the default beyond the noise: {gain}; "
        f"{figures}; {test}"
    )
    if len(best.values) == MIN_REPEATS == len(default.values):
        message += (
            f"; with {MIN_REPEATS} of each only complete separation passes: more --repeats "
            "tolerate some overlap"
        )
    return Verdict(best.config, p, False, message, level, ratio)


WINNER_ACCESSES = tuple(
    (op, layout) for op in ("read", "write") for layout in ("contiguous", "strided")
)
"""The collective accesses a winner gets an access entry for: every op and layout, each
for every size group (no `group` key), so no access of the program escapes it."""


def winner_entries(result: SearchResult, program: str, nprocs: int) -> list[TableEntry]:
    """The tuning-table entries for the search's winner: its hints for this program (its
    file name) and scale at every decision point, so that the program gets what the search
    measured.

    The search measured each configuration with one open entry and nothing else; in a
    table that also holds generic entries (no `program`, as `iotuner tune` writes), a
    generic view or access entry would set its own keys at set_view or at the first
    collective access and undo the winner. So the winner is written as one entry per
    decision point, each naming the program and the scale: at open (every hint), at
    set_view for either layout and at collective access for every op and layout (the
    hints that may be set there: not the keys read only at open). Naming the program adds
    4 to an entry's specificity, so each outranks every entry that names neither a
    program nor a file (at most 2 + 4 = 6 at access, 3 at view, 2 at open), and
    merge_winner puts them first, so they also win the ties. Entries that name the
    program or a file more precisely (trace history's, per program and file) stay more
    specific and still win for their files. A table cannot set application parameters:
    the note names the winner's, for the user to set.

    A winner that sets no hint (the default kept: nothing better was found) gets no
    entries: an entry naming the program with no hints would outrank the table's other
    entries for the program (`tune`'s) and so unset keys the search never looked at."""
    if result.winner is None:
        raise SearchError("the search has no winner (every trial failed)")
    if not result.space.hints(result.winner):
        return []
    note = (
        f"iotuner search ({result.strategy}, {len(result.trials)} trials): {result.winner_reason}"
    )
    app = result.space.app_values(result.winner)
    if app:
        shown = ", ".join(f"{name}={value}" for name, value in app.items())
        note += f"; application parameters (set them yourself): {shown}"
    name = Path(program).name
    hints: dict[str, str | int] = dict(result.space.hints(result.winner))
    vocabulary = hint_vocabulary()
    later = {k: v for k, v in hints.items() if k not in vocabulary or vocabulary[k].when != "OPEN"}
    entries = [TableEntry(at="open", program=name, nprocs=nprocs, hints=hints, note=note)]
    kept = "the winner's hints kept past open (an entry without program would change them)"
    entries += [
        TableEntry(at="view", program=name, nprocs=nprocs, layout=layout, hints=later, note=kept)
        for layout in ("contiguous", "strided")
    ]
    entries += [
        TableEntry(
            program=name,
            nprocs=nprocs,
            pattern="collective",
            op=op,
            layout=layout,
            hints=later,
            note=kept,
        )
        for op, layout in WINNER_ACCESSES
    ]
    return entries


def merge_winner(
    path: Path | str,
    entries: Sequence[TableEntry],
    searched: Collection[str] = (),
    fs_type: str | None = None,
) -> None:
    """Put the winner's `entries` into the tuning table at `path` (created when missing),
    in front (so they win ties: winner_entries), replacing the entries of their cases
    (decision point, program, file, scale, access) wherever they were (table.merge_entries,
    the merge trace history uses too).

    `searched`: the keys the search decided (searched_keys). The winner's entries name the
    program, so they outrank the table's entries for it that name none (`tune`'s): those
    entries' other keys are carried into them (with_unsearched), so a search of some keys
    leaves the table's values of the keys it did not search.

    `fs_type`: the file system the search measured on (measured_fs_type), written into
    the header of a new table; an existing table keeps its header (its other entries were
    measured where it says)."""
    path = Path(path)
    existing = read_table(path) if path.exists() else []
    if path.exists():
        fs_type = table_fs_type(path)
    if searched:
        entries = with_unsearched(entries, existing, set(searched))
    write_table(path, merge_entries(existing, entries, in_front=True), fs_type=fs_type)


def measured_fs_type(logs: Sequence[Path | str]) -> str | None:
    """The one file system the files of these trace logs are on (this host's mount table,
    as ingest finds it: iotuner.tracelog.trace_system), or None when they are on several or
    it cannot be told."""
    from iotuner.errors import IotunerError
    from iotuner.tracelog import read_tracelog, trace_system

    found: set[str] = set()
    for log in logs:
        try:
            trace = read_tracelog(log)
        except IotunerError:
            return None
        job = trace.job
        for record in trace.files:
            system = trace_system(job["host"], "", "", record["file"], job.get("cwd"))
            found.add(system.fs_type)
    return found.pop() if len(found) == 1 and "unknown" not in found else None


_CASE_KEYS = ("nprocs", "pattern", "op", "layout")


def _named(entry: TableEntry) -> int:
    """How many of the case's keys an entry names (the more, the more specific)."""
    return sum(getattr(entry, key) is not None for key in _CASE_KEYS)


def searched_keys(result: SearchResult) -> set[str]:
    """The MPI info keys the search decided: its hint parameters (and the keys each sets
    with them), less those fixed at their defaults because no access reaches them."""
    keys: set[str] = set()
    for p in result.space.parameters:
        if p.kind == "hint" and p.name not in result.fixed:
            keys.add(p.name)
            keys.update(p.with_keys)
    return keys


def with_unsearched(
    entries: Sequence[TableEntry], existing: Sequence[TableEntry], searched: set[str]
) -> list[TableEntry]:
    """The winner's `entries`, each given the keys it did not search from the table entry
    naming no program and no file that applies at its decision point, scale and access
    (tune's), and, for each such access entry of a size group, a copy for the program at
    that group (more specific than the winner's entry for every group, so each group
    keeps its own values of the other keys)."""

    def fits(generic: TableEntry, mine: TableEntry) -> bool:
        return (
            generic.program is None
            and generic.file is None
            and generic.at == mine.at
            and all(getattr(generic, key) in (None, getattr(mine, key)) for key in _CASE_KEYS)
        )

    def merged(generic: TableEntry | None, mine: TableEntry, group: int | None) -> TableEntry:
        kept = {k: v for k, v in (generic.hints if generic else {}).items() if k not in searched}
        return dataclasses.replace(mine, group=group, hints={**kept, **mine.hints})

    out: list[TableEntry] = []
    for mine in entries:
        generic = [e for e in existing if fits(e, mine)]
        catch_all = max(
            (e for e in generic if e.group is None),
            key=lambda e: sum(
                getattr(e, k) is not None for k in ("nprocs", "pattern", "op", "layout")
            ),
            default=None,
        )
        out.append(merged(catch_all, mine, None))
        if mine.at == "access":
            groups = sorted({e.group for e in generic if e.group is not None})
            for group in groups:
                best = max((e for e in generic if e.group == group), key=_named)
                out.append(merged(best, mine, group))
    return out
