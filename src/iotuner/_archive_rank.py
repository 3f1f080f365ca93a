"""The ranking of an archive run (rank_programs): the rows grouped by program, ordered by the
core-hours their runs spent in I/O, with the core-hours the advice could save and every finding
(program_findings), the most core-hours at stake first."""

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from iotuner._archive_figures import finding_core_hours

__all__ = ["TOP_FINDINGS", "ProgramRank", "program_findings", "rank_programs"]

TOP_FINDINGS = 5
"""Findings of a program the terminal's ranking names (the rows and pages keep all)."""

_LEVELS = {"critical": 0, "warning": 1, "info": 2, None: 3}
"""Order of findings' levels, the most severe first (None: evidence without a level)."""


@dataclass
class ProgramRank:
    """One program of the ranking: its runs' I/O core-hours and what the advice saves."""

    program: str
    logs: int = 0
    nprocs: list[int] = field(default_factory=list)
    io_core_hours: float = 0.0
    save_core_hours: float | None = None
    save_known: int = 0
    """Logs whose saving is known (a recommendation with a gain interval)."""
    io_basis: set[str] = field(default_factory=set)
    findings: list[dict[str, Any]] = field(default_factory=list)
    """Every finding of its logs, one per code and module, the most core-hours at stake
    first (program_findings)."""
    hints: dict[str, int] = field(default_factory=dict)
    """Recommended hint settings ("key=value") and how many logs they were advised for."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "program": self.program,
            "logs": self.logs,
            "nprocs": [min(self.nprocs), max(self.nprocs)] if self.nprocs else None,
            "io_core_hours": self.io_core_hours,
            "save_core_hours": self.save_core_hours,
            "save_known_logs": self.save_known,
            "io_basis": sorted(self.io_basis),
            "findings": self.findings,
            "top_findings": self.findings[:TOP_FINDINGS],
            "hints": self.hints,
        }


def rank_programs(rows: Iterable[dict[str, Any]]) -> list[ProgramRank]:
    """The programs of the rows that were read, most I/O core-hours first (then most to
    save, then by name); each with its findings (program_findings). The same rows in any
    order give the same ranking (they are taken by path)."""
    ranks: dict[str, ProgramRank] = {}
    logs: dict[str, list[dict[str, Any]]] = {}
    for row in sorted(rows, key=lambda r: str(r["path"])):
        if row.get("status") != "ok":
            continue
        name = str(row["program"])
        rank = ranks.setdefault(name, ProgramRank(name))
        logs.setdefault(name, []).append(row)
        rank.logs += 1
        rank.nprocs.append(int(row["nprocs"]))
        rank.io_core_hours += float(row["io_core_hours"])
        rank.io_basis.add(str(row["io_basis"]))
        if row.get("save_core_hours") is not None:
            rank.save_core_hours = (rank.save_core_hours or 0.0) + float(row["save_core_hours"])
            rank.save_known += 1
        for advice in row.get("advice", []):
            for key, value in advice.get("hints", {}).items():
                setting = f"{key}={value}"
                rank.hints[setting] = rank.hints.get(setting, 0) + 1
    for name, rank in ranks.items():
        rank.findings = program_findings(logs[name])
    return sorted(
        ranks.values(),
        key=lambda r: (-r.io_core_hours, -(r.save_core_hours or 0.0), r.program),
    )


def program_findings(rows: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """A program's findings over its logs' rows: one per (code, module), with `logs` (how
    many logs had it), `core_hours` (at stake, summed over the logs: finding_core_hours;
    None when no log gave it a time), the loudest `level` seen, and the words, action and
    counters of the log where it costs the most. Ordered by core-hours at stake, the most
    first (unknown last), then level: a short test job's loud finding does not lead a
    long job's costly one."""
    merged: dict[tuple[str, str], dict[str, Any]] = {}
    cost: dict[tuple[str, str], float] = {}  # the example's core-hours, to pick the costliest
    for row in rows:
        seen: set[tuple[str, str]] = set()
        for f in row.get("findings", []):
            key = (str(f["code"]), str(f.get("module", "")))
            hours = finding_core_hours(f, int(row["nprocs"]))
            entry = merged.get(key)
            if entry is None:
                entry = merged[key] = {**f, "logs": 0, "core_hours": None}
                cost[key] = -1.0
            if hours is not None:
                entry["core_hours"] = (entry["core_hours"] or 0.0) + hours
                if hours > cost[key]:
                    cost[key] = hours
                    entry.update(
                        {k: f.get(k) for k in ("words", "action", "counters", "subject", "seconds")}
                    )
            if _LEVELS.get(f.get("level"), 3) < _LEVELS.get(entry.get("level"), 3):
                entry["level"] = f.get("level")
            if key not in seen:
                seen.add(key)
                entry["logs"] += 1
    return sorted(
        merged.values(),
        key=lambda e: (
            e["core_hours"] is None,
            -(e["core_hours"] or 0.0),
            _LEVELS.get(e.get("level"), 3),
            -e["logs"],
            e["code"],
        ),
    )
