"""The entry point: the parser of every subcommand, assembled in the order of the loop,
and the one place where an IotunerError becomes a message and an exit status."""

import argparse
import sys
from collections.abc import Callable, Sequence

from iotuner import __version__
from iotuner._printable import terminal
from iotuner._quiet import library_warnings
from iotuner.cli._advise import add_advise
from iotuner.cli._common import ERROR_STATUS, Subparsers, print_error
from iotuner.cli._demo import add_demo
from iotuner.cli._evaluate import add_evaluate, add_predict
from iotuner.cli._export import add_export
from iotuner.cli._learn import add_analyze, add_table, add_train, add_tune
from iotuner.cli._measure import add_bench, add_db, add_ingest, add_space
from iotuner.cli._report import add_report
from iotuner.cli._search import add_search
from iotuner.cli._trace import add_log2csv, add_logs, add_run, add_show
from iotuner.errors import IotunerError

__all__ = ["main"]

_SUBCOMMANDS: tuple[Callable[[Subparsers], None], ...] = (
    # In the order of the loop: run and read traces, measure, learn, tune, search.
    add_demo,
    add_run,
    add_show,
    add_log2csv,
    add_logs,
    add_table,
    add_space,
    add_bench,
    add_ingest,
    add_db,
    add_train,
    add_evaluate,
    add_predict,
    add_tune,
    add_export,
    add_advise,
    add_analyze,
    add_search,
    add_report,
)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the iotuner command line with `argv` (default: sys.argv[1:]); return the status."""
    args = _parser().parse_args(argv)
    # The libraries' warnings (scikit-learn, numpy, ...) are said once per kind, in a line
    # of ours, after the command's output, instead of as Python's file-and-line dumps.
    command = next((a for a in (sys.argv[1:] if argv is None else argv) if a[:1] != "-"), "")
    try:
        with library_warnings(_note, during=command or "iotuner"):
            status: int = args.handler(args)
    except IotunerError as exc:
        print_error(str(exc))
        return ERROR_STATUS
    except KeyboardInterrupt:
        # The command's own handlers stopped what it started (bench: the kernel's whole
        # process group, iotuner.runner.stop_group); a traceback would say nothing more.
        resumes = "; the same command resumes" if command in _RESUMING else ""
        print(f"iotuner: interrupted{resumes}", file=sys.stderr)
        return INTERRUPTED_STATUS
    return status


INTERRUPTED_STATUS = 130
"""The exit status after Ctrl-C: 128 + SIGINT, as a shell reports a program it stopped."""

_RESUMING = ("bench", "search")
"""Commands that keep what they measured as they go and, run again, go on from there
(bench: its results file; search: its study's storage)."""


def _note(line: str) -> None:
    from iotuner._printable import markup_safe

    # Wrapped at words to the terminal, as the rest of the output.
    terminal(stderr=True, highlight=False).print(f"iotuner: note: {markup_safe(line)}")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="iotuner",
        description="Tune MPI-IO hints at run time through the iotuner interposer.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    subparsers = parser.add_subparsers(title="commands", required=True, metavar="COMMAND")
    for add in _SUBCOMMANDS:
        add(subparsers)
    return parser
