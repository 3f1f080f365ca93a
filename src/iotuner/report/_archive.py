"""The HTML pages of an archive run (`iotuner advise DIR --html OUT`): OUT/index.html ranks
the programs (iotuner.archive.rank_programs), and OUT/programs/<name>.html holds one
program's logs, findings and advice. Like the report, every page is self-contained (CSS
inline, the one figure a PNG data URI, no script) and every string from the logs goes
through Jinja's autoescape."""

import hashlib
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from iotuner import __version__
from iotuner._fileio import atomic_write_text, make_private_dirs
from iotuner.archive import ProgramRank, rank_programs

__all__ = ["LOGS_PER_PAGE", "program_page_name", "write_archive_pages"]

LOGS_PER_PAGE = 500
"""Logs listed on a program's page, most I/O core-hours first (the rest are counted)."""

RANKED_IN_FIGURE = 20
"""Programs drawn in the ranking's figure."""

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def program_page_name(program: str) -> str:
    """The page file of a program: its name with unsafe characters replaced, and a short
    hash of the name so that two names made alike stay apart."""
    digest = hashlib.sha256(program.encode("utf-8", "surrogateescape")).hexdigest()[:8]
    return f"{_UNSAFE.sub('_', program)[:60].strip('.') or 'program'}-{digest}.html"


def write_archive_pages(
    folder: Path, ranking: list[ProgramRank], rows: list[dict[str, Any]]
) -> Path:
    """Write the ranking page and one page per program under `folder` (made if missing);
    returns the ranking page's path. (`ranking` is rank_programs(rows), which the caller
    has already.)"""
    make_private_dirs(folder / "programs")
    from iotuner.report import _environment

    env = _environment()
    created = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    section, parts = archive_section(rows, ranking)
    pages = {rank.program: program_page_name(rank.program) for rank in ranking}
    index = folder / "index.html"
    atomic_write_text(
        index,
        env.get_template("archive.html.j2").render(
            version=__version__,
            created=created,
            logs=section["logs"],
            errors=section["errors"],
            ranking=section["ranking"],
            pages=pages,
            figure=section["figure"],
        ),
    )
    for program, part in parts.items():
        atomic_write_text(
            folder / "programs" / pages[program],
            env.get_template("archive_program.html.j2").render(
                version=__version__, created=created, **part
            ),
        )
    return index


def archive_section(
    rows: list[dict[str, Any]], ranking: list[ProgramRank] | None = None
) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    """The report's archive section (ranking, figure, errors; the index adds the pages)
    and each program's part of its page (rank, place, advice, logs, more), from the rows
    of an archive run's results file (`ranking`: rank_programs(rows) when known)."""
    from iotuner.report._plots import bars

    ranking = rank_programs(rows) if ranking is None else ranking
    top = ranking[:RANKED_IN_FIGURE]
    figure = (
        bars(
            {r.program: r.io_core_hours for r in top},
            "core-hours in I/O (all logs of the program)",
            f"core-hours in I/O of the {len(top)} programs that spent the most",
        )
        if top
        else None
    )
    section = {
        "logs": len(rows),
        "errors": [r for r in rows if r.get("status") != "ok"],
        "ranking": [r.to_dict() for r in ranking],
        "figure": figure,
    }
    return section, {
        rank.program: _program_part(rank, place, rows) for place, rank in enumerate(ranking, 1)
    }


def _program_part(rank: ProgramRank, place: int, rows: list[dict[str, Any]]) -> dict[str, Any]:
    logs = sorted(
        (r for r in rows if r.get("status") == "ok" and str(r["program"]) == rank.program),
        key=lambda r: -float(r["io_core_hours"]),
    )
    return {
        "rank": rank.to_dict(),
        "place": place,
        "logs": logs[:LOGS_PER_PAGE],
        "more": max(0, len(logs) - LOGS_PER_PAGE),
        "advice": _advice_of(logs),
    }


def _advice_of(logs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The program's advice, one line per distinct (group, op, hints, reason), with how
    many logs had it: the same advice for each run of a program is said once."""
    seen: dict[tuple[str, str, str, str], dict[str, Any]] = {}
    for row in logs:
        for a in row.get("advice", []):
            hints = " ".join(f"{k}={v}" for k, v in sorted(a.get("hints", {}).items()))
            key = (str(a["group"]), str(a["op"]), hints, str(a.get("reason", "")))
            entry = seen.setdefault(
                key,
                {
                    "group": key[0],
                    "op": key[1],
                    "hints": hints,
                    "reason": key[3],
                    "interval": a.get("interval"),
                    "logs": 0,
                },
            )
            entry["logs"] += 1
    return sorted(seen.values(), key=lambda e: (-e["logs"], e["group"], e["op"]))
