"""The tuning-table section: per case the choice, its gain over the default with its
interval, and whether the default was kept; neighbouring size groups with the same choice
are one row, a range of sizes ("64 KiB to 4 MiB per rank: keep the defaults").

The numbers come from each entry's note, as tune.choice_note writes it and
tune.note_figures reads it back: "predicted X MiB/s [low, high] vs default Y; [gain xG
[GL, GH] measured|calibrated; ]reason".
"""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from iotuner._units import format_size
from iotuner.formats import size_groups
from iotuner.gains import stated_gain
from iotuner.report import _plots
from iotuner.table import TableCheck, TableEntry
from iotuner.tune import NoteFigures, note_figures

__all__ = ["merged_rows", "table_section"]

SEARCH_NOTE = "iotuner search ("
"""How the note of a search winner's entries begins (search/_verdict.py: winner_entries)."""

KEEP = "keep the defaults"
"""The choice of an entry that sets no hint (or predicts no more than the default)."""


def _size(nbytes: int) -> str:
    return format_size(nbytes).replace(".0 ", " ")


def _sizes(first_group: int | None, last_group: int | None) -> str:
    """The bytes per rank of size groups first..last, in words."""
    if first_group is None or last_group is None:
        return "any size"
    groups = {g.number: g for g in size_groups()}
    first, last = groups.get(first_group), groups.get(last_group)
    if first is None or last is None:
        return f"groups {first_group} to {last_group}"
    end = _size(last.end) if last.end is not None else "more"
    return f"{_size(first.first)} to {end} per rank"


def _case(entry: TableEntry) -> str:
    """The case an entry applies to, in words, but its size group: decision point,
    program, file, scale and access (what it leaves out applies to any)."""
    parts = [f"at {entry.at}"]
    if entry.program:
        parts.append(entry.program)
    if entry.file:
        parts.append(f"file {entry.file}")
    if entry.nprocs is not None:
        parts.append(f"{entry.nprocs} ranks")
    parts += [str(v) for v in (entry.pattern, entry.op, entry.layout) if v]
    return ", ".join(parts)


def _kept(entry: TableEntry, figures: NoteFigures | None) -> bool:
    return not entry.hints or (figures is not None and figures.predicted == figures.default)


@dataclass
class _Run:
    """Entries of one case in neighbouring size groups with the same choice."""

    case: str
    choice: str
    kept: bool
    first: int | None
    last: int | None
    figures: list[NoteFigures]
    notes: list[str]

    def row(self) -> dict[str, Any]:
        # Only earned gains (iotuner.gains): a note's ratio of two raw predictions is none.
        earned = [
            g
            for f in self.figures
            for g in [stated_gain(f.basis, f.gain, (f.gain_low, f.gain_high))]
            if g.value is not None
        ]
        gains = [g.value for g in earned if g.value is not None]
        intervals = [g.interval for g in earned if g.interval is not None]
        figures = list(dict.fromkeys(g.figure for g in earned))
        why = list(dict.fromkeys(f.reason for f in self.figures)) or [
            n for n in dict.fromkeys(self.notes) if n
        ]
        return {
            "case": self.case,
            "sizes": _sizes(self.first, self.last),
            "choice": self.choice,
            "kept": self.kept,
            "entries": len(self.notes),
            "gain": (min(gains), max(gains)) if gains else None,
            "interval": (
                (min(i[0] for i in intervals), max(i[1] for i in intervals)) if intervals else None
            ),
            "gain_text": (
                "; ".join(figures)
                if len(figures) <= 2
                else f"x{min(gains):.2f} to x{max(gains):.2f} ({len(figures)} figures)"
            )
            if figures
            else "unknown"
            if self.figures
            else "-",
            "basis": ", ".join(sorted({g.basis for g in earned})),
            "why": why[0] if why else "",
            "more_reasons": len(why) - 1 if why else 0,
        }


def merged_rows(entries: Sequence[TableEntry]) -> list[dict[str, Any]]:
    """One row per case and run of neighbouring size groups with the same choice, in the
    table's order of cases: `case`, `sizes`, `choice` (hints, or KEEP), `kept`, `entries`
    (how many it stands for), `gain` and `interval` (the lowest and highest over them;
    None without figures), `basis`, `why` (the first reason) and `more_reasons` (how many
    other reasons its entries give)."""
    runs: list[_Run] = []
    last_of: dict[str, _Run] = {}
    for entry in entries:
        figures = note_figures(entry.note)
        kept = _kept(entry, figures)
        choice = KEEP if kept else ", ".join(f"{k}={v}" for k, v in entry.hints.items())
        case = _case(entry)
        group = entry.group if entry.at == "access" else None
        previous = last_of.get(case)
        if (
            previous is not None
            and group is not None
            and previous.last is not None
            and previous.choice == choice
            and group == previous.last + 1
        ):
            previous.last = group
        else:
            previous = _Run(case, choice, kept, group, group, [], [])
            runs.append(previous)
            last_of[case] = previous
        if figures is not None:
            previous.figures.append(figures)
        previous.notes.append(entry.note or "")
    return [run.row() for run in runs]


def table_section(path: str, checked: TableCheck) -> dict[str, Any]:
    rows = merged_rows(checked.entries)
    plotted = [
        (
            f"{r['case']}, {r['sizes']}",
            (r["gain"][0] * r["gain"][1]) ** 0.5,
            r["interval"][0],
            r["interval"][1],
            r["kept"],
        )
        for r in rows
        if r["gain"] is not None and r["interval"] is not None
    ]
    verdicts = [
        {"case": _case(e), "hints": ", ".join(f"{k}={v}" for k, v in e.hints.items()),
         "note": e.note}
        for e in checked.entries
        if e.note and e.note.startswith(SEARCH_NOTE) and e.at == "open"
    ]  # fmt: skip
    plot = (
        _plots.gain_intervals(plotted, "gain over the default per case and range of sizes")
        if plotted
        else None
    )
    return {
        "path": path,
        "rows": rows,
        "entries": len(checked.entries),
        "changed": sum(not _kept(e, note_figures(e.note)) for e in checked.entries),
        "predicted": sum(note_figures(e.note) is not None for e in checked.entries),
        "dropped": [(d.line, d.rule, d.message) for d in checked.dropped],
        "plot": plot,
        "verdicts": verdicts,
    }  # fmt: skip
