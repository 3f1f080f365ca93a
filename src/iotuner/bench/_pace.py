"""How long measurements take: the wall seconds of those made so far, by workload, and
what the rest of a sweep would take at that pace (see iotuner.bench).

A measurement's wall time is the time from the previous result line of its job (from the
job's start for the first one) to its own: it holds what the kernel times (open, calls,
close) and what it does not (deleting the previous file, which on some file systems takes
far longer than the measurement; for the first, starting the job and writing the file a
read plan reads). Each measurement keeps it in its provenance (`wall_seconds`), so a
resumed sweep knows its pace before measuring; results from before that field give their
kernel time (`total_seconds`) instead, an underestimate.
"""

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping

from iotuner.bench._plan import workload_key
from iotuner.measurement import Measurement, Workload

__all__ = ["Pace", "duration_text", "moved_bytes"]


def moved_bytes(workload: Workload) -> int:
    """Bytes one measurement of `workload` moves in its data calls, all ranks."""
    return workload.nprocs * workload.bytes_per_rank * workload.calls_per_open


class Pace:
    """Wall seconds per measurement so far, and estimates from them.

    A workload measured already is estimated by the mean of its own measurements (sizes,
    layouts and file systems differ by orders of magnitude: 1 KiB calls, 1 GiB calls and
    strided files whose deletion takes seconds); one not measured yet by the seconds per
    byte of everything measured, times the bytes it moves, and at least the cheapest
    workload's mean. Nothing measured: no estimate (None)."""

    def __init__(self) -> None:
        self._seconds: dict[str, list[float]] = defaultdict(list)
        self._bytes: dict[str, int] = {}

    def add(self, workload: Workload, seconds: float) -> None:
        key = workload_key(workload)
        self._seconds[key].append(max(0.0, seconds))
        self._bytes[key] = moved_bytes(workload)

    @classmethod
    def from_measurements(cls, measurements: Iterable[Measurement]) -> "Pace":
        """The pace of measurements read back from a results file (their wall_seconds, else
        their total_seconds, else their data seconds)."""
        pace = cls()
        for m in measurements:
            for name in ("wall_seconds", "total_seconds"):
                value = m.provenance.get(name)
                if isinstance(value, int | float) and math.isfinite(value):
                    pace.add(m.workload, float(value))
                    break
            else:
                pace.add(m.workload, m.seconds)
        return pace

    @property
    def count(self) -> int:
        """How many measurements the pace is made of."""
        return sum(len(s) for s in self._seconds.values())

    def estimate(self, workload: Workload) -> float | None:
        """Seconds one more measurement of `workload` takes (see the class text)."""
        own = self._seconds.get(workload_key(workload))
        if own:
            return sum(own) / len(own)
        if not self._seconds:
            return None
        seconds = sum(sum(s) for s in self._seconds.values())
        moved = sum(self._bytes[k] * len(s) for k, s in self._seconds.items())
        cheapest = min(sum(s) / len(s) for s in self._seconds.values())
        return max(cheapest, seconds / max(moved, 1) * moved_bytes(workload))

    def total(self, counts: Mapping[str, tuple[Workload, int]]) -> float | None:
        """Seconds for `counts` (workload key: the workload and its number of measurements);
        None when there is no estimate yet."""
        total = 0.0
        for workload, n in counts.values():
            if n <= 0:
                continue
            each = self.estimate(workload)
            if each is None:
                return None
            total += each * n
        return total


def duration_text(seconds: float) -> str:
    """'5 ms', '0.8 s', '45 s', '20 min', '2.5 min', '3.2 h': a duration as a person reads
    it."""
    seconds = max(seconds, 0.0)
    if 0 < seconds < 0.095:
        return f"{seconds * 1000:.0f} ms"
    if seconds < 9.95:
        return f"{seconds:.1f} s"
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 120 * 60:
        minutes = seconds / 60
        return (
            f"{minutes:.0f} min" if abs(minutes - round(minutes)) < 0.05 else f"{minutes:.1f} min"
        )
    return f"{seconds / 3600:.1f} h"
