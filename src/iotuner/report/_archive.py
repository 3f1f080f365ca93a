"""The HTML pages of an archive run (`iotuner advise DIR --html OUT`): OUT/index.html ranks
the programs (iotuner.archive.rank_programs), and OUT/programs/<name>.html holds one
program's logs, findings and advice. Like the report, every page is self-contained (CSS
inline, the one figure a PNG data URI, no script) and every string from the logs goes
through Jinja's autoescape."""

import hashlib
import re
import shlex
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

SWEEP_LOGS = 3
"""Logs a program's sweep command names (--from-logs), most I/O core-hours first: the
cases that cost the most are measured first; more logs only make the command longer."""

SWEEP_DB, SWEEP_MODEL = "kb.sqlite", "model"
"""The knowledge base and model the suggested sweep, training and advise share."""

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
    from iotuner.report._plots import log_bars

    ranking = rank_programs(rows) if ranking is None else ranking
    top = ranking[:RANKED_IN_FIGURE]
    # A log axis: an archive's programs span many decades (443 core-hours against 1e-8),
    # and on a linear axis all but the largest are no bar at all.
    figure = (
        log_bars(
            {r.program: r.io_core_hours for r in top},
            "core-hours in I/O (all logs of the program; log scale)",
            f"core-hours in I/O of the {len(top)} programs that spent the most"
            + (f" (of {len(ranking)})" if len(ranking) > len(top) else "")
            + ", on a log scale",
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
        "to_save": to_save_words(logs),
    }


def to_save_words(logs: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Why the saving of a program's logs (most I/O core-hours first) is unknown (`why`),
    and the sweep that would make it known (`where` to run it and the `commands`), or None
    when every log's saving is known.

    A saving comes only from a recommendation with a predicted gain interval
    (iotuner.archive.core_hours_to_save): advise needs a model, a knowledge base covering
    the group (its file system, scale, sizes: iotuner.coverage) and a prediction there.
    A sweep on the system these logs come from, of the cases the logs show (`iotuner bench
    --from-logs`, at their ranks, on the file system their files were on), then `train`
    and `advise` with that model, gives one; nothing does for groups outside MPI-IO."""
    unknown = [r for r in logs if r.get("save_core_hours") is None]
    if not unknown:
        return None
    # Rows written before the row said `through_mpiio` may hold MPI-IO groups: a sweep may help.
    groups = [(r, a) for r in unknown for a in r.get("advice", []) if a.get("through_mpiio", True)]
    if not groups:
        return {
            "why": "none of its file groups goes through MPI-IO: no hint reaches them, so no "
            "sweep gives a figure; the findings' do: lines say what to change in the program",
            "where": None,
            "commands": [],
        }
    why = _why_unknown(unknown, groups)
    swept = {str(r["path"]) for r, _ in groups}
    without = [r for r in unknown if str(r["path"]) not in swept]
    if without:
        why += (
            f"; {len(without)} of its {len(logs)} logs "
            f"{'has' if len(without) == 1 else 'have'} no file group through MPI-IO, and no "
            "sweep gives those a figure"
        )
    return {"why": why, **_sweep(groups)}


def _why_unknown(
    unknown: list[dict[str, Any]], groups: list[tuple[dict[str, Any], dict[str, Any]]]
) -> str:
    """Why logs whose saving is unknown have none, though they hold MPI-IO `groups`."""
    if not all(r.get("modelled") for r in unknown):
        return (
            "the archive run had no model: advise gives a saving only from a model's "
            "predicted gain for a file group its knowledge base covers"
        )
    uncovered = next((a for _, a in groups if not a.get("covered")), None)
    if uncovered is not None:
        return f"its file groups lie outside the model's knowledge base ({uncovered['reason']})"
    return (
        "the model predicts no change with a gain interval for its file groups "
        f"({groups[0][1]['reason']})"
    )


def _sweep(groups: list[tuple[dict[str, Any], dict[str, Any]]]) -> dict[str, Any]:
    """Where to run the sweep of the logs of MPI-IO `groups` (the first SWEEP_LOGS logs, at
    their ranks, on the file system of their busiest group), and the commands: the sweep,
    the training, advise again."""
    logs = list(dict.fromkeys(str(r["path"]) for r, _ in groups))[:SWEEP_LOGS]
    scales = sorted({int(r["nprocs"]) for r, _ in groups if str(r["path"]) in logs})
    busiest = max((a for r, a in groups if str(r["path"]) in logs), key=_group_seconds)
    fs_type, mount = busiest.get("fs_type"), busiest.get("mount")
    where = "on a node of the system these logs come from, with --dir "
    if mount and fs_type and fs_type != "unknown":
        where += f"on its {fs_type} file system at {mount} (where the program's busiest files were)"
    else:
        where += "(DIR) on the file system the program's files were on (the logs do not tell which)"
    folder = f"{mount.rstrip('/')}/iotuner-sweep" if mount else "DIR"
    bench = ["iotuner", "bench", "--from-logs", *logs, "--nprocs", ",".join(map(str, scales))]
    again = ["iotuner", "advise", "ARCHIVE", "--results", "NEW-RESULTS.jsonl"]
    again += ["--db", SWEEP_DB, "--model", SWEEP_MODEL]
    return {
        "where": where,
        "commands": [
            shlex.join([*bench, "--dir", folder, "--db", SWEEP_DB]),
            shlex.join(["iotuner", "train", "--db", SWEEP_DB, "-o", SWEEP_MODEL]),
            shlex.join(again),
        ],
    }


def _group_seconds(advice: dict[str, Any]) -> float:
    seconds = advice.get("seconds")
    return float(seconds) if isinstance(seconds, int | float) else 0.0


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
