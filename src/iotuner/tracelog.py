"""Trace logs (formats/README.md, "Trace log"): read and check one log of one job, say
which workload each of its operations was, and find the temporary logs that jobs killed
while writing them left behind.

The `op` columns are checked against formats/trace_op_fields.def; the other records
against the keys formats/README.md lists for them. This is the one reading of a trace:
ingest, trace history and the search all take records, line numbers and workloads from
`TraceLog`, so they cannot disagree on where, say, an operation's `nprocs` comes from.
"""

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


_RECORD_KEYS = _schema(optional=False)
_OPTIONAL_KEYS = _schema(optional=True)
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
        - nodes: the hosts the file's ranks ran on (the `file` record's pattern), else the
          job's;
        - pattern, op and bytes_per_rank: the op row's own (`pattern`, `kind`,
          `bytes_per_rank`);
        - layout: strided when the file's pattern says its access was not contiguous;
          block 0 and fill 1, as a log does not record a strided layout's shape;
        - calls_per_open: the calls each rank made with this pattern, op and size group
          between the open and the close of the file that the row falls into, rounded,
          at least 1 (all rows of one open count, also those summed past the record cap).

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
            nodes = shape.get("nodes")
            per_open = calls[(number, op["pattern"], op["kind"], op["group"])]
            try:
                workloads.append(
                    Workload(
                        nprocs=record["nprocs"] if record else self.job["nprocs"],
                        nodes=nodes if isinstance(nodes, int) and nodes >= 1 else self.job["nodes"],
                        pattern=op["pattern"],
                        op=op["kind"],
                        layout="strided" if shape.get("contiguous") is False else "contiguous",
                        bytes_per_rank=op["bytes_per_rank"],
                        calls_per_open=max(1, math.floor(per_open + 0.5)),
                    )
                )
            except ValueError as exc:
                workloads.append(str(exc))
        return workloads

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


def _check_record(where: str, kind: str, record: dict[str, Any]) -> None:
    """Check that a record has exactly its keys, with values of the right types."""
    where = f"{where}: {kind} record"
    keys = _op_keys() if kind == "op" else _RECORD_KEYS[kind]
    optional = _OPTIONAL_KEYS.get(kind, {})
    for key, types in {**keys, **optional}.items():
        if key not in record:
            if key in optional:
                continue
            raise TraceLogError(f"{where}: {key!r} is missing")
        value = record[key]
        if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
            expected = " or ".join(_TYPE_NAMES[t] for t in types)
            raise TraceLogError(f"{where}: {key!r} must be {expected}, got {json.dumps(value)}")
    unknown = set(record) - set(keys) - set(optional) - {"record"}
    if unknown:
        raise TraceLogError(f"{where}: unknown key(s) {', '.join(map(repr, sorted(unknown)))}")
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
