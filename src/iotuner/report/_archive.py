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

import jinja2

from iotuner import __version__
from iotuner._fileio import atomic_write_text, make_private_dirs
from iotuner.archive import ProgramRank

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


def _environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.PackageLoader("iotuner.report", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def write_archive_pages(
    folder: Path, ranking: list[ProgramRank], rows: list[dict[str, Any]]
) -> Path:
    """Write the ranking page and one page per program under `folder` (made if missing);
    returns the ranking page's path."""
    from iotuner.report._plots import bars

    make_private_dirs(folder / "programs")
    env = _environment()
    created = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    errors = [r for r in rows if r.get("status") != "ok"]
    by_program: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        if row.get("status") == "ok":
            by_program.setdefault(str(row["program"]), []).append(row)
    pages = {rank.program: program_page_name(rank.program) for rank in ranking}
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
    index = folder / "index.html"
    atomic_write_text(
        index,
        env.get_template("archive.html.j2").render(
            version=__version__,
            created=created,
            logs=len(rows),
            errors=errors,
            ranking=[r.to_dict() for r in ranking],
            pages=pages,
            figure=figure,
        ),
    )
    for rank in ranking:
        logs = sorted(by_program[rank.program], key=lambda r: -float(r["io_core_hours"]))
        atomic_write_text(
            folder / "programs" / pages[rank.program],
            env.get_template("archive_program.html.j2").render(
                version=__version__,
                created=created,
                rank=rank.to_dict(),
                place=ranking.index(rank) + 1,
                logs=logs[:LOGS_PER_PAGE],
                more=max(0, len(logs) - LOGS_PER_PAGE),
                advice=_advice_of(logs),
            ),
        )
    return index


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
