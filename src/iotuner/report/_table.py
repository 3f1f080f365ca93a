"""The tuning-table section: per case the choice, its predicted gain over the default with
the model's interval, and whether the default was kept.

The numbers come from each entry's note, as tune.choice_note writes it and
tune.note_figures reads it back: "predicted X MiB/s [low, high] vs default Y; reason".
"""

from typing import Any

from iotuner.formats import size_groups
from iotuner.report import _plots
from iotuner.table import TableCheck, TableEntry
from iotuner.tune import note_figures

__all__ = ["table_section"]

SEARCH_NOTE = "iotuner search ("
"""How the note of a search winner's entries begins (search/_verdict.py: winner_entries)."""


def _group_text(number: int | None) -> str:
    if number is None:
        return "any size"
    group = next((g for g in size_groups() if g.number == number), None)
    if group is None:
        return f"group {number}"
    end = f"{group.end - 1}" if group.end is not None else "..."
    return f"group {number} ({group.first}-{end} B)"


def _case(entry: TableEntry) -> str:
    """The case an entry applies to, in words: decision point, program, file, scale,
    access and size group (what it leaves out applies to any)."""
    parts = [f"at {entry.at}"]
    if entry.program:
        parts.append(entry.program)
    if entry.file:
        parts.append(f"file {entry.file}")
    if entry.nprocs is not None:
        parts.append(f"{entry.nprocs} ranks")
    parts += [str(v) for v in (entry.pattern, entry.op, entry.layout) if v]
    if entry.at == "access":
        parts.append(_group_text(entry.group))
    return ", ".join(parts)


def table_section(path: str, checked: TableCheck) -> dict[str, Any]:
    rows = []
    plotted = []
    verdicts = []
    for entry in checked.entries:
        figures = note_figures(entry.note)
        hints = ", ".join(f"{k}={v}" for k, v in entry.hints.items())
        kept = figures is not None and figures.predicted == figures.default
        label = _case(entry)
        rows.append(
            {
                "case": label,
                "hints": hints,
                "kept": kept or not entry.hints,
                "figures": figures,
                "note": None if figures is not None else entry.note,
            }
        )
        if figures is not None and figures.default > 0:
            plotted.append(
                (
                    label,
                    figures.gain,
                    figures.gain_low,
                    figures.gain_high,
                    kept,
                )
            )
        if entry.note and entry.note.startswith(SEARCH_NOTE) and entry.at == "open":
            verdicts.append({"case": label, "hints": hints, "note": entry.note})
    plot = (
        _plots.gain_intervals(plotted, "predicted gain over the default per case, with interval")
        if plotted
        else None
    )
    return {
        "path": path,
        "rows": rows,
        "changed": sum(not r["kept"] for r in rows),
        "predicted": len(plotted),
        "dropped": [(d.line, d.rule, d.message) for d in checked.dropped],
        "plot": plot,
        "verdicts": verdicts,
    }
