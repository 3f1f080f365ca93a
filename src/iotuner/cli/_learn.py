"""Commands that turn measurements into tuning tables and check them: train, tune and
analyze, which learn from the knowledge base, and table check and table derive."""

import argparse
import contextlib
import json
import sys
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

from iotuner._printable import printable, terminal
from iotuner.cli._common import Subparsers, add_learning_source, store_from_args
from iotuner.errors import ConfigError

if TYPE_CHECKING:
    from iotuner.learn import TrainingData
    from iotuner.measurement import System
    from iotuner.tune import TuneResult

__all__ = ["add_analyze", "add_table", "add_train", "add_tune"]


def add_table(subparsers: Subparsers) -> None:
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
        print(printable(f"{args.table}: refused ({rule}): {message}"))
        print("  the interposer would run the program untuned")
        return 1
    entries = checked.entries
    counts = Counter(e.at for e in entries)
    (decision_points,) = (f.choices for f in table_fields() if f.name == "at")
    verdict = "valid" if not checked.dropped else f"{len(checked.dropped)} lines dropped"
    print(f"{printable(args.table)}: {verdict}, {len(entries)} entries")
    if checked.fs_type is not None:
        print(
            printable(f"  measured on {checked.fs_type}: files on other file systems stay untuned")
        )
    for at in decision_points:
        print(f"  at {at}: {counts[at]}")
    for dropped in checked.dropped:
        print(printable(f"  line {dropped.line} dropped ({dropped.rule}): {dropped.message}"))
    return 0 if not checked.dropped else 1


def _table_derive(args: argparse.Namespace) -> int:
    from iotuner.history import derive_open_entries, merge_tables, program_coverage, read_logs
    from iotuner.table import read_table, table_fs_type, write_table

    table = read_table(args.table)
    logs = read_logs(args.logs)
    derived = derive_open_entries(logs, table)
    merged = merge_tables(derived, table)
    # The table's file system stays its own: derive adds entries, it measures nothing.
    write_table(args.output, merged, fs_type=table_fs_type(args.table))
    print(
        f"{printable(args.output)}: {len(derived)} open entries from trace history, "
        f"{len(table)} kept"
    )
    for entry in derived:
        print(
            printable(
                f"  {entry.program} {entry.file} x{entry.nprocs}: {entry.hints} ({entry.note})"
            )
        )
    # What the table will do to each traced program, last (the README's path ends here).
    for line in program_coverage(logs, merged):
        print(printable(line))
    return 0


def _training_data(args: argparse.Namespace) -> "TrainingData":
    from iotuner._tables import say
    from iotuner.learn import training_data

    data = training_data(
        store_from_args(args), system=args.system, space=args.space, kind=args.kind
    )
    say(
        f"learning from {len(data.frame)} summarised cases of system "
        f"{data.system.fingerprint} ({data.system.host}, {data.system.fs_type}), space "
        f"{data.space.name}"
        + (f"; {data.dropped_rows} rows of other parameters left out" if data.dropped_rows else "")
    )
    return data


def add_train(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "train",
        help="compare performance models on the knowledge base and save the chosen one",
        description=(
            "Compare a random forest (the thesis' baseline), a decision tree, SVR, an MLP and "
            "gradient boosting (and models trained on bandwidth relative to the workload) over "
            "70/30 splits and leave-one-group-out, judge them on held-out workloads (iotuner "
            "evaluate's figures) beside two baselines (the forest and the best configuration "
            "on average), save the one with the best zero-trial pick that picks at least as "
            "well as both (the better baseline when none does), preferring the stable one, "
            "and print a summary: each model's pick and MAPE, the choice and why. With "
            "--verbose: every figure, and Kunkel et al.'s decision trees and how their choice "
            "compares with the default and the best."
        ),
    )
    add_learning_source(parser)
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
    parser.add_argument(
        "--verbose",
        action="store_true",
        help="every figure: each scheme's metrics, the held-out workloads' figures and "
        "Kunkel et al.'s decision-tree rules (without it: a summary)",
    )
    parser.add_argument(
        "--no-rules", action="store_true", help="with --verbose: skip the decision-tree rules"
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help="the comparison, the figures and the choice as one JSON object (no rules)",
    )
    parser.set_defaults(handler=_train)


def _train(args: argparse.Namespace) -> int:
    from iotuner._progress import steps_bar
    from iotuner.cli._evaluate import print_evaluation
    from iotuner.models import (
        kunkel_report,
        render_kunkel,
        render_train_report,
        render_train_summary,
        train_command,
    )

    # With --json, stdout holds the JSON object alone; what train says goes to stderr.
    console = terminal(stderr=args.json)
    with contextlib.redirect_stdout(sys.stderr if args.json else sys.stdout):
        data = _training_data(args)
    with steps_bar(terminal(stderr=True), "train") as steps:
        report = train_command(
            data.frame,
            data.space,
            args.output,
            target=args.target,
            seeds=args.seeds,
            quick=args.quick,
            progress=steps,
            system=data.system,
        )
    if args.json:
        print(json.dumps(report.to_dict(), indent=2, allow_nan=False))
        return 0
    if not args.verbose:
        render_train_summary(report, console)
        return 0
    render_train_report(report, console)
    if report.evaluation is not None:
        print_evaluation(report.evaluation, console, chosen=report.chosen)
    if not args.no_rules:
        render_kunkel(kunkel_report(data.frame, data.space), console)
    return 0


def add_tune(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "tune",
        help="write a tuning table from a trained model",
        description=(
            "Predict every configuration for each scale, size group, pattern, read/write and "
            "layout the training data covers; keep the configuration with the best lower "
            "quantile, or the default when nothing beats it by more than the noise. A space "
            "of more than 20,000 configurations (ranges) is optimised over the model instead "
            "of enumerated; which method runs, and why, is said first."
        ),
    )
    add_learning_source(parser)
    parser.add_argument(
        "--model",
        type=Path,
        default=Path("iotuner-model"),
        help="model directory from `iotuner train` (default ./iotuner-model)",
    )
    parser.add_argument("-o", "--output", type=Path, required=True, help="tuning table to write")
    parser.add_argument(
        "--seed", type=int, default=0, help="seed of the optimisation over a large space"
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help="the entries written, each case's choice with its predicted gain and interval, "
        "and the method, as one JSON object on stdout",
    )
    parser.set_defaults(handler=_tune)


def _tune(args: argparse.Namespace) -> int:
    import contextlib as _contextlib
    import sys as _sys

    from iotuner._tables import say
    from iotuner.models import load_model
    from iotuner.table import write_table
    from iotuner.tune import render_choices, tune, tune_method

    # With --json, stdout holds the JSON object alone; what tune says goes to stderr.
    with _contextlib.redirect_stdout(_sys.stderr if args.json else _sys.stdout):
        # The model first: a missing one is said at once, not after reading the knowledge base.
        model = load_model(args.model)
        data = _training_data(args)
        _same_system(args.model, model.metadata, data.system)
        method, why = tune_method(data.space)
        say(f"tune: {method}: {why}")
    result = tune(model, data.space, data.frame, seed=args.seed, progress=terminal(stderr=True))
    # The file system the measurements were made on: the interposer leaves files on others
    # untuned (formats/README.md, "Tuning table").
    write_table(args.output, result.entries, fs_type=data.system.fs_type)
    if args.json:
        print(json.dumps(_tune_json(args.output, result), indent=2, allow_nan=False))
        return 0
    changed = [c for c in result.choices if not c.kept_default]
    at = Counter(e.at for e in result.entries)
    say(
        f"{args.output}: {len(result.entries)} entries ({at['open']} at open, {at['view']} at "
        f"view, {at['access']} at access); {len(changed)} of {len(result.choices)} cases differ "
        f"from the default (noise {result.noise:.0%}; {result.evidence_rule}); "
        f"{result.predicted_rows:,} rows predicted"
    )
    if result.scales_left_out:
        ranks = ", ".join(map(str, result.scales_left_out))
        say(
            f"left out: jobs of {ranks} rank(s): the knowledge base compares no configurations "
            "at that scale (only runs in one configuration, such as a program's traced "
            "runs), so no entry is written for it"
        )
    render_choices(result, terminal())
    return 0


def _same_system(path: Path, metadata: dict[str, Any], system: "System") -> None:
    """ConfigError when the model learned on another system than the one tune writes a
    table for: its order and interval were never checked there, so a table for that
    system would rest on nothing measured on it."""
    learned = metadata.get("systems")
    if not isinstance(learned, list) or not learned or system.fingerprint in learned:
        return
    described = metadata.get("system")
    words = (
        f"{described.get('fs_type')} (host {described.get('host')})"
        if isinstance(described, dict)
        else "another system"
    )
    raise ConfigError(
        f"{path}: the model learned on {words}, system {', '.join(map(str, learned))}; the "
        f"table is for system {system.fingerprint} ({system.fs_type}, host {system.host}), "
        "which it never saw. Train a model on that system's measurements (iotuner train "
        f"--system {system.fingerprint}) and tune with it"
    )


def _tune_json(output: Path, result: "TuneResult") -> dict[str, object]:
    """What `tune --json` prints: the table written, how, and every case's choice."""
    return {
        "table": str(output),
        "method": result.method,
        "method_reason": result.method_reason,
        "predicted_rows": result.predicted_rows,
        "noise": result.noise,
        "entries": [e.to_json() for e in result.entries],
        "cases": [
            {
                "nprocs": c.nprocs,
                "group": c.group,
                "pattern": c.pattern,
                "op": c.op,
                "layout": c.layout,
                "config": c.config,
                "hints": c.hints,
                "kept_default": c.kept_default,
                "predicted": c.predicted,
                "interval": [c.low, c.high],
                "default_predicted": c.default_predicted,
                # The gain the entry rests on and its interval, the point inside it
                # (measured or calibrated; None where only the model's ratio is known).
                "gain": c.gain,
                "gain_interval": list(c.gain_interval) if c.gain_interval else None,
                "gain_basis": c.gain_basis,
                "extrapolated_doublings": c.extrapolated,
                "reason": c.reason,
            }
            for c in result.choices
        ],
    }


def add_analyze(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "analyze",
        help="find configurations that are consistently good or bad (SCTuner)",
        description=(
            "Normalise every case to the best configuration of its workload, summarise each "
            "configuration by five numbers, cluster them (Ward, Euclidean) and name the "
            "consistently good and consistently bad ones."
        ),
    )
    add_learning_source(parser)
    parser.add_argument("--stat", default="bw_median", choices=("bw_min", "bw_median"))
    parser.add_argument("--limit", type=int, default=20, help="configurations to list")
    parser.set_defaults(handler=_analyze)


def _analyze(args: argparse.Namespace) -> int:
    from iotuner.models import analyze, render_analyze

    data = _training_data(args)
    render_analyze(analyze(data.frame, data.space, stat=args.stat), terminal(), limit=args.limit)
    return 0
