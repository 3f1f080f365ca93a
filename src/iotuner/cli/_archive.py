"""`iotuner advise` over many logs: the archive run (iotuner.archive), its ranking of
programs as a table or JSON, and its HTML pages (iotuner.report._archive)."""

import argparse
import contextlib
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from iotuner._printable import terminal

if TYPE_CHECKING:
    from rich.console import Console

    from iotuner.archive import ProgramRank, RunCounts

__all__ = ["advise_archive"]

ERRORS_SHOWN = 5
"""Unreadable logs named in the table output (all are in --json and the results file)."""


def advise_archive(args: argparse.Namespace) -> int:
    from iotuner.archive import (
        DaskOptions,
        ModelSetup,
        file_kind,
        iter_logs,
        rank_programs,
        run_archive,
    )
    from iotuner.errors import ConfigError

    if args.table is not None:
        raise ConfigError(
            "--table writes the entries of one log's advice: give one log, not an archive"
        )
    jobs = args.jobs if args.jobs is not None else (os.cpu_count() or 1)
    if jobs < 1:
        raise ConfigError(f"--jobs must be at least 1, got {jobs}")
    dask = None
    if args.dask or args.scheduler:
        dask = DaskOptions(scheduler=args.scheduler, workers=jobs)
    html = args.html
    if html is not None and html.exists() and not html.is_dir():
        raise ConfigError(f"--html {html}: exists and is not a directory")
    progress = terminal(stderr=True)
    with contextlib.redirect_stdout(sys.stderr if args.json else sys.stdout):
        setup = _model_setup(args, ModelSetup)
    logs = iter_logs(args.log, args.from_list)
    seen = 0

    with progress.status("advising logs") as status:

        def on_row(row: dict[str, Any]) -> None:
            nonlocal seen
            seen += 1
            status.update(f"advised {seen} logs")

        rows, counts = run_archive(
            logs, setup, jobs=jobs, results=args.results, dask=dask, on_row=on_row
        )
    if not rows:
        given = [str(p) for p in args.log] + ([str(args.from_list)] if args.from_list else [])
        raise ConfigError(
            f"no log to advise in {', '.join(given)}: expected Darshan logs (*.darshan) or "
            "trace logs (*.iotrace.jsonl); "
            + (
                "a directory with none in it"
                if any(file_kind(Path(p)) == "directory" for p in args.log)
                else "the list holds none"
            )
        )
    ranking = rank_programs(rows)
    errors = [r for r in rows if r.get("status") != "ok"]
    if html is not None:
        from iotuner.report import write_archive_pages

        write_archive_pages(html, ranking, rows)
    if args.json:
        print(
            json.dumps(
                {
                    "logs": len(rows),
                    "advised_now": counts.advised,
                    "skipped": counts.skipped,
                    "read": len(rows) - len(errors),
                    "errors": [{"path": r["path"], "error": r.get("error")} for r in errors],
                    "programs": [r.to_dict() for r in ranking],
                },
                indent=2,
                allow_nan=False,
            )
        )
        return 0
    console = terminal()
    print_ranking(console, ranking, rows, errors, counts)
    if html is not None:
        from iotuner._printable import markup_safe

        console.print(f"pages: {markup_safe(str(html / 'index.html'))}")
    return 0


def _model_setup(args: argparse.Namespace, setup_type: Any) -> Any:
    """The ModelSetup for the workers: with the model when it and its training data load
    here (checked once, so a missing knowledge base is said once, not per log)."""
    from iotuner.errors import IotunerError

    if not args.model.is_dir():
        print(f"advise: no model at {args.model} (`iotuner train -o DIR`): evidence only")
        return setup_type()
    from iotuner.cli._learn import _training_data

    try:
        _training_data(args)
    except IotunerError as exc:
        print(f"advise: no training data to tune from ({exc}): evidence only")
        return setup_type()
    return setup_type(
        model=str(args.model.resolve()),
        db=args.db,
        system=args.system,
        space=args.space,
        kind=args.kind,
    )


def _hours(value: float | None) -> str:
    if value is None:
        return "unknown"
    return f"{value:.3g}" if value >= 0.001 else f"{value:.1e}"


def print_ranking(
    console: "Console",
    ranking: list["ProgramRank"],
    rows: list[dict[str, Any]],
    errors: list[dict[str, Any]],
    counts: "RunCounts",
) -> None:
    from rich.table import Table

    from iotuner._printable import markup_safe
    from iotuner.archive import TOP_FINDINGS

    console.print(
        f"{len(rows)} logs: {len(rows) - len(errors)} read, {len(errors)} not"
        + (f" ({counts.skipped} taken from the results file)" if counts.skipped else "")
    )
    table = Table(title="Programs by core-hours in I/O", title_justify="left")
    for name, justify in (
        ("#", "right"),
        ("program", "left"),
        ("logs", "right"),
        ("ranks", "right"),
        ("I/O core-h", "right"),
        ("to save core-h", "right"),
        ("top findings", "left"),
    ):
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    for place, rank in enumerate(ranking, 1):
        low, high = min(rank.nprocs), max(rank.nprocs)
        save = _hours(rank.save_core_hours)
        if rank.save_core_hours is not None and rank.save_known < rank.logs:
            save += f" ({rank.save_known} of {rank.logs} logs)"
        findings = ", ".join(
            f"{f['code']}" + (f" ({f['level']})" if f.get("level") else "") + f" x{f['logs']}"
            for f in rank.findings[:TOP_FINDINGS]
        )
        table.add_row(
            str(place),
            markup_safe(rank.program),
            str(rank.logs),
            str(low) if low == high else f"{low}-{high}",
            _hours(rank.io_core_hours),
            save,
            markup_safe(findings) or "-",
        )
    console.print(table)
    bases = sorted({b for r in ranking for b in r.io_basis})
    for basis in bases:
        console.print(f"  I/O time: {markup_safe(basis)}")
    console.print(
        "  to save: from recommendations with a predicted gain interval (its lower bound); "
        "unknown where there is none"
    )
    for row in errors[:ERRORS_SHOWN]:
        console.print(f"  not read: {markup_safe(row.get('error', ''))}")
    if len(errors) > ERRORS_SHOWN:
        console.print(f"  ... and {len(errors) - ERRORS_SHOWN} more (see --json or --results)")
