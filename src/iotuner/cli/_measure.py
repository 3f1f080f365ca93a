"""Commands that fill and read the knowledge base: space list and space show (what can
be measured), bench (measure it here), ingest (import trace logs, bench results and CSV
files) and db status."""

import argparse
import contextlib
import os
import time
from pathlib import Path
from typing import TYPE_CHECKING

from iotuner._choices import INGEST_KINDS
from iotuner._printable import printable, terminal
from iotuner.cli._common import (
    ERROR_STATUS,
    Subparsers,
    add_db_argument,
    add_space_argument,
    comma_separated,
    print_error,
    store_from_args,
)
from iotuner.cli._trace import warn_about_leftovers
from iotuner.errors import ConfigError, IotunerError

if TYPE_CHECKING:
    from collections.abc import Callable

    from rich.console import Console

    from iotuner.bench import BenchPlan, ProgramCase, SweepOutcome
    from iotuner.store import Record, Store

__all__ = ["add_bench", "add_db", "add_ingest", "add_space"]


def add_space(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser("space", help="list, show or check parameter spaces")
    actions = parser.add_subparsers(title="actions", required=True, metavar="ACTION")
    listing = actions.add_parser("list", help="the spaces shipped with iotuner")
    listing.set_defaults(handler=_space_list)
    show = actions.add_parser("show", help="validate a space (file or shipped name) and show it")
    show.add_argument("space", help="a TOML file or a shipped space's name")
    show.set_defaults(handler=_space_show)
    check = actions.add_parser(
        "check",
        help="validate a space file and print the verdict",
        description="Read a parameter space (TOML file or shipped name) as bench, search and "
        "train do; print whether it is valid and how many configurations it has, or the "
        "first thing wrong with it. Exit status 1 when it is not valid.",
    )
    check.add_argument("space", help="a TOML file or a shipped space's name")
    check.set_defaults(handler=_space_check)


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
        values = f"{list(p.values)}"
        if p.range is not None:
            r = p.range
            values = (
                f"{r.low}..{r.high} step {r.step}{' (log)' if r.log else ''}, "
                f"{r.size} points; listed {values}"
            )
        print(f"  {p.kind} {p.name}: {values}, default {p.default!r}{extra}")
    return 0


def _space_check(args: argparse.Namespace) -> int:
    from iotuner.space import SpaceError, load_space

    try:
        space = load_space(args.space)
    except SpaceError as exc:
        message = str(exc).removeprefix(f"{args.space}: ")
        print(f"{args.space}: not valid: {message}")
        return 1
    ranges = sum(p.range is not None for p in space.parameters)
    print(
        f"{args.space}: valid, space {space.name}: {len(space.parameters)} parameters, "
        f"{space.size:,} configurations" + (f" ({ranges} given as ranges)" if ranges else "")
    )
    return 0


def add_bench(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "bench",
        help="measure a parameter space on this system (the training benchmark)",
        description=(
            "Sweep workloads (scale, pattern, layout, read/write, size per call) and the "
            "configurations of a parameter space, each repeated, with data synced to "
            "storage. Each measurement opens a file, makes many calls (at least 2, up to "
            "1024, about 64 MiB per rank), syncs and closes it; the bandwidth recorded is "
            "the data's (calls and the sync of a write), open and close are timed apart. "
            "It ends in bounded time with the most useful measurements for that time "
            "(--time-budget, 20 minutes unless told otherwise): first the cases your "
            "programs' logs show (--from-logs), the most I/O time first: each one's default "
            "and a cover of every value, then rounds a model chooses among them and a local "
            "search around each one's best; then every "
            "workload's default and a few "
            "configurations that try every value of each parameter that matters to it, "
            "those nearest the programs' cases first; then the rest of the plan when it fits "
            "in the time left, else rounds a model chooses (where it knows least or expects "
            "most), until no unmeasured configuration may beat its workload's best by more "
            "than the noise between repeats. Results are appended to a results file as they "
            "come; run the same command again to resume, with a fresh budget. They also go "
            "into the knowledge base."
        ),
    )
    add_space_argument(parser)
    parser.add_argument(
        "--dir",
        type=Path,
        required=True,
        help="directory on the file system to measure (its files are removed)",
    )
    parser.add_argument(
        "--results", type=Path, help="results file (default: ./bench-<space>.bench.jsonl)"
    )
    add_db_argument(parser)
    parser.add_argument("--no-db", action="store_true", help="only write the results file")
    parser.add_argument(
        "--from-logs",
        type=Path,
        nargs="+",
        default=[],
        metavar="LOG",
        help="trace logs (*.iotrace.jsonl, from `iotuner run --log-dir`) and Darshan logs "
        "(*.darshan) of your programs, or folders of them: the cases they show (scale, "
        "pattern, layout, read/write, size group) are measured first, the most I/O time "
        "first (their defaults and a cover of every value, then model rounds and a local "
        "search among them)",
    )
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
    parser.add_argument(
        "--time-budget",
        default="20m",
        metavar="DURATION",
        help="measure for at most this long, e.g. 90s, 20m, 1h30m, or none for the whole "
        "plan (default 20m): no measurement starts that the pace so far says cannot end "
        "in time, and the output says why it stopped and how much of the plan is measured",
    )
    parser.add_argument(
        "--measurement-limit",
        metavar="DURATION",
        help="with a time budget, the longest one measurement may take (default: 5 %% of "
        "the budget, at least 10s): a workload whose measurement is estimated or found to "
        "take longer is left out of the run, said so, and the budget goes elsewhere",
    )
    parser.set_defaults(handler=_bench)


def _bench(args: argparse.Namespace) -> int:
    from iotuner._load import warn_if_busy
    from iotuner.bench import (
        BenchPlan,
        parse_layout,
        parse_size,
        plan_sizes,
        repair_results,
        resume_estimate,
        run_sweep,
        sweep_cases,
    )
    from iotuner.measurement import OPS, PATTERNS
    from iotuner.space import load_space

    started = time.monotonic()  # the time budget counts from here
    # Every option is checked before the plan is printed: a plan followed by an error
    # reads as if measuring had begun.
    _check_data_dir(args.dir)
    space = load_space(args.space)
    try:
        nprocs = [int(n) for n in comma_separated(args.nprocs, what="--nprocs")]
    except ValueError:
        raise ConfigError(
            f"--nprocs must be comma-separated integers, got {args.nprocs!r}"
        ) from None
    layouts = [parse_layout(text) for text in comma_separated(args.layouts, what="--layouts")]
    open_bytes = parse_size(args.open_size)
    budget, limit = _time_budget(args)
    sizes, why = plan_sizes(args.sizes, args.max_size, args.dir, nprocs, layouts, open_bytes)
    cases, left_out = sweep_cases(args.from_logs, nprocs, layouts, open_bytes)
    plan = BenchPlan(
        space=space,
        nprocs=nprocs,
        patterns=comma_separated(args.patterns, PATTERNS, "--patterns"),
        layouts=layouts,
        ops=comma_separated(args.ops, OPS, "--ops"),
        sizes=sizes,
        repeats=args.repeats,
        max_configs=args.max_configs,
        seed=args.seed,
        open_bytes=open_bytes,
        cases=[case.workload for case in cases],
    )
    results = args.results or Path(f"bench-{space.name}.bench.jsonl")
    if not results.parent.is_dir():
        raise ConfigError(f"the folder of the results file {results} does not exist")
    store = None if args.no_db else store_from_args(args)
    console = terminal()
    _print_plan(console, plan, why, cases, left_out, results)
    repaired = repair_results(results)
    if repaired:
        console.print(repaired)
    console.print(_budget_text(budget, *resume_estimate(plan, results), plan.measurements()))
    after = None if store is None else _store_as_measured(console, store, results)
    warn_if_busy()
    outcome = run_sweep(
        plan, args.dir, results, console, after, budget=budget, since=started, limit=limit
    )
    _print_outcome(console, outcome, results)
    return 0 if store is None else _check_stored(console, store, results)


def _time_budget(args: argparse.Namespace) -> tuple[float | None, float | None]:
    """--time-budget and --measurement-limit in seconds (None: not given)."""
    from iotuner.bench import parse_duration

    budget = parse_duration(args.time_budget, "--time-budget")
    limit = (
        None
        if args.measurement_limit is None
        else parse_duration(args.measurement_limit, "--measurement-limit")
    )
    if limit is not None and budget is None:
        raise ConfigError("--measurement-limit needs a --time-budget (it is a share of one)")
    return budget, limit


def _print_plan(
    console: "Console",
    plan: "BenchPlan",
    why: str,
    cases: "list[ProgramCase]",
    left_out: list[str],
    results: Path,
) -> None:
    """The plan before measuring: sizes, the programs' cases first, what it measures."""
    console.print(f"{why}; size per call x calls per open: {plan.calls_text()}")
    if cases:
        console.print(
            f"the programs' logs show {len(cases)} case(s), measured first, the most I/O "
            f"time first:"
        )
        for number, case in enumerate(cases, start=1):
            console.print(f"  {number}. {case.describe()}", markup=False, highlight=False)
    for sentence in left_out:
        console.print(f"  {sentence}", markup=False, highlight=False)
    console.print(
        f"{len(plan.workloads)} workloads, {plan.measurements():,} measurements "
        f"(space {plan.space.name}, {plan.repeats} repeats), "
        f"{plan.data_bytes() / (1 << 30):,.1f} GiB of data; results: {results}"
    )


def _store_as_measured(
    console: "Console", store: "Store", results: Path
) -> "Callable[[list[Record]], object]":
    """Store what `results` holds and the knowledge base lacks (said), and return what
    stores each job's measurements as it ends."""
    from iotuner.bench import store_unstored
    from iotuner.ingest import ingest_bench_records

    recovered = store_unstored(store, results)
    if recovered:
        console.print(
            f"knowledge base {store.url}: stored {recovered:,} measurements of {results} "
            f"it did not hold (measured by a run that was killed before storing them)"
        )
    return lambda records: ingest_bench_records(store, results, records)


def _print_outcome(console: "Console", outcome: "SweepOutcome", results: Path) -> None:
    """Why the sweep stopped, what it left out, and how much of the plan is measured."""
    from iotuner.bench import STOP_BUDGET, duration_text

    console.print(
        f"stopped after {outcome.rounds} round(s) and {duration_text(outcome.seconds)}: "
        f"{outcome.reason}"
    )
    for key, why in outcome.too_costly:
        console.print(f"left out of this run: {key}: {why}")
    share = outcome.measured / outcome.planned if outcome.planned else 1.0
    console.print(
        f"{outcome.measured:,} of {outcome.planned:,} planned measurements are in {results} "
        f"({share:.0%})"
        + ("; run the same command again to go on" if outcome.stop == STOP_BUDGET else "")
    )
    console.print(f"{outcome.added} new measurements in {results}")


def _check_stored(console: "Console", store: "Store", results: Path) -> int:
    """Whether the knowledge base holds every measurement of `results`: said, and the
    exit status (ERROR_STATUS when it lacks some)."""
    from iotuner.bench import unstored_count

    in_results, missing = unstored_count(store, results)
    if missing:
        print_error(
            f"the knowledge base {store.url} lacks {missing:,} of the {in_results:,} "
            f"measurements in {results}; `iotuner ingest {results}` with the same --db "
            f"stores them"
        )
        return ERROR_STATUS
    console.print(f"knowledge base {store.url}: holds all {in_results:,} measurements of {results}")
    return 0


def _budget_text(budget: float | None, measured: int, rest: float | None, planned: int) -> str:
    """What the time budget means for this plan, before measuring: with measurements in
    the results file already, what the rest takes at their pace."""
    from iotuner.bench import duration_text

    limit = (
        "no time budget: the whole plan is measured"
        if budget is None
        else f"time budget {duration_text(budget)}"
    )
    if not measured or rest is None:
        return f"{limit}; the time it takes is estimated after the first measurements"
    done = f"{measured:,} of {planned:,} measured already"
    if measured >= planned:
        return f"{limit}; {done}: nothing left to measure"
    takes = f"at their pace the rest takes about {duration_text(rest)}"
    if budget is None or rest <= budget:
        return f"{limit}; {done}; {takes}"
    return f"{limit}; {done}; {takes}, more than the budget: what tells most comes first"


def _check_data_dir(data_dir: Path) -> None:
    """A ConfigError unless `data_dir` is a directory bench can make its files in."""
    if not data_dir.exists():
        raise ConfigError(f"the data directory {data_dir} does not exist (--dir)")
    if not data_dir.is_dir():
        raise ConfigError(f"the data directory {data_dir} is not a directory (--dir)")
    if not os.access(data_dir, os.W_OK | os.X_OK):
        raise ConfigError(f"the data directory {data_dir} is not writable (--dir)")


def add_ingest(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "ingest",
        help="import trace logs, bench results, CSV files and Darshan logs into the knowledge base",
        description="Import measurements into the knowledge base: trace logs "
        "(*.iotrace.jsonl), bench results (*.bench.jsonl), CSV files read through a "
        "column mapping (its format: python -m pydoc iotuner.ingest) and Darshan logs "
        "(*.darshan; python -m pydoc iotuner.ingest._darshan). A folder stands for the "
        "trace logs, bench results and Darshan logs directly inside (with --kind, the "
        "files of that kind). Each file is added whole or not at all; what is stored "
        "already is skipped, so ingesting a file again adds nothing.",
    )
    add_db_argument(parser)
    parser.add_argument("--kind", choices=INGEST_KINDS, help="kind of the files (default: guessed)")
    parser.add_argument(
        "--mapping",
        type=Path,
        help="CSV column mapping (.toml or .json): [columns] field = CSV column; [computed] "
        'field = arithmetic over columns, e.g. bytes_per_rank = "total_bytes / np" '
        "(+ - * / // and parentheses); the whole format: python -m pydoc iotuner.ingest._csv",
    )
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
    parser.add_argument(
        "--darshan-config",
        metavar="CONFIG",
        help="Darshan logs: the configuration the job ran with, `default` (the system's "
        "defaults) or key=value,... (MPI-IO hints); with it the log's file groups are "
        "stored as measurements, without it as workloads only (Darshan records no hints)",
    )
    parser.add_argument(
        "--darshan-nodes",
        type=int,
        metavar="N",
        help="Darshan logs: the nodes the job ran on (not in the log; needed with "
        "--darshan-config for a job of more than one rank)",
    )
    parser.add_argument("paths", type=Path, nargs="+", metavar="PATH", help="files or folders")
    parser.set_defaults(handler=_ingest)


def darshan_config(text: str | None) -> dict[str, str] | None:
    """The configuration --darshan-config names: None when not given, {} for `default`,
    else the key=value pairs."""
    if text is None:
        return None
    if text.strip() == "default":
        return {}
    config: dict[str, str] = {}
    for item in comma_separated(text, what="--darshan-config"):
        key, sep, value = item.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise ConfigError(
                f"--darshan-config must be `default` or key=value,..., got {item!r} in {text!r}"
            )
        config[key.strip()] = value.strip()
    return config


def _ingest(args: argparse.Namespace) -> int:
    from iotuner._progress import progress_bar
    from iotuner.ingest import IngestError, ingest_file, input_files, load_mapping
    from iotuner.measurement import System

    mapping = load_mapping(args.mapping) if args.mapping else None
    config = darshan_config(args.darshan_config)
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
    warn_about_leftovers(args.paths)
    files = input_files(args.paths, args.kind)
    if not files:
        wanted = f"{args.kind} files" if args.kind else "trace logs, bench results or Darshan logs"
        raise IngestError(f"no {wanted} in {', '.join(map(str, args.paths))}")
    status = 0
    # A bar only for many files, and only while it runs: in a log, the line per file
    # below is the record of the progress.
    bar = progress_bar(terminal(stderr=True), transient=True)
    live = len(files) > 1 and bar.console.is_terminal
    with store_from_args(args) as store, bar if live else contextlib.nullcontext():
        task = bar.add_task("ingest", total=len(files))
        for path in files:
            bar.update(task, description=f"ingest {path.name}")
            try:
                result = ingest_file(
                    store,
                    path,
                    args.kind,
                    mapping,
                    system,
                    darshan_config=config,
                    nodes=args.darshan_nodes,
                )
            except IotunerError as exc:
                print_error(str(exc))
                status = ERROR_STATUS
                continue
            finally:
                bar.advance(task)
            ignored = f", ignored {result.ignored} (no duration)" if result.ignored else ""
            what = ""
            if result.kind == "darshan":
                what = " workloads" if config is None else " measurements"
            print(
                printable(
                    f"{path}: {result.kind}: read {result.read}, added {result.added}{what}, "
                    f"skipped {result.skipped} (already stored){ignored}"
                )
            )
            if result.detail:
                print(f"  {printable(result.detail)}")
    return status


def add_db(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser("db", help="look after the knowledge base")
    actions = parser.add_subparsers(title="actions", required=True, metavar="ACTION")
    status = actions.add_parser(
        "status",
        help="count what the knowledge base holds",
        description="Print where the knowledge base is, its rows per table, and its "
        "systems with their measurements per kind of run.",
    )
    add_db_argument(status)
    status.set_defaults(handler=_db_status)


def _db_status(args: argparse.Namespace) -> int:
    from iotuner.store import SCHEMA_VERSION
    from iotuner.summary import mpi_name

    with store_from_args(args) as store:
        counts = store.counts()
        per_system = store.measurement_counts()
        systems = store.systems()
        print(f"knowledge base: {store.url} (schema {SCHEMA_VERSION})")
        print("  " + ", ".join(f"{table}: {n}" for table, n in counts.items()))
        workloads = store.workload_count()
        if workloads:
            print(f"  workloads without a configuration (Darshan logs): {workloads}")
        for system in systems:
            kinds = {k: n for (fp, k), n in sorted(per_system.items()) if fp == system.fingerprint}
            by_kind = ", ".join(f"{k} {n}" for k, n in kinds.items()) or "none"
            mpi = mpi_name(system.mpi_library)
            # Two short lines: one of ~110 characters broke inside a word at 80 columns.
            print(printable(f"  system {system.fingerprint}: host {system.host}, {mpi}"))
            print(
                printable(
                    f"    {system.fs_type} at {system.fs_mount} (driver {system.fs_driver}); "
                    f"measurements: {by_kind}"
                )
            )
    return 0
