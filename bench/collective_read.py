#!/usr/bin/env python3
"""What the interposer costs on collective reads served from the page cache.

Runs bench/collective_read.c (MPI_File_read_at_all of --size bytes per rank, over a file
written once and kept in the page cache) in five configurations, and prints for each the
median, min and max MiB/s and the overhead against running without the interposer:

    baseline    no LD_PRELOAD
    off         LD_PRELOAD=libiotuner.so, IOTUNER_MODE=off
    trace       IOTUNER_MODE=trace
    tune        IOTUNER_MODE=tune with a one-entry table whose access entry matches
                every collective read, so the decision runs on the read path
    tune,trace  IOTUNER_MODE=tune,trace with the same table

The overhead is a share of the program's own time: (seconds - baseline seconds) / baseline
seconds of the timed loop, from the medians, with the range of the same figure taken repeat
by repeat (each repeat runs every configuration once), and what it adds per call. It is
given for the wall-clock time of the loop, for its CPU time (which leaves out the time a
rank waited for a core: on a shared machine the wall clock swings with the load), and for
the whole job (launch to exit: MPI_Init, the close and MPI_Finalize, where the interposer
starts, reduces its records and writes its log, come on top of the loop). The
configurations are interleaved in a rotating order, so a machine that gets busier or
quieter during the benchmark affects all of them alike; the machine's load averages are
printed before and after. Standard library only:
    python bench/collective_read.py [--sizes 4096 1048576] [--repeats R] [--np 2]
It reports figures and never judges them.
"""

from __future__ import annotations

import argparse
import re
import shutil
import statistics
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from _benchkit import (
    BenchError,
    bench_main,
    clean_environment,
    env_flag,
    find_library,
    find_mpiexec,
    find_program,
    load_line,
    overhead_cells,
    print_aligned,
    print_job_table,
    run_checked,
)

WHO = "collective_read.py"
CONFIGS = ("baseline", "off", "trace", "tune", "tune,trace")
TABLE = '{"format": "iotuner-table", "version": 1}\n{"hints": {"romio_ds_read": "disable"}}\n'
RESULT = re.compile(
    r"^collective_read: calls=(\d+) bytes=(\d+) seconds=([0-9.eE+-]+) mib_per_s=([0-9.eE+-]+)"
    r" cpu_seconds=([0-9.eE+-]+)$",
    re.M,
)


@dataclass
class Measured:
    """One run: the timed loop's wall-clock and CPU seconds, and the whole job's seconds."""

    seconds: float
    cpu_seconds: float
    job_seconds: float


def run(cmd: list[str], env: dict[str, str], what: str, timeout: float) -> tuple[str, float]:
    """The run's standard output and its whole job's seconds."""
    proc, job = run_checked(cmd, env, timeout, f"collective_read.py: {what}")
    return proc.stdout, job


class Runner:
    """Runs the program in one configuration; returns the timed loop's seconds."""

    def __init__(self, args: argparse.Namespace, program: Path, library: Path, work: Path):
        self.args = args
        self.program = program
        self.library = library
        self.work = work
        self.mpiexec = find_mpiexec(args.mpiexec, WHO)
        needs_library = any(c != "baseline" for c in args.configs)
        self.flag = env_flag(self.mpiexec) if needs_library else []

    def command(self, config: str, extra: list[str]) -> tuple[list[str], dict[str, str]]:
        env = clean_environment()
        cmd = [self.mpiexec, "-n", str(self.args.np)]
        if config != "baseline":
            cmd += [part.format(name="LD_PRELOAD", value=self.library) for part in self.flag]
            env["IOTUNER_MODE"] = config
            env["IOTUNER_LOG_DIR"] = str(self.work / "logs")
            if "tune" in config:
                env["IOTUNER_TABLE"] = str(self.work / "table.jsonl")
        return [*cmd, str(self.program), str(self.work / "data"), *extra], env

    def write_file(self) -> None:
        cmd, env = self.command("baseline", ["--write", "--file-bytes", str(self.args.file_bytes)])
        run(cmd, env, "writing the file", self.args.timeout)

    def read(self, config: str, size: int, calls: int) -> Measured:
        extra = ["--size", str(size), "--calls", str(calls)]
        cmd, env = self.command(config, [*extra, "--file-bytes", str(self.args.file_bytes)])
        out, job = run(cmd, env, f"{config} size {size}", self.args.timeout)
        match = RESULT.search(out)
        if match is None:
            raise BenchError(
                f"collective_read.py: {config}: no result line in the output of "
                f"{' '.join(cmd)}\n{out}"
            )
        return Measured(float(match.group(3)), float(match.group(5)), job)


def calls_for(size: int, args: argparse.Namespace) -> int:
    if args.calls:
        return int(args.calls)
    # About 1 GiB read per run (all ranks), and never fewer than 1000 calls.
    return max(1000, (1 << 30) // (size * int(args.np)))


def added_per_call(seconds: list[float], base: list[float] | None, calls: int) -> str:
    """What a configuration adds to one call, in ns, from the medians; "-" without one."""
    if not base:
        return "-"
    return f"{(statistics.median(seconds) - statistics.median(base)) / calls * 1e9:+.0f}"


def print_table(size: int, calls: int, np: int, results: dict[str, list[Measured]]) -> None:
    """One set of tables per size: the loop's bandwidth (wall clock), the loop's CPU time
    per call, and the whole job; each with the overhead as a share of the program's time."""
    moved = size * calls * np / (1024 * 1024)
    wall = {c: [m.seconds for m in runs] for c, runs in results.items()}
    cpu = {c: [m.cpu_seconds for m in runs] for c, runs in results.items()}
    print(
        f"collective_read: size={size} bytes per rank per call, calls={calls}, np={np}, "
        f"{len(next(iter(results.values())))} repeats"
    )
    _loop_table(
        "wall-clock time of the loop (slowest rank):",
        "median MiB/s",
        wall,
        calls,
        lambda seconds: [moved / s if s > 0 else 0.0 for s in seconds],
        ".1f",
    )
    _loop_table(
        "CPU time of the loop (largest of the ranks; leaves out waits for a core):",
        "median ns/call",
        cpu,
        calls,
        lambda seconds: [s / calls * 1e9 for s in seconds],
        ".0f",
    )
    jobs = {c: [m.job_seconds for m in runs] for c, runs in results.items()}
    print_job_table("the whole job, launch to exit (wall clock):", jobs)


def _loop_table(
    title: str,
    figure: str,
    series: dict[str, list[float]],
    calls: int,
    figures_of: Callable[[list[float]], list[float]],
    spec: str,
) -> None:
    """One table of the loop's seconds per configuration: the figure (`figures_of` the
    seconds) median, min and max, and the cost added over the baseline."""
    header = (
        "configuration",
        figure,
        "min",
        "max",
        "added ns/call",
        "overhead % of time",
        "per-repeat range %",
    )
    base = series.get("baseline")
    rows = []
    for config, seconds in series.items():
        other = None if config == "baseline" else base
        values = figures_of(seconds)
        cells = [
            config,
            *(format(v, spec) for v in (statistics.median(values), min(values), max(values))),
        ]
        rows.append(
            (*cells, added_per_call(seconds, other, calls), *overhead_cells(seconds, other))
        )
    print(title)
    print_aligned(header, rows)


def parse_args(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument(
        "--sizes",
        type=int,
        nargs="+",
        default=[4096, 1048576],
        metavar="BYTES",
        help="bytes per rank per call, multiples of 8 (default 4096 1048576)",
    )
    p.add_argument(
        "--calls", type=int, help="calls per run (default: about 1 GiB read, at least 1000)"
    )
    p.add_argument("--repeats", type=int, default=5, help="runs per configuration (default 5)")
    p.add_argument("--np", type=int, default=2, help="MPI ranks (default 2)")
    p.add_argument(
        "--file-bytes",
        type=int,
        default=64 << 20,
        help="size of the file read over and over (default 64 MiB)",
    )
    p.add_argument(
        "--dir", help="where the file goes (a temporary folder inside it; default: TMPDIR)"
    )
    p.add_argument(
        "--configs",
        nargs="+",
        choices=CONFIGS,
        default=list(CONFIGS),
        metavar="NAME",
        help=f"configurations to run, from: {' '.join(CONFIGS)} (default all)",
    )
    p.add_argument("--library", help="interposer to preload (default IOTUNER_LIB, then .venv's)")
    p.add_argument("--mpiexec", help="mpiexec to use (default .venv/bin/mpiexec, then PATH)")
    p.add_argument("--timeout", type=float, default=600, help="seconds per run (default 600)")
    args = p.parse_args(argv)
    for name in ("repeats", "np", "file_bytes"):
        if getattr(args, name) < 1:
            p.error(f"--{name.replace('_', '-')} must be at least 1, got {getattr(args, name)}")
    if args.calls is not None and args.calls < 1:
        p.error(f"--calls must be at least 1, got {args.calls}")
    for size in args.sizes:
        if size < 8 or size % 8 != 0 or size > 1 << 30:
            p.error(f"--sizes must be multiples of 8 between 8 and 1 GiB, got {size}")
    if args.file_bytes < args.np * max(args.sizes):
        p.error(
            f"--file-bytes must hold one call of every rank at the largest size "
            f"({args.np} x {max(args.sizes)} = {args.np * max(args.sizes)}), got {args.file_bytes}"
        )
    args.configs = [c for c in CONFIGS if c in args.configs]  # fixed order, no repeats
    return args


def main(argv: list[str]) -> None:
    args = parse_args(argv)
    program = find_program("collective_read", WHO)
    library = find_library(args.library)
    if any(c != "baseline" for c in args.configs) and not library.is_file():
        raise BenchError(
            f"collective_read.py: the interposer library {library} does not exist "
            "(run ./setup.sh, or pass --library); --configs baseline measures without it"
        )
    if args.dir:
        Path(args.dir).mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="iotuner-collective-read-", dir=args.dir))
    try:
        (work / "logs").mkdir()
        (work / "table.jsonl").write_text(TABLE)
        runner = Runner(args, program, library, work)
        print(
            f"collective_read: np={args.np} file={args.file_bytes} bytes in {work} "
            f"repeats={args.repeats}"
        )
        print(f"collective_read: program {program}")
        if runner.flag:
            print(f"collective_read: library {library}")
        print(load_line("collective_read"))
        runner.write_file()
        for size in args.sizes:
            calls = calls_for(size, args)
            results: dict[str, list[Measured]] = {c: [] for c in args.configs}
            for r in range(args.repeats):
                k = r % len(args.configs)
                for config in args.configs[k:] + args.configs[:k]:
                    results[config].append(runner.read(config, size, calls))
                    # Logs of earlier runs are not needed; keep the folder small.
                    for log in (work / "logs").iterdir():
                        log.unlink()
            print_table(size, calls, args.np, results)
            print(load_line("collective_read"))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    bench_main(main)
