#!/usr/bin/env python3
"""What the interposer costs per MPI-IO call.

Runs bench/overhead.c (many tiny MPI_File_write_at calls) in five configurations and prints
median, min and max ns per call of each, and the overhead against running without the
interposer, as a share of the program's own time: (ns per call - baseline ns per call) /
baseline ns per call, from the medians, with the range of the same figure taken repeat by
repeat (each repeat runs every configuration once). It does so for the wall-clock time of
the loop and for its CPU time, which leaves out the time a rank waited for a core (on a
shared machine the wall clock swings with the load), and then for the whole job (launch to
exit: what MPI_Init, the close and MPI_Finalize add, where the interposer starts, reduces
and writes its log, on top of the loop):

    baseline    no LD_PRELOAD
    off         LD_PRELOAD=libiotuner.so, IOTUNER_MODE=off
    trace       IOTUNER_MODE=trace
    tune        IOTUNER_MODE=tune with a one-entry table
    tune,trace  IOTUNER_MODE=tune,trace with the same table

The configurations are interleaved (one run of each per repeat, in a rotating order), so a
machine that gets busier or quieter during the benchmark affects all of them alike.
The machine's load averages are printed before and after. Standard library only:
    python bench/overhead.py [--ops N] [--repeats R] [--np P] [--library PATH]
It reports figures and never judges them.
"""

from __future__ import annotations

import argparse
import re
import shutil
import statistics
import tempfile
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

WHO = "overhead.py"
CONFIGS = ("baseline", "off", "trace", "tune", "tune,trace")
TABLE = '{"format": "iotuner-table", "version": 1}\n{"hints": {"romio_ds_write": "disable"}}\n'
RESULT = re.compile(
    r"^overhead: ops=(\d+) seconds=([0-9.eE+-]+) ns_per_op=([0-9.eE+-]+)"
    r" cpu_seconds=([0-9.eE+-]+) cpu_ns_per_op=([0-9.eE+-]+) phase_seconds=([0-9.eE+-]+)",
    re.M,
)


def run_once(
    config: str,
    args: argparse.Namespace,
    mpiexec: str,
    flag: list[str],
    program: Path,
    library: Path,
    work: Path,
    run_no: int,
) -> tuple[float, float, float]:
    """Runs one configuration; returns ns per call of wall-clock and of CPU time, and the
    whole job's seconds."""
    env = clean_environment()
    cmd = [mpiexec, "-n", str(args.np)]
    if config != "baseline":
        cmd += [part.format(name="LD_PRELOAD", value=library) for part in flag]
        env["IOTUNER_MODE"] = config
        env["IOTUNER_LOG_DIR"] = str(work / "logs")
        if "tune" in config:
            env["IOTUNER_TABLE"] = str(work / "table.jsonl")
    target = work / f"data-{run_no}"
    cmd += [str(program), str(target), "--ops", str(args.ops), "--size", str(args.size)]
    if args.collective:
        cmd.append("--collective")
    try:
        proc, job = run_checked(cmd, env, args.timeout, f"overhead.py: {config}")
    finally:
        target.unlink(missing_ok=True)
    match = RESULT.search(proc.stdout)
    if match is None:
        raise BenchError(f"overhead.py: {config}: no result line: {' '.join(cmd)}\n{proc.stdout}")
    return float(match.group(3)), float(match.group(5)), job


def print_table(title: str, results: dict[str, list[float]]) -> None:
    print(title)
    base = results.get("baseline")
    header = (
        "configuration",
        "median ns/op",
        "min",
        "max",
        "overhead ns/op",
        "overhead % of time",
        "per-repeat range %",
    )
    rows = []
    for config, values in results.items():
        median = statistics.median(values)
        if base is None or config == "baseline":
            extra = ["-", "-", "-"]
        else:
            extra = [f"{median - statistics.median(base):+.1f}", *overhead_cells(values, base)]
        rows.append((config, f"{median:.1f}", f"{min(values):.1f}", f"{max(values):.1f}", *extra))
    print_aligned(header, rows)


def parse_args(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--ops", type=int, default=1_000_000, help="calls per rank (default 1000000)")
    p.add_argument("--size", type=int, default=8, help="bytes per call (default 8)")
    p.add_argument("--repeats", type=int, default=5, help="runs per configuration (default 5)")
    p.add_argument("--np", type=int, default=1, help="MPI ranks (default 1)")
    p.add_argument("--collective", action="store_true", help="use MPI_File_write_at_all")
    p.add_argument("--dir", help="where the files go (a temporary folder inside it)")
    p.add_argument(
        "--configs",
        nargs="+",
        choices=CONFIGS,
        default=list(CONFIGS),
        metavar="NAME",
        help=f"configurations to run, from: {' '.join(CONFIGS)} (default all; "
        "baseline alone needs no interposer)",
    )
    p.add_argument("--library", help="interposer to preload (default IOTUNER_LIB, then .venv's)")
    p.add_argument("--mpiexec", help="mpiexec to use (default .venv/bin/mpiexec, then PATH)")
    p.add_argument("--timeout", type=float, default=600, help="seconds per run (default 600)")
    args = p.parse_args(argv)
    for name in ("ops", "size", "repeats", "np"):
        if getattr(args, name) < 1:
            p.error(f"--{name} must be at least 1, got {getattr(args, name)}")
    args.configs = [c for c in CONFIGS if c in args.configs]  # fixed order, no repeats
    return args


def main(argv: list[str]) -> None:
    args = parse_args(argv)
    mpiexec = find_mpiexec(args.mpiexec, WHO)
    program = find_program("overhead", WHO)
    library = find_library(args.library)
    if any(c != "baseline" for c in args.configs) and not library.is_file():
        raise BenchError(
            f"overhead.py: the interposer library {library} does not exist "
            "(run ./setup.sh, or pass --library, e.g. build/libiotuner.so); "
            "--configs baseline measures without it"
        )
    flag = env_flag(mpiexec) if any(c != "baseline" for c in args.configs) else []
    if args.dir:
        Path(args.dir).mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="iotuner-overhead-", dir=args.dir))
    try:
        (work / "logs").mkdir()
        (work / "table.jsonl").write_text(TABLE)
        print(
            f"overhead: np={args.np} ops={args.ops} size={args.size} "
            f"repeats={args.repeats} {'collective' if args.collective else 'independent'}"
        )
        print(f"overhead: program {program}")
        if flag:
            print(f"overhead: library {library}")
        print(load_line("overhead"))
        wall: dict[str, list[float]] = {c: [] for c in args.configs}
        cpu: dict[str, list[float]] = {c: [] for c in args.configs}
        jobs: dict[str, list[float]] = {c: [] for c in args.configs}
        run_no = 0
        for r in range(args.repeats):
            k = r % len(args.configs)
            for config in args.configs[k:] + args.configs[:k]:
                w, c, j = run_once(config, args, mpiexec, flag, program, library, work, run_no)
                wall[config].append(w)
                cpu[config].append(c)
                jobs[config].append(j)
                run_no += 1
        print_table("wall-clock time of the loop (slowest rank):", wall)
        print_table(
            "CPU time of the loop (largest of the ranks; leaves out waits for a core):", cpu
        )
        print_job_table("the whole job, launch to exit (wall clock):", jobs)
        print(load_line("overhead"))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    bench_main(main)
