"""The records of a trace log: `TraceLog`, one log's records in log order, and `OpRows`,
its `op` rows kept column by column; the op columns of each writer's generation.

A TraceLog is the one reading of a trace: callers ask it what its records describe (the
workload of an op row, the configuration, driver and system in force for it, the phases
of its opens) rather than walking the records themselves, so that ingest, trace history,
online tuning and the search cannot disagree on where, say, an operation's `nprocs`
comes from. The answers are made in `_workloads`, `_in_force` and `_system`.
"""

import functools
import operator
from array import array
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, overload

from iotuner.errors import TraceLogError
from iotuner.formats import op_fields
from iotuner.measurement import System, Workload
from iotuner.tracelog._in_force import InForce, app_keys_by_file, configs_in_force, driver_in_force
from iotuner.tracelog._system import trace_system
from iotuner.tracelog._workloads import LogWorkloads, open_phases

FORMAT = "iotuner-trace"
VERSION = 1

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

_OP_VALUES = operator.itemgetter(*_OP_NAMES)
"""An op record's values in the order of trace_op_fields.def."""


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
    dict as decoded from JSON; what they describe is asked through the methods."""

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
        workload = self._workloads.rows[index]
        if isinstance(workload, str):
            raise TraceLogError(f"{self.where(index)}: not a workload iotuner knows: {workload}")
        return workload

    @property
    def open_numbers(self) -> list[int]:
        """For each op row, the index in `files` of the open it falls into (_Opens), -1
        for none."""
        return self._workloads.open_numbers

    @functools.cached_property
    def _workloads(self) -> LogWorkloads:
        return LogWorkloads(self.ops, self.files, self.job, self._hints_by_set)

    def hints_for(self, op: dict[str, Any]) -> dict[str, Any] | None:
        """The hints record in force for an `op` record (same file and seq as its hint_set).

        None when the op has hint_set -1 (no hints recorded for its file).
        """
        return self._hints_by_set.get((op["file"], op["hint_set"]))

    @functools.cached_property
    def _in_force(self) -> InForce:
        return configs_in_force(self.hints)

    def config_of(self, hint_set: tuple[str, int]) -> dict[str, str]:
        """The configuration in force for the op rows of a (file, hint_set): configs_in_force;
        {} when none was recorded (hint_set -1). Shared: do not modify."""
        return self._in_force[0].get(hint_set, {})

    def driver_of(self, hint_set: tuple[str, int]) -> str:
        """The MPI-IO driver of the op rows of a (file, hint_set): driver_in_force."""
        return driver_in_force(self._in_force[1], hint_set)

    @functools.cached_property
    def _app_keys(self) -> dict[str, frozenset[str]]:
        return app_keys_by_file(self.hints)

    def app_keys(self, file: str) -> frozenset[str]:
        """The hints the program itself passed to MPI for `file` (its hints records' `app`
        keys, at any decision point)."""
        return self._app_keys.get(file, frozenset())

    def system_of(self, file: str, driver: str) -> System:
        """The system `file` was on under `driver`, as ingest stores its rows: trace_system
        with the job's host (its first label) and MPI library (spaces folded), "unknown"
        where the job leaves them empty."""
        host = self.job["host"].split(".")[0] or "unknown"
        mpi_library = " ".join(self.job["mpi_library"].split()) or "unknown"
        return trace_system(host, mpi_library, driver, file, self.job.get("cwd"))

    def open_phases(self) -> Iterator[tuple[str, float, float]]:
        """(file, bytes moved, seconds from open to close) of each open closed on every
        rank: open_phases of the `file` records."""
        return open_phases(self.files)
