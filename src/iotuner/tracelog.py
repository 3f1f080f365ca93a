"""Trace logs (formats/README.md, "Trace log"): read and check one log of one job, say
which workload each of its operations was, and find the temporary logs that jobs killed
while writing them left behind.

The `op` columns are checked against formats/trace_op_fields.def; the other records
against the keys formats/README.md lists for them. This is the one reading of a trace:
ingest, trace history and the search all take records, line numbers and workloads from
`TraceLog`, so they cannot disagree on where, say, an operation's `nprocs` comes from.
"""

import bisect
import functools
import hashlib
import json
import math
import operator
import os
import re
import stat
import time
from array import array
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, BinaryIO, NoReturn, overload

from iotuner._inputs import InputError, checked_input
from iotuner._safejson import loads_json
from iotuner.errors import TraceLogError
from iotuner.formats import limits, op_fields, size_groups, trace_records
from iotuner.measurement import Workload

__all__ = [
    "EMPTY_STALE_AFTER_SECONDS",
    "FORMAT",
    "STALE_AFTER_SECONDS",
    "TEMPORARY_LOG_NAME",
    "TRACE_LOG_MAX_BYTES",
    "VERSION",
    "LeftoverLog",
    "OpRows",
    "TraceLog",
    "dominant_workload",
    "leftover_logs",
    "read_tracelog",
    "remove_leftover",
]

FORMAT = "iotuner-trace"
VERSION = 1

TEMPORARY_LOG_NAME = re.compile(r"\.(?P<program>.+)-\d{8}-\d{6}-(?P<pid>\d+)\.tmp")
"""The name a log has while rank 0 writes it, `.<program>-<YYYYmmdd-HHMMSS>-<pid>.tmp`."""

STALE_AFTER_SECONDS = 10 * 60
"""A temporary log with data, unmodified this long, was left by a job killed writing it.

RATIONALE: rank 0 writes a log in one go at MPI_Finalize, each rank's text as soon as it
arrives, so its modification time never stands still for more than seconds while it is
written. Ten minutes is far beyond that, with room for a file system that stalls for a
while and for a file server's clock that runs ahead of this host's.
"""

EMPTY_STALE_AFTER_SECONDS = 24 * 60 * 60
"""An empty temporary log, unmodified this long, was left by a job killed writing it.

RATIONALE: the interposer creates the file before waiting at MPI_Finalize for the other
ranks to arrive, and writes nothing until they have, which lasts as long as the slowest
rank's remaining work; an empty file is no sign of a dead writer until much later (and it
takes no space meanwhile).
"""

_NUMBER = (int, float)
_NONE = type(None)

_TYPES: dict[str, tuple[type, ...]] = {
    "INT": (int,),
    "NUMBER": _NUMBER,
    "TEXT": (str,),
    "OBJECT": (dict,),
    "LIST": (list,),
    "BOOL": (bool,),
    "NULL": (_NONE,),
}


def _schema(optional: bool) -> dict[str, dict[str, tuple[type, ...]]]:
    """Record -> key -> the Python types its value may have (formats/trace_records.def).
    bool is never accepted where int is."""
    schema: dict[str, dict[str, tuple[type, ...]]] = {}
    for spec in trace_records():
        keys = schema.setdefault(spec.record, {})
        if spec.optional == optional:
            keys[spec.key] = tuple(t for name in spec.types for t in _TYPES[name])
    return schema


def _objects(schema: dict[str, dict[str, tuple[type, ...]]]) -> dict[tuple[str, str], str]:
    """(record, key) -> the name under which trace_records.def lists the keys of that
    OBJECT value: `<record>_<key>` (file_pattern: the file record's pattern)."""
    return {
        (record, key): f"{record}_{key}"
        for record, keys in schema.items()
        for key, types in keys.items()
        if dict in types and f"{record}_{key}" in schema
    }


_ALL_KEYS = _schema(optional=False)
_ALL_OPTIONAL_KEYS = _schema(optional=True)
_OBJECT_KEYS = _objects(_ALL_KEYS)
"""The OBJECT values whose own keys are checked, and the name their keys are listed under."""
_RECORD_KEYS = {k: v for k, v in _ALL_KEYS.items() if k not in _OBJECT_KEYS.values()}
_OPTIONAL_KEYS = {k: v for k, v in _ALL_OPTIONAL_KEYS.items() if k not in _OBJECT_KEYS.values()}
_OP_TYPES: dict[str, tuple[type, ...]] = {"INT": (int,), "REAL": _NUMBER, "TEXT": (str,)}
_TYPE_NAMES = {
    int: "an integer",
    float: "a number",
    str: "a string",
    dict: "an object",
    list: "a list",
    bool: "true or false",
    _NONE: "null",
}


_INT64 = (-(1 << 63), (1 << 63) - 1)
"""The integers a log may hold: the writer's are C `long long`, and the knowledge base's
columns 64-bit; a larger one is no count the interposer made."""

TRACE_LOG_MAX_BYTES = 16 * limits()["LOG_MAX_BYTES"]
"""The largest trace log read (1 GiB); a larger file is refused up front.

RATIONALE: the interposer keeps at most LOG_MAX_BYTES of text per rank (64 MiB unless
IOTUNER_LOG_MAX_BYTES says otherwise) and most rows are rank 0's, so a real log of a
16-rank job at the defaults stays within this. The reader keeps about 0.6 bytes of memory
per byte of log (op rows as columns: 60 MB for a 100 MB log), so a log at the limit still
reads in some 600 MB; a file many times larger is no trace log of ours (or needs a raised
limit, not more patience).
"""

_OP_NAMES = tuple(f.name for f in op_fields())
_OP_INTS = tuple(f.name for f in op_fields() if f.type == "INT")
_OP_KEY_SET = frozenset(["record", *_OP_NAMES])
_OP_UNKNOWN: dict[str, Any] = {
    f.name: -1.0 if f.type == "REAL" else -1 for f in op_fields() if f.optional
}
"""The optional op columns (added after logs were written without them) and the value a
row without them reads as: -1, unknown."""
_OP_GENERATIONS: dict[frozenset[str], dict[str, Any]] = {
    frozenset(
        ["record", *(f.name for f in op_fields() if not f.optional), *list(_OP_UNKNOWN)[:n]]
    ): dict(list(_OP_UNKNOWN.items())[n:])
    for n in range(len(_OP_UNKNOWN))
}
"""The key sets of op records of earlier writers, each with the columns it lacks: the
optional columns were added in the order trace_op_fields.def lists them, so a writer's
row holds the first n of them (0: the access shape's, then duration_error)."""
_OP_TEXT_AT = tuple(i for i, f in enumerate(op_fields()) if f.type == "TEXT")

_NPROCS = "the job's nprocs"
_LAST_RANK = "the job's last rank"
"""Upper bounds of _RANGES that a log gives: its job's nprocs, the highest rank number
(nprocs - 1)."""

_RANGES: dict[str, dict[str, tuple[int, int | str | None]]] = {
    "job": {"nprocs": (1, None), "nodes": (1, _NPROCS), "ranks_per_node": (1, _NPROCS)},
    "hints": {"seq": (0, None)},
    "file": {"nprocs": (1, _NPROCS), "bytes_read": (0, None), "bytes_written": (0, None)},
    "file_pattern": {
        "nodes": (1, _NPROCS),
        "ranks_per_node": (1, _NPROCS),
        "ranks_with_io": (0, _NPROCS),
        "burst_bytes": (0, None),
        "first_offset": (-1, None),
        "first_offset_max": (-1, None),
        "view_block": (1, None),
    },
    "meta": {
        "duration": (0, None),
        "result": (0, None),
        "calls": (1, None),
        "rank": (0, _LAST_RANK),
    },
    "no_entry": {"nprocs": (1, _NPROCS), "group": (1, len(size_groups()))},
    "end": {"rows": (0, None), "dropped_rows": (0, None)},
    "op": {
        "group": (1, len(size_groups())),
        "bytes": (0, None),
        "duration": (0, None),
        "bandwidth": (0, None),
        "calls": (1, None),
        "ranks": (0, _NPROCS),
        "bytes_per_rank": (0, None),
        "summary": (0, 2),
        "hint_set": (-1, None),
        **dict.fromkeys(_OP_UNKNOWN, (-1, None)),
    },
}
"""Record -> key -> the least and greatest value the format allows (None: no bound).

RATIONALE: these are what the interposer can write (formats/README.md, trace.c): counts of
ranks within the job's MPI_COMM_WORLD (a file's communicator is part of it; a rank number
is below it), one or more calls in a row, sizes and durations never negative, size groups
of formats/size_groups.def, hint_set -1 for none. Times are only required to be finite:
they come from two clocks made to agree, and a rank that started a call a hair before
MPI_Init returned on another would be no error. A value outside is a log iotuner did not
write, or one damaged since; reading on would only move the error to a worse place (a
KeyError in the workloads, a division by zero, an integer the knowledge base cannot
store).
"""

_CHOICES: dict[str, dict[str, frozenset[str]]] = {
    "job": {"policy": frozenset({"table", "app"})},
    "hints": {"at": frozenset({"open", "set_view", "set_info", "access"})},
    "no_entry": {
        "at": frozenset({"open", "set_view", "set_info", "access"}),
        "pattern": frozenset({"collective", "independent"}),
        "op": frozenset({"read", "write"}),
        "layout": frozenset({"contiguous", "strided"}),
    },
}
"""Record -> key -> the words the format allows. An op row's pattern and kind are left to
TraceLog.workload_of, which names such a row as no workload iotuner knows while the other
rows of the log still read."""

_FREE_OBJECTS: dict[tuple[str, str], tuple[type, ...]] = {
    ("hints", "requested"): (str,),
    ("hints", "table"): (str,),
    ("hints", "app"): (str,),
    ("hints", "effective"): (str,),
    ("job", "hint_map"): (str, _NONE),
}
"""OBJECT values whose keys are hint names (any), and the types of their values: MPI
info values are strings; the hint map's are null where OMPIO has no equivalent."""

_ORDERED_PAIRS = (("stride_min", "stride_max"), ("gap_min", "gap_max"))
"""Keys of a file's pattern of which the first, a least over the ranks, cannot exceed the
second, the greatest."""


class OpRows(Sequence[dict[str, Any]]):
    """The `op` records of a log in log order, kept column by column: each row read back
    is a dict as decoded from its line (with its "record": "op"), built when asked for.

    RATIONALE: a log may hold hundreds of thousands of op rows (300,000 in 100 MB). As
    dicts, with the text they came from, they took some 2 KiB each; as columns (integers
    in 64-bit arrays, the other values as references, the few distinct file names,
    routines, patterns and kinds shared) about 200 bytes. Aggregations (ingest, show, the
    workloads) read `column` and never build the dicts; code that wants rows iterates them
    as before. Real values are kept as decoded (the writer's %.9g writes 0 as an integer),
    so a row reads back unchanged. A row read back is a new dict: changing it changes
    nothing in the log.
    """

    def __init__(self) -> None:
        self._columns: dict[str, Any] = {
            name: array("q") if name in _OP_INTS else [] for name in _OP_NAMES
        }
        self.lines = array("q")
        """The line number of each row in the log (0 when not read from a file)."""
        columns = list(self._columns.values())
        self._text_columns = {at: columns[at] for at in _OP_TEXT_AT}
        self.texts: dict[str, str] = {}
        """The distinct strings of the rows, each kept once."""
        self._appends = tuple(self._columns[name].append for name in _OP_NAMES)

    def append(self, record: Mapping[str, Any], line: int = 0) -> None:
        """Add a row, checked (by the reader) against trace_op_fields.def."""
        self.append_values(_OP_VALUES(record), line)

    def append_values(self, values: Sequence[Any], line: int = 0) -> None:
        """Add a row given as its values in the order of trace_op_fields.def."""
        for append, value in zip(self._appends, values, strict=True):
            append(value)
        # The few distinct names, routines, patterns and kinds are kept once each.
        texts = self.texts
        for at in _OP_TEXT_AT:
            column = self._text_columns[at]
            column[-1] = texts.setdefault(column[-1], column[-1])
        self.lines.append(line)

    def column(self, name: str) -> Sequence[Any]:
        """The values of one column of trace_op_fields.def, one per row (do not modify)."""
        column: Sequence[Any] = self._columns[name]
        return column

    def clear(self) -> None:
        for column in self._columns.values():
            del column[:]
        del self.lines[:]

    def __len__(self) -> int:
        return len(self.lines)

    @overload
    def __getitem__(self, index: int) -> dict[str, Any]: ...

    @overload
    def __getitem__(self, index: slice) -> list[dict[str, Any]]: ...

    def __getitem__(self, index: int | slice) -> dict[str, Any] | list[dict[str, Any]]:
        if isinstance(index, slice):
            return [self[i] for i in range(len(self))[index]]
        row: dict[str, Any] = {"record": "op"}
        for name, column in self._columns.items():
            row[name] = column[index]
        return row

    def __iter__(self) -> Iterator[dict[str, Any]]:
        keys = ("record", *_OP_NAMES)
        for values in zip(*self._columns.values(), strict=True):
            yield dict(zip(keys, ("op", *values), strict=True))


@dataclass
class TraceLog:
    """The records of one trace log in log order: `op` rows as OpRows, the others each a
    dict as decoded from JSON."""

    path: Path
    job: dict[str, Any]
    hints: list[dict[str, Any]]
    ops: OpRows
    files: list[dict[str, Any]]
    metas: list[dict[str, Any]]
    end: dict[str, Any] | None
    no_entries: list[dict[str, Any]] = field(default_factory=list)
    """Where a tune mode's table had no entry (one per file, size group, op and layout)."""
    sha256: str = ""
    """The SHA-256 of the log's bytes as read, in hex (empty when not read from a file)."""

    @property
    def op_lines(self) -> list[int]:
        """The line number of each `op` record, in the order of `ops` (a new list: per
        row, read `ops.lines`)."""
        return list(self.ops.lines)

    @functools.cached_property
    def _hints_by_set(self) -> dict[tuple[str, int], dict[str, Any]]:
        return {(h["file"], h["seq"]): h for h in self.hints}

    def where(self, index: int) -> str:
        """'<path> line <n>' of the op record `ops[index]`, for messages."""
        if index < len(self.ops) and self.ops.lines[index] > 0:
            return f"{self.path} line {self.ops.lines[index]}"
        return f"{self.path} op record {index + 1}"

    def workload_of(self, index: int) -> Workload:
        """The workload the op record `ops[index]` was part of.

        - nprocs: the ranks of the file's communicator (its `file` record), else the job's;
          for a file opened by one rank alone while other ranks open theirs the same way
          (file per process), the number of such one-rank opens at the same time;
        - files: 1 for a file shared by several ranks; for those one-rank opens, how many
          distinct files they are (their count over the opens of this same name at that
          time: one file per process gives nprocs, one file opened by every rank alone
          gives 1);
        - nodes and ranks_per_node: the job's (the `file` record's pattern repeats them),
          at most nprocs;
        - pattern, op and bytes_per_rank: the op row's own (`pattern`, `kind`,
          `bytes_per_rank`);
        - layout, block, fill and interleaved: from the offsets of each rank's first two
          accesses and the file views (`_shape`), as iokernel's layouts and bench rows say
          them. A rank whose second access starts past the end of its first (gap > 0) has
          its calls spaced apart: interleaved when several ranks share the file, and
          strided, with block the bytes per call and fill the share of the file the ranks'
          blocks cover (ranks x block / stride), when that leaves holes; ranks whose calls
          tile the file in turn are contiguous and interleaved. Gaps of 0: contiguous, not
          interleaved. A file view with holes is strided, with the block and fill of its
          filetype when its data is one piece (a block resized to its period), else block
          0 (unknown); ranks sharing such a view are interleaved. Logs from before those
          keys: contiguous unless a view had holes, block 0, fill 1, interleaved unknown;
        - calls_per_open: the calls each rank made with this pattern, op and size group
          between the open and the close of the file that the row falls into, rounded,
          at least 1 (all rows of one open count, also those summed past the record cap);
        - stripe_count and stripe_size: `striping_factor` and `striping_unit` of the hints
          in force (what MPI reported) when the driver is lustre, else unknown;
        - program: the job's.

        TraceLogError (with the line) when the row is no workload iotuner knows.
        """
        workload = self._workloads[index]
        if isinstance(workload, str):
            raise TraceLogError(f"{self.where(index)}: not a workload iotuner knows: {workload}")
        return workload

    @functools.cached_property
    def open_numbers(self) -> list[int]:
        """For each op row, the index in `files` of the open it falls into (_Opens), -1
        for none."""
        opens, ops = self._opens_by_name, self.ops
        return [
            opens[name].number_at(stamp, ranks) if name in opens else -1
            for name, stamp, ranks in zip(
                ops.column("file"), ops.column("time_stamp"), ops.column("ranks"), strict=True
            )
        ]

    @functools.cached_property
    def _workloads(self) -> list[Workload | str]:
        """workload_of for every op, or the reason it is none.

        RATIONALE: rows of one open with the same pattern, kind, size and hint set have
        the same workload, so it is made once per such case (a few hundred in a log of
        300,000 rows) and shared, and each row finds its open by bisection, not by a scan
        of the file's opens.
        """
        ops = self.ops
        files = ops.column("file")
        patterns, kinds, groups = ops.column("pattern"), ops.column("kind"), ops.column("group")
        numbers = self.open_numbers
        calls: dict[tuple[int, str, str, int], float] = defaultdict(float)
        for number, pattern, kind, group, count, ranks in zip(
            numbers, patterns, kinds, groups, ops.column("calls"), ops.column("ranks"), strict=True
        ):
            calls[(number, pattern, kind, group)] += self._calls_per_rank(
                number, pattern, count, ranks
            )
        made: dict[tuple[int, str, str, int, int, str, int], Workload | str] = {}
        workloads: list[Workload | str] = []
        for case in zip(
            numbers,
            patterns,
            kinds,
            groups,
            ops.column("bytes_per_rank"),
            files,
            ops.column("hint_set"),
            ops.column("file_piece"),
            ops.column("file_stride"),
            ops.column("mem_pieces"),
            ops.column("mem_piece"),
            strict=True,
        ):
            workload = made.get(case)
            if workload is None:
                number, pattern, kind, group, bytes_per_rank, name, hint_set, *piece = case
                per_open = calls[(number, pattern, kind, group)]
                workload = made[case] = self._workload(
                    number, pattern, kind, bytes_per_rank, per_open, (name, hint_set), piece
                )
            workloads.append(workload)
        return workloads

    def _workload(
        self,
        number: int,
        pattern: str,
        kind: str,
        bytes_per_rank: int,
        per_open: float,
        hint_set: tuple[str, int],
        piece: Sequence[int],
    ) -> Workload | str:
        """The workload of the rows of open `number` (-1: none) with this pattern, kind,
        size and hint set (file, seq), whose calls per rank in the open add up to
        `per_open`, with the row's access shape `piece`: (file_piece, file_stride,
        mem_pieces, mem_piece), -1 where unknown; or why there is none."""
        record = self.files[number] if number >= 0 else None
        shape = record["pattern"] if record and isinstance(record["pattern"], dict) else {}
        nprocs, files = self._ranks_and_files(number)
        nodes = shape.get("nodes")
        nodes = nodes if isinstance(nodes, int) and nodes >= 1 else self.job["nodes"]
        per_node = shape.get("ranks_per_node", self.job["ranks_per_node"])
        stripe_count, stripe_size = self._striping(self._hints_by_set.get(hint_set))
        try:
            return Workload(
                nprocs=nprocs,
                nodes=min(nodes, nprocs),
                pattern=pattern,
                op=kind,
                bytes_per_rank=bytes_per_rank,
                calls_per_open=max(1, math.floor(per_open + 0.5)),
                ranks_per_node=_count(per_node, at_most=nprocs),
                files=files,
                stripe_count=stripe_count,
                stripe_size=stripe_size,
                program=self.job["program"] or None,
                memory_block=_memory_block(piece[2], piece[3]),
                **_shape(shape, record, piece[:2]).as_fields(),
            )
        except ValueError as exc:
            return str(exc)

    def _ranks_and_files(self, number: int) -> tuple[int, int | None]:
        """nprocs and files of the open `self.files[number]` (-1: no file record)."""
        if number < 0:
            return self.job["nprocs"], None
        record = self.files[number]
        if record["nprocs"] > 1:
            return record["nprocs"], 1
        opens = self._single_rank_opens.count_at(record)
        same_name = self._single_rank_opens_by_name[record["file"]].count_at(record)
        return opens, max(1, round(opens / same_name))

    @functools.cached_property
    def _single_rank_opens(self) -> "_Intervals":
        return _Intervals([r for r in self.files if r["nprocs"] == 1])

    @functools.cached_property
    def _single_rank_opens_by_name(self) -> dict[str, "_Intervals"]:
        by_name: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for record in self.files:
            if record["nprocs"] == 1:
                by_name[record["file"]].append(record)
        return {name: _Intervals(records) for name, records in by_name.items()}

    @staticmethod
    def _striping(hints: dict[str, Any] | None) -> tuple[int | None, int | None]:
        """Stripe count and size in force under a hints record: what MPI reported, on
        lustre."""
        if hints is None or hints["driver"] != "lustre":
            return None, None
        effective = hints["effective"]
        return (
            _count(_integer(effective.get("striping_factor"))),
            _count(_integer(effective.get("striping_unit"))),
        )

    @functools.cached_property
    def _opens_by_name(self) -> dict[str, "_Opens"]:
        by_name: dict[str, list[tuple[int, dict[str, Any]]]] = defaultdict(list)
        for number, record in enumerate(self.files):
            by_name[record["file"]].append((number, record))
        return {name: _Opens(records) for name, records in by_name.items()}

    def _calls_per_rank(self, number: int, pattern: str, calls: int, ranks: int) -> float:
        """The calls each rank made in one op row of open `number` (-1: none): every rank
        of the file takes part in a collective call; independent calls are made by the
        ranks that moved data."""
        if pattern == "collective":
            ranks = self.files[number]["nprocs"] if number >= 0 else self.job["nprocs"]
        return calls / ranks if ranks > 0 else float(calls)

    def hints_for(self, op: dict[str, Any]) -> dict[str, Any] | None:
        """The hints record in force for an `op` record (same file and seq as its hint_set).

        None when the op has hint_set -1 (no hints recorded for its file).
        """
        return self._hints_by_set.get((op["file"], op["hint_set"]))


NESTED_LOOKBACK = 8
"""Opens of one name begun before a row that _Opens looks through for the innermost one
holding it (a bound: a log may hold hundreds of thousands of opens of one name)."""


class _Opens:
    """The opens of one file name (its `file` records), to find the one an op row falls
    into.

    A file opened more than once has one record per open; a row belongs to the latest
    open (by opened_at, then log order) whose [opened_at, closed_at] holds its time stamp
    and that has at least the row's ranks (one rank reopening a file the job holds open
    is an open of its own inside the job's: the rows of either go to their own), looked
    for among the NESTED_LOOKBACK latest begun; else to the first open whose interval
    holds it, else to the latest open before it (a row summed over many calls is stamped
    with the first), else to the earliest open.
    """

    def __init__(self, records: list[tuple[int, dict[str, Any]]]) -> None:
        records = sorted(records, key=lambda item: item[1]["opened_at"])
        self._numbers = [number for number, _ in records]
        self._opened = [record["opened_at"] for _, record in records]
        self._closes = [_closed(record) for _, record in records]
        self._ranks = [int(record.get("nprocs") or 1) for _, record in records]
        # The latest close among the opens up to each: non-decreasing, so the first open
        # that closes at or after a time is found by bisection.
        self._closed_by: list[float] = []
        latest = -math.inf
        for _, record in records:
            latest = max(latest, _closed(record))
            self._closed_by.append(latest)

    def number_at(self, time_stamp: float, ranks: int = 1) -> int:
        """The index in TraceLog.files of the open a row stamped `time_stamp`, moved by
        `ranks` ranks, falls into."""
        started = bisect.bisect_right(self._opened, time_stamp)
        for at in range(started - 1, max(started - NESTED_LOOKBACK, 0) - 1, -1):
            if self._closes[at] >= time_stamp and self._ranks[at] >= ranks:
                return self._numbers[at]
        holding = bisect.bisect_left(self._closed_by, time_stamp)
        if holding < started:
            return self._numbers[holding]
        return self._numbers[started - 1] if started else self._numbers[0]


def read_tracelog(path: Path | str, *, allow_incomplete: bool = False) -> TraceLog:
    """Read and check a trace log; TraceLogError names the file, line and what was expected.

    Refused up front: anything but a regular file, and a file over TRACE_LOG_MAX_BYTES.
    Then each line, as it is read, must be one record of formats/trace_records.def (op:
    trace_op_fields.def) with values of the right types and in the ranges the format
    allows (_RANGES, _CHOICES), after the `job` record on line 1. A log without its `end`
    record is incomplete (the interposer renames a log into place only once written whole)
    and is an error unless `allow_incomplete`.

    RATIONALE: unlike a table, a log is written by a program, so the first problem is
    reported alone: it points at the bug, and the rest of the file often follows from it.
    The file is read once, line by line, with its SHA-256 taken on the way (ingest's run
    uid), and op rows are kept as columns (OpRows): memory grows with the rows' numbers,
    not with their text.
    """
    path = Path(path)
    try:
        checked_input(path, "a trace log", TRACE_LOG_MAX_BYTES)
    except InputError as exc:
        raise TraceLogError(f"cannot read {exc}") from None
    reader = _Reader(path)
    try:
        # O_NONBLOCK: should a FIFO take the file's place after the check, opening it
        # returns at once instead of waiting for a writer; fstat then refuses it.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        with os.fdopen(fd, "rb") as source:
            if not stat.S_ISREG(os.fstat(source.fileno()).st_mode):
                raise TraceLogError(f"cannot read {path}: not a regular file any more")
            reader.read(source)
    except OSError as exc:
        raise TraceLogError(f"cannot read {path}: {exc.strerror or exc}") from None
    return reader.log(allow_incomplete)


class _Reader:
    """One reading of a trace log: the records so far, checked as they come."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.number = 0
        self.nprocs = 0
        self.job: dict[str, Any] | None = None
        self.end: dict[str, Any] | None = None
        self.ops = OpRows()
        self.others: dict[str, list[dict[str, Any]]] = {kind: [] for kind in _RECORD_KEYS}
        self.hint_sets: set[tuple[str, int]] = set()
        self.op_hint_sets: dict[tuple[str, int], int] = {}
        """(file, hint_set) of the op rows -> the first line naming it."""
        self.digest = hashlib.sha256()

    def where(self, number: int | None = None) -> str:
        return f"{self.path} line {self.number if number is None else number}"

    def fail(self, message: str) -> NoReturn:
        raise TraceLogError(f"{self.where()}: {message}")

    def read(self, source: BinaryIO) -> None:
        read = 0
        for number, line in enumerate(source, start=1):
            read += len(line)
            if read > TRACE_LOG_MAX_BYTES:
                raise TraceLogError(
                    f"{self.path}: grew past {TRACE_LOG_MAX_BYTES} bytes while read "
                    "(expected a trace log, which is written whole before it is renamed)"
                )
            self.digest.update(line)
            self.number = number
            self.take(line)

    def take(self, line: bytes) -> None:
        """Check one line and keep its record."""
        if self.end is not None:
            self.fail("nothing may follow the 'end' record")
        record = self.decode(line)
        kind = record["record"]
        if (self.number == 1) != (kind == "job"):
            expected = "the 'job' record" if self.number == 1 else "one 'job' record, on line 1"
            self.fail(f"expected {expected}, got a {kind!r} record")
        if kind == "op":
            values = _op_values(record, self.nprocs, self.ops.texts)
            if values is None:
                _check_record(self.where(), "op", record, self.nprocs)
                self.fail(f"op record: not as formats/trace_op_fields.def says: {_shown(record)}")
            self.ops.append_values(values, self.number)
            hint_set = (record["file"], record["hint_set"])
            if hint_set[1] != -1 and hint_set not in self.op_hint_sets:
                self.op_hint_sets[hint_set] = self.number
            return
        _check_record(self.where(), kind, record, self.nprocs)
        if kind == "job":
            self.job, self.nprocs = record, record["nprocs"]
        elif kind == "end":
            self.end = record
        elif kind == "hints":
            hint_set = (record["file"], record["seq"])
            if hint_set in self.hint_sets:
                self.fail(f"a second hints record for file {hint_set[0]!r} seq {hint_set[1]}")
            self.hint_sets.add(hint_set)
        self.others[kind].append(record)

    def decode(self, line: bytes) -> dict[str, Any]:
        """One line as a record: a JSON object with a known `record` key."""
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError as exc:
            self.fail(
                f"expected UTF-8 text, got byte {line[exc.start : exc.start + 1]!r} at "
                f"column {exc.start + 1}"
            )
        try:
            record = loads_json(text)
        except json.JSONDecodeError as exc:
            self.fail(f"not valid JSON ({exc.msg} at column {exc.colno})")
        except ValueError as exc:  # e.g. an integer of more than 4300 digits
            self.fail(f"not valid JSON ({exc})")
        if type(record) is not dict:
            self.fail(f"expected a JSON object, got {_kind_of(record)}: {_shown(record)}")
        kind = record.get("record")
        if type(kind) is not str or (kind != "op" and kind not in _RECORD_KEYS):
            known = ", ".join(["op", *_RECORD_KEYS])
            got = _shown(kind) if "record" in record else "no 'record' key"
            self.fail(f"'record' must be one of {known}, got {got}")
        return record

    def log(self, allow_incomplete: bool) -> TraceLog:
        """The log read, once the checks that need all of it pass."""
        if self.job is None:
            raise TraceLogError(f"{self.path}: empty file, expected a 'job' record on line 1")
        # Checked once all are read: the writer need not put a hints record before its ops.
        missing = [
            (number, hint_set)
            for hint_set, number in self.op_hint_sets.items()
            if hint_set not in self.hint_sets
        ]
        if missing:
            number, (name, seq) = min(missing)
            raise TraceLogError(
                f"{self.where(number)}: hint_set {seq} of file {name!r} names no hints "
                f"record (expected a seq of one, or -1)"
            )
        if self.end is None and not allow_incomplete:
            raise TraceLogError(
                f"{self.path}: incomplete log, expected an 'end' record on the last line"
            )
        return TraceLog(
            path=self.path,
            job=self.job,
            hints=self.others["hints"],
            ops=self.ops,
            files=self.others["file"],
            metas=self.others["meta"],
            end=self.end,
            no_entries=self.others["no_entry"],
            sha256=self.digest.hexdigest(),
        )


def dominant_workload(logs: Iterable[TraceLog]) -> Workload | None:
    """The workload of a run as one: the access that moved the most bytes over all its logs,
    and its bytes per rank per call on average; None when the logs hold no data operation.

    Rows are grouped by their workload less the sizes (nprocs, nodes, pattern, op,
    layout); the group with the most bytes wins, and gets the mean bytes per rank per call
    of its rows and the calls_per_open of the row that moved the most bytes.
    """
    moved: dict[tuple[int, int, str, str, str], list[int]] = defaultdict(lambda: [0, 0])
    heaviest: dict[tuple[int, int, str, str, str], tuple[int, Workload]] = {}
    for log in logs:
        columns = zip(log.ops.column("bytes"), log.ops.column("calls"), strict=True)
        for index, (moved_bytes, calls) in enumerate(columns):
            workload = log.workload_of(index)
            key = (workload.nprocs, workload.nodes, workload.pattern, workload.op, workload.layout)
            moved[key][0] += int(moved_bytes)
            moved[key][1] += int(calls)
            if key not in heaviest or moved_bytes > heaviest[key][0]:
                heaviest[key] = (int(moved_bytes), workload)
    if not moved:
        return None
    key, (total, calls) = max(moved.items(), key=lambda item: item[1][0])
    return replace(heaviest[key][1], bytes_per_rank=total // max(calls, 1))


@dataclass(frozen=True)
class _Shape:
    """How a file was accessed, as a workload says it."""

    layout: str = "contiguous"
    block: int = 0
    fill: float = 1.0
    interleaved: bool | None = None

    def as_fields(self) -> dict[str, Any]:
        return {
            "layout": self.layout,
            "block": self.block,
            "fill": self.fill,
            "interleaved": self.interleaved,
        }


_TILED = 0.99
"""Ranks' calls that cover this share of the file between them leave no holes in it."""


def _shape(
    pattern: dict[str, Any], record: dict[str, Any] | None, piece: Sequence[int] = (-1, -1)
) -> _Shape:
    """Layout, block, fill and interleaving of a file from its `file` record's pattern.

    RATIONALE: a call's own bytes and contiguity do not show how a rank's calls lie in the
    file. The interposer records where each rank's first two accesses start; the gap
    between the end of the first and the start of the second says it: 0 on every rank,
    each rank goes on where it left off (its region is its own); > 0 on every rank, its
    calls are spaced apart, in a shared file by the other ranks' data (interleaved: 4 KiB
    calls of 2 ranks in turn give gap 4096, stride 8192). Ranks that disagree leave
    interleaving unknown. Without two accesses on any rank, ranks whose first accesses lie
    one rank's volume apart (first_offset_max - first_offset = (ranks - 1) x volume) hold
    disjoint regions side by side.

    Layout, block and fill say the file as iokernel's layouts do, so that a traced run and
    a bench row of the same run agree: strided when a call's own data has holes (a file
    view with holes) or when the ranks' calls leave holes in the file (fill below 1:
    ranks x bytes per call / stride); contiguous when their calls tile it, also when they
    take turns (iokernel's contiguous layout with --repeat puts repetition p of rank w at
    (p x ranks + w) x size: contiguous, interleaved). A view whose filetype's data is one
    piece (view_block, with its period view_extent) gives the block, and the ranks' blocks
    cover ranks x view_block / view_extent of the file (iokernel's --fill). A view of
    several pieces (a vector, a subarray) gives them through the row's access shape
    (`piece`: its file_piece and file_stride, formats/README.md "Access shape"): the
    pieces are the blocks, file_stride apart.
    """
    views_with_holes = pattern.get("contiguous") is False
    ranks = pattern.get("ranks_with_io")
    ranks = ranks if isinstance(ranks, int) and ranks >= 1 else 1
    shared = record is not None and record["nprocs"] > 1 and ranks > 1
    burst = pattern.get("burst_bytes")
    burst = burst if isinstance(burst, (int, float)) and burst > 0 else None
    gap_min, gap_max = pattern.get("gap_min"), pattern.get("gap_max")
    stride = pattern.get("stride_max")
    writers = ranks if shared else 1
    # A view with holes whose data is one piece gives the block and its period; a call
    # inside such a view may span several blocks, so its size is the block only without.
    block, view_fill = 0, 1.0
    view_block, view_extent = pattern.get("view_block"), pattern.get("view_extent")
    if not (isinstance(view_block, int) and view_block > 0) and min(piece) > 0:
        view_block, view_extent = piece  # the row's pieces, file_stride apart
    if isinstance(view_block, int) and isinstance(view_extent, int) and view_block > 0:
        view_extent = max(view_extent, view_block)
        block, view_fill = view_block, min(1.0, writers * view_block / view_extent)
    if (
        isinstance(gap_min, int)
        and gap_min > 0
        and isinstance(stride, int)
        and stride > 0
        and burst
    ):
        # Each rank skips bytes between its calls: the ranks' data covers this share.
        covered = min(1.0, writers * burst / stride)
        if views_with_holes:
            return _Shape("strided", block, covered, interleaved=shared)
        if covered < _TILED:
            return _Shape("strided", round(burst), covered, interleaved=shared)
        return _Shape("contiguous", interleaved=shared)
    if views_with_holes:
        layout_shape = _Shape(layout="strided", block=block, fill=view_fill)
    else:
        layout_shape = _Shape(layout="contiguous")
    if gap_min == 0 and gap_max == 0:
        return replace(layout_shape, interleaved=False)
    if "gap_min" not in pattern:
        return layout_shape  # a log from before the offsets were recorded
    if not shared:
        return replace(layout_shape, interleaved=False)  # no other rank's data to meet
    if gap_min is None and views_with_holes:
        return replace(layout_shape, interleaved=True)  # the ranks' views take turns
    if gap_min is None and record is not None and _side_by_side(pattern, record, ranks):
        return replace(layout_shape, interleaved=False)
    return layout_shape


def _memory_block(pieces: float, piece: int) -> int | None:
    """A row's memory layout as Workload.memory_block: the bytes of a piece where a call's
    memory is in several pieces, 0 where it is one, None where the row does not say."""
    if pieces < 0 or piece < 0:
        return None
    return piece if pieces > 1 else 0


def _side_by_side(pattern: dict[str, Any], record: dict[str, Any], ranks: int) -> bool:
    """Whether the ranks' first accesses lie one rank's volume apart (within 1 %), as
    disjoint regions side by side do."""
    first, last = pattern.get("first_offset"), pattern.get("first_offset_max")
    if not (isinstance(first, int) and isinstance(last, int) and 0 <= first <= last):
        return False
    volume = (record["bytes_read"] + record["bytes_written"]) / ranks
    return volume > 0 and math.isclose(last - first, (ranks - 1) * volume, rel_tol=0.01)


class _Intervals:
    """The [opened_at, closed_at] of some file records, to count those open at once."""

    def __init__(self, records: list[dict[str, Any]]) -> None:
        self._opened = sorted(r["opened_at"] for r in records)
        self._closed = sorted(_closed(r) for r in records)

    def count_at(self, record: dict[str, Any]) -> int:
        """How many of the records were open while `record` was (itself included, when it
        is one of them): opened before it closed, and not closed before it opened."""
        opened_before_close = bisect.bisect_right(self._opened, _closed(record))
        closed_before_open = bisect.bisect_left(self._closed, record["opened_at"])
        return max(1, opened_before_close - closed_before_open)


def _closed(record: dict[str, Any]) -> float:
    closed = record["closed_at"]
    return math.inf if closed is None else float(closed)


def _integer(text: Any) -> int | None:
    """A hint's value as an integer, or None."""
    try:
        return int(str(text))
    except ValueError:
        return None


def _count(value: Any, at_most: int | None = None) -> int | None:
    """A count >= 1 (at most `at_most`), or None when `value` is none."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 1:
        return None
    count = int(value)
    return min(count, at_most) if at_most is not None else count


def _kind_of(value: Any) -> str:
    """What a JSON value is, in words."""
    return _TYPE_NAMES.get(type(value), type(value).__name__)


def _shown(value: Any, limit: int = 80) -> str:
    """A value as JSON for a message: ASCII only (a control character or a lone surrogate
    is shown escaped, never sent to the terminal as it is), cut after `limit` characters."""
    text = json.dumps(value, ensure_ascii=True)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _name(key: str, limit: int = 60) -> str:
    """A key for a message: repr, which escapes what a terminal would act on, cut."""
    return repr(key) if len(key) <= limit else repr(key[:limit]) + "..."


def _text_problem(text: str) -> str | None:
    """What a string of a log must be and this one is not, or None.

    RATIONALE: the writer's strings are C strings of UTF-8, so never hold NUL, and JSON
    escapes can still spell a lone surrogate (\\ud800), which Python decodes but cannot
    write as UTF-8 again: such a string would fail later, in a path, the terminal or the
    knowledge base, far from its line.
    """
    if "\x00" in text:
        return "text without NUL characters"
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            return "text of Unicode characters (no lone surrogate)"
    return None


def _value_problem(value: Any) -> str | None:
    """What a value of the right JSON type must also be and is not, or None: integers fit
    64 bits, numbers are finite, strings are text (_text_problem)."""
    kind = type(value)
    if kind is int:
        low, high = _INT64
        return None if low <= value <= high else "an integer of at most 64 bits"
    if kind is float:
        return None if math.isfinite(value) else "a finite number"
    if kind is str:
        return _text_problem(value)
    return None


_OP_VALUES = operator.itemgetter(*_OP_NAMES)
"""An op record's values in the order of trace_op_fields.def."""
_OP_TYPES_WRITTEN = tuple({"INT": int, "REAL": float, "TEXT": str}[f.type] for f in op_fields())
_OP_INT_AT = tuple(i for i, f in enumerate(op_fields()) if f.type == "INT")
_OP_REAL_AT = tuple(i for i, f in enumerate(op_fields()) if f.type == "REAL")
_OP_RANGES = tuple(
    (_OP_NAMES.index(name), low, high if isinstance(high, int) else None, high == _NPROCS)
    for name, (low, high) in _RANGES["op"].items()
)
"""_RANGES of an op row: (index of the column, least, greatest or None, whether the
job's nprocs bounds it)."""


def _op_values(
    record: dict[str, Any], nprocs: int, known_texts: Mapping[str, str]
) -> tuple[Any, ...] | None:
    """An op record's values in the order of trace_op_fields.def when it passes
    _check_record, else None (and _check_record says what is wrong); decided fast, as the
    op rows are nearly all of a log. `known_texts`: strings already found to be text."""
    if record.keys() != _OP_KEY_SET:
        lacking = _OP_GENERATIONS.get(frozenset(record.keys()))
        if lacking is None:
            return None
        record = {**record, **lacking}  # a log from before some optional columns
    values: tuple[Any, ...] = _OP_VALUES(record)
    if tuple(map(type, values)) != _OP_TYPES_WRITTEN:
        for value, written in zip(values, _OP_TYPES_WRITTEN, strict=True):
            # A REAL may be written as an integer: %.9g writes 0 as 0.
            if type(value) is not written and not (written is float and type(value) is int):
                return None
    low, high = _INT64
    for at in _OP_INT_AT:
        if not low <= values[at] <= high:
            return None
    for at in _OP_REAL_AT:
        value = values[at]
        if not (math.isfinite(value) if type(value) is float else low <= value <= high):
            return None
    for at in _OP_TEXT_AT:
        if values[at] not in known_texts and _text_problem(values[at]) is not None:
            return None
    for at, least, most, by_nprocs in _OP_RANGES:
        value = values[at]
        if value < least or value > (nprocs if by_nprocs else value if most is None else most):
            return None
    return values


@functools.cache
def _op_keys() -> dict[str, tuple[type, ...]]:
    """The columns of an `op` record and the Python types of their values."""
    return {f.name: _OP_TYPES[f.type] for f in op_fields() if not f.optional}


@functools.cache
def _op_optional_keys() -> dict[str, tuple[type, ...]]:
    """The optional columns of an `op` record and the Python types of their values."""
    return {f.name: _OP_TYPES[f.type] for f in op_fields() if f.optional}


def _check_keys(
    where: str,
    record: dict[str, Any],
    keys: dict[str, tuple[type, ...]],
    optional: dict[str, tuple[type, ...]],
    ignore: frozenset[str] = frozenset(),
) -> None:
    """Check that an object has exactly these keys (but `ignore`), with values of the right
    types (_value_problem)."""
    for key, types in {**keys, **optional}.items():
        if key not in record:
            if key in optional:
                continue
            raise TraceLogError(f"{where}: {key!r} is missing")
        value = record[key]
        if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
            expected = " or ".join(_TYPE_NAMES[t] for t in types)
            raise TraceLogError(f"{where}: {key!r} must be {expected}, got {_shown(value)}")
        problem = _value_problem(value)
        if problem is not None:
            raise TraceLogError(f"{where}: {key!r} must be {problem}, got {_shown(value)}")
    unknown = set(record) - set(keys) - set(optional) - ignore
    if unknown:
        names = ", ".join(_name(key) for key in sorted(unknown)[:10])
        more = f" and {len(unknown) - 10} more" if len(unknown) > 10 else ""
        raise TraceLogError(f"{where}: unknown key(s) {names}{more}")


def _check_ranges(where: str, ranges: str, record: dict[str, Any], bounds: dict[str, int]) -> None:
    """Check the values of `record` against _RANGES[ranges] (null values pass); `bounds`
    gives the named upper bounds (_NPROCS, ...)."""
    for key, (least, most) in _RANGES.get(ranges, {}).items():
        value = record.get(key)
        if value is None:
            continue
        high = bounds[most] if isinstance(most, str) else most
        if value < least or (high is not None and value > high):
            expected = (
                f"at least {least}"
                if high is None
                else f"between {least} and {high}" + (f" ({most})" if isinstance(most, str) else "")
            )
            raise TraceLogError(f"{where}: {key!r} must be {expected}, got {_shown(value)}")


def _check_record(where: str, kind: str, record: dict[str, Any], nprocs: int) -> None:
    """Check that a record has exactly its keys, with values of the right types and in
    the ranges of the format, and so have the objects whose keys trace_records.def lists.
    `nprocs`: the job's (ignored for the job record, which gives it)."""
    where = f"{where}: {kind} record"
    keys = _op_keys() if kind == "op" else _RECORD_KEYS[kind]
    optional = _op_optional_keys() if kind == "op" else _OPTIONAL_KEYS.get(kind, {})
    _check_keys(where, record, keys, optional, frozenset({"record"}))
    present = [k in record for k in optional]
    if kind == "op" and present != sorted(present, reverse=True):
        # A writer writes the columns added up to its version, in the order they came.
        missing = ", ".join(
            repr(k) for k, there in zip(optional, present, strict=True) if not there
        )
        raise TraceLogError(
            f"{where}: the columns added to op records come in the order they were added "
            f"(trace_op_fields.def), got them without {missing}"
        )
    if kind == "job":
        if (record["format"], record["version"]) != (FORMAT, VERSION):
            raise TraceLogError(
                f"{where}: expected format {FORMAT!r} version {VERSION}, "
                f"got {record['format']!r} version {record['version']}"
            )
        nprocs = record["nprocs"]
    bounds = {_NPROCS: nprocs, _LAST_RANK: nprocs - 1}
    _check_ranges(where, kind, record, bounds)
    for key, words in _CHOICES.get(kind, {}).items():
        if record[key] not in words:
            expected = " or ".join(repr(word) for word in sorted(words))
            raise TraceLogError(f"{where}: {key!r} must be {expected}, got {_shown(record[key])}")
    for (owner, key), listed in _OBJECT_KEYS.items():
        if owner == kind and isinstance(record[key], dict):
            inner = f"{where}'s {key!r}"
            _check_keys(
                inner, record[key], _ALL_KEYS.get(listed, {}), _ALL_OPTIONAL_KEYS.get(listed, {})
            )
            _check_ranges(inner, listed, record[key], bounds)
            for least, most in _ORDERED_PAIRS:
                low, high = record[key].get(least), record[key].get(most)
                if isinstance(low, int) and isinstance(high, int) and low > high:
                    raise TraceLogError(
                        f"{inner}: {least!r} ({low}) must not exceed {most!r} ({high})"
                    )
    for (owner, key), types in _FREE_OBJECTS.items():
        if owner == kind and isinstance(record.get(key), dict):
            _check_free_object(f"{where}'s {key!r}", record[key], types)
    if kind == "hints":
        for item in record["unhonoured"]:
            if not (
                isinstance(item, dict)
                and set(item) == {"key", "reason"}
                and all(isinstance(v, str) and _text_problem(v) is None for v in item.values())
            ):
                raise TraceLogError(
                    f'{where}: \'unhonoured\' items must be {{"key": "...", "reason": "..."}}, '
                    f"got {_shown(item)}"
                )
    if kind == "end" and not all(
        isinstance(w, str) and _text_problem(w) is None for w in record["warnings"]
    ):
        raise TraceLogError(f"{where}: 'warnings' must be a list of strings")


def _check_free_object(where: str, values: dict[str, Any], types: tuple[type, ...]) -> None:
    """Check an object whose keys are any names (hints): keys are text, values of `types`."""
    expected = " or ".join(_TYPE_NAMES[t] for t in types)
    for key, value in values.items():
        problem = _text_problem(key)
        if problem is not None:
            raise TraceLogError(f"{where}: a key must be {problem}, got {_shown(key)}")
        if not isinstance(value, types):
            raise TraceLogError(f"{where}: {_name(key)} must be {expected}, got {_shown(value)}")
        problem = _value_problem(value)
        if problem is not None:
            raise TraceLogError(f"{where}: {_name(key)} must be {problem}, got {_shown(value)}")


@dataclass(frozen=True)
class LeftoverLog:
    """A temporary log that no job will finish: its size and when it was last written."""

    path: Path
    size: int
    modified: float
    """Unix seconds."""


def leftover_logs(directory: Path | str, *, now: float | None = None) -> list[LeftoverLog]:
    """The temporary logs in `directory` left by jobs killed while writing them, by name.

    A temporary log (TEMPORARY_LOG_NAME) is left over when it has not been modified for
    STALE_AFTER_SECONDS (EMPTY_STALE_AFTER_SECONDS when empty), and no process with the pid
    in its name runs on this host (that may be its writer). Complete logs, other files and
    symbolic links are never reported. TraceLogError when the directory cannot be listed.
    """
    directory = Path(directory)
    now = time.time() if now is None else now
    try:
        entries = sorted(os.scandir(directory), key=lambda e: e.name)
    except OSError as exc:
        raise TraceLogError(
            f"cannot list the log directory {directory}: {exc.strerror or exc}"
        ) from None
    leftovers = []
    for entry in entries:
        name = TEMPORARY_LOG_NAME.fullmatch(entry.name)
        try:
            if name is None or not entry.is_file(follow_symlinks=False):
                continue
            info = entry.stat(follow_symlinks=False)
        except OSError:
            continue  # renamed into place (or removed) since the listing
        leftover = LeftoverLog(Path(entry.path), info.st_size, info.st_mtime)
        if _is_stale(leftover, now) and not _process_runs(int(name["pid"])):
            leftovers.append(leftover)
    return leftovers


def remove_leftover(leftover: LeftoverLog) -> bool:
    """Remove a leftover temporary log unless it changed since it was found.

    False when it was modified, grew or is gone meanwhile (a writer after all, or another
    clean-up); OSError when it cannot be removed.
    """
    try:
        info = leftover.path.stat(follow_symlinks=False)
    except FileNotFoundError:
        return False
    if (info.st_size, info.st_mtime) != (leftover.size, leftover.modified):
        return False
    try:
        leftover.path.unlink()
    except FileNotFoundError:
        return False
    return True


def _is_stale(leftover: LeftoverLog, now: float) -> bool:
    limit = STALE_AFTER_SECONDS if leftover.size else EMPTY_STALE_AFTER_SECONDS
    return now - leftover.modified >= limit


def _process_runs(pid: int) -> bool:
    """Whether a process with this pid exists on this host (anyone's)."""
    if pid <= 0:
        return False  # 0 would ask about our own process group
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process
    except OverflowError:
        return False  # no pid is that large
    return True
