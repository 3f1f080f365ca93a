"""The report's page of each program: its findings and advice from a Darshan archive, its
traced and tuned runs (default against tuned when both are there), and the tuning table's
entries that apply to it, size groups with the same choice as one range.

A program is the `program` of a trace's job record. Its default and tuned runs are those
given (--default-log, --tuned-log) when they are of it, else the latest of its traces run
without the table (mode trace) and the latest run with it (mode tune,trace). The entries
that apply to it are those that name it (a glob, as the interposer matches it) and those
that name no program, at a scale it ran at (or any scale).
"""

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fnmatch import fnmatchcase
from typing import Any

from iotuner.gains import outside
from iotuner.report._table import merged_rows
from iotuner.report._traces import comparison_section, log_section
from iotuner.table import TableEntry
from iotuner.tracelog import TraceLog

__all__ = ["ProgramPage", "program_pages"]

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


@dataclass(frozen=True)
class ProgramPage:
    """One program's page: its file name (beside the index) and its template context."""

    name: str
    file: str
    context: dict[str, Any]


def _program(log: TraceLog) -> str:
    return str(log.job.get("program") or "unknown")


def _tuned(log: TraceLog) -> bool:
    return "tune" in str(log.job.get("mode") or "").split(",")


def _latest(logs: Sequence[TraceLog]) -> TraceLog | None:
    return max(logs, key=lambda log: float(log.job.get("start_time") or 0.0), default=None)


def page_file(index: str, program: str, taken: set[str]) -> str:
    """The file name of a program's page beside the index `index` (e.g. report.html ->
    report.iokernel.html): the name's characters outside [A-Za-z0-9._-] become '_' (a
    program name is untrusted text), and a number keeps two programs apart."""
    stem = index[: -len(".html")] if index.endswith(".html") else index
    base = f"{stem}.{_UNSAFE.sub('_', program).strip('.') or 'program'}"
    name, number = f"{base}.html", 2
    while name in taken or name == index:
        name, number = f"{base}-{number}.html", number + 1
    taken.add(name)
    return name


def _entries_for(entries: Sequence[TableEntry], program: str, scales: set[int]) -> list[TableEntry]:
    return [
        e
        for e in entries
        if (e.program is not None and fnmatchcase(program, e.program))
        or (e.program is None and (e.nprocs is None or e.nprocs in scales))
    ]


def _missed(measured: float | None, rows: Sequence[Mapping[str, Any]]) -> str | None:
    """Why the runs' measured gain lies outside what the table's entries that set hints
    for the program promised (the widest of their earned intervals), or None."""
    promised = [r["interval"] for r in rows if not r["kept"] and r["interval"] is not None]
    if not promised:
        return None
    return outside(measured, (min(i[0] for i in promised), max(i[1] for i in promised)))


def program_pages(
    index: str,
    logs: Sequence[TraceLog],
    default: TraceLog | None,
    tuned: TraceLog | None,
    entries: Sequence[TableEntry] | None,
    archived: Mapping[str, dict[str, Any]] | None = None,
) -> list[ProgramPage]:
    """A page per program of the logs and of the archive (`archived`: program -> its part,
    report._archive.archive_section), named beside the index file `index`: the archive's
    in its ranking's order, then the other traced ones in the order they first appear."""
    archived = archived or {}
    by_program: dict[str, list[TraceLog]] = {program: [] for program in archived}
    for log in [*logs, *(x for x in (default, tuned) if x is not None)]:
        runs = by_program.setdefault(_program(log), [])
        if all(log.path != seen.path for seen in runs):
            runs.append(log)
    taken: set[str] = set()
    pages = []
    for program, runs in by_program.items():
        given = default is not None and tuned is not None and _program(default) == program
        pair = (
            (default, tuned)
            if given
            else (
                _latest([r for r in runs if not _tuned(r)]),
                _latest([r for r in runs if _tuned(r)]),
            )
        )
        comparison = (
            comparison_section(pair[0], pair[1])
            if pair[0] is not None and pair[1] is not None
            else None
        )
        scales = {int(r.job["nprocs"]) for r in runs if r.job.get("nprocs") is not None}
        rows = merged_rows(_entries_for(entries, program, scales)) if entries is not None else None
        if comparison is not None:
            comparison["missed"] = _missed(comparison["ratio"], rows or [])
        context = {
            "program": program,
            "runs": len(runs),
            "traced": sum(not _tuned(r) for r in runs),
            "tuned": sum(_tuned(r) for r in runs),
            "scales": sorted(scales),
            "comparison": comparison,
            "logs": [log_section(r) for r in runs],
            "table": rows,
            "archive": archived.get(program),
        }
        pages.append(ProgramPage(program, page_file(index, program, taken), context))
    return pages
