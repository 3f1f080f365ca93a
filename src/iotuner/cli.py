"""The `iotuner` command.

Each subcommand is one `_add_<name>` function, which declares its arguments and sets
`handler` to the function that carries it out and returns the exit status; adding a
subcommand means writing those two functions and listing the first in _SUBCOMMANDS.
Only here do errors become messages and exit codes: an IotunerError gives
"iotuner: error: ..." on stderr and exit status 2.

RATIONALE: every subcommand's parser is built on every call, and `iotuner run` stands
between the user and the program. So the module level imports only what the parsers and
`run` need, none of it beyond the standard library; every other handler imports its own
modules (rich, SQLAlchemy, pandas, scikit-learn and Optuna come in through bench, demo,
ingest, learn, models, render, search, store and tune), and a parser's choices come from
iotuner._choices. tests/unit/test_startup.py holds `run`, `show`, `log2csv`, `logs`,
`table check` and `--version` to that.
"""

import argparse
import json
import os
import shlex
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias

from iotuner import __version__
from iotuner._choices import INGEST_KINDS, STRATEGIES
from iotuner._dbpath import default_store_path
from iotuner._fileio import atomic_write_text
from iotuner._units import format_size
from iotuner.errors import ConfigError, IotunerError
from iotuner.runner import MODES, POLICIES, default_log_dir, run

if TYPE_CHECKING:
    from iotuner.learn import TrainingData
    from iotuner.store import Store
    from iotuner.tracelog import LeftoverLog

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
    from iotuner.export import op_csv
    from iotuner.tracelog import read_tracelog

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
    from rich.console import Console

    from iotuner.render import print_summary
    from iotuner.summary import summarize
    from iotuner.tracelog import read_tracelog

    _warn_about_leftovers([args.log])
    print_summary(summarize(read_tracelog(args.log)), Console())
    return 0


def _add_logs(subparsers: Subparsers) -> None:
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
            print(f"iotuner: error: cannot remove {leftover.path}: {exc.strerror}", file=sys.stderr)
            status = 2
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


def _warn_about_leftovers(paths: Iterable[Path]) -> None:
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


def _add_table(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser("table", help="work with tuning tables")
    actions = parser.add_subparsers(title="actions", required=True, metavar="ACTION")
    check = actions.add_parser(
        "check",
        help="validate a tuning table",
        description=(
            "Judge a tuning table line by line as the interposer will: the entries it "
            "applies per decision point, and each line it drops with the rule it breaks "
            "(formats/table_rules.def). Exit status 1 when anything is dropped or refused."
        ),
    )
    check.add_argument("table", type=Path, help="tuning table (.jsonl)")
    check.add_argument(
        "--json",
        action="store_true",
        help="one JSON verdict per line, as the interposer's C checker prints them",
    )
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
    from iotuner.formats import table_fields
    from iotuner.table import check_table

    checked = check_table(args.table)
    if args.json:
        for record in checked.as_records():
            print(json.dumps(record))
        return 0 if checked.refused is None and not checked.dropped else 1
    if checked.refused is not None:
        rule, message = checked.refused
        print(f"{args.table}: refused ({rule}): {message}")
        print("  the interposer would run the program untuned")
        return 1
    entries = checked.entries
    counts = Counter(e.at for e in entries)
    (decision_points,) = (f.choices for f in table_fields() if f.name == "at")
    verdict = "valid" if not checked.dropped else f"{len(checked.dropped)} lines dropped"
    print(f"{args.table}: {verdict}, {len(entries)} entries")
    for at in decision_points:
        print(f"  at {at}: {counts[at]}")
    for dropped in checked.dropped:
        print(f"  line {dropped.line} dropped ({dropped.rule}): {dropped.message}")
    return 0 if not checked.dropped else 1


def _table_derive(args: argparse.Namespace) -> int:
    from iotuner.history import derive_open_entries, merge_tables, read_logs
    from iotuner.table import read_table, write_table

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
        help="the whole loop on this machine: bench, train, tune, and check on a new workload",
        description=(
            "Sweep a small parameter space into a fresh knowledge base, train and choose a "
            "model, write a tuning table, then compare default, tuned and the best of all "
            "configurations (found by trying them) on a workload the sweep never saw."
        ),
    )
    parser.add_argument(
        "--nprocs",
        type=int,
        default=2,
        help="MPI ranks (default 2: one per core here; oversubscribed ranks busy-wait)",
    )
    parser.add_argument("--repeats", type=int, default=5, help="runs of each (default 5)")
    parser.add_argument(
        "--sweep-repeats",
        type=int,
        default=3,
        help="repeats of each measurement in the sweep (default 3)",
    )
    parser.add_argument(
        "--dir",
        type=Path,
        default=Path("demo-output"),
        help="working directory: data, knowledge base, model, table, logs (./demo-output)",
    )
    parser.set_defaults(handler=_demo)


def _demo(args: argparse.Namespace) -> int:
    from rich.console import Console

    from iotuner.demo import DemoSettings, run_demo

    settings = DemoSettings(args.nprocs, args.repeats, args.dir, args.sweep_repeats)
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
    from iotuner.space import load_space, shipped_spaces

    for name, path in sorted(shipped_spaces().items()):
        space = load_space(path)
        print(f"{name}: {space.size} configurations ({path})")
    return 0


def _space_show(args: argparse.Namespace) -> int:
    from iotuner.space import load_space

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
            "Sweep workloads (scale, pattern, layout, read/write, size per call) and every "
            "configuration of a parameter space, each repeated, in a shuffled order, with "
            "data synced to storage. Each measurement opens a file, makes many calls (at "
            "least 2, up to 1024, about 64 MiB per rank), syncs and closes it; the bandwidth "
            "recorded is the data's (calls and the sync of a write), open and close are timed "
            "apart. Results are "
            "appended to a results file as they come; run the same command again to resume. "
            "They also go into the knowledge base."
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
    _add_db_argument(parser)
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
        help="sizes per rank per call, e.g. 4k,64k,1m (default: one per "
        "decade of the size groups up to --max-size)",
    )
    parser.add_argument(
        "--max-size",
        default="auto",
        help="largest size per rank per call (default auto: up to 1g, at most a quarter of "
        "the available memory over the ranks, and what fits a quarter of the free disk of --dir)",
    )
    parser.add_argument(
        "--open-size",
        default="64m",
        help="bytes per rank per file open: calls per open = this over the size per call, "
        "at least 2 and at most 1024 (default 64m)",
    )
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
    from rich.console import Console

    from iotuner.bench import BenchPlan, parse_layout, parse_size, plan_sizes, run_bench
    from iotuner.ingest import ingest_bench
    from iotuner.measurement import OPS, PATTERNS
    from iotuner.space import load_space

    space = load_space(args.space)
    try:
        nprocs = [int(n) for n in _csv(args.nprocs, what="--nprocs")]
    except ValueError:
        raise ConfigError(
            f"--nprocs must be comma-separated integers, got {args.nprocs!r}"
        ) from None
    layouts = [parse_layout(text) for text in _csv(args.layouts, what="--layouts")]
    open_bytes = parse_size(args.open_size)
    sizes, why = plan_sizes(args.sizes, args.max_size, args.dir, nprocs, layouts, open_bytes)
    plan = BenchPlan(
        space=space,
        nprocs=nprocs,
        patterns=_csv(args.patterns, PATTERNS, "--patterns"),
        layouts=layouts,
        ops=_csv(args.ops, OPS, "--ops"),
        sizes=sizes,
        repeats=args.repeats,
        max_configs=args.max_configs,
        seed=args.seed,
        open_bytes=open_bytes,
    )
    results = args.results or Path(f"bench-{space.name}.bench.jsonl")
    console = Console()
    console.print(f"{why}; size per call x calls per open: {plan.calls_text()}")
    console.print(
        f"{len(plan.workloads)} workloads, {plan.measurements()} measurements "
        f"(space {space.name}, {args.repeats} repeats), {plan.data_bytes() / (1 << 30):.1f} "
        f"GiB of data; results: {results}"
    )
    after = None
    if not args.no_db:
        store = store_from_args(args)
        after = lambda path: ingest_bench(store, path)  # noqa: E731
    added = run_bench(plan, args.dir, results, console, after)
    console.print(f"{added} new measurements in {results}")
    return 0


def store_from_args(args: argparse.Namespace) -> "Store":
    """The knowledge base a command names with --db (see _add_db_argument), else the one
    $IOTUNER_DB names, else the default SQLite file."""
    from iotuner.store import StoreError, open_store

    given = getattr(args, "db", None)
    from_env = not given and bool(os.environ.get("IOTUNER_DB"))
    if from_env:
        given = os.environ["IOTUNER_DB"]
    try:
        # RATIONALE: a folder missing from a name the user gave is more likely a slip
        # (sqlite:///srv/kb.sqlite meant as absolute, a typo) than a wish, so it is an
        # error, not a new folder; the default file's folder is ours to make.
        return open_store(given or None, make_folder=not given)
    except StoreError as exc:
        if not from_env:
            raise
        raise StoreError(f"{exc} (named by $IOTUNER_DB)") from None


def _add_db_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--db",
        metavar="PATH_OR_URL",
        help="knowledge base: an SQLite file (kb.sqlite or /srv/kb.sqlite; its folder must "
        "exist), sqlite:///relative/kb.sqlite, sqlite:////absolute/kb.sqlite (four slashes) "
        "or postgresql://USER@HOST/DB "
        f"(default: $IOTUNER_DB, else {str(default_store_path()).replace('%', '%%')})",
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
    parser.add_argument("--kind", choices=INGEST_KINDS, help="kind of the files (default: guessed)")
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
    from iotuner.ingest import IngestError, ingest_file, input_files, load_mapping
    from iotuner.measurement import System

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
    _warn_about_leftovers(args.paths)
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
    from iotuner.store import SCHEMA_VERSION

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


def _add_search(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "search",
        help="find good settings by running the program (or replaying a table of results)",
        description=(
            "Search a parameter space by measuring configurations: each trial runs the "
            "command under the interposer with the configuration's hints ({name} in the "
            "command is replaced by an application parameter's value, {trial} by the trial "
            "number; no shell is involved), or, with --objective FILE.csv, answers from a "
            "table of measured results. Trials are kept in an Optuna study: run the same "
            "command again to resume. Parameters that act on no access the program makes "
            "(read from a traced run of the default, or --trace) stay at their defaults. "
            "Trials are traced only when the objective is bandwidth. At the end the default "
            "and the best are re-measured, interleaved, and the best wins only when a rank "
            "test puts it beyond the noise."
        ),
        usage="%(prog)s [options] [-- LAUNCHER PROGRAM [ARGS...]]",
    )
    parser.add_argument("--space", default="romio-ufs", help="TOML file or shipped space name")
    parser.add_argument(
        "--strategy",
        choices=STRATEGIES,
        default="ga",
        help="ga (the dissertation's GA, default), random, grid, tpe, gp, model",
    )
    parser.add_argument(
        "--budget", type=int, help="trials to measure (default: ga 300, grid all, others 50)"
    )
    parser.add_argument(
        "--repeats",
        type=int,
        default=5,
        help="re-measurements of the default and of each of the --top best at the end, "
        "interleaved (default 5, at least 3; 0: no verdict)",
    )
    parser.add_argument(
        "--top", type=int, default=1, help="best configurations to re-measure (default 1)"
    )
    parser.add_argument(
        "--trace",
        type=Path,
        action="append",
        default=[],
        metavar="LOG",
        help="trace log of the program to read its accesses from, instead of a traced run "
        "of the default (repeatable)",
    )
    parser.add_argument(
        "--all-parameters",
        action="store_true",
        help="search every parameter, even those that act on no access the program makes",
    )
    parser.add_argument(
        "--objective",
        default="bandwidth",
        help="bandwidth (from the trace, default), walltime, regex:PATTERN "
        "(the number the program prints), or FILE.csv (offline)",
    )
    direction = parser.add_mutually_exclusive_group()
    direction.add_argument("--maximize", action="store_true", help="maximise the objective")
    direction.add_argument("--minimize", action="store_true", help="minimise the objective")
    parser.add_argument(
        "--value-column", help="offline: the measured value's column (default bandwidth)"
    )
    parser.add_argument(
        "--param-columns",
        help="offline: configuration columns, "
        "comma-separated (default: all but the value and filter columns)",
    )
    parser.add_argument(
        "--filter",
        action="append",
        default=[],
        metavar="COLUMN=VALUE",
        help="offline: keep the rows of one problem or scale (repeatable)",
    )
    parser.add_argument(
        "--target-fraction",
        type=float,
        default=0.95,
        help="offline: report the trials needed to reach this fraction of "
        "the table's best (default 0.95)",
    )
    parser.add_argument("--parallel", type=int, default=1, help="trials run at once")
    parser.add_argument(
        "--storage",
        default="iotuner-search.db",
        help="Optuna storage: SQLite file or RDB URL (default ./iotuner-search.db)",
    )
    parser.add_argument("--study", help="study name (default: from command, space, strategy)")
    parser.add_argument("--seed", type=int, help="seed of the strategy")
    parser.add_argument(
        "--table", type=Path, help="tuning table to put the winner into (created when missing)"
    )
    parser.add_argument(
        "--log-dir",
        type=Path,
        default=Path("iotuner-search-logs"),
        help="trace logs and per-trial tables (default ./iotuner-search-logs)",
    )
    parser.add_argument("--timeout", type=float, help="seconds a trial may take")
    parser.add_argument("--model", type=Path, help="model strategy: a trained model")
    parser.add_argument(
        "--workload",
        help="model strategy: what the program does, e.g. "
        "nprocs=4,pattern=collective,op=write,layout=contiguous,size=1m "
        "(default: read from a traced run of the default configuration)",
    )
    parser.add_argument("--population", type=int, default=10, help="ga: population (10)")
    parser.add_argument("--generations", type=int, default=30, help="ga: generations (30)")
    parser.add_argument(
        "--mutation", type=float, default=0.15, help="ga: mutation probability per parameter (0.15)"
    )
    _add_db_argument(parser)
    parser.add_argument(
        "--no-db", action="store_true", help="keep the trials out of the knowledge base"
    )
    parser.add_argument("command", nargs=argparse.REMAINDER, help="e.g. mpiexec -n 4 ./app")
    parser.set_defaults(handler=_search)


def _search(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    from iotuner.ingest import ingest_trace
    from iotuner.models import load_model
    from iotuner.search import (
        Objective,
        OfflineObjective,
        OfflineTable,
        RunObjective,
        SearchProgress,
        SearchSettings,
        StrategyOptions,
        merge_winner,
        parse_filters,
        parse_measure,
        parse_workload,
        print_result,
        run_search,
        storage_url,
        winner_entry,
    )
    from iotuner.space import load_space

    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    direction = "maximize" if args.maximize else "minimize" if args.minimize else None
    objective: Objective
    if args.objective.endswith(".csv") or Path(args.objective).is_file():
        if command:
            raise ConfigError("an offline objective (a CSV table) runs nothing: drop the command")
        table = OfflineTable(
            args.objective,
            value_column=args.value_column,
            param_columns=_csv(args.param_columns, what="--param-columns")
            if args.param_columns
            else None,
            filters=parse_filters(args.filter),
        )
        objective = OfflineObjective(table, direction or "maximize")
    else:
        measure, pattern = parse_measure(args.objective)
        objective = RunObjective(
            command,
            load_space(args.space),
            measure=measure,
            pattern=pattern,
            direction=direction,
            log_dir=args.log_dir,
            timeout=args.timeout,
        )
    model = args.model
    if model is None and args.strategy == "model" and Path("iotuner-model").is_dir():
        model = Path("iotuner-model")  # where `iotuner train` saves by default
    predictor = load_model(model) if model is not None else None
    settings = SearchSettings(
        strategy=args.strategy,
        budget=args.budget,
        storage=storage_url(args.storage),
        study=args.study,
        seed=args.seed,
        parallel=args.parallel,
        repeats=args.repeats,
        top=args.top,
        target_fraction=args.target_fraction,
        trace=tuple(args.trace),
        all_parameters=args.all_parameters,
        options=StrategyOptions(
            population=args.population, generations=args.generations, mutation=args.mutation
        ),
    )
    console = Console(stderr=True)
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[status]}"),
    )
    with Progress(*columns, console=console) as progress:
        task = progress.add_task("search", total=None, status="")

        def show(p: SearchProgress) -> None:
            best = f"best {p.best:.4g}" if p.best is not None else "no value yet"
            eta = f", eta {p.eta:.0f} s" if p.eta is not None else ""
            status = f"{best}, {p.budget - p.done} left, {p.failed} failed{eta}"
            progress.update(task, total=p.budget, completed=p.done, status=status)

        result = run_search(
            objective,
            settings,
            predictor=predictor,
            workload=parse_workload(args.workload) if args.workload else None,
            on_progress=show,
        )
    print_result(result, Console())
    logs = [log for t in result.trials if t.new for log in t.outcome.logs]
    logs += [log for r in result.remeasured for log in r.logs] + result.probe_logs
    if logs and not args.no_db:
        store = store_from_args(args)
        added = sum(ingest_trace(store, log, kind="search").added for log in logs)
        print(f"knowledge base {store.url}: {added} measurements from {len(logs)} trial logs")
        store.close()
    if args.table is not None and result.winner is not None:
        if result.program is None or result.nprocs is None:
            raise ConfigError("--table needs a run's trace to name the program and its scale")
        entry = winner_entry(result, result.program, result.nprocs)
        merge_winner(args.table, entry)
        print(f"{args.table}: {entry.program} x{entry.nprocs} at open: {entry.hints}")
    return 0 if result.best is not None else 1


def _add_learning_source(parser: argparse.ArgumentParser) -> None:
    _add_db_argument(parser)
    parser.add_argument(
        "--system",
        help="fingerprint (prefix) of the system to learn from, "
        "when the knowledge base holds several",
    )
    parser.add_argument(
        "--space",
        help="parameter space (file or shipped name; default: the space of the measurements)",
    )
    parser.add_argument(
        "--kind",
        choices=("bench", "trace", "csv", "search"),
        help="learn only from measurements of this kind",
    )


def _training_data(args: argparse.Namespace) -> "TrainingData":
    from iotuner.learn import training_data

    data = training_data(
        store_from_args(args), system=args.system, space=args.space, kind=args.kind
    )
    print(
        f"learning from {len(data.frame)} summarised cases of system "
        f"{data.system.fingerprint} ({data.system.host}, {data.system.fs_type}), space "
        f"{data.space.name}"
        + (f"; {data.dropped_rows} rows of other parameters left out" if data.dropped_rows else "")
    )
    return data


def _add_train(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "train",
        help="compare performance models on the knowledge base and save the chosen one",
        description=(
            "Compare a random forest (the thesis' baseline), a decision tree, SVR, an MLP and "
            "gradient boosting over 70/30 splits and leave-one-group-out, save the model the "
            "selection rule picks, and print Kunkel et al.'s decision trees and how their "
            "choice compares with the default and the best."
        ),
    )
    _add_learning_source(parser)
    parser.add_argument(
        "-o",
        "--output",
        type=Path,
        default=Path("iotuner-model"),
        help="directory for the model (default ./iotuner-model)",
    )
    parser.add_argument(
        "--target",
        default="bw_min",
        choices=("bw_min", "bw_median"),
        help="what to learn: the minimum of the repeats (the thesis) or median",
    )
    parser.add_argument("--seeds", type=int, default=10, help="70/30 splits (default 10)")
    parser.add_argument("--quick", action="store_true", help="a small zoo, for demos")
    parser.add_argument("--no-rules", action="store_true", help="skip the decision-tree rules")
    parser.set_defaults(handler=_train)


def _train(args: argparse.Namespace) -> int:
    from rich.console import Console

    from iotuner.models import kunkel_report, render_kunkel, render_train_report, train_command

    data = _training_data(args)
    console = Console()
    report = train_command(
        data.frame, data.space, args.output, target=args.target, seeds=args.seeds, quick=args.quick
    )
    render_train_report(report, console)
    if not args.no_rules:
        render_kunkel(kunkel_report(data.frame, data.space), console)
    return 0


def _add_tune(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "tune",
        help="write a tuning table from a trained model",
        description=(
            "Predict every configuration for each scale, size group, pattern, read/write and "
            "layout the training data covers; keep the configuration with the best lower "
            "quantile, or the default when nothing beats it by more than the noise."
        ),
    )
    _add_learning_source(parser)
    parser.add_argument(
        "--model",
        type=Path,
        default=Path("iotuner-model"),
        help="model directory from `iotuner train` (default ./iotuner-model)",
    )
    parser.add_argument("-o", "--output", type=Path, required=True, help="tuning table to write")
    parser.set_defaults(handler=_tune)


def _tune(args: argparse.Namespace) -> int:
    from rich.console import Console

    from iotuner.models import load_model
    from iotuner.table import write_table
    from iotuner.tune import render_choices, tune

    data = _training_data(args)
    model = load_model(args.model)
    result = tune(model, data.space, data.frame)
    write_table(args.output, result.entries)
    changed = [c for c in result.choices if not c.kept_default]
    at = Counter(e.at for e in result.entries)
    print(
        f"{args.output}: {len(result.entries)} entries ({at['open']} at open, {at['view']} at "
        f"view, {at['access']} at access); {len(changed)} of {len(result.choices)} cases differ "
        f"from the default (noise {result.noise:.0%}; an entry needs its lower bound above "
        "the default's upper bound)"
    )
    render_choices(result, Console())
    return 0


def _add_analyze(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "analyze",
        help="find configurations that are consistently good or bad (SCTuner)",
        description=(
            "Normalise every case to the best configuration of its workload, summarise each "
            "configuration by five numbers, cluster them (Ward, Euclidean) and name the "
            "consistently good and consistently bad ones."
        ),
    )
    _add_learning_source(parser)
    parser.add_argument("--stat", default="bw_median", choices=("bw_min", "bw_median"))
    parser.add_argument("--limit", type=int, default=20, help="configurations to list")
    parser.set_defaults(handler=_analyze)


def _analyze(args: argparse.Namespace) -> int:
    from rich.console import Console

    from iotuner.models import analyze, render_analyze

    data = _training_data(args)
    render_analyze(analyze(data.frame, data.space, stat=args.stat), Console(), limit=args.limit)
    return 0


_SUBCOMMANDS: tuple[Callable[[Subparsers], None], ...] = (
    # In the order of the loop: run and read traces, measure, learn, tune, search.
    _add_demo,
    _add_run,
    _add_show,
    _add_log2csv,
    _add_logs,
    _add_table,
    _add_space,
    _add_bench,
    _add_ingest,
    _add_db,
    _add_train,
    _add_tune,
    _add_analyze,
    _add_search,
)
