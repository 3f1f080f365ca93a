#!/usr/bin/env python3
"""What preloading the interposer costs a job that does no MPI-IO, in mode off.

A site may put the interposer in every job's LD_PRELOAD; then every process loads it,
mpiexec and its proxies too. This runs two commands, each launch to exit, under

    baseline    no LD_PRELOAD
    stub        LD_PRELOAD=libiotuner.so (the preload stub), IOTUNER_MODE=off
    core        LD_PRELOAD=libiotuner-core.so, IOTUNER_MODE=off: the interposer without
                the stub, linked to MPI (what LD_PRELOAD named before the stub existed)

and prints the median, min and max milliseconds of each, and what each adds to the
baseline's median, with the range of that share taken repeat by repeat. The commands:

    true          /bin/true: a process without MPI
    mpiexec true  mpiexec -n 1 /bin/true, the preload in the environment of mpiexec (so
                  the launcher, its proxy and the rank all load it)

The configurations are interleaved (one run of each per repeat, in a rotating order), so a
machine that gets busier or quieter affects all alike; the load averages are printed
before and after. Standard library only:
    python bench/preload_cost.py [--repeats R] [--library PATH]
It reports figures and never judges them.
"""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

from _benchkit import (
    BenchError,
    bench_main,
    clean_environment,
    find_library,
    find_mpiexec,
    load_line,
    print_job_table,
    run_checked,
)

WHO = "preload_cost.py"
CONFIGS = ("baseline", "stub", "core")
CORE_NAME = "libiotuner-core.so"


def commands(mpiexec: str) -> dict[str, list[str]]:
    true = shutil.which("true") or "/bin/true"
    return {"true": [true], "mpiexec true": [mpiexec, "-n", "1", true]}


def run_once(command: list[str], config: str, preload: dict[str, Path], timeout: float) -> float:
    """The whole job's seconds of `command` under `config`."""
    env = clean_environment()
    if config != "baseline":
        env["LD_PRELOAD"] = str(preload[config])
        env["IOTUNER_MODE"] = "off"
    return run_checked(command, env, timeout, f"{WHO}: {config}")[1]


def parse_args(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeats", type=int, default=30, help="runs per configuration (default 30)")
    p.add_argument("--library", help="the stub to preload (default IOTUNER_LIB, then .venv's)")
    p.add_argument("--mpiexec", help="mpiexec to use (default .venv/bin/mpiexec, then PATH)")
    p.add_argument("--timeout", type=float, default=120, help="seconds per run (default 120)")
    args = p.parse_args(argv)
    if args.repeats < 1:
        p.error(f"--repeats must be at least 1, got {args.repeats}")
    return args


def main(argv: list[str]) -> None:
    args = parse_args(argv)
    mpiexec = find_mpiexec(args.mpiexec, WHO)
    stub = find_library(args.library)
    preload = {"stub": stub, "core": stub.with_name(CORE_NAME)}
    for config, path in preload.items():
        if not path.is_file():
            raise BenchError(
                f"{WHO}: the {config} library {path} does not exist (run ./setup.sh, or "
                "pass --library, e.g. build/libiotuner.so)"
            )
    print(f"{WHO}: repeats={args.repeats} stub {stub}")
    print(load_line(WHO))
    for name, command in commands(mpiexec).items():
        jobs: dict[str, list[float]] = {c: [] for c in CONFIGS}
        for r in range(args.repeats):
            k = r % len(CONFIGS)
            for config in CONFIGS[k:] + CONFIGS[:k]:
                jobs[config].append(run_once(command, config, preload, args.timeout))
        title = f"{name}: {' '.join(command)} (wall clock, launch to exit):"
        print_job_table(title, jobs, unit="ms", scale=1000)
    print(load_line(WHO))


if __name__ == "__main__":
    bench_main(main)
