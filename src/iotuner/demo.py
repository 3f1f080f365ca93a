"""`iotuner demo`: the loop on one workload, start to end, with honest figures.

1. Run our MPI-IO kernel with default settings, traced: the trace history.
2. Derive open-time entries from that history and the shipped example table
   (`iotuner table derive`).
3. Run the kernel with default settings and tuned, alternately, several times; every run
   syncs its data to storage. Report the median bandwidth of each with its spread, and the
   hints the tuned runs requested and MPI reported back.

The workload writes to a new file per run (sparse_<n>.dat), as a program writing one
checkpoint per step would; the derived entry matches them all through the pattern
sparse_*.dat.
"""

import shutil
import statistics
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from rich.console import Console
from rich.table import Table

from iotuner.errors import ConfigError
from iotuner.history import derive_open_entries, merge_tables
from iotuner.runner import RunResult, build_config, find_program, run
from iotuner.table import read_table, write_table
from iotuner.tracelog import TraceLog, read_tracelog

__all__ = ["DemoSettings", "run_demo"]

WORKLOAD = (
    "--pattern",
    "independent",
    "--layout",
    "strided",
    "--block",
    "32k",
    "--fill",
    "0.1",
    "--size",
    "8m",
    "--api",
    "individual",
)
"""Sparse non-contiguous independent writes: 32 KiB blocks covering 10 % of the file."""


@dataclass
class DemoSettings:
    """What the demo runs: ranks, repeats of each configuration, and where it works."""

    nprocs: int = 4
    repeats: int = 5
    workdir: Path = Path("demo-output")
    keep_data: bool = False


@dataclass
class Series:
    """The bandwidths (MiB/s) of one configuration over the repeats."""

    name: str
    bandwidths: list[float] = field(default_factory=list)

    @property
    def median(self) -> float:
        return statistics.median(self.bandwidths)


def example_table() -> Path:
    """The shipped example table (package data)."""
    return Path(str(resources.files("iotuner") / "examples" / "demo-table.jsonl"))


def _bandwidth(result: RunResult) -> float:
    """The kernel's own figure: bytes over the slowest rank's open-to-close time (with sync)."""
    for line in result.stdout.splitlines():
        if line.startswith("iokernel: op=write"):
            fields = dict(part.split("=", 1) for part in line.split()[1:])
            return float(fields["bandwidth_mib_s"])
    raise ConfigError(f"the kernel printed no bandwidth:\n{result.stdout}\n{result.stderr}")


def run_demo(settings: DemoSettings, console: Console) -> tuple[Series, Series]:
    """Run the demo and print what it found; returns the default and tuned series."""
    if settings.nprocs < 1 or settings.repeats < 1:
        raise ConfigError(
            f"--nprocs and --repeats must be at least 1, got {settings.nprocs} "
            f"and {settings.repeats}"
        )
    mpiexec = build_config().mpiexec
    kernel = str(find_program("iokernel"))
    workdir = settings.workdir.absolute()
    data_dir, log_dir = workdir / "data", workdir / "logs"
    shutil.rmtree(workdir, ignore_errors=True)
    data_dir.mkdir(parents=True)
    runs = 0

    def kernel_run(mode: str, table: Path | None) -> RunResult:
        nonlocal runs
        runs += 1
        command = [
            mpiexec,
            "-n",
            str(settings.nprocs),
            kernel,
            "--file",
            str(data_dir / f"sparse_{runs:04d}.dat"),
            *WORKLOAD,
        ]
        result = run(command, mode=mode, table=table, log_dir=log_dir, capture=True, timeout=300)
        if result.returncode != 0:
            raise ConfigError(f"the kernel failed ({result.returncode}):\n{result.stderr}")
        if not settings.keep_data:
            (data_dir / f"sparse_{runs:04d}.dat").unlink(missing_ok=True)
        return result

    console.print(
        f"[bold]iotuner demo[/]: {settings.nprocs} ranks, sparse independent writes "
        f"({' '.join(WORKLOAD)}), {settings.repeats} repeats each, data synced to storage"
    )
    console.print("1. tracing the program with default settings")
    history = [read_tracelog(log) for log in kernel_run("trace", None).logs]

    console.print("2. deriving open-time entries from the trace and the example table")
    base = read_table(example_table())
    derived = derive_open_entries(history, base)
    tuned_table = workdir / "tuned-table.jsonl"
    write_table(tuned_table, merge_tables(derived, base))
    for entry in derived:
        console.print(f"   {entry.program} {entry.file} x{entry.nprocs}: {entry.hints}")
        console.print(f"   [dim]{entry.note}[/]")
    if not derived:
        console.print("   the table has nothing for this access: the tuned runs use defaults")

    console.print("3. default and tuned runs, alternating")
    default, tuned = Series("default"), Series("tuned")
    tuned_log: TraceLog | None = None
    for _ in range(settings.repeats):
        default.bandwidths.append(_bandwidth(kernel_run("trace", None)))
        result = kernel_run("tune,trace", tuned_table)
        tuned.bandwidths.append(_bandwidth(result))
        tuned_log = read_tracelog(result.logs[0]) if result.logs else tuned_log

    _print_results(console, default, tuned)
    if tuned_log is not None:
        _print_hints(console, tuned_log)
    console.print(f"logs: {log_dir}   tuned table: {tuned_table}")
    return default, tuned


def _print_results(console: Console, default: Series, tuned: Series) -> None:
    table = Table(title="write bandwidth, MiB/s (open to close, with sync)")
    for column in ("configuration", "median", "min", "max", "runs"):
        table.add_column(column, justify="left" if column == "configuration" else "right")
    for series in (default, tuned):
        values = series.bandwidths
        table.add_row(
            series.name,
            f"{series.median:.1f}",
            f"{min(values):.1f}",
            f"{max(values):.1f}",
            str(len(values)),
        )
    console.print(table)
    ratio = tuned.median / default.median if default.median > 0 else float("nan")
    overlap = min(tuned.bandwidths) <= max(default.bandwidths)
    verdict = (
        "the ranges overlap: not clearly better than the default"
        if overlap
        else "every tuned run beat every default run"
    )
    console.print(f"tuned / default (medians): [bold]{ratio:.2f}x[/] ({verdict})")


def _print_hints(console: Console, log: TraceLog) -> None:
    table = Table(title="hints of the last tuned run: requested and reported by MPI_File_get_info")
    for column in ("decision", "key", "requested", "effective", "note"):
        table.add_column(column)
    for record in log.hints:
        unhonoured = {u["key"]: u["reason"] for u in record["unhonoured"]}
        for key, value in record["requested"].items():
            table.add_row(
                record["at"], key, value, record["effective"].get(key, "-"), unhonoured.get(key, "")
            )
    console.print(table)
