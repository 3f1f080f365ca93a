#!/usr/bin/env python3
"""Logs per second of `iotuner advise` over a Darshan archive: with one core, with all the
cores, and on a two-worker Dask cluster.

Makes an archive of --logs logs (default 10,000) as a centre keeps one, a folder per day:
hard links (copies where links cannot be made) of the example logs the `darshan` package
ships and of the trace log in tests/data, each under its own name. Then runs, --repeats
times each (default 3), the command a user would:

    iotuner advise ARCHIVE --jobs 1 --results FRESH.jsonl --json
    iotuner advise ARCHIVE --jobs <cores> --results FRESH.jsonl --json
    iotuner advise ARCHIVE --dask --scheduler <a LocalCluster of 2 workers> --results ...

and prints the logs per second (logs / wall seconds of the whole command: Python's start,
the workers' and their Darshan readers' start, every row written and fsynced) as median,
min and max over the repeats, with the machine's load. The Dask cluster is started once,
before its repeats (as a site's cluster would be running); its workers keep their Darshan
readers between repeats, so its first repeat pays their start and the others do not.

    .venv/bin/python bench/archive.py [--logs 10000] [--repeats 3] [--keep DIR]

Without a model (`./iotuner-model`) in the working folder the advice is evidence only;
run it where a model is to include the tuning per log. It reports figures, never judges
them.
"""

from __future__ import annotations

import argparse
import importlib.resources
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _benchkit import REPO, BenchError, load_line, print_aligned

WHO = "archive.py"
TIMEOUT = 7200
"""Seconds one command may take before the benchmark gives up on it."""


def shipped_logs() -> list[Path]:
    root = Path(str(importlib.resources.files("darshan") / "examples"))
    logs = sorted(root.rglob("*.darshan")) + sorted(
        (REPO / "tests" / "data").glob("*.iotrace.jsonl")
    )
    if not logs:
        raise BenchError(f"{WHO}: the darshan package ships no example logs here")
    return logs


def make_archive(folder: Path, count: int) -> None:
    """`count` logs under `folder`, 500 per day folder, cycling through the shipped ones."""
    sources = shipped_logs()
    for number in range(count):
        source = sources[number % len(sources)]
        day = folder / f"{number // 500:04d}"
        day.mkdir(parents=True, exist_ok=True)
        target = day / f"{number:06d}-{source.name}"
        try:
            os.link(source, target)
        except OSError:
            shutil.copy(source, target)


def timed(command: list[str], results: Path, count: int) -> float:
    """Logs per second of one run of `command` (a fresh results file each time)."""
    results.unlink(missing_ok=True)
    started = time.monotonic()
    done = subprocess.run(
        [*command, "--results", str(results), "--json"],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )
    seconds = time.monotonic() - started
    if done.returncode != 0:
        raise BenchError(f"{WHO}: {' '.join(command)} failed:\n{done.stderr[-2000:]}")
    summary = json.loads(done.stdout)
    if summary["advised_now"] != count:
        raise BenchError(f"{WHO}: advised {summary['advised_now']} logs, expected {count}")
    return count / seconds


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--logs", type=int, default=10_000, help="logs in the archive")
    parser.add_argument("--repeats", type=int, default=3, help="runs of each mode")
    parser.add_argument("--keep", type=Path, help="make the archive here and keep it")
    args = parser.parse_args(argv)
    if args.logs < 1 or args.repeats < 1:
        raise BenchError(f"{WHO}: --logs and --repeats must be at least 1")
    iotuner = REPO / ".venv" / "bin" / "iotuner"
    if not iotuner.is_file():
        raise BenchError(f"{WHO}: no {iotuner} (run ./setup.sh)")
    cores = os.cpu_count() or 1
    with tempfile.TemporaryDirectory(prefix="iotuner-archive-") as scratch:
        archive = args.keep or Path(scratch) / "archive"
        made = time.monotonic()
        make_archive(archive, args.logs)
        print(f"{WHO}: {args.logs} logs made in {time.monotonic() - made:.1f} s under {archive}")
        print(load_line(WHO))
        results = Path(scratch) / "rows.jsonl"
        base = [str(iotuner), "advise", str(archive)]
        figures: dict[str, list[float]] = {}
        for label, extra in (("one core (--jobs 1)", ["--jobs", "1"]),
                             (f"all cores (--jobs {cores})", ["--jobs", str(cores)])):  # fmt: skip
            figures[label] = [timed([*base, *extra], results, args.logs)
                              for _ in range(args.repeats)]  # fmt: skip
            print(f"  {label}: " + ", ".join(f"{v:.1f}" for v in figures[label]))
        from iotuner.archive import local_cluster

        with local_cluster(2) as cluster:
            label = "Dask LocalCluster, 2 workers"
            command = [*base, "--dask", "--scheduler", cluster.scheduler_address]
            figures[label] = [timed(command, results, args.logs) for _ in range(args.repeats)]
            print(f"  {label}: " + ", ".join(f"{v:.1f}" for v in figures[label]))
        print(load_line(WHO))
    print(f"logs per second, {args.logs} logs, {args.repeats} repeats:")
    print_aligned(
        ("mode", "median", "min", "max"),
        [
            (label, f"{statistics.median(v):.1f}", f"{min(v):.1f}", f"{max(v):.1f}")
            for label, v in figures.items()
        ],
    )
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except BenchError as exc:
        print(exc, file=sys.stderr)
        sys.exit(1)
