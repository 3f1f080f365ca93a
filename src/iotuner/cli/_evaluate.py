"""Commands that judge and ask a model: evaluate (leave-one-workload-out and
leave-one-program-out on the knowledge base, iotuner.models._evaluate) and predict (a saved
model's bandwidth for one workload, every configuration ranked or one given)."""

import argparse
import json
import math
from pathlib import Path
from typing import TYPE_CHECKING, Any

from iotuner._printable import terminal
from iotuner.cli._common import (
    Subparsers,
    add_learning_source,
    comma_separated,
    store_from_args,
)
from iotuner.errors import ConfigError
from iotuner.gains import earned_gain

if TYPE_CHECKING:
    from rich.console import Console

    from iotuner.models import Evaluation, Figures, Prediction, SchemeResult

__all__ = ["add_evaluate", "add_predict", "print_evaluation"]


def add_evaluate(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "evaluate",
        help="judge performance models on workloads and programs they have not seen",
        description=(
            "Hold out each workload (all its configurations) and, when the knowledge base "
            "names two or more programs, each program; train on the rest and report per "
            "model: the median error of the predicted bandwidth (MdAPE), the rank "
            "correlation within a workload (Spearman), the zero-trial pick (the measured "
            "bandwidth of the model's first choice over the best) and the trials a search "
            "the model orders needs to reach 95 % of the best, beside random order."
        ),
    )
    add_learning_source(parser)
    parser.add_argument(
        "--models",
        help="comma-separated models (default: every model train compares; an unknown name "
        "lists them)",
    )
    parser.add_argument(
        "--by",
        choices=("workload", "program"),
        help="one scheme only (default: both, program when the data names 2+ programs)",
    )
    parser.add_argument("--budget", type=int, default=10, help="trials per workload (10)")
    parser.add_argument(
        "--max-folds", type=int, default=40, help="workloads or programs held out at most (40)"
    )
    parser.add_argument("--target", default="bw_min", choices=("bw_min", "bw_median"))
    parser.add_argument("--seed", type=int, default=0, help="seed of the models and folds")
    parser.add_argument("--quick", action="store_true", help="smaller models, for demos")
    parser.add_argument("--json", action="store_true", help="the result as one JSON object")
    parser.set_defaults(handler=_evaluate)


def _evaluate(args: argparse.Namespace) -> int:
    from iotuner._progress import steps_bar
    from iotuner.learn import training_data
    from iotuner.models import SCHEMES, evaluate_models, model_choices, model_names

    names = None
    if args.models is not None:
        names = comma_separated(args.models, model_names(), "--models")
    data = training_data(
        store_from_args(args), system=args.system, space=args.space, kind=args.kind
    )
    console = terminal(stderr=args.json)
    if not args.json:
        console.print(
            f"evaluating on {len(data.frame)} summarised cases of system "
            f"{data.system.fingerprint} ({data.system.host}, {data.system.fs_type}), "
            f"space {data.space.name}"
        )
    with steps_bar(terminal(stderr=True), "evaluate") as steps:
        result = evaluate_models(
            data.frame,
            data.space,
            model_choices(names, quick=args.quick),
            target=args.target,
            schemes=(args.by,) if args.by else SCHEMES,
            budget=args.budget,
            max_folds=args.max_folds,
            seed=args.seed,
            progress=steps,
        )
    if not result.results:
        raise ConfigError(
            "nothing to evaluate: " + "; ".join(result.notes[s] for s in result.notes)
        )
    if args.json:
        print(json.dumps(result.to_dict(), indent=2, allow_nan=False))
    else:
        print_evaluation(result, console)
    return 0


def print_evaluation(result: "Evaluation", console: "Console", chosen: str | None = None) -> None:
    """One table per scheme: the four figures of each model and of random order."""
    from rich.markup import escape
    from rich.table import Table

    from iotuner._tables import print_table, whole

    for scheme in ("workload", "program"):
        if scheme not in result.random:
            console.print(f"[yellow]{escape(result.notes.get(scheme, ''))}[/]")
            continue
        table = Table(
            "model",
            "MdAPE %",
            "Spearman\nmed/mean",
            "pick\nmed/mean",
            f"trials\nto {result.target_fraction:.0%}",
            f"reached\nin {result.budget}",
            "pick\n≥ 0.95",
            "in 10-90 %\nrows/gains/worst\nwidth rows/gains",
            title=escape(result.notes[scheme]),
            title_justify="left",
        )
        for model in result.models:
            scored = result.result(model, scheme)
            name = escape(model)
            if model == chosen:
                name = f"[bold green]★ {name}[/]"
            table.add_row(
                name, *map(whole, _cells(scored.figures) + pick_and_coverage_cells(scored))
            )
        random = [*_cells(result.random[scheme]), "-", "-"]
        table.add_row("random order", *map(whole, random), style="dim")
        print_table(console, [(table, None)])
    console.print(
        f"target {result.target}; trials: {escape(result.belief)}; trials counted over the "
        "workloads that reach the target"
    )


def _cells(figures: "Figures") -> list[str]:
    return [
        _number(figures.mdape_median, "{:.1f}"),
        f"{_number(figures.spearman_median, '{:.2f}')}/{_number(figures.spearman_mean, '{:.2f}')}",
        f"{_number(figures.pick_median, '{:.2f}')}/{_number(figures.pick_mean, '{:.2f}')}",
        _number(figures.trials_mean, "{:.2f}"),
        _number(figures.reached, "{:.0%}"),
    ]


def pick_and_coverage_cells(scored: "SchemeResult") -> list[str]:
    """The share of held-out workloads whose zero-trial pick reaches 0.95 of their best,
    and the coverage of the calibrated 10-90 % interval (rows, pairs' gains, the worst
    held-out workload) beside its width (coverage_width)."""
    picks = [w.pick for w in scored.workloads]
    share = _number(sum(p >= 0.95 for p in picks) / len(picks) if picks else None, "{:.0%}")
    cover = scored.coverage
    if cover is None:
        return [share, "-"]
    return [
        share,
        f"{_number(cover['rows'], '{:.0%}')}/{_number(cover['gains'], '{:.0%}')}/"
        f"{_number(cover['worst_workload'], '{:.0%}')} {coverage_width(cover)}",
    ]


def coverage_width(cover: dict[str, Any]) -> str:
    """'x9.0/x2.1 wide': the median ratio high / low of the calibrated 10-90 % interval of
    a bandwidth and of a gain over the held-out workloads ('-' where not known)."""
    width, gain = cover.get("width"), cover.get("gain_width")
    return f"{_number(width, 'x{:.1f}')}/{_number(gain, 'x{:.1f}')} wide"


def _number(value: float | None, form: str) -> str:
    return "-" if value is None or not math.isfinite(value) else form.format(value)


def add_predict(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "predict",
        help="a saved model's bandwidth for one workload",
        description=(
            "Predict the bandwidth (MiB/s, with the model's 10-90 % interval) of one "
            "workload: every configuration of the model's space ranked, the top N, or the "
            "one given with --config."
        ),
    )
    parser.add_argument(
        "--model",
        type=Path,
        default=Path("iotuner-model"),
        help="model directory from `iotuner train` (default ./iotuner-model)",
    )
    parser.add_argument(
        "--workload",
        required=True,
        help="KEY=VALUE items: nprocs, pattern, op, layout, size, and any other field of "
        "the workload description (nodes, block, fill, calls_per_open, ranks_per_node, "
        "files, interleaved, stripe_count, stripe_size, program)",
    )
    parser.add_argument("--config", help="one configuration as KEY=VALUE items (default: all)")
    parser.add_argument("--top", type=int, default=10, help="configurations to show (10)")
    parser.add_argument("--space", help="parameter space (default: the model's)")
    parser.add_argument(
        "--dir",
        type=Path,
        help="the folder the workload's files will be in: on another file system or host "
        "than the model learned on, the answer is the order alone, without intervals or gains",
    )
    parser.add_argument("--json", action="store_true", help="the prediction as JSON")
    parser.set_defaults(handler=_predict)


def _predict(args: argparse.Namespace) -> int:
    from iotuner.models import load_model, model_space, predict_workload
    from iotuner.search import parse_workload

    if args.top < 1:
        raise ConfigError(f"--top must be an int >= 1, got {args.top}")
    model = load_model(args.model)
    space = model_space(args.model, model.metadata, args.space)
    workload = parse_workload(args.workload)
    config = None if args.config is None else space.validate(_config_items(args.config))
    found = predict_workload(model, space, workload, config=config, top=args.top, folder=args.dir)
    if args.json:
        print(json.dumps(found.record, indent=2, allow_nan=False))
        return 0
    _print_prediction(found, args.dir)
    return 0


def _print_prediction(found: "Prediction", folder: Path | None) -> None:
    """The predictions on the terminal: what was predicted, what the gains rest on, one
    line per configuration shown."""
    record, elsewhere = found.record, found.elsewhere
    learned, note = record["system"]["learned"], record["note"]
    where = (
        f", learned on {learned.get('fs_type')} (host {learned.get('host')})"
        if isinstance(learned, dict)
        else ""
    )
    print(
        f"model {record['model']} ({record['target']}, MiB/s{where}), space {record['space']}: "
        f"{record['configurations']} configuration(s) predicted" + (f" ({note})" if note else "")
    )
    if found.unmeasured:
        print(
            "  gain over the default: unknown (the training data never measured the "
            f"default configuration {record['default']['key']}, so its prediction is an "
            "extrapolation)"
        )
    if elsewhere:
        print(
            f"  another system ({elsewhere}): the order alone, no interval and no gain (the "
            "model was never checked there)"
        )
    elif found.far:
        print(
            f"  far from the data ({found.far}): intervals widened, no held-out bounds of the gain"
        )
    elif folder is not None and elsewhere is None:
        print(f"  {folder}: not checked, the model does not record the system it learned on")
    for entry in record["predictions"]:
        gain = earned_gain(calibrated=entry["calibrated_gain"])
        interval = "" if elsewhere else f"[{entry['low']:.1f} .. {entry['high']:.1f}]"
        figure = f"gain {gain.figure}" + (" calibrated" if gain.basis == "calibrated" else "")
        unseen = entry["untrained_values"]
        mark = f"  (no training row had {', '.join(unseen)})" if unseen else ""
        print(
            f"  {entry['rank']:>4}  {entry['predicted']:10.1f}  {interval}  {figure}"
            f"  {entry['key']}{mark}"
        )


def _config_items(text: str) -> dict[str, Any]:
    items: dict[str, Any] = {}
    for item in text.split(","):
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"--config takes KEY=VALUE items, got {item!r} in {text!r}")
        items[key.strip()] = value.strip()
    return items
