"""Commands that run programs under the interposer and read what they traced: run, show,
log2csv and logs clean, with the warning about truncated logs that ingest gives too."""

import argparse
import shlex
import sys
from collections.abc import Iterable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from iotuner._fileio import atomic_write_text
from iotuner._units import format_size
from iotuner.cli._common import ERROR_STATUS, Subparsers, command_after_dashes, print_error
from iotuner.errors import IotunerError
from iotuner.runner import MODES, POLICIES, default_log_dir, run

if TYPE_CHECKING:
    from iotuner.tracelog import LeftoverLog

__all__ = ["add_log2csv", "add_logs", "add_run", "add_show", "warn_about_leftovers"]


def add_run(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "run",
        help="run an MPI program under the interposer",
        description="Run an MPI command under the interposer and print the trace logs it "
        "wrote; the exit status is the command's.",
        usage="%(prog)s [options] -- LAUNCHER PROGRAM [ARGS...]",
    )
    parser.add_argument(
        "--mode", choices=MODES, default="trace", help="interposer mode (default: trace)"
    )
    parser.add_argument("--table", type=Path, help="tuning table (needed by the tune modes)")
    parser.add_argument(
        "--log-dir",
        type=Path,
        help="where trace logs go (default: $XDG_STATE_HOME/iotuner/logs)",
    )
    parser.add_argument(
        "--policy",
        choices=POLICIES,
        default="table",
        help="who wins when the table and the application set the same hint (default: table)",
    )
    parser.add_argument("command", nargs=argparse.REMAINDER, help="e.g. mpiexec -n 4 ./app")
    parser.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    result = run(
        command_after_dashes(args),
        mode=args.mode,
        table=args.table,
        log_dir=args.log_dir,
        policy=args.policy,
    )
    for log in result.logs:
        print(f"iotuner: trace log: {log}", file=sys.stderr)
    if "trace" in args.mode.split(",") and not result.logs:
        print(
            f"iotuner: warning: no trace log tagged {result.tag} in {result.log_dir} "
            "(did the program reach MPI_Finalize?)",
            file=sys.stderr,
        )
    return result.returncode


def add_log2csv(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "log2csv",
        help="write a trace log's op records as CSV",
        description="Write the op records of a trace log as CSV: the columns of "
        "trace_op_fields.def, then <key> (effective) and requested:<key> for each hint key.",
    )
    parser.add_argument("log", type=Path, help="trace log (.iotrace.jsonl)")
    parser.add_argument("-o", "--output", type=Path, help="CSV file (default: stdout)")
    parser.set_defaults(handler=_log2csv)


def _log2csv(args: argparse.Namespace) -> int:
    from iotuner.export import op_csv
    from iotuner.tracelog import read_tracelog

    text = op_csv(read_tracelog(args.log))
    if args.output is None:
        sys.stdout.write(text)
    else:
        atomic_write_text(args.output, text)
    return 0


def add_show(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "show",
        help="summarize a trace log",
        description="Summarize a trace log: the job, per file its bytes, access pattern, "
        "operations and hints (requested and effective), and the log's warnings.",
    )
    parser.add_argument("log", type=Path, help="trace log (.iotrace.jsonl)")
    parser.set_defaults(handler=_show)


def _show(args: argparse.Namespace) -> int:
    from rich.console import Console

    from iotuner.render import print_summary
    from iotuner.summary import summarize
    from iotuner.tracelog import read_tracelog

    warn_about_leftovers([args.log])
    print_summary(summarize(read_tracelog(args.log)), Console())
    return 0


def add_logs(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser("logs", help="look after a trace log directory")
    actions = parser.add_subparsers(title="actions", required=True, metavar="ACTION")
    clean = actions.add_parser(
        "clean",
        help="remove the temporary logs of jobs killed while writing them",
        description="Remove the temporary logs (.<program>-<date>-<time>-<pid>.tmp) that "
        "jobs killed while writing their trace log at MPI_Finalize left behind. Complete "
        "logs, and temporary logs written to in the last minutes (or, when empty, the last "
        "day), are kept.",
    )
    clean.add_argument(
        "directory",
        type=Path,
        nargs="?",
        metavar="DIR",
        help="log directory (default: $XDG_STATE_HOME/iotuner/logs, as for run)",
    )
    clean.add_argument(
        "--dry-run", action="store_true", help="list what would be removed, remove nothing"
    )
    clean.set_defaults(handler=_logs_clean)


def _logs_clean(args: argparse.Namespace) -> int:
    from iotuner.tracelog import leftover_logs, remove_leftover

    directory = args.directory or default_log_dir()
    leftovers = leftover_logs(directory)
    if not leftovers:
        print(f"no leftover temporary logs in {directory}")
        return 0
    status = 0
    freed: list[LeftoverLog] = []
    for leftover in leftovers:
        if args.dry_run:
            print(f"would remove {leftover.path} ({_leftover_facts(leftover)})")
            freed.append(leftover)
            continue
        try:
            removed = remove_leftover(leftover)
        except OSError as exc:
            print_error(f"cannot remove {leftover.path}: {exc.strerror}")
            status = ERROR_STATUS
            continue
        if removed:
            print(f"removed {leftover.path} ({_leftover_facts(leftover)})")
            freed.append(leftover)
        else:
            print(f"kept {leftover.path}: it changed since it was found (still being written?)")
    total = sum(leftover.size for leftover in freed)
    files = f"{len(freed)} file{'' if len(freed) == 1 else 's'}"
    if args.dry_run:
        print(f"would free {format_size(total)} ({total} bytes) in {files}")
    else:
        print(f"freed {format_size(total)} ({total} bytes) in {files}")
    return status


def warn_about_leftovers(paths: Iterable[Path]) -> None:
    """One warning per leftover temporary log in the given directories and in those of
    the given files."""
    from iotuner.tracelog import leftover_logs

    directories = dict.fromkeys(path if path.is_dir() else path.parent for path in paths)
    for directory in directories:
        try:
            leftovers = leftover_logs(directory)
        except IotunerError:
            continue  # an unreadable directory: the command's own reading will say so
        for leftover in leftovers:
            print(
                f"iotuner: warning: {leftover.path}: a truncated trace log "
                f"({_leftover_facts(leftover)}), left by a job killed while writing it; "
                f"'iotuner logs clean {shlex.quote(str(directory))}' removes it",
                file=sys.stderr,
            )


def _leftover_facts(leftover: "LeftoverLog") -> str:
    written = datetime.fromtimestamp(leftover.modified).strftime("%Y-%m-%d %H:%M")
    return f"{format_size(leftover.size)}, last written {written}"
