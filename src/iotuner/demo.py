"""`iotuner demo`: the whole loop on this machine, with honest figures.

1. bench: sweep a small parameter space (demo-small) over a few workloads, under the
   interposer's trace, into a fresh knowledge base.
2. train: compare the models on those measurements and keep the one the rule picks.
3. tune: predict every configuration for every case and write the tuning table.
4. check on a workload that was NOT in the sweep (another block size, fill level and size):
   find the truly best configuration by trying them all, then run the default, the tuned
   (the interposer applying the table) and the best configuration alternately, several
   times each, every run syncing its data, and print the three bandwidths with their
   spread. The default runs are traced and their logs ingested too: the knowledge base
   keeps what the program did.
5. report: one HTML page (iotuner.report) of the knowledge base, the model, the table and
   the typical default and tuned runs, its path printed last.
"""

import random
import shutil
import statistics
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from rich.console import Console
from rich.table import Table

from iotuner._fileio import make_private_dirs
from iotuner._load import warn_if_busy
from iotuner._printable import terminal
from iotuner._progress import progress_bar, steps_bar
from iotuner._tables import breakable, print_table, whole
from iotuner.bench import (
    BenchPlan,
    calls_per_open_for,
    configurations_for,
    kernel_command,
    parse_layout,
    run_bench,
)
from iotuner.errors import ConfigError
from iotuner.ingest import ingest_bench, ingest_trace
from iotuner.learn import training_data
from iotuner.measurement import Workload
from iotuner.models import load_model, render_train_summary, train_command
from iotuner.runner import RunResult, run
from iotuner.space import Configuration, Space, config_key, load_space
from iotuner.store import Store, open_store
from iotuner.table import write_table
from iotuner.tracelog import TraceLog, read_tracelog
from iotuner.tune import tune

__all__ = ["DemoSettings", "Series", "run_demo"]

SWEEP_LAYOUTS = ("contiguous", "strided:4k:0.5", "strided:64k:0.1")
SWEEP_SIZES = (512 << 10, 4 << 20)
SWEEP_OPEN_BYTES = 8 << 20
"""Bytes per rank per open in the demo's sweep: an eighth of bench's default, so the whole
demo stays within a few minutes on two cores (512 KiB x 16 calls, 4 MiB x 2 calls)."""
UNSEEN = Workload(
    nprocs=4,
    nodes=1,
    pattern="collective",
    op="write",
    layout="strided",
    bytes_per_rank=2 << 20,
    block=16 << 10,
    fill=0.25,
    calls_per_open=calls_per_open_for(2 << 20, SWEEP_OPEN_BYTES),
)
"""Collective writes of 16 KiB blocks covering a quarter of the file, 2 MiB per rank per
call, as many calls per open as the sweep's rule gives: a block size, fill level and size
the sweep never measured."""


@dataclass
class DemoSettings:
    """What the demo runs: ranks, repeats, and where it works."""

    nprocs: int = 2
    repeats: int = 5
    workdir: Path = Path("demo-output")
    sweep_repeats: int = 3


@dataclass
class Series:
    """The bandwidths (MiB/s) of one configuration over the repeats."""

    name: str
    hints: dict[str, str]
    bandwidths: list[float] = field(default_factory=list)
    logs: list[Path] = field(default_factory=list)
    """The trace logs of its runs, one per run, in the order of `bandwidths`."""

    @property
    def median(self) -> float:
        return statistics.median(self.bandwidths)

    def typical_log(self) -> Path | None:
        """The trace of the run whose bandwidth is nearest the median: the one to show."""
        if not self.logs:
            return None
        if len(self.logs) != len(self.bandwidths):
            return self.logs[0]
        nearest = min(
            range(len(self.bandwidths)), key=lambda i: abs(self.bandwidths[i] - self.median)
        )
        return self.logs[nearest]


def _bandwidth(result: RunResult) -> float:
    """The kernel's own figure: bytes over the slowest rank's open-to-close time (with sync)."""
    for line in result.stdout.splitlines():
        if line.startswith("iokernel:") and "op=write" in line:
            fields = dict(part.split("=", 1) for part in line.split()[1:])
            return float(fields["bandwidth_mib_s"])
    raise ConfigError(f"the kernel printed no bandwidth:\n{result.stdout}\n{result.stderr}")


def _sweep(
    settings: DemoSettings,
    space: Space,
    data_dir: Path,
    results: Path,
    store: Store,
    console: Console,
) -> None:
    """Step 1: the demo space's sweep, traced, into the knowledge base."""
    plan = BenchPlan(
        space,
        [settings.nprocs],
        ["collective", "independent"],
        [parse_layout(text) for text in SWEEP_LAYOUTS],
        ["write"],
        list(SWEEP_SIZES),
        repeats=settings.sweep_repeats,
        open_bytes=SWEEP_OPEN_BYTES,
    )
    console.print(
        f"space {space.name} ({space.size} configurations), {len(plan.workloads)} "
        f"workloads, {plan.measurements()} measurements, data in {data_dir}"
    )
    run_bench(plan, data_dir, results, console)
    counts = ingest_bench(store, results)
    console.print(f"knowledge base {store.url}: {counts.added} measurements added")


def run_demo(settings: DemoSettings, console: Console) -> dict[str, Series]:
    """Run the demo and print what it found; returns the default, tuned and best series."""
    if settings.nprocs < 1 or settings.repeats < 1:
        raise ConfigError(
            f"--nprocs and --repeats must be at least 1, got {settings.nprocs} "
            f"and {settings.repeats}"
        )
    warn_if_busy()  # before the sweep: its figures are noise on a busy machine
    workdir = settings.workdir.absolute()
    shutil.rmtree(workdir, ignore_errors=True)
    data_dir = workdir / "data"
    make_private_dirs(data_dir)  # private, as everything iotuner writes (_fileio)
    store = open_store(workdir / "knowledge.sqlite")
    space = load_space("demo-small")
    unseen = Workload(
        settings.nprocs,
        1,
        UNSEEN.pattern,
        UNSEEN.op,
        UNSEEN.layout,
        UNSEEN.bytes_per_rank,
        UNSEEN.block,
        UNSEEN.fill,
        UNSEEN.calls_per_open,
    )

    started = time.monotonic()

    def step(title: str) -> None:
        console.rule(f"{title}  [dim](at {time.monotonic() - started:.0f} s)[/]")

    step("1. bench: sweep the demo space, traced, into a fresh knowledge base")
    _sweep(settings, space, data_dir, workdir / "sweep.bench.jsonl", store, console)

    step("2. train on the median of the repeats: compare models, keep the rule's choice")
    data = training_data(store, space=space.name)
    # The median of the repeats, not the thesis' minimum: on this kind of machine (one
    # local disk, page cache, fsync) a single slow sync can cut one repeat tenfold, and a
    # model of those outliers tunes nothing.
    with steps_bar(terminal(stderr=True), "train") as steps:
        report = train_command(
            data.frame, space, workdir / "model", target="bw_median", quick=True, progress=steps
        )
    render_train_summary(report, console)

    step("3. tune: predict every configuration for every case")
    result = tune(load_model(workdir / "model"), space, data.frame, progress=terminal(stderr=True))
    table = workdir / "tuned-table.jsonl"
    write_table(table, result.entries, fs_type=data.system.fs_type)
    changed = sum(not c.kept_default for c in result.choices)
    console.print(
        f"{table}: {len(result.entries)} entries, {changed} of {len(result.choices)} "
        f"cases differ from the default (noise {result.noise:.0%})"
    )

    step("4. a workload the sweep never saw")
    console.print(
        f"{unseen.nprocs} ranks, {unseen.pattern} {unseen.op}s, {unseen.block // 1024} "
        f"KiB blocks covering {unseen.fill:.0%} of the file, "
        f"{unseen.bytes_per_rank >> 20} MiB per rank per call, {unseen.calls_per_open} "
        "calls per open"
    )
    oracle = _try_them_all(unseen, space, data_dir, settings.sweep_repeats)
    best_config = max(oracle, key=lambda key: statistics.median(oracle[key][1]))
    series = _compare(
        unseen, space, oracle[best_config][0], table, data_dir, workdir, settings.repeats, store
    )
    _print_comparison(console, series, len(oracle))
    step("5. report: one HTML page of the above")
    page = _write_report(workdir, table, series)
    console.print(f"report: {page} (open it in a browser)")
    console.print(f"done in {time.monotonic() - started:.0f} s; everything is in {workdir}")
    store.close()
    return series


def _write_report(workdir: Path, table: Path, series: dict[str, Series]) -> Path:
    """The report of the knowledge base, model, table and the typical default and tuned
    runs of the unseen workload (imported here: matplotlib is needed only now)."""
    from iotuner.report import ReportInputs, write_report

    default_log, tuned_log = series["default"].typical_log(), series["tuned"].typical_log()
    both = default_log is not None and tuned_log is not None
    inputs = ReportInputs(
        db=str(workdir / "knowledge.sqlite"),
        model=workdir / "model",
        table=table,
        logs=(tuned_log,) if tuned_log is not None else (),
        default_log=default_log if both else None,
        tuned_log=tuned_log if both else None,
        title="iotuner demo report",
        extra={"working directory": str(workdir)},
    )
    return write_report(workdir / "report.html", inputs)


def _hint_args(hints: dict[str, str]) -> list[str]:
    return [arg for key, value in hints.items() for arg in ("--hint", f"{key}={value}")]


def _try_them_all(
    workload: Workload, space: Space, data_dir: Path, repeats: int
) -> dict[str, tuple[Configuration, list[float]]]:
    """Every configuration that matters to the workload, `repeats` times, in a shuffled
    order (the oracle). Each is a run of its own, as in the comparison that follows, so
    both measure the same way."""
    configs = configurations_for(space, workload)
    order = [(config, repeat) for config in configs for repeat in range(repeats)]
    random.Random(0).shuffle(order)
    found: dict[str, tuple[Configuration, list[float]]] = {}
    with _counting("demo: every configuration", len(order)) as advance:
        for config, repeat in order:
            command = kernel_command(
                workload, data_dir / f"oracle_{repeat}.dat", *_hint_args(space.hints(config))
            )
            result = run(command, mode="off", capture=True, timeout=300)
            if result.returncode != 0:
                raise ConfigError(f"the kernel failed ({result.returncode}):\n{result.stderr}")
            found.setdefault(config_key(config), (config, []))[1].append(_bandwidth(result))
            advance()
    return found


@contextmanager
def _counting(what: str, total: int) -> Iterator[Callable[[], None]]:
    """A bar of `total` runs on stderr (in a log, a line a minute: _progress); the
    callable counts one done."""
    with progress_bar(terminal(stderr=True)) as bar:
        task = bar.add_task(what, total=total)
        yield lambda: bar.advance(task)


def _compare(
    workload: Workload,
    space: Space,
    best: Configuration,
    table: Path,
    data_dir: Path,
    workdir: Path,
    repeats: int,
    store: Store,
) -> dict[str, Series]:
    """Default (traced), tuned (the interposer applies the table) and best (its hints given
    by the program), alternately."""
    log_dir = workdir / "logs"
    best_hints = space.hints(best)
    series = {
        "default": Series("default", {}),
        "tuned": Series("tuned", {}),
        "best": Series("best (tried all)", best_hints),
    }
    with _counting("demo: default, tuned and best, alternately", 3 * repeats) as advance:
        for repeat in range(repeats):
            for name, mode, extra in (
                ("default", "trace", []),
                ("tuned", "tune,trace", []),
                (
                    "best",
                    "trace",
                    [arg for k, v in best_hints.items() for arg in ("--hint", f"{k}={v}")],
                ),
            ):
                target = data_dir / f"unseen_{name}_{repeat:03d}.dat"
                command = kernel_command(workload, target, *extra)
                result = run(
                    command,
                    mode=mode,
                    table=table if mode.startswith("tune") else None,
                    log_dir=log_dir,
                    capture=True,
                    timeout=300,
                )
                if result.returncode != 0:
                    raise ConfigError(f"the kernel failed ({result.returncode}):\n{result.stderr}")
                series[name].bandwidths.append(_bandwidth(result))
                series[name].logs.extend(result.logs)
                if name == "tuned" and result.logs:
                    series[name].hints = _applied(read_tracelog(result.logs[0]))
                if name == "default":
                    for log in result.logs:
                        ingest_trace(store, log)
                advance()
    return series


def _applied(log: TraceLog) -> dict[str, str]:
    """The hints the table made the interposer request, as MPI reported them."""
    applied: dict[str, str] = {}
    for record in log.hints:
        for key in record["table"]:
            applied[key] = record["effective"].get(key, record["table"][key])
    return applied


def _print_comparison(console: Console, series: dict[str, Series], tried: int) -> None:
    tuned, default = series["tuned"], series["default"]
    # First, the promise iotuner must keep: never slower than the default. Beyond the
    # noise means every tuned run below every default run (the rule of bench/real_programs).
    slower = max(tuned.bandwidths) < min(default.bandwidths)
    console.print(
        f"[bold]tuned slower than the default beyond the noise: {'yes' if slower else 'no'}[/]"
        " (every tuned run below every default run would be)"
    )
    best = series["best"].median
    table = Table(
        title=f"write bandwidth, MiB/s (open to close, with sync); best of {tried} "
        f"configurations tried"
    )
    for column in ("configuration", "hints", "median", "min", "max", "of best", "runs"):
        table.add_column(
            column, justify="left" if column in ("configuration", "hints") else "right"
        )
    for s in series.values():
        table.add_row(
            s.name,
            breakable(config_key(s.hints)) if s.hints else "(none)",
            *map(
                whole,
                (
                    f"{s.median:.1f}",
                    f"{min(s.bandwidths):.1f}",
                    f"{max(s.bandwidths):.1f}",
                    f"{s.median / best:.0%}" if best > 0 else "-",
                    str(len(s.bandwidths)),
                ),
            ),
        )
    print_table(console, [(table, None)])
    ratio = tuned.median / default.median if default.median > 0 else float("nan")
    overlap = min(tuned.bandwidths) <= max(default.bandwidths)
    console.print(
        f"tuned / default (medians): [bold]{ratio:.2f}x[/]; "
        + (
            "the ranges overlap: not clearly different from the default"
            if overlap
            else "every tuned run beat every default run"
        )
    )
