#!/usr/bin/env python3
"""How long the performance models take to fit and predict, and how well they predict.

Two synthetic summary frames of realistic size (iotuner.models.synthetic_summary_frame):

    thesis   the dissertation's shape (Table 5.2): one scale (24 processes), collective
             writes, 39 sizes from 100 B to 200 MB x the 108 configurations of the shipped
             thesis-lustre space = 4212 rows; leave-one-group-out holds out size groups
    scales   demo-small (18 configurations) x 5 scales (1 to 16 processes) x 2 patterns x
             2 layouts x 12 sizes = 4320 rows; leave-one-group-out holds out whole scales

For each frame: the model comparison of `iotuner train` (70/30 split over --seeds seeds,
and leave-one-group-out) with the chosen model, then each model fitted on all rows and
timed predicting every row (point and quantiles), then Kunkel's report and the SCTuner
analysis with their times.

    .venv/bin/python bench/models.py [--seeds N] [--quick] [--frames thesis,scales]

It reports figures and never judges them.
"""

import argparse
import math
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd
from rich.console import Console
from rich.table import Table

from iotuner.models import (
    analyze,
    candidates,
    compare_models,
    fit_model,
    kunkel_report,
    render_comparison,
    select_model,
    synthetic_summary_frame,
)
from iotuner.space import Space, load_space


def thesis_frame() -> tuple[pd.DataFrame, Space]:
    space = load_space("thesis-lustre")
    sizes = [int(s) for s in np.geomspace(100, 200_000_000, 39)]
    frame = synthetic_summary_frame(
        space,
        sizes=sizes,
        nprocs=(24,),
        patterns=("collective",),
        noise=0.15,
        size_flip="romio_cb_write",
        seed=1,
    )
    return frame, space


def scales_frame() -> tuple[pd.DataFrame, Space]:
    space = load_space("demo-small")
    sizes = [int(s) for s in np.geomspace(1024, 64 * 1024 * 1024, 12)]
    frame = synthetic_summary_frame(
        space,
        sizes=sizes,
        nprocs=(1, 2, 4, 8, 16),
        layouts=("contiguous", "strided"),
        noise=0.15,
        size_flip="romio_cb_write",
        seed=2,
    )
    return frame, space


FRAMES: dict[str, Callable[[], tuple[pd.DataFrame, Space]]] = {
    "thesis": thesis_frame,
    "scales": scales_frame,
}


def timed(action: Callable[[], Any]) -> tuple[Any, float]:
    start = time.perf_counter()
    result = action()
    return result, time.perf_counter() - start


def bench_frame(name: str, seeds: int, quick: bool, console: Console) -> None:
    (frame, space), made = timed(FRAMES[name])
    console.rule(f"[bold]{name}[/]: {len(frame)} rows, space {space.name} ({made:.2f} s to make)")
    comparison, seconds = timed(lambda: compare_models(frame, space, seeds=seeds, quick=quick))
    chosen, reason = select_model(comparison.scores)
    render_comparison(comparison, console, chosen=chosen)
    console.print(f"chosen {reason}")
    console.print(f"comparison took {seconds:.1f} s")

    table = Table(
        "model",
        "fit all rows s",
        "predict all rows s",
        "µs per row",
        "quantiles s",
        title=f"Fitted on all {len(frame)} rows, predicting all of them",
        title_justify="left",
    )
    for candidate in candidates(quick=quick):
        residuals = comparison.residuals[candidate.name]
        model, fit_s = timed(
            lambda c=candidate, r=residuals: fit_model(
                frame, space, c.name, quick=quick, residuals=r
            )
        )
        _, predict_s = timed(lambda m=model: m.predict(frame))
        _, quantile_s = timed(lambda m=model: m.predict_quantiles(frame, (0.1, 0.9)))
        table.add_row(
            candidate.name,
            f"{fit_s:.3f}",
            f"{predict_s:.4f}",
            f"{predict_s / len(frame) * 1e6:.2f}",
            f"{quantile_s:.4f}",
        )
    console.print(table)

    report, kunkel_s = timed(lambda: kunkel_report(frame, space))
    console.print(
        f"Kunkel: {kunkel_s:.2f} s; PM depth {report.pm.depth}, CV MAPE {report.pm_cv_mape:.1f} %; "
        f"PSM best in {_pct(report.psm_cv_best_fraction)} of {report.workloads} workloads"
    )
    for c in report.choices:
        console.print(
            f"  {c.choice[:60]:60} arith {c.arithmetic:9.1f} ({_pct(c.arithmetic_of_best)})"
            f"  harm {c.harmonic:9.1f} ({_pct(c.harmonic_of_best)})"
        )
    result, analyze_s = timed(lambda: analyze(frame, space))
    default = result.default
    console.print(
        f"SCTuner analysis: {analyze_s:.2f} s; {result.cluster_rule}; "
        f"{len(result.good)} consistently good, {len(result.bad)} consistently bad; "
        + (f"default rank {default.rank} of {len(result.configs)}" if default else "no default")
    )


def _pct(value: float) -> str:
    return "-" if math.isnan(value) else f"{value * 100:.1f} %"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=10, help="70/30 repetitions (default 10)")
    parser.add_argument("--quick", action="store_true", help="the quick zoo of `train --quick`")
    parser.add_argument("--frames", default="thesis,scales", help="frames to run (thesis,scales)")
    args = parser.parse_args()
    console = Console(width=160)
    for name in args.frames.split(","):
        bench_frame(name.strip(), args.seeds, args.quick, console)


if __name__ == "__main__":
    main()
