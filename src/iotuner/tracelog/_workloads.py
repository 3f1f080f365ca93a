"""The workloads a trace log describes: for each op row, the Workload it was part of
(`LogWorkloads`, behind TraceLog.workload_of), the run's dominant workload over its logs,
and each open's bytes and open-to-close time.

A row's open is found among its file's `file` records (_Opens), its nprocs and files from
the opens at the same time (_Intervals), its layout, block, fill and interleaving from the
file record's pattern and the row's access shape (_shape), its striping from the hints in
force. The rules are those of TraceLog.workload_of's docstring.
"""

import bisect
import functools
import math
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from iotuner.measurement import Workload

if TYPE_CHECKING:
    from iotuner.tracelog._records import OpRows, TraceLog


class LogWorkloads:
    """The workloads of one log's op rows, made once for all of them (TraceLog keeps one)."""

    def __init__(
        self,
        ops: "OpRows",
        files: list[dict[str, Any]],
        job: dict[str, Any],
        hints_by_set: dict[tuple[str, int], dict[str, Any]],
    ) -> None:
        self.ops = ops
        self.files = files
        self.job = job
        self._hints_by_set = hints_by_set
        """(file, seq) -> its hints record."""

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
    def rows(self) -> list[Workload | str]:
        """TraceLog.workload_of for every op row, or the reason it is none.

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
        # At most the job's ranks: one rank's opens one after another, all while another
        # rank held its own, overlap that one's open each (test_odd_logs's MPI_COMM_SELF).
        ranks = self.job["nprocs"]
        opens = min(self._single_rank_opens.count_at(record), ranks)
        same_name = min(self._single_rank_opens_by_name[record["file"]].count_at(record), ranks)
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


def dominant_workload(logs: Iterable["TraceLog"]) -> Workload | None:
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


def open_phases(files: Iterable[dict[str, Any]]) -> Iterator[tuple[str, float, float]]:
    """(file, bytes moved, seconds from open to close) of each of these `file` records
    closed on every rank (an unreduced record knows rank 0's bytes alone)."""
    for record in files:
        if record.get("reduced") is False:
            continue
        moved = float(record.get("bytes_read") or 0) + float(record.get("bytes_written") or 0)
        seconds = float(record.get("closed_at") or 0) - float(record.get("opened_at") or 0)
        yield str(record.get("file")), moved, seconds
