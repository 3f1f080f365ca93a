"""Commands that run programs under the interposer and read what they traced: run, show,
log2csv and logs clean, with the warning about truncated logs that ingest gives too."""

import argparse
import os
import shlex
import sys
from collections.abc import Iterable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from iotuner._fileio import atomic_write_text
from iotuner._load import warn_if_busy
from iotuner._printable import printable, terminal
from iotuner._secrets import mask_secrets
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
    parser.add_argument(
        "--call-rows",
        action="store_true",
        help="give each collective call an op row of its own (up to 4,096 per file) and time "
        "every call, to study a program's calls one by one; by default calls are summed per "
        "routine and size group, and of calls under 10 us only a sample is timed, which costs "
        "the program less (docs/tracing.md)",
    )
    learn = parser.add_argument_group(
        "online tuning",
        "after the program has ended: its trace into the knowledge base, the entries of the "
        "file and size group it measured in --table rewritten only with evidence, a change "
        "that made runs slower rolled back; decisions in TABLE.history.jsonl "
        "(docs/online-tuning.md)",
    )
    learn.add_argument(
        "--learn",
        action="store_true",
        help="learn from this run (also IOTUNER_LEARN=1, a site-wide setting: then runs "
        "given no --table are run as asked, with a warning); needs --table",
    )
    learn.add_argument(
        "--refit-every",
        type=int,
        default=1,
        metavar="N",
        help="refit every N runs (default 1; 0: never)",
    )
    learn.add_argument("--db", help="knowledge base (default: $IOTUNER_DB, else the user's)")
    learn.add_argument("--space", help="parameter space to choose in (name or TOML file)")
    learn.add_argument(
        "--model",
        type=Path,
        default=Path("iotuner-model"),
        help="model directory from `iotuner train` (default ./iotuner-model, when there): "
        "its kind and calibration judge the tries",
    )
    learn.add_argument(
        "--model-kind",
        help="model kind to refit after each run instead (default: the saved model's, "
        "else random_forest)",
    )
    parser.add_argument("command", nargs=argparse.REMAINDER, help="e.g. mpiexec -n 4 ./app")
    parser.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    mode = args.mode
    learn = args.learn or os.environ.get("IOTUNER_LEARN", "") not in ("", "0")
    if learn and args.table is None:
        if args.learn:
            print_error("--learn needs --table: the table it tunes (created when missing)")
            return ERROR_STATUS
        # The site-wide setting must not stop a run that names no table: it runs as asked.
        print("iotuner: warning: IOTUNER_LEARN is set, no --table: not learning", file=sys.stderr)
        learn = False
    tag = None
    if learn:
        mode, learn = _learning_mode(args.table)
        tag = _record_start(args) if learn else None
        if learn:
            warn_if_busy()  # what it learns from this run is a measurement
    result = run(
        command_after_dashes(args),
        mode=mode,
        table=args.table,
        log_dir=args.log_dir,
        policy=args.policy,
        tag=tag,
        call_rows=args.call_rows,
    )
    for log in result.logs:
        print(f"iotuner: trace log: {printable(log)}", file=sys.stderr)
    if "trace" in mode.split(",") and not result.logs:
        print(
            f"iotuner: warning: no trace log tagged {result.tag} in {result.log_dir} "
            "(did the program reach MPI_Finalize?)",
            file=sys.stderr,
        )
    if learn and result.logs:
        _learn(args, result.logs)
    return result.returncode


def _learning_mode(table: Path) -> tuple[str, bool]:
    """The interposer mode of a learning run, and whether it learns. A table that is
    missing, empty or refused never stops the program: it runs untuned (as the interposer
    does with such a table), with one warning; learning then writes the table, unless it
    was refused (what is in it is not the learner's to overwrite)."""
    from iotuner.runner import table_refusal

    if not table.exists() or not table.read_bytes().strip():
        state = "does not exist yet" if not table.exists() else "is empty"
        print(
            f"iotuner: warning: {printable(table)} {state}: the program runs untuned, "
            "and learning writes its entries there",
            file=sys.stderr,
        )
        return "trace", True
    refused = table_refusal(table)
    if refused is None:
        return "tune,trace", True
    print(
        f"iotuner: warning: {printable(table)} refused ({refused[0]}): {printable(refused[1])}; "
        "the program runs untuned and nothing is learned into it",
        file=sys.stderr,
    )
    return "trace", False


def _record_start(args: argparse.Namespace) -> str | None:
    """The job's tag, recorded in the table's history before the job starts, so a later
    run stores this run's logs if it is killed before it learned; None (a tag of the
    runner's) when the history cannot be written, which the learning will say."""
    from iotuner.online import record_start
    from iotuner.runner import default_log_dir, new_tag

    tag = new_tag()
    try:
        record_start(args.table, tag, Path(args.log_dir or default_log_dir()).absolute())
    except OSError:
        return None
    return tag


def _learn(args: argparse.Namespace, logs: list[Path]) -> None:
    """Online tuning after the run; any failure is one warning (never the exit status)."""
    try:
        from iotuner.online import learn_after_run

        report = learn_after_run(
            logs,
            args.table,
            args.db or os.environ.get("IOTUNER_DB") or None,
            space=args.space,
            model=args.model_kind,
            model_dir=args.model,
            refit_every=args.refit_every,
        )
        for line in report.lines():
            print(f"iotuner: learn: {printable(line)}", file=sys.stderr)
    except Exception as exc:
        # Whatever failed may quote the knowledge base's URL (_secrets) or a program's name.
        why = printable(mask_secrets(str(exc), args.db or os.environ.get("IOTUNER_DB") or ""))
        print(
            f"iotuner: warning: learning from this run failed ({type(exc).__name__}: {why}); "
            "the run itself is unaffected",
            file=sys.stderr,
        )


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
    from iotuner.trace_export import op_csv
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
        "operations and hints (requested and effective), and the log's warnings; for a "
        "tuned run, per file and size group, which table entry applied or why the "
        "defaults stayed.",
    )
    parser.add_argument("log", type=Path, help="trace log (.iotrace.jsonl)")
    parser.set_defaults(handler=_show)


def _show(args: argparse.Namespace) -> int:
    from iotuner.decisions import table_decisions
    from iotuner.render import print_summary
    from iotuner.summary import summarize
    from iotuner.tracelog import read_tracelog

    warn_about_leftovers([args.log])
    log = read_tracelog(args.log)
    console = terminal()
    print_summary(summarize(log), console)
    decisions, note = table_decisions(log)
    if decisions:
        console.print(f"what the table decided ({note}), per file and size group:", markup=False)
    for decision in decisions:
        hints = ", ".join(f"{k}={v}" for k, v in decision.applied.items())
        console.print(
            printable(
                f"  {decision.file}, {decision.case}: "
                + (f"applied {hints}; " if hints else "defaults kept; ")
                + decision.why
            ),
            markup=False,
        )
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
