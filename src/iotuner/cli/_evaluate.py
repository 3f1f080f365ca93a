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

    from iotuner.models import Evaluation, Figures, SchemeResult
    from iotuner.space import Configuration, Space

__all__ = ["add_evaluate", "add_predict", "print_evaluation"]

_PREDICT_LIMIT = 20_000
"""Configurations predict ranks at most; a larger space is ranked on a seeded sample."""


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
    import numpy as np
    import pandas as pd

    from iotuner.acting import distinct_configurations
    from iotuner.measurement import CONFIG_PREFIX, System
    from iotuner.models import load_model
    from iotuner.search import parse_workload
    from iotuner.space import config_key

    if args.top < 1:
        raise ConfigError(f"--top must be an int >= 1, got {args.top}")
    model = load_model(args.model)
    space = _model_space(args.model, model.metadata, args.space)
    workload = parse_workload(args.workload)
    note = ""
    if args.config is not None:
        configs = [space.validate(_config_items(args.config))]
    elif space.size <= _PREDICT_LIMIT:
        configs = list(space.configurations())
    else:
        configs = space.sample(_PREDICT_LIMIT, np.random.default_rng(0))
        note = f"a sample of {len(configs)} of the space's {space.size} configurations"
    default = space.default()
    if args.config is None and config_key(default) not in {config_key(c) for c in configs}:
        configs.append(default)
    if args.config is None:
        # Configurations that differ only in keys that cannot act on this workload (a read
        # key on a write, cb_nodes giving the default's aggregators) behave alike: one of
        # them is ranked, the one with the fewest keys changed (iotuner.acting).
        distinct = distinct_configurations(space, configs, workload)
        if len(distinct) < len(configs):
            alike = f"{len(configs) - len(distinct)} differing only in keys that cannot act here"
            note = f"{note}; {alike}" if note else alike
        configs = distinct
    rows = []
    for config in configs:
        row = workload.as_row()
        row.update({f"{CONFIG_PREFIX}{name}": value for name, value in config.items()})
        row["config"] = config_key(config)
        rows.append(row)
    frame = pd.DataFrame(rows)
    point = model.predict(frame)
    bounds = model.predict_quantiles(frame, (0.1, 0.9))
    order = np.argsort(-point, kind="stable")
    keys = [config_key(c) for c in configs]
    default_key = config_key(default)
    default_bw = next((float(point[i]) for i, k in enumerate(keys) if k == default_key), None)
    # A gain rests on the default's prediction; where the training data never measured the
    # default configuration, that prediction is an extrapolation and the gain is unknown.
    calibration = model.calibration
    unmeasured = calibration is not None and calibration.default_rows == 0
    if unmeasured:
        default_bw = None
    far = model.far_from_data(frame)
    # Another file system or host than the model learned on: no interval or gain holds
    # there (its calibration is the learned system's), so the answer is the order alone.
    elsewhere = None
    if args.dir is not None:
        here = System.detect(args.dir, "", "")
        elsewhere = model.other_system(here.host, here.fs_type)
    if elsewhere:
        far = [f"{elsewhere}; {f}" if f else elsewhere for f in far]
        default_bw = None
    learned = model.metadata.get("system")

    def calibrated(i: int) -> list[float] | None:
        # The held-out pairs that bound a gain were all inside the calibrated scales and
        # sizes: beyond them those bounds say nothing, so none is given.
        # Nor over a default the training data never measured (calibration.default_rows 0):
        # its prediction is an extrapolation, and so is any gain over it.
        if default_bw is None or calibration is None or far[i] or calibration.default_rows == 0:
            return None
        found = calibration.gain_bounds(math.log(float(point[i]) / default_bw))
        return None if found is None else [math.exp(v) for v in found]

    trained = model.metadata.get("trained_values")

    def untrained(config: "Configuration") -> list[str]:
        # Values no training row had (models trained before this was kept: not known).
        if not isinstance(trained, dict):
            return []
        return [
            f"{k}={v}"
            for k, v in config.items()
            if isinstance(trained.get(k), list) and str(v) not in trained[k]
        ]

    ranked = [
        {
            "rank": rank,
            "config": dict(configs[i]),
            "key": keys[i],
            "predicted": float(point[i]),
            "low": None if elsewhere else float(bounds[i, 0]),
            "high": None if elsewhere else float(bounds[i, 1]),
            # The ratio of two raw predictions: for ranking, never printed as a gain.
            "predicted_ratio": float(point[i] / default_bw) if default_bw else None,
            "calibrated_gain": calibrated(i),
            "gain": _gain_record(calibrated(i)),
            "far_from_data": far[i] or None,
            "untrained_values": untrained(configs[i]),
        }
        for rank, i in enumerate(order, start=1)
    ]
    shown = ranked if args.config is not None else ranked[: args.top]
    result = {
        "model": model.name,
        "space": space.name,
        "target": model.target,
        "workload": workload.as_row(),
        "configurations": len(configs),
        "note": note,
        "default": {
            "key": default_key,
            "predicted": default_bw,
            "gain": (
                "unknown: the training data never measured the default configuration"
                if unmeasured
                else f"unknown: another system ({elsewhere})"
                if elsewhere
                else "over the default's prediction for this workload"
            ),
        },
        "system": {
            "learned": learned,
            "asked": str(args.dir) if args.dir is not None else None,
            "answer": (
                "not checked (no --dir)"
                if args.dir is None
                else "not checked: the model does not record the system it learned on"
                if elsewhere is None
                else f"order only, no interval or gain: {elsewhere}"
                if elsewhere
                else "the system the model learned on"
            ),
        },
        "predictions": shown,
    }
    if args.json:
        print(json.dumps(result, indent=2, allow_nan=False))
        return 0
    where = (
        f", learned on {learned.get('fs_type')} (host {learned.get('host')})"
        if isinstance(learned, dict)
        else ""
    )
    print(
        f"model {model.name} ({model.target}, MiB/s{where}), space {space.name}: "
        f"{len(configs)} configuration(s) predicted" + (f" ({note})" if note else "")
    )
    if unmeasured:
        print(
            "  gain over the default: unknown (the training data never measured the "
            f"default configuration {default_key}, so its prediction is an extrapolation)"
        )
    if elsewhere:
        print(
            f"  another system ({elsewhere}): the order alone, no interval and no gain (the "
            "model was never checked there)"
        )
    elif any(far):
        print(
            f"  far from the data ({next(f for f in far if f)}): intervals widened, no "
            "held-out bounds of the gain"
        )
    elif args.dir is not None and elsewhere is None:
        print(f"  {args.dir}: not checked, the model does not record the system it learned on")
    for entry in shown:
        gain = earned_gain(calibrated=entry["calibrated_gain"])
        interval = "" if elsewhere else f"[{entry['low']:.1f} .. {entry['high']:.1f}]"
        figure = f"gain {gain.figure}" + (" calibrated" if gain.basis == "calibrated" else "")
        unseen = entry["untrained_values"]
        mark = f"  (no training row had {', '.join(unseen)})" if unseen else ""
        print(
            f"  {entry['rank']:>4}  {entry['predicted']:10.1f}  {interval}  {figure}"
            f"  {entry['key']}{mark}"
        )
    return 0


def _gain_record(calibrated: list[float] | None) -> dict[str, object]:
    """The earned gain (iotuner.gains) of a prediction, for --json: calibrated or unknown."""
    gain = earned_gain(
        calibrated=(calibrated[0], calibrated[1], calibrated[2]) if calibrated else None
    )
    return {
        "basis": gain.basis,
        "value": gain.value,
        "interval": list(gain.interval) if gain.interval else None,
        "figure": gain.figure,
    }


def _model_space(path: Path, metadata: dict[str, Any], given: str | None) -> "Space":
    """The space to predict over: `given` (--space), else the one the model was trained on,
    from its own definition in the metadata (so a space from a file needs no file), else
    from its name (a model saved before it kept the definition)."""
    from iotuner.space import SpaceError, load_space, space_from_dict

    if given:
        return load_space(given)
    definition = metadata.get("space_definition")
    if definition is not None:
        return space_from_dict(definition, f"{path}: the model's space")
    name = metadata.get("space")
    if not name:
        raise ConfigError(f"{path}: the model names no space; give one with --space")
    try:
        return load_space(str(name))
    except SpaceError as exc:
        raise ConfigError(
            f"{path}: the model was trained on space {name!r} and keeps only its name, which "
            f"is no shipped space or file here ({exc}); give the space with --space FILE, or "
            "train the model again (a model trained now keeps its space)"
        ) from None


def _config_items(text: str) -> dict[str, Any]:
    items: dict[str, Any] = {}
    for item in text.split(","):
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"--config takes KEY=VALUE items, got {item!r} in {text!r}")
        items[key.strip()] = value.strip()
    return items
