#!/usr/bin/env python3
"""What tracing costs a program's I/O phase, from the open to the end of the close.

    .venv/bin/python bench/trace_cost.py [--repeats 7] [--dirs /tmp,/dev/shm] [--only GLOB]

The figure is the one a user sees: the time from the open to the end of the close (IOR's
"total", which its bandwidth divides by; bench/overhead.c's phase_seconds, timed from a
barrier before its open to the end of its close). Each cell runs in three modes, one run
of each per repeat in an order rotated by one per repeat, so a machine that gets busier
affects all alike:

    plain   the program alone, no preload
    trace   what `iotuner run --mode trace` runs (collective calls summed per routine and
            size group, as independent ones are)
    calls   what `iotuner run --mode trace --call-rows` runs (a row per collective call)
    learn   what `iotuner run --learn` runs: mode tune,trace, with a table whose one entry
            gives ROMIO's default cb_buffer_size (so the file is tuned and its hints are
            the default's)

With --before LIB (another build of the interposer, e.g. of an earlier commit), the modes
trace@before and learn@before run that build in the same rotation, so a change is measured
against what it replaces under the same conditions. With --darshan LIB (libdarshan.so,
e.g. built by third_party/darshan/build.sh), the mode darshan runs the program under
Darshan's runtime, which centres leave on for every job: the reference the trace's cost is
held to.

Cells (2 ranks): IOR's patterns from bench/real_programs.py (write with its fsync before
close, and read of a file written once before the cell), and two tiny-call cases of
bench/overhead.c: 4,096 collective 64 KiB reads per rank from the page cache (a phase under
100 ms) and 200,000 independent 8-byte writes per rank; and a 1 ms phase of 4 collective
1 MiB reads per rank, timed as the first phase of a run (what iotuner pays once per run:
its first collectives, fresh memory) and as the median of 100 phases in one run (what it
pays every phase, measured without the noise of a process launch). pio_noncontig is left
out: it times only its one collective call, not its open and close.

Per cell and mode: the median phase in ms, min and max, and the overhead against plain as
a share of plain's median, with its range taken repeat by repeat. A benchmark: it prints
figures and asserts nothing.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _benchkit import (
    BenchError,
    bench_main,
    clean_environment,
    find_program,
    load_line,
    overhead_cells,
    print_aligned,
)
from real_programs import NPROCS, PATTERNS, VENV, build_programs

from iotuner.formats import limits
from iotuner.runner import interposer_env, preload_ranks_only

MODES = ("plain", "trace", "calls", "learn")
BEFORE = ("trace@before", "learn@before")
# One entry giving ROMIO's default collective buffer (16 MiB in MPICH 4): the file is
# tuned, and its hints are the default's.
TABLE = '{"format": "iotuner-table", "version": 1}\n{"hints": {"cb_buffer_size": "16777216"}}\n'


@dataclass(frozen=True)
class Cell:
    name: str
    command: list[str]  # the program and its arguments, after mpiexec -n NPROCS
    target: Path
    prepare: list[str] | None  # a plain run that writes the file a read cell reads


def ior_total(out: str, op: str) -> float:
    """IOR's "total(s)" of its first result row for `op` (open to the end of close)."""
    for line in out.splitlines():
        words = line.split()
        if words[:1] == [op] and len(words) >= 10:
            try:
                return float(words[9])
            except ValueError:
                continue
    raise BenchError(f"trace_cost.py: IOR printed no {op} result:\n{out[-2000:]}")


def overhead_phase(out: str) -> float:
    for word in out.split():
        if word.startswith("phase_seconds="):
            return float(word.split("=", 1)[1])
    raise BenchError(f"trace_cost.py: bench/overhead printed no phase:\n{out[-2000:]}")


def cells(directory: Path, ior: Path, overhead: Path) -> list[Cell]:
    found = []
    for pattern in PATTERNS:
        if pattern.program != "ior":
            continue
        target = directory / f"{pattern.name}.dat"
        write = pattern.command(ior, target, "write", False)
        found.append(Cell(f"ior/{pattern.name}/write", write, target, None))
        found.append(
            Cell(
                f"ior/{pattern.name}/read",
                pattern.command(ior, target, "read", False),
                target,
                write,
            )
        )
    reads = directory / "coll-64k-reads.dat"
    read_args = ["--ops", "4096", "--size", "65536", "--collective"]
    found.append(
        Cell(
            "tiny/coll-64k/read",
            [str(overhead), str(reads), *read_args, "--read"],
            reads,
            [str(overhead), str(reads), *read_args],
        )
    )
    # One short phase (4 collective 1 MiB reads per rank from the page cache, about 1 ms),
    # as the first of a run and as the median of 100 in one run: what iotuner costs once
    # per run (its first collectives, fresh memory) and what it costs every phase.
    short = directory / "coll-1m-reads.dat"
    short_args = [str(overhead), str(short), "--ops", "4", "--size", "1048576", "--collective"]
    for name, phases in (("first-of-run", "1"), ("median-of-100", "100")):
        found.append(
            Cell(
                f"phase/coll-1m-{name}/read",
                [*short_args, "--read", "--phases", phases],
                short,
                short_args,
            )
        )
    writes = directory / "ind-8b-writes.dat"
    found.append(
        Cell(
            "tiny/ind-8b/write",
            [str(overhead), str(writes), "--ops", "200000", "--size", "8"],
            writes,
            None,
        )
    )
    return found


def run_mode(
    cell: Cell, mode: str, mpiexec: str, work: Path, before: Path | None, darshan: Path | None
) -> float:
    """One run of a cell in a mode; the phase in seconds."""
    env = clean_environment(("IOTUNER_", "ROMIO_"))
    command = [mpiexec, "-n", str(NPROCS), *cell.command]
    if mode == "darshan":
        env["LD_PRELOAD"] = str(darshan)
        env["DARSHAN_LOGPATH"] = str(work / "logs")
        command, env = preload_ranks_only(command, env, None)
    elif mode != "plain":
        learn = mode.startswith("learn")
        table = work / "table.jsonl" if learn else None
        library = before if mode.endswith("@before") else None
        env = interposer_env(
            "tune,trace" if learn else "trace",
            table,
            work / "logs",
            "table",
            "tc",
            library=library,
            base=env,
        )
        if mode == "calls":
            env["IOTUNER_TRACE_MAX_RECORDS"] = str(limits()["TRACE_MAX_RECORDS"])
        command, env = preload_ranks_only(command, env, None)
    if "read" not in cell.name.rsplit("/", 1)[-1]:
        cell.target.unlink(missing_ok=True)
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        raise BenchError(
            f"trace_cost.py: {cell.name} ({mode}) exited {done.returncode}:\n"
            f"{' '.join(command)}\n{done.stdout[-2000:]}{done.stderr[-2000:]}"
        )
    for log in (work / "logs").iterdir():
        log.unlink()
    if cell.name.startswith("ior/"):
        return ior_total(done.stdout, cell.name.rsplit("/", 1)[-1])
    return overhead_phase(done.stdout)


def measure(
    cell: Cell, repeats: int, mpiexec: str, work: Path, before: Path | None, darshan: Path | None
) -> dict[str, list[float]]:
    if cell.prepare is not None:
        cell.target.unlink(missing_ok=True)
        subprocess.run(
            [mpiexec, "-n", str(NPROCS), *cell.prepare],
            env=clean_environment(("IOTUNER_", "ROMIO_")),
            check=True,
            capture_output=True,
        )
    modes = MODES + (BEFORE if before else ()) + (("darshan",) if darshan else ())
    phases: dict[str, list[float]] = {m: [] for m in modes}
    for r in range(repeats):
        k = r % len(modes)
        for mode in modes[k:] + modes[:k]:
            phases[mode].append(run_mode(cell, mode, mpiexec, work, before, darshan))
    cell.target.unlink(missing_ok=True)
    return phases


def print_cell(name: str, phases: dict[str, list[float]]) -> None:
    print(f"{name}:")
    base = phases["plain"]
    rows = []
    for mode, values in phases.items():
        ms = [v * 1e3 for v in values]
        extra = ["-", "-"] if mode == "plain" else overhead_cells(values, base)
        rows.append(
            (
                f"  {mode}",
                f"{statistics.median(ms):.3g}",  # 3 figures: 0.374 as 12.3
                f"{min(ms):.3g}",
                f"{max(ms):.3g}",
                *extra,
            )
        )
    header = ("  mode", "median ms", "min", "max", "overhead %", "per-repeat range %")
    print_aligned(header, rows)


def main(argv: list[str]) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeats", type=int, default=7, help="runs per mode and cell (default 7)")
    p.add_argument("--dirs", default="/tmp,/dev/shm", help="directories, comma-separated")
    p.add_argument("--only", help="cells whose name matches this glob (e.g. 'tiny/*')")
    p.add_argument("--json", help="write every run's phase here")
    p.add_argument("--before", type=Path, help="another interposer build to compare with")
    p.add_argument("--darshan", type=Path, help="Darshan's libdarshan.so, as a reference")
    args = p.parse_args(argv)
    if args.repeats < 1:
        p.error(f"--repeats must be at least 1, got {args.repeats}")
    for name in ("before", "darshan"):
        library = getattr(args, name)
        if library is not None and not library.is_file():
            p.error(f"--{name} must name a library file, got {library}")
    build = json.loads((VENV / "share/iotuner/build.json").read_text())
    ior = build_programs(build["mpicc"])["ior"]
    overhead = find_program("overhead", "trace_cost.py")
    mpiexec = build["mpiexec"]
    print(load_line("trace_cost"))
    results = {}
    for directory in args.dirs.split(","):
        work = Path(tempfile.mkdtemp(prefix="iotuner-trace-cost-", dir=directory))
        try:
            (work / "logs").mkdir()
            (work / "table.jsonl").write_text(TABLE)
            for cell in cells(work, ior, overhead):
                name = f"{cell.name} in {directory}"
                if args.only and not fnmatch.fnmatch(cell.name, args.only):
                    continue
                results[name] = measure(
                    cell, args.repeats, mpiexec, work, args.before, args.darshan
                )
                print_cell(name, results[name])
        finally:
            shutil.rmtree(work, ignore_errors=True)
    print(load_line("trace_cost"))
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    bench_main(main)
