"""`iotuner bench`: the training benchmark (the thesis' training utility, Table 5.2).

It sweeps workloads (scale, access pattern, layout, read/write, size per rank) and, for each,
every configuration of a parameter space, each repeated N times. One MPI job per workload
runs our kernel (programs/iokernel.c) with a plan: one line per (configuration, repeat), in
a shuffled order so that interference from the rest of the machine spreads over all
configurations instead of hitting a few. Every write goes to a new file and is synced to
storage before its time is taken. The jobs run under the interposer's trace, so each run
also leaves a trace log with the hints MPI reported back.

Each measurement is appended to a results file (bench result lines, iotuner.measurement) as
soon as the kernel prints it, with a uid made from the sweep, the workload, the
configuration and the repeat. Run the same command again after an interrupt and what is in
the results file is not measured again.

Like the programs it stands for, a workload makes many calls per open: every measurement
opens a file, makes `calls_per_open` data calls of `bytes_per_rank` bytes per rank (the
kernel's segments, --repeat: each call all ranks' blocks side by side, as a checkpoint
writer writes one variable after another), syncs and closes it. calls_per_open_for() gives
the count: enough calls for OPEN_BYTES per rank per open, at least MIN_CALLS and at most
MAX_CALLS (see there why). The kernel times open, data calls (with the sync of a write:
the data is on storage only then) and close apart; the bandwidth recorded is the data's
(bytes over that time), and the open and close times go into each measurement's
provenance (open_seconds, close_seconds, total_seconds).
A one-call-per-open kernel measured mostly open and close at small sizes, and a model
learned that and carried it to programs that make thousands of calls per open.

Sizes: one per decade of the size groups, up to a largest size that `size_limit` scales to
this machine (memory, and the free space of the data directory), at most LARGEST_CALL.

Parameters that cannot matter to a workload are held at their default instead of multiplying
the sweep: read-side knobs (names with "read" or "_rd_") for writes and write-side knobs
("write", "_wr_") for reads, and collective-buffering knobs (romio_cb_*, cb_*) for
independent access.
"""

import hashlib
import json
import os
import random
import subprocess
import threading
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from iotuner.errors import ConfigError
from iotuner.formats import size_groups
from iotuner.measurement import (
    Measurement,
    System,
    Workload,
    measurement_from_json,
    measurement_to_json,
)
from iotuner.runner import (
    build_config,
    find_program,
    interposer_env,
    make_log_dir,
    preload_ranks_only,
    stop_group,
)
from iotuner.space import Configuration, Parameter, Space, config_key
from iotuner.tracelog import read_tracelog

if TYPE_CHECKING:
    from iotuner.store import Record

__all__ = [
    "LARGEST_CALL",
    "MAX_CALLS",
    "MIN_CALLS",
    "OPEN_BYTES",
    "BenchPlan",
    "LayoutSpec",
    "SizeLimit",
    "calls_per_open_for",
    "configurations_for",
    "default_sizes",
    "kernel_command",
    "parse_layout",
    "parse_size",
    "plan_sizes",
    "relevant",
    "run_bench",
    "size_limit",
]

_MIB = 1 << 20

OPEN_BYTES = 64 * _MIB
"""Bytes per rank that one open moves, where the call count allows. At the page cache's
1-2 GiB/s this is tens of milliseconds of data per measurement, far above the timer's and
the open's cost, and it is a checkpoint's order of size per rank."""

MIN_CALLS = 2
"""Calls per open for the largest sizes: the second call shows the steady state after the
first one's one-off costs (ROMIO's buffers, the file's first extents), while the sweep
stays affordable at 1 GiB per call (2 GiB per rank per open)."""

MAX_CALLS = 1024
"""Calls per open for the smallest sizes (1 KiB: 1 MiB per open). Programs that write
small pieces make thousands of calls per open; a thousand already makes the per-call cost
what is measured (about 0.05-0.1 s per open for collective 1 KiB calls at 2 ranks here),
and more would spend the sweep's time on the same figure."""

LARGEST_CALL = 1 << 30
"""The largest size per call the default sizes reach (real programs' 256 MiB-1 GiB calls;
the kernel's calls take an int count, so 2 GiB is out of reach anyway)."""


@dataclass(frozen=True)
class LayoutSpec:
    """contiguous, or strided with a block size and a fill level (Kunkel et al.)."""

    layout: str
    block: int = 0
    fill: float = 1.0

    def __str__(self) -> str:
        if self.layout == "contiguous":
            return "contiguous"
        return f"strided:{self.block}:{self.fill:g}"


def parse_size(text: str) -> int:
    """Bytes from '4096', '64k', '1m', '2g' (KiB, MiB, GiB)."""
    units = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30}
    body, unit = (text[:-1], units[text[-1].lower()]) if text[-1:].lower() in units else (text, 1)
    if not body.isdigit() or int(body) <= 0:
        raise ConfigError(
            f"a size must be a positive number of bytes like 4096, 64k or 1m, got {text!r}"
        )
    return int(body) * unit


def parse_layout(text: str) -> LayoutSpec:
    """'contiguous' or 'strided:BLOCK:FILL' (e.g. strided:4k:0.5)."""
    if text == "contiguous":
        return LayoutSpec("contiguous")
    parts = text.split(":")
    if len(parts) != 3 or parts[0] != "strided":
        raise ConfigError(
            f"a layout is 'contiguous' or 'strided:BLOCK:FILL' (strided:4k:0.5), got {text!r}"
        )
    try:
        fill = float(parts[2])
    except ValueError:
        fill = -1.0
    if not 0 < fill <= 1:
        raise ConfigError(f"the fill level of {text!r} must be a number in (0, 1]")
    return LayoutSpec("strided", parse_size(parts[1]), fill)


def default_sizes(max_size: int) -> list[int]:
    """One size per decade of the size groups (their first byte counts: 1 KB, 10 KB, 100 KB,
    1 MB, 10 MB, 100 MB) up to max_size, then max_size itself (at most LARGEST_CALL) when
    it is beyond 100 MB: the open-ended last group, where real programs' largest calls are."""
    firsts = [g.first for g in size_groups() if g.number in (8, 17, 26, 35, 44, 53)]
    sizes = [size for size in firsts if size <= max_size] or [min(firsts[0], max_size)]
    top = min(max_size, LARGEST_CALL)
    if top > firsts[-1]:
        sizes.append(top)
    return sizes


def calls_per_open_for(size: int, open_bytes: int = OPEN_BYTES, max_calls: int = MAX_CALLS) -> int:
    """Data calls per open for calls of `size` bytes per rank: enough for `open_bytes` per
    rank, at least MIN_CALLS, at most `max_calls` (see the constants for why)."""
    if size < 1:
        raise ConfigError(f"a size per call must be at least 1 byte, got {size}")
    wanted = -(-open_bytes // size)  # ceiling
    return max(min(MIN_CALLS, max_calls), min(wanted, max_calls))


@dataclass(frozen=True)
class SizeLimit:
    """The largest size per call a sweep may use on this machine, and why."""

    size: int
    reason: str


def _text_bytes(n: float) -> str:
    for unit, shift in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if n >= 1 << shift:
            return f"{n / (1 << shift):.1f}".removesuffix(".0") + f" {unit}"
    return f"{int(n)} B"


def mem_available() -> int:
    """MemAvailable of /proc/meminfo in bytes (0 when it cannot be read)."""
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0


def size_limit(
    data_dir: Path,
    nprocs: int,
    min_fill: float = 1.0,
    *,
    open_bytes: int = OPEN_BYTES,
    max_calls: int = MAX_CALLS,
    memory: int | None = None,
    disk: int | None = None,
) -> SizeLimit:
    """The largest size per call, for `nprocs` ranks writing under `data_dir`: at most a
    quarter of the available memory over the ranks (each rank holds at least one call's
    buffer, and the page cache takes the file too), such that one open's file (nprocs x
    size x calls_per_open_for(size), over the smallest fill level of the layouts, whose
    holes data sieving may fill) takes at most a quarter of the free disk, and at most
    LARGEST_CALL. `memory` and `disk` (bytes) replace what this machine says."""
    if nprocs < 1 or not 0 < min_fill <= 1:
        raise ConfigError(
            f"size_limit needs nprocs >= 1 and 0 < fill <= 1, got {nprocs}, {min_fill}"
        )
    if memory is None:
        memory = mem_available()
    if disk is None:
        try:
            stat = os.statvfs(data_dir)
            disk = stat.f_bavail * stat.f_frsize
        except OSError as exc:
            raise ConfigError(f"cannot see the free space of {data_dir}: {exc}") from None

    def file_bytes(size: int) -> float:
        return nprocs * size * calls_per_open_for(size, open_bytes, max_calls) / min_fill

    by_memory = memory // 4 // nprocs
    low, high = 0, 1 << 50  # the largest size whose file fits, by bisection
    while low < high:
        middle = (low + high + 1) // 2
        if file_bytes(middle) <= disk / 4:
            low = middle
        else:
            high = middle - 1
    by_disk = low
    size = max(1, min(by_memory, by_disk, LARGEST_CALL))
    binding = (
        "the largest call the sweep makes"
        if size == LARGEST_CALL
        else "memory"
        if by_memory <= by_disk
        else "disk"
    )
    calls = calls_per_open_for(size, open_bytes, max_calls)
    reason = (
        f"sizes up to {_text_bytes(size)} per call ({binding} decides): a quarter of "
        f"{_text_bytes(memory)} available memory over {nprocs} rank(s) allows "
        f"{_text_bytes(by_memory)}; a quarter of {_text_bytes(disk)} free in {data_dir} "
        f"allows {_text_bytes(by_disk)} ({nprocs} rank(s) x {calls} calls per open"
        + (f" / fill {min_fill:g}" if min_fill < 1 else "")
        + f"); at most {_text_bytes(LARGEST_CALL)}"
    )
    return SizeLimit(size, reason)


def plan_sizes(
    sizes: str | None,
    max_size: str,
    data_dir: Path,
    nprocs: Sequence[int],
    layouts: Sequence[LayoutSpec],
    open_bytes: int = OPEN_BYTES,
) -> tuple[list[int], str]:
    """The sweep's sizes per call, and a sentence on how they were chosen: the `sizes`
    given (comma-separated), or default_sizes() up to `max_size` ("auto": size_limit() for
    the largest scale and the smallest fill)."""
    if sizes:
        chosen = [parse_size(s.strip()) for s in sizes.split(",") if s.strip()]
        if not chosen:
            raise ConfigError(f"--sizes must list sizes like 4k,64k,1m, got {sizes!r}")
        return chosen, "sizes as given"
    if max_size != "auto":
        return default_sizes(parse_size(max_size)), f"sizes up to --max-size {max_size}"
    if not data_dir.is_dir():
        raise ConfigError(f"the data directory {data_dir} does not exist")
    fill = min((layout.fill for layout in layouts), default=1.0)
    limit = size_limit(data_dir, max(nprocs), fill, open_bytes=open_bytes)
    return default_sizes(limit.size), limit.reason


def relevant(parameter: Parameter, workload: Workload) -> bool:
    """Whether a parameter can change this workload's performance (see the module doc)."""
    name = parameter.name
    if parameter.kind != "hint":
        return False  # our kernel has no application parameters
    if workload.op == "write" and ("read" in name or "_rd_" in name):
        return False
    if workload.op == "read" and ("write" in name or "_wr_" in name):
        return False
    return not (workload.pattern == "independent" and name.startswith(("romio_cb_", "cb_")))


def configurations_for(space: Space, workload: Workload) -> list[Configuration]:
    """The configurations that differ for a workload, the default first: parameters that
    cannot matter to it (relevant()) stay at their default."""
    default = space.default()
    fixed = {p.name for p in space.parameters if not relevant(p, workload)}
    return [c for c in space.configurations() if all(c[n] == default[n] for n in fixed)]


@dataclass
class BenchPlan:
    """What a sweep measures: workloads x configurations x repeats. Each workload makes
    calls_per_open_for(size, open_bytes, max_calls) calls per open."""

    space: Space
    nprocs: Sequence[int]
    patterns: Sequence[str]
    layouts: Sequence[LayoutSpec]
    ops: Sequence[str]
    sizes: Sequence[int]
    repeats: int = 3
    max_configs: int | None = None
    seed: int = 0
    open_bytes: int = OPEN_BYTES
    max_calls: int = MAX_CALLS
    workloads: list[Workload] = field(init=False)

    def __post_init__(self) -> None:
        if self.repeats < 1:
            raise ConfigError(f"repeats must be at least 1, got {self.repeats}")
        if self.open_bytes < 1 or self.max_calls < 1:
            raise ConfigError(
                f"open_bytes and max_calls must be at least 1, got {self.open_bytes} "
                f"and {self.max_calls}"
            )
        self.workloads = []
        for nprocs in self.nprocs:
            for pattern in self.patterns:
                for layout in self.layouts:
                    for op in self.ops:
                        for size in self.sizes:
                            # A strided size is a whole number of blocks.
                            if layout.layout == "strided":
                                size = max(layout.block, size - size % layout.block)
                            workload = Workload(
                                nprocs,
                                1,
                                pattern,
                                op,
                                layout.layout,
                                size,
                                layout.block,
                                layout.fill,
                                calls_per_open_for(size, self.open_bytes, self.max_calls),
                            )
                            self.workloads.append(workload)

    @property
    def sweep_id(self) -> str:
        """Names this sweep: the same command gives the same id, so a rerun resumes."""
        text = json.dumps(
            [
                self.space.name,
                [p.name for p in self.space.parameters],
                list(self.nprocs),
                list(self.patterns),
                [str(x) for x in self.layouts],
                list(self.ops),
                list(self.sizes),
                self.repeats,
                self.max_configs,
                self.seed,
                self.open_bytes,
                self.max_calls,
            ],
        )
        return hashlib.sha256(text.encode()).hexdigest()[:12]

    def configurations(self, workload: Workload) -> list[Configuration]:
        """The configurations measured for a workload: all that matter, or a sample."""
        configs = configurations_for(self.space, workload)
        if self.max_configs is not None and len(configs) > self.max_configs:
            rng = random.Random(f"{self.seed}:{workload}")
            configs = [configs[0], *rng.sample(configs[1:], self.max_configs - 1)]
        return configs

    def measurements(self) -> int:
        return sum(len(self.configurations(w)) for w in self.workloads) * self.repeats

    def calls_text(self) -> str:
        """The sizes per call with their calls per open, e.g. '1000 B x 1024, 1.0 GiB x 2'."""
        pairs = dict.fromkeys((w.bytes_per_rank, w.calls_per_open) for w in self.workloads)
        return ", ".join(f"{_text_bytes(size)} x {calls}" for size, calls in sorted(pairs))

    def data_bytes(self) -> int:
        """Bytes the sweep moves in its data calls, all ranks (a read workload also writes
        its file once, untimed)."""
        total = 0
        for w in self.workloads:
            moved = w.nprocs * w.bytes_per_rank * w.calls_per_open
            total += moved * (len(self.configurations(w)) * self.repeats + (w.op == "read"))
        return total


def workload_key(workload: Workload) -> str:
    return (
        f"n{workload.nprocs}-{workload.pattern}-{workload.op}-{workload.layout}"
        f"-b{workload.block}-f{workload.fill:g}-s{workload.bytes_per_rank}"
        f"-c{workload.calls_per_open}"
    )


def kernel_command(workload: Workload, target: Path, *extra: str) -> list[str]:
    """The command that runs our kernel at the workload's scale, doing the workload on
    `target` and deleting it afterwards; `extra` are more kernel options (--plan, --hint).
    The workload's calls per open are the kernel's segments (--repeat)."""
    command = [
        build_config().mpiexec,
        "-n",
        str(workload.nprocs),
        str(find_program("iokernel")),
        "--file",
        str(target),
        "--op",
        workload.op,
        "--pattern",
        workload.pattern,
        "--size",
        str(workload.bytes_per_rank),
        "--repeat",
        str(workload.calls_per_open),
        "--delete",
    ]
    if workload.layout == "strided":
        command += [
            "--layout",
            "strided",
            "--block",
            str(workload.block),
            "--fill",
            f"{workload.fill:g}",
        ]
    return [*command, *extra]


def _done_uids(results: Path) -> set[str]:
    if not results.exists():
        return set()
    done = set()
    for number, line in enumerate(results.read_text().splitlines(), start=1):
        if not line.strip():
            continue
        try:
            done.add(measurement_from_json(line)[0].uid)
        except ValueError as exc:
            raise ConfigError(f"{results} line {number}: {exc}") from None
    return done


def probe_system(data_dir: Path, log_dir: Path) -> System:
    """This system's fingerprint, from one tiny traced run (MPI library, MPI-IO driver)."""
    tag = "probe" + uuid.uuid4().hex[:8]
    env = interposer_env("trace", None, log_dir, "table", tag)
    tiny = Workload(1, 1, "collective", "write", "contiguous", 1024)
    command = kernel_command(tiny, data_dir / "iotuner-probe.dat")
    completed = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    logs = sorted(log_dir.glob(f"*-{tag}.iotrace.jsonl"))
    if completed.returncode != 0 or not logs:
        raise ConfigError(f"the probe run in {data_dir} failed:\n{completed.stderr}")
    log = read_tracelog(logs[0])
    driver = log.hints[0]["driver"] if log.hints else "unknown"
    return System.detect(data_dir, log.job["mpi_library"], driver or "unknown")


def run_bench(
    plan: BenchPlan,
    data_dir: Path,
    results: Path,
    console: Console,
    after_workload: Callable[[list["Record"]], object] | None = None,
) -> int:
    """Measure what `results` does not hold yet; returns the number of new measurements.

    `after_workload(records)` runs after each workload's job with the measurements it
    added to `results` (e.g. to store them in the knowledge base without reading the
    growing file again). Interrupting (Ctrl-C) stops the running job; what it measured so far
    is kept.
    """
    if not data_dir.is_dir():
        raise ConfigError(f"the data directory {data_dir} does not exist")
    work = data_dir / f"iotuner-bench-{plan.sweep_id}"
    log_dir = results.parent / f"{results.stem}-logs"
    work.mkdir(exist_ok=True)
    make_log_dir(log_dir)  # private, like every trace log directory
    done = _done_uids(results)
    system = probe_system(work, log_dir)
    order = list(plan.workloads)
    random.Random(plan.seed).shuffle(order)
    total = plan.measurements()
    added = 0
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("eta"),
        TimeRemainingColumn(),
    )
    try:
        with Progress(*columns, console=console) as progress:
            task = progress.add_task("bench", total=total, completed=min(len(done), total))
            for workload in order:
                progress.update(task, description=workload_key(workload))
                new = _run_workload(
                    plan,
                    workload,
                    system,
                    work,
                    log_dir,
                    results,
                    done,
                    lambda: progress.advance(task),
                )
                added += len(new)
                if after_workload is not None and new:
                    after_workload([(m, system, plan.space.name) for m in new])
    finally:
        for leftover in work.iterdir():
            leftover.unlink()
        work.rmdir()
    return added


def _run_workload(
    plan: BenchPlan,
    workload: Workload,
    system: System,
    work: Path,
    log_dir: Path,
    results: Path,
    done: set[str],
    advance: Callable[[], None],
) -> list[Measurement]:
    """One MPI job: the workload's missing (configuration, repeat) pairs, shuffled; returns
    the measurements it added to `results`."""
    prefix = f"{plan.sweep_id}:{workload_key(workload)}"
    lines: dict[str, tuple[Configuration, int]] = {}
    for index, config in enumerate(plan.configurations(workload)):
        for repeat in range(plan.repeats):
            uid = f"{prefix}:{config_key(config)}:{repeat}"
            if uid not in done:
                lines[f"c{index}r{repeat}"] = (config, repeat)
    if not lines:
        return []
    ids = list(lines)
    random.Random(f"{plan.seed}:{prefix}").shuffle(ids)
    plan_file = work / "plan.txt"
    plan_file.write_text(
        "".join(
            " ".join(
                [plan_id, *(f"{k}={v}" for k, v in plan.space.hints(lines[plan_id][0]).items())]
            )
            + "\n"
            for plan_id in ids
        )
    )
    tag = uuid.uuid4().hex[:12]
    env = interposer_env("trace", None, log_dir, "table", tag)
    command, env = preload_ranks_only(
        kernel_command(workload, work / "data", "--plan", str(plan_file)),
        env,
        os.environ.get("LD_PRELOAD"),
    )
    added: list[Measurement] = []
    with (
        results.open("a", encoding="utf-8") as out,
        subprocess.Popen(
            command,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            process_group=0,
        ) as job,
    ):
        # stderr is read on a thread while stdout is parsed: a kernel that writes more
        # than a pipe holds to stderr (rank warnings) would otherwise block forever.
        errors: list[str] = []
        drain = threading.Thread(target=lambda: errors.extend(job.stderr or ()), daemon=True)
        drain.start()
        try:
            assert job.stdout is not None
            for line in job.stdout:
                measurement = _parse_line(line, lines, prefix, workload, tag)
                if measurement is None:
                    continue
                out.write(measurement_to_json(measurement, system, plan.space.name) + "\n")
                out.flush()
                done.add(measurement.uid)
                added.append(measurement)
                advance()
        except BaseException:
            stop_group(job)
            raise
        drain.join()
        stderr = "".join(errors)
    if job.returncode != 0:
        raise ConfigError(
            f"the kernel failed on {workload_key(workload)} (exit {job.returncode}):\n{stderr}"
        )
    return added


def _parse_line(
    line: str,
    lines: dict[str, tuple[Configuration, int]],
    prefix: str,
    workload: Workload,
    tag: str,
) -> Measurement | None:
    """A measurement from one `iokernel: id=... op=... bytes=... seconds=... data_s=...`
    line: the data calls' time and bandwidth, open and close times in the provenance."""
    if not line.startswith("iokernel: id="):
        return None
    fields = dict(part.split("=", 1) for part in line.split()[1:])
    if fields["id"] not in lines or fields["op"] != workload.op:
        return None  # the untimed preparation of a read plan
    wanted = ("data_s", "data_mib_s", "open_s", "close_s", "calls")
    if any(name not in fields for name in wanted):
        raise ConfigError(
            f"the kernel's result line lacks {', '.join(n for n in wanted if n not in fields)} "
            f"(an iokernel older than this iotuner? rebuild and install it): {line.strip()}"
        )
    if int(fields["calls"]) != workload.calls_per_open:
        raise ConfigError(
            f"the kernel made {fields['calls']} calls per open, the workload says "
            f"{workload.calls_per_open}: {line.strip()}"
        )
    config, repeat = lines[fields["id"]]
    return Measurement(
        uid=f"{prefix}:{config_key(config)}:{repeat}",
        workload=workload,
        config=dict(config),
        bandwidth=float(fields["data_mib_s"]),
        seconds=float(fields["data_s"]),
        bytes=int(fields["bytes"]),
        repeat=repeat,
        provenance={
            "bench_run": prefix.split(":")[0],
            "plan_id": fields["id"],
            "job_tag": tag,
            "open_seconds": float(fields["open_s"]),
            "close_seconds": float(fields["close_s"]),
            "total_seconds": float(fields["seconds"]),
        },
    )
