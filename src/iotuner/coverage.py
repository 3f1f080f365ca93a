"""What a knowledge base covers, and whether a group of a log lies inside it.

advise gives a hint and a predicted gain only for a group the training data covers (the
rule is Coverage.gap); elsewhere it says why, with the numbers, and gives none. A model
predicts anything it is asked; the question here is whether the measurements behind it
say anything about the job. Coverage.gap holds the rules.
"""

from dataclasses import dataclass

import pandas as pd

from iotuner.formats import size_group
from iotuner.measurement import System, Workload
from iotuner.tune import EXTRAPOLATE_FACTOR, predicted_size_groups

__all__ = ["SCALE_FACTOR", "Coverage", "size_words"]

SCALE_FACTOR = 2.0
"""How far (a factor on nprocs) a job's scale may lie from the nearest trained scale,
inside the trained range, and still count as covered. RATIONALE: one doubling keeps the
ranks per collective-buffering aggregator within a factor of two of a measured case;
between sparser scales (2 and 64, say) the model's answer at 16 rests on neither."""

UNKNOWN = "unknown"


@dataclass(frozen=True)
class Coverage:
    """The system, scales, sizes and kinds of access a training frame measured."""

    host: str
    fs_type: str
    scales: tuple[int, ...]
    low_bytes: int
    high_bytes: int
    trained_groups: frozenset[int]
    beyond_groups: frozenset[int]
    kinds: frozenset[tuple[str, str, str]]

    @classmethod
    def of(cls, summary: pd.DataFrame, system: System) -> "Coverage":
        """The coverage of `summary` (the frame a model learned from) measured on `system`."""
        trained, beyond = predicted_size_groups(summary)
        kinds = summary[["pattern", "op", "layout"]].drop_duplicates().itertuples(index=False)
        return cls(
            host=system.host,
            fs_type=system.fs_type,
            scales=tuple(sorted({int(n) for n in summary["nprocs"].unique()})),
            low_bytes=int(summary["bytes_per_rank"].min()),
            high_bytes=int(summary["bytes_per_rank"].max()),
            trained_groups=frozenset(trained),
            beyond_groups=frozenset(beyond),
            kinds=frozenset((str(p), str(o), str(la)) for p, o, la in kinds),
        )

    def words(self) -> str:
        """'trained at 1 and 2 ranks on ext4 (host vm), 64 KiB-512 KiB per call,
        collective and independent writes'."""
        listed = [str(n) for n in self.scales]
        ranks = listed[0] if len(listed) == 1 else f"{', '.join(listed[:-1])} and {listed[-1]}"
        sizes = size_words(self.low_bytes)
        if self.high_bytes != self.low_bytes:
            sizes += f"-{size_words(self.high_bytes)}"
        patterns = " and ".join(sorted({p for p, _, _ in self.kinds}))
        ops = " and ".join(sorted({o + "s" for _, o, _ in self.kinds}))
        host = f" (host {self.host})" if self.host != UNKNOWN else ""
        return (
            f"trained at {ranks} rank{'s' if self.scales[-1] > 1 else ''} on {self.fs_type}{host}, "
            f"{sizes} per call, {patterns} {ops}"
        )

    def gap(self, workload: Workload, fs_type: str, host: str | None) -> str | None:
        """Why a group with this workload, on a file system of `fs_type` ("unknown" when
        the log does not tell) and on `host` (None when the log does not tell), lies
        outside the coverage, in plain words with the numbers; None when it is covered.

        A group is covered when all of these hold:

        * system: the file system type under the group's files is the knowledge base's (a
          log that does not tell its file system is not covered), and where the log names
          its host (our trace logs do; Darshan logs do not), the host is the knowledge
          base's. Hints act through the MPI-IO driver and the file system's locking and
          striping, so what was measured on a local ext4 disk says nothing of Lustre.
        * scale: the job's ranks lie within the trained range [smallest, largest] and within
          SCALE_FACTOR of a trained scale. The models (trees and boosted trees among them)
          cannot extrapolate in nprocs: beyond the range they repeat the edge's prediction;
          and collective buffering changes its behaviour with the ranks per aggregator, so a
          scale far from every measured one is a guess even inside the range.
        * transfer size: the group's size group is one tune predicts (iotuner.tune's
          predicted_size_groups): those overlapping the trained bytes per call, and for
          collective access up to EXTRAPOLATE_FACTOR beyond, the range tune itself writes
          entries for.
        * access: the (pattern, op, layout) of the group was measured (a model trained on
          writes says nothing of reads).
        """
        problems: list[str] = []
        if fs_type == UNKNOWN:
            problems.append("the log does not tell the file system of its files")
        elif fs_type != self.fs_type:
            problems.append(f"its files are on {fs_type}")
        if host is not None and _short(host) != _short(self.host):
            problems.append(f"it ran on host {host}")
        n = workload.nprocs
        nearest = min(self.scales, key=lambda m: max(n / m, m / n))
        if not self.scales[0] <= n <= self.scales[-1]:
            problems.append(f"it ran {n} ranks, outside the trained range")
        elif max(n / nearest, nearest / n) > SCALE_FACTOR:
            problems.append(
                f"it ran {n} ranks, more than {SCALE_FACTOR:g}x from the nearest trained "
                f"scale ({nearest})"
            )
        kind = (workload.pattern, workload.op, workload.layout)
        if kind not in self.kinds:
            problems.append(
                f"it does {workload.pattern} {workload.op}s ({workload.layout}), never measured"
            )
        group = size_group(workload.bytes_per_rank)
        allowed = self.trained_groups | (
            self.beyond_groups if workload.pattern == "collective" else frozenset()
        )
        if group not in allowed:
            beyond = (
                f", nor within {EXTRAPOLATE_FACTOR}x of it"
                if workload.pattern == "collective"
                else ""
            )
            problems.append(
                f"it moves {size_words(workload.bytes_per_rank)} per call, outside the trained "
                f"sizes{beyond}"
            )
        if not problems:
            return None
        return f"not covered by the knowledge base ({self.words()}): {'; '.join(problems)}"


def _short(host: str) -> str:
    """A host name without its domain (System.detect keeps the first label only)."""
    return host.split(".")[0]


def size_words(nbytes: int) -> str:
    """A byte count in the largest binary unit it reaches: 512 KiB, 1.5 MiB, 13 B."""
    for unit, scale in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if nbytes >= scale:
            value = nbytes / scale
            return f"{value:.0f} {unit}" if value == int(value) else f"{value:.1f} {unit}"
    return f"{nbytes} B"
