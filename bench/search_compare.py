#!/usr/bin/env python3
"""How many measurements each search strategy needs: offline, over many seeds.

1. A full sweep on this machine with the `iotuner bench` machinery: our kernel at
   --nprocs ranks, collective writes in --layout, each size of --sizes per rank, every
   configuration of the romio-ufs space that matters to a collective write (324), each
   --repeats times. (Or --results: the results file of an earlier sweep.)
2. One offline table per size: that size's measurements, the repeats of a configuration
   summarised by their median (iotuner.search.OfflineTable).
3. On each table every strategy searches from --seeds seeds, stopping once a trial
   reaches --fraction (95 %) of the table's best, up to --budget trials (300, the
   dissertation's GA maximum): ga (the dissertation's settings: population 10, 15 %
   mutation), tpe, random, gp and model.
4. The model strategy's model is a random forest (iotuner.models.fit_model) trained on
   the knowledge base's summary of the OTHER sizes only: it has never seen a measurement
   of the workload it guides, as a model learned from earlier runs would not have.
5. Printed per table: its best, default and median, how noisy its repeats are, how many
   configurations reach the target, what random search needs on average by arithmetic
   ((N + 1) / (k + 1) draws without replacement for k good of N); then per strategy the
   median trials needed, the interquartile range and the seeds that never reached it.

It reports figures and never judges them. It takes a few minutes (the sweep about one).

    .venv/bin/python bench/search_compare.py [--seeds 20] [--results FILE.bench.jsonl]
"""

from __future__ import annotations

import argparse
import csv
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd
from rich.console import Console

from iotuner.bench import BenchPlan, parse_layout, parse_size, run_bench
from iotuner.ingest import ingest_bench
from iotuner.measurement import Measurement, Workload, measurement_from_json
from iotuner.models import TrainedModel, fit_model
from iotuner.search import OfflineObjective, OfflineTable, SearchSettings, run_search
from iotuner.space import Space, config_key, load_space
from iotuner.store import open_store

STRATEGIES = ("ga", "tpe", "random", "gp", "model")


class DefaultsFilled:
    """A trained model asked about the table's columns only: the space's other parameters
    (held at their default in the sweep) are added at their default, and numeric text
    cells become the integers the model was trained on."""

    def __init__(self, model: TrainedModel, space: Space) -> None:
        self.model = model
        self.defaults = {f"cfg:{p.name}": p.default for p in space.parameters}

    def predict_interval(self, frame: pd.DataFrame) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        frame = frame.copy()
        for column, value in self.defaults.items():
            if column not in frame:
                frame[column] = value
            else:
                frame[column] = [
                    int(v) if isinstance(v, str) and v.isdigit() else v for v in frame[column]
                ]
        return self.model.predict_interval(frame)


def sweep(args: argparse.Namespace, space: Space, workdir: Path) -> Path:
    """Measure every configuration for each size; the results file."""
    results = workdir / "sweep.bench.jsonl"
    plan = BenchPlan(
        space=space,
        nprocs=[args.nprocs],
        patterns=["collective"],
        layouts=[parse_layout(args.layout)],
        ops=["write"],
        sizes=[parse_size(s) for s in args.sizes.split(",")],
        repeats=args.repeats,
    )
    data = workdir / "data"
    data.mkdir(exist_ok=True)
    console = Console(stderr=True)
    console.print(f"sweep: {plan.measurements()} measurements into {results}")
    run_bench(plan, data, results, console)
    return results


def table_csv(measurements: list[Measurement], path: Path) -> list[str]:
    """One row per measurement: bytes_per_rank, the parameters that vary, bandwidth."""
    names = sorted({name for m in measurements for name in m.config})
    varying = [n for n in names if len({str(m.config.get(n)) for m in measurements}) > 1]
    with path.open("w", newline="") as stream:
        writer = csv.writer(stream)
        writer.writerow(["bytes_per_rank", *varying, "bandwidth"])
        for m in measurements:
            writer.writerow(
                [m.workload.bytes_per_rank, *(m.config[n] for n in varying), m.bandwidth]
            )
    return varying


def train_model(summary: pd.DataFrame, space: Space, target: int) -> DefaultsFilled:
    """A random forest on the summary rows of the sizes other than `target`."""
    other = summary[summary["bytes_per_rank"] != target]
    sizes = ", ".join(str(int(s)) for s in sorted(other["bytes_per_rank"].unique()))
    print(f"model: random forest on {len(other)} summary rows of sizes {sizes} B")
    return DefaultsFilled(fit_model(other, space, "random_forest"), space)


def describe(table: OfflineTable, space: Space, params: list[str], fraction: float) -> None:
    best = table.best("maximize")
    values = [m.value for m in table.measured.values() if m.value is not None]
    default = table.measured.get(config_key({n: space.parameter(n).default for n in params}))
    spread = [(m.high or 0) / (m.low or 1) for m in table.measured.values() if m.rows > 1 and m.low]
    good = sum(1 for v in values if v >= fraction * (best.value or 0))
    print(
        f"table: {table.rows} rows, {len(table.measured)} configurations; best "
        f"{best.value:.1f} MiB/s ({config_key(best.config)}), default "
        f"{default.value if default and default.value else float('nan'):.1f}, median "
        f"{statistics.median(values):.1f}; repeats: median max/min "
        f"{statistics.median(spread) if spread else float('nan'):.2f}"
    )
    print(
        f"{good} configurations reach {fraction:.0%} of the best: random search needs "
        f"{(len(values) + 1) / (good + 1):.1f} trials on average"
    )


def compare(
    objective: OfflineObjective,
    strategies: list[str],
    args: argparse.Namespace,
    model: DefaultsFilled | None,
    workload: Workload,
) -> None:
    print(f"{'strategy':<10}{'median':>8}{'q1':>8}{'q3':>8}{'never':>9}{'nearest':>9}{'s/seed':>8}")
    for name in strategies:
        needed: list[int] = []
        never = nearest = 0
        clock = time.monotonic()
        for seed in range(args.seeds):
            settings = SearchSettings(
                name,
                # A budget beyond the table's configurations is refused (search measures
                # each once): the whole table at most.
                budget=min(args.budget, len(objective.table.measured)),
                seed=seed,
                target_fraction=args.fraction,
                stop_at_target=True,
            )
            result = run_search(objective, settings, predictor=model, workload=workload)
            assert result.offline is not None
            nearest += result.offline.nearest_answers
            if result.offline.trials_to_target is None:
                never += 1
            else:
                needed.append(result.offline.trials_to_target)
        q1, med, q3 = np.percentile(needed, [25, 50, 75]) if needed else (np.nan,) * 3
        seconds = (time.monotonic() - clock) / args.seeds
        print(
            f"{name:<10}{med:>8.1f}{q1:>8.1f}{q3:>8.1f}{never:>6}/{args.seeds:<2}"
            f"{nearest / args.seeds:>9.1f}{seconds:>8.2f}"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=Path, help="bench results of an earlier sweep")
    parser.add_argument("--space", default="romio-ufs")
    parser.add_argument("--nprocs", type=int, default=2)
    parser.add_argument("--layout", default="strided:1k:0.5")
    parser.add_argument("--sizes", default="256k,1m,4m")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--budget", type=int, default=300)
    parser.add_argument("--fraction", type=float, default=0.95)
    parser.add_argument("--strategies", default=",".join(STRATEGIES))
    parser.add_argument("--keep", type=Path, help="keep the sweep and tables in this folder")
    args = parser.parse_args()

    space = load_space(args.space)
    strategies = args.strategies.split(",")
    with tempfile.TemporaryDirectory(prefix="search-compare-") as tmp:
        workdir = args.keep or Path(tmp)
        workdir.mkdir(parents=True, exist_ok=True)
        started = time.monotonic()
        results = args.results or sweep(args, space, workdir)
        print(f"sweep: {time.monotonic() - started:.0f} s ({results})")
        measurements = [
            measurement_from_json(line)[0]
            for line in results.read_text().splitlines()
            if line.strip()
        ]
        path = workdir / "table.csv"
        params = table_csv(measurements, path)
        with open_store(workdir / "kb.sqlite") as store:
            ingest_bench(store, results)
            summary = store.summary()
        workloads = {m.workload.bytes_per_rank: m.workload for m in measurements}
        print(
            f"{len(measurements)} measurements of {', '.join(params)}; trials to reach "
            f"{args.fraction:.0%} of each table's best over {args.seeds} seeds, budget "
            f"{args.budget}; median and quartiles over the seeds that reached it; 'never': "
            "seeds that did not; 'nearest': trials per seed answered by a neighbour (none "
            "on a full grid)"
        )
        for size, workload in sorted(workloads.items()):
            print(f"\n== {size} bytes per rank ({workload.layout} {workload.op}) ==")
            table = OfflineTable(path, param_columns=params, filters={"bytes_per_rank": str(size)})
            describe(table, space, params, args.fraction)
            model = (
                train_model(summary, space, size)
                if "model" in strategies and len(workloads) > 1
                else None
            )
            compare(OfflineObjective(table), strategies, args, model, workload)
    return 0


if __name__ == "__main__":
    sys.exit(main())
