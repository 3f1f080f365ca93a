"""The cases a sweep measures first (`iotuner bench --from-logs`): what the user's programs
did, read from their trace logs and Darshan logs, as workloads our kernel can run.

A case is what the tuning table tells apart, with the shape the kernel needs to run it:
scale (ranks, hosts), pattern, operation, layout (with block and fill when strided) and size
group. Its time at stake is the time the programs spent in its calls: the sum of the op
rows' durations of a trace log, a Darshan file group's `seconds`. The kernel runs a case
with the program's own pieces: at the size per call that took most of that time (rounded to
whole blocks of the file and pieces of memory, never to others), with the program's calls
per open at that size, scaled down only to fewer calls (at least one) where they would move
more than the sweep moves per open at that size (calls_per_open_for), on one shared file
(kernel_workload). program_cases says which cases stand in for others and which are left
out.
"""

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from iotuner.bench._plan import (
    LARGEST_CALL,
    MAX_CALLS,
    OPEN_BYTES,
    calls_per_open_for,
    kernel_workload,
)
from iotuner.errors import ConfigError, IotunerError, TraceLogError
from iotuner.formats import size_group
from iotuner.measurement import Workload

__all__ = ["ProgramCase", "log_files", "program_cases"]

_TRACE_SUFFIX = ".iotrace.jsonl"
_DARSHAN_SUFFIX = ".darshan"


@dataclass(frozen=True)
class ProgramCase:
    """One case of the programs' logs: the kernel `workload` that stands for it, the
    `seconds` the programs spent in it, and the programs that made it."""

    workload: Workload
    seconds: float
    programs: tuple[str, ...]
    stand_in: bool = False  # strided with the sweep's block and fill: the logs' unknown

    def describe(self) -> str:
        w = self.workload
        shape = f"strided:{w.block}:{w.fill:g}" if w.layout == "strided" else w.layout
        if w.memory_block:
            shape += f", memory in {w.memory_block:,}-byte pieces"
        if self.stand_in:
            shape += " (the sweep's block: the logs' is unknown)"
        return (
            f"{w.nprocs} ranks {w.pattern} {w.op} {shape}, {w.bytes_per_rank:,} B per call "
            f"(group {size_group(w.bytes_per_rank)}): {self.seconds:.3g} s in "
            f"{', '.join(self.programs)}"
        )


def log_files(paths: Sequence[Path]) -> list[tuple[Path, str]]:
    """The trace logs and Darshan logs named (a folder: those directly inside), each with
    its kind ("trace" or "darshan"); ConfigError for a path that does not exist, a file of
    another kind, or a folder with none."""
    from iotuner.ingest import IngestError, guess_kind

    found: list[tuple[Path, str]] = []
    for path in paths:
        if path.is_dir():
            inside = sorted(
                (p, "trace" if p.name.endswith(_TRACE_SUFFIX) else "darshan")
                for p in path.iterdir()
                if p.is_file() and p.name.endswith((_TRACE_SUFFIX, _DARSHAN_SUFFIX))
            )
            if not inside:
                raise ConfigError(
                    f"--from-logs: no trace logs (*{_TRACE_SUFFIX}) or Darshan logs "
                    f"(*{_DARSHAN_SUFFIX}) in the folder {path}"
                )
            found += inside
        elif path.exists():
            try:
                kind = guess_kind(path)
            except IngestError as exc:
                raise ConfigError(f"--from-logs: {exc}") from None
            if kind not in ("trace", "darshan"):
                raise ConfigError(
                    f"--from-logs takes trace logs and Darshan logs (or folders of them), "
                    f"got {path}, a {kind} file"
                )
            found.append((path, kind))
        else:
            raise ConfigError(f"--from-logs: no such file or folder: {path}")
    return found


# A case's key: nprocs, nodes, pattern, op, layout, block, fill, memory block, size group.
_Key = tuple[int, int, str, str, str, int, float, int, int]


class _Tally:
    """The time per case, and per size within it, over the logs read."""

    def __init__(self) -> None:
        self.seconds: dict[_Key, dict[int, float]] = defaultdict(lambda: defaultdict(float))
        self.calls: dict[_Key, dict[int, int]] = defaultdict(lambda: defaultdict(int))
        self.programs: dict[_Key, set[str]] = defaultdict(set)
        self.left_out: dict[str, float] = defaultdict(float)  # why -> seconds

    def add(self, workload: Workload, seconds: float) -> None:
        w = workload
        block, fill = (w.block, w.fill) if w.layout == "strided" else (0, 1.0)
        key = (
            w.nprocs,
            w.nodes,
            w.pattern,
            w.op,
            w.layout,
            block,
            fill,
            w.memory_block or 0,
            w.group,
        )
        self.seconds[key][w.bytes_per_rank] += seconds
        calls = self.calls[key]
        calls[w.bytes_per_rank] = max(calls[w.bytes_per_rank], w.calls_per_open)
        self.programs[key].add(w.program or "unknown")


def program_cases(
    paths: Sequence[Path],
    max_nprocs: int,
    open_bytes: int = OPEN_BYTES,
    max_calls: int = MAX_CALLS,
    stand_in: tuple[int, float] | None = None,
) -> tuple[list[ProgramCase], list[str]]:
    """The cases of the logs under `paths` (log_files), the most time at stake first, and
    a sentence per kind of case left out; `stand_in` is the block and fill for a strided
    case whose block is unknown. ConfigError, naming the file, for a log that cannot be
    read.

    A strided case whose block the logs do not tell (a file view whose filetype is more than
    one piece, as a subarray's) runs with the block and fill of the sweep's first strided
    layout (`stand_in`): the table tells strided cases apart by size group, not by block,
    and a measured comparison of strided access at that size is what its entry needs. What
    the kernel cannot stand for is left out, and said: accesses that do not go through
    MPI-IO (a Darshan group of POSIX or STDIO files: no hint reaches them), a strided layout
    whose block is unknown when the sweep has no strided layout, calls beyond LARGEST_CALL,
    and a scale beyond the sweep's (more ranks than its largest --nprocs, or more than one
    host: the kernel runs on this one).
    """
    tally = _Tally()
    for path, kind in log_files(paths):
        try:
            if kind == "trace":
                _add_trace(tally, path)
            else:
                _add_darshan(tally, path)
        except ConfigError:
            raise
        except IotunerError as exc:
            raise ConfigError(f"--from-logs: {exc}") from None
    cases: list[ProgramCase] = []
    left_out = tally.left_out
    for key, sizes in tally.seconds.items():
        nprocs, nodes, pattern, op, layout, block, fill, memory_block, _ = key
        seconds = sum(sizes.values())
        standing_in = layout == "strided" and block <= 0
        if standing_in:
            if stand_in is None:
                left_out["strided with a block the logs do not tell"] += seconds
                continue
            block, fill = stand_in
        if nodes > 1:
            left_out["ranks on more than one host (the kernel runs on this one)"] += seconds
            continue
        if nprocs > max_nprocs:
            left_out[f"more than {max_nprocs} ranks (the largest --nprocs)"] += seconds
            continue
        size = max(sizes, key=lambda s: (sizes[s], s))
        if size > LARGEST_CALL:
            left_out["calls beyond 1 GiB per rank (the kernel's largest)"] += seconds
            continue
        # A call's size a whole number of the file's blocks and of the memory's pieces:
        # the program's pieces, never others.
        program_calls = tally.calls[key][size]
        whole = math.lcm(block if layout == "strided" else 1, memory_block or 1)
        size = max(whole, size - size % whole)
        workload = kernel_workload(
            Workload(
                nprocs,
                1,
                pattern,
                op,
                layout,
                size,
                block,
                fill,
                _calls(program_calls, size, open_bytes, max_calls),
                memory_block=memory_block,
            )
        )
        programs = tuple(sorted(tally.programs[key]))
        cases.append(ProgramCase(workload, seconds, programs, standing_in))
    cases.sort(key=lambda c: (-c.seconds, c.describe()))
    notes = [f"left out: {why} ({seconds:.3g} s of I/O)" for why, seconds in left_out.items()]
    return _merged(cases), notes


def _calls(program: int, size: int, open_bytes: int, max_calls: int) -> int:
    """The calls per open a case runs: the program's, but no more than the sweep makes at
    this size, nor more than `open_bytes` need (a call of 256 MiB per rank runs once, not
    the sweep's two: one measurement of a program's case stays a small share of a budget).
    """
    volume = max(1, -(-open_bytes // size))
    return max(1, min(program, calls_per_open_for(size, open_bytes, max_calls), volume))


def _merged(cases: Iterable[ProgramCase]) -> list[ProgramCase]:
    """Cases whose kernel workloads are one (sizes of a group rounded to one block) as one,
    their times added, in the order of the first."""
    from iotuner.bench._plan import workload_key

    merged: dict[str, ProgramCase] = {}
    for case in cases:
        key = workload_key(case.workload)
        if key in merged:
            seen = merged[key]
            programs = tuple(sorted({*seen.programs, *case.programs}))
            merged[key] = ProgramCase(
                seen.workload, seen.seconds + case.seconds, programs, seen.stand_in
            )
        else:
            merged[key] = case
    return sorted(merged.values(), key=lambda c: -c.seconds)


def _add_trace(tally: _Tally, path: Path) -> None:
    from iotuner.tracelog import read_tracelog

    log = read_tracelog(path)
    for index, seconds in enumerate(log.ops.column("duration")):
        if not seconds or seconds <= 0 or not math.isfinite(seconds):
            continue
        try:
            workload = log.workload_of(index)
        except TraceLogError:
            continue  # a row iotuner cannot read as a workload: ingest says which
        tally.add(workload, float(seconds))


def _add_darshan(tally: _Tally, path: Path) -> None:
    from iotuner.ingest import read_darshan

    job = read_darshan(path)
    for group in job.groups:
        if not group.seconds:
            continue  # no time in the log: nothing known at stake
        if group.through_mpiio:
            tally.add(group.workload, group.seconds)
        else:
            tally.left_out["files not opened through MPI-IO (no hint reaches them)"] += (
                group.seconds
            )
