"""What the tuning table decided for a traced run, per file and size group, and why.

A trace names the table the run used (its job record) and, per operation, the size group,
pattern and read or write the interposer agreed on; its file record says whether the view
was contiguous. For each such case this looks the table up as the interposer does
(iotuner.table.match: the most specific entry that matches) and says which entry applied
(its hints and the note `tune` wrote: the predicted or measured gain), or why the defaults
stayed: an entry that keeps them (its note says why: no evidence beyond the noise, the
measurements show no configuration beating the default, ...), or no entry at all for the
case (a size or scale the table does not cover). `iotuner show` prints it.
"""

import statistics
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from iotuner.acting import describe_accesses
from iotuner.errors import IotunerError
from iotuner.formats import acting_hints
from iotuner.gains import stated_gain
from iotuner.table import TableEntry, match, read_table
from iotuner.tracelog import TraceLog

__all__ = ["Decision", "table_decisions"]


@dataclass(frozen=True)
class Decision:
    """One case of a traced file: where it was decided, the entry found and the words."""

    file: str
    at: str
    group: int | None
    pattern: str | None
    op: str | None
    layout: str | None
    entry: TableEntry | None
    applied: dict[str, str]
    why: str
    nprocs: int | None = None  # said when the file was opened at several scales

    @property
    def case(self) -> str:
        scale = f"{self.nprocs} rank{'s' if self.nprocs != 1 else ''}, " if self.nprocs else ""
        if self.at == "open":
            return f"{scale}at open"
        parts = [f"group {self.group}", self.pattern, self.op, self.layout]
        return scale + ", ".join(str(p) for p in parts if p is not None)


def table_decisions(log: TraceLog) -> tuple[list[Decision], str]:
    """The decisions of a traced run and a note; no decisions (and the note says why) when
    the run did not tune or its table cannot be read any more."""
    table = log.job.get("table")
    if "tune" not in str(log.job.get("mode", "")) or not table:
        return [], "the run did not tune (no table)"
    try:
        entries = read_table(Path(str(table)))
    except (OSError, IotunerError) as exc:
        return [], f"the table {table} cannot be read now ({exc}): no decisions shown"
    program = str(log.job.get("program", ""))
    decisions: list[Decision] = []
    last_of_file = _last_operations(log)
    rates = _bandwidths(log)
    # One statement per file and scale, however often it was opened: each open of a
    # name at one scale is looked up alike (a file IOR reopens on one rank is a scale of
    # its own, with its own entries).
    scales: dict[tuple[str, int], dict[str, Any]] = {}
    for number, record in enumerate(log.files):
        scales.setdefault((str(record["file"]), _open_ranks(log, number)), record)
    several = {name for name, _ in scales if sum(1 for n, _ in scales if n == name) > 1}
    for (name, nprocs), record in scales.items():
        shown = nprocs if name in several else None
        pattern = record.get("pattern") or {}
        layout = "contiguous" if pattern.get("contiguous", True) else "strided"
        opening = match(entries, at="open", program=program, file=name, nprocs=nprocs)
        cases = last_of_file.get((name, nprocs), {})
        if opening is not None:
            scale = _scale(log, cases)
            accesses = {(kind, op_name) for _, kind, op_name in cases}
            decisions.append(
                Decision(
                    name,
                    "open",
                    None,
                    None,
                    None,
                    None,
                    opening,
                    {k: str(v) for k, v in opening.hints.items()},
                    _note(opening) + _cannot_act(opening.hints, accesses, *scale, phase="open"),
                    shown,
                )
            )
        for (group, kind, op_name), index in cases.items():
            op = log.ops[index]
            at = "access" if kind == "collective" else "view"
            entry = match(
                entries,
                at=at,
                program=program,
                file=name,
                nprocs=nprocs,
                group=group if at == "access" else None,
                pattern=kind if at == "access" else None,
                op=op_name if at == "access" else None,
                layout=layout,
            )
            applied = _applied(log, op)
            why = _access_why(at, entry, applied, rates.get((name, nprocs, group, kind, op_name)))
            why += _cannot_act(applied, {(kind, op_name)}, *_scale(log, {0: index}), phase=at)
            decisions.append(
                Decision(name, at, group, kind, op_name, layout, entry, applied, why, shown)
            )
    return decisions, f"table {table}"


def _access_why(
    at: str, entry: TableEntry | None, applied: dict[str, str], rates: list[float] | None
) -> str:
    """Why a case ran as it did: no entry, an entry that keeps the defaults, or the entry's
    note (with this run's bandwidth where it missed the prediction), and whether its last
    call still ran under an earlier decision."""
    if entry is None:
        return (
            "no entry for this case: the table covers other sizes or scales (the defaults stay)"
            if at == "access"
            else "independent access: only an open entry, or a view entry for strided views, "
            "acts on it"
        )
    why = (
        "the entry keeps the defaults: " + _note(entry)
        if not entry.hints
        else _note(entry) + _missed(entry, rates or [])
    )
    if applied != {k: str(v) for k, v in entry.hints.items()}:
        why += (
            "; its last call still ran under an earlier decision (the interposer decides at "
            "the 1st, 2nd, 4th, 8th ... collective call and at set_view)"
        )
    return why


def _last_operations(log: TraceLog) -> dict[tuple[str, int], dict[tuple[int, str, str], int]]:
    """(file, the ranks of its open) -> (group, pattern, kind) -> the index of its last
    read or write row, the cases in the order the rows first show them.

    The last operation of each case: the interposer decides at the 1st, 2nd, 4th, 8th ...
    collective call, so the first calls of a new size may still run under the decision
    made for an earlier one. RATIONALE: found in one pass over the rows' columns, not one
    per file record (a log may hold hundreds of thousands of rows and as many opens).
    """
    last: dict[tuple[str, int], dict[tuple[int, str, str], int]] = {}
    ops = log.ops
    scales = _row_scales(log)
    columns = zip(
        ops.column("file"),
        scales,
        ops.column("group"),
        ops.column("pattern"),
        ops.column("kind"),
        strict=True,
    )
    for index, (name, nprocs, group, pattern, kind) in enumerate(columns):
        if kind in ("read", "write"):
            last.setdefault((name, nprocs), {})[(int(group), str(pattern), str(kind))] = index
    return last


def _open_ranks(log: TraceLog, number: int) -> int:
    """The ranks of open `log.files[number]` (-1: none; the job's), the scale the
    interposer looked its entries up at."""
    record = log.files[number] if number >= 0 else {}
    return int(record.get("nprocs", log.job.get("nprocs", 0)))


def _row_scales(log: TraceLog) -> list[int]:
    """Each op row's scale: the ranks of the open it falls into (_open_ranks)."""
    known: dict[int, int] = {}
    scales = []
    for number in log.open_numbers:
        if number not in known:
            known[number] = _open_ranks(log, number)
        scales.append(known[number])
    return scales


def _scale(log: TraceLog, cases: Mapping[Any, int]) -> tuple[int, int]:
    """(nprocs, nodes) of the file's accesses (of its first case; 1, 1 without one)."""
    for index in cases.values():
        workload = log.workload_of(index)
        return int(workload.nprocs), int(workload.nodes or 1)
    return 1, 1


def _cannot_act(
    hints: Mapping[str, object],
    accesses: set[tuple[str, str]],
    nprocs: int,
    nodes: int,
    *,
    phase: str,
) -> str:
    """'; romio_cb_read=enable cannot act on its collective writes ...' for the keys in
    force that act on none of the accesses (formats/hints.def, hint_scale.def); ''."""
    given = {str(k): str(v) for k, v in hints.items()}
    if not given or not accesses:
        return ""
    acting: set[str] = set()
    for pattern, op in accesses:
        found = acting_hints(given, pattern=pattern, op=op, nprocs=nprocs, nodes=nodes, phase=phase)
        acting |= set(found)
    idle = [f"{k}={v}" for k, v in given.items() if k not in acting]
    if not idle:
        return ""
    return (
        f"; {', '.join(idle)} cannot act on its {describe_accesses(accesses)} at {phase} "
        f"on {nprocs} rank(s) of {nodes} host(s) (formats/hints.def): the defaults' behaviour"
    )


def _bandwidths(log: TraceLog) -> dict[tuple[str, int, int, str, str], list[float]]:
    """(file, scale, group, pattern, read or write) -> the bandwidth (MiB/s) of each of its
    calls, as the knowledge base stores them (one measurement per call)."""
    found: dict[tuple[str, int, int, str, str], list[float]] = {}
    ops = log.ops
    columns = zip(
        ops.column("file"), _row_scales(log), ops.column("group"), ops.column("pattern"),
        ops.column("kind"), ops.column("bandwidth"), strict=True,
    )  # fmt: skip
    for name, nprocs, group, pattern, kind, bandwidth in columns:
        if kind in ("read", "write") and bandwidth:
            key = (name, nprocs, int(group), str(pattern), str(kind))
            found.setdefault(key, []).append(float(bandwidth))
    return found


def _missed(entry: TableEntry, bandwidths: list[float]) -> str:
    """'; this run measured 41.2 MiB/s (median of 8 calls), below the [50.0, 90.0]
    predicted' when the run's calls of the case lie outside the bandwidth interval the
    entry's note predicted; '' when inside, or when either is missing."""
    from iotuner.tune import note_figures

    figures = note_figures(entry.note)
    if figures is None or not bandwidths:
        return ""
    measured = statistics.median(bandwidths)
    if figures.low <= measured <= figures.high:
        return ""
    side = "below" if measured < figures.low else "above"
    return (
        f"; this run measured {measured:.1f} MiB/s (median of {len(bandwidths)} calls), "
        f"{side} the [{figures.low:.1f}, {figures.high:.1f}] MiB/s the note predicted"
    )


def _note(entry: TableEntry) -> str:
    """The entry's note; a note by tune says its gain as earned (iotuner.gains: measured,
    calibrated or unknown), not the ratio of the two predictions it also holds."""
    from iotuner.tune import note_figures

    figures = note_figures(entry.note)
    if figures is None:
        return entry.note or "(the entry has no note)"
    gain = stated_gain(figures.basis, figures.gain, (figures.gain_low, figures.gain_high))
    return f"gain over the default {gain.words}; {figures.reason}"


def _applied(log: TraceLog, op: dict[str, object]) -> dict[str, str]:
    """The keys the table asked for in the hint set the operation ran under."""
    number = op.get("hint_set")
    for record in log.hints:
        if record.get("seq") == number and record.get("file") == op.get("file"):
            return {str(k): str(v) for k, v in (record.get("table") or {}).items()}
    return {}
