"""What one measurement is: the records that flow from bench, traces and CSV files into the
knowledge base, and from there, summarised over repeats, into the models.

A Workload says what was done (scale, access, size); a configuration (iotuner.space) says
with which settings; a Measurement is one timed run of a workload with a configuration.
The summary frame (`SUMMARY_COLUMNS`) is what every model reads: one row per (system,
workload, configuration) with the five-number summary of the bandwidths of its repeats.
"""

import hashlib
import json
import math
import numbers
import os
import re
import socket
from collections.abc import Mapping
from dataclasses import MISSING, asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from iotuner._safejson import loads_json
from iotuner._units import format_size
from iotuner.formats import size_group

__all__ = [
    "BENCH_FORMAT",
    "CONFIG_PREFIX",
    "LAYOUTS",
    "NOT_SET",
    "OPS",
    "OPTIONAL_WORKLOAD_FIELDS",
    "PATTERNS",
    "REQUIRED_WORKLOAD_FIELDS",
    "STAT_COLUMNS",
    "SUMMARY_COLUMNS",
    "WORKLOAD_COLUMNS",
    "WORKLOAD_FIELDS",
    "Measurement",
    "System",
    "Workload",
    "measurement_from_json",
    "measurement_to_json",
]

BENCH_FORMAT = "iotuner-bench"
"""The `format` of bench result lines (one JSON object per measurement)."""

PATTERNS = ("collective", "independent")
OPS = ("write", "read")
LAYOUTS = ("contiguous", "strided")

CONFIG_PREFIX = "cfg:"
"""Configuration columns of the summary frame are named cfg:<parameter>."""

NOT_SET = "default"
"""The one word for "the library's own setting": what a cfg:<parameter> cell holds when
the configuration does not set the parameter, and the key (iotuner.space.config_key) of
the configuration that sets nothing."""

STAT_COLUMNS = ("n", "bw_min", "bw_q1", "bw_median", "bw_q3", "bw_max")
"""Repeats and the five-number summary of their bandwidths (MiB/s)."""


_MOUNT_ESCAPE = re.compile(r"\\([0-7]{3})")


@dataclass(frozen=True)
class System:
    """Where a measurement was made: results from different systems are never mixed up.

    `fs_type` is the file system under the data (e.g. ext4, lustre, nfs), `fs_driver` the
    MPI-IO driver that served it (ROMIO's ufs, lustre, ...), `fs_mount` its mount point.
    """

    host: str
    mpi_library: str
    fs_type: str
    fs_driver: str
    fs_mount: str

    @property
    def fingerprint(self) -> str:
        text = json.dumps(asdict(self), sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    @staticmethod
    def detect(data_dir: Path, mpi_library: str, fs_driver: str) -> "System":
        """This machine, for data written under `data_dir`, or to the file `data_dir`
        (mount from /proc/self/mounts). The path is resolved as an open resolves it:
        symlinks followed, a dangling one to where the open creates its target (issue 42;
        the interposer's interposer/src/fs.c resolves it alike), and the longest mount
        point that holds it wins, of equal ones the later."""
        fs_type, fs_mount = "unknown", "/"
        target = os.path.realpath(data_dir)
        try:
            mounts = Path("/proc/self/mounts").read_text().splitlines()
        except OSError:
            mounts = []
        for line in mounts:
            parts = line.split()
            if len(parts) < 3:
                continue
            # The kernel writes a space, tab, newline and backslash as \ooo (getmntent reads
            # them back so in C).
            mount = _MOUNT_ESCAPE.sub(lambda m: chr(int(m.group(1), 8)), parts[1])
            inside = target == mount or target.startswith(mount.rstrip("/") + "/")
            if inside and len(mount) >= len(fs_mount):
                fs_type, fs_mount = parts[2], mount
        host = socket.gethostname().split(".")[0]
        return System(host, " ".join(mpi_library.split()), fs_type, fs_driver, fs_mount)


def _describe(column: str, doc: str, **default: Any) -> Any:
    """A Workload field with its knowledge-base column type ("integer", "bigint", "real",
    "word", "text", "boolean") and what it means; the store's table and the CSV fields are
    made from these."""
    return field(metadata={"column": column, "doc": doc}, **default)


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


@dataclass(frozen=True)
class Workload:
    """What was measured, apart from the settings: the one list of workload fields.

    `block` and `fill` describe a strided layout (Kunkel et al.: block size, and the fraction
    of the file the blocks cover); a contiguous layout has block 0 and fill 1.
    `bytes_per_rank` is what one rank moves in one call; `calls_per_open` how many such
    calls a rank makes between opening and closing the file (1 where a source does not
    tell, as in results from before the field: the old kernel made one call per open).

    The fields after `calls_per_open` tell apart problems with equal totals; each may be
    None, meaning unknown (a source that does not tell), which is not the same as 0 or
    False: the models see an unknown value as missing. `ranks_per_node` is the most ranks
    on one host; `files` how many files the ranks access at once (1: one shared file,
    nprocs: a file per process); `interleaved` whether the ranks' requests alternate within
    a file (a strided layout whose blocks take turns between ranks) rather than each rank
    keeping its own region; `stripe_count` and `stripe_size` (bytes) the file's striping
    on a parallel file system such as Lustre (None where the file is not striped or the
    source does not say); `program` the application's name ("iokernel" for bench rows),
    which tells programs apart for leave-one-program-out evaluation; `memory_block` the
    bytes of one contiguous piece of a call's memory buffer where it is noncontiguous (0:
    contiguous; a trace's access shape, formats/README.md, and iokernel --memory-block).

    The knowledge base, the summary frame, bench results, CSV mappings, the search's study
    attributes and the model features all take their workload columns from these fields
    (`dataclasses.fields`, WORKLOAD_COLUMNS); a new field needs a store schema upgrade.
    """

    nprocs: int = _describe("integer", "ranks that took part")
    nodes: int = _describe("integer", "hosts the ranks ran on")
    pattern: str = _describe("word", "collective or independent")
    op: str = _describe("word", "write or read")
    layout: str = _describe("word", "contiguous or strided")
    bytes_per_rank: int = _describe("bigint", "bytes one rank moves in one call")
    block: int = _describe("bigint", "block size of a strided layout (0: contiguous)", default=0)
    fill: float = _describe("real", "fraction of the file a strided layout covers", default=1.0)
    calls_per_open: int = _describe(
        "bigint", "data calls per rank between open and close", default=1
    )
    ranks_per_node: int | None = _describe(
        "integer", "most ranks on one host (empty: unknown)", default=None
    )
    files: int | None = _describe(
        "integer",
        "files the ranks access at once: 1 shared, nprocs one per rank (empty: unknown)",
        default=None,
    )
    interleaved: bool | None = _describe(
        "boolean", "the ranks' requests alternate within a file (empty: unknown)", default=None
    )
    stripe_count: int | None = _describe(
        "integer", "the file's stripe count (empty: unknown or not striped)", default=None
    )
    stripe_size: int | None = _describe(
        "bigint", "the file's stripe size in bytes (empty: unknown or not striped)", default=None
    )
    program: str | None = _describe(
        "text", "the application's name, e.g. iokernel (empty: unknown)", default=None
    )
    memory_block: int | None = _describe(
        "bigint",
        "bytes of one piece of a call's memory when it is noncontiguous (0: contiguous; "
        "empty: unknown)",
        default=None,
    )

    def __post_init__(self) -> None:
        for name in OPTIONAL_COUNT_FIELDS:
            object.__setattr__(self, name, _optional_count(name, getattr(self, name)))
        object.__setattr__(self, "interleaved", _optional_flag(self.interleaved))
        object.__setattr__(self, "program", _optional_word(self.program))
        object.__setattr__(
            self, "memory_block", _optional_count("memory_block", self.memory_block, 0)
        )
        if self.pattern not in PATTERNS:
            raise ValueError(f"pattern must be one of {PATTERNS}, got {self.pattern!r}")
        if self.op not in OPS:
            raise ValueError(f"op must be one of {OPS}, got {self.op!r}")
        if self.layout not in LAYOUTS:
            raise ValueError(f"layout must be one of {LAYOUTS}, got {self.layout!r}")
        if self.nprocs < 1 or self.nodes < 1 or self.bytes_per_rank < 0:
            raise ValueError(f"nprocs and nodes must be >= 1 and bytes >= 0, got {self}")
        if not 0 < self.fill <= 1:
            raise ValueError(f"fill must be in (0, 1], got {self.fill}")
        if self.calls_per_open < 1:
            raise ValueError(f"calls_per_open must be >= 1, got {self.calls_per_open}")
        per_node = self.ranks_per_node
        if per_node is not None and not (per_node <= self.nprocs <= per_node * self.nodes):
            raise ValueError(
                f"ranks_per_node must be at most nprocs ({self.nprocs}) and, times nodes "
                f"({self.nodes}), at least nprocs; got {per_node}"
            )

    def __str__(self) -> str:
        """The workload in words, as messages show it (the repr keeps the fields)."""
        shape = (
            f"strided ({format_size(self.block)} blocks covering {self.fill:.0%} of the file)"
            if self.layout == "strided"
            else self.layout
        )
        known = {
            "ranks per node": self.ranks_per_node,
            "files at once": self.files,
            "interleaved": None
            if self.interleaved is None
            else "yes"
            if self.interleaved
            else "no",
            "stripe count": self.stripe_count,
            "stripe size": None if self.stripe_size is None else format_size(self.stripe_size),
            "program": self.program,
            "memory in pieces of": format_size(self.memory_block) if self.memory_block else None,
        }
        return (
            f"{_count(self.nprocs, 'rank')} on {_count(self.nodes, 'node')}, {self.pattern} "
            f"{self.op}s, {shape}, {format_size(self.bytes_per_rank)} per rank per call, "
            f"{_count(self.calls_per_open, 'call')} per open"
            + "".join(f", {name} {value}" for name, value in known.items() if value is not None)
        )

    def describe_shape(self) -> str:
        """'strided (4 B blocks covering 50 % of the file), memory in pieces of 4 KiB': the
        file's and the memory's layout alone."""
        shape = (
            f"strided ({format_size(self.block)} blocks covering {self.fill:.0%} of the file)"
            if self.layout == "strided"
            else self.layout
        )
        memory = (
            f"memory in pieces of {format_size(self.memory_block)}"
            if self.memory_block
            else "contiguous memory"
        )
        return f"{shape}, {memory}"

    @property
    def group(self) -> int:
        return size_group(self.bytes_per_rank)

    def as_row(self) -> dict[str, Any]:
        """The workload's columns of the summary frame (WORKLOAD_COLUMNS)."""
        return {**asdict(self), "group": self.group}

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> "Workload":
        """The workload of a row with (at least) the fields without a default; other keys
        (such as `group`, which follows from the size) are ignored. An empty cell (None or
        NaN, as a frame holds a NULL) of an optional field reads as unknown (None); integral
        floats (a frame's integer column with empty cells) read as integers. ValueError
        (with what was expected) for a value out of range; KeyError for a missing field."""
        values = {
            f.name: row[f.name]
            for f in WORKLOAD_FIELDS
            if f.name in row or f.name in REQUIRED_WORKLOAD_FIELDS
        }
        for name in OPTIONAL_WORKLOAD_FIELDS:
            if name in values and _is_empty(values[name]):
                values[name] = None
        return cls(**values)


OPTIONAL_COUNT_FIELDS = ("ranks_per_node", "files", "stripe_count", "stripe_size")
"""Optional integer workload fields: >= 1 when known, None when not."""

OPTIONAL_WORKLOAD_FIELDS = (*OPTIONAL_COUNT_FIELDS, "interleaved", "program", "memory_block")
"""The workload fields that may be unknown (None)."""


def _is_empty(value: Any) -> bool:
    """Whether a cell is empty: None, or a float NaN (pandas' NULL)."""
    return value is None or (isinstance(value, float) and math.isnan(value))


def _optional_count(name: str, value: Any, least: int = 1) -> int | None:
    """`value` as an int >= `least`, or None; integral floats and numpy integers are
    accepted."""
    if value is None:
        return None
    wrong = f"{name} must be an integer >= {least} or empty (unknown), got {value!r}"
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(wrong)
    number = float(value)
    if not number.is_integer() or number < least:
        raise ValueError(wrong)
    return int(number)


def _optional_flag(value: Any) -> bool | None:
    """`value` as a bool, or None; 0 and 1 (a knowledge base's boolean) are accepted."""
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, numbers.Real) and value in (0, 1):
        return bool(value)
    raise ValueError(f"interleaved must be true, false or empty (unknown), got {value!r}")


def _optional_word(value: Any) -> str | None:
    """`value` as a non-empty word without spaces, or None."""
    if value is None:
        return None
    if not isinstance(value, str) or not value or value.split() != [value]:
        raise ValueError(f"program must be a non-empty word (no spaces) or empty, got {value!r}")
    return value


WORKLOAD_FIELDS = fields(Workload)

REQUIRED_WORKLOAD_FIELDS = tuple(f.name for f in WORKLOAD_FIELDS if f.default is MISSING)
"""The workload fields without a default: every source of a workload must give them."""

WORKLOAD_COLUMNS = (*(f.name for f in WORKLOAD_FIELDS), "group")
"""Columns that describe a workload in the summary frame (`group` follows from the size)."""


SUMMARY_COLUMNS = ("system", *WORKLOAD_COLUMNS, "config", *STAT_COLUMNS)
"""The fixed columns of a summary frame; the cfg:<parameter> columns come after `config`
(the canonical configuration text, iotuner.space.config_key)."""


@dataclass(frozen=True)
class Measurement:
    """One timed run of a workload with a configuration.

    `uid` makes ingestion idempotent: the same measurement read twice has the same uid.
    `config` maps parameter names to values (str or int); `bandwidth` is MiB/s over
    `seconds` for `bytes` (all ranks). For bench results (from the kernel's data_s) these
    are the data calls' time and bandwidth, without opening and closing the file; the
    provenance keeps those times apart (open_seconds, close_seconds, total_seconds).
    `provenance` says where it came from (file, line, trace log, command) and is stored as
    given.
    """

    uid: str
    workload: Workload
    config: dict[str, str | int]
    bandwidth: float
    seconds: float
    bytes: int
    repeat: int = 0
    provenance: dict[str, Any] = field(default_factory=dict)


def measurement_to_json(m: Measurement, system: System, space: str) -> str:
    """One bench result line: the measurement, its system and the space it came from."""
    return json.dumps(
        {
            "format": BENCH_FORMAT,
            "version": 1,
            "uid": m.uid,
            "system": asdict(system),
            "space": space,
            "workload": asdict(m.workload),
            "config": m.config,
            "bandwidth": m.bandwidth,
            "seconds": m.seconds,
            "bytes": m.bytes,
            "repeat": m.repeat,
            "provenance": m.provenance,
        },
        sort_keys=True,
    )


def measurement_from_json(line: str) -> tuple[Measurement, System, str]:
    """The measurement, system and space name of one bench result line.

    ValueError (with what was expected) for a line that is not one.
    """
    try:
        data = loads_json(line)
    except json.JSONDecodeError as exc:
        raise ValueError(f"not valid JSON ({exc.msg} at column {exc.colno})") from None
    if not isinstance(data, dict) or data.get("format") != BENCH_FORMAT:
        raise ValueError(f'expected a bench result ("format": "{BENCH_FORMAT}")')
    if data.get("version") != 1:
        raise ValueError(f"expected bench result version 1, got {data.get('version')!r}")
    try:
        system = System(**data["system"])
        workload = Workload(**data["workload"])
        measurement = Measurement(
            uid=str(data["uid"]),
            workload=workload,
            config=dict(data["config"]),
            bandwidth=float(data["bandwidth"]),
            seconds=float(data["seconds"]),
            bytes=int(data["bytes"]),
            repeat=int(data["repeat"]),
            provenance=dict(data.get("provenance", {})),
        )
    except (KeyError, TypeError) as exc:
        raise ValueError(
            f"a bench result needs uid, system, workload, config, bandwidth, "
            f"seconds, bytes and repeat ({exc})"
        ) from None
    return measurement, system, str(data.get("space", ""))
