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
import json
import math
import os
import re
import time
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from iotuner._safejson import loads_json
from iotuner.errors import TraceLogError
from iotuner.formats import op_fields, trace_records
from iotuner.measurement import Workload

__all__ = [
    "EMPTY_STALE_AFTER_SECONDS",
    "FORMAT",
    "STALE_AFTER_SECONDS",
    "TEMPORARY_LOG_NAME",
    "VERSION",
    "LeftoverLog",
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


@dataclass
class TraceLog:
    """The records of one trace log, each a dict as decoded from JSON, in log order."""

    path: Path
    job: dict[str, Any]
    hints: list[dict[str, Any]]
    ops: list[dict[str, Any]]
    files: list[dict[str, Any]]
    metas: list[dict[str, Any]]
    end: dict[str, Any] | None
    no_entries: list[dict[str, Any]] = field(default_factory=list)
    """Where a tune mode's table had no entry (one per file, size group, op and layout)."""
    op_lines: list[int] = field(default_factory=list)
    """The line number of each `op` record, in the order of `ops` (empty when the log was
    not read from a file)."""

    @functools.cached_property
    def _hints_by_set(self) -> dict[tuple[str, int], dict[str, Any]]:
        return {(h["file"], h["seq"]): h for h in self.hints}

    def where(self, index: int) -> str:
        """'<path> line <n>' of the op record `ops[index]`, for messages."""
        if index < len(self.op_lines):
            return f"{self.path} line {self.op_lines[index]}"
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
    def _workloads(self) -> list[Workload | str]:
        """workload_of for every op, or the reason it is none."""
        opens = [self._open_of(op) for op in self.ops]
        calls: dict[tuple[int, str, str, int], float] = defaultdict(float)
        for op, (number, record) in zip(self.ops, opens, strict=True):
            calls[(number, op["pattern"], op["kind"], op["group"])] += self._calls_per_rank(
                op, record
            )
        workloads: list[Workload | str] = []
        for op, (number, record) in zip(self.ops, opens, strict=True):
            shape = record["pattern"] if record and isinstance(record["pattern"], dict) else {}
            nprocs, files = self._ranks_and_files(number)
            nodes = shape.get("nodes")
            nodes = nodes if isinstance(nodes, int) and nodes >= 1 else self.job["nodes"]
            per_node = shape.get("ranks_per_node", self.job["ranks_per_node"])
            per_open = calls[(number, op["pattern"], op["kind"], op["group"])]
            stripe_count, stripe_size = self._striping(op)
            try:
                workloads.append(
                    Workload(
                        nprocs=nprocs,
                        nodes=min(nodes, nprocs),
                        pattern=op["pattern"],
                        op=op["kind"],
                        bytes_per_rank=op["bytes_per_rank"],
                        calls_per_open=max(1, math.floor(per_open + 0.5)),
                        ranks_per_node=_count(per_node, at_most=nprocs),
                        files=files,
                        stripe_count=stripe_count,
                        stripe_size=stripe_size,
                        program=self.job["program"] or None,
                        **_shape(shape, record).as_fields(),
                    )
                )
            except ValueError as exc:
                workloads.append(str(exc))
        return workloads

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

    def _striping(self, op: dict[str, Any]) -> tuple[int | None, int | None]:
        """Stripe count and size in force for an op: the hints MPI reported, on lustre."""
        hints = self.hints_for(op)
        if hints is None or hints["driver"] != "lustre":
            return None, None
        effective = hints["effective"]
        return (
            _count(_integer(effective.get("striping_factor"))),
            _count(_integer(effective.get("striping_unit"))),
        )

    def _open_of(self, op: dict[str, Any]) -> tuple[int, dict[str, Any] | None]:
        """The `file` record of the open an op row falls into, and its index (-1: none).

        A file opened more than once has one record per open; the row belongs to the open
        whose [opened_at, closed_at] holds its time stamp, else to the latest open before
        it (a row summed over many calls is stamped with the first).
        """
        best: tuple[int, dict[str, Any] | None] = (-1, None)
        for number, record in self._opens_by_name.get(op["file"], []):
            if record["opened_at"] <= op["time_stamp"] or best[1] is None:
                best = (number, record)
            closed = record["closed_at"]
            if record["opened_at"] <= op["time_stamp"] and (
                closed is None or op["time_stamp"] <= closed
            ):
                return number, record
        return best

    @functools.cached_property
    def _opens_by_name(self) -> dict[str, list[tuple[int, dict[str, Any]]]]:
        by_name: dict[str, list[tuple[int, dict[str, Any]]]] = defaultdict(list)
        for number, record in enumerate(self.files):
            by_name[record["file"]].append((number, record))
        for records in by_name.values():
            records.sort(key=lambda item: item[1]["opened_at"])
        return by_name

    def _calls_per_rank(self, op: dict[str, Any], record: dict[str, Any] | None) -> float:
        """The calls each rank made in one op row: every rank of the file takes part in a
        collective call; independent calls are made by the ranks that moved data."""
        if op["pattern"] == "collective":
            ranks = record["nprocs"] if record else self.job["nprocs"]
        else:
            ranks = op["ranks"]
        return op["calls"] / ranks if ranks > 0 else float(op["calls"])

    def hints_for(self, op: dict[str, Any]) -> dict[str, Any] | None:
        """The hints record in force for an `op` record (same file and seq as its hint_set).

        None when the op has hint_set -1 (no hints recorded for its file).
        """
        return self._hints_by_set.get((op["file"], op["hint_set"]))


def read_tracelog(path: Path | str, *, allow_incomplete: bool = False) -> TraceLog:
    """Read and check a trace log; TraceLogError names the file, line and what was expected.

    A log without its `end` record is incomplete (the interposer renames a log into place
    only once written whole) and is an error unless `allow_incomplete`.

    RATIONALE: unlike a table, a log is written by a program, so the first problem is
    reported alone: it points at the bug, and the rest of the file often follows from it.
    """
    path = Path(path)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise TraceLogError(f"cannot read {path}: {exc}") from None
    if not lines:
        raise TraceLogError(f"{path}: empty file, expected a 'job' record on line 1")
    records: dict[str, list[dict[str, Any]]] = {kind: [] for kind in ["op", *_RECORD_KEYS]}
    hint_sets: set[tuple[str, int]] = set()
    op_lines: list[tuple[str, dict[str, Any]]] = []
    op_numbers: list[int] = []
    for number, line in enumerate(lines, start=1):
        where = f"{path} line {number}"
        if records["end"]:
            raise TraceLogError(f"{where}: nothing may follow the 'end' record")
        record = _decode(where, line)
        kind = record["record"]
        if (number == 1) != (kind == "job"):
            expected = "the 'job' record" if number == 1 else "one 'job' record, on line 1"
            raise TraceLogError(f"{where}: expected {expected}, got a {kind!r} record")
        _check_record(where, kind, record)
        if kind == "hints":
            hint_set = (record["file"], record["seq"])
            if hint_set in hint_sets:
                raise TraceLogError(
                    f"{where}: a second hints record for file {hint_set[0]!r} seq {hint_set[1]}"
                )
            hint_sets.add(hint_set)
        elif kind == "op":
            op_numbers.append(number)
            if record["hint_set"] != -1:
                op_lines.append((where, record))
        records[kind].append(record)
    # Checked once all are read: the writer need not put a hints record before its ops.
    for where, op in op_lines:
        if (op["file"], op["hint_set"]) not in hint_sets:
            raise TraceLogError(
                f"{where}: hint_set {op['hint_set']} of file {op['file']!r} names no hints "
                f"record (expected a seq of one, or -1)"
            )
    log = TraceLog(
        path=path,
        job=records["job"][0],
        hints=records["hints"],
        ops=records["op"],
        files=records["file"],
        metas=records["meta"],
        end=records["end"][0] if records["end"] else None,
        no_entries=records["no_entry"],
        op_lines=op_numbers,
    )
    if log.end is None and not allow_incomplete:
        raise TraceLogError(f"{path}: incomplete log, expected an 'end' record on the last line")
    return log


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
        for index, op in enumerate(log.ops):
            workload = log.workload_of(index)
            key = (workload.nprocs, workload.nodes, workload.pattern, workload.op, workload.layout)
            moved[key][0] += int(op["bytes"])
            moved[key][1] += int(op["calls"])
            if key not in heaviest or op["bytes"] > heaviest[key][0]:
                heaviest[key] = (int(op["bytes"]), workload)
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


def _shape(pattern: dict[str, Any], record: dict[str, Any] | None) -> _Shape:
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
    cover ranks x view_block / view_extent of the file (iokernel's --fill).
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
    if isinstance(view_block, int) and isinstance(view_extent, int) and view_block > 0:
        view_extent = max(view_extent, view_block)
        block, view_fill = view_block, min(1.0, writers * view_block / view_extent)
    if isinstance(gap_min, int) and gap_min > 0 and isinstance(stride, int) and burst:
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


def _decode(where: str, line: str) -> dict[str, Any]:
    """One line as a record: a JSON object with a known `record` key."""
    try:
        record = loads_json(line)
    except json.JSONDecodeError as exc:
        raise TraceLogError(f"{where}: not valid JSON ({exc.msg} at column {exc.colno})") from None
    if not isinstance(record, dict):
        raise TraceLogError(f"{where}: expected a JSON object, got {type(record).__name__}")
    kind = record.get("record")
    if kind != "op" and kind not in _RECORD_KEYS:
        known = ", ".join(["op", *_RECORD_KEYS])
        raise TraceLogError(f"{where}: 'record' must be one of {known}, got {kind!r}")
    return record


@functools.cache
def _op_keys() -> dict[str, tuple[type, ...]]:
    """The columns of an `op` record and the Python types of their values."""
    return {f.name: _OP_TYPES[f.type] for f in op_fields()}


def _check_keys(
    where: str,
    record: dict[str, Any],
    keys: dict[str, tuple[type, ...]],
    optional: dict[str, tuple[type, ...]],
    ignore: frozenset[str] = frozenset(),
) -> None:
    """Check that an object has exactly these keys (but `ignore`), with values of the right
    types."""
    for key, types in {**keys, **optional}.items():
        if key not in record:
            if key in optional:
                continue
            raise TraceLogError(f"{where}: {key!r} is missing")
        value = record[key]
        if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
            expected = " or ".join(_TYPE_NAMES[t] for t in types)
            raise TraceLogError(f"{where}: {key!r} must be {expected}, got {json.dumps(value)}")
    unknown = set(record) - set(keys) - set(optional) - ignore
    if unknown:
        raise TraceLogError(f"{where}: unknown key(s) {', '.join(map(repr, sorted(unknown)))}")


def _check_record(where: str, kind: str, record: dict[str, Any]) -> None:
    """Check that a record has exactly its keys, with values of the right types, and so
    have the objects whose keys trace_records.def lists."""
    where = f"{where}: {kind} record"
    keys = _op_keys() if kind == "op" else _RECORD_KEYS[kind]
    _check_keys(where, record, keys, _OPTIONAL_KEYS.get(kind, {}), frozenset({"record"}))
    for (owner, key), listed in _OBJECT_KEYS.items():
        if owner == kind and isinstance(record[key], dict):
            _check_keys(
                f"{where}'s {key!r}",
                record[key],
                _ALL_KEYS.get(listed, {}),
                _ALL_OPTIONAL_KEYS.get(listed, {}),
            )
    if kind == "job" and (record["format"], record["version"]) != (FORMAT, VERSION):
        raise TraceLogError(
            f"{where}: expected format {FORMAT!r} version {VERSION}, "
            f"got {record['format']!r} version {record['version']}"
        )
    if kind == "hints":
        for item in record["unhonoured"]:
            if not (
                isinstance(item, dict)
                and set(item) == {"key", "reason"}
                and all(isinstance(v, str) for v in item.values())
            ):
                raise TraceLogError(
                    f'{where}: \'unhonoured\' items must be {{"key": "...", "reason": "..."}}, '
                    f"got {json.dumps(item)}"
                )
    if kind == "end" and not all(isinstance(w, str) for w in record["warnings"]):
        raise TraceLogError(f"{where}: 'warnings' must be a list of strings")


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
