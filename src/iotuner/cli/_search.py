"""The search command: find good settings for a program by running it under the
interposer with configurations a strategy picks, or by replaying a table of measured
results; the winner can go into the knowledge base and a tuning table."""

import argparse
import json
import math
from pathlib import Path
from typing import TYPE_CHECKING

from iotuner._choices import STRATEGIES
from iotuner._printable import markup_safe, terminal
from iotuner.cli._common import (
    Subparsers,
    add_db_argument,
    comma_separated,
    command_after_dashes,
    store_from_args,
)
from iotuner.errors import ConfigError

if TYPE_CHECKING:
    from rich.console import Console

    from iotuner.models import TrainedModel
    from iotuner.search import Launcher, Objective, SearchResult, SearchSettings

__all__ = ["add_search"]

DEFAULT_SPACE = "romio-ufs"
"""The space a search that runs the program measures when --space is not given."""
DEFAULT_STORAGE = "iotuner-search.db"
"""Where a search that runs the program keeps its study when --storage is not given (runs
are dear: the study is kept so the same command resumes it); an offline search answers
in a second and runs in memory unless --storage is given."""
DEFAULT_MODEL = Path("iotuner-model")
"""Where --strategy model looks for a model without --model (`iotuner train`'s default)."""


def add_search(subparsers: Subparsers) -> None:
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
    parser.add_argument(
        "--space",
        help=f"TOML file or shipped space name (default {DEFAULT_SPACE}; offline: its "
        "parameters that are columns of the table are the configuration columns)",
    )
    parser.add_argument(
        "--strategy",
        choices=STRATEGIES,
        default="ga",
        help="ga (the dissertation's GA, default), random, grid, tpe, gp, model",
    )
    parser.add_argument(
        "--budget",
        type=int,
        help="trials to measure, at most the configurations there are (each is measured "
        "once; default: ga 300, grid all, others 50, capped at the configurations)",
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
        help="offline: configuration columns, comma-separated (default: the columns --space "
        "names; without --space every column but the value, the filters and the measured "
        "outputs, by their names (times *_s, volumes *_GB, *_MB, *_bytes, bandwidths) or "
        "cells: the report says which were taken)",
    )
    parser.add_argument(
        "--filter",
        action="append",
        default=[],
        metavar="COLUMN=VALUE[,...]",
        help="offline: keep the rows of one problem or scale; several conditions separated "
        "by commas or --filter repeated, all must hold (e.g. nprocs=64,op=write)",
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
        help=f"Optuna storage: SQLite file or RDB URL (default ./{DEFAULT_STORAGE} when the "
        "program runs; an offline search runs in memory unless given)",
    )
    parser.add_argument("--study", help="study name (default: from command, space, strategy)")
    parser.add_argument(
        "--seed",
        type=int,
        help="seed of the strategy (part of the default study name: another seed is another study)",
    )
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
    parser.add_argument(
        "--trial-time-limit",
        metavar="TIME",
        help="wall time a trial may take: seconds, or 30s, 5m, 1h, MM:SS, HH:MM:SS; the "
        "local timeout, and Slurm's --time (rounded up to minutes) with --launcher slurm",
    )
    parser.add_argument(
        "--budget-core-hours",
        metavar="H",
        help="stop before a trial that would take the study past H core-hours (ranks x "
        "wall time of each trial, summed; the longest trial so far is the estimate)",
    )
    parser.add_argument(
        "--launcher",
        choices=("local", "slurm"),
        default="local",
        help="local: run the command as given (default); slurm: each trial as a Slurm job "
        "step, with srun inside an allocation, else one sbatch job each (the command is the "
        "program, with --nprocs, or `mpiexec -n N PROGRAM ...`, whose mpiexec is dropped)",
    )
    parser.add_argument(
        "--nprocs", type=int, help="slurm: ranks of each trial (default: the -n of mpiexec, or 1)"
    )
    parser.add_argument(
        "--slurm-via",
        choices=("srun", "sbatch"),
        help="slurm: srun (steps of the allocation the search runs in) or sbatch (a job per "
        "trial); default srun inside an allocation, sbatch outside",
    )
    parser.add_argument(
        "--slurm-option",
        action="append",
        default=[],
        metavar="OPTION",
        help="slurm: an option for sbatch or srun, e.g. --slurm-option=--partition=debug "
        "(repeatable)",
    )
    parser.add_argument(
        "--model",
        type=Path,
        metavar="DIR",
        help=f"model strategy: a trained model's directory (default ./{DEFAULT_MODEL})",
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help="print the result as one JSON object on stdout (the report goes to stderr)",
    )
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
    add_db_argument(parser)
    parser.add_argument(
        "--no-db", action="store_true", help="keep the trials out of the knowledge base"
    )
    parser.add_argument("command", nargs=argparse.REMAINDER, help="e.g. mpiexec -n 4 ./app")
    parser.set_defaults(handler=_search)


def _search(args: argparse.Namespace) -> int:
    from iotuner.models import load_model
    from iotuner.search import print_result, result_record, trial_logs

    command = command_after_dashes(args)
    offline = args.objective.endswith(".csv") or Path(args.objective).is_file()
    objective = _objective(args, command, offline)
    predictor = load_model(_model_dir(args)) if args.strategy == "model" else None
    result = _run_with_progress(args, objective, _settings(args, offline), predictor)
    # With --json, stdout holds the JSON alone: the report goes to stderr.
    report = terminal(stderr=args.json)
    print_result(result, report)
    record = result_record(result)
    logs, unrecorded = trial_logs(result)
    if (logs or unrecorded) and not args.no_db:
        record["knowledge_base"] = _store_logs(args, logs, unrecorded, report)
    if args.table is not None and result.winner is not None:
        record["table"] = _merge_table(args.table, result, logs, report)
    if args.json:
        print(json.dumps(record, indent=2, allow_nan=False))
    return 0 if result.best is not None else 1


def _objective(args: argparse.Namespace, command: list[str], offline: bool) -> "Objective":
    """What the search measures: a table of measured results (offline), else the run."""
    from iotuner.search import (
        OfflineObjective,
        OfflineTable,
        RunObjective,
        parse_filters,
        parse_measure,
    )
    from iotuner.space import load_space

    direction = "maximize" if args.maximize else "minimize" if args.minimize else None
    if offline:
        if command:
            raise ConfigError("an offline objective (a CSV table) runs nothing: drop the command")
        table = OfflineTable(
            args.objective,
            value_column=args.value_column,
            param_columns=comma_separated(args.param_columns, what="--param-columns")
            if args.param_columns
            else None,
            filters=parse_filters(args.filter),
            space=load_space(args.space) if args.space else None,
        )
        return OfflineObjective(table, direction or "maximize")
    measure, pattern = parse_measure(args.objective)
    limit = _time_limit(args)
    return RunObjective(
        command,
        load_space(args.space or DEFAULT_SPACE),
        measure=measure,
        pattern=pattern,
        direction=direction,
        log_dir=args.log_dir,
        timeout=limit,
        launcher=_launcher(args, limit),
    )


def _settings(args: argparse.Namespace, offline: bool) -> "SearchSettings":
    from iotuner.search import SearchSettings, StrategyOptions, storage_url

    storage = args.storage or (None if offline else DEFAULT_STORAGE)
    return SearchSettings(
        strategy=args.strategy,
        budget=args.budget,
        storage=storage_url(storage) if storage is not None else None,
        study=args.study,
        seed=args.seed,
        parallel=args.parallel,
        repeats=args.repeats,
        top=args.top,
        target_fraction=args.target_fraction,
        trace=tuple(args.trace),
        all_parameters=args.all_parameters,
        core_hours=_core_hours(args.budget_core_hours),
        options=StrategyOptions(
            population=args.population, generations=args.generations, mutation=args.mutation
        ),
    )


def _run_with_progress(
    args: argparse.Namespace,
    objective: "Objective",
    settings: "SearchSettings",
    predictor: "TrainedModel | None",
) -> "SearchResult":
    """run_search with a progress bar on stderr: the best so far, the trials left, the
    failed ones and the search's own eta (from its trials' times and --parallel)."""
    from rich.progress import TextColumn
    from rich.table import Column

    from iotuner._progress import progress_bar
    from iotuner.search import SearchProgress, parse_workload, run_search

    console = terminal(stderr=True)
    status = TextColumn("{task.fields[status]}", table_column=Column(overflow="fold"))
    with progress_bar(console, status, eta=False, transient=False) as progress:
        task = progress.add_task("search", total=None, status="")

        def show(p: SearchProgress) -> None:
            best = f"best {p.best:.4g}" if p.best is not None else "no value yet"
            eta = f", eta {p.eta:.0f} s" if p.eta is not None else ""
            status = f"{best}, {p.budget - p.done} left, {p.failed} failed{eta}"
            progress.update(task, total=p.budget, completed=p.done, status=status)

        return run_search(
            objective,
            settings,
            predictor=predictor,
            workload=parse_workload(args.workload) if args.workload else None,
            on_progress=show,
        )


def _store_logs(
    args: argparse.Namespace, logs: list[Path], unrecorded: list[Path], report: "Console"
) -> dict[str, object]:
    """Store the trials' logs in the knowledge base --db names, say so, and return the
    record's knowledge_base entry."""
    from iotuner.search import store_trial_logs

    store = store_from_args(args)
    stored = store_trial_logs(store, logs, unrecorded)
    report.print(
        f"knowledge base {store.url}: {stored.added} measurements from {len(logs)} trial logs"
    )
    if unrecorded:
        report.print(
            markup_safe(
                f"  and {stored.recovered} from {len(unrecorded) - len(stored.refused)} log(s) "
                "of trials an earlier search ran and was killed before it recorded"
                + "".join(f"\n  not stored: {words}" for words in stored.refused)
            )
        )
    entry: dict[str, object] = {"url": str(store.url), "added": stored.added + stored.recovered}
    store.close()
    return entry


def _merge_table(
    table: Path, result: "SearchResult", logs: list[Path], report: "Console"
) -> dict[str, object]:
    """Merge the winner into the tuning table --table names, say so, and return the
    record's table entry."""
    from iotuner.search import table_winner

    entries = table_winner(table, result, logs)
    if entries:
        report.print(
            markup_safe(
                f"{table}: {entries[0].program} x{entries[0].nprocs}: "
                f"{entries[0].hints} at open, kept at set_view and collective access "
                f"({len(entries)} entries)"
            )
        )
    else:
        report.print(
            markup_safe(
                f"{table}: left as it was (the winner sets no hint: nothing better "
                "than the default was found)"
            )
        )
    return {"path": str(table), "entries": [e.to_json() for e in entries]}


def _time_limit(args: argparse.Namespace) -> float | None:
    """The trial's wall limit in seconds, from --trial-time-limit or --timeout (not both)."""
    if args.trial_time_limit is None:
        return args.timeout  # type: ignore[no-any-return]
    if args.timeout is not None:
        raise ConfigError("--timeout and --trial-time-limit are the same limit: give one")
    return parse_duration(args.trial_time_limit, "--trial-time-limit")


def parse_duration(text: str, what: str) -> float:
    """Seconds of `text`: a number of seconds, N with s/m/h, MM:SS or HH:MM:SS (> 0)."""
    units = {"s": 1, "m": 60, "h": 3600}
    value = text.strip().lower()
    try:
        if ":" in value:
            seconds = 0.0
            parts = value.split(":")
            if len(parts) > 3:
                raise ValueError
            for part in parts:
                seconds = seconds * 60 + float(part)
        elif value[-1:] in units:
            seconds = float(value[:-1]) * units[value[-1]]
        else:
            seconds = float(value)
    except ValueError:
        seconds = -1.0
    if not (seconds > 0 and math.isfinite(seconds)):
        raise ConfigError(
            f"{what} must be a positive time: seconds, or 30s, 5m, 1h, MM:SS, HH:MM:SS; "
            f"got {text!r}"
        )
    return seconds


def _core_hours(text: str | None) -> float | None:
    if text is None:
        return None
    try:
        hours = float(text)
    except ValueError:
        hours = -1.0
    if not (hours > 0 and math.isfinite(hours)):
        raise ConfigError(f"--budget-core-hours must be a positive number of hours, got {text!r}")
    return hours


def _launcher(args: argparse.Namespace, limit: float | None) -> "Launcher":
    from iotuner.search import LocalLauncher, SlurmLauncher

    if args.launcher == "local":
        slurm_only = [
            name
            for name, given in (
                ("--nprocs", args.nprocs is not None),
                ("--slurm-via", args.slurm_via is not None),
                ("--slurm-option", bool(args.slurm_option)),
            )
            if given
        ]
        if slurm_only:
            raise ConfigError(
                f"{', '.join(slurm_only)} are for --launcher slurm (the local launcher runs "
                "the command as given: put the ranks in its mpiexec -n)"
            )
        return LocalLauncher()
    launcher = SlurmLauncher(
        args.nprocs, time_limit=limit, options=args.slurm_option, via=args.slurm_via
    )
    launcher.check()
    return launcher


def _model_dir(args: argparse.Namespace) -> Path:
    """The model --strategy model uses: --model, else ./iotuner-model; ConfigError naming
    where it looked and how to give one when there is none (never a search without it)."""
    model: Path = args.model if args.model is not None else DEFAULT_MODEL
    if not model.exists():  # one that exists but holds no model: load_model says why
        looked = model.absolute()
        given = "--model names" if args.model is not None else "without --model it looks in"
        raise ConfigError(
            f"--strategy model needs a trained model: no model in {looked} ({given} that "
            "directory); give the directory `iotuner train -o DIR` wrote with --model DIR, "
            "or train one (iotuner train -o DIR)"
        )
    return model
