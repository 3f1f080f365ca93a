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
   reach it within --budget trials; leave-one-program-out also per held-out program. The
   models are fitted with seed 0.
3. On the same held-out workloads, with --seeds seeds each: random order (also exactly,
   by arithmetic) and Optuna's TPE over the parameters that vary in the workload's table
   (iotuner's search default of 10 random start-up trials; a proposal the table does not
   hold is answered by the nearest measured configuration, one already measured costs no
   trial, as in `iotuner search --table`). Their trials and reached share are given as
   the mean over seeds with the spread (min .. max) over seeds.
4. The noise ceiling (knowledge bases only): each workload's configurations ordered by
   their first repeat and judged by the other repeats. Where models reach it, the data
   cannot tell them apart any further: more repeats or a quieter system can.

5. With --cross-system SYSTEM (knowledge bases only): transfer between systems. The
   models are trained on other systems of the knowledge base (--train-on; default every
   system of the same host and MPI library, i.e. the other file systems of this machine)
   and asked about every workload of SYSTEM, which they never saw: the systems' summary
   frames are pooled, each system's rows named as a program of their own ("iokernel on
   fuse.glusterfs"), and iotuner.models._evaluate holds out one such group at a time
   (leave-one-program-out), so the held-out system's figures come from models fitted on
   the others only. Beside them: the two baselines (they are among the models), random
   order and the noise ceiling on that system, and the coverage of the interval a model
   trained on the other systems would ship (`train`'s calibration on those systems,
   applied through TrainedModel.predict_quantiles and gain_shifts to the held-out system's
   rows): rows, pairs' gains, and the worst workload inside 10-90 %.

Trials are also given with the workloads that never reach 95 % counted as budget + 1,
so a method that gives up more often does not look faster for it.

It reports figures and never judges them.

    .venv/bin/python bench/transfer.py KB.sqlite|SUMMARY.csv [--models a,b] [--budget 10]
        [--seeds 5] [--max-folds 40] [--quick] [--json]
    .venv/bin/python bench/transfer.py KB.sqlite --cross-system fuse.glusterfs
        [--train-on ext4,tmpfs] [--models a,b] [--quick] [--json]
"""

from __future__ import annotations

import argparse
import dataclasses
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

from iotuner.cli._evaluate import pick_and_coverage_cells
from iotuner.errors import IotunerError
from iotuner.learn import training_data
from iotuner.measurement import CONFIG_PREFIX, WORKLOAD_COLUMNS, System
from iotuner.models._calibrate import calibrate
from iotuner.models._compare import fit_model
from iotuner.models._evaluate import (
    evaluate_models,
    model_choices,
    usable_rows,
    workload_keys,
    workload_labels,
)
from iotuner.models._figures import (
    Evaluation,
    Figures,
    SchemeResult,
    WorkloadScore,
    figures_of,
    random_order_figures,
)
from iotuner.models._select import select_by_figures as _select_by_figures
from iotuner.models._zoo import BASELINES, Candidate
from iotuner.search import StrategyOptions
from iotuner.space import Space, load_space
from iotuner.store import Store, open_store

PREVIOUS = "random_forest"
"""The model iotuner chose before issue 10 (train's default on every data set we had)."""

NEW = ("relative_forest", "relative_boosting")
"""The ranking models train now compares with it."""


def load(
    source: str, args: argparse.Namespace
) -> tuple[pd.DataFrame, Space | None, str, pd.DataFrame | None]:
    """The summary frame, its space (None for a CSV without --space), a description and
    the single measurements behind the summary (None for a CSV)."""
    path = Path(source)
    if path.suffix == ".csv":
        frame = pd.read_csv(path)
        space = load_space(args.space) if args.space else None
        return frame, space, f"{path.name}: {len(frame)} summary rows", None
    if not path.exists():
        raise BenchError(f"{path}: no such knowledge base or CSV file")
    with open_store(str(path)) as store:
        data = training_data(store, system=args.system, space=args.space, kind=args.kind)
        raw = store.measurements(data.system, kind=args.kind)
    words = (
        f"{path.name}: {len(data.frame)} summarised cases of {data.system.host} "
        f"({data.system.fs_type}), space {data.space.name}"
    )
    return data.frame, data.space, words, raw


def repeat_ceiling(
    raw: pd.DataFrame, frame: pd.DataFrame, target: str, budget: int
) -> Figures | None:
    """What one measurement of every configuration tells about the others: per workload,
    the configurations ordered by their first repeat and judged by the remaining repeats
    (their minimum for bw_min, median for bw_median). No model can order a workload much
    better than its own repeats agree, so this row is the noise ceiling of Spearman, pick
    and trials on this data. None when no workload has two repeats of four configurations."""
    keys = ["system", *WORKLOAD_COLUMNS]
    # Only the rows train would use; keys compared as text (types differ between frames).
    kept = set(map(tuple, frame[[*keys, "config"]].astype(str).to_numpy()))
    raw = raw[[tuple(r) in kept for r in raw[[*keys, "config"]].astype(str).to_numpy()]]
    rank_corr, picks, trials = [], [], []
    for _, workload in raw.groupby(keys, dropna=False, sort=True):
        first_rows = workload.sort_values("repeat", kind="stable").groupby("config", sort=True)
        first = first_rows["bandwidth"].first()
        rest = first_rows["bandwidth"].apply(
            lambda bw: (
                (bw.iloc[1:].min() if target == "bw_min" else bw.iloc[1:].median())
                if len(bw) > 1
                else math.nan
            )
        )
        both = pd.DataFrame({"first": first, "rest": rest}).dropna()
        if len(both) < 4:
            continue
        rank_corr.append(float(both["first"].corr(both["rest"], method="spearman")))
        ordered = both.sort_values("first", ascending=False, kind="stable")["rest"].to_numpy()
        picks.append(float(ordered[0] / ordered.max()))
        goal = 0.95 * ordered.max()
        trials.append(next((t for t, bw in enumerate(ordered[:budget], 1) if bw >= goal), None))
    if not picks:
        return None
    hits = [t for t in trials if t is not None]
    finite = [r for r in rank_corr if math.isfinite(r)]
    return Figures(
        workloads=len(picks),
        mdape_median=None,
        spearman_median=statistics.median(finite) if finite else None,
        spearman_mean=statistics.fmean(finite) if finite else None,
        spearman_workloads=len(finite),
        pick_median=statistics.median(picks),
        pick_mean=statistics.fmean(picks),
        trials_mean=statistics.fmean(hits) if hits else None,
        reached=len(hits) / len(trials),
    )


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


def over_seeds(runs: Sequence[Sequence[int | None]], budget: int) -> dict[str, Any]:
    """Per seed (each a list over workloads): mean trials of the reached, the same with
    the unreached counted as budget + 1, and the share reached; their mean and min .. max
    over seeds."""
    trials, charged, reached = [], [], []
    for per_workload in runs:
        hits = [t for t in per_workload if t is not None]
        reached.append(len(hits) / len(per_workload))
        charged.append(statistics.fmean(budget + 1 if t is None else t for t in per_workload))
        if hits:
            trials.append(statistics.fmean(hits))
    return {
        "trials_mean": statistics.fmean(trials) if trials else None,
        "trials_range": [min(trials), max(trials)] if trials else None,
        "trials_charged_mean": statistics.fmean(charged),
        "reached_mean": statistics.fmean(reached),
        "reached_range": [min(reached), max(reached)],
    }


def charged_trials(figures: Figures, budget: int) -> float | None:
    """Mean trials over all workloads with the unreached counted as budget + 1: a search
    that reaches 95 % on fewer workloads must not look faster for it."""
    reached = float(figures.reached)
    if figures.trials_mean is None:
        return float(budget + 1) if reached == 0 else None
    return float(figures.trials_mean) * reached + (budget + 1) * (1 - reached)


def _num(value: float | None, form: str) -> str:
    return "-" if value is None or not math.isfinite(value) else form.format(value)


def figure_cells(figures: Figures, budget: int) -> list[str]:
    return [
        _num(figures.mdape_median, "{:.1f}"),
        f"{_num(figures.spearman_median, '{:.2f}')} / {_num(figures.spearman_mean, '{:.2f}')}",
        f"{_num(figures.pick_median, '{:.3f}')} / {_num(figures.pick_mean, '{:.3f}')}",
        _num(figures.trials_mean, "{:.2f}"),
        _num(figures.reached, "{:.0%}"),
        _num(charged_trials(figures, budget), "{:.2f}"),
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
        _num(result["trials_charged_mean"], "{:.2f}"),
    ]


def print_per_program(evaluation: Evaluation, header: list[str], budget: int) -> None:
    """The leave-one-program-out figures of each held-out program apart: the question a
    user asks (trained on the others, how well does it tune this one?)."""

    def program(score: Any) -> str:
        return str(score.program or "(no program)")

    held_out = {model: evaluation.result(model, "program").workloads for model in evaluation.models}
    for name in sorted({program(s) for scores in held_out.values() for s in scores}):
        rows = []
        for model, scores in held_out.items():
            mine = [s for s in scores if program(s) == name]
            label = model + (" (previous)" if model == PREVIOUS else "")
            picks = [s.pick for s in mine]
            share = _num(sum(p >= 0.95 for p in picks) / len(picks) if picks else None, "{:.0%}")
            cover = evaluation.result(model, "program").coverage
            rows.append(
                [label, *figure_cells(figures_of(mine), budget), share, _group_cover(cover, mine)]
            )
        print(f"\nheld out: {name} ({len(mine)} workloads), trained on the other programs")
        print_aligned(header, rows)


def _group_cover(cover: dict[str, Any] | None, scores: Sequence[Any]) -> str:
    """The coverage of one held-out group's workloads (mean over them) beside the interval's
    width (their median high / low), from the model's held-out coverage ('-' without)."""
    if cover is None:
        return "-"
    inside = [
        cover["per_workload"][s.workload] for s in scores if s.workload in cover["per_workload"]
    ]
    widths = [
        cover["width_per_workload"][s.workload]
        for s in scores
        if s.workload in cover.get("width_per_workload", {})
    ]
    if not inside:
        return "-"
    width = f"x{float(np.median(widths)):.1f} wide" if widths else "width -"
    return f"{sum(inside) / len(inside):.0%} rows, {width}"


# --- transfer between systems (--cross-system) ----------------------------------------

POOLED = "pooled"
"""The system label of the pooled frame: evaluate_models judges one system at a time, and
the systems stay apart as groups (programs) of their own instead."""


def _one_system(systems: Sequence[System], spec: str) -> System:
    """The system a --cross-system/--train-on word names: its file system type or a
    fingerprint prefix, matching exactly one system."""
    found = [
        s for s in systems if spec in (s.fs_type, s.fingerprint) or s.fingerprint.startswith(spec)
    ]
    if len(found) == 1:
        return found[0]
    listed = ", ".join(f"{s.fingerprint} ({s.host}, {s.fs_type}, {s.mpi_library})" for s in systems)
    what = "no system matches" if not found else f"{len(found)} systems match"
    raise BenchError(f"{what} {spec!r} (a file system type or fingerprint prefix): {listed}")


def _group_name(system: System, program: object, systems: Sequence[System]) -> str:
    """A system's rows as a program of their own: 'iokernel on ext4' (with the fingerprint
    where two chosen systems share a file system type)."""
    name = str(program) if isinstance(program, str) and program.strip() else "(no program)"
    same = [s for s in systems if s.fs_type == system.fs_type]
    where = system.fs_type if len(same) == 1 else f"{system.fs_type} {system.fingerprint[:6]}"
    return f"{name} on {where}"


@dataclasses.dataclass(frozen=True)
class CrossSystem:
    """The pooled frame of the chosen systems, and what the held-out one is."""

    frame: pd.DataFrame  # every chosen system, program = its group name, system = POOLED
    space: Space
    asked: System
    trained: list[System]
    asked_frame: pd.DataFrame  # the held-out system's own summary frame
    raw: pd.DataFrame  # its single measurements (for the noise ceiling)
    asked_groups: list[str]  # its group names in `frame`


def cross_system_data(store: Store, args: argparse.Namespace) -> CrossSystem:
    systems = store.systems()
    asked = _one_system(systems, args.cross_system)
    if args.train_on:
        trained = [_one_system(systems, w.strip()) for w in args.train_on.split(",") if w.strip()]
    else:
        trained = [
            s
            for s in systems
            if s != asked and s.host == asked.host and s.mpi_library == asked.mpi_library
        ]
    trained = [s for s in dict.fromkeys(trained) if s != asked]
    if not trained:
        raise BenchError(
            f"no system to train on beside {asked.fingerprint} ({asked.fs_type}): name them "
            "with --train-on"
        )
    chosen = [*trained, asked]
    first = training_data(store, system=asked.fingerprint, space=args.space, kind=args.kind)
    space_name = args.space or first.space.name
    parts, asked_groups = [], []
    for system in chosen:
        data = first if system == asked else None
        data = data or training_data(
            store, system=system.fingerprint, space=space_name, kind=args.kind
        )
        programs = data.frame["program"] if "program" in data.frame else [None] * len(data.frame)
        names = [_group_name(system, p, chosen) for p in programs]
        parts.append(data.frame.assign(system=POOLED, program=names))
        if system == asked:
            asked_groups = sorted(set(names))
    raw = store.measurements(asked, kind=args.kind)
    return CrossSystem(
        pd.concat(parts, ignore_index=True),
        first.space,
        asked,
        trained,
        first.frame,
        raw,
        asked_groups,
    )


def shipped_coverage(
    cross: CrossSystem, candidate: Candidate, target: str, quick: bool
) -> dict[str, Any] | None:
    """The coverage on the held-out system of the 10-90 % interval a model trained on the
    other systems ships: fitted and calibrated on their rows as `train` does
    (fit_model, calibrate), asked through TrainedModel.predict_quantiles (rows) and
    gain_shifts (pairs of configurations of one workload). None without a calibration."""
    pooled = cross.frame
    held = pooled["program"].isin(cross.asked_groups)
    train = pooled[~held].reset_index(drop=True)
    asked, _ = usable_rows(pooled[held], target)
    calibration = calibrate(train, cross.space, candidate, target=target)
    if calibration is None:
        return None
    model = fit_model(train, cross.space, candidate.name, target=target, quick=quick)
    model.metadata["calibration"] = calibration.to_dict()
    bounds = model.predict_quantiles(asked, (0.1, 0.9))
    measured = asked[target].to_numpy(dtype=float)
    inside = (measured >= bounds[:, 0]) & (measured <= bounds[:, 1])
    predicted = np.log(model.predict(asked))
    shifts = model.gain_shifts()
    per_workload: dict[str, float] = {}
    pairs_in, pairs = 0, 0
    labels = np.array(workload_labels(asked))
    for label in sorted(set(labels)):
        rows = np.flatnonzero(labels == label)
        per_workload[str(label)] = float(inside[rows].mean())
        if shifts is None or len(rows) < 2:
            continue
        first, second = np.triu_indices(len(rows), k=1)
        truth = np.log(measured[rows][first] / measured[rows][second])
        guess = predicted[rows][first] - predicted[rows][second]
        pairs_in += int(np.sum((truth >= guess + shifts[0]) & (truth <= guess + shifts[1])))
        pairs += len(first)
    return {
        "level": 0.8,
        "rows": float(inside.mean()),
        "gains": pairs_in / pairs if pairs else None,
        # How wide those intervals are (the median ratio high / low): a coverage is only
        # worth its width.
        "width": float(np.median(bounds[:, 1] / bounds[:, 0])) if len(bounds) else None,
        "gain_width": math.exp(shifts[1] - shifts[0]) if shifts is not None else None,
        "per_workload": per_workload,
        "worst_workload": min(per_workload.values()) if per_workload else None,
        "far_from_data": sorted({f for f in model.far_from_data(asked) if f}),
    }


def cross_system_main(args: argparse.Namespace, names: list[str]) -> None:
    """--cross-system: the figures of the held-out system (see the module text, 5)."""
    path = Path(args.data)
    if path.suffix == ".csv" or not path.exists():
        raise BenchError(f"--cross-system needs a knowledge base (SQLite file), got {path}")
    start = time.perf_counter()
    with open_store(str(path)) as store:
        cross = cross_system_data(store, args)
    groups = sorted(set(cross.frame["program"]))
    models = model_choices(names or None, quick=args.quick)
    evaluation = evaluate_models(
        cross.frame,
        cross.space,
        models,
        schemes=("program",),
        target=args.target,
        budget=args.budget,
        max_folds=max(args.max_folds, len(groups)),
    )
    model_seconds = time.perf_counter() - start
    results: dict[str, SchemeResult] = {}
    held: list[WorkloadScore] = []
    for candidate in models:
        scores = [
            s
            for s in evaluation.result(candidate.name, "program").workloads
            if s.program in cross.asked_groups
        ]
        held = scores
        coverage = shipped_coverage(cross, candidate, args.target, args.quick)
        results[candidate.name] = SchemeResult(
            candidate.name, candidate.description, "system", 1, figures_of(scores), scores, coverage
        )
    asked_data, _ = usable_rows(cross.asked_frame, args.target)
    _, keys = workload_keys(asked_data)
    log_bw = np.log(asked_data[args.target].to_numpy(dtype=float))
    by_workload = [log_bw[[k == key for k in keys]] for key in sorted(set(keys))]
    random = random_order_figures(by_workload, args.budget)
    ceiling = repeat_ceiling(cross.raw, cross.asked_frame, args.target, args.budget)
    seconds = time.perf_counter() - start

    def words(system: System) -> str:
        return f"{system.fs_type} ({system.host}, {system.mpi_library}, {system.fingerprint})"

    if args.json:
        report = {
            "asked": words(cross.asked),
            "trained_on": [words(s) for s in cross.trained],
            "groups": groups,
            "note": evaluation.notes["program"],
            "models": {name: dataclasses.asdict(r) for name, r in results.items()},
            "random_order": dataclasses.asdict(random),
            "repeat_ceiling": dataclasses.asdict(ceiling) if ceiling else None,
        }
        print(json.dumps(report, indent=2, allow_nan=False, default=str))
        return
    print(
        f"transfer between systems: trained on {'; '.join(words(s) for s in cross.trained)}; "
        f"asked about every workload of {words(cross.asked)} ({len(held)} workloads, never "
        f"seen); target {args.target}, budget {args.budget} trials"
    )
    print(evaluation.notes["program"])
    header = figure_header(args.budget)
    rows = []
    for name, result in results.items():
        marks = [
            *(["baseline"] if name in BASELINES else []),
            *(["previous"] if name == PREVIOUS else []),
        ]
        label = name + (f" ({', '.join(marks)})" if marks else "")
        rows.append(
            [label, *figure_cells(result.figures, args.budget), *pick_and_coverage_cells(result)]
        )
    rows.append(["random order (exact)", *figure_cells(random, args.budget), "-", "-"])
    if ceiling is not None:
        rows.append(
            ["one measurement (noise ceiling)", *figure_cells(ceiling, args.budget), "-", "-"]
        )
    print_aligned(header, rows)
    far = sorted({f for r in results.values() if r.coverage for f in r.coverage["far_from_data"]})
    print()
    print(
        "coverage: the interval a model trained on the other systems ships (its calibration "
        "on their held-out workloads), on the held-out system's rows"
        + (
            f"; flagged far from the data: {'; '.join(far)}"
            if far
            else "; no row flagged far from the data"
        )
    )
    print(f"{seconds:.1f} s ({model_seconds:.1f} s evaluating)")


def figure_header(budget: int) -> list[str]:
    """The columns of a figures table (per system and between systems alike)."""
    return [
        "method",
        "MdAPE %",
        "Spearman med / mean",
        "pick med / mean",
        "trials",
        "reached",
        f"trials, unreached = {budget + 1}",
        "pick >= 0.95",
        "in 10-90 % rows/gains/worst, width rows/gains",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", help="knowledge base (SQLite file) or summary CSV")
    parser.add_argument("--system", help="fingerprint prefix, when the base holds several")
    parser.add_argument("--space", help="parameter space (default: the data's)")
    parser.add_argument("--kind", help="only measurements of this kind (bench, csv, ...)")
    parser.add_argument(
        "--models",
        default="",
        help="comma-separated models (default: every model train compares, baselines too)",
    )
    parser.add_argument("--target", default="bw_min", choices=("bw_min", "bw_median"))
    parser.add_argument("--budget", type=int, default=10)
    parser.add_argument("--seeds", type=int, default=5, help="seeds of random and TPE")
    parser.add_argument("--max-folds", type=int, default=40)
    parser.add_argument("--quick", action="store_true", help="the smaller models of --quick")
    parser.add_argument("--json", action="store_true", help="the figures as JSON")
    parser.add_argument(
        "--cross-system",
        metavar="SYSTEM",
        help="hold out this system (file system type or fingerprint prefix) and train on others",
    )
    parser.add_argument(
        "--train-on",
        metavar="A,B",
        help="with --cross-system: the systems to train on (default: the same host and MPI)",
    )
    args = parser.parse_args()
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    names = [n.strip() for n in args.models.split(",") if n.strip()]
    if args.cross_system:
        try:
            cross_system_main(args, names)
        except (BenchError, IotunerError) as exc:
            sys.exit(f"transfer: {exc}")
        return
    start = time.perf_counter()
    try:
        frame, space, words, raw = load(args.data, args)
        evaluation = evaluate_models(
            frame,
            space,
            model_choices(names or None, quick=args.quick),
            target=args.target,
            budget=args.budget,
            max_folds=args.max_folds,
        )
    except (BenchError, IotunerError) as exc:
        sys.exit(f"transfer: {exc}")
    model_seconds = time.perf_counter() - start
    judged = [r for r in evaluation.results if r.scheme == "workload"]
    programs = [r for r in evaluation.results if r.scheme == "program"]
    selection = _select_by_figures(judged, programs) if judged else None
    ceiling = repeat_ceiling(raw, frame, args.target, args.budget) if raw is not None else None
    report: dict[str, Any] = {
        "data": words,
        "evaluation": evaluation.to_dict(),
        "repeat_ceiling": dataclasses.asdict(ceiling) if ceiling else None,
        "chosen": selection.chosen if selection else None,
        "reason": selection.reason if selection else None,
        "searches": {},
    }
    for scheme in evaluation.schemes:
        tables = held_out_tables(frame, evaluation, scheme, args.target)
        logs = [np.log(t[args.target].to_numpy(dtype=float)) for t in tables]
        report["searches"][scheme] = {
            "random": over_seeds(
                [
                    [random_trials(v, args.budget, s, w) for w, v in enumerate(logs)]
                    for s in range(args.seeds)
                ],
                args.budget,
            ),
            "tpe": over_seeds(
                [
                    [tpe_trials(t, args.target, args.budget, s, w) for w, t in enumerate(tables)]
                    for s in range(args.seeds)
                ],
                args.budget,
            ),
        }
    seconds = time.perf_counter() - start
    if args.json:
        print(json.dumps(report, indent=2, allow_nan=False))
        return
    print(f"{words}; target {args.target}, budget {args.budget} trials, {args.seeds} seeds")
    print(f"trials: {evaluation.belief}")
    if selection is not None:
        print(f"train's choice on these held-out workloads: {selection.reason}")
    header = figure_header(args.budget)

    def label(model: str) -> str:
        marks = [
            *(["train's choice"] if selection and model == selection.chosen else []),
            *(["baseline"] if model in BASELINES else []),
            *(["previous"] if model == PREVIOUS else []),
        ]
        return model + (f" ({', '.join(marks)})" if marks else "")

    for scheme in ("workload", "program"):
        print()
        print(evaluation.notes[scheme])
        if scheme not in evaluation.random:
            continue
        rows = []
        for model in evaluation.models:
            result = evaluation.result(model, scheme)
            rows.append(
                [
                    label(model),
                    *figure_cells(result.figures, args.budget),
                    *pick_and_coverage_cells(result),
                ]
            )
        random = figure_cells(evaluation.random[scheme], args.budget)
        rows.append(["random order (exact)", *random, "-", "-"])
        searches = report["searches"][scheme]
        seeds = args.seeds
        rows.append([f"random search ({seeds} seeds)", *seed_cells(searches["random"]), "-", "-"])
        rows.append([f"TPE ({seeds} seeds)", *seed_cells(searches["tpe"]), "-", "-"])
        if ceiling is not None and scheme == "workload":
            rows.append(
                ["one measurement (noise ceiling)", *figure_cells(ceiling, args.budget), "-", "-"]
            )
        print_aligned(header, rows)
        if scheme == "program":
            print_per_program(evaluation, header, args.budget)
    print()
    print(
        f"models {model_seconds:.1f} s, searches {seconds - model_seconds:.1f} s; trials are "
        "means over the workloads that reach 95 % of their best, (min .. max) over seeds;"
    )
    if ceiling is not None:
        print(
            f"noise ceiling: each of {ceiling.workloads} workloads' configurations ordered by "
            "their first repeat and judged by the other repeats"
        )


if __name__ == "__main__":
    main()
