"""`tune`: every case of every scale predicted, decided and written as table entries, with
progress on stderr when asked for.
"""

import math
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

import numpy as np
import pandas as pd
from rich.console import Console

from iotuner._progress import progress_bar
from iotuner.bench import KERNEL_PROGRAM
from iotuner.errors import ConfigError
from iotuner.formats import size_groups
from iotuner.measurement import CONFIG_PREFIX, Workload
from iotuner.space import Space
from iotuner.table import TableEntry
from iotuner.tune._cases import (
    ENUMERATION_LIMIT,
    OPTIMISE_POOL,
    OPTIMISE_ROUND_SIZE,
    OPTIMISE_ROUNDS,
    CountingPredictor,
    Predictor,
    calls_per_open,
    measured_in_summary,
    measurement_noise,
    memory_pieces,
    optimise_scale,
    predict_case,
    representative_bytes,
)
from iotuner.tune._result import (
    Choice,
    TuneResult,
)
from iotuner.tune._scale import tune_scale

__all__ = [
    "EXTRAPOLATE_FACTOR",
    "predicted_size_groups",
    "tune",
    "tune_method",
]


def tune_method(space: Space) -> tuple[str, str]:
    """How tune searches a space ("enumerated" or "optimised") and why, in a sentence."""
    if space.size <= ENUMERATION_LIMIT:
        return "enumerated", (
            f"space {space.name!r} has {space.size:,} configurations (at most "
            f"{ENUMERATION_LIMIT:,}): every one is predicted for every case"
        )
    return "optimised", (
        f"space {space.name!r} has {space.size:.3g} configurations (more than "
        f"{ENUMERATION_LIMIT:,}): per case, {OPTIMISE_POOL} random configurations and a local "
        f"search of at most {OPTIMISE_ROUNDS} x {OPTIMISE_ROUND_SIZE} over the model's "
        "lower bound, then every case of a scale at the union of the cases' best"
    )


EXTRAPOLATE_FACTOR = 4
"""How far beyond the trained sizes (a factor on bytes per rank) a size group may inherit
the nearest trained group's choice."""


def predicted_size_groups(summary: pd.DataFrame) -> tuple[list[int], list[int]]:
    """The size groups tune predicts from a training frame: those that overlap the trained
    bytes per rank, and those beyond them by at most EXTRAPOLATE_FACTOR (collective cases
    only, under the stricter evidence of tune's module docstring)."""
    low_bytes, high_bytes = summary["bytes_per_rank"].min(), summary["bytes_per_rank"].max()
    trained = [
        g.number
        for g in size_groups()
        if g.first <= high_bytes and (g.end is None or g.end > low_bytes)
    ]
    beyond = [
        g.number
        for g in size_groups()
        if g.number not in trained
        and low_bytes / EXTRAPOLATE_FACTOR
        <= representative_bytes(g.number)
        <= high_bytes * EXTRAPOLATE_FACTOR
    ]
    return trained, beyond


def compared_scales(summary: pd.DataFrame) -> tuple[list[int], list[int]]:
    """The ranks at which `summary` has measurements to tune from, and those where it has
    only programs' runs in one configuration. RATIONALE: a program's traced runs add rows
    at their own scale in the configuration in force (one incidental 1-rank header read of
    a 2-rank program is a 1-rank row); an entry for a scale where no configuration was
    compared with another would rest on the model's extrapolation alone, and is not
    written. Rows of the kernel (bench) or of no named program count as measurements."""
    columns = [c for c in summary.columns if c.startswith(CONFIG_PREFIX)]
    programs = (
        summary["program"] if "program" in summary.columns else pd.Series(None, summary.index)
    )
    compared: list[int] = []
    only_programs: list[int] = []
    for nprocs, rows in summary.groupby("nprocs"):
        configs = len(rows[columns].astype(str).drop_duplicates()) if columns else 1
        names = programs.loc[rows.index]
        by_programs = names.notna().all() and not (names == KERNEL_PROGRAM).any()
        (only_programs if by_programs and configs < 2 else compared).append(int(str(nprocs)))
    return sorted(compared), sorted(only_programs)


def tune_shapes(summary: pd.DataFrame, layout: str) -> list[tuple[int, float, int | None]]:
    """The shapes (file block, fill, memory piece) the cases of `layout` predict and
    compare in: the file's blocks of the training data's rows (a contiguous file: one),
    each with contiguous memory (memory_block None, as the kernel's rows were before it
    had pieces) and with every memory piece size the rows measured or traced in it. A
    program's phase from noncontiguous memory is a shape of its own: a gain measured on
    contiguous memory is not its gain (issue 41)."""
    rows = summary[summary["layout"] == layout]
    memory = memory_pieces(rows)
    if layout == "contiguous":
        files = [(0, 1.0)] * len(rows)
        shapes: set[tuple[int, float, int | None]] = {(0, 1.0, None)}
    else:
        files = list(zip(rows["block"].astype(int), rows["fill"].astype(float), strict=True))
        shapes = {(block, fill, None) for block, fill in files}
    shapes |= {(b, f, int(m)) for (b, f), m in zip(files, memory, strict=True) if m > 0}
    return sorted(shapes, key=lambda s: (s[0], s[1], s[2] or 0))


def tune(
    predictor: Predictor,
    space: Space,
    summary: pd.DataFrame,
    *,
    scales: Sequence[int] | None = None,
    method: str | None = None,
    seed: int = 0,
    progress: Console | None = None,
) -> TuneResult:
    """The tuning table for the cases the training data covers (`summary`: the frame the
    model learned from, for its ranges, shapes and noise). `method` "enumerated" or
    "optimised" overrides tune_method's choice; `seed` seeds the optimisation; with a
    `progress` console (stderr), the cases done are shown on it."""
    if summary.empty:
        raise ConfigError("no training data: nothing to tune from")
    chosen, why = tune_method(space)
    if method is not None:
        if method not in ("enumerated", "optimised"):
            raise ConfigError(f"method must be enumerated or optimised, got {method!r}")
        if method == "enumerated" and chosen == "optimised":
            raise ConfigError(f"cannot enumerate: {why}")
        chosen, why = method, f"{method} as asked"
    counted = CountingPredictor(predictor)
    rng = np.random.default_rng(seed)
    noise = measurement_noise(summary)
    trained, _ = predicted_size_groups(summary)
    choices: list[Choice] = []
    entries: list[TableEntry] = []
    left_out: list[int] = []
    if scales is None:
        scales, left_out = compared_scales(summary)
    per_scale = [_scale_workloads(summary, int(nprocs)) for nprocs in scales]
    with _progress(progress, sum(map(len, per_scale)), chosen) as advance:
        for pending in per_scale:
            if chosen == "enumerated":
                cases = []
                for workloads, group, distance in pending:
                    cases.append(predict_case(counted, space, workloads, group, distance))
                    advance()
            else:
                cases = optimise_scale(counted, space, pending, rng, advance)
            for case in cases:
                case.measured = measured_in_summary(summary, case, space)
            scale_entries, scale_choices = tune_scale(cases, space, noise, trained)
            entries += scale_entries
            choices += scale_choices
    rule = (
        "an entry needs held-out configurations predicted to gain as much to have gained in "
        "the median and lost no more than the noise in nine of ten"
        if counted.gain_bounds is not None
        else "an entry needs its lower bound above the default's upper bound"
    )
    return TuneResult(entries, choices, noise, chosen, why, counted.rows, rule, tuple(left_out))


def _scale_workloads(summary: pd.DataFrame, nprocs: int) -> list[tuple[list[Workload], int, int]]:
    """The workloads tune predicts at one scale, per (pattern, op, layout) the training
    data has and size group: one per shape of that layout, with the group and its
    distance (in doublings) from the sizes measured (0 inside them)."""
    low_bytes, high_bytes = summary["bytes_per_rank"].min(), summary["bytes_per_rank"].max()
    trained, beyond = predicted_size_groups(summary)
    shapes_of = {layout: tune_shapes(summary, layout) for layout in ("contiguous", "strided")}
    nodes = int(summary["nodes"].max())
    combinations = sorted(
        summary[["pattern", "op", "layout"]].drop_duplicates().itertuples(index=False)
    )
    pending: list[tuple[list[Workload], int, int]] = []
    for pattern, op, layout in combinations:
        shapes = shapes_of.get(layout, [])
        groups = trained + (beyond if pattern == "collective" else [])
        for group in sorted(groups):
            size = representative_bytes(group)
            workloads = [
                Workload(
                    nprocs=nprocs,
                    nodes=nodes,
                    pattern=pattern,
                    op=op,
                    layout=layout,
                    bytes_per_rank=max(int(block), size - size % int(block)) if block else size,
                    block=int(block),
                    fill=float(fill),
                    calls_per_open=calls_per_open(summary, size),
                    memory_block=memory,
                )
                for block, fill, memory in shapes
            ]
            distance = (
                0
                if group in trained
                else math.ceil(
                    abs(math.log2(size / (low_bytes if size < low_bytes else high_bytes)))
                )
            )
            pending.append((workloads, group, distance))
    return pending


@contextmanager
def _progress(console: Console | None, total: int, method: str) -> Iterator[Callable[[], None]]:
    """A function to call per case done, shown as a bar on `console` (none: no output)."""
    if console is None:
        yield lambda: None
        return
    bar = progress_bar(console)
    with bar:
        task = bar.add_task(f"tune ({method}): cases", total=total)
        yield lambda: bar.advance(task)
