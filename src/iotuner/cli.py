"""The `iotuner` command.

Each subcommand is one `_add_<name>` function, which declares its arguments and sets
`handler` to the function that carries it out and returns the exit status; adding a
subcommand means writing those two functions and listing the first in _SUBCOMMANDS.
Only here do errors become messages and exit codes: an IotunerError gives
"iotuner: error: ..." on stderr and exit status 2.
"""

import argparse
import os
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeAlias

from rich.console import Console

from iotuner import __version__
from iotuner._fileio import atomic_write_text
from iotuner.bench import BenchPlan, default_sizes, parse_layout, parse_size, run_bench
from iotuner.demo import DemoSettings, run_demo
from iotuner.errors import ConfigError, IotunerError
from iotuner.export import op_csv
from iotuner.formats import table_fields
from iotuner.history import derive_open_entries, merge_tables, read_logs
from iotuner.ingest import (
    KINDS,
    IngestError,
    ingest_bench,
    ingest_file,
    input_files,
    load_mapping,
)
from iotuner.measurement import OPS, PATTERNS, System
from iotuner.render import print_summary
from iotuner.runner import MODES, POLICIES, run
from iotuner.space import load_space, shipped_spaces
from iotuner.store import SCHEMA_VERSION, Store, default_store_path, open_store
from iotuner.summary import summarize
from iotuner.table import read_table, write_table
from iotuner.tracelog import read_tracelog

__all__ = ["main", "store_from_args"]

Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the iotuner command line with `argv` (default: sys.argv[1:]); return the status."""
    args = _parser().parse_args(argv)
    try:
        status: int = args.handler(args)
    except IotunerError as exc:
        for line in str(exc).splitlines():
            print(f"iotuner: error: {line}", file=sys.stderr)
        return 2
    return status


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


def _add_run(subparsers: Subparsers) -> None:
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
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    result = run(
        command, mode=args.mode, table=args.table, log_dir=args.log_dir, policy=args.policy
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


def _add_log2csv(subparsers: Subparsers) -> None:
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
    text = op_csv(read_tracelog(args.log))
    if args.output is None:
        sys.stdout.write(text)
    else:
        atomic_write_text(args.output, text)
    return 0


def _add_show(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "show",
        help="summarize a trace log",
        description="Summarize a trace log: the job, per file its bytes, access pattern, "
        "operations and hints (requested and effective), and the log's warnings.",
    )
    parser.add_argument("log", type=Path, help="trace log (.iotrace.jsonl)")
    parser.set_defaults(handler=_show)


def _show(args: argparse.Namespace) -> int:
    print_summary(summarize(read_tracelog(args.log)), Console())
    return 0


def _add_table(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser("table", help="work with tuning tables")
    actions = parser.add_subparsers(title="actions", required=True, metavar="ACTION")
    check = actions.add_parser(
        "check",
        help="validate a tuning table",
        description="Validate a tuning table and count its entries per decision point.",
    )
    check.add_argument("table", type=Path, help="tuning table (.jsonl)")
    check.set_defaults(handler=_table_check)
    derive = actions.add_parser(
        "derive",
        help="add open-time entries learned from trace logs",
        description=(
            "For each program and file-name pattern in the trace logs, find the access the "
            "files mostly had, look up the table's hints for it and write them as an "
            '"at": "open" entry for that program and pattern (hints such as cb_nodes and '
            "striping are read at open only, and independent access is never re-tuned later)."
        ),
    )
    derive.add_argument("table", type=Path, help="tuning table with access entries (.jsonl)")
    derive.add_argument("logs", type=Path, nargs="+", help="trace logs or directories of them")
    derive.add_argument("-o", "--output", type=Path, required=True, help="table to write")
    derive.set_defaults(handler=_table_derive)


def _table_check(args: argparse.Namespace) -> int:
    entries = read_table(args.table)
    counts = Counter(e.at for e in entries)
    (decision_points,) = (f.choices for f in table_fields() if f.name == "at")
    print(f"{args.table}: valid, {len(entries)} entries")
    for at in decision_points:
        print(f"  at {at}: {counts[at]}")
    return 0


def _table_derive(args: argparse.Namespace) -> int:
    table = read_table(args.table)
    derived = derive_open_entries(read_logs(args.logs), table)
    write_table(args.output, merge_tables(derived, table))
    print(f"{args.output}: {len(derived)} open entries from trace history, {len(table)} kept")
    for entry in derived:
        print(f"  {entry.program} {entry.file} x{entry.nprocs}: {entry.hints} ({entry.note})")
    return 0


def _add_demo(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "demo",
        help="trace, derive a table and compare default with tuned runs on one workload",
        description=(
            "Run our MPI-IO kernel traced with default settings, derive open-time hints from "
            "that trace and the shipped example table, then run default and tuned alternately "
            "and print both bandwidths (median, min, max) and the hints applied."
        ),
    )
    parser.add_argument("--nprocs", type=int, default=4, help="MPI ranks (default 4)")
    parser.add_argument("--repeats", type=int, default=5, help="runs of each (default 5)")
    parser.add_argument(
        "--dir",
        type=Path,
        default=Path("demo-output"),
        help="working directory for data, logs and the tuned table (default ./demo-output)",
    )
    parser.add_argument("--keep-data", action="store_true", help="keep the data files")
    parser.set_defaults(handler=_demo)


def _demo(args: argparse.Namespace) -> int:
    settings = DemoSettings(args.nprocs, args.repeats, args.dir, args.keep_data)
    run_demo(settings, Console())
    return 0


def _add_space(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser("space", help="list, show or check parameter spaces")
    actions = parser.add_subparsers(title="actions", required=True, metavar="ACTION")
    listing = actions.add_parser("list", help="the spaces shipped with iotuner")
    listing.set_defaults(handler=_space_list)
    show = actions.add_parser("show", help="validate a space (file or shipped name) and show it")
    show.add_argument("space", help="a TOML file or a shipped space's name")
    show.set_defaults(handler=_space_show)


def _space_list(args: argparse.Namespace) -> int:
    for name, path in sorted(shipped_spaces().items()):
        space = load_space(path)
        print(f"{name}: {space.size} configurations ({path})")
    return 0


def _space_show(args: argparse.Namespace) -> int:
    space = load_space(args.space)
    print(f"{space.name}: {space.size} configurations")
    print(space.description.strip())
    for p in space.parameters:
        extra = f" (with {p.with_keys})" if p.with_keys else ""
        extra += f" (env {p.env})" if p.env else ""
        print(f"  {p.kind} {p.name}: {list(p.values)}, default {p.default!r}{extra}")
    return 0


def _add_bench(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "bench",
        help="measure a parameter space on this system (the training benchmark)",
        description=(
            "Sweep workloads (scale, pattern, layout, read/write, size per rank) and every "
            "configuration of a parameter space, each repeated, in a shuffled order, with "
            "data synced to storage. Results are appended to a results file as they come; "
            "run the same command again to resume. They also go into the knowledge base."
        ),
    )
    parser.add_argument("--space", default="romio-ufs", help="TOML file or shipped space name")
    parser.add_argument(
        "--dir",
        type=Path,
        required=True,
        help="directory on the file system to measure (its files are removed)",
    )
    parser.add_argument(
        "--results", type=Path, help="results file (default: ./bench-<space>.bench.jsonl)"
    )
    parser.add_argument(
        "--db",
        help="knowledge base: SQLite path or postgresql:// URL (default: the per-user SQLite file)",
    )
    parser.add_argument("--no-db", action="store_true", help="only write the results file")
    parser.add_argument("--nprocs", default="2", help="comma-separated scales (default 2)")
    parser.add_argument("--patterns", default="collective,independent")
    parser.add_argument(
        "--layouts",
        default="contiguous,strided:4k:0.5,strided:256:1",
        help="contiguous and strided:BLOCK:FILL layouts, comma-separated",
    )
    parser.add_argument("--ops", default="write,read")
    parser.add_argument(
        "--sizes",
        help="sizes per rank, e.g. 4k,64k,1m (default: one per "
        "decade of the size groups up to --max-size)",
    )
    parser.add_argument("--max-size", default="16m", help="largest size per rank (default 16m)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--max-configs",
        type=int,
        help="measure at most this many configurations per workload (the "
        "default and a seeded random sample)",
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.set_defaults(handler=_bench)


def _csv(text: str, allowed: tuple[str, ...] | None = None, what: str = "value") -> list[str]:
    items = [item.strip() for item in text.split(",") if item.strip()]
    bad = [item for item in items if allowed is not None and item not in allowed]
    if not items or bad:
        raise ConfigError(
            f"{what} must be a comma-separated list of {', '.join(allowed or ())}, got {text!r}"
        )
    return items


def _bench(args: argparse.Namespace) -> int:
    space = load_space(args.space)
    try:
        nprocs = [int(n) for n in _csv(args.nprocs, what="--nprocs")]
    except ValueError:
        raise ConfigError(
            f"--nprocs must be comma-separated integers, got {args.nprocs!r}"
        ) from None
    sizes = (
        [parse_size(s) for s in _csv(args.sizes, what="--sizes")]
        if args.sizes
        else default_sizes(parse_size(args.max_size))
    )
    plan = BenchPlan(
        space=space,
        nprocs=nprocs,
        patterns=_csv(args.patterns, PATTERNS, "--patterns"),
        layouts=[parse_layout(text) for text in _csv(args.layouts, what="--layouts")],
        ops=_csv(args.ops, OPS, "--ops"),
        sizes=sizes,
        repeats=args.repeats,
        max_configs=args.max_configs,
        seed=args.seed,
    )
    results = args.results or Path(f"bench-{space.name}.bench.jsonl")
    console = Console()
    console.print(
        f"{len(plan.workloads)} workloads, {plan.measurements()} measurements "
        f"(space {space.name}, {args.repeats} repeats); results: {results}"
    )
    after = None
    if not args.no_db:
        store = store_from_args(args)
        after = lambda path: ingest_bench(store, path)  # noqa: E731
    added = run_bench(plan, args.dir, results, console, after)
    console.print(f"{added} new measurements in {results}")
    return 0


def store_from_args(args: argparse.Namespace) -> Store:
    """The knowledge base a command names with --db (see _add_db_argument), else the one
    $IOTUNER_DB names, else the default SQLite file."""
    return open_store(getattr(args, "db", None) or os.environ.get("IOTUNER_DB") or None)


def _add_db_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--db",
        metavar="URL_OR_PATH",
        help="knowledge base: an SQLite file, sqlite:///PATH or postgresql://USER@HOST/DB "
        f"(default: $IOTUNER_DB, else {default_store_path()})",
    )


def _add_ingest(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "ingest",
        help="import trace logs, bench results and CSV files into the knowledge base",
        description="Import measurements into the knowledge base: trace logs "
        "(*.iotrace.jsonl), bench results (*.bench.jsonl) and CSV files read through a "
        "column mapping (its format: python -m pydoc iotuner.ingest). A folder stands for "
        "the trace logs and bench results directly inside (with --kind, the files of that "
        "kind). Each file is added whole or not at all; what is stored already is skipped, "
        "so ingesting a file again adds nothing.",
    )
    _add_db_argument(parser)
    parser.add_argument("--kind", choices=KINDS, help="kind of the files (default: guessed)")
    parser.add_argument("--mapping", type=Path, help="CSV column mapping (.toml or .json)")
    for name, what in (
        ("host", "host name"),
        ("mpi", "MPI library and version"),
        ("fs-type", "file-system type (e.g. lustre)"),
        ("fs-driver", "MPI-IO driver (e.g. ufs)"),
        ("fs-mount", "mount point of the file system"),
    ):
        parser.add_argument(
            f"--system-{name}", metavar="TEXT", help=f"CSV: {what} (overrides the mapping's)"
        )
    parser.add_argument("paths", type=Path, nargs="+", metavar="PATH", help="files or folders")
    parser.set_defaults(handler=_ingest)


def _ingest(args: argparse.Namespace) -> int:
    mapping = load_mapping(args.mapping) if args.mapping else None
    given = {
        "host": args.system_host,
        "mpi_library": args.system_mpi,
        "fs_type": args.system_fs_type,
        "fs_driver": args.system_fs_driver,
        "fs_mount": args.system_fs_mount,
    }
    system = None
    if any(given.values()):
        fields = {**(mapping.system if mapping else {}), **{k: v for k, v in given.items() if v}}
        if "host" not in fields:
            raise IngestError("--system-host is needed with the other --system-* options")
        system = System(**{k: fields.get(k, "unknown") for k in given})
    files = input_files(args.paths, args.kind)
    if not files:
        wanted = f"{args.kind} files" if args.kind else "trace logs or bench results"
        raise IngestError(f"no {wanted} in {', '.join(map(str, args.paths))}")
    status = 0
    with store_from_args(args) as store:
        for path in files:
            try:
                result = ingest_file(store, path, args.kind, mapping, system)
            except IotunerError as exc:
                for line in str(exc).splitlines():
                    print(f"iotuner: error: {line}", file=sys.stderr)
                status = 2
                continue
            ignored = f", ignored {result.ignored} (no duration)" if result.ignored else ""
            print(
                f"{path}: {result.kind}: read {result.read}, added {result.added}, "
                f"skipped {result.skipped} (already stored){ignored}"
            )
    return status


def _add_db(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser("db", help="look after the knowledge base")
    actions = parser.add_subparsers(title="actions", required=True, metavar="ACTION")
    status = actions.add_parser(
        "status",
        help="count what the knowledge base holds",
        description="Print where the knowledge base is, its rows per table, and its "
        "systems with their measurements per kind of run.",
    )
    _add_db_argument(status)
    status.set_defaults(handler=_db_status)


def _db_status(args: argparse.Namespace) -> int:
    with store_from_args(args) as store:
        counts = store.counts()
        per_system = store.measurement_counts()
        systems = store.systems()
        print(f"knowledge base: {store.url} (schema {SCHEMA_VERSION})")
        print("  " + ", ".join(f"{table}: {n}" for table, n in counts.items()))
        for system in systems:
            kinds = {k: n for (fp, k), n in sorted(per_system.items()) if fp == system.fingerprint}
            by_kind = ", ".join(f"{k} {n}" for k, n in kinds.items()) or "none"
            print(
                f"  system {system.fingerprint}: host {system.host}, {system.mpi_library}, "
                f"{system.fs_type} at {system.fs_mount} (driver {system.fs_driver}); "
                f"measurements: {by_kind}"
            )
    return 0


_SUBCOMMANDS: tuple[Callable[[Subparsers], None], ...] = (
    _add_run,
    _add_log2csv,
    _add_show,
    _add_table,
    _add_demo,
    _add_space,
    _add_bench,
    _add_ingest,
    _add_db,
)
