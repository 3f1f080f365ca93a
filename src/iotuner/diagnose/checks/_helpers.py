"""What every check shares: the view of a log it reads (Log), the record a check registers
(Check), and the sums and words of numbers the findings are made with.

A check is a function of a Log to its findings. Its Check names it (as the job.unreadable
finding names a check that could not read the log's counters) and declares every finding
code it can raise with a one-line meaning: docs/finding-codes.md is made from those, and
the contract test holds each check to them.
"""

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import pandas as pd

from iotuner.diagnose import _thresholds as T
from iotuner.diagnose._counters import MODULES, STREAMS, Module
from iotuner.diagnose._finding import Finding
from iotuner.ingest import is_system_file

__all__ = [
    "Check",
    "Log",
    "aggregators_action",
    "as_pct",
    "as_secs",
    "as_size",
    "collective_already",
    "counter_column",
    "counters_of",
    "mean_op_time",
    "row_sums",
    "summed",
]


@dataclass(frozen=True)
class Log:
    """A log as the checks read it: the reader's plain data (_darshan_worker.read_log),
    its run time None unless positive, and `partial` the modules Darshan ran out of memory
    for."""

    nprocs: int
    run_time: float | None
    names: Mapping[int, str]
    frames: Mapping[str, pd.DataFrame]
    stripes: Mapping[int, tuple[int, int]]
    osts: Mapping[int, tuple[int, ...]]
    dxt: Mapping[str, Mapping[str, Any]]
    partial: list[str]

    @classmethod
    def read(cls, log: Mapping[str, Any]) -> "Log":
        """The view of the reader's plain data of one log."""
        job = log.get("job", {})
        nprocs = int(job.get("nprocs") or 1)
        run_time = job.get("run_time")
        run = float(run_time) if run_time and float(run_time) > 0 else None
        return cls(
            nprocs=max(nprocs, 1),
            run_time=run,
            names=log.get("names", {}),
            frames=log.get("frames", {}),
            stripes=log.get("stripes", {}),
            osts=log.get("osts", {}),
            dxt=log.get("dxt", {}),
            partial=[m for m, flag in log.get("modules", {}).items() if flag],
        )

    def name(self, ident: Any) -> str:
        return str(self.names.get(int(ident), f"record {int(ident)}"))

    def frame(self, module: str, *, kind: str = "data") -> pd.DataFrame | None:
        """The module's records of `kind`: "data" (not streams, not system files),
        "system", or "all" (everything but streams)."""
        frame = self.frames.get(module)
        if frame is None or frame.empty:
            return None
        names = [self.name(i) for i in frame["id"]]
        if kind == "all":
            keep = [n not in STREAMS for n in names]
        else:
            system = [is_system_file(n) for n in names]
            keep = [
                n not in STREAMS and (s if kind == "system" else not s)
                for n, s in zip(names, system, strict=True)
            ]
        mine = frame[keep]
        return None if mine.empty else mine

    def level(self, seconds: float | None) -> str:
        """A finding's level from its time at stake: information under
        T.WARNING_FLOOR_SECONDS or when unknown; else by its share of the run (or, without
        a run time, by itself), and critical only from T.CRITICAL_FLOOR_CORE_HOURS at
        stake."""
        if seconds is None or seconds < T.WARNING_FLOOR_SECONDS:
            return "info"
        if self.run_time:
            share = seconds / self.run_time
            critical, warning = share >= T.SHARE_OF_RUN_CRITICAL, share >= T.SHARE_OF_RUN_WARNING
        else:
            critical, warning = seconds >= T.SECONDS_CRITICAL, seconds >= T.SECONDS_WARNING
        critical = critical and seconds * self.nprocs >= T.CRITICAL_FLOOR_CORE_HOURS * 3600
        return "critical" if critical else "warning" if warning else "info"

    def stack_bytes(self) -> dict[str, float]:
        """Each I/O path's bytes (streams included): its largest module's, as the modules
        of one path see the same bytes."""
        moved: dict[str, float] = {}
        for m in MODULES:
            here = summed(self.frames.get(m.name), m.moved("READ"), m.moved("WRITTEN"))
            moved[m.stack] = max(moved.get(m.stack, 0.0), here)
        return moved

    def stack_times(self) -> dict[str, tuple[Module, pd.DataFrame]]:
        """Each I/O path's lowest module with records (streams included): whose times are
        the path's."""
        lowest: dict[str, tuple[Module, pd.DataFrame]] = {}
        for m in sorted(MODULES, key=lambda m: m.depth):
            frame = self.frame(m.name, kind="all")
            if frame is not None and m.stack not in lowest:
                lowest[m.stack] = (m, frame)
        return lowest


@dataclass(frozen=True)
class Check:
    """One registered check. name: how job.unreadable names it; run: its findings of a
    log; codes: every finding code it can raise, each with its one-line meaning."""

    name: str
    run: Callable[[Log], Iterable[Finding]]
    codes: Mapping[str, str]


def summed(frame: pd.DataFrame | None, *columns: str) -> float:
    """The columns' total; Darshan's -1 (a counter the log's version did not keep) is 0."""
    if frame is None:
        return 0.0
    return float(sum(frame[c].clip(lower=0).sum() for c in columns if c in frame))


def counter_column(frame: pd.DataFrame, name: str) -> pd.Series:
    """The column, negatives (-1: not kept) as 0; zeros where the log's version lacks it."""
    if name not in frame:
        return pd.Series(0.0, index=frame.index)
    return frame[name].clip(lower=0).astype(float)


def row_sums(frame: pd.DataFrame, *columns: str) -> pd.Series:
    """Per record, the columns' sum, negatives as 0."""
    return frame[list(columns)].clip(lower=0).sum(axis=1)


def counters_of(frame: pd.DataFrame | None, *columns: str) -> dict[str, float]:
    """Each column the frame has, with its total: a finding's counters."""
    return {c: summed(frame, c) for c in columns if frame is not None and c in frame}


def mean_op_time(frame: pd.DataFrame, prefix: str, upper: str, nprocs: int) -> float:
    """The mean rank's seconds in the module's `upper` (READ, WRITE) calls."""
    return summed(frame, f"{prefix}_F_{upper}_TIME") / nprocs


def as_pct(part: float, whole: float) -> str:
    return f"{100 * part / whole:.0f}%" if whole else "0%"


def as_size(nbytes: float) -> str:
    for unit, scale in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if nbytes >= scale:
            return f"{nbytes / scale:.1f} {unit}"
    return f"{nbytes:.0f} B"


def as_secs(seconds: float) -> str:
    return f"{seconds:.3g} s"


def collective_already(ctx: Log, ids: Iterable[Any], ops: str) -> str | None:
    """Where the files `ids` have MPI-IO records whose `ops` (WRITES, READS) are collective
    past T.COLLECTIVE_ALREADY_SHARE: the words saying so ("12,000 of 12,004 MPI-IO writes
    on these files were collective already"), else None. Their POSIX calls are then the
    aggregators' own, and advice to make the I/O collective would be advice to do what the
    program does (issue 42: 17 findings on 5 logs whose MPI-IO calls were 99.7 % or more
    collective)."""
    frame = ctx.frame("MPI-IO")
    if frame is None:
        return None
    mine = frame[frame["id"].isin(set(ids))]
    collective = summed(mine, f"MPIIO_COLL_{ops}", f"MPIIO_SPLIT_{ops}")
    calls = collective + summed(mine, f"MPIIO_INDEP_{ops}", f"MPIIO_NB_{ops}")
    if not calls or collective / calls < T.COLLECTIVE_ALREADY_SHARE:
        return None
    return (
        f"{collective:,.0f} of {calls:,.0f} MPI-IO {ops.lower()} on these files were "
        "collective already"
    )


def aggregators_action(already: str, op: str) -> str:
    """Advice for POSIX calls that collective buffering made (collective_already)."""
    return (
        f"{already}: these {op}s are collective buffering's own, so give it larger, aligned "
        "pieces: cb_buffer_size a multiple of the stripe size, and cb_nodes so that each "
        "aggregator writes whole stripes"
    )
