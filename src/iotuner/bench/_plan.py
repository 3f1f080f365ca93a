"""What a sweep measures: sizes scaled to this machine, calls per open, layouts, the
configurations that can matter to each workload, and the plan (see iotuner.bench)."""

import hashlib
import json
import os
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from iotuner.errors import ConfigError
from iotuner.formats import hint_vocabulary, size_groups
from iotuner.measurement import OPTIONAL_WORKLOAD_FIELDS, Workload
from iotuner.space import Configuration, Parameter, Space

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


_DURATION_UNITS = {"s": 1, "m": 60, "h": 3600}
_DURATION_PART = r"(\d+(?:\.\d+)?)([smh])"


def parse_duration(text: str, what: str = "a duration") -> float | None:
    """Seconds from '90s', '20m', '1h', '1h30m' or '1.5h' (units s, m, h); None for 'none'
    (no limit). ConfigError, naming `what` (an option), what it takes and what came."""
    body = text.strip().lower().replace(" ", "")
    if body == "none":
        return None
    wanted = f"{what} must be a duration like 90s, 20m, 1h or 1h30m, or none for no limit"
    if re.fullmatch(r"\d+(?:\.\d+)?", body):
        raise ConfigError(f"{wanted}; {text!r} has no unit (s, m or h): {body}s or {body}m?")
    if not body or not re.fullmatch(f"(?:{_DURATION_PART})+", body):
        raise ConfigError(f"{wanted}, got {text!r}")
    seconds = sum(float(n) * _DURATION_UNITS[u] for n, u in re.findall(_DURATION_PART, body))
    if seconds <= 0:
        raise ConfigError(f"{wanted}, more than 0; got {text!r}")
    return seconds


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


KERNEL_PROGRAM = "iokernel"
"""The program name of bench measurements (Workload.program)."""


def kernel_workload(workload: Workload) -> Workload:
    """`workload` with what our kernel's runs of it tell, where it does not say already:
    program iokernel; one shared file; ranks_per_node, the ranks spread evenly over the
    nodes (nprocs / nodes rounded up, as mpiexec places them); interleaved, at more than
    one rank, for the strided layout (writer w's k-th block goes to slot k*W + w) and for
    the contiguous one with more than one call per open (call p of writer w covers
    [(p*W + w)*size, +size): the ranks take turns, as a trace of the same run says;
    programs/iokernel.c), and not for one contiguous call per rank (the ranks' pieces lie
    side by side, each once). Striping stays unknown:
    the kernel does not set it, and the file systems the sweeps run on (ext4, tmpfs) have
    none (Lustre's would be read with lfs getstripe, not done yet)."""
    known: dict[str, Any] = {
        "program": KERNEL_PROGRAM,
        "files": 1,
        "ranks_per_node": -(-workload.nprocs // workload.nodes),
        "interleaved": workload.nprocs > 1
        and (workload.layout == "strided" or workload.calls_per_open > 1),
        "memory_block": 0,  # a call's memory, contiguous unless --memory-block
    }
    return replace(
        workload, **{name: v for name, v in known.items() if getattr(workload, name) is None}
    )


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
    """Whether a parameter can change this workload's performance: a hint whose key
    formats/hints.def says acts on the workload's access (pattern and op). Keys the
    vocabulary does not know are kept; our kernel has no application parameters."""
    if parameter.kind != "hint":
        return False
    hint = hint_vocabulary().get(parameter.name)
    return hint is None or hint.acts_on(workload.pattern, workload.op)


def configurations_for(space: Space, workload: Workload) -> list[Configuration]:
    """The configurations that differ for a workload, the default first: parameters that
    cannot act on its access (relevant()) stay at their default. Values that act as the
    default at the workload's scale (formats/hint_scale.def) are still listed here, so a
    recorded sweep's seeded sample stays its plan; tune and predict rank one of each
    behaviour (iotuner.acting.distinct_configurations)."""
    default = space.default()
    fixed = {p.name for p in space.parameters if not relevant(p, workload)}
    return [c for c in space.configurations() if all(c[n] == default[n] for n in fixed)]


@dataclass
class BenchPlan:
    """What a sweep measures: workloads x configurations x repeats. Each workload makes
    calls_per_open_for(size, open_bytes, max_calls) calls per open. `cases` are the kernel
    workloads of the programs' cases (bench._programs): planned too, with one configuration
    of every behaviour on them (max_configs does not sample them), and left out of
    sweep_id (a measurement is the same whichever logs asked for it, so a sweep resumed
    with other logs keeps what it measured)."""

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
    cases: Sequence[Workload] = ()
    workloads: list[Workload] = field(init=False)
    _configurations: dict[str, list[Configuration]] = field(
        init=False, default_factory=dict, repr=False, compare=False
    )

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
                            workload = kernel_workload(workload)
                            self._add(workload)
        for workload in self.cases:
            self._add(workload)

    def _add(self, workload: Workload) -> None:
        # Strided sizes rounded to whole blocks may meet, and a program's case may be a
        # workload of the plan: once is enough.
        if all(workload_key(w) != workload_key(workload) for w in self.workloads):
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
        """The configurations planned for a workload, the default first: all that matter,
        or a sample (the same list every time: it is made once per workload)."""
        key = workload_key(workload)
        if key not in self._configurations:
            configs = configurations_for(self.space, workload)
            is_case = any(workload_key(c) == key for c in self.cases)
            if is_case:
                # A case is measured for its own sake: one configuration per behaviour.
                from iotuner.acting import distinct_configurations

                configs = distinct_configurations(self.space, configs, workload)
            elif self.max_configs is not None and len(configs) > self.max_configs:
                rng = random.Random(f"{self.seed}:{_sample_seed(workload)}")
                configs = [configs[0], *rng.sample(configs[1:], self.max_configs - 1)]
            self._configurations[key] = configs
        return [dict(c) for c in self._configurations[key]]

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
        + (f"-m{workload.memory_block}" if workload.memory_block else "")
    )


def _sample_seed(workload: Workload) -> str:
    """The workload's text from before the optional fields (the dataclass repr of the
    others), so that a sweep resumed by a newer iotuner samples the same configurations."""
    told = (f for f in fields(workload) if f.name not in OPTIONAL_WORKLOAD_FIELDS)
    return f"Workload({', '.join(f'{f.name}={getattr(workload, f.name)!r}' for f in told)})"
