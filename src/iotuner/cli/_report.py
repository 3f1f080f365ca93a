"""`iotuner report`: one self-contained HTML page from whichever inputs are given."""

import argparse
from pathlib import Path

from iotuner.cli._common import Subparsers

__all__ = ["add_report"]


def add_report(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "report",
        help="write self-contained HTML pages of what iotuner measured, learned and did",
        description=(
            "Write an HTML index page (figures embedded, no network or JavaScript needed to "
            "read it) with a section for each input given: the system (--db: what was measured, "
            "how noisy, which parameters matter), the model (--model: predicted against "
            "measured, evaluation figures), the tuning table (--table: per case the choice "
            "and predicted gain), a search (--storage/--study, --search-record: convergence, "
            "re-measures, verdict) and the programs of the trace logs (--logs), each on a "
            "page of its own beside the index (-o report.html: report.PROGRAM.html) with its "
            "runs, default against tuned (--default-log with --tuned-log, else its latest "
            "run of each kind) and the table's entries for it."
        ),
    )
    parser.add_argument(
        "--db", metavar="PATH_OR_URL", help="knowledge base (SQLite file or database URL)"
    )
    parser.add_argument("--system", help="fingerprint (prefix) of the system, when several")
    parser.add_argument("--space", help="parameter space (default: the measurements' space)")
    parser.add_argument("--model", type=Path, help="model directory from `iotuner train`")
    parser.add_argument(
        "--storage", help="Optuna storage of searches: SQLite file or RDB URL (all its studies)"
    )
    parser.add_argument(
        "--study",
        action="append",
        default=[],
        metavar="NAME",
        help="only this study of --storage (repeatable: one line per strategy)",
    )
    parser.add_argument(
        "--search-record",
        type=Path,
        metavar="JSON",
        help="the output of `iotuner search --json`: its re-measures and verdict",
    )
    parser.add_argument("--table", type=Path, help="tuning table (.jsonl)")
    parser.add_argument(
        "--logs", type=Path, nargs="+", default=[], metavar="LOG", help="trace logs to show"
    )
    parser.add_argument("--default-log", type=Path, metavar="LOG", help="trace of a default run")
    parser.add_argument(
        "--archive",
        type=Path,
        metavar="RESULTS",
        help="the results file of an archive run (`iotuner advise DIR --results FILE`): "
        "its ranking, and each program's findings and advice on its page",
    )
    parser.add_argument(
        "--tuned-log", type=Path, metavar="LOG", help="trace of the same program tuned"
    )
    parser.add_argument(
        "-o",
        "--output",
        type=Path,
        required=True,
        help="the index page to write (the program pages go beside it)",
    )
    parser.set_defaults(handler=_report)


def _report(args: argparse.Namespace) -> int:
    from iotuner.report import ReportInputs, write_report

    inputs = ReportInputs(
        db=args.db,
        system=args.system,
        space=args.space,
        model=args.model,
        storage=args.storage,
        studies=tuple(args.study),
        search_record=args.search_record,
        table=args.table,
        logs=tuple(args.logs),
        default_log=args.default_log,
        tuned_log=args.tuned_log,
        archive=args.archive,
    )
    path = write_report(args.output, inputs)
    print(f"report: {path}")
    return 0
