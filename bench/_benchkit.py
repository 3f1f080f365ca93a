"""What the benchmarks of bench/ share: finding the installation, running the interposer in
the ranks only, the overhead figures and aligned tables. Standard library only, so a
benchmark runs with any Python 3.11 (imported as `_benchkit` from beside it)."""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


class BenchError(Exception):
    """A problem that ends a benchmark with a message instead of a traceback."""


def bench_main(main: Callable[[list[str]], None]) -> None:
    """Runs a bench script's `main` on the command line's arguments and exits: 0, or 1
    with a BenchError's message on stderr."""
    try:
        main(sys.argv[1:])
    except BenchError as e:
        print(e, file=sys.stderr)
        sys.exit(1)
    sys.exit(0)


def find_library(given: str | None = None) -> Path:
    """The interposer: `given`, else $IOTUNER_LIB, else the one setup.sh installed."""
    if given:
        return Path(given)
    env = os.environ.get("IOTUNER_LIB")
    return Path(env) if env else REPO / ".venv/lib/iotuner/libiotuner.so"


def find_mpiexec(given: str | None, who: str) -> str:
    """`given`, else the launcher setup.sh installed, else the one on PATH."""
    if given:
        return given
    local = REPO / ".venv/bin/mpiexec"
    if local.is_file() and os.access(local, os.X_OK):
        return str(local)
    found = shutil.which("mpiexec")
    if found is None:
        raise BenchError(
            f"{who}: no mpiexec: neither {local} nor one on PATH (run ./setup.sh, or pass "
            "--mpiexec)"
        )
    return found


def find_program(name: str, who: str) -> Path:
    """A program of bench/, installed by setup.sh or built by make."""
    for candidate in (REPO / ".venv/libexec/iotuner" / name, REPO / "build/bench" / name):
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return candidate
    raise BenchError(
        f"{who}: the benchmark program was not found in .venv/libexec/iotuner/ or build/bench/ "
        f"(run ./setup.sh, or make MPICC=... build/bench/{name})"
    )


def env_flag(mpiexec: str) -> list[str]:
    """How this mpiexec sets a variable for the ranks only (so mpiexec itself is not
    preloaded): the launcher options iotuner.runner.preload_ranks_only uses."""
    try:
        out = subprocess.run(
            [mpiexec, "--version"], capture_output=True, text=True, timeout=60
        ).stdout
    except (OSError, subprocess.TimeoutExpired):
        out = ""
    if "Open MPI" in out or "OpenRTE" in out:
        return ["-x", "{name}={value}"]
    return ["-genv", "{name}", "{value}"]  # MPICH's Hydra, Intel MPI


def clean_environment(drop: Sequence[str] = ("IOTUNER_",)) -> dict[str, str]:
    """The caller's environment without LD_PRELOAD and the variables starting with `drop`
    (the interposer's, and for some benchmarks ROMIO's)."""
    return {
        k: v for k, v in os.environ.items() if k != "LD_PRELOAD" and not k.startswith(tuple(drop))
    }


def overhead_cells(values: list[float], base: list[float] | None) -> list[str]:
    """The overhead of a configuration as a share of the program's own time, from the medians
    of per-call (or per-loop) times, and its range taken repeat by repeat against the
    baseline's run of the same repeat; "-" where there is no baseline."""
    if not base:
        return ["-", "-"]
    base_median = statistics.median(base)
    if base_median <= 0:
        return ["-", "-"]
    paired = [(v - b) / b * 100 for v, b in zip(values, base, strict=True) if b > 0]
    return [
        f"{(statistics.median(values) - base_median) / base_median * 100:+.1f}",
        f"{min(paired):+.1f} .. {max(paired):+.1f}" if paired else "-",
    ]


def load_line(who: str) -> str:
    """The machine's load averages (1, 5 and 15 minutes) and its cores, for the record: on
    a shared machine they say how far the figures can be trusted."""
    one, five, fifteen = os.getloadavg()
    return f"{who}: load average {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} cores"


def run_timed(
    cmd: Sequence[str], env: Mapping[str, str], timeout: float
) -> tuple[subprocess.CompletedProcess[str], float]:
    """Runs a whole job (launcher and ranks) and returns it with its wall-clock seconds, from
    before the launch to the end of the last rank: what MPI_Init, the file's close and
    MPI_Finalize cost (where the interposer starts, reduces and writes its log) is in it.
    subprocess.TimeoutExpired passes through."""
    start = time.monotonic()
    proc = subprocess.run(list(cmd), env=dict(env), capture_output=True, text=True, timeout=timeout)
    return proc, time.monotonic() - start


def run_checked(
    cmd: Sequence[str], env: Mapping[str, str], timeout: float, what: str
) -> tuple[subprocess.CompletedProcess[str], float]:
    """run_timed, with BenchError (naming `what` and the command, with what it printed)
    when the job runs past `timeout` seconds or exits with a status other than 0."""
    try:
        proc, seconds = run_timed(cmd, env, timeout)
    except subprocess.TimeoutExpired:
        raise BenchError(f"{what}: no result within {timeout} s: {' '.join(cmd)}") from None
    if proc.returncode != 0:
        raise BenchError(
            f"{what}: the run failed (exit {proc.returncode}): {' '.join(cmd)}\n"
            f"{proc.stdout}{proc.stderr}"
        )
    return proc, seconds


def print_job_table(
    title: str, results: Mapping[str, list[float]], unit: str = "s", scale: float = 1.0
) -> None:
    """Median, min and max of the whole job per configuration (seconds times `scale`, shown
    as `unit`), with what it adds to the baseline's median (in `unit` and as a share) and
    that share's range repeat by repeat."""
    print(title)
    base = results.get("baseline")
    digits = 3 if scale == 1.0 else 2
    header = (
        "configuration",
        f"median {unit}",
        "min",
        "max",
        f"added {unit}",
        "added % of job",
        "per-repeat range %",
    )
    rows = []
    for config, values in results.items():
        shown = [v * scale for v in values]
        median = statistics.median(shown)
        if not base or config == "baseline":
            extra = ["-", "-", "-"]
        else:
            added = median - statistics.median(base) * scale
            extra = [f"{added:+.{digits}f}", *overhead_cells(values, base)]
        rows.append(
            (config, f"{median:.{digits}f}", f"{min(shown):.{digits}f}",
             f"{max(shown):.{digits}f}", *extra)
        )  # fmt: skip
    print_aligned(header, rows)


def print_aligned(header: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
    """A table: the first column left-aligned, the others right-aligned."""
    widths = [max(len(r[i]) for r in [*rows, header]) for i in range(len(header))]
    for row in [header, *rows]:
        cells = [row[0].ljust(widths[0])] + [
            c.rjust(w) for c, w in zip(row[1:], widths[1:], strict=True)
        ]
        print("  ".join(cells))
