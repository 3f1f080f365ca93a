"""`iotuner export`: a tuning table in the form of a mechanism users already have (ROMIO's
hints file, Cray's MPICH_MPIIO_HINTS, lfs setstripe, Open MPI's MCA parameters, or a table
of the selected entries), for jobs that cannot preload the interposer."""

import argparse
import json
import os
import sys
from pathlib import Path

from iotuner._choices import EXPORT_MECHANISMS as MECHANISMS
from iotuner.cli._common import Subparsers

__all__ = ["add_export"]


def add_export(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "export",
        help="write a tuning table's choices as ROMIO_HINTS, MPICH_MPIIO_HINTS, lfs, MCA",
        description=(
            "Select the table's entries that apply to --program, --nprocs and --file (each "
            "when given), keep what the mechanism can express (the choice with the highest "
            "predicted gain, then the most specific), and say on stderr what was kept and "
            "what was dropped, and why. Without -o the text goes to stdout. Exit status 1 "
            "when the mechanism can carry none of the choices; 0, with nothing written, when "
            "every entry that applies keeps the defaults."
        ),
    )
    parser.add_argument("table", type=Path, help="tuning table (.jsonl)")
    parser.add_argument("--to", required=True, choices=MECHANISMS, help="the mechanism")
    parser.add_argument("--program", help="the program's file name (entries' program globs)")
    parser.add_argument("--nprocs", type=int, help="the job's number of ranks")
    parser.add_argument("--file", help="the name the program passes to MPI_File_open")
    parser.add_argument(
        "--logs",
        type=Path,
        nargs="+",
        metavar="LOG",
        help="the program's trace logs (files or directories): entries for accesses it does "
        "not make (a read entry for a program that only writes) and keys that cannot act on "
        "its accesses are dropped",
    )
    parser.add_argument(
        "-o", "--output", type=Path, help="file to write (atomically); default: stdout"
    )
    parser.add_argument(
        "--pfl", action="store_true", help="lfs: a progressive file layout (-E components)"
    )
    parser.add_argument("--target", help="lfs: the directory (or file) to set the layout on")
    parser.add_argument(
        "--verbose",
        action="store_true",
        help="list every entry and key dropped (by default entries dropped for the same "
        "reason, such as those that keep the defaults, are counted in one line)",
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help="one JSON object on stdout: mechanism, text, kept, dropped, usage, output",
    )
    parser.set_defaults(handler=_export)


def _export(args: argparse.Namespace) -> int:
    from iotuner._fileio import atomic_write_text
    from iotuner._printable import printable
    from iotuner.errors import ConfigError
    from iotuner.hint_exports import entries_for_accesses, export_entries
    from iotuner.table import read_table

    if args.nprocs is not None and args.nprocs < 1:
        raise ConfigError(f"--nprocs must be a positive number of ranks, got {args.nprocs}")
    entries = read_table(args.table)
    accesses = None
    if args.logs:
        accesses = _program_accesses(args.logs, args.program)
    export = export_entries(
        entries,
        args.to,
        program=args.program,
        nprocs=args.nprocs,
        file=args.file,
        output=args.output,
        pfl=args.pfl,
        target=args.target,
        accesses=accesses,
    )
    for sentence in export.kept:
        print(f"kept: {printable(sentence)}", file=sys.stderr)
    summary = export.dropped if args.verbose else export.dropped_summary()
    for sentence in summary:
        print(f"dropped: {printable(sentence)}", file=sys.stderr)
    if len(summary) < len(export.dropped):
        print(
            f"dropped: {len(export.dropped)} in all; --verbose lists them",
            file=sys.stderr,
        )
    if accesses is not None:  # only what can act on the program's accesses is a change
        entries = entries_for_accesses(entries, accesses)[0]
    changes = [e for e in entries if e.hints and args.nprocs in (None, e.nprocs or args.nprocs)]
    if not export.usage and not changes:
        # A table that keeps the defaults everywhere (tune found no gain beyond the noise)
        # is an answer, not a failure: a job script may run this unconditionally.
        print(
            f"iotuner: {printable(args.table)}: every entry that applies keeps the defaults: "
            "nothing to change, nothing written",
            file=sys.stderr,
        )
        if args.json:
            print(json.dumps({**export.to_json(), "output": None}, indent=2))
        return 0
    if not export.usage:
        print(f"iotuner: nothing {args.to} can carry: nothing written", file=sys.stderr)
        if args.json:
            print(json.dumps({**export.to_json(), "output": None}, indent=2))
        return 1
    if args.output is not None:
        atomic_write_text(args.output, export.text)
    if args.json:
        output = str(args.output.absolute()) if args.output is not None else None
        print(json.dumps({**export.to_json(), "output": output}, indent=2))
        return 0
    if args.output is None:
        sys.stdout.write(export.text)
    stream = sys.stdout if args.output is not None else sys.stderr
    print("to use it:", file=stream)
    for line in export.usage:
        print(f"  {printable(line)}", file=stream)
    return 0


def _program_accesses(paths: list[Path], program: str | None) -> frozenset[tuple[str, str]]:
    """The (pattern, op) of every data access in the trace logs at `paths` (of `program`'s
    runs when given); ConfigError when they hold none."""
    from fnmatch import fnmatchcase

    from iotuner.acting import accesses_from_logs
    from iotuner.errors import ConfigError
    from iotuner.history import read_logs

    logs = read_logs(paths)
    if program is not None:
        logs = [
            log for log in logs if fnmatchcase(str(log.job["program"]), os.path.basename(program))
        ]
    accesses = accesses_from_logs(logs)
    if not accesses:
        whose = f" of program {program}" if program is not None else ""
        raise ConfigError(
            f"--logs: expected trace logs{whose} with data accesses, got "
            f"{len(logs)} log(s) without any"
        )
    return accesses
