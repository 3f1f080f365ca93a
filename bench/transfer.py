#!/usr/bin/env python3
"""How well a model transfers to workloads and programs it has never seen, beside the
model-free searches: the figures of issue 10 on one knowledge base or summary CSV.

1. The data: a knowledge base (the summary of one system and space, as `iotuner train`
   reads it: --system, --space, --kind) or a CSV file of a summary frame (the columns of
   iotuner.measurement.SUMMARY_COLUMNS and cfg:<parameter>).
2. The models (--models; default the previous choice, a random forest on log bandwidth,
   and the ranking models of iotuner.models._ranking) judged by iotuner.models._evaluate
   under leave-one-workload-out and, when the data names two or more programs,
   leave-one-program-out: median MdAPE, Spearman within a workload (median / mean),
   zero-trial pick (median / mean), trials to 95 % of the best when the model orders the
   search (WorkloadBelief, updated after each trial) and the share of workloads that
   reach it within --budget trials. The models are fitted with seed 0.
3. On the same held-out workloads, with --seeds seeds each: random order (also exactly,
   by arithmetic) and Optuna's TPE over the parameters that vary in the workload's table
   (iotuner's search default of 10 random start-up trials; a proposal the table does not
   hold is answered by the nearest measured configuration, one already measured costs no
   trial, as in `iotuner search --table`). Their trials and reached share are given as
   the mean over seeds with the spread (min .. max) over seeds.

It reports figures and never judges them.

    .venv/bin/python bench/transfer.py KB.sqlite|SUMMARY.csv [--models a,b] [--budget 10]
        [--seeds 5] [--max-folds 40] [--quick] [--json]
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import optuna
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _benchkit import BenchError, print_aligned

from iotuner.errors import IotunerError
from iotuner.learn import training_data
from iotuner.measurement import CONFIG_PREFIX
from iotuner.models._evaluate import (
    Evaluation,
    Figures,
    evaluate_models,
    model_choices,
    usable_rows,
    workload_labels,
)
from iotuner.search import StrategyOptions
from iotuner.space import Space, load_space
from iotuner.store import open_store

PREVIOUS = "random_forest"
"""The model iotuner chose before issue 10 (train's default on every data set we had)."""

NEW = ("relative_forest", "relative_boosting")
"""The ranking models train now compares with it."""


def load(source: str, args: argparse.Namespace) -> tuple[pd.DataFrame, Space | None, str]:
    """The summary frame, its space (None for a CSV without --space) and a description."""
    path = Path(source)
    if path.suffix == ".csv":
        frame = pd.read_csv(path)
        space = load_space(args.space) if args.space else None
        return frame, space, f"{path.name}: {len(frame)} summary rows"
    if not path.exists():
        raise BenchError(f"{path}: no such knowledge base or CSV file")
    with open_store(str(path)) as store:
        data = training_data(store, system=args.system, space=args.space, kind=args.kind)
    words = (
        f"{path.name}: {len(data.frame)} summarised cases of {data.system.host} "
        f"({data.system.fs_type}), space {data.space.name}"
    )
    return data.frame, data.space, words


def held_out_tables(
    frame: pd.DataFrame, evaluation: Evaluation, scheme: str, target: str
) -> list[pd.DataFrame]:
    """The rows of each workload a scheme held out (as evaluate_models grouped them)."""
    data, _ = usable_rows(frame, target)
    result = next(r for r in evaluation.results if r.scheme == scheme)
    labels = {s.workload for s in result.workloads}
    data = data.assign(_workload=workload_labels(data))
    return [table for label, table in data.groupby("_workload", sort=True) if label in labels]


def random_trials(
    log_bw: npt.NDArray[np.float64], budget: int, seed: int, workload: int
) -> int | None:
    goal = math.log(0.95) + float(log_bw.max())
    # Seeded per workload: one permutation for all would hit or miss the same
    # configurations everywhere (their indices agree across workloads).
    order = np.random.default_rng([seed, workload]).permutation(len(log_bw))[:budget]
    return next((t for t, i in enumerate(order, 1) if log_bw[i] >= goal), None)


def tpe_trials(
    table: pd.DataFrame, target: str, budget: int, seed: int, workload: int
) -> int | None:
    """Trials TPE needs on one workload's table (distinct configurations measured)."""
    params = [c for c in table.columns if c.startswith(CONFIG_PREFIX)]
    params = [c for c in params if table[c].astype(str).nunique() > 1]
    cells = table[params].astype(str).to_numpy()
    log_bw = np.log(table[target].to_numpy(dtype=float))
    goal = math.log(0.95) + float(log_bw.max())
    if not params:
        return 1
    choices = {c: sorted(set(table[c].astype(str))) for c in params}
    sampler = optuna.samplers.TPESampler(
        seed=seed * 100_003 + workload, n_startup_trials=StrategyOptions().n_startup
    )
    study = optuna.create_study(direction="maximize", sampler=sampler)
    measured: dict[int, float] = {}
    for _ in range(budget * 5):  # proposals of configurations already measured are free
        trial = study.ask()
        wanted = np.array([trial.suggest_categorical(c, choices[c]) for c in params])
        distance = (cells != wanted).sum(axis=1)
        row = int(np.flatnonzero(distance == distance.min())[0])
        study.tell(trial, float(log_bw[row]))
        if row in measured:
            continue
        measured[row] = float(log_bw[row])
        if log_bw[row] >= goal:
            return len(measured)
        if len(measured) >= budget:
            return None
    return None


def over_seeds(runs: Sequence[Sequence[int | None]]) -> dict[str, Any]:
    """Per seed (each a list over workloads): mean trials of the reached and the share
    reached; their mean and min .. max over seeds."""
    trials, reached = [], []
    for per_workload in runs:
        hits = [t for t in per_workload if t is not None]
        reached.append(len(hits) / len(per_workload))
        if hits:
            trials.append(statistics.fmean(hits))
    return {
        "trials_mean": statistics.fmean(trials) if trials else None,
        "trials_range": [min(trials), max(trials)] if trials else None,
        "reached_mean": statistics.fmean(reached),
        "reached_range": [min(reached), max(reached)],
    }


def _num(value: float | None, form: str) -> str:
    return "-" if value is None or not math.isfinite(value) else form.format(value)


def figure_cells(figures: Figures) -> list[str]:
    return [
        _num(figures.mdape_median, "{:.1f}"),
        f"{_num(figures.spearman_median, '{:.2f}')} / {_num(figures.spearman_mean, '{:.2f}')}",
        f"{_num(figures.pick_median, '{:.3f}')} / {_num(figures.pick_mean, '{:.3f}')}",
        _num(figures.trials_mean, "{:.2f}"),
        _num(figures.reached, "{:.0%}"),
    ]


def seed_cells(result: dict[str, Any]) -> list[str]:
    trials = result["trials_range"]
    reached = result["reached_range"]
    return [
        "-",
        "-",
        "-",
        _num(result["trials_mean"], "{:.2f}")
        + (f" ({trials[0]:.2f} .. {trials[1]:.2f})" if trials else ""),
        f"{result['reached_mean']:.0%} ({reached[0]:.0%} .. {reached[1]:.0%})",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", help="knowledge base (SQLite file) or summary CSV")
    parser.add_argument("--system", help="fingerprint prefix, when the base holds several")
    parser.add_argument("--space", help="parameter space (default: the data's)")
    parser.add_argument("--kind", help="only measurements of this kind (bench, csv, ...)")
    parser.add_argument("--models", default=",".join((PREVIOUS, *NEW)))
    parser.add_argument("--target", default="bw_min", choices=("bw_min", "bw_median"))
    parser.add_argument("--budget", type=int, default=10)
    parser.add_argument("--seeds", type=int, default=5, help="seeds of random and TPE")
    parser.add_argument("--max-folds", type=int, default=40)
    parser.add_argument("--quick", action="store_true", help="the smaller models of --quick")
    parser.add_argument("--json", action="store_true", help="the figures as JSON")
    args = parser.parse_args()
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    names = [n.strip() for n in args.models.split(",") if n.strip()]
    start = time.perf_counter()
    try:
        frame, space, words = load(args.data, args)
        evaluation = evaluate_models(
            frame,
            space,
            model_choices(names, quick=args.quick),
            target=args.target,
            budget=args.budget,
            max_folds=args.max_folds,
        )
    except (BenchError, IotunerError) as exc:
        sys.exit(f"transfer: {exc}")
    model_seconds = time.perf_counter() - start
    report: dict[str, Any] = {"data": words, "evaluation": evaluation.to_dict(), "searches": {}}
    for scheme in evaluation.schemes:
        tables = held_out_tables(frame, evaluation, scheme, args.target)
        logs = [np.log(t[args.target].to_numpy(dtype=float)) for t in tables]
        report["searches"][scheme] = {
            "random": over_seeds(
                [
                    [random_trials(v, args.budget, s, w) for w, v in enumerate(logs)]
                    for s in range(args.seeds)
                ]
            ),
            "tpe": over_seeds(
                [
                    [tpe_trials(t, args.target, args.budget, s, w) for w, t in enumerate(tables)]
                    for s in range(args.seeds)
                ]
            ),
        }
    seconds = time.perf_counter() - start
    if args.json:
        print(json.dumps(report, indent=2, allow_nan=False))
        return
    print(f"{words}; target {args.target}, budget {args.budget} trials, {args.seeds} seeds")
    print(f"trials: {evaluation.belief}")
    header = ["method", "MdAPE %", "Spearman med / mean", "pick med / mean", "trials", "reached"]
    for scheme in ("workload", "program"):
        print()
        print(evaluation.notes[scheme])
        if scheme not in evaluation.random:
            continue
        rows = []
        for model in evaluation.models:
            label = model + (" (previous)" if model == PREVIOUS else "")
            rows.append([label, *figure_cells(evaluation.result(model, scheme).figures)])
        rows.append(["random order (exact)", *figure_cells(evaluation.random[scheme])])
        searches = report["searches"][scheme]
        rows.append([f"random search ({args.seeds} seeds)", *seed_cells(searches["random"])])
        rows.append([f"TPE ({args.seeds} seeds)", *seed_cells(searches["tpe"])])
        print_aligned(header, rows)
    print()
    print(
        f"models {model_seconds:.1f} s, searches {seconds - model_seconds:.1f} s; trials are "
        "means over the workloads that reach 95 % of their best, (min .. max) over seeds"
    )


if __name__ == "__main__":
    main()
