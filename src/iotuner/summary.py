"""A trace log summed up per file, operation and hint set: plain records for `iotuner show`.

Kept apart from the rendering (iotuner.render) so a report or a test can use the figures.
"""

import math
from dataclasses import dataclass, field
from typing import Any

from iotuner._units import format_size
from iotuner.formats import size_groups
from iotuner.tracelog import TraceLog

__all__ = [
    "MIB",
    "FileSummary",
    "HintRow",
    "HintSetSummary",
    "LogSummary",
    "OperationSummary",
    "mpi_name",
    "summarize",
]

MIB = 1024 * 1024
"""Bytes in a mebibyte: bandwidths are in MiB/s, as in the trace log."""

MPI_NAME_LIMIT = 60
"""Characters of an MPI library's version string shown in a header line."""


def mpi_name(version: str, limit: int = MPI_NAME_LIMIT) -> str:
    """An MPI library's version string as one short line: its first line with tabs and
    runs of spaces made one space, cut at a word before `limit` characters with "…" and
    how much was left out. Debian MPICH's MPI_Get_library_version is ~2,000 characters over
    many lines (configure options and all); its first line names the library and version."""
    lines = [" ".join(line.split()) for line in version.splitlines() if line.strip()]
    if not lines:
        return "unknown MPI"
    first = lines[0]
    if len(first) > limit:
        cut = first[:limit].rsplit(" ", 1)[0] if " " in first[:limit] else first[:limit]
        first = cut.rstrip(",;:") + "…"
    left = len(" ".join(lines)) - len(first.removesuffix("…"))
    return first if left <= 0 else f"{first} ({left:,} more characters not shown)"


@dataclass(frozen=True)
class OperationSummary:
    """All rows of one MPI routine on one file, added up."""

    operation: str
    calls: int
    bytes: int
    duration: float
    estimated: bool = False
    """Some of the time is estimated from a timed sample of short calls (an op row's
    `summary` 2, formats/README.md)."""
    shape: str = ""
    """What one call touched in the file and in memory, in words (shape_words), of the
    routine's row that moved the most bytes; "" when the log does not say."""
    error: float = 0.0
    """Seconds: half the width of the estimate's 90 % interval, the rows' `duration_error`
    added as independent errors (root of the sum of squares); 0 where every call was
    timed or the log is older than the column."""

    @property
    def bandwidth(self) -> float:
        """MiB/s over the summed durations (0 when no time was measured)."""
        return self.bytes / self.duration / MIB if self.duration > 0 else 0.0


@dataclass(frozen=True)
class HintRow:
    """One key of a hint set: the value passed to MPI and the one MPI reported.

    `unhonoured` is the reason the driver ignores or changes the key, None when it does not.
    """

    key: str
    requested: str | None
    effective: str | None
    unhonoured: str | None


@dataclass(frozen=True)
class HintSetSummary:
    """One hints record: when and where it was decided, and its keys. `untuned` says why
    the table was not applied to the file at all (its open record only: the table was
    measured on another file system), None when it was."""

    seq: int
    at: str
    time_stamp: float
    driver: str | None
    rows: list[HintRow]
    untuned: str | None = None


@dataclass(frozen=True)
class FileSummary:
    """One file name: its bytes and access patterns over all its opens, operations, hints.

    `reduced` is False when some open of it was not closed before MPI_Finalize, so its
    figures are rank 0's alone.
    """

    file: str
    bytes_read: int
    bytes_written: int
    patterns: list[dict[str, Any]]
    reduced: bool
    operations: list[OperationSummary]
    hint_sets: list[HintSetSummary]
    untuned: list[str] = field(default_factory=list)
    """The cases a tune mode's table had no entry for, e.g. "write contiguous, group 44"."""


@dataclass(frozen=True)
class LogSummary:
    """A whole log: its job record, one summary per file, and the warnings to show."""

    job: dict[str, Any]
    files: list[FileSummary]
    warnings: list[str]


def summarize(log: TraceLog) -> LogSummary:
    """Sum up a trace log; files appear in the order the log first names them.

    RATIONALE: the op rows are read once, column by column, into sums per file and
    routine (a log may hold hundreds of thousands of rows over many files); the sums are
    made in log order, so they are those of adding the rows one by one.
    """
    operations = _operations(log)
    names = list(
        dict.fromkeys(
            [*(r["file"] for r in log.files), *operations, *(h["file"] for h in log.hints)]
        )
    )
    records, hints, no_entries = _by_file(log.files), _by_file(log.hints), _by_file(log.no_entries)
    files = [
        _file_summary(
            name,
            records.get(name, []),
            operations.get(name, {}),
            hints.get(name, []),
            no_entries.get(name, []),
        )
        for name in names
    ]
    warnings = list(log.end["warnings"]) if log.end else ["the log is incomplete (no 'end')"]
    if log.end and log.end["dropped_rows"]:
        warnings.append(f"{log.end['dropped_rows']} op rows were dropped (over the log's cap)")
    return LogSummary(job=log.job, files=files, warnings=warnings)


def _operations(log: TraceLog) -> dict[str, dict[str, OperationSummary]]:
    """File -> MPI routine -> its rows added up, both in the order the rows first name them."""
    sums: dict[str, dict[str, list[Any]]] = {}
    ops = log.ops
    for index, (name, operation, calls, moved, seconds, summary, error) in enumerate(
        zip(
            ops.column("file"),
            ops.column("operation"),
            ops.column("calls"),
            ops.column("bytes"),
            ops.column("duration"),
            ops.column("summary"),
            ops.column("duration_error"),
            strict=True,
        )
    ):
        squared = error * error if error > 0 else 0.0  # -1: a log older than the column
        routines = sums.get(name)
        if routines is None:
            routines = sums[name] = {}
        total = routines.get(operation)
        if total is None:
            routines[operation] = [calls, moved, 0.0 + seconds, summary == 2, index, moved, squared]
        else:
            total[0] += calls
            total[1] += moved
            total[2] += seconds
            total[3] = total[3] or summary == 2
            total[6] += squared
            if moved > total[5]:
                total[4], total[5] = index, moved
    return {
        name: {
            operation: OperationSummary(
                operation,
                calls,
                moved,
                seconds,
                estimated,
                shape_words(ops[heaviest]),
                math.sqrt(squared),
            )
            for operation, (calls, moved, seconds, estimated, heaviest, _, squared) in (
                routines.items()
            )
        }
        for name, routines in sums.items()
    }


def shape_words(row: dict[str, Any]) -> str:
    """An op row's access shape (formats/README.md, "Access shape") in words: "file 1,024
    pieces of 4 B, 8 B apart; memory contiguous"; "" when the row does not say (-1)."""
    if row.get("file_pieces", -1) < 0 or row.get("mem_pieces", -1) < 0:
        return ""
    if row["file_stride"] > 0 or row["file_pieces"] > 1:
        file = f"file {_pieces(row['file_pieces'])} of {format_size(row['file_piece'])}" + (
            f", {format_size(row['file_stride'])} apart" if row["file_stride"] > 0 else ""
        )
        if row["file_piece_min"] < row["file_piece"]:
            file += f" (smallest {format_size(row['file_piece_min'])})"
    else:
        file = "file contiguous"
    if row["mem_pieces"] > 1:
        memory = f"memory {_pieces(row['mem_pieces'])} of {format_size(row['mem_piece'])}"
    else:
        memory = "memory contiguous"
    return f"{file}; {memory}"


def _pieces(count: float) -> str:
    whole = round(count)
    text = f"{whole:,}" if abs(count - whole) < 0.05 else f"{count:,.1f}"
    return f"{text} piece{'' if text == '1' else 's'}"


def _file_summary(
    name: str,
    records: list[dict[str, Any]],
    operations: dict[str, OperationSummary],
    hints: list[dict[str, Any]],
    no_entries: list[dict[str, Any]],
) -> FileSummary:
    """One file's summary from its `file`, `hints` and `no_entry` records and its sums."""
    return FileSummary(
        file=name,
        bytes_read=sum(r["bytes_read"] for r in records),
        bytes_written=sum(r["bytes_written"] for r in records),
        # null in the record of an open still open at MPI_Finalize (not reduced)
        patterns=[r["pattern"] for r in records if isinstance(r["pattern"], dict)],
        reduced=all(r["reduced"] for r in records),
        operations=list(operations.values()),
        hint_sets=[_hint_set(h) for h in hints],
        untuned=[
            f"{n['op']} {n['layout']}, size group {n['group']} ({_group_range(n['group'])})"
            for n in no_entries
        ],
    )


def _by_file(records: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """Records by their `file`, in log order (a log of one file per process names
    thousands of files: each is looked up, not searched for)."""
    grouped: dict[str, list[dict[str, Any]]] = {}
    for record in records:
        grouped.setdefault(record["file"], []).append(record)
    return grouped


def _group_range(number: int) -> str:
    group = size_groups()[number - 1]
    end = "" if group.end is None else f"{group.end}"
    return f"{group.first}-{end} bytes per rank"


def _hint_set(record: dict[str, Any]) -> HintSetSummary:
    requested, effective = record["requested"], record["effective"]
    reasons = {item["key"]: item["reason"] for item in record["unhonoured"]}
    keys = dict.fromkeys([*requested, *effective, *reasons])
    rows = [
        HintRow(
            key=key,
            requested=None if key not in requested else str(requested[key]),
            effective=None if key not in effective else str(effective[key]),
            unhonoured=reasons.get(key),
        )
        for key in keys
    ]
    return HintSetSummary(
        seq=record["seq"],
        at=record["at"],
        time_stamp=record["time_stamp"],
        driver=record["driver"],
        rows=rows,
        untuned=record.get("untuned"),
    )
